//! `simulate --pairing`: the simulation pairs by the same engine as `rungs pair`,
//! and its report says how close the games were, mean |E − ½| by the ladder's own forecast.

use rungs_analysis::simulate::{SimConfig, simulate};
use rungs_pairing::simulated::SimPairing;

fn run(pairing: SimPairing, seed: u64) -> rungs_analysis::simulate::SimReport {
    let cfg = SimConfig {
        players: 60,
        weeks: 4,
        matches_per_week: 150,
        seed,
        pairing,
        ..SimConfig::default()
    };
    simulate(&cfg, &mut |_| true).unwrap().report
}

/// Balanced pairing makes the closest games (it minimises the sum of |E − ½| each round,
/// rematches aside), nearest-rating matchmaking with noise less close, random pairing the
/// least; every rule plays every match asked for, and a seed repeats itself.
#[test]
fn balanced_pairs_closer_games_than_nearest_and_nearest_than_random() {
    for seed in [1, 2] {
        let [b, s, n, r] = [
            SimPairing::Balanced,
            SimPairing::Swiss,
            SimPairing::Nearest,
            SimPairing::Random,
        ]
        .map(|p| run(p, seed));
        for x in [&b, &s, &n, &r] {
            assert_eq!(x.matches, 4 * 150);
            let e = x.mean_abs_e.unwrap();
            assert!((0.0..0.5).contains(&e), "{e}");
        }
        let (eb, en, er) = (
            b.mean_abs_e.unwrap(),
            n.mean_abs_e.unwrap(),
            r.mean_abs_e.unwrap(),
        );
        assert!(eb < en && en < er, "seed {seed}: {eb} {en} {er}");
        assert_eq!(run(SimPairing::Balanced, seed), b);
        assert_eq!(b.pairing, SimPairing::Balanced);
    }
}

/// The first games of a ladder are between newcomers of equal rating: under any pairing rule
/// a one-week, one-match-a-day simulation starts at E = ½ exactly.
#[test]
fn a_first_game_between_newcomers_is_even() {
    let cfg = SimConfig {
        players: 2,
        weeks: 1,
        matches_per_week: 1,
        pairing: SimPairing::Balanced,
        ..SimConfig::default()
    };
    let r = simulate(&cfg, &mut |_| true).unwrap().report;
    assert_eq!(r.matches, 1);
    assert_eq!(r.mean_abs_e, Some(0.0));
}
