//! One frame of the app, headless through egui_kittest, on the 1M-match, 10,000-player
//! synthetic ladder. Run: `cargo bench --bench ui` (after `cargo bench --bench ladder` has
//! built `target/bench-data/synthetic-1m.rungs`, or it is built here).

#[path = "support/synthetic.rs"]
mod synthetic;

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use rungs_app::RungsApp;
use rungs_app::command::{Command, Screen, ToolCommand};
use rungs_app::state::AppState;
use rungs_ladder::rules::Rules;
use rungs_store::Store;
use std::path::Path;
use std::time::Duration;

/// A synthetic ladder file of `players` and `matches`, built once and kept.
fn ladder_file(name: &str, players: u32, matches: u32) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench data directory");
    let path = dir.join(name);
    if !path.exists() {
        let partial = path.with_extension("partial");
        let _ = std::fs::remove_file(&partial);
        let mut store = Store::create(&partial, &Rules::default()).expect("create");
        store
            .commit(
                &rungs_store::Change::new(
                    "synthetic ladder",
                    synthetic::entries(players, matches, 42).to_vec(),
                )
                .unwrap(),
            )
            .expect("commit");
        drop(store);
        std::fs::rename(&partial, &path).expect("rename");
    }
    path
}

fn bench_frames(c: &mut Criterion) {
    let path = ladder_file("synthetic-1m.rungs", 10_000, 1_000_000);
    let data = std::env::temp_dir().join("rungs-ui-bench");
    let mut group = c.benchmark_group("ui-frame-1m");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    for (name, screen) in [
        ("standings", Screen::Standings),
        ("enter-match", Screen::EnterMatch),
    ] {
        let mut state = AppState::open_or_create(data.clone(), &path);
        state.apply(Command::Show(screen));
        let mut app = RungsApp::with_state(state);
        if screen == Screen::EnterMatch {
            // A filled-in form: the forecast is computed once and then cached.
            app.screens.enter.form.a = "Player 00001".into();
            app.screens.enter.form.b = "Player 00002".into();
        }
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1280.0, 860.0))
            .build_ui_state(|ui, app: &mut RungsApp| app.frame(ui), app);
        harness.run_steps(3);
        group.bench_function(name, |b| b.iter(|| harness.step()));
    }
    group.finish();
}

/// The History screen with two players of about 10,000 matches each, zoomed out: the
/// curves and bands are thinned to the plot's pixels once for the view, then kept while it
/// stays (a frame here redraws them as they were).
fn bench_history(c: &mut Criterion) {
    let path = ladder_file("synthetic-history.rungs", 20, 100_000);
    let data = std::env::temp_dir().join("rungs-ui-bench");
    let mut state = AppState::open_or_create(data, &path);
    for cmd in [
        Command::Tool(ToolCommand::Plot(0)),
        Command::Tool(ToolCommand::Plot(1)),
        Command::Show(Screen::History),
    ] {
        state.apply(cmd);
    }
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(
            |ui, app: &mut RungsApp| app.frame(ui),
            RungsApp::with_state(state),
        );
    harness.run_steps(3);
    // The log is read for the markers as a job on a ladder this size.
    harness.state_mut().state.wait_for_job();
    harness.run_steps(3);
    let points = harness.state_mut().state.history_of(0).len();
    assert!(points > 9_000, "player 0 has {points} history rows");
    let mut group = c.benchmark_group("ui-frame-history");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("two-players-10k-points", |b| b.iter(|| harness.step()));
    group.finish();
}

criterion_group!(benches, bench_frames, bench_history);
criterion_main!(benches);
