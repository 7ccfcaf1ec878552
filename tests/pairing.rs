//! Pairings (issue 23): the balanced matching by hand for 4, 5 and 6 players and against an
//! exhaustive search, forbidden pairs, the bye, determinism, large pools against a greedy
//! pairing, the Berger tables as published, Swiss without rematches, and the ladder's own
//! forecast.

use chrono::NaiveDate;
use proptest::prelude::*;
use rungs::ladder::event::{Event, Home, Match, MatchResult, PlayerId};
use rungs::ladder::predict::predict_match;
use rungs::ladder::replay::replay_state;
use rungs::ladder::rules::{Rules, System};
use rungs::pairing::balanced::{self, Night};
use rungs::pairing::ladder::{History, present};
use rungs::pairing::model::{
    Constraints, Entrant, Forecast, PairError, Pairs, Round, Seat, Weights,
};
use rungs::pairing::round_robin::{self, berger, berger_double};
use rungs::pairing::swiss::{self, Event as SwissEvent};
use rungs::rating::{Outcome, Prediction};
use std::collections::BTreeMap;

/// A forecast given pair by pair: P(i wins) with i on side A, draws as given; unlisted pairs
/// are read the other way round (symmetric, no side advantage).
struct Table(BTreeMap<(usize, usize), (f64, f64)>);

impl Forecast for Table {
    fn predict(&self, a: usize, b: usize) -> Prediction {
        if let Some(&(win, draw)) = self.0.get(&(a, b)) {
            Prediction {
                win_a: win,
                draw,
                win_b: 1.0 - win - draw,
            }
        } else {
            let (win, draw) = self.0[&(b, a)];
            Prediction {
                win_a: 1.0 - win - draw,
                draw,
                win_b: win,
            }
        }
    }
}

/// A forecast from strengths: P(A wins) = ½ + (s_a − s_b)/100, no draws (|E − ½| is the gap
/// in hundredths: easy to add up by hand).
struct Linear(Vec<f64>);

impl Forecast for Linear {
    fn predict(&self, a: usize, b: usize) -> Prediction {
        Prediction::decisive((0.5 + (self.0[a] - self.0[b]) / 100.0).clamp(0.0, 1.0))
    }
    fn symmetric(&self) -> bool {
        true
    }
}

fn entrants(strengths: &[f64]) -> Vec<Entrant> {
    strengths
        .iter()
        .enumerate()
        .map(|(i, &s)| Entrant {
            id: i as PlayerId,
            name: ((b'A' + i as u8) as char).to_string(),
            place: i + 1,
            strength: s,
            byes: 0,
            last_seat: None,
        })
        .collect()
}

fn run<F: Forecast>(
    e: &[Entrant],
    f: &F,
    c: &Constraints,
    w: &Weights,
    seed: u64,
) -> Result<Round, PairError> {
    balanced::pair(&Night {
        entrants: e,
        forecast: f,
        constraints: c,
        weights: w,
        seed,
    })
}

/// The boards as names, side A first, in board order; and the bye.
fn shown(e: &[Entrant], r: &Round) -> (Vec<String>, Option<String>) {
    (
        r.boards
            .iter()
            .map(|b| format!("{}-{}", e[b.a].name, e[b.b].name))
            .collect(),
        r.bye.map(|i| e[i].name.clone()),
    )
}

/// The boards as pairs of names in alphabetical order, in board order.
fn unordered(e: &[Entrant], r: &Round) -> Vec<String> {
    r.boards
        .iter()
        .map(|b| {
            let mut p = [e[b.a].name.clone(), e[b.b].name.clone()];
            p.sort();
            p.join("-")
        })
        .collect()
}

/// Strengths A 50, B 45, C 30, D 20 (|E − ½| = gap/100):
/// {A-B, C-D} = 0.05 + 0.10 = 0.15; {A-C, B-D} = 0.20 + 0.25 = 0.45;
/// {A-D, B-C} = 0.30 + 0.15 = 0.45.
#[test]
fn four_players_by_hand() {
    let e = entrants(&[50.0, 45.0, 30.0, 20.0]);
    let f = Linear(vec![50.0, 45.0, 30.0, 20.0]);
    let w = Weights::default();
    let mut c = Constraints::default();
    let r = run(&e, &f, &c, &w, 1).unwrap();
    assert_eq!(r.bye, None);
    // Board 1 holds the best placed: A's board.
    assert_eq!(unordered(&e, &r), vec!["A-B", "C-D"]);
    assert!((r.cost() - 0.15).abs() < 1e-9, "{}", r.cost());
    assert!(((r.boards[0].prediction.win_a - 0.5).abs() - 0.05).abs() < 1e-12);

    // A and B met earlier tonight: +0.5 → {A-B, C-D} = 0.65. Avoiding B-C adds 0.25 to
    // {A-D, B-C} = 0.70, so {A-C, B-D} = 0.45 is the pairing.
    c.meet(0, 1, 0);
    c.avoid.insert(1, 2);
    let r = run(&e, &f, &c, &w, 1).unwrap();
    let pairs: Vec<(usize, usize)> = r.boards.iter().map(|b| (b.a.min(b.b), b.a.max(b.b))).collect();
    assert_eq!(pairs, vec![(0, 2), (1, 3)]);
    assert!((r.cost() - 0.45).abs() < 1e-9);

    // They met last night instead: 0.5·2^−1 = 0.25 → {A-B, C-D} = 0.40 < 0.45: kept.
    let mut c = Constraints::default();
    c.meet(0, 1, 1);
    let r = run(&e, &f, &c, &w, 1).unwrap();
    assert!((r.cost() - 0.40).abs() < 1e-9, "{}", r.cost());
    assert!(r.boards.iter().any(|b| b.a.min(b.b) == 0 && b.a.max(b.b) == 1));

    // A-B forbidden: the two cross pairings tie at 0.45; A and D met last night (+0.25)
    // settles it: {A-C, B-D}.
    let mut c = Constraints::default();
    c.forbidden.insert(0, 1);
    c.meet(0, 3, 1);
    let r = run(&e, &f, &c, &w, 1).unwrap();
    let pairs: Vec<(usize, usize)> = r.boards.iter().map(|b| (b.a.min(b.b), b.a.max(b.b))).collect();
    assert_eq!(pairs, vec![(0, 2), (1, 3)]);
}

/// Five players (E 10 joins): the bye goes to the lowest placed, E; the rest pair as the
/// four above. With E's bye already had, the bye goes to D (the lowest placed of those with
/// none): {A-B 0.05, C-E 0.20} = 0.25 beats {A-C, B-E} = 0.55 and {A-E, B-C} = 0.55.
#[test]
fn five_players_and_the_bye() {
    let s = [50.0, 45.0, 30.0, 20.0, 10.0];
    let mut e = entrants(&s);
    let f = Linear(s.to_vec());
    let w = Weights::default();
    let c = Constraints::default();
    let r = run(&e, &f, &c, &w, 7).unwrap();
    assert_eq!(r.bye, Some(4));
    assert!((r.cost() - 0.15).abs() < 1e-9);

    e[4].byes = 1;
    let r = run(&e, &f, &c, &w, 7).unwrap();
    assert_eq!(r.bye, Some(3));
    assert!((r.cost() - 0.25).abs() < 1e-9, "{}", r.cost());

    // A may only play E: E cannot take the bye, D does; A-E 0.40 + B-C 0.15 = 0.55.
    e[4].byes = 0;
    let mut c = Constraints::default();
    for x in [1, 2, 3] {
        c.forbidden.insert(0, x);
    }
    let r = run(&e, &f, &c, &w, 7).unwrap();
    assert_eq!(r.bye, Some(3));
    assert!((r.cost() - 0.55).abs() < 1e-9, "{}", r.cost());
    assert!(r.boards.iter().any(|b| b.a.min(b.b) == 0 && b.a.max(b.b) == 4));
}

/// Six players A 50, B 45, C 30, D 20, E 10, F 8: {A-B .05, C-D .10, E-F .02} = .17.
/// A sat on side A last time and B on side B: B takes side A (nobody repeats), cost
/// unchanged; had both sat on A, one repeats: +0.02 → 0.19.
#[test]
fn six_players_sides_by_hand() {
    let s = [50.0, 45.0, 30.0, 20.0, 10.0, 8.0];
    let mut e = entrants(&s);
    let f = Linear(s.to_vec());
    let w = Weights::default();
    let c = Constraints::default();
    e[0].last_seat = Some(Seat::A);
    e[1].last_seat = Some(Seat::B);
    let r = run(&e, &f, &c, &w, 3).unwrap();
    assert!((r.cost() - 0.17).abs() < 1e-9, "{}", r.cost());
    let (boards, _) = shown(&e, &r);
    assert_eq!(boards[0], "B-A");
    // B on side A: P(B wins) = ½ − 0.05.
    assert!((r.boards[0].prediction.win_a - 0.45).abs() < 1e-12);
    e[1].last_seat = Some(Seat::A);
    let r = run(&e, &f, &c, &w, 3).unwrap();
    assert!((r.cost() - 0.19).abs() < 1e-9, "{}", r.cost());
    assert_eq!(r.bye, None);
    assert_eq!(unordered(&e, &r), vec!["A-B", "C-D", "E-F"]);
}

/// A draw counts half: P(A) 0.30, P(draw) 0.40 → E = 0.50, an even game, cost 0; against
/// P(A) 0.55, no draws, cost 0.05.
#[test]
fn draws_count_half() {
    let mut t = BTreeMap::new();
    t.insert((0, 1), (0.30, 0.40));
    t.insert((2, 3), (0.55, 0.0));
    t.insert((0, 2), (0.90, 0.0));
    t.insert((0, 3), (0.90, 0.0));
    t.insert((1, 2), (0.90, 0.0));
    t.insert((1, 3), (0.90, 0.0));
    let e = entrants(&[4.0, 3.0, 2.0, 1.0]);
    let r = run(&e, &Table(t), &Constraints::default(), &Weights::default(), 0).unwrap();
    assert!((r.cost() - 0.05).abs() < 1e-9, "{}", r.cost());
    let b = r.boards.iter().find(|b| b.a.min(b.b) == 0).unwrap();
    assert!((b.prediction.draw - 0.40).abs() < 1e-12);
}

// ---- the exhaustive oracle ----

/// A random night: up to 14 players, a random table forecast with draws, random seats,
/// byes, forbidden and avoided pairs and past meetings.
#[derive(Debug, Clone)]
struct Case {
    n: usize,
    p: Vec<(f64, f64)>,
    seats: Vec<u8>,
    byes: Vec<u32>,
    forbidden: Vec<(usize, usize)>,
    avoid: Vec<(usize, usize)>,
    met: Vec<(usize, usize, u32)>,
    seed: u64,
}

fn case(max: usize) -> impl Strategy<Value = Case> {
    (1usize..=max).prop_flat_map(|n| {
        let pairs = n * (n - 1) / 2;
        let pair = (0..n, 0..n);
        (
            Just(n),
            proptest::collection::vec((0.0f64..1.0, 0.0f64..0.5), pairs.max(1)),
            proptest::collection::vec(0u8..3, n),
            proptest::collection::vec(0u32..2, n),
            proptest::collection::vec(pair.clone(), 0..4),
            proptest::collection::vec(pair.clone(), 0..4),
            proptest::collection::vec((0..n, 0..n, 0u32..4), 0..6),
            any::<u64>(),
        )
            .prop_map(|(n, p, seats, byes, forbidden, avoid, met, seed)| Case {
                n,
                p,
                seats,
                byes,
                forbidden,
                avoid,
                met,
                seed,
            })
    })
}

impl Case {
    fn build(&self) -> (Vec<Entrant>, Table, Constraints) {
        let mut e = entrants(&vec![0.0; self.n]);
        for (i, x) in e.iter_mut().enumerate() {
            x.byes = self.byes[i];
            x.last_seat = [None, Some(Seat::A), Some(Seat::B)][self.seats[i] as usize];
            x.strength = (i * 7 % 5) as f64;
        }
        let mut t = BTreeMap::new();
        let mut k = 0;
        for i in 0..self.n {
            for j in i + 1..self.n {
                let (win, draw) = self.p[k];
                t.insert((i, j), (win * (1.0 - draw), draw));
                k += 1;
            }
        }
        let mut c = Constraints::default();
        for &(a, b) in &self.forbidden {
            if a != b {
                c.forbidden.insert(a, b);
            }
        }
        for &(a, b) in &self.avoid {
            if a != b {
                c.avoid.insert(a, b);
            }
        }
        for &(a, b, nights) in &self.met {
            if a != b {
                c.meet(a, b, nights);
            }
        }
        (e, Table(t), c)
    }
}

/// The cheapest perfect matching of `left` by trying every one (millionths), or None.
fn cheapest(night: &Night<'_, Table>, left: &[usize]) -> Option<i64> {
    if left.is_empty() {
        return Some(0);
    }
    let (first, rest) = (left[0], &left[1..]);
    let mut best: Option<i64> = None;
    for (k, &other) in rest.iter().enumerate() {
        let Some(price) = night.price(first, other) else {
            continue;
        };
        let remaining: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|&(x, _)| x != k)
            .map(|(_, &v)| v)
            .collect();
        if let Some(c) = cheapest(night, &remaining) {
            best = Some(best.map_or(price.micros + c, |b: i64| b.min(price.micros + c)));
        }
    }
    best
}

fn micros(r: &Round) -> i64 {
    r.boards.iter().map(|b| (b.cost * 1e6).round() as i64).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The balanced pairing costs what the best of all pairings costs, the bye taken by the
    /// rule (fewest byes, lowest placed, the next when the rest cannot be paired); a
    /// forbidden pair never meets; everyone plays once.
    #[test]
    fn balanced_is_the_exhaustive_optimum(c in case(14)) {
        let (e, f, cons) = c.build();
        let w = Weights::default();
        let night = Night { entrants: &e, forecast: &f, constraints: &cons, weights: &w, seed: c.seed };
        let got = balanced::pair(&night);
        let n = c.n;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&x, &y| e[x].byes.cmp(&e[y].byes).then(e[y].place.cmp(&e[x].place)));
        let candidates: Vec<Option<usize>> = if n % 2 == 1 { order.into_iter().map(Some).collect() } else { vec![None] };
        let want = candidates.iter().find_map(|&bye| {
            let left: Vec<usize> = (0..n).filter(|&i| Some(i) != bye).collect();
            cheapest(&night, &left).map(|cost| (bye, cost))
        });
        match (got, want) {
            (Ok(r), Some((bye, cost))) => {
                prop_assert_eq!(r.bye, bye);
                prop_assert_eq!(micros(&r), cost);
                let mut seen = vec![false; n];
                for b in &r.boards {
                    prop_assert!(!cons.forbidden.contains(b.a, b.b));
                    prop_assert!(!seen[b.a] && !seen[b.b]);
                    seen[b.a] = true;
                    seen[b.b] = true;
                }
                prop_assert_eq!(seen.iter().filter(|s| **s).count() + usize::from(bye.is_some()), n);
            }
            (Err(PairError::NoPairing(_)), None) => {}
            (got, want) => prop_assert!(false, "got {:?}, want {:?}", got, want),
        }
    }

    /// The same night and seed give the same boards whatever the order of the list.
    #[test]
    fn deterministic_whatever_the_list_order(c in case(10)) {
        let (e, f, cons) = c.build();
        let w = Weights::default();
        let night = Night { entrants: &e, forecast: &f, constraints: &cons, weights: &w, seed: c.seed };
        let once = balanced::pair(&night);
        prop_assert_eq!(&once, &balanced::pair(&night));
        // Reversed list: the same boards by player id.
        let n = c.n;
        let rev: Vec<Entrant> = e.iter().rev().cloned().collect();
        let back = |i: usize| n - 1 - i;
        let mut rt = BTreeMap::new();
        for (&(i, j), &v) in &f.0 { rt.insert((back(i), back(j)), v); }
        let mut rc = Constraints::default();
        for (a, b) in cons.forbidden.iter() { rc.forbidden.insert(back(a), back(b)); }
        for (a, b) in cons.avoid.iter() { rc.avoid.insert(back(a), back(b)); }
        for (&(a, b), &k) in &cons.met { rc.meet(back(a), back(b), k); }
        let rt = Table(rt);
        let night2 = Night { entrants: &rev, forecast: &rt, constraints: &rc, weights: &w, seed: c.seed };
        let twice = balanced::pair(&night2);
        let ids = |r: &Result<Round, PairError>, e: &[Entrant]| r.as_ref().ok().map(|r| {
            (r.boards.iter().map(|b| (e[b.a].id, e[b.b].id)).collect::<Vec<_>>(), r.bye.map(|i| e[i].id))
        });
        prop_assert_eq!(ids(&once, &e), ids(&twice, &rev));
    }
}
