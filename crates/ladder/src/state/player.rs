//! One player's state: their rating ([`Skill`]), the figures shown for them, and the rows of
//! their history.
use crate::event::PlayerId;
use crate::rules::{Params, Rules};
use crate::weekly::WeeklyRp;
use chrono::NaiveDate;
use rungs_rating::{elo, glicko, glicko2, goals, trueskill};
use serde::{Deserialize, Serialize};

/// A player's rating under the ladder's system.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum Skill {
    Glicko(glicko::Rating),
    Glicko2(glicko2::Rating),
    TrueSkill(trueskill::Rating),
    Elo(elo::Rating),
    Goals(goals::Rating),
}

impl Skill {
    /// A new player's rating under `rules`.
    pub fn initial(rules: &Rules) -> Skill {
        match &rules.params {
            Params::Skyweaver(p) => Skill::Glicko(glicko::Rating::new(&p.glicko())),
            Params::Inversus(p) => Skill::Glicko2(glicko2::Rating::new(&p.glicko2)),
            Params::Allegskill(p) => Skill::TrueSkill(trueskill::Rating::new(&p.trueskill)),
            Params::Memoir44(p) => Skill::Elo(elo::Rating {
                rating: p.initial_rating,
            }),
            Params::Elo(p) => Skill::Elo(elo::Rating::new(p)),
            Params::Goals(p) => Skill::Goals(goals::Rating::new(&p.goals)),
        }
    }

    /// The mean of a side's skills, field by field (one player: that player). `None` for an
    /// empty side or skills of different systems.
    #[inline]
    pub fn mean(skills: &[Skill]) -> Option<Skill> {
        let first = *skills.first()?;
        if skills.len() == 1 {
            // The sum below from 0 over one skill, divided by 1: the same bits (a −0 field
            // reads +0 either way; x/1 is x), without the three divisions every prediction
            // of a 1v1 match waited on.
            return Some(first.map_fields(|x| 0.0 + x));
        }
        let n = skills.len() as f64;
        let mut sum = [0.0f64; 3];
        for s in skills {
            let v = match (first, s) {
                (Skill::Glicko(_), Skill::Glicko(r)) => [r.rating, r.deviation, 0.0],
                (Skill::Glicko2(_), Skill::Glicko2(r)) => [r.mu, r.phi, r.sigma],
                (Skill::TrueSkill(_), Skill::TrueSkill(r)) => [r.mu, r.sigma, 0.0],
                (Skill::Elo(_), Skill::Elo(r)) => [r.rating, 0.0, 0.0],
                (Skill::Goals(_), Skill::Goals(r)) => [r.attack, r.defence, r.variance],
                _ => return None,
            };
            for (acc, x) in sum.iter_mut().zip(v) {
                *acc += x;
            }
        }
        let [a, b, c] = sum.map(|x| x / n);
        Some(match first {
            Skill::Glicko(_) => Skill::Glicko(glicko::Rating {
                rating: a,
                deviation: b,
            }),
            Skill::Glicko2(_) => Skill::Glicko2(glicko2::Rating {
                mu: a,
                phi: b,
                sigma: c,
            }),
            Skill::TrueSkill(_) => Skill::TrueSkill(trueskill::Rating { mu: a, sigma: b }),
            Skill::Elo(_) => Skill::Elo(elo::Rating { rating: a }),
            Skill::Goals(_) => Skill::Goals(goals::Rating {
                attack: a,
                defence: b,
                variance: c,
            }),
        })
    }

    /// The skill with `f` applied to each of its fields.
    fn map_fields(self, f: impl Fn(f64) -> f64) -> Skill {
        match self {
            Skill::Glicko(r) => Skill::Glicko(glicko::Rating {
                rating: f(r.rating),
                deviation: f(r.deviation),
            }),
            Skill::Glicko2(r) => Skill::Glicko2(glicko2::Rating {
                mu: f(r.mu),
                phi: f(r.phi),
                sigma: f(r.sigma),
            }),
            Skill::TrueSkill(r) => Skill::TrueSkill(trueskill::Rating {
                mu: f(r.mu),
                sigma: f(r.sigma),
            }),
            Skill::Elo(r) => Skill::Elo(elo::Rating {
                rating: f(r.rating),
            }),
            Skill::Goals(r) => Skill::Goals(goals::Rating {
                attack: f(r.attack),
                defence: f(r.defence),
                variance: f(r.variance),
            }),
        }
    }

    /// The rating on the 1500 scale (TrueSkill: μ mapped so that 25 ± 25/3 reads 1500 ± 350).
    pub fn rating_1500(&self) -> f64 {
        match self {
            Skill::Glicko(r) => r.rating,
            Skill::Glicko2(r) => r.rating(),
            Skill::TrueSkill(r) => 1500.0 + (r.mu - 25.0) * 42.0,
            Skill::Elo(r) => r.rating,
            Skill::Goals(r) => r.rating(),
        }
    }

    /// This rating carried into another system when the rules change: the rating keeps its
    /// place on the 1500 scale, the uncertainty starts afresh at the new system's initial
    /// value (what the old system was sure of is not knowledge the new one has). A goals
    /// strength is carried as shown, from the old rules' `centre` (the pool's average side
    /// under `entry_pool`), not from the model's zero the pool has wandered from.
    pub fn convert(&self, rules: &Rules, centre: Centre) -> Skill {
        let fresh = Skill::initial(rules);
        if std::mem::discriminant(&fresh) == std::mem::discriminant(self) {
            return *self;
        }
        let r = match (self, centre.0) {
            (Skill::Goals(g), Some(c)) => g.rating_against(c),
            _ => self.rating_1500(),
        };
        match fresh {
            Skill::Glicko(g) => Skill::Glicko(glicko::Rating { rating: r, ..g }),
            Skill::Glicko2(g) => {
                let mu = (r - 1500.0) / glicko2::SCALE;
                let (lo, hi) = match &rules.params {
                    Params::Inversus(p) => (p.glicko2.min_mu, p.glicko2.max_mu),
                    _ => (f64::MIN, f64::MAX),
                };
                Skill::Glicko2(glicko2::Rating {
                    mu: mu.max(lo).min(hi),
                    ..g
                })
            }
            Skill::TrueSkill(t) => Skill::TrueSkill(trueskill::Rating {
                mu: 25.0 + (r - 1500.0) / 42.0,
                ..t
            }),
            Skill::Elo(_) => Skill::Elo(elo::Rating { rating: r }),
            Skill::Goals(g) => Skill::Goals(goals::Rating::from_1500(
                r,
                &goals::Config {
                    initial_variance: g.variance,
                    ..goals::Config::default()
                },
            )),
        }
    }
}

/// The figures recorded after each event that touches a player, and shown in standings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// r (Glicko), rating in Glicko units (Glicko-2), μ (TrueSkill), rating (Elo).
    pub rating: f64,
    /// RD (Glicko), RD in Glicko units (Glicko-2), σ (TrueSkill), 0 (Elo).
    pub deviation: f64,
    /// σ volatility (Glicko-2), conservative μ − 3σ (TrueSkill), 0 otherwise.
    pub extra: f64,
    /// Rank Points (Skyweaver, INVERSUS), the shown rank (AllegSkill), else the rating.
    pub score: f64,
}

impl Figures {
    /// Whether both are the same numbers to the bit (what a history row records).
    pub fn same_bits(&self, other: &Figures) -> bool {
        [
            (self.rating, other.rating),
            (self.deviation, other.deviation),
            (self.extra, other.extra),
            (self.score, other.score),
        ]
        .iter()
        .all(|(x, y)| x.to_bits() == y.to_bits())
    }
}

/// What a player has played in the current rating period, under rules that rate a period's
/// games together (`crate::periods`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPeriod {
    /// Which period: days since Monday 2001-01-01 divided by the period's length.
    pub index: i64,
    /// The player's skill when the period began (their first game of it).
    pub start: Skill,
    /// Each game so far: the opponent's skill when the period began, and the score.
    pub games: Vec<(Skill, f64)>,
    /// The skill the period's last update left. A reset or a rules change that moved the
    /// skill since starts a new period from where it left the player.
    pub left: Skill,
}

/// Everything the ladder tracks for one player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    pub name: String,
    /// False for an id whose `player` event comes later in replay order than a later id's
    /// (ids follow entry order, replay follows dates).
    #[serde(default = "yes")]
    pub joined: bool,
    /// The day the player joined in replay order (an undated join: their first event).
    #[serde(default)]
    pub joined_on: Option<NaiveDate>,
    /// Entered without a date: matches before `joined_on` move the join (see `Event::Player`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undated: bool,
    /// Retired from the ladder: left off the standings, history kept.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub retired: bool,
    /// Carries a rating brought in by a migration (r := Elo): a rating of record before any
    /// match here, whatever its value (an Elo of exactly 1500 included).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub migrated: bool,
    pub skill: Skill,
    /// Rank Points (Skyweaver, INVERSUS); unused elsewhere.
    pub rp: f64,
    pub matches: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub last_played: Option<NaiveDate>,
    /// Consecutive wins up to now (Skyweaver's streak bonus).
    pub streak: u32,
    /// Skyweaver: the highest hard floor reached this season.
    pub floor: f64,
    /// Skyweaver: the highest RP reached this season (its tier sets the hard reset value).
    pub season_peak_rp: f64,
    /// Skyweaver: whether the player was a Grandweaver at any weekly reset this season.
    pub season_grandweaver: bool,
    /// Matches played this season.
    #[serde(default)]
    pub season_matches: u32,
    /// How the shown score moved in the player's latest match (the standings' trend).
    #[serde(default)]
    pub last_change: f64,
    /// End-of-week RP at each soft reset this season (runs; see `ladder::weekly`).
    #[serde(default)]
    pub season_weekly: WeeklyRp,
    /// The rating period the player has played in, under rules that rate games of a period
    /// together (`crate::periods`); `None` under per-match rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Box<RatingPeriod>>,
}

impl PlayerState {
    pub fn new(name: String, rules: &Rules) -> PlayerState {
        let rp = match &rules.params {
            Params::Skyweaver(p) => p.initial_rp,
            _ => 0.0,
        };
        PlayerState {
            name,
            joined: true,
            joined_on: None,
            undated: false,
            retired: false,
            migrated: false,
            skill: Skill::initial(rules),
            rp,
            matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            last_played: None,
            streak: 0,
            floor: if rp > 0.0 {
                rules.tier_table().floor_reached(rp)
            } else {
                0.0
            },
            season_peak_rp: rp,
            season_grandweaver: false,
            season_matches: 0,
            last_change: 0.0,
            season_weekly: WeeklyRp::default(),
            period: None,
        }
    }

    /// Whether the player has a rating of record: one from a match here, or one a migration
    /// brought in. A player with neither has only the system's starting value.
    pub fn has_rating_of_record(&self) -> bool {
        self.matches > 0 || self.migrated
    }

    /// The figures shown for this player measured from each model's own zero: what a
    /// ladder shows under every rule set but one (the goals system under `entry_pool`,
    /// whose average side is the pool's mean: [`Ladder::figures`]). For a player of a ladder
    /// ask the ladder; this is for a state without one.
    ///
    /// [`Ladder::figures`]: super::Ladder::figures
    pub fn figures(&self) -> Figures {
        self.figures_at(Centre::ZERO)
    }

    /// The figures shown for this player with the goals system's strength measured from
    /// `centre` ([`Ladder::centre`]); every other system's are the same whatever it says.
    ///
    /// [`Ladder::centre`]: super::Ladder::centre
    pub fn figures_at(&self, centre: Centre) -> Figures {
        match self.skill {
            Skill::Glicko(r) => Figures {
                rating: r.rating,
                deviation: r.deviation,
                extra: 0.0,
                score: self.rp,
            },
            Skill::Glicko2(r) => Figures {
                rating: r.rating(),
                deviation: r.deviation(),
                extra: r.sigma,
                score: self.rp,
            },
            Skill::TrueSkill(r) => Figures {
                rating: r.mu,
                deviation: r.sigma,
                extra: r.conservative(),
                score: r.rank() as f64,
            },
            Skill::Elo(r) => Figures {
                rating: r.rating,
                deviation: 0.0,
                extra: 0.0,
                score: r.rating,
            },
            Skill::Goals(r) => {
                let rating = match centre.0 {
                    Some(c) => r.rating_against(c),
                    None => r.rating(),
                };
                Figures {
                    rating,
                    deviation: r.deviation(),
                    extra: 0.0,
                    score: rating,
                }
            }
        }
    }
}

/// Whether `rules` start the goals system's newcomers at the pool's mean (`entry_pool`
/// above 0), and so measure its shown strength from the pool ([`Centre`]).
pub fn pools_goals(rules: &Rules) -> bool {
    matches!(&rules.params, Params::Goals(p) if p.entry_pool.is_finite() && p.entry_pool > 0.0)
}

/// Where the goals system's shown strength is measured from: the (attack, defence) of the
/// pool's average side under rules that start newcomers at the pool's mean (`entry_pool`
/// above 0), whose newcomers entering below it make the pool sink away from the model's
/// zero; `ZERO` (the model's own zero, every figure as before the rule) otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Centre(pub Option<(f64, f64)>);

impl Centre {
    pub const ZERO: Centre = Centre(None);
}

fn yes() -> bool {
    true
}

/// One row of a player's history: their figures after event `seq` (dated `date`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub seq: u64,
    pub date: NaiveDate,
    pub player: PlayerId,
    pub figures: Figures,
}
