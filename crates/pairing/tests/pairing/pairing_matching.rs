//! The blossom matching against an exhaustive search: random graphs of up to 12 vertices
//! with negative, zero and tied weights, as a maximum-weight matching, with maximum
//! cardinality, and as the warm-started perfect matching; and the small cases by hand.

use proptest::prelude::*;
use rungs_pairing::blossom::{
    Edge, MAX_WEIGHT, MatchingError, max_weight_matching, max_weight_perfect_matching,
};

/// The best (cardinality, weight) over every matching: by weight alone, or by cardinality
/// first when `by_cardinality`.
fn brute(n: usize, edges: &[Edge], by_cardinality: bool) -> (usize, i64) {
    let mut adj = vec![Vec::new(); n];
    for &(i, j, w) in edges {
        adj[i].push((j, w));
        adj[j].push((i, w));
    }
    fn go(
        v: usize,
        used: &mut Vec<bool>,
        adj: &[Vec<(usize, i64)>],
        now: (usize, i64),
        best: &mut (usize, i64),
        by_card: bool,
    ) {
        if v == used.len() {
            let better = if by_card { now > *best } else { now.1 > best.1 };
            if better {
                *best = now;
            }
            return;
        }
        if used[v] {
            return go(v + 1, used, adj, now, best, by_card);
        }
        go(v + 1, used, adj, now, best, by_card);
        used[v] = true;
        for &(u, w) in &adj[v] {
            if u > v && !used[u] {
                used[u] = true;
                go(v + 1, used, adj, (now.0 + 1, now.1 + w), best, by_card);
                used[u] = false;
            }
        }
        used[v] = false;
    }
    let mut best = (0, 0);
    go(
        0,
        &mut vec![false; n],
        &adj,
        (0, 0),
        &mut best,
        by_cardinality,
    );
    best
}

/// (cardinality, weight) of a matching, checking that it is one.
fn value(mates: &[Option<usize>], edges: &[Edge]) -> (usize, i64) {
    let (mut card, mut weight) = (0, 0);
    for &(i, j, w) in edges {
        if mates[i] == Some(j) {
            assert_eq!(mates[j], Some(i));
            card += 1;
            weight += w;
        }
    }
    assert_eq!(mates.iter().filter(|m| m.is_some()).count(), 2 * card);
    (card, weight)
}

fn graph() -> impl Strategy<Value = (usize, Vec<Edge>)> {
    (1usize..=12).prop_flat_map(|n| {
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let m = pairs.len();
        (
            Just(n),
            proptest::collection::vec((any::<bool>(), -5i64..30), m),
            Just(pairs),
        )
            .prop_map(|(n, ws, pairs)| {
                let edges = pairs
                    .into_iter()
                    .zip(ws)
                    .filter(|(_, (on, _))| *on)
                    .map(|((i, j), (_, w))| (i, j, w))
                    .collect();
                (n, edges)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn maximum_weight_equals_exhaustive_search((n, edges) in graph(), by_card in any::<bool>()) {
        let mates = max_weight_matching(n, &edges, by_card).unwrap();
        let got = value(&mates, &edges);
        let want = brute(n, &edges, by_card);
        if by_card {
            prop_assert_eq!(got, want);
        } else {
            prop_assert_eq!(got.1, want.1);
        }
    }

    #[test]
    fn perfect_matching_equals_exhaustive_search((n, edges) in graph()) {
        let want = brute(n, &edges, true);
        match max_weight_perfect_matching(n, &edges).unwrap() {
            Some(mates) => {
                let mates: Vec<Option<usize>> = mates.into_iter().map(Some).collect();
                prop_assert_eq!(value(&mates, &edges), want);
                prop_assert_eq!(2 * want.0, n);
            }
            None => prop_assert!(2 * want.0 < n),
        }
    }
}

/// Small graphs by hand: 1-2 (5), 2-3 (11), 3-4 (5): by weight alone 2-3 (11); with the
/// most pairs 1-2 and 3-4 (10). A triangle plus a pendant: the odd cycle 0-1-2 (weights 6)
/// with 2-3 (1): the perfect matching must take 2-3 and 0-1 (7).
#[test]
fn small_graphs_by_hand() {
    assert_eq!(max_weight_matching(0, &[], false).unwrap(), vec![]);
    let path = [(1, 2, 5), (2, 3, 11), (3, 4, 5)];
    assert_eq!(
        max_weight_matching(5, &path, false).unwrap(),
        vec![None, None, Some(3), Some(2), None]
    );
    assert_eq!(
        max_weight_matching(5, &path, true).unwrap(),
        vec![None, Some(2), Some(1), Some(4), Some(3)]
    );
    let triangle = [(0, 1, 6), (1, 2, 6), (0, 2, 6), (2, 3, 1)];
    assert_eq!(
        max_weight_perfect_matching(4, &triangle).unwrap(),
        Some(vec![1, 0, 3, 2])
    );
    assert_eq!(
        max_weight_perfect_matching(3, &triangle[..3]).unwrap(),
        None
    );
    assert_eq!(
        max_weight_matching(2, &[(0, 2, 1)], false),
        Err(MatchingError::BadEdge(0))
    );
    assert_eq!(
        max_weight_perfect_matching(2, &[(0, 1, MAX_WEIGHT + 1)]),
        Err(MatchingError::WeightTooLarge(0))
    );
}
