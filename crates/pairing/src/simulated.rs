//! The pairing rule a simulation plays by (`rungs simulate --pairing`), so that a
//! designer sees what a club's real pairing rule does to tiers and to rating accuracy: the
//! same engine and forecast as `rungs pair` and the Tonight screen.

use super::balanced::{self, Night};
use super::dutch::{Availability, Colour, DutchError, Outcome, Tournament};
use super::ladder::{History, present};
use super::model::{PairError, Weights};
use super::swiss_event::pairing_rating;
use chrono::NaiveDate;
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use serde::{Deserialize, Serialize};

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
    /// The players present paired as a round of the week's Swiss event (FIDE's Dutch
    /// System).
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

/// A week's Swiss event as the Dutch System keeps it: the players by index, and their
/// rounds so far.
#[derive(Debug, Clone)]
pub struct Week {
    ids: Vec<PlayerId>,
    tournament: Tournament,
}

impl Default for Week {
    fn default() -> Week {
        Week {
            ids: Vec::new(),
            tournament: Tournament::new(0, Colour::White),
        }
    }
}

impl Week {
    /// Records a round's games (white on side A, the result from A's view); everyone else
    /// in the event was absent. Games naming a player not in the event are left out.
    pub fn record(&mut self, games: &[([PlayerId; 2], rungs_rating::Outcome)]) {
        let mut round = vec![Outcome::Absent { score: 0 }; self.ids.len()];
        let index = |id: PlayerId| self.ids.iter().position(|&x| x == id);
        for &([w, b], o) in games {
            let (Some(iw), Some(ib)) = (index(w), index(b)) else {
                continue;
            };
            let sw = match o {
                rungs_rating::Outcome::Win => 2,
                rungs_rating::Outcome::Draw => 1,
                rungs_rating::Outcome::Loss => 0,
            };
            round[iw] = Outcome::Played {
                opponent: ib,
                colour: Colour::White,
                score: sw,
            };
            round[ib] = Outcome::Played {
                opponent: iw,
                colour: Colour::Black,
                score: 2 - sw,
            };
        }
        for (p, o) in self.tournament.players.iter_mut().zip(round) {
            p.rounds.push(o);
        }
    }

    /// The next round among `ids` by the Dutch System; the week's event begins again when
    /// no pairing meets the rules (a small club has run out of new opponents).
    fn pair(&mut self, ladder: &Ladder, ids: &[PlayerId]) -> Result<Vec<[PlayerId; 2]>, PairError> {
        for fresh in [false, true] {
            if fresh {
                *self = Week::default();
            }
            for &id in ids {
                if !self.ids.contains(&id) {
                    let (name, rating) = ladder.player(id).map_or_else(
                        || (format!("player #{id}"), 0),
                        |p| (p.name.clone(), pairing_rating(ladder.figures(p).rating)),
                    );
                    self.tournament.enter(&name, rating);
                    self.ids.push(id);
                }
            }
            let available: Vec<Availability> = self
                .ids
                .iter()
                .map(|id| {
                    if ids.contains(id) {
                        Availability::Plays
                    } else {
                        Availability::Out
                    }
                })
                .collect();
            match self.tournament.pair(&available) {
                Ok(p) => {
                    return Ok(p
                        .boards
                        .iter()
                        .map(|&(w, b)| [self.ids[w], self.ids[b]])
                        .collect());
                }
                Err(DutchError::NoPairing) if !fresh => continue,
                Err(e) => return Err(PairError::Invalid(e.to_string())),
            }
        }
        Err(PairError::Invalid(DutchError::NoPairing.to_string()))
    }
}

/// One round among `ids` (an even number of distinct players) on `date`, side A first.
pub fn round(
    ladder: &Ladder,
    history: &History,
    ids: &[PlayerId],
    date: NaiveDate,
    pairing: SimPairing,
    week: &mut Week,
    seed: u64,
) -> Result<Vec<[PlayerId; 2]>, PairError> {
    let (entrants, forecast) = present(ladder, ids, date, history)?;
    let constraints = history.constraints(&entrants, date);
    if pairing == SimPairing::Swiss {
        return week.pair(ladder, ids);
    }
    let r = balanced::pair(&Night {
        entrants: &entrants,
        forecast: &forecast,
        constraints: &constraints,
        weights: &Weights::default(),
        seed,
    })?;
    Ok(r.boards
        .iter()
        .map(|b| [entrants[b.a].id, entrants[b.b].id])
        .collect())
}
