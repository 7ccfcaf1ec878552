//! Every system predicts draws: predict, the forecast and pairings show a draw
//! probability for the systems without a draw model of their own, split around the system's
//! own expected score, which it keeps (`rating::keep_expected`, Davidson's tie model), at the
//! ladder's even-game draw rate (`ladder::predict::draw_rate`: equal sides draw as often as
//! the ladder's matches have, after a prior of 100 matches at θ₀ = 0.5's rate, and
//! `draw_threshold` is the ordered logit's θ at that rate).

use chrono::NaiveDate;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::predict::{draw_threshold, forecast_match, predict, predict_match};
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_pairing::ladder::{History, present};
use rungs_pairing::model::Forecast;
use rungs_rating::{Outcome, draw_threshold_for_rate};

use crate::support::binary;
use binary::Dir;
use binary::{json, rungs};

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + chrono::Days::new(n)
}

fn ladder(rules: &Rules, results: &[Outcome]) -> Ladder {
    let mut events: Vec<Event> = (0..2)
        .map(|id: PlayerId| Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(),
            undated: false,
        })
        .collect();
    for o in results {
        events.push(Event::Match(Match::new(0, 1, MatchResult::Played(*o))));
    }
    replay_state(
        rules,
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (day(i as u64), i as u64 + 1, e)),
    )
    .unwrap()
}

/// θ from a draw rate: ln((1 + p)/(1 − p)). p₀ = 1 − 2σ(−0.5) = tanh(0.25) = 0.2449187 gives
/// back θ = 2·atanh(tanh(0.25)) = 0.5; p = 0 gives 0 (no draws); p = 0.5 gives ln 3.
#[test]
fn the_threshold_from_a_draw_rate_by_hand() {
    assert!((draw_threshold_for_rate(0.244_918_662_4) - 0.5).abs() < 1e-9);
    assert_eq!(draw_threshold_for_rate(0.0), 0.0);
    assert!((draw_threshold_for_rate(0.5) - 3f64.ln()).abs() < 1e-12);
    for p in [-1.0, 1.0, f64::NAN, f64::INFINITY] {
        assert!(draw_threshold_for_rate(p).is_finite(), "{p}");
    }
}

/// Elo K = 32, P0 against P1: a win, two draws, a win. Ratings by hand: the win moves ±16
/// (1516/1484); the first draw E = 1/(1 + 10^(−32/400)) = 0.5459249, ∓1.4696 (1514.5304/
/// 1485.4696); … ending 1527.9823/1472.0177, so E = 0.5798501. The draw rate: p = (2 +
/// 100·0.2449187)/(4 + 100) = 0.2547295 (θ = ln(1.2547295/0.7452705) = 0.5209280 for the
/// ordered logit). The split keeps E: ν = 2p/(1 − p) = 0.6835893, the ratio solving
/// (1 − E)ρ² − ν(E − ½)ρ − E = 0 is ρ = 1.2415309, P(draw) = ν/(ρ + ν + 1/ρ) = 0.2503461,
/// P(win) = E − ½·0.2503461 = 0.4546771, P(loss) = 0.2949769. (The ordered logit gave
/// 0.4504705 / 0.2486443 / 0.3008852, an expectation of 0.5747927.)
#[test]
fn predict_and_the_forecast_give_an_elo_ladder_draws_by_hand() {
    let rules = Rules::defaults(System::Elo);
    let l = ladder(
        &rules,
        &[Outcome::Win, Outcome::Draw, Outcome::Draw, Outcome::Win],
    );
    assert!((l.players[0].skill.rating_1500() - 1_527.982_302).abs() < 1e-5);
    assert!((draw_threshold(&l) - 0.520_928_0).abs() < 1e-7);
    let p = predict(&l, &[0], &[1]).unwrap();
    assert!((p.win_a - 0.454_677_1).abs() < 1e-7, "{p:?}");
    assert!((p.draw - 0.250_346_1).abs() < 1e-7, "{p:?}");
    assert!((p.win_b - 0.294_976_9).abs() < 1e-7, "{p:?}");
    // The forecast of a match (what Enter match and Tonight show) is the same split of the
    // system's own expected score, which evaluate scores unchanged.
    let m = Match::new(0, 1, MatchResult::Played(Outcome::Win));
    let own = predict_match(&l, &m, day(9)).unwrap();
    assert_eq!(own.draw, 0.0);
    assert!((own.win_a - 0.579_850_1).abs() < 1e-7);
    let f = forecast_match(&l, &m, day(9)).unwrap();
    assert!((f.win_a - p.win_a).abs() < 1e-12 && (f.draw - p.draw).abs() < 1e-12);
}

/// A new ladder forecasts draws at θ₀ = 0.5: equal sides win, draw and lose 0.3775407,
/// 0.2449187, 0.3775407 (σ(−0.5) = 1/(1 + e^0.5)); a ladder that never draws comes to forecast
/// almost none (2,000 decisive matches: p = 24.49187/2100 = 0.0116628, θ = 0.0233266).
#[test]
fn the_threshold_follows_the_ladders_own_draws() {
    for system in [
        System::Elo,
        System::Skyweaver,
        System::Inversus,
        System::Memoir44,
    ] {
        let l = ladder(&Rules::defaults(system), &[]);
        let p = predict(&l, &[0], &[1]).unwrap();
        assert!((p.win_a - 0.377_540_7).abs() < 1e-7, "{system:?} {p:?}");
        assert!((p.draw - 0.244_918_7).abs() < 1e-7, "{system:?} {p:?}");
    }
    let decisive: Vec<Outcome> = (0..2000)
        .map(|i| {
            if i % 2 == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        })
        .collect();
    let l = ladder(&Rules::defaults(System::Elo), &decisive);
    assert!((draw_threshold(&l) - 0.023_326_6).abs() < 1e-6);
    assert!(predict(&l, &[0], &[1]).unwrap().draw < 0.012);
}

/// The systems with a draw model keep their own: the goals model's and AllegSkill's
/// forecasts are their predictions unchanged.
#[test]
fn systems_with_their_own_draws_keep_them() {
    for system in [System::Goals, System::Allegskill] {
        let l = ladder(&Rules::defaults(system), &[Outcome::Win, Outcome::Draw]);
        let m = Match::new(0, 1, MatchResult::Played(Outcome::Win));
        assert_eq!(
            forecast_match(&l, &m, day(5)),
            predict_match(&l, &m, day(5)),
            "{system:?}"
        );
    }
}

/// Pairings see the same three outcomes: the ladder's forecast for two equal newcomers of a
/// new Elo ladder is 0.3775407 / 0.2449187 / 0.3775407.
#[test]
fn pairings_forecast_draws() {
    let l = ladder(&Rules::defaults(System::Elo), &[]);
    let (_, f) = present(&l, &[0, 1], day(3), &History::default()).unwrap();
    let p = f.predict(0, 1);
    assert!((p.win_a - 0.377_540_7).abs() < 1e-7 && (p.draw - 0.244_918_7).abs() < 1e-7);
}

/// `rungs predict` prints and writes the draw: a new Elo ladder, equal ratings.
#[test]
fn the_cli_predicts_draws() {
    let dir = Dir::new("draws-cli");
    let f = dir.path("club.rungs");
    rungs(&["new", &f, "--system", "elo"]);
    rungs(&["add-player", &f, "Ann", "Bo", "--date", "2026-01-01"]);
    let v = json(&["predict", &f, "Ann", "Bo", "--date", "2026-01-05", "--json"]);
    let draw = v["prediction"]["draw"].as_f64().unwrap();
    assert!((draw - 0.244_918_7).abs() < 1e-7, "{v}");
    let text = rungs(&["predict", &f, "Ann", "Bo"]);
    assert!(
        text.contains("Ann 37.8 %, draw 24.5 %, Bo 37.8 %"),
        "{text}"
    );
}
