//! A new user's third walk: a scored match's result changed, another program's undo said as
//! what it did, resets recorded as resets, errors in the app's own words, and the small
//! things on the way.

use chrono::NaiveDate;
use eframe::egui::{self, Key, accesskit::Role};
use egui_kittest::kittest::Queryable;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::rules::Rules;
use rungs_rating::Outcome;
use rungs_store::Store;
use std::path::Path;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

const WIDE: egui::Vec2 = egui::vec2(1400.0, 900.0);

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// Scotland and England, and Scotland beating England 2-1 on 1874-03-07.
fn scored_ladder(path: &Path) {
    let mut store = Store::create(path, &Rules::default()).unwrap();
    let join = |id: u32, name: &str| Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    };
    let mut m = Match::new(0, 1, MatchResult::Played(Outcome::Win));
    m.goals = Some([2, 1]);
    let rows = [
        (day(1874, 3, 1), join(0, "Scotland")),
        (day(1874, 3, 1), join(1, "England")),
        (
            day(1874, 3, 7),
            Entry::Add {
                event: Event::Match(m),
            },
        ),
    ];
    store
        .commit(&rungs_store::Change::new("the first matches", rows.to_vec()).unwrap())
        .unwrap();
}

/// The saved match `seq` as the file now holds it.
fn saved_match(path: &Path, seq: u64) -> Match {
    match Store::open(path)
        .unwrap()
        .event(seq)
        .unwrap()
        .map(|e| e.event)
    {
        Some(Event::Match(m)) => m,
        other => panic!("event {seq} is not a match: {other:?}"),
    }
}

/// Changing a scored match to a draw: the window says the Score disagrees and offers to
/// clear it (or change it) instead of refusing on Enter in the command line's words.
#[test]
fn a_scored_matchs_result_can_be_changed_by_clearing_the_score() {
    let dir = Temp::new("scored-result");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Matches");
    h.run();
    click(&mut h, "Scotland beat England");
    h.run();
    click(&mut h, "Draw");
    h.key_press(Key::Enter);
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "Enter is not refused: {:?}", s.error());
    assert!(
        h.query_by_label_contains(
            "Score 2-1 says Scotland beat England, but the result says Scotland drew with England"
        )
        .is_some(),
        "the window names the Score and what each says"
    );
    assert_eq!(
        saved_match(&path, 3).result,
        MatchResult::Played(Outcome::Win),
        "nothing saved while they disagree"
    );
    click(&mut h, "Clear the score");
    h.key_press(Key::Enter);
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let m = saved_match(&path, 3);
    assert_eq!(m.result, MatchResult::Played(Outcome::Draw));
    assert_eq!(m.goals, None, "the score was cleared");
}

/// Or the score is changed to one that goes with the draw: the offer puts the keyboard in
/// the Score field.
#[test]
fn a_scored_matchs_result_can_be_changed_with_its_score() {
    let dir = Temp::new("scored-score");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Matches");
    h.run();
    click(&mut h, "Scotland beat England");
    h.run();
    click(&mut h, "Draw");
    click(&mut h, "Change the score");
    h.run();
    let score = h.get_by_role_and_label(Role::TextInput, "Score (optional):");
    assert!(score.is_focused(), "the keyboard is in the Score field");
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, "Score (optional):")
        .type_text("1-1");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let m = saved_match(&path, 3);
    assert_eq!(m.result, MatchResult::Played(Outcome::Draw));
    assert_eq!(m.goals, Some([1, 1]));
}

/// Another program's undo and redo carry the label of what they toggled; the strip said it
/// bare, as if the change had just been made, while the screens showed it taken back.
#[test]
fn another_programs_undo_and_redo_are_said_as_what_they_did() {
    let dir = Temp::new("others-undo");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    h.run();
    let mut other = Store::open(&path).unwrap();
    other.ladder().unwrap();
    let draw = Match::new(0, 1, MatchResult::Played(Outcome::Draw));
    other
        .commit(
            &rungs_store::Change::new(
                "added Scotland drew with England",
                vec![(
                    day(1874, 3, 8),
                    Entry::Add {
                        event: Event::Match(draw),
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    // Two seconds of the window's clock (each step is a quarter of a second).
    h.run_steps(8);
    assert_eq!(
        h.state().state.notice(),
        Some("1 change from another program: added Scotland drew with England")
    );
    other.undo().unwrap();
    h.run_steps(8);
    let s = &h.state().state;
    assert_eq!(
        s.notice(),
        Some("1 change from another program: undid “added Scotland drew with England”")
    );
    assert_eq!(
        s.ladder.players[0].draws, 0,
        "the draw is gone from the ladder"
    );
    other.redo().unwrap();
    h.run_steps(8);
    let s = &h.state().state;
    assert_eq!(
        s.notice(),
        Some("1 change from another program: redid “added Scotland drew with England”")
    );
    assert_eq!(s.ladder.players[0].draws, 1, "the draw is back");
}

/// "Apply due resets now…" wrote the rules in force again, which Matches and History showed
/// as a rules change ("rules (skyweaver): unchanged"): an organiser read it as the rules
/// having changed. It records the resets and nothing else.
#[test]
fn applying_due_resets_records_no_rules_change() {
    use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
    let dir = Temp::new("due-resets-no-rules");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: Calendar::Scheduled(Schedule {
            soft_days: 7,
            anchor: day(2026, 1, 5),
            hard: HardResets::Every(4),
        }),
        ..Rules::default()
    };
    let mut store = Store::create(&path, &rules).unwrap();
    let join = |id: u32, name: &str| Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    };
    let win = Entry::Add {
        event: Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win))),
    };
    let rows = [
        (day(2026, 1, 5), join(0, "Ann")),
        (day(2026, 1, 5), join(1, "Bo")),
        (day(2026, 1, 6), win),
    ];
    store
        .commit(&rungs_store::Change::new("club night", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Seasons");
    click(&mut h, "Apply due resets now…");
    h.state_mut().state.wait_for_job();
    h.run();
    click(&mut h, "Apply");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert!(s.ladder.season > 1, "the resets applied: seasons ended");
    click(&mut h, "Matches");
    h.run();
    assert!(
        h.query_all_by_label_contains("by the calendar").count() > 0,
        "the resets show in Matches"
    );
    assert!(
        h.query_by_label_contains("rules (").is_none(),
        "no rules change shows in Matches"
    );
    let store = Store::open(&path).unwrap();
    let last = store
        .event(4)
        .unwrap()
        .expect("the applied resets are event 4");
    assert!(
        !matches!(last.event, Event::Rules { .. }),
        "the log holds no rules change: {:?}",
        last.event
    );
}

/// Settings said "parameter `initial_rating`: `abc` is not a number": the parameter is named
/// by its label, the text quoted as the app quotes.
#[test]
fn settings_say_a_bad_parameter_by_its_label() {
    let dir = Temp::new("settings-words");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Settings");
    type_into(&mut h, "Starting rating", "abc");
    assert!(
        h.query_by_label("Starting rating: “abc” is not a number")
            .is_some(),
        "a word where a number goes"
    );
    type_into(&mut h, "Starting rating", "1500");
    type_into(&mut h, "Starting RD", "9999");
    assert!(
        h.query_by_label_contains("Starting RD: 9999 is outside its range; give ")
            .is_some(),
        "a number out of range, by the label"
    );
}

/// Simulate takes each of the system's parameters by its label in a field of its own, as
/// What-if does (it took "NAME=VALUE, …" in code names, and an unknown name ran off the screen
/// listing every code name): a value that is no number is said in one line naming the label;
/// a good one makes the simulated ladder's rules.
#[test]
fn simulate_takes_each_parameter_by_its_label() {
    let dir = Temp::new("simulate-words");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Simulate");
    assert!(h.query_by_label_contains("NAME=VALUE").is_none());
    click(&mut h, "Skyweaver's parameters (empty: its defaults)");
    type_into(&mut h, "Starting rating", "abc");
    let sim = dir.0.join("sim.rungs");
    type_into(&mut h, "Write to", &sim.display().to_string());
    click(&mut h, "Run simulation");
    h.run();
    assert_eq!(
        h.state().state.error(),
        Some("Parameters: Starting rating: “abc” is not a number")
    );
    type_into(&mut h, "Starting rating", "1600");
    type_into(&mut h, "Players", "8");
    type_into(&mut h, "Weeks", "2");
    type_into(&mut h, "Matches per week", "10");
    click(&mut h, "Run simulation");
    h.state_mut().state.wait_for_job();
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let rules = rungs_store::Store::open(&sim)
        .unwrap()
        .ladder()
        .unwrap()
        .rules;
    assert_eq!(rules.param("initial_rating"), Some(1600.0));
}

/// A CSV import: a date that does not read is shown with an example date, not a strftime
/// format; a picture chosen as the CSV says it is not a text file.
#[test]
fn a_csv_import_says_its_problems_in_the_apps_words() {
    use rungs_app::command::Command;
    let dir = Temp::new("csv-words");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    let csv = dir.0.join("results.csv");
    std::fs::write(
        &csv,
        "date,player_a,player_b,score\n1874-03-08,Scotland,England,1\n08/03/1874,England,Scotland,1\n",
    )
    .unwrap();
    let mapping = rungs_app::files::mapping_for_file(&csv);
    h.state_mut().state.apply(Command::ImportCsv(csv, mapping));
    h.state_mut().state.wait_for_job();
    h.run();
    assert_eq!(
        h.state().state.error(),
        Some("results.csv, line 3: “08/03/1874” is not a date; write dates like 2024-03-01")
    );
    let png = dir.0.join("photo.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10").unwrap();
    let mapping = rungs_app::files::mapping_for_file(&csv_path(&dir));
    h.state_mut().state.apply(Command::ImportCsv(png, mapping));
    h.state_mut().state.wait_for_job();
    h.run();
    let said = h.state().state.error().unwrap_or_default().to_string();
    assert!(said.starts_with("photo.png is not a text file"), "{said}");
    assert_eq!(
        saved_match(&path, 3).goals,
        Some([2, 1]),
        "nothing imported"
    );
}

fn csv_path(dir: &Temp) -> std::path::PathBuf {
    dir.0.join("results.csv")
}

/// Under Elo (no provisional period) the tooltip said "Provisional: fewer than 0 matches".
#[test]
fn the_status_tooltip_says_no_provisional_period_where_there_is_none() {
    let dir = Temp::new("provisional-words");
    let path = dir.0.join("club.rungs");
    let mut store =
        Store::create(&path, &Rules::defaults(rungs_ladder::rules::System::Elo)).unwrap();
    let rows = [(
        day(2026, 1, 5),
        Entry::Add {
            event: Event::Player {
                id: 0,
                name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                undated: false,
            },
        },
    )];
    store
        .commit(&rungs_store::Change::new("Ann", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    h.get_by_label("show provisional, idle and retired").hover();
    h.run();
    assert!(h.query_by_label_contains("fewer than 0").is_none());
    assert!(
        h.query_by_label_contains("Provisional: not used under these rules.")
            .is_some()
    );
}

/// A weekly calendar whose resets are due: Seasons' header said the week of the last event
/// ("week 1") while the status bar counted the resets due ("week 2"). Both say today's.
#[test]
fn seasons_header_and_status_bar_say_the_same_week() {
    use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
    let dir = Temp::new("seasons-week");
    let path = dir.0.join("club.rungs");
    let rules = Rules {
        calendar: Calendar::Scheduled(Schedule {
            soft_days: 7,
            anchor: day(2026, 1, 5),
            hard: HardResets::Every(4),
        }),
        ..Rules::default()
    };
    Store::create(&path, &rules)
        .unwrap()
        .commit(
            &rungs_store::Change::new(
                "Ann",
                vec![(
                    day(2026, 1, 5),
                    Entry::Add {
                        event: Event::Player {
                            id: 0,
                            name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                            undated: false,
                        },
                    },
                )],
            )
            .unwrap(),
        )
        .unwrap();
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Seasons");
    h.run();
    let s = &h.state().state;
    let status = rungs_ladder::seasons::calendar_status(&s.ladder, rungs_app::state::today());
    assert!(status.pending > 0, "resets are due since January");
    let header = format!("Season {} · week {}", status.season, status.week);
    assert!(
        h.query_by_label(&header).is_some(),
        "the header says {header}, as the status bar does"
    );
}

/// A rules change dated after the last match previews no moved player: it says why.
#[test]
fn a_preview_where_nobody_changes_says_why() {
    let dir = Temp::new("nobody-changes");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Settings");
    type_into(&mut h, "Starting rating", "1400");
    click(&mut h, "Preview change");
    h.state_mut().state.wait_for_job();
    h.run();
    assert!(h.query_by_label_contains("0 players change").is_none());
    assert!(
        h.query_by_label_contains("No player changes yet: the new rules rate the matches from")
            .is_some(),
        "{:?}",
        h.state().state.error()
    );
}

/// A refused name (taken already) left the keyboard nowhere: Enter keeps it in New player,
/// with the name to correct.
#[test]
fn a_refused_new_player_keeps_the_keyboard() {
    let dir = Temp::new("refused-name");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Players");
    h.run();
    h.get_by_role_and_label(Role::TextInput, "New player:")
        .type_text("scotland");
    h.key_press(Key::Enter);
    h.run();
    assert!(
        h.state().state.error().unwrap_or("").contains("taken"),
        "{:?}",
        h.state().state.error()
    );
    let field = h.get_by_role_and_label(Role::TextInput, "New player:");
    assert!(field.is_focused(), "the keyboard stays in New player");
    // The name is corrected where it is and added.
    for _ in "scotland".chars() {
        h.key_press(Key::Backspace);
    }
    h.get_by_role_and_label(Role::TextInput, "New player:")
        .type_text("Wales");
    h.key_press(Key::Enter);
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert!(s.player_id("Wales").is_some(), "Wales added");
}

/// At 560×420 History's two plots were stacked in a scroll area whose lower plot, RP, showed
/// about 30 px: both are in view, each tall enough to read.
#[test]
fn at_560_by_420_both_history_plots_are_in_view() {
    use rungs_app::command::{Command, Screen, ToolCommand};
    let dir = Temp::new("small-history");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, egui::vec2(560.0, 420.0));
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Plot(0)));
    h.state_mut().state.apply(Command::Show(Screen::History));
    h.run();
    h.run();
    let plots = h.state().screens.history.plots_in_view.clone();
    assert_eq!(plots.len(), 2, "the rating and the RP plot");
    for p in &plots {
        assert!(
            p.height() >= 80.0,
            "a plot {p:?} too short to read: {plots:?}"
        );
    }
}

/// The wheel zooms History's x axis; y stayed at the whole history's scale, so the curves in
/// view flattened into a band. Zoomed in, y follows what is in view.
#[test]
fn zooming_history_makes_y_follow_what_is_in_view() {
    use eframe::egui::Event as Input;
    use rungs_app::command::{Command, Screen, ToolCommand};
    let dir = Temp::new("zoom-y");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    {
        let mut store = Store::open(&path).unwrap();
        store.ladder().unwrap();
        let rows: Vec<_> = (0..40)
            .map(|i| {
                (
                    day(1874, 4, 1) + chrono::Days::new(i * 7),
                    Entry::Add {
                        event: Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win))),
                    },
                )
            })
            .collect();
        store
            .commit(&rungs_store::Change::new("a long run", rows).unwrap())
            .unwrap();
    }
    let mut h = app_support::open(&path, WIDE);
    h.state_mut()
        .state
        .apply(Command::Tool(ToolCommand::Plot(0)));
    h.state_mut().state.apply(Command::Show(Screen::History));
    h.run();
    h.run();
    let rating = h.state().screens.history.plots_in_view[0];
    let (lo, hi) = h.state().screens.history.y_in_view[0];
    // The pointer on the latest weeks, the wheel turned towards zooming in.
    let spot = egui::pos2(rating.right() - rating.width() / 8.0, rating.center().y);
    h.input_mut().events.push(Input::PointerMoved(spot));
    h.run();
    for _ in 0..6 {
        h.input_mut().events.push(Input::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    h.run();
    h.run();
    let (zlo, zhi) = h.state().screens.history.y_in_view[0];
    assert!(
        zhi - zlo < (hi - lo) * 0.7,
        "y follows the zoom: {zlo:.0}…{zhi:.0} against {lo:.0}…{hi:.0}"
    );
}

/// On Enter match, a score typed and then a result that says otherwise: the form says which
/// each says once, with the offer, and not the gate's sentence beside it.
#[test]
fn enter_match_says_a_score_and_result_that_disagree_once() {
    let dir = Temp::new("enter-conflict");
    let path = dir.0.join("club.rungs");
    scored_ladder(&path);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Enter match");
    type_into(&mut h, "Date", "1874-03-09");
    type_into(&mut h, "Player A", "Scotland");
    type_into(&mut h, "Player B", "England");
    type_into(&mut h, "Score (optional):", "3-0");
    click(&mut h, "Draw (D)");
    h.run();
    assert!(
        h.query_by_label_contains("Score 3-0 says Scotland beat England, but the result says")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("leave the result empty")
            .is_none(),
        "no command-line advice the form cannot follow"
    );
    click(&mut h, "Clear the score");
    h.key_press(Key::Enter);
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let m = saved_match(&path, 4);
    assert_eq!(m.result, MatchResult::Played(Outcome::Draw));
    assert_eq!(m.goals, None);
}
