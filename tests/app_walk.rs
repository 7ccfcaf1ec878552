//! Issue 22 walked again in a real window: what a new user still tripped over, each reproduced
//! here first. The standings' Player column stays put when the table scrolls sideways (800×600).

use chrono::NaiveDate;
use eframe::egui::{self, Event, Modifiers};
use egui_kittest::kittest::Queryable;
use rungs::ladder::event::{Entry, Event as LogEvent, Match, MatchResult};
use rungs::ladder::rules::Rules;
use rungs::rating::Outcome;
use rungs::store::Store;
use std::path::Path;

#[path = "support/app.rs"]
mod app_support;
mod support;
use support::TempDir as Temp;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn join(id: u32, name: &str) -> Entry {
    Entry::Add {
        event: LogEvent::Player {
            id,
            name: name.into(),
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
    let rows = vec![
        (start, join(0, "Ann")),
        (start, join(1, "Bo")),
        (start, join(2, "Cy")),
        (day(2026, 1, 2), win(0, 1)),
        (day(2026, 1, 3), win(1, 2)),
    ];
    store.commit("club night", &rows).unwrap();
}

fn wheel(h: &mut egui_kittest::Harness<'_, rungs::app::RungsApp>, at: egui::Pos2, dx: f32) {
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
        rungs::app::standings::SortKey::Name
    );
    h.get_by_label("Ann").click();
    let _ = h.try_run();
    assert_eq!(h.state().screens.players.player, Some(0), "Ann's page");
}
