//! The Handbook's order inside a bracket (C.04.3 article 4 in the 2025 text, sections B and
//! D in 2017's): which of the pairings equal on every criterion comes first. A bracket with
//! moved-down players is ordered in two passes, as the Handbook pairs it: first the
//! moved-down players (S1) against the residents (S2), each as high an opponent as the
//! criteria allow, the first MDP before the second; then, those pairs fixed, the remainder —
//! a homogeneous bracket whose top half (S1) faces its bottom half (S2), first against first,
//! with the fewest exchanges between the halves and the smallest difference of the pairing
//! numbers exchanged, then S2 transposed as little as possible.

/// How exactly the order is weighed: `Exact` is strictly lexicographic (a power of the part's
/// size + 1 per S1 place), for parts small enough to hold it; `Weighted` weighs the distance
/// from the natural opponent by the S1 player's rank; `Plain` counts the distance alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Exact,
    Weighted,
    Plain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Not in the part being ordered.
    Out,
    /// A moved-down player, by its place among them.
    Moved(usize),
    /// A player of the part, by its place in it (residents, or the remainder).
    In(usize),
}

/// One part of a bracket to order, by bracket position.
pub struct Layout {
    role: Vec<Role>,
    /// Moved-down players ordered against the residents (the first pass), or the remainder.
    moved_pass: bool,
    moved: usize,
    /// Players in the part (residents in the first pass), and S1's size in the remainder.
    len: usize,
    s1: usize,
    /// The S1 places the exact order weighs (the others weigh nothing): all of them, or a
    /// window when the weight cannot hold them all at once.
    window: (usize, usize),
}

impl Layout {
    /// A homogeneous bracket of `n`.
    pub fn homogeneous(n: usize) -> Layout {
        Layout::remainder(&vec![true; n])
    }

    /// The first pass of a bracket whose first `moved` players moved down.
    pub fn moved_down(n: usize, moved: usize) -> Layout {
        let role = (0..n)
            .map(|x| {
                if x < moved {
                    Role::Moved(x)
                } else {
                    Role::In(x - moved)
                }
            })
            .collect();
        Layout {
            role,
            moved_pass: true,
            moved,
            len: n - moved,
            s1: 0,
            window: (0, moved),
        }
    }

    /// The remainder: the bracket positions marked `true`.
    pub fn remainder(members: &[bool]) -> Layout {
        let mut k = 0;
        let role = members
            .iter()
            .map(|&m| {
                if m {
                    k += 1;
                    Role::In(k - 1)
                } else {
                    Role::Out
                }
            })
            .collect();
        Layout {
            role,
            moved_pass: false,
            moved: 0,
            len: k,
            s1: k / 2,
            window: (0, k / 2),
        }
    }

    /// Exchanges in the remainder (2017 text, D.2): the fewest players moved between S1
    /// and S2; then the smallest difference between the places moved up and those moved
    /// down; then the highest place moved down; then the lowest place moved up. A pair of
    /// two S1 players moves the lower down, a pair of two S2 players moves the higher up, an
    /// S1 player left over moves down. As costs, by field: count, difference, and the two
    /// last as sums of places — exact for one player exchanged each way (the usual case),
    /// an approximation for more.
    pub fn exchange(&self, x: usize, y: Option<usize>) -> [i128; 4] {
        let none = [0; 4];
        if self.moved_pass {
            return none;
        }
        let Role::In(i) = self.role[x] else {
            return none;
        };
        let down = |p: usize| [1, -(p as i128), -(p as i128), 0];
        let up = |p: usize| [0, p as i128, 0, p as i128];
        let s1 = |p: usize| p < self.s1;
        match y.map(|y| self.role[y]) {
            None if s1(i) => down(i),
            None => none,
            Some(Role::In(j)) => match (s1(i), s1(j)) {
                (_, true) => down(j),
                (false, false) => up(i),
                (true, false) => none,
            },
            Some(_) => none,
        }
    }

    /// The number of S1 places: the moved-down players in the first pass, the remainder's
    /// top half in the second.
    pub fn places(&self) -> usize {
        if self.moved_pass { self.moved } else { self.s1 }
    }

    /// The bracket position of S1 place `place` (`None` past the last place).
    pub fn position(&self, place: usize) -> Option<usize> {
        let want = if self.moved_pass {
            Role::Moved(place)
        } else {
            Role::In(place)
        };
        self.role.iter().position(|&r| r == want)
    }

    /// Pairs the matching `mates` (by vertex, bracket first) makes inside the remainder;
    /// `None` in the first pass.
    pub fn remainder_pairs(&self, mates: &[usize]) -> Option<usize> {
        if self.moved_pass {
            return None;
        }
        let inside = |v: usize| matches!(self.role.get(v), Some(Role::In(_)));
        let ends = (0..self.role.len())
            .filter(|&x| inside(x) && inside(mates[x]))
            .count();
        Some(ends / 2)
    }

    /// S1 holds as many players as the remainder can pair (the Handbook's MaxPairs), which
    /// is fewer than half when more than one must float.
    pub fn set_s1(&mut self, pairs: usize) {
        self.s1 = pairs;
        self.window = (0, pairs);
    }

    /// Weigh only S1 places `lo..hi` in the exact order.
    pub fn set_window(&mut self, lo: usize, hi: usize) {
        self.window = (lo, hi);
    }

    /// Whether the exact order over the window could fit a weight at all (the packing
    /// decides whether it fits beside the criteria).
    pub fn window_fits(&self) -> bool {
        let (lo, hi) = self.window;
        (hi - lo + 2) as u32 * self.place_bits() <= 100
    }

    /// Bits per S1 place of the exact order (a power of the part's size + 1).
    pub fn place_bits(&self) -> u32 {
        128 - (self.len as u128 + 1).leading_zeros()
    }

    /// Transpositions: each S1 player's opponent as high in S2 as possible, S1's first
    /// player before its second; in the first pass each moved-down player's resident as
    /// high as possible, and a moved-down player left over costs more than any opponent.
    /// In the exact order only the window's places weigh, the window's first the most.
    pub fn transposition(&self, x: usize, y: Option<usize>, mode: Mode) -> i128 {
        let base = self.len as i128 + 1;
        let (lo, hi) = self.window;
        let scale = |place: usize, count: usize, value: i128| -> i128 {
            match mode {
                // One power to spare below the last place: the pairs inside S2 (players
                // moved up by an exchange, who come after every S1 player).
                Mode::Exact if (lo..hi).contains(&place) => value * base.pow((hi - place) as u32),
                Mode::Exact => 0,
                Mode::Weighted => value * (count - place) as i128,
                Mode::Plain => value,
            }
        };
        let other = y.map(|y| self.role[y]);
        if self.moved_pass {
            let Role::Moved(i) = self.role[x] else {
                return 0;
            };
            let value = match other {
                Some(Role::In(r)) => r as i128,
                _ => self.len as i128 + 1,
            };
            return scale(i, self.moved, value);
        }
        let Role::In(i) = self.role[x] else {
            return 0;
        };
        match (other, mode) {
            (Some(Role::In(j)), Mode::Exact) if i < self.s1 => scale(i, self.s1, j as i128),
            // Pairs inside S2 (after exchanges) last of all.
            (Some(Role::In(j)), Mode::Exact) if hi == self.s1 => j as i128,
            (_, Mode::Exact) => 0,
            (Some(Role::In(j)), _) => {
                let ideal = i + self.s1;
                let distance = j.abs_diff(ideal) as i128;
                if mode == Mode::Weighted {
                    distance * (self.len - i) as i128
                } else {
                    distance
                }
            }
            _ => (self.len.saturating_sub(1 + i)) as i128,
        }
    }
}
