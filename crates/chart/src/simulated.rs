//! Plot data for a simulation's report (Simulate's plots and their SVG): the climb curves
//! (how many players have reached each tier against the matches they have played), the
//! score inflation of each week, and each tier's share of the players week by week.

use crate::markers::tier_rgb;
use rungs_analysis::simulate::SimReport;
use rungs_ladder::skyweaver::Tier;

/// One named line of a plot: its colour and its points (x, y), x rising.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub name: String,
    pub rgb: [u8; 3],
    pub points: Vec<[f64; 2]>,
}

/// The tiers a climb curve is drawn for, each in its own colour: the tier colours are shared
/// by a family (Trainee I–III), so within one the higher tiers are drawn darker.
fn shade(tier: Tier) -> [u8; 3] {
    let [r, g, b] = tier_rgb(tier);
    let step = match tier {
        Tier::TraineeII | Tier::ApprenticeII | Tier::ExpertII => 0.75,
        Tier::TraineeIII | Tier::ApprenticeIII | Tier::ExpertIII => 0.55,
        _ => 1.0,
    };
    let f = |c: u8| (f64::from(c) * step).round() as u8;
    [f(r), f(g), f(b)]
}

/// For each tier from Trainee I up that anyone reached: the share of all `players` (per
/// cent) who had reached it after x of their own matches, a step at each count where someone
/// first got there. Empty for a system without tiers.
pub fn climb_curves(report: &SimReport, players: usize) -> Vec<Curve> {
    let n = players.max(1) as f64;
    Tier::ALL[1..]
        .iter()
        .zip(&report.matches_to_tier)
        .filter(|(_, reach)| !reach.first_reached_at.is_empty())
        .map(|(&tier, reach)| {
            let at = &reach.first_reached_at;
            let mut points: Vec<[f64; 2]> = Vec::new();
            for (k, &m) in at.iter().enumerate() {
                let share = 100.0 * (k + 1) as f64 / n;
                match points.last_mut() {
                    Some(last) if last[0] == f64::from(m) => last[1] = share,
                    _ => points.push([f64::from(m), share]),
                }
            }
            Curve {
                name: tier.name().to_string(),
                rgb: shade(tier),
                points,
            }
        })
        .collect()
}

/// The score inflation of each week (week 1 first): what its matches added to the mean.
pub fn inflation(report: &SimReport) -> Curve {
    Curve {
        name: "inflation".into(),
        rgb: [70, 140, 230],
        points: (1..)
            .zip(&report.rp_inflation_per_week)
            .map(|(w, &d)| [f64::from(w), if d.is_finite() { d } else { 0.0 }])
            .collect(),
    }
}

/// Each tier's share of the players (per cent) at each week's end, for the tiers anyone was
/// in at some week's end. Empty for a system without tiers.
pub fn tier_shares(report: &SimReport) -> Vec<Curve> {
    Tier::ALL
        .iter()
        .enumerate()
        .filter(|&(t, _)| report.tiers_per_week.iter().any(|w| w[t] > 0))
        .map(|(t, &tier)| Curve {
            name: tier.name().to_string(),
            rgb: shade(tier),
            points: (1..)
                .zip(&report.tiers_per_week)
                .map(|(w, counts)| {
                    let total: u32 = counts.iter().sum();
                    [
                        f64::from(w),
                        100.0 * f64::from(counts[t]) / f64::from(total.max(1)),
                    ]
                })
                .collect(),
        })
        .collect()
}

/// Simulate's three plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SimPlot {
    Climb,
    Inflation,
    Tiers,
}

impl SimPlot {
    pub const ALL: [SimPlot; 3] = [SimPlot::Climb, SimPlot::Inflation, SimPlot::Tiers];

    pub fn title(self) -> &'static str {
        match self {
            SimPlot::Climb => "Climb: players who reached each tier",
            SimPlot::Inflation => "Score inflation per week",
            SimPlot::Tiers => "Tier distribution at each week's end",
        }
    }

    pub fn x_label(self) -> &'static str {
        match self {
            SimPlot::Climb => "matches played",
            SimPlot::Inflation | SimPlot::Tiers => "week",
        }
    }

    pub fn y_label(self) -> &'static str {
        match self {
            SimPlot::Climb => "% of players",
            // Short enough to stand beside a 220-point plot (the title says the rest): "mean
            // score added by the week's matches" ran up over the plot's title.
            SimPlot::Inflation => "mean score added",
            SimPlot::Tiers => "% of players",
        }
    }

    /// A file name for the plot, without its ending.
    pub fn file_stem(self) -> &'static str {
        match self {
            SimPlot::Climb => "climb",
            SimPlot::Inflation => "inflation",
            SimPlot::Tiers => "tiers",
        }
    }

    /// Whether the plot has anything to draw for a report (the tier plots need tiers).
    pub fn drawn_for(self, report: &SimReport) -> bool {
        match self {
            SimPlot::Climb => !report.matches_to_tier.is_empty(),
            SimPlot::Inflation => !report.rp_inflation_per_week.is_empty(),
            SimPlot::Tiers => !report.tiers_per_week.is_empty(),
        }
    }

    /// Its curves for `report`.
    pub fn curves(self, report: &SimReport) -> Vec<Curve> {
        match self {
            SimPlot::Climb => climb_curves(report, report.true_skill.len()),
            SimPlot::Inflation => vec![inflation(report)],
            SimPlot::Tiers => tier_shares(report),
        }
    }

    /// A climb curve is a count that steps up at each match; the others join week to week.
    pub fn steps(self) -> bool {
        self == SimPlot::Climb
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_analysis::simulate::TierReach;
    use rungs_ladder::rules::System;

    fn report() -> SimReport {
        let reach = |tier: &str, at: Vec<u32>| TierReach {
            tier: tier.into(),
            reached: at.len() as u32,
            median_matches: None,
            first_reached_at: at,
        };
        let mut matches_to_tier: Vec<TierReach> = Tier::ALL[1..]
            .iter()
            .map(|t| reach(t.name(), Vec::new()))
            .collect();
        matches_to_tier[0] = reach("Trainee I", vec![2, 2, 5]);
        matches_to_tier[1] = reach("Trainee II", vec![7]);
        let mut week = [0u32; 12];
        week[0] = 3;
        week[1] = 1;
        let mut later = [0u32; 12];
        later[1] = 2;
        later[2] = 2;
        SimReport {
            system: System::Skyweaver,
            matches: 10,
            matches_to_tier,
            rp_inflation_per_week: vec![12.5, f64::NAN, -3.0],
            rp_inflation_mean: 0.0,
            tiers_per_week: vec![week, later],
            spearman_score: None,
            spearman_rating: None,
            pairing: Default::default(),
            mean_abs_e: None,
            true_skill: vec![1500.0; 4],
        }
    }

    /// Four players: Trainee I first reached at matches 2, 2 and 5 → 50 % at 2, 75 % at 5;
    /// Trainee II at 7 → 25 %; no curve for a tier nobody reached.
    #[test]
    fn climb_curves_count_first_reaches() {
        let curves = SimPlot::Climb.curves(&report());
        assert_eq!(curves.len(), 2);
        assert_eq!(curves[0].name, "Trainee I");
        assert_eq!(curves[0].points, vec![[2.0, 50.0], [5.0, 75.0]]);
        assert_eq!(curves[1].points, vec![[7.0, 25.0]]);
        assert_ne!(curves[0].rgb, curves[1].rgb);
    }

    /// Week 1: 3 Wanderers and 1 Trainee I of 4 (75 %, 25 %); week 2: 2 and 2 in Trainee I and
    /// II. A NaN week draws at 0.
    #[test]
    fn tier_shares_and_inflation_by_week() {
        let r = report();
        let shares = SimPlot::Tiers.curves(&r);
        let names: Vec<&str> = shares.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Wanderer", "Trainee I", "Trainee II"]);
        assert_eq!(shares[0].points, vec![[1.0, 75.0], [2.0, 0.0]]);
        assert_eq!(shares[1].points, vec![[1.0, 25.0], [2.0, 50.0]]);
        let inflation = SimPlot::Inflation.curves(&r);
        assert_eq!(
            inflation[0].points,
            vec![[1.0, 12.5], [2.0, 0.0], [3.0, -3.0]]
        );
        assert!(SimPlot::ALL.iter().all(|p| p.drawn_for(&r)));
    }
}
