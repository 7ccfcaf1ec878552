//! The forecast panel: each side's chances and the change each result would make, or why
//! there is no forecast.
use super::form::{MatchForm, form_match};
use crate::command::{Command, Screen};
use crate::state::AppState;
use crate::{widgets, words};
use eframe::egui::{self, RichText};
use rungs_ladder::event::{Entry, Event, MatchResult};
use rungs_ladder::preview::Change;
use rungs_rating::{Outcome, Prediction};

/// The forecast for the form's pairing, kept until the form or the ladder changes.
#[derive(Debug, Clone)]
pub struct Forecast {
    pub(super) key: (MatchForm, u64),
    pub prediction: Option<Prediction>,
    /// For A wins, draw, B wins: each player's change.
    pub outcomes: Vec<(MatchResult, Vec<Change>)>,
    /// The exact changes of a backdated match on a large ladder need a full recomputation
    /// each; they are left to the save rather than freezing the form.
    pub deferred: bool,
    /// Why there is no forecast, in words (the gate's message about the form).
    pub missing: Option<String>,
    /// The step that would let the form through ("Add Portu as a player"), if there is one.
    pub fix: Option<rungs_gate::Fix>,
    /// The season calendar's resets this match would apply first, in words ("a hard reset
    /// is due first: Spain 1394 → 1066 before this match").
    pub due: Option<String>,
}

pub(super) fn compute_forecast(app: &AppState, key: (MatchForm, u64)) -> Forecast {
    let mut f = Forecast {
        key: key.clone(),
        prediction: None,
        outcomes: Vec::new(),
        deferred: false,
        missing: None,
        fix: None,
        due: None,
    };
    let form = &key.0;
    if form.a.trim().is_empty() || form.b.trim().is_empty() {
        f.missing = Some("type both players' names".into());
        return f;
    }
    let mut input = form.input();
    input.result = "1".into();
    let (date, m) = match form_match(app, &input) {
        Ok(dm) => dm,
        Err(why) => {
            f.missing = Some(words::action(&why, Screen::EnterMatch));
            // "Add Portu as a player" while Portugal is on offer would mislead: not then.
            f.fix = why.fix().filter(|fix| match fix {
                rungs_gate::Fix::AddPlayer(name) => app.suggestions(name, 1).is_empty(),
            });
            return f;
        }
    };
    let ids: Vec<_> = m.a.iter().chain(m.b.iter()).copied().collect();
    f.due = rungs_ladder::seasons::due_first(&app.ladder, date, &ids)
        .map(|due| due_words(&due, &app.ladder));
    // The ladder on screen: as it stood at the timeline's point when the past is shown.
    f.prediction = rungs_ladder::predict::forecast_match(&app.ladder, &m, date);
    let (Some(store), None) = (app.store.as_ref(), app.tools.position) else {
        return f;
    };
    let probe = [(
        date,
        Entry::Add {
            event: Event::Match(m.clone()),
        },
    )];
    if app.is_large() && !app.appends(&probe) {
        f.deferred = true;
        return f;
    }
    // The same numbers `rungs predict` prints.
    match store.forecast(date, &m) {
        Ok(fc) => f.outcomes = fc.outcomes,
        Err(e) => f.missing = Some(words::store(&e)),
    }
    f
}

/// "A hard reset is due first: Spain 1394 → 1066, Portugal 1200 → 1000 before this match".
fn due_words(
    due: &rungs_ladder::seasons::DueFirst,
    ladder: &rungs_ladder::replay::Ladder,
) -> String {
    let what = match (due.soft, due.hard) {
        (1, 1) => "a hard reset (the season ends) is due first".to_string(),
        (1, _) => "a soft reset (the week ends) is due first".to_string(),
        (n, 0) => format!("{n} soft resets (weeks end) are due first"),
        (n, 1) => format!("{n} resets are due first (one ends the season)"),
        (n, h) => format!("{n} resets are due first ({h} of them end seasons)"),
    };
    let players: Vec<String> = due
        .players
        .iter()
        .map(|&(id, before, after)| {
            let name = ladder.player(id).map_or("?", |p| p.name.as_str());
            format!("{name} {before:.0} → {after:.0}")
        })
        .collect();
    let mut out = what;
    if !players.is_empty() {
        out += &format!(": {} before this match", players.join(", "));
    }
    let mut chars = out.chars();
    chars
        .next()
        .map_or(out.clone(), |c| c.to_uppercase().chain(chars).collect())
}

/// The chances and each result's effect, or why there are none.
pub(super) fn forecast_lines(
    ui: &mut egui::Ui,
    f: &Forecast,
    form: &MatchForm,
    app: &AppState,
    names: (&str, &str),
    out: &mut Vec<Command>,
) {
    let (a, b) = names;
    let draws = app.ladder.rules.facts().draws;
    match f.prediction {
        Some(p) => {
            let mut line = format!("{a} {:.0}%", 100.0 * p.win_a);
            if draws {
                line.push_str(&format!("  ·  draw {:.0}%", 100.0 * p.draw));
            }
            line.push_str(&format!("  ·  {b} {:.0}%", 100.0 * p.win_b));
            ui.label(RichText::new(line).strong());
        }
        None => {
            let why = f
                .missing
                .as_deref()
                .unwrap_or("the system cannot rate this pairing");
            ui.horizontal_wrapped(|ui| {
                ui.weak(format!("No forecast yet: {why}"));
                if let Some(fix) = &f.fix
                    && ui.button(words::fix_button(fix)).clicked()
                {
                    out.push(words::fix_command(fix));
                }
            });
        }
    }
    if let Some(due) = &f.due {
        ui.label(RichText::new(due).color(ui.visuals().warn_fg_color));
    }
    if f.deferred {
        ui.label(format!(
            "This match is dated before the latest event: saving it recomputes the ladder from {} \
             (in the background), so its exact changes show after saving.",
            form.date.trim()
        ));
    }
    for (r, changes) in &f.outcomes {
        let title = match r {
            MatchResult::Played(Outcome::Win) => format!("If {a} wins:"),
            MatchResult::Played(Outcome::Draw) => "If drawn:".to_string(),
            _ => format!("If {b} wins:"),
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(title).strong());
            for c in changes {
                let before = c.before.map_or(c.after.score, |b| b.score);
                let d = c.after.score - before;
                ui.label(format!("{} {:.0} → {:.0}", c.name, before, c.after.score));
                ui.label(
                    RichText::new(format!("({})", widgets::delta(d)))
                        .color(widgets::delta_colour(ui, d)),
                );
                if c.tier_before != c.tier_after
                    && let Some(t) = c.tier_after
                {
                    let up = c.tier_before.is_none_or(|b| t > b);
                    ui.label(
                        RichText::new(format!("{} {}", if up { "▲" } else { "▼" }, t.name()))
                            .color(widgets::tier_colour(t)),
                    );
                }
            }
        });
    }
}
