//! Rating periods as Glickman's papers run them (`rating_period_days`): his worked examples
//! through the ladder's own replay, and per-match rating unchanged without the option.

use chrono::{Days, NaiveDate};
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::replay::{Ladder, replay, replay_state};
use rungs_ladder::rules::{Params, Rules, System};
use rungs_ladder::state::Skill;
use rungs_rating::{Outcome, glicko, glicko2};

fn day(n: u64) -> NaiveDate {
    // A Monday: a 7-day period from Monday 2001-01-01 starts on it.
    NaiveDate::from_ymd_opt(2026, 1, 5).unwrap() + Days::new(n)
}

fn join(id: PlayerId) -> Event {
    let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap();
    Event::Player {
        id,
        name,
        undated: false,
    }
}

/// Rules whose newcomers start at `(rating, deviation)`, rating periods `period_days` long.
fn starting_at(system: System, rating: f64, deviation: f64, period_days: u32) -> Rules {
    let mut rules = Rules::defaults(system);
    match &mut rules.params {
        Params::Skyweaver(p) => {
            p.initial_rating = rating;
            p.initial_deviation = deviation;
            p.rating_period_days = period_days;
        }
        Params::Inversus(p) => {
            let start = glicko2::Rating::from_glicko(rating, deviation, 0.06);
            p.glicko2.initial_mu = start.mu;
            p.glicko2.initial_phi = start.phi;
            p.rating_period_days = period_days;
        }
        _ => unreachable!(),
    }
    rules
}

/// Glickman's example: the player (id 3) at 1500 ± 200 beats 1400 ± 30 (id 0), loses to
/// 1550 ± 100 (id 1) and to 1700 ± 300 (id 2) on three days of one week. Each opponent
/// joins under rules whose newcomer starts there (a rules change within a system keeps
/// every rating), then the player, then the three games.
fn glickman(system: System, period_days: u32) -> (Ladder, Vec<(NaiveDate, u64, Event)>) {
    let starts = [
        (1400.0, 30.0),
        (1550.0, 100.0),
        (1700.0, 300.0),
        (1500.0, 200.0),
    ];
    let first = starting_at(system, starts[0].0, starts[0].1, period_days);
    let mut events = vec![(day(0), 1, join(0))];
    for (id, (r, rd)) in starts.iter().enumerate().skip(1) {
        let rules = starting_at(system, *r, *rd, period_days);
        let seq = events.len() as u64 + 1;
        events.push((
            day(0),
            seq,
            Event::Rules {
                rules: Box::new(rules),
            },
        ));
        events.push((day(0), seq + 1, join(id as PlayerId)));
    }
    for (k, (opponent, outcome)) in [(0, Outcome::Win), (1, Outcome::Loss), (2, Outcome::Loss)]
        .into_iter()
        .enumerate()
    {
        let seq = events.len() as u64 + 1;
        let m = Match::new(3, opponent, MatchResult::Played(outcome));
        events.push((day(1 + k as u64), seq, Event::Match(m)));
    }
    let ladder = replay_state(&first, events.iter().map(|(d, s, e)| (*d, *s, e))).unwrap();
    (ladder, events)
}

/// Glicko-1 with weekly periods: 1464.1065 ± 151.3989 after the period's last game, to the
/// bit `glicko::rate_period`'s (which prints as Glickman's 1464 and 151.4), the games scored
/// against the opponents' ratings at the week's start although each opponent's own rating
/// moved at its game. Per match (no option) the same games give another figure.
/// (Glickman's paper rounds g and E to four places; rungs keeps every digit.)
#[test]
fn glickmans_glicko_example_through_the_replay() {
    let (ladder, _) = glickman(System::Skyweaver, 7);
    let Skill::Glicko(r) = ladder.players[3].skill else {
        panic!()
    };
    assert!((r.rating - 1464.1065).abs() < 5e-5, "{r:?}");
    assert!((r.deviation - 151.3989).abs() < 5e-5, "{r:?}");
    let at = |rating, deviation| glicko::Rating { rating, deviation };
    let by_hand = glicko::rate_period(
        &at(1500.0, 200.0),
        &[
            (at(1400.0, 30.0), 1.0),
            (at(1550.0, 100.0), 0.0),
            (at(1700.0, 300.0), 0.0),
        ],
        &glicko::Config::default(),
    );
    assert_eq!(r, by_hand);
    // The opponents moved: the 1400 ± 30 player lost a game.
    assert!(matches!(ladder.players[0].skill, Skill::Glicko(o) if o.rating < 1400.0));

    let (per_match, _) = glickman(System::Skyweaver, 0);
    let Skill::Glicko(m) = per_match.players[3].skill else {
        panic!()
    };
    // Each game against the opponent as it then stood, from the rating the last one left:
    // 1464.2190 ± 151.2537.
    assert!((m.rating - 1464.2190).abs() < 5e-5, "{m:?}");
    assert!((m.deviation - 151.2537).abs() < 5e-5, "{m:?}");
    assert!(per_match.players.iter().all(|p| p.period.is_none()));
}

/// Day-long periods split the same three games (on three days) into three periods: each is
/// then one game against the opponent as they stand, which is per-match rating exactly.
#[test]
fn one_game_periods_are_per_match_rating() {
    let (daily, _) = glickman(System::Skyweaver, 1);
    let (per_match, _) = glickman(System::Skyweaver, 0);
    for (a, b) in daily.players.iter().zip(&per_match.players) {
        assert_eq!(a.skill, b.skill);
        assert_eq!(a.rp, b.rp);
    }
}

/// Glicko-2 (INVERSUS's bounds hold no figure of the example) with weekly periods:
/// Glickman's 1464.06 ± 151.52, σ' = 0.05999, to the bit `glicko2::rate_period`'s.
#[test]
fn glickmans_glicko2_example_through_the_replay() {
    let (ladder, events) = glickman(System::Inversus, 7);
    let Skill::Glicko2(r) = ladder.players[3].skill else {
        panic!()
    };
    assert!((r.rating() - 1464.06).abs() < 0.01, "{}", r.rating());
    assert!((r.deviation() - 151.52).abs() < 0.01, "{}", r.deviation());
    assert!((r.sigma - 0.05999).abs() < 1e-5, "{}", r.sigma);
    let at = |rating, deviation| glicko2::Rating::from_glicko(rating, deviation, 0.06);
    let by_hand = glicko2::rate_period(
        &at(1500.0, 200.0),
        &[
            (at(1400.0, 30.0), 1.0),
            (at(1550.0, 100.0), 0.0),
            (at(1700.0, 300.0), 0.0),
        ],
        &glicko2::Config::inversus(),
    );
    assert_eq!(r, by_hand);
    // The history's last row for the player shows it.
    let first = starting_at(System::Inversus, 1400.0, 30.0, 7);
    let (_, history) = replay(&first, events.iter().map(|(d, s, e)| (*d, *s, e))).unwrap();
    let row = history.iter().rfind(|row| row.player == 3).unwrap();
    assert_eq!(row.figures.rating, r.rating());
}
