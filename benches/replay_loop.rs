//! The replay loop per system, per match: the seeded synthetic ladder (10,000 players,
//! 200,000 matches) replayed in memory from its decoded events, keeping only the final state
//! and keeping every history row, and the prediction-only replay `evaluate` and `fit` score
//! with (each match predicted, scored and rated; the log indexed once). Run: `cargo bench -p rungs-benches --bench replay_loop`;
//! criterion reports matches per second (its `thrpt`), whose inverse is the time a match
//! takes, beside the one-update figures of `--bench rating`.

#[path = "support/synthetic.rs"]
mod synthetic;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rungs_analysis::evaluate::{Window, evaluate_indexed};
use rungs_ladder::event::LogRow;
use rungs_ladder::log;
use rungs_ladder::quick;
use rungs_ladder::replay;
use rungs_ladder::rules::{Rules, System};
use std::hint::black_box;
use std::time::Duration;

const PLAYERS: u32 = 10_000;
const MATCHES: u32 = 200_000;

fn bench_replay_loop(c: &mut Criterion) {
    let entries = synthetic::entries(PLAYERS, MATCHES, 42);
    let rows: Vec<LogRow> = entries
        .into_iter()
        .enumerate()
        .map(|(i, (date, entry))| LogRow {
            seq: i as u64 + 1,
            date,
            entry,
        })
        .collect();
    let events = log::resolve_owned(rows).expect("resolve");
    let mut group = c.benchmark_group("replay-loop");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        // The joins are events too, but the matches are what the loop is for.
        .throughput(Throughput::Elements(u64::from(MATCHES)));
    let indexed = quick::Log::index(events.iter().map(|e| (e.date, e.seq, &e.event)), None)
        .expect("the synthetic log is one the prediction-only replay covers");
    for system in System::ALL {
        let rules = Rules::defaults(system);
        let each = || events.iter().map(|e| (e.date, e.seq, &e.event));
        group.bench_function(format!("predict-only/{}", system.name()), |b| {
            b.iter(|| {
                black_box(
                    evaluate_indexed(&rules, &indexed, Window::ALL, &mut |_| true)
                        .expect("covered")
                        .expect("scored"),
                )
            })
        });
        group.bench_function(format!("state/{}", system.name()), |b| {
            b.iter(|| black_box(replay::replay_state(&rules, each()).expect("replay")))
        });
        group.bench_function(format!("with-history/{}", system.name()), |b| {
            b.iter(|| black_box(replay::replay(&rules, each()).expect("replay")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_replay_loop);
criterion_main!(benches);
