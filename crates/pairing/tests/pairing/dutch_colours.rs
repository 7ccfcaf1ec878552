//! The last colour rule of the FIDE (Dutch) System, when neither player has a colour
//! preference: which pairing number's parity it reads once somebody registered has not yet
//! been paired. Worked by hand from the Handbook's text.
//!
//! C.04.3, Article 5.2.5 (Colour Allocation Rules), in the text applied from 1 February 2026
//! (<https://handbook.fide.com/chapter/C0403202602>; E.5 of the earlier texts, with "pairing
//! number" for TPN): "If the higher ranked player has an odd TPN, give them the
//! initial-colour; otherwise, give them the opposite colour." C.04.3 defines no TPN of its own
//! (Article 1.1 sends the reader to C.04.2 Article 2, Initial Order and Late Entries), and
//! C.04.2 Article 2.4 says a late entry is "only taken into account for the pairing of rounds
//! after the first" and is "given an appropriate TPN and paired only when they actually
//! arrive". So a player who has not yet been paired (byes asked for, absent) holds no number
//! yet: the numbers 5.2.5 reads run over the players who have been paired in some round —
//! a game, a forfeit or the pairing-allocated bye — or are paired now. A player who has been
//! paired once keeps their number when absent later.

use rungs_pairing::dutch::{Availability, Colour, GameResult, Pairing, Tournament};

use Availability::{Plays, RequestedBye};
use GameResult::DoubleForfeit;

/// `n` players whose pairing numbers are their indices + 1 (ratings descending), white drawn.
fn event(n: usize, rounds: u32) -> Tournament {
    let mut t = Tournament::new(rounds, Colour::White);
    for k in 0..n {
        t.enter(&format!("P{}", k + 1), 2400 - 10 * k as u32);
    }
    t
}

/// Boards by pairing number, white first.
fn by_number(p: &Pairing) -> Vec<(usize, usize)> {
    p.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect()
}

#[test]
fn a_player_not_yet_paired_holds_no_number_for_the_drawn_colour() {
    // P1 asks for a zero-point bye in rounds 1 and 2; P2–P5 are paired in round 1 but
    // neither board is played (double forfeits: no colour, no meeting, C.04.2), so in
    // round 2 nobody has a colour preference and every board falls to 5.2.5.
    let mut t = event(5, 5);
    let away = [RequestedBye(0), Plays, Plays, Plays, Plays];
    let r1 = t.pair(&away).unwrap();
    // Round 1: numbers among the players paired are P2 = 1, P3 = 2, P4 = 3, P5 = 4;
    // S1 = {P2, P3}, S2 = {P4, P5}. P2 (1, odd) takes the drawn white, P3 (2) black.
    assert_eq!(by_number(&r1), vec![(2, 4), (5, 3)]);
    t.record(&r1, &[DoubleForfeit, DoubleForfeit], &away)
        .unwrap();
    let r2 = t.pair(&away).unwrap();
    // Round 2: all four on 0 points, none met over the board: S1 = {P2, P3} against
    // S2 = {P4, P5} again. P1 has still not arrived, so the numbers are as in round 1:
    // P2 holds 1 (odd: white against P4), P3 holds 2 (even: black against P5). Read on
    // the numbers of the entry list instead (P2 = 2, P3 = 3) every colour would turn.
    assert_eq!(by_number(&r2), vec![(2, 4), (5, 3)]);
    assert_eq!(r2.bye, None);
}

#[test]
fn a_player_paired_before_keeps_their_number_when_absent() {
    // Round 1, all five: S1 = {P1, P2}, S2 = {P3, P4, P5}; P1–P3 and P2–P4 not played
    // (double forfeits), P5 the pairing-allocated bye (1 point). Round 2: P1 asks for a
    // zero-point bye, but was paired in round 1 and keeps number 1.
    let mut t = event(5, 5);
    let all = [Plays; 5];
    let r1 = t.pair(&all).unwrap();
    assert_eq!(by_number(&r1), vec![(1, 3), (4, 2)]);
    assert_eq!(r1.bye.map(|i| i + 1), Some(5));
    t.record(&r1, &[DoubleForfeit, DoubleForfeit], &all)
        .unwrap();
    let away = [RequestedBye(0), Plays, Plays, Plays, Plays];
    let r2 = t.pair(&away).unwrap();
    // P5 (1 point) moves down to P2, P3, P4 (0 points) and meets P2, the highest; P3–P4 is
    // the remainder. No one has a colour preference. P5 ranks above P2 by score and holds
    // number 5 (odd): white. P3 holds 3 (odd): white against P4. Numbered around the
    // absent P1 instead (P2 = 1 … P5 = 4) both colours would turn.
    assert_eq!(by_number(&r2), vec![(5, 2), (3, 4)]);
}
