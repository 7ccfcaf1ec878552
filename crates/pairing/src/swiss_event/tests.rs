use super::*;
use chrono::NaiveDate;
use rungs_ladder::event::{BoardRef, Event, Format, Match, RoundRecord};

const NAMES: [&str; 5] = ["Ann", "Bo", "Cy", "Di", "Ed"];
const RATINGS: [u32; 5] = [2000, 1900, 1800, 1700, 1600];

fn who(id: PlayerId) -> (String, u32) {
    (NAMES[id as usize].to_string(), RATINGS[id as usize])
}

fn round(number: u32, boards: Vec<[PlayerId; 2]>, swiss: SwissRecord) -> Event {
    Event::Round {
        round: Box::new(RoundRecord {
            number,
            format: Format::Swiss,
            boards,
            bye: None,
            bye_scores: ByeScore::Win,
            event: Some(1),
            swiss,
        }),
    }
}

fn result(round: u32, board: u32, a: PlayerId, b: PlayerId, r: MatchResult) -> Event {
    let mut m = Match::new(a, b, r);
    m.board = Some(BoardRef { round, board });
    Event::Match(m)
}

fn book(events: &[Event]) -> Book {
    let mut book = Book::default();
    let day = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
    for (i, e) in events.iter().enumerate() {
        book.read(day, i as u64 + 1, e);
    }
    book
}

fn entries(ids: &[PlayerId]) -> Vec<SwissEntry> {
    ids.iter()
        .map(|&p| SwissEntry {
            player: p,
            rating: RATINGS[p as usize],
        })
        .collect()
}

/// Four players by rating Ann 2000, Bo 1900, Cy 1800, Di 1700 (pairing numbers 1–4).
/// Round 1 (C.04.3: top half against bottom half, white drawn for 1, alternating by board):
/// Ann (w) – Cy, Di (w) – Bo.
#[test]
fn round_one_is_top_half_against_bottom_half_colours_alternating() {
    let next = pair_next(
        None,
        &Next {
            present: &[3, 2, 1, 0],
            requested: &[],
            withdrawn: &[],
            forbidden: &[],
            rounds: Some(3),
            first_black: false,
            bye_scores: ByeScore::Win,
        },
        &who,
    )
    .unwrap();
    assert_eq!(next.boards, [[0, 2], [3, 1]]);
    assert_eq!(next.bye, None);
    assert_eq!(next.record.rounds, Some(3));
    assert_eq!(next.record.entries.len(), 4);
}

/// After round 1 (Ann beats Cy, Di – Bo drawn) the score groups are Ann 1; Bo ½, Di ½;
/// Cy 0. Ann (mild preference for black after white) floats down to Bo (white after black)
/// rather than Di (who wants black too); Cy (wants white) then meets Di (wants black).
/// Board 1 is the higher-scoring pair: Bo (w) – Ann, Cy (w) – Di.
#[test]
fn round_two_follows_score_groups_and_colour_preferences() {
    let win = MatchResult::Played(Played::Win);
    let draw = MatchResult::Played(Played::Draw);
    let swiss = SwissRecord {
        rounds: Some(3),
        entries: entries(&[0, 1, 2, 3]),
        ..SwissRecord::default()
    };
    let b = book(&[
        round(1, vec![[0, 2], [3, 1]], swiss),
        result(1, 1, 0, 2, win),
        result(1, 2, 3, 1, draw),
    ]);
    let event = read(&b, 1, &who);
    assert!(event.missing.is_empty());
    assert_eq!(event.tournament.total_rounds, 3);
    let present = [0, 1, 2, 3];
    let next = Next {
        present: &present,
        requested: &[],
        withdrawn: &[],
        forbidden: &[],
        rounds: None,
        first_black: false,
        bye_scores: ByeScore::Win,
    };
    let r = pair_next(Some(&event), &next, &who).unwrap();
    assert_eq!(r.boards, [[1, 0], [2, 3]]);
    assert!(r.record.is_empty());
}

/// A round with a result missing is read (its meeting stands) but the next round waits for
/// it, naming the board; forfeits score without a meeting; a requested half-point bye and
/// a late entry are kept.
#[test]
fn forfeits_requested_byes_late_entries_and_missing_results() {
    let swiss = SwissRecord {
        entries: entries(&[0, 1, 2, 3]),
        ..SwissRecord::default()
    };
    let second = SwissRecord {
        entries: entries(&[4]),
        requested: vec![RequestedBye {
            player: 3,
            halves: 1,
        }],
        withdrawn: vec![2],
        ..SwissRecord::default()
    };
    let b = book(&[
        round(1, vec![[0, 2], [3, 1]], swiss),
        result(1, 1, 0, 2, MatchResult::ForfeitB),
        result(1, 2, 3, 1, MatchResult::ForfeitA),
        round(2, vec![[1, 0], [4, 3]], SwissRecord::default()),
        round(3, vec![[0, 4]], second),
        result(2, 1, 1, 0, MatchResult::Played(Played::Loss)),
    ]);
    // Round 2's second board names Di, who also asked for a bye in round 3: fine, different
    // rounds. Ed entered in round 2 without a rating record: the fallback (1600).
    let event = read(&b, 1, &who);
    assert_eq!(event.ids, [0, 2, 3, 1, 4]);
    assert_eq!(event.rounds, [1, 2, 3]);
    let ann = &event.tournament.players[0];
    assert_eq!(
        ann.rounds[0],
        Outcome::Forfeit {
            opponent: 1,
            colour: Colour::White,
            won: true
        }
    );
    // Ed's round 1: before his entry, absent with nothing.
    assert_eq!(
        event.tournament.players[4].rounds[0],
        Outcome::Absent { score: 0 }
    );
    // Di in round 3: her requested half-point bye.
    assert_eq!(
        event.tournament.players[2].rounds[2],
        Outcome::Absent { score: 1 }
    );
    assert_eq!(event.withdrawn, BTreeSet::from([2]));
    // Round 2, board 2 (Ed – Di) and round 3, board 1 have no result.
    assert_eq!(event.missing, [(2, 2, 4, 3), (3, 1, 0, 4)]);
    assert_eq!(event.complete_rounds(), [1]);
    let next = Next {
        present: &[0, 1],
        requested: &[],
        withdrawn: &[],
        forbidden: &[],
        rounds: None,
        first_black: false,
        bye_scores: ByeScore::Win,
    };
    let refused = pair_next(Some(&event), &next, &who)
        .unwrap_err()
        .to_string();
    assert_eq!(
        refused,
        "round 2, board 2 (Ed – Di) has no result yet; enter it before pairing the next round"
    );
}

/// A player both present and asking for a bye is refused by name.
#[test]
fn a_player_named_twice_is_refused() {
    let next = Next {
        present: &[0, 1],
        requested: &[RequestedBye {
            player: 1,
            halves: 1,
        }],
        withdrawn: &[],
        forbidden: &[],
        rounds: None,
        first_black: false,
        bye_scores: ByeScore::Win,
    };
    let e = pair_next(None, &next, &who).unwrap_err().to_string();
    assert_eq!(
        e,
        "Bo is named twice among those who play, ask for a bye and withdraw"
    );
}

#[test]
fn pairing_ratings_are_whole_and_within_four_digits() {
    assert_eq!(pairing_rating(1512.5), 1513);
    assert_eq!(pairing_rating(-3.0), 0);
    assert_eq!(pairing_rating(1e308), 9999);
    assert_eq!(pairing_rating(f64::NAN), 0);
}
