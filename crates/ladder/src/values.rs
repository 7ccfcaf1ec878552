//! Value types that cannot hold a bad value, so that bad input is refused in words before it
//! reaches the log: a player's name, a calendar day, medal counts. Each is made by one parser
//! that says what is wrong in plain words; every front end and every importer goes through
//! these, so a rule about names or dates has one home.

use chrono::{Datelike, NaiveDate};
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The longest name, in characters.
pub const NAME_MAX_CHARS: usize = 80;
/// The earliest and latest dates a ladder holds: four-digit years of the common era.
pub const FIRST_DAY: NaiveDate = NaiveDate::from_ymd_opt(1, 1, 1).unwrap();
pub const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
/// The largest medal count a match may carry (Memoir '44 battles are won at 4 to 6 medals;
/// the bound leaves room for house variants and keeps every sum finite).
pub const MEDALS_MAX: f64 = 1000.0;

/// Why a piece of text is not a player name. Each message reads after "name `…`: ".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("is empty")]
    Empty,
    /// `typed` counts what was written, spaces trimmed; `kept`, the name as the ladder keeps it
    /// (Unicode's composed form, NFC, in which a few characters are two).
    #[error(
        "is {kept} characters long{}; the limit is {NAME_MAX_CHARS}",
        if typed == kept { String::new() } else {
            format!(" as the ladder keeps it (written with {typed}, some of which Unicode's \
                     composed form NFC writes as two)")
        }
    )]
    TooLong { typed: usize, kept: usize },
    #[error("contains the control character {0}; names are plain text")]
    Control(String),
    #[error(
        "contains the invisible formatting character {0} (a zero-width or direction mark); \
         two names that look the same must be the same name"
    )]
    Format(String),
    #[error("contains the character {0}, which has no agreed meaning (private or unassigned)")]
    Unassigned(String),
    #[error("contains a comma, which separates the members of a team (`Ann,Bo`)")]
    Comma,
    #[error(
        "begins with `{0}`, which a spreadsheet would run as a formula; start it with a letter \
         or digit"
    )]
    FormulaStart(char),
}

/// A player's name as the ladder keeps it: Unicode NFC, trimmed, every run of spaces one
/// ASCII space, no control, format (zero-width, bidirectional) or unassigned characters, no
/// comma (the team separator), not starting like a spreadsheet formula, at most
/// [`NAME_MAX_CHARS`] characters.
///
/// Events hold names of this type, so a name that fails the check cannot be written to a
/// ladder; a stored name reads back through the same check (serde's `try_from`), and is
/// serialised as the plain string it holds, so the stored bytes are those of a `String`.
/// A stored name is kept as it was written: an older rungs kept names as typed (a decomposed
/// "Cafe\u{301}" beside "Café"), and such a name, which the check would only have put in
/// NFC, reads back byte for byte; a name the check refuses is damage.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "String", into = "String")]
pub struct PlayerName(String);

impl TryFrom<String> for PlayerName {
    type Error = NameError;

    /// Stored text, kept as it is if the check accepts it.
    fn try_from(text: String) -> Result<PlayerName, NameError> {
        PlayerName::parse(&text)?;
        Ok(PlayerName(text))
    }
}

impl From<PlayerName> for String {
    fn from(name: PlayerName) -> String {
        name.0
    }
}

impl std::ops::Deref for PlayerName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for PlayerName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for PlayerName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for PlayerName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for PlayerName {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<PlayerName> for String {
    fn eq(&self, other: &PlayerName) -> bool {
        *self == other.0
    }
}

/// `U+200B` style, for messages.
/// Text from outside (a name from an older file, an action's label in a log, a file's name)
/// as a terminal or the app may show it: control, format and separator characters written as
/// `U+001B`, so that none moves the cursor, recolours the screen or turns text around; cut at
/// 200 characters. Clean text is passed through as it is.
pub fn shown(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
                | GeneralCategory::PrivateUse
                | GeneralCategory::Unassigned
        )
    };
    if text.len() <= 200 && !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len().min(800));
    for (i, c) in text.chars().enumerate() {
        if i == 200 {
            out.push('…');
            break;
        }
        if unsafe_char(c) {
            out.push_str(&code_point(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

impl PlayerName {
    pub fn parse(text: &str) -> Result<PlayerName, NameError> {
        clean(text, false).map(PlayerName)
    }
}

/// A name or label as the ladder keeps it (see [`PlayerName`]); `comma` allows commas, which
/// only player names refuse.
fn clean(text: &str, comma: bool) -> Result<String, NameError> {
    // ASCII is already NFC; most names are, and an import reads a million of them.
    let nfc: String = if text.is_ascii() {
        text.to_string()
    } else {
        text.nfc().collect()
    };
    let mut name = String::with_capacity(nfc.len());
    let mut pending_space = false;
    for c in nfc.chars() {
        match c.general_category() {
            GeneralCategory::Control => return Err(NameError::Control(code_point(c))),
            GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => {
                return Err(NameError::Format(code_point(c)));
            }
            GeneralCategory::PrivateUse | GeneralCategory::Unassigned => {
                return Err(NameError::Unassigned(code_point(c)));
            }
            GeneralCategory::SpaceSeparator => pending_space = !name.is_empty(),
            _ => {
                if c == ',' && !comma {
                    return Err(NameError::Comma);
                }
                if pending_space {
                    name.push(' ');
                    pending_space = false;
                }
                name.push(c);
            }
        }
    }
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    let chars = name.chars().count();
    if chars > NAME_MAX_CHARS {
        // Counted as kept but for NFC: words joined by single spaces.
        let words: Vec<usize> = text.split_whitespace().map(|w| w.chars().count()).collect();
        let typed = words.iter().sum::<usize>() + words.len().saturating_sub(1);
        return Err(NameError::TooLong { typed, kept: chars });
    }
    if let Some(c) = name.chars().next().filter(|c| "=+-@".contains(*c)) {
        return Err(NameError::FormulaStart(c));
    }
    Ok(name)
}

impl PlayerName {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }

    /// The key two names are compared by: equal keys are the same player.
    pub fn key(&self) -> String {
        name_key(&self.0)
    }
}

impl std::fmt::Display for PlayerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A free-text label kept in the log and shown on screen: a scenario or a scenario side. The
/// rules of a [`PlayerName`], except that commas are allowed.
pub fn label(text: &str) -> Result<String, NameError> {
    clean(text, true)
}

/// The comparison key of any text: NFC after Unicode case folding of its canonical
/// decomposition (canonical caseless matching, Unicode §3.13), every run of white space one
/// space, trimmed — as a name is kept. Names that differ only in case, normal form or spacing
/// ("Ann   Lee", "Ann\u{a0}Lee") have one key, so what is typed finds the player it names.
pub fn name_key(text: &str) -> String {
    // Most texts are spaced as kept already (an import keys a million of them).
    let kept = text
        .split(' ')
        .all(|w| !w.is_empty() && !w.contains(char::is_whitespace));
    let spaced;
    let text = if kept {
        text
    } else {
        spaced = text.split_whitespace().collect::<Vec<_>>().join(" ");
        spaced.as_str()
    };
    if text.is_ascii() {
        // For ASCII, full case folding is lower-casing, and the text is already NFC.
        return text.to_ascii_lowercase();
    }
    let folded = caseless::default_case_fold_str(&text.nfd().collect::<String>());
    folded.nfc().collect()
}

/// Why a date was refused. Messages read after "date `…`: ".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    #[error("does not parse; write it as YYYY-MM-DD, e.g. 2026-11-20")]
    Syntax,
    #[error("is outside 0001-01-01..9999-12-31")]
    OutOfRange,
}

/// A calendar day within 0001-01-01..=9999-12-31: every date a ladder stores, so that the log
/// always reads back as `YYYY-MM-DD`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(NaiveDate);

impl Day {
    /// Reads `YYYY-MM-DD` exactly (surrounding spaces aside). A year of another length or
    /// with a sign (`10000-01-01`, `-0001-01-01`) is a date a ladder cannot hold.
    pub fn parse(text: &str) -> Result<Day, DateError> {
        let t = text.trim();
        let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
        let mut parts = unsigned.splitn(3, '-');
        let (Some(y), Some(m), Some(d)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(DateError::Syntax);
        };
        let digits = |p: &str| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit());
        if !(digits(y) && digits(m) && digits(d) && m.len() == 2 && d.len() == 2) {
            return Err(DateError::Syntax);
        }
        let (Ok(month), Ok(day)) = (m.parse::<u32>(), d.parse::<u32>()) else {
            return Err(DateError::Syntax);
        };
        if t.starts_with('+') && y.len() == 4 {
            // `+2020-01-01` is a day of the range written with a sign: a slip, not a far year.
            return Err(DateError::Syntax);
        }
        if y.len() != 4 || unsigned.len() != t.len() {
            // Well formed, but outside the four-digit years of the common era.
            return if (1..=12).contains(&month) && (1..=31).contains(&day) {
                Err(DateError::OutOfRange)
            } else {
                Err(DateError::Syntax)
            };
        }
        let year: i32 = y.parse().map_err(|_| DateError::Syntax)?;
        let date = NaiveDate::from_ymd_opt(year, month, day).ok_or(DateError::Syntax)?;
        Day::new(date)
    }

    /// A date already read (a CSV's own format, a date picker), checked against the range.
    pub fn new(date: NaiveDate) -> Result<Day, DateError> {
        if (FIRST_DAY..=LAST_DAY).contains(&date) {
            Ok(Day(date))
        } else {
            Err(DateError::OutOfRange)
        }
    }

    pub fn date(self) -> NaiveDate {
        self.0
    }

    /// `days` later, if that is still a day a ladder can hold.
    pub fn plus_days(self, days: u64) -> Option<Day> {
        self.0
            .checked_add_days(chrono::Days::new(days))
            .and_then(|d| Day::new(d).ok())
    }

    pub fn year(self) -> i32 {
        self.0.year()
    }
}

impl std::fmt::Display for Day {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.format("%Y-%m-%d"))
    }
}

/// Why medal counts were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MedalsError {
    #[error("write them as A,B: two numbers from 0 to {MEDALS_MAX}")]
    Syntax,
    #[error("must be numbers from 0 to {MEDALS_MAX}")]
    OutOfRange,
}

/// One medal count: finite, from 0 to [`MEDALS_MAX`].
pub fn medal_count(value: f64) -> Result<f64, MedalsError> {
    if value.is_finite() && (0.0..=MEDALS_MAX).contains(&value) {
        Ok(value)
    } else {
        Err(MedalsError::OutOfRange)
    }
}

/// A match's medal counts, A then B, each a [`medal_count`]. Stored as the pair of numbers
/// (serde's `try_from`), so a pair out of range cannot be written, nor read back unnoticed.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "[f64; 2]", into = "[f64; 2]")]
pub struct Medals([f64; 2]);

impl Medals {
    pub fn new([a, b]: [f64; 2]) -> Result<Medals, MedalsError> {
        Ok(Medals([medal_count(a)?, medal_count(b)?]))
    }

    /// Side A's and side B's counts.
    pub fn get(self) -> [f64; 2] {
        self.0
    }
}

impl TryFrom<[f64; 2]> for Medals {
    type Error = MedalsError;
    fn try_from(pair: [f64; 2]) -> Result<Medals, MedalsError> {
        Medals::new(pair)
    }
}

impl From<Medals> for [f64; 2] {
    fn from(medals: Medals) -> [f64; 2] {
        medals.0
    }
}

/// Both sides' medals, `A,B`.
pub fn parse_medals(text: &str) -> Result<Medals, MedalsError> {
    let (a, b) = text.split_once(',').ok_or(MedalsError::Syntax)?;
    let number = |t: &str| t.trim().parse::<f64>().map_err(|_| MedalsError::Syntax);
    Medals::new([number(a)?, number(b)?])
}

/// The result medal scores decide, from side A's view: Memoir '44's s(sc_A, sc_B) — a win
/// for the side with more medals, a draw when they are equal ("Skill" Ranking in Memoir '44
/// Online, Main Formulae).
pub fn medals_outcome(medals: Medals) -> rungs_rating::Outcome {
    use rungs_rating::Outcome;
    let medals = medals.get();
    match medals[0].total_cmp(&medals[1]) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// Medals as a message shows them: `2,4`.
pub fn medals_text(medals: Medals) -> String {
    let medals = medals.get();
    format!("{},{}", number_text(medals[0]), number_text(medals[1]))
}

/// A number for a message: 1e308 as written, not as its 309 digits.
pub fn number_text(value: f64) -> String {
    if value.abs() >= 1e9 || (value != 0.0 && value.abs() < 1e-6) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// A scenario's win fraction as the organiser gives it: strictly between 0 and 1. At 1 (or
/// 0) Memoir '44's stake 64·[s + ratio − 2·ratio·s] is 0 for a win by the side that always
/// won, and its Skill ranking rules that out ("the winner should always make points").
pub fn win_fraction(value: f64) -> Result<f64, FractionError> {
    if value > 0.0 && value < 1.0 {
        Ok(value)
    } else {
        Err(FractionError)
    }
}

/// Why a win fraction was refused. Reads after the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "must be a fraction strictly between 0 and 1 (at 0 or 1 a winner on the side that always \
     won would make no points)"
)]
pub struct FractionError;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_and_checked() {
        let n = |t: &str| PlayerName::parse(t).map(PlayerName::into_string);
        assert_eq!(n("  Ann   Lee "), Ok("Ann Lee".into()));
        // NBSP and an ideographic space are spaces.
        assert_eq!(n("Ann\u{a0}Lee"), Ok("Ann Lee".into()));
        assert_eq!(n("Ann\u{3000}Lee"), Ok("Ann Lee".into()));
        // NFD "José" (e + combining acute) becomes NFC.
        assert_eq!(n("Jose\u{301}"), Ok("Jos\u{e9}".into()));
        assert_eq!(n("   "), Err(NameError::Empty));
        assert_eq!(n("Ann\u{1b}[31m"), Err(NameError::Control("U+001B".into())));
        assert_eq!(n("Ann\tLee"), Err(NameError::Control("U+0009".into())));
        assert_eq!(n("Ann\u{200b}"), Err(NameError::Format("U+200B".into())));
        assert_eq!(n("\u{202e}nnA"), Err(NameError::Format("U+202E".into())));
        assert_eq!(n("Ann\u{2028}Bo"), Err(NameError::Format("U+2028".into())));
        assert_eq!(
            n("Ann\u{e000}"),
            Err(NameError::Unassigned("U+E000".into()))
        );
        assert_eq!(n("Korea, Republic"), Err(NameError::Comma));
        assert_eq!(n("=HYPERLINK(1)"), Err(NameError::FormulaStart('=')));
        assert_eq!(n("@Bo"), Err(NameError::FormulaStart('@')));
        assert_eq!(
            n(&"x".repeat(81)),
            Err(NameError::TooLong {
                typed: 81,
                kept: 81
            })
        );
        // U+0958 (DEVANAGARI LETTER QA) is two characters in NFC (a composition exclusion): 41
        // typed are 82 kept, and the message says both.
        let qa = n(&"\u{0958}".repeat(41)).unwrap_err();
        assert_eq!(
            qa,
            NameError::TooLong {
                typed: 41,
                kept: 82
            }
        );
        assert_eq!(
            format!("{qa}"),
            "is 82 characters long as the ladder keeps it (written with 41, some of which \
             Unicode's composed form NFC writes as two); the limit is 80"
        );
        assert_eq!(n(&"é".repeat(80)).map(|s| s.chars().count()), Ok(80));
        // Right-to-left letters are letters: only the invisible direction marks are refused.
        assert_eq!(n("سارة"), Ok("سارة".into()));
    }

    #[test]
    fn shown_text_carries_no_control_or_bidi_character() {
        assert_eq!(shown("undo \u{1b}[2J"), "undo U+001B[2J");
        assert_eq!(shown("a\u{202e}b\u{200b}c\nd"), "aU+202EbU+200BcU+000Ad");
        assert_eq!(shown("José"), "José");
        assert_eq!(shown(&"x".repeat(300)), format!("{}…", "x".repeat(200)));
    }

    #[test]
    fn keys_fold_spacing_as_names_are_kept() {
        assert_eq!(name_key("Ann   Lee"), "ann lee");
        assert_eq!(name_key(" Ann\u{a0}Lee\t"), "ann lee");
        assert_eq!(name_key("Ann\u{3000}Lee"), name_key("ann lee"));
        assert_eq!(
            name_key("José  Núñez"),
            PlayerName::parse("JOSÉ NÚÑEZ").unwrap().key()
        );
    }

    #[test]
    fn keys_fold_case_and_normal_form() {
        let key = |t: &str| PlayerName::parse(t).unwrap().key();
        assert_eq!(key("José"), key("Jose\u{301}"));
        assert_eq!(key("ANN"), key("ann"));
        // Full case folding: ß folds to ss, which lower-casing alone does not do.
        assert_eq!(key("STRASSE"), key("straße"));
        assert_ne!(key("Ann"), key("Anne"));
    }

    #[test]
    fn days_hold_four_digit_years_only() {
        assert_eq!(Day::parse("2026-11-20").unwrap().to_string(), "2026-11-20");
        assert_eq!(
            Day::parse(" 0001-01-01 ").unwrap().to_string(),
            "0001-01-01"
        );
        assert_eq!(Day::parse("9999-12-31").unwrap().to_string(), "9999-12-31");
        assert_eq!(Day::parse("0000-12-31"), Err(DateError::OutOfRange));
        assert_eq!(Day::parse("+10000-01-01"), Err(DateError::OutOfRange));
        // A year of the range with a sign is written wrong, not out of range.
        assert_eq!(Day::parse("+2020-01-01"), Err(DateError::Syntax));
        assert_eq!(Day::parse("10000-01-01"), Err(DateError::OutOfRange));
        assert_eq!(Day::parse("-0001-01-01"), Err(DateError::OutOfRange));
        assert_eq!(Day::parse("2026-02-30"), Err(DateError::Syntax));
        assert_eq!(Day::parse("20 Nov 2026"), Err(DateError::Syntax));
        assert_eq!(Day::parse(""), Err(DateError::Syntax));
        let last = Day::parse("9999-12-30").unwrap();
        assert_eq!(
            last.plus_days(1).map(|d| d.to_string()),
            Some("9999-12-31".into())
        );
        assert_eq!(last.plus_days(2), None);
    }

    #[test]
    fn medals_are_small_finite_numbers() {
        assert_eq!(parse_medals("4, 2.5").map(Medals::get), Ok([4.0, 2.5]));
        assert_eq!(parse_medals("1e308,1"), Err(MedalsError::OutOfRange));
        assert_eq!(parse_medals("NaN,1"), Err(MedalsError::OutOfRange));
        assert_eq!(parse_medals("-1,1"), Err(MedalsError::OutOfRange));
        assert_eq!(parse_medals("inf,1"), Err(MedalsError::OutOfRange));
        assert_eq!(parse_medals("4"), Err(MedalsError::Syntax));
        assert_eq!(parse_medals("4,x"), Err(MedalsError::Syntax));
    }
}
