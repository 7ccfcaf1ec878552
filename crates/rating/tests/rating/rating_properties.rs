//! Invariants of the rating core, over the whole representable range of each system.

use proptest::prelude::*;
use rungs_rating::{Outcome, elo, glicko, glicko2, memoir44, trueskill};

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Win), Just(Outcome::Draw), Just(Outcome::Loss)]
}

fn glicko_rating() -> impl Strategy<Value = glicko::Rating> + Clone {
    (-2000.0..6000.0f64, 30.0..=350.0f64)
        .prop_map(|(rating, deviation)| glicko::Rating { rating, deviation })
}

/// Anything INVERSUS's bounds allow.
fn inversus_rating() -> impl Strategy<Value = glicko2::Rating> + Clone {
    (-6.045..=6.045f64, 0.175..=2.015f64, 0.04..=0.08f64)
        .prop_map(|(mu, phi, sigma)| glicko2::Rating { mu, phi, sigma })
}

/// Plain Glicko-2 without bounds: ratings from −2000 to 6000 in Glicko units.
fn glicko2_rating() -> impl Strategy<Value = glicko2::Rating> + Clone {
    (-2000.0..6000.0f64, 1.0..=350.0f64, 0.001..0.5f64)
        .prop_map(|(r, rd, s)| glicko2::Rating::from_glicko(r, rd, s))
}

fn trueskill_rating() -> impl Strategy<Value = trueskill::Rating> + Clone {
    (-100.0..150.0f64, 0.0..=25.0f64).prop_map(|(mu, sigma)| trueskill::Rating { mu, sigma })
}

fn elo_rating() -> impl Strategy<Value = elo::Rating> + Clone {
    (-2000.0..6000.0f64).prop_map(|rating| elo::Rating { rating })
}

/// Two ratings, now and then the same one (where a draw moves neither).
fn pair<S: Strategy + Clone>(rating: S) -> impl Strategy<Value = (S::Value, S::Value)>
where
    S::Value: Clone,
{
    prop_oneof![
        3 => (rating.clone(), rating.clone()),
        1 => rating.prop_map(|r| (r.clone(), r)),
    ]
}

/// The winner's rating never falls and the loser's never rises. A draw is half a point each:
/// more than the lower-rated player was expected to score, less than the higher-rated was,
/// so it never lowers the lower rating nor raises the higher one (between equal ratings
/// each expected the half point it got: neither moves).
fn direction_holds(outcome: Outcome, before: (f64, f64), after: (f64, f64)) -> bool {
    let a_gains = after.0 >= before.0 && after.1 <= before.1;
    let b_gains = after.0 <= before.0 && after.1 >= before.1;
    match outcome {
        Outcome::Win => a_gains,
        Outcome::Loss => b_gains,
        Outcome::Draw if before.0 < before.1 => a_gains,
        Outcome::Draw if before.0 > before.1 => b_gains,
        Outcome::Draw => a_gains && b_gains,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn glicko_is_finite_floored_and_directional((a, b) in pair(glicko_rating()), o in outcome()) {
        let cfg = glicko::Config::default();
        let (a2, b2) = glicko::rate(&a, &b, o, &cfg);
        for p in [a2, b2] {
            prop_assert!(p.rating.is_finite() && p.deviation.is_finite());
            prop_assert!(p.deviation >= cfg.min_deviation && p.deviation <= cfg.initial_deviation);
        }
        prop_assert!(direction_holds(o, (a.rating, b.rating), (a2.rating, b2.rating)));
        let p = glicko::predict(&a, &b).win_a;
        prop_assert!((0.0..=1.0).contains(&p));
    }

    #[test]
    fn glicko_deviation_growth_stays_under_the_ceiling(a in glicko_rating(), t in 0.0..1e6f64) {
        let cfg = glicko::Config::default();
        let grown = glicko::grow_deviation(&a, t, &cfg);
        prop_assert!(grown.deviation >= a.deviation.min(cfg.initial_deviation));
        prop_assert!(grown.deviation <= cfg.initial_deviation);
    }

    #[test]
    fn inversus_is_finite_bounded_and_directional((a, b) in pair(inversus_rating()), o in outcome(), idle in 0.0..100.0f64) {
        let cfg = glicko2::Config::inversus();
        let a = glicko2::apply_inactivity(&a, idle, &cfg);
        let (a2, b2) = glicko2::rate(&a, &b, o, &cfg);
        for p in [a, a2, b2] {
            prop_assert!(p.mu.is_finite() && p.phi.is_finite() && p.sigma.is_finite());
            prop_assert!((cfg.min_mu..=cfg.max_mu).contains(&p.mu));
            prop_assert!((cfg.min_phi..=cfg.max_phi).contains(&p.phi));
            prop_assert!((cfg.min_sigma..=cfg.max_sigma).contains(&p.sigma));
        }
        prop_assert!(direction_holds(o, (a.mu, b.mu), (a2.mu, b2.mu)));
    }

    #[test]
    fn glicko2_unbounded_is_finite_and_directional((a, b) in pair(glicko2_rating()), o in outcome()) {
        let cfg = glicko2::Config::default();
        let (a2, b2) = glicko2::rate(&a, &b, o, &cfg);
        for p in [a2, b2] {
            prop_assert!(p.mu.is_finite() && p.phi.is_finite() && p.sigma.is_finite());
            prop_assert!(p.phi > 0.0 && p.sigma > 0.0);
        }
        prop_assert!(direction_holds(o, (a.mu, b.mu), (a2.mu, b2.mu)));
    }

    #[test]
    fn trueskill_is_finite_positive_and_directional((a, b) in pair(trueskill_rating()), o in outcome()) {
        let cfg = trueskill::Config::default();
        let (a2, b2) = trueskill::rate(&a, &b, o, &cfg);
        for (before, after) in [(a, a2), (b, b2)] {
            prop_assert!(after.mu.is_finite() && after.sigma.is_finite());
            // σ shrinks by the update and grows only by γ: σ' ≤ √(σ² + γ²), and σ' ≥ γ.
            prop_assert!(after.sigma <= (before.sigma.powi(2) + cfg.gamma.powi(2)).sqrt() + 1e-12);
            prop_assert!(after.sigma >= cfg.gamma - 1e-12);
        }
        prop_assert!(direction_holds(o, (a.mu, b.mu), (a2.mu, b2.mu)));
        let p = trueskill::predict(&a, &b, &cfg);
        prop_assert!(p.win_a.is_finite() && p.draw >= 0.0 && (p.win_a + p.draw + p.win_b - 1.0).abs() < 1e-9);
    }

    #[test]
    fn trueskill_v_and_w_are_finite_for_any_upset(x in -1e6..1e6f64, t in -1e4..1e4f64, e in 1e-6..2.0f64) {
        let (v, w) = (trueskill::v_win(x), trueskill::w_win(x));
        prop_assert!(v.is_finite() && v >= 0.0);
        prop_assert!(w.is_finite() && (0.0..=1.0).contains(&w));
        let (vd, wd) = trueskill::vw_draw(t, e);
        prop_assert!(vd.is_finite() && wd.is_finite() && (0.0..=1.0).contains(&wd));
    }

    #[test]
    fn elo_is_zero_sum_and_directional((a, b) in pair(elo_rating()), o in outcome(), k in 1.0..100.0f64) {
        let cfg = elo::Config { k, ..elo::Config::default() };
        let (a2, b2) = elo::rate(&a, &b, o, &cfg);
        prop_assert!(a2.rating.is_finite() && b2.rating.is_finite());
        let (da, db) = (a2.rating - a.rating, b2.rating - b.rating);
        prop_assert!((da + db).abs() <= 1e-9 * (1.0 + a.rating.abs() + b.rating.abs()));
        prop_assert!(direction_holds(o, (a.rating, b.rating), (a2.rating, b2.rating)));
        prop_assert!(da.abs() <= k * (1.0 + 1e-12) + 1e-12 * a.rating.abs());
    }

    #[test]
    fn memoir44_is_zero_sum_and_rewards_the_winner(
        (a, b) in pair(elo_rating()), o in outcome(),
        ratio in 0.0..=1.0f64, av_a in 0.0..10.0f64, av_b in 0.0..10.0f64,
        medal_weight in 0.0..=1.0f64,
        medals_a in 0u8..=10, medals_b in 0u8..=10, with_scenario in any::<bool>(),
    ) {
        let cfg = memoir44::Config::default();
        let sc = memoir44::Scenario { ratio, average_a: av_a, average_b: av_b, medal_weight };
        let m = memoir44::Medals { a: medals_a as f64, b: medals_b as f64 };
        let scenario = with_scenario.then_some(&sc);
        let (a2, b2) = memoir44::rate(&a, &b, o, scenario, Some(&m), &cfg);
        prop_assert!(a2.rating.is_finite() && b2.rating.is_finite());
        let (da, db) = (a2.rating - a.rating, b2.rating - b.rating);
        prop_assert!((da + db).abs() <= 1e-9 * (1.0 + a.rating.abs() + b.rating.abs()));
        prop_assert!(direction_holds(o, (a.rating, b.rating), (a2.rating, b2.rating)));
    }

    /// Memoir '44 Online's Skill ranking: "the winner should always make points, even if he is
    /// on the favored side". With a scenario's figures taken from its own history (with the prior
    /// of memoir44::PRIOR_BATTLES), the winner gains strictly, whatever the history: the ratio is
    /// never 0 or 1. (The bonus may still reach its floor of 0 when the loser beats their side's
    /// average by ten medals or more, so the medals here stay within 10 of it.)
    #[test]
    fn memoir44_history_never_zeroes_the_winner(
        a in elo_rating(), b in elo_rating(), won_by_a in any::<bool>(),
        battles in prop_oneof![0u32..4, 0u32..100_000],
        wins_share in prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0f64],
        medal_share in prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0f64],
        av_a in 0.0..6.0f64, av_b in 0.0..6.0f64,
        medals_a in 0u8..=6, medals_b in 0u8..=6,
    ) {
        let cfg = memoir44::Config::default();
        let wins_a = (wins_share * battles as f64).round();
        let medal_battles = (medal_share * battles as f64).round() as u32;
        let m = medal_battles as f64;
        let sc = memoir44::Scenario::from_history(battles, wins_a, medal_battles, av_a * m, av_b * m);
        prop_assert!(sc.ratio > 0.0 && sc.ratio < 1.0);
        let (o, medals) = if won_by_a {
            (Outcome::Win, memoir44::Medals { a: medals_a.max(medals_b) as f64, b: medals_a.min(medals_b) as f64 })
        } else {
            (Outcome::Loss, memoir44::Medals { a: medals_a.min(medals_b) as f64, b: medals_a.max(medals_b) as f64 })
        };
        let d = memoir44::breakdown(&a, &b, o, Some(&sc), Some(&medals), &cfg);
        prop_assert!(d.pts > 0.0 && d.bonus > 0.0, "{:?}", d);
        // A certain favourite (E rounds to 1) gains nothing under any Elo; short of that the
        // winner's change is strictly in their favour.
        let e = rungs_rating::elo::expected(a.rating, b.rating);
        if e > 0.0 && e < 1.0 {
            if won_by_a {
                prop_assert!(d.delta_a > 0.0, "{:?}", d);
            } else {
                prop_assert!(d.delta_a < 0.0, "{:?}", d);
            }
        }
    }
}
