//! The round's pairing bracket by bracket, from the top scoregroup down (C.04.3 article 3).
//!
//! Each bracket — the players moved down from above, then the scoregroup's residents — is
//! paired by one maximum-weight perfect matching over the bracket *and every player below
//! it* (and the bye, when the count is odd). Edges exist only where the absolute criteria
//! allow (C1 no rematch, C2 the bye only to those who may have it, C3 no two non-topscorers
//! with the same absolute colour preference), so a perfect matching is exactly a pairing of
//! everyone still unpaired: the completion criterion C4 holds by construction. Edges inside
//! the bracket carry the quality criteria (`criteria`); an edge from a bracket player to a
//! lower one marks that player as a downfloater; edges into the next scoregroup count for
//! the next bracket's pairs (C7); edges to the bye carry the bye's criteria, looked ahead;
//! other edges among lower players weigh nothing. The pairs inside the bracket are kept;
//! its downfloaters move to the next bracket, whose own matching decides whom they meet.

use super::colours::{allocate, rank_order};
use super::criteria::{BUDGET, COUNT, Criterion as C, Packing, ScoreScale, Values};
use super::order::{Layout, Mode};
use super::players::{Colour, DutchError, Float, Preference, State, Strength};
use crate::blossom::{self, WideEdge};

/// What a round's matching needs besides the players' states.
pub struct Setup<'a> {
    pub states: &'a [State],
    /// The players to pair, any order.
    pub players: Vec<usize>,
    /// Topscorers (C.04.3 article 1.7), non-empty only when pairing the last round.
    pub topscorers: Vec<bool>,
    /// Each player's colour preference (`State::preference`), computed once.
    pub preferences: Vec<Preference>,
    pub initial: Colour,
}

/// The pairs (unordered) and the player left for the pairing-allocated bye.
pub type Paired = (Vec<(usize, usize)>, Option<usize>);

/// Pairs the round, bracket by bracket from the top.
pub fn pair(setup: &Setup) -> Result<Paired, DutchError> {
    let states = setup.states;
    let mut ranked = setup.players.clone();
    ranked.sort_by(|&a, &b| rank_order(states, a, b));
    let odd = ranked.len() % 2 == 1;
    // Scoregroups, highest first.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in &ranked {
        match groups.last_mut() {
            Some(g) if states[g[0]].score == states[p].score => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    let mut pairs = Vec::new();
    let mut moved_down: Vec<usize> = Vec::new();
    let mut bye = None;
    for g in 0..groups.len() {
        let mut bracket = std::mem::take(&mut moved_down);
        bracket.extend(&groups[g]);
        let below: Vec<usize> = groups[g + 1..].iter().flatten().copied().collect();
        let next = groups.get(g + 1).map_or(0, Vec::len);
        let out = pair_bracket(setup, &bracket, &below, next, odd)?;
        pairs.extend(out.pairs);
        moved_down = out.floaters;
        if g + 1 == groups.len() {
            bye = out.bye;
        }
    }
    debug_assert!(moved_down.is_empty());
    Ok((pairs, bye))
}

struct BracketOut {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
    bye: Option<usize>,
}

/// Whether two players may meet at all (C1, C3).
fn allowed(setup: &Setup, a: usize, b: usize) -> bool {
    if setup.states[a].has_met(b) {
        return false;
    }
    let top = |p: usize| setup.topscorers.get(p).copied().unwrap_or(false);
    match (setup.preferences[a], setup.preferences[b]) {
        (Some((ca, Strength::Absolute)), Some((cb, Strength::Absolute))) if ca == cb => {
            top(a) || top(b)
        }
        _ => true,
    }
}

/// Pairs one bracket: `below` holds every lower player, the next scoregroup's `next` first.
fn pair_bracket(
    setup: &Setup,
    bracket: &[usize],
    below: &[usize],
    next: usize,
    odd: bool,
) -> Result<BracketOut, DutchError> {
    let states = setup.states;
    let nb = bracket.len();
    // Vertices: the bracket (in pairing order), the players below, then the bye.
    let mut vertex: Vec<usize> = bracket.to_vec();
    vertex.extend(below);
    let bye_vertex = odd.then_some(vertex.len());
    let in_next = |v: usize| v >= nb && v < nb + next;
    let residents_score = states[bracket[nb - 1]].score;
    let moved = bracket
        .iter()
        .filter(|&&p| states[p].score > residents_score)
        .count();
    let edge_bound = nb + next + 1;
    let bounds = Packing::edge_bounds(nb, next);
    let scores: Vec<u32> = bracket.iter().map(|&p| states[p].score).collect();
    let current = ScoreScale::new(scores.clone(), edge_bound);
    let mut with_next = scores;
    with_next.extend(below.first().map(|&p| states[p].score));
    let next_scale = ScoreScale::new(with_next, edge_bound);

    // Weighted edges (those touching the bracket or inside the next scoregroup, and the
    // bye), and the plain ones that only keep the rest pairable.
    let mut graph = Graph {
        n: vertex.len() + usize::from(odd),
        nb,
        bounds,
        ends: Vec::new(),
        values: Vec::new(),
        plain: Vec::new(),
    };
    for x in 0..vertex.len() {
        for y in x + 1..vertex.len() {
            let (a, b) = (vertex[x], vertex[y]);
            if !allowed(setup, a, b) {
                continue;
            }
            let mut v: Values = [0; COUNT];
            if y < nb {
                pair_values(setup, &mut v, a, b);
                v[C::ScoresPaired as usize] = current.weight(states[a].score);
                repeat_upfloat_scores(&mut v, &states[a], &states[b], &current);
            } else if x < nb {
                float_values(&mut v, &states[a], &current);
            } else if !in_next(y) {
                graph.plain.push((x, y));
                continue;
            }
            if in_next(y) {
                v[C::NextPairs as usize] = 1;
                v[C::NextScoresPaired as usize] = next_scale.weight(states[a].score);
            }
            graph.ends.push((x, y));
            graph.values.push(v);
        }
        if let Some(bv) = bye_vertex
            && !states[vertex[x]].no_bye
        {
            let mut v: Values = [0; COUNT];
            bye_penalties(&mut v, &states[vertex[x]]);
            if x < nb {
                float_values(&mut v, &states[vertex[x]], &current);
            }
            graph.ends.push((x, bv));
            graph.values.push(v);
        }
    }
    let mates = if moved == 0 {
        graph.solve(&mut Layout::homogeneous(nb))?
    } else {
        // First the moved-down players' opponents, then the remainder with those fixed.
        let first = graph.solve(&mut Layout::moved_down(nb, moved))?;
        let mut remainder = vec![true; nb];
        for x in 0..moved {
            remainder[x] = false;
            let m = first[x];
            if m < nb {
                remainder[m] = false;
            }
            graph.keep_only(x, m);
        }
        graph.solve(&mut Layout::remainder(&remainder))?
    };
    let mut out = BracketOut {
        pairs: Vec::new(),
        floaters: Vec::new(),
        bye: None,
    };
    for (x, &p) in bracket.iter().enumerate() {
        let m = mates[x];
        if m < nb {
            if x < m {
                out.pairs.push((p, bracket[m]));
            }
        } else if below.is_empty() && Some(m) == bye_vertex {
            out.bye = Some(p);
        } else {
            out.floaters.push(p);
        }
    }
    Ok(out)
}

/// A bracket's matching problem: weighted edges with their criteria, plain ones.
struct Graph {
    n: usize,
    nb: usize,
    bounds: [usize; COUNT],
    ends: Vec<(usize, usize)>,
    values: Vec<Values>,
    plain: Vec<(usize, usize)>,
}

impl Graph {
    /// The best matching with the Handbook's order of `layout`, as exactly as the weight
    /// can hold it: for each vertex, its mate. The exact order over all S1 places at once
    /// if it fits; else over windows of places, first to last, each window's pairs fixed
    /// before the next (one matching each, for S1 of up to 64); else the weighted or plain
    /// distances.
    fn solve(&mut self, layout: &mut Layout) -> Result<Vec<usize>, DutchError> {
        let (ends, values) = (self.ends.clone(), self.values.clone());
        let mates = self.solve_in_order(layout)?;
        match layout.remainder_pairs(&mates) {
            Some(pairs) if pairs != layout.places() => {
                // Fewer pairs than half the remainder: S1 is that many (MaxPairs), again.
                self.ends = ends;
                self.values = values;
                layout.set_s1(pairs);
                self.solve_in_order(layout)
            }
            _ => Ok(mates),
        }
    }

    fn solve_in_order(&mut self, layout: &mut Layout) -> Result<Vec<usize>, DutchError> {
        if let Some(mates) = self.try_solve(layout, Mode::Exact)? {
            return Ok(mates);
        }
        let places = layout.places();
        let free = BUDGET.saturating_sub(self.packing(layout, None).used());
        let per = layout.place_bits();
        let k = ((free.saturating_sub(1) / per) as usize).saturating_sub(2);
        if k >= 1 && places <= 64 {
            let mut lo = 0;
            loop {
                let hi = (lo + k).min(places);
                layout.set_window(lo, hi);
                let Some(mates) = self.try_solve(layout, Mode::Exact)? else {
                    break;
                };
                if hi == places {
                    return Ok(mates);
                }
                // A place with no position cannot be held to the window's answer: the order
                // is then weighed whole below, as for a bracket too big for the exact order.
                let Some(held) = (lo..hi)
                    .map(|p| layout.position(p))
                    .collect::<Option<Vec<_>>>()
                else {
                    break;
                };
                for x in held {
                    self.keep_only(x, mates[x]);
                }
                lo = hi;
            }
            layout.set_window(0, places);
        }
        for mode in [Mode::Weighted, Mode::Plain] {
            if let Some(mates) = self.try_solve(layout, mode)? {
                return Ok(mates);
            }
        }
        let packing = self.packing(layout, None);
        self.matching(&packing)
    }

    /// The matching with the order weighed in `mode`, or `None` if the order does not fit.
    fn try_solve(&mut self, layout: &Layout, mode: Mode) -> Result<Option<Vec<usize>>, DutchError> {
        if mode == Mode::Exact && !layout.window_fits() {
            return Ok(None);
        }
        let packing = self.packing(layout, Some(mode));
        if !packing.keeps(C::Order) {
            return Ok(None);
        }
        self.matching(&packing).map(Some)
    }

    /// Sets the order's fields for `layout` (the transpositions in `mode`, or none) and packs.
    fn packing(&mut self, layout: &Layout, mode: Option<Mode>) -> Packing {
        for (&(x, y), v) in self.ends.iter().zip(self.values.iter_mut()) {
            let (e, o) = if x < self.nb {
                let y = (y < self.nb).then_some(y);
                let o = mode.map_or(0, |m| layout.transposition(x, y, m));
                (layout.exchange(x, y), o)
            } else {
                ([0; 4], 0)
            };
            let fields = [
                C::Exchange,
                C::ExchangeSum,
                C::ExchangeHighDown,
                C::ExchangeLowUp,
            ];
            for (f, e) in fields.into_iter().zip(e) {
                v[f as usize] = -e;
            }
            v[C::Order as usize] = -o;
        }
        Packing::new(&self.values, &self.bounds)
    }

    fn matching(&self, packing: &Packing) -> Result<Vec<usize>, DutchError> {
        let mut edges: Vec<WideEdge> = self
            .ends
            .iter()
            .zip(&self.values)
            .map(|(&(x, y), v)| (x, y, packing.weight(v)))
            .collect();
        edges.extend(self.plain.iter().map(|&(x, y)| (x, y, 0)));
        blossom::max_weight_perfect_matching_wide(self.n, &edges)
            .map_err(|e| DutchError::Invalid(format!("matching: {e:?}")))?
            .ok_or(DutchError::NoPairing)
    }

    /// Fixes bracket vertex `x` to what the first pass gave it: its mate `m` if in the
    /// bracket, else no partner in the bracket.
    fn keep_only(&mut self, x: usize, m: usize) {
        let nb = self.nb;
        let keep = |&(a, b): &(usize, usize)| {
            if a != x && b != x {
                return true;
            }
            let other = if a == x { b } else { a };
            if m < nb { other == m } else { other >= nb }
        };
        let mut k = 0;
        while k < self.ends.len() {
            if keep(&self.ends[k]) {
                k += 1;
            } else {
                self.ends.swap_remove(k);
                self.values.swap_remove(k);
            }
        }
    }
}

/// The colour and float criteria of a pair inside the bracket, `a` ranked above `b`.
fn pair_values(setup: &Setup, v: &mut Values, a: usize, b: usize) {
    let states = setup.states;
    let (sa, sb) = (&states[a], &states[b]);
    v[C::Pairs as usize] = 1;
    // Colours: what the allocation rules would give this pair.
    let (white, _) = allocate(states, a, b, setup.initial);
    let top = |p: usize| setup.topscorers.get(p).copied().unwrap_or(false);
    let (pa, pb) = (setup.preferences[a], setup.preferences[b]);
    for p in [a, b] {
        let st = &states[p];
        let c = if p == white {
            Colour::White
        } else {
            Colour::Black
        };
        if let Some((want, _)) = setup.preferences[p]
            && want != c
        {
            v[C::Preference as usize] -= 1;
        }
        if top(a) || top(b) {
            let cd = st.colour_difference() + if c == Colour::White { 1 } else { -1 };
            if cd.abs() > 2 {
                v[C::TopscorerDifference as usize] -= 1;
            }
            let n = st.colours.len();
            if n >= 2 && st.colours[n - 1] == c && st.colours[n - 2] == c {
                v[C::TopscorerRun as usize] -= 1;
            }
        }
    }
    // (C11) Both want the same colour strongly: one goes without (two absolute ones are the
    // topscorers' criteria above).
    if let (Some((ca, xa)), Some((cb, xb))) = (pa, pb)
        && ca == cb
        && xa >= Strength::Strong
        && xb >= Strength::Strong
        && !(xa == Strength::Absolute && xb == Strength::Absolute)
    {
        v[C::StrongPreference as usize] -= 1;
    }
    // Floats: the higher score floats down, the lower up (C.04.3 article 1.4.2).
    if sa.score != sb.score {
        let (down, up) = if sa.score > sb.score {
            (sa, sb)
        } else {
            (sb, sa)
        };
        repeat_penalties(v, down, Float::Down);
        repeat_penalties(v, up, Float::Up);
    }
}

/// A bracket player left unpaired floats down (or takes the bye).
fn float_values(v: &mut Values, st: &State, scale: &ScoreScale) {
    repeat_penalties(v, st, Float::Down);
    // (C16, C18) A repeated downfloater leaving the bracket: its score counts against.
    if st.float_ago(1) == Some(Float::Down) {
        v[C::DownAgainScore as usize] -= scale.weight(st.score);
    }
    if st.float_ago(2) == Some(Float::Down) {
        v[C::DownTwoAgoScore as usize] -= scale.weight(st.score);
    }
}

/// (C17, C19) A pair making the lower player float up again: the higher one's score counts
/// against.
fn repeat_upfloat_scores(v: &mut Values, higher: &State, lower: &State, scale: &ScoreScale) {
    if higher.score > lower.score {
        if lower.float_ago(1) == Some(Float::Up) {
            v[C::UpAgainScore as usize] -= scale.weight(higher.score);
        }
        if lower.float_ago(2) == Some(Float::Up) {
            v[C::UpTwoAgoScore as usize] -= scale.weight(higher.score);
        }
    }
}

/// The 2025 rules on who takes the pairing-allocated bye: the lowest score, then the fewest
/// unplayed rounds.
fn bye_penalties(v: &mut Values, st: &State) {
    v[C::ByeScore as usize] = -i128::from(st.score);
    v[C::ByeUnplayed as usize] = -i128::from(st.unplayed);
}

fn repeat_penalties(v: &mut Values, st: &State, float: Float) {
    let (last, two) = match float {
        Float::Down => (C::DownAgain, C::DownTwoAgo),
        Float::Up => (C::UpAgain, C::UpTwoAgo),
    };
    if st.float_ago(1) == Some(float) {
        v[last as usize] -= 1;
    }
    if st.float_ago(2) == Some(float) {
        v[two as usize] -= 1;
    }
}
