//! The explanation panel: opened from a match's Why? on Matches and by a click on History's
//! plot, it shows the same figures as `rungs explain --json`.

use chrono::NaiveDate;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::Rules;
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

fn game(a: u32, b: u32, o: Outcome) -> Entry {
    Entry::Add {
        event: Event::Match(Match::new(a, b, MatchResult::Played(o))),
    }
}

/// A Skyweaver ladder: Ann, Bo, Cy join (events 1–3); Ann beats Bo (4), Ann beats Cy (5),
/// Cy beats Ann (6).
fn ladder(dir: &Temp) -> std::path::PathBuf {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = ["Ann", "Bo", "Cy"]
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let event = Event::Player {
                id: i as u32,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            };
            (day(1), Entry::Add { event })
        })
        .collect();
    rows.extend([
        (day(2), game(0, 1, Outcome::Win)),
        (day(3), game(0, 2, Outcome::Win)),
        (day(4), game(2, 0, Outcome::Win)),
    ]);
    store
        .commit(&rungs_store::Change::new("season", rows).unwrap())
        .unwrap();
    path
}

fn settle(h: &mut Harness<'_, RungsApp>) {
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
}

/// `rungs explain FILE SEQ --json`, read.
fn cli_json(path: &std::path::Path, seq: &str) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(["explain", path.to_str().unwrap(), seq, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every figure of the CLI's JSON is in the panel: each section's title, and each step's
/// symbol, value (written in full, as the CLI writes it) and name, at least as often as the
/// JSON holds it.
fn panel_shows(h: &Harness<'_, RungsApp>, json: &serde_json::Value) -> usize {
    let mut wanted: std::collections::BTreeMap<String, usize> = Default::default();
    for p in json["players"].as_array().unwrap() {
        *wanted
            .entry(p["name"].as_str().unwrap().into())
            .or_default() += 1;
        for s in p["sections"].as_array().unwrap() {
            *wanted
                .entry(s["title"].as_str().unwrap().into())
                .or_default() += 1;
            for step in s["steps"].as_array().unwrap() {
                let value = rungs_app::explain::figure(step["value"].as_f64().unwrap());
                for text in [
                    step["symbol"].as_str().unwrap().to_string(),
                    value,
                    step["name"].as_str().unwrap().to_string(),
                ] {
                    *wanted.entry(text).or_default() += 1;
                }
            }
        }
    }
    for (text, count) in &wanted {
        let shown = h.query_all_by_label(text).count();
        assert!(
            shown >= *count,
            "{text:?}: {shown} shown, {count} in the JSON"
        );
    }
    wanted.values().sum()
}

#[test]
fn why_on_a_match_shows_the_clis_figures() {
    let dir = Temp::new("explain-match");
    let path = ladder(&dir);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 1000.0));
    click(&mut h, "Matches");
    settle(&mut h);
    // Newest first: the first Why? is event 6, Cy beating Ann.
    h.get_all_by_label("Why?").next().unwrap().click();
    h.run();
    let shown = h
        .state()
        .screens
        .explain
        .shown
        .clone()
        .expect("the panel is open");
    assert_eq!(shown.seq, 6);
    let names: Vec<&str> = shown.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Cy", "Ann"]);
    assert!(
        h.query_by_label("Event 6 on 2026-03-04: match (skyweaver)")
            .is_some()
    );
    let json = cli_json(&path, "6");
    let figures = panel_shows(&h, &json);
    assert!(figures > 100, "{figures}");
    // Cy's expected score and Rank Points, as the JSON has them, in the panel.
    let cy = &json["players"][0];
    assert_eq!(cy["after"]["score"], shown.players[0].after.score);
    // The close button closes it.
    h.get_by_label("Close window").click();
    h.run();
    assert!(h.state().screens.explain.shown.is_none());
}

#[test]
fn a_click_on_historys_plot_explains_the_event_under_it() {
    let dir = Temp::new("explain-plot");
    let path = ladder(&dir);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    click(&mut h, "History");
    type_into(&mut h, "Plot player:", "Ann");
    h.key_press(egui::Key::Enter);
    settle(&mut h);
    let rect = h
        .state()
        .screens
        .history
        .plot_rect
        .expect("the plots were drawn");
    // The rating plot's right end: Ann's last event, Cy's win (event 6).
    let at = egui::pos2(rect.right() - 40.0, rect.top() + 60.0);
    h.input_mut().events.push(egui::Event::PointerMoved(at));
    h.run();
    for pressed in [true, false] {
        h.input_mut().events.push(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    h.run();
    let shown = h
        .state()
        .screens
        .explain
        .shown
        .clone()
        .expect("the panel is open");
    assert_eq!(shown.seq, 6);
    assert_eq!(shown.players.len(), 1);
    assert_eq!(shown.players[0].name, "Ann");
    let mut json = cli_json(&path, "6");
    // The CLI without a player explains both; Ann is the second.
    json["players"] = serde_json::Value::Array(vec![json["players"][1].clone()]);
    panel_shows(&h, &json);
}

/// On a ladder too large to replay on the window's thread the explanation is worked out as a
/// job, and the panel opens when it lands, the same as on a small one.
#[test]
fn a_large_ladder_explains_off_the_windows_thread() {
    let dir = Temp::new("explain-job");
    let path = ladder(&dir);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 1000.0));
    h.state_mut().state.inline_limit = 0;
    click(&mut h, "Matches");
    settle(&mut h);
    let jobs = h.state().state.jobs_started;
    // The third Why? from the top: event 4, Ann beating Bo.
    h.get_all_by_label("Why?").nth(2).unwrap().click();
    let _ = h.try_run();
    settle(&mut h);
    assert_eq!(
        h.state().state.jobs_started,
        jobs + 1,
        "explaining ran as a job"
    );
    let shown = h
        .state()
        .screens
        .explain
        .shown
        .clone()
        .expect("the panel is open");
    assert_eq!(shown.seq, 4);
    panel_shows(&h, &cli_json(&path, "4"));
}
