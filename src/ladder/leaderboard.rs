//! Who is on the leaderboard, and Skyweaver's Grandweavers among them (seed 003, Table 1:
//! "Top 100 Masters"; SPEC §2.1). One rule for the standings, the weekly caps, the season's
//! peak tier and the archive.
//!
//! A player is on the leaderboard unless retired, provisional (fewer matches than
//! `provisional_games`) or idle (no match for more than `idle_days` before the ladder's
//! latest). The Grandweavers are the top N of the players on the leaderboard at Master or
//! above, ranked by RP, then rating, then the earlier join date, then entry order.
//!
//! Seed 003 resets RP to "the highest tier reached during the season", so a slot held at any
//! moment counts: the replay keeps the holders ([`Slots`]) after every event and marks each
//! new one (`season_grandweaver`). Keeping them is cheap: an event changes the players it
//! names, and only when a holder falls below where the last holder stood before the event,
//! or leaves the leaderboard, can a player it does not name move up — then every player is
//! looked at. A ladder that holds only some players (the store's fast path) says so instead
//! ([`Partial::needs_all`]), and its caller replays the change on the whole ladder.

use crate::ladder::event::PlayerId;
use crate::ladder::rules::Params;
use crate::ladder::skyweaver::Tier;
use crate::ladder::state::{Holders, Ladder, PlayerState, Slots};
use chrono::NaiveDate;
use std::cmp::Ordering;

/// The entry rule of every system: games before a player is listed, and days without a game
/// before they leave (0: never).
pub fn entry_rule(params: &Params) -> (u32, u32) {
    match params {
        Params::Skyweaver(c) => (c.provisional_games, c.idle_days),
        Params::Inversus(c) => (c.provisional_games, c.idle_days),
        Params::Allegskill(c) => (c.provisional_games, c.idle_days),
        Params::Memoir44(c) => (c.provisional_games, c.idle_days),
        Params::Elo(c) => (c.provisional_games, c.idle_days),
        Params::Goals(c) => (c.provisional_games, c.idle_days),
    }
}

/// Whether a player last seen on `last` is idle when the ladder's latest match is `latest`.
pub fn is_idle(last: Option<NaiveDate>, latest: Option<NaiveDate>, days: u32) -> bool {
    match (last, latest) {
        (Some(l), Some(now)) if days > 0 => (now - l).num_days() > days as i64,
        _ => false,
    }
}

/// The date of the ladder's latest match: what idleness is measured against.
pub fn latest_match(players: &[PlayerState]) -> Option<NaiveDate> {
    players
        .iter()
        .filter(|p| p.joined)
        .filter_map(|p| p.last_played)
        .max()
}

/// Whether `p` is on the leaderboard under `params`, the ladder's latest match on `latest`.
pub fn listed(p: &PlayerState, params: &Params, latest: Option<NaiveDate>) -> bool {
    let (games, days) = entry_rule(params);
    p.joined && !p.retired && p.matches >= games && !is_idle(p.last_played, latest, days)
}

/// Where a player stands for a Grandweaver slot: RP, rating, join date, entry order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    rp: f64,
    rating: f64,
    joined_on: Option<NaiveDate>,
    id: usize,
}

impl Place {
    pub fn of(players: &[PlayerState], i: usize) -> Place {
        let p = &players[i];
        Place {
            rp: p.rp,
            rating: p.skill.rating_1500(),
            joined_on: p.joined_on,
            id: i,
        }
    }

    /// `Less` when `self` ranks above `other`: more RP, then the higher rating, then the
    /// earlier join date (the README's rule), then the earlier entry.
    fn order(&self, other: &Place) -> Ordering {
        other
            .rp
            .total_cmp(&self.rp)
            .then(other.rating.total_cmp(&self.rating))
            .then_with(|| match (self.joined_on, other.joined_on) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => Ordering::Equal,
            })
            .then(self.id.cmp(&other.id))
    }
}

/// How players `x` and `y` rank for a Grandweaver slot (`Less`: `x` above `y`).
pub fn rank_order(players: &[PlayerState], x: usize, y: usize) -> Ordering {
    Place::of(players, x).order(&Place::of(players, y))
}

/// Whether player `i` could hold a slot: on the leaderboard at Master or above.
fn contends(ladder: &Ladder, i: usize, latest: Option<NaiveDate>) -> bool {
    let p = &ladder.players[i];
    p.rp >= Tier::Master.minimum() && listed(p, &ladder.rules.params, latest)
}

/// The top `n` of `candidates` that contend, best first.
fn top(
    ladder: &Ladder,
    candidates: impl Iterator<Item = usize>,
    n: usize,
    latest: Option<NaiveDate>,
) -> Vec<usize> {
    let mut masters: Vec<usize> = candidates
        .filter(|&i| contends(ladder, i, latest))
        .collect();
    masters.sort_by(|&x, &y| rank_order(&ladder.players, x, y));
    masters.dedup();
    masters.truncate(n);
    masters
}

/// Who is a Grandweaver now, by player id: the top N (`grandweaver_count`) of the players on
/// the leaderboard at Master or above. Empty under another system.
pub fn grandweavers(ladder: &Ladder) -> Vec<bool> {
    let mut set = vec![false; ladder.players.len()];
    if let Params::Skyweaver(p) = &ladder.rules.params {
        let latest = latest_match(&ladder.players);
        let n = p.grandweaver_count as usize;
        for i in top(ladder, 0..ladder.players.len(), n, latest) {
            set[i] = true;
        }
    }
    set
}

/// The Grandweavers among `candidates` (which must hold every player on the leaderboard at
/// Master or above: a soft reset's watched players do), best first; the ladder's latest match
/// as the slots keep it, else as the players say.
pub fn grandweavers_among(ladder: &Ladder, candidates: &[PlayerId]) -> Vec<PlayerId> {
    let Params::Skyweaver(p) = &ladder.rules.params else {
        return Vec::new();
    };
    let latest = match &ladder.slots.0 {
        Some(h) => h.latest,
        None => latest_match(&ladder.players),
    };
    let ids = candidates
        .iter()
        .map(|&id| id as usize)
        .filter(|&i| i < ladder.players.len());
    top(ladder, ids, p.grandweaver_count as usize, latest)
        .into_iter()
        .map(|i| i as PlayerId)
        .collect()
}

/// The last holder's place before an event, when every slot is taken: after the event no
/// player it leaves alone can stand above it (they all stood below it). `None` when a slot
/// was free (then every contender held one) or the holders are not known.
pub fn last_slot(ladder: &Ladder) -> Option<Place> {
    let Params::Skyweaver(p) = &ladder.rules.params else {
        return None;
    };
    let holders = &ladder.slots.0.as_ref()?.holders;
    let last = *holders.last()? as usize;
    (holders.len() == p.grandweaver_count as usize && last < ladder.players.len())
        .then(|| Place::of(&ladder.players, last))
}

/// Brings the holders up to date after an event that changed only `touched` (and the
/// ladder's latest match), marking each new holder as having reached Grandweaver this
/// season. `last` is [`last_slot`] as it was before the event.
pub fn track(ladder: &mut Ladder, touched: &[PlayerId], last: Option<Place>) {
    let Params::Skyweaver(p) = &ladder.rules.params else {
        return;
    };
    let n = p.grandweaver_count as usize;
    let Some(slots) = ladder.slots.0.clone() else {
        return rescan(ladder);
    };
    let latest = touched
        .iter()
        .filter_map(|&id| ladder.players.get(id as usize)?.last_played)
        .chain(slots.latest)
        .max();
    let candidates = slots
        .holders
        .iter()
        .chain(touched)
        .map(|&id| id as usize)
        .filter(|&i| i < ladder.players.len());
    let new = top(ladder, candidates, n, latest);
    // Every player left alone stood below the last holder before the event: the
    // candidates' top N is the whole ladder's unless its last place now stands lower.
    let exact = last.is_none_or(|was| {
        new.len() == n
            && new.last().is_some_and(|&now| {
                Place::of(&ladder.players, now).order(&was) != Ordering::Greater
            })
    });
    if exact {
        settle(ladder, new, latest);
    } else {
        rescan(ladder);
    }
}

/// Finds the holders among every player (after a reset, a migration, a rules change, or when
/// a holder fell), marking each; a ladder holding only some players asks for all instead.
pub fn rescan(ladder: &mut Ladder) {
    let Params::Skyweaver(p) = &ladder.rules.params else {
        ladder.slots = Slots(None);
        return;
    };
    if ladder.partial.only_some {
        ladder.partial.needs_all = true;
        return;
    }
    let n = p.grandweaver_count as usize;
    let latest = latest_match(&ladder.players);
    let new = top(ladder, 0..ladder.players.len(), n, latest);
    settle(ladder, new, latest);
}

/// Records `holders` (best first) and marks them.
fn settle(ladder: &mut Ladder, holders: Vec<usize>, latest: Option<NaiveDate>) {
    for &i in &holders {
        ladder.players[i].season_grandweaver = true;
    }
    ladder.slots = Slots(Some(Holders {
        holders: holders.into_iter().map(|i| i as PlayerId).collect(),
        latest,
    }));
}
