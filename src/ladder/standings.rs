//! Standings: the ladder's players in the system's display order, and their JSON (SPEC §4).

use crate::ladder::event::PlayerId;
use crate::ladder::replay::{Ladder, grandweaver_set};
use crate::ladder::rules::Params;
use crate::ladder::skyweaver::Tier;
use crate::ladder::state::Skill;
use chrono::NaiveDate;
use serde_json::{Value, json};

/// One line of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub position: usize,
    pub id: PlayerId,
    /// Skyweaver's tier, Grandweaver included.
    pub tier: Option<Tier>,
    /// Memoir '44: fewer games than the leaderboard asks.
    pub provisional: bool,
    /// Memoir '44: no game for longer than the leaderboard allows, as of the latest event.
    pub idle: bool,
    /// Retired by the organiser (history kept).
    pub retired: bool,
}

impl Standing {
    /// Whether the leaderboard lists the player (provisional, idle and retired players are
    /// left off unless asked for).
    pub fn listed(&self) -> bool {
        !self.provisional && !self.idle && !self.retired
    }
}

/// The sort key of a player: higher first.
fn key(ladder: &Ladder, id: usize) -> (f64, f64) {
    let p = &ladder.players[id];
    let f = p.figures();
    match p.skill {
        Skill::Glicko(_) | Skill::Glicko2(_) => (p.rp, f.rating),
        Skill::TrueSkill(_) => (f.score, f.extra),
        Skill::Elo(_) => (f.rating, 0.0),
    }
}

/// Every player who has joined, best first; ties by name, then id.
pub fn standings(ladder: &Ladder) -> Vec<Standing> {
    let mut ids: Vec<usize> = (0..ladder.players.len())
        .filter(|&i| ladder.players[i].joined)
        .collect();
    ids.sort_by(|&x, &y| {
        let (kx, ky) = (key(ladder, x), key(ladder, y));
        ky.0.total_cmp(&kx.0)
            .then(ky.1.total_cmp(&kx.1))
            .then_with(|| {
                ladder.players[x]
                    .name
                    .to_lowercase()
                    .cmp(&ladder.players[y].name.to_lowercase())
            })
            .then(x.cmp(&y))
    });
    let grandweavers = match &ladder.rules.params {
        Params::Skyweaver(p) => grandweaver_set(&ladder.players, p.grandweaver_count),
        _ => Vec::new(),
    };
    let latest = ladder.players.iter().filter_map(|p| p.last_played).max();
    ids.into_iter()
        .enumerate()
        .map(|(i, id)| {
            let p = &ladder.players[id];
            let tier = match &ladder.rules.params {
                Params::Skyweaver(_) if grandweavers.get(id).copied().unwrap_or(false) => {
                    Some(Tier::Grandweaver)
                }
                Params::Skyweaver(_) => Some(Tier::of_rp(p.rp)),
                _ => None,
            };
            let (provisional, idle) = match &ladder.rules.params {
                Params::Memoir44(c) => (
                    p.matches < c.provisional_games,
                    is_idle(p.last_played, latest, c.idle_days),
                ),
                Params::Allegskill(c) => (
                    p.matches < c.provisional_games,
                    is_idle(p.last_played, latest, c.idle_days),
                ),
                _ => (false, false),
            };
            Standing {
                position: i + 1,
                id: id as PlayerId,
                tier,
                provisional,
                idle,
                retired: p.retired,
            }
        })
        .collect()
}

fn is_idle(last: Option<NaiveDate>, latest: Option<NaiveDate>, days: u32) -> bool {
    match (last, latest) {
        (Some(l), Some(now)) => (now - l).num_days() > days as i64,
        _ => false,
    }
}

/// The standings as SPEC §4's JSON array.
pub fn to_json(ladder: &Ladder, rows: &[Standing]) -> Value {
    Value::Array(
        rows.iter()
            .map(|s| {
                let p = &ladder.players[s.id as usize];
                let mut m = serde_json::Map::new();
                m.insert("position".into(), json!(s.position));
                m.insert("player".into(), json!(p.name));
                m.insert("matches".into(), json!(p.matches));
                m.insert("wins".into(), json!(p.wins));
                m.insert("draws".into(), json!(p.draws));
                m.insert("losses".into(), json!(p.losses));
                m.insert(
                    "last_played".into(),
                    json!(p.last_played.map(|d| d.to_string())),
                );
                match p.skill {
                    Skill::Glicko(r) => {
                        m.insert("rating".into(), json!(r.rating));
                        m.insert("deviation".into(), json!(r.deviation));
                        m.insert("rp".into(), json!(p.rp));
                        m.insert("tier".into(), json!(s.tier.map(Tier::name)));
                    }
                    Skill::Glicko2(r) => {
                        m.insert("mu".into(), json!(r.mu));
                        m.insert("phi".into(), json!(r.phi));
                        m.insert("sigma".into(), json!(r.sigma));
                        m.insert("rating".into(), json!(r.rating()));
                        m.insert("deviation".into(), json!(r.deviation()));
                        m.insert("rp".into(), json!(p.rp));
                    }
                    Skill::TrueSkill(r) => {
                        m.insert("mu".into(), json!(r.mu));
                        m.insert("sigma".into(), json!(r.sigma));
                        m.insert("rank".into(), json!(r.rank()));
                        m.insert("provisional".into(), json!(s.provisional));
                        m.insert("idle".into(), json!(s.idle));
                    }
                    Skill::Elo(r) => {
                        m.insert("rating".into(), json!(r.rating));
                        if matches!(ladder.rules.params, Params::Memoir44(_)) {
                            m.insert("provisional".into(), json!(s.provisional));
                            m.insert("idle".into(), json!(s.idle));
                        }
                    }
                }
                Value::Object(m)
            })
            .collect(),
    )
}
