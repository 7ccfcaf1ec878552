//! A ladder's rules: which rating system it runs, with which parameters.

pub use crate::calendar::Calendar;
pub use crate::systems::System;
use crate::systems::{ADVANTAGE, Facts, OBSERVED_DRAW_RATE, Param};
use crate::tiers::TierTable;
use rungs_rating::margin::{Margin, UnknownMargin};
use rungs_rating::{elo, glicko, glicko2, goals, memoir44, trueskill};
use serde::{Deserialize, Serialize};

/// Parameters the file leaves out while they are 0 (`skip_serializing_if`): their names, so
/// that the parameter list still shows them.
const SKIPPED_AT_ZERO: &[&str] = &["entry", "entry_offset", "rating_period_days"];

/// Skyweaver, as its white paper sets it (with the design notes' defaults where the paper
/// gives none): Glicko-1 matchmaking rating and Rank Points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkyweaverParams {
    /// A new player's rating r (1500).
    pub initial_rating: f64,
    /// RD_init: a new player's RD and the ceiling of RD growth (350).
    pub initial_deviation: f64,
    /// RD_min, the floor under RD (30).
    pub min_deviation: f64,
    /// c, RD growth per rating period (34.6): a calendar week under a scheduled calendar
    /// (N/7 periods a scheduled soft reset), one soft reset pressed by hand.
    pub c: f64,
    /// RD growth per idle day, applied before a player's next match as eq. 1 with days for
    /// periods (0: off, as before the parameter; RD then grows only at soft resets).
    pub c_per_day: f64,
    /// Where a newcomer starts against a rated player ([`glicko::Config::entry`]; 0 and 0:
    /// at the initial rating). Written only when set, so that a file and its exported log
    /// under rules without them read as before the parameters (`SKIPPED_AT_ZERO`).
    #[serde(skip_serializing_if = "is_zero")]
    pub entry: f64,
    #[serde(skip_serializing_if = "is_zero")]
    pub entry_offset: f64,
    /// f_min: how much the MMR change counts at 200 RP, rising to 1 at 1200 (0.25).
    pub f_min: f64,
    /// b_min: the win bias at and above 1200 RP (5).
    pub b_min: f64,
    /// b_max: the win bias at 200 RP (25).
    pub b_max: f64,
    /// a: the bonus for a third straight win (0: off, as the paper's first draft).
    pub a: f64,
    /// RP of a new player (200, Wanderer).
    pub initial_rp: f64,
    /// Grandweaver: the top N players at Master or above (100 in the paper).
    pub grandweaver_count: u32,
    /// The MMR span of a hard reset: r' = 1500 + (r − r_lo)/(r_hi − r_lo)·span (750).
    pub hard_reset_span: f64,
    /// Matches before a player is listed on the leaderboard (0: from the start).
    pub provisional_games: u32,
    /// Days without a match after which a player leaves the leaderboard (0: never).
    pub idle_days: u32,
    /// Rating periods as Glickman's papers run them ([`RATING_PERIOD_DAYS`]).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rating_period_days: u32,
    /// The RP minimum of each tier, Wanderer to Master (`rungs tiers` cuts them to a target
    /// distribution). Written only when they differ from Table 1, so that every file and
    /// log from before reads, and is written, as it was.
    #[serde(default, skip_serializing_if = "TierTable::is_table_1")]
    pub tier_minimums: TierTable,
}

/// The name of Skyweaver's tier minimums, a list rather than one number: `--param
/// tier_minimums=200,300,…,1200` (11 numbers, Wanderer first).
pub const TIER_MINIMUMS: &str = "tier_minimums";

/// The meaning of `rating_period_days` (Skyweaver and INVERSUS): 0, the default, rates each
/// match as its own rating period (as both papers do); N > 0 rates every game of an N-day
/// period together, as Glickman's papers "The Glicko system" and "Example of the Glicko-2
/// system" do: each game of the period is scored against the ratings every player had when
/// the period began, and after each game the player's rating is the period's update over
/// the games played in it so far, so that after its last game it is Glickman's update of
/// the whole period. Periods are counted from Monday 2001-01-01 (7: calendar weeks from
/// Monday). Within a period the side advantage, the margin and class factors and a
/// newcomer's entry are not applied: Glickman's period update has none of them.
pub const RATING_PERIOD_DAYS: &str = "rating_period_days";

fn is_zero_u32(x: &u32) -> bool {
    *x == 0
}

impl Default for SkyweaverParams {
    fn default() -> Self {
        let g = glicko::Config::default();
        SkyweaverParams {
            initial_rating: g.initial_rating,
            initial_deviation: g.initial_deviation,
            min_deviation: g.min_deviation,
            c: g.c,
            c_per_day: 0.0,
            entry: g.entry,
            entry_offset: g.entry_offset,
            f_min: 0.25,
            b_min: 5.0,
            b_max: 25.0,
            a: 0.0,
            initial_rp: 200.0,
            grandweaver_count: 100,
            hard_reset_span: 750.0,
            provisional_games: 0,
            idle_days: DEFAULT_IDLE_DAYS,
            rating_period_days: 0,
            tier_minimums: TierTable::TABLE_1,
        }
    }
}

impl SkyweaverParams {
    pub fn glicko(&self) -> glicko::Config {
        glicko::Config {
            initial_rating: self.initial_rating,
            initial_deviation: self.initial_deviation,
            min_deviation: self.min_deviation,
            c: self.c,
            entry: self.entry,
            entry_offset: self.entry_offset,
        }
    }
}

/// INVERSUS Deluxe, as its ranking notes set it: bounded Glicko-2 and Rank Points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InversusParams {
    #[serde(flatten, deserialize_with = "inversus_glicko2")]
    pub glicko2: glicko2::Config,
    /// Days of real time per rating period of inactivity (14).
    pub days_per_period: f64,
    /// The share of the way to the target RP that one match moves (0.5).
    pub approach: f64,
    /// The largest RP change of one match (500).
    pub max_step: f64,
    /// The upset bonus at the largest possible μ gap (250).
    pub upset_bonus: f64,
    /// Matches before a player is listed on the leaderboard (0: from the start).
    pub provisional_games: u32,
    /// Days without a match after which a player leaves the leaderboard (0: never).
    pub idle_days: u32,
    /// Rating periods as Glickman's papers run them ([`RATING_PERIOD_DAYS`]).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rating_period_days: u32,
}

/// INVERSUS's Glicko-2 constants as read from a file or a log: each one left out is
/// INVERSUS's own ([`glicko2::Config::inversus`]: μ within ±6.045, φ within 0.175 … 2.015),
/// as every other parameter left out is its system's default — not plain Glicko-2's
/// unbounded defaults, which the parameters' ranges then refused ("min_mu −1.797e308 is
/// outside its range").
fn inversus_glicko2<'de, D: serde::Deserializer<'de>>(d: D) -> Result<glicko2::Config, D::Error> {
    use serde::de::Error;
    use serde_json::{Map, Value};
    let given = Map::<String, Value>::deserialize(d)?;
    let mut full = match serde_json::to_value(glicko2::Config::inversus()) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    full.extend(given);
    serde_json::from_value(Value::Object(full)).map_err(D::Error::custom)
}

impl Default for InversusParams {
    fn default() -> Self {
        InversusParams {
            glicko2: glicko2::Config::inversus(),
            days_per_period: 14.0,
            approach: 0.5,
            max_step: 500.0,
            upset_bonus: 250.0,
            provisional_games: 0,
            idle_days: DEFAULT_IDLE_DAYS,
            rating_period_days: 0,
        }
    }
}

/// A year without a match takes a player off the leaderboard of the systems whose papers set
/// no idle rule (Skyweaver, INVERSUS, AllegSkill, Elo); their history stays and a match
/// brings them back.
pub const DEFAULT_IDLE_DAYS: u32 = 365;

/// Plain Elo: the rating constants, and who the displayed leaderboard leaves off.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EloParams {
    #[serde(flatten)]
    pub elo: elo::Config,
    /// Matches before a player is listed on the leaderboard (0: from the start).
    pub provisional_games: u32,
    /// Days without a match after which a player leaves the leaderboard (0: never).
    pub idle_days: u32,
}

impl Default for EloParams {
    fn default() -> Self {
        EloParams {
            elo: elo::Config::default(),
            provisional_games: 0,
            idle_days: DEFAULT_IDLE_DAYS,
        }
    }
}

/// The rating math reads the Elo constants straight through (`p.k`, `elo::rate(…, p)`).
impl std::ops::Deref for EloParams {
    type Target = elo::Config;
    fn deref(&self) -> &elo::Config {
        &self.elo
    }
}
/// AllegSkill, as its ranking page sets it: TrueSkill, and who the displayed leaderboard
/// leaves off.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AllegskillParams {
    #[serde(flatten)]
    pub trueskill: trueskill::Config,
    /// Games before a player enters the leaderboard (0: AllegSkill's page sets no count; the shown
    /// rank μ − 3σ starts at 0 and climbs as σ falls, its own provisional period).
    pub provisional_games: u32,
    /// Days without a game after which a player leaves the displayed leaderboard (365, as
    /// under the other systems whose papers set no idle rule).
    pub idle_days: u32,
    /// The ladder's draw rate p, from which ε is derived with β (the standard TrueSkill relation
    /// ε = √2·β·Φ⁻¹((p + 1)/2)); 0, the default and what older files read as, means "use
    /// `epsilon` as set"; [`OBSERVED_DRAW_RATE`] (`observed`) the ladder's own rate so far.
    pub draw_rate: f64,
}

/// How many matches the prior of `draw_rate=observed` weighs: the rate starts at the one
/// the typed ε stands for and moves toward the ladder's as its matches outnumber these.
/// AllegSkill's page has a rate of about 1 %, so a hundred matches hold about one draw.
pub const DRAW_PRIOR_MATCHES: f64 = 100.0;

impl Default for AllegskillParams {
    fn default() -> Self {
        AllegskillParams {
            trueskill: trueskill::Config::default(),
            provisional_games: 0,
            idle_days: DEFAULT_IDLE_DAYS,
            draw_rate: 0.0,
        }
    }
}

impl AllegskillParams {
    /// The TrueSkill constants to rate and predict with: `trueskill` as set, with ε derived
    /// from `draw_rate` when that is above 0. Every user of the configuration goes through
    /// here.
    pub fn effective_trueskill(&self) -> trueskill::Config {
        self.trueskill_after(0, 0)
    }

    /// The TrueSkill constants after `played` matches of which `drawn` were draws: with
    /// `draw_rate=observed` (AllegSkill's ranking page: ε "derived empirically from the
    /// percentage of games which result in a draw") the rate is p = (drawn + n·p₀)/(played + n),
    /// n = [`DRAW_PRIOR_MATCHES`] and p₀ = 2·Φ(ε/(√2·β)) − 1 the rate the typed ε stands for,
    /// so a ladder with no matches keeps ε as typed. Otherwise as
    /// [`Self::effective_trueskill`].
    pub fn trueskill_after(&self, played: u64, drawn: u64) -> trueskill::Config {
        let mut config = self.trueskill;
        if self.draw_rate == OBSERVED_DRAW_RATE {
            let p0 =
                2.0 * rungs_rating::normal::cdf(
                    config.epsilon / (std::f64::consts::SQRT_2 * config.beta),
                ) - 1.0;
            let p = (drawn as f64 + DRAW_PRIOR_MATCHES * p0) / (played as f64 + DRAW_PRIOR_MATCHES);
            config.epsilon = config.epsilon_for_draw_rate(p);
        } else if self.draw_rate > 0.0 {
            config.epsilon = config.epsilon_for_draw_rate(self.draw_rate);
        }
        config
    }
}
/// Memoir '44 Online's Skill ranking: Elo weighed by the scenario's record.
pub type Memoir44Params = memoir44::Config;

/// The goals model: attack and defence from the score, with a weight per event
/// class on each match's step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GoalsParams {
    #[serde(flatten)]
    pub goals: goals::Config,
    /// The step's weight for a friendly, a league match, a cup match, a championship's.
    pub w_friendly: f64,
    pub w_league: f64,
    pub w_cup: f64,
    pub w_championship: f64,
    /// How far a newcomer starts at the pool's mean attack and defence, the mean over every
    /// rated side when it arrives (`goals::Pool`, kept by the replay), added to `entry`'s
    /// part and `entry_offset` (0: not at all, as before the parameter). The mean is where
    /// the pool has actually wandered, which `entry` only guesses from one opponent.
    pub entry_pool: f64,
    /// Matches before a player is listed on the leaderboard (0: from the start).
    pub provisional_games: u32,
    /// Days without a match after which a player leaves the leaderboard (0: never).
    pub idle_days: u32,
}

impl Default for GoalsParams {
    fn default() -> Self {
        GoalsParams {
            goals: goals::Config::default(),
            w_friendly: 1.0,
            w_league: 1.0,
            w_cup: 1.0,
            w_championship: 1.0,
            entry_pool: 0.0,
            provisional_games: 0,
            idle_days: DEFAULT_IDLE_DAYS,
        }
    }
}

impl GoalsParams {
    /// The weight of a match's class: its class's, the number it gives, or 1 without one.
    pub fn weight(&self, class: Option<crate::score::EventClass>) -> f64 {
        use crate::score::EventClass as C;
        match class {
            None => 1.0,
            Some(C::Friendly) => self.w_friendly,
            Some(C::League) => self.w_league,
            Some(C::Cup) => self.w_cup,
            Some(C::Championship) => self.w_championship,
            Some(C::Weight(w)) => w,
        }
    }
}

/// A system with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", content = "params", rename_all = "snake_case")]
pub enum Params {
    Skyweaver(SkyweaverParams),
    Inversus(InversusParams),
    Allegskill(AllegskillParams),
    Memoir44(Memoir44Params),
    Elo(EloParams),
    Goals(GoalsParams),
}

/// A ladder's rules: the rating system with its parameters. Stored as
/// `{"system": "elo", "params": {…}}`; what every system shares sits beside them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "UncheckedRules")]
pub struct Rules {
    #[serde(flatten)]
    pub params: Params,
    /// The side advantage, in rating points on the 1500 scale, shared by every
    /// system: added to the rating of the side a match marks as at home or moving first, in
    /// the expected score and in the update. Stored beside the params only when not 0, so
    /// files from before it read, and write, as they did.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub advantage: f64,
    /// When resets happen (the season calendar). Manual is left out of the stored form, so
    /// files and logs from before the calendar read, and are written, as they were.
    #[serde(default, skip_serializing_if = "Calendar::is_manual")]
    pub calendar: Calendar,
    /// Margin of victory and event importance for the Elo/Glicko family, the
    /// ladder's like the side advantage; stored only when not the default (no margin, every
    /// class 1), so earlier files read and write as before.
    #[serde(default, skip_serializing_if = "MarginRules::is_default")]
    pub margin: MarginRules,
}

/// How the score and the event's class scale an Elo/Glicko-family update.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MarginRules {
    /// The margin option, stored as its code (0 to 3).
    pub margin: Margin,
    /// The update's multiplier for a friendly, a league match, a cup match, a championship's.
    pub k_friendly: f64,
    pub k_league: f64,
    pub k_cup: f64,
    pub k_championship: f64,
    /// γ, how strongly the margin counts: the option's multiplier m is used as m^γ (1: as
    /// the option says; 0: no margin; between, a milder one the fit can find).
    pub margin_power: f64,
}

impl Default for MarginRules {
    fn default() -> Self {
        MarginRules {
            margin: Margin::None,
            margin_power: 1.0,
            k_friendly: 1.0,
            k_league: 1.0,
            k_cup: 1.0,
            k_championship: 1.0,
        }
    }
}

impl MarginRules {
    #[inline]
    pub fn is_default(&self) -> bool {
        *self == MarginRules::default()
    }

    /// The names of the parameters, as declared (`systems::MARGIN_PARAMS`).
    const NAMES: [&'static str; 6] = [
        "margin",
        "margin_power",
        "k_friendly",
        "k_league",
        "k_cup",
        "k_championship",
    ];

    fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "margin" => self.margin.code(),
            "margin_power" => self.margin_power,
            "k_friendly" => self.k_friendly,
            "k_league" => self.k_league,
            "k_cup" => self.k_cup,
            "k_championship" => self.k_championship,
            _ => return None,
        })
    }

    /// Sets parameter `name`, if it is one of these; `None` if it is not. The margin takes
    /// only an option's code.
    fn set(&mut self, name: &str, value: f64) -> Option<Result<(), UnknownMargin>> {
        let slot = match name {
            "margin" => return Some(Margin::from_code(value).map(|m| self.margin = m)),
            "margin_power" => &mut self.margin_power,
            "k_friendly" => &mut self.k_friendly,
            "k_league" => &mut self.k_league,
            "k_cup" => &mut self.k_cup,
            "k_championship" => &mut self.k_championship,
            _ => return None,
        };
        *slot = value;
        Some(Ok(()))
    }

    /// The multiplier of a match's update: its class's weight (a number class is its own
    /// weight; no class, 1) times the margin option's factor for its score, the winner
    /// leading by `winner_lead` rating points going in. 1 without score or class.
    pub fn factor(
        &self,
        class: Option<crate::score::EventClass>,
        goals: Option<[u32; 2]>,
        winner_lead: f64,
    ) -> f64 {
        use crate::score::EventClass as C;
        let class = match class {
            None => 1.0,
            Some(C::Friendly) => self.k_friendly,
            Some(C::League) => self.k_league,
            Some(C::Cup) => self.k_cup,
            Some(C::Championship) => self.k_championship,
            Some(C::Weight(w)) => w,
        };
        let difference = goals.map(|[a, b]| a.abs_diff(b));
        let m = rungs_rating::margin::multiplier(self.margin, difference, winner_lead);
        // m^1 is m to the bit, but the default path need not rely on powf for it.
        let m = if self.margin_power == 1.0 {
            m
        } else {
            let p = m.powf(self.margin_power);
            if p.is_finite() { p } else { 1.0 }
        };
        class * m
    }
}

/// Rules as read, before their ranges are checked: every [`Rules`] read — from a ladder's
/// file, its log, an imported log or the app's settings — passes [`Rules::check`], so a value
/// another program wrote there (`k = -1e308`) is refused by name instead of replayed.
#[derive(Deserialize)]
struct UncheckedRules {
    #[serde(flatten)]
    params: Params,
    #[serde(default)]
    advantage: f64,
    #[serde(default)]
    calendar: Calendar,
    #[serde(default)]
    margin: MarginRules,
}

impl TryFrom<UncheckedRules> for Rules {
    type Error = ParamError;

    fn try_from(r: UncheckedRules) -> Result<Rules, ParamError> {
        let rules = Rules {
            params: r.params,
            advantage: r.advantage,
            calendar: r.calendar,
            margin: r.margin,
        };
        rules.check()?;
        Ok(rules)
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for Rules {
    fn default() -> Self {
        Rules::defaults(System::Skyweaver)
    }
}

impl From<Params> for Rules {
    fn from(params: Params) -> Rules {
        Rules {
            params,
            advantage: 0.0,
            calendar: Calendar::Manual,
            margin: MarginRules::default(),
        }
    }
}

/// A parameter that could not be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("`{0}` is not NAME=VALUE")]
    Syntax(String),
    #[error("{system} has no parameter `{name}`; it has: {known}")]
    Unknown {
        system: System,
        name: String,
        known: String,
    },
    #[error("parameter `{name}`: `{value}` is not a number")]
    Value { name: String, value: String },
    #[error("parameter `{name}` ({label}): {value} is outside its range; give {range}")]
    Range {
        name: String,
        label: String,
        value: String,
        range: String,
    },
    #[error(transparent)]
    Calendar(#[from] crate::calendar::CalendarError),
}

impl ParamError {
    fn range(spec: &Param, value: f64) -> ParamError {
        ParamError::Range {
            name: spec.name.into(),
            label: spec.label.into(),
            value: crate::values::number_text(value),
            range: spec.range_text(),
        }
    }
}

/// The declaration of `system`'s parameter `name`, or the error that lists its parameters.
pub fn declared(system: System, name: &str) -> Result<&'static Param, ParamError> {
    system.param(name).ok_or_else(|| {
        let known: Vec<&str> = system.facts().params.iter().map(|p| p.name).collect();
        ParamError::Unknown {
            system,
            name: name.to_string(),
            known: known.join(", "),
        }
    })
}

impl Rules {
    /// The system at its defaults.
    pub fn defaults(system: System) -> Rules {
        let params = match system {
            System::Skyweaver => Params::Skyweaver(SkyweaverParams::default()),
            System::Inversus => Params::Inversus(InversusParams::default()),
            System::Allegskill => Params::Allegskill(AllegskillParams::default()),
            System::Memoir44 => Params::Memoir44(Memoir44Params::default()),
            System::Elo => Params::Elo(EloParams::default()),
            System::Goals => Params::Goals(GoalsParams::default()),
        };
        Rules::from(params)
    }

    /// `system`'s defaults under this ladder's side advantage and season calendar: what
    /// switching a ladder to another system starts from (the advantage and the calendar
    /// belong to the ladder, not to a rating system).
    pub fn defaults_for(&self, system: System) -> Rules {
        Rules {
            advantage: self.advantage,
            calendar: self.calendar,
            margin: self.margin,
            ..Rules::defaults(system)
        }
    }

    /// The length in days of the rating periods whose games are rated together
    /// ([`RATING_PERIOD_DAYS`]); `None` when each match is its own period.
    pub fn rating_period_days(&self) -> Option<u32> {
        let days = match &self.params {
            Params::Skyweaver(p) => p.rating_period_days,
            Params::Inversus(p) => p.rating_period_days,
            _ => 0,
        };
        (days > 0).then_some(days)
    }

    /// The tier minimums in force: Skyweaver's own, Table 1 for any other system.
    pub fn tier_table(&self) -> TierTable {
        match &self.params {
            Params::Skyweaver(p) => p.tier_minimums,
            _ => TierTable::TABLE_1,
        }
    }

    pub fn system(&self) -> System {
        match self.params {
            Params::Skyweaver(_) => System::Skyweaver,
            Params::Inversus(_) => System::Inversus,
            Params::Allegskill(_) => System::Allegskill,
            Params::Memoir44(_) => System::Memoir44,
            Params::Elo(_) => System::Elo,
            Params::Goals(_) => System::Goals,
        }
    }

    pub fn facts(&self) -> &'static Facts {
        self.system().facts()
    }

    /// The parameters as a JSON object, name → number, as the file stores them, with the
    /// shared side advantage among them.
    fn json_params(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut params = match serde_json::to_value(&self.params) {
            Ok(serde_json::Value::Object(mut m)) => match m.remove("params") {
                Some(serde_json::Value::Object(p)) => p,
                _ => serde_json::Map::new(),
            },
            _ => serde_json::Map::new(),
        };
        for name in SKIPPED_AT_ZERO {
            if let Some(spec) = self.system().param(name)
                && !params.contains_key(*name)
            {
                // A whole-number parameter reads back only from a whole number.
                let zero = if spec.integer { 0.into() } else { 0.0.into() };
                params.insert((*name).into(), zero);
            }
        }
        params.insert(ADVANTAGE.name.into(), self.advantage.into());
        for name in MarginRules::NAMES {
            if self.system().param(name).is_some() {
                params.insert(
                    name.into(),
                    self.margin.get(name).unwrap_or(f64::NAN).into(),
                );
            }
        }
        params
    }

    /// The side advantage in the system's own units: rating points for Glicko-1,
    /// Elo and Memoir '44; μ units for Glicko-2 (÷ 173.7178) and TrueSkill (÷ 42, the
    /// mapping under which 25 ± 25/3 reads 1500 ± 350).
    pub fn advantage_native(&self) -> f64 {
        match self.params {
            Params::Skyweaver(_) | Params::Memoir44(_) | Params::Elo(_) => self.advantage,
            Params::Inversus(_) => self.advantage / glicko2::SCALE,
            Params::Allegskill(_) => self.advantage / trueskill::POINTS_PER_MU,
            Params::Goals(_) => self.advantage / goals::ADVANTAGE_POINTS_PER_LOG,
        }
    }

    /// Every parameter with its value, in the order the system declares them.
    pub fn param_values(&self) -> Vec<(&'static Param, f64)> {
        let values = self.json_params();
        self.facts()
            .params
            .iter()
            .map(|p| {
                (
                    p,
                    values
                        .get(p.name)
                        .and_then(|v| v.as_f64())
                        .unwrap_or(f64::NAN),
                )
            })
            .collect()
    }

    /// The value of parameter `name`, if the system has it.
    pub fn param(&self, name: &str) -> Option<f64> {
        self.json_params().get(name).and_then(|v| v.as_f64())
    }

    /// Sets parameter `name` to `value`, which must lie in its declared range.
    pub fn set_param(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let system = self.system();
        let spec = declared(system, name)?;
        if !spec.admits(value) {
            return Err(ParamError::range(spec, value));
        }
        if name == ADVANTAGE.name {
            self.advantage = value;
            return Ok(());
        }
        if let Some(set) = self.margin.set(name, value) {
            return set.map_err(|_| ParamError::range(spec, value));
        }
        let mut params = self.json_params();
        params.remove(ADVANTAGE.name);
        for name in MarginRules::NAMES {
            params.remove(name);
        }
        let number = if spec.integer {
            serde_json::Value::from(value as u64)
        } else {
            serde_json::Value::from(value)
        };
        params.insert(name.to_string(), number);
        let rebuilt = serde_json::json!({ "system": system.name(), "params": params });
        self.params =
            serde_json::from_value(rebuilt).map_err(|_| ParamError::range(spec, value))?;
        Ok(())
    }

    /// Sets one parameter from `NAME=VALUE` text.
    pub fn assign(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::Syntax(assignment.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        if let (Params::Skyweaver(p), TIER_MINIMUMS) = (&mut self.params, name) {
            p.tier_minimums = TierTable::parse(value).map_err(tier_error)?;
            return Ok(());
        }
        if self.system().param(name).is_none() {
            return self.set_param(name, 0.0); // the unknown-parameter message
        }
        let number =
            declared(self.system(), name)?
                .parse(value)
                .ok_or_else(|| ParamError::Value {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
        self.set_param(name, number)
    }

    /// Whether every parameter lies in its declared range (rules read from a file or a log),
    /// the calendar's settings included.
    pub fn check(&self) -> Result<(), ParamError> {
        for (spec, value) in self.param_values() {
            if !spec.admits(value) {
                return Err(ParamError::range(spec, value));
            }
        }
        if let Params::Skyweaver(p) = &self.params {
            p.tier_minimums.check().map_err(tier_error)?;
        }
        self.calendar.check().map_err(ParamError::Calendar)
    }
}

/// A refused table of tier minimums as a parameter's range error, naming the tier.
fn tier_error(e: crate::tiers::TierTableError) -> ParamError {
    ParamError::Range {
        name: TIER_MINIMUMS.into(),
        label: e.subject(),
        value: e.value,
        range: e.give,
    }
}

/// The rules in a few words: the system and every parameter that differs from its defaults
/// (Elo always shows its K, the figure people compare by), and the season calendar if it is
/// not manual.
pub fn label(rules: &Rules) -> String {
    let defaults = Rules::defaults(rules.system());
    let elo = rules.system() == System::Elo;
    let mut parts: Vec<String> = rules
        .param_values()
        .into_iter()
        .filter(|(p, v)| (elo && p.name == "k") || defaults.param(p.name) != Some(*v))
        .map(|(p, v)| match (elo, p.name) {
            (true, "k") => format!("K={v}"),
            _ => format!("{}={}", p.name, p.value_text(v)),
        })
        .collect();
    if let Params::Skyweaver(p) = &rules.params
        && !p.tier_minimums.is_table_1()
    {
        parts.push(format!("{TIER_MINIMUMS}={}", p.tier_minimums.text()));
    }
    let base = if parts.is_empty() {
        format!("{} (defaults)", rules.system())
    } else {
        format!("{} {}", rules.system(), parts.join(" "))
    };
    match rules.calendar.schedule() {
        None => base,
        Some(_) => format!("{base}, calendar {}", rules.calendar.brief()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The margin is one of its four options: set by its code and stored as the number it
    /// always was (so a file's rules are the same bytes), and a code that names no option is
    /// refused where it is typed and where it is read, never taken as no margin.
    #[test]
    fn the_margin_is_one_of_its_options() {
        let mut rules = Rules::defaults(System::Elo);
        rules.set_param("margin", 2.0).unwrap();
        assert_eq!(rules.margin.margin, Margin::Log);
        assert_eq!(rules.param("margin"), Some(2.0));
        let json = serde_json::to_string(&rules).unwrap();
        assert!(json.contains(r#""margin":{"margin":2.0,"#), "{json}");
        let read: Rules = serde_json::from_str(&json).unwrap();
        assert_eq!(read, rules);
        assert_eq!(serde_json::to_string(&read).unwrap(), json);
        assert!(rules.set_param("margin", 1.5).is_err());
        assert_eq!(rules.margin.margin, Margin::Log);
        let unknown = json.replace(r#""margin":2.0"#, r#""margin":7.0"#);
        let e = serde_json::from_str::<Rules>(&unknown)
            .unwrap_err()
            .to_string();
        assert!(e.contains("margin 7 is not an option"), "{e}");
    }

    /// Rules read from JSON (a file's, a log's) are range-checked like rules typed in.
    #[test]
    fn rules_read_from_json_are_checked() {
        let good: Rules = serde_json::from_str(r#"{"system":"elo","params":{"k":20}}"#).unwrap();
        assert_eq!(good.param("k"), Some(20.0));
        let e = serde_json::from_str::<Rules>(r#"{"system":"elo","params":{"k":-1e308}}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("parameter `k` (K factor): -1e308 is outside its range"),
            "{e}"
        );
        let e = serde_json::from_str::<Rules>(
            r#"{"system":"elo","params":{"k":20},"advantage":1e300}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`advantage`"), "{e}");
    }

    #[test]
    fn params_are_set_by_name() {
        let mut rules = Rules::defaults(System::Elo);
        rules.assign("k=20").unwrap();
        assert_eq!(
            rules.params,
            Params::Elo(EloParams {
                elo: elo::Config {
                    k: 20.0,
                    ..Default::default()
                },
                ..Default::default()
            })
        );
        let mut sky = Rules::default();
        sky.assign("grandweaver_count=3").unwrap();
        sky.assign("f_min = 0.5").unwrap();
        let Params::Skyweaver(p) = sky.params else {
            panic!()
        };
        assert_eq!((p.grandweaver_count, p.f_min), (3, 0.5));
        let mut inv = Rules::defaults(System::Inversus);
        inv.assign("tau=0.3").unwrap();
        let Params::Inversus(p) = inv.params else {
            panic!()
        };
        assert_eq!(p.glicko2.tau, 0.3);
        assert_eq!(inv.param("tau"), Some(0.3));
    }

    #[test]
    fn bad_params_are_refused_with_their_name_and_range() {
        let mut rules = Rules::defaults(System::Elo);
        let e = rules.assign("q=1").unwrap_err().to_string();
        assert!(e.contains("`q`") && e.contains("k"), "{e}");
        let e = rules.assign("k=abc").unwrap_err().to_string();
        assert!(e.contains("`k`") && e.contains("abc"), "{e}");
        // A negative K would rank the player who lost most first.
        let e = rules.assign("k=-5").unwrap_err().to_string();
        assert!(e.contains("`k`") && e.contains("from 0 to 400"), "{e}");
        let e = rules.assign("k=-1e308").unwrap_err().to_string();
        assert!(e.contains("-1e308 is outside") && e.len() < 200, "{e}");
        assert!(rules.assign("k=inf").is_err());
        assert!(rules.assign("k=NaN").is_err());
        assert!(rules.assign("k").is_err());
        let mut sky = Rules::default();
        assert!(sky.assign("grandweaver_count=2.5").is_err());
        assert!(sky.assign("grandweaver_count=-1").is_err());
        let mut inv = Rules::defaults(System::Inversus);
        let e = inv.assign("max_step=-1").unwrap_err().to_string();
        assert!(
            e.contains("max_step") && e.contains("from 1 to 10000"),
            "{e}"
        );
        let mut ts = Rules::defaults(System::Allegskill);
        assert!(ts.assign("epsilon=0").is_err());
        assert!(ts.assign("beta=1e308").is_err());
        assert_eq!(rules, Rules::defaults(System::Elo));
    }

    #[test]
    fn every_parameter_is_declared_once_and_defaults_lie_in_range() {
        for s in System::ALL {
            let rules = Rules::defaults(s);
            let stored: Vec<String> = rules.json_params().keys().cloned().collect();
            let mut declared: Vec<String> = s
                .facts()
                .params
                .iter()
                .map(|p| p.name.to_string())
                .collect();
            declared.sort();
            let mut stored_sorted = stored.clone();
            stored_sorted.sort();
            assert_eq!(stored_sorted, declared, "{s}");
            assert_eq!(rules.check(), Ok(()), "{s}");
        }
    }

    #[test]
    fn rules_round_trip_through_json() {
        for s in System::ALL {
            let r = Rules::defaults(s);
            let text = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), r, "{text}");
        }
        // The stored form adds the leaderboard's two numbers; files written before them read
        // as the defaults.
        let text = serde_json::to_string(&Rules::defaults(System::Elo)).unwrap();
        assert_eq!(
            text,
            r#"{"system":"elo","params":{"initial_rating":1500.0,"k":32.0,"provisional_games":0,"idle_days":365}}"#
        );
        let old = r#"{"system":"elo","params":{"initial_rating":1500.0,"k":32.0}}"#;
        assert_eq!(
            serde_json::from_str::<Rules>(old).unwrap(),
            Rules::defaults(System::Elo)
        );
    }

    /// Skyweaver's rules as every file before the tier minimums wrote them: read and written
    /// again, still without a `tier_minimums` key; other minimums are written, read back and
    /// refused by tier when wrong.
    #[test]
    fn tier_minimums_are_written_only_when_not_table_1() {
        let old = serde_json::to_string(&Rules::default()).unwrap();
        assert!(!old.contains("tier_minimums"), "{old}");
        let read: Rules = serde_json::from_str(&old).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
        let mut cut = Rules::default();
        cut.assign("tier_minimums=200, 280,360,450,550,650,750,850,950,1050,1150")
            .unwrap();
        let text = serde_json::to_string(&cut).unwrap();
        assert!(
            text.contains(r#""tier_minimums":[200.0,280.0,360.0,"#),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), cut);
        assert!(
            label(&cut).contains("tier_minimums=200,280,360,"),
            "{}",
            label(&cut)
        );
        let hostile = [
            (
                "[200,300,300,500,600,700,800,900,1000,1100,1200]",
                "Trainee II's minimum",
            ),
            (
                "[200,300,400,500,600,700,800,900,1000,1100,1e308]",
                "Master's minimum",
            ),
            (
                "[-5,300,400,500,600,700,800,900,1000,1100,1200]",
                "Wanderer's minimum",
            ),
            ("[200,300]", "2 numbers"),
            (
                "[200,300,400,500,600,700,800,900,1000,1100,1200,1300]",
                "more than 11",
            ),
        ];
        for (list, named) in hostile {
            let json = old.replace(r#""rating_period_days""#, "x").replace(
                r#""grandweaver_count""#,
                &format!(r#""tier_minimums":{list},"grandweaver_count""#),
            );
            let e = serde_json::from_str::<Rules>(&json)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(named) && e.contains("tier_minimums"),
                "{list}: {e}"
            );
        }
        let mut sky = Rules::default();
        let e = sky.assign("tier_minimums=200,300,NaN,500,600,700,800,900,1000,1100,1200");
        assert!(e.unwrap_err().to_string().contains("Trainee II"));
        assert!(sky.assign("tier_minimums=1,2,3").is_err());
        assert_eq!(sky, Rules::default());
    }
}
