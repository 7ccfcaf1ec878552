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
    TrfEvent {
        name: "Club Swiss".into(),
        tournament: t,
    }
}

#[test]
fn an_exported_event_imports_exactly_and_writes_the_same_text() {
    let event = paired_event();
    let text = write(&event).unwrap();
    let back = read(&text).unwrap();
    assert_eq!(back, event);
    assert_eq!(write(&back).unwrap(), text);
    // Every kind of round made it into the file.
    for code in ["U", "H", "Z", "+", "-", "=", "1", "0"] {
        assert!(
            text.lines().any(|l| l.starts_with("001") && l[89..].contains(&format!(" {code}"))),
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
        ["Abel, Anna", "Berg, Bea", "Cole, Cas", "Dahl, Dirk", "Eck, Emil"]
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
        [Outcome::PairingBye { score: 2 }, Outcome::Absent { score: 1 }]
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
    assert!(read("XXR five\n").unwrap_err().to_string().contains("line 1, column 5"));
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
