//! The goals model's newcomers at the pool's mean (`entry_pool`): the replay keeps
//! the sums of attack and defence over the rated sides as ratings change, and a newcomer
//! enters at `entry_pool`·their mean plus the other entry terms. By hand on three players;
//! the kept sums equal a recount after every event of random logs; off by default.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::event::{Event, Home, Match, MatchResult, PlayerId, Side};
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::score::outcome_of;
use rungs_ladder::state::Skill;
use rungs_rating::goals;

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 1).unwrap() + chrono::Days::new(n)
}

fn join(id: PlayerId) -> Event {
    Event::Player {
        id,
        name: rungs_ladder::values::PlayerName::parse(&format!("T{id}")).unwrap(),
        undated: false,
    }
}

/// A neutral match with its score.
fn scored(a: PlayerId, b: PlayerId, g: [u32; 2]) -> Event {
    Event::Match(Match {
        goals: Some(g),
        ..Match::new(a, b, MatchResult::Played(outcome_of(g)))
    })
}

/// Every event on one day, so that no variance grows with idle time.
fn replay(rules: &Rules, events: &[Event]) -> Ladder {
    replay_state(
        rules,
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (day(0), i as u64 + 1, e)),
    )
    .unwrap()
}

fn goals_of(l: &Ladder, id: usize) -> goals::Rating {
    match l.players[id].skill {
        Skill::Goals(r) => r,
        other => panic!("a goals skill, not {other:?}"),
    }
}

fn pooled(share: &str) -> Rules {
    let mut rules = Rules::defaults(System::Goals);
    rules.assign(&format!("entry_pool={share}")).unwrap();
    rules
}

/// Three players by hand, μ = 0.3, v₀ = 0.1, no advantage, entry_pool 1 (entry and offset 0).
///
/// A and B, both new, meet with nobody rated: the pool's mean is (0, 0), so A's 3-1 win is the
/// plain step (goals.rs `the_step_by_hand`): A (0.1299353, 0.0275486), B (−0.0275486,
/// −0.1299353), both v 0.0893710. The pool then holds two sides: sums attack 0.1299353 −
/// 0.0275486 = 0.1023867, defence −0.1023867, mean (0.0511934, −0.0511934).
///
/// C, new, draws 1-1 with A and enters at that mean:
///   λ_C = exp(0.3 + 0.0511934 − 0.0275486) = exp(0.3236448) = 1.3821563;
///   λ_A = exp(0.3 + 0.1299353 + 0.0511934) = exp(0.4811287) = 1.6178994;
///   prior 0.1 + 0.0893710 = 0.1893710; gains 0.1/(1 + λ·0.1893710): 0.0792556 (λ_C),
///   0.0765472 (λ_A);
///   attack' = 0.0511934 + 0.0792556·(1 − 1.3821563) = 0.0209053;
///   defence' = −0.0511934 + 0.0765472·(1.6178994 − 1) = −0.0038949;
///   v' = 0.1·(1 − 1.5000278·0.1/(1 + 1.5000278·0.1893710)) = 0.0883181.
/// Under the defaults C would have entered at (0, 0) instead.
#[test]
fn a_newcomer_enters_at_the_pools_mean_by_hand() {
    let rules = pooled("1");
    let first: Vec<Event> = vec![join(0), join(1), join(2), scored(0, 1, [3, 1])];
    let l = replay(&rules, &first);
    let pool = l.goals_pool.0.expect("kept from the first match on");
    assert_eq!(pool.count, 2);
    assert!((pool.attack - 0.102_386_7).abs() < 1e-7, "{pool:?}");
    assert!((pool.defence + 0.102_386_7).abs() < 1e-7, "{pool:?}");
    let (ma, md) = l.goals_level().unwrap();
    assert!((ma - 0.051_193_4).abs() < 1e-7 && (md + 0.051_193_4).abs() < 1e-7);
    // Half the share, half the level.
    let mut half = l.clone();
    half.rules = pooled("0.5");
    let (ha, hd) = half.goals_level().unwrap();
    assert!((ha - ma / 2.0).abs() < 1e-15 && (hd - md / 2.0).abs() < 1e-15);

    let mut all = first.clone();
    all.push(scored(2, 0, [1, 1]));
    let l = replay(&rules, &all);
    let c = goals_of(&l, 2);
    assert!((c.attack - 0.020_905_3).abs() < 1e-7, "{c:?}");
    assert!((c.defence + 0.003_894_9).abs() < 1e-7, "{c:?}");
    assert!((c.variance - 0.088_318_1).abs() < 1e-7, "{c:?}");
    let pool = l.goals_pool.0.unwrap();
    assert_eq!(pool.count, 3);
    assert_eq!(
        Some(pool).map(|p| p.count),
        l.recount_goals_pool().map(|p| p.count)
    );

    // The defaults: C enters at (0, 0), as before the parameter, and nothing is kept.
    let plain = replay(&Rules::defaults(System::Goals), &all);
    assert!(plain.goals_pool.0.is_none());
    assert_eq!(plain.goals_level(), None);
    let c0 = goals_of(&plain, 2);
    let a0 = goals_of(&replay(&Rules::defaults(System::Goals), &first), 0);
    let by_rate = goals::rate(
        &goals::Rating::new(&goals::Config::default()),
        &a0,
        Some((1, 1)),
        rungs_rating::Outcome::Draw,
        0.0,
        1.0,
        &goals::Config::default(),
    );
    assert_eq!(c0, by_rate);
    assert!((c0.attack - c.attack).abs() > 0.01);
}

/// Prediction sees the newcomer where the update starts it: C against A predicted through
/// the ladder equals the model's prediction from C at the pool's mean.
#[test]
fn prediction_uses_the_pools_level() {
    let rules = pooled("1");
    let l = replay(&rules, &[join(0), join(1), join(2), scored(0, 1, [3, 1])]);
    let cfg = match &rules.params {
        rungs_ladder::rules::Params::Goals(p) => p.goals,
        _ => unreachable!(),
    };
    let (ma, md) = l.goals_level().unwrap();
    let at_mean = goals::Rating {
        attack: ma,
        defence: md,
        variance: cfg.initial_variance,
    };
    let want = goals::predict_with_advantage(&at_mean, &goals_of(&l, 0), 0.0, &cfg);
    let got = goals::predict_at(
        &goals_of(&l, 2),
        &goals_of(&l, 0),
        0.0,
        l.goals_level(),
        &cfg,
    );
    assert_eq!(want, got);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// After every event of a random log (duels with and without a score, home sides, 2v2
    /// matches, a rules change, forfeits), the kept sums equal a recount of every player.
    #[test]
    fn the_kept_sums_equal_a_recount(
        steps in prop::collection::vec(
            (0u32..6, 0u32..6, 0u32..6, 0u32..6, 0u32..5, 0u32..5, 0u8..8),
            1..40,
        ),
    ) {
        let mut rules = pooled("0.8");
        rules.assign("entry=0.4").unwrap();
        rules.assign("entry_offset=-0.2").unwrap();
        rules.assign("drift=0.001").unwrap();
        let mut ladder = Ladder::new(rules.clone());
        let mut history = Vec::new();
        let mut seq = 0;
        let mut push = |ladder: &mut Ladder, n: u64, e: Event| {
            seq += 1;
            ladder.apply(day(n), seq, &e, &mut history).unwrap();
            history.clear();
        };
        for id in 0..6 {
            push(&mut ladder, 0, join(id));
        }
        for (i, (a, b, c, d, x, y, kind)) in steps.into_iter().enumerate() {
            let n = i as u64;
            let event = match kind {
                _ if a == b => continue,
                0 => Event::Match(Match {
                    home: Some(Home::A),
                    ..Match::new(a, b, MatchResult::Played(outcome_of([x, y])))
                }),
                1 if c != d && ![a, b].contains(&c) && ![a, b].contains(&d) => {
                    Event::Match(Match {
                        a: Side::from(vec![a, c]),
                        b: Side::from(vec![b, d]),
                        goals: Some([x, y]),
                        ..Match::new(a, b, MatchResult::Played(outcome_of([x, y])))
                    })
                }
                2 => Event::Match(Match::new(a, b, MatchResult::ForfeitA)),
                3 if i % 7 == 3 => {
                    let mut r = rules.clone();
                    r.assign("step=0.7").unwrap();
                    Event::Rules { rules: Box::new(r) }
                }
                _ => scored(a, b, [x, y]),
            };
            push(&mut ladder, n, event);
            if let Some(kept) = ladder.goals_pool.0 {
                let fresh = ladder.recount_goals_pool().unwrap();
                prop_assert_eq!(kept.count, fresh.count);
                prop_assert!((kept.attack - fresh.attack).abs() < 1e-9, "{:?} {:?}", kept, fresh);
                prop_assert!((kept.defence - fresh.defence).abs() < 1e-9, "{:?} {:?}", kept, fresh);
            }
        }
        // A rated match keeps the pool whatever came before, and it still agrees.
        push(&mut ladder, 50, scored(0, 1, [2, 1]));
        let (kept, fresh) = (ladder.goals_pool.0.unwrap(), ladder.recount_goals_pool().unwrap());
        prop_assert!(kept.count >= 2 && kept.count == fresh.count);
        prop_assert!((kept.attack - fresh.attack).abs() < 1e-9);
    }
}

/// A ladder that goes on from its stored state (the caches keep the ladder as JSON) adds to
/// the same sums as a fresh replay of the whole log, so every later newcomer starts at the
/// same level to the bit (a recount would add in id order and may differ in the last bits).
#[test]
fn a_stored_ladder_goes_on_to_the_same_bits() {
    let rules = pooled("0.9");
    let mut log: Vec<Event> = (0..12).map(join).collect();
    // Newcomers keep arriving: player k first meets one of the players before it.
    for k in 1..12u32 {
        for j in 0..k.min(4) {
            log.push(scored(k, (k * 7 + j * 5) % k, [(k + j) % 4, (k * j) % 3]));
        }
    }
    let full = replay(&rules, &log);
    for cut in [14, 20, 31, 40] {
        let head = replay(&rules, &log[..cut]);
        let stored = serde_json::to_string(&head).unwrap();
        let mut back: Ladder = serde_json::from_str(&stored).unwrap();
        assert_eq!(back.goals_pool.0, head.goals_pool.0);
        let mut history = Vec::new();
        for (i, e) in log.iter().enumerate().skip(cut) {
            back.apply(day(0), i as u64 + 1, e, &mut history).unwrap();
        }
        for id in 0..12 {
            assert_eq!(
                goals_of(&back, id),
                goals_of(&full, id),
                "cut {cut}, player {id}"
            );
        }
        assert_eq!(back.goals_pool.0, full.goals_pool.0);
    }
}

/// The entry terms together by hand, entry 0.5, offset −0.1, the pool's part (0.2, −0.1):
/// against a rated side (0.4, 0.6) a newcomer starts at (0.5·0.4 − 0.1 + 0.2, 0.5·0.6 − 0.1
/// − 0.1) = (0.3, 0.1); against another newcomer only the pool's part and the offset,
/// (0.1, −0.2); without a pool part (`None`) as before, at (0.1, 0.2) and (0, 0). The pool's
/// mean: sums (0.6, −0.3) over 3 sides is (0.2, −0.1), and `pool_level` at share 0.5 halves it.
#[test]
fn the_entry_terms_together_by_hand() {
    let cfg = goals::Config {
        entry: 0.5,
        entry_offset: -0.1,
        ..goals::Config::default()
    };
    let new = goals::Rating::new(&cfg);
    let rated = goals::Rating {
        attack: 0.4,
        defence: 0.6,
        variance: 0.05,
    };
    let close = |r: goals::Rating, a: f64, d: f64| {
        assert!(
            (r.attack - a).abs() < 1e-15 && (r.defence - d).abs() < 1e-15,
            "{r:?}"
        );
        assert_eq!(r.variance, cfg.initial_variance);
    };
    let level = Some((0.2, -0.1));
    close(goals::entered_at(&new, &rated, level, &cfg), 0.3, 0.1);
    close(goals::entered_at(&new, &new, level, &cfg), 0.1, -0.2);
    close(goals::entered_at(&new, &rated, None, &cfg), 0.1, 0.2);
    assert_eq!(goals::entered_at(&new, &new, None, &cfg), new);
    assert_eq!(goals::entered_at(&rated, &new, level, &cfg), rated);
    let pool = goals::Pool {
        attack: 0.6,
        defence: -0.3,
        count: 3,
    };
    let (a, d) = pool.mean();
    assert!((a - 0.2).abs() < 1e-15 && (d + 0.1).abs() < 1e-15);
    let (a, d) = goals::pool_level(&pool, 0.5).unwrap();
    assert!((a - 0.1).abs() < 1e-15 && (d + 0.05).abs() < 1e-15);
    assert_eq!(goals::pool_level(&pool, 0.0), None);
    assert_eq!(goals::Pool::default().mean(), (0.0, 0.0));
}
