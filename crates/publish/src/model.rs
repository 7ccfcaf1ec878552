//! What the published site shows, gathered in one replay of the log up to the chosen point:
//! the ladder there, its standings, the standings at the point movement is measured from,
//! and every player's history rows and matches grouped by player (a player page reads its
//! own slices; nothing is replayed or searched again per player).

use super::since::Since;
use chrono::NaiveDate;
use rungs_chart::LogIndex;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::record::{self, Record};
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::Rules;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings::{self, Standing};
use rungs_ladder::state::HistoryRow;

/// The standings where movement is measured from: each player's leaderboard place and tier
/// (by id; `None` for a player not listed, or not yet joined).
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The last event's date at that point (`None`: before the first event).
    pub date: Option<NaiveDate>,
    place: Vec<Option<usize>>,
    tier: Vec<Option<Tier>>,
}

impl Baseline {
    fn of(ladder: &Ladder) -> Baseline {
        let n = ladder.players.len();
        let (mut place, mut tier) = (vec![None; n], vec![None; n]);
        for s in standings::standings(ladder) {
            place[s.id as usize] = s.place;
            tier[s.id as usize] = s.tier;
        }
        Baseline {
            date: ladder.last_date,
            place,
            tier,
        }
    }

    /// How `s` moved since: places on the leaderboard, and a change of tier.
    pub fn movement(&self, s: &Standing) -> Movement {
        let i = s.id as usize;
        let was = self.place.get(i).copied().flatten();
        let places = match (was, s.place) {
            (_, None) => Places::Off,
            (None, Some(_)) => Places::New,
            (Some(a), Some(b)) => Places::By(a as i64 - b as i64),
        };
        let old_tier = self.tier.get(i).copied().flatten();
        let tier = match (old_tier, s.tier, places) {
            (Some(a), Some(b), Places::By(_)) if b > a => Some(TierMove::Promoted(b)),
            (Some(a), Some(b), Places::By(_)) if b < a => Some(TierMove::Relegated(b)),
            _ => None,
        };
        Movement { places, tier }
    }
}

/// A move on the leaderboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Places {
    /// Not listed now.
    Off,
    /// Listed now, not then.
    New,
    /// Places gained (negative: lost).
    By(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierMove {
    Promoted(Tier),
    Relegated(Tier),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Movement {
    pub places: Places,
    pub tier: Option<TierMove>,
}

/// The ladder at the published point and everything its pages read.
pub struct Model<'a> {
    /// The log up to the published point, in replay order.
    pub events: &'a [Effective],
    pub ladder: Ladder,
    pub standings: Vec<Standing>,
    pub baseline: Baseline,
    /// Where `baseline` is from, for the pages to say.
    pub since: Since,
    pub index: LogIndex,
    /// History rows grouped by player: player `i`'s are `history[starts[i]..starts[i + 1]]`.
    history: Vec<HistoryRow>,
    starts: Vec<usize>,
    /// Indices into `events` of the matches naming each player, grouped the same way.
    played: Vec<u32>,
    played_starts: Vec<usize>,
}

impl<'a> Model<'a> {
    /// Replays `events` (the log up to the published point) once under `initial`; movement
    /// is measured from the standings after the events `since` holds. Those are usually the
    /// first events of the log, read on the way; when a match entered since is dated among
    /// them they are replayed on their own.
    pub fn gather(
        initial: &Rules,
        events: &'a [Effective],
        since: &Since,
    ) -> Result<Model<'a>, ReplayError> {
        let held = events.iter().filter(|e| since.holds(e)).count();
        let prefix = events.iter().take_while(|e| since.holds(e)).count();
        let mut ladder = Ladder::new(initial.clone());
        let mut before = None;
        if held != prefix {
            let mut then = Ladder::new(initial.clone());
            for e in events.iter().filter(|e| since.holds(e)) {
                then.apply(e.date, e.seq, &e.event, &mut Vec::new())?;
            }
            before = Some(Baseline::of(&then));
        }
        let mut history = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if i == prefix && before.is_none() {
                before = Some(Baseline::of(&ladder));
            }
            ladder.apply(e.date, e.seq, &e.event, &mut history)?;
        }
        let baseline = before.unwrap_or_else(|| Baseline::of(&ladder));
        let n = ladder.players.len();
        let (history, starts) = group(history, n, |r| r.player as usize);
        let mut named = Vec::new();
        for (i, e) in events.iter().enumerate() {
            if let Event::Match(m) = &e.event {
                named.extend(m.a.iter().chain(m.b.iter()).map(|&p| (p, i as u32)));
            }
        }
        let (named, played_starts) = group(named, n, |(p, _)| *p as usize);
        Ok(Model {
            events,
            standings: standings::standings(&ladder),
            ladder,
            baseline,
            since: *since,
            index: LogIndex::new(initial, events),
            history,
            starts,
            played: named.into_iter().map(|(_, i)| i).collect(),
            played_starts,
        })
    }

    /// The player's history rows, in replay order.
    pub fn history(&self, id: PlayerId) -> &[HistoryRow] {
        slice(&self.history, &self.starts, id)
    }

    /// The player's record from the matches that name them (as `rungs` counts it).
    pub fn record(&self, id: PlayerId) -> Record {
        let events = slice(&self.played, &self.played_starts, id)
            .iter()
            .map(|&i| &self.events[i as usize]);
        record::record(events, id)
    }

    /// The name a page shows for a player (`?` for an id the ladder does not know).
    pub fn name(&self, id: PlayerId) -> &str {
        self.ladder.player(id).map_or("?", |p| p.name.as_str())
    }
}

fn slice<'s, T>(items: &'s [T], starts: &[usize], id: PlayerId) -> &'s [T] {
    let i = id as usize;
    match (starts.get(i), starts.get(i + 1)) {
        (Some(&a), Some(&b)) => &items[a..b],
        _ => &[],
    }
}

/// `items` grouped by `key` (0..n; others dropped), keeping their order within a group: a
/// counting sort, linear in the items, with the start of each group.
fn group<T: Copy>(items: Vec<T>, n: usize, key: impl Fn(&T) -> usize) -> (Vec<T>, Vec<usize>) {
    let mut starts = vec![0usize; n + 1];
    for it in &items {
        if let Some(c) = starts.get_mut(key(it) + 1) {
            *c += 1;
        }
    }
    for i in 0..n {
        starts[i + 1] += starts[i];
    }
    let mut next = starts.clone();
    let mut out: Vec<Option<T>> = vec![None; starts[n]];
    for it in items {
        let k = key(&it);
        if k < n {
            out[next[k]] = Some(it);
            next[k] += 1;
        }
    }
    (out.into_iter().flatten().collect(), starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_keeps_order_within_each_key_and_drops_unknown_keys() {
        let items = vec![(2, 'a'), (0, 'b'), (2, 'c'), (9, 'x'), (0, 'd')];
        let (out, starts) = group(items, 3, |(k, _)| *k);
        assert_eq!(out, vec![(0, 'b'), (0, 'd'), (2, 'a'), (2, 'c')]);
        assert_eq!(starts, vec![0, 2, 2, 4]);
        assert_eq!(slice(&out, &starts, 1), &[]);
        assert_eq!(slice(&out, &starts, 7), &[]);
    }
}
