//! `rungs fit`: the parameters that best predict the ladder's own history, chosen on the
//! matches before a date and scored on those after it, beside the system's defaults and Elo
//! K=32; with `--apply`, recorded as a rules change through the gate, previewed first.

use super::common::{context, open, plural, rules_change_applied, shown};
use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rungs_analysis::evaluate::Score;
use rungs_analysis::fit::{self, Fit, FitError, Scored};
use rungs_gate::seasons::parse_system;
use rungs_gate::{self as action, Action, ActionError, Place, parse_day};
use rungs_ladder::rules::{ParamError, Rules, System};
use serde_json::json;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

/// What `rungs fit` was asked.
pub struct FitArgs<'a> {
    pub systems: &'a [String],
    /// Comma-separated parameter names; none: each system's usual ones.
    pub params: Option<&'a str>,
    pub until: Option<&'a str>,
    pub apply: bool,
    pub json: bool,
    /// `expected` (default) or `three-outcome`: which log-loss the fit lowers.
    pub objective: Option<&'a str>,
}

/// A system's parameters to fit as named; `None`: the fit chooses them.
type Named = Option<Vec<&'static str>>;

/// The parameters to fit for each system: the named ones it has (a name no system has is
/// refused), or none named: the fit chooses them itself.
fn parameter_plan(
    at: &Place,
    systems: &[System],
    names: Option<&str>,
) -> Result<Vec<(System, Named)>> {
    let Some(names) = names else {
        return Ok(systems.iter().map(|&s| (s, None)).collect());
    };
    let wanted: Vec<&str> = names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if wanted.is_empty() {
        return Err(ActionError::invalid(at, "params", names, "names no parameter").into());
    }
    for name in &wanted {
        if !systems.iter().any(|s| s.param(name).is_some()) {
            let list: Vec<&str> = systems.iter().map(|s| s.name()).collect();
            return Err(ActionError::invalid(
                at,
                "params",
                name,
                format!(
                    "is not a parameter of {} (`rungs params SYSTEM` lists them)",
                    list.join(" or ")
                ),
            )
            .into());
        }
    }
    systems
        .iter()
        .map(|&s| {
            let own: Vec<&'static str> = s
                .facts()
                .params
                .iter()
                .filter(|p| wanted.contains(&p.name))
                .map(|p| p.name)
                .collect();
            if own.is_empty() {
                bail!(
                    "{at}{s} has none of the parameters {}; name some of its own, or leave \
                     it out",
                    wanted.join(", ")
                );
            }
            Ok((s, Some(own)))
        })
        .collect()
}

fn fit_error(file: &Path, e: FitError) -> anyhow::Error {
    match e {
        FitError::Param(p @ ParamError::Unknown { .. }) => anyhow!("{}: {p}", file.display()),
        other => anyhow!("{}: {other}", file.display()),
    }
}

/// `rungs fit FILE`.
pub fn fit(file: &Path, args: &FitArgs<'_>) -> Result<()> {
    let (mut store, ladder) = open(file)?;
    let at = Place::file(shown(file));
    // The rules in force today, which `--apply` records its change from: not a change
    // scheduled for a later date, which would be brought forward.
    let (events, in_force) = store.effective_and_rules_on(action::today())?;
    let mut systems: Vec<System> = Vec::new();
    for name in args.systems {
        let s = parse_system(&at, name)?;
        if !systems.contains(&s) {
            systems.push(s);
        }
    }
    if systems.is_empty() {
        systems.push(ladder.rules.system());
    }
    if args.apply && systems.len() > 1 {
        bail!(
            "{}: --apply records one system's fitted rules; name one --system",
            file.display()
        );
    }
    let plan = parameter_plan(&at, &systems, args.params)?;
    let objective = match args.objective {
        None => None,
        Some(text) => Some(fit::Objective::parse(text).ok_or_else(|| {
            anyhow!(
                "{}: field `objective`: `{}` is not an objective; use expected or three-outcome",
                file.display(),
                text.escape_debug()
            )
        })?),
    };
    let until = match args.until {
        Some(text) => parse_day(&at, "until", text)?,
        None => fit::default_split(&events)
            .ok_or_else(|| anyhow!("{}: no played matches to fit on", file.display()))?,
    };
    let bar = progress_bar(!args.json);
    let mut fits: Vec<(Fit, f64)> = Vec::new();
    for (system, names) in &plan {
        // The ladder's own system starts from its rules; another from its defaults, under the
        // ladder's side advantage and season calendar (which belong to the ladder, and which
        // `--apply` keeps, as a change of system does).
        let start = if *system == in_force.system() {
            in_force.clone()
        } else {
            in_force.defaults_for(*system)
        };
        bar.set_message(format!("fitting {system}"));
        let clock = Instant::now();
        let mut progress = |done: u64, planned: u64| {
            bar.set_length(planned);
            bar.set_position(done);
            true
        };
        // A fit that chooses its parameters for a system that predicts draws lowers the
        // three-outcome log-loss unless told otherwise: the likelihood of what happened. The
        // expected score's cannot tell apart what only shapes the draws (the goals model's ρ
        // runs to the edge of its range under it).
        let fitted = match names {
            Some(names) => fit::fit_for(
                &start,
                names,
                &events,
                until,
                objective.unwrap_or_default(),
                &mut progress,
            ),
            None => {
                let objective = objective.unwrap_or(if system.facts().draws {
                    fit::Objective::ThreeOutcome
                } else {
                    fit::Objective::Expected
                });
                fit::choose::fit_auto(&start, &events, until, objective, &mut progress)
            }
        }
        .map_err(|e| fit_error(file, e))?;
        fits.push((fitted, clock.elapsed().as_secs_f64()));
    }
    bar.set_message("scoring elo K=32");
    let baseline = fit::score_split(&Rules::defaults(System::Elo), &events, until)
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    bar.finish_and_clear();
    if args.json {
        let applied = if args.apply {
            Some(apply(
                &mut store, file, &ladder, &in_force, &fits[0].0, true,
            )?)
        } else {
            None
        };
        say!(
            "{}",
            json!({
                "file": file.display().to_string(),
                "until": until.to_string(),
                "fits": fits.iter().map(|(f, seconds)| json!({
                    "system": f.system,
                    "label": f.fitted.label,
                    "params": f.params,
                    "screened": f.screened,
                    "evaluations": f.evaluations,
                    "seconds": seconds,
                    "fitted": halves(&f.fitted),
                    "defaults": halves(&f.defaults),
                })).collect::<Vec<_>>(),
                "baseline": halves(&baseline),
                "applied": applied,
            })
        );
        return Ok(());
    }
    let first = &baseline;
    say!(
        "{}: fitted on {} before {until}, scored on {} from {until} on",
        file.display(),
        plural(first.train.matches as usize, "match"),
        plural(first.test.matches as usize, "match"),
    );
    for (f, seconds) in &fits {
        table(f, &baseline, *seconds);
    }
    if args.apply {
        apply(&mut store, file, &ladder, &in_force, &fits[0].0, false)?;
    }
    Ok(())
}

/// A progress bar on stderr when `show` and stdout is a terminal; hidden otherwise.
fn progress_bar(show: bool) -> ProgressBar {
    if !show || !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{msg} {bar:40} {percent:>3} %")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn halves(s: &Scored) -> serde_json::Value {
    json!({ "label": s.label, "train": s.train, "test": s.test })
}

/// A log-loss, or a dash where no match was scored.
fn loss(s: &Score) -> String {
    if s.matches == 0 {
        "—".into()
    } else {
        format!("{:.4}", s.log_loss)
    }
}

fn table(f: &Fit, baseline: &Scored, seconds: f64) {
    say!(
        "\n{} — {} ({} replays, {seconds:.1} s)",
        f.system,
        f.fitted.label,
        f.evaluations
    );
    if !f.screened.is_empty() {
        screen(f);
    }
    for p in &f.params {
        let bound = if p.kept {
            "  (kept: no value predicts better)"
        } else if p.at_bound {
            "  (at the edge of its range)"
        } else {
            ""
        };
        say!(
            "  {:<18} {:>10} → {:<10}{bound}",
            p.name,
            number(p.start),
            number(p.fitted)
        );
    }
    say!(
        "  {:<8} {:>10} {:>10} {:>10}",
        "log-loss",
        "defaults",
        "fitted",
        "elo K=32"
    );
    say!(
        "  {:<8} {:>10} {:>10} {:>10}",
        "train",
        loss(&f.defaults.train),
        loss(&f.fitted.train),
        loss(&baseline.train)
    );
    say!(
        "  {:<8} {:>10} {:>10} {:>10}   ← matches from {} on, never fitted",
        "test",
        loss(&f.defaults.test),
        loss(&f.fitted.test),
        loss(&baseline.test),
        f.until
    );
    if f.fitted.test.log_loss_3way.is_some() {
        let three = |s: &Score| match s.log_loss_3way {
            Some(x) if s.matches > 0 => format!("{x:.4}"),
            _ => "—".into(),
        };
        say!("  three-outcome log-loss (−ln P of the result)");
        for (name, pick) in [("train", true), ("test", false)] {
            let half = |s: &Scored| {
                if pick {
                    three(&s.train)
                } else {
                    three(&s.test)
                }
            };
            say!(
                "  {:<8} {:>10} {:>10} {:>10}",
                name,
                half(&f.defaults),
                half(&f.fitted),
                half(baseline)
            );
        }
    }
}

/// The screens that chose the parameters: each one's effect alone, the chosen first.
fn screen(f: &Fit) {
    let mut rows: Vec<_> = f.screened.iter().collect();
    rows.sort_by(|a, b| b.effect.total_cmp(&a.effect));
    let chosen: Vec<&str> = rows
        .iter()
        .filter(|r| r.chosen_by.is_some())
        .map(|r| r.name)
        .collect();
    say!(
        "  chosen by each one's effect alone on the training log-loss (at least {}): {}",
        fit::choose::CHOSEN_EFFECT,
        if chosen.is_empty() {
            "none".to_string()
        } else {
            chosen.join(", ")
        }
    );
    let mut still: Vec<&str> = Vec::new();
    for r in rows {
        let after = match r.effect_after {
            None => String::new(),
            Some(e) if e <= 0.0 => ", none after the first search".into(),
            Some(e) => format!(", −{e:.5} after the first search"),
        };
        let chosen = match r.chosen_by {
            Some(1) => "",
            Some(_) => "  (chosen by the second screen)",
            None => "  (not chosen)",
        };
        if r.effect <= 0.0 && r.effect_after.is_none_or(|e| e <= 0.0) {
            // Screened twice (or once, and chosen by nothing) without an effect.
            still.push(r.name);
            continue;
        }
        say!(
            "    {:<18} −{:.5} at {}{after}{chosen}",
            r.name,
            r.effect,
            number(r.best),
        );
    }
    if !still.is_empty() {
        say!("    no effect: {}", still.join(", "));
    }
}

/// A parameter value as it reads: fitted values are already rounded to the search's
/// resolution and print short; a long one (AllegSkill's β = 25/6) gets five significant
/// digits.
fn number(x: f64) -> String {
    let plain = format!("{}", x + 0.0);
    if plain.len() <= 9 || !x.is_finite() || x == 0.0 {
        return plain;
    }
    let decimals = (4 - x.abs().log10().floor() as i32).max(0) as usize;
    let fixed = format!("{x:.decimals$}");
    if fixed.contains('.') {
        fixed
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        fixed
    }
}

/// Records the fitted rules as a rules change from today, after printing what it does to
/// every player (the preview, computed by the same code that applies it). Returns the JSON
/// of what was applied. The change is made against the ladder the fit read: if another
/// program changed it meanwhile, nothing lands and the fit is made again on what is there now.
fn apply(
    store: &mut rungs_store::Store,
    file: &Path,
    ladder: &rungs_ladder::replay::Ladder,
    in_force: &Rules,
    fitted: &Fit,
    json: bool,
) -> Result<serde_json::Value> {
    if fitted.rules == *in_force {
        if !json {
            say!("\nNothing applied: no parameter predicts better than its value in force");
        }
        return Ok(serde_json::Value::Null);
    }
    let act = Action::change_rules(&context(file, ladder), fitted.rules.clone(), in_force, None)?;
    let (changes, seq) = rules_change_applied(store, file, &act, json).inspect_err(|e| {
        if e.is_changed_meanwhile() {
            eprintln_quiet(&format!(
                "another program changed {} while it was being fitted; nothing was recorded, \
                 fitting again on the ladder as it is now",
                file.display()
            ));
        }
    })?;
    let moved: Vec<_> = changes.iter().filter(|c| c.moved()).collect();
    Ok(json!({ "label": act.label(), "seq": seq, "changes": moved }))
}

/// A line on stderr that never panics (stderr may be closed).
fn eprintln_quiet(text: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "rungs: {text}");
}
