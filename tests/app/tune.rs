//! The Tune screen (src/app/tune.rs) on its own, as the app will host it: the fit runs as a
//! job, its scores and curves show, and Apply asks for the previewed rules change.

use chrono::NaiveDate;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::command::Command;
use rungs_app::tune::{self, Tune};
use rungs_ladder::event::{Entry, Event, Home, Match, MatchResult};
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::PathBuf;

use crate::support;
use support::TempDir as Dir;

/// 80 matches among three players, side A at home winning three in four.
fn ladder(dir: &Dir) -> (PathBuf, Ladder) {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::defaults(System::Elo)).unwrap();
    let start = NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = (0..3)
        .map(|id| {
            let event = Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
                undated: false,
            };
            (start, Entry::Add { event })
        })
        .collect();
    for i in 0..80u32 {
        let o = if i % 4 == 0 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        let m = Match {
            home: Some(Home::A),
            ..Match::new(i % 3, (i + 1) % 3, MatchResult::Played(o))
        };
        let date = start + chrono::Days::new(u64::from(i) + 1);
        rows.push((
            date,
            Entry::Add {
                event: Event::Match(m),
            },
        ));
    }
    store
        .commit(&rungs_store::Change::new("matches", rows.to_vec()).unwrap())
        .unwrap();
    let ladder = store.ladder().unwrap();
    (path, ladder)
}

struct Screen {
    tune: Tune,
    file: PathBuf,
    ladder: Ladder,
    out: Vec<Command>,
}

#[test]
fn a_fit_runs_as_a_job_and_offers_its_rules() {
    let dir = Dir::new("tune");
    let (file, ladder) = ladder(&dir);
    let screen = Screen {
        tune: Tune::default(),
        file,
        ladder,
        out: Vec::new(),
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 800.0))
        .with_max_steps(40)
        .build_ui_state(
            |ui, s: &mut Screen| tune::show(ui, &mut s.tune, Some(&s.file), &s.ladder, &mut s.out),
            screen,
        );
    // The app backs its proportional font with Hack for arrows (app::install_fonts).
    let mut fonts = egui::FontDefinitions::default();
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional) {
        family.push("Hack".to_owned());
    }
    h.ctx.set_fonts(fonts);
    h.run();
    // The ladder's own system, with its usual parameters ticked.
    assert_eq!(h.state().tune.system, Some(System::Elo));
    assert_eq!(h.state().tune.chosen, ["advantage", "k"]);
    h.get_by_label("Fit").click();
    let _ = h.try_run();
    h.state_mut().tune.wait();
    h.run();
    let tuned = h.state().tune.result.as_ref().expect("a fit");
    // 80 played matches: the first 56 (70 %) before the split.
    assert_eq!(tuned.fit.fitted.train.matches, 56);
    assert!(tuned.fit.rules.advantage > 0.0, "{:?}", tuned.fit.rules);
    assert_eq!(tuned.curves.len(), 2);
    assert_eq!(tuned.baseline.label, "elo K=32");
    let fitted = tuned.fit.rules.clone();
    h.get_by_label("test");
    // The curve is named by the parameter's label, not its code name.
    h.get_by_label("log-loss vs Side advantage");
    // The fitted value is said, not left to an axis that may name only "0".
    assert!(fitted.advantage >= 10.0, "{}", fitted.advantage);
    h.get_by_label(&format!(
        "Side advantage fitted at {:.0} (the dot)",
        fitted.advantage
    ));
    h.get_by_label("Apply as rules change…").click();
    h.run();
    assert!(
        matches!(h.state().out.as_slice(), [Command::PreviewRules(r, _)] if *r == fitted),
        "{:?}",
        h.state().out
    );
}

#[test]
fn a_bad_date_is_said_and_nothing_runs() {
    let dir = Dir::new("tune-bad");
    let (file, ladder) = ladder(&dir);
    let mut tune = Tune::default();
    tune.until = "2025-02-30".into();
    let e = tune.start(&file, &ladder.rules).unwrap_err();
    assert!(
        e.contains("field `Fit on matches before`: `2025-02-30`"),
        "{e}"
    );
    assert!(!tune.busy());
    tune.until = "2024-01-01".into();
    tune.start(&file, &ladder.rules).unwrap();
    tune.wait();
    let e = tune.error.clone().unwrap();
    assert!(e.contains("no played matches before 2024-01-01"), "{e}");
    assert!(tune.result.is_none());
}

/// "Let the fit choose the parameters": the ticks are not read (none are ticked here), the
/// fit screens every parameter of Elo and fits those that predict better — the side
/// advantage, on a log whose home side wins three in four — as the same job.
#[test]
fn the_fit_can_choose_the_parameters_itself() {
    let dir = Dir::new("tune-auto");
    let (file, ladder) = ladder(&dir);
    let mut tune = Tune::default();
    tune.system = Some(System::Elo);
    tune.chosen.clear();
    assert_eq!(
        tune.start(&file, &ladder.rules).unwrap_err(),
        "tick at least one parameter to fit"
    );
    tune.auto = true;
    tune.start(&file, &ladder.rules).unwrap();
    assert!(tune.busy());
    tune.wait();
    assert!(tune.error.is_none(), "{:?}", tune.error);
    let tuned = tune.result.as_ref().expect("a fit");
    let f = &tuned.fit;
    assert_eq!(f.screened.len(), System::Elo.facts().params.len());
    let names: Vec<&str> = f.params.iter().map(|p| p.name).collect();
    assert!(names.contains(&"advantage"), "{:?}", f.screened);
    assert!(f.rules.advantage > 0.0);
    // A curve for each chosen parameter.
    assert_eq!(tuned.curves.len(), f.params.len());
}
