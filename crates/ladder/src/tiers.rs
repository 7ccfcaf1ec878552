//! The tier minimums a Skyweaver ladder runs on: Table 1 of the Skyweaver white paper by
//! default, or a designer's own cut (`rungs tiers`). Only the minimums move: the hard floors
//! stay on the tiers Table 1 marks (Wanderer, Trainee I, Apprentice I, Expert I, Master), at
//! whatever minimum those tiers now have, and the hard reset values stay Table 1's.

use serde::{Deserialize, Serialize};

/// A rank of Table 1, lowest first. Grandweaver is not a threshold but the top N Masters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tier {
    Wanderer,
    TraineeI,
    TraineeII,
    TraineeIII,
    ApprenticeI,
    ApprenticeII,
    ApprenticeIII,
    ExpertI,
    ExpertII,
    ExpertIII,
    Master,
    Grandweaver,
}

impl Tier {
    pub const ALL: [Tier; 12] = [
        Tier::Wanderer,
        Tier::TraineeI,
        Tier::TraineeII,
        Tier::TraineeIII,
        Tier::ApprenticeI,
        Tier::ApprenticeII,
        Tier::ApprenticeIII,
        Tier::ExpertI,
        Tier::ExpertII,
        Tier::ExpertIII,
        Tier::Master,
        Tier::Grandweaver,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Tier::Wanderer => "Wanderer",
            Tier::TraineeI => "Trainee I",
            Tier::TraineeII => "Trainee II",
            Tier::TraineeIII => "Trainee III",
            Tier::ApprenticeI => "Apprentice I",
            Tier::ApprenticeII => "Apprentice II",
            Tier::ApprenticeIII => "Apprentice III",
            Tier::ExpertI => "Expert I",
            Tier::ExpertII => "Expert II",
            Tier::ExpertIII => "Expert III",
            Tier::Master => "Master",
            Tier::Grandweaver => "Grandweaver",
        }
    }
}

/// How many tiers have a minimum: Wanderer to Master (Grandweaver is the top N Masters).
pub const CUT_TIERS: usize = 11;

/// Master's minimum may not pass the weekly soft reset's cap on Masters (1300 RP): above
/// it, the cap would put every capped Master back below Master.
pub const MASTER_CAP: f64 = 1300.0;

/// The tiers Table 1 gives a hard floor.
const HARD_FLOOR: [bool; CUT_TIERS] = [
    true, true, false, false, true, false, false, true, false, false, true,
];

/// The RP minimum of each tier, Wanderer first, Master last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TierTable {
    minimums: [f64; CUT_TIERS],
}

impl Default for TierTable {
    fn default() -> Self {
        TierTable::TABLE_1
    }
}

/// Why a table of minimums was refused: the tier, the value and what to give.
#[derive(Debug, Clone, PartialEq)]
pub struct TierTableError {
    /// The tier whose minimum is wrong (`None`: the count of numbers is).
    pub tier: Option<Tier>,
    pub value: String,
    pub give: String,
}

impl TierTable {
    /// Table 1 of the white paper.
    pub const TABLE_1: TierTable = TierTable {
        minimums: [
            200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0, 1100.0, 1200.0,
        ],
    };

    /// A table from its minimums, Wanderer first (checked by [`TierTable::check`]).
    pub fn new(minimums: [f64; CUT_TIERS]) -> TierTable {
        TierTable { minimums }
    }

    pub fn minimums(&self) -> [f64; CUT_TIERS] {
        self.minimums
    }

    pub fn is_table_1(&self) -> bool {
        *self == TierTable::TABLE_1
    }

    /// The RP at which `tier` begins (Grandweaver: Master's, as it is the top N Masters).
    pub fn min_rp(&self, tier: Tier) -> f64 {
        self.minimums[(tier as usize).min(CUT_TIERS - 1)]
    }

    /// The tier an RP value falls in, Grandweaver aside (that depends on the others).
    pub fn of_rp(&self, rp: f64) -> Tier {
        (0..CUT_TIERS)
            .rev()
            .find(|&i| rp >= self.minimums[i])
            .map_or(Tier::Wanderer, |i| Tier::ALL[i])
    }

    /// The highest hard floor at or below `rp` (0 below Wanderer).
    pub fn floor_reached(&self, rp: f64) -> f64 {
        (0..CUT_TIERS)
            .filter(|&i| HARD_FLOOR[i] && rp >= self.minimums[i])
            .map(|i| self.minimums[i])
            .fold(0.0, f64::max)
    }

    /// Every minimum finite and at least 0, each above the one below, Master's at most
    /// [`MASTER_CAP`].
    pub fn check(&self) -> Result<(), TierTableError> {
        let mut below: Option<(Tier, f64)> = None;
        for (i, &m) in self.minimums.iter().enumerate() {
            let tier = Tier::ALL[i];
            let give = match below {
                None => format!("a number from 0 to {MASTER_CAP}"),
                Some((t, b)) => format!(
                    "a number above {}'s {} and at most {MASTER_CAP}",
                    t.name(),
                    crate::values::number_text(b)
                ),
            };
            let fine = (0.0..=MASTER_CAP).contains(&m) && below.is_none_or(|(_, b)| m > b);
            if !fine {
                return Err(TierTableError {
                    tier: Some(tier),
                    value: crate::values::number_text(m),
                    give,
                });
            }
            below = Some((tier, m));
        }
        Ok(())
    }

    /// The minimums as typed: `200,300,…,1200`.
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .minimums
            .iter()
            .map(|m| crate::values::number_text(*m))
            .collect();
        parts.join(",")
    }

    /// A table from its typed form, 11 numbers separated by commas, Wanderer first; checked.
    pub fn parse(text: &str) -> Result<TierTable, TierTableError> {
        let mut minimums = [0.0; CUT_TIERS];
        let mut count = 0usize;
        for part in text.split(',') {
            let part = part.trim();
            if count >= CUT_TIERS {
                count += 1;
                continue;
            }
            let tier = Tier::ALL[count];
            minimums[count] = part
                .parse::<f64>()
                .ok()
                .filter(|m| m.is_finite())
                .ok_or_else(|| TierTableError {
                    tier: Some(tier),
                    value: crate::values::shown(part).into_owned(),
                    give: "a number".into(),
                })?;
            count += 1;
        }
        if count != CUT_TIERS {
            return Err(TierTableError::count(count));
        }
        let table = TierTable { minimums };
        table.check()?;
        Ok(table)
    }
}

impl TierTableError {
    fn count(count: usize) -> TierTableError {
        TierTableError {
            tier: None,
            value: format!("{count} numbers"),
            give: format!("{CUT_TIERS} numbers, Wanderer's minimum first and Master's last"),
        }
    }

    /// What the error is about: "Trainee II's minimum", or "the number of minimums".
    pub fn subject(&self) -> String {
        match self.tier {
            Some(t) => format!("{}'s minimum", t.name()),
            None => "the number of minimums".into(),
        }
    }
}

impl Serialize for TierTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.minimums.serialize(s)
    }
}

/// Read as a list of numbers, never more than 11 kept (a hostile file's list of a million is
/// refused at the twelfth); the values are checked with the rest of the rules
/// (`Rules::check`).
impl<'de> Deserialize<'de> for TierTable {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TierTable, D::Error> {
        struct Minimums;
        impl<'de> serde::de::Visitor<'de> for Minimums {
            type Value = TierTable;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "{CUT_TIERS} tier minimums, Wanderer first")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TierTable, A::Error> {
                use serde::de::Error;
                let mut minimums = [0.0; CUT_TIERS];
                let mut count = 0;
                while let Some(m) = seq.next_element::<f64>()? {
                    if count == CUT_TIERS {
                        return Err(A::Error::custom(format!(
                            "tier_minimums: more than {CUT_TIERS} numbers; give {CUT_TIERS}, Wanderer's minimum first and Master's last"
                        )));
                    }
                    minimums[count] = m;
                    count += 1;
                }
                if count != CUT_TIERS {
                    let e = TierTableError::count(count);
                    return Err(A::Error::custom(format!(
                        "tier_minimums: {}; give {}",
                        e.value, e.give
                    )));
                }
                Ok(TierTable { minimums })
            }
        }
        d.deserialize_seq(Minimums)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_one_tiers_and_floors() {
        let t = TierTable::TABLE_1;
        assert_eq!(t.of_rp(200.0), Tier::Wanderer);
        assert_eq!(t.of_rp(299.0), Tier::Wanderer);
        assert_eq!(t.of_rp(300.0), Tier::TraineeI);
        assert_eq!(t.of_rp(1199.0), Tier::ExpertIII);
        assert_eq!(t.of_rp(1500.0), Tier::Master);
        assert_eq!(t.floor_reached(850.0), 600.0);
        assert_eq!(t.floor_reached(1250.0), 1200.0);
        assert_eq!(t.floor_reached(150.0), 0.0);
        assert_eq!(t.min_rp(Tier::Grandweaver), 1200.0);
    }

    /// The floors stay on Table 1's floor tiers at their new minimums: with Apprentice I at
    /// 650 and Expert I at 950, 940 RP has reached Apprentice I's floor (650), not 600.
    #[test]
    fn floors_follow_their_tiers_minimums() {
        let t = TierTable::parse("200,300,400,500,650,700,800,950,1000,1100,1200").unwrap();
        assert_eq!(t.floor_reached(940.0), 650.0);
        assert_eq!(t.floor_reached(950.0), 950.0);
        assert_eq!(t.of_rp(649.0), Tier::TraineeIII);
        assert_eq!(t.text(), "200,300,400,500,650,700,800,950,1000,1100,1200");
    }

    #[test]
    fn bad_tables_are_refused_by_tier() {
        let e = TierTable::parse("200,300,300,500,600,700,800,900,1000,1100,1200").unwrap_err();
        assert_eq!(e.subject(), "Trainee II's minimum");
        assert_eq!(e.give, "a number above Trainee I's 300 and at most 1300");
        let e = TierTable::parse("200,300").unwrap_err();
        assert_eq!(
            (e.subject().as_str(), e.value.as_str()),
            ("the number of minimums", "2 numbers")
        );
        let e = TierTable::parse("NaN,300,400,500,600,700,800,900,1000,1100,1200").unwrap_err();
        assert_eq!(e.tier, Some(Tier::Wanderer));
        let e = TierTable::parse("200,300,400,500,600,700,800,900,1000,1100,1e308").unwrap_err();
        assert_eq!((e.tier, e.value.as_str()), (Some(Tier::Master), "1e308"));
        let e = TierTable::parse("-1,300,400,500,600,700,800,900,1000,1100,1200").unwrap_err();
        assert_eq!(e.tier, Some(Tier::Wanderer));
    }
}
