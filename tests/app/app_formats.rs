//! The club formats' screens walked by keyboard: a challenge made and won on Challenges (the
//! positions after it, and refusals in the app's words), a box result entered and the period
//! closed on Boxes (the tables and the next period's boxes after it).

use chrono::{Datelike, NaiveDate};
use eframe::egui::{self, Key};
use egui_kittest::kittest::Queryable;
use rungs_gate::formats::{Formats, formats};
use rungs_gate::{Action, Context};
use rungs_ladder::formats::settings::{BoxSettings, ChallengeSettings};
use rungs_ladder::rules::Rules;
use rungs_store::Store;
use std::path::Path;

use crate::support;
use crate::support::app as app_support;
use app_support::{click, type_into};
use support::TempDir as Temp;

const WIDE: egui::Vec2 = egui::vec2(1400.0, 900.0);

fn today() -> NaiveDate {
    rungs_gate::today()
}

/// A ladder of these players (ids from 0 in this order), added today.
fn club(path: &Path, names: &[&str]) -> Store {
    let mut store = Store::create(path, &Rules::default()).unwrap();
    let ladder = store.ladder().unwrap();
    let mut ctx = Context::new(&ladder, path.display().to_string(), today());
    let act = Action::add_players(&mut ctx, names, None).unwrap();
    rungs_gate::apply(&mut store, &act).unwrap();
    store
}

/// Applies what `make` builds against the ladder and formats as they stand today.
fn through_gate(store: &mut Store, path: &Path, make: impl Fn(&Context<'_>, &Formats) -> Action) {
    let ladder = store.ladder().unwrap();
    let ctx = Context::new(&ladder, path.display().to_string(), today());
    let f = formats(store, today()).unwrap();
    let act = make(&ctx, &f);
    rungs_gate::apply(store, &act).unwrap();
}

fn read(path: &Path) -> Formats {
    formats(&Store::open(path).unwrap(), today()).unwrap()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The error the window shows, checked to be in the app's words (no command line, no field
/// names in code form).
fn app_error(h: &egui_kittest::Harness<'_, rungs_app::RungsApp>) -> String {
    let e = h.state().state.error().map(str::to_string);
    let e = e.expect("an error is shown");
    assert!(!e.contains("rungs "), "no command line in the app: {e}");
    assert!(!e.contains("field `"), "no field names in code form: {e}");
    e
}

/// Ann, Bo, Cy, Di and Ed hold places 1 to 5 (reach 3). Di (4) challenges Bo (2) and wins
/// 3-1: leapfrog puts Di at 2, and Bo and Cy, who were between, each move down one: Ann, Di,
/// Bo, Cy, Ed. On the way: Ed (5) to Ann (1) is 4 places up, beyond reach 3; Di cannot make
/// a second challenge while one is open; and once it is played, Bo, challenged today, cannot
/// be challenged again until today + 7 days (the defender's cooldown), which is said.
#[test]
fn a_challenge_made_and_won_by_keyboard_moves_the_positions() {
    let dir = Temp::new("challenges");
    let path = dir.0.join("club.rungs");
    let players = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek", "Ed Fox"];
    let mut store = club(&path, &players);
    through_gate(&mut store, &path, |ctx, f| {
        Action::challenge_ladder(
            ctx,
            f,
            ChallengeSettings::default(),
            &names(&players),
            today(),
        )
        .unwrap()
    });
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Challenge ladder");
    h.run();
    assert!(
        h.query_by_label_contains("Challenge ladder · 5 players")
            .is_some()
    );
    click(&mut h, "Challenge…");
    // Beyond reach, refused with both places named.
    type_into(&mut h, "Challenger", "Ed Fox");
    type_into(&mut h, "Defender", "Ann Lee");
    h.key_press(Key::Enter);
    h.run();
    let e = app_error(&h);
    assert!(
        e.contains(
            "Ed Fox (place 5) may challenge at most 3 places up, to place 2; Ann Lee is at place 1"
        ),
        "{e}"
    );
    assert_eq!(read(&path).challenge.open_challenges(today()).len(), 0);
    // Di (4) challenges Bo (2): two places up, within reach.
    type_into(&mut h, "Challenger", "Di Ek");
    type_into(&mut h, "Defender", "Bo Chen");
    h.key_press(Key::Enter);
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let open = read(&path).challenge.open_challenges(today());
    assert_eq!(open.len(), 1);
    assert_eq!((open[0].challenger, open[0].defender), (3, 1));
    assert!(
        h.query_by_label_contains("Di Ek (4) challenges Bo Chen (2)")
            .is_some()
    );
    assert!(h.query_by_label("7 days left").is_some());
    assert!(h.query_by_label("← Di Ek, 7 days left").is_some());
    // A second challenge while one is open is refused.
    click(&mut h, "Challenge…");
    type_into(&mut h, "Challenger", "Di Ek");
    type_into(&mut h, "Defender", "Ann Lee");
    h.key_press(Key::Enter);
    h.run();
    let e = app_error(&h);
    assert!(
        e.contains("Di Ek already has challenge 1 open against Bo Chen"),
        "{e}"
    );
    // The result, by its score alone: 3-1 to Di.
    click(&mut h, "Enter result");
    type_into(&mut h, "Score (optional):", "3-1");
    h.key_press(Key::Enter);
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let f = read(&path);
    // Ann 0, Di 3, Bo 1, Cy 2, Ed 4.
    assert_eq!(f.challenge.order(), &[0, 3, 1, 2, 4]);
    assert!(f.challenge.open_challenges(today()).is_empty());
    // Cy (4) may reach Bo (3), but Bo defended today: not again for defend_days (7).
    click(&mut h, "Challenge…");
    type_into(&mut h, "Challenger", "Cy Diaz");
    type_into(&mut h, "Defender", "Bo Chen");
    h.key_press(Key::Enter);
    h.run();
    let e = app_error(&h);
    let from = today() + chrono::Days::new(7);
    assert!(
        e.contains(&format!(
            "Bo Chen was challenged on {} and may be challenged again from {from}",
            today()
        )),
        "{e}"
    );
    assert_eq!(
        read(&path).challenge.order(),
        &[0, 3, 1, 2, 4],
        "nothing changed"
    );
}

/// Ten players in two boxes of five (Ann…Ed in box 1, Fi…Jo in box 2), scored by games
/// (Highfield: 3-1 is 6 points to 2). Ann beats Bo 3-1: Ann tops box 1 with 6, Bo second with
/// 2, the rest 0 in join order. Closing the period: box 1's bottom two (Di, Ed) go down and
/// box 2's top two (Fi, Gus, tied at 0 and in join order) go up:
/// box 1 Ann, Bo, Cy, Fi, Gus; box 2 Di, Ed, Hal, Ivy, Jo — previewed, then applied.
#[test]
fn a_box_result_and_a_closed_period_by_keyboard() {
    let dir = Temp::new("boxes");
    let path = dir.0.join("club.rungs");
    let players = [
        "Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek", "Ed Fox", "Fi Gale", "Gus Hart", "Hal Ito",
        "Ivy Jin", "Jo Kay",
    ];
    let mut store = club(&path, &players);
    let start = today().with_day(1).unwrap();
    let end = start
        .checked_add_months(chrono::Months::new(1))
        .unwrap()
        .pred_opt()
        .unwrap();
    through_gate(&mut store, &path, |ctx, f| {
        Action::start_boxes(ctx, f, BoxSettings::default(), &names(&players), start, end).unwrap()
    });
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Box league");
    h.run();
    assert!(h.query_by_label_contains("Box league · period 1").is_some());
    // Every tie-break has its column, headed in words.
    for column in [
        "Points",
        "Head to head",
        "Matches won",
        "Games lost",
        "Rating",
    ] {
        assert_eq!(
            h.query_all_by_label(column).count(),
            2,
            "{column} in both boxes"
        );
    }
    click(&mut h, "Ann Lee – Bo Chen");
    type_into(&mut h, "Score:", "3-1");
    h.key_press(Key::Enter);
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let f = read(&path);
    let ladder = Store::open(&path).unwrap().ladder().unwrap();
    let tables = f
        .boxes
        .tables(&|id| rungs_gate::formats::rating(&ladder, id));
    let top: Vec<(u32, u32, u32, u32)> = tables[0]
        .rows
        .iter()
        .map(|r| {
            (
                r.player,
                r.tally.points,
                r.tally.games_won,
                r.tally.games_lost,
            )
        })
        .collect();
    assert_eq!(
        top,
        [
            (0, 6, 3, 1),
            (1, 2, 1, 3),
            (2, 0, 0, 0),
            (3, 0, 0, 0),
            (4, 0, 0, 0)
        ]
    );
    assert!(
        h.query_by_label("Ann Lee – Bo Chen").is_none(),
        "their match is no longer to play"
    );
    click(&mut h, "Close the period…");
    h.run();
    assert!(h.query_by_label_contains("Preview — period 2").is_some());
    assert!(h.query_by_label("Fi Gale ▲ from box 2").is_some());
    assert!(h.query_by_label("Di Ek ▼ from box 1").is_some());
    assert_eq!(read(&path).boxes.periods.len(), 1, "nothing changed yet");
    click(&mut h, "Apply");
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let f = read(&path);
    let next = &f.boxes.current().unwrap().record;
    assert_eq!(next.number, 2);
    assert_eq!(next.boxes, vec![vec![0, 1, 2, 5, 6], vec![3, 4, 7, 8, 9]]);
    assert!(h.query_by_label_contains("Box league · period 2").is_some());
    // One undoable step.
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        read(&path).boxes.periods.len(),
        1,
        "undo takes the period back"
    );
}

/// A box result between players of different boxes is refused in the app's words.
#[test]
fn a_box_result_across_boxes_is_refused_in_the_apps_words() {
    let dir = Temp::new("boxes-refused");
    let path = dir.0.join("club.rungs");
    let players = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek"];
    let mut store = club(&path, &players);
    let start = today().with_day(1).unwrap();
    let end = start
        .checked_add_months(chrono::Months::new(1))
        .unwrap()
        .pred_opt()
        .unwrap();
    let settings = BoxSettings {
        box_size: 2,
        up: 1,
        down: 1,
        ..BoxSettings::default()
    };
    through_gate(&mut store, &path, |ctx, f| {
        Action::start_boxes(ctx, f, settings.clone(), &names(&players), start, end).unwrap()
    });
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    h.state_mut()
        .state
        .apply(rungs_app::command::Command::Format(
            rungs_app::command::FormatCommand::BoxResult {
                a: "Ann Lee".into(),
                b: "Cy Diaz".into(),
                result: String::new(),
                games: "3-0".into(),
            },
        ));
    let e = app_error(&h);
    assert!(
        e.contains(
            "Ann Lee is in box 1 and Cy Diaz in box 2: a box match is between players of one box"
        ),
        "{e}"
    );
    let f = read(&path);
    assert!(
        f.boxes.current().unwrap().results.is_empty(),
        "nothing saved"
    );
}

/// Names that are not players are refused naming the field by its label, a challenge result
/// for a challenge already closed says when it closed, and neither changes the file.
#[test]
fn unknown_names_and_a_closed_challenge_are_refused_in_the_apps_words() {
    use rungs_app::command::{Command, FormatCommand};
    let dir = Temp::new("challenges-refused");
    let path = dir.0.join("club.rungs");
    let players = ["Ann Lee", "Bo Chen"];
    let mut store = club(&path, &players);
    through_gate(&mut store, &path, |ctx, f| {
        Action::challenge_ladder(
            ctx,
            f,
            ChallengeSettings::default(),
            &names(&players),
            today(),
        )
        .unwrap()
    });
    through_gate(&mut store, &path, |ctx, f| {
        Action::challenge(ctx, f, "Bo Chen", "Ann Lee", today()).unwrap()
    });
    through_gate(&mut store, &path, |ctx, f| {
        Action::challenge_result(ctx, f, 1, Some("0"), None, today()).unwrap()
    });
    drop(store);
    let before = std::fs::read(&path).unwrap();
    let mut h = app_support::open(&path, WIDE);
    h.state_mut().state.screen = rungs_app::command::Screen::Challenges;
    h.state_mut()
        .state
        .apply(Command::Format(FormatCommand::Challenge {
            challenger: "Zed\u{202e}".into(),
            defender: "Ann Lee".into(),
        }));
    let e = app_error(&h);
    assert!(e.contains("Challenger"), "{e}");
    assert!(
        !e.contains('\u{202e}'),
        "the bidi control is not shown raw: {e}"
    );
    h.state_mut()
        .state
        .apply(Command::Format(FormatCommand::ChallengeResult {
            number: 1,
            result: "1".into(),
            games: String::new(),
        }));
    let e = app_error(&h);
    assert!(
        e.contains(&format!(
            "challenge 1 (Bo Chen v Ann Lee) closed on {}",
            today()
        )),
        "{e}"
    );
    drop(h);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the file is unchanged"
    );
}

/// Opening "Challenge…" puts the keyboard in the challenger's name, so a person types without
/// the mouse: `Di` Tab (completes Di Ek and goes on to the defender) `Bo` Tab (completes Bo
/// Chen) Enter. Di (4) to Bo (2) is within reach 3, so the challenge is open afterwards.
#[test]
fn a_challenge_is_typed_without_the_mouse_once_the_form_opens() {
    let dir = Temp::new("challenge-keys");
    let path = dir.0.join("club.rungs");
    let players = ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek", "Ed Fox"];
    let mut store = club(&path, &players);
    through_gate(&mut store, &path, |ctx, f| {
        Action::challenge_ladder(
            ctx,
            f,
            ChallengeSettings::default(),
            &names(&players),
            today(),
        )
        .unwrap()
    });
    drop(store);
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Challenge ladder");
    click(&mut h, "Challenge…");
    h.run();
    let text = |h: &mut egui_kittest::Harness<'_, rungs_app::RungsApp>, t: &str| {
        h.input_mut().events.push(egui::Event::Text(t.into()));
        h.run();
    };
    text(&mut h, "Di");
    h.key_press(Key::Tab);
    h.run();
    text(&mut h, "Bo");
    h.key_press(Key::Tab);
    h.run();
    h.key_press(Key::Enter);
    let _ = h.try_run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let open = read(&path).challenge.open_challenges(today());
    assert_eq!(open.len(), 1);
    assert_eq!((open[0].challenger, open[0].defender), (3, 1));
}

/// On a ladder whose calendar runs four-week seasons, Boxes offers to make each period a
/// season (the command line's `start-boxes --seasons`): ticked, the first period is the
/// season holding today, and the league is recorded as following the seasons. Unticked, it
/// is this calendar month, as on a ladder with no calendar, where the choice is not offered.
#[test]
fn a_box_league_started_in_the_app_can_follow_the_seasons() {
    use rungs_ladder::calendar::{Calendar, HardResets, Schedule};
    let anchor = NaiveDate::from_ymd_opt(2026, 1, 5).unwrap();
    let calendar = Calendar::Scheduled(Schedule {
        soft_days: 7,
        anchor,
        hard: HardResets::Every(4),
    });
    let players = [
        "Ann Lee", "Bo Chen", "Cy Diaz", "Di Ek", "Ed Fox", "Fi Gale",
    ];
    let seasonal = |tag: &str| {
        let dir = Temp::new(tag);
        let path = dir.0.join("club.rungs");
        let rules = Rules {
            calendar,
            ..Rules::default()
        };
        let mut store = Store::create(&path, &rules).unwrap();
        let ladder = store.ladder().unwrap();
        let mut ctx = Context::new(&ladder, path.display().to_string(), today());
        let act = Action::add_players(&mut ctx, &players, None).unwrap();
        rungs_gate::apply(&mut store, &act).unwrap();
        (dir, path)
    };
    // Seasons of 28 days from Monday 5 January 2026: the one holding today starts 28·k days
    // after it, k the whole number of 28-day spans from the anchor to today.
    let spans = (today() - anchor).num_days().div_euclid(28);
    let first = anchor + chrono::Days::new(28 * spans as u64);
    let last = first + chrono::Days::new(27);

    let (_dir, path) = seasonal("boxes-seasons");
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Box league");
    h.run();
    click(
        &mut h,
        "Each period is one of the ladder's seasons (the next opens when one closes)",
    );
    click(&mut h, "Start the box league");
    h.run();
    assert!(
        h.state().state.error().is_none(),
        "{:?}",
        h.state().state.error()
    );
    let f = read(&path);
    let period = f.boxes.current().expect("a period");
    assert_eq!((period.record.start, period.record.end), (first, last));
    assert!(period.record.settings.seasons);
    drop(h);

    // Unticked: this calendar month, not following the seasons.
    let (_dir, path) = seasonal("boxes-month");
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Box league");
    click(&mut h, "Start the box league");
    h.run();
    let f = read(&path);
    let period = f.boxes.current().expect("a period");
    let month = today().with_day(1).unwrap();
    assert_eq!(period.record.start, month);
    assert!(!period.record.settings.seasons);
    drop(h);

    // No calendar: no such choice.
    let dir = Temp::new("boxes-manual");
    let path = dir.0.join("club.rungs");
    drop(club(&path, &players));
    let mut h = app_support::open(&path, WIDE);
    click(&mut h, "Ladder");
    click(&mut h, "Box league");
    h.run();
    assert!(
        h.query_by_label_contains("one of the ladder's seasons")
            .is_none()
    );
}
