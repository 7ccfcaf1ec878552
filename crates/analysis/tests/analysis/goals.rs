//! Scores, margins and match importance through the ladder: a score or class under
//! the default rules changes nothing; a bigger win never moves ratings less under any margin
//! option or the goals model; the goals model's probabilities stay finite and sum to 1 over
//! its declared box; a synthetic league's strengths and home advantage are recovered; a fit
//! never reads past its split.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_analysis::fit::{Objective, fit, fit_for};
use rungs_ladder::event::{Event, EventClass, Home, Match, MatchResult, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, replay_state};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::score::outcome_of;
use rungs_ladder::state::Skill;
use rungs_rating::{DrawThreshold, Outcome, goals};

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

fn scored(a: PlayerId, b: PlayerId, g: [u32; 2], class: Option<EventClass>) -> Event {
    Event::Match(Match {
        goals: Some(g),
        class,
        home: Some(Home::A),
        ..Match::new(a, b, MatchResult::Played(outcome_of(g)))
    })
}

fn replay(rules: &Rules, events: &[Event]) -> Ladder {
    replay_state(
        rules,
        events
            .iter()
            .enumerate()
            .map(|(i, e)| (day(i as u64), i as u64 + 1, e)),
    )
    .unwrap()
}

/// A small log: four teams, each match scored and classed.
fn small_log() -> Vec<Event> {
    let mut events: Vec<Event> = (0..4).map(join).collect();
    let scores = [
        [3, 1],
        [0, 0],
        [1, 2],
        [5, 0],
        [2, 2],
        [1, 0],
        [0, 4],
        [2, 1],
    ];
    let classes = [
        Some(EventClass::Friendly),
        Some(EventClass::Cup),
        None,
        Some(EventClass::Championship),
        Some(EventClass::League),
        Some(EventClass::Cup),
        None,
        Some(EventClass::Friendly),
    ];
    for (i, (g, c)) in scores.iter().zip(classes).enumerate() {
        let (a, b) = (i as u32 % 4, (i as u32 + 1 + i as u32 / 4) % 4);
        events.push(scored(a, b, *g, c));
    }
    events
}

/// Without the score and class: the same matches as a ladder from before scores kept.
fn stripped(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .map(|e| match e {
            Event::Match(m) => Event::Match(Match {
                goals: None,
                class: None,
                ..m.clone()
            }),
            other => other.clone(),
        })
        .collect()
}

fn skills(l: &Ladder) -> Vec<Skill> {
    l.players.iter().map(|p| p.skill).collect()
}

/// Under every system's default rules (no margin, every class 1) a score and a named class
/// move nothing (a class given as a number is its own weight, whatever the rules): the ratings are those of the same log without them, to the bit. The goals model
/// is the one system that reads the score by design.
#[test]
fn a_score_under_the_default_rules_changes_nothing() {
    let log = small_log();
    for s in System::ALL {
        if s == System::Goals {
            continue;
        }
        let mut rules = Rules::defaults(s);
        rules.advantage = 80.0;
        assert_eq!(
            skills(&replay(&rules, &log)),
            skills(&replay(&rules, &stripped(&log))),
            "{s}"
        );
    }
}

/// The Elo update with each margin option, by hand. A (1500, at home, advantage 0) beats B
/// (1500) 4-1, K = 32: E = ½, so the plain change is 16.
///   none: 16; wfe (N = 3): 16·1.75 = 28; sqrt: 16·√3 = 27.712813;
///   log (lead 0): 16·ln 4/ln 2 = 32; a championship with k_championship = 1.5: 16·1.5 = 24.
#[test]
fn elo_margin_options_by_hand() {
    let log = [join(0), join(1), scored(0, 1, [4, 1], None)];
    let after = |assign: &[&str]| {
        let mut rules = Rules::defaults(System::Elo);
        for a in assign {
            rules.assign(a).unwrap();
        }
        replay(&rules, &log).players[0].skill.rating_1500() - 1500.0
    };
    assert_eq!(after(&[]), 16.0);
    assert_eq!(after(&["margin=none"]), 16.0);
    assert_eq!(after(&["margin=wfe"]), 28.0);
    assert!((after(&["margin=sqrt"]) - 27.712_813).abs() < 1e-6);
    assert!((after(&["margin=log"]) - 32.0).abs() < 1e-9);
    let cup = [
        join(0),
        join(1),
        scored(0, 1, [1, 0], Some(EventClass::Championship)),
    ];
    let mut rules = Rules::defaults(System::Elo);
    rules.assign("k_championship=1.5").unwrap();
    assert_eq!(replay(&rules, &cup).players[0].skill.rating_1500(), 1524.0);
    // A class given as a number is its weight: 2 doubles the plain 16.
    let heavy = [
        join(0),
        join(1),
        scored(0, 1, [1, 0], Some(EventClass::Weight(2.0))),
    ];
    let plain = Rules::defaults(System::Elo);
    assert_eq!(
        replay(&plain, &heavy).players[0].skill.rating_1500(),
        1532.0
    );
    // The log option's autocorrelation: A led by 200 (B started 200 lower through a migration
    // is awkward here; a side advantage of 200 does the same): E = 1/(1 + 10^(−0.5)) =
    // 0.7597469, change 32·(1 − 0.7597469)·2·2.2/2.4 = 14.0948.
    let mut rules = Rules::defaults(System::Elo);
    rules.assign("margin=log").unwrap();
    rules.advantage = 200.0;
    let a = replay(&rules, &log).players[0].skill.rating_1500() - 1500.0;
    assert!(
        (a - 32.0 * (1.0 - 0.759_746_9) * 2.0 * 2.2 / 2.4).abs() < 1e-5,
        "{a}"
    );
}

/// The rules that may weigh a margin: each family system under each option, and the goals
/// model.
fn margin_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for s in [
        System::Elo,
        System::Skyweaver,
        System::Inversus,
        System::Memoir44,
    ] {
        for option in ["none", "wfe", "log", "sqrt"] {
            let mut r = Rules::defaults(s);
            r.assign(&format!("margin={option}")).unwrap();
            r.advantage = 60.0;
            out.push(r);
        }
    }
    let mut entering = Rules::defaults(System::Skyweaver);
    for p in ["margin=log", "entry=0.5", "entry_offset=-200"] {
        entering.assign(p).unwrap();
    }
    out.push(entering);
    out.push(Rules::defaults(System::Goals));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A bigger win never moves the winner up less, nor the loser down less, whatever came
    /// before (random earlier matches) and under every margin option.
    #[test]
    fn a_bigger_win_never_moves_ratings_less(
        history in prop::collection::vec((0u32..3, 0u32..3, 0u32..5, 0u32..5), 0..12),
        loser in 0u32..4,
        extra in 1u32..6,
    ) {
        let mut log: Vec<Event> = (0..3).map(join).collect();
        for (a, b, x, y) in history {
            if a != b {
                log.push(scored(a, b, [x, y], None));
            }
        }
        for rules in margin_rules() {
            let before = replay(&rules, &log);
            let win = |g: [u32; 2]| {
                let mut l = log.clone();
                l.push(scored(0, 1, g, None));
                let after = replay(&rules, &l);
                (
                    after.players[0].skill.rating_1500() - before.players[0].skill.rating_1500(),
                    after.players[1].skill.rating_1500() - before.players[1].skill.rating_1500(),
                )
            };
            let (small_a, small_b) = win([loser + 1, loser]);
            let (big_a, big_b) = win([loser + 1 + extra, loser]);
            prop_assert!(big_a >= small_a - 1e-9, "{:?}: {} < {}", rules.system(), big_a, small_a);
            prop_assert!(big_b <= small_b + 1e-9, "{:?}: {} > {}", rules.system(), big_b, small_b);
        }
    }

    /// Over the declared box of the goals model (and strengths as far as a log can push
    /// them), P(win), P(draw), P(loss) are finite, within [0, 1], and sum to 1; an update
    /// stays finite too.
    #[test]
    fn goals_probabilities_sum_to_one_over_the_box(
        mu in -2.0f64..2.0,
        rho in -0.6f64..0.3,
        v in 0.001f64..2.0,
        step in 0.0f64..5.0,
        share in 0.0f64..1.0,
        cap in 1.0f64..1000.0,
        home_split in 0.0f64..1.0,
        entry in 0.0f64..1.0,
        entry_offset in -2.0f64..2.0,
        attack in -11.0f64..11.0,
        defence in -11.0f64..11.0,
        advantage in -3.0f64..3.0,
        g in 0u32..1001,
        h in 0u32..1001,
    ) {
        let cfg = goals::Config {
            mu, rho, initial_variance: v, drift: 0.0, step, share, cap, home_split,
            entry, entry_offset,
        };
        let a = goals::Rating { attack, defence, variance: v };
        let b = goals::Rating { attack: defence, defence: attack, variance: v };
        let p = goals::predict_with_advantage(&a, &b, advantage, &cfg);
        for x in [p.win_a, p.draw, p.win_b] {
            prop_assert!(x.is_finite() && (0.0..=1.0).contains(&x), "{p:?}");
        }
        prop_assert!((p.win_a + p.draw + p.win_b - 1.0).abs() < 1e-9, "{p:?}");
        let r = goals::rate(&a, &b, Some((g, h)), outcome_of([g, h]), advantage, 10.0, &cfg);
        prop_assert!(r.attack.is_finite() && r.defence.is_finite() && r.variance > 0.0);
        prop_assert!(r.rating().is_finite());
    }
}

/// A tiny deterministic generator (SplitMix64), so the synthetic league is the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Knuth's Poisson sampler (λ below 10 here).
    fn poisson(&mut self, lambda: f64) -> u32 {
        let (limit, mut k, mut p) = ((-lambda).exp(), 0u32, 1.0);
        loop {
            p *= self.next();
            if p <= limit {
                return k;
            }
            k += 1;
        }
    }
}

/// A league of 12 teams with known attack and defence (−0.4 … 0.4 on the log scale), μ = 0.3
/// and a home advantage of 0.3 (105 rating points at 350 a log unit), each pair meeting home
/// and away every season for 12 seasons (1,584 matches).
fn synthetic_league() -> (Vec<(f64, f64)>, Vec<Effective>) {
    let n = 12u32;
    let truth: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let x = i as f64 / (n - 1) as f64 - 0.5;
            (0.8 * x, 0.8 * ((i * 5 % n) as f64 / (n - 1) as f64 - 0.5))
        })
        .collect();
    let mut rng = Rng(26);
    let mut events: Vec<Effective> = (0..n)
        .map(|id| Effective {
            date: day(0),
            seq: u64::from(id) + 1,
            event: join(id),
        })
        .collect();
    let mut d = 1;
    for _season in 0..12 {
        for a in 0..n {
            for b in 0..n {
                if a == b {
                    continue;
                }
                let la = (0.3 + 0.3 + truth[a as usize].0 - truth[b as usize].1).exp();
                let lb = (0.3 + truth[b as usize].0 - truth[a as usize].1).exp();
                let g = [rng.poisson(la), rng.poisson(lb)];
                d += 1;
                events.push(Effective {
                    date: day(d / 4),
                    seq: events.len() as u64 + 1,
                    event: scored(a, b, g, None),
                });
            }
        }
    }
    (truth, events)
}

/// The goals model learns the league's strengths and the fit finds its home advantage.
/// Tolerances: the fitted advantage within 35 points of the true 105 (about a tenth of a goal
/// at these rates); each team's final attack and defence within 0.2 of the truth on average
/// (the filter's own noise at ~260 matches a team), and in the same order (Spearman-like: the
/// correlation of estimate and truth above 0.8 for both).
#[test]
fn a_synthetic_league_is_recovered() {
    let (truth, events) = synthetic_league();
    let until = events.last().unwrap().date + chrono::Days::new(1);
    let start = Rules::defaults(System::Goals);
    let f = fit(&start, &["advantage"], &events, until, &mut |_, _| true).unwrap();
    let h = f.rules.advantage;
    assert!((h - 105.0).abs() < 35.0, "fitted advantage {h}");
    let log: Vec<(NaiveDate, u64, &Event)> =
        events.iter().map(|e| (e.date, e.seq, &e.event)).collect();
    let ladder = replay_state(&f.rules, log.iter().copied()).unwrap();
    let est: Vec<(f64, f64)> = ladder
        .players
        .iter()
        .map(|p| match p.skill {
            Skill::Goals(r) => (r.attack, r.defence),
            other => panic!("{other:?}"),
        })
        .collect();
    let corr = |x: &[f64], y: &[f64]| {
        let m = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let (mx, my) = (m(x), m(y));
        let cov: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
        let sx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum::<f64>().sqrt();
        let sy: f64 = y.iter().map(|b| (b - my).powi(2)).sum::<f64>().sqrt();
        cov / (sx * sy)
    };
    let pick = |v: &[(f64, f64)], first: bool| -> Vec<f64> {
        v.iter().map(|p| if first { p.0 } else { p.1 }).collect()
    };
    for first in [true, false] {
        let (t, e) = (pick(&truth, first), pick(&est, first));
        let c = corr(&t, &e);
        assert!(c > 0.8, "correlation {c} (attack: {first})");
        let mae = t.iter().zip(&e).map(|(a, b)| (a - b).abs()).sum::<f64>() / t.len() as f64;
        assert!(mae < 0.2, "mean error {mae} (attack: {first})");
    }
}

/// The split is honoured: whatever the matches after `until` say, the fitted values are the
/// same (only the test half's scores change).
#[test]
fn a_fit_never_reads_past_its_split() {
    let (_, events) = synthetic_league();
    let until = events[events.len() / 2].date;
    let mut changed = events.clone();
    for e in changed.iter_mut().filter(|e| e.date >= until) {
        if let Event::Match(m) = &mut e.event {
            let [x, y] = m.goals.unwrap();
            m.goals = Some([y + 3, x]);
            m.result = MatchResult::Played(outcome_of([y + 3, x]));
        }
    }
    let start = Rules::defaults(System::Goals);
    for objective in [Objective::Expected, Objective::ThreeOutcome] {
        let run = |log: &[Effective]| {
            fit_for(
                &start,
                &["advantage", "step"],
                log,
                until,
                objective,
                &mut |_, _| true,
            )
            .unwrap()
        };
        let (a, b) = (run(&events), run(&changed));
        assert_eq!(a.rules, b.rules, "{objective:?}");
        assert_eq!(a.fitted.train, b.fitted.train);
        assert_ne!(a.fitted.test, b.fitted.test);
    }
}

/// The ordered logit gives every system draws: it keeps the favourite favoured, its θ moves
/// toward a log's draw rate, and it stays finite at the edges.
#[test]
fn every_system_predicts_draws() {
    let mut t = DrawThreshold::default();
    let p = t.predict(0.5);
    // θ = 0.5 between equals: win = loss = σ(−0.5) = 0.3775407, draw 0.2449187.
    assert!((p.win_a - 0.377_540_7).abs() < 1e-7 && (p.draw - 0.244_918_7).abs() < 1e-6);
    assert!(t.predict(0.8).win_a > t.predict(0.8).win_b);
    for e in [0.0, 1.0, f64::NAN] {
        let p = t.predict(e);
        assert!((p.win_a + p.draw + p.win_b - 1.0).abs() < 1e-9, "{p:?}");
    }
    let start = t.theta;
    for _ in 0..200 {
        t.learn(0.5, Outcome::Draw);
    }
    assert!(t.theta > start);
}

/// The margin's strength γ (`margin_power`) by hand, Elo K = 32, 1500 against 1500, 4-1 (the
/// plain change 16): log (lead 0) m = ln 4/ln 2 = 2, at γ = 0.5 √2 → 16·1.4142136 =
/// 22.627417, at γ = 0 → 16 as without a margin; wfe m = 1.75, at γ = 2 → 16·3.0625 = 49.
#[test]
fn the_margins_strength_by_hand() {
    let log = [join(0), join(1), scored(0, 1, [4, 1], None)];
    let after = |assign: &[&str]| {
        let mut rules = Rules::defaults(System::Elo);
        for a in assign {
            rules.assign(a).unwrap();
        }
        replay(&rules, &log).players[0].skill.rating_1500() - 1500.0
    };
    assert!((after(&["margin=log", "margin_power=0.5"]) - 22.627_417).abs() < 1e-6);
    assert_eq!(after(&["margin=log", "margin_power=0"]), 16.0);
    assert_eq!(after(&["margin=wfe", "margin_power=2"]), 49.0);
    assert!(
        Rules::defaults(System::Elo)
            .assign("margin_power=-1")
            .is_err()
    );
}

/// The goals model's `cap`: a 9-1 with cap 3 moves the winner exactly as a 3-1 does (attack
/// 0.1299353, defence 0.0275486: `rating::goals`'s step by hand), and the loser's defence
/// as a 3-1 too; the default counts every goal.
#[test]
fn the_goals_cap_by_hand() {
    let mut rules = Rules::defaults(System::Goals);
    rules.assign("cap=3").unwrap();
    let rout = [
        join(0),
        join(1),
        Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win))),
    ];
    let with = |g: [u32; 2], rules: &Rules| {
        let mut log = rout.to_vec();
        if let Event::Match(m) = &mut log[2] {
            m.goals = Some(g);
        }
        skills(&replay(rules, &log))
    };
    assert_eq!(with([9, 1], &rules), with([3, 1], &rules));
    let Skill::Goals(a) = with([3, 1], &rules)[0] else {
        panic!("goals skill")
    };
    assert!((a.attack - 0.129_935_3).abs() < 1e-7 && (a.defence - 0.027_548_6).abs() < 1e-7);
    let plain = Rules::defaults(System::Goals);
    assert_ne!(with([9, 1], &plain), with([3, 1], &plain));
}

/// The advantage's split by hand, μ = 0.3, A (attack 0.2, defence 0.4) at home against B
/// (−0.1, 0.1), h = 0.25, σ = 0.4: λ_A = exp(0.3 + 0.6·0.25 + 0.2 − 0.1) = exp(0.55) =
/// 1.7332530, λ_B = exp(0.3 − 0.4·0.25 − 0.1 − 0.4) = exp(−0.3) = 0.7408182; B at home
/// mirrors it; σ = 0 is the whole advantage on A's goals, as before (λ_A = e^0.65, λ_B = e^−0.2).
#[test]
fn the_advantage_split_by_hand() {
    let cfg = goals::Config {
        home_split: 0.4,
        ..goals::Config::default()
    };
    let a = goals::Rating {
        attack: 0.2,
        defence: 0.4,
        variance: 0.1,
    };
    let b = goals::Rating {
        attack: -0.1,
        defence: 0.1,
        variance: 0.1,
    };
    let (la, lb) = goals::expected_goals(&a, &b, 0.25, &cfg);
    assert!(
        (la - 1.733_253_0).abs() < 1e-7 && (lb - 0.740_818_2).abs() < 1e-7,
        "{la} {lb}"
    );
    let (la, lb) = goals::expected_goals(&a, &b, -0.25, &cfg);
    // B favoured: λ_A = exp(0.3 − 0.1 + 0.2 − 0.1) = e^0.3, λ_B = exp(0.3 + 0.15 − 0.1 − 0.4)
    // = e^−0.05.
    assert!((la - 0.3f64.exp()).abs() < 1e-12 && (lb - (-0.05f64).exp()).abs() < 1e-12);
    let (la, lb) = goals::expected_goals(&a, &b, 0.25, &goals::Config::default());
    assert!((la - 0.65f64.exp()).abs() < 1e-12 && (lb - (-0.2f64).exp()).abs() < 1e-12);
}

/// A newcomer's entry by hand: with entry 1 and offset −0.1, a newcomer (0, 0, v = 0.1)
/// meeting a rated side (attack 0.2, defence 0.1) enters at (0.2 − 0.1, 0.1 − 0.1) = (0.1,
/// 0.0), in prediction and update alike; two newcomers stay at 0; the defaults (0 and 0) leave
/// a newcomer at the pool's zero, as before.
#[test]
fn a_newcomer_enters_at_its_first_opponents_level() {
    let cfg = goals::Config {
        entry: 1.0,
        entry_offset: -0.1,
        ..goals::Config::default()
    };
    let new = goals::Rating::new(&cfg);
    let rated = goals::Rating {
        attack: 0.2,
        defence: 0.1,
        variance: 0.05,
    };
    let e = goals::entered(&new, &rated, &cfg);
    assert!((e.attack - 0.1).abs() < 1e-15 && e.defence.abs() < 1e-15 && e.variance == 0.1);
    assert_eq!(goals::entered(&rated, &new, &cfg), rated);
    assert_eq!(goals::entered(&new, &new, &cfg), new);
    assert_eq!(
        goals::predict_with_advantage(&new, &rated, 0.0, &cfg),
        goals::predict_with_advantage(&e, &rated, 0.0, &cfg)
    );
    let after = goals::rate(&new, &rated, Some((1, 1)), Outcome::Draw, 0.0, 1.0, &cfg);
    let from_e = goals::rate(&e, &rated, Some((1, 1)), Outcome::Draw, 0.0, 1.0, &cfg);
    assert_eq!(after, from_e);
    let plain = goals::Config::default();
    assert_eq!(goals::entered(&new, &rated, &plain), new);
}
