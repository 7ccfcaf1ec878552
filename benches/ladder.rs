//! The ladder at scale. Run: `cargo bench --bench ladder`.
//!
//! - international results (49,520 matches, 337 players): import + replay into a new file,
//!   and replay from the file, under each system;
//! - a synthetic ladder of 1,000,000 matches among 10,000 players (seeded): full replay in
//!   memory under skyweaver, one match appended with its incremental update and commit, and
//!   opening the file and computing the standings.
//!
//! The synthetic file is built once into `target/bench-data/synthetic-1m.rungs` (about a
//! minute); delete it to rebuild. Each run appends its measured matches to it.

#[path = "support/synthetic.rs"]
mod synthetic;

use chrono::NaiveDate;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rungs_gate::imports::import_csv;
use rungs_interchange::csv_matches;
use rungs_interchange::csv_matches::Mapping;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::log;
use rungs_ladder::replay;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::standings;
use rungs_ladder::timeline::Timeline;
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::{Path, PathBuf};
use std::time::Duration;

const PLAYERS: u32 = 10_000;
const MATCHES: u32 = 1_000_000;

fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench data directory");
    dir
}

fn international() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/international_results.csv.gz")
}

fn fresh(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// A new ladder at `path` under `system`'s defaults holding the international results.
fn import_international(path: &Path, system: System) -> rungs_gate::imports::Summary {
    let mut store = Store::create(path, &Rules::defaults(system)).expect("create");
    let reader = csv_matches::open(&international(), &Mapping::international()).expect("open");
    import_csv(
        &mut store,
        reader,
        "international",
        true,
        false,
        &mut |_| true,
    )
    .expect("import")
}

fn bench_international(c: &mut Criterion) {
    let mut group = c.benchmark_group("international");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let dir = data_dir();
    for system in System::ALL {
        let path = dir.join(format!("international-{}.rungs", system.name()));
        group.bench_function(format!("import+replay/{}", system.name()), |b| {
            b.iter_batched(
                || fresh(&path),
                |()| import_international(&path, system),
                BatchSize::PerIteration,
            )
        });
        if !path.exists() {
            import_international(&path, system);
        }
        let store = Store::open(&path).expect("open");
        group.bench_function(format!("replay-from-file/{}", system.name()), |b| {
            b.iter(|| store.replay(None).expect("replay"))
        });
    }
    group.finish();
}

fn synthetic_file(entries: &[(NaiveDate, Entry)]) -> PathBuf {
    let path = data_dir().join("synthetic-1m.rungs");
    if !path.exists() {
        eprintln!("building {} (once)…", path.display());
        let partial = path.with_extension("partial");
        fresh(&partial);
        let mut store = Store::create(&partial, &Rules::default()).expect("create");
        store
            .commit(&rungs_store::Change::new("synthetic ladder", entries.to_vec()).unwrap())
            .expect("commit");
        drop(store);
        std::fs::rename(&partial, &path).expect("rename");
    }
    path
}

fn bench_synthetic(c: &mut Criterion) {
    let entries = synthetic::entries(PLAYERS, MATCHES, 42);
    let rows: Vec<_> = entries
        .iter()
        .enumerate()
        .map(|(i, (date, entry))| rungs_ladder::event::LogRow {
            seq: i as u64 + 1,
            date: *date,
            entry: entry.clone(),
        })
        .collect();
    let events = log::resolve(&rows).expect("resolve");
    drop(rows);
    let rules = Rules::default();
    let mut group = c.benchmark_group("synthetic-1m");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.bench_function("replay-in-memory/skyweaver", |b| {
        b.iter(|| {
            replay::replay_state(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
                .expect("replay")
        })
    });
    group.bench_function("replay-in-memory-with-history/skyweaver", |b| {
        b.iter(|| {
            replay::replay(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
                .expect("replay")
        })
    });
    // The replay timeline: one pass with checkpoints, then the ladder after any event (the
    // worst case sits just before a checkpoint: a clone plus interval − 1 applies).
    let timeline = Timeline::build(&rules, events.clone(), &mut |_| true).expect("timeline");
    group.bench_function("timeline-build/skyweaver", |b| {
        b.iter_batched(
            || events.clone(),
            |ev| Timeline::build(&rules, ev, &mut |_| true).expect("timeline"),
            BatchSize::LargeInput,
        )
    });
    let worst = timeline.interval() * 20 - 1;
    group.bench_function("timeline-at-worst-case", |b| {
        b.iter(|| timeline.at(worst).expect("at"))
    });
    drop(timeline);
    drop(events);

    let path = synthetic_file(&entries);
    let last_date = entries.last().map(|(d, _)| *d).expect("entries");
    drop(entries);
    group.bench_function("open+standings", |b| {
        b.iter(|| {
            let store = Store::open(&path).expect("open");
            let ladder = store.ladder().expect("ladder");
            standings::standings(&ladder)
        })
    });
    let mut store = Store::open(&path).expect("open");
    let mut n = 0u32;
    group.bench_function("append-match+commit", |b| {
        b.iter(|| {
            n += 1;
            let m = Match::new(
                n % PLAYERS,
                (n * 7 + 1) % PLAYERS,
                MatchResult::Played(Outcome::Win),
            );
            store
                .commit(
                    &rungs_store::Change::new(
                        "add match",
                        vec![(
                            last_date,
                            Entry::Add {
                                event: Event::Match(m),
                            },
                        )],
                    )
                    .unwrap(),
                )
                .expect("commit")
        })
    });
    group.finish();
}

criterion_group!(benches, bench_international, bench_synthetic);
criterion_main!(benches);
