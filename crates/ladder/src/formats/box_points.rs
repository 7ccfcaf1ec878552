//! A box match's points under the organiser's scheme, each player's tally, and a box table's
//! order under the organiser's tie-breaks, with the value of every tie-break kept for showing.

use super::settings::{PlayerId, PointsScheme, ScorePoints, TieBreak};
use crate::event::MatchResult;
use rungs_rating::Outcome;
use std::cmp::Ordering;
use std::collections::HashMap;

/// A box match as the table counts it: side A, side B, the result from A's view and the
/// games each won, if entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoxMatch {
    pub a: PlayerId,
    pub b: PlayerId,
    pub result: MatchResult,
    pub games: Option<[u32; 2]>,
}

/// What a match gives each side: points, and whether each played, won, drew or lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Share {
    pub points: u32,
    pub played: bool,
    pub won: bool,
    pub drawn: bool,
    pub lost: bool,
    pub games_won: u32,
    pub games_lost: u32,
}

/// The table's narrowest win: the row with the smallest margin, then the fewest games.
fn narrowest(table: &[ScorePoints]) -> Option<&ScorePoints> {
    table.iter().min_by_key(|r| {
        (
            i64::from(r.games[0]) - i64::from(r.games[1]),
            r.games[0].saturating_add(r.games[1]),
        )
    })
}

/// How a box match scores, in words: "points by games: 3-0 7–1, 3-1 6–2", "1 for playing, 1 a
/// game won, 1 for the match", "win 3, draw 1, loss 0". Every door says the scheme alike.
pub fn scheme_words(scheme: &PointsScheme) -> String {
    match scheme {
        PointsScheme::GameScore { table } => {
            let rows: Vec<String> = table
                .iter()
                .map(|r| {
                    format!(
                        "{}-{} {}–{}",
                        r.games[0], r.games[1], r.points[0], r.points[1]
                    )
                })
                .collect();
            format!("points by games: {}", rows.join(", "))
        }
        PointsScheme::Parts {
            play,
            per_game,
            win_bonus,
        } => format!("{play} for playing, {per_game} a game won, {win_bonus} for the match"),
        PointsScheme::WinDrawLoss { win, draw, loss } => {
            format!("win {win}, draw {draw}, loss {loss}")
        }
    }
}

/// Each side's share of a match, A then B; none for a cancelled match (it counts for nobody).
///
/// A walkover (a forfeit) gives `walkover` (winner, loser); the side that gave it has not
/// played, the other has. Under a game-score table, a result without games, or with a score
/// the table lacks, counts as its narrowest win, and a draw gives each the narrowest win's
/// loser points.
pub fn shares(scheme: &PointsScheme, walkover: [u32; 2], m: &BoxMatch) -> Option<[Share; 2]> {
    let won = |points, games_won, games_lost| Share {
        points,
        played: true,
        won: true,
        games_won,
        games_lost,
        ..Share::default()
    };
    let lost = |points, games_won, games_lost| Share {
        points,
        played: true,
        lost: true,
        games_won,
        games_lost,
        ..Share::default()
    };
    let [ga, gb] = m.games.unwrap_or([0, 0]);
    let a_wins = match m.result {
        MatchResult::Cancelled => return None,
        MatchResult::ForfeitA | MatchResult::ForfeitB => {
            let winner = won(walkover[0], 0, 0);
            let loser = Share {
                points: walkover[1],
                lost: true,
                ..Share::default()
            };
            return Some(if m.result == MatchResult::ForfeitB {
                [winner, loser]
            } else {
                [loser, winner]
            });
        }
        MatchResult::Played(Outcome::Draw) => {
            let each = match scheme {
                PointsScheme::GameScore { table } => narrowest(table).map_or(0, |r| r.points[1]),
                PointsScheme::Parts { play, .. } => *play,
                PointsScheme::WinDrawLoss { draw, .. } => *draw,
            };
            let per_game = match scheme {
                PointsScheme::Parts { per_game, .. } => *per_game,
                _ => 0,
            };
            let drew = |games_won: u32, games_lost| Share {
                points: each.saturating_add(per_game.saturating_mul(games_won)),
                played: true,
                drawn: true,
                games_won,
                games_lost,
                ..Share::default()
            };
            return Some([drew(ga, gb), drew(gb, ga)]);
        }
        MatchResult::Played(Outcome::Win) => true,
        MatchResult::Played(Outcome::Loss) => false,
    };
    let (wg, lg) = if a_wins { (ga, gb) } else { (gb, ga) };
    let [w, l] = match scheme {
        PointsScheme::GameScore { table } => {
            let row = table
                .iter()
                .find(|r| m.games.is_some() && r.games == [wg, lg])
                .or_else(|| narrowest(table));
            let p = row.map_or([0, 0], |r| r.points);
            [won(p[0], wg, lg), lost(p[1], lg, wg)]
        }
        PointsScheme::Parts {
            play,
            per_game,
            win_bonus,
        } => {
            let of = |games: u32| play.saturating_add(per_game.saturating_mul(games));
            [
                won(of(wg).saturating_add(*win_bonus), wg, lg),
                lost(of(lg), lg, wg),
            ]
        }
        PointsScheme::WinDrawLoss { win, loss, .. } => [won(*win, wg, lg), lost(*loss, lg, wg)],
    };
    Some(if a_wins { [w, l] } else { [l, w] })
}

/// A player's totals over a period's box matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub games_won: u32,
    pub games_lost: u32,
    pub points: u32,
}

impl Tally {
    pub fn add(&mut self, s: &Share) {
        self.played += u32::from(s.played);
        self.won += u32::from(s.won);
        self.drawn += u32::from(s.drawn);
        self.lost += u32::from(s.lost);
        self.games_won = self.games_won.saturating_add(s.games_won);
        self.games_lost = self.games_lost.saturating_add(s.games_lost);
        self.points = self.points.saturating_add(s.points);
    }
}

/// A tie-break's value for one player, as shown in its column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TieValue {
    Whole(i64),
    /// A rating; none for a player the ladder has not rated.
    Rating(Option<f64>),
}

impl TieValue {
    /// Better first: more is better, except games lost.
    fn better(rule: TieBreak, x: &TieValue, y: &TieValue) -> Ordering {
        match (x, y) {
            (TieValue::Whole(x), TieValue::Whole(y)) if rule == TieBreak::GamesLost => x.cmp(y),
            (TieValue::Whole(x), TieValue::Whole(y)) => y.cmp(x),
            (TieValue::Rating(x), TieValue::Rating(y)) => match (x, y) {
                (Some(x), Some(y)) => y.total_cmp(x),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
            _ => Ordering::Equal,
        }
    }

    /// The value as a column shows it: a whole number, a rating to one decimal, or "–".
    pub fn as_text(&self) -> String {
        match self {
            TieValue::Whole(n) => n.to_string(),
            TieValue::Rating(Some(r)) => format!("{r:.1}"),
            TieValue::Rating(None) => "–".into(),
        }
    }
}

/// A box's players ordered under the tie-breaks, each with every tie-break's value (none for
/// a head-to-head that never had to be worked out: the player was never tied when it came).
pub struct Ordered {
    pub players: Vec<PlayerId>,
    pub values: Vec<Vec<Option<TieValue>>>,
}

/// Orders `players` (in join order, which settles a tie past every rule) by `rules`.
pub fn order(
    players: &[PlayerId],
    tallies: &HashMap<PlayerId, Tally>,
    shares_between: &dyn Fn(PlayerId, PlayerId) -> Option<Share>,
    rules: &[TieBreak],
    rating: &dyn Fn(PlayerId) -> Option<f64>,
) -> Ordered {
    let tally = |p: PlayerId| tallies.get(&p).copied().unwrap_or_default();
    let mut values: HashMap<PlayerId, Vec<Option<TieValue>>> = players
        .iter()
        .map(|p| {
            let t = tally(*p);
            let v = rules
                .iter()
                .map(|rule| match rule {
                    TieBreak::Points => Some(TieValue::Whole(i64::from(t.points))),
                    TieBreak::MatchesWon => Some(TieValue::Whole(i64::from(t.won))),
                    TieBreak::GamesLost => Some(TieValue::Whole(i64::from(t.games_lost))),
                    TieBreak::GameDifference => Some(TieValue::Whole(
                        i64::from(t.games_won) - i64::from(t.games_lost),
                    )),
                    TieBreak::Rating => {
                        Some(TieValue::Rating(rating(*p).filter(|r| r.is_finite())))
                    }
                    TieBreak::HeadToHead => None,
                })
                .collect();
            (*p, v)
        })
        .collect();
    let mut out = Vec::with_capacity(players.len());
    let mut sorted = players.to_vec();
    sorted.sort_unstable();
    split(&sorted, 0, rules, shares_between, &mut values, &mut out);
    let values = out
        .iter()
        .map(|p| values.remove(p).unwrap_or_default())
        .collect();
    Ordered {
        players: out,
        values,
    }
}

/// Orders a group tied on rules before `k` by rule `k`, then each group still tied by the next.
fn split(
    group: &[PlayerId],
    k: usize,
    rules: &[TieBreak],
    between: &dyn Fn(PlayerId, PlayerId) -> Option<Share>,
    values: &mut HashMap<PlayerId, Vec<Option<TieValue>>>,
    out: &mut Vec<PlayerId>,
) {
    let Some(&rule) = rules.get(k) else {
        out.extend_from_slice(group);
        return;
    };
    if group.len() < 2 {
        out.extend_from_slice(group);
        return;
    }
    if rule == TieBreak::HeadToHead {
        for p in group {
            let points: u32 = group
                .iter()
                .filter(|q| *q != p)
                .filter_map(|q| between(*p, *q))
                .map(|s| s.points)
                .sum();
            if let Some(v) = values.get_mut(p) {
                v[k] = Some(TieValue::Whole(i64::from(points)));
            }
        }
    }
    let keys: HashMap<PlayerId, Option<TieValue>> = group
        .iter()
        .map(|p| (*p, values.get(p).and_then(|v| v[k])))
        .collect();
    let cmp = |x: &PlayerId, y: &PlayerId| match (keys[x], keys[y]) {
        (Some(a), Some(b)) => TieValue::better(rule, &a, &b),
        _ => Ordering::Equal,
    };
    let mut g = group.to_vec();
    g.sort_by(cmp); // stable: join order kept within a tie
    let mut start = 0;
    while start < g.len() {
        let mut end = start + 1;
        while end < g.len() && cmp(&g[start], &g[end]) == Ordering::Equal {
            end += 1;
        }
        let tied = g[start..end].to_vec();
        split(&tied, k + 1, rules, between, values, out);
        start = end;
    }
}
