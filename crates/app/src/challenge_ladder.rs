//! Challenges: the challenge ladder's positions and its open challenges with the days each
//! has left; "Challenge…" picks a challenger and a defender (the gate refuses one beyond
//! reach, within a cooldown or while one is open, naming them), and "Enter result" settles
//! an open challenge. Each change is a [`Command`], applied after the frame; the positions
//! are the gate's reading of the log ([`AppState::formats`]).

use super::command::{Command, FormatCommand};
use super::picker::{name_picker, suggestions};
use super::state::AppState;
use super::widgets::{self, ResultRow};
use eframe::egui::{self, Key, RichText};
use rungs_gate::formats::Formats;
use rungs_ladder::event::PlayerId;
use rungs_ladder::formats::settings::{ChallengeSettings, Movement, Unplayed};
use std::sync::Arc;

/// The result form of one open challenge.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultForm {
    pub number: u32,
    /// The keyboard goes to the score when the form opens.
    pub focus: bool,
    /// The games from the challenger's side ("3-1"); they alone may decide the result.
    pub games: String,
}

/// The formats as read (none without a ladder), or why they could not be read.
type Read = Result<Option<Arc<Formats>>, String>;

/// The Challenges screen's own state.
#[derive(Default)]
pub struct ChallengesScreen {
    /// The "Challenge…" form is open.
    pub asking: bool,
    /// The keyboard goes to the challenger's name when the form opens.
    focus_form: bool,
    pub challenger: String,
    pub defender: String,
    highlight: [usize; 2],
    pub result: Option<ResultForm>,
    /// The formats read at this generation of the ladder (or why they could not be).
    read: Option<(u64, Read)>,
}

impl ChallengesScreen {
    /// Shared, not copied: the screen draws every frame.
    fn formats(&mut self, app: &AppState) -> Read {
        if self.read.as_ref().is_none_or(|r| r.0 != app.generation) {
            let read = app
                .formats()
                .map(|f| f.map(Arc::new))
                .map_err(|e| crate::words::app(&e, crate::command::Screen::Challenges));
            self.read = Some((app.generation, read));
        }
        self.read.as_ref().map(|r| r.1.clone()).unwrap_or(Ok(None))
    }

    /// A change landed: the forms are done with (a refused one stays as typed, since the
    /// ladder does not change then).
    fn landed(&mut self, app: &AppState) {
        if self.read.as_ref().is_some_and(|r| r.0 != app.generation) {
            self.asking = false;
            self.challenger.clear();
            self.defender.clear();
            self.result = None;
        }
    }
}

/// A challenge ladder's rules in a line: "reach 3 · play within 7 days or forfeit · …".
pub fn rules_line(s: &ChallengeSettings) -> String {
    let unplayed = match s.unplayed {
        Unplayed::Forfeit => "or the challenger wins by forfeit",
        Unplayed::Lapse => "or it lapses",
    };
    let movement = match s.movement {
        Movement::Leapfrog => "a winning challenger takes the place, those between move down",
        Movement::Swap => "a winning challenger swaps places",
    };
    let mut parts = vec![
        format!("reach {}", s.reach),
        format!("play within {} days {unplayed}", s.respond_days),
        format!(
            "a defender accepts one challenge per {} days",
            s.defend_days
        ),
        format!("the same pair again after {} days", s.rematch_days),
        movement.to_string(),
    ];
    if let Some(idle) = s.idle_days {
        parts.push(format!(
            "no match for {idle} days: down {} places",
            s.idle_drop
        ));
    }
    parts.join(" · ")
}

fn days_left(days: i64) -> String {
    match days {
        0 => "last day".to_string(),
        1 => "1 day left".to_string(),
        n if n < 0 => "past its deadline".to_string(),
        n => format!("{n} days left"),
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut ChallengesScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    me.landed(app);
    let f = match me.formats(app) {
        Ok(Some(f)) => f,
        Ok(None) => return,
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
    };
    let ladder = &app.ladder;
    let name = |id: PlayerId| {
        ladder.player(id).map_or("?".to_string(), |p| {
            rungs_ladder::values::shown(&p.name).into_owned()
        })
    };
    let c = &f.challenge;
    if !c.started {
        ui.heading("Challenge ladder");
        ui.label(
            "This ladder runs no challenge ladder yet. Starting one places every active player \
             by rating, best first; results still rate as before.",
        );
        if ui.button("Start the challenge ladder").clicked() {
            out.push(Command::Format(FormatCommand::StartChallengeLadder));
        }
        return;
    }
    let positions = c.positions();
    let open = c.open_challenges(crate::state::today());
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("Challenge ladder · {} players", positions.len()));
        let label = if me.asking {
            "Challenge ▾"
        } else {
            "Challenge…"
        };
        if ui.button(label).clicked() {
            me.asking = !me.asking;
            me.focus_form = me.asking;
        }
    });
    ui.label(RichText::new(format!("Rules: {}", rules_line(&c.settings))).weak());
    if me.asking {
        challenge_form(ui, me, app, out);
    }
    if let Some(form) = &mut me.result {
        let closed = match open.iter().find(|o| o.number == form.number) {
            Some(o) => result_form(ui, form, &name(o.challenger), &name(o.defender), out),
            None => true,
        };
        if closed {
            me.result = None;
        }
    }
    ui.separator();
    let mut enter = None;
    egui::ScrollArea::vertical()
        .id_salt("challenge-positions")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            if !open.is_empty() {
                ui.strong(format!("Open challenges ({})", open.len()));
                egui::Grid::new("open-challenges")
                    .striped(true)
                    .show(ui, |ui| {
                        for o in &open {
                            ui.label(format!("{}", o.number));
                            ui.label(format!(
                                "{} ({}) challenges {} ({})",
                                name(o.challenger),
                                o.challenger_position,
                                name(o.defender),
                                o.defender_position
                            ));
                            ui.label(format!("play by {}", o.deadline));
                            ui.label(days_left(o.days_left));
                            if ui
                                .button("Enter result")
                                .on_hover_text(format!("The result of challenge {}", o.number))
                                .clicked()
                            {
                                enter = Some(o.number);
                            }
                            ui.end_row();
                        }
                    });
                ui.add_space(6.0);
            }
            // Many rows (a club's ladder of a thousand): only those in view are laid out.
            let rows: Vec<Vec<String>> = positions
                .iter()
                .map(|row| {
                    let since = c.history(row.player).last().map(|p| p.date);
                    let said = row
                        .open
                        .and_then(|n| open.iter().find(|o| o.number == n))
                        .map(|o| {
                            if o.defender == row.player {
                                format!("← {}, {}", name(o.challenger), days_left(o.days_left))
                            } else {
                                format!("→ {}", name(o.defender))
                            }
                        })
                        .unwrap_or_default();
                    vec![
                        row.position.to_string(),
                        name(row.player),
                        since.map_or(String::new(), |d| d.to_string()),
                        row.last_match.map_or("–".to_string(), |d| d.to_string()),
                        said,
                    ]
                })
                .collect();
            super::widgets::text_table(
                ui,
                "challenge-positions-table",
                &[
                    "Position",
                    "Player",
                    "Since",
                    "Last match",
                    "Open challenge",
                ],
                &[64.0, 160.0, 92.0, 92.0, 200.0],
                &rows,
            );
        });
    if let Some(number) = enter {
        me.result = Some(ResultForm {
            number,
            games: String::new(),
            focus: true,
        });
    }
}

fn challenge_form(
    ui: &mut egui::Ui,
    me: &mut ChallengesScreen,
    app: &AppState,
    out: &mut Vec<Command>,
) {
    let base = ui.scope_id().with("challenge-form");
    let ids = [base.with("challenger"), base.with("defender")];
    let focused = ui.memory(|m| ids.iter().any(|id| m.has_focus(*id)));
    let enter = focused && ui.input(|i| i.key_pressed(Key::Enter));
    // Not in the frame of the click that opened the form: egui gives the focus up at the end
    // of a frame in which the pointer clicked elsewhere.
    if me.focus_form && !ui.input(|i| i.pointer.any_click()) {
        me.focus_form = false;
        ui.memory_mut(|m| m.request_focus(ids[0]));
    }
    ui.horizontal_wrapped(|ui| {
        let offers = suggestions(&app.ladder, &me.challenger, 6);
        let picked = name_picker(
            ui,
            "Challenger",
            ids[0],
            &mut me.challenger,
            &mut me.highlight[0],
            &offers,
            180.0,
        );
        if picked.tab == Some(false) {
            ui.memory_mut(|m| m.request_focus(ids[1]));
        }
        let offers = suggestions(&app.ladder, &me.defender, 6);
        let picked = name_picker(
            ui,
            "Defender",
            ids[1],
            &mut me.defender,
            &mut me.highlight[1],
            &offers,
            180.0,
        );
        if picked.tab == Some(true) {
            ui.memory_mut(|m| m.request_focus(ids[0]));
        }
        ui.vertical(|ui| {
            ui.label(" ");
            ui.horizontal(|ui| {
                if ui.button("Challenge").clicked() || enter {
                    out.push(Command::Format(FormatCommand::Challenge {
                        challenger: me.challenger.trim().to_string(),
                        defender: me.defender.trim().to_string(),
                    }));
                }
                if ui.button("Cancel").clicked() {
                    me.asking = false;
                }
            });
        });
    });
}

fn result_form(
    ui: &mut egui::Ui,
    form: &mut ResultForm,
    challenger: &str,
    defender: &str,
    out: &mut Vec<Command>,
) -> bool {
    let mut close = false;
    ui.group(|ui| {
        ui.strong(format!(
            "Result of challenge {}: {challenger} v {defender}",
            form.number
        ));
        ui.horizontal_wrapped(|ui| {
            let mut said = None;
            match widgets::result_row(
                ui,
                "Score (optional):",
                "3-1, the challenger's first",
                &mut form.games,
                &mut form.focus,
                challenger,
                defender,
            ) {
                Some(ResultRow::Said(result)) => said = Some(result),
                Some(ResultRow::Cancel) => close = true,
                None => {}
            }
            if let Some(result) = said {
                out.push(Command::Format(FormatCommand::ChallengeResult {
                    number: form.number,
                    result: result.to_string(),
                    games: form.games.trim().to_string(),
                }));
            }
        });
    });
    close
}
