//! The rating core against the `skillratings` crate where the two mean the same thing:
//! Glicko-2 1v1 on the 1500 scale, Glicko-1 with c = 0 and no RD floor, and Elo.

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};
use rungs_rating::{Outcome, elo, glicko, glicko2};
use skillratings::Outcomes;

const PAIRINGS: u32 = 5000;

fn theirs(o: Outcome) -> Outcomes {
    match o {
        Outcome::Win => Outcomes::WIN,
        Outcome::Draw => Outcomes::DRAW,
        Outcome::Loss => Outcomes::LOSS,
    }
}

fn agree(ours: f64, reference: f64, what: &str) -> Result<(), TestCaseError> {
    let tolerance = 1e-9 * reference.abs().max(1e-300);
    prop_assert!(
        (ours - reference).abs() <= tolerance,
        "{what}: ours {ours}, skillratings {reference}"
    );
    Ok(())
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Win), Just(Outcome::Draw), Just(Outcome::Loss)]
}

fn runner() -> TestRunner {
    TestRunner::new(RunnerConfig {
        cases: PAIRINGS,
        ..RunnerConfig::default()
    })
}

#[test]
fn glicko1_matches_skillratings_with_c_zero() {
    let ours_cfg = glicko::Config {
        min_deviation: 0.0,
        c: 0.0,
        ..glicko::Config::default()
    };
    let their_cfg = skillratings::glicko::GlickoConfig { c: 0.0 };
    let rating = (500.0..2500.0f64, 30.0..=350.0f64);
    runner()
        .run(
            &(rating.clone(), rating, outcome()),
            |((ra, da), (rb, db), o)| {
                let a = glicko::Rating {
                    rating: ra,
                    deviation: da,
                };
                let b = glicko::Rating {
                    rating: rb,
                    deviation: db,
                };
                let (a2, b2) = glicko::rate(&a, &b, o, &ours_cfg);
                let ta = skillratings::glicko::GlickoRating {
                    rating: ra,
                    deviation: da,
                };
                let tb = skillratings::glicko::GlickoRating {
                    rating: rb,
                    deviation: db,
                };
                let (ta2, tb2) = skillratings::glicko::glicko(&ta, &tb, &theirs(o), &their_cfg);
                agree(a2.rating, ta2.rating, "A rating")?;
                agree(a2.deviation, ta2.deviation, "A deviation")?;
                agree(b2.rating, tb2.rating, "B rating")?;
                agree(b2.deviation, tb2.deviation, "B deviation")
            },
        )
        .unwrap();
}

#[test]
fn glicko2_matches_skillratings() {
    let ours_cfg = glicko2::Config::default();
    let their_cfg = skillratings::glicko2::Glicko2Config::new();
    let rating = (500.0..2500.0f64, 30.0..=350.0f64, 0.03..0.1f64);
    runner()
        .run(
            &(rating.clone(), rating, outcome()),
            |((ra, da, sa), (rb, db, sb), o)| {
                let a = glicko2::Rating::from_glicko(ra, da, sa);
                let b = glicko2::Rating::from_glicko(rb, db, sb);
                let (a2, b2) = glicko2::rate(&a, &b, o, &ours_cfg);
                let t = |r, d, v| skillratings::glicko2::Glicko2Rating {
                    rating: r,
                    deviation: d,
                    volatility: v,
                };
                let (ta2, tb2) = skillratings::glicko2::glicko2(
                    &t(ra, da, sa),
                    &t(rb, db, sb),
                    &theirs(o),
                    &their_cfg,
                );
                agree(a2.rating(), ta2.rating, "A rating")?;
                agree(a2.deviation(), ta2.deviation, "A deviation")?;
                agree(a2.sigma, ta2.volatility, "A volatility")?;
                agree(b2.rating(), tb2.rating, "B rating")?;
                agree(b2.deviation(), tb2.deviation, "B deviation")?;
                agree(b2.sigma, tb2.volatility, "B volatility")
            },
        )
        .unwrap();
}

#[test]
fn elo_matches_skillratings() {
    let their_cfg = skillratings::elo::EloConfig { k: 32.0 };
    runner()
        .run(
            &(0.0..3000.0f64, 0.0..3000.0f64, outcome()),
            |(ra, rb, o)| {
                let (a2, b2) = elo::rate(
                    &elo::Rating { rating: ra },
                    &elo::Rating { rating: rb },
                    o,
                    &elo::Config::default(),
                );
                let (ta2, tb2) = skillratings::elo::elo(
                    &skillratings::elo::EloRating { rating: ra },
                    &skillratings::elo::EloRating { rating: rb },
                    &theirs(o),
                    &their_cfg,
                );
                agree(a2.rating, ta2.rating, "A")?;
                agree(b2.rating, tb2.rating, "B")
            },
        )
        .unwrap();
}
