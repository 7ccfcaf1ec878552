//! The replay timeline: the ladder after any prefix equals a replay of that prefix, whatever
//! the checkpoint interval; dates and rating periods map to the right indexes.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::timeline::{Timeline, TimelineError, default_interval};
use rungs_rating::Outcome;

use rungs_testkit::strategies;
use strategies::{result, rules};

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n.into())
}

fn join(id: PlayerId) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
        undated: false,
    }
}

fn game(a: PlayerId, b: PlayerId, result: MatchResult) -> Event {
    Event::Match(Match::new(a, b, result))
}

const WIN: MatchResult = MatchResult::Played(Outcome::Win);

fn no_progress() -> impl FnMut(u64) -> bool {
    |_| true
}

/// Events in replay order from (day, event) pairs given in entry order.
fn log(items: Vec<(u32, Event)>) -> Vec<Effective> {
    let mut out: Vec<Effective> = items
        .into_iter()
        .enumerate()
        .map(|(i, (d, event))| Effective {
            date: day(d),
            seq: i as u64 + 1,
            event,
        })
        .collect();
    out.sort_by_key(|e| (e.date, e.seq));
    out
}

// Rules grew past clippy's 200 bytes with the margin and goals parameters; a test's few
// operations a case, so boxing them would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
enum Op {
    Match(PlayerId, PlayerId, MatchResult),
    SoftReset,
    HardReset,
    Rules(Rules),
    Rename(PlayerId),
}

fn op(n: u32) -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => (0..n, 1..n, result()).prop_map(move |(a, d, r)| Op::Match(a, (a + d) % n, r)),
        1 => Just(Op::SoftReset),
        1 => Just(Op::HardReset),
        1 => rules().prop_map(Op::Rules),
        1 => (0..n).prop_map(Op::Rename),
    ]
}

/// A random log that replays: joins and dated operations, sorted into replay order, keeping
/// only the events that apply (a match before a player joined is dropped).
fn random_log(
    max_players: usize,
    max_ops: usize,
) -> impl Strategy<Value = (Rules, Vec<Effective>)> {
    let joins = prop::collection::vec(0u32..30, 2..=max_players);
    (rules(), joins).prop_flat_map(move |(rules, joins)| {
        let n = joins.len() as u32;
        let ops = prop::collection::vec((0u32..60, op(n)), 1..=max_ops);
        (Just(rules), Just(joins), ops).prop_map(|(rules, joins, ops)| {
            let mut items: Vec<(u32, Event)> = joins
                .iter()
                .enumerate()
                .map(|(i, d)| (*d, join(i as PlayerId)))
                .collect();
            for (d, op) in ops {
                let event = match op {
                    Op::Match(a, b, r) => game(a, b, r),
                    Op::SoftReset => Event::SoftReset,
                    Op::HardReset => Event::HardReset,
                    Op::Rules(r) => Event::Rules { rules: r.into() },
                    Op::Rename(id) => Event::Rename {
                        id,
                        name: rungs_ladder::values::PlayerName::parse(&format!("R{id}-{d}"))
                            .unwrap(),
                    },
                };
                items.push((d, event));
            }
            let mut ladder = Ladder::new(rules.clone());
            let mut scratch = Vec::new();
            let valid = log(items)
                .into_iter()
                .filter(|e| ladder.apply(e.date, e.seq, &e.event, &mut scratch).is_ok())
                .collect();
            (rules, valid)
        })
    })
}

/// The ladder after every prefix, by replaying from scratch each time.
fn prefixes(rules: &Rules, events: &[Effective]) -> Vec<Ladder> {
    (0..=events.len())
        .map(|n| {
            replay_state(rules, events[..n].iter().map(|e| (e.date, e.seq, &e.event))).unwrap()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_prefix_equals_a_replay(
        (rules, events) in random_log(6, 40),
        interval in 1usize..9,
        jumps in prop::collection::vec(0usize..60, 1..20),
    ) {
        let expected = prefixes(&rules, &events);
        let t = Timeline::with_interval(&rules, events.clone(), interval, &mut no_progress())
            .unwrap();
        prop_assert_eq!(t.len(), events.len());
        for (n, want) in expected.iter().enumerate() {
            prop_assert_eq!(&t.at(n).unwrap(), want, "n = {}", n);
        }
        prop_assert_eq!(&t.at(events.len() + 5).unwrap(), expected.last().unwrap());
        // Seeking forward and back from wherever the ladder stands lands on the same state.
        let mut ladder = t.at(0).unwrap();
        for j in jumps {
            let n = j.min(events.len());
            t.seek(&mut ladder, n).unwrap();
            prop_assert_eq!(&ladder, &expected[n], "seek to {}", n);
        }
    }

    #[test]
    fn sampled_prefixes_of_longer_logs(
        (rules, events) in random_log(12, 300),
        interval in 3usize..40,
        samples in prop::collection::vec(0usize..400, 8),
    ) {
        let t = Timeline::with_interval(&rules, events.clone(), interval, &mut no_progress())
            .unwrap();
        for s in samples {
            let n = s.min(events.len());
            let want = replay_state(&rules, events[..n].iter().map(|e| (e.date, e.seq, &e.event)))
                .unwrap();
            prop_assert_eq!(t.at(n).unwrap(), want, "n = {}", n);
        }
    }

    #[test]
    fn index_at_date_applies_exactly_that_day_and_before(
        (rules, events) in random_log(6, 40),
        d in 0u32..70,
    ) {
        let t = Timeline::build(&rules, events.clone(), &mut no_progress()).unwrap();
        let n = t.index_at_date(day(d));
        prop_assert!(events[..n].iter().all(|e| e.date <= day(d)));
        prop_assert!(events[n..].iter().all(|e| e.date > day(d)));
        if n > 0 {
            prop_assert_eq!(t.key(n), Some((events[n - 1].date, events[n - 1].seq)));
        }
    }

    #[test]
    fn periods_step_monotonically_and_round_trip(
        (rules, events) in random_log(6, 40),
        start in 0usize..50,
    ) {
        let t = Timeline::build(&rules, events, &mut no_progress()).unwrap();
        let n = start.min(t.len());
        let next = t.next_period(n);
        let prev = t.prev_period(n);
        prop_assert!(next > n || next == t.len());
        prop_assert!(prev < n || prev == 0);
        prop_assert!(next <= t.len());
        if next > n && next < t.len() {
            prop_assert!(t.prev_period(next) <= n);
        }
        // Walking forward visits every period end once, in order.
        let mut stops = Vec::new();
        let mut at = 0;
        while at < t.len() {
            at = t.next_period(at);
            stops.push(at);
        }
        let mut want: Vec<usize> = t.period_ends().to_vec();
        if !t.is_empty() {
            want.push(t.len());
        }
        prop_assert_eq!(stops, want);
    }
}

#[test]
fn the_initial_ladder_and_an_empty_log() {
    let rules = Rules::default();
    let t = Timeline::build(&rules, Vec::new(), &mut no_progress()).unwrap();
    assert_eq!(t.len(), 0);
    assert_eq!(t.at(0).unwrap(), Ladder::new(rules.clone()));
    assert_eq!(t.at(3).unwrap(), Ladder::new(rules));
    assert_eq!((t.next_period(0), t.prev_period(0)), (0, 0));
    assert_eq!(t.key(0), None);
    assert_eq!(t.index_at_date(day(5)), 0);
}

#[test]
fn cancelling_stops_the_build() {
    let mut items: Vec<(u32, Event)> = vec![(0, join(0)), (0, join(1))];
    items.extend((0..40_000).map(|i| (1 + i / 100, game(0, 1, WIN))));
    let events = log(items);
    let mut calls = Vec::new();
    let r = Timeline::build(&Rules::default(), events, &mut |n| {
        calls.push(n);
        n < 20_000
    });
    assert_eq!(r.err(), Some(TimelineError::Cancelled));
    assert_eq!(calls, vec![16_384, 32_768]);
}

#[test]
fn history_rows_are_cut_at_the_key() {
    let events = log(vec![
        (0, join(0)),
        (0, join(1)),
        (1, game(0, 1, WIN)),
        (2, game(1, 0, WIN)),
        (3, game(0, 1, WIN)),
    ]);
    let rules = Rules::default();
    let (_, mut rows) =
        rungs_ladder::replay::replay(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
            .unwrap();
    rows.retain(|r| r.player == 0);
    let t = Timeline::build(&rules, events, &mut no_progress()).unwrap();
    assert_eq!(t.rows_until(&rows, 0).len(), 0);
    assert_eq!(t.rows_until(&rows, 1).len(), 1); // the join
    assert_eq!(t.rows_until(&rows, 2).len(), 1); // player 1 joining is not 0's row
    assert_eq!(t.rows_until(&rows, 4).len(), 3);
    assert_eq!(t.rows_until(&rows, 5).len(), 4);
    assert_eq!(t.index_of_seq(4), Some(4));
    assert_eq!(t.event(4).map(|e| e.seq), Some(4));
}

/// Skyweaver: a period ends at each reset; the step lands just after it. A rules event ends
/// one too, and under Elo periods are calendar weeks (2026-01-05 is a Monday).
#[test]
fn skyweaver_periods_end_at_resets_then_weeks_under_elo() {
    let events = log(vec![
        (0, join(0)),          // 1
        (0, join(1)),          // 2
        (1, game(0, 1, WIN)),  // 3
        (2, game(0, 1, WIN)),  // 4
        (3, Event::SoftReset), // 5: period end
        (4, game(0, 1, WIN)),  // 6
        (5, Event::SoftReset), // 7: period end
        (5, Event::HardReset), // 8: period end
        (6, game(1, 0, WIN)),  // 9
        (7, game(1, 0, WIN)),  // 10
        (
            8,
            Event::Rules {
                rules: Rules::defaults(System::Elo).into(),
            },
        ), // 11: end
        (8, game(1, 0, WIN)),  // 12 (Fri 2026-01-09)
        (10, game(1, 0, WIN)), // 13 (Sun 2026-01-11): week ends
        (11, game(1, 0, WIN)), // 14 (Mon 2026-01-12)
        (20, game(0, 1, WIN)), // 15 (Wed 2026-01-21)
    ]);
    let t = Timeline::build(&Rules::default(), events, &mut no_progress()).unwrap();
    assert_eq!(t.period_ends(), &[5, 7, 8, 11, 13, 14]);
    assert_eq!(t.next_period(0), 5);
    assert_eq!(t.next_period(5), 7);
    assert_eq!(t.next_period(6), 7);
    assert_eq!(t.next_period(14), 15);
    assert_eq!(t.next_period(15), 15);
    assert_eq!(t.prev_period(15), 14);
    assert_eq!(t.prev_period(7), 5);
    assert_eq!(t.prev_period(6), 5);
    assert_eq!(t.prev_period(5), 0);
    let after_reset = t.at(t.next_period(0)).unwrap();
    assert_eq!(after_reset.week, 2);
}

/// INVERSUS: blocks of `days_per_period` days from the log's first date.
#[test]
fn inversus_periods_are_blocks_of_days() {
    let mut rules = Rules::defaults(System::Inversus);
    rules.assign("days_per_period=3").unwrap();
    let events = log(vec![
        (0, join(0)),         // 1: day 0, block 0
        (0, join(1)),         // 2
        (2, game(0, 1, WIN)), // 3: block 0 ends
        (3, game(0, 1, WIN)), // 4: block 1
        (5, game(0, 1, WIN)), // 5: block 1 ends
        (9, game(0, 1, WIN)), // 6: block 3
    ]);
    let t = Timeline::build(&rules, events, &mut no_progress()).unwrap();
    assert_eq!(t.period_ends(), &[3, 5]);
    assert_eq!(t.index_at_date(day(4)), 4);
    assert_eq!(t.index_at_date(day(100)), 6);
}

#[test]
fn the_default_interval_bounds_checkpoints() {
    let mut items: Vec<(u32, Event)> = (0..100).map(|i| (0, join(i))).collect();
    items.extend((0..100_000u32).map(|i| (1 + i / 1000, game(i % 100, (i + 1) % 100, WIN))));
    let events = log(items);
    let k = default_interval(&events);
    assert!(k >= 1024);
    assert!(events.len().div_ceil(k) <= 64, "interval {k}");
    let t = Timeline::build(&Rules::default(), events, &mut no_progress()).unwrap();
    assert!(t.checkpoint_count() <= 65);
    assert_eq!(t.at(70_000).unwrap().events, 70_000);
}
