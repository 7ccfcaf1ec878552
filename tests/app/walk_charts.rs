//! A walk of every screen in a real window (1400×900, 800×600, 560×420) on the demo and a
//! 12-player club: what the charts and tables still said badly, each reproduced here first.

use chrono::NaiveDate;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_app::command::{Command, Screen, ToolCommand};
use rungs_ladder::event::{Entry, Event as LogEvent, Match, MatchResult};
use rungs_ladder::rules::Rules;
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::Path;

use crate::support;
use crate::support::app as app_support;
use support::TempDir as Temp;

const NAMES: [&str; 12] = [
    "Ann Lee",
    "Bo Chen",
    "Cy Diaz",
    "Di Evans",
    "Ed Fox",
    "Flo Gray",
    "Gus Hart",
    "Hana Hill",
    "Ivo Ito",
    "Jo Kent",
    "Lea Lund",
    "Max Moor",
];

/// A club of twelve under the default rules: three matches a day through October 2026, 84
/// in all, each between players `d + k` and `d + 3k + 1` apart in the list (k = 0, 1, 2);
/// the one earlier in the list wins, but every fourth match is a draw and every seventh an
/// upset.
fn club(path: &Path) {
    let mut store = Store::create(path, &Rules::default()).unwrap();
    let start = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let mut rows: Vec<(NaiveDate, Entry)> = NAMES
        .iter()
        .enumerate()
        .map(|(id, name)| {
            let event = LogEvent::Player {
                id: id as u32,
                name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
                undated: false,
            };
            (start, Entry::Add { event })
        })
        .collect();
    let mut n = 0;
    for d in 0..28u32 {
        for k in 0..3u32 {
            let a = (d + k) % 12;
            let b = (a + 3 * k + 1 + d % 5) % 12;
            if a == b {
                continue;
            }
            n += 1;
            let outcome = if n % 4 == 0 {
                Outcome::Draw
            } else if (n % 7 == 0) == (a < b) {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            let m = Match::new(a, b, MatchResult::Played(outcome));
            let date = start + chrono::Days::new(u64::from(d));
            rows.push((
                date,
                Entry::Add {
                    event: LogEvent::Match(m),
                },
            ));
        }
    }
    store
        .commit(&rungs_store::Change::new("October", rows).unwrap())
        .unwrap();
}

/// Every text of the last frame with where it starts and its size.
fn texts(h: &Harness<'_, RungsApp>) -> Vec<(egui::Rect, String)> {
    fn walk(s: &egui::Shape, out: &mut Vec<(egui::Rect, String)>) {
        match s {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            egui::Shape::Text(t) => out.push((
                egui::Rect::from_min_size(t.pos, t.galley.size()),
                t.galley.text().to_string(),
            )),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// Seen at 560×420 on Replay: the rating histogram of a 12-player club was two bars ("bins of
/// 500", 1,000–1,500 and 1,500–2,000, six players each) and its x axis was named at one mark,
/// or its last mark ran off the window's edge. Now: more than two bins, and under the
/// histogram (the right half of the window) at least two ratings named, each whole inside the
/// window; and the players per tier beside it (at "now" it was named at "0" alone) at least two
/// counts.
#[test]
fn a_clubs_rating_histogram_has_bins_and_marks_at_560_by_420() {
    let dir = Temp::new("walk-histogram");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(560.0, 420.0));
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::BuildTimeline));
    h.state_mut().state.apply(Command::Show(Screen::Replay));
    h.state_mut().state.wait_for_job();
    h.run();
    let shown = texts(&h);
    let title = shown
        .iter()
        .map(|(_, t)| t.clone())
        .find(|t| t.starts_with("Rating distribution"))
        .expect("the histogram's title");
    let width: f64 = title
        .rsplit("bins of ")
        .next()
        .and_then(|w| w.trim_end_matches(')').replace(',', "").parse().ok())
        .expect("the bins' width in the title");
    assert!(width <= 200.0, "bins narrow enough to show a club: {title}");
    let marks: Vec<(egui::Rect, String)> = shown
        .into_iter()
        .filter(|(r, t)| {
            r.left() > 280.0 && t.replace(',', "").parse::<f64>().is_ok_and(|v| v >= 500.0)
        })
        .collect();
    assert!(
        marks.len() >= 2,
        "ratings named under the histogram: {marks:?}"
    );
    for (r, t) in &marks {
        assert!(
            r.left() >= 0.0 && r.right() <= 560.0,
            "“{t}” whole inside the window: {r:?}"
        );
    }
    // And the players per tier beside it, at now: its count axis named at more than "0".
    let counts: Vec<String> = texts(&h)
        .into_iter()
        .filter(|(r, t)| r.right() < 280.0 && t.parse::<u32>().is_ok_and(|n| n < 100))
        .map(|(_, t)| t)
        .collect();
    assert!(
        counts.len() >= 2,
        "counts named under the tiers: {counts:?}"
    );
}

/// Seen on Prediction quality: the table named the rules as the command line does ("elo
/// K=32", "skyweaver (defaults)", "allegskill (defaults)") under a header "log-loss vs Elo
/// K=32", where Settings and Tune say "Elo, K factor 32" and "Skyweaver (defaults)".
#[test]
fn prediction_quality_names_the_rules_in_the_apps_words() {
    let dir = Temp::new("walk-quality-words");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::Show(Screen::Quality));
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Evaluate));
    h.state_mut().state.wait_for_job();
    h.run();
    for shown in [
        "Elo, K factor 32",
        "Skyweaver (defaults)",
        "AllegSkill (defaults)",
        "log-loss vs Elo, K factor 32",
    ] {
        assert!(h.query_by_label(shown).is_some(), "“{shown}” in the table");
    }
    for code in ["elo K=32", "skyweaver (defaults)", "allegskill (defaults)"] {
        assert!(
            h.query_by_label_contains(code).is_none(),
            "no command-line name “{code}”"
        );
    }
}

/// Seen on Tune: the scores' last column was headed "Elo K=32" (Settings says "K factor");
/// the date field's hint was cut to "YYYY-MM-DD (empty: the first 7…"; "RD growth per idle
/// day 0 → 31.9" above a plot saying "fitted at 32". Now the header says "Elo, K factor 32",
/// the note stands whole beside the field, and the fitted value is said alike.
#[test]
fn tune_says_elo_and_the_split_in_the_apps_words() {
    let dir = Temp::new("walk-tune");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::Show(Screen::Tune));
    h.run();
    assert!(
        h.query_by_label("empty: the first 70 % of the matches")
            .is_some(),
        "the split said beside the date field"
    );
    h.state_mut().screens.tune.chosen = vec!["initial_deviation"];
    h.get_by_label("Fit").click();
    let _ = h.try_run();
    h.state_mut().screens.tune.wait();
    h.run();
    assert!(h.query_by_label("Elo, K factor 32").is_some());
    assert!(h.query_by_label("Elo K=32").is_none());
    let fitted = h
        .state()
        .screens
        .tune
        .result
        .as_ref()
        .expect("a fit")
        .fit
        .params[0]
        .fitted;
    h.get_by_label(&format!("Starting RD fitted at {fitted} (the dot)"));
}

/// Seen on History at 1400×900 with two players plotted: the rating plot's axis, 800 to
/// 2,300 over some 300 points, was named at 1000 and 2000 alone. With room for 24 points a
/// label it is named every 200 or so: at least four ratings beside the rating plot.
#[test]
fn historys_rating_axis_is_named_at_round_marks() {
    use rungs_app::command::ToolCommand;
    let dir = Temp::new("walk-history-axis");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    for id in [1, 8] {
        h.state_mut()
            .state
            .apply(Command::Tool(ToolCommand::Plot(id)));
    }
    h.state_mut().state.apply(Command::Show(Screen::History));
    h.run();
    h.run();
    let rating = h.state().screens.history.plots_in_view[0];
    let named: Vec<String> = texts(&h)
        .into_iter()
        .filter(|(r, t)| {
            r.center().y > rating.top()
                && r.center().y < rating.bottom()
                && r.right() <= rating.left() + 2.0
                && t.replace(',', "").parse::<f64>().is_ok()
        })
        .map(|(_, t)| t)
        .collect();
    assert!(named.len() >= 4, "ratings named beside the plot: {named:?}");
}

/// Seen on Simulate: the legends listed the tiers alphabetically (Grandweaver between
/// Expert III and Trainee I), the inflation plot's y axis was named "mean score added by the
/// week's matches", longer than the plot is high, running up over its title. Now the legend
/// follows the tiers' order (the curves' own: Trainee I first), and each y axis's name fits
/// beside a 220-point plot less its x axis (160 points, in the body font).
#[test]
fn simulates_legends_keep_the_tiers_order_and_axis_names_fit() {
    use rungs_chart::simulated::SimPlot;
    let dir = Temp::new("walk-simulate");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::Show(Screen::Simulate));
    h.run();
    app_support::type_into(&mut h, "Players", "30");
    app_support::type_into(&mut h, "Weeks", "4");
    app_support::type_into(&mut h, "Matches per week", "300");
    let out = dir.0.join("sim.rungs");
    app_support::type_into(&mut h, "Write to", &out.display().to_string());
    app_support::click(&mut h, "Run simulation");
    h.state_mut().state.wait_for_job();
    h.run();
    h.run();
    let report = h
        .state()
        .state
        .tools
        .simulated
        .as_ref()
        .unwrap()
        .report
        .clone();
    let climb = SimPlot::Climb.curves(&report);
    // 30 players, 1,200 matches: some reach Apprentice, which sorts before Trainee.
    assert!(
        climb.iter().any(|c| c.name.starts_with("Apprentice")),
        "{climb:?}"
    );
    // The legends stand at the plots' right edge (the table of tiers at the left); the
    // climb plot's comes first on the page, so each name's first entry there is in it.
    let tops: Vec<f32> = climb
        .iter()
        .map(|c| {
            h.query_all_by_label(&c.name)
                .filter(|n| n.rect().left() > 900.0)
                .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
                .unwrap_or_else(|| panic!("legend entry {}", c.name))
                .rect()
                .top()
        })
        .collect();
    assert!(
        tops.windows(2).all(|w| w[0] < w[1]),
        "the legend lists {:?} top to bottom: {tops:?}",
        climb.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    let font = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    for plot in SimPlot::ALL {
        let long = h.ctx.fonts_mut(|f| {
            f.layout_no_wrap(plot.y_label().into(), font.clone(), egui::Color32::WHITE)
                .size()
                .x
        });
        assert!(long <= 160.0, "“{}” is {long} points long", plot.y_label());
    }
}

/// Seen on Boxes at 800×600: who goes up and who down stood in the tables' last column,
/// scrolled out of the window, and the tie-breaks were headed as the command line reads them
/// ("head-to-head", "matches-won", "games-lost"). Now the marks follow the names, inside the
/// window, under headings in words.
#[test]
fn boxes_show_who_moves_and_head_the_tie_breaks_in_words_at_800_by_600() {
    let dir = Temp::new("walk-boxes");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(800.0, 600.0));
    h.state_mut().state.apply(Command::Show(Screen::Boxes));
    h.run();
    app_support::click(&mut h, "Start the box league");
    h.run();
    assert!(h.query_by_label_contains("Box league · period 1").is_some());
    // Twelve players in boxes of five: three boxes of four; the first box's bottom two go
    // down, the second's top two up and bottom two down, the third's top two up.
    let marks: Vec<egui::Rect> = h
        .query_all_by_label("▼ down")
        .chain(h.query_all_by_label("▲ up"))
        .map(|n| n.rect())
        .collect();
    assert_eq!(marks.len(), 8, "{marks:?}");
    for r in &marks {
        assert!(r.right() <= 800.0, "a mark inside the window: {r:?}");
    }
    for heading in ["Head to head", "Matches won", "Games lost"] {
        assert_eq!(
            h.query_all_by_label(heading).count(),
            3,
            "“{heading}” over each box"
        );
    }
    for code in ["head-to-head", "matches-won", "games-lost"] {
        assert_eq!(h.query_all_by_label(code).count(), 0, "no “{code}”");
    }
}

/// Seen on Tune at 800×600: the "flat: Side advantage changes no prediction over this
/// range" line made its column 330 points wide for a 190-point plot, and the third curve's
/// plot ran past the window's edge, its marks with it. Each column is now its plot's width,
/// its words wrapped: nothing drawn past the window's right edge.
#[test]
fn tunes_curves_stay_inside_an_800_point_wide_window() {
    let dir = Temp::new("walk-tune-800");
    let path = dir.0.join("club.rungs");
    club(&path);
    // 800 wide, and tall enough that the plots' marks are drawn rather than scrolled away.
    let mut h = app_support::open(&path, egui::vec2(800.0, 1000.0));
    h.state_mut().state.apply(Command::Show(Screen::Tune));
    h.run();
    h.state_mut().screens.tune.chosen = vec!["advantage", "c_per_day", "min_deviation"];
    h.get_by_label("Fit").click();
    let _ = h.try_run();
    h.state_mut().screens.tune.wait();
    h.run();
    h.run();
    let curves = h
        .state()
        .screens
        .tune
        .result
        .as_ref()
        .expect("a fit")
        .curves
        .len();
    assert_eq!(curves, 3);
    let shown = texts(&h);
    let past: Vec<&(egui::Rect, String)> =
        shown.iter().filter(|(r, _)| r.right() > 801.0).collect();
    assert!(past.is_empty(), "drawn past the window's edge: {past:?}");
    // The plots are (800 / 4 − 8) = 192 points wide: no column's words wider than that (the
    // club plays no home games, so the side advantage's curve is flat and says so).
    let flat = shown
        .iter()
        .find(|(_, t)| t.starts_with("flat: Side advantage"))
        .expect("the flat curve said");
    assert!(flat.0.width() <= 192.0, "wrapped to its plot: {flat:?}");
}

/// Seen on What-if at 1400 and 560 points wide: the line of B's parameters broke between a
/// label and its field ("League weight" ending a line, its "1" starting the next, beside
/// "Cup weight"), so a field read as the next label's. Each label now wraps with its field.
#[test]
fn what_ifs_parameters_keep_each_label_beside_its_field() {
    use eframe::egui::accesskit::Role;
    use rungs_ladder::rules::System;
    let dir = Temp::new("walk-what-if");
    let path = dir.0.join("club.rungs");
    club(&path);
    for width in [1400.0, 560.0] {
        let mut h = app_support::open(&path, egui::vec2(width, 900.0));
        h.state_mut().state.apply(Command::Show(Screen::WhatIf));
        h.run();
        for p in System::Elo.facts().params {
            let field = h.get_by_role_and_label(Role::TextInput, p.label).rect();
            let label = texts(&h)
                .into_iter()
                .find(|(_, t)| t == p.label)
                .unwrap_or_else(|| panic!("a label {}", p.label))
                .0;
            assert!(
                (field.center().y - label.center().y).abs() < 6.0 && field.left() > label.left(),
                "at {width}: “{}” at {label:?}, its field at {field:?}",
                p.label
            );
        }
    }
}

/// Seen on History at 560×420 with two players plotted side by side: each plot's x axis,
/// some 200 points for 84 matches, was named "match 0" alone (egui names no x mark within 60
/// points of the next, and its marks were every 10 matches, 25 points apart). Here the plots
/// are made as narrow in a window 300 wide (they stand one above the other, 230 points
/// wide): at least two round match numbers stand under the lower one.
#[test]
fn historys_match_axis_is_named_more_than_once_in_a_narrow_plot() {
    use rungs_app::command::ToolCommand;
    let dir = Temp::new("walk-history-560");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(300.0, 800.0));
    for id in [1, 8] {
        h.state_mut()
            .state
            .apply(Command::Tool(ToolCommand::Plot(id)));
    }
    h.state_mut().state.apply(Command::Show(Screen::History));
    h.run();
    h.run();
    // Side by side or one above the other, the last plot's axis is named.
    let plots = h.state().screens.history.plots_in_view.clone();
    let rating = *plots.last().expect("plotted");
    let named: Vec<String> = texts(&h)
        .into_iter()
        .filter(|(r, t)| {
            t.starts_with("match ")
                && r.center().x >= rating.left()
                && r.center().x <= rating.right()
                && r.top() >= rating.bottom() - 1.0
        })
        .map(|(_, t)| t)
        .collect();
    assert!(named.len() >= 2, "match numbers under {plots:?}: {named:?}");
}

/// From the walk's list, still so: Tonight's line of what each result does ("1: Ann +16,
/// Di −16    D: …") was in egui's small style, 9 points, read as about 8 px. It is now in
/// the body's size, as the chances line above it.
#[test]
fn tonights_line_of_what_each_result_does_is_in_the_bodys_size() {
    let dir = Temp::new("walk-tonight-font");
    let mut h = crate::app_tonight::club(&dir, egui::vec2(1400.0, 900.0));
    for n in ["Ann", "Bo", "Cy", "Di"] {
        crate::app_tonight::tick(&mut h, n);
    }
    app_support::click(&mut h, "Pair");
    h.run();
    fn sizes(s: &egui::Shape, out: &mut Vec<(String, f32)>) {
        match s {
            egui::Shape::Vec(v) => v.iter().for_each(|s| sizes(s, out)),
            egui::Shape::Text(t) => {
                if let Some(section) = t.galley.job.sections.first() {
                    out.push((t.galley.text().to_string(), section.format.font_id.size));
                }
            }
            _ => {}
        }
    }
    let mut all = Vec::new();
    for c in &h.output().shapes {
        sizes(&c.shape, &mut all);
    }
    let body = egui::TextStyle::Body.resolve(&h.ctx.global_style()).size;
    let lines: Vec<&(String, f32)> = all.iter().filter(|(t, _)| t.starts_with("1: ")).collect();
    assert_eq!(lines.len(), 2, "a line for each board: {all:?}");
    for (text, size) in lines {
        assert!(
            *size >= body,
            "“{text}” in {size} points, the body's {body}"
        );
    }
}

/// From the walk's list: dragging Matches' scroll bar stopped about 400 rows short of
/// either end of the demo's 49,521. A club of 6,000 matches (three a day from 2000-01-01,
/// newest first): the scroll bar dragged from the top to the window's bottom edge shows the
/// first day's matches, and dragged back, the last day's.
#[test]
fn matches_scroll_bar_reaches_both_ends() {
    let dir = Temp::new("walk-matches-scroll");
    let path = dir.0.join("club.rungs");
    {
        let mut store = Store::create(&path, &Rules::default()).unwrap();
        let start = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();
        let mut rows: Vec<(NaiveDate, Entry)> = NAMES
            .iter()
            .enumerate()
            .map(|(id, name)| {
                let event = LogEvent::Player {
                    id: id as u32,
                    name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
                    undated: false,
                };
                (start, Entry::Add { event })
            })
            .collect();
        for i in 0..6000u32 {
            let a = i % 12;
            let b = (a + 1 + i / 12 % 11) % 12;
            let m = Match::new(a, b, MatchResult::Played(Outcome::Win));
            let date = start + chrono::Days::new(u64::from(i / 3));
            rows.push((
                date,
                Entry::Add {
                    event: LogEvent::Match(m),
                },
            ));
        }
        store
            .commit(&rungs_store::Change::new("six thousand", rows).unwrap())
            .unwrap();
    }
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::Show(Screen::Matches));
    let _ = h.try_run();
    h.state_mut().state.wait_for_job();
    h.run();
    // The last day, 1,999 days after the first: 2005-06-22.
    let newest = |h: &Harness<'_, RungsApp>| h.query_all_by_label("2005-06-22").next().is_some();
    assert!(newest(&h), "the newest first");
    let drag = |h: &mut Harness<'_, RungsApp>, from: egui::Pos2, to: egui::Pos2| {
        h.input_mut().events.push(egui::Event::PointerMoved(from));
        h.run();
        h.input_mut().events.push(egui::Event::PointerButton {
            pos: from,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
        for k in 1..=10 {
            let at = from + (to - from) * (k as f32 / 10.0);
            h.input_mut().events.push(egui::Event::PointerMoved(at));
            h.run();
        }
        h.input_mut().events.push(egui::Event::PointerButton {
            pos: to,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
        h.run();
    };
    // The bar's handle at the table's top right (12 points in from the window's edge);
    // dragged to the window's bottom edge, and back to its top.
    drag(&mut h, egui::pos2(1388.0, 140.0), egui::pos2(1388.0, 899.0));
    let first = h.query_all_by_label("2000-01-01").next().map(|n| n.rect());
    assert!(
        first.is_some_and(|r| r.bottom() <= 900.0),
        "the first day in view: {first:?}"
    );
    drag(&mut h, egui::pos2(1388.0, 830.0), egui::pos2(1388.0, 0.0));
    assert!(newest(&h), "the last day again");
}

/// The undo of another program's deletion and of its edit is said as what it did: "undid
/// “deleted …”" while the match is back (the strip said "deleted Ann Lee beat Bo Chen" as
/// the match came back), and "undid “changed …”" while the old result stands again.
#[test]
fn another_programs_undone_delete_and_edit_are_said_as_undone() {
    let dir = Temp::new("walk-others-undo");
    let path = dir.0.join("club.rungs");
    club(&path);
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.run();
    let wins = |h: &Harness<'_, RungsApp>| h.state().state.ladder.players[0].wins;
    let before = wins(&h);
    // The club's first match (entry 13, after the twelve joins): Ann Lee beat Bo Chen.
    let date = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let mut other = Store::open(&path).unwrap();
    other.ladder().unwrap();
    other
        .commit(
            &rungs_store::Change::new(
                "deleted Ann Lee beat Bo Chen",
                vec![(date, Entry::Delete { target: 13 })],
            )
            .unwrap(),
        )
        .unwrap();
    h.run_steps(8);
    assert_eq!(wins(&h), before - 1, "the win is gone");
    other.undo().unwrap();
    h.run_steps(8);
    assert_eq!(
        h.state().state.notice(),
        Some("1 change from another program: undid “deleted Ann Lee beat Bo Chen”")
    );
    assert_eq!(wins(&h), before, "the win is back");
    let drawn = Match::new(0, 1, MatchResult::Played(Outcome::Draw));
    other
        .commit(
            &rungs_store::Change::new(
                "changed Ann Lee beat Bo Chen to Ann Lee drew with Bo Chen",
                vec![(
                    date,
                    Entry::Edit {
                        target: 13,
                        event: LogEvent::Match(drawn),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    h.run_steps(8);
    assert_eq!(wins(&h), before - 1, "the win is a draw");
    other.undo().unwrap();
    h.run_steps(8);
    assert_eq!(
        h.state().state.notice(),
        Some(
            "1 change from another program: undid “changed Ann Lee beat Bo Chen to Ann Lee drew \
             with Bo Chen”"
        )
    );
    assert_eq!(wins(&h), before, "the win stands again");
}

/// Seen on History at 560×420 on the demo: the match axis's last mark, "match 50000", sat at
/// the plot's right edge and its label ran past it, into the window's edge. At every width
/// from 300 to 1,400 points, no match number's label runs past its plot's right edge.
#[test]
fn historys_match_labels_end_inside_the_plot_at_every_width() {
    use rungs_app::command::ToolCommand;
    let dir = Temp::new("walk-history-edge");
    let path = dir.0.join("club.rungs");
    club(&path);
    for width in (300..=1400).step_by(50) {
        let mut h = app_support::open(&path, egui::vec2(width as f32, 800.0));
        for id in [1, 8] {
            h.state_mut()
                .state
                .apply(Command::Tool(ToolCommand::Plot(id)));
        }
        h.state_mut().state.apply(Command::Show(Screen::History));
        h.run();
        h.run();
        let plots = h.state().screens.history.plots_in_view.clone();
        let right = plots
            .iter()
            .map(|p| p.right())
            .fold(f32::NEG_INFINITY, f32::max);
        for (r, t) in texts(&h) {
            if t.starts_with("match ") && t != "match # (ladder)" {
                assert!(
                    r.right() <= right + 1.0,
                    "at {width}: “{t}” ends at {}, the plot at {right}",
                    r.right()
                );
            }
        }
    }
}

/// On a ladder whose rules are Skyweaver's defaults but whose log changed them for a while
/// (c 20 from 10 October, the defaults again from 20 October), Prediction quality showed two
/// rows both named "Skyweaver (defaults)": the defaults held through the whole history, and
/// the ladder's own rules replayed as logged. The second is now named as the ladder's own,
/// with its two rules changes.
#[test]
fn prediction_quality_names_the_ladders_own_rules_apart_from_the_defaults() {
    let dir = Temp::new("walk-quality-own");
    let path = dir.0.join("club.rungs");
    club(&path);
    {
        let mut store = Store::open(&path).unwrap();
        let defaults = Rules::default();
        let mut changed = defaults.clone();
        changed.set_param("c", 20.0).unwrap();
        let rows = vec![
            (
                NaiveDate::from_ymd_opt(2026, 10, 10).unwrap(),
                Entry::Add {
                    event: LogEvent::Rules {
                        rules: Box::new(changed),
                    },
                },
            ),
            (
                NaiveDate::from_ymd_opt(2026, 10, 20).unwrap(),
                Entry::Add {
                    event: LogEvent::Rules {
                        rules: Box::new(defaults),
                    },
                },
            ),
        ];
        store
            .commit(&rungs_store::Change::new("rules for a while", rows).unwrap())
            .unwrap();
    }
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    h.state_mut().state.apply(Command::Show(Screen::Quality));
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Evaluate));
    h.state_mut().state.wait_for_job();
    h.run();
    assert_eq!(h.query_all_by_label("Skyweaver (defaults)").count(), 1);
    assert!(
        h.query_by_label_contains("This ladder's rules: Skyweaver (defaults) + 2 rules changes")
            .is_some()
    );
}
