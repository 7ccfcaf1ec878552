//! The challenge ladder, hand-computed: six players A–F (ids 0–5) start in that order on
//! 1 March 2026 under the default rules (reach 3, defend 7 days, rematch 14, respond 7) unless a
//! test says otherwise; every expected order is worked out beside it.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;
use rungs_ladder::event::{Event, Match, MatchResult, PlayerId};
use rungs_ladder::formats::challenge::{Cause, ChallengeLadder, Closure, Place};
use rungs_ladder::formats::refusal::Refusal;
use rungs_ladder::formats::settings::{ChallengeSettings, Movement, Newcomers, Unplayed};
use rungs_ladder::values::PlayerName;
use rungs_rating::Outcome;

const A: PlayerId = 0;
const B: PlayerId = 1;
const C: PlayerId = 2;
const D: PlayerId = 3;
const E: PlayerId = 4;
const F: PlayerId = 5;
const WIN: MatchResult = MatchResult::Played(Outcome::Win);
const LOSS: MatchResult = MatchResult::Played(Outcome::Loss);
const DRAW: MatchResult = MatchResult::Played(Outcome::Draw);

/// Day 1 is 1 March 2026.
fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 1).unwrap() + Days::new(n - 1)
}

fn join(id: PlayerId) -> Event {
    Event::Player {
        id,
        name: PlayerName::parse(&"ABCDEFGHIJ"[id as usize..id as usize + 1]).unwrap(),
        undated: false,
    }
}

fn game(a: PlayerId, b: PlayerId, result: MatchResult) -> Event {
    Event::Match(Match::new(a, b, result))
}

fn challenge(challenger: PlayerId, defender: PlayerId) -> Event {
    Event::Challenge {
        challenger,
        defender,
    }
}

/// Six players, then the ladder started in the order A–F on day 1, then `more`.
fn ladder(settings: ChallengeSettings, more: Vec<(u64, Event)>, today: u64) -> ChallengeLadder {
    let mut log: Vec<(NaiveDate, Event)> = (0..6).map(|id| (day(1), join(id))).collect();
    log.push((
        day(1),
        Event::ChallengeLadder {
            settings: Box::new(settings),
            order: vec![A, B, C, D, E, F],
        },
    ));
    log.extend(more.into_iter().map(|(d, e)| (day(d), e)));
    ChallengeLadder::from_log(log.iter().map(|(d, e)| (*d, e)), day(today))
}

fn name(id: PlayerId) -> String {
    "ABCDEFGHIJ"[id as usize..id as usize + 1].to_string()
}

#[test]
fn a_challenger_who_wins_leapfrogs_three_places() {
    // E (place 5) challenges B (place 2): 5 − 2 = 3 places, within reach 3. E wins on day 3:
    // E takes place 2, and B, C, D (places 2, 3, 4) each move down one, to 3, 4, 5.
    let l = ladder(
        ChallengeSettings::default(),
        vec![(2, challenge(E, B)), (3, game(E, B, WIN))],
        3,
    );
    assert_eq!(l.order(), [A, E, B, C, D, F]);
    let c = l.challenge(1).unwrap();
    assert_eq!(c.positions, [5, 2]);
    assert_eq!(c.closed, Some((day(3), Closure::ChallengerWon)));
    assert_eq!(
        l.history(C),
        [
            Place {
                date: day(1),
                position: Some(3),
                cause: Cause::Order
            },
            Place {
                date: day(3),
                position: Some(4),
                cause: Cause::Challenge(1)
            }
        ]
    );
    // A and F were not between them: one place each, from the start.
    assert_eq!(l.history(A).len(), 1);
    assert_eq!(l.history(F).len(), 1);
}

#[test]
fn a_challenger_who_wins_under_swap_trades_places_with_the_defender() {
    // E (5) beats B (2): they swap, so B goes to 5 and C, D stay at 3, 4.
    let settings = ChallengeSettings {
        movement: Movement::Swap,
        ..ChallengeSettings::default()
    };
    let l = ladder(
        settings,
        vec![(2, challenge(E, B)), (3, game(B, E, LOSS))],
        3,
    );
    assert_eq!(l.order(), [A, E, C, D, B, F]);
    assert_eq!(l.history(C).len(), 1, "C did not move");
}

#[test]
fn a_defender_who_wins_or_draws_keeps_the_place() {
    let l = ladder(
        ChallengeSettings::default(),
        vec![
            (2, challenge(E, B)),
            (3, game(E, B, DRAW)),
            (3, challenge(F, C)),
            (4, game(C, F, WIN)),
        ],
        4,
    );
    assert_eq!(l.order(), [A, B, C, D, E, F]);
    assert_eq!(
        l.challenge(1).unwrap().closed,
        Some((day(3), Closure::DefenderHeld))
    );
    assert_eq!(
        l.challenge(2).unwrap().closed,
        Some((day(4), Closure::DefenderHeld))
    );
}

#[test]
fn an_unplayed_challenge_lapses_the_day_after_its_deadline() {
    // F (6) challenges C (3) on day 1: deadline day 1 + 7 = day 8, the last day to play.
    let l = |today| {
        ladder(
            ChallengeSettings::default(),
            vec![(1, challenge(F, C))],
            today,
        )
    };
    let open = l(5).open_challenges(day(5));
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].deadline, day(8));
    assert_eq!(open[0].days_left, 3, "day 8 − day 5");
    assert_eq!(l(8).open_challenges(day(8))[0].days_left, 0);
    // On day 9 it has lapsed: nobody moved.
    let after = l(9);
    assert!(after.open_challenges(day(9)).is_empty());
    assert_eq!(
        after.challenge(1).unwrap().closed,
        Some((day(9), Closure::Lapsed))
    );
    assert_eq!(after.order(), [A, B, C, D, E, F]);
}

#[test]
fn an_unplayed_challenge_under_forfeit_moves_the_challenger_up() {
    // The same challenge under "forfeit": on day 9 F takes C's place 3; C, D, E move to 4, 5, 6.
    let settings = ChallengeSettings {
        unplayed: Unplayed::Forfeit,
        ..ChallengeSettings::default()
    };
    let l = ladder(settings, vec![(1, challenge(F, C))], 9);
    assert_eq!(
        l.challenge(1).unwrap().closed,
        Some((day(9), Closure::Forfeited))
    );
    assert_eq!(l.order(), [A, B, F, C, D, E]);
    // A match on the deadline still counts: C beats F on day 8, nobody moves.
    let settings = ChallengeSettings {
        unplayed: Unplayed::Forfeit,
        ..ChallengeSettings::default()
    };
    let l = ladder(
        settings,
        vec![(1, challenge(F, C)), (8, game(C, F, WIN))],
        20,
    );
    assert_eq!(l.order(), [A, B, C, D, E, F]);
}

#[test]
fn a_defender_challenged_this_week_is_refused_with_the_day_they_are_free() {
    // D challenges B on day 1: B may be challenged again from day 1 + 7 = 8 March.
    let l = ladder(ChallengeSettings::default(), vec![(1, challenge(D, B))], 4);
    let refused = l.check_challenge(E, B, day(4)).unwrap_err();
    assert_eq!(
        refused,
        Refusal::DefenderCooldown {
            defender: B,
            last: day(1),
            from: day(8)
        }
    );
    assert_eq!(
        refused.describe(&name),
        "B was challenged on 2026-03-01 and may be challenged again from 2026-03-08"
    );
    // The same challenge is allowed on day 8 (D's is still open, but E's own is not).
    let l = ladder(ChallengeSettings::default(), vec![(1, challenge(D, B))], 8);
    assert_eq!(l.check_challenge(E, B, day(8)), Ok(()));
}

#[test]
fn the_same_pair_is_refused_within_the_rematch_days() {
    // D challenges C on day 1, C wins on day 2: the pair may meet again from day 2 + 14 = 16.
    let l = ladder(
        ChallengeSettings::default(),
        vec![(1, challenge(D, C)), (2, game(C, D, WIN))],
        10,
    );
    assert_eq!(
        l.check_challenge(D, C, day(10)),
        Err(Refusal::Rematch {
            a: D,
            b: C,
            last: day(2),
            from: day(16)
        })
    );
    // Day 10 is past C's defend cooldown (day 1 + 7 = 8), so only the rematch refuses.
    assert_eq!(l.check_challenge(E, C, day(10)), Ok(()));
}

#[test]
fn an_idle_player_drops_places() {
    // Idle after 30 days without a match, dropping 2. Everyone but B plays on day 20; B's clock
    // runs from the start (day 1), so on day 1 + 30 + 1 = day 32 (1 April) B drops from
    // place 2 to place 4, and C, D move up to 2, 3.
    let settings = ChallengeSettings {
        idle_days: Some(30),
        idle_drop: 2,
        ..ChallengeSettings::default()
    };
    let more = vec![
        (20, game(A, C, WIN)),
        (20, game(D, E, WIN)),
        (20, game(F, A, LOSS)),
    ];
    let l = ladder(settings.clone(), more.clone(), 31);
    assert_eq!(l.order(), [A, B, C, D, E, F], "day 31: not yet");
    let l = ladder(settings.clone(), more.clone(), 32);
    assert_eq!(l.order(), [A, C, D, B, E, F]);
    assert_eq!(
        l.history(B).last(),
        Some(&Place {
            date: day(32),
            position: Some(4),
            cause: Cause::Idle
        })
    );
    // Once a spell: B does not drop again without a match. The others, idle since day 20,
    // drop on day 20 + 31 = 51, top place first: A (1 → 3): C, D, A, B, E, F; then C (1 → 3):
    // D, A, C, B, E, F; D (1 → 3): A, C, D, B, E, F; B, now 4th, has dropped this spell; E
    // (5 → 6): A, C, D, B, F, E; F, now 5th (→ 6): A, C, D, B, E, F.
    let l = ladder(settings.clone(), more.clone(), 50);
    assert_eq!(l.order(), [A, C, D, B, E, F], "day 50: nobody else yet");
    let l = ladder(settings, more, 400);
    assert_eq!(l.order(), [A, C, D, B, E, F]);
    assert_eq!(l.history(A).last().unwrap().date, day(51));
    // No drop moved anyone across place 4 on day 51, so B's last change is its own drop.
    assert_eq!(l.history(B).last().unwrap().date, day(32));
}

#[test]
fn a_retired_player_leaves_and_everyone_below_moves_up() {
    let l = ladder(
        ChallengeSettings::default(),
        vec![
            (2, challenge(D, B)),
            (
                3,
                Event::Retire {
                    id: B,
                    retired: true,
                },
            ),
        ],
        3,
    );
    assert_eq!(l.order(), [A, C, D, E, F]);
    assert_eq!(
        l.challenge(1).unwrap().closed,
        Some((day(3), Closure::Withdrawn))
    );
    assert_eq!(
        l.check_challenge(D, B, day(3)),
        Err(Refusal::NotOnLadder { player: B })
    );
    assert_eq!(l.history(B).last().unwrap().position, None);
}

#[test]
fn bad_challenges_are_refused_naming_the_players() {
    let l = ladder(ChallengeSettings::default(), vec![(2, challenge(E, C))], 3);
    let cases = [
        (
            l.check_challenge(F, A, day(3)),
            "F (place 6) may challenge at most 3 places up, to place 3; A is at place 1",
        ),
        (
            l.check_challenge(C, C, day(3)),
            "C cannot challenge themselves",
        ),
        (
            l.check_challenge(E, B, day(3)),
            "E already has challenge 1 open against C: play it first",
        ),
        (
            l.check_challenge(B, D, day(3)),
            "B (place 2) may only challenge players above; D is at place 4",
        ),
    ];
    for (got, words) in cases {
        assert_eq!(got.unwrap_err().describe(&name), words);
    }
    // A result for a challenge already closed.
    let l = ladder(
        ChallengeSettings::default(),
        vec![(2, challenge(E, C)), (3, game(E, C, LOSS))],
        4,
    );
    assert_eq!(
        l.check_result(1, E, C, day(4)).unwrap_err().describe(&name),
        "challenge 1 (E v C) closed on 2026-03-03: enter the match on its own"
    );
}

#[test]
fn a_newcomer_may_challenge_anyone_once() {
    // G (id 6) joins on day 2 at the bottom, place 7, and may challenge A (place 1) once; G
    // loses and stays at 7; a second challenge that far is refused.
    let settings = ChallengeSettings {
        newcomers: Newcomers::FreeChallenge,
        ..ChallengeSettings::default()
    };
    let l = ladder(
        settings.clone(),
        vec![(2, join(6)), (2, challenge(6, A)), (3, game(A, 6, WIN))],
        30,
    );
    assert_eq!(l.position(6), Some(7));
    assert!(matches!(
        l.check_challenge(6, B, day(30)),
        Err(Refusal::BeyondReach { .. })
    ));
    // Winning it, G leapfrogs to place 1 and everyone moves down one.
    let l = ladder(
        settings,
        vec![(2, join(6)), (2, challenge(6, A)), (3, game(6, A, WIN))],
        3,
    );
    assert_eq!(l.order(), [6, A, B, C, D, E, F]);
}

proptest! {
    /// Whatever challenges, results, retirements and returns come, the positions are the
    /// active players, each once.
    #[test]
    fn positions_are_a_permutation_of_the_active_players(
        steps in prop::collection::vec((0u8..5, 0u32..8, 0u32..8, 0u64..4), 0..60),
        swap in any::<bool>(),
        idle in prop::option::of(1u32..20),
    ) {
        let settings = ChallengeSettings {
            movement: if swap { Movement::Swap } else { Movement::Leapfrog },
            idle_days: idle,
            ..ChallengeSettings::default()
        };
        let mut log: Vec<(NaiveDate, Event)> = (0..6).map(|id| (day(1), join(id))).collect();
        log.push((day(1), Event::ChallengeLadder { settings: Box::new(settings), order: vec![] }));
        let mut d = 1;
        let mut retired = std::collections::BTreeSet::new();
        let mut joined: u32 = 6;
        for (kind, a, b, gap) in steps {
            d += gap;
            let event = match kind {
                0 => challenge(a % joined, b % joined),
                1 => {
                    // A match brings a retired player back.
                    retired.remove(&(a % joined));
                    retired.remove(&(b % joined));
                    game(a % joined, b % joined, if b % 2 == 0 { WIN } else { LOSS })
                }
                2 => {
                    let id = a % joined;
                    let r = !retired.contains(&id);
                    if r { retired.insert(id); } else { retired.remove(&id); }
                    Event::Retire { id, retired: r }
                }
                3 if joined < 8 => { joined += 1; join(joined - 1) }
                _ => Event::ChallengePlace { player: a % joined, position: b },
            };
            log.push((day(d), event));
        }
        let l = ChallengeLadder::from_log(log.iter().map(|(d, e)| (*d, e)), day(d + 40));
        let mut got = l.order().to_vec();
        got.sort_unstable();
        let want: Vec<PlayerId> = (0..joined).filter(|p| !retired.contains(p)).collect();
        prop_assert_eq!(got, want);
    }
}
