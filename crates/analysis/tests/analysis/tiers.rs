//! Tier minimums proposed for random target shares are always a table the rules accept:
//! finite, strictly increasing, Master's at most the weekly cap.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use rungs_analysis::tiers::{Targets, propose};
use rungs_ladder::event::{Event, Match, MatchResult};
use rungs_ladder::log::Effective;
use rungs_ladder::rules::Rules;
use rungs_ladder::tiers::MASTER_CAP;
use rungs_rating::Outcome;

/// Ten players over three seasons: in each, every player beats each numbered above them
/// `wins` times, then the season button.
fn log(wins: u32) -> Vec<Effective> {
    let day = |n: u64| NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n);
    let mut events = Vec::new();
    let mut push = |date, event| {
        let seq = events.len() as u64 + 1;
        events.push(Effective { date, seq, event });
    };
    for id in 0..10 {
        let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap();
        push(
            day(0),
            Event::Player {
                id,
                name,
                undated: false,
            },
        );
    }
    for season in 0..3 {
        for a in 0..10 {
            for b in a + 1..10 {
                for _ in 0..wins {
                    let m = Match::new(a, b, MatchResult::Played(Outcome::Win));
                    push(day(1 + 10 * season), Event::Match(m));
                }
            }
        }
        push(day(9 + 10 * season), Event::HardReset);
    }
    events
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn proposed_minimums_are_finite_and_increasing(
        weights in proptest::collection::vec(0u32..100, 11),
        wins in 1u32..4,
    ) {
        let total: u32 = weights.iter().sum();
        prop_assume!(total > 0);
        let mut shares = [0.0; 11];
        for (s, w) in shares.iter_mut().zip(&weights) {
            *s = 100.0 * f64::from(*w) / f64::from(total);
        }
        let targets = Targets::new(shares).unwrap();
        let p = propose(&Rules::default(), &log(wins), &targets, &mut |_| true).unwrap();
        let m = p.after.minimums();
        prop_assert!(m.iter().all(|x| x.is_finite() && *x >= 0.0), "{m:?}");
        prop_assert!(m.windows(2).all(|w| w[0] < w[1]), "{m:?}");
        prop_assert!(m[10] <= MASTER_CAP, "{m:?}");
        prop_assert_eq!(p.after.check(), Ok(()));
        prop_assert!(p.rounds <= rungs_analysis::tiers::MAX_ROUNDS);
        // Every season end is counted once: ten players, three seasons.
        prop_assert_eq!(p.counts_after.iter().sum::<u32>(), 30);
    }
}
