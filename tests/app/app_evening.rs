//! An organiser's evening with the app: one test per thing that went wrong, each reproducing
//! it (the exact keys a person pressed) and checking the ladder afterwards.

use chrono::NaiveDate;
use eframe::egui::{self, Event, Key, Modifiers, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_app::command::{Command, Screen};
use rungs_ladder::event::{Entry, Event as LadderEvent, Match, MatchResult};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn join(id: u32, name: &str) -> Entry {
    Entry::Add {
        event: LadderEvent::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    }
}

fn game(a: u32, b: u32, o: Outcome) -> Entry {
    Entry::Add {
        event: LadderEvent::Match(Match::new(a, b, MatchResult::Played(o))),
    }
}

/// A ladder under `rules` with `players` joining on 2000-01-01, then `rows` (two changes, so
/// an undo takes back only the rows).
fn ladder(
    dir: &Temp,
    rules: Rules,
    players: &[&str],
    rows: Vec<(NaiveDate, Entry)>,
    size: egui::Vec2,
) -> Harness<'static, RungsApp> {
    app_support::open(&ladder_file(dir, rules, players, rows), size)
}

fn ladder_file(
    dir: &Temp,
    rules: Rules,
    players: &[&str],
    rows: Vec<(NaiveDate, Entry)>,
) -> std::path::PathBuf {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &rules).unwrap();
    let joins: Vec<(NaiveDate, Entry)> = players
        .iter()
        .enumerate()
        .map(|(i, n)| (day(2000, 1, 1), join(i as u32, n)))
        .collect();
    store
        .commit(&rungs_store::Change::new("players", joins.to_vec()).unwrap())
        .unwrap();
    if !rows.is_empty() {
        store
            .commit(&rungs_store::Change::new("results", rows.to_vec()).unwrap())
            .unwrap();
    }
    drop(store);
    path
}

const WIDE: egui::Vec2 = egui::vec2(1280.0, 860.0);

fn typed(h: &mut Harness<'_, RungsApp>, text: &str) {
    h.input_mut().events.push(Event::Text(text.into()));
    h.run();
}

fn press(h: &mut Harness<'_, RungsApp>, key: Key) {
    h.key_press(key);
    h.run();
}

/// A key as a keyboard sends it: the key and, for a printable one, its text.
fn key_with_text(h: &mut Harness<'_, RungsApp>, key: Key, text: &str) {
    h.key_press(key);
    h.input_mut().events.push(Event::Text(text.into()));
    h.run();
}

/// The evening's keys, one by one as the organiser pressed them: `Spai`, Tab, `Portu`, Tab,
/// `2` (B won), Enter.
fn spai_tab_portu_tab_2_enter(h: &mut Harness<'_, RungsApp>) {
    typed(h, "Spai");
    press(h, Key::Tab);
    typed(h, "Portu");
    press(h, Key::Tab);
    key_with_text(h, Key::Num2, "2");
    press(h, Key::Enter);
}

fn matches_of(h: &Harness<'_, RungsApp>, id: usize) -> (u32, u32, u32) {
    let p = &h.state().state.ladder.players[id];
    (p.wins, p.draws, p.losses)
}

/// `Spai`, Tab, `Portu`, Tab, `2`, Enter saves "Portugal beat Spain"; the keyboard is back in
/// Player A for the next match; the New player field keeps the keyboard too.
#[test]
fn the_keys_of_the_evening_save_the_right_winner() {
    let dir = Temp::new("evening-1");
    let mut h = ladder(&dir, Rules::default(), &["Spain", "Portugal"], vec![], WIDE);
    click(&mut h, "Enter match");
    h.run();
    assert!(
        h.get_by_role_and_label(Role::TextInput, "Player A")
            .is_focused(),
        "the form opens with the keyboard in Player A"
    );
    spai_tab_portu_tab_2_enter(&mut h);
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(matches_of(&h, 0), (0, 0, 1), "Spain lost");
    assert_eq!(matches_of(&h, 1), (1, 0, 0), "Portugal won");
    assert_eq!(h.state().state.notice(), Some("Saved: Portugal beat Spain"));
    // The next match goes straight in: the keyboard is in Player A again.
    assert!(
        h.get_by_role_and_label(Role::TextInput, "Player A")
            .is_focused()
    );
    typed(&mut h, "Portu");
    assert_eq!(h.state().screens.enter.form.a, "Portu");
    // Enter on an incomplete form saves nothing, and never presses a focused button.
    press(&mut h, Key::Tab);
    press(&mut h, Key::Enter);
    assert_eq!(h.state().state.ladder.events, 3, "nothing more was saved");
    // Players: Enter adds and the field keeps the keyboard for the next name.
    click(&mut h, "Players");
    h.get_by_role_and_label(Role::TextInput, "New player:")
        .focus();
    h.run();
    typed(&mut h, "Andorra");
    press(&mut h, Key::Enter);
    typed(&mut h, "Belgium");
    press(&mut h, Key::Enter);
    let s = &h.state().state;
    assert!(s.player_id("Andorra").is_some() && s.player_id("Belgium").is_some());
}

/// On a later visit: leaving Enter match and coming back puts the keyboard in
/// Player A again (Tab used to walk into the menu bar and Enter open the Edit menu), and Enter
/// never presses a tab or menu button that has the keyboard.
#[test]
fn the_keys_work_on_every_visit_to_enter_match() {
    let dir = Temp::new("evening-1-again");
    let mut h = ladder(&dir, Rules::default(), &["Spain", "Portugal"], vec![], WIDE);
    click(&mut h, "Enter match");
    click(&mut h, "Standings");
    click(&mut h, "Enter match");
    h.run();
    assert!(
        h.get_by_role_and_label(Role::TextInput, "Player A")
            .is_focused(),
        "back on the form, the keyboard is in Player A"
    );
    spai_tab_portu_tab_2_enter(&mut h);
    assert_eq!(matches_of(&h, 1), (1, 0, 0), "Portugal won");
    assert_eq!(matches_of(&h, 0), (0, 0, 1), "Spain lost");
    // A tab button with the keyboard: Enter is the form's (incomplete: nothing saved), and
    // the button is not pressed (the screen stays).
    h.get_by_label("Standings").focus();
    h.run();
    press(&mut h, Key::Enter);
    assert_eq!(h.state().state.screen, Screen::EnterMatch);
    assert_eq!(h.state().state.ladder.events, 3, "nothing more was saved");
}

/// Ctrl+Z in a text field edits the text and leaves the ladder alone; outside a text field it
/// undoes. A delete says "Deleted: … · Undo" (no dialog), and Undo brings the match back.
#[test]
fn undo_respects_text_and_delete_offers_undo() {
    let dir = Temp::new("evening-2");
    let rows = vec![(day(2026, 1, 2), game(1, 0, Outcome::Win))];
    let mut h = ladder(&dir, Rules::default(), &["Spain", "Portugal"], rows, WIDE);
    click(&mut h, "Enter match");
    h.run();
    typed(&mut h, "Sp");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        matches_of(&h, 1),
        (1, 0, 0),
        "the saved match is still there"
    );
    assert!(h.state().state.notice().is_none(), "nothing was undone");
    // Outside a text field Ctrl+Z undoes the ladder's last change.
    press(&mut h, Key::Escape);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(matches_of(&h, 1), (0, 0, 0), "undone");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(matches_of(&h, 1), (1, 0, 0), "redone");
    // No delete button sits in the list for the pointer to land on twice.
    assert!(h.query_by_label("delete").is_none());
    click(&mut h, "edit…");
    click(&mut h, "Delete match");
    assert_eq!(matches_of(&h, 1), (0, 0, 0));
    assert_eq!(
        h.state().state.notice(),
        Some("Deleted: Portugal beat Spain")
    );
    assert!(h.query_by_label_contains("Are you sure").is_none());
    click(&mut h, "Undo");
    assert_eq!(
        matches_of(&h, 1),
        (1, 0, 0),
        "Undo in the strip brings it back"
    );
    // It says what it undid in words, not by event number.
    assert_eq!(
        h.state().state.notice(),
        Some("Undone: deleted Portugal beat Spain")
    );
    click(&mut h, "Redo ↷");
    assert_eq!(matches_of(&h, 1), (0, 0, 0));
    assert_eq!(
        h.state().state.notice(),
        Some("Redone: deleted Portugal beat Spain")
    );
}

/// Players added in the app play on any date (they join at their first match), the
/// forecast shows for a backdated match, errors name players, and a CSV result dated in the
/// future is refused with nothing changed.
#[test]
fn dates_never_block_and_errors_name_players() {
    let dir = Temp::new("evening-3");
    let rows = vec![(day(2026, 1, 10), join(1, "Cy"))];
    let mut h = ladder(&dir, Rules::default(), &["Ann"], rows, WIDE);
    click(&mut h, "Players");
    type_into(&mut h, "New player:", "Dee");
    click(&mut h, "Add player");
    click(&mut h, "Enter match");
    type_into(&mut h, "Date", "2020-05-01");
    type_into(&mut h, "Player A", "Dee");
    type_into(&mut h, "Player B", "Ann");
    assert!(
        h.query_all_by_label_contains("%").next().is_some(),
        "the forecast shows for a backdated match"
    );
    click(&mut h, "Dee wins (1)");
    click(&mut h, "Save match (Enter)");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let dee = s.player_id("Dee").unwrap();
    assert_eq!(s.ladder.players[dee as usize].wins, 1);
    // Cy joined on a date: a match before it is refused by name, and the form says why.
    type_into(&mut h, "Date", "2026-01-05");
    type_into(&mut h, "Player A", "Cy");
    type_into(&mut h, "Player B", "Ann");
    // The gate's refusal in the app's words: the field by its label, not the file.
    let why = "No forecast yet: Date: Cy joined the ladder on 2026-01-10, after 2026-01-05; \
               date the match 2026-01-10 or later";
    assert!(h.query_by_label_contains(why).is_some(), "{why}");
    // A CSV dated in the future is refused whole.
    let csv = dir.0.join("future.csv");
    std::fs::write(&csv, "date,player_a,player_b,score\n9000-01-01,Ann,Cy,1\n").unwrap();
    let before = h.state().state.ladder.clone();
    let mapping = rungs_app::files::mapping_for_file(&csv);
    h.state_mut().state.apply(Command::ImportCsv(csv, mapping));
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(
        s.error().unwrap_or("").contains("in the future"),
        "{:?}",
        s.error()
    );
    assert_eq!(s.ladder, before, "nothing changed");
}

/// Where no system dialog can open the app says so and opens its own picker; File → New asks
/// for the name and the system, each explained.
#[test]
fn file_dialogs_always_work_and_new_asks_for_the_system() {
    let dir = Temp::new("evening-4");
    let path = ladder_file(&dir, Rules::default(), &["Ann"], vec![]);
    // egui_file's path and name fields carry no accessible names of their own.
    let mut h = app_support::open_with(&path, WIDE, false);
    click(&mut h, "File");
    click(&mut h, "Open…");
    h.run();
    assert!(
        h.state()
            .state
            .notice()
            .unwrap_or("")
            .contains("rungs' own picker"),
        "{:?}",
        h.state().state.notice()
    );
    assert!(
        h.query_by_label_contains("Open a ladder").is_some(),
        "the app's own picker is open"
    );
    assert_eq!(
        h.state().state.picker.in_app(),
        Some(rungs_app::files::Purpose::Open)
    );
    h.key_press(Key::Escape);
    h.run();
    click(&mut h, "File");
    click(&mut h, "New ladder…");
    for s in System::ALL {
        assert!(
            h.query_by_label(s.facts().about).is_some(),
            "{s} is explained"
        );
    }
    type_into(&mut h, "Name", "league");
    click(&mut h, "INVERSUS");
    click(&mut h, "Create ladder");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(s.path(), Some(dir.0.join("league.rungs").as_path()));
    assert_eq!(s.ladder.rules.system(), System::Inversus);
}

/// At 800×600 the tabs fold into "More ▾" (Simulate and undo stay reachable) and the standings
/// keep every column; at 560×420 the History read-out stays above the status bar.
#[test]
fn narrow_windows_fold_the_tabs_and_keep_the_status_bar_clear() {
    let dir = Temp::new("evening-5");
    let rows = vec![
        (day(2026, 1, 2), game(0, 1, Outcome::Win)),
        (day(2026, 1, 3), game(1, 0, Outcome::Win)),
    ];
    let mut h = ladder(
        &dir,
        Rules::default(),
        &["Ann", "Bo"],
        rows.clone(),
        egui::vec2(800.0, 600.0),
    );
    h.run();
    assert!(h.query_by_label("More ▾").is_some(), "the tabs fold");
    assert!(h.query_by_label("↶ Undo").is_some() && h.query_by_label("Redo ↷").is_some());
    assert!(h.query_by_label_contains("Last played").is_some());
    click(&mut h, "More ▾");
    click(&mut h, "Simulate");
    assert_eq!(h.state().state.screen, Screen::Simulate);
    let small = Temp::new("evening-5-small");
    let mut h = ladder(
        &small,
        Rules::default(),
        &["Ann", "Bo"],
        rows,
        egui::vec2(560.0, 420.0),
    );
    h.state_mut()
        .state
        .apply(Command::Tool(rungs_app::command::ToolCommand::Plot(0)));
    h.state_mut().state.apply(Command::Show(Screen::History));
    h.run();
    h.run();
    let readout = h.get_by_label_contains("Hover over a plot").rect();
    let status = h.get_by_label_contains("events ·").rect();
    assert!(
        readout.bottom() <= status.top(),
        "{readout:?} runs into {status:?}"
    );
    // Two players plotted and the pointer on the plot: both read-outs, wrapped in this narrow
    // window, stay above the message strip (which sits above the status line).
    h.state_mut()
        .state
        .apply(Command::Tool(rungs_app::command::ToolCommand::Plot(1)));
    h.run();
    let plots = h.state().screens.history.plot_rect.expect("plots drawn");
    h.input_mut().events.push(Event::PointerMoved(
        plots.center() - egui::vec2(0.0, plots.height() / 4.0),
    ));
    h.run();
    let status = h.get_by_label_contains("events ·").rect();
    // The strip is one interact height (18 points by default) and a separator above the status.
    let strip_top = status.top() - 18.0 - 6.0;
    for who in ["Ann: ", "Bo: "] {
        let line = h.get_by_label_contains(who).rect();
        assert!(
            line.bottom() <= strip_top,
            "{who}{line:?} runs into the message strip (top {strip_top})"
        );
    }
}

/// The reset previews keep their columns in line; the season archive is ranked with a rank
/// column, says "mean weekly RP" once (in its header) and its last header fits.
#[test]
fn tables_align_and_the_archive_is_ranked() {
    let dir = Temp::new("evening-6");
    let mut h = ladder(&dir, Rules::default(), &["Cy", "Bo", "Ann"], vec![], WIDE);
    // Ann and Bo come over from Elo as a Grandmaster and a Master; Cy stays a Wanderer.
    let list = dir.0.join("elo.csv");
    std::fs::write(
        &list,
        "player,elo,rank\nAnn,2300,Grandmaster\nBo,2100,Master\nCy,1300,\n",
    )
    .unwrap();
    let s = &mut h.state_mut().state;
    s.apply(Command::PreviewMigration {
        path: list.display().to_string(),
        cutoffs: String::new(),
    });
    s.apply(Command::Confirm);
    s.apply(Command::PreviewSoftReset);
    s.apply(Command::Confirm);
    assert!(s.error().is_none(), "{:?}", s.error());
    click(&mut h, "Seasons");
    click(&mut h, "Hard reset (end season 1)…");
    // The preview's header and cells share their columns.
    let head = h.get_by_label("RP before → after").rect();
    // The first row's score cell ("1200 → 1000 (−200)").
    let cell = h
        .get_all_by_label_contains("(")
        .map(|n| n.rect())
        .filter(|r| r.top() > head.bottom())
        .min_by(|a, b| a.top().total_cmp(&b.top()))
        .unwrap();
    assert!((head.left() - cell.left()).abs() < 1.0, "{head:?} {cell:?}");
    click(&mut h, "Apply");
    h.get_by_label_contains("Season 1 — ended").click();
    h.run();
    let top = |name: &str| h.get_by_label(name).rect().top();
    assert!(
        top("Ann") < top("Bo") && top("Bo") < top("Cy"),
        "ranked: the Grandmaster's mean, the Master's, then Cy's tier"
    );
    assert!(h.query_by_label("#").is_some(), "a rank column");
    assert_eq!(
        h.query_all_by_label_contains("mean weekly RP").count(),
        1,
        "said once, in the header"
    );
    let last = h.get_by_label("RP at each week's end").rect();
    assert!(last.right() <= WIDE.x, "{last:?}");
}

/// Settings show full values under friendly names, and a change can be dated.
#[test]
fn settings_show_full_values_and_date_the_change() {
    let dir = Temp::new("evening-7");
    let rows = vec![(day(2026, 1, 2), game(0, 1, Outcome::Win))];
    let mut h = ladder(&dir, Rules::default(), &["Ann", "Bo"], rows, WIDE);
    click(&mut h, "Settings");
    let span = h.get_by_role_and_label(Role::TextInput, "Hard reset span");
    assert_eq!(span.value().as_deref(), Some("750"));
    assert!(
        h.query_by_label("b_max").is_none(),
        "code names only on hover"
    );
    type_into(&mut h, "Grandweavers", "3");
    type_into(&mut h, "From:", "2026-01-05");
    click(&mut h, "Preview change");
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let rules = s
        .latest
        .iter()
        .find(|e| matches!(e.event, LadderEvent::Rules { .. }))
        .expect("a rules event");
    assert_eq!(rules.date, day(2026, 1, 5));
}

/// Standings: every column sorts and explains itself; "1 of 3 players" when filtered; the idle
/// rule works for Skyweaver; players retire and come back from their page; the trend after a
/// hard reset is blank, not the last match's change.
#[test]
fn standings_sort_filter_show_idle_and_retire() {
    let dir = Temp::new("evening-8");
    // Cy's only match is two years before the latest: idle under the default 365 days.
    let rows = vec![
        (day(2024, 1, 2), game(2, 1, Outcome::Win)),
        (day(2026, 1, 2), game(0, 1, Outcome::Win)),
        (day(2026, 1, 3), game(1, 0, Outcome::Win)),
    ];
    let mut h = ladder(&dir, Rules::default(), &["Ann", "Bo", "Cy"], rows, WIDE);
    assert!(
        h.query_by_label("Cy").is_none(),
        "idle: off the leaderboard"
    );
    assert!(h.query_by_label("2 of 3 players").is_some());
    click(&mut h, "show provisional, idle and retired");
    assert!(h.query_by_label("Cy").is_some());
    assert!(h.query_by_label("idle").is_some());
    type_into(&mut h, "Filter:", "an");
    assert!(h.query_by_label("1 of 3 players").is_some());
    type_into(&mut h, "Filter:", "");
    // The score column sorts, and its header explains the trend beside it.
    click(&mut h, "RP");
    assert_eq!(
        h.state().screens.standings.sort,
        rungs_app::standings::SortKey::Score
    );
    h.get_by_label("Last match").hover();
    h.run();
    assert!(
        h.query_by_label_contains("latest match this season")
            .is_some()
    );
    // Retire Bo from his page, then bring him back.
    h.state_mut().state.apply(Command::ShowPlayer(Some(1)));
    h.run();
    click(&mut h, "Retire Bo");
    let s = &h.state().state;
    assert!(
        s.standings
            .iter()
            .any(|x| x.id == 1 && x.retired && !x.listed())
    );
    click(&mut h, "Bring back Bo");
    assert!(
        h.state()
            .state
            .standings
            .iter()
            .any(|x| x.id == 1 && !x.retired)
    );
    // After a hard reset the trend is blank until the player plays again.
    let s = &mut h.state_mut().state;
    let ann = &s.ladder.players[0];
    assert!(rungs_app::standings::trend(ann).is_some());
    s.apply(Command::PreviewHardReset);
    s.apply(Command::Confirm);
    let ann = &h.state().state.ladder.players[0];
    assert_eq!(rungs_app::standings::trend(ann), None);
}

/// History: a one-day ladder is read by match number; the player page reads out the hovered
/// event's values.
#[test]
fn history_handles_one_day_and_the_player_page_hovers() {
    let dir = Temp::new("evening-9");
    let rows = vec![
        (day(2026, 1, 2), game(0, 1, Outcome::Win)),
        (day(2026, 1, 2), game(1, 0, Outcome::Win)),
        (day(2026, 1, 2), game(0, 1, Outcome::Win)),
    ];
    let mut h = ladder(&dir, Rules::default(), &["Ann", "Bo"], rows, WIDE);
    click(&mut h, "History");
    type_into(&mut h, "Plot player:", "Ann");
    click(&mut h, "Add");
    click(&mut h, "date");
    h.run();
    assert!(
        h.query_by_label_contains("Every plotted match is on 2026-01-02")
            .is_some()
    );
    h.state_mut().state.apply(Command::ShowPlayer(Some(0)));
    h.input_mut().events.push(Event::PointerGone);
    h.run();
    assert!(
        h.query_by_label("Hover over a plot to read the values.")
            .is_some()
    );
    let plot = h.get_by_label_contains("x: the player's events").rect();
    // The rating plot sits above that caption, on the left half: its right end is the last
    // match.
    let at = egui::pos2(plot.left() + plot.width() / 2.0 - 40.0, plot.top() - 90.0);
    h.input_mut().events.push(Event::PointerMoved(at));
    h.run();
    // Numbered as the log numbers it: Ann's first match is the ladder's event 3 (the two
    // joins are 1 and 2), after which she stands at 1662 (a win from 1500 ± 350 against the
    // same), not her own count of events.
    assert!(
        h.query_by_label_contains("event 3 · 2026-01-02 · rating 1662 ± 290")
            .is_some(),
        "the hovered event's values, by its log number"
    );
}

/// Messages sit in a strip that never moves the page, go with their screen, and an error is
/// never replaced by what an older command says.
#[test]
fn messages_do_not_move_the_page() {
    let dir = Temp::new("evening-10");
    let rows = vec![(day(2026, 1, 2), game(0, 1, Outcome::Win))];
    let mut h = ladder(&dir, Rules::default(), &["Ann", "Bo"], rows, WIDE);
    let before = h.get_by_label("Filter:").rect();
    h.state_mut().state.apply(Command::Problem {
        field: "test",
        message: "something is wrong".into(),
    });
    h.run();
    assert!(h.query_by_label_contains("something is wrong").is_some());
    assert_eq!(
        h.get_by_label("Filter:").rect(),
        before,
        "the page did not move"
    );
    click(&mut h, "Players");
    assert!(h.state().state.error().is_none(), "left with its screen");
    // A slow change started before an error lands after it: the error stays.
    let s = &mut h.state_mut().state;
    s.inline_limit = 0;
    s.apply(Command::PreviewSoftReset);
    s.apply(Command::Problem {
        field: "test",
        message: "newer".into(),
    });
    s.wait_for_job();
    assert_eq!(s.error(), Some("test: newer"));
    assert!(s.pending.is_some(), "the older work still landed");
}

/// Tab completes "Germ" to Germany (the regular) not German DR; the draw chance shows where
/// the system models draws; edit changes date and players; Enter match forecasts from the past
/// while Replay shows it; the player list searches.
#[test]
fn the_smaller_things_of_the_evening() {
    let dir = Temp::new("evening-11");
    let rows = vec![
        (day(2026, 1, 2), game(0, 2, Outcome::Win)),
        (day(2026, 1, 3), game(0, 2, Outcome::Draw)),
        (day(2026, 1, 4), game(1, 2, Outcome::Loss)),
    ];
    let rules = Rules::defaults(System::Allegskill);
    let mut h = ladder(&dir, rules, &["Germany", "German DR", "Spain"], rows, WIDE);
    click(&mut h, "Enter match");
    h.run();
    typed(&mut h, "Germ");
    press(&mut h, Key::Tab);
    assert_eq!(h.state().screens.enter.form.a, "Germany");
    typed(&mut h, "Spa");
    press(&mut h, Key::Tab);
    assert!(
        h.query_by_label_contains("·  draw ").is_some(),
        "AllegSkill models draws"
    );
    // Edit the latest match: date and sides.
    h.get_all_by_label("edit…").next().unwrap().click();
    h.run();
    type_into(&mut h, "Match date", "2026-01-05");
    type_into(&mut h, "Side A", "Spain");
    type_into(&mut h, "Side B", "German DR");
    click(&mut h, "Save changes (Enter)");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let m = s
        .latest
        .iter()
        .find(|e| matches!(e.event, LadderEvent::Match(_)))
        .unwrap();
    assert_eq!(m.date, day(2026, 1, 5));
    assert_eq!(rungs_line(s, &m.event), "Spain lost to German DR");
    // The past: the form says so and does not save.
    click(&mut h, "Replay");
    click(&mut h, "Build the timeline");
    h.state_mut().state.wait_for_job();
    h.run();
    click(&mut h, "|<");
    click(&mut h, "Enter match");
    assert!(
        h.query_by_label_contains("the forecast is as of then")
            .is_some()
    );
    // The file's latest matches keep their players' names, though none had joined by then.
    assert!(h.query_by_label_contains("German DR beat Spain").is_some());
    click(&mut h, "Return to now");
    // The player list searches.
    click(&mut h, "Players");
    type_into(&mut h, "Search:", "germ");
    assert!(h.query_by_label("2 of 3 players").is_some());
}

fn rungs_line(s: &rungs_app::state::AppState, e: &LadderEvent) -> String {
    let LadderEvent::Match(m) = e else {
        return String::new();
    };
    let name = |i: u32| s.ladder.players[i as usize].name.clone();
    format!("{} {} {}", name(m.a[0]), m.result.verb(), name(m.b[0]))
}

/// The wheel over a player page's plot zooms its time axis (as on History), both plots
/// together, and the page under it does not scroll: hovered at the same spot after zooming
/// in around the middle, the plot reads out an earlier event than before.
#[test]
fn the_player_pages_plots_zoom_with_the_wheel() {
    let dir = Temp::new("player-wheel");
    let rows: Vec<_> = (1..=20)
        .map(|d| (day(2026, 1, d), game(0, 1, Outcome::Win)))
        .collect();
    let mut h = ladder(&dir, Rules::default(), &["Ann", "Bo"], rows, WIDE);
    h.state_mut().state.apply(Command::ShowPlayer(Some(0)));
    h.input_mut().events.push(Event::PointerGone);
    h.run();
    let caption = h.get_by_label_contains("x: the player's events").rect();
    // Two spots on the rating plot: above the caption, on the left half (as the History test
    // above finds them).
    let right_spot = egui::pos2(
        caption.left() + caption.width() / 2.0 - 40.0,
        caption.top() - 90.0,
    );
    let middle = egui::pos2(caption.left() + caption.width() / 4.0, caption.top() - 90.0);
    let read_out = |h: &mut Harness<'_, RungsApp>, at: egui::Pos2| -> u64 {
        h.input_mut().events.push(Event::PointerMoved(at));
        h.run();
        use egui_kittest::kittest::NodeT;
        let node = h.get_by_label_contains(" · 2026-01-");
        let label = format!("{:?}", node.accesskit_node());
        let n = label
            .split("event ")
            .nth(1)
            .expect(&label)
            .split(' ')
            .next()
            .unwrap();
        n.parse().unwrap()
    };
    // Ann's 20 matches are the log's events 3 to 22.
    let before = read_out(&mut h, right_spot);
    let centre = read_out(&mut h, middle);
    assert!(centre < before, "{centre} left of {before}");
    h.input_mut().events.push(Event::PointerMoved(middle));
    h.run();
    for _ in 0..4 {
        h.input_mut().events.push(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 120.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::NONE,
        });
        h.run();
    }
    let after = read_out(&mut h, right_spot);
    // Zoomed in around the middle, the spot right of it reads an event nearer the middle's.
    assert!(
        centre <= after && after < before,
        "zoomed in: {after}, before {before}, middle {centre}"
    );
    assert_eq!(
        h.get_by_label_contains("x: the player's events").rect(),
        caption,
        "the page did not scroll"
    );
}

/// A history cache changed outside rungs was drawn as an empty plot without a word; the app
/// now says what is wrong and how to mend it.
#[test]
fn a_tampered_history_is_said_on_the_player_page() {
    let dir = Temp::new("app-history-tamper");
    let rows = vec![(day(2026, 1, 2), game(0, 1, Outcome::Win))];
    let path = ladder_file(&dir, Rules::default(), &["Ann", "Bo"], rows);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute("DELETE FROM cache_history WHERE player = 0", [])
        .unwrap();
    let mut h = app_support::open(&path, WIDE);
    h.state_mut().state.apply(Command::ShowPlayer(Some(0)));
    h.run();
    assert!(
        h.query_by_label_contains("the players' histories were changed outside rungs")
            .is_some(),
        "the message strip says so"
    );
}
