//! Skyweaver's newcomers: under `entry` and `entry_offset` a newcomer meeting a rated
//! player starts at 1500 + entry·(that rating − 1500) + entry_offset, in the prediction and
//! the update alike, and its Rank Points count only the match's change, not the start.

use chrono::NaiveDate;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::predict::predict_match;
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::Skill;
use rungs_rating::{Outcome, glicko};

fn join(id: PlayerId) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(["Ann", "Bob", "Cid"][id as usize]).unwrap(),
        undated: false,
    }
}

fn beat(a: PlayerId, b: PlayerId) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(Outcome::Win)))
}

fn replay(rules: &Rules, events: &[Event]) -> Ladder {
    let day = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    replay_state(
        rules,
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (day, i as u64 + 1, e)),
    )
    .unwrap()
}

fn glicko_of(l: &Ladder, id: PlayerId) -> glicko::Rating {
    match l.players[id as usize].skill {
        Skill::Glicko(r) => r,
        other => panic!("not Glicko-1: {other:?}"),
    }
}

/// By hand, entry 0.5 and offset −200: a newcomer (1500, RD 350) meeting a rated player at
/// 1700 enters at 1500 + 0.5·200 − 200 = 1400; a rated player, and a newcomer meeting another
/// newcomer, stay as they are; the defaults (0 and 0) leave every newcomer at 1500.
#[test]
fn a_newcomer_enters_beside_its_first_rated_opponent() {
    let cfg = glicko::Config {
        entry: 0.5,
        entry_offset: -200.0,
        ..glicko::Config::default()
    };
    let new = glicko::Rating::new(&cfg);
    let rated = glicko::Rating {
        rating: 1700.0,
        deviation: 80.0,
    };
    assert_eq!(
        glicko::entered(&new, &rated, &cfg),
        glicko::Rating {
            rating: 1400.0,
            deviation: 350.0
        }
    );
    assert_eq!(glicko::entered(&rated, &new, &cfg), rated);
    assert_eq!(glicko::entered(&new, &new, &cfg), new);
    assert_eq!(
        glicko::entered(&new, &rated, &glicko::Config::default()),
        new
    );
}

/// Through a ladder, entry 0.5 and offset −200. Ann beats Bob, both new (no entry):
///   g(350) = 1/√(1 + 3q²·350²/π²) = 0.66245, E = 0.5, d⁻² = q²g²·0.25,
///   r' = 1500 + q/(1/350² + d⁻²)·g·0.5 = 1662.2120, RD' = 290.2305.
/// Cid, new, meets Ann: he enters at 1500 + 0.5·162.2120 − 200 = 1381.1060, so
///   P(Cid beats Ann) = 1/(1 + e^(−q·g(√(350² + 290.2305²))·(1381.1060 − 1662.2120))) = 0.284612
/// (at 1500 it would be 0.370082). He wins: r' = 1666.6652, a change of 285.5592 from his start;
/// his RP = round(200 + 285.5592·F + 25) with F = 1000/1750·0.25 at 200 RP: round(265.79) = 266
/// (counting from 1500, round(200 + 166.6652·F + 25) = 249).
#[test]
fn the_entry_moves_prediction_and_update_but_not_rank_points() {
    let mut rules = Rules::defaults(System::Skyweaver);
    rules.assign("entry=0.5").unwrap();
    rules.assign("entry_offset=-200").unwrap();
    let mut log: Vec<Event> = (0..3).map(join).collect();
    log.push(beat(0, 1));
    let before = replay(&rules, &log);
    let ann = glicko_of(&before, 0);
    assert!((ann.rating - 1662.2120026).abs() < 1e-6, "{ann:?}");
    assert!((ann.deviation - 290.2305061).abs() < 1e-6, "{ann:?}");

    let day = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    let cid_ann = Match::new(2, 0, MatchResult::Played(Outcome::Win));
    let p = predict_match(&before, &cid_ann, day).unwrap();
    assert!((p.win_a - 0.2846123071).abs() < 1e-9, "{p:?}");
    let plain = predict_match(
        &replay(&Rules::defaults(System::Skyweaver), &log),
        &cid_ann,
        day,
    )
    .unwrap();
    assert!((plain.win_a - 0.3700822).abs() < 1e-6, "{plain:?}");

    log.push(beat(2, 0));
    let after = replay(&rules, &log);
    let cid = glicko_of(&after, 2);
    assert!((cid.rating - 1666.6652490).abs() < 1e-6, "{cid:?}");
    assert!((cid.deviation - 296.5762446).abs() < 1e-6, "{cid:?}");
    assert_eq!(after.players[2].rp, 266.0);
}
