//! Club-night pairings. Run: `cargo bench -p rungs-benches --bench pairing`.
//!
//! A Skyweaver ladder of 10,000 players and 60,000 matches (seeded; results drawn from hidden
//! skills so that ratings spread), replayed once outside the measurement. Measured: the
//! balanced pairing of 100 present players (every pair considered) and of all 10,000 (each
//! player's 12 nearest by rating), from the ladder's own forecast, with last night's games
//! as rematch penalties: the engine alone, and with the entrants, their forecast and the
//! meetings read from the ladder inside the measurement.
//!
//! Also the FIDE (Dutch) System: round 6 of Swiss events of 100 and 500 players whose first
//! five rounds were paired by the engine with seeded results (goal: 50 ms and 1 s).

use chrono::NaiveDate;
use criterion::{Criterion, criterion_group, criterion_main};
use rungs_ladder::event::{Event, Home, Match, MatchResult, PlayerId};
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_pairing::balanced::{self, Night};
use rungs_pairing::dutch::{Colour, GameResult, Tournament};
use rungs_pairing::ladder::{History, present};
use rungs_pairing::model::Weights;
use rungs_rating::Outcome;
use std::time::Duration;

const PLAYERS: u32 = 10_000;
const MATCHES: u32 = 60_000;

fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn ladder() -> (Ladder, History, NaiveDate) {
    let mut next = rng(2026);
    let skill: Vec<f64> = (0..PLAYERS)
        .map(|_| {
            (0..12)
                .map(|_| (next() % 1000) as f64 / 1000.0)
                .sum::<f64>()
                - 6.0
        })
        .collect();
    let start = NaiveDate::from_ymd_opt(2026, 1, 1).expect("a date");
    let mut events = Vec::new();
    for id in 0..PLAYERS {
        let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).expect("a name");
        events.push((
            start,
            Event::Player {
                id,
                name,
                undated: false,
            },
        ));
    }
    for k in 0..MATCHES {
        let a = (next() % PLAYERS as u64) as PlayerId;
        let b = (a + 1 + (next() % 50) as PlayerId) % PLAYERS;
        let p = 1.0 / (1.0 + (-(skill[a as usize] - skill[b as usize])).exp());
        let o = if (next() % 1000) as f64 / 1000.0 < p {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let date = start + chrono::Days::new(1 + u64::from(k / 2000));
        let m = Match {
            home: Some(Home::A),
            ..Match::new(a, b, MatchResult::Played(o))
        };
        events.push((date, Event::Match(m)));
    }
    let ladder = replay_state(
        &Rules::defaults(System::Skyweaver),
        events
            .iter()
            .enumerate()
            .map(|(i, (d, e))| (*d, i as u64, e)),
    )
    .expect("replay");
    let mut history = History::default();
    for (d, e) in &events {
        history.read(*d, e);
    }
    let date = events
        .last()
        .map(|(d, _)| *d + chrono::Days::new(7))
        .expect("events");
    (ladder, history, date)
}

fn bench(c: &mut Criterion) {
    let (ladder, history, date) = ladder();
    let mut group = c.benchmark_group("pairing");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for n in [100u32, 10_000] {
        let ids: Vec<PlayerId> = (0..n).map(|i| i * (PLAYERS / n)).collect();
        let w = Weights::default();
        let pair = |entrants: &[_], forecast: &_, constraints: &_| {
            let round = balanced::pair(&Night {
                entrants,
                forecast,
                constraints,
                weights: &w,
                seed: 1,
            })
            .expect("a pairing");
            assert_eq!(round.boards.len(), n as usize / 2);
            round
        };
        // The engine alone, then with the ladder read for it (standings, skills, meetings).
        let (entrants, forecast) = present(&ladder, &ids, date, &history).expect("present");
        let constraints = history.constraints(&entrants, date);
        group.bench_function(format!("balanced-{n}"), |bench| {
            bench.iter(|| pair(&entrants, &forecast, &constraints))
        });
        group.bench_function(format!("balanced-{n}-with-ladder-read"), |bench| {
            bench.iter(|| {
                let (entrants, forecast) = present(&ladder, &ids, date, &history).expect("present");
                let constraints = history.constraints(&entrants, date);
                pair(&entrants, &forecast, &constraints)
            })
        });
    }
    for n in [100usize, 500] {
        let t = swiss_event(n, 5);
        group.bench_function(format!("dutch-{n}-round-6"), |bench| {
            bench.iter(|| t.pair(&[]).expect("a pairing"))
        });
    }
    group.finish();
}

/// A Swiss event of `n` players after `rounds` rounds, results drawn from the ratings.
fn swiss_event(n: usize, rounds: usize) -> Tournament {
    let mut next = rng(38);
    let mut t = Tournament::new(9, Colour::White);
    for k in 0..n {
        t.enter(&format!("P{k}"), 1000 + (next() % 1500) as u32);
    }
    for _ in 0..rounds {
        let pairing = t.pair(&[]).expect("a pairing");
        let results: Vec<GameResult> = pairing
            .boards
            .iter()
            .map(|&(w, b)| {
                let edge = t.players[w].rating as i64 - t.players[b].rating as i64;
                let roll = (next() % 1000) as i64 - 500;
                match roll + edge / 2 {
                    x if x > 150 => GameResult::WhiteWins,
                    x if x < -150 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                }
            })
            .collect();
        t.record(&pairing, &results, &[]).expect("recorded");
    }
    t
}

criterion_group!(benches, bench);
criterion_main!(benches);
