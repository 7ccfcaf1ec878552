//! The goals system's shown strength under rules that start newcomers at the pool's mean
//! (`entry_pool` above 0): measured from the pool's average side, not from the model's zero,
//! which a pool whose newcomers enter below its mean sinks away from. By hand on three
//! players; on a generated league of many newcomers under the rules fitted on the
//! international results (every strength in a sane band, the standings in the order of the
//! expected goal difference against the average side, each history row the standing right
//! after its event, a reopened file the same to the bit); and the store's caches equal a
//! replay whatever is done to a file with these rules.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::replay::{Ladder, replay};
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::score::outcome_of;
use rungs_ladder::standings::{standings, to_json};
use rungs_ladder::state::{Centre, GoalsPool, HistoryRow, PlayerState, Skill};
use rungs_rating::goals;
use rungs_store::Store;

use rungs_testkit as support;
use support::TempDir;

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2000, 1, 1).unwrap() + chrono::Days::new(n)
}

fn rules(params: &[&str]) -> Rules {
    let mut rules = Rules::defaults(System::Goals);
    for p in params {
        rules.assign(p).unwrap();
    }
    rules
}

/// The rules `rungs fit` found for the goals system with the pool's level on the
/// international results: newcomers at the pool's mean, 0.381 below it.
fn fitted() -> Rules {
    rules(&[
        "entry_pool=1",
        "entry_offset=-0.381",
        "home_split=0.7905",
        "cap=4.836",
        "advantage=167",
        "rho=-0.1014",
        "drift=0.000008",
        "step=1.164",
        "share=0.6474",
        "entry=0.0256",
    ])
}

fn rated(attack: f64, defence: f64) -> Skill {
    Skill::Goals(goals::Rating {
        attack,
        defence,
        variance: 0.05,
    })
}

/// A ladder of players with these skills and no log.
fn ladder_of(rules: Rules, skills: &[Skill]) -> Ladder {
    let mut l = Ladder::new(rules);
    for (i, s) in skills.iter().enumerate() {
        let mut p = PlayerState::new(format!("T{i}"), &l.rules);
        p.skill = *s;
        l.players.push(p);
    }
    l
}

fn json_ratings(l: &Ladder) -> Vec<(String, f64)> {
    to_json(l, &standings(l))
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["player"].as_str().unwrap().to_string(),
                v["rating"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// Three sides, (a, d) = A (−0.1, 0.1), B (−0.4, −0.2), C (−0.7, −0.5); the pool's mean is
/// (c_a, c_d) = (−1.2/3, −0.6/3) = (−0.4, −0.2), so B is the average side. Shown strength
/// 1500 + 300·(e^(a − c_d) − e^(c_a − d)):
///   A: e^(−0.1 + 0.2) − e^(−0.4 − 0.1) = e^0.1 − e^−0.5 = 1.1051709181 − 0.6065306597
///      = 0.4986402584 → 1500 + 149.5920775 = 1649.5920775;
///   B: e^−0.2 − e^−0.2 = 0 → 1500 exactly;
///   C: e^−0.5 − e^0.1 = −0.4986402584 → 1350.4079225.
/// Measured from the model's zero (what was shown before, and still is under the default
/// rules): A e^−0.1 − e^−0.1 = 0 → 1500; B e^−0.4 − e^0.2 = 0.6703200460 − 1.2214027582
/// = −0.5510827122 → 1334.6751863; C e^−0.7 − e^0.5 = 0.4965853038 − 1.6487212707
/// = −1.1521359669 → 1154.3592099.
#[test]
fn strength_is_measured_from_the_pools_average_side_by_hand() {
    let skills = [rated(-0.1, 0.1), rated(-0.4, -0.2), rated(-0.7, -0.5)];
    let want = [1_649.592_077_5, 1_500.0, 1_350.407_922_5];
    let mut l = ladder_of(rules(&["entry_pool=1"]), &skills);
    let Centre(Some((ca, cd))) = l.centre() else {
        panic!("pooling rules measure from the pool")
    };
    assert!(
        (ca + 0.4).abs() < 1e-15 && (cd + 0.2).abs() < 1e-15,
        "{ca} {cd}"
    );
    // Counted afresh (no pool kept) and kept: the same figures.
    let counted: Vec<f64> = l.players.iter().map(|p| l.figures(p).rating).collect();
    l.goals_pool = GoalsPool(l.recount_goals_pool());
    for (i, p) in l.players.iter().enumerate() {
        let f = l.figures(p);
        assert!((f.rating - want[i]).abs() < 1e-6, "player {i}: {f:?}");
        assert_eq!(f.score.to_bits(), f.rating.to_bits());
        assert_eq!(f.rating.to_bits(), counted[i].to_bits());
    }
    // The average side is exactly 1500, and so is a side anywhere on the centre.
    assert_eq!(l.figures(&l.players[1]).rating, 1500.0);
    let at_centre = goals::Rating {
        attack: ca,
        defence: cd,
        variance: 0.1,
    };
    assert_eq!(at_centre.rating_against((ca, cd)), 1500.0);
    // What the standings print and order by.
    let shown = json_ratings(&l);
    let names: Vec<&str> = shown.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["T0", "T1", "T2"]);
    for ((_, r), w) in shown.iter().zip(want) {
        assert!((r - w).abs() < 1e-6, "{shown:?}");
    }

    // The default rules: measured from the model's zero, as always.
    let plain = ladder_of(Rules::defaults(System::Goals), &skills);
    assert_eq!(plain.centre(), Centre::ZERO);
    let old = [1_500.0, 1_334.675_186_3, 1_154.359_209_9];
    for (i, p) in plain.players.iter().enumerate() {
        let f = plain.figures(p);
        assert!((f.rating - old[i]).abs() < 1e-6, "player {i}: {f:?}");
        assert_eq!(f, p.figures());
    }
    // At the centre (0, 0) the measure is the model-zero one to the bit.
    for s in skills {
        let Skill::Goals(r) = s else { unreachable!() };
        assert_eq!(r.rating_against((0.0, 0.0)).to_bits(), r.rating().to_bits());
    }
}

/// SplitMix64: a deterministic stream for the generated league.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Knuth's product of uniforms.
    fn poisson(&mut self, lambda: f64) -> u32 {
        let (limit, mut k, mut p) = ((-lambda).exp(), 0u32, 1.0);
        loop {
            p *= self.unit();
            if p <= limit {
                return k;
            }
            k += 1;
        }
    }
}

/// A league of `n` sides joining one every two days, each playing three matches on arrival
/// against sides already there and three more a day among all of them; true strengths
/// spread over ±1.5 goals' log rate, scores Poisson. Dated events in replay order.
fn league(n: u32) -> Vec<(NaiveDate, Event)> {
    let mut rng = Rng(26);
    let truth: Vec<f64> = (0..n).map(|_| 3.0 * rng.unit() - 1.5).collect();
    let mut log = Vec::new();
    let play = |rng: &mut Rng, d: u64, a: u32, b: u32, log: &mut Vec<(NaiveDate, Event)>| {
        let gap = (truth[a as usize] - truth[b as usize]) / 2.0;
        let g = [
            rng.poisson((0.2 + gap).exp()),
            rng.poisson((0.2 - gap).exp()),
        ];
        let m = Match {
            goals: Some(g),
            ..Match::new(a, b, MatchResult::Played(outcome_of(g)))
        };
        log.push((day(d), Event::Match(m)));
    };
    for k in 0..n {
        let d = 2 * u64::from(k);
        log.push((
            day(d),
            Event::Player {
                id: k,
                name: rungs_ladder::values::PlayerName::parse(&format!("Side {k:03}")).unwrap(),
                undated: false,
            },
        ));
        if k == 0 {
            continue;
        }
        for _ in 0..3 {
            let other = rng.below(u64::from(k)) as u32;
            play(&mut rng, d, k, other, &mut log);
        }
        for _ in 0..3 {
            let a = rng.below(u64::from(k) + 1) as u32;
            let b = rng.below(u64::from(k) + 1) as u32;
            if a != b {
                play(&mut rng, d + 1, a, b, &mut log);
            }
        }
    }
    log
}

fn goals_of(p: &PlayerState) -> goals::Rating {
    match p.skill {
        Skill::Goals(r) => r,
        other => panic!("a goals skill, not {other:?}"),
    }
}

fn rows_of(history: &[HistoryRow], id: usize) -> Vec<HistoryRow> {
    history
        .iter()
        .filter(|r| r.player as usize == id)
        .copied()
        .collect()
}

/// The fitted pool rules on a league of 240 sides joining one by one, each below the pool's
/// mean: the pool sinks far from the model's zero (its mean below −1), which measured from
/// that zero put sides thousands of points off; measured from the average side every
/// strength is within 1500 ± 3000, the standings are in the order of the expected goal
/// difference against it (worked here from attack and defence and a mean of our own), each
/// history row is the standing right after its event, and a file of the same log, written
/// in one action and in many, reopens to the same figures and histories to the bit.
#[test]
fn a_league_of_newcomers_is_shown_from_its_average_side() {
    let rules = fitted();
    let log = league(240);
    let mut ladder = Ladder::new(rules.clone());
    let mut history = Vec::new();
    for (i, (date, event)) in log.iter().enumerate() {
        let mut rows = Vec::new();
        ladder.apply(*date, i as u64 + 1, event, &mut rows).unwrap();
        // Each row is the player's standing right after the event.
        for r in &rows {
            let now = ladder.figures_of(r.player).unwrap();
            assert!(r.figures.same_bits(&now), "event {}: {r:?} {now:?}", i + 1);
        }
        history.extend(rows);
    }
    let (replayed, all) = replay(
        &rules,
        log.iter()
            .enumerate()
            .map(|(i, (d, e))| (*d, i as u64 + 1, e)),
    )
    .unwrap();
    assert_eq!(all, history);
    assert_eq!(replayed, ladder);

    // The pool's mean worked here, over every side (all have played).
    let n = ladder.players.len() as f64;
    let (ca, cd) = ladder
        .players
        .iter()
        .map(goals_of)
        .fold((0.0, 0.0), |(a, d), r| {
            (a + r.attack / n, d + r.defence / n)
        });
    assert!(ca < -1.0 && cd < -1.0, "the pool sank to ({ca}, {cd})");
    // What the standings print: finite, in a sane band, in order of expected goal
    // difference against the average side.
    let shown = json_ratings(&ladder);
    assert_eq!(shown.len(), 240);
    for (name, r) in &shown {
        assert!(r.is_finite() && (r - 1500.0).abs() < 3000.0, "{name}: {r}");
    }
    let margin = |p: &PlayerState| {
        let r = goals_of(p);
        (r.attack - cd).exp() - (ca - r.defence).exp()
    };
    let mut by_margin: Vec<&PlayerState> = ladder.players.iter().collect();
    by_margin.sort_by(|x, y| margin(y).total_cmp(&margin(x)));
    let names: Vec<&str> = shown.iter().map(|(n, _)| n.as_str()).collect();
    let want: Vec<&str> = by_margin.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, want);
    for (name, r) in &shown {
        let p = ladder.players.iter().find(|p| &p.name == name).unwrap();
        assert!((r - (1500.0 + 300.0 * margin(p))).abs() < 1e-6, "{name}");
    }
    // Measured from the model's zero (as before) the same ladder is thousands off.
    let worst = ladder
        .players
        .iter()
        .map(|p| p.figures().rating)
        .fold(f64::INFINITY, f64::min);
    assert!(worst < -1500.0, "{worst}");
    // The players of the last match: their last row is their standing now.
    let Some((_, Event::Match(last))) = log.last() else {
        panic!("the league ends with a match")
    };
    for &id in last.a.iter().chain(last.b.iter()) {
        let rows = rows_of(&history, id as usize);
        let now = ladder.figures_of(id).unwrap();
        assert!(rows.last().unwrap().figures.same_bits(&now));
    }

    // The same league under the default rules: measured from the model's zero, and each
    // player's last row is their standing, as always.
    let (plain, plain_rows) = replay(
        &Rules::defaults(System::Goals),
        log.iter()
            .enumerate()
            .map(|(i, (d, e))| (*d, i as u64 + 1, e)),
    )
    .unwrap();
    assert_eq!(plain.centre(), Centre::ZERO);
    for (id, p) in plain.players.iter().enumerate() {
        assert!(plain.figures(p).same_bits(&p.figures()));
        let last = rows_of(&plain_rows, id).last().copied().unwrap();
        assert!(last.figures.same_bits(&p.figures()), "{}", p.name);
    }

    // The same log in a file: half in one action, then one action per event, reopened.
    let dir = TempDir::new("goals-centre");
    let path = dir.0.join("league.rungs");
    {
        let mut store = Store::create(&path, &rules).unwrap();
        let entries: Vec<(NaiveDate, Entry)> = log
            .iter()
            .map(|(d, e)| (*d, Entry::Add { event: e.clone() }))
            .collect();
        let half = entries.len() / 2;
        store
            .commit(&rungs_store::Change::new("first half", entries[..half].to_vec()).unwrap())
            .unwrap();
        for e in &entries[half..] {
            store
                .commit(&rungs_store::Change::new("one", std::slice::from_ref(e).to_vec()).unwrap())
                .unwrap();
        }
    }
    let store = Store::open(&path).unwrap();
    let stored = store.ladder().unwrap();
    assert_eq!(stored, ladder);
    assert_eq!(json_ratings(&stored), shown);
    let mut sorted = history.clone();
    sorted.sort_by_key(|r| (r.date, r.seq, r.player));
    assert_eq!(store.cached_history().unwrap(), sorted);
    for (id, p) in ladder.players.iter().enumerate() {
        assert!(
            stored
                .figures(&stored.players[id])
                .same_bits(&ladder.figures(p)),
            "{}",
            p.name
        );
        assert_eq!(
            store.history(id as PlayerId).unwrap(),
            rows_of(&history, id)
        );
    }
}

/// An action on a file with pooling rules.
#[derive(Debug, Clone)]
enum Op {
    Match(u32, u32, [u32; 2], bool),
    Join,
    Rules(u8),
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0u32..40, 1u32..40, 0u32..5, 0u32..5, prop::bool::weighted(0.2))
            .prop_map(|(a, d, x, y, back)| Op::Match(a, d, [x, y], back)),
        2 => Just(Op::Join),
        1 => (0u8..4).prop_map(Op::Rules),
        1 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

fn check_fresh(store: &Store) -> Result<(), TestCaseError> {
    let (ladder, mut history) = store.replay(None).unwrap();
    history.sort_by_key(|r| (r.date, r.seq, r.player));
    let cached = store.ladder().unwrap();
    prop_assert_eq!(&cached, &ladder);
    prop_assert_eq!(store.cached_history().unwrap(), history.clone());
    for (id, p) in ladder.players.iter().enumerate().filter(|(_, p)| p.joined) {
        let rows = store.history(id as PlayerId).unwrap();
        prop_assert_eq!(rows, rows_of(&history, id));
        prop_assert!(
            cached
                .figures(&cached.players[id])
                .same_bits(&ladder.figures(p))
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A file with pooling rules through random actions — scored matches (some
    /// backdated), joins, undo and redo, rules changes that start, change or stop the
    /// pooling — keeps caches equal to a replay of its log: the ladder, every history row
    /// to the bit, every history readable (its last row held against the standing), the
    /// standings' figures; and so does the file reopened.
    #[test]
    fn caches_equal_a_replay_under_pooling_rules(ops in prop::collection::vec(op(), 1..30)) {
        let dir = TempDir::new("goals-centre-prop");
        let path = dir.0.join("club.rungs");
        let mut store = Store::create(&path, &fitted()).unwrap();
        let mut players = 0u32;
        let mut latest = 10u64;
        let join = |id: u32| Entry::Add {
            event: Event::Player { id, name: rungs_ladder::values::PlayerName::parse(&format!("P{id}")).unwrap(), undated: false },
        };
        store
            .commit(&rungs_store::Change::new("players", ((0..4).map(|id| (day(0), join(id))).collect::<Vec<_>>()).to_vec()).unwrap())
            .unwrap();
        players += 4;
        for op in ops {
            match op {
                Op::Match(a, d, g, back) => {
                    let (a, b) = (a % players, (a + d) % players);
                    if a == b {
                        continue;
                    }
                    let m = Match {
                        goals: Some(g),
                        ..Match::new(a, b, MatchResult::Played(outcome_of(g)))
                    };
                    let date = if back { day(1 + latest / 2) } else { latest += 1; day(latest) };
                    // A match naming a player whose join was undone is refused, and changes
                    // nothing.
                    let _ = store.commit(&rungs_store::Change::new("m", vec![(date, Entry::Add { event: Event::Match(m) })]).unwrap());
                }
                Op::Join => {
                    latest += 1;
                    if store.commit(&rungs_store::Change::new("join", vec![(day(latest), join(players))]).unwrap()).is_ok() {
                        players += 1;
                    }
                }
                Op::Rules(k) => {
                    let mut r = fitted();
                    match k {
                        0 => r.assign("entry_pool=0").unwrap(),
                        1 => r.assign("entry_pool=0.5").unwrap(),
                        2 => r.assign("initial_variance=0.2").unwrap(),
                        _ => r = Rules::defaults(System::Goals),
                    }
                    latest += 1;
                    let event = Event::Rules { rules: Box::new(r) };
                    store.commit(&rungs_store::Change::new("rules", vec![(day(latest), Entry::Add { event })]).unwrap()).unwrap();
                }
                // Nothing to undo or redo is refused, and changes nothing.
                Op::Undo => { let _ = store.undo(); }
                Op::Redo => { let _ = store.redo(); }
            }
            check_fresh(&store)?;
        }
        drop(store);
        let store = Store::open(&path).unwrap();
        check_fresh(&store)?;
    }
}

/// A change of system carries each side's strength as shown: the league under the fitted
/// pool rules, then Elo from the next day; each side's Elo rating is its shown goals strength
/// the moment before (measured from the model's zero it would carry the pool's drift: the
/// sides' model-zero figures are checked to be far off, so the test tells the two apart).
#[test]
fn a_change_of_system_carries_the_shown_strength() {
    let log = league(120);
    let mut ladder = Ladder::new(fitted());
    let mut rows = Vec::new();
    for (i, (date, event)) in log.iter().enumerate() {
        ladder.apply(*date, i as u64 + 1, event, &mut rows).unwrap();
    }
    let shown: Vec<f64> = (0..120)
        .map(|id| ladder.figures_of(id).unwrap().rating)
        .collect();
    let model_zero: Vec<f64> = ladder
        .players
        .iter()
        .map(|p| p.skill.rating_1500())
        .collect();
    assert!(
        shown
            .iter()
            .zip(&model_zero)
            .any(|(s, z)| (s - z).abs() > 500.0),
        "the pool has drifted: {:?} against {:?}",
        &shown[..5],
        &model_zero[..5]
    );
    let last = log.last().unwrap().0;
    let change = Event::Rules {
        rules: Box::new(Rules::defaults(System::Elo)),
    };
    ladder
        .apply(
            last + chrono::Days::new(1),
            log.len() as u64 + 1,
            &change,
            &mut rows,
        )
        .unwrap();
    for (id, want) in shown.iter().enumerate() {
        match ladder.players[id].skill {
            Skill::Elo(r) => assert_eq!(r.rating.to_bits(), want.to_bits(), "side {id}"),
            other => panic!("an Elo skill, not {other:?}"),
        }
    }
}
