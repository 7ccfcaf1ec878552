//! TRF-16 (FIDE C.04 Annex 2): an event paired by the Dutch engine goes out and back
//! unchanged; a file written the way other programs write it reads as its lines say; bad
//! lines are refused with their line and column.

use rungs_interchange::trf::{TrfEvent, read, write};
use rungs_pairing::dutch::{Availability, Colour, GameResult, Outcome, Player, Tournament};

/// Nine players entered in rating order (so index + 1 = pairing number), four rounds with
/// draws, a forfeit each way, a requested half-point bye, a withdrawal and the PABs.
fn paired_event() -> TrfEvent {
    let mut t = Tournament::new(7, Colour::Black);
    for (k, name) in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo"]
        .iter()
        .enumerate()
    {
        t.enter(name, 2200 - 50 * k as u32);
    }
    t.players[8].rating = 0; // unrated: a blank rating field
    let results = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
        GameResult::WhiteForfeit,
        GameResult::BlackForfeit,
    ];
    for round in 0..4 {
        let mut available = vec![Availability::Plays; 9];
        if round == 1 {
            available[2] = Availability::RequestedBye(1);
        }
        if round >= 2 {
            available[6] = Availability::Out;
        }
        let pairing = t.pair(&available).expect("a pairing");
        let r: Vec<GameResult> = (0..pairing.boards.len())
            .map(|b| results[(b + round) % results.len()])
            .collect();
        t.record(&pairing, &r, &available).expect("recorded");
    }
    let mut next_round = vec![Availability::Plays; 9];
    next_round[3] = Availability::RequestedBye(1);
    TrfEvent {
        name: "Club Swiss".into(),
        tournament: t,
        next_round,
    }
}

#[test]
fn an_exported_event_imports_exactly_and_writes_the_same_text() {
    let event = paired_event();
    let text = write(&event).unwrap();
    let back = read(&text).unwrap();
    assert_eq!(back, event);
    assert_eq!(write(&back).unwrap(), text);
    // The columns other programs read: starting rank 5–8, name from 15, rating 49–52,
    // points 81–84, the first round's block from 90.
    let first = text.lines().find(|l| l.starts_with("001")).unwrap();
    assert_eq!(&first[4..8], "   1");
    assert_eq!(&first[14..17], "Ada");
    assert_eq!(&first[48..52], "2200");
    assert_eq!(&first[89..91], "  ");
    // Every kind of round made it into the file.
    for code in ["U", "H", "Z", "+", "-", "=", "1", "0"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with("001") && l[89..].contains(&format!(" {code}"))),
            "no {code} in\n{text}"
        );
    }
}

/// As Swiss-Manager or bbpPairings write it: header lines this reader skips, titles,
/// federations, FIDE ids, an unrated player, a line without trailing blanks.
const OTHER_PROGRAM: &str = "\
012 Club Open 2025
022 Utrecht
042 2025/09/01
062 5
092 Individual: Swiss-System
XXR 5
XXC white1
001    1 m GM Abel, Anna                        2450 NED     1234567 1990/01/01  1.5    1  0004 w 1  0002 b =
001    2 w    Berg, Bea                         2300 NED                         1.5    2  0005 b +  0001 w =
001    3 m    Cole, Cas                                                          1.5    3  0000 - U  0000 - H
001    4 m    Dahl, Dirk                        1800                             0.0    4  0001 b 0  0005 w 0
001    5 m    Eck, Emil                         1700                             1.0    5  0002 w -  0004 b 1
";

#[test]
fn a_file_from_another_program_reads_as_its_lines_say() {
    let e = read(OTHER_PROGRAM).unwrap();
    assert_eq!(e.name, "Club Open 2025");
    let t = &e.tournament;
    assert_eq!((t.total_rounds, t.initial), (5, Colour::White));
    let names: Vec<&str> = t.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Abel, Anna",
            "Berg, Bea",
            "Cole, Cas",
            "Dahl, Dirk",
            "Eck, Emil"
        ]
    );
    let ratings: Vec<u32> = t.players.iter().map(|p| p.rating).collect();
    assert_eq!(ratings, [2450, 2300, 0, 1800, 1700]);
    let played = |opponent, colour, score| Outcome::Played {
        opponent,
        colour,
        score,
    };
    assert_eq!(
        t.players[0].rounds,
        [played(3, Colour::White, 2), played(1, Colour::Black, 1)]
    );
    assert_eq!(
        t.players[1].rounds[0],
        Outcome::Forfeit {
            opponent: 4,
            colour: Colour::Black,
            won: true
        }
    );
    assert_eq!(
        t.players[2].rounds,
        [
            Outcome::PairingBye { score: 2 },
            Outcome::Absent { score: 1 }
        ]
    );
    // And the engine pairs round 3 from it.
    let pairing = t.pair(&[]).unwrap();
    assert_eq!(pairing.boards.len(), 2);
}

fn refused(text: &str) -> (usize, usize, String) {
    let e = read(text).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn bad_lines_are_refused_naming_line_and_column() {
    // Line 9 (Berg), round 1's colour column 97: 'x'.
    let bad = OTHER_PROGRAM.replace("0005 b +", "0005 x +");
    let (line, column, message) = refused(&bad);
    assert_eq!((line, column), (9, 97), "{message}");
    // Line 8 (Abel), round 2's result column 109: '?'.
    let bad = OTHER_PROGRAM.replace("0002 b =", "0002 b ?");
    let (line, column, _) = refused(&bad);
    assert_eq!((line, column), (8, 109));
    // A starting rank that is not a number: column 5.
    let bad = OTHER_PROGRAM.replace("001    4 m", "001    X m");
    let (line, column, _) = refused(&bad);
    assert_eq!((line, column), (11, 5));
    // Abel says he had white against Dahl in round 1; Dahl says white too.
    let bad = OTHER_PROGRAM.replace("0001 b 0", "0001 w 0");
    let (line, column, message) = refused(&bad);
    assert_eq!((line, column), (8, 92), "{message}");
    // Both claim the win.
    let bad = OTHER_PROGRAM.replace("0001 b 0", "0001 b 1");
    let (line, column, message) = refused(&bad);
    assert_eq!((line, column), (8, 99), "{message}");
    assert!(message.contains("does not match"), "{message}");
    // An opponent beyond the field.
    let bad = OTHER_PROGRAM.replace("0004 b 1", "0009 b 1");
    let (line, column, _) = refused(&bad);
    assert_eq!((line, column), (12, 102));
    assert!(
        read("XXR five\n")
            .unwrap_err()
            .to_string()
            .contains("line 1, column 5")
    );
}

#[test]
fn a_name_too_long_for_the_format_is_refused_on_export() {
    let mut event = paired_event();
    event.tournament.players[0] = Player {
        name: "A".repeat(34),
        ..event.tournament.players[0].clone()
    };
    assert_eq!(write(&event).unwrap_err().column, 15);
}

/// Cases published with bbpPairings (an engine FIDE endorses, implementing the 2025 Dutch
/// rules): its test files `test/tests/dutch_2025_C5` and `dutch_2025_C9`, the input TRF and
/// the expected pairing (white first; 0 the bye) restated here as data.
fn pairs_as_published(trf: &str) -> Vec<(usize, usize)> {
    let event = read(trf).unwrap();
    let p = event.tournament.pair(&event.next_round).unwrap();
    let mut out: Vec<(usize, usize)> = p.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect();
    out.extend(p.bye.map(|b| (b + 1, 0)));
    out
}

#[test]
fn the_bye_goes_to_the_lowest_score_even_at_the_cost_of_pairs_above() {
    // Round 3; player 4 has asked for a zero-point bye. Pairing 1–3 (both on 2) would leave
    // 2, 5, 6 where 2–5 and 5–6 have met: the bye would go to 5 on 1 point. The 2025 rules
    // put the bye's score first: 1 and 3 float, 1–5, 3–2, and 6 (0 points) has the bye.
    let trf = "\
012 Dutch 2025 C5 test
001    1      Test0001 Player0001               2720                             2.0    1     4 w 1     2 b 1
001    2      Test0002 Player0002               2701                             1.0    3     5 b 1     1 w 0
001    3      Test0003 Player0003               2697                             2.0    2     6 w 1     4 b 1
001    4      Test0004 Player0004               2689                             0.0    5     1 b 0     3 w 0  0000 - Z
001    5      Test0005 Player0005               2673                             1.0    4     2 w 0     6 b 1
001    6      Test0006 Player0006               2664                             0.0    6     3 b 0     5 w 0
XXR 3
";
    assert_eq!(pairs_as_published(trf), vec![(1, 5), (3, 2), (6, 0)]);
}

#[test]
fn the_bye_avoids_a_player_with_an_unplayed_round() {
    // Round 2; 5 sat out round 1 (zero-point bye). Of the 0-point players 3, 4, 5 the bye
    // would go to the last, 5, but the 2025 rules prefer one who has played every round: 4.
    let trf = "\
012 Dutch 2025 C9 test
001    1      Test0001 Player0001               2720                             1.0    1     3 w 1
001    2      Test0002 Player0002               2701                             1.0    2     4 b 1
001    3      Test0003 Player0003               2697                             0.0    3     1 b 0
001    4      Test0004 Player0004               2689                             0.0    4     2 w 0
001    5      Test0005 Player0005               2673                             0.0    5  0000 - Z
XXR 3
";
    assert_eq!(pairs_as_published(trf), vec![(2, 1), (3, 5), (4, 0)]);
}

/// Rounds where the Handbook's order decides between pairings equal on every criterion,
/// found by pairing random events beside bbpPairings; its answers stated as data.
fn pairs_of(trf: &str) -> Vec<(usize, usize)> {
    pairs_as_published(trf)
}

#[test]
fn after_an_exchange_the_first_s1_player_meets_the_highest_s2_player_it_can() {
    // 20 players, round 6. In the 3-point bracket's remainder {2, 3 | 4, 9, 20} (2 floats)
    // colours leave one clash either way; S1′ = {3, 4} after the exchange, and 3 takes the
    // first S2′ player it can: 9, leaving 4–20.
    let trf = include_str!("fixtures/exchange_round6.trf");
    assert_eq!(
        pairs_of(trf),
        vec![
            (12, 18),
            (7, 14),
            (9, 3),
            (4, 20),
            (15, 2),
            (19, 5),
            (17, 1),
            (13, 10),
            (6, 11),
            (8, 16)
        ]
    );
}

#[test]
fn s1_holds_as_many_players_as_the_bracket_can_pair() {
    // 35 players, round 7. The 2-point bracket {11, 14, 18, 27, 29, 34} can make only two
    // pairs (one player must meet 25 below, one take the bye): S1 = {11, 14}, and the
    // exchange moving 14 down beats the one moving 11 (the highest number moved down).
    let trf = include_str!("fixtures/max_pairs_round7.trf");
    let pairs = pairs_of(trf);
    assert_eq!(pairs.len(), 18);
    for board in [(11, 14), (27, 34), (29, 25), (18, 0), (30, 15), (2, 10)] {
        assert!(pairs.contains(&board), "{board:?} missing from {pairs:?}");
    }
}
