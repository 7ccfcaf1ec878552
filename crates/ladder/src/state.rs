//! What the ladder knows after some prefix of the log: each player's state, the ladder as a
//! whole, and its finished seasons. Plain data; replay and the season rules change it.

use crate::event::PlayerId;
use crate::rules::{Params, Rules};
use crate::scenarios::ScenarioBook;
use crate::skyweaver::Tier;
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
    /// Carries a rating brought in by a migration (SPEC §3.5): a rating of record before any
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
                crate::skyweaver::floor_reached(rp)
            } else {
                0.0
            },
            season_peak_rp: rp,
            season_grandweaver: false,
            season_matches: 0,
            last_change: 0.0,
            season_weekly: WeeklyRp::default(),
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
    pub fn figures(&self) -> Figures {
        self.figures_at(Centre::ZERO)
    }

    /// The figures shown for this player with the goals system's strength measured from
    /// `centre` ([`Ladder::centre`]); every other system's are the same whatever it says.
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

/// The ladder after some prefix of its log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub rules: Rules,
    pub players: Vec<PlayerState>,
    /// Memoir '44 scenario statistics from the ladder's own history.
    pub scenarios: ScenarioBook,
    /// The current season (from 1) and week within it (from 1).
    pub season: u32,
    pub week: u32,
    /// Finished seasons (Skyweaver), oldest first.
    #[serde(default)]
    pub archive: Vec<SeasonRecord>,
    /// Events applied so far.
    pub events: u64,
    /// The date of the latest event applied: the season calendar's resets after it wait for
    /// the next event (`seasons::run_calendar`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_date: Option<NaiveDate>,
    /// Played matches so far and how many were draws: the rate AllegSkill's
    /// `draw_rate=observed` derives ε from. `None` in caches an older rungs wrote, which did
    /// not count them: the store then replays the log at the next change instead of going on
    /// from those caches (and a check does not hold the missing count against them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Results>,
    /// Skyweaver's Grandweaver slots as the replay goes (`leaderboard.rs`).
    #[serde(default, skip_serializing_if = "Slots::is_unknown")]
    pub slots: Slots,
    /// Who holds each name as the replay goes (not stored: rebuilt when first needed).
    #[serde(skip)]
    pub names: NameBook,
    /// The players a soft reset may change (not stored: rebuilt when first needed).
    #[serde(skip)]
    pub watch: Watch,
    /// Whether only some players are loaded (the store's fast path), and whether an event
    /// needed the others (not stored).
    #[serde(skip)]
    pub partial: Partial,
    /// The goals system's sums over its rated sides, newcomers' level. Stored with the
    /// caches, so that a ladder going on from them adds to the same sums a fresh replay
    /// has (a recount adds in another order, and may differ in the last bits).
    #[serde(default, skip_serializing_if = "GoalsPool::is_unknown")]
    pub goals_pool: GoalsPool,
}

/// The goals system's [`goals::Pool`] as the replay goes, kept only while the rules start
/// newcomers at the pool's mean (`entry_pool` above 0), so that no other system pays for
/// it: counted afresh at the first match that needs it, then moved by each rated update
/// (O(1)), and forgotten when anything else changes ratings wholesale (a rules change, a
/// migration). Not part of the ladder's value, so it is equal whatever it holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GoalsPool(pub Option<goals::Pool>);

impl GoalsPool {
    fn is_unknown(&self) -> bool {
        self.0.is_none()
    }
}

impl PartialEq for GoalsPool {
    fn eq(&self, _: &GoalsPool) -> bool {
        true
    }
}

/// The players a soft reset may change: under Skyweaver, those at Master or above (caps,
/// Grandweaver slots) or whose RD has not reached its ceiling; every other player's soft
/// reset changes nothing but their end-of-week list, which runs on open
/// (`ladder::weekly`). Built from the players at the first soft reset that needs it, then
/// kept by the events that change players (`Ladder::touch`); a hard reset leaves nobody in
/// it. Not part of the ladder's value, so it is equal whatever it holds.
#[derive(Debug, Clone, Default)]
pub struct Watch(pub(crate) Option<std::collections::BTreeSet<PlayerId>>);

impl PartialEq for Watch {
    fn eq(&self, _: &Watch) -> bool {
        true
    }
}

/// Who holds the Grandweaver slots now, best first, and the ladder's latest match (what
/// idleness is measured against), kept as the replay goes so that a slot held at any moment
/// counts and a ladder holding only some players knows them (`leaderboard::track`). They
/// follow from the players' states, so two ladders are equal whatever their slots say, as
/// with [`NameBook`]. `None` when not known: another system, or caches an older rungs wrote
/// (then the players are looked at all at once before they are used).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Slots(pub Option<Holders>);

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Holders {
    pub holders: Vec<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest: Option<NaiveDate>,
    /// The contenders ranked after the holders, best first, down to `bound`: when a holder
    /// goes idle or falls, the next is here, and the players need not all be looked at again.
    /// Not kept in files (a replay finds them at its first rescan).
    #[serde(skip)]
    pub reserve: Vec<PlayerId>,
    /// Which contenders `holders` and `reserve` hold; `None`: not known (the reserve is then
    /// empty and unused).
    #[serde(skip)]
    pub bound: Option<Bound>,
    /// No player in `holders` and `reserve` played last before this day (it may be earlier
    /// than the earliest): until the idle cut-off passes it, none of them has gone idle.
    #[serde(skip)]
    pub idle_from: Option<NaiveDate>,
    /// By player id, whether `holders` (2) or `reserve` (1) holds them, else 0 (shorter
    /// than the players: the rest are not held). Kept with the lists by
    /// `leaderboard::settle`; an event's two players are looked up here, not searched for
    /// among some 200 ids, and a holder who stays one is not marked again.
    #[serde(skip)]
    pub listed: Vec<u8>,
}

/// Where a player stands for a Grandweaver slot: RP, rating, join date, entry order (the
/// order is `leaderboard.rs`'s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotPlace {
    pub rp: f64,
    pub rating: f64,
    pub joined_on: Option<NaiveDate>,
    pub id: usize,
}

/// Which contenders a Grandweaver list holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Every one.
    All,
    /// Every one at or above this place, and no other: a contender the list leaves out
    /// stands below it (and stays there until an event names them).
    Down(SlotPlace),
}

impl Slots {
    fn is_unknown(&self) -> bool {
        self.0.is_none()
    }
}

impl PartialEq for Slots {
    fn eq(&self, _: &Slots) -> bool {
        true
    }
}

/// A ladder loaded with only some of its players, and whether an event applied to it
/// needed the others (then its caller applies the change to the whole ladder).
#[derive(Debug, Clone, Copy, Default)]
pub struct Partial {
    pub only_some: bool,
    pub needs_all: bool,
}

impl PartialEq for Partial {
    fn eq(&self, _: &Partial) -> bool {
        true
    }
}

/// Played matches and draws counted over a whole ladder (a forfeit or a cancelled match is
/// not a played one).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub played: u64,
    pub drawn: u64,
}

/// Who holds each name now, as names compare (`values::name_key`: case, spacing and Unicode
/// form aside), so that a join or a rename dated in the past cannot give a name another
/// player holds on that date. Built from the players when first needed, then kept by joins
/// and renames; not part of the ladder's value (two ladders equal whatever their books).
///
/// The rule guards what enters a ladder, so only the store's replays (a change, an import, a
/// check) hold a log to it; a replay that only reads a log (evaluate, fit, the timeline,
/// `standings --at`) takes it as it is.
#[derive(Debug, Clone)]
pub struct NameBook {
    /// Every holder of each name: more than one only where an older log shares a name.
    holders: Option<std::collections::HashMap<String, Vec<PlayerId>>>,
    /// Events up to this sequence number may share a name: every event, unless the store
    /// says otherwise (all but a format-1 log's events, which compared names by case only).
    pub tolerated_through: u64,
}

impl Default for NameBook {
    fn default() -> NameBook {
        NameBook {
            holders: None,
            tolerated_through: u64::MAX,
        }
    }
}

impl PartialEq for NameBook {
    fn eq(&self, _: &NameBook) -> bool {
        true
    }
}

impl NameBook {
    /// Gives `name` to player `id` (joining or renamed) at event `seq`; the player who holds
    /// it already, if it is another's and the event is held to the rule. Every holder counts:
    /// where two players of an older log share a name, a rename of one to another spelling of
    /// it is refused, since the other still holds it.
    pub fn claim(
        &mut self,
        players: &[PlayerState],
        seq: u64,
        id: PlayerId,
        name: &str,
    ) -> Result<(), PlayerId> {
        use crate::values::name_key;
        let holders = self.holders.get_or_insert_with(|| {
            let mut map: std::collections::HashMap<String, Vec<PlayerId>> =
                std::collections::HashMap::new();
            for (i, p) in players.iter().enumerate().filter(|(_, p)| p.joined) {
                map.entry(name_key(&p.name))
                    .or_default()
                    .push(i as PlayerId);
            }
            map
        });
        if let Some(p) = players.get(id as usize).filter(|p| p.joined) {
            let old = name_key(&p.name);
            if let Some(list) = holders.get_mut(&old) {
                list.retain(|&h| h != id);
                if list.is_empty() {
                    holders.remove(&old);
                }
            }
        }
        let key = name_key(name);
        let list = holders.entry(key.clone()).or_default();
        let holder = list.iter().copied().find(|&other| {
            other != id
                && players
                    .get(other as usize)
                    .is_some_and(|p| p.joined && name_key(&p.name) == key)
        });
        match holder {
            Some(other) if seq > self.tolerated_through => Err(other),
            _ => {
                if !list.contains(&id) {
                    list.push(id);
                }
                Ok(())
            }
        }
    }
}

impl Ladder {
    pub fn new(rules: Rules) -> Ladder {
        // Nobody holds a slot on an empty Skyweaver ladder; other systems have none. The
        // empty list holds every contender (there is none), so the replay keeps the slots
        // by their list from the first event: with no bound it found the top N among the
        // holders and the players each event named, after every event, until the first
        // rescan (on a large ladder, for the first 400,000 matches).
        let slots = match rules.params {
            Params::Skyweaver(_) => Slots(Some(Holders {
                bound: Some(Bound::All),
                ..Holders::default()
            })),
            _ => Slots(None),
        };
        Ladder {
            rules,
            players: Vec::new(),
            scenarios: ScenarioBook::default(),
            season: 1,
            week: 1,
            archive: Vec::new(),
            events: 0,
            last_date: None,
            results: Some(Results::default()),
            slots,
            names: NameBook::default(),
            watch: Watch::default(),
            partial: Partial::default(),
            goals_pool: GoalsPool::default(),
        }
    }

    /// Whether everything but the players is equal (without copying the season archive).
    pub fn same_but_players(&self, other: &Ladder) -> bool {
        // Spelled out field by field so that a new field cannot be forgotten here.
        let Ladder {
            rules,
            players: _,
            scenarios,
            season,
            week,
            archive,
            events,
            last_date,
            results,
            slots: _,
            names: _,
            watch: _,
            partial: _,
            goals_pool: _,
        } = self;
        *rules == other.rules
            && *scenarios == other.scenarios
            && *season == other.season
            && *week == other.week
            && *archive == other.archive
            && *events == other.events
            && *last_date == other.last_date
            && (results.is_none() || other.results.is_none() || *results == other.results)
    }

    /// A copy of everything but the players and the season archive (what the cache keeps in
    /// the ladder's row).
    pub fn shell(&self) -> Ladder {
        Ladder {
            rules: self.rules.clone(),
            players: Vec::new(),
            scenarios: self.scenarios.clone(),
            season: self.season,
            week: self.week,
            archive: Vec::new(),
            events: self.events,
            last_date: self.last_date,
            results: self.results,
            slots: self.slots.clone(),
            names: NameBook::default(),
            watch: Watch::default(),
            partial: Partial::default(),
            goals_pool: self.goals_pool.clone(),
        }
    }

    /// A copy of everything but the players.
    pub fn clone_without_players(&self) -> Ladder {
        Ladder {
            archive: self.archive.clone(),
            ..self.shell()
        }
    }

    /// AllegSkill's TrueSkill constants for the next match, ε derived from the draw rate
    /// the rules ask for (the ladder's own with `draw_rate=observed`); `None` under another
    /// system.
    pub fn trueskill(&self) -> Option<trueskill::Config> {
        match &self.rules.params {
            Params::Allegskill(p) => {
                let r = self.results.unwrap_or_default();
                Some(p.trueskill_after(r.played, r.drawn))
            }
            _ => None,
        }
    }

    /// The goals system's constants when they start newcomers at the pool's mean.
    fn pooling(&self) -> Option<&goals::Config> {
        match &self.rules.params {
            Params::Goals(p) if pools_goals(&self.rules) => Some(&p.goals),
            _ => None,
        }
    }

    /// Whether the shown figures are measured from the goals pool's mean ([`Centre`]): the
    /// goals system with newcomers at the pool's level.
    pub fn pools_goals(&self) -> bool {
        self.pooling().is_some()
    }

    /// The goals system's pool counted afresh from every player.
    pub fn recount_goals_pool(&self) -> Option<goals::Pool> {
        let config = self.pooling()?;
        let ratings = self.players.iter().filter_map(|p| match &p.skill {
            Skill::Goals(r) => Some(r),
            _ => None,
        });
        Some(goals::Pool::recount(ratings, config))
    }

    /// A newcomer's pool part under the goals system ([`goals::pool_level`]); `None` when
    /// the rules do not ask for it. From the kept pool, else counted afresh.
    pub fn goals_level(&self) -> Option<(f64, f64)> {
        let Params::Goals(p) = &self.rules.params else {
            return None;
        };
        self.pooling()?;
        let pool = match self.goals_pool.0 {
            Some(pool) => pool,
            None => self.recount_goals_pool().unwrap_or_default(),
        };
        goals::pool_level(&pool, p.entry_pool)
    }

    /// Where the shown figures are measured from now ([`Centre`]): the pool's mean under
    /// pooling rules, from the kept pool (O(1)), else counted afresh (O(n): a view that
    /// shows many players asks once).
    pub fn centre(&self) -> Centre {
        if self.pooling().is_none() {
            return Centre::ZERO;
        }
        let pool = match self.goals_pool.0 {
            Some(pool) => pool,
            None => self.recount_goals_pool().unwrap_or_default(),
        };
        let (a, d) = pool.mean();
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        Centre(Some((finite(a), finite(d))))
    }

    /// The figures the ladder shows for `p`, one of its players ([`Ladder::centre`]).
    pub fn figures(&self, p: &PlayerState) -> Figures {
        p.figures_at(self.centre())
    }

    /// The figures the ladder shows for player `id`.
    pub fn figures_of(&self, id: PlayerId) -> Option<Figures> {
        self.player(id).map(|p| self.figures(p))
    }

    /// Ratings changed wholesale (a rules change, a migration): the pool is counted afresh
    /// now, so that the rows the event writes are measured from the pool after it.
    pub(crate) fn recount_goals_pool_now(&mut self) {
        self.goals_pool = GoalsPool::default();
        self.keep_goals_pool();
    }

    /// Before an event or a match: the pool is counted if the rules need it and it is not
    /// kept (a ladder with only some players loaded needs the others for it).
    pub fn keep_goals_pool(&mut self) {
        if self.goals_pool.0.is_some() || self.pooling().is_none() {
            return;
        }
        if self.partial.only_some {
            self.partial.needs_all = true;
        }
        self.goals_pool.0 = self.recount_goals_pool();
    }

    /// A player's stored skill goes from `old` to `new`: the kept pool follows.
    pub(crate) fn move_goals_pool(&mut self, old: &Skill, new: &Skill) {
        let Some(pool) = &mut self.goals_pool.0 else {
            return;
        };
        if let (Params::Goals(p), Skill::Goals(old), Skill::Goals(new)) =
            (&self.rules.params, old, new)
        {
            pool.remove(old, &p.goals);
            pool.add(new, &p.goals);
        }
    }

    pub fn player(&self, id: PlayerId) -> Option<&PlayerState> {
        self.players.get(id as usize)
    }

    pub(crate) fn record(
        &self,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        history: &mut Vec<HistoryRow>,
    ) {
        self.record_at(self.centre(), date, seq, id, history);
    }

    /// [`record`](Self::record) with the centre asked once for many players.
    fn record_at(
        &self,
        centre: Centre,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        history: &mut Vec<HistoryRow>,
    ) {
        if let Some(p) = self.players.get(id as usize).filter(|p| p.joined) {
            history.push(HistoryRow {
                seq,
                date,
                player: id,
                figures: p.figures_at(centre),
            });
        }
    }

    /// Records player `id` if their figures are not `before` (bit for bit): a reset writes
    /// a history row only for the players it changes, so that a history grows with what
    /// happens to its player, not with the calendar (issue 21 #13).
    pub(crate) fn record_if_changed(
        &self,
        date: NaiveDate,
        seq: u64,
        id: PlayerId,
        before: Figures,
        history: &mut Vec<HistoryRow>,
    ) {
        if let Some(p) = self.players.get(id as usize)
            && !self.figures(p).same_bits(&before)
        {
            self.record(date, seq, id, history);
        }
    }

    /// Player `id` is about to change: their end-of-week list stops running on, and the next
    /// soft reset looks at them ([`Watch`]).
    pub(crate) fn touch(&mut self, id: PlayerId) {
        let week = self.week;
        if let Some(p) = self.players.get_mut(id as usize) {
            p.season_weekly.close(week);
        }
        if let Some(set) = &mut self.watch.0 {
            set.insert(id);
        }
    }

    /// Every player may change (a rules change): every list stops running on, and the next
    /// soft reset finds its players afresh.
    pub(crate) fn touch_all(&mut self) {
        let week = self.week;
        for p in &mut self.players {
            p.season_weekly.close(week);
        }
        self.watch = Watch::default();
    }

    pub(crate) fn record_all(&self, date: NaiveDate, seq: u64, history: &mut Vec<HistoryRow>) {
        let centre = self.centre();
        for id in 0..self.players.len() as PlayerId {
            self.record_at(centre, date, seq, id, history);
        }
    }
}

/// How a player's season is ranked (seed 003 §4, "End of Season").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeasonRanking {
    /// Below Master: the tier at season end.
    Tier(Tier),
    /// Master and above: the mean of the season's end-of-week RP.
    AverageRp(f64),
    /// Systems without tiers: the shown score at season end.
    Score(f64),
}

/// One player's finished season.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeasonEntry {
    pub player: PlayerId,
    pub name: String,
    pub ranking: SeasonRanking,
    pub peak_tier: Option<Tier>,
    pub matches: u32,
    /// End-of-week RP, one per soft reset of the season (kept as runs of equal values).
    pub weekly_rp: WeeklyRp,
}

/// A finished season, or a run of seasons in which nothing was entered, folded into one
/// record (`ladder::calendar`'s [`Fold`](crate::calendar::Fold)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeasonRecord {
    pub number: u32,
    pub ended: NaiveDate,
    /// Soft resets during the season (during the whole run, when folded).
    pub weeks: u32,
    pub entries: Vec<SeasonEntry>,
    /// Seasons after `number` folded into this record: it stands for seasons `number` …
    /// `number + folded`, each of which gave every player this entry (their weekly RP the
    /// same value every week of the run).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub folded: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl SeasonRecord {
    /// The last season the record stands for.
    pub fn through(&self) -> u32 {
        self.number.saturating_add(self.folded)
    }

    /// "Season 3", or for a folded run "Seasons 12–40 (nothing entered)".
    pub fn title(&self) -> String {
        match self.folded {
            0 => format!("Season {}", self.number),
            _ => format!(
                "Seasons {}–{} (nothing entered)",
                self.number,
                self.through()
            ),
        }
    }
}
