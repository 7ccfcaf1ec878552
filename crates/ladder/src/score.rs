//! The score of a match: points for each side (goals, games, frames) and the class
//! of the event it was played in, with the weight that class carries. Plain data and its text
//! forms; what a rating system makes of them lives with the system.
//!
//! Both are optional on a match: a match without them — every match from before them — is
//! rated from its result alone, exactly as before.

use rungs_rating::Outcome;
use serde::{Deserialize, Serialize};

/// The most points one side may score in a match: a bound, so that a hostile file's
/// 2^63 or 1e308 is refused by name instead of reaching the mathematics. 1000 is the medal
/// bound too, and far above any football, hockey, snooker or darts score.
pub const POINTS_MAX: u32 = 1000;

/// The bounds of a class given as a number (a weight): above 0, at most 10.
pub const WEIGHT_MIN: f64 = 0.0;
pub const WEIGHT_MAX: f64 = 10.0;

/// How much a match counts: its event's class, each with a weight the rules set (a K or step
/// multiplier), or a weight given as a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventClass {
    Friendly,
    League,
    Cup,
    Championship,
    /// A weight given directly, in (0, 10].
    Weight(f64),
}

impl EventClass {
    /// The named classes, lightest first.
    pub const NAMED: [EventClass; 4] = [
        EventClass::Friendly,
        EventClass::League,
        EventClass::Cup,
        EventClass::Championship,
    ];

    /// Reads `friendly`, `league`, `cup`, `championship` (case and spaces aside), or a weight
    /// written as a plain decimal in (0, 10]. Anything else (−1, NaN, 1e308) is `None`.
    pub fn parse(text: &str) -> Option<EventClass> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "friendly" => EventClass::Friendly,
            "league" => EventClass::League,
            "cup" => EventClass::Cup,
            "championship" => EventClass::Championship,
            number => {
                // Plain decimals only: "inf", "1e3" and "NaN" parse as floats but are no weight.
                if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
                    return None;
                }
                return EventClass::weight(number.parse().ok()?);
            }
        })
    }

    /// A weight given as a number, if it lies in (0, 10].
    pub fn weight(w: f64) -> Option<EventClass> {
        (w.is_finite() && w > WEIGHT_MIN && w <= WEIGHT_MAX).then_some(EventClass::Weight(w))
    }

    /// The text [`EventClass::parse`] reads back.
    pub fn as_text(self) -> String {
        match self {
            EventClass::Friendly => "friendly".into(),
            EventClass::League => "league".into(),
            EventClass::Cup => "cup".into(),
            EventClass::Championship => "championship".into(),
            EventClass::Weight(w) => format!("{w}"),
        }
    }

    /// Whether a class read from a file is one a person could have typed (a weight in range).
    pub fn is_valid(self) -> bool {
        match self {
            EventClass::Weight(w) => EventClass::weight(w).is_some(),
            _ => true,
        }
    }
}

/// Stored as its word (`"cup"`) or its weight (`1.5`).
impl Serialize for EventClass {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            EventClass::Weight(w) => s.serialize_f64(*w),
            named => s.serialize_str(&named.as_text()),
        }
    }
}

impl<'de> Deserialize<'de> for EventClass {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<EventClass, D::Error> {
        // A name or a number, read as it comes: no buffering of the value first, no copy of
        // the name (a match's class is read once per match of every replay of a ladder).
        struct Class;
        impl serde::de::Visitor<'_> for Class {
            type Value = EventClass;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a class (friendly, league, cup, championship) or a weight")
            }
            fn visit_str<E: serde::de::Error>(self, w: &str) -> Result<EventClass, E> {
                EventClass::parse(w).ok_or_else(|| {
                    E::custom(format!(
                        "class `{}` is not friendly, league, cup, championship or a weight",
                        w.escape_debug()
                    ))
                })
            }
            // Checked where logs are read (the class names its field there); kept as read.
            fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<EventClass, E> {
                Ok(EventClass::Weight(x))
            }
            fn visit_u64<E: serde::de::Error>(self, x: u64) -> Result<EventClass, E> {
                Ok(EventClass::Weight(x as f64))
            }
            fn visit_i64<E: serde::de::Error>(self, x: i64) -> Result<EventClass, E> {
                Ok(EventClass::Weight(x as f64))
            }
        }
        d.deserialize_any(Class)
    }
}

/// Reads a match's `goals` from a file: two numbers, each a whole number from 0 to
/// [`POINTS_MAX`]; anything else (−1, 1e308, 2^63, 1.5) is refused with a message that names
/// the field and the bound, rather than serde's "expected u32".
pub fn deserialize_goals<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<[u32; 2]>, D::Error> {
    let Some(raw) = Option::<[f64; 2]>::deserialize(d)? else {
        return Ok(None);
    };
    let whole =
        |x: f64| x.is_finite() && x.fract() == 0.0 && (0.0..=f64::from(POINTS_MAX)).contains(&x);
    if raw.iter().all(|&x| whole(x)) {
        Ok(Some(raw.map(|x| x as u32)))
    } else {
        Err(serde::de::Error::custom(format!(
            "goals [{}, {}] must be whole numbers from 0 to {POINTS_MAX}",
            crate::values::number_text(raw[0]),
            crate::values::number_text(raw[1])
        )))
    }
}

/// Why a typed score is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoreError {
    #[error("write it as A-B, each side's points a whole number from 0 to {POINTS_MAX} (3-1)")]
    Syntax,
    #[error("is more than {POINTS_MAX} points for a side")]
    TooMany,
}

/// One side's points as typed: digits only (no sign, no exponent), at most [`POINTS_MAX`].
pub fn points(text: &str) -> Result<u32, ScoreError> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ScoreError::Syntax);
    }
    // More digits than any bound would take: refused without parsing a huge number.
    let digits = t.trim_start_matches('0');
    if digits.len() > 4 {
        return Err(ScoreError::TooMany);
    }
    let n: u32 = if digits.is_empty() {
        0
    } else {
        digits.parse().map_err(|_| ScoreError::Syntax)?
    };
    if n > POINTS_MAX {
        return Err(ScoreError::TooMany);
    }
    Ok(n)
}

/// A score as typed: `3-1`, `3:1` or `3 – 1`, side A's points first.
pub fn parse_score(text: &str) -> Result<[u32; 2], ScoreError> {
    let t = text.trim();
    let (a, b) = t.split_once(['-', ':', '–']).ok_or(ScoreError::Syntax)?;
    Ok([points(a)?, points(b)?])
}

/// The result a score decides, from A's view.
pub fn outcome_of(goals: [u32; 2]) -> Outcome {
    match goals[0].cmp(&goals[1]) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// Whether points read from a file are within the bound.
pub fn goals_valid(goals: [u32; 2]) -> bool {
    goals.iter().all(|&g| g <= POINTS_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_typed_and_hostile_ones_are_refused() {
        assert_eq!(parse_score("3-1"), Ok([3, 1]));
        assert_eq!(parse_score(" 0 : 0 "), Ok([0, 0]));
        assert_eq!(parse_score("1000-007"), Ok([1000, 7]));
        for bad in [
            "-1-0", "1e308-0", "NaN-1", "3", "", "3-", "+3-1", "1.5-0", "3-1-2",
        ] {
            assert_eq!(parse_score(bad), Err(ScoreError::Syntax), "{bad}");
        }
        for big in [
            "1001-0",
            "9223372036854775808-0",
            "0-99999999999999999999999",
        ] {
            assert_eq!(parse_score(big), Err(ScoreError::TooMany), "{big}");
        }
        assert_eq!(outcome_of([3, 1]), Outcome::Win);
        assert_eq!(outcome_of([2, 2]), Outcome::Draw);
        assert_eq!(outcome_of([0, 1]), Outcome::Loss);
    }

    #[test]
    fn classes_read_as_words_or_weights_in_range() {
        assert_eq!(EventClass::parse(" Cup "), Some(EventClass::Cup));
        assert_eq!(EventClass::parse("1.5"), Some(EventClass::Weight(1.5)));
        for bad in ["0", "-1", "10.5", "1e308", "NaN", "inf", "", "final"] {
            assert_eq!(EventClass::parse(bad), None, "{bad}");
        }
        for c in [EventClass::Championship, EventClass::Weight(0.25)] {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<EventClass>(&text).unwrap(), c);
        }
        assert!(!EventClass::Weight(1e308).is_valid());
    }
}
