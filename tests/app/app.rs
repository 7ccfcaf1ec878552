//! The app driven as a person would: widgets found by role and label, clicked and typed
//! into, and the ladder checked afterwards (not only the pixels).

use chrono::NaiveDate;
use eframe::egui::{self, Key, Modifiers, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_app::RungsApp;
use rungs_app::state::AppState;
use rungs_ladder::event::{Entry, Event};
use rungs_ladder::rules::{Params, Rules};
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

/// A Skyweaver ladder with Ann, Bo and Cy, opened in the app.
fn app(dir: &Temp, players: &[&str]) -> Harness<'static, RungsApp> {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::default()).unwrap();
    let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
    let rows: Vec<_> = players
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (
                day,
                Entry::Add {
                    event: Event::Player {
                        id: i as u32,
                        name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                        undated: false,
                    },
                },
            )
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("players", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    app_support::open(&path, egui::vec2(1280.0, 860.0))
}

fn enter_match(h: &mut Harness<'_, RungsApp>, a: &str, b: &str, result_button: &str) {
    click(h, "Enter match");
    type_into(h, "Date", "2026-01-02");
    type_into(h, "Player A", a);
    type_into(h, "Player B", b);
    click(h, result_button);
    click(h, "Save match (Enter)");
}

#[test]
fn a_match_entered_by_typing_and_clicking_changes_the_standings() {
    let dir = Temp::new("enter");
    let mut h = app(&dir, &["Ann Lee", "Bo Chen", "Cy Diaz"]);
    click(&mut h, "Enter match");
    type_into(&mut h, "Player A", "Ann Lee");
    type_into(&mut h, "Player B", "Bo Chen");
    // Before saving, the forecast and each result's effect are shown.
    assert!(h.query_by_label_contains("If Ann Lee wins:").is_some());
    click(&mut h, "Ann Lee wins (1)");
    click(&mut h, "Save match (Enter)");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let ann = &s.ladder.players[0];
    assert_eq!((ann.wins, ann.matches), (1, 1));
    assert!(ann.rp > 200.0);
    assert_eq!(s.standings[0].id, 0, "Ann leads the standings");
    // The form clears for the next match.
    let form = &h.state().screens.enter.form;
    assert!(form.a.is_empty() && form.result.is_none());
    // The player's page: record, head-to-head, and the history plot.
    click(&mut h, "Players");
    h.get_by_role_and_label(Role::Button, "Ann Lee").click();
    h.run();
    // One match, in the singular.
    assert!(h.query_by_label_contains("1 match: 1 won").is_some());
    assert!(
        h.query_by_label_contains("beat Bo Chen").is_some(),
        "recent matches, from Ann's side"
    );
    assert!(
        h.query_by_label("1-0-0").is_some(),
        "head-to-head against Bo"
    );
    assert!(
        h.query_by_label_contains("x: the player's events in order")
            .is_some(),
        "the history plot is drawn"
    );
}

#[test]
fn the_latest_match_can_be_edited_and_deleted() {
    let dir = Temp::new("edit");
    let mut h = app(&dir, &["Ann", "Bo"]);
    enter_match(&mut h, "Ann", "Bo", "Ann wins (1)");
    assert_eq!(h.state().state.ladder.players[0].wins, 1);
    click(&mut h, "edit…");
    click(&mut h, "Draw");
    click(&mut h, "Save changes (Enter)");
    let ann = &h.state().state.ladder.players[0];
    assert_eq!((ann.wins, ann.draws), (0, 1));
    click(&mut h, "edit…");
    click(&mut h, "Delete match");
    assert_eq!(h.state().state.ladder.players[0].matches, 0);
}

#[test]
fn undo_and_redo_from_the_keyboard_and_the_toolbar() {
    let dir = Temp::new("undo");
    let mut h = app(&dir, &["Ann", "Bo"]);
    enter_match(&mut h, "Ann", "Bo", "Bo wins (2)");
    assert_eq!(h.state().state.ladder.players[1].wins, 1);
    // After a save the keyboard is in Player A; Escape leaves the text field.
    h.key_press(Key::Escape);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().state.ladder.players[1].wins, 0, "Ctrl+Z undoes");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(
        h.state().state.ladder.players[1].wins,
        1,
        "Ctrl+Shift+Z redoes"
    );
    h.get_by_role_and_label(Role::Button, "↶ Undo").click();
    h.run();
    assert_eq!(
        h.state().state.ladder.players[1].wins,
        0,
        "the toolbar undoes"
    );
}

#[test]
fn soft_and_hard_reset_go_through_a_preview() {
    let dir = Temp::new("resets");
    let mut h = app(&dir, &["Ann", "Bo"]);
    enter_match(&mut h, "Ann", "Bo", "Ann wins (1)");
    click(&mut h, "Seasons");
    let rd_before = h.state().state.ladder.players[0].figures().deviation;
    click(&mut h, "Soft reset (end week 1)…");
    assert!(h.query_by_label_contains("Preview — soft reset").is_some());
    assert_eq!(h.state().state.ladder.week, 1, "a preview changes nothing");
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert_eq!(s.ladder.week, 2);
    assert!(
        s.ladder.players[0].figures().deviation > rd_before,
        "RD grew a period"
    );
    click(&mut h, "Hard reset (end season 1)…");
    assert!(h.query_by_label_contains("Preview — hard reset").is_some());
    // The range it rescales, stated as the CLI states it (Ann won, Bo lost: both rated).
    let l = &h.state().state.ladder;
    let (bo, ann) = (l.players[1].figures().rating, l.players[0].figures().rating);
    let range = format!("The hard reset rescales MMR {bo:.0}–{ann:.0} → 1500–2250.");
    assert!(h.query_by_label(&range).is_some(), "{range}");
    click(&mut h, "Cancel");
    assert_eq!(h.state().state.ladder.season, 1, "cancel changes nothing");
    click(&mut h, "Hard reset (end season 1)…");
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert_eq!((s.ladder.season, s.ladder.archive.len()), (2, 1));
    assert_eq!(s.ladder.players[0].figures().deviation, 350.0);
}

#[test]
fn the_migration_wizard_brings_in_an_elo_list() {
    let dir = Temp::new("migrate");
    let mut h = app(&dir, &["Ann", "Bo"]);
    let list = dir.0.join("elo.csv");
    std::fs::write(
        &list,
        "player,elo,rank\nAnn,2300,Grandmaster\nBo,1650,\nCy,1450,\n",
    )
    .unwrap();
    click(&mut h, "Migration");
    type_into(&mut h, "Elo list:", &list.display().to_string());
    click(&mut h, "Preview migration");
    assert!(
        h.query_by_label_contains("Preview — migration of 3 players from Elo")
            .is_some(),
        "{:?}",
        h.state().state.error()
    );
    click(&mut h, "Apply");
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let rp: Vec<f64> = s.ladder.players.iter().map(|p| p.rp).collect();
    // Table 2: Grandmaster 1200; Bo by the default cut-offs is a Scholar (700); Cy joins as an
    // Apprentice (400).
    assert_eq!(rp, vec![1200.0, 700.0, 400.0]);
    assert_eq!(s.ladder.players[2].name, "Cy");
}

#[test]
fn a_settings_change_is_a_previewed_rules_event() {
    let dir = Temp::new("settings");
    let mut h = app(&dir, &["Ann", "Bo"]);
    click(&mut h, "Settings");
    type_into(&mut h, "Grandweavers", "3");
    click(&mut h, "Preview change");
    assert!(
        // In the screen's words: the parameter by its label, not `rules: skyweaver …`.
        h.query_by_label_contains("Preview — rules from ")
            .is_some_and(|n| format!("{:?}", n.accesskit_node()).contains(": Grandweavers 3")),
        "{:?}",
        h.state().state.error()
    );
    click(&mut h, "Apply");
    let s = &h.state().state;
    let Params::Skyweaver(p) = &s.ladder.rules.params else {
        panic!("still skyweaver")
    };
    assert_eq!(p.grandweaver_count, 3);
    assert!(
        s.latest
            .iter()
            .any(|e| matches!(e.event, Event::Rules { .. })),
        "recorded as a rules event"
    );
}

#[test]
fn players_are_added_and_renamed() {
    let dir = Temp::new("players");
    let mut h = app(&dir, &["Ann"]);
    click(&mut h, "Players");
    type_into(&mut h, "New player:", "Dee Fox");
    click(&mut h, "Add player");
    assert!(h.state().state.player_id("Dee Fox").is_some());
    h.get_by_role_and_label(Role::Button, "Dee Fox").click();
    h.run();
    type_into(&mut h, "Rename to:", "Dee Wolf");
    click(&mut h, "Rename");
    let s = &h.state().state;
    assert!(
        s.player_id("Dee Wolf").is_some() && s.player_id("Dee Fox").is_none(),
        "{:?}",
        s.error()
    );
}

#[test]
fn the_standings_filter_and_an_empty_ladder_explain_themselves() {
    let dir = Temp::new("standings");
    let mut h = app(&dir, &["Ann", "Bo", "Cy"]);
    assert!(h.query_by_label("Ann").is_some() && h.query_by_label("Bo").is_some());
    type_into(&mut h, "Filter:", "an");
    assert!(h.query_by_label("Ann").is_some());
    assert!(h.query_by_label("Bo").is_none(), "filtered out");
    // A row opens the player's page.
    click(&mut h, "Ann");
    let app = h.state();
    assert_eq!(
        (app.state.screen, app.screens.players.player),
        (rungs_app::command::Screen::Players, Some(0))
    );
    // A new empty ladder teaches what to do first.
    let empty = Temp::new("standings-empty");
    let state = AppState::open_or_create(empty.0.join("data"), &empty.0.join("new.rungs"));
    let mut h2 = Harness::builder()
        .with_size(egui::vec2(1280.0, 860.0))
        .build_ui_state(
            |ui, app: &mut RungsApp| app.frame(ui),
            RungsApp::with_state(state),
        );
    h2.run();
    assert!(
        h2.query_by_label_contains("This ladder has no players yet")
            .is_some()
    );
    assert!(h2.query_by_label_contains("Open the demo ladder").is_some());
}

#[test]
fn the_player_pickers_complete_on_tab() {
    let dir = Temp::new("picker");
    let mut h = app(&dir, &["Brazil", "Gibraltar", "Argentina"]);
    click(&mut h, "Enter match");
    type_into(&mut h, "Player A", "Bra");
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(h.state().screens.enter.form.a, "Brazil");
    // The next field has the keyboard: typing goes on into Player B.
    assert!(
        h.get_by_role_and_label(Role::TextInput, "Player B")
            .is_focused()
    );
    type_into(&mut h, "Player B", "arg");
    h.key_press(Key::Tab);
    h.run();
    assert_eq!(h.state().screens.enter.form.b, "Argentina");
    // Tab left the text fields: 1 picks "A wins"; Enter saves.
    h.key_press(Key::Num1);
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let app = h.state();
    assert_eq!(
        app.state.ladder.players[0].wins,
        1,
        "{:?} {:?}",
        app.state.error(),
        app.screens.enter.form
    );
}

/// On a ladder past the inline limit, a backdated edit, a delete and undo/redo recompute on
/// a job thread: the window shows the task with a Cancel button, keeps drawing, and the
/// ladder changes when the job lands. New matches at the end stay on the UI thread.
#[test]
fn recomputations_of_a_large_ladder_run_as_jobs() {
    let dir = Temp::new("jobs");
    let mut h = app(&dir, &["Ann", "Bo"]);
    h.state_mut().state.inline_limit = 0;
    enter_match(&mut h, "Ann", "Bo", "Ann wins (1)");
    assert_eq!(h.state().state.jobs_started, 0, "an append needs no job");
    assert_eq!(h.state().state.ladder.players[0].wins, 1);
    // A backdated match's exact changes would need a recomputation each: the form shows the
    // chances and says the changes come with the save.
    {
        let app = h.state_mut();
        let (enter, s) = (&mut app.screens.enter, &app.state);
        enter.form.a = "Ann".into();
        enter.form.b = "Bo".into();
        enter.form.date = "2026-01-01".into();
        let w = enter.forecast(s);
        assert!(w.deferred && w.outcomes.is_empty() && w.prediction.is_some());
        enter.form.date = "2026-01-03".into();
        let w = enter.forecast(s);
        assert!(
            !w.deferred && w.outcomes.len() == 3,
            "after the latest: exact changes"
        );
        enter.form = Default::default();
    }
    let jobs = h.state().state.jobs_started;
    click(&mut h, "edit…");
    click(&mut h, "Draw");
    h.get_by_label("Save changes (Enter)").click();
    h.step();
    assert_eq!(
        h.state().state.jobs_started,
        jobs + 1,
        "the edit runs as a job"
    );
    h.step();
    assert!(
        h.state().state.job.is_none() || h.query_by_label("Cancel task").is_some(),
        "a running job shows its Cancel button"
    );
    h.state_mut().state.wait_for_job();
    h.run();
    let ann = &h.state().state.ladder.players[0];
    assert_eq!((ann.wins, ann.draws), (0, 1), "the edit landed");
    h.key_press(Key::Escape);
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.step();
    assert_eq!(h.state().state.jobs_started, jobs + 2, "undo runs as a job");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(s.ladder.players[0].wins, 1, "the edit is undone");
    assert_eq!(
        s.notice(),
        Some("Undone: changed Ann beat Bo to Ann drew with Bo")
    );
    click(&mut h, "edit…");
    click(&mut h, "Delete match");
    h.state_mut().state.wait_for_job();
    h.run();
    assert_eq!(h.state().state.ladder.players[0].matches, 0, "deleted");
}

/// A CSV dropped on the window imports as a job (with the mapping its header suggests); a
/// `.rungs` file dropped opens.
#[test]
fn a_dropped_csv_imports_and_a_dropped_ladder_opens() {
    use rungs_app::command::Command;
    use rungs_app::dropped_file_command;
    let dir = Temp::new("drop");
    let mut h = app(&dir, &["Ann", "Bo"]);
    let csv = dir.0.join("results.csv");
    std::fs::write(
        &csv,
        "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n\
         2026-02-01,Ann,Bo,2,1,Friendly,X,Y,TRUE\n\
         2026-02-02,Cy,Ann,0,0,Friendly,X,Y,TRUE\n",
    )
    .unwrap();
    let cmd = dropped_file_command(csv.clone());
    assert!(matches!(&cmd, Command::ImportCsv(p, _) if p == &csv));
    h.state_mut().state.apply(cmd);
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(
        s.ladder.players[0].matches, 2,
        "both matches of Ann imported"
    );
    assert_eq!(s.ladder.players[2].name, "Cy", "a new player joined");
    // The same file dropped again: every match is in the ladder already, so it is refused
    // with nothing changed, and the strip offers to import it anyway (no CLI flag named).
    let before = s.ladder.clone();
    h.state_mut().state.apply(dropped_file_command(csv.clone()));
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    let error = s.error().unwrap_or_default().to_string();
    assert!(
        error.contains("holds every one of its 2 matches already") && !error.contains("--again"),
        "{error}"
    );
    assert_eq!(s.ladder, before, "nothing imported");
    click(&mut h, "Import again");
    h.state_mut().state.wait_for_job();
    h.run();
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert_eq!(
        s.ladder.players[0].matches, 4,
        "Ann's two matches imported twice"
    );
    assert!(
        s.notice()
            .unwrap_or_default()
            .contains("2 of them were in the ladder already"),
        "{:?}",
        s.notice()
    );
    let other = dir.0.join("other.rungs");
    Store::create(&other, &Rules::default()).unwrap();
    let cmd = dropped_file_command(other.clone());
    assert_eq!(cmd, Command::Open(other.clone()));
    h.state_mut().state.apply(cmd);
    assert_eq!(h.state().state.path(), Some(other.as_path()));
}

/// With the app open, another program (the CLI) saved a match; the
/// app's Undo then took back that match instead of the app's own, and Add player failed with
/// "Dee joins a second time" from then on. Now a change the app built from the ladder as it
/// showed it is refused when the file moved on meanwhile; nothing is changed, the screens
/// reload, and the same change made again lands against what is there.
#[test]
fn a_change_after_another_program_changed_the_ladder_is_refused_then_lands() {
    use rungs_app::command::Command;
    let dir = Temp::new("changed-meanwhile");
    let mut h = app(&dir, &["Ann", "Bo", "Cy"]);
    h.state_mut().state.apply(Command::AddPlayer("Dee".into()));
    assert!(h.state().state.error().is_none());
    // Another program adds Eve.
    {
        let mut other = Store::open(&dir.0.join("club.rungs")).unwrap();
        let eve = Entry::Add {
            event: Event::Player {
                id: 4,
                name: rungs_ladder::values::PlayerName::parse("Eve").unwrap(),
                undated: false,
            },
        };
        let day = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        other
            .commit(&rungs_store::Change::new("added Eve", vec![(day, eve)]).unwrap())
            .unwrap();
    }
    // The app's Undo would now take back Eve, not Dee: refused, and the screens reload.
    h.state_mut().state.apply(Command::Undo);
    let s = &h.state().state;
    let error = s.error().unwrap_or_default();
    assert!(
        error.contains("another program changed the ladder"),
        "{error}"
    );
    assert!(s.player_id("Eve").is_some(), "reloaded: Eve shows");
    assert!(s.player_id("Dee").is_some(), "Dee is still there");
    // Undo again, now against what is there: it takes back Eve, the latest change.
    h.state_mut().state.apply(Command::Undo);
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    assert!(s.player_id("Eve").is_none());
    // Another program adds Fay; the app's Add player is refused once, then lands as id 5.
    {
        let mut other = Store::open(&dir.0.join("club.rungs")).unwrap();
        other.ladder().unwrap();
        let fay = Entry::Add {
            event: Event::Player {
                id: 4,
                name: rungs_ladder::values::PlayerName::parse("Fay").unwrap(),
                undated: false,
            },
        };
        let day = NaiveDate::from_ymd_opt(2026, 1, 3).unwrap();
        other
            .commit(&rungs_store::Change::new("added Fay", vec![(day, fay)]).unwrap())
            .unwrap();
    }
    h.state_mut().state.apply(Command::AddPlayer("Gus".into()));
    assert!(
        h.state()
            .state
            .error()
            .unwrap_or_default()
            .contains("another program")
    );
    h.state_mut().state.apply(Command::AddPlayer("Gus".into()));
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let names: Vec<&str> = s.ladder.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bo", "Cy", "Dee", "Fay", "Gus"]);
}

/// With the ladder open in the app, `rungs add-match hand.rungs "Bo Chen" Di
/// 1` from a terminal went unseen — the app kept the old standings, and Undo, Undo then took
/// back the terminal's match, which the user had never been shown. The app now asks every
/// second (and when it gets the focus back) whether another program changed its file; it
/// reloads, says what arrived, and Undo says whose change it takes back.
#[test]
fn the_app_follows_its_file_and_says_what_another_program_changed() {
    use rungs_app::command::Command;
    let dir = Temp::new("follow-file");
    let mut h = app(&dir, &["Ann", "Bo Chen", "Di"]);
    h.run();
    // A terminal adds a match.
    {
        let mut other = Store::open(&dir.0.join("club.rungs")).unwrap();
        other.ladder().unwrap();
        let day = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        let game = rungs_ladder::event::Match::new(
            1,
            2,
            rungs_ladder::event::MatchResult::Played(rungs_rating::Outcome::Win),
        );
        other
            .commit(
                &rungs_store::Change::new(
                    "added Bo Chen beat Di",
                    vec![(
                        day,
                        Entry::Add {
                            event: Event::Match(game),
                        },
                    )],
                )
                .unwrap(),
            )
            .unwrap();
    }
    assert_eq!(h.state().state.ladder.players[1].wins, 0, "not yet seen");
    // Two seconds of the window's clock (each step is a quarter of a second).
    h.run_steps(8);
    let s = &h.state().state;
    assert_eq!(s.ladder.players[1].wins, 1, "the new match is on screen");
    assert_eq!(
        s.notice(),
        Some("1 change from another program: added Bo Chen beat Di")
    );
    assert!(s.error().is_none(), "{:?}", s.error());
    // The app's own change lands on top of it, with no refusal.
    h.state_mut().state.apply(Command::AddPlayer("Eve".into()));
    assert!(h.state().state.error().is_none());
    // Undo takes back the app's own change; the next Undo says the change was another's.
    h.state_mut().state.apply(Command::Undo);
    assert!(h.state().state.player_id("Eve").is_none());
    h.state_mut().state.apply(Command::Undo);
    let s = &h.state().state;
    assert_eq!(
        s.notice(),
        Some("Undone: added Bo Chen beat Di (another program's change)")
    );
    assert_eq!(s.ladder.players[1].wins, 0);
}

/// In the app, a scenario's record (the Memoir '44 ranking's Appendix I) shows under the
/// Scenario field as it is typed. Two battles: Ann's Allies beat Bo's Axis 6–3, then Ann's
/// Axis beat Bo's Allies 6–4.
/// Allies 1.0 wins, medals 6 and 4: average 5.0, sample deviation √((1² + 1²)/1) = 1.4; Axis
/// 1.0 wins, medals 3 and 6: average 4.5, deviation √((1.5² + 1.5²)/1) = 2.1; 0.5 apart.
#[test]
fn a_scenarios_record_shows_as_it_is_typed() {
    use rungs_ladder::event::{Match, MatchResult};
    use rungs_rating::Outcome;
    let dir = Temp::new("scenario-record");
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(
        &path,
        &Rules::defaults(rungs_ladder::rules::System::Memoir44),
    )
    .unwrap();
    let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
    let join = |id: u32, name: &str| Entry::Add {
        event: Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        },
    };
    let battle = |side: &str, medals: [f64; 2]| Entry::Add {
        event: Event::Match(Match {
            medals: rungs_ladder::values::Medals::new(medals).ok(),
            scenario: Some("Pegasus Bridge".into()),
            side_a: Some(side.into()),
            ..Match::new(0, 1, MatchResult::Played(Outcome::Win))
        }),
    };
    store
        .commit(
            &rungs_store::Change::new(
                "club",
                vec![
                    (day, join(0, "Ann")),
                    (day, join(1, "Bo")),
                    (day, battle("Allies", [6.0, 3.0])),
                    (day, battle("Axis", [6.0, 4.0])),
                ],
            )
            .unwrap(),
        )
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, egui::vec2(1280.0, 860.0));
    click(&mut h, "Enter match");
    type_into(&mut h, "Scenario", "Pegasus Bridge");
    h.run();
    assert!(
        h.query_by_label_contains(
            "Pegasus Bridge: 2 battles; Allies 1.0 wins, average 5.0 ± 1.4; Axis 1.0 wins, \
             average 4.5 ± 2.1; averages 0.5 apart"
        )
        .is_some(),
        "the record shows under the field"
    );
}

/// The edit window of a match another program then deleted stayed open, and
/// Save said "no event 11 (see `rungs events`)". Once the app reads the change (within a
/// second), the window closes and the message says what arrived.
#[test]
fn an_edit_window_closes_when_another_program_deletes_its_match() {
    let dir = Temp::new("edit-deleted");
    let mut h = app(&dir, &["Ann", "Bo"]);
    enter_match(&mut h, "Ann", "Bo", "Ann wins (1)");
    assert!(h.state().state.error().is_none());
    click(&mut h, "edit…");
    assert!(
        h.state().screens.enter.edit.is_some(),
        "the edit window is open"
    );
    let seq = h.state().screens.enter.edit.as_ref().unwrap().original.seq;
    {
        let mut other = Store::open(&dir.0.join("club.rungs")).unwrap();
        other.ladder().unwrap();
        let day = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
        other
            .commit(
                &rungs_store::Change::new(
                    "deleted Ann beat Bo",
                    vec![(day, Entry::Delete { target: seq })],
                )
                .unwrap(),
            )
            .unwrap();
    }
    h.run_steps(8);
    assert!(h.state().screens.enter.edit.is_none(), "the window closed");
    assert_eq!(
        h.state().state.notice(),
        Some("1 change from another program: deleted Ann beat Bo")
    );
    assert_eq!(h.state().state.ladder.players[0].wins, 0);
}

/// Escape did not clear the Enter match form. It clears it now, the date
/// kept; the field gives the keyboard up as before, so Ctrl+Z then undoes the ladder.
#[test]
fn escape_clears_the_match_form() {
    let dir = Temp::new("escape");
    let mut h = app(&dir, &["Ann", "Bo"]);
    click(&mut h, "Enter match");
    type_into(&mut h, "Date", "2026-01-02");
    type_into(&mut h, "Player A", "Ann");
    type_into(&mut h, "Player B", "B");
    h.key_press(Key::Escape);
    h.run();
    let form = &h.state().screens.enter.form;
    assert_eq!((form.a.as_str(), form.b.as_str()), ("", ""));
    assert_eq!(form.date, "2026-01-02", "the date is kept");
    // Out of the field, Ctrl+Z acts on the ladder: the players added before are taken back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().state.player_id("Ann").is_none(), "Ctrl+Z undid");
}

/// "Add players" on a new ladder did not put the keyboard in the name
/// field. Arriving at the players' list now does: type, Enter, type, Enter.
#[test]
fn add_players_puts_the_keyboard_in_the_name_field() {
    let dir = Temp::new("add-players");
    let path = dir.0.join("club.rungs");
    Store::create(&path, &Rules::default()).unwrap();
    let mut h = app_support::open(&path, egui::vec2(1280.0, 860.0));
    click(&mut h, "Add players");
    for name in ["Ann", "Bo"] {
        h.input_mut().events.push(egui::Event::Text(name.into()));
        h.run();
        h.key_press(Key::Enter);
        h.run();
    }
    let s = &h.state().state;
    assert!(s.error().is_none(), "{:?}", s.error());
    let names: Vec<&str> = s.ladder.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Ann", "Bo"]);
}
