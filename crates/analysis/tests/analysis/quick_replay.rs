//! The prediction-only replay (`ladder::quick`) predicts every match exactly as the
//! full replay does, bit for bit, and leaves every player with the same skill: over random
//! small logs (one against one and teams, every result, side flags, goals, event classes,
//! Memoir '44 scenarios and medals, renames, retirements, scenario figures) under every
//! system with its parameters moved. Where it does not cover a log (soft and hard resets,
//! migrations, rules changes) or the rules (a season calendar) it says so, and evaluate and
//! fit replay in full. The fit's lean objective equals the full score's figure to the bit.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use rungs_analysis::evaluate::{self, Lean, Window};
use rungs_ladder::event::{Event, Home, Match, MatchResult, PlayerId, ScenarioOverride, Side};
use rungs_ladder::predict::predict_match;
use rungs_ladder::quick::{Log, Replayer, Step};
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::score::EventClass;
use rungs_rating::Prediction;

use rungs_testkit::strategies;

fn day(n: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new(n.into())
}

/// Every system with parameters that reach each branch of the per-match glue: idle growth,
/// side advantage, margins and class weights, the observed draw rate.
const TWEAKS: &[(System, &str)] = &[
    (System::Skyweaver, ""),
    (
        System::Skyweaver,
        "c_per_day=3 advantage=90 margin=1 k_friendly=0.6",
    ),
    (
        System::Skyweaver,
        "c_per_day=40 margin=3 k_championship=1.5",
    ),
    (
        System::Skyweaver,
        "entry=0.5 entry_offset=-200 margin=2 advantage=40",
    ),
    (System::Inversus, ""),
    (System::Inversus, "days_per_period=3 advantage=120 margin=2"),
    (System::Allegskill, ""),
    (System::Allegskill, "draw_rate=observed advantage=60 beta=3"),
    (System::Memoir44, ""),
    (
        System::Memoir44,
        "points=20 advantage=50 margin=1 k_cup=0.7",
    ),
    (System::Elo, ""),
    (
        System::Elo,
        "k=16 advantage=100 margin=2 k_friendly=0.5 k_league=1.2",
    ),
    (System::Goals, ""),
    (
        System::Goals,
        "advantage=80 drift=0.001 step=1.5 share=0.3 rho=-0.2 w_friendly=0.5",
    ),
];

fn tweaked() -> impl Strategy<Value = Rules> {
    prop::sample::select(TWEAKS).prop_map(|(system, params)| {
        let mut rules = Rules::defaults(system);
        for p in params.split_whitespace() {
            rules.assign(p).expect("a known parameter");
        }
        rules
    })
}

/// One step of a generated log, before players are chosen for it.
#[derive(Debug, Clone)]
enum Raw {
    /// Players drawn by index (distinct ones picked from the joined), team sizes, result,
    /// side flag, goals, class, Memoir '44 extras.
    Match {
        picks: [usize; 4],
        teams: bool,
        result: MatchResult,
        home: Option<Home>,
        goals: Option<[u32; 2]>,
        class: Option<EventClass>,
        scenario: bool,
    },
    Rename(usize),
    Retire(usize, bool),
    Figures,
    SoftReset,
    HardReset,
}

fn raw() -> impl Strategy<Value = Raw> {
    let home = prop_oneof![
        Just(None),
        Just(Some(Home::A)),
        Just(Some(Home::B)),
        Just(Some(Home::Neutral))
    ];
    let class = prop_oneof![
        3 => Just(None),
        1 => Just(Some(EventClass::Friendly)),
        1 => Just(Some(EventClass::League)),
        1 => Just(Some(EventClass::Cup)),
        1 => Just(Some(EventClass::Championship)),
        1 => (1u32..40).prop_map(|w| Some(EventClass::Weight(f64::from(w) / 4.0))),
    ];
    let goals = prop_oneof![
        Just(None),
        (0u32..6, 0u32..6).prop_map(|(a, b)| Some([a, b]))
    ];
    prop_oneof![
        30 => (
            [any::<usize>(), any::<usize>(), any::<usize>(), any::<usize>()],
            prop::bool::weighted(0.2),
            strategies::result(),
            home,
            goals,
            class,
            prop::bool::weighted(0.3),
        )
            .prop_map(|(picks, teams, result, home, goals, class, scenario)| Raw::Match {
                picks,
                teams,
                result,
                home,
                goals,
                class,
                scenario,
            }),
        1 => any::<usize>().prop_map(Raw::Rename),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(i, r)| Raw::Retire(i, r)),
        1 => Just(Raw::Figures),
        1 => Just(Raw::SoftReset),
        1 => Just(Raw::HardReset),
    ]
}

/// A valid log: `players` join (some later than others), then the steps, each a number of
/// days after the one before. Resets only where `resets` allows them.
fn build(players: u32, steps: &[(Raw, u32)], resets: bool) -> Vec<(NaiveDate, u64, Event)> {
    let mut out = Vec::new();
    let mut seq = 0u64;
    let mut today = 0u32;
    let mut push = |out: &mut Vec<_>, d: u32, e: Event| {
        seq += 1;
        out.push((day(d), seq, e));
    };
    for id in 0..players {
        let name = rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap();
        let undated = false;
        push(&mut out, 0, Event::Player { id, name, undated });
    }
    for (k, (raw, gap)) in steps.iter().enumerate() {
        today += gap;
        let n = players as usize;
        let event = match raw {
            Raw::Match {
                picks,
                teams,
                result,
                home,
                goals,
                class,
                scenario,
            } => {
                let mut pool: Vec<PlayerId> = (0..players).collect();
                let mut take = |i: usize| pool.remove(i % pool.len());
                let size = if *teams && n >= 4 { 2 } else { 1 };
                let a: Vec<PlayerId> = (0..size).map(|j| take(picks[j])).collect();
                let b: Vec<PlayerId> = (0..size).map(|j| take(picks[2 + j])).collect();
                let side = |ids: Vec<PlayerId>| -> Side {
                    match ids.as_slice() {
                        [one] => (*one).into(),
                        _ => ids.into(),
                    }
                };
                let mut m = Match::new(side(a), side(b), *result);
                m.home = *home;
                m.goals = *goals;
                m.class = *class;
                if *scenario {
                    m.scenario = Some(["Pegasus", "Sword"][k % 2].into());
                    m.side_a = Some(["Allies", "Axis"][picks[0] % 2].into());
                    m.medals = rungs_ladder::values::Medals::new([
                        (picks[1] % 7) as f64,
                        (picks[2] % 7) as f64,
                    ])
                    .ok();
                }
                Event::Match(m)
            }
            Raw::Rename(i) => Event::Rename {
                id: (*i % n) as PlayerId,
                name: rungs_ladder::values::PlayerName::parse(&format!("R{k}")).unwrap(),
            },
            Raw::Retire(i, retired) => Event::Retire {
                id: (*i % n) as PlayerId,
                retired: *retired,
            },
            Raw::Figures => Event::Scenario {
                figures: Box::new(ScenarioOverride {
                    scenario: "Pegasus".into(),
                    sides: ["Allies".into(), "Axis".into()],
                    ratio: 0.6,
                    averages: [4.0, 3.5],
                }),
            },
            Raw::SoftReset if resets => Event::SoftReset,
            Raw::HardReset if resets => Event::HardReset,
            Raw::SoftReset | Raw::HardReset => continue,
        };
        push(&mut out, today, event);
    }
    out
}

/// Each match's prediction as bits, in order.
type Predicted = Vec<Option<[u64; 3]>>;

/// A prediction's bits, so that −0 and 0 (or two NaNs) are told apart.
fn bits(p: Option<Prediction>) -> Option<[u64; 3]> {
    p.map(|p| [p.win_a.to_bits(), p.draw.to_bits(), p.win_b.to_bits()])
}

/// The full replay's prediction of every match, and every player's skill at the end.
fn full(rules: &Rules, events: &[(NaiveDate, u64, Event)]) -> (Predicted, Ladder) {
    let mut ladder = Ladder::new(rules.clone());
    let mut rows = Vec::new();
    let mut predicted = Vec::new();
    for (date, seq, event) in events {
        if let Event::Match(m) = event {
            predicted.push(bits(predict_match(&ladder, m, *date)));
        }
        ladder.apply(*date, *seq, event, &mut rows).unwrap();
        rows.clear();
    }
    (predicted, ladder)
}

/// The same from the prediction-only replay, or `None` where it does not cover them.
fn quick(rules: &Rules, events: &[(NaiveDate, u64, Event)]) -> Option<(Predicted, Vec<String>)> {
    let log = Log::index(events.iter().map(|(d, s, e)| (*d, *s, e)), None)?;
    let mut r = Replayer::new(rules, &log)?;
    let mut predicted = Vec::new();
    for op in &log.ops {
        match op.step {
            Step::Match(m) => {
                let going = r.going_into(m, op.day);
                predicted.push(bits(r.predict(m, &going)));
                r.apply_match(m, op.day, going);
            }
            other => r.apply_other(other),
        }
    }
    let skills = r.skills().iter().map(|s| format!("{s:?}")).collect();
    Some((predicted, skills))
}

fn check(rules: &Rules, events: &[(NaiveDate, u64, Event)]) -> Result<(), TestCaseError> {
    let (want, ladder) = full(rules, events);
    let resets = events
        .iter()
        .any(|(_, _, e)| matches!(e, Event::SoftReset | Event::HardReset));
    let calendar = rules.calendar.schedule().is_some();
    match quick(rules, events) {
        None => prop_assert!(resets || calendar, "the quick replay refused a plain log"),
        Some((got, skills)) => {
            prop_assert!(
                !resets && !calendar,
                "the quick replay took what it cannot do"
            );
            prop_assert_eq!(got, want);
            let full_skills: Vec<String> = ladder
                .players
                .iter()
                .map(|p| format!("{:?}", p.skill))
                .collect();
            prop_assert_eq!(skills, full_skills);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_quick_replay_predicts_as_the_full_one(
        rules in tweaked(),
        players in 2u32..8,
        steps in prop::collection::vec((raw(), 0u32..40), 0..60),
    ) {
        check(&rules, &build(players, &steps, false))?;
    }

    /// Season calendars and resets: the quick replay refuses them (so evaluate and fit
    /// replay in full), and takes everything else.
    #[test]
    fn seasons_and_resets_go_to_the_full_replay(
        rules in strategies::rules(),
        players in 2u32..8,
        steps in prop::collection::vec((raw(), 0u32..40), 0..40),
    ) {
        check(&rules, &build(players, &steps, true))?;
    }

    /// The fit's lean objective is the full score's figure to the bit, for both objectives.
    #[test]
    fn the_lean_objective_is_the_scores_figure(
        rules in tweaked(),
        players in 2u32..8,
        steps in prop::collection::vec((raw(), 0u32..40), 1..60),
        split in 0u32..800,
    ) {
        let events = build(players, &steps, false);
        let until = day(split);
        let log = Log::index(events.iter().map(|(d, s, e)| (*d, *s, e)), Some(until)).unwrap();
        let score = evaluate::evaluate_indexed(&rules, &log, Window::until(until), &mut |_| true)
            .unwrap()
            .unwrap();
        let full = evaluate::evaluate_in(
            &rules,
            events.iter().map(|(d, s, e)| (*d, *s, e)),
            Window::until(until),
            &mut |_| true,
        )
        .unwrap();
        prop_assert_eq!(&score, &full);
        let lean = |l| evaluate::objective_indexed(&rules, &log, until, l).unwrap().unwrap();
        prop_assert_eq!(lean(Lean::Expected).to_bits(), score.log_loss.to_bits());
        prop_assert_eq!(
            lean(Lean::ThreeOutcome).to_bits(),
            score.log_loss_3way.unwrap().to_bits()
        );
    }
}

/// Not a vacuous property: under every system at its defaults a plain log takes the quick
/// path, and its predictions are real (Elo by hand: two 1500s with +100 at home,
/// E = 1/(1 + 10^(−100/400)) = 0.640065…).
#[test]
fn every_system_takes_the_quick_path() {
    let steps = vec![
        (
            Raw::Match {
                picks: [0, 0, 0, 0],
                teams: false,
                result: MatchResult::Played(rungs_rating::Outcome::Win),
                home: Some(Home::A),
                goals: Some([2, 1]),
                class: Some(EventClass::Cup),
                scenario: false,
            },
            1,
        ),
        (Raw::Rename(1), 2),
    ];
    let events = build(3, &steps, false);
    for system in System::ALL {
        let rules = Rules::defaults(system);
        let (got, _) = quick(&rules, &events).expect("covered");
        assert_eq!(got, full(&rules, &events).0, "{system}");
    }
    let mut elo = Rules::defaults(System::Elo);
    elo.assign("advantage=100").unwrap();
    let (got, _) = quick(&elo, &events).unwrap();
    let e = f64::from_bits(got[0].unwrap()[0]);
    assert!((e - 1.0 / (1.0 + 10f64.powf(-0.25))).abs() < 1e-12, "{e}");
    assert!((e - 0.640_065).abs() < 1e-6, "{e}");
}
