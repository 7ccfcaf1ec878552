//! The designer's and tester's commands: predict, evaluate, simulate, replay --compare. None
//! of them changes an existing ladder file.

use super::args::{CalendarArgs, RulesArgs, SimArgs};
use super::common::{open, plural, shown, spinner};
use super::output;
use anyhow::{Result, anyhow, bail};
use chrono::NaiveDate;
use indicatif::{ProgressBar, ProgressStyle};
use rungs_analysis::compare::{self, CompareRow};
use rungs_analysis::evaluate::{self, Score, label};
use rungs_analysis::simulate::{SimConfig, SimReport};
use rungs_gate::seasons::{calendar_from, parse_system, rules_from};
use rungs_gate::{self as action, ActionError, Place, Roster, parse_day};
use rungs_ladder::event::{Match, MatchResult, PlayerId};
use rungs_ladder::preview::Change;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{ParamError, Rules, System};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings;
use rungs_rating::Outcome;
use rungs_store::Store;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

fn tier(t: Option<Tier>) -> &'static str {
    t.map_or("", Tier::name)
}

fn names(ladder: &Ladder, ids: &[PlayerId]) -> Vec<String> {
    ids.iter()
        .map(|&i| {
            ladder
                .player(i)
                .map_or_else(|| "?".into(), |p| p.name.clone())
        })
        .collect()
}

/// A progress bar on stderr when `show` and stdout is a terminal; hidden otherwise.
fn bar(show: bool, len: Option<u64>) -> ProgressBar {
    if !show || !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match len {
        Some(n) => (ProgressBar::new(n), "{msg} {bar:40} {pos}/{len}"),
        None => (ProgressBar::new_spinner(), "{spinner} {msg} {pos}"),
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// `rungs predict FILE A B`.
pub fn predict(
    file: &Path,
    a: &str,
    b: &str,
    date: Option<&str>,
    home: Option<&str>,
    json: bool,
) -> Result<()> {
    let (store, ladder) = open(file)?;
    let at = Place::file(shown(file));
    let roster = Roster::new(&ladder);
    let (side_a, side_b) = (roster.side(&at, "a", a)?, roster.side(&at, "b", b)?);
    let all: Vec<PlayerId> = side_a.iter().chain(&side_b).copied().collect();
    if let Some((i, &id)) = all
        .iter()
        .enumerate()
        .find(|(i, id)| all[..*i].contains(id))
    {
        let where_ = if i >= side_a.len() && side_a.contains(&id) {
            "on both sides"
        } else {
            "twice on one side"
        };
        bail!(
            "{}: `{}` is {where_}; a player plays once in a match",
            file.display(),
            names(&ladder, &[id])[0]
        );
    }
    let date = match date {
        Some(d) => parse_day(&at, "date", d)?,
        // Today, unless the ladder already runs later: then its latest date, so the forecast
        // is of the next match and not of one slipped into the past.
        None => {
            let latest = store.latest_events(1)?.first().map(|e| e.date);
            action::today().max(latest.unwrap_or(NaiveDate::MIN))
        }
    };
    let mut m = Match::new(
        side_a.clone(),
        side_b.clone(),
        MatchResult::Played(Outcome::Win),
    );
    m.home = action::matches::optional_home(&at, home)?;
    // A forecast dated before a player joins names them (the replay knows only ids).
    for &id in &all {
        if let Some(p) = ladder.player(id)
            && !p.undated
            && let Some(joined) = p.joined_on.filter(|j| *j > date)
        {
            bail!(
                "{at}field `date`: {} joins the ladder on {joined}, after {date}; predict a \
                 match from {joined} on",
                rungs_ladder::values::shown(&p.name)
            );
        }
    }
    let forecast = store.forecast(date, &m)?;
    // Every system's chances with a draw: the ordered logit for those without
    // a draw model of their own.
    let prediction = forecast
        .prediction
        .map(|p| rungs_ladder::predict::with_draws(&ladder, p));
    let (na, nb) = (names(&ladder, &side_a), names(&ladder, &side_b));
    let system = ladder.rules.system();
    // Players in the match's order (A then B), not the standings order of the preview.
    let ordered = |changes: &[Change]| -> Vec<Change> {
        all.iter()
            .filter_map(|id| changes.iter().find(|c| c.player == *id).cloned())
            .collect()
    };
    let what = |r: MatchResult| match r {
        MatchResult::Played(Outcome::Win) => "a",
        MatchResult::Played(Outcome::Draw) => "draw",
        _ => "b",
    };
    // The season calendar's resets the match applies first, said apart from its own change.
    let due = forecast.due.as_ref().map(|due| {
        let players: Vec<(String, f64, f64)> = all
            .iter()
            .filter_map(|id| due.players.iter().find(|(p, _, _)| p == id))
            .map(|&(id, before, after)| (names(&ladder, &[id]).remove(0), before, after))
            .collect();
        (due, players)
    });
    if json {
        let due_first = due.as_ref().map(|(due, players)| {
            json!({
                "soft_resets": due.soft,
                "hard_resets": due.hard,
                "players": players.iter().map(|(name, before, after)| json!({
                    "player": name,
                    "before": before,
                    "after": after,
                })).collect::<Vec<_>>(),
            })
        });
        let outcomes: Vec<Value> = forecast
            .outcomes
            .iter()
            .map(|(r, changes)| {
                let players: Vec<Value> =
                    ordered(changes).iter().map(output::change_json).collect();
                json!({ "result": r.as_text(), "winner": what(*r), "players": players })
            })
            .collect();
        let mut out = json!({
            "date": date.to_string(),
            "system": system,
            "a": na,
            "b": nb,
            "prediction": prediction,
            "outcomes": outcomes,
        });
        if let (Some(due), Some(o)) = (due_first, out.as_object_mut()) {
            o.insert("due_first".into(), due);
        }
        say!("{out}");
        return Ok(());
    }
    let (ta, tb) = (na.join(" + "), nb.join(" + "));
    say!("{ta} vs {tb} on {date} ({})", label(&ladder.rules));
    match prediction {
        Some(p) => say!(
            "  chances: {ta} {:.1} %, draw {:.1} %, {tb} {:.1} %",
            100.0 * p.win_a,
            100.0 * p.draw,
            100.0 * p.win_b
        ),
        None => say!("  chances: {system} cannot predict this pairing"),
    }
    if let Some((due, players)) = &due {
        let what = match (due.soft, due.hard) {
            (1, 0) => "a soft reset of the season calendar (the week ends) comes".to_string(),
            (1, _) => "a hard reset of the season calendar (the season ends) comes".to_string(),
            (n, 0) => format!("{n} soft resets of the season calendar come"),
            (n, 1) => format!("{n} resets of the season calendar (one ends a season) come"),
            (n, h) => format!("{n} resets of the season calendar ({h} end seasons) come"),
        };
        let unit = match system {
            System::Skyweaver | System::Inversus => "RP ",
            _ => "",
        };
        say!("  {what} first, before the match:");
        for (name, before, after) in players {
            say!(
                "    {name:<24} {unit}{before:.0} → {after:.0} ({:+.0})",
                after - before
            );
        }
    }
    for (r, changes) in &forecast.outcomes {
        match what(*r) {
            "a" => say!("  if {ta} wins:"),
            "b" => say!("  if {tb} wins:"),
            _ => say!("  if drawn:"),
        }
        for c in ordered(changes) {
            say!("    {:<24} {}", c.name, change_text(system, &c));
        }
    }
    Ok(())
}

/// One player's before → after in the figures their system shows.
pub(super) fn change_text(system: System, c: &Change) -> String {
    let (b, a) = (c.before.unwrap_or(c.after), c.after);
    let arrow = |name: &str, x: f64, y: f64, digits: usize| {
        format!("{name} {x:.digits$} → {y:.digits$} ({:+.digits$})", y - x)
    };
    match system {
        System::Skyweaver | System::Inversus => {
            let mut text = format!(
                "{}   {}   {}",
                arrow("RP", b.score, a.score, 0),
                arrow("rating", b.rating, a.rating, 1),
                arrow("RD", b.deviation, a.deviation, 1)
            );
            if c.tier_before.is_some() || c.tier_after.is_some() {
                text += &format!("   {} → {}", tier(c.tier_before), tier(c.tier_after));
            }
            text
        }
        System::Allegskill => format!(
            "{}   {}   {}",
            arrow("rank", b.score, a.score, 0),
            arrow("μ", b.rating, a.rating, 2),
            arrow("σ", b.deviation, a.deviation, 2)
        ),
        System::Memoir44 | System::Elo => arrow("rating", b.rating, a.rating, 1),
        System::Goals => format!(
            "{}   {}",
            arrow("rating", b.rating, a.rating, 1),
            arrow("SD", b.deviation, a.deviation, 1)
        ),
    }
}

/// The rules `rungs evaluate` scores, each with whether it replays the log's own rules
/// changes (only the ladder's own rules do: another system is held fixed through the history).
fn evaluation_set(
    at: &Place,
    own: &Rules,
    changes: usize,
    systems: &[String],
    params: &[String],
    calendar: &CalendarArgs,
) -> Result<Vec<(Rules, bool)>> {
    let mut runs: Vec<(Rules, bool)> = Vec::new();
    let calendar = super::common::calendar_input(calendar);
    if systems.is_empty() {
        if !params.is_empty() || !calendar.is_empty() {
            bail!("--param and the calendar flags need --system: name the systems they are for");
        }
        return Ok(evaluate::default_runs_with(own, changes));
    }
    let calendar = calendar_from(at, &calendar, Default::default())?;
    for name in systems {
        let mut rules = Rules::defaults(parse_system(at, name)?);
        rules.calendar = calendar;
        runs.push((rules, false));
    }
    for p in params {
        let mut used = false;
        for (rules, _) in &mut runs {
            match rules.assign(p) {
                Ok(()) => used = true,
                Err(ParamError::Unknown { .. }) => {}
                Err(e) => return Err(ActionError::refused(at, e.to_string()).into()),
            }
        }
        if !used {
            bail!("--param `{p}`: no system named has it (`rungs params SYSTEM` lists them)");
        }
    }
    let mut unique: Vec<(Rules, bool)> = Vec::with_capacity(runs.len());
    for run in runs {
        if !unique.contains(&run) {
            unique.push(run);
        }
    }
    let mut runs = unique;
    // The baseline every table is read against.
    let baseline = Rules::defaults(System::Elo);
    if !runs.iter().any(|(r, _)| *r == baseline) {
        runs.push((baseline, false));
    }
    Ok(runs)
}

/// `rungs evaluate FILE [--from DATE]`.
pub fn evaluate(
    file: &Path,
    systems: &[String],
    params: &[String],
    from: Option<&str>,
    calendar: &CalendarArgs,
    json: bool,
) -> Result<()> {
    let store = Store::open(file)?;
    // The log as the store holds it: most runs score from its index alone, and its every
    // event is made only for a run that replays in full.
    let events = store.compact_events()?;
    let own = store.initial_rules()?;
    let at = Place::file(shown(file));
    let from = from.map(|d| parse_day(&at, "from", d)).transpose()?;
    let changes = events.rules_changes();
    let runs = evaluation_set(&at, &own, changes, systems, params, calendar)?;
    let progress = bar(!json, Some(events.len() as u64 * runs.len() as u64));
    let window = evaluate::Window::from(from);
    let made = || events.to_effective();
    let log = evaluate::RunLog {
        len: events.len() as u64,
        changes,
        index: events.quick_log(window.until),
        events: evaluate::AllEvents::Later(&made),
    };
    let scores = evaluate::evaluate_runs_over(&runs, &log, window, &mut |done| {
        progress.set_position(done);
        true
    })
    .map_err(|e| match e {
        evaluate::EvalError::Replay(cause) => anyhow!("{}: {cause}", file.display()),
        other => anyhow!("{other}"),
    })?;
    progress.finish_and_clear();
    if scores.iter().all(|s| s.matches == 0) {
        match from {
            Some(d) => bail!(
                "{}: no played matches from {d} on to evaluate",
                file.display()
            ),
            None => bail!("{}: no played matches to evaluate", file.display()),
        }
    }
    let baseline = Rules::defaults(System::Elo);
    let base = scores
        .iter()
        .find(|s| s.label == label(&baseline))
        .map(|s| s.log_loss);
    output_scores(file, &scores, base, from, json);
    Ok(())
}

fn output_scores(
    file: &Path,
    scores: &[Score],
    base: Option<f64>,
    from: Option<NaiveDate>,
    json: bool,
) {
    let Some(best) = scores.first() else { return };
    let margin = base.map(|b| b - best.log_loss);
    if json {
        say!(
            "{}",
            json!({
                "file": file.display().to_string(),
                "from": from.map(|d| d.to_string()),
                "scores": scores,
                "best": best.label,
                "baseline": "elo K=32",
                "log_loss_below_baseline": margin,
            })
        );
        return;
    }
    let scope = from.map_or_else(String::new, |d| format!(" from {d} on"));
    say!(
        "{}: {} predicted{scope} ({} draws, {} forfeited or cancelled), each before it counted",
        file.display(),
        plural(best.matches as usize, "match"),
        best.draws,
        best.skipped
    );
    say!(
        "    {:<40} {:>9} {:>8} {:>9} {:>10}",
        "rules",
        "log-loss",
        "Brier",
        "accuracy",
        "3-way"
    );
    for (i, s) in scores.iter().enumerate() {
        let three = s
            .log_loss_3way
            .map_or_else(|| "—".to_string(), |l| format!("{l:.4}"));
        // An all-draw log has no decisive match to be right about.
        let accuracy = s
            .accuracy
            .map_or_else(|| "—".to_string(), |a| format!("{:.1} %", 100.0 * a));
        say!(
            "{} {:>2} {:<40} {:>9.4} {:>8.4} {:>9} {:>10}",
            if i == 0 { "*" } else { " " },
            i + 1,
            s.label,
            s.log_loss,
            s.brier,
            accuracy,
            three
        );
    }
    if let (Some(m), Some(b)) = (margin, base) {
        let verdict = if m > 0.0 {
            format!("{m:.4} below elo K=32 ({b:.4})")
        } else {
            format!("no better than elo K=32 ({b:.4})")
        };
        say!("best: {}, log-loss {verdict}", best.label);
    }
    say!(
        "(scored on A's expected score, win + ½·draw; a coin flip scores log-loss {:.4} and Brier \
         0.25, and no prediction scores a draw below ln 2; accuracy leaves draws out; 3-way is \
         −ln P(the result), from the system's own draw model or an ordered logit on its \
         expected score)",
        std::f64::consts::LN_2
    );
    calibration(best);
}

/// The best rules' calibration: by tenths of A's expected score, the mean predicted and the
/// mean score A made.
fn calibration(s: &Score) {
    if s.calibration.is_empty() {
        return;
    }
    say!(
        "calibration of {} (A's expected score against A's mean score):",
        s.label
    );
    say!(
        "  {:<11} {:>8} {:>10} {:>9}",
        "E",
        "matches",
        "predicted",
        "observed"
    );
    for b in &s.calibration {
        say!(
            "  {:.1} – {:.1}  {:>8} {:>10.3} {:>9.3}",
            b.from,
            b.to,
            b.matches,
            b.predicted,
            b.observed
        );
    }
}

/// The ladder's own standings (A) beside a replay's (B), each labelled by its rules.
fn compare_out(label_a: &str, own: &Ladder, label_b: &str, other: &Ladder, json: bool) {
    let rows: Vec<CompareRow> = compare::compare(own, other);
    if json {
        say!(
            "{}",
            serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into())
        );
        return;
    }
    say!("A: {label_a}\nB: {label_b}");
    let tiers = rows
        .iter()
        .any(|r| r.tier_a.is_some() || r.tier_b.is_some());
    say!(
        "{:>6} {:>6} {:>6}  {:<24} {:>9} {:>9} {:>9} {:>9}{}",
        "rank A",
        "rank B",
        "change",
        "player",
        "score A",
        "score B",
        "rating A",
        "rating B",
        if tiers { "  tier A → tier B" } else { "" }
    );
    for r in &rows {
        let change = match r.rank_change {
            0 => "=".to_string(),
            c => format!("{c:+}"),
        };
        let tier_text = if tiers {
            format!("  {} → {}", tier(r.tier_a), tier(r.tier_b))
        } else {
            String::new()
        };
        say!(
            "{:>6} {:>6} {:>6}  {:<24} {:>9.1} {:>9.1} {:>9.1} {:>9.1}{tier_text}",
            r.rank_a,
            r.rank_b,
            change,
            r.name,
            r.score_a,
            r.score_b,
            r.rating_a,
            r.rating_b
        );
    }
}

fn number<T: std::str::FromStr>(flag: &str, text: &str, what: &str) -> Result<T> {
    text.trim()
        .parse()
        .map_err(|_| anyhow!("--{flag} `{text}`: give {what}"))
}

fn sim_config(args: &SimArgs) -> Result<SimConfig> {
    let d = SimConfig::default();
    let real = "a number from 0 to 10000";
    let at = Place::file(shown(&args.out));
    let cfg = SimConfig {
        players: number("players", &args.players, "a whole number from 2 to 100000")?,
        weeks: number("weeks", &args.weeks, "a whole number from 1 to 520")?,
        matches_per_week: number(
            "matches-per-week",
            &args.matches_per_week,
            "a whole number, 0 or more",
        )?,
        rules: {
            if !super::common::calendar_input(&args.rules.calendar).is_empty() {
                bail!(
                    "simulate presses the soft and hard reset buttons itself, at each week's \
                     end; set a season calendar on the simulated ladder with `rungs rules`"
                );
            }
            rules_from(&at, args.rules.system.as_deref(), &args.rules.params, None)?
        },
        seed: match &args.seed {
            Some(s) => number("seed", s, "a whole number, 0 or more")?,
            None => d.seed,
        },
        skill_sd: match &args.skill_sd {
            Some(s) => number("skill-sd", s, real)?,
            None => d.skill_sd,
        },
        pairing_noise: match &args.pairing_noise {
            Some(s) => number("pairing-noise", s, real)?,
            None => d.pairing_noise,
        },
        pairing: match args.pairing.as_deref() {
            None => d.pairing,
            Some(t) => rungs_pairing::simulated::SimPairing::parse(t).ok_or_else(|| {
                ActionError::invalid(
                    &at,
                    "pairing",
                    t,
                    "is not a pairing rule; choose nearest, random, balanced or swiss",
                )
            })?,
        },
        start: match &args.start {
            Some(s) => parse_day(&at, "start", s)?,
            None => SimConfig::default_start(
                number("weeks", &args.weeks, "a whole number from 1 to 520")?,
                action::today(),
            ),
        },
    };
    cfg.validate().map_err(|e| anyhow!("--{e}"))?;
    Ok(cfg)
}

/// `rungs simulate … OUT`.
pub fn simulate(args: &SimArgs) -> Result<()> {
    let cfg = sim_config(args)?;
    let clock = Instant::now();
    let progress = bar(!args.json, Some(cfg.events()));
    progress.set_message("simulating");
    let written = action::files::simulate_into(&args.out, &cfg, &mut |done| {
        progress.set_position(done);
        true
    });
    progress.finish_and_clear();
    let report = written?;
    let seconds = clock.elapsed().as_secs_f64();
    sim_report(&args.out, &cfg, &report, seconds, args.json);
    Ok(())
}

/// `rungs replay FILE`: with no rules options the log replays exactly as the ladder was
/// built (its first rules, then each rules change in it); with --system or --param those
/// rules hold from the start and the log's rules changes are skipped. `--compare` sets the
/// ladder's own standings (A) beside the replay's (B).
pub fn replay(file: &Path, args: &RulesArgs, compare: bool, json: bool) -> Result<()> {
    let store = Store::open(file)?;
    let at = Place::file(shown(file));
    let named = args.system.is_some()
        || !args.params.is_empty()
        || !super::common::calendar_input(&args.calendar).is_empty();
    let bar = spinner(!json, "replaying");
    // The cached ladder (its rules, its players' names) only when something needs it: a
    // plain replay reads nothing but the log.
    let own = if named || compare {
        Some(store.ladder()?)
    } else {
        None
    };
    let (ladder, label_b) = if let Some(own) = own.as_ref().filter(|_| named) {
        let rules = super::common::rules_of(&at, args, Some(&own.rules))?;
        // The log's own rules changes are passed over: these rules hold from the start.
        let replayed = match store.replay_fixed(&rules) {
            Err(rungs_store::StoreError::Replay { cause, .. }) => {
                return Err(replay_error(&at, own, &cause).into());
            }
            other => other?,
        };
        (replayed, Some(format!("{} from the start", label(&rules))))
    } else {
        (store.replay_state(&store.initial_rules()?)?, None)
    };
    bar.finish_and_clear();
    if let (true, Some(own)) = (compare, &own) {
        let label_a = own_label(&store, own)?;
        let label_b = label_b.unwrap_or_else(|| label_a.clone());
        compare_out(&label_a, own, &label_b, &ladder, json);
    } else {
        output::standings(&ladder, &standings::standings(&ladder), json);
    }
    Ok(())
}

/// The ladder's own rules as they were logged: its rules now, and how many changes led there.
fn own_label(store: &Store, own: &Ladder) -> Result<String> {
    let changes = store.rules_changes()?;
    Ok(match changes {
        0 => format!("{} (the ladder's own)", label(&own.rules)),
        n => format!(
            "{} (the ladder's own, as logged: {} before it)",
            label(&own.rules),
            plural(n, "rules change")
        ),
    })
}

fn replay_error(at: &Place, ladder: &Ladder, e: &rungs_ladder::replay::ReplayError) -> ActionError {
    ActionError::Replay {
        at: at.clone(),
        message: e.describe(&|id| {
            ladder
                .player(id)
                .filter(|p| p.joined)
                .map(|p| p.name.clone())
        }),
    }
}

fn sim_report(out: &Path, cfg: &SimConfig, r: &SimReport, seconds: f64, json: bool) {
    if json {
        let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert("file".into(), json!(out.display().to_string()));
            m.insert("config".into(), json!(cfg));
        }
        say!("{v}");
        return;
    }
    let rho = |x: Option<f64>| x.map_or_else(|| "—".into(), |x| format!("{x:.3}"));
    say!(
        "wrote {}: {} players, {} weeks, {} ({}, seed {}) in {seconds:.1} s",
        out.display(),
        cfg.players,
        cfg.weeks,
        plural(r.matches as usize, "match"),
        label(&cfg.rules),
        cfg.seed
    );
    let pairing = match cfg.pairing {
        rungs_pairing::simulated::SimPairing::Nearest => {
            format!("nearest rating, noise {}", cfg.pairing_noise)
        }
        other => other.as_text().to_string(),
    };
    say!(
        "true skill ~ Normal(1500, {}); pairing {pairing}; mean |E − ½| of the games {}",
        cfg.skill_sd,
        r.mean_abs_e.map_or("—".into(), |x| format!("{x:.3}"))
    );
    say!(
        "Spearman with true skill when play ends: score {}, rating {}",
        rho(r.spearman_score),
        rho(r.spearman_rating)
    );
    say!(
        "score inflation per week (matches only, resets aside): mean {:+.2}",
        (r.rp_inflation_mean * 100.0).round() / 100.0 + 0.0
    );
    for (i, chunk) in r.rp_inflation_per_week.chunks(13).enumerate() {
        // Rounded first, and + 0.0 turns −0 into 0: Elo's zero-sum drift of 1e-13 reads +0.0.
        let weeks: Vec<String> = chunk
            .iter()
            .map(|x| format!("{:+.1}", (x * 10.0).round() / 10.0 + 0.0))
            .collect();
        say!("  weeks {:>3}–: {}", 13 * i + 1, weeks.join(" "));
    }
    if !r.matches_to_tier.is_empty() {
        say!(
            "first reached each tier: {:<14} {:>8} {:>15}",
            "",
            "players",
            "median matches"
        );
        for t in &r.matches_to_tier {
            let median = t
                .median_matches
                .map_or_else(|| "—".into(), |m| format!("{m:.1}"));
            say!("  {:<37} {:>8} {:>15}", t.tier, t.reached, median);
        }
    }
}
