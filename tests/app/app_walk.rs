//! A new user's walk through the app, again in a real window: what they still tripped over,
//! each reproduced here first. The standings' Player column stays put when the table scrolls
//! sideways (800×600).

use chrono::NaiveDate;
use eframe::egui::{self, Event, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_ladder::event::{Entry, Event as LogEvent, Match, MatchResult};
use rungs_ladder::rules::Rules;
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::Path;

use crate::support;
use crate::support::app as app_support;
use support::TempDir as Temp;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn join(id: u32, name: &str) -> Entry {
    Entry::Add {
        event: LogEvent::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    }
}

fn win(a: u32, b: u32) -> Entry {
    Entry::Add {
        event: LogEvent::Match(Match::new(a, b, MatchResult::Played(Outcome::Win))),
    }
}

/// Ann, Bo and Cy under the default rules; Ann beats Bo on 2026-01-02, Bo beats Cy on 01-03.
fn club(path: &Path) {
    let mut store = Store::create(path, &Rules::default()).unwrap();
    let start = day(2026, 1, 1);
    let rows = [
        (start, join(0, "Ann")),
        (start, join(1, "Bo")),
        (start, join(2, "Cy")),
        (day(2026, 1, 2), win(0, 1)),
        (day(2026, 1, 3), win(1, 2)),
    ];
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
}

fn wheel(h: &mut egui_kittest::Harness<'_, rungs_app::RungsApp>, at: egui::Pos2, dx: f32) {
    h.input_mut().events.push(Event::PointerMoved(at));
    h.input_mut().events.push(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(dx, 0.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::NONE,
    });
    let _ = h.try_run();
}

/// Also-item: "at 800×600 the Player column scrolls away with the table (freeze it)". The
/// default rules show nine columns, 886 points wide (44 + 22 + 200 frozen; 80 + 90 + 130 + 90 +
/// 100 + 130 scrolled), in a window 800 wide: scrolled all the way right, "W-D-L" and its
/// figures have moved left, while "Ann" and the "Player" heading stay where they were; a row
/// still opens its player, and sorting by Player still works.
#[test]
fn the_player_column_stays_put_while_the_standings_scroll_sideways() {
    let dir = Temp::new("walk-frozen");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(800.0, 600.0));
    h.run();
    let ann = h.get_by_label("Ann").rect();
    let player = h.get_by_label("Player").rect();
    let wdl = h.get_by_label("W-D-L").rect();
    // Ann won 1, lost 0: her row's W-D-L figure sits under the heading.
    let ann_wdl = h.get_by_label("1-0-0").rect();
    assert!(ann.right() < 800.0 && wdl.left() > ann.right());
    assert!((ann_wdl.center().y - ann.center().y).abs() < 1.0, "one row");
    for _ in 0..3 {
        wheel(&mut h, wdl.center(), -200.0);
    }
    let moved = h.get_by_label("W-D-L").rect();
    assert!(
        moved.left() < wdl.left() - 50.0,
        "the figures scrolled: W-D-L from {wdl:?} to {moved:?}"
    );
    let ann_wdl_moved = h.get_by_label("1-0-0").rect();
    assert!((ann_wdl_moved.left() - (ann_wdl.left() - (wdl.left() - moved.left()))).abs() < 1.0);
    assert_eq!(h.get_by_label("Ann").rect(), ann, "Ann's name stayed put");
    assert_eq!(
        h.get_by_label("Player").rect(),
        player,
        "so did its heading"
    );
    // The row still opens Ann's page, and the heading still sorts.
    h.get_by_label("Player").click();
    let _ = h.try_run();
    assert_eq!(
        h.state().screens.standings.sort,
        rungs_app::standings::SortKey::Name
    );
    h.get_by_label("Ann").click();
    let _ = h.try_run();
    assert_eq!(h.state().screens.players.player, Some(0), "Ann's page");
}

/// A soft reset every Monday from 2026-01-05, a hard one every fourth.
fn weekly() -> rungs_ladder::calendar::Calendar {
    use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
    Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor: day(2026, 1, 5),
        hard: HardResets::Every(4),
    })
}

/// Walk, Tune on the demo: "Apply as rules change…" for Side advantage 134 previewed every
/// RP falling to 1000 without a word — the hard reset due since 2026-08-01 comes first with
/// any change appended. On a weekly ladder last played on Wednesday 2026-01-07, a rules
/// change from Tuesday 01-13 brings Monday 01-12's reset with it, and the preview says so.
#[test]
fn a_rules_change_preview_says_the_reset_due_comes_with_it() {
    let dir = Temp::new("walk-due-note");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: weekly(),
        ..Rules::default()
    };
    let mut store = Store::create(&path, &rules).unwrap();
    let start = day(2026, 1, 5);
    let rows = [
        (start, join(0, "Ann")),
        (start, join(1, "Bo")),
        (day(2026, 1, 6), win(0, 1)),
        (day(2026, 1, 7), win(0, 1)),
    ];
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    let mut changed = rules.clone();
    changed.set_param("a", 10.0).unwrap();
    let settings = rungs_app::command::Screen::Settings;
    h.state_mut()
        .state
        .apply(rungs_app::command::Command::Show(settings));
    h.state_mut()
        .state
        .apply(rungs_app::command::Command::PreviewRules(
            changed,
            "2026-01-13".into(),
        ));
    let _ = h.try_run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let title = "Preview — rules from 2026-01-13: Streak bonus 10";
    assert!(
        h.query_by_label_contains(title).is_some(),
        "{:#?}",
        h.root()
    );
    let said = "reset of the season calendar (the ";
    let note = h.get_by_label_contains(said);
    let text = format!("{note:?}");
    assert!(
        text.contains(
            "is due: it comes first, with this change, and the figures below include it."
        ),
        "{text}"
    );
}

/// Walk, the hard-reset preview at 1400×900 and 800×600: the tier column was cut ("Grandweaver → Ex…")
/// beside free space. Ann and Bo start at 1200 RP, Masters, so Grandweavers (the top 100
/// Masters are): the hard reset moves them down, and each whole "Grandweaver → …" fits in
/// the tier column.
#[test]
fn the_preview_gives_a_tier_change_its_whole_width() {
    let dir = Temp::new("walk-preview-tier");
    let path = dir.0.join("club.rungs");
    let mut rules = Rules::default();
    rules.set_param("initial_rp", 1200.0).unwrap();
    let mut store = Store::create(&path, &rules).unwrap();
    let start = day(2026, 1, 1);
    let rows = [
        (start, join(0, "Ann")),
        (start, join(1, "Bo")),
        (day(2026, 1, 2), win(0, 1)),
    ];
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    for size in [egui::vec2(1400.0, 900.0), egui::vec2(800.0, 600.0)] {
        let mut h = app_support::open(&path, size);
        let seasons = rungs_app::command::Screen::Seasons;
        h.state_mut()
            .state
            .apply(rungs_app::command::Command::Show(seasons));
        h.state_mut()
            .state
            .apply(rungs_app::command::Command::PreviewHardReset);
        let _ = h.try_run();
        let _ = h.try_run();
        assert!(
            h.state().state.error().is_none(),
            "{:?}",
            h.state().state.error()
        );
        // The column runs from its heading to the next one's; a cell's text, as the font
        // lays it out whole, must fit in it (a label that does not is cut with "…").
        let column = h.get_by_label("RP before → after").rect().left()
            - h.get_by_label("tier").rect().left();
        let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
        let tiers: Vec<String> = h
            .query_all_by_label_contains("Grandweaver → ")
            .filter_map(|n| n.accesskit_node().value())
            .collect();
        assert!(!tiers.is_empty(), "a Grandweaver moves down");
        for text in tiers {
            let width = h.ctx.fonts_mut(|f| {
                f.layout_no_wrap(text.clone(), font.clone(), egui::Color32::WHITE)
                    .size()
                    .x
            });
            assert!(
                width <= column,
                "at {size:?} “{text}” is {width} wide in a column of {column}"
            );
        }
    }
}

/// Every shape of the last frame, nested ones too.
fn shapes(h: &egui_kittest::Harness<'_, rungs_app::RungsApp>) -> Vec<egui::Shape> {
    fn walk(s: &egui::Shape, out: &mut Vec<egui::Shape>) {
        match s {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            s => out.push(s.clone()),
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// Item 8, walked on the demo: History drew Germany's RP over the war years as a filled wedge
/// from 730 down to 400 across 600 matches. The curve is a step (figures hold until the next
/// event), already thinned to the pixels; egui_plot thinned it again, joining each pixel
/// column's low..high span to the next one's as a filled trapezoid. Ann's RP curve (join, a
/// win: a step) is drawn as a line, with no filled band shape.
#[test]
fn history_draws_a_step_as_a_line_not_a_filled_wedge() {
    use rungs_app::command::{Command, Screen, ToolCommand};
    let dir = Temp::new("walk-wedge");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Plot(0)));
    h.state_mut().state.apply(Command::Show(Screen::History));
    let _ = h.try_run();
    let _ = h.try_run();
    assert!(
        h.query_by_label_contains("Hover over a plot").is_some(),
        "plotted"
    );
    let bands = shapes(&h)
        .into_iter()
        .filter(|s| matches!(s, egui::Shape::Band(_)))
        .count();
    assert_eq!(bands, 0, "no filled band shapes");
}

/// Walk, Tune on the demo: the fit's results named the parameters by their code names
/// ("skyweaver c=10 … advantage=134", "advantage 0 → 134", "log-loss vs advantage") beside
/// checkboxes labelled "Side advantage". Fitted under Elo, each parameter is named by its
/// label, as the checkboxes and Settings name it, and the rules by `words::rules`.
#[test]
fn tune_names_the_fitted_parameters_by_their_labels() {
    use eframe::egui::accesskit::Role;
    let dir = Temp::new("walk-tune-words");
    let path = dir.0.join("club.rungs");
    {
        let mut store = Store::create(&path, &Rules::default()).unwrap();
        let start = day(2026, 1, 1);
        let mut rows = vec![
            (start, join(0, "Ann")),
            (start, join(1, "Bo")),
            (start, join(2, "Cy")),
        ];
        for i in 0..40u64 {
            let date = start + chrono::Days::new(i + 1);
            rows.push((date, if i % 2 == 0 { win(0, 1) } else { win(1, 2) }));
        }
        store
            .commit(&rungs_store::Change::new("club nights", rows.to_vec()).unwrap())
            .unwrap();
    }
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    app_support::click(&mut h, "Tune");
    h.get_by_role_and_label(Role::ComboBox, "System").click();
    h.run();
    app_support::click(&mut h, "Elo");
    app_support::click(&mut h, "Fit");
    h.state_mut().screens.tune.wait();
    h.run();
    let tuned = h.state().screens.tune.result.as_ref().expect("a fit");
    let params: Vec<_> = tuned
        .fit
        .params
        .iter()
        .map(|p| {
            (
                p.name,
                p.label,
                format!("{} {} → {}", p.label, p.start, p.fitted),
            )
        })
        .collect();
    let rules = rungs_app::words::rules(&tuned.fit.rules);
    assert!(!params.is_empty());
    assert!(h.query_by_label(&rules).is_some(), "{rules}");
    assert!(rules.starts_with("Elo, K factor "), "{rules}");
    for (name, label, moved) in params {
        assert_ne!(name, label);
        assert!(h.query_by_label(&format!("log-loss vs {label}")).is_some());
        assert!(h.query_by_label(&format!("log-loss vs {name}")).is_none());
        assert!(h.query_by_label_contains(&moved).is_some(), "{moved}");
    }
}

/// Walk at 560×420: the status bar wrapped onto four lines (file, system, where the season
/// calendar stands, the counts), leaving History's plots a strip 60 px tall. It takes at most
/// two lines now — under 45 px at the body font's 18 — and still names everything (the label
/// reads whole, as on hover).
#[test]
fn the_status_bar_keeps_to_two_lines_in_a_small_window() {
    let dir = Temp::new("walk-status");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: weekly(),
        ..Rules::default()
    };
    let mut store = Store::create(&path, &rules).unwrap();
    let start = day(2026, 1, 5);
    store
        .commit(
            &rungs_store::Change::new(
                "club night",
                vec![
                    (start, join(0, "Ann")),
                    (start, join(1, "Bo")),
                    (day(2026, 1, 6), win(0, 1)),
                ],
            )
            .unwrap(),
        )
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, egui::vec2(560.0, 420.0));
    h.run();
    let status = h.get_by_label_contains("club.rungs · Skyweaver · season ");
    let text = format!("{status:?}");
    assert!(text.contains("3 events · 2 players · saved"), "{text}");
    let height = status.rect().height();
    assert!(height < 45.0, "{height} px: more than two lines");
}

/// Walk, Enter match under xdotool: "Spai", Tab, "Portu" typed quickly arrive in one frame,
/// and the P went into Player A after the completion's cursor: "SpaiPn" and "ortu". The text
/// after Tab goes to Player B: A reads "Spain", B "Portu" (and the next Tab completes it).
#[test]
fn text_typed_right_after_tab_goes_to_the_next_field() {
    use eframe::egui::Key;
    let dir = Temp::new("walk-tab-race");
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let start = day(2026, 1, 1);
    store
        .commit(
            &rungs_store::Change::new(
                "teams",
                vec![(start, join(0, "Spain")), (start, join(1, "Portugal"))],
            )
            .unwrap(),
        )
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    app_support::click(&mut h, "Enter match");
    app_support::type_into(&mut h, "Player A", "Spai");
    for pressed in [true, false] {
        h.input_mut().events.push(Event::Key {
            key: Key::Tab,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: Modifiers::NONE,
        });
    }
    h.input_mut().events.push(Event::Text("Portu".into()));
    h.run();
    let form = &h.state().screens.enter.form;
    assert_eq!((form.a.as_str(), form.b.as_str()), ("Spain", "Portu"));
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(h.state().screens.enter.form.b, "Portugal");
}

/// Item 3 in the app (the command line's is tests/standings_cli.rs): retire the third of four
/// and the standings numbered their rows 1, 2, 4. Ann beat Bo, Bo beat Cy, Ann beat Di, Bo
/// beat Di; with Cy retired, "3 of 4 players" are numbered 1, 2 and 3 between them.
#[test]
fn a_retired_player_leaves_no_gap_in_the_places() {
    use rungs_app::command::Command;
    let dir = Temp::new("walk-places");
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let start = day(2026, 1, 1);
    let mut rows: Vec<_> = ["Ann", "Bo", "Cy", "Di"]
        .iter()
        .enumerate()
        .map(|(i, n)| (start, join(i as u32, n)))
        .collect();
    rows.push((day(2026, 1, 2), win(0, 1)));
    rows.push((day(2026, 1, 3), win(1, 2)));
    rows.push((day(2026, 1, 4), win(0, 3)));
    rows.push((day(2026, 1, 5), win(1, 3)));
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::ShowPlayer(Some(2)));
    h.run();
    app_support::click(&mut h, "Retire Cy");
    h.state_mut()
        .state
        .apply(Command::Show(rungs_app::command::Screen::Standings));
    h.run();
    assert!(h.query_by_label("3 of 4 players").is_some());
    assert!(h.query_by_label("Cy").is_none(), "retired: not shown");
    let place = |h: &egui_kittest::Harness<'_, rungs_app::RungsApp>, name: &str| {
        let y = h.get_by_label(name).rect().center().y;
        ["1", "2", "3", "4"]
            .into_iter()
            .find(|n| {
                h.query_all_by_label(n)
                    .any(|node| (node.rect().center().y - y).abs() < 1.0)
            })
            .map(str::to_string)
    };
    let mut places: Vec<_> = ["Ann", "Bo", "Di"].map(|n| place(&h, n)).into();
    places.sort();
    assert_eq!(
        places,
        ["1", "2", "3"].map(|p| Some(p.to_string())),
        "no gap where Cy was"
    );
}
