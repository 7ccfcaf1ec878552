//! The club formats at a club's largest. Run: `cargo bench -p rungs-benches --bench formats`.
//!
//! - a box league of 200 players in 40 boxes of five, every box match of March played (400
//!   matches): read the league from the file, work out the next period and preview it through
//!   the gate (what `rungs close-period --preview` does);
//! - a challenge ladder of 1,000 positions with a year of challenges behind it: a challenge's
//!   result entered as `rungs challenge-result` enters it (open the file, read the ladder up to
//!   the day, build the action, commit it, read the ladder again for the new places).
//!
//! The files are built afresh into `target/bench-data/` at each run (a few seconds).

use chrono::{Days, NaiveDate};
use criterion::{Criterion, criterion_group, criterion_main};
use rungs_gate::formats::formats;
use rungs_gate::{Action, Context, apply, preview};
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::formats::boxes::fill_boxes;
use rungs_ladder::formats::settings::{BoxPeriodRecord, BoxSettings, ChallengeSettings};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::{Change, Store};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench data directory");
    dir
}

fn fresh(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n)
}

fn joins(n: u32) -> Vec<(NaiveDate, Entry)> {
    (0..n)
        .map(|id| {
            let name = rungs_ladder::values::PlayerName::parse(&format!("Player {id}")).unwrap();
            let event = Event::Player {
                id,
                name,
                undated: false,
            };
            (day(0), Entry::Add { event })
        })
        .collect()
}

fn game(a: PlayerId, b: PlayerId, games: [u32; 2]) -> Event {
    let outcome = if games[0] > games[1] {
        Outcome::Win
    } else {
        Outcome::Loss
    };
    let mut m = Match::new(a, b, MatchResult::Played(outcome));
    m.goals = Some(games);
    Event::Match(m)
}

/// 200 players in 40 boxes of five for March 2026, every box match played.
fn box_league(path: &Path) -> Store {
    fresh(path);
    let mut store = Store::create(path, &Rules::defaults(System::Elo)).unwrap();
    let mut rows = joins(200);
    let order: Vec<PlayerId> = (0..200).collect();
    let boxes = fill_boxes(&order, 5);
    let start = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    let end = NaiveDate::from_ymd_opt(2026, 3, 31).unwrap();
    rows.push((
        start,
        Entry::Add {
            event: Event::BoxPeriod {
                period: Box::new(BoxPeriodRecord {
                    number: 1,
                    start,
                    end,
                    settings: BoxSettings::default(),
                    boxes: boxes.clone(),
                }),
            },
        },
    ));
    for (k, b) in boxes.iter().enumerate() {
        for (i, x) in b.iter().enumerate() {
            for (j, y) in b.iter().enumerate().skip(i + 1) {
                let games = [[3, 0], [3, 1], [2, 3], [3, 2]][(k + i + j) % 4];
                let date = start + Days::new(((i * 5 + j) % 28) as u64);
                rows.push((
                    date,
                    Entry::Add {
                        event: game(*x, *y, games),
                    },
                ));
            }
        }
    }
    store.commit(&Change::new("March", rows).unwrap()).unwrap();
    store
}

/// 1,000 players on a challenge ladder since 1 January 2026, a year of challenges (three a
/// day, each played two days later), and one challenge open on the last day.
fn challenge_ladder(path: &Path) -> (Store, NaiveDate) {
    fresh(path);
    let mut store = Store::create(path, &Rules::defaults(System::Elo)).unwrap();
    store
        .commit(&Change::new("joins", joins(1000)).unwrap())
        .unwrap();
    let order: Vec<PlayerId> = (0..1000).collect();
    let mut rows = vec![(
        day(0),
        Entry::Add {
            event: Event::ChallengeLadder {
                settings: Box::new(ChallengeSettings::default()),
                order,
            },
        },
    )];
    for d in 1..365u64 {
        for k in 0..3u64 {
            // Challengers spread over the ladder: far enough apart not to meet each other.
            let challenger = ((d * 37 + k * 311) % 996 + 4) as PlayerId;
            let defender = challenger - 1 - (d % 3) as PlayerId;
            rows.push((
                day(d),
                Entry::Add {
                    event: Event::Challenge {
                        challenger,
                        defender,
                    },
                },
            ));
            let games = if (d + k) % 2 == 0 { [3, 1] } else { [1, 3] };
            rows.push((
                day(d + 2),
                Entry::Add {
                    event: game(challenger, defender, games),
                },
            ));
        }
    }
    store.commit(&Change::new("a year", rows).unwrap()).unwrap();
    (store, day(370))
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("formats");
    g.sample_size(20).measurement_time(Duration::from_secs(10));

    let path = data_dir().join("boxes-200.rungs");
    let store = box_league(&path);
    let ladder = store.ladder().unwrap();
    let on = NaiveDate::from_ymd_opt(2026, 3, 31).unwrap();
    g.bench_function("close-period-preview-200-players-40-boxes", |b| {
        b.iter(|| {
            let f = formats(&store, on).unwrap();
            let ctx = Context::new(&ladder, "boxes-200.rungs", on);
            let (act, next) = Action::close_period(&ctx, &f, None, None, on).unwrap();
            let shown = preview(&store, &act).unwrap();
            assert_eq!(next.record.boxes.len(), 40);
            shown
        })
    });

    let path = data_dir().join("challenge-1000.rungs");
    let (store, last) = challenge_ladder(&path);
    drop(store);
    g.bench_function("challenge-result-1000-positions-whole-command", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                // Untimed: place 600 challenges place 598.
                let mut store = Store::open(&path).unwrap();
                let ladder = store.ladder().unwrap();
                let ctx = Context::new(&ladder, "challenge-1000.rungs", last);
                let f = formats(&store, last).unwrap();
                let [defender, challenger] = [f.challenge.order()[597], f.challenge.order()[599]];
                let who = |id: PlayerId| format!("Player {id}");
                let act =
                    Action::challenge(&ctx, &f, &who(challenger), &who(defender), last).unwrap();
                apply(&mut store, &act).unwrap();
                let number = f.challenge.next_number();
                drop(store);
                // Timed: the result as `rungs challenge-result` enters it.
                let t = Instant::now();
                let mut store = Store::open(&path).unwrap();
                let ladder = store.ladder().unwrap();
                let ctx = Context::new(&ladder, "challenge-1000.rungs", last);
                let f = formats(&store, last).unwrap();
                let act =
                    Action::challenge_result(&ctx, &f, number, Some("1"), None, last).unwrap();
                apply(&mut store, &act).unwrap();
                let after = formats(&store, last).unwrap();
                total += t.elapsed();
                assert_eq!(after.challenge.position(challenger), Some(598));
                store.undo().unwrap();
                store.undo().unwrap();
            }
            total
        })
    });
    g.finish();
}

criterion_group!(formats_benches, benches);
criterion_main!(formats_benches);
