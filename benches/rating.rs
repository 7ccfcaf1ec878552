//! Each system's 1v1 update beside `skillratings`' function for the same work.
//! Run: `cargo bench --bench rating`.

use criterion::{Criterion, criterion_group, criterion_main};
use rungs_rating::{Outcome, elo, glicko, glicko2, trueskill};
use skillratings::Outcomes;
use std::hint::black_box;

fn bench_elo(c: &mut Criterion) {
    let mut group = c.benchmark_group("elo");
    let cfg = elo::Config::default();
    let (a, b) = (
        elo::Rating { rating: 1613.0 },
        elo::Rating { rating: 1477.0 },
    );
    group.bench_function("rungs", |bench| {
        bench.iter(|| elo::rate(black_box(&a), black_box(&b), black_box(Outcome::Loss), &cfg))
    });
    let their_cfg = skillratings::elo::EloConfig { k: 32.0 };
    let ta = skillratings::elo::EloRating { rating: 1613.0 };
    let tb = skillratings::elo::EloRating { rating: 1477.0 };
    group.bench_function("skillratings", |bench| {
        bench.iter(|| {
            skillratings::elo::elo(
                black_box(&ta),
                black_box(&tb),
                black_box(&Outcomes::LOSS),
                &their_cfg,
            )
        })
    });
    group.finish();
}

fn bench_glicko(c: &mut Criterion) {
    let mut group = c.benchmark_group("glicko");
    let cfg = glicko::Config {
        min_deviation: 0.0,
        c: 0.0,
        ..glicko::Config::default()
    };
    let a = glicko::Rating {
        rating: 1500.0,
        deviation: 200.0,
    };
    let b = glicko::Rating {
        rating: 1400.0,
        deviation: 80.0,
    };
    group.bench_function("rungs", |bench| {
        bench.iter(|| glicko::rate(black_box(&a), black_box(&b), black_box(Outcome::Loss), &cfg))
    });
    let their_cfg = skillratings::glicko::GlickoConfig { c: 0.0 };
    let ta = skillratings::glicko::GlickoRating {
        rating: 1500.0,
        deviation: 200.0,
    };
    let tb = skillratings::glicko::GlickoRating {
        rating: 1400.0,
        deviation: 80.0,
    };
    group.bench_function("skillratings", |bench| {
        bench.iter(|| {
            skillratings::glicko::glicko(
                black_box(&ta),
                black_box(&tb),
                black_box(&Outcomes::LOSS),
                &their_cfg,
            )
        })
    });
    group.finish();
}

fn bench_glicko2(c: &mut Criterion) {
    let mut group = c.benchmark_group("glicko2");
    let cfg = glicko2::Config::default();
    let a = glicko2::Rating::from_glicko(1500.0, 200.0, 0.06);
    let b = glicko2::Rating::from_glicko(1400.0, 80.0, 0.06);
    group.bench_function("rungs", |bench| {
        bench.iter(|| glicko2::rate(black_box(&a), black_box(&b), black_box(Outcome::Loss), &cfg))
    });
    let their_cfg = skillratings::glicko2::Glicko2Config::new();
    let ta = skillratings::glicko2::Glicko2Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let tb = skillratings::glicko2::Glicko2Rating {
        rating: 1400.0,
        deviation: 80.0,
        volatility: 0.06,
    };
    group.bench_function("skillratings", |bench| {
        bench.iter(|| {
            skillratings::glicko2::glicko2(
                black_box(&ta),
                black_box(&tb),
                black_box(&Outcomes::LOSS),
                &their_cfg,
            )
        })
    });
    group.finish();
}

fn bench_trueskill(c: &mut Criterion) {
    let cfg = trueskill::Config::default();
    let a = trueskill::Rating {
        mu: 25.0,
        sigma: 25.0 / 3.0,
    };
    let b = trueskill::Rating {
        mu: 32.0,
        sigma: 5.0,
    };
    let their_cfg = skillratings::trueskill::TrueSkillConfig::new();
    let ta = skillratings::trueskill::TrueSkillRating {
        rating: 25.0,
        uncertainty: 25.0 / 3.0,
    };
    let tb = skillratings::trueskill::TrueSkillRating {
        rating: 32.0,
        uncertainty: 5.0,
    };
    for (name, ours, theirs) in [
        ("trueskill win", Outcome::Win, Outcomes::WIN),
        ("trueskill draw", Outcome::Draw, Outcomes::DRAW),
    ] {
        let mut group = c.benchmark_group(name);
        group.bench_function("rungs", |bench| {
            bench.iter(|| trueskill::rate(black_box(&a), black_box(&b), black_box(ours), &cfg))
        });
        group.bench_function("skillratings", |bench| {
            bench.iter(|| {
                skillratings::trueskill::trueskill(
                    black_box(&ta),
                    black_box(&tb),
                    black_box(&theirs),
                    &their_cfg,
                )
            })
        });
        group.finish();
    }
}

criterion_group!(
    benches,
    bench_elo,
    bench_glicko,
    bench_glicko2,
    bench_trueskill
);
criterion_main!(benches);
