//! Enter match: keyboard first, and safe. Date, Player A, Player B; Tab completes a name and
//! moves on (A → B → the result), never onto a button by accident; 1, D and 2 pick the
//! result whenever the keyboard is not in a text field (F then makes the pick a win by
//! forfeit); Enter saves only a complete form and never presses a focused button; after a
//! save the keyboard is back in Player A. Before saving: each side's chances (and the draw's,
//! where the system models draws) and the exact change each result would make — or why there
//! is no forecast. Below, the latest matches; "edit…" corrects date, players, result, medals
//! and sides, or deletes (with Undo offered, no dialog).

use super::command::{Command, Screen, ToolCommand};
use super::picker::name_picker;
use super::state::{self, AppState};
use super::{widgets, words};
use chrono::NaiveDate;
use eframe::egui::{self, Key, RichText};
use rungs_gate::matches::{MatchEdit, MatchInput};
use rungs_gate::{ActionError, Place};
use rungs_ladder::event::{Entry, Event, EventClass, Match, MatchResult};
use rungs_ladder::log::Effective;
use rungs_ladder::preview::Change;
use rungs_ladder::rules::System;
use rungs_rating::{Outcome, Prediction};

/// The match form as typed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchForm {
    pub date: String,
    pub a: String,
    pub b: String,
    pub result: Option<MatchResult>,
    pub medals_a: String,
    pub medals_b: String,
    pub scenario: String,
    pub side_a: String,
    /// Which side is at home or moves first (SPEC §2.6): "a", "b", "neutral", or "" for no
    /// flag.
    pub home: String,
    /// Each side's points, "3-1" (issue 26), or "" for none; a score sets the result.
    pub score: String,
    /// The event's class: "friendly" … "championship", a weight, or "" for none.
    pub class: String,
}

impl MatchForm {
    /// The form as the gate reads it.
    pub fn input(&self) -> MatchInput {
        let medals = match (self.medals_a.trim(), self.medals_b.trim()) {
            ("", "") => None,
            (a, b) => Some(format!("{a},{b}")),
        };
        MatchInput {
            date: Some(self.date.clone()),
            a: self.a.clone(),
            b: self.b.clone(),
            result: self
                .result
                .map(|r| r.as_text().to_string())
                .unwrap_or_default(),
            medals,
            scenario: Some(self.scenario.clone()),
            side_a: Some(self.side_a.clone()),
            home: Some(self.home.clone()),
            score: Some(self.score.clone()),
            class: Some(self.class.clone()),
        }
    }
}

/// A match being corrected: the fields as they stand, and the match they started from.
#[derive(Debug, Clone, PartialEq)]
pub struct EditForm {
    pub original: Effective,
    pub form: MatchForm,
    highlight: [usize; 2],
}

/// The forecast for the form's pairing, kept until the form or the ladder changes.
#[derive(Debug, Clone)]
pub struct Forecast {
    key: (MatchForm, u64),
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

/// The Enter match screen's own state.
pub struct EnterMatchScreen {
    pub form: MatchForm,
    highlight: [usize; 2],
    /// Give Player A the keyboard on the next frame (after a save, on arriving).
    focus_a: bool,
    /// Enter, taken for the form before the menu and tabs were drawn (see [`EnterMatchScreen::take_enter`]).
    enter: bool,
    forecast: Option<Forecast>,
    pub edit: Option<EditForm>,
}

impl Default for EnterMatchScreen {
    fn default() -> Self {
        EnterMatchScreen {
            form: MatchForm {
                date: state::today().to_string(),
                ..MatchForm::default()
            },
            highlight: [0; 2],
            focus_a: true,
            enter: false,
            forecast: None,
            edit: None,
        }
    }
}

impl EnterMatchScreen {
    /// A match was saved: the form clears for the next one (the date stays), the keyboard
    /// goes back to Player A.
    pub fn saved(&mut self) {
        self.form = MatchForm {
            date: std::mem::take(&mut self.form.date),
            ..MatchForm::default()
        };
        self.highlight = [0; 2];
        self.focus_a = true;
    }

    /// The screen was switched to: the keyboard goes to Player A, where a person starts
    /// typing (on every arrival, not only the first, or Tab walks into the menu bar).
    pub fn arrived(&mut self) {
        if self.edit.is_none() {
            self.focus_a = true;
        }
    }

    /// Takes Enter for the form before anything else is drawn this frame, so that a menu,
    /// tab or Undo button with the keyboard is never pressed by it. Escape closes an open
    /// edit window, else clears the form (its date kept); it is left to the text field too,
    /// which gives the keyboard up, so that Ctrl+Z then acts on the ladder.
    pub fn take_enter(&mut self, ui: &egui::Ui) {
        self.enter |= ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Enter));
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            if self.edit.is_some() {
                self.edit = None;
            } else {
                self.form = MatchForm {
                    date: std::mem::take(&mut self.form.date),
                    ..MatchForm::default()
                };
                self.highlight = [0; 2];
            }
        }
    }

    /// Opens the edit window on match `e` (from the latest, or from the Matches screen).
    pub fn open_edit(&mut self, app: &AppState, e: &Effective) {
        if let Event::Match(m) = &e.event {
            self.edit = Some(EditForm {
                original: e.clone(),
                form: form_of(app, e.date, m),
                highlight: [0; 2],
            });
        }
    }

    /// Draws the edit window, if one is open, for a screen other than this one (Matches):
    /// Enter saves it, as here.
    pub fn show_edit(&mut self, ui: &mut egui::Ui, app: &AppState, out: &mut Vec<Command>) {
        let enter = std::mem::take(&mut self.enter);
        if self.edit.is_some() {
            edit_window(ui, self, app, out, enter);
        }
    }

    /// The forecast for the form (computed when the form or the ladder changed).
    pub fn forecast(&mut self, app: &AppState) -> &Forecast {
        let mut key_form = self.form.clone();
        key_form.result = None;
        let key = (key_form, app.generation);
        if self.forecast.as_ref().is_some_and(|f| f.key != key) {
            self.forecast = None;
        }
        self.forecast
            .get_or_insert_with(|| compute_forecast(app, key))
    }
}

/// The form's match with any result, or what is wrong with the form: the gate's refusal,
/// the very one saving it (or `rungs add-match` on the same file) would give.
fn form_match(app: &AppState, input: &MatchInput) -> Result<(NaiveDate, Match), ActionError> {
    let act = rungs_gate::Action::add_match(&app.context(), input)?;
    match act.rows() {
        [
            (
                date,
                Entry::Add {
                    event: Event::Match(m),
                },
            ),
        ] => Ok((*date, m.clone())),
        _ => Err(ActionError::refused(&Place::default(), "not a match")),
    }
}

/// Whether the form can be saved, or why not.
pub fn check(app: &AppState, form: &MatchForm) -> Result<(), String> {
    if form.a.trim().is_empty() || form.b.trim().is_empty() {
        return Err("type both players' names".into());
    }
    if form.result.is_none() {
        return Err("choose the result: 1, D or 2 (F after 1 or 2 for a forfeit)".into());
    }
    form_match(app, &form.input())
        .map(|_| ())
        .map_err(|e| words::action(&e, Screen::EnterMatch))
}

fn compute_forecast(app: &AppState, key: (MatchForm, u64)) -> Forecast {
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

/// "Portugal beat Spain", as the form would save it.
pub fn said(form: &MatchForm) -> String {
    let (a, b) = (form.a.trim(), form.b.trim());
    match form.result {
        Some(r) => r.sentence(a, b),
        None => format!("{a} v {b}"),
    }
}

/// The result buttons' words for sides `a` and `b`: "Portugal wins (2)", never "B wins".
fn result_choices(a: &str, b: &str, keys: bool) -> Vec<(String, MatchResult)> {
    let k = |s: &str| {
        if keys {
            format!(" ({s})")
        } else {
            String::new()
        }
    };
    vec![
        (
            format!("{a} wins{}", k("1")),
            MatchResult::Played(Outcome::Win),
        ),
        (
            format!("Draw{}", k("D")),
            MatchResult::Played(Outcome::Draw),
        ),
        (
            format!("{b} wins{}", k("2")),
            MatchResult::Played(Outcome::Loss),
        ),
        (format!("{b} forfeits"), MatchResult::ForfeitB),
        (format!("{a} forfeits"), MatchResult::ForfeitA),
    ]
}

/// 1, D, 2 and F as results (F: the chosen winner wins by forfeit).
fn result_key(ui: &egui::Ui, current: Option<MatchResult>) -> Option<MatchResult> {
    let pressed = |k| ui.input(|i| i.key_pressed(k) && !i.modifiers.command);
    let played = |o| Some(MatchResult::Played(o));
    if pressed(Key::Num1) {
        return played(Outcome::Win);
    }
    if pressed(Key::D) {
        return played(Outcome::Draw);
    }
    if pressed(Key::Num2) {
        return played(Outcome::Loss);
    }
    if pressed(Key::F) {
        return match current {
            Some(MatchResult::Played(Outcome::Win)) => Some(MatchResult::ForfeitB),
            Some(MatchResult::Played(Outcome::Loss)) => Some(MatchResult::ForfeitA),
            other => other,
        };
    }
    None
}

fn shown_name(text: &str, fallback: &str) -> String {
    match text.trim() {
        "" => fallback.to_string(),
        t => t.to_string(),
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut EnterMatchScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    // Enter belongs to the form (or the edit window): it saves, and never presses whatever
    // button happens to have the keyboard.
    let enter = std::mem::take(&mut me.enter)
        | ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Enter));
    if me.edit.is_some() {
        edit_window(ui, me, app, out, enter);
    }
    let past = app.tools.position;
    if let Some(n) = past {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "Viewing the past (after event {}): the forecast is as of then, and saving is \
                     off until you return to now.",
                    widgets::thousands(n as u64)
                ))
                .color(ui.visuals().warn_fg_color),
            );
            if ui.button("Return to now").clicked() {
                out.push(Command::Tool(ToolCommand::ReturnToNow));
            }
        });
    }
    let base = ui.scope_id().with("enter-form");
    let ids = [base.with("date"), base.with("a"), base.with("b")];
    let offers_a = app.suggestions(&me.form.a, 6);
    let offers_b = app.suggestions(&me.form.b, 6);
    let mut focus_result = false;
    if std::mem::take(&mut me.focus_a) {
        ui.memory_mut(|m| m.request_focus(ids[1]));
    }
    ui.horizontal_wrapped(|ui| {
        ui.vertical(|ui| {
            let name = ui.label("Date");
            ui.add(
                egui::TextEdit::singleline(&mut me.form.date)
                    .id(ids[0])
                    .desired_width(100.0),
            )
            .labelled_by(name.id);
        });
        let width = 200.0_f32.min(ui.available_width() - 20.0).max(120.0);
        let a = name_picker(
            ui,
            "Player A",
            ids[1],
            &mut me.form.a,
            &mut me.highlight[0],
            &offers_a,
            width,
        );
        ui.label("vs");
        let b = name_picker(
            ui,
            "Player B",
            ids[2],
            &mut me.form.b,
            &mut me.highlight[1],
            &offers_b,
            width,
        );
        match (a.tab, b.tab) {
            (Some(false), _) => ui.memory_mut(|m| m.request_focus(ids[2])),
            (Some(true), _) => ui.memory_mut(|m| m.request_focus(ids[0])),
            (_, Some(false)) => focus_result = true,
            (_, Some(true)) => ui.memory_mut(|m| m.request_focus(ids[1])),
            _ => {}
        }
    });
    if app.ladder.rules.system() == System::Memoir44 {
        memoir_fields(ui, &mut me.form, app);
    }
    let (name_a, name_b) = (shown_name(&me.form.a, "A"), shown_name(&me.form.b, "B"));
    home_field(ui, "enter-home", &mut me.form.home, &name_a, &name_b);
    score_fields(ui, "enter", &mut me.form);
    forecast_lines(ui, me, app, (&name_a, &name_b), out);
    // Result: buttons named after the players; 1 / D / 2 / F whenever the keyboard is not in
    // a text field.
    if !ui.ctx().text_edit_focused()
        && let Some(r) = result_key(ui, me.form.result)
    {
        me.form.result = Some(r);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Result:");
        for (i, (label, r)) in result_choices(&name_a, &name_b, true)
            .into_iter()
            .enumerate()
        {
            let response = ui.selectable_label(me.form.result == Some(r), label);
            if i == 0 && focus_result {
                response.request_focus();
            }
            if response.clicked() {
                me.form.result = Some(r);
            }
        }
    });
    let ready = check(app, &me.form);
    ui.horizontal_wrapped(|ui| {
        let can = ready.is_ok() && past.is_none();
        let save = ui.add_enabled(can, egui::Button::new("Save match (Enter)"));
        if save.clicked() || (enter && can && me.edit.is_none()) {
            out.push(Command::AddMatch {
                input: me.form.input(),
                said: said(&me.form),
            });
        }
        match &ready {
            Err(why) => {
                ui.weak(why);
            }
            Ok(()) => {
                ui.weak("Keys: 1, D, 2 pick the result; F makes it a win by forfeit; Enter saves.");
            }
        }
    });
    ui.separator();
    ui.heading("Latest");
    latest(ui, me, app);
}

/// Which side is at home or moves first (SPEC §2.6): a side advantage applies to it when the
/// rules have one.
fn home_field(ui: &mut egui::Ui, id: &str, home: &mut String, a: &str, b: &str) {
    let choices = [
        ("", "no one (no advantage)".to_string()),
        ("a", format!("{a} (at home or first)")),
        ("b", format!("{b} (at home or first)")),
        ("neutral", "neutral ground".to_string()),
    ];
    ui.horizontal(|ui| {
        let name = ui.label("Home:");
        let shown = choices
            .iter()
            .find(|(v, _)| v == home)
            .map_or(home.clone(), |(_, l)| l.clone());
        egui::ComboBox::from_id_salt(id)
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (value, label) in &choices {
                    ui.selectable_value(home, value.to_string(), label);
                }
            })
            .response
            .labelled_by(name.id);
    });
}

/// The optional score ("3-1", which sets the result it decides) and the event's class.
fn score_fields(ui: &mut egui::Ui, id: &str, form: &mut MatchForm) {
    ui.horizontal_wrapped(|ui| {
        let name = ui.label("Score (optional):");
        let typed = ui
            .add(
                egui::TextEdit::singleline(&mut form.score)
                    .id_salt((id, "score"))
                    .hint_text("3-1")
                    .desired_width(60.0),
            )
            .labelled_by(name.id);
        if typed.changed()
            && let Ok(goals) = rungs_ladder::score::parse_score(&form.score)
        {
            form.result = Some(MatchResult::Played(rungs_ladder::score::outcome_of(goals)));
        }
        let name = ui.label("Class:");
        let shown = if form.class.is_empty() {
            "none".to_string()
        } else {
            form.class.clone()
        };
        egui::ComboBox::from_id_salt((id, "class"))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.class, String::new(), "none");
                for c in EventClass::NAMED {
                    let text = c.as_text();
                    ui.selectable_value(&mut form.class, text.clone(), text);
                }
            })
            .response
            .labelled_by(name.id);
    });
}

fn memoir_fields(ui: &mut egui::Ui, form: &mut MatchForm, app: &AppState) {
    ui.horizontal_wrapped(|ui| {
        for (label, text, width) in [
            ("Medals A", &mut form.medals_a, 40.0),
            ("Medals B", &mut form.medals_b, 40.0),
            ("Scenario", &mut form.scenario, 160.0),
            ("A's side", &mut form.side_a, 100.0),
        ] {
            let name = ui.label(label);
            ui.add(egui::TextEdit::singleline(text).desired_width(width))
                .labelled_by(name.id);
        }
    });
    // The scenario's record so far (seed 002, Appendix I), what the battle will be weighed by.
    if let Some(stats) = app.ladder.scenarios.stats(&form.scenario) {
        let line = format!("{}: {}", form.scenario.trim(), stats.summary());
        ui.label(rungs_ladder::values::shown(&line).into_owned());
    }
}

/// The chances and each result's effect, or why there are none.
fn forecast_lines(
    ui: &mut egui::Ui,
    me: &mut EnterMatchScreen,
    app: &AppState,
    names: (&str, &str),
    out: &mut Vec<Command>,
) {
    let (a, b) = names;
    let draws = app.ladder.rules.facts().draws;
    let f = me.forecast(app).clone();
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
            me.form.date.trim()
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

/// The latest matches, newest first; each opens in the edit window (delete lives there, so no
/// delete button slides under the pointer when a row goes).
fn latest(ui: &mut egui::Ui, me: &mut EnterMatchScreen, app: &AppState) {
    egui::ScrollArea::vertical()
        .id_salt("latest")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let mut any = false;
            for e in &app.latest {
                if !matches!(e.event, Event::Match(_)) {
                    continue;
                }
                any = true;
                // The file's newest events, named as the file names them now (the ladder on
                // screen may be the past's, where some of these players have not joined).
                let line = widgets::event_line(app.now(), &e.event);
                ui.push_id(e.seq, |ui| {
                    ui.horizontal(|ui| {
                        let edit = ui
                            .add_enabled(
                                app.tools.position.is_none(),
                                egui::Button::new("edit…").small(),
                            )
                            .on_hover_text(
                                "Change the date, players, result, medals or sides, or delete",
                            );
                        if edit.clicked() {
                            me.open_edit(app, e);
                        }
                        ui.label(format!("{}  {line}", e.date));
                    });
                });
            }
            if !any {
                ui.weak("No matches yet: the first one you save shows here.");
            }
        });
}

/// A saved match as the form shows it.
fn form_of(app: &AppState, date: NaiveDate, m: &Match) -> MatchForm {
    let side = |ids: &[u32]| {
        ids.iter()
            .map(|&i| {
                app.ladder
                    .player(i)
                    .map_or("?".to_string(), |p| p.name.clone())
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let medal = |i: usize| m.medals.map(|md| format!("{}", md[i])).unwrap_or_default();
    MatchForm {
        date: date.to_string(),
        a: side(&m.a),
        b: side(&m.b),
        result: Some(m.result),
        medals_a: medal(0),
        medals_b: medal(1),
        scenario: m.scenario.clone().unwrap_or_default(),
        side_a: m.side_a.clone().unwrap_or_default(),
        home: m.home.map(|h| h.as_text().to_string()).unwrap_or_default(),
        score: m.goals.map(|[x, y]| format!("{x}-{y}")).unwrap_or_default(),
        class: m.class.map(EventClass::as_text).unwrap_or_default(),
    }
}

/// What an edit changes: every field that differs from the match as saved.
fn edit_of(was: &MatchForm, now: &MatchForm) -> MatchEdit {
    let changed = |a: &str, b: &str| (a.trim() != b.trim()).then(|| b.trim().to_string());
    let medals = (was.medals_a.trim() != now.medals_a.trim()
        || was.medals_b.trim() != now.medals_b.trim())
    .then(|| match (now.medals_a.trim(), now.medals_b.trim()) {
        ("", "") => String::new(),
        (a, b) => format!("{a},{b}"),
    });
    MatchEdit {
        date: changed(&was.date, &now.date),
        a: changed(&was.a, &now.a),
        b: changed(&was.b, &now.b),
        result: (was.result != now.result)
            .then(|| now.result.map(|r| r.as_text().to_string()))
            .flatten(),
        medals,
        scenario: changed(&was.scenario, &now.scenario),
        side_a: changed(&was.side_a, &now.side_a),
        home: changed(&was.home, &now.home),
        score: changed(&was.score, &now.score),
        class: changed(&was.class, &now.class),
    }
}

/// The edit window: every field of the match, the result named after the players, Save
/// changes (Enter), Delete and Cancel (Escape).
fn edit_window(
    ui: &mut egui::Ui,
    me: &mut EnterMatchScreen,
    app: &AppState,
    out: &mut Vec<Command>,
    enter: bool,
) {
    let Some(edit) = me.edit.as_mut() else { return };
    let was = form_of_effective(app, &edit.original);
    let mut open = true;
    let mut close = false;
    let title = format!(
        "Edit match: {}",
        widgets::event_line(&app.ladder, &edit.original.event)
    );
    let offers_a = app.suggestions(&edit.form.a, 6);
    let offers_b = app.suggestions(&edit.form.b, 6);
    // Room for the date and both sides on one line where the window allows.
    let width = 600.0_f32.min(ui.ctx().content_rect().width() - 40.0);
    egui::Window::new(title)
        .id(egui::Id::unique("edit-match"))
        .min_width(width)
        .default_width(width)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 80.0])
        .show(ui.ctx(), |ui| {
            let base = egui::Id::unique("edit-form");
            ui.horizontal_wrapped(|ui| {
                ui.vertical(|ui| {
                    let name = ui.label("Match date");
                    ui.add(egui::TextEdit::singleline(&mut edit.form.date).desired_width(100.0))
                        .labelled_by(name.id);
                });
                let a = name_picker(
                    ui,
                    "Side A",
                    base.with("a"),
                    &mut edit.form.a,
                    &mut edit.highlight[0],
                    &offers_a,
                    160.0,
                );
                let b = name_picker(
                    ui,
                    "Side B",
                    base.with("b"),
                    &mut edit.form.b,
                    &mut edit.highlight[1],
                    &offers_b,
                    160.0,
                );
                if a.tab == Some(false) {
                    ui.memory_mut(|m| m.request_focus(base.with("b")));
                }
                if b.tab == Some(true) {
                    ui.memory_mut(|m| m.request_focus(base.with("a")));
                }
            });
            let (na, nb) = (shown_name(&edit.form.a, "A"), shown_name(&edit.form.b, "B"));
            ui.horizontal_wrapped(|ui| {
                ui.label("Result:");
                let mut choices = result_choices(&na, &nb, false);
                choices.push(("Cancelled".into(), MatchResult::Cancelled));
                for (label, r) in choices {
                    if ui
                        .selectable_label(edit.form.result == Some(r), label)
                        .clicked()
                    {
                        edit.form.result = Some(r);
                    }
                }
            });
            let memoir = app.ladder.rules.system() == System::Memoir44
                || !was.medals_a.is_empty()
                || !was.scenario.is_empty()
                || !was.side_a.is_empty();
            if memoir {
                memoir_fields(ui, &mut edit.form, app);
            }
            home_field(ui, "edit-home", &mut edit.form.home, &na, &nb);
            score_fields(ui, "edit", &mut edit.form);
            let changes = edit_of(&was, &edit.form);
            let nothing = changes == MatchEdit::default();
            ui.horizontal(|ui| {
                let save = ui.add_enabled(!nothing, egui::Button::new("Save changes (Enter)"));
                if save.clicked() || (enter && !nothing) {
                    out.push(Command::EditMatch {
                        seq: edit.original.seq,
                        edit: changes.clone(),
                    });
                }
                if ui
                    .button("Delete match")
                    .on_hover_text("Removes it from the ladder; Undo brings it back")
                    .clicked()
                {
                    out.push(Command::DeleteEvent {
                        seq: edit.original.seq,
                        said: widgets::event_line(&app.ladder, &edit.original.event),
                    });
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
            if nothing {
                ui.weak("Change a field to save; Escape closes.");
            }
        });
    let escape = ui.input(|i| i.key_pressed(Key::Escape));
    if !open || close || escape {
        me.edit = None;
    }
}

fn form_of_effective(app: &AppState, e: &Effective) -> MatchForm {
    match &e.event {
        Event::Match(m) => form_of(app, e.date, m),
        _ => MatchForm::default(),
    }
}
