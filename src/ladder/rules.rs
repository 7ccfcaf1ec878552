//! A ladder's rules: which rating system it runs, with which parameters.

use crate::rating::{elo, glicko, glicko2, memoir44, trueskill};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The rating systems a ladder can run (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Skyweaver,
    Inversus,
    Allegskill,
    Memoir44,
    Elo,
}

impl System {
    pub const ALL: [System; 5] = [
        System::Skyweaver,
        System::Inversus,
        System::Allegskill,
        System::Memoir44,
        System::Elo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            System::Skyweaver => "skyweaver",
            System::Inversus => "inversus",
            System::Allegskill => "allegskill",
            System::Memoir44 => "memoir44",
            System::Elo => "elo",
        }
    }

    pub fn parse(name: &str) -> Option<System> {
        System::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Skyweaver (seed 003, SPEC §2.1): Glicko-1 matchmaking rating and Rank Points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkyweaverParams {
    /// A new player's rating r (1500).
    pub initial_rating: f64,
    /// RD_init: a new player's RD and the ceiling of RD growth (350).
    pub initial_deviation: f64,
    /// RD_min, the floor under RD (30).
    pub min_deviation: f64,
    /// c, RD growth per rating period, i.e. per soft reset (34.6).
    pub c: f64,
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
}

impl Default for SkyweaverParams {
    fn default() -> Self {
        let g = glicko::Config::default();
        SkyweaverParams {
            initial_rating: g.initial_rating,
            initial_deviation: g.initial_deviation,
            min_deviation: g.min_deviation,
            c: g.c,
            f_min: 0.25,
            b_min: 5.0,
            b_max: 25.0,
            a: 0.0,
            initial_rp: 200.0,
            grandweaver_count: 100,
            hard_reset_span: 750.0,
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
        }
    }
}

/// INVERSUS Deluxe (seed 004, SPEC §2.2): bounded Glicko-2 and Rank Points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InversusParams {
    #[serde(flatten)]
    pub glicko2: glicko2::Config,
    /// Days of real time per rating period of inactivity (14).
    pub days_per_period: f64,
    /// The share of the way to the target RP that one match moves (0.5).
    pub approach: f64,
    /// The largest RP change of one match (500).
    pub max_step: f64,
    /// The upset bonus at the largest possible μ gap (250).
    pub upset_bonus: f64,
}

impl Default for InversusParams {
    fn default() -> Self {
        InversusParams {
            glicko2: glicko2::Config::inversus(),
            days_per_period: 14.0,
            approach: 0.5,
            max_step: 500.0,
            upset_bonus: 250.0,
        }
    }
}

/// Elo (SPEC §2.5).
pub type EloParams = elo::Config;
/// AllegSkill (SPEC §2.3): TrueSkill, and who the displayed leaderboard leaves off.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AllegskillParams {
    #[serde(flatten)]
    pub trueskill: trueskill::Config,
    /// Games before a player leaves provisional status and enters the leaderboard (20).
    pub provisional_games: u32,
    /// Days without a game after which a player leaves the displayed leaderboard (15).
    pub idle_days: u32,
    /// The ladder's draw rate p, from which ε is derived with β (SPEC §2.3:
    /// ε = √2·β·Φ⁻¹((p + 1)/2)); 0, the default and what older files read as, means "use
    /// `epsilon` as set".
    pub draw_rate: f64,
}

impl Default for AllegskillParams {
    fn default() -> Self {
        AllegskillParams {
            trueskill: trueskill::Config::default(),
            provisional_games: 20,
            idle_days: 15,
            draw_rate: 0.0,
        }
    }
}

impl AllegskillParams {
    /// The TrueSkill constants to rate and predict with: `trueskill` as set, with ε derived
    /// from `draw_rate` when that is above 0. Every user of the configuration goes through
    /// here.
    pub fn effective_trueskill(&self) -> trueskill::Config {
        let mut config = self.trueskill;
        if self.draw_rate > 0.0 {
            config.epsilon = config.epsilon_for_draw_rate(self.draw_rate);
        }
        config
    }
}
/// Memoir '44 (SPEC §2.4).
pub type Memoir44Params = memoir44::Config;

/// A system with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "system", content = "params", rename_all = "snake_case")]
pub enum Rules {
    Skyweaver(SkyweaverParams),
    Inversus(InversusParams),
    Allegskill(AllegskillParams),
    Memoir44(Memoir44Params),
    Elo(EloParams),
}

impl Default for Rules {
    fn default() -> Self {
        Rules::Skyweaver(SkyweaverParams::default())
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
    #[error("parameter `{name}`: `{value}` is not a finite number")]
    Value { name: String, value: String },
}

impl Rules {
    /// The system at its defaults.
    pub fn defaults(system: System) -> Rules {
        match system {
            System::Skyweaver => Rules::Skyweaver(SkyweaverParams::default()),
            System::Inversus => Rules::Inversus(InversusParams::default()),
            System::Allegskill => Rules::Allegskill(AllegskillParams::default()),
            System::Memoir44 => Rules::Memoir44(Memoir44Params::default()),
            System::Elo => Rules::Elo(EloParams::default()),
        }
    }

    pub fn system(&self) -> System {
        match self {
            Rules::Skyweaver(_) => System::Skyweaver,
            Rules::Inversus(_) => System::Inversus,
            Rules::Allegskill(_) => System::Allegskill,
            Rules::Memoir44(_) => System::Memoir44,
            Rules::Elo(_) => System::Elo,
        }
    }

    /// The parameters as a flat JSON object, name → number.
    pub fn params(&self) -> serde_json::Map<String, serde_json::Value> {
        let value = serde_json::to_value(self).unwrap_or_default();
        match value.get("params") {
            Some(serde_json::Value::Object(map)) => map.clone(),
            _ => serde_json::Map::new(),
        }
    }

    /// Sets one parameter from `NAME=VALUE` text.
    pub fn set_param(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::Syntax(assignment.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let mut params = self.params();
        let Some(slot) = params.get_mut(name) else {
            let known: Vec<String> = params.keys().cloned().collect();
            return Err(ParamError::Unknown {
                system: self.system(),
                name: name.to_string(),
                known: known.join(", "),
            });
        };
        let bad = || ParamError::Value {
            name: name.to_string(),
            value: value.to_string(),
        };
        let number: f64 = value.parse().map_err(|_| bad())?;
        if !number.is_finite() {
            return Err(bad());
        }
        *slot = if slot.is_u64() {
            if number < 0.0 || number.fract() != 0.0 || number > u32::MAX as f64 {
                return Err(bad());
            }
            serde_json::Value::from(number as u64)
        } else {
            serde_json::Value::from(number)
        };
        let rebuilt = serde_json::json!({ "system": self.system().name(), "params": params });
        *self = serde_json::from_value(rebuilt).map_err(|_| bad())?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_set_by_name() {
        let mut rules = Rules::defaults(System::Elo);
        rules.set_param("k=20").unwrap();
        assert_eq!(
            rules,
            Rules::Elo(elo::Config {
                k: 20.0,
                ..Default::default()
            })
        );
        let mut sky = Rules::default();
        sky.set_param("grandweaver_count=3").unwrap();
        sky.set_param("f_min = 0.5").unwrap();
        let Rules::Skyweaver(p) = sky else { panic!() };
        assert_eq!((p.grandweaver_count, p.f_min), (3, 0.5));
        let mut inv = Rules::defaults(System::Inversus);
        inv.set_param("tau=0.3").unwrap();
        let Rules::Inversus(p) = inv else { panic!() };
        assert_eq!(p.glicko2.tau, 0.3);
    }

    #[test]
    fn bad_params_are_refused_with_their_name() {
        let mut rules = Rules::defaults(System::Elo);
        let e = rules.set_param("q=1").unwrap_err().to_string();
        assert!(e.contains("`q`") && e.contains("k"), "{e}");
        let e = rules.set_param("k=abc").unwrap_err().to_string();
        assert!(e.contains("`k`") && e.contains("abc"), "{e}");
        assert!(rules.set_param("k=inf").is_err());
        assert!(rules.set_param("k").is_err());
        let mut sky = Rules::default();
        assert!(sky.set_param("grandweaver_count=2.5").is_err());
        assert_eq!(rules, Rules::defaults(System::Elo));
    }

    #[test]
    fn rules_round_trip_through_json() {
        for s in System::ALL {
            let r = Rules::defaults(s);
            let text = serde_json::to_string(&r).unwrap();
            assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), r, "{text}");
        }
    }
}
