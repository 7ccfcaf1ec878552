//! Who is on the leaderboard, and Skyweaver's Grandweavers among them (the Skyweaver white
//! paper's Table 1: "Top 100 Masters", with N a parameter). One rule for the standings, the
//! weekly caps, the season's peak tier and the archive.
//!
//! A player is on the leaderboard unless retired, provisional (fewer matches than
//! `provisional_games`) or idle (no match for more than `idle_days` before the ladder's
//! latest). The Grandweavers are the top N of the players on the leaderboard at Master or
//! above, ranked by RP, then rating, then the earlier join date, then entry order.
//!
//! The Skyweaver white paper resets RP to "the highest tier reached during the season", so a
//! slot held at any moment counts: the replay keeps the holders ([`Slots`]) after every event
//! and marks each new one (`season_grandweaver`). Keeping them is cheap: an event changes the
//! players it names, and only when a holder falls below where the last holder stood before the
//! event, or leaves the leaderboard, can a player it does not name move up — then every player
//! is looked at. A ladder that holds only some players (the store's fast path) says so instead
//! (`Partial::needs_all`), and its caller replays the change on the whole ladder.

use crate::event::PlayerId;
use crate::rules::Params;
use crate::skyweaver::Tier;
use crate::state::{Bound, Holders, Ladder, PlayerState, SlotPlace, Slots};
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
pub type Place = SlotPlace;

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

/// [`contends`] with the idle cut-off worked out once, for a scan over every player (a
/// rescan runs once a day on a ladder whose holders go idle: the date arithmetic of
/// [`is_idle`] per player was most of a replay's time).
struct Contention {
    games: u32,
    /// The earliest last match that is not idle (none: nobody is idle).
    cutoff: Option<NaiveDate>,
    /// Master's minimum under the ladder's tier table.
    master: f64,
}

impl Contention {
    fn new(ladder: &Ladder, latest: Option<NaiveDate>) -> Contention {
        let (games, days) = entry_rule(&ladder.rules.params);
        // Idle when (latest − last) > days, that is when last < latest − days.
        let cutoff = latest
            .filter(|_| days > 0)
            .and_then(|now| cutoff(now, days));
        let master = ladder.rules.tier_table().min_rp(Tier::Master);
        Contention {
            games,
            cutoff,
            master,
        }
    }

    fn holds(&self, p: &PlayerState) -> bool {
        p.rp >= self.master
            && p.joined
            && !p.retired
            && p.matches >= self.games
            && !matches!((p.last_played, self.cutoff), (Some(l), Some(c)) if l < c)
    }
}

/// `now` less `days` days. A replay asks once or twice a match and the answer changes only
/// with the date, so the last answer is kept (the date arithmetic was a few percent of a
/// replay).
fn cutoff(now: NaiveDate, days: u32) -> Option<NaiveDate> {
    type Last = Option<(NaiveDate, u32, Option<NaiveDate>)>;
    thread_local! {
        static LAST: std::cell::Cell<Last> = const { std::cell::Cell::new(None) };
    }
    LAST.with(|last| match last.get() {
        Some((n, d, c)) if n == now && d == days => c,
        _ => {
            let c = now.checked_sub_days(chrono::Days::new(u64::from(days)));
            last.set(Some((now, days, c)));
            c
        }
    })
}

/// The top `n` of `candidates` that contend, best first. Each place is read once, and only
/// the top `n` are put in order (a rescan looks at every player, and most contenders are
/// not among the top N).
fn top(
    ladder: &Ladder,
    candidates: impl Iterator<Item = usize>,
    n: usize,
    latest: Option<NaiveDate>,
) -> Vec<usize> {
    let contention = Contention::new(ladder, latest);
    let mut masters: Vec<Place> = candidates
        .filter(|&i| contention.holds(&ladder.players[i]))
        .map(|i| Place::of(&ladder.players, i))
        .collect();
    if n == 0 {
        return Vec::new();
    }
    if masters.len() > n {
        masters.select_nth_unstable_by(n - 1, Place::order);
        masters.truncate(n);
    }
    masters.sort_by(Place::order);
    masters.dedup_by_key(|p| p.id);
    masters.into_iter().map(|p| p.id).collect()
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
    let Some(slots) = ladder.slots.0.take() else {
        return rescan(ladder);
    };
    let latest = touched
        .iter()
        .filter_map(|&id| ladder.players.get(id as usize)?.last_played)
        .chain(slots.latest)
        .max();
    match slots.bound {
        Some(bound) if unmoved(ladder, &slots, touched, bound, latest) => {
            // What the general path below would settle, minus its copies: the same list,
            // bound and idle day, every holder marked already (a holder is marked when it
            // becomes one, and whatever clears the marks finds the holders afresh).
            ladder.slots.0 = Some(Holders { latest, ..slots });
        }
        Some(bound) => {
            let (mut list, idle_from) = relisted(ladder, &slots, touched, bound, latest);
            // Kept as long as a rescan keeps it: those cut off stand below the new last, as
            // every player outside the list stood below the old bound, and the new last at
            // or above it.
            let mut bound = bound;
            if list.len() > kept(n) {
                list.truncate(kept(n));
                if let Some(&last) = list.last() {
                    bound = Bound::Down(Place::of(&ladder.players, last));
                }
            }
            // The list holds every contender down to the bound: its first N are the top N
            // of the ladder while it has N, or while it holds every contender.
            if list.len() >= n || bound == Bound::All {
                settle(
                    ladder,
                    list,
                    n,
                    Some(bound),
                    latest,
                    idle_from,
                    Some(slots),
                    false,
                );
            } else {
                rescan(ladder);
            }
        }
        None => {
            let players = ladder.players.len();
            let candidates = slots
                .holders
                .iter()
                .chain(touched)
                .map(|&id| id as usize)
                .filter(|&i| i < players);
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
                settle(ladder, new, n, None, latest, None, Some(slots), false);
            } else {
                ladder.slots.0 = Some(slots);
                rescan(ladder);
            }
        }
    }
}

/// Whether an event that changed only `touched` leaves the holders and their reserve as they
/// are: nobody in them can have gone idle, no touched player is in them, and none now stands
/// high enough to enter them. The common case for a match on a ladder of many players, found
/// without building the list that [`relisted`] builds.
fn unmoved(
    ladder: &Ladder,
    slots: &Holders,
    touched: &[PlayerId],
    bound: Bound,
    latest: Option<NaiveDate>,
) -> bool {
    if touched.len() > 16 {
        return false;
    }
    let contention = Contention::new(ladder, latest);
    let none_idle = match (contention.cutoff, slots.idle_from) {
        (None, _) => true,
        (Some(cutoff), Some(from)) => cutoff <= from,
        (Some(_), None) => false,
    };
    if !none_idle {
        return false;
    }
    let players = &ladder.players;
    touched.iter().all(|&id| {
        let i = id as usize;
        let in_list = slots.listed.get(i).is_some_and(|&f| f != 0);
        let enters = i < players.len()
            && contention.holds(&players[i])
            && match bound {
                Bound::All => true,
                Bound::Down(last) => Place::of(players, i).order(&last) != Ordering::Greater,
            };
        !(in_list || enters)
    })
}

/// The holders and reserve after an event that changed only `touched`: those it left alone
/// that still contend keep their places and so their order, and each touched contender at
/// or above the bound goes in where it stands (what sorting them all would give).
fn relisted(
    ladder: &Ladder,
    slots: &Holders,
    touched: &[PlayerId],
    bound: Bound,
    latest: Option<NaiveDate>,
) -> (Vec<usize>, Option<NaiveDate>) {
    let players = &ladder.players;
    let contention = Contention::new(ladder, latest);
    let contends = |i: usize| i < players.len() && contention.holds(&players[i]);
    let mut sorted_touched = Vec::new();
    let many = touched.len() > 16;
    if many {
        sorted_touched = touched.to_vec();
        sorted_touched.sort_unstable();
        sorted_touched.dedup();
    }
    let is_touched = |id: PlayerId| {
        if many {
            sorted_touched.binary_search(&id).is_ok()
        } else {
            touched.contains(&id)
        }
    };
    // Those left alone can only have gone idle, and only once the idle cut-off passes the
    // earliest last match among them: until then the list is looked at by id alone.
    let none_idle = match (contention.cutoff, slots.idle_from) {
        (None, _) => true,
        (Some(cutoff), Some(from)) => cutoff <= from,
        (Some(_), None) => false,
    };
    let mut idle_from = if none_idle { slots.idle_from } else { None };
    let mut list: Vec<usize> = Vec::with_capacity(slots.holders.len() + slots.reserve.len() + 2);
    list.extend(
        slots
            .holders
            .iter()
            .chain(&slots.reserve)
            .map(|&id| id as usize),
    );
    if none_idle && !many {
        // A match: its players leave their places (and come back below if they still
        // stand high enough); nobody else moved.
        for &id in touched {
            if slots.listed.get(id as usize).is_none_or(|&f| f == 0) {
                continue;
            }
            if let Some(at) = list.iter().position(|&i| i == id as usize) {
                list.remove(at);
            }
        }
    } else {
        list.retain(|&i| {
            if is_touched(i as PlayerId) {
                return false;
            }
            if none_idle {
                return i < players.len();
            }
            let keep = contends(i);
            if keep {
                idle_from = earliest(idle_from, players[i].last_played);
            }
            keep
        });
    }
    let within = |place: &Place| match bound {
        Bound::All => true,
        Bound::Down(last) => place.order(&last) != Ordering::Greater,
    };
    let mut added: Vec<Place> = (if many { &sorted_touched[..] } else { touched })
        .iter()
        .map(|&id| id as usize)
        .filter(|&i| contends(i))
        .map(|i| Place::of(players, i))
        .filter(within)
        .collect();
    added.sort_by(Place::order);
    added.dedup_by_key(|p| p.id);
    for place in added {
        idle_from = earliest(idle_from, players[place.id].last_played);
        let at = list.partition_point(|&h| Place::of(players, h).order(&place) == Ordering::Less);
        list.insert(at, place.id);
    }
    (list, idle_from)
}

/// The earlier of two last matches (a player who never played never goes idle).
fn earliest(a: Option<NaiveDate>, b: Option<NaiveDate>) -> Option<NaiveDate> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Finds the holders among every player (after a reset, a migration, a rules change, or when
/// the holders and their reserve ran short), marking each, and keeps a reserve of as many
/// again; a ladder holding only some players asks for all instead.
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
    let keep = kept(n);
    let contention = Contention::new(ladder, latest);
    let contenders = ladder
        .players
        .iter()
        .filter(|p| contention.holds(p))
        .count();
    let list = top(ladder, 0..ladder.players.len(), keep, latest);
    let bound = match list.last() {
        Some(&i) if contenders > keep => Bound::Down(Place::of(&ladder.players, i)),
        _ => Bound::All,
    };
    let idle_from = list
        .iter()
        .fold(None, |e, &i| earliest(e, ladder.players[i].last_played));
    let spare = ladder.slots.0.take();
    settle(ladder, list, n, Some(bound), latest, idle_from, spare, true);
}

/// How many contenders the holders and their reserve hold: the N slots, and as many again
/// (at least 16), so that the holders rarely run short between rescans.
fn kept(n: usize) -> usize {
    n + n.max(16)
}

/// Records the first `n` of `list` (best first) as the holders and marks them; the rest is
/// the reserve, which `bound` describes.
/// `spare` is the slots this replaces, whose lists are written over rather than allocated
/// afresh (a replay settles the slots after many of its matches). Unless `mark_all`, a
/// holder who was one in `spare` is not marked again: every holder is marked when it
/// becomes one, and whatever clears the marks (a hard reset, a change of system) rescans,
/// which marks them all.
#[allow(clippy::too_many_arguments)]
fn settle(
    ladder: &mut Ladder,
    list: Vec<usize>,
    n: usize,
    bound: Option<Bound>,
    latest: Option<NaiveDate>,
    idle_from: Option<NaiveDate>,
    spare: Option<Holders>,
    mark_all: bool,
) {
    const HOLDER: u8 = 2;
    const RESERVE: u8 = 1;
    let Holders {
        mut holders,
        mut reserve,
        mut listed,
        ..
    } = spare.unwrap_or_default();
    let split = list.len().min(n);
    // Marked before `listed` is written over: it says who held a slot before.
    for &i in &list[..split] {
        if mark_all || listed.get(i).is_none_or(|&f| f != HOLDER) {
            ladder.players[i].season_grandweaver = true;
        }
    }
    for &id in holders.iter().chain(&reserve) {
        if let Some(flag) = listed.get_mut(id as usize) {
            *flag = 0;
        }
    }
    holders.clear();
    reserve.clear();
    holders.extend(list[..split].iter().map(|&i| i as PlayerId));
    if bound.is_some() {
        reserve.extend(list[split..].iter().map(|&i| i as PlayerId));
    }
    let needed = list.iter().max().map_or(0, |&i| i + 1);
    if listed.len() < needed {
        listed.resize(needed, 0);
    }
    for &id in &reserve {
        listed[id as usize] = RESERVE;
    }
    for &i in &list[..split] {
        listed[i] = HOLDER;
    }
    ladder.slots = Slots(Some(Holders {
        holders,
        latest,
        reserve,
        bound,
        idle_from,
        listed,
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Event, Match, MatchResult};
    use crate::rules::{Rules, System};
    use rungs_rating::Outcome;

    /// The slots kept event by event — holders and reserve, taken from the reserve as holders
    /// go idle or fall — are after every event the top N found by looking at every player.
    #[test]
    fn kept_slots_are_a_full_count_after_every_event() {
        // (slots, idle days, matches a day, groups): with groups, a week's matches are among
        // one group of players, so the last week's holders go idle together.
        for (count, idle, per_day, groups) in [
            (3, 6, 3, 1),
            (5, 20, 3, 1),
            (2, 0, 3, 1),
            (8, 3, 3, 1),
            (2, 2, 20, 1),
            (4, 1, 30, 6),
            (3, 3, 10, 4),
            (10, 1, 40, 3),
            (6, 2, 25, 5),
            (12, 1, 12, 2),
        ] {
            let mut rules = Rules::defaults(System::Skyweaver);
            rules.assign(&format!("grandweaver_count={count}")).unwrap();
            rules.assign(&format!("idle_days={idle}")).unwrap();
            // Everyone starts a Master, so contenders outnumber the holders and their reserve.
            rules.assign("initial_rp=1200").unwrap();
            let mut ladder = Ladder::new(rules);
            let mut scratch = Vec::new();
            let start = NaiveDate::from_ymd_opt(2001, 1, 1).unwrap();
            let players = 120u32;
            let mut seq = 0;
            for id in 0..players {
                seq += 1;
                let join = Event::Player {
                    id,
                    name: crate::values::PlayerName::parse(&format!("P{id}")).unwrap(),
                    undated: false,
                };
                ladder.apply(start, seq, &join, &mut scratch).unwrap();
            }
            // A seeded walk: strong players (low ids) win more; a few play on each day.
            let mut x = 12345u64 + count as u64;
            let mut next = |m: u64| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) % m
            };
            let mut mismatches = 0;
            let mut holders_seen = 0;
            let mut from_reserve = 0;
            for i in 0..12_000u64 {
                let date = start + chrono::Days::new(1 + i / per_day);
                let size = players / groups;
                let group = (i / per_day / 7 % u64::from(groups)) as u32 * size;
                let a = next(u64::from(size)) as u32;
                let b = group + (a + 1 + next(u64::from(size) - 1) as u32) % size;
                let a = group + a;
                let outcome = if next(100) < 50 + u64::from(b).saturating_sub(u64::from(a)) {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                seq += 1;
                let m = Event::Match(Match::new(a, b, MatchResult::Played(outcome)));
                ladder.apply(date, seq, &m, &mut scratch).unwrap();
                let kept: Vec<PlayerId> = ladder.slots.0.as_ref().unwrap().holders.clone();
                let full: Vec<PlayerId> =
                    grandweavers_among(&ladder, &(0..players).collect::<Vec<_>>());
                if kept != full {
                    mismatches += 1;
                }
                holders_seen += kept.len();
                if matches!(ladder.slots.0.as_ref().unwrap().bound, Some(Bound::Down(_))) {
                    from_reserve += 1;
                }
            }
            assert_eq!(mismatches, 0, "count {count}, idle {idle}, {per_day} a day");
            assert!(
                holders_seen > 1000,
                "the walk makes Masters: {holders_seen}"
            );
            assert!(
                from_reserve > 1000,
                "more contenders than the list holds: {from_reserve}"
            );
        }
    }

    /// The two slots end with the two winners, and everyone who held one is marked; a hard
    /// reset then clears every mark and leaves nobody holding one (its RP is at most 1000,
    /// below Master's 1200), so a holder's mark is never carried over a reset (settling the
    /// slots skips marking only a holder who stays one between resets).
    #[test]
    fn holders_are_marked_and_a_hard_reset_clears_them() {
        let mut rules = Rules::defaults(System::Skyweaver);
        rules.assign("grandweaver_count=2").unwrap();
        rules.assign("initial_rp=1200").unwrap();
        let mut ladder = Ladder::new(rules);
        let mut scratch = Vec::new();
        let day = NaiveDate::from_ymd_opt(2001, 1, 1).unwrap();
        for id in 0..4 {
            let join = Event::Player {
                id,
                name: crate::values::PlayerName::parse(&format!("P{id}")).unwrap(),
                undated: false,
            };
            ladder
                .apply(day, u64::from(id) + 1, &join, &mut scratch)
                .unwrap();
        }
        // 0 beats 1, then 2 beats 3: 0 and 2 stand above the others and hold the two slots.
        for (seq, (a, b)) in [(5, (0, 1)), (6, (2, 3))] {
            let m = Event::Match(Match::new(a, b, MatchResult::Played(Outcome::Win)));
            ladder.apply(day, seq, &m, &mut scratch).unwrap();
        }
        let holders = |l: &Ladder| l.slots.0.as_ref().unwrap().holders.clone();
        let marked =
            |l: &Ladder| -> Vec<bool> { l.players.iter().map(|p| p.season_grandweaver).collect() };
        assert_eq!(holders(&ladder), [0, 2]);
        // Everyone starts a Master at 1200 RP: the first two to join held the slots until
        // 1 lost (rating below 2's and 3's 1500), so 1's mark stays for the season.
        assert_eq!(marked(&ladder), vec![true, true, true, false]);
        ladder
            .apply(day, 7, &Event::HardReset, &mut scratch)
            .unwrap();
        assert!(holders(&ladder).is_empty());
        assert_eq!(marked(&ladder), vec![false; 4]);
    }
}
