//! Event standings by points with the tie-breaks of FIDE's Tie-Break Regulations (FIDE
//! Handbook C.07, in force from 2023; <https://handbook.fide.com/chapter/TieBreakRegulations2023>),
//! over the rounds of a Swiss event as `dutch` records them. Pure.
//!
//! Unplayed rounds (C.07 article 16): a player's own unplayed round — the pairing-allocated
//! bye, a requested or zero-point bye, absence, a forfeit won or lost — counts in the
//! opponent-based tie-breaks as a game against a dummy opponent with the player's own final
//! score; when an opponent is counted, the opponent's unplayed rounds count as draws (its
//! adjusted score). Low cuts remove the unplayed rounds first.

use crate::dutch::{Colour, Half, Outcome, Player};
use std::cmp::Ordering;

/// A tie-break of C.07 article 7 onwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    /// BH: the sum of the opponents' (adjusted) scores.
    Buchholz,
    /// BH-C1: Buchholz without its least significant value.
    BuchholzCut1,
    /// BH-M1: Buchholz without its highest and lowest values.
    BuchholzMedian1,
    /// SB: each opponent's score times the points scored against them.
    SonnebornBerger,
    /// DE: points scored against the others tied on points, when all of them have met.
    DirectEncounter,
    /// WIN: rounds with a win's points, played or not (forfeit wins and full-point byes).
    Wins,
    /// GWN: games won over the board.
    GamesWon,
    /// BPG: games played with black.
    BlackGames,
    /// PS: the sum of the running score after each round.
    Progressive,
    /// ARO: the average rating of the opponents met over the board, rounded.
    AverageRatingOfOpponents,
    /// TPR: ARO plus FIDE's rating difference for the percentage scored over the board.
    PerformanceRating,
}

impl TieBreak {
    /// An order for an individual Swiss, after C.07's recommendations.
    pub const SWISS_DEFAULT: [TieBreak; 4] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
    ];
}

impl TieBreak {
    pub const ALL: [TieBreak; 11] = [
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::BuchholzMedian1,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::GamesWon,
        TieBreak::BlackGames,
        TieBreak::Progressive,
        TieBreak::AverageRatingOfOpponents,
        TieBreak::PerformanceRating,
    ];

    /// The name an organiser types: `buchholz-cut1`, `sonneborn-berger`…
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz-cut1",
            TieBreak::BuchholzMedian1 => "buchholz-median1",
            TieBreak::SonnebornBerger => "sonneborn-berger",
            TieBreak::DirectEncounter => "direct-encounter",
            TieBreak::Wins => "wins",
            TieBreak::GamesWon => "games-won",
            TieBreak::BlackGames => "black-games",
            TieBreak::Progressive => "progressive",
            TieBreak::AverageRatingOfOpponents => "aro",
            TieBreak::PerformanceRating => "tpr",
        }
    }

    /// C.07's abbreviation, as column heads print it.
    pub fn abbreviation(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::BuchholzMedian1 => "BH-M1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "GWN",
            TieBreak::BlackGames => "BPG",
            TieBreak::Progressive => "PS",
            TieBreak::AverageRatingOfOpponents => "ARO",
            TieBreak::PerformanceRating => "TPR",
        }
    }

    /// A tie-break by name or abbreviation, in any case.
    pub fn parse(text: &str) -> Option<TieBreak> {
        let t = text.trim();
        TieBreak::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(t) || b.abbreviation().eq_ignore_ascii_case(t))
    }

    /// A value as a crosstable prints it: points to the half, ratings whole.
    pub fn format(self, value: f64) -> String {
        if !value.is_finite() {
            return "–".into();
        }
        match self {
            TieBreak::AverageRatingOfOpponents | TieBreak::PerformanceRating => {
                format!("{value:.0}")
            }
            _ if value.fract() == 0.0 => format!("{value:.0}"),
            _ if (value * 2.0).fract() == 0.0 => format!("{value:.1}"),
            _ => format!("{value:.2}"),
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub player: usize,
    /// 1 at the top; players equal on points and every tie-break share a rank.
    pub rank: usize,
    pub points: f64,
    /// The tie-breaks, in the order asked for.
    pub values: Vec<f64>,
}

/// The standings after the rounds recorded, best first.
pub fn standings(players: &[Player], order: &[TieBreak]) -> Vec<Standing> {
    let points: Vec<Half> = players.iter().map(total).collect();
    let mut lines: Vec<Standing> = (0..players.len())
        .map(|i| Standing {
            player: i,
            rank: 0,
            points: f64::from(points[i]) / 2.0,
            values: order
                .iter()
                .map(|&t| {
                    if t == TieBreak::DirectEncounter {
                        direct_encounter(players, &points, i)
                    } else {
                        value(players, i, t)
                    }
                })
                .collect(),
        })
        .collect();
    let cmp = |a: &Standing, b: &Standing| -> Ordering {
        b.points.total_cmp(&a.points).then_with(|| {
            for (x, y) in a.values.iter().zip(&b.values) {
                match y.total_cmp(x) {
                    Ordering::Equal => continue,
                    other => return other,
                }
            }
            Ordering::Equal
        })
    };
    lines.sort_by(|a, b| cmp(a, b).then(a.player.cmp(&b.player)));
    for k in 0..lines.len() {
        let rank = if k > 0 && cmp(&lines[k - 1], &lines[k]) == Ordering::Equal {
            lines[k - 1].rank
        } else {
            k + 1
        };
        lines[k].rank = rank;
    }
    lines
}

/// One tie-break of player `i` (direct encounter needs the field: see [`standings`]).
pub fn value(players: &[Player], i: usize, t: TieBreak) -> f64 {
    let p = &players[i];
    match t {
        TieBreak::Buchholz => buchholz(players, i).iter().map(|c| c.value).sum(),
        TieBreak::BuchholzCut1 => cut(buchholz(players, i), 1, 0),
        TieBreak::BuchholzMedian1 => cut(buchholz(players, i), 1, 1),
        TieBreak::SonnebornBerger => sonneborn_berger(players, i),
        TieBreak::DirectEncounter => direct_encounter(players, &[], i),
        TieBreak::Wins => p.rounds.iter().filter(|o| o.score() == 2).count() as f64,
        TieBreak::GamesWon => p
            .rounds
            .iter()
            .filter(|o| matches!(o, Outcome::Played { score: 2, .. }))
            .count() as f64,
        TieBreak::BlackGames => p
            .rounds
            .iter()
            .filter(|o| {
                matches!(
                    o,
                    Outcome::Played {
                        colour: Colour::Black,
                        ..
                    }
                )
            })
            .count() as f64,
        TieBreak::Progressive => {
            let mut running = 0;
            let mut sum = 0;
            for o in &p.rounds {
                running += o.score();
                sum += running;
            }
            f64::from(sum) / 2.0
        }
        TieBreak::AverageRatingOfOpponents => average_rating(players, i).unwrap_or(0.0),
        TieBreak::PerformanceRating => performance(players, i).unwrap_or(0.0),
    }
}

fn total(p: &Player) -> Half {
    p.rounds.iter().map(|o| o.score()).sum()
}

/// A player's score as their opponents count it: unplayed rounds as draws (C.07 article 16).
fn adjusted(p: &Player) -> Half {
    p.rounds
        .iter()
        .map(|o| match o {
            Outcome::Played { score, .. } => *score,
            _ => 1,
        })
        .sum()
}

/// One round's contribution to an opponent-based tie-break.
#[derive(Debug, Clone, Copy)]
struct Contribution {
    value: f64,
    unplayed: bool,
}

fn buchholz(players: &[Player], i: usize) -> Vec<Contribution> {
    let own = f64::from(total(&players[i])) / 2.0;
    players[i]
        .rounds
        .iter()
        .map(|o| match o {
            Outcome::Played { opponent, .. } => Contribution {
                value: f64::from(adjusted(&players[*opponent])) / 2.0,
                unplayed: false,
            },
            // The dummy opponent has the player's own score.
            _ => Contribution {
                value: own,
                unplayed: true,
            },
        })
        .collect()
}

/// The sum without the `low` least significant values — unplayed rounds first, the least
/// of them first (C.07 article 16) — and without the `high` largest.
fn cut(mut c: Vec<Contribution>, low: usize, high: usize) -> f64 {
    c.sort_by(|a, b| {
        b.unplayed
            .cmp(&a.unplayed)
            .then(a.value.total_cmp(&b.value))
    });
    let mut rest: Vec<f64> = c.iter().skip(low).map(|x| x.value).collect();
    rest.sort_by(|a, b| b.total_cmp(a));
    rest.iter().skip(high).sum()
}

fn sonneborn_berger(players: &[Player], i: usize) -> f64 {
    let own = f64::from(total(&players[i])) / 2.0;
    players[i]
        .rounds
        .iter()
        .map(|o| {
            let scored = f64::from(o.score()) / 2.0;
            match o {
                Outcome::Played { opponent, .. } => {
                    f64::from(adjusted(&players[*opponent])) / 2.0 * scored
                }
                _ => own * scored,
            }
        })
        .sum()
}

/// Points scored against the others with the same points, when every two of them have met
/// over the board; 0 for everyone otherwise (it then separates nobody).
fn direct_encounter(players: &[Player], points: &[Half], i: usize) -> f64 {
    if points.is_empty() {
        return 0.0;
    }
    let tied: Vec<usize> = (0..players.len())
        .filter(|&j| points[j] == points[i])
        .collect();
    if tied.len() < 2 {
        return 0.0;
    }
    let met = |a: usize, b: usize| {
        players[a]
            .rounds
            .iter()
            .any(|o| matches!(o, Outcome::Played { opponent, .. } if *opponent == b))
    };
    let all_met = tied
        .iter()
        .all(|&a| tied.iter().all(|&b| a == b || met(a, b)));
    if !all_met {
        return 0.0;
    }
    let scored: Half = players[i]
        .rounds
        .iter()
        .filter_map(|o| match o {
            Outcome::Played {
                opponent, score, ..
            } if tied.contains(opponent) => Some(*score),
            _ => None,
        })
        .sum();
    f64::from(scored) / 2.0
}

fn played(players: &[Player], i: usize) -> impl Iterator<Item = (usize, Half)> + '_ {
    players[i].rounds.iter().filter_map(|o| match o {
        Outcome::Played {
            opponent, score, ..
        } => Some((*opponent, *score)),
        _ => None,
    })
}

/// The mean rating of the rated opponents met over the board, rounded to a whole number.
fn average_rating(players: &[Player], i: usize) -> Option<f64> {
    let ratings: Vec<u32> = played(players, i)
        .map(|(o, _)| players[o].rating)
        .filter(|&r| r > 0)
        .collect();
    if ratings.is_empty() {
        return None;
    }
    let sum: u32 = ratings.iter().sum();
    Some((f64::from(sum) / ratings.len() as f64).round())
}

/// ARO plus dp(p), p the fraction scored over the board rounded to two decimals (FIDE
/// Rating Regulations B.02, table 8.1a).
fn performance(players: &[Player], i: usize) -> Option<f64> {
    let aro = average_rating(players, i)?;
    let games: Vec<(usize, Half)> = played(players, i).collect();
    let scored: Half = games.iter().map(|g| g.1).sum();
    let hundredths = (f64::from(scored) * 50.0 / games.len() as f64).round() as i32;
    Some(aro + f64::from(dp(hundredths)))
}

/// FIDE's rating difference for a score of `p` hundredths (B.02 table 8.1a); symmetric.
pub fn dp(p: i32) -> i32 {
    const UP: [i32; 51] = [
        0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
        158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336,
        351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
    ];
    let p = p.clamp(0, 100);
    if p >= 50 {
        UP[(p - 50) as usize]
    } else {
        -UP[(50 - p) as usize]
    }
}
