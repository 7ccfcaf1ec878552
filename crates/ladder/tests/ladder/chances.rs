//! The chances shown keep each system's own expected score: for a system without a draw
//! model the draws split around the figure the system rates the match with, so
//! P(win) + ½·P(draw) is that figure to 1e-9, for every system and every door that shows
//! chances (they all go through `predict::with_draws`).

use chrono::NaiveDate;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::predict::{predict, predict_skills, with_draws};
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::Skill;
use rungs_rating::{Outcome, elo, glicko, glicko2, keep_expected};

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).unwrap()
}

fn join(id: PlayerId) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
        undated: false,
    }
}

fn game(a: PlayerId, b: PlayerId, o: Outcome) -> Event {
    Event::Match(Match::new(a, b, MatchResult::Played(o)))
}

/// Four players and `games` matches among them, every `draw_every`-th one drawn (0: none).
fn ladder(system: System, games: u32, draw_every: u32) -> Ladder {
    let mut events: Vec<(NaiveDate, u64, Event)> = (0..4)
        .map(|id| (day(1), u64::from(id) + 1, join(id)))
        .collect();
    let pairs = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)];
    for k in 0..games {
        let (a, b) = pairs[k as usize % pairs.len()];
        let o = if draw_every > 0 && k % draw_every == 0 {
            Outcome::Draw
        } else if k % 3 == 1 {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        events.push((day(2 + k / 4), 10 + u64::from(k), game(a, b, o)));
    }
    replay_state(
        &Rules::defaults(system),
        events.iter().map(|(d, s, e)| (*d, *s, e)),
    )
    .unwrap()
}

/// Each pairing of the ladder's four players: the system's own expectation against the
/// chances shown.
fn assert_keeps_expected(l: &Ladder, system: System) {
    for a in 0..4 {
        for b in 0..4 {
            if a == b {
                continue;
            }
            let (sa, sb) = (l.players[a as usize].skill, l.players[b as usize].skill);
            let own = predict_skills(l, sa, sb, 0.0).unwrap();
            let shown = predict(l, &[a], &[b]).unwrap();
            assert!(
                (shown.expected_score() - own.expected_score()).abs() < 1e-9,
                "{system}: P{a} v P{b}: shown {shown:?} keeps {} of the system's {}",
                shown.expected_score(),
                own.expected_score()
            );
            assert!((shown.win_a + shown.draw + shown.win_b - 1.0).abs() < 1e-12);
            assert!(shown.win_a >= 0.0 && shown.draw >= 0.0 && shown.win_b >= 0.0);
            if !system.facts().draws {
                // A draw is forecast for every system: the split is not the decisive one.
                assert!(shown.draw > 0.01, "{system}: {shown:?}");
            }
        }
    }
}

/// Elo 1900 against 1500 on a ladder with no match: Elo's expectation is
/// 1/(1 + 10^(−400/400)) = 10/11 = 0.909091, the figure its update uses. The even-game draw
/// rate is the prior's p₀ = 1 − 2σ(−0.5) = 0.244919, so ν = 2p₀/(1 − p₀) = 0.648715; the
/// strength ratio solves (1 − E)ρ² − ν(E − ½)ρ − E = 0: ρ = (0.265383 + √(0.070428 +
/// 0.330579))/(2/11) = 4.942470, P(draw) = νρ/(ρ² + νρ + 1) = 3.206268/28.634583 = 0.111973,
/// P(win) = 10/11 − 0.055986 = 0.853104, P(loss) = 0.034923. Shown before: 85.8 % / 8.4 % /
/// 5.7 %, an expectation of 0.90064.
#[test]
fn elo_1900_against_1500_keeps_ten_elevenths() {
    let mut l = ladder(System::Elo, 0, 0);
    l.players[0].skill = Skill::Elo(elo::Rating { rating: 1900.0 });
    let shown = predict(&l, &[0], &[1]).unwrap();
    assert!(
        (shown.expected_score() - 10.0 / 11.0).abs() < 1e-12,
        "{shown:?}"
    );
    assert!((shown.win_a - 0.853104).abs() < 1e-6, "{shown:?}");
    assert!((shown.draw - 0.111973).abs() < 1e-6, "{shown:?}");
    assert!((shown.win_b - 0.034923).abs() < 1e-6, "{shown:?}");
}

/// A Skyweaver (Glicko) ladder whose thirty games were all drawn: the draw rate is
/// (30 + 100·0.244919)/130 = 0.419168. A 1700 ± 80 against a 1500 ± 80: Glicko's expectation
/// over both deviations, g(113.137) = 1/√(1 + 3q²·12800/π²) = 0.941168, E = 1/(1 +
/// 10^(−0.941168·200/400)) = 0.747167, is what the chances keep. (The ordered logit at that
/// rate showed an expectation much nearer ½.)
#[test]
fn glicko_on_an_all_drawn_ladder_keeps_its_expectation() {
    let mut l = ladder(System::Skyweaver, 30, 1);
    assert_eq!(l.results.unwrap().drawn, 30);
    l.players[0].skill = Skill::Glicko(glicko::Rating {
        rating: 1700.0,
        deviation: 80.0,
    });
    l.players[1].skill = Skill::Glicko(glicko::Rating {
        rating: 1500.0,
        deviation: 80.0,
    });
    let shown = predict(&l, &[0], &[1]).unwrap();
    assert!(
        (shown.expected_score() - 0.747167).abs() < 1e-6,
        "{shown:?}: {}",
        shown.expected_score()
    );
    assert!(shown.draw > 0.3, "{shown:?}");
}

#[test]
fn elo_keeps_its_expectation() {
    assert_keeps_expected(&ladder(System::Elo, 40, 5), System::Elo);
}

#[test]
fn skyweaver_keeps_its_expectation() {
    assert_keeps_expected(&ladder(System::Skyweaver, 40, 5), System::Skyweaver);
}

#[test]
fn inversus_keeps_its_expectation() {
    let mut l = ladder(System::Inversus, 40, 5);
    // A wide gap too: μ 3 against −2 on Glicko-2's scale.
    l.players[0].skill = Skill::Glicko2(glicko2::Rating {
        mu: 3.0,
        phi: 0.5,
        sigma: 0.06,
    });
    l.players[3].skill = Skill::Glicko2(glicko2::Rating {
        mu: -2.0,
        phi: 0.5,
        sigma: 0.06,
    });
    assert_keeps_expected(&l, System::Inversus);
}

#[test]
fn memoir44_keeps_its_expectation() {
    assert_keeps_expected(&ladder(System::Memoir44, 40, 5), System::Memoir44);
}

/// AllegSkill and goals have draw models of their own: their chances are shown as they are,
/// and so keep their expectation too.
#[test]
fn allegskill_and_goals_keep_their_own_chances() {
    for system in [System::Allegskill, System::Goals] {
        let l = ladder(system, 40, 5);
        let (sa, sb) = (l.players[0].skill, l.players[1].skill);
        let own = predict_skills(&l, sa, sb, 0.0).unwrap();
        assert_eq!(with_draws(&l, own), own, "{system}");
        assert_keeps_expected(&l, system);
    }
}

/// The split itself: no draws at rate 0, and the expectation kept at the edges.
#[test]
fn the_split_keeps_the_expectation_everywhere() {
    assert_eq!(keep_expected(0.7, 0.0).win_a, 0.7);
    for e in [1e-9, 0.01, 0.3, 0.5, 0.77, 0.999999, 1.0] {
        for p in [0.0, 0.05, 0.245, 0.6, 0.999] {
            let s = keep_expected(e, p);
            assert!((s.expected_score() - e).abs() < 1e-9, "{e} {p}: {s:?}");
            assert!(
                s.win_a >= 0.0 && s.draw >= 0.0 && s.win_b >= 0.0,
                "{e} {p}: {s:?}"
            );
            assert!(
                (s.win_a + s.draw + s.win_b - 1.0).abs() < 1e-12,
                "{e} {p}: {s:?}"
            );
        }
    }
    // Two equal sides draw at the rate asked.
    assert!((keep_expected(0.5, 0.3).draw - 0.3).abs() < 1e-12);
}
