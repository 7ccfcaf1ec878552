//! Memoir '44 scenario statistics, kept from the ladder's own history, as Memoir '44 Online's
//! Skill ranking weighs each battle by its scenario's record.

use crate::event::Match;
pub use crate::event::ScenarioOverride;
use rungs_rating::{Outcome, memoir44};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One scenario's record. Its two sides are named by the first two `side_a` values seen.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScenarioStats {
    pub sides: [Option<String>; 2],
    pub battles: u32,
    /// Wins per side (a draw counts half to each).
    pub wins: [f64; 2],
    /// Battles that carried medal scores, and the medals each side scored in them.
    pub medal_battles: u32,
    pub medals: [f64; 2],
    /// The sum of the squares of each side's medal counts, over the first `squared` battles
    /// with medals (all of them, unless the caches were written by a rungs that did not
    /// keep squares: then the spread is unknown until `rungs repair` replays the log).
    #[serde(default, skip_serializing_if = "is_zero_pair")]
    pub medal_squares: [f64; 2],
    #[serde(default, skip_serializing_if = "is_zero")]
    pub squared: u32,
}

fn is_zero_pair(x: &[f64; 2]) -> bool {
    *x == [0.0, 0.0]
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

impl ScenarioStats {
    /// Which side index `name` is, naming the second side on first sight.
    fn side_index(&mut self, name: &str) -> Option<usize> {
        for i in 0..2 {
            match &self.sides[i] {
                Some(s) if s.eq_ignore_ascii_case(name) => return Some(i),
                None => {
                    self.sides[i] = Some(name.to_string());
                    return Some(i);
                }
                _ => {}
            }
        }
        None
    }

    fn known_side(&self, name: &str) -> Option<usize> {
        (0..2).find(|&i| {
            self.sides[i]
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case(name))
        })
    }

    /// The side `name` plays before a battle: a side named already, or the second side when
    /// only the first is named — its wins and medals are those every battle so far gave
    /// the first side's opponents, so the battle that first names it is rated from the
    /// history like any other.
    fn side_for(&self, name: &str) -> Option<usize> {
        self.known_side(name).or(match &self.sides {
            [Some(_), None] => Some(1),
            _ => None,
        })
    }

    /// Each side's average medal score (the Memoir '44 ranking's Appendix I), once a battle
    /// carried medals.
    pub fn averages(&self) -> Option<[f64; 2]> {
        let n = f64::from(self.medal_battles);
        (self.medal_battles > 0).then(|| self.medals.map(|total| total / n))
    }

    /// The standard deviation of each side's medal counts (Appendix I), as the sample's
    /// (divided by n − 1): from two battles with medals on, and only if every one of them
    /// is in the squares.
    pub fn deviations(&self) -> Option<[f64; 2]> {
        let n = f64::from(self.medal_battles);
        if self.medal_battles < 2 || self.squared != self.medal_battles {
            return None;
        }
        let sd = |i: usize| {
            let mean = self.medals[i] / n;
            ((self.medal_squares[i] - n * mean * mean) / (n - 1.0))
                .max(0.0)
                .sqrt()
        };
        Some([sd(0), sd(1)])
    }

    /// The distance between the two sides' averages (Appendix I's last column).
    pub fn distance(&self) -> Option<f64> {
        self.averages().map(|[a, b]| (a - b).abs())
    }

    /// The scenario from side `i`'s view, once it has history. Its figures are taken with
    /// [`memoir44::PRIOR_BATTLES`] balanced battles of prior (see there): a young history
    /// neither zeroes the winner's points (a ratio of 0 or 1 after one battle) nor reads
    /// missing medal scores as averages of 0 (no medal history gives a bonus of 1).
    /// The record in a line, as far as the history tells (the Memoir '44 ranking's Appendix I):
    /// "12 battles; Allies 7.0 wins, average 4.2 ± 1.1; Axis 5.0 wins, average 3.5 ± 1.3;
    /// averages 0.7 apart". The side names are as recorded (a front end makes them safe to
    /// show).
    pub fn summary(&self) -> String {
        let (averages, deviations) = (self.averages(), self.deviations());
        let side = |i: usize| {
            let mut text = format!(
                "{} {:.1} wins",
                self.sides[i].as_deref().unwrap_or("?"),
                self.wins[i]
            );
            if let Some(a) = averages {
                text.push_str(&format!(", average {:.1}", a[i]));
            }
            if let Some(d) = deviations {
                text.push_str(&format!(" ± {:.1}", d[i]));
            }
            text
        };
        let apart = self
            .distance()
            .map(|d| format!("; averages {d:.1} apart"))
            .unwrap_or_default();
        format!("{} battles; {}; {}{apart}", self.battles, side(0), side(1))
    }

    pub fn view(&self, i: usize) -> Option<memoir44::Scenario> {
        if self.battles == 0 {
            return None;
        }
        let j = 1 - i;
        Some(memoir44::Scenario::from_history(
            self.battles,
            self.wins[i],
            self.medal_battles,
            self.medals[i],
            self.medals[j],
        ))
    }
}

/// All scenarios, by name (case as first seen; looked up case-insensitively by key).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScenarioBook {
    pub scenarios: BTreeMap<String, ScenarioStats>,
    #[serde(default)]
    pub overrides: BTreeMap<String, ScenarioOverride>,
    /// Each scenario's name as it was first typed ("Pegasus Bridge"), by key: the record is
    /// found without regard to case, and shown as typed.
    #[serde(default, skip_serializing_if = "Typed::is_empty")]
    pub typed: Typed,
}

/// Scenario names as typed, by key. What is shown, not what is rated: equal whatever it
/// holds, so caches an older rungs wrote without it still agree with a replay.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Typed(pub BTreeMap<String, String>);

impl Typed {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl PartialEq for Typed {
    fn eq(&self, _: &Typed) -> bool {
        true
    }
}

fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

impl ScenarioBook {
    /// The scenario as A's side knows it before this match: `None` without a scenario and
    /// side, for a third side, or before its first battle (then the match is rated as plain
    /// Elo, ratio ½ and bonus 1 — what the prior gives before any battle). The battle that
    /// first names the second side is rated from the history (see `side_for`).
    /// The record of the scenario called `name` (as scenarios compare: case and spaces
    /// aside), if it has one.
    pub fn stats(&self, name: &str) -> Option<&ScenarioStats> {
        self.scenarios.get(&key(name))
    }

    pub fn lookup(&self, m: &Match) -> Option<memoir44::Scenario> {
        let name = key(m.scenario.as_deref()?);
        if let Some(o) = self.overrides.get(&name) {
            let side = m.side_a.as_deref()?;
            let i = o
                .sides
                .iter()
                .position(|s| s.eq_ignore_ascii_case(side.trim()))?;
            let ratio = if i == 0 { o.ratio } else { 1.0 - o.ratio };
            return Some(memoir44::Scenario::known(
                ratio,
                o.averages[i],
                o.averages[1 - i],
            ));
        }
        let stats = self.scenarios.get(&name)?;
        stats.view(stats.side_for(m.side_a.as_deref()?)?)
    }

    /// The two sides of scenario `name`, once both are known (from the organiser's figures, or
    /// the first two sides its battles named).
    pub fn sides_of(&self, name: &str) -> Option<[&str; 2]> {
        let name = key(name);
        if let Some(o) = self.overrides.get(&name) {
            return Some([o.sides[0].as_str(), o.sides[1].as_str()]);
        }
        match &self.scenarios.get(&name)?.sides {
            [Some(a), Some(b)] => Some([a.as_str(), b.as_str()]),
            _ => None,
        }
    }

    /// The book as `rungs scenarios --json` writes it: the stored figures, and beside each
    /// scenario's its sides' `averages`, `standard_deviations` and the `distance` between
    /// the averages (Appendix I), `null` where the history cannot tell yet.
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        // The names as typed are given with each scenario, below.
        if let Some(o) = v.as_object_mut() {
            o.remove("typed");
        }
        if let Some(all) = v.get_mut("scenarios").and_then(|s| s.as_object_mut()) {
            for (name, entry) in all.iter_mut() {
                let (Some(stats), Some(obj)) = (self.scenarios.get(name), entry.as_object_mut())
                else {
                    continue;
                };
                obj.insert("averages".into(), serde_json::json!(stats.averages()));
                obj.insert(
                    "standard_deviations".into(),
                    serde_json::json!(stats.deviations()),
                );
                obj.insert("distance".into(), serde_json::json!(stats.distance()));
                obj.insert("name".into(), serde_json::json!(self.shown_name(name)));
            }
        }
        v
    }

    /// The scenario stored under `key` as it was first typed (the key itself if unknown).
    pub fn shown_name<'a>(&'a self, key: &'a str) -> &'a str {
        self.typed.0.get(key).map_or(key, String::as_str)
    }

    /// Sets (or replaces) the organiser's figures for a scenario.
    pub fn set_override(&mut self, o: &ScenarioOverride) {
        self.overrides.insert(key(&o.scenario), o.clone());
    }

    /// Adds a played match to its scenario's record (a forfeit is not recorded: an abandoned
    /// battle says nothing about the scenario's balance or its medal scores).
    pub fn record(&mut self, m: &Match, outcome: Outcome) {
        let (Some(name), Some(side)) = (m.scenario.as_deref(), m.side_a.as_deref()) else {
            return;
        };
        let k = key(name);
        if !self.typed.0.contains_key(&k) {
            self.typed.0.insert(k.clone(), name.trim().to_string());
        }
        let stats = self.scenarios.entry(k).or_default();
        let Some(i) = stats.side_index(side) else {
            return; // a third side: the scenario is two-sided, so this match is not counted
        };
        let j = 1 - i;
        stats.battles += 1;
        let s = outcome.score();
        stats.wins[i] += s;
        stats.wins[j] += 1.0 - s;
        if let Some([a, b]) = m.medals.map(crate::values::Medals::get) {
            if stats.squared == stats.medal_battles {
                stats.squared += 1;
                stats.medal_squares[i] += a * a;
                stats.medal_squares[j] += b * b;
            }
            stats.medal_battles += 1;
            stats.medals[i] += a;
            stats.medals[j] += b;
        }
    }
}
