//! Maximum-weight matching in a general graph: Edmonds' blossom method with the primal-dual
//! weights of Galil ("Efficient algorithms for finding maximum matching in graphs", ACM
//! Computing Surveys 18(1), 1986), O(n³). The bookkeeping follows Joris van Rantwijk's
//! well-known description and Python reference (`mwmatching.py`): edge endpoints numbered
//! 2k and 2k + 1, vertex duals kept doubled so that integer weights stay integers, least-slack
//! edges per vertex and per blossom for the dual step.
//!
//! Why our own and not a crate: the one crate that ports it (`mwmatching` 0.1.1, 2018) has had
//! no release since, takes `i32` weights and panics on an empty edge list; `petgraph` and
//! `blossom` match without weights and `pathfinding`'s Kuhn–Munkres is bipartite only.
//! This module is checked against an exhaustive search (tests/pairing_matching.rs).
//!
//! Departures from the reference: recursion is replaced by explicit work lists (a blossom may
//! nest n/2 deep); a stage's delta and dual update walk only what the stage labelled; and for
//! a perfect matching ([`max_weight_perfect_matching`], what the pairing asks) a warm start
//! and one alternating tree per stage, so that 10,000 players take a fifth of a second rather
//! than seconds (BENCHMARKS.md). The tree operations are in `tree.rs`.

mod tree;

const NONE: usize = usize::MAX;

/// An undirected edge `(i, j, weight)`; `i != j`, at most one edge per pair.
pub type Edge = (usize, usize, i64);

/// The largest weight magnitude accepted: doubled duals and slacks stay far inside `i64`.
pub const MAX_WEIGHT: i64 = 1 << 50;

/// An edge whose weight packs several criteria, most important in the highest bits (the
/// FIDE Dutch pairing's lexicographic weights); the solver computes in `i128` throughout.
pub type WideEdge = (usize, usize, i128);

/// The largest wide weight magnitude accepted: doubled, dual sums and slacks stay inside
/// `i128` with room to spare.
pub const MAX_WIDE_WEIGHT: i128 = 1 << 122;

/// Why a matching was not computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchingError {
    /// An edge names a vertex `>= n`, or joins a vertex to itself.
    BadEdge(usize),
    /// A weight beyond ±[`MAX_WEIGHT`].
    WeightTooLarge(usize),
}

/// For each vertex, its partner in a matching of maximum weight — among the matchings of
/// maximum cardinality when `max_cardinality` — or `None`.
pub fn max_weight_matching(
    n: usize,
    edges: &[Edge],
    max_cardinality: bool,
) -> Result<Vec<Option<usize>>, MatchingError> {
    check(n, edges)?;
    let mut s = Solver::new(n, widen(edges), max_cardinality, false);
    s.solve();
    Ok(s.mates())
}

/// For each vertex its partner in a perfect matching of maximum weight, or `Ok(None)` when
/// the graph has no perfect matching. Faster than [`max_weight_matching`] on large sparse
/// graphs (a warm start).
pub fn max_weight_perfect_matching(
    n: usize,
    edges: &[Edge],
) -> Result<Option<Vec<usize>>, MatchingError> {
    check(n, edges)?;
    let mut s = Solver::new(n, widen(edges), true, true);
    s.warm_start();
    s.solve();
    Ok(s.mates().into_iter().collect())
}

/// [`max_weight_perfect_matching`] for weights up to ±[`MAX_WIDE_WEIGHT`].
pub fn max_weight_perfect_matching_wide(
    n: usize,
    edges: &[WideEdge],
) -> Result<Option<Vec<usize>>, MatchingError> {
    for (k, &(i, j, w)) in edges.iter().enumerate() {
        if i >= n || j >= n || i == j {
            return Err(MatchingError::BadEdge(k));
        }
        if w.abs() > MAX_WIDE_WEIGHT {
            return Err(MatchingError::WeightTooLarge(k));
        }
    }
    let mut s = Solver::new(n, edges.to_vec(), true, true);
    s.warm_start();
    s.solve();
    Ok(s.mates().into_iter().collect())
}

fn widen(edges: &[Edge]) -> Vec<WideEdge> {
    edges
        .iter()
        .map(|&(i, j, w)| (i, j, i128::from(w)))
        .collect()
}

/// Each vertex's partner, and the vertex duals (see below).
pub type MatesAndDuals = (Vec<usize>, Vec<i64>);

/// [`max_weight_perfect_matching`] with the vertex duals `u` it ends with, scaled by 4: every
/// edge of the graph has `u[i] + u[j] >= 4 · weight` (blossom duals, which are never
/// negative, aside). An edge outside the graph that keeps that inequality cannot improve the
/// matching; one that breaks it might (pricing, for a graph widened where it needs it).
pub fn max_weight_perfect_matching_with_duals(
    n: usize,
    edges: &[Edge],
) -> Result<Option<MatesAndDuals>, MatchingError> {
    check(n, edges)?;
    let mut s = Solver::new(n, widen(edges), true, true);
    s.warm_start();
    s.solve();
    // Weights within ±MAX_WEIGHT keep the duals within i64 (see MAX_WEIGHT).
    let duals = s.dual[..n].iter().map(|&d| d as i64).collect();
    Ok(s.mates()
        .into_iter()
        .collect::<Option<Vec<usize>>>()
        .map(|m| (m, duals)))
}

fn check(n: usize, edges: &[Edge]) -> Result<(), MatchingError> {
    for (k, &(i, j, w)) in edges.iter().enumerate() {
        if i >= n || j >= n || i == j {
            return Err(MatchingError::BadEdge(k));
        }
        if w.abs() > MAX_WEIGHT {
            return Err(MatchingError::WeightTooLarge(k));
        }
    }
    Ok(())
}

struct Solver {
    n: usize,
    edges: Vec<WideEdge>,
    /// The weights, doubled for a warm start.
    w: Vec<i128>,
    max_cardinality: bool,
    /// Neighbour lists as remote endpoints, in one array: `nb[nb_at[v]..nb_at[v + 1]]`.
    nb_at: Vec<usize>,
    nb: Vec<usize>,
    /// The remote endpoint of v's matched edge, or NONE.
    mate: Vec<usize>,
    /// For top-level blossoms: 0 free, 1 S, 2 T; bit 4 marks a breadcrumb while scanning.
    label: Vec<u8>,
    /// The remote endpoint of the edge through which a blossom got its label.
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    /// Sub-blossoms of a non-trivial blossom, starting at its base and going round.
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// `endps[b][i]`: the endpoint of `childs[b][i]` on the edge to `childs[b][i + 1]`.
    endps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    /// Twice the vertex duals; the blossom duals z.
    dual: Vec<i128>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    /// Scratch for `add_blossom` (indexed by blossom), kept all NONE between uses.
    bestedgeto: Vec<usize>,
    /// What this stage has labelled or given a least-slack edge, so that a dual step costs
    /// the size of the forest rather than n (most of a large pool sits matched outside it).
    labelled_v: Tracked,
    labelled_b: Tracked,
    reached_free: Tracked,
    /// Edges made allowable this stage.
    allowed: Vec<usize>,
    /// Perfect matching: one alternating tree at a time, reset in the time of its size.
    perfect: bool,
    /// Perfect matching: vertices below this one are matched.
    next_root: usize,
}

/// A set of indices kept as a list, cleared in the time of its size.
struct Tracked {
    on: Vec<bool>,
    list: Vec<usize>,
}

impl Tracked {
    fn new(size: usize) -> Tracked {
        Tracked {
            on: vec![false; size],
            list: Vec::new(),
        }
    }

    fn insert(&mut self, i: usize) {
        if !self.on[i] {
            self.on[i] = true;
            self.list.push(i);
        }
    }

    fn clear(&mut self) {
        for &i in &self.list {
            self.on[i] = false;
        }
        self.list.clear();
    }
}

/// What the dual step found to do once its delta is applied.
enum Step {
    /// Make this S–free edge tight and scan from its S end.
    Reach(usize),
    /// Make this S–S edge tight and scan from it.
    Join(usize),
    /// Expand this T-blossom, whose dual reached zero.
    Expand(usize),
    /// Single vertices' duals reached zero (maximum weight without cardinality): optimal.
    Done,
}

impl Solver {
    fn new(n: usize, edges: Vec<WideEdge>, max_cardinality: bool, doubled: bool) -> Solver {
        let w: Vec<i128> = edges
            .iter()
            .map(|e| if doubled { 2 * e.2 } else { e.2 })
            .collect();
        let mut degree = vec![0usize; n + 1];
        for &(i, j, _) in &edges {
            degree[i + 1] += 1;
            degree[j + 1] += 1;
        }
        for v in 0..n {
            degree[v + 1] += degree[v];
        }
        let nb_at = degree;
        let mut fill = nb_at.clone();
        let mut nb = vec![0; 2 * edges.len()];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            nb[fill[i]] = 2 * k + 1;
            fill[i] += 1;
            nb[fill[j]] = 2 * k;
            fill[j] += 1;
        }
        let edge_count = edges.len();
        let maxweight = w.iter().copied().max().unwrap_or(0).max(0);
        let mut dual = vec![maxweight; n];
        dual.extend(std::iter::repeat_n(0, n));
        Solver {
            n,
            edges,
            w,
            max_cardinality,
            nb_at,
            nb,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowedge: vec![false; edge_count],
            queue: Vec::new(),
            bestedgeto: vec![NONE; 2 * n],
            labelled_v: Tracked::new(n),
            labelled_b: Tracked::new(2 * n),
            reached_free: Tracked::new(n),
            allowed: Vec::new(),
            perfect: doubled,
            next_root: 0,
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        let e = &self.edges[p / 2];
        if p.is_multiple_of(2) { e.0 } else { e.1 }
    }

    fn neighbours(&self, v: usize) -> std::ops::Range<usize> {
        self.nb_at[v]..self.nb_at[v + 1]
    }

    /// Twice the slack of edge k (not meaningful inside a blossom).
    fn slack(&self, k: usize) -> i128 {
        let (i, j, _) = self.edges[k];
        self.dual[i] + self.dual[j] - 2 * self.w[k]
    }

    fn mates(&self) -> Vec<Option<usize>> {
        (0..self.n)
            .map(|v| (self.mate[v] != NONE).then(|| self.endpoint(self.mate[v])))
            .collect()
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            for &c in &self.childs[t] {
                if c < self.n {
                    out.push(c);
                } else {
                    stack.push(c);
                }
            }
        }
    }

    /// A start for the perfect-matching problem, whose dual puts no sign constraint on
    /// vertex duals: each vertex starts at its heaviest edge (feasible: u(i) + u(j) ≥ w(ij)),
    /// then each single vertex in turn takes the lowest dual its edges allow, which makes
    /// at least one of them tight, and is matched along a tight edge to a single vertex.
    /// Duals stay feasible and every matched edge tight (the method's invariants) and most
    /// vertices start matched, so far fewer stages remain. Weights were doubled
    /// (`Solver::new`) so that the duals, and so the S–S slacks, stay even.
    fn warm_start(&mut self) {
        for v in 0..self.n {
            let top = self.neighbours(v).map(|i| self.w[self.nb[i] / 2]).max();
            self.dual[v] = top.unwrap_or(0);
        }
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            let need = |s: &Self, p: usize| 2 * s.w[p / 2] - s.dual[s.endpoint(p)];
            let Some(low) = self.neighbours(v).map(|i| need(self, self.nb[i])).max() else {
                continue;
            };
            self.dual[v] = low;
            let free = self
                .neighbours(v)
                .map(|i| self.nb[i])
                .find(|&p| self.mate[self.endpoint(p)] == NONE && need(self, p) == low);
            if let Some(p) = free {
                let u = self.endpoint(p);
                self.mate[v] = p;
                self.mate[u] = p ^ 1;
            }
        }
    }

    fn allow(&mut self, k: usize) {
        if !self.allowedge[k] {
            self.allowedge[k] = true;
            self.allowed.push(k);
        }
    }

    /// Clears the last stage's labels, least-slack edges and allowable edges: only what it
    /// touched (the lists), as everything else is already clear.
    fn reset_stage(&mut self) {
        for &v in &self.labelled_v.list {
            self.label[v] = 0;
            self.bestedge[v] = NONE;
        }
        for &b in &self.labelled_b.list {
            self.label[b] = 0;
            self.bestedge[b] = NONE;
            if b >= self.n {
                self.blossombestedges[b] = None;
            }
        }
        for &v in &self.reached_free.list {
            self.bestedge[v] = NONE;
        }
        for &k in &self.allowed {
            self.allowedge[k] = false;
        }
        self.allowed.clear();
        self.labelled_v.clear();
        self.labelled_b.clear();
        self.reached_free.clear();
        self.queue.clear();
    }

    fn solve(&mut self) {
        let n = self.n;
        loop {
            // A stage: grow alternating trees from the single vertices until one path
            // augments — every single vertex at once for the general problem, one at a time
            // for a perfect matching (each stage then costs the size of one tree, not of the
            // graph: a large pool's warm start leaves thousands of stages).
            self.reset_stage();
            if self.perfect {
                while self.next_root < n && self.mate[self.next_root] != NONE {
                    self.next_root += 1;
                }
                if self.next_root == n {
                    return;
                }
                self.assign_label(self.next_root, 1, NONE);
            } else {
                for v in 0..n {
                    if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                        self.assign_label(v, 1, NONE);
                    }
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    debug_assert_eq!(self.label[self.inblossom[v]], 1);
                    for idx in self.neighbours(v) {
                        let p = self.nb[idx];
                        let k = p / 2;
                        let w = self.endpoint(p);
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allow(k);
                            }
                        }
                        let bw = self.inblossom[w];
                        if self.allowedge[k] {
                            if self.label[bw] == 0 && self.mate[self.base[bw]] == NONE {
                                // Only with one tree: a single vertex outside it ends an
                                // augmenting path.
                                self.assign_label(w, 1, NONE);
                                self.augment_matching(k);
                                augmented = true;
                                break;
                            } else if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                debug_assert_eq!(self.label[bw], 2);
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[bw] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                            self.reached_free.insert(w);
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the tight edges: move the duals.
                let Some((delta, step)) = self.dual_step() else {
                    // Max-cardinality and nothing left to reach: optimal.
                    break;
                };
                self.apply_delta(delta);
                match step {
                    Step::Done => break,
                    Step::Reach(k) => {
                        self.allow(k);
                        let (mut i, j, _) = self.edges[k];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    Step::Join(k) => {
                        self.allow(k);
                        self.queue.push(self.edges[k].0);
                    }
                    Step::Expand(b) => self.expand_blossom(b, false),
                }
            }
            if !augmented {
                return;
            }
            // Every top-level S-blossom was labelled this stage.
            let labelled: Vec<usize> = self.labelled_b.list.clone();
            for b in labelled {
                if b >= n
                    && self.blossomparent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == 1
                    && self.dual[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    /// The largest dual change that keeps the duals feasible, and what then becomes
    /// possible; `None` if nothing bounds it (max-cardinality: the matching is optimal).
    fn dual_step(&self) -> Option<(i128, Step)> {
        let mut best: Option<(i128, Step)> = None;
        let mut offer = |d: i128, step: Step| {
            if best.as_ref().is_none_or(|(b, _)| d < *b) {
                best = Some((d, step));
            }
        };
        if !self.max_cardinality {
            offer(
                self.dual[..self.n].iter().copied().min().unwrap_or(0),
                Step::Done,
            );
        }
        for &v in &self.reached_free.list {
            if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                offer(self.slack(self.bestedge[v]), Step::Reach(self.bestedge[v]));
            }
        }
        for &b in &self.labelled_b.list {
            let top = self.blossomparent[b] == NONE && (b < self.n || self.base[b] != NONE);
            if top && self.label[b] == 1 && self.bestedge[b] != NONE {
                let s = self.slack(self.bestedge[b]);
                debug_assert_eq!(s % 2, 0, "S–S slacks are even");
                offer(s / 2, Step::Join(self.bestedge[b]));
            }
            if top && b >= self.n && self.label[b] == 2 {
                offer(self.dual[b], Step::Expand(b));
            }
        }
        best
    }

    fn apply_delta(&mut self, delta: i128) {
        for &v in &self.labelled_v.list {
            match self.label[self.inblossom[v]] {
                1 => self.dual[v] -= delta,
                2 => self.dual[v] += delta,
                _ => {}
            }
        }
        for &b in &self.labelled_b.list {
            if b >= self.n && self.base[b] != NONE && self.blossomparent[b] == NONE {
                match self.label[b] {
                    1 => self.dual[b] += delta,
                    2 => self.dual[b] -= delta,
                    _ => {}
                }
            }
        }
    }
}
