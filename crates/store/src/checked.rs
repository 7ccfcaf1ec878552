//! [`Change`]: the only thing [`Store::commit`](crate::Store::commit) writes. Its rows are
//! checked when it is made, so code outside this crate cannot hand the store rows that no
//! check has seen.
//!
//! What a row can hold is checked by its types: a name is a
//! [`PlayerName`](rungs_ladder::values::PlayerName) and medals are
//! [`Medals`](rungs_ladder::values::Medals), so an event with an empty name, a control
//! character or a comma in it cannot be built at all. What the types cannot say is checked
//! here: the numbers a migration, a scenario's figures or a rules change carry, and that the
//! players a round, a pairing rule or a migration names are distinct. What depends on the
//! ladder (that every player named has joined, that a side is not empty, that nobody plays
//! on both sides, that a name is free) is checked by the commit itself, under its
//! transaction, against the ladder as it stands then.

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::values::{medal_count, number_text, win_fraction};

/// Why rows were refused before they reached the store: `row` counts from 1 in a change, and
/// is the log's own number in an imported log.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ChangeError {
    #[error("row {row} names player #{id} twice")]
    PlayerTwice { row: usize, id: PlayerId },
    #[error("row {row} gives {what} {value}, which is not a finite number")]
    NotFinite {
        row: usize,
        what: &'static str,
        value: String,
    },
    #[error("row {row}: {what} {message}")]
    OutOfRange {
        row: usize,
        what: &'static str,
        message: String,
    },
}

/// Log rows, checked, under the label the undo list shows for them.
///
/// An unchecked event does not compile:
///
/// ```compile_fail
/// use rungs_ladder::event::Event;
/// // A name is a checked `PlayerName`: a plain string is no name.
/// let join = Event::Player { id: 0, name: String::from("\u{1b}[2J=cmd"), undated: false };
/// ```
///
/// nor do rows handed to the store without a check:
///
/// ```compile_fail
/// use rungs_ladder::event::{Entry, Event};
/// use rungs_store::Store;
/// fn write(store: &mut Store, rows: &[(chrono::NaiveDate, Entry)]) {
///     let _ = store.commit("joined", rows);
/// }
/// ```
///
/// The checked way:
///
/// ```
/// use rungs_ladder::event::{Entry, Event};
/// use rungs_ladder::values::PlayerName;
/// use rungs_store::{Change, Store};
/// fn join(store: &mut Store, name: &str) -> Result<Vec<u64>, Box<dyn std::error::Error>> {
///     let name = PlayerName::parse(name)?;
///     let day = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).ok_or("no such day")?;
///     let event = Event::Player { id: 0, name, undated: false };
///     let change = Change::new("added a player", vec![(day, Entry::Add { event })])?;
///     Ok(store.commit(&change)?)
/// }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    label: String,
    rows: Vec<(NaiveDate, Entry)>,
}

impl Change {
    /// `rows` under `label`, if every row passes the checks that need no ladder: finite
    /// numbers in a migration, a scenario's figures and a rules change, and distinct players
    /// in a round, a pairing rule and a migration. The rest waits for the commit, which
    /// checks against the ladder as it stands then.
    pub fn new(
        label: impl Into<String>,
        rows: Vec<(NaiveDate, Entry)>,
    ) -> Result<Change, ChangeError> {
        for (i, (_, entry)) in rows.iter().enumerate() {
            let (Entry::Add { event } | Entry::Edit { event, .. }) = entry else {
                continue;
            };
            check(i + 1, event)?;
        }
        Ok(Change {
            label: label.into(),
            rows,
        })
    }

    /// How the change reads in the undo list.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The rows the change writes.
    pub fn rows(&self) -> &[(NaiveDate, Entry)] {
        &self.rows
    }

    /// The rows, given back (a large change's memory is freed once written).
    pub fn into_rows(self) -> Vec<(NaiveDate, Entry)> {
        self.rows
    }
}

/// The checks of one event that need no ladder (see [`Change::new`]).
pub(crate) fn check(row: usize, event: &Event) -> Result<(), ChangeError> {
    let finite = |what: &'static str, value: f64| {
        if value.is_finite() {
            Ok(())
        } else {
            Err(ChangeError::NotFinite {
                row,
                what,
                value: number_text(value),
            })
        }
    };
    match event {
        Event::Migration { migration } => {
            distinct(row, migration.entries.iter().map(|e| e.player))?;
            for e in &migration.entries {
                finite("an Elo rating", e.elo)?;
            }
        }
        Event::Round { round } => distinct(row, round.players())?,
        Event::PairRule { a, b, .. } => distinct(row, [*a, *b])?,
        Event::Scenario { figures } => {
            win_fraction(figures.ratio).map_err(|m| ChangeError::OutOfRange {
                row,
                what: "the scenario's win fraction",
                message: m.to_string(),
            })?;
            for average in figures.averages {
                medal_count(average).map_err(|e| ChangeError::OutOfRange {
                    row,
                    what: "the scenario's average medals",
                    message: e.to_string(),
                })?;
            }
        }
        Event::Rules { rules } => rules.check().map_err(|e| ChangeError::OutOfRange {
            row,
            what: "the rules",
            message: e.to_string(),
        })?,
        Event::ChallengeLadder { settings, order } => {
            distinct(row, order.iter().copied())?;
            settings
                .check()
                .map_err(|message| ChangeError::OutOfRange {
                    row,
                    what: "the challenge ladder's rules",
                    message,
                })?
        }
        Event::Challenge {
            challenger,
            defender,
        } => distinct(row, [*challenger, *defender])?,
        Event::BoxPeriod { period } => {
            distinct(row, period.players())?;
            period.check().map_err(|message| ChangeError::OutOfRange {
                row,
                what: "the box period",
                message,
            })?
        }
        Event::ChallengePlace { .. } | Event::BoxWithdraw { .. } | Event::BoxJoin { .. } => {}
        Event::Player { .. }
        | Event::DueResets
        | Event::Rename { .. }
        | Event::Retire { .. }
        | Event::Match(_)
        | Event::SoftReset
        | Event::HardReset => {}
    }
    Ok(())
}

/// Refuses a list that names a player twice.
fn distinct(row: usize, ids: impl IntoIterator<Item = PlayerId>) -> Result<(), ChangeError> {
    let mut seen: Vec<PlayerId> = ids.into_iter().collect();
    seen.sort_unstable();
    match seen.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(ChangeError::PlayerTwice { row, id: w[0] }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::{Migration, MigrationEntry, OldRank, PairRule, ScenarioOverride};

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 1, 1).unwrap_or_default()
    }

    fn one(event: Event) -> Result<Change, ChangeError> {
        Change::new("x", vec![(day(), Entry::Add { event })])
    }

    #[test]
    fn numbers_and_lists_no_type_can_check_are_checked() {
        let migration = |elo: f64, players: [PlayerId; 2]| Event::Migration {
            migration: Box::new(Migration {
                entries: players
                    .into_iter()
                    .map(|player| MigrationEntry {
                        player,
                        elo,
                        old_rank: OldRank::Master,
                    })
                    .collect(),
            }),
        };
        assert!(one(migration(1800.0, [0, 1])).is_ok());
        assert_eq!(
            one(migration(f64::NAN, [0, 1])).unwrap_err().to_string(),
            "row 1 gives an Elo rating NaN, which is not a finite number"
        );
        assert_eq!(
            one(migration(1800.0, [1, 1])),
            Err(ChangeError::PlayerTwice { row: 1, id: 1 })
        );
        let rule = |a, b| Event::PairRule {
            a,
            b,
            rule: PairRule::Forbid,
        };
        assert!(one(rule(2, 3)).is_ok());
        assert_eq!(
            one(rule(3, 3)),
            Err(ChangeError::PlayerTwice { row: 1, id: 3 })
        );
        let figures = |ratio: f64, averages: [f64; 2]| Event::Scenario {
            figures: Box::new(ScenarioOverride {
                scenario: "Pegasus Bridge".into(),
                sides: ["Allies".into(), "Axis".into()],
                ratio,
                averages,
            }),
        };
        assert!(one(figures(0.6, [4.0, 3.5])).is_ok());
        assert!(matches!(
            one(figures(1.0, [4.0, 3.5])),
            Err(ChangeError::OutOfRange { row: 1, .. })
        ));
        assert!(matches!(
            one(figures(0.6, [f64::INFINITY, 3.5])),
            Err(ChangeError::OutOfRange { row: 1, .. })
        ));
    }
}
