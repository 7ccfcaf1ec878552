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
use super::criteria::{COUNT, Criterion as C, Packing, ScoreScale, Values};
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
pub fn pair(setup: &Setup) -> Result<(Vec<(usize, usize)>, Option<usize>), DutchError> {
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
    let n = vertex.len() + usize::from(odd);
    let in_next = |v: usize| v >= nb && v < nb + next;
    let residents_score = states[bracket[nb - 1]].score;
    let moved = bracket
        .iter()
        .filter(|&&p| states[p].score > residents_score)
        .count();
    let edge_bound = nb + next + 1;
    let scores: Vec<u32> = bracket.iter().map(|&p| states[p].score).collect();
    let current = ScoreScale::new(scores.clone(), edge_bound);
    let mut with_next = scores;
    with_next.extend(below.first().map(|&p| states[p].score));
    let next_scale = ScoreScale::new(with_next, edge_bound);
    let layout = Layout::new(nb, moved);

    // Weighted edges (those touching the bracket or inside the next scoregroup, and the
    // bye), and the plain ones that only keep the rest pairable.
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut values: Vec<Values> = Vec::new();
    let mut plain: Vec<(usize, usize)> = Vec::new();
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
                v[C::Exchange as usize] = -layout.exchange(x, Some(y));
            } else if x < nb {
                float_values(&mut v, &states[a]);
                v[C::Exchange as usize] = -layout.exchange(x, None);
            } else if !in_next(y) {
                plain.push((x, y));
                continue;
            }
            if in_next(y) {
                v[C::NextPairs as usize] = 1;
                v[C::NextScoresPaired as usize] = next_scale.weight(states[a].score);
            }
            ends.push((x, y));
            values.push(v);
        }
        if let Some(bv) = bye_vertex
            && !states[vertex[x]].no_bye
        {
            let mut v: Values = [0; COUNT];
            bye_penalties(&mut v, &states[vertex[x]]);
            if x < nb {
                float_values(&mut v, &states[vertex[x]]);
                v[C::Exchange as usize] = -layout.exchange(x, None);
            }
            ends.push((x, bv));
            values.push(v);
        }
    }
    // The Handbook's order as exactly as the weight can hold it.
    let mut packing = Packing::new(&values, edge_bound);
    for mode in [OrderMode::Exact, OrderMode::Weighted, OrderMode::Plain] {
        if mode == OrderMode::Exact && !layout.exact_fits(60) {
            continue;
        }
        for (&(x, y), v) in ends.iter().zip(values.iter_mut()) {
            if x < nb {
                let y = (y < nb).then_some(y);
                v[C::Order as usize] = -layout.transposition(x, y, mode);
            }
        }
        packing = Packing::new(&values, edge_bound);
        if packing.keeps(C::Order) {
            break;
        }
    }
    let mut edges: Vec<WideEdge> = ends
        .iter()
        .zip(&values)
        .map(|(&(x, y), v)| (x, y, packing.weight(v)))
        .collect();
    edges.extend(plain.iter().map(|&(x, y)| (x, y, 0)));
    let mates = blossom::max_weight_perfect_matching_wide(n, &edges)
        .map_err(|e| DutchError::Invalid(format!("matching: {e:?}")))?
        .ok_or(DutchError::NoPairing)?;
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
        let (down, up) = if sa.score > sb.score { (sa, sb) } else { (sb, sa) };
        repeat_penalties(v, down, Float::Down);
        repeat_penalties(v, up, Float::Up);
    }
}

/// A bracket player left unpaired floats down (or takes the bye).
fn float_values(v: &mut Values, st: &State) {
    repeat_penalties(v, st, Float::Down);
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

/// The Handbook's order in a bracket of `n` with `moved` players moved down (C.04.3
/// article 3): S1 the moved-down players, facing the top residents in order; then the
/// remainder, a homogeneous bracket whose top half (its S1) faces its bottom half (its S2),
/// first against first. A homogeneous bracket has no moved-down players.
struct Layout {
    n: usize,
    moved: usize,
    /// The first position of the remainder, and its number of pairs.
    start: usize,
    half: usize,
}

impl Layout {
    fn new(n: usize, moved: usize) -> Layout {
        let moved = moved.min(n / 2);
        let start = 2 * moved;
        Layout {
            n,
            moved,
            start,
            half: (n - start) / 2,
        }
    }

    fn in_s1(&self, x: usize) -> bool {
        x < self.moved || (x >= self.start && x < self.start + self.half)
    }

    /// x's place among the S1 players (the moved-down ones, then the remainder's top half).
    fn s1_index(&self, x: usize) -> Option<usize> {
        if x < self.moved {
            Some(x)
        } else if x >= self.start && x < self.start + self.half {
            Some(self.moved + x - self.start)
        } else {
            None
        }
    }

    /// Exchanges (C.04.3 article 4.3 in the 2025 text, D.2 in 2017's): fewest players moved
    /// between S1 and S2, then the smallest difference between the pairing numbers moved up
    /// and those moved down. A pair of two S1 players moves the lower down; a pair of two S2
    /// players moves the higher up; an S1 player left over moves down. Each exchange costs
    /// at least n, so one fewer always wins.
    fn exchange(&self, x: usize, y: Option<usize>) -> i128 {
        let down = |p: usize| (2 * self.n - p) as i128;
        match y {
            None if self.in_s1(x) => down(x),
            None => 0,
            Some(y) => match (self.in_s1(x), self.in_s1(y)) {
                (true, true) => down(y),
                (false, false) => x as i128,
                (false, true) => down(y),
                (true, false) => 0,
            },
        }
    }

    /// Transpositions: each S1 player's opponent as high in S2 as possible, S1's first
    /// player before its second and so on. `Exact` makes that strictly lexicographic (a
    /// power of n + 1 per S1 place, only for brackets small enough to hold it); `Weighted`
    /// weighs the distance from the first-against-first opponent by the S1 player's rank;
    /// `Plain` counts the distance alone.
    fn transposition(&self, x: usize, y: Option<usize>, mode: OrderMode) -> i128 {
        let Some(y) = y else {
            return match mode {
                OrderMode::Exact => 0,
                _ => (self.n - 1 - x) as i128,
            };
        };
        if mode == OrderMode::Exact {
            let s1 = self.moved + self.half;
            let base = self.n as i128 + 1;
            let power = self
                .s1_index(x)
                .map_or(0, |i| (s1 - 1 - i.min(s1 - 1)) as u32);
            return y as i128 * base.pow(power);
        }
        let ideal = if x < self.moved {
            self.moved + x
        } else {
            x.max(self.start) + self.half
        };
        let weight = if mode == OrderMode::Weighted {
            self.n - x
        } else {
            1
        };
        (y.abs_diff(ideal) * weight) as i128
    }

    /// Whether the exact order's weights stay within `bits`.
    fn exact_fits(&self, bits: u32) -> bool {
        let s1 = (self.moved + self.half) as u32;
        let per = 128 - (self.n as u128 + 1).leading_zeros();
        // Each power of n + 1, times a position below n + 1, summed over n edges.
        per * (s1 + 2) <= bits
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OrderMode {
    Exact,
    Weighted,
    Plain,
}
