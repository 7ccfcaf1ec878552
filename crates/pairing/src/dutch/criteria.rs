//! The quality criteria of the FIDE (Dutch) System (C.04.3 article 2, in their order) as
//! numbers per edge of a bracket's matching, packed into one `i128` weight so that any gain
//! in a criterion outweighs every change in all the criteria below it together: a
//! maximum-weight matching then optimises them lexicographically, most important first.
//! Criteria are named by their subject; the numbers in brackets are those of the Handbook's
//! 2017 text (C.04.3 section C), which the 2025 text keeps in substance.

/// The criteria a bracket's edges are scored on, most important first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// 2025 rules: the pairing-allocated bye goes to a player with the lowest score
    /// possible, looked ahead from every bracket like completion (minus its score).
    ByeScore,
    /// (C5) As many pairs in the bracket as possible.
    Pairs,
    /// (C6) The downfloaters' scores as low as possible: the players paired as high as
    /// possible, each pair counting its higher player's score, a higher score outweighing
    /// any number of lower ones.
    ScoresPaired,
    /// (C7) Then as many pairs in the next bracket as possible…
    NextPairs,
    /// …and the scores paired there as high as possible.
    NextScoresPaired,
    /// 2025 rules: of the players who could take the bye, one with the fewest unplayed
    /// rounds.
    ByeUnplayed,
    /// (C8) Topscorers or their opponents whose colour difference would pass ±2.
    TopscorerDifference,
    /// (C9) Topscorers or their opponents with a third same colour in a row.
    TopscorerRun,
    /// (C10) Players who do not get their colour preference.
    Preference,
    /// (C11) Players who do not get a strong colour preference.
    StrongPreference,
    /// (C12) A downfloat again after one in the last round.
    DownAgain,
    /// (C13) An upfloat again after one in the last round.
    UpAgain,
    /// (C14) A downfloat again after one two rounds before.
    DownTwoAgo,
    /// (C15) An upfloat again after one two rounds before.
    UpTwoAgo,
    /// (C16) The scores of players floating down again after the last round, kept low: a
    /// repeated downfloater paired inside the bracket rather than further down (minus its
    /// score's weight when it leaves the bracket).
    DownAgainScore,
    /// (C17) The scores of the opponents of repeated upfloaters (after the last round).
    UpAgainScore,
    /// (C18) As C16, for a downfloat two rounds before.
    DownTwoAgoScore,
    /// (C19) As C17, for an upfloat two rounds before.
    UpTwoAgoScore,
    /// The Handbook's order inside a bracket (`order`), first its exchanges between S1 and
    /// S2: fewest players exchanged…
    Exchange,
    /// …then the smallest difference between the pairing numbers moved up and down…
    ExchangeSum,
    /// …then the highest number moved down from S1…
    ExchangeHighDown,
    /// …then the lowest number moved up from S2.
    ExchangeLowUp,
    /// Then its transpositions: how far each S1 player's opponent is from its place in S2,
    /// the higher players' distance weighing more; the lowest left over float.
    Order,
}

pub const COUNT: usize = 23;

/// Field values of one edge, by [`Criterion`] (as index).
pub type Values = [i128; COUNT];

/// Bits of the weight used: doubled weights, dual sums and slacks stay inside `i128`
/// (`blossom::MAX_WIDE_WEIGHT` is 2^122).
pub const BUDGET: u32 = 121;

/// The shifts of each field for one bracket, or `None` for a field dropped because the
/// fields above it already fill the weight.
pub struct Packing {
    shift: [Option<u32>; COUNT],
    used: u32,
}

impl Packing {
    /// `edges[f]` bounds how many edges of a matching carry field f (each vertex is in one
    /// edge: the bye's fields are on one edge, a pair's on at most half the bracket); with
    /// the largest value it bounds the field's total. A field that is zero everywhere
    /// takes no bits.
    pub fn new(values: &[Values], edges: &[usize; COUNT]) -> Packing {
        let width: [u32; COUNT] = std::array::from_fn(|f| {
            let top = values
                .iter()
                .map(|v| v[f].unsigned_abs())
                .max()
                .unwrap_or(0);
            if top == 0 {
                return 0;
            }
            let total = top.saturating_mul(edges[f].max(1) as u128);
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
        Packing { shift, used }
    }

    /// Bits the fields kept take.
    pub fn used(&self) -> u32 {
        self.used
    }

    /// How many edges of a matching can carry each field, for a bracket of `bracket`
    /// players with `next` in the next scoregroup.
    pub fn edge_bounds(bracket: usize, next: usize) -> [usize; COUNT] {
        use Criterion as C;
        let pairs = bracket / 2 + 1;
        let mut b = [bracket + 1; COUNT];
        for c in [C::ByeScore, C::ByeUnplayed] {
            b[c as usize] = 1;
        }
        for c in [
            C::Pairs,
            C::ScoresPaired,
            C::TopscorerDifference,
            C::TopscorerRun,
            C::Preference,
            C::StrongPreference,
            C::UpAgain,
            C::UpTwoAgo,
            C::UpAgainScore,
            C::UpTwoAgoScore,
        ] {
            b[c as usize] = pairs;
        }
        for c in [C::NextPairs, C::NextScoresPaired] {
            b[c as usize] = (bracket + next) / 2 + 1;
        }
        b
    }

    pub fn keeps(&self, c: Criterion) -> bool {
        self.shift[c as usize].is_some()
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

/// Scores as weights in which one pair of a higher score outweighs any number of pairs of
/// lower ones: each distinct score gets a power of `base` (more than the pairs a matching
/// can hold); where that would not fit, the score itself stands in.
pub struct ScoreScale {
    scores: Vec<u32>,
    base: u128,
    linear: bool,
}

impl ScoreScale {
    pub fn new(mut scores: Vec<u32>, edges: usize) -> ScoreScale {
        scores.sort_unstable();
        scores.dedup();
        let base = edges as u128 + 1;
        let width = bits(base) * scores.len() as u32;
        ScoreScale {
            linear: width > 40,
            scores,
            base,
        }
    }

    pub fn weight(&self, score: u32) -> i128 {
        if self.linear {
            return i128::from(score) + 1;
        }
        let rank = self.scores.partition_point(|&s| s < score) as u32;
        self.base.pow(rank) as i128
    }
}
