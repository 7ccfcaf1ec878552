//! The app in everyday use: it speaks its own language, reaches every match (Matches), sets
//! and shows the season calendar, previews rules where the user is, and plots a player as
//! Enter match completes one. Each test drives the real app state as a person would.

use chrono::NaiveDate;
use eframe::egui::{self, Key, accesskit::Role};
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_app::command::Screen;
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

fn join(id: u32, name: &str) -> Entry {
    Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    }
}

fn win(a: u32, b: u32) -> Entry {
    Entry::Add {
        event: Event::Match(Match::new(a, b, MatchResult::Played(Outcome::Win))),
    }
}

/// Ann, Bo and Cy; then `n` matches, one a day from 2026-01-02: Ann beats Bo on odd
/// days of the run, Bo beats Cy on even ones.
fn club(path: &Path, n: u32) {
    let mut store = Store::create(path, &Rules::default()).unwrap();
    let start = day(2026, 1, 1);
    let mut rows = vec![
        (start, join(0, "Ann")),
        (start, join(1, "Bo")),
        (start, join(2, "Cy")),
    ];
    for i in 0..n {
        let date = start + chrono::Days::new(u64::from(i) + 1);
        rows.push((date, if i % 2 == 0 { win(0, 1) } else { win(1, 2) }));
    }
    store
        .commit(&rungs_store::Change::new("club nights", rows.to_vec()).unwrap())
        .unwrap();
}

/// Item 7: "No forecast yet: /…/demo.rungs: field `player_b`: unknown player `Portu`; add
/// them first (Players, or `rungs add-player`)". The app names the field by its label, no
/// path, no command, and offers the fix as a button: pressing it adds Portu, and the match
/// then saves with Enter.
#[test]
fn an_unknown_player_is_said_in_the_apps_words_with_the_button_that_adds_them() {
    let dir = Temp::new("unknown-player");
    let path = dir.0.join("club.rungs");
    club(&path, 2);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Enter match");
    type_into(&mut h, "Player A", "Ann");
    type_into(&mut h, "Player B", "Portu");
    let said = "No forecast yet: Player B: no player is called “Portu”";
    assert!(
        h.query_by_label(said).is_some(),
        "the form says `{said}`; the strip says {:?}",
        h.state().state.error()
    );
    assert!(h.query_by_label_contains("rungs add-player").is_none());
    assert!(h.query_by_label_contains("field `").is_none());
    assert!(
        h.query_by_label_contains(path.to_str().unwrap()).is_none(),
        "no file path: the file is not the subject"
    );
    click(&mut h, "Add Portu as a player");
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    assert!(h.state().state.player_id("Portu").is_some(), "Portu joined");
    assert!(h.query_by_label("Add Portu as a player").is_none());
    h.get_by_role_and_label(Role::TextInput, "Player B").focus();
    h.run();
    h.key_press(Key::Num1);
    click(&mut h, "Ann wins (1)");
    click(&mut h, "Save match (Enter)");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let store = Store::open(&path).unwrap();
    let latest = store.latest_events(1).unwrap();
    assert_eq!(
        latest[0].event,
        Event::Match(Match::new(0, 3, MatchResult::Played(Outcome::Win))),
        "Ann beat Portu (id 3)"
    );
}

/// Item 7: a change refused because another program wrote the file meanwhile says so in
/// the app's words, without "redo the change" beside a Redo button that does something
/// else, and without the file's path.
#[test]
fn a_change_made_meanwhile_elsewhere_is_said_without_redo_or_path() {
    let dir = Temp::new("meanwhile");
    let path = dir.0.join("club.rungs");
    club(&path, 2);
    let mut h = app_support::open(&path, WIDE);
    {
        let mut other = Store::open(&path).unwrap();
        other
            .commit(
                &rungs_store::Change::new("added Eve", vec![(day(2026, 1, 9), join(3, "Eve"))])
                    .unwrap(),
            )
            .unwrap();
    }
    // Before the app has looked at the file again, Undo would take back Eve: refused.
    h.state_mut().state.apply(rungs_app::command::Command::Undo);
    let error = h.state().state.error().unwrap_or_default().to_string();
    assert!(
        error.contains("another program changed the ladder"),
        "{error}"
    );
    assert!(
        !error.contains("redo")
            && !error.contains(path.to_str().unwrap())
            && !error.contains("action "),
        "{error}"
    );
}

/// Matches: every match of the log, not only the latest 30. The 3rd of 40 matches is found by
/// searching for Cy and a date range, opens in the edit window, and its result is changed.
#[test]
fn the_matches_screen_reaches_an_old_match_and_edits_it() {
    let dir = Temp::new("matches");
    let path = dir.0.join("club.rungs");
    club(&path, 40);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Matches");
    h.run();
    assert!(
        h.query_by_label_contains("40 of 40 matches").is_some(),
        "{:?}",
        h.state().state.error()
    );
    type_into(&mut h, "Player:", "cy");
    type_into(&mut h, "From:", "2026-01-03");
    type_into(&mut h, "To:", "2026-01-05");
    // Bo beat Cy on 01-03 and 01-05 (matches 2 and 4 of the run).
    assert!(h.query_by_label_contains("2 of 40 matches").is_some());
    let rows: Vec<_> = h.query_all_by_label("Bo beat Cy").collect();
    assert_eq!(rows.len(), 2, "two rows");
    // The older one is drawn lower (newest first).
    let oldest = rows
        .iter()
        .max_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .unwrap();
    oldest.click();
    h.run();
    assert!(
        h.query_by_label_contains("Edit match: Bo beat Cy")
            .is_some(),
        "the edit window opened"
    );
    click(&mut h, "Cy wins");
    click(&mut h, "Save changes (Enter)");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(s.screen, Screen::Matches, "still on Matches");
    // "Also": the message says what the match was and what it is now, not the old label.
    assert_eq!(s.notice(), Some("Changed: Bo beat Cy → Cy beat Bo"));
    let store = Store::open(&path).unwrap();
    let e = store
        .event(5)
        .unwrap()
        .expect("the 2nd match of the run is event 5");
    assert_eq!(e.date, day(2026, 1, 3));
    assert_eq!(
        e.event,
        Event::Match(Match::new(1, 2, MatchResult::Played(Outcome::Loss))),
        "Cy now beat Bo on 01-03"
    );
    // The list follows the ladder: one Bo-v-Cy row now reads "Cy beat Bo".
    h.run();
    assert!(h.query_by_label("Cy beat Bo").is_some());
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

/// Item 6 and the calendar: on a weekly ladder whose last match was in January, the forecast
/// says the resets due come first and what they do to both players; Seasons shows the
/// calendar, the resets due and the next ones, and applies the due ones on request — after
/// which each player stands where the forecast said.
#[test]
fn the_forecast_and_seasons_say_the_resets_due_and_seasons_applies_them() {
    let dir = Temp::new("due-resets");
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
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Enter match");
    type_into(&mut h, "Player A", "Ann");
    type_into(&mut h, "Player B", "Bo");

    // "46 resets are due first (11 of them end seasons): Ann 1234 → 567, Bo … → … before
    // this match" (how many depends on today's date).
    let node = format!(
        "{:?}",
        h.get_by_label_contains("resets are due first (")
            .accesskit_node()
    );
    let from = node.find("of them end seasons): ").expect(&node);
    let to = node.find(" before this match").expect(&node);
    let line = node[from..to].to_string();
    let players = &line["of them end seasons): ".len()..];
    let after = |name: &str| -> f64 {
        let part = players
            .split(", ")
            .find(|p| p.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {line}"));
        let (_, a) = part.split_once(" → ").expect("before → after");
        a.parse().unwrap()
    };
    let (ann, bo) = (after("Ann"), after("Bo"));
    click(&mut h, "Seasons");
    assert!(
        h.query_by_label_contains("scheduled resets are due since the last event (2026-01-07)")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Calendar:").is_some()
            && h.query_all_by_label_contains("of season").count() == 4,
        "the next resets are listed"
    );
    click(&mut h, "Apply due resets now…");
    h.state_mut().state.wait_for_job();
    h.run();
    assert!(
        h.query_by_label_contains("Preview — the season calendar's resets due by")
            .is_some(),
        "{:?}",
        h.state().state.error()
    );
    click(&mut h, "Apply");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let score = |id: u32| s.ladder.players[id as usize].figures().score;
    assert_eq!((score(0).round(), score(1).round()), (ann, bo), "{line}");
    let status = rungs_ladder::seasons::calendar_status(&s.ladder, rungs_app::state::today());
    assert_eq!(status.pending, 0, "nothing due any more");
    assert!(s.ladder.season > 1, "seasons ended");
    assert!(
        h.query_by_label_contains("scheduled resets are due")
            .is_none()
    );
}

/// File → New sets the season calendar, with a preview of the next resets.
#[test]
fn file_new_sets_the_season_calendar() {
    let dir = Temp::new("new-calendar");
    let path = dir.0.join("club.rungs");
    club(&path, 1);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "File");
    click(&mut h, "New ladder…");
    type_into(&mut h, "Name", "weekly club");
    h.get_by_role_and_label(Role::ComboBox, "Season calendar:")
        .click();
    h.run();
    h.get_by_label("scheduled").click();
    h.run();
    type_into(&mut h, "Season ends every", "4");
    type_into(&mut h, "Counted from", "2026-01-05");
    assert!(
        h.query_by_label_contains("Next: Mon ").is_some(),
        "the next resets are previewed"
    );
    click(&mut h, "Create ladder");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(s.path(), Some(dir.0.join("weekly club.rungs").as_path()));
    assert_eq!(s.ladder.rules.calendar, weekly());
    let made = Store::open(&dir.0.join("weekly club.rungs")).unwrap();
    assert_eq!(made.initial_rules().unwrap().calendar, weekly());
}

/// Item 4: Tune → "Apply as rules change…" opened its preview silently on Settings, reading
/// "rating 3060 ± 294 → 3060 ± 0" with an empty tier column. The preview shows on Tune, titled
/// in the screens' words, with Elo's rating without a deviation and the tiers said to go.
#[test]
fn tune_previews_its_rules_change_where_the_user_is_with_the_right_values() {
    let dir = Temp::new("tune-apply");
    let path = dir.0.join("club.rungs");
    club(&path, 40);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Tune");
    h.get_by_role_and_label(Role::ComboBox, "System").click();
    h.run();
    click(&mut h, "Elo");
    click(&mut h, "Fit");
    h.state_mut().screens.tune.wait();
    h.run();
    assert!(h.state().screens.tune.result.is_some(), "a fit");
    click(&mut h, "Apply as rules change…");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert_eq!(
        s.screen,
        Screen::Tune,
        "the preview shows where it was asked for"
    );
    assert!(s.pending.is_some(), "{:?}", s.error());
    let title = h
        .query_by_label_contains("Preview — rules from ")
        .map(|n| format!("{:?}", n.accesskit_node()));
    assert!(
        title
            .as_deref()
            .is_some_and(|t| t.contains("Skyweaver → Elo")),
        "{title:?}"
    );
    assert!(
        h.query_by_label_contains("± 0").is_none(),
        "Elo has no deviation"
    );
    assert!(
        h.query_all_by_label_contains(" → none").count() > 0,
        "the tiers are said to go"
    );
    // Ann's Elo rating after the change is the figure the preview shows for her.
    let after = h.state().state.pending.as_ref().unwrap().after.players[0]
        .figures()
        .rating;
    click(&mut h, "Apply");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(s.ladder.rules.system(), rungs_ladder::rules::System::Elo);
    assert_eq!(s.ladder.players[0].figures().rating, after);
}

/// Item 8: "Plot player" completes on Tab and Enter as Enter match's fields do; a name that is
/// no player's is said, and selected so that the next name replaces it (not "GermJapan").
#[test]
fn plot_player_completes_on_tab_and_enter() {
    let dir = Temp::new("plot-player");
    let path = dir.0.join("club.rungs");
    club(&path, 4);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "History");
    h.run();
    let field = |h: &mut egui_kittest::Harness<'_, rungs_app::RungsApp>| {
        h.get_by_role_and_label(Role::TextInput, "Plot player:")
            .focus();
        h.run();
    };
    field(&mut h);
    h.get_by_role_and_label(Role::TextInput, "Plot player:")
        .type_text("An");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(
        h.state().state.tools.plotted,
        vec![0],
        "An + Enter plots Ann"
    );
    h.get_by_role_and_label(Role::TextInput, "Plot player:")
        .type_text("b");
    h.run();
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(
        h.state().state.tools.plotted,
        vec![0, 1],
        "b + Tab plots Bo"
    );
    h.get_by_role_and_label(Role::TextInput, "Plot player:")
        .type_text("Zed");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let error = h.state().state.error().unwrap_or_default().to_string();
    assert!(error.contains("no player is called “Zed”"), "{error}");
    // The keyboard is still in the field, its text selected: "Cy" replaces "Zed".
    h.get_by_role_and_label(Role::TextInput, "Plot player:")
        .type_text("Cy");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(
        h.state().state.tools.plotted,
        vec![0, 1, 2],
        "{:?}",
        h.state().screens.history.plot_name
    );
}

/// "Also": several players at once, pasted one per line (blank lines and spaces ignored), in
/// one change that one Undo takes back; and "Add players" on an empty ladder puts the
/// keyboard in the name field.
#[test]
fn several_players_are_added_at_once_and_add_players_gives_the_keyboard() {
    let dir = Temp::new("several");
    let path = dir.0.join("club.rungs");
    Store::create(&path, &Rules::default()).unwrap();
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Add players");
    h.run();
    h.input_mut().events.push(egui::Event::Text("Zoe".into()));
    h.run();
    assert_eq!(
        h.state().screens.players.new_player,
        "Zoe",
        "typed into New player"
    );
    click(&mut h, "Several at once…");
    h.get_by_role_and_label(Role::MultilineTextInput, "New players, one per line:")
        .focus();
    h.run();
    h.get_by_role_and_label(Role::MultilineTextInput, "New players, one per line:")
        .type_text("Dee\nEve\n\n  Fay  \n");
    h.run();
    click(&mut h, "Add 3 players");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let names: Vec<&str> = s.ladder.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Dee", "Eve", "Fay"]);
    assert_eq!(s.notice(), Some("added 3 players"));
    h.state_mut().state.apply(rungs_app::command::Command::Undo);
    let s = &h.state().state;
    assert!(
        s.ladder.players.iter().all(|p| !p.joined),
        "one Undo takes all three back"
    );
}

/// A ladder under `system` where Ann beat Bo, written to a file in `dir`, and the ladder.
fn ann_beat_bo(
    dir: &Temp,
    system: rungs_ladder::rules::System,
) -> (std::path::PathBuf, rungs_ladder::replay::Ladder) {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::defaults(system)).unwrap();
    let start = day(2026, 1, 1);
    store
        .commit(
            &rungs_store::Change::new(
                "night",
                vec![
                    (start, join(0, "Ann")),
                    (start, join(1, "Bo")),
                    (start, win(0, 1)),
                ],
            )
            .unwrap(),
        )
        .unwrap();
    let ladder = store.ladder().unwrap();
    (path, ladder)
}

/// The standings name the score column "rating" and have no second "Rating" column.
fn one_rating_column(h: &egui_kittest::Harness<'_, rungs_app::RungsApp>) {
    assert!(h.query_by_label("rating").is_some(), "the score column");
    assert!(
        h.query_by_label("Rating").is_none(),
        "no second column of the same number"
    );
}

/// "Also": under Elo the standings showed "rating" and "Rating", the same number twice; the
/// score column says it once.
#[test]
fn elo_standings_show_the_rating_once() {
    let dir = Temp::new("elo-columns");
    let (path, _) = ann_beat_bo(&dir, rungs_ladder::rules::System::Elo);
    let h = app_support::open(&path, WIDE);
    one_rating_column(&h);
    // Ann won her first match under K = 32 from 1500 against 1500: 1516.
    assert!(h.query_by_label("1516").is_some());
}

/// The goals system's standings showed "rating" and "Rating", its strength twice: the score
/// column says it once, with its ± one deviation.
#[test]
fn goals_standings_show_the_strength_once() {
    let dir = Temp::new("goals-columns");
    let (path, ladder) = ann_beat_bo(&dir, rungs_ladder::rules::System::Goals);
    let ann = ladder.figures_of(0).unwrap();
    let shown = format!("{:.0} ± {:.0}", ann.rating, ann.deviation);
    assert!(ann.rating > 1500.0 && ann.deviation > 0.0, "{shown}");
    let h = app_support::open(&path, WIDE);
    one_rating_column(&h);
    assert!(
        h.query_by_label(&shown).is_some(),
        "Ann's strength: {shown}"
    );
}

/// "Also": a manual hard reset archived "Season 40 (0 weeks)": the record counts the soft
/// resets inside the season, and none came before the button. The archive says the season's
/// real length, from the day the season before it ended (2026-01-10 → 2026-01-13: 3 days),
/// and the first season, whose start the archive does not hold, that it ended within its
/// first week rather than "0 weeks".
#[test]
fn a_season_ended_by_the_button_says_its_real_length() {
    let dir = Temp::new("season-length");
    let path = dir.0.join("club.rungs");
    club(&path, 2);
    let mut store = Store::open(&path).unwrap();
    let reset = || Entry::Add {
        event: Event::HardReset,
    };
    let rows = [
        (day(2026, 1, 10), reset()),
        (day(2026, 1, 11), win(0, 1)),
        (day(2026, 1, 13), reset()),
    ];
    store
        .commit(&rungs_store::Change::new("two seasons", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Seasons");
    assert!(h.query_by_label_contains("0 weeks").is_none());
    assert!(
        h.query_by_label("Season 2 — 2026-01-10 to 2026-01-13, 3 days (3 players)")
            .is_some()
    );
    assert!(
        h.query_by_label("Season 1 — ended 2026-01-10 within its first week (3 players)")
            .is_some()
    );
}

/// "Also": What-if's "A:" line named the file's rules by code names ("elo K=32
/// initial_rating=1200"). It names them as Settings does: the system by its name and each
/// parameter by its label.
#[test]
fn what_if_names_the_files_rules_by_their_labels() {
    use rungs_ladder::rules::System;
    let dir = Temp::new("what-if-labels");
    let path = dir.0.join("club.rungs");
    let mut rules = Rules::defaults(System::Elo);
    rules.set_param("k", 32.0).unwrap();
    rules.set_param("initial_rating", 1200.0).unwrap();
    let mut store = Store::create(&path, &rules).unwrap();
    store
        .commit(&rungs_store::Change::new("club", vec![(day(2026, 1, 1), join(0, "Ann"))]).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "What-if");
    let said = "A: the file's own rules (Elo, Starting rating 1200, K factor 32).";
    assert!(h.query_by_label_contains(said).is_some(), "{said}");
    assert!(h.query_by_label_contains("initial_rating").is_none());
    assert!(h.query_by_label_contains("K=").is_none());
}

/// "Also": the edit window opened from Enter match's latest matches labels its fields
/// "Side A" and "Side B", but a refusal there named "Player B" (Enter match's own form).
/// It names the field by the label it was typed under.
#[test]
fn the_edit_window_on_enter_match_names_its_own_fields() {
    let dir = Temp::new("edit-window-words");
    let path = dir.0.join("club.rungs");
    club(&path, 1);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Enter match");
    click(&mut h, "edit…");
    assert!(
        h.query_by_label_contains("Edit match: Ann beat Bo")
            .is_some()
    );
    type_into(&mut h, "Side B", "Zed");
    click(&mut h, "Save changes (Enter)");
    let s = &h.state().state;
    assert_eq!(s.screen, Screen::EnterMatch);
    assert_eq!(
        s.error(),
        Some("Side B: no player is called “Zed”"),
        "the window's label, not Enter match's “Player B”"
    );
}

/// "Also": at 560×420 Replay's row of controls ran off the window's right edge, taking the
/// date field and Go with it. The row wraps: both lie inside the window and Go works.
#[test]
fn replays_date_and_go_fit_a_small_window() {
    let dir = Temp::new("replay-small");
    let path = dir.0.join("club.rungs");
    club(&path, 4);
    let mut h = app_support::open(&path, egui::vec2(560.0, 420.0));
    // At this width the tabs past the first few sit in a menu; the screen is what is tested.
    h.state_mut().state.screen = Screen::Replay;
    h.run();
    click(&mut h, "Build the timeline");
    h.state_mut().state.wait_for_job();
    h.run();
    let date = h.get_by_role_and_label(Role::TextInput, "Date:").rect();
    let go = h.get_by_label("Go").rect();
    assert!(
        date.right() <= 560.0 && go.right() <= 560.0,
        "date field ends at {}, Go at {}",
        date.right(),
        go.right()
    );
    type_into(&mut h, "Date:", "2026-01-02");
    click(&mut h, "Go");
    // The 1st of January's three joins and the 2nd's match: four events.
    assert_eq!(h.state().state.tools.position, Some(4));
}
