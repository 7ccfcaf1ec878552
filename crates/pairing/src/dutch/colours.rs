//! Colour allocation for a pair (FIDE Handbook C.04.3, section 5 "Colour Allocation Rules",
//! E.1–E.5 in the 2017 numbering), and the order in which the boards are published.

use super::players::{Colour, Half, State, Strength};
use std::cmp::Ordering;

/// Whether `a` ranks above `b` for pairing purposes: higher score, then lower pairing number
/// (C.04.3 article 1.2).
pub fn ranks_above(states: &[State], a: usize, b: usize) -> bool {
    rank_order(states, a, b) == Ordering::Less
}

/// The pairing order: score descending, then pairing number ascending.
pub fn rank_order(states: &[State], a: usize, b: usize) -> Ordering {
    states[b]
        .score
        .cmp(&states[a].score)
        .then(states[a].number.cmp(&states[b].number))
}

/// Who has white: `(white, black)`. `initial` is the colour drawn before round 1 for the
/// players with odd pairing numbers.
pub fn allocate(states: &[State], a: usize, b: usize, initial: Colour) -> (usize, usize) {
    let (hi, lo) = if ranks_above(states, a, b) {
        (a, b)
    } else {
        (b, a)
    };
    let hi_gets = colour_of_higher(&states[hi], &states[lo], initial);
    if hi_gets == Colour::White {
        (hi, lo)
    } else {
        (lo, hi)
    }
}

/// The colour the higher ranked player `hi` gets against `lo`.
fn colour_of_higher(hi: &State, lo: &State, initial: Colour) -> Colour {
    let (ph, pl) = (hi.preference(), lo.preference());
    match (ph, pl) {
        // E.1: grant both preferences (or the only one there is).
        (Some((ch, _)), Some((cl, _))) if ch != cl => return ch,
        (Some((ch, _)), None) => return ch,
        (None, Some((cl, _))) => return cl.other(),
        _ => {}
    }
    if let (Some((c, sh)), Some((_, sl))) = (ph, pl) {
        // E.2: grant the stronger preference; of two absolute ones (topscorers in the last
        // round), the wider colour difference.
        match sh.cmp(&sl) {
            Ordering::Greater => return c,
            Ordering::Less => return c.other(),
            Ordering::Equal if sh == Strength::Absolute => {
                let (dh, dl) = (hi.colour_difference().abs(), lo.colour_difference().abs());
                match dh.cmp(&dl) {
                    Ordering::Greater => return c,
                    Ordering::Less => return c.other(),
                    Ordering::Equal => {}
                }
            }
            Ordering::Equal => {}
        }
        // E.3: alternate from the latest round in which one had white and the other black,
        // reading the played colours from the latest back (C.04.2: unplayed games skipped).
        for (x, y) in hi.colours.iter().rev().zip(lo.colours.iter().rev()) {
            if x != y {
                return x.other();
            }
        }
        // E.4: the higher ranked player's preference.
        return c;
    }
    // E.5 (Article 5.2.5 from February 2026): no preference on either side: an odd pairing
    // number takes the drawn colour. `pair_round` numbers only the players who have been
    // paired in some round or are paired now (C.04.2 Article 2.4: a late entry has a number
    // only once arrived), which alternates round 1's colours board by board.
    if hi.number % 2 == 1 {
        initial
    } else {
        initial.other()
    }
}

/// The published order of the boards (C.04.2): by the higher score of the pair, then the
/// pair's total, then the higher player's rank.
pub fn order_boards(states: &[State], boards: &mut [(usize, usize)]) {
    let key = |&(w, b): &(usize, usize)| {
        let (hi, lo) = if ranks_above(states, w, b) {
            (w, b)
        } else {
            (b, w)
        };
        let (sh, sl): (Half, Half) = (states[hi].score, states[lo].score);
        (
            std::cmp::Reverse(sh),
            std::cmp::Reverse(sh + sl),
            states[hi].number,
        )
    };
    boards.sort_by_key(key);
}
