//! One frame of the app, headless through egui_kittest, on the 1M-match, 10,000-player
//! synthetic ladder. Run: `cargo bench --bench ui` (after `cargo bench --bench ladder` has
//! built `target/bench-data/synthetic-1m.rungs`, or it is built here).

#[path = "support/synthetic.rs"]
mod synthetic;

use criterion::{Criterion, criterion_group, criterion_main};
use eframe::egui;
use egui_kittest::Harness;
use rungs::app::RungsApp;
use rungs::app::state::{AppState, Command, Screen};
use rungs::ladder::rules::Rules;
use rungs::store::Store;
use std::path::Path;
use std::time::Duration;

fn ladder_file() -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench data directory");
    let path = dir.join("synthetic-1m.rungs");
    if !path.exists() {
        let partial = path.with_extension("partial");
        let _ = std::fs::remove_file(&partial);
        let mut store = Store::create(&partial, &Rules::default()).expect("create");
        store
            .commit(
                "synthetic ladder",
                &synthetic::entries(10_000, 1_000_000, 42),
            )
            .expect("commit");
        drop(store);
        std::fs::rename(&partial, &path).expect("rename");
    }
    path
}

fn bench_frames(c: &mut Criterion) {
    let path = ladder_file();
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
        if screen == Screen::EnterMatch {
            // A filled-in form: the forecast is computed once and then cached.
            state.form.a = "Player 00001".into();
            state.form.b = "Player 00002".into();
        }
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1280.0, 860.0))
            .build_ui_state(
                |ui, app: &mut RungsApp| app.frame(ui),
                RungsApp::with_state(state),
            );
        harness.run_steps(3);
        group.bench_function(name, |b| b.iter(|| harness.step()));
    }
    group.finish();
}

criterion_group!(benches, bench_frames);
criterion_main!(benches);
