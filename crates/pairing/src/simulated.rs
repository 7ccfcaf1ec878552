//! The pairing rule a simulation plays by (`rungs simulate --pairing`), so that a
//! designer sees what a club's real pairing rule does to tiers and to rating accuracy: the
//! same engine and forecast as `rungs pair` and the Tonight screen.

use super::balanced::{self, Night};
use super::ladder::{History, present};
use super::model::{PairError, Pairs, Weights};
use super::swiss;
use chrono::NaiveDate;
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a simulated night pairs its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimPairing {
    /// A random player against the one whose rating is nearest their own plus noise (an
    /// online queue; what `simulate` always did).
    #[default]
    Nearest,
    /// A random player against another at random.
    Random,
    /// The players present paired by the balanced engine: the closest games of the night.
    Balanced,
    /// The players present paired as a round of the week's Swiss event.
    Swiss,
}

impl SimPairing {
    pub const ALL: [SimPairing; 4] = [
        SimPairing::Nearest,
        SimPairing::Random,
        SimPairing::Balanced,
        SimPairing::Swiss,
    ];

    pub fn parse(text: &str) -> Option<SimPairing> {
        SimPairing::ALL
            .into_iter()
            .find(|p| p.as_text().eq_ignore_ascii_case(text.trim()))
    }

    pub fn as_text(self) -> &'static str {
        match self {
            SimPairing::Nearest => "nearest",
            SimPairing::Random => "random",
            SimPairing::Balanced => "balanced",
            SimPairing::Swiss => "swiss",
        }
    }

    /// Whether nights are paired as rounds by the engine.
    pub fn by_rounds(self) -> bool {
        matches!(self, SimPairing::Balanced | SimPairing::Swiss)
    }
}

/// A week's Swiss event: points and meetings so far.
#[derive(Debug, Clone, Default)]
pub struct Week {
    pub points: BTreeMap<PlayerId, f64>,
    pub met: Vec<(PlayerId, PlayerId)>,
}

/// One round among `ids` (an even number of distinct players) on `date`, side A first.
pub fn round(
    ladder: &Ladder,
    history: &History,
    ids: &[PlayerId],
    date: NaiveDate,
    pairing: SimPairing,
    week: &Week,
    seed: u64,
) -> Result<Vec<[PlayerId; 2]>, PairError> {
    let (entrants, forecast) = present(ladder, ids, date, history)?;
    let constraints = history.constraints(&entrants, date);
    let r = match pairing {
        SimPairing::Swiss => {
            let index: BTreeMap<PlayerId, usize> = entrants
                .iter()
                .enumerate()
                .map(|(i, e)| (e.id, i))
                .collect();
            let mut met = Pairs::new();
            for (a, b) in &week.met {
                if let (Some(&i), Some(&j)) = (index.get(a), index.get(b)) {
                    met.insert(i, j);
                }
            }
            let event = swiss::Event {
                scores: entrants
                    .iter()
                    .map(|e| week.points.get(&e.id).copied().unwrap_or(0.0))
                    .collect(),
                met,
            };
            let free = super::model::Constraints::default();
            swiss::pair(&entrants, &forecast, &event, &free, seed)?
        }
        _ => balanced::pair(&Night {
            entrants: &entrants,
            forecast: &forecast,
            constraints: &constraints,
            weights: &Weights::default(),
            seed,
        })?,
    };
    Ok(r.boards
        .iter()
        .map(|b| [entrants[b.a].id, entrants[b.b].id])
        .collect())
}
