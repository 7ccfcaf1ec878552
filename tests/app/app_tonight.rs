//! The Tonight screen by keyboard and mouse as an organiser uses it: tick who is
//! present, Pair, ↓ to a board, 1 / D / 2 for its result; the ladder afterwards holds the
//! round and the results linked to its boards, dated the round's date.

use chrono::NaiveDate;
use eframe::egui::{self, Key, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rungs_app::RungsApp;
use rungs_app::command::{Command, Screen};
use rungs_gate::rounds::book;
use rungs_ladder::event::{Entry, Event, Format, Match, MatchResult, PairRule};
use rungs_ladder::rules::{Rules, System};
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use support::TempDir as Temp;

const NAMES: [&str; 5] = ["Ann", "Bo", "Cy", "Di", "Ed"];

/// An Elo ladder: five players joined on 2000-01-01; Ann beat Cy and Bo beat Di on
/// 2000-01-08 (Ann, Bo 1516; Cy, Di 1484; Ed 1500); Ann and Bo are never paired.
pub(crate) fn club(dir: &Temp, size: egui::Vec2) -> Harness<'static, RungsApp> {
    let path = dir.0.join("club.rungs");
    let mut store = Store::create(&path, &Rules::defaults(System::Elo)).unwrap();
    let d = |m, day| NaiveDate::from_ymd_opt(2000, m, day).unwrap();
    let joins: Vec<(NaiveDate, Entry)> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let event = Event::Player {
                id: i as u32,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            };
            (d(1, 1), Entry::Add { event })
        })
        .collect();
    store
        .commit(&rungs_store::Change::new("players", joins.to_vec()).unwrap())
        .unwrap();
    let win = MatchResult::Played(Outcome::Win);
    let rows = [
        (
            d(1, 8),
            Entry::Add {
                event: Event::Match(Match::new(0, 2, win)),
            },
        ),
        (
            d(1, 8),
            Entry::Add {
                event: Event::Match(Match::new(1, 3, win)),
            },
        ),
        (
            d(1, 8),
            Entry::Add {
                event: Event::PairRule {
                    a: 0,
                    b: 1,
                    rule: PairRule::Forbid,
                },
            },
        ),
    ];
    store
        .commit(&rungs_store::Change::new("results", rows.to_vec()).unwrap())
        .unwrap();
    drop(store);
    let mut h = app_support::open(&path, size);
    h.state_mut().state.apply(Command::Show(Screen::Tonight));
    h.run();
    h
}

pub(crate) fn tick(h: &mut Harness<'_, RungsApp>, name: &str) {
    h.get_by_role_and_label(Role::CheckBox, name).click();
    h.run();
}

pub(crate) fn key(h: &mut Harness<'_, RungsApp>, k: Key) {
    h.key_press(k);
    h.run();
}

#[test]
fn tick_pair_and_results_by_keyboard_land_in_the_ladder() {
    let dir = Temp::new("tonight-keys");
    let mut h = club(&dir, egui::vec2(1400.0, 900.0));
    for n in ["Ann", "Bo", "Cy"] {
        tick(&mut h, n);
    }
    // The search narrows the list: "i" leaves Di alone.
    app_support::type_into(&mut h, "Search", "i");
    assert!(h.query_by_label("Ann").is_none());
    tick(&mut h, "Di");
    app_support::type_into(&mut h, "Search", "");
    app_support::click(&mut h, "Pair");
    h.run();
    // Board 1, then ↓ to board 2: 1 (side A wins), ↑ to board 1: D.
    key(&mut h, Key::ArrowDown);
    key(&mut h, Key::Num1);
    let _ = h.try_run();
    key(&mut h, Key::ArrowUp);
    key(&mut h, Key::D);
    let _ = h.try_run();

    let store = Store::open(&dir.0.join("club.rungs")).unwrap();
    let book = book(&store).unwrap();
    let round = &book.rounds[&1];
    assert_eq!(round.round.format, Format::Balanced);
    assert_eq!(round.date, rungs_gate::today());
    assert_eq!(round.round.boards.len(), 2);
    assert_eq!(round.round.bye, None);
    // Ann and Bo are forbidden; Ann–Cy and Bo–Di were last week's games (a rematch costs
    // 0.5 · 2^(−1) = 0.25 each): Ann–Di with Bo–Cy is the pairing.
    let mut pairs: Vec<[&str; 2]> = round
        .round
        .boards
        .iter()
        .map(|[a, b]| {
            let mut p = [NAMES[*a as usize], NAMES[*b as usize]];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, [["Ann", "Di"], ["Bo", "Cy"]]);
    let results: Vec<Option<MatchResult>> =
        round.results.iter().map(|r| r.map(|r| r.result)).collect();
    assert_eq!(
        results,
        [
            Some(MatchResult::Played(Outcome::Draw)),
            Some(MatchResult::Played(Outcome::Win))
        ]
    );
    assert!(round.results.iter().all(|r| r.unwrap().date == round.date));
    // Side A of board 2 won: Elo K = 32 moves it by 32 · (1 − E).
    let ladder = store.ladder().unwrap();
    let start = |id: u32| [1516.0, 1516.0, 1484.0, 1484.0, 1500.0][id as usize];
    let e = |a: u32, b: u32| 1.0 / (1.0 + 10f64.powf((start(b) - start(a)) / 400.0));
    let rating = |id: u32| ladder.player(id).unwrap().figures().rating;
    let [a, b] = round.round.boards[1];
    let won = 32.0 * (1.0 - e(a, b));
    assert!((rating(a) - (start(a) + won)).abs() < 1e-9, "{}", rating(a));
    assert!((rating(b) - (start(b) - won)).abs() < 1e-9, "{}", rating(b));
    let [c, d] = round.round.boards[0];
    let drawn = 32.0 * (0.5 - e(c, d));
    assert!(
        (rating(c) - (start(c) + drawn)).abs() < 1e-9,
        "{}",
        rating(c)
    );
    assert!(
        (rating(d) - (start(d) - drawn)).abs() < 1e-9,
        "{}",
        rating(d)
    );
    // The message strip says what the last key saved.
    assert!(h.query_by_label_contains("Saved:").is_some());
}

/// The night's date is typed as Enter match's is: the round and its results are dated it,
/// and a date after today is refused with nothing saved.
#[test]
fn the_date_field_dates_the_round_and_its_results() {
    let dir = Temp::new("tonight-date");
    let mut h = club(&dir, egui::vec2(1400.0, 900.0));
    for n in ["Ann", "Bo", "Cy", "Di"] {
        tick(&mut h, n);
    }
    let tomorrow = rungs_gate::today().succ_opt().unwrap();
    app_support::type_into(&mut h, "Date", &tomorrow.to_string());
    app_support::click(&mut h, "Pair");
    h.run();
    assert!(
        h.query_by_label_contains("is in the future").is_some(),
        "a date after today is refused"
    );
    assert!(h.query_by_label_contains("Board 1").is_none());
    app_support::type_into(&mut h, "Date", "2000-02-30");
    app_support::click(&mut h, "Pair");
    h.run();
    assert!(h.query_by_label_contains("2000-02-30").is_some());
    assert!(h.query_by_label_contains("Board 1").is_none());

    app_support::type_into(&mut h, "Date", "2000-01-15");
    app_support::click(&mut h, "Pair");
    h.run();
    key(&mut h, Key::Num1);
    let _ = h.try_run();
    key(&mut h, Key::ArrowDown);
    key(&mut h, Key::Num2);
    let _ = h.try_run();

    let store = Store::open(&dir.0.join("club.rungs")).unwrap();
    let book = book(&store).unwrap();
    assert_eq!(book.rounds.len(), 1);
    let round = &book.rounds[&1];
    let night = NaiveDate::from_ymd_opt(2000, 1, 15).unwrap();
    assert_eq!(round.date, night);
    let dates: Vec<Option<NaiveDate>> = round.results.iter().map(|r| r.map(|r| r.date)).collect();
    assert_eq!(dates, [Some(night), Some(night)]);
}

/// Whether the box "a bye scores a win" is ticked.
fn bye_box(h: &Harness<'_, RungsApp>) -> Option<egui::accesskit::Toggled> {
    h.get_by_role_and_label(Role::CheckBox, "a bye scores a win")
        .accesskit_node()
        .toggled()
}

/// As `rungs pair --save` does, a Swiss round's bye scores a win unless the organiser says
/// otherwise; a balanced night's bye scores nothing.
#[test]
fn a_swiss_bye_scores_a_win_by_default_as_on_the_command_line() {
    use egui::accesskit::Toggled;
    use rungs_ladder::event::ByeScore;
    let dir = Temp::new("tonight-bye");
    let mut h = club(&dir, egui::vec2(1400.0, 900.0));
    for n in NAMES {
        tick(&mut h, n);
    }
    assert_eq!(bye_box(&h), Some(Toggled::False), "balanced: nothing");
    h.get_by_role_and_label(Role::ComboBox, "Format").click();
    h.run();
    app_support::click(&mut h, "swiss");
    h.run();
    assert_eq!(bye_box(&h), Some(Toggled::True), "swiss: a win");
    app_support::click(&mut h, "Pair");
    h.run();
    app_support::click(&mut h, "Save round");
    h.run();

    let store = Store::open(&dir.0.join("club.rungs")).unwrap();
    let book = book(&store).unwrap();
    let round = &book.rounds[&1];
    assert_eq!(round.round.format, Format::Swiss);
    // Five present: two boards and a bye, which scores the event 1 point.
    assert!(round.round.bye.is_some());
    assert_eq!(round.round.bye_scores, ByeScore::Win);
    assert_eq!(
        round.round.bye_scores,
        rungs_pairing::night::default_bye(Format::Swiss)
    );
}

/// Re-pair all that found the very boards it had said nothing, as if the button had not been
/// heard: it says it found the same boards.
#[test]
fn re_pairing_to_the_same_boards_says_so() {
    let dir = Temp::new("tonight-same");
    let mut h = club(&dir, egui::vec2(1400.0, 900.0));
    for n in ["Ann", "Bo", "Cy", "Di"] {
        tick(&mut h, n);
    }
    app_support::click(&mut h, "Pair");
    h.run();
    let boards = h.state().screens.tonight.draft.clone().expect("paired");
    assert!(
        h.query_by_label_contains("found the same boards").is_none(),
        "a first pairing finds nothing to compare"
    );
    app_support::click(&mut h, "Re-pair all");
    h.run();
    let again = h
        .state()
        .screens
        .tonight
        .draft
        .clone()
        .expect("paired again");
    assert_eq!(
        again.boards.iter().map(|b| b.players).collect::<Vec<_>>(),
        boards.boards.iter().map(|b| b.players).collect::<Vec<_>>(),
        "the closest games are the same ones"
    );
    assert!(
        h.query_by_label_contains("Re-pairing found the same boards")
            .is_some()
    );
}
