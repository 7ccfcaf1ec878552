//! The form's state: what is typed, where the keyboard goes (Enter, Escape, Player A, the
//! result keys), and whether the form can be saved.
use crate::command::Screen;
use crate::state::AppState;
use crate::words;
use chrono::NaiveDate;
use eframe::egui::{self, Key};
use rungs_gate::matches::MatchInput;
use rungs_gate::{ActionError, Place};
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::log::Effective;
use rungs_rating::Outcome;

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
    /// Which side is at home or moves first, for the side advantage: "a", "b", "neutral", or ""
    /// for no flag.
    pub home: String,
    /// Each side's points, "3-1", or "" for none; a score sets the result.
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
    pub(super) highlight: [usize; 2],
}

/// The form's match with any result, or what is wrong with the form: the gate's refusal,
/// the very one saving it (or `rungs add-match` on the same file) would give.
pub(super) fn form_match(
    app: &AppState,
    input: &MatchInput,
) -> Result<(NaiveDate, Match), ActionError> {
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

/// "Portugal beat Spain", as the form would save it.
pub fn said(form: &MatchForm) -> String {
    let (a, b) = (form.a.trim(), form.b.trim());
    match form.result {
        Some(r) => r.sentence(a, b),
        None => format!("{a} v {b}"),
    }
}

/// 1, D, 2 and F as results (F: the chosen winner wins by forfeit).
pub(super) fn result_key(ui: &egui::Ui, current: Option<MatchResult>) -> Option<MatchResult> {
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
