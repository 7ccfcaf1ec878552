//! The FIDE (Dutch) System: worked rounds whose pairings follow from the Handbook's rules
//! (C.04.3) by hand, stated as data, and random events whose every round must pass the
//! checker written from the rules (`dutch_checker`).

use super::dutch_checker::check;
use proptest::prelude::*;
use rungs_pairing::blossom;
use rungs_pairing::dutch::{
    Availability, Colour, DutchError, GameResult, Outcome, Pairing, Player, Tournament,
};

use Colour::{Black, White};
use GameResult::{BlackWins, Draw, WhiteWins};

/// An event of `n` players whose pairing numbers are their indices + 1 (ratings descending).
fn event(n: usize, rounds: u32, initial: Colour) -> Tournament {
    let mut t = Tournament::new(rounds, initial);
    for k in 0..n {
        t.enter(&format!("P{}", k + 1), 2400 - 10 * k as u32);
    }
    t
}

/// Boards by pairing number, white first.
fn by_number(p: &Pairing) -> Vec<(usize, usize)> {
    p.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect()
}

fn play(t: &mut Tournament, results: &[GameResult]) -> Pairing {
    let pairing = t.pair(&[]).expect("a pairing");
    t.record(&pairing, results, &[]).expect("recorded");
    pairing
}

#[test]
fn round_one_pairs_top_half_against_bottom_half_colours_alternating_by_board() {
    // C.04.3: one homogeneous bracket, S1 = 1–4 against S2 = 5–8 in order; E.5: an odd
    // pairing number takes the drawn colour, an even one the other.
    let t = event(8, 5, White);
    let p = t.pair(&[]).unwrap();
    assert_eq!(by_number(&p), vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    assert_eq!(p.bye, None);
    // Black drawn: every colour turns.
    let t = event(8, 5, Black);
    let p = t.pair(&[]).unwrap();
    assert_eq!(by_number(&p), vec![(5, 1), (2, 6), (7, 3), (4, 8)]);
}

#[test]
fn round_one_odd_count_gives_the_bye_to_the_last() {
    // 7 players: S1 = 1–3, S2 = 4–7; 7 is left over and takes the pairing-allocated bye.
    let t = event(7, 5, White);
    let p = t.pair(&[]).unwrap();
    assert_eq!(by_number(&p), vec![(1, 4), (5, 2), (3, 6)]);
    assert_eq!(p.bye, Some(6));
}

#[test]
fn round_two_transposes_for_colour_preferences() {
    // Round 1: 1–5, 6–2, 3–7, 8–4, the higher numbers all winning. Round 2's 1-point bracket
    // is 1 (had white), 2 (black), 3 (white), 4 (black). S1–S2 order would give 1–3 and
    // 2–4, where both players of each board want the same colour; C10 (fewest players
    // without their preference) comes before the order, so 1–4 and 2–3: 4 and 2 have white.
    // The 0-point bracket 5 (black), 6 (white), 7 (black), 8 (white) likewise: 5–8, 7–6.
    let mut t = event(8, 5, White);
    play(&mut t, &[WhiteWins, BlackWins, WhiteWins, BlackWins]);
    let p = t.pair(&[]).unwrap();
    assert_eq!(by_number(&p), vec![(4, 1), (2, 3), (5, 8), (7, 6)]);
}

#[test]
fn round_two_keeps_the_order_when_colours_allow() {
    // Round 1 with black drawn: 5–1, 2–6, 7–3, 4–8; results 1, 2 win, 3 and 4 lose.
    // 1 point: 1 (black), 2 (white), 7 (white), 8 (black). S1 = {1, 2}, S2 = {7, 8}:
    // 1–7 (1 wants white, 7 black) and 2–8 (2 black, 8 white): every preference granted,
    // so the Handbook's first candidate stands.
    let mut t = event(8, 5, Black);
    play(&mut t, &[BlackWins, WhiteWins, WhiteWins, BlackWins]);
    let p = t.pair(&[]).unwrap();
    let first_two: Vec<_> = by_number(&p).into_iter().take(2).collect();
    assert_eq!(first_two, vec![(1, 7), (8, 2)]);
}

#[test]
fn a_rematch_is_never_made_and_the_bracket_finds_the_next_pairing() {
    // 4 players, round 1: 1–3 and 4–2, both drawn. Round 2: one bracket {1, 2, 3, 4}; the
    // first candidate 1–3, 2–4 repeats both games (C1). The transposition 1–4, 2–3 denies
    // all four their colour (1 and 4 had white, 2 and 3 black), the exchange 1–2, 3–4
    // denies none, and C10 comes before the order: 2–1 and 3–4.
    let mut t = event(4, 3, White);
    play(&mut t, &[Draw, Draw]);
    let p = t.pair(&[]).unwrap();
    assert_eq!(by_number(&p), vec![(2, 1), (3, 4)]);
}

#[test]
fn the_bye_goes_to_the_lowest_without_one_and_not_twice() {
    // 5 players: round 1 gives 5 the bye (1 point). Round 2 the lowest scoregroup is the
    // three round-1 losers; the last of them without a bye takes it.
    let mut t = event(5, 4, White);
    let r1 = play(&mut t, &[WhiteWins, WhiteWins]);
    assert_eq!(by_number(&r1), vec![(1, 3), (4, 2)]);
    assert_eq!(r1.bye, Some(4));
    let r2 = t.pair(&[]).unwrap();
    // Scores: 1, 4 and 5 have a point, 2 and 3 none. Top bracket {1, 4, 5}: 1–4 would deny
    // both black (both had white), so 5–1 and 4 floats down (C10 before the order). Last
    // bracket {4 | 2, 3}: the moved-down 4 has met 2, so meets 3; 2 takes the bye.
    assert_eq!(by_number(&r2), vec![(5, 1), (3, 4)]);
    assert_eq!(r2.bye, Some(1));
    assert!(check(&t.players, t.total_rounds, &[], &r2).is_ok());
}

#[test]
fn requested_byes_and_withdrawals_are_not_paired() {
    let mut t = event(6, 5, White);
    let away = [
        Availability::Plays,
        Availability::RequestedBye(1),
        Availability::Plays,
        Availability::Plays,
        Availability::Plays,
        Availability::Out,
    ];
    let p = t.pair(&away).unwrap();
    // Four players: S1 = {1, 3}, S2 = {4, 5}. Colours alternate by board: 3 is the second
    // player of the round, so has black (E.5 read over the players paired).
    assert_eq!(by_number(&p), vec![(1, 4), (5, 3)]);
    t.record(&p, &[Draw, Draw], &away).unwrap();
    assert_eq!(t.players[1].rounds[0], Outcome::Absent { score: 1 });
    assert_eq!(t.players[5].rounds[0], Outcome::Absent { score: 0 });
}

#[test]
fn a_late_entry_takes_its_place_in_the_ranking() {
    let mut t = event(4, 5, White);
    play(&mut t, &[WhiteWins, BlackWins]);
    let late = t.enter("Late", 2500);
    assert_eq!(t.players[late].rounds, vec![Outcome::Absent { score: 0 }]);
    let states = rungs_pairing::dutch::states(&t.players).unwrap();
    assert_eq!(
        states[late].number, 1,
        "the highest rating takes pairing number 1"
    );
}

#[test]
fn two_non_topscorers_who_must_have_the_same_colour_never_meet() {
    // 1 and 2 have had white twice each (WW): both must have black (absolute), so C3 keeps
    // them apart though they lead the event alone.
    let mut t = event(6, 6, White);
    let p = |o: usize, c: Colour| Outcome::Played {
        opponent: o,
        colour: c,
        score: if c == White { 2 } else { 0 },
    };
    t.players[0].rounds = vec![p(3, White), p(4, White)];
    t.players[1].rounds = vec![p(4, White), p(5, White)];
    t.players[2].rounds = vec![p(5, White), p(3, Black)];
    t.players[3].rounds = vec![p(0, Black), p(2, White)];
    t.players[4].rounds = vec![p(1, Black), p(0, Black)];
    t.players[5].rounds = vec![p(2, Black), p(1, Black)];
    let pairing = t.pair(&[]).unwrap();
    assert!(
        !pairing
            .boards
            .iter()
            .any(|&(w, b)| (w.min(b), w.max(b)) == (0, 1))
    );
    for &(w, b) in &pairing.boards {
        if w == 0 || b == 0 || w == 1 || b == 1 {
            assert!(b == 0 || b == 1, "1 and 2 have black: {pairing:?}");
        }
    }
    assert_eq!(check(&t.players, t.total_rounds, &[], &pairing), Ok(()));
}

#[test]
fn the_checker_catches_each_broken_rule() {
    let mut t = event(4, 5, White);
    play(&mut t, &[WhiteWins, WhiteWins]);
    // A rematch: 1 met 3 in round 1.
    let bad = Pairing {
        boards: vec![(0, 2), (1, 3)],
        bye: None,
    };
    assert!(
        check(&t.players, 5, &[], &bad)
            .unwrap_err()
            .contains("meet again")
    );
    // Someone left out.
    let bad = Pairing {
        boards: vec![(0, 1)],
        bye: None,
    };
    assert!(check(&t.players, 5, &[], &bad).is_err());
}

#[test]
fn the_same_input_gives_the_same_round() {
    let mut t = event(21, 7, Black);
    for _ in 0..3 {
        let p = t.pair(&[]).unwrap();
        assert_eq!(p, t.pair(&[]).unwrap());
        let results: Vec<GameResult> = (0..p.boards.len())
            .map(|k| [WhiteWins, Draw, BlackWins][k % 3])
            .collect();
        t.record(&p, &results, &[]).unwrap();
    }
}

/// A small generator for the random events (proptest draws its seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Whether any pairing at all meets the rules the checker enforces: a perfect matching on
/// the pairs the rules allow, plus a bye vertex for an odd count. Used to confirm that the
/// engine's `NoPairing` is true.
fn any_pairing_exists(t: &Tournament, available: &[Availability]) -> bool {
    let players: Vec<usize> = (0..t.players.len())
        .filter(|&i| matches!(available[i], Availability::Plays))
        .collect();
    let m = players.len();
    let odd = m % 2 == 1;
    let mut edges = Vec::new();
    for x in 0..m {
        for y in x + 1..m {
            let one = Pairing {
                boards: vec![(players[x], players[y])],
                bye: None,
            };
            let two = Pairing {
                boards: vec![(players[y], players[x])],
                bye: None,
            };
            // The checker judges one board at a time when everyone else sits out.
            let only: Vec<Availability> = (0..t.players.len())
                .map(|i| {
                    if i == players[x] || i == players[y] {
                        Availability::Plays
                    } else {
                        Availability::Out
                    }
                })
                .collect();
            if check(&t.players, t.total_rounds, &only, &one).is_ok()
                || check(&t.players, t.total_rounds, &only, &two).is_ok()
            {
                edges.push((x, y, 1));
            }
        }
        if odd {
            let had = t.players[players[x]].rounds.iter().any(|o| {
                matches!(
                    o,
                    Outcome::PairingBye { .. } | Outcome::Forfeit { won: true, .. }
                )
            });
            if !had {
                edges.push((x, m, 1));
            }
        }
    }
    let n = m + usize::from(odd);
    blossom::max_weight_perfect_matching(n, &edges)
        .unwrap()
        .is_some()
}

fn random_event(n: usize, rounds: u32, seed: u64) -> Result<(), String> {
    let mut rng = Rng(seed | 1);
    let initial = if seed & 2 == 0 { White } else { Black };
    let mut t = Tournament::new(rounds, initial);
    let late = n / 6;
    for k in 0..n - late {
        t.enter(&format!("P{k}"), 1200 + rng.below(1600) as u32);
    }
    let mut out = vec![false; n];
    for round in 0..rounds {
        if round == 2 {
            for k in 0..late {
                t.enter(&format!("Late{k}"), 1200 + rng.below(1600) as u32);
            }
        }
        let count = t.players.len();
        let available: Vec<Availability> = (0..count)
            .map(|i| {
                if out[i] || rng.below(50) == 0 {
                    out[i] = true;
                    Availability::Out
                } else if rng.below(20) == 0 {
                    Availability::RequestedBye(rng.below(2) as u32)
                } else {
                    Availability::Plays
                }
            })
            .collect();
        let pairing = match t.pair(&available) {
            Ok(p) => p,
            Err(DutchError::NoPairing) => {
                if any_pairing_exists(&t, &available) {
                    return Err(format!("round {}: no pairing, but one exists", round + 1));
                }
                return Ok(());
            }
            Err(e) => return Err(e.to_string()),
        };
        check(&t.players, rounds, &available, &pairing)
            .map_err(|e| format!("round {}: {e}", round + 1))?;
        let results: Vec<GameResult> = pairing
            .boards
            .iter()
            .map(|_| match rng.below(100) {
                0..=34 => WhiteWins,
                35..=64 => Draw,
                65..=96 => BlackWins,
                97 => GameResult::WhiteForfeit,
                98 => GameResult::BlackForfeit,
                _ => GameResult::DoubleForfeit,
            })
            .collect();
        t.record(&pairing, &results, &available)
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn every_round_of_a_random_event_keeps_the_absolute_rules(
        n in 8usize..=60,
        rounds in 5u32..=11,
        seed in any::<u64>(),
    ) {
        prop_assert_eq!(random_event(n, rounds, seed), Ok(()));
    }
}

#[test]
fn a_player_list_with_rounds_of_unequal_length_is_refused() {
    let mut t = event(4, 5, White);
    t.players.push(Player {
        name: "Odd".into(),
        rating: 1000,
        rounds: vec![Outcome::Absent { score: 0 }],
    });
    assert!(matches!(t.pair(&[]), Err(DutchError::Invalid(_))));
}
