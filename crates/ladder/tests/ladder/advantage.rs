//! Side advantage through the ladder: every system, hand-computed; a neutral
//! match is a match without advantage; and every point of every system's declared box,
//! advantage included, keeps every figure finite.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::event::{Event, Home, Match, MatchResult, PlayerId};
use rungs_ladder::predict::predict_match;
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::Skill;
use rungs_rating::{Outcome, glicko2, trueskill};

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

fn game(a: PlayerId, b: PlayerId, o: Outcome, home: Option<Home>) -> Event {
    Event::Match(Match {
        home,
        ..Match::new(a, b, MatchResult::Played(o))
    })
}

/// Two players join and play one match.
fn one_match(rules: &Rules, o: Outcome, home: Option<Home>) -> Ladder {
    let events = [
        (day(1), 1, join(0)),
        (day(1), 2, join(1)),
        (day(2), 3, game(0, 1, o, home)),
    ];
    replay_state(rules, events.iter().map(|(d, s, e)| (*d, *s, e))).unwrap()
}

fn rules(system: System, advantage: f64) -> Rules {
    let mut r = Rules::defaults(system);
    r.set_param("advantage", advantage).unwrap();
    r
}

fn rating(ladder: &Ladder, id: usize) -> f64 {
    ladder.players[id].figures().rating
}

/// Elo and Memoir '44 (no scenario), h = 100, A at home, both at 1500:
/// E = 1/(1 + 10^((1500 − 1500 − 100)/400)) = 1/(1 + 10^−0.25) = 0.6400650; A wins with
/// K = 32 (Memoir '44: pts = 64·(1 + ½ − 1) = 32, bonus 1): ±32·(1 − 0.6400650) = ±11.51792.
/// With B at home the expectation mirrors: E = 0.3599350, and A's win earns 32·0.6400650 =
/// 20.48208.
#[test]
fn elo_and_memoir44_by_hand() {
    for system in [System::Elo, System::Memoir44] {
        let home_a = one_match(&rules(system, 100.0), Outcome::Win, Some(Home::A));
        assert!((rating(&home_a, 0) - 1_511.517_92).abs() < 1e-5, "{system}");
        assert!((rating(&home_a, 1) - 1_488.482_08).abs() < 1e-5, "{system}");
        let home_b = one_match(&rules(system, 100.0), Outcome::Win, Some(Home::B));
        assert!((rating(&home_b, 0) - 1_520.482_08).abs() < 1e-5, "{system}");
    }
}

/// Skyweaver (Glicko-1), h = 100, two new players at 1500 ± 350, A at home wins:
///   g(350) = 1/√(1 + 3q²·350²/π²) = 0.6690694; E_A = 1/(1 + 10^(−g·100/400)) = 0.5951140,
///   E_B = 1 − E_A = 0.4048860 (B against 1500 + 100);
///   precision = 1/350² + q²g²·E(1 − E) = 8.16327e-6 + 3.313735e-5·0.447654·0.240955
///   = 1.17376e-5, the same for both;
///   Δ = q/precision·g·(1 − E_A) = 0.0057565/1.17376e-5·0.6690694·0.404886 = 132.85655;
///   RD' = √(1/precision) = 291.88491. A 1632.85655, B 1367.14345.
#[test]
fn skyweaver_by_hand() {
    let l = one_match(
        &rules(System::Skyweaver, 100.0),
        Outcome::Win,
        Some(Home::A),
    );
    assert!(
        (rating(&l, 0) - 1_632.856_55).abs() < 1e-4,
        "{}",
        rating(&l, 0)
    );
    assert!(
        (rating(&l, 1) - 1_367.143_45).abs() < 1e-4,
        "{}",
        rating(&l, 1)
    );
    assert!((l.players[0].figures().deviation - 291.884_91).abs() < 1e-4);
}

/// INVERSUS and AllegSkill take the advantage in their own units: 173.7178 points is one
/// Glicko-2 μ, 42 points one TrueSkill μ (the mapping under which 25 ± 25/3 reads
/// 1500 ± 350). The ladder's update is the pure update with that many units.
#[test]
fn inversus_and_allegskill_convert_the_points() {
    let l = one_match(
        &rules(System::Inversus, 173.7178),
        Outcome::Win,
        Some(Home::A),
    );
    let cfg = glicko2::Config::inversus();
    let new = glicko2::Rating::new(&cfg);
    let (a, b) = glicko2::rate_with_advantage(&new, &new, Outcome::Win, 1.0, &cfg);
    assert_eq!(l.players[0].skill, Skill::Glicko2(a));
    assert_eq!(l.players[1].skill, Skill::Glicko2(b));
    assert_ne!(a, glicko2::rate(&new, &new, Outcome::Win, &cfg).0);

    let l = one_match(
        &rules(System::Allegskill, 42.0),
        Outcome::Draw,
        Some(Home::A),
    );
    let cfg = trueskill::Config::default();
    let new = trueskill::Rating::new(&cfg);
    let (a, b) = trueskill::rate_with_advantage(&new, &new, Outcome::Draw, 1.0, &cfg);
    assert_eq!(l.players[0].skill, Skill::TrueSkill(a));
    assert_eq!(l.players[1].skill, Skill::TrueSkill(b));
    // A drew although favoured by a full μ: A loses ground.
    assert!(a.mu < 25.0 && b.mu > 25.0, "{a:?} {b:?}");
}

/// A neutral match, a match without a flag, and a flagged match under rules without an
/// advantage all rate alike, under every system; so do their predictions.
#[test]
fn neutral_ground_is_no_advantage() {
    for system in System::ALL {
        for o in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
            let with = rules(system, 150.0);
            let none = one_match(&with, o, None);
            let neutral = one_match(&with, o, Some(Home::Neutral));
            let unused = one_match(&Rules::defaults(system), o, Some(Home::A));
            assert_eq!(none.players, neutral.players, "{system} {o:?}");
            assert_eq!(none.players, unused.players, "{system} {o:?}");
            let favoured = one_match(&with, o, Some(Home::A));
            assert_ne!(none.players, favoured.players, "{system} {o:?}");
        }
        let l = one_match(&rules(system, 150.0), Outcome::Win, None);
        let m = |home| Match {
            home,
            ..Match::new(0, 1, MatchResult::Played(Outcome::Win))
        };
        let p = |home| predict_match(&l, &m(home), day(3)).unwrap();
        assert_eq!(p(None), p(Some(Home::Neutral)), "{system}");
        assert!(p(Some(Home::A)).win_a > p(None).win_a, "{system}");
        assert!(p(Some(Home::B)).win_a < p(None).win_a, "{system}");
    }
}

/// A team match: every member of the home side gets the advantage against the opposing
/// mean. Elo, h = 100, teams of two at 1500: each member is rated as 1500 + 100 against
/// 1500, the ±11.51792 of a single match.
#[test]
fn a_home_team_shares_the_advantage() {
    let events = [
        (day(1), 1, join(0)),
        (day(1), 2, join(1)),
        (day(1), 3, join(2)),
        (day(1), 4, join(3)),
        (
            day(2),
            5,
            Event::Match(Match {
                home: Some(Home::A),
                ..Match::new(vec![0, 1], vec![2, 3], MatchResult::Played(Outcome::Win))
            }),
        ),
    ];
    let l = replay_state(
        &rules(System::Elo, 100.0),
        events.iter().map(|(d, s, e)| (*d, *s, e)),
    )
    .unwrap();
    for (id, expected) in [(0, 1_511.517_92), (1, 1_511.517_92), (2, 1_488.482_08)] {
        assert!((rating(&l, id) - expected).abs() < 1e-5, "{id}");
    }
}

/// A value for `p` anywhere in its declared range, `u` in [0, 1]: log-uniform over a range
/// spanning a factor of 100 or more, uniform otherwise, whole where it must be.
fn point(p: &rungs_ladder::systems::Param, u: f64) -> f64 {
    let x = if p.min > 0.0 && p.max / p.min >= 100.0 {
        (p.min.ln() + u * (p.max.ln() - p.min.ln())).exp()
    } else {
        p.min + u * (p.max - p.min)
    };
    let x = x.clamp(p.min, p.max);
    if p.integer { x.round() } else { x }
}

/// Every flag, a draw, both forfeits, a cancelled match, a team match, a long absence, and
/// both resets.
fn hostile_log() -> Vec<(NaiveDate, u64, Event)> {
    let w = Outcome::Win;
    let mut log = vec![
        (day(1), 1, join(0)),
        (day(1), 2, join(1)),
        (day(1), 3, join(2)),
        (day(1), 4, join(3)),
        (day(2), 5, game(0, 1, w, Some(Home::A))),
        (day(2), 6, game(1, 0, w, Some(Home::A))),
        (day(3), 7, game(2, 3, Outcome::Draw, Some(Home::B))),
        (day(3), 8, game(0, 2, Outcome::Loss, Some(Home::Neutral))),
        (day(4), 9, game(3, 1, w, None)),
    ];
    for (seq, result) in [
        (10, MatchResult::ForfeitA),
        (11, MatchResult::ForfeitB),
        (12, MatchResult::Cancelled),
    ] {
        let m = Match {
            home: Some(Home::A),
            ..Match::new(0, 3, result)
        };
        log.push((day(5), seq, Event::Match(m)));
    }
    let team = Match {
        home: Some(Home::B),
        ..Match::new(vec![0, 1], vec![2, 3], MatchResult::Played(w))
    };
    log.push((day(6), 13, Event::Match(team)));
    log.push((day(7), 14, Event::SoftReset));
    let late = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
    log.push((late, 15, game(2, 1, w, Some(Home::A))));
    log.push((late, 16, Event::HardReset));
    for seq in 17..40 {
        log.push((late, seq, game(0, 1, w, Some(Home::A))));
    }
    log
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any point of a system's declared box, the side advantage included, replays the log
    /// above to finite figures, and predicts every pairing with finite chances.
    #[test]
    fn the_whole_declared_box_stays_finite(
        system in prop::sample::select(System::ALL.to_vec()),
        us in prop::collection::vec(0.0..=1.0f64, 32),
        extremes in prop::collection::vec(prop::bool::ANY, 32),
    ) {
        let mut rules = Rules::defaults(system);
        for (i, p) in system.facts().params.iter().enumerate() {
            // Half the time a parameter sits at an end of its range.
            let u = if extremes[i] { us[i].round() } else { us[i] };
            rules.set_param(p.name, point(p, u)).unwrap();
        }
        let log = hostile_log();
        let ladder = replay_state(&rules, log.iter().map(|(d, s, e)| (*d, *s, e))).unwrap();
        for p in &ladder.players {
            let f = p.figures();
            prop_assert!(
                f.rating.is_finite() && f.deviation.is_finite() && f.extra.is_finite()
                    && f.score.is_finite(),
                "{rules:?}: {f:?}"
            );
        }
        for home in [None, Some(Home::A), Some(Home::B), Some(Home::Neutral)] {
            let m = Match { home, ..Match::new(0, 1, MatchResult::Played(Outcome::Win)) };
            let late = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap();
            let p = predict_match(&ladder, &m, late).unwrap();
            for x in [p.win_a, p.draw, p.win_b] {
                prop_assert!(x.is_finite() && (0.0..=1.0).contains(&x), "{rules:?}: {p:?}");
            }
        }
    }
}
