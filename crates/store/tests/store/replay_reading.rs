//! `rungs replay` replays a log kept in date order while it is still being read (a second
//! thread takes each block as it is decoded); a log with a correction, an undone action or
//! a date that goes back is read whole and sorted first. Either way the ladder is the one a
//! replay of the whole log gives, to the bit.

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::standings;
use rungs_rating::Outcome;
use rungs_store::Store;

use rungs_testkit as support;
use support::TempDir as Dir;

const PLAYERS: u32 = 40;

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2020, 1, 1).unwrap() + chrono::Days::new(n)
}

/// A seeded walk of `count` matches among the players, from `first_day` on, a few a day.
fn matches(seed: u64, count: u64, first_day: u64) -> Vec<(NaiveDate, Entry)> {
    let mut x = seed;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    (0..count)
        .map(|i| {
            let a = next(u64::from(PLAYERS)) as u32;
            let b = (a + 1 + next(u64::from(PLAYERS) - 1) as u32) % PLAYERS;
            let o = [Outcome::Win, Outcome::Draw, Outcome::Loss][next(3) as usize];
            let event = Event::Match(Match::new(a, b, MatchResult::Played(o)));
            (day(first_day + i / 7), Entry::Add { event })
        })
        .collect()
}

/// Forty players who join undated (as an import enters them), then 9,000 matches in date
/// order over three actions: more than two of the log's blocks of 4,096 rows.
fn ladder(dir: &Dir) -> Store {
    let mut rules = Rules::defaults(System::Skyweaver);
    // Few slots and a short idle rule: the Grandweaver slots change hands often.
    rules.assign("grandweaver_count=3").unwrap();
    rules.assign("idle_days=20").unwrap();
    rules.assign("initial_rp=1200").unwrap();
    let mut store = Store::create(&dir.0.join("club.rungs"), &rules).unwrap();
    let joins: Vec<(NaiveDate, Entry)> = (0..PLAYERS)
        .map(|id| {
            let event = Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(&format!("P{id:02}")).unwrap(),
                undated: true,
            };
            (day(0), Entry::Add { event })
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("joins", joins.to_vec()).unwrap())
        .unwrap();
    for part in 0..3 {
        store
            .commit(
                &rungs_store::Change::new(
                    "matches",
                    matches(27 + part, 3_000, part * 3_000 / 7).to_vec(),
                )
                .unwrap(),
            )
            .unwrap();
    }
    store
}

/// The replay that reads as it goes against the replay of the whole log read first.
fn same_as_whole(store: &Store, what: &str) {
    let rules = store.initial_rules().unwrap();
    let reading = store.replay_state(&rules).unwrap();
    let (whole, _) = store.replay(None).unwrap();
    assert_eq!(reading.players, whole.players, "{what}");
    assert_eq!(reading.events, whole.events, "{what}");
    assert_eq!(reading.results, whole.results, "{what}");
    let json = |l: &rungs_ladder::replay::Ladder| {
        standings::to_json(l, &standings::standings(l)).to_string()
    };
    assert_eq!(json(&reading), json(&whole), "{what}");
    let fixed = store.replay_fixed(&rules).unwrap();
    let (whole_fixed, _) = store.replay(Some(&rules)).unwrap();
    assert_eq!(fixed.players, whole_fixed.players, "{what}: fixed rules");
}

#[test]
fn a_log_in_date_order_replays_as_it_is_read() {
    let dir = Dir::new("reading-in-order");
    let store = ladder(&dir);
    same_as_whole(&store, "in order");
    let ladder = store.replay_state(&store.initial_rules().unwrap()).unwrap();
    // 40 joins and 9,000 matches; each match counts for both its players.
    assert_eq!(ladder.events, 9_040);
    let played: u32 = ladder.players.iter().map(|p| p.matches).sum();
    assert_eq!(played, 18_000);
}

#[test]
fn a_log_that_needs_sorting_or_correcting_replays_whole() {
    // A date that goes back: the last action's matches come before the ones entered earlier.
    let dir = Dir::new("reading-back");
    let mut store = ladder(&dir);
    store
        .commit(&rungs_store::Change::new("late", matches(99, 500, 100).to_vec()).unwrap())
        .unwrap();
    same_as_whole(&store, "dated back");

    // A correction of an early match, and a deletion of another.
    let dir = Dir::new("reading-edit");
    let mut store = ladder(&dir);
    let event = Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Loss)));
    store
        .commit(
            &rungs_store::Change::new("edit", vec![(day(3), Entry::Edit { target: 45, event })])
                .unwrap(),
        )
        .unwrap();
    store
        .commit(
            &rungs_store::Change::new("delete", vec![(day(4), Entry::Delete { target: 50 })])
                .unwrap(),
        )
        .unwrap();
    same_as_whole(&store, "corrected");

    // An undone action: its rows are read and do not count.
    let dir = Dir::new("reading-undone");
    let mut store = ladder(&dir);
    store
        .commit(&rungs_store::Change::new("more", matches(5, 700, 2_000).to_vec()).unwrap())
        .unwrap();
    store.undo().unwrap();
    same_as_whole(&store, "undone");
    let ladder = store.replay_state(&store.initial_rules().unwrap()).unwrap();
    assert_eq!(ladder.events, 9_040);
}
