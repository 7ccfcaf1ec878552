//! The quality criteria of the FIDE (Dutch) System (C.04.3 article 2.3, in their order;
//! named below by the 2017 numbers C5–C15 where the 2025 text kept them) as numbers per edge of a bracket's matching, packed into one `i128` weight so that
//! any gain in a criterion outweighs every change in all the criteria below it together: a
//! maximum-weight matching then optimises them lexicographically, most important first.

/// The criteria a bracket's edges are scored on, most important first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// The 2025 rules' first quality criterion: the pairing-allocated bye goes to a player
    /// with the lowest score possible — looked ahead from every bracket, like completion
    /// (one per half-point of its receiver's score).
    ByeScore,
    /// C5: as many pairs in the bracket as possible (one per pair).
    Pairs,
    /// C6: the pairing score differences, largest first (see [`psd_penalty`]).
    ScoreDifferences,
    /// The 2025 rules on the pairing-allocated bye: among those it could go to, a player
    /// with as few unplayed rounds as possible (one per unplayed round of its receiver).
    ByeUnplayed,
    /// C8: topscorers (or their opponents) whose colour difference would pass ±2.
    TopscorerDifference,
    /// C9: topscorers (or their opponents) with a third same colour in a row.
    TopscorerRun,
    /// C10: players who do not get their colour preference.
    Preference,
    /// C11: players who do not get a strong (or absolute) colour preference.
    StrongPreference,
    /// C12: a downfloat again after one in the last round.
    DownAgain,
    /// C13: an upfloat again after one in the last round.
    UpAgain,
    /// C14: a downfloat again after one two rounds before.
    DownTwoAgo,
    /// C15: an upfloat again after one two rounds before.
    UpTwoAgo,
    /// The Handbook's order inside a bracket, first its exchanges: an S1 player (the top
    /// half, or a moved-down player) not facing S2 — fewest, and the lowest of S1 first.
    Exchange,
    /// Then its transpositions: how far each S1 player's opponent is from its place in S2,
    /// the higher players' distance weighing more; the lowest left over float.
    Order,
}

pub const COUNT: usize = 14;

/// Field values of one edge, by [`Criterion`] (as index).
pub type Values = [i128; COUNT];

/// Bits of the weight used: doubled weights, dual sums and slacks stay inside `i128`
/// (`blossom::MAX_WIDE_WEIGHT` is 2^120).
const BUDGET: u32 = 118;

/// The shifts of each field for one bracket, or `None` for a field dropped because the
/// fields above it already fill the weight (only the Handbook's order, in huge brackets).
pub struct Packing {
    shift: [Option<u32>; COUNT],
}

impl Packing {
    /// Every bracket player is in at most one edge of a matching, so a field's total over a
    /// matching is at most `bracket_size` times its largest value on an edge.
    pub fn new(values: &[Values], bracket_size: usize) -> Packing {
        let width: [u32; COUNT] = std::array::from_fn(|f| {
            let top = values.iter().map(|v| v[f].unsigned_abs()).max().unwrap_or(0);
            let total = top.saturating_mul(bracket_size.max(1) as u128);
            // The total ranges over [−total, total]: 2·total + 1 values.
            bits(total.saturating_mul(2).saturating_add(1))
        });
        // Most important first: each field kept is placed above all that follow it, and the
        // fields that no longer fit are dropped.
        let mut kept = 0;
        let mut used = 0u32;
        for w in width {
            if used + w > BUDGET {
                break;
            }
            used += w;
            kept += 1;
        }
        let mut shift = [None; COUNT];
        let mut at = 0u32;
        for f in (0..kept).rev() {
            shift[f] = Some(at);
            at += width[f];
        }
        Packing { shift }
    }

    pub fn weight(&self, v: &Values) -> i128 {
        self.shift
            .iter()
            .zip(v)
            .filter_map(|(s, x)| s.map(|s| x << s))
            .sum()
    }
}

fn bits(x: u128) -> u32 {
    128 - x.leading_zeros()
}

/// C6 compares the score differences as a list sorted from the largest down (C.04.3 article
/// 1.8: a pair's difference, and for a downfloater its score less one point below the
/// bracket's lowest): one difference of a larger size weighs more than any number of smaller
/// ones. Each distinct size gets a power of `base` (more than the entries of a bracket);
/// where that would not fit, the square of the difference stands in.
pub struct Psd {
    sizes: Vec<u32>,
    base: u128,
    squares: bool,
}

impl Psd {
    pub fn new(mut sizes: Vec<u32>, bracket_size: usize) -> Psd {
        sizes.sort_unstable();
        sizes.dedup();
        let base = bracket_size as u128 + 1;
        let width = bits(base) * sizes.len() as u32;
        Psd {
            squares: width > 56,
            sizes,
            base,
        }
    }

    pub fn penalty(&self, difference: u32) -> i128 {
        if self.squares {
            return -(i128::from(difference) * i128::from(difference));
        }
        let rank = self.sizes.partition_point(|&s| s < difference) as u32;
        -(self.base.pow(rank) as i128)
    }
}
