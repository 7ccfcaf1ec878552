//! Tonight: tick who is present, pick the format, Pair; the boards show names,
//! chances and what each result does; swap two players, lock a board and re-pair the rest,
//! or re-pair all; then results per board by keyboard (↑/↓ to a board, 1 / D / 2, F then 1
//! or 2 for a win by forfeit), each saved through the gate with the round's date. The
//! pairing is the engine's (`pairing::night`); saving is a [`Command`], applied after the
//! frame.

use super::command::Command;
use super::state::AppState;
use chrono::NaiveDate;
use eframe::egui::{self, Key, RichText};
use rungs_gate::rounds::{RoundInput, board_match};
use rungs_ladder::event::{BoardRef, ByeScore, Format, MatchResult, PlayerId, SwissRecord};
use rungs_ladder::preview::Change;
use rungs_ladder::rounds::Book;
use rungs_pairing::ladder::History;
use rungs_pairing::night::{self, Request};
use rungs_rating::{Outcome, Prediction};
use std::collections::{BTreeMap, BTreeSet};

/// A board of a round not yet saved.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftBoard {
    pub players: [PlayerId; 2],
    pub prediction: Prediction,
    pub locked: bool,
}

/// A round being prepared.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub date: NaiveDate,
    pub format: Format,
    pub boards: Vec<DraftBoard>,
    pub bye: Option<PlayerId>,
    pub event: Option<u32>,
    /// A Swiss round: its entries, requested byes and withdrawals, saved with it.
    pub swiss: SwissRecord,
}

/// What the log says, read once per change of the ladder.
struct Read {
    generation: u64,
    history: History,
    book: Book,
}

/// The Tonight screen's own state.
pub struct TonightScreen {
    pub search: String,
    /// The night's date as typed (`YYYY-MM-DD`), read as Enter match reads its date.
    pub date: String,
    pub present: BTreeSet<PlayerId>,
    pub format: Format,
    /// What a bye scores as the organiser ticked it; `None` until they do: the format's
    /// default ([`night::default_bye`]), as on the command line.
    pub bye_scores: Option<ByeScore>,
    pub seed: u64,
    pub draft: Option<Draft>,
    /// The saved round on screen.
    pub round: Option<u32>,
    /// The board the keyboard is on (from 0).
    pub cursor: usize,
    /// The first player picked for a swap.
    pub swap: Option<PlayerId>,
    /// F was pressed: the next 1 or 2 is a win by forfeit.
    pub forfeit: bool,
    pub problem: Option<String>,
    /// What the last Pair found, where a person would otherwise see nothing happen.
    pub note: Option<String>,
    read: Option<Read>,
    /// Swiss: players ticked for a half-point bye this round (not paired).
    pub half_byes: BTreeSet<PlayerId>,
    /// Swiss: players ticked as withdrawing from the event before this round.
    pub withdrawing: BTreeSet<PlayerId>,
    /// Each board's forecast, by (generation, date, players).
    outcomes: BTreeMap<(u64, NaiveDate, [PlayerId; 2]), Outcomes>,
}

/// Each result of a board and the change it makes to each player (Enter match's forecast).
type Outcomes = Vec<(MatchResult, Vec<Change>)>;

impl Default for TonightScreen {
    fn default() -> TonightScreen {
        TonightScreen {
            search: String::new(),
            date: super::state::today().to_string(),
            present: BTreeSet::new(),
            format: Format::Balanced,
            bye_scores: None,
            seed: 0,
            draft: None,
            round: None,
            cursor: 0,
            swap: None,
            forfeit: false,
            problem: None,
            note: None,
            read: None,
            half_byes: BTreeSet::new(),
            withdrawing: BTreeSet::new(),
            outcomes: BTreeMap::new(),
        }
    }
}

impl TonightScreen {
    fn read(&mut self, app: &AppState) -> &Read {
        if self
            .read
            .as_ref()
            .is_some_and(|r| r.generation != app.generation)
        {
            self.read = None;
        }
        // The closure sets other fields than `read` (it borrows them apart).
        self.read.get_or_insert_with(|| {
            let mut history = History::default();
            let mut book = Book::default();
            if let Some(store) = &app.store {
                let _ = store.for_each_event(|date, seq, event| {
                    history.read(date, event);
                    book.read(date, seq, event);
                    Ok::<(), ()>(())
                });
            }
            if self.round.is_none() && self.draft.is_none() {
                // Arriving on a night already under way: its latest round, its players
                // ticked.
                let night = night_date(app, &self.date).unwrap_or_else(|_| super::state::today());
                if let Some(r) = book.rounds.values().rfind(|r| r.date == night) {
                    self.round = Some(r.round.number);
                    if self.present.is_empty() {
                        self.present = r.round.players().collect();
                    }
                }
            }
            self.outcomes.clear();
            Read {
                generation: app.generation,
                history,
                book,
            }
        })
    }

    /// The players of the latest night in the log: its rounds' boards and byes, else its
    /// matches' players.
    fn last_night(&mut self, app: &AppState) -> BTreeSet<PlayerId> {
        let read = self.read(app);
        if let Some(last) = read.book.rounds.values().map(|r| r.date).max() {
            return read
                .book
                .rounds
                .values()
                .filter(|r| r.date == last)
                .flat_map(|r| r.round.players().collect::<Vec<_>>())
                .collect();
        }
        let Some(last) = app.latest.iter().map(|e| e.date).max() else {
            return BTreeSet::new();
        };
        app.latest
            .iter()
            .filter(|e| e.date == last)
            .flat_map(|e| match &e.event {
                rungs_ladder::event::Event::Match(m) => {
                    m.a.iter().chain(m.b.iter()).copied().collect()
                }
                _ => Vec::new(),
            })
            .collect()
    }

    /// Pairs the players present (the locked boards kept when `keep_locked`).
    fn pair(&mut self, app: &AppState, keep_locked: bool) {
        self.pair_event(app, keep_locked, false);
    }

    /// Pairs as [`Self::pair`]; a Swiss round continues the latest Swiss event whatever
    /// its date when `continue_event` (the Next round button), else only the same night's.
    fn pair_event(&mut self, app: &AppState, keep_locked: bool, continue_event: bool) {
        self.problem = None;
        self.note = None;
        // The boards as they were, each pair in either order, to say when re-pairing finds
        // them again (the screen would otherwise not move, and seem not to have heard).
        let pairs = |d: &Draft| {
            let mut p: Vec<[PlayerId; 2]> = d
                .boards
                .iter()
                .map(|b| {
                    let [x, y] = b.players;
                    [x.min(y), x.max(y)]
                })
                .collect();
            p.sort_unstable();
            (p, d.bye)
        };
        let before = self.draft.as_ref().map(pairs);
        self.round = None;
        let date = match night_date(app, &self.date) {
            Ok(d) => d,
            Err(e) => {
                self.problem = Some(e);
                return;
            }
        };
        let locked: Vec<DraftBoard> = match (&self.draft, keep_locked) {
            (Some(d), true) => d.boards.iter().filter(|b| b.locked).cloned().collect(),
            _ => Vec::new(),
        };
        let present: Vec<PlayerId> = self.present.iter().copied().collect();
        if present.len() < 2 {
            self.problem = Some("tick at least two players present".into());
            return;
        }
        let format = self.format;
        let seed = self.seed;
        let bye_scores = self
            .bye_scores
            .unwrap_or_else(|| night::default_bye(format));
        let (requested, withdrawn): (Vec<_>, Vec<_>) = match format {
            Format::Swiss => (
                self.half_byes
                    .iter()
                    .map(|&player| rungs_ladder::event::RequestedBye { player, halves: 1 })
                    .collect(),
                self.withdrawing.iter().copied().collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        };
        let read = self.read(app);
        let event = match format {
            Format::Swiss => read
                .book
                .latest_swiss()
                .filter(|(_, last)| continue_event || *last == date)
                .map(|(e, _)| e),
            _ => None,
        };
        let locked_pairs: Vec<[PlayerId; 2]> = locked.iter().map(|b| b.players).collect();
        let request = Request {
            present: &present,
            format,
            date,
            seed,
            locked: &locked_pairs,
            event,
            requested: &requested,
            withdrawn: &withdrawn,
            rounds: None,
            bye_scores,
        };
        match night::plan(&app.ladder, &read.history, &read.book, &request) {
            Ok(planned) => {
                let mut fresh =
                    planned
                        .boards
                        .into_iter()
                        .map(|(players, prediction)| DraftBoard {
                            players,
                            prediction,
                            locked: false,
                        });
                // Locked boards keep their numbers; the new ones fill the rest in order.
                let mut boards = Vec::new();
                let old = self.draft.take().map(|d| d.boards).unwrap_or_default();
                for b in old.into_iter().filter(|_| keep_locked) {
                    if b.locked {
                        boards.push(b);
                    } else if let Some(n) = fresh.next() {
                        boards.push(n);
                    }
                }
                boards.extend(fresh);
                let draft = Draft {
                    date,
                    format,
                    boards,
                    bye: planned.bye,
                    event,
                    swiss: planned.swiss,
                };
                if before.is_some_and(|b| b == pairs(&draft)) {
                    self.note = Some(
                        "Re-pairing found the same boards: they are still the best for who is \
                         present. Swap two players or lock a board to change them."
                            .into(),
                    );
                }
                self.draft = Some(draft);
                self.cursor = 0;
            }
            Err(e) => self.problem = Some(e.to_string()),
        }
    }

    /// Swaps two players of the draft (boards or bye), and forecasts the boards again.
    fn swap_players(&mut self, app: &AppState, x: PlayerId, y: PlayerId) {
        let Some(draft) = &mut self.draft else { return };
        let swap = |p: &mut PlayerId| {
            if *p == x {
                *p = y;
            } else if *p == y {
                *p = x;
            }
        };
        for b in &mut draft.boards {
            b.players.iter_mut().for_each(swap);
        }
        if let Some(bye) = &mut draft.bye {
            swap(bye);
        }
        let date = draft.date;
        let boards: Vec<[PlayerId; 2]> = draft.boards.iter().map(|b| b.players).collect();
        let read = self.read(app);
        let chances: Vec<_> = boards
            .iter()
            .map(|[a, b]| night::chances(&app.ladder, &read.history, *a, *b, date))
            .collect();
        if let Some(draft) = &mut self.draft {
            for (b, p) in draft.boards.iter_mut().zip(chances) {
                if let Ok(p) = p {
                    b.prediction = p;
                }
            }
        }
    }

    /// What each result of `players` on `date` does (Enter match's forecast), cached.
    fn outcomes(
        &mut self,
        app: &AppState,
        date: NaiveDate,
        players: [PlayerId; 2],
    ) -> Option<&Outcomes> {
        if app.is_large() {
            return None;
        }
        let key = (app.generation, date, players);
        if let std::collections::btree_map::Entry::Vacant(slot) = self.outcomes.entry(key) {
            let mut m =
                rungs_ladder::event::Match::new(players[0], players[1], MatchResult::Cancelled);
            m.home = Some(rungs_ladder::event::Home::A);
            let f = app.store.as_ref()?.forecast(date, &m).ok()?;
            slot.insert(f.outcomes);
        }
        self.outcomes.get(&key)
    }
}

/// The night's date: parsed by the gate's [`rungs_gate::Context`] as Enter match's date
/// is (empty is today), and refused when after today as a match's date is, in the words
/// Enter match uses for either.
fn night_date(app: &AppState, text: &str) -> Result<NaiveDate, String> {
    let ctx = app.context();
    ctx.date("date", Some(text))
        .and_then(|d| ctx.not_ahead(d))
        .map_err(|e| super::words::action(&e, super::command::Screen::Tonight))
}

fn name(app: &AppState, id: PlayerId) -> String {
    app.ladder.player(id).map_or("?".into(), |p| p.name.clone())
}

fn chances_text(a: &str, b: &str, p: &Prediction) -> String {
    let draw = if p.draw > 0.0 {
        format!(" · draw {:.0} %", 100.0 * p.draw)
    } else {
        String::new()
    };
    format!(
        "{a} {:.0} %{draw} · {b} {:.0} %",
        100.0 * p.win_a,
        100.0 * p.win_b
    )
}

/// "1: Ann +7, Bo −7   D: …   2: …": the change of each player's shown score.
fn outcomes_text(outcomes: &[(MatchResult, Vec<Change>)], players: [PlayerId; 2]) -> String {
    outcomes
        .iter()
        .map(|(r, changes)| {
            let key = match r {
                MatchResult::Played(Outcome::Win) => "1",
                MatchResult::Played(Outcome::Draw) => "D",
                _ => "2",
            };
            let moves: Vec<String> = players
                .iter()
                .filter_map(|id| changes.iter().find(|c| c.player == *id))
                .map(|c| {
                    let d = c.after.score - c.before.unwrap_or(c.after).score;
                    format!("{} {}", c.name, super::widgets::delta(d))
                })
                .collect();
            format!("{key}: {}", moves.join(", "))
        })
        .collect::<Vec<_>>()
        .join("    ")
}

/// The result key pressed this frame, when no text field has the keyboard: ↑/↓ move the
/// cursor, F arms a forfeit, 1 / D / 2 give a result.
fn keys(ui: &egui::Ui, me: &mut TonightScreen, boards: usize) -> Option<MatchResult> {
    if ui.ctx().text_edit_focused() || boards == 0 {
        return None;
    }
    let (down, up, one, draw, two, f) = ui.input_mut(|i| {
        let mut k = |key| i.consume_key(egui::Modifiers::NONE, key);
        (
            k(Key::ArrowDown),
            k(Key::ArrowUp),
            k(Key::Num1),
            k(Key::D),
            k(Key::Num2),
            k(Key::F),
        )
    });
    if down {
        me.cursor = (me.cursor + 1).min(boards - 1);
    }
    if up {
        me.cursor = me.cursor.saturating_sub(1);
    }
    if f {
        me.forfeit = !me.forfeit;
    }
    let forfeit = me.forfeit;
    if one || two || draw {
        me.forfeit = false;
    }
    match (one, draw, two, forfeit) {
        (true, _, _, false) => Some(MatchResult::Played(Outcome::Win)),
        (true, _, _, true) => Some(MatchResult::ForfeitB),
        (_, true, _, _) => Some(MatchResult::Played(Outcome::Draw)),
        (_, _, true, false) => Some(MatchResult::Played(Outcome::Loss)),
        (_, _, true, true) => Some(MatchResult::ForfeitA),
        _ => None,
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut TonightScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    me.read(app);
    let wide = ui.available_width() >= 900.0;
    egui::ScrollArea::vertical()
        .id_salt("tonight")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if wide {
                ui.columns(2, |cols| {
                    present_list(&mut cols[0], me, app);
                    boards(&mut cols[1], me, app, out);
                });
            } else {
                boards(ui, me, app, out);
                ui.separator();
                present_list(ui, me, app);
            }
        });
}

/// Who is present: a search, everyone active, last night's list, and a tick per player.
fn present_list(ui: &mut egui::Ui, me: &mut TonightScreen, app: &AppState) {
    ui.heading(format!("Present · {}", me.present.len()));
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Search");
        ui.add(egui::TextEdit::singleline(&mut me.search).desired_width(160.0))
            .labelled_by(label.id);
        if ui
            .button("Everyone active")
            .on_hover_text("Ticks everyone on the leaderboard (not provisional, idle or retired)")
            .clicked()
        {
            me.present = app
                .standings
                .iter()
                .filter(|s| s.listed())
                .map(|s| s.id)
                .collect();
        }
        if ui
            .button("Last night's list")
            .on_hover_text("Ticks the players of the latest night in the log")
            .clicked()
        {
            me.present = me.last_night(app);
        }
        if ui.button("Clear").clicked() {
            me.present.clear();
        }
    });
    let needle = me.search.trim().to_lowercase();
    for s in &app.standings {
        let Some(p) = app.ladder.player(s.id).filter(|p| p.joined) else {
            continue;
        };
        if !needle.is_empty() && !p.name.to_lowercase().contains(&needle) {
            continue;
        }
        ui.horizontal(|ui| {
            let mut ticked = me.present.contains(&s.id);
            if ui.checkbox(&mut ticked, p.name.as_str()).changed() {
                if ticked {
                    me.present.insert(s.id);
                    me.half_byes.remove(&s.id);
                    me.withdrawing.remove(&s.id);
                } else {
                    me.present.remove(&s.id);
                }
            }
            if me.format == Format::Swiss {
                let ticks = super::tonight_swiss::Ticks {
                    present: &mut me.present,
                    half_byes: &mut me.half_byes,
                    withdrawing: &mut me.withdrawing,
                };
                super::tonight_swiss::ticks(ui, ticks, s.id);
            }
        });
    }
}

fn boards(ui: &mut egui::Ui, me: &mut TonightScreen, app: &AppState, out: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Date");
        ui.add(egui::TextEdit::singleline(&mut me.date).desired_width(100.0))
            .labelled_by(label.id)
            .on_hover_text("The night's date (YYYY-MM-DD): the round and its results are dated it");
        let label = ui.label("Format");
        egui::ComboBox::from_id_salt("tonight-format")
            .selected_text(me.format.as_text())
            .show_ui(ui, |ui| {
                for f in Format::ALL {
                    ui.selectable_value(&mut me.format, f, f.as_text());
                }
            })
            .response
            .labelled_by(label.id);
        let mut bye_win =
            me.bye_scores.unwrap_or_else(|| night::default_bye(me.format)) == ByeScore::Win;
        if ui
            .checkbox(&mut bye_win, "a bye scores a win")
            .on_hover_text("A bye is a win by forfeit of nobody: 1 point in a Swiss event. It never changes a rating. Ticked for Swiss unless you untick it.")
            .changed()
        {
            me.bye_scores = Some(if bye_win { ByeScore::Win } else { ByeScore::Nothing });
        }
        if ui.button("Pair").clicked() {
            me.pair(app, false);
        }
        if me.format == Format::Swiss && super::tonight_swiss::next_round(ui) {
            // Paired and saved at once: a Swiss round is the rules' pairing, not edited.
            me.pair_event(app, false, true);
            if me.problem.is_none()
                && let Some(d) = me.draft.clone()
            {
                out.push(save(me, &d));
                me.cursor = 0;
            }
        }
        if me.draft.as_ref().is_some_and(|d| d.boards.iter().any(|b| b.locked))
            && ui.button("Re-pair the rest").clicked()
        {
            me.pair(app, true);
        }
    });
    if let Some(p) = &me.problem {
        ui.colored_label(ui.visuals().error_fg_color, p);
    }
    if let Some(n) = &me.note {
        ui.label(n);
    }
    if me.draft.is_some() {
        draft(ui, me, app, out);
    } else if let Some(n) = me.round {
        saved(ui, me, app, n, out);
    } else {
        ui.label("Tick who is present, pick the format, and Pair. Results then go in by board: ↑/↓ to a board, 1 / D / 2 (F first for a win by forfeit).");
    }
    if me.format == Format::Swiss {
        let read = me.read(app);
        super::tonight_swiss::event_table(ui, app, &read.book);
    }
}

/// The round being prepared: swap, lock, re-pair; Save round, or a result key saves it.
fn draft(ui: &mut egui::Ui, me: &mut TonightScreen, app: &AppState, out: &mut Vec<Command>) {
    let Some(d) = me.draft.clone() else { return };
    let next = me.read(app).book.next_number().unwrap_or(1);
    ui.label(
        RichText::new(format!(
            "Round {next} — {} ({}) · not saved yet",
            d.date,
            d.format.as_text()
        ))
        .strong(),
    );
    let key = keys(ui, me, d.boards.len());
    for (k, b) in d.boards.iter().enumerate() {
        let [a, bb] = b.players;
        let (na, nb) = (name(app, a), name(app, bb));
        let frame = egui::Frame::group(ui.style()).fill(if k == me.cursor {
            ui.visuals().selection.bg_fill.gamma_multiply(0.35)
        } else {
            egui::Color32::TRANSPARENT
        });
        frame.show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("Board {}", k + 1)).strong());
                for (i, (id, n)) in [(a, &na), (bb, &nb)].into_iter().enumerate() {
                    if i == 1 {
                        ui.label("–");
                    }
                    let picked = me.swap == Some(id);
                    if ui
                        .selectable_label(picked, n.as_str())
                        .on_hover_text("Click two players to swap them")
                        .clicked()
                    {
                        match me.swap.take() {
                            Some(first) if first != id => me.swap_players(app, first, id),
                            Some(_) => {}
                            None => me.swap = Some(id),
                        }
                    }
                }
                let mut locked = b.locked;
                if ui.checkbox(&mut locked, "lock").changed()
                    && let Some(dd) = &mut me.draft
                {
                    dd.boards[k].locked = locked;
                }
            });
            ui.label(chances_text(&na, &nb, &b.prediction));
            if let Some(o) = me.outcomes(app, d.date, b.players) {
                // In the body's size, greyed: in egui's small style (9 points) it read as
                // about 8 px, and it is what tells the organiser what each result does.
                ui.weak(outcomes_text(o, b.players));
            }
        });
    }
    if let Some(bye) = d.bye {
        ui.label(format!("Bye: {}", name(app, bye)));
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button("Save round").clicked() {
            out.push(save(me, &d));
        }
        if ui.button("Re-pair all").clicked() {
            me.pair(app, false);
        }
    });
    if let Some(r) = key {
        // A result on a round not saved yet: the round is saved first, then the result.
        out.push(save(me, &d));
        me.round = Some(next);
        result(me, app, next, &d.boards[me.cursor].players, r, out);
    }
}

fn save(me: &mut TonightScreen, d: &Draft) -> Command {
    me.half_byes.clear();
    me.withdrawing.clear();
    let input = RoundInput {
        date: d.date,
        format: d.format,
        boards: d.boards.iter().map(|b| b.players).collect(),
        bye: d.bye,
        bye_scores: me
            .bye_scores
            .unwrap_or_else(|| night::default_bye(d.format)),
        event: d.event,
        swiss: d.swiss.clone(),
    };
    me.draft = None;
    me.swap = None;
    me.round = me.read.as_ref().and_then(|r| r.book.next_number());
    Command::SaveRound(Box::new(input))
}

fn result(
    me: &TonightScreen,
    app: &AppState,
    round: u32,
    players: &[PlayerId; 2],
    r: MatchResult,
    out: &mut Vec<Command>,
) {
    let said = r.sentence(&name(app, players[0]), &name(app, players[1]));
    out.push(Command::BoardResult {
        round,
        board: me.cursor as u32 + 1,
        result: r.as_text().into(),
        said,
    });
}

/// A saved round: results in, and the keys for the rest.
fn saved(
    ui: &mut egui::Ui,
    me: &mut TonightScreen,
    app: &AppState,
    n: u32,
    out: &mut Vec<Command>,
) {
    let Some(round) = me.read(app).book.rounds.get(&n).cloned() else {
        ui.label(format!("Round {n} is being saved…"));
        return;
    };
    let done = round.results.iter().filter(|r| r.is_some()).count();
    ui.label(
        RichText::new(format!(
            "Round {n} — {} ({}) · {done} of {} results in",
            round.date,
            round.round.format.as_text(),
            round.results.len()
        ))
        .strong(),
    );
    if me.forfeit {
        ui.label("F: the next 1 or 2 is a win by forfeit");
    }
    let key = keys(ui, me, round.round.boards.len());
    for (k, (players, result)) in round.round.boards.iter().zip(&round.results).enumerate() {
        let (na, nb) = (name(app, players[0]), name(app, players[1]));
        let frame = egui::Frame::group(ui.style()).fill(if k == me.cursor {
            ui.visuals().selection.bg_fill.gamma_multiply(0.35)
        } else {
            egui::Color32::TRANSPARENT
        });
        frame.show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(format!("Board {}: {na} – {nb}", k + 1)).strong());
            match result {
                Some(r) => {
                    ui.label(format!("{} (saved)", r.result.sentence(&na, &nb)));
                }
                None => {
                    let p = board_match(
                        &me.read(app).book,
                        BoardRef {
                            round: n,
                            board: k as u32 + 1,
                        },
                        MatchResult::Cancelled,
                    )
                    .and_then(|m| {
                        rungs_ladder::predict::forecast_match(&app.ladder, &m, round.date)
                    });
                    if let Some(p) = p {
                        ui.label(chances_text(&na, &nb, &p));
                    }
                    if let Some(o) = me.outcomes(app, round.date, *players) {
                        ui.weak(outcomes_text(o, *players));
                    }
                }
            }
        });
    }
    if let Some(bye) = round.round.bye {
        ui.label(format!("Bye: {}", name(app, bye)));
    }
    if let Some(r) = key {
        if round.results.get(me.cursor).is_some_and(|x| x.is_none()) {
            let players = round.round.boards[me.cursor];
            result(me, app, n, &players, r, out);
        } else {
            me.problem = Some(format!(
                "board {} has its result; correct it under Enter match's latest matches",
                me.cursor + 1
            ));
        }
    }
    if done == round.results.len() && ui.button("Pair the next round").clicked() {
        me.pair(app, false);
    }
}
