//! The fit's own choice of parameters, when none are named.
//!
//! A screen, a joint search, a second screen at its optimum and a last joint search. The
//! screen moves each candidate parameter alone (the others held) to [`SCREEN_POINTS`] points
//! across its whole declared range and to `NEAR` steps either side of its value, on the
//! fit's scale, and measures its effect: how far the training objective falls below its
//! value at the point screened. The parameters whose effect reaches [`CHOSEN_EFFECT`] are
//! chosen, the strongest first, at most [`MAX_CHOSEN`]; one that moves nothing (a display
//! threshold, a weight on a class the log does not hold) costs its screen and no more. The
//! joint search is the coordinate search of [`super::fit_for`] over the chosen ones, started
//! with each at its screen's best. Some parameters matter only once others have moved (where
//! a newcomer starts matters once newcomers start from the pool), so the parameters not
//! chosen are screened again at the optimum: those that now reach the effect join, are
//! searched alone across their ranges, and then every chosen parameter again, in narrowing
//! windows, each cycle ending with a pattern move along the whole step it made (two
//! parameters that trade against each other, the goals model's step and attack–defence
//! share, form a valley across the axes that coordinate steps only zigzag down). Everything reads only the matches before the split, as the named fit does: the
//! held-out years choose nothing.

use super::{Axis, Fit, FitError, GAIN, LAST_CYCLES, Objective, Screened, Search, finish};
use chrono::NaiveDate;
use rungs_ladder::log::Effective;
use rungs_ladder::rules::Rules;

/// Points across each parameter's range in the screen.
pub const SCREEN_POINTS: usize = 5;
/// Steps either side of the value the screen also tries, as shares of the range: an optimum
/// near the start (a side advantage of 100 on a range of ±1000) falls between the points
/// across the range, and its effect would be missed.
const NEAR: [f64; 2] = [1.0 / 64.0, 1.0 / 16.0];
/// The least fall of the training objective (mean log-loss per match) that makes a parameter
/// worth fitting. On the 24,062 training matches of the international results it is 2.4 nats
/// of log-likelihood, where Akaike's criterion asks 1 of a parameter added; and a fiftieth of
/// what separated the goals model's usual three-parameter fit from the best known one (0.0049
/// on the test years' expected-score log-loss).
pub const CHOSEN_EFFECT: f64 = 1e-4;
/// The most parameters the first screen chooses: beyond this the joint search's time grows
/// faster than it finds.
pub const MAX_CHOSEN: usize = 8;
/// The most the second screen can bring the choice to.
pub const MAX_CHOSEN_AFTER: usize = 12;

/// Fits `start`'s system on the matches of `events` before `until`, choosing the parameters
/// itself (see the module's comment). `progress` hears (steps done, steps planned).
pub fn fit_auto(
    start: &Rules,
    events: &[Effective],
    until: NaiveDate,
    objective: Objective,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Fit, FitError> {
    let system = start.system();
    let axes: Vec<Axis> = system.facts().params.iter().map(Axis::new).collect();
    let mut search = Search::new(start, axes, events, until, objective, progress)?;
    let n = search.axes.len();
    let screen_cost = (SCREEN_POINTS + 2 * NEAR.len()) as u64;
    let first: Vec<usize> = (0..n.min(MAX_CHOSEN)).collect();
    let later: Vec<usize> = (0..n.min(MAX_CHOSEN_AFTER)).collect();
    search.planned = 1 + 2 * n as u64 * screen_cost + search.plan(&first) + search.plan(&later) / 2;

    let mut point = search.start_point.clone();
    let mut best = search.objective(&point)?;
    let all: Vec<usize> = (0..n).collect();
    let found = screen(&mut search, &point, best, &all)?;
    let mut chosen: Vec<usize> = strongest(&found, MAX_CHOSEN);
    let mut report: Vec<Screened> = found
        .iter()
        .map(|&(i, effect, u)| Screened {
            name: search.axes[i].param.name,
            effect,
            best: search.value_at(i, u),
            effect_after: None,
            chosen_by: chosen.contains(&i).then_some(1),
        })
        .collect();
    if chosen.is_empty() {
        let params = search.fitted_params(&point, &chosen);
        return finish(search, &point, params, report, events);
    }
    for &(i, _, u) in &found {
        if chosen.contains(&i) {
            point[i] = u;
        }
    }
    best = search.objective(&point)?;
    search.descend(&mut point, &mut best, &chosen, 0)?;

    let rest: Vec<usize> = all
        .iter()
        .copied()
        .filter(|i| !chosen.contains(i))
        .collect();
    let room = MAX_CHOSEN_AFTER.saturating_sub(chosen.len());
    let again = screen(&mut search, &point, best, &rest)?;
    let joining = strongest(&again, room);
    for &(i, effect, _) in &again {
        report[i].effect_after = Some(effect);
        if joining.contains(&i) {
            report[i].chosen_by = Some(2);
        }
    }
    if !joining.is_empty() {
        for &(i, _, u) in &again {
            if joining.contains(&i) {
                point[i] = u;
            }
        }
        best = search.objective(&point)?;
        search.descend(&mut point, &mut best, &joining, 0)?;
        chosen.extend(&joining);
        search.planned = search.steps + search.plan_cycles(&chosen, 1..LAST_CYCLES);
        search.descend_through(&mut point, &mut best, &chosen, 1..LAST_CYCLES, true)?;
    }
    let params = search.fitted_params(&point, &chosen);
    finish(search, &point, params, report, events)
}

/// Each axis of `candidates` moved alone from `point` (whose objective is `at_point`):
/// (axis, effect, where it was lowest), in the order given.
fn screen(
    search: &mut Search<'_, '_>,
    point: &[f64],
    at_point: f64,
    candidates: &[usize],
) -> Result<Vec<(usize, f64, f64)>, FitError> {
    let mut found = Vec::with_capacity(candidates.len());
    for &i in candidates {
        let axis = &search.axes[i];
        let across = (0..SCREEN_POINTS)
            .map(|k| axis.lo + axis.width() * k as f64 / (SCREEN_POINTS - 1) as f64);
        let near = NEAR
            .iter()
            .flat_map(|&f| [point[i] - f * axis.width(), point[i] + f * axis.width()])
            .filter(|u| (axis.lo..=axis.hi).contains(u));
        let grid: Vec<Vec<f64>> = across
            .chain(near)
            .map(|u| {
                let mut at = point.to_vec();
                at[i] = u;
                at
            })
            .collect();
        search.prefetch(&grid);
        let (mut best_u, mut best_f) = (point[i], at_point);
        for at in &grid {
            // A fall within the rounding of a mean ([`GAIN`]) is none: a parameter that moves
            // every rating alike shows exactly 0.
            let f = search.objective(at)?;
            if f < best_f.min(at_point - GAIN) {
                (best_u, best_f) = (at[i], f);
            }
        }
        found.push((i, at_point - best_f, best_u));
    }
    Ok(found)
}

/// The axes of `found` whose effect reaches [`CHOSEN_EFFECT`], strongest first (ties: the
/// declared order), at most `most`.
fn strongest(found: &[(usize, f64, f64)], most: usize) -> Vec<usize> {
    let mut order: Vec<&(usize, f64, f64)> = found
        .iter()
        .filter(|(_, effect, _)| *effect >= CHOSEN_EFFECT)
        .collect();
    order.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
    order.into_iter().take(most).map(|f| f.0).collect()
}
