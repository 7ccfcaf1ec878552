//! Tonight for a Swiss event, by mouse and keyboard: Next round pairs and saves the event's
//! round by FIDE's Dutch System; a half-point bye and a withdrawal are ticks; the event's
//! standings and crosstable show under the boards. The ladder afterwards holds the rounds,
//! their results and what was ticked.

use eframe::egui::{self, Key, accesskit::Role};
use egui_kittest::kittest::Queryable;
use rungs_gate::rounds::book;
use rungs_ladder::event::{Format, MatchResult, RequestedBye};
use rungs_rating::Outcome;
use rungs_store::Store;

use crate::app_tonight::{club, key, tick};
use crate::support::TempDir as Temp;
use crate::support::app as app_support;

/// The club (see `club`): Ann and Bo 1516, Ed 1500, Cy and Di 1484; Ann and Bo never
/// paired. Round 1 of Ann, Bo, Cy, Di: pairing numbers by rating then name (Ann 1, Bo 2,
/// Cy 3, Di 4), top half against bottom half, white to 1 and alternating: Ann (w) – Cy,
/// Di (w) – Bo. Results by keyboard: 1 on board 1 (Ann wins), ↓ D on board 2.
/// Round 2: Cy asks for a half-point bye, Di withdraws, Ed enters late. Ann 1, Bo ½, Ed 0
/// are paired; Ann–Bo is forbidden, so the bye cannot go to Ed (it would leave Ann and Bo
/// together): it goes to the lower of Ann and Bo, Bo; Ann (white last) has black against
/// Ed: Ed (w) – Ann.
#[test]
fn next_round_with_ticks_pairs_and_saves_the_swiss_event() {
    let dir = Temp::new("tonight-swiss");
    let mut h = club(&dir, egui::vec2(1400.0, 900.0));
    h.get_by_role_and_label(Role::ComboBox, "Format").click();
    h.run();
    app_support::click(&mut h, "swiss");
    h.run();
    for n in ["Ann", "Bo", "Cy", "Di"] {
        tick(&mut h, n);
    }
    app_support::click(&mut h, "Next round");
    h.run();
    key(&mut h, Key::Num1);
    let _ = h.try_run();
    key(&mut h, Key::ArrowDown);
    key(&mut h, Key::D);
    let _ = h.try_run();
    h.run();
    // The event's crosstable under the boards: after round 1 Ann has 1, Bo and Di ½, Cy 0
    // (4th): Ann's round is "4w1", Cy's "1b0".
    assert!(
        h.query_by_label("Swiss event of round 1 · after 1 round")
            .is_some()
    );
    assert!(h.query_by_label("BH-C1").is_some());
    assert!(h.query_by_label("4w1").is_some());
    assert!(h.query_by_label("1b0").is_some());

    // Round 2's ticks, each found by narrowing the list to the player.
    app_support::type_into(&mut h, "Search", "Cy");
    h.get_by_role_and_label(Role::CheckBox, "½ bye").click();
    h.run();
    app_support::type_into(&mut h, "Search", "Di");
    h.get_by_role_and_label(Role::CheckBox, "withdraws").click();
    h.run();
    app_support::type_into(&mut h, "Search", "Ed");
    tick(&mut h, "Ed");
    app_support::click(&mut h, "Next round");
    h.run();

    let store = Store::open(&dir.0.join("club.rungs")).unwrap();
    let book = book(&store).unwrap();
    let first = &book.rounds[&1];
    assert_eq!(first.round.format, Format::Swiss);
    assert_eq!(first.round.boards, [[0, 2], [3, 1]]);
    let results: Vec<_> = first.results.iter().map(|r| r.map(|r| r.result)).collect();
    assert_eq!(
        results,
        [
            Some(MatchResult::Played(Outcome::Win)),
            Some(MatchResult::Played(Outcome::Draw))
        ]
    );
    let second = &book.rounds[&2];
    assert_eq!(second.round.event, Some(1));
    assert_eq!(second.round.boards, [[4, 0]]);
    assert_eq!(second.round.bye, Some(1));
    assert_eq!(
        second.round.swiss.requested,
        [RequestedBye {
            player: 2,
            halves: 1
        }]
    );
    assert_eq!(second.round.swiss.withdrawn, [3]);
    assert_eq!(
        second
            .round
            .swiss
            .entries
            .iter()
            .map(|e| e.player)
            .collect::<Vec<_>>(),
        [4]
    );
}
