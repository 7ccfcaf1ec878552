//! Margin of victory for the Elo/Glicko family: how much more a match moves the
//! ratings when it was won by more. Each option is a multiplier on the update; 1 for a
//! one-goal win, so that a ladder without scores moves exactly as before.

/// The margin options. Stored, and set as the `margin` parameter, by their codes 0 to 3
/// ([`Margin::code`]); no other code is an option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Margin {
    /// Every win counts alike: the multiplier is 1.
    #[default]
    None,
    /// World Football Elo's goal-difference index: 1 for a win by one goal (and a draw), 1.5
    /// by two, 1.75 by three, then 1.75 + (N − 3)/8.
    WorldFootball,
    /// ln(1 + N)/ln 2 (1 at N = 1), times the autocorrelation correction 2.2/(0.001·Δ + 2.2)
    /// with Δ the winner's rating lead (side advantage included), as FiveThirtyEight's NFL
    /// Elo: a favourite's big win is expected, and moves less.
    Log,
    /// √N (1 at N = 1).
    Sqrt,
}

/// A margin code that names no option.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnknownMargin(pub f64);

impl std::fmt::Display for UnknownMargin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "margin {} is not an option; give 0 (none), 1 (World Football Elo), 2 (log) or \
             3 (square root)",
            self.0
        )
    }
}

impl std::error::Error for UnknownMargin {}

impl Margin {
    /// Every option, by code.
    pub const ALL: [Margin; 4] = [
        Margin::None,
        Margin::WorldFootball,
        Margin::Log,
        Margin::Sqrt,
    ];

    /// The option's code, as files and the `margin` parameter hold it.
    pub fn code(self) -> f64 {
        match self {
            Margin::None => 0.0,
            Margin::WorldFootball => 1.0,
            Margin::Log => 2.0,
            Margin::Sqrt => 3.0,
        }
    }

    /// The option a code names; any other number is refused, not read as no margin.
    pub fn from_code(code: f64) -> Result<Margin, UnknownMargin> {
        Margin::ALL
            .into_iter()
            .find(|m| m.code() == code)
            .ok_or(UnknownMargin(code))
    }
}

impl serde::Serialize for Margin {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Margin {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Margin, D::Error> {
        let code = f64::deserialize(d)?;
        Margin::from_code(code).map_err(serde::de::Error::custom)
    }
}

/// The multiplier for a match won by `difference` goals (0: a draw), where the winner led by
/// `winner_lead` rating points going in. Without a score (`None`) it is 1.
pub fn multiplier(option: Margin, difference: Option<u32>, winner_lead: f64) -> f64 {
    let Some(n) = difference else {
        return 1.0;
    };
    let n = f64::from(n.max(1));
    let m = match option {
        Margin::WorldFootball => match n as u32 {
            0 | 1 => 1.0,
            2 => 1.5,
            _ => 1.75 + (n - 3.0) / 8.0,
        },
        Margin::Log => {
            let lead = if winner_lead.is_finite() {
                winner_lead
            } else {
                0.0
            };
            // The correction's denominator stays positive for any lead above −2200 points;
            // leads below that are held there (a rating scale this wide is past any real
            // ladder).
            let correction = 2.2 / (0.001 * lead.max(-1100.0) + 2.2);
            (1.0 + n).ln() / std::f64::consts::LN_2 * correction
        }
        Margin::Sqrt => n.sqrt(),
        Margin::None => 1.0,
    };
    if m.is_finite() { m } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each option by hand.
    ///   World Football Elo: N = 1 → 1, 2 → 1.5, 3 → 1.75, 4 → 1.875, 6 → 2.125.
    ///   log: N = 3, lead 0 → ln 4/ln 2 = 2; lead 200 → 2·2.2/(0.2 + 2.2) = 1.8333333;
    ///        lead −200 (an upset) → 2·2.2/2.0 = 2.2.
    ///   √N: N = 4 → 2; a draw counts as N = 1 → 1.
    #[test]
    fn multipliers_by_hand() {
        let wfe = |n| multiplier(Margin::WorldFootball, Some(n), 0.0);
        assert_eq!(
            [wfe(0), wfe(1), wfe(2), wfe(3), wfe(4), wfe(6)],
            [1.0, 1.0, 1.5, 1.75, 1.875, 2.125]
        );
        assert!((multiplier(Margin::Log, Some(3), 0.0) - 2.0).abs() < 1e-12);
        assert!((multiplier(Margin::Log, Some(3), 200.0) - 1.833_333_3).abs() < 1e-7);
        assert!((multiplier(Margin::Log, Some(3), -200.0) - 2.2).abs() < 1e-12);
        assert!((multiplier(Margin::Log, Some(1), 0.0) - 1.0).abs() < 1e-12);
        assert_eq!(multiplier(Margin::Sqrt, Some(4), 0.0), 2.0);
        assert_eq!(multiplier(Margin::Sqrt, Some(0), 0.0), 1.0);
        for option in Margin::ALL {
            assert_eq!(multiplier(option, None, 123.0), 1.0);
        }
        assert_eq!(multiplier(Margin::None, Some(9), 0.0), 1.0);
        assert!(multiplier(Margin::Log, Some(1000), -1e308).is_finite());
    }

    /// The stored codes read back as the options they name, and write as the numbers they
    /// were (a file's rules stay byte for byte); a code that names no option is refused.
    #[test]
    fn margin_codes_are_the_only_options() {
        for (code, option) in [
            ("0.0", Margin::None),
            ("1.0", Margin::WorldFootball),
            ("2.0", Margin::Log),
            ("3.0", Margin::Sqrt),
        ] {
            let read: Margin = serde_json::from_str(code).unwrap();
            assert_eq!(read, option);
            assert_eq!(serde_json::to_string(&read).unwrap(), code);
        }
        for code in ["4.0", "1.5", "-1.0"] {
            let e = serde_json::from_str::<Margin>(code)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("margin "), "{e}");
            assert!(e.contains("is not an option"), "{e}");
        }
        assert_eq!(Margin::from_code(4.0), Err(UnknownMargin(4.0)));
    }
}
