//! The designer's and tester's tools as app state: the replay timeline (viewing the ladder as
//! it stood after any event), the what-if comparison under other rules, prediction quality,
//! simulation, and the players overlaid on the history plot. The work runs as jobs; the
//! screens read this state and send [`ToolCommand`]s.

use super::error::{AppError, AppResult};
use super::jobs::{Done, Unit};
use super::state::{AppState, Command};
use crate::ladder::compare::{self, CompareRow};
use crate::ladder::evaluate::{self, Score};
use crate::ladder::event::PlayerId;
use crate::ladder::record::Record;
use crate::ladder::replay::Ladder;
use crate::ladder::rules::Rules;
use crate::ladder::simulate::{SimConfig, SimReport};
use crate::ladder::standings::{self, Standing};
use crate::ladder::state::HistoryRow;
use crate::ladder::timeline::Timeline;
use std::path::PathBuf;
use std::sync::Arc;

/// What the tool screens ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCommand {
    /// Replay the log once, keeping checkpoints, so any point can be shown.
    BuildTimeline,
    /// Show the ladder after the first `n` events (the end of the log returns to now).
    Seek(usize),
    /// Advance through the log at this many events a second; `None` pauses.
    Play(Option<f64>),
    ReturnToNow,
    /// Replay the log under other rules and compare.
    Compare(Rules),
    CloseCompare,
    /// Score every system at its defaults, and the ladder's own rules, on the log.
    Evaluate,
    /// Simulate into a new ladder file.
    Simulate(Box<SimConfig>, PathBuf),
    Plot(PlayerId),
    Unplot(PlayerId),
    /// Read the log for the plots' markers and hover read-outs.
    LoadLog,
    /// Save the History plots as a PNG (the app takes a screenshot; see [`Tools::png_pending`]).
    SavePng(PathBuf),
}

/// The log as the plots need it: its events (for hover read-outs) and its index (markers and
/// the rules in force at each point).
pub struct LogView {
    pub events: Vec<crate::ladder::log::Effective>,
    pub index: crate::chart::LogIndex,
    /// Matches in the log up to and including each event (the ladder-wide match axis).
    pub match_counts: Vec<u32>,
}

impl LogView {
    pub fn new(
        events: Vec<crate::ladder::log::Effective>,
        index: crate::chart::LogIndex,
    ) -> LogView {
        let mut n = 0u32;
        let match_counts = events
            .iter()
            .map(|e| {
                if matches!(e.event, crate::ladder::event::Event::Match(_)) {
                    n += 1;
                }
                n
            })
            .collect();
        LogView {
            events,
            index,
            match_counts,
        }
    }

    /// Where the event at `key` sits on the ladder-wide match axis: the k-th match of the
    /// ladder at k, anything else half-way after the match before it — the same place for
    /// every player, so resets and rules changes are marked where they happened.
    pub fn ladder_x(&self, key: crate::chart::Key) -> f64 {
        let i = self.events.partition_point(|e| (e.date, e.seq) < key);
        match self.events.get(i) {
            Some(e) if (e.date, e.seq) == key => {
                let count = f64::from(self.match_counts[i]);
                if matches!(e.event, crate::ladder::event::Event::Match(_)) {
                    count
                } else {
                    count + 0.5
                }
            }
            _ => i
                .checked_sub(1)
                .map_or(0.5, |j| f64::from(self.match_counts[j]) + 0.5),
        }
    }
}

/// The same log under rules B, beside the file's own rules (A).
pub struct Comparison {
    pub rules: Rules,
    pub rows: Vec<CompareRow>,
    /// Every player's history under B, by player id.
    pub history: Vec<Vec<HistoryRow>>,
    /// The log's markers and rules as B reads them.
    pub index: crate::chart::LogIndex,
}

/// A finished simulation.
pub struct Simulated {
    pub report: SimReport,
    pub path: PathBuf,
}

/// The Simulate panel's fields as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct SimForm {
    pub players: String,
    pub weeks: String,
    pub matches_per_week: String,
    pub seed: String,
    pub params: String,
    pub system: crate::ladder::rules::System,
    pub out: String,
}

/// The History screen's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryForm {
    /// The player field as typed.
    pub plot_name: String,
    pub x_by_date: bool,
    /// Overlay each plotted player's history under the what-if rules.
    pub overlay_b: bool,
    /// Set for one frame to reset the plots' zoom and pan.
    pub reset_view: bool,
}

/// The Replay screen's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayForm {
    /// The speed the Play button starts at, in events a second.
    pub play_speed: f64,
    /// The date field as typed.
    pub jump_date: String,
}

/// The What-if screen's own state: rules B as a system and `NAME=VALUE` text.
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIfForm {
    pub system: crate::ladder::rules::System,
    pub params: String,
    pub only_moved: bool,
}

/// What the designer's screens share (the timeline, the comparison, the log as read, the
/// plotted players) and each one's own form.
pub struct Tools {
    pub timeline: Option<Arc<Timeline>>,
    /// `Some(n)` while the screens show the ladder after event `n` rather than now.
    pub position: Option<usize>,
    /// The present, kept aside while the past is shown.
    present: Option<(Ladder, Vec<Standing>)>,
    /// Events a second while playing.
    pub playing: Option<f64>,
    play_carry: f64,
    /// Each designer screen's own form state.
    pub history: HistoryForm,
    pub replay: ReplayForm,
    pub what_if: WhatIfForm,
    pub comparison: Option<Comparison>,
    pub scores: Vec<Score>,
    pub simulated: Option<Simulated>,
    pub sim_form: SimForm,
    /// Players on the history plot, in the order they were added (Standings, Players and
    /// What-if add to it too).
    pub plotted: Vec<PlayerId>,
    pub log_view: Option<Arc<LogView>>,
    /// A PNG of the plots asked for: where to write it and the plots' rectangle, waiting for
    /// the window's screenshot.
    pub png_pending: Option<(PathBuf, eframe::egui::Rect)>,
    /// Where the History plots were drawn last frame.
    pub plot_rect: Option<eframe::egui::Rect>,
    /// The History screen's series, kept while nothing they depend on changes.
    pub(super) history_cache: Option<super::history::Cache>,
    /// The player page's record: (player, log, position) and the record.
    record_cache: Option<((PlayerId, usize, usize), Arc<Record>)>,
}

impl Tools {
    pub fn new(data_dir: &std::path::Path) -> Tools {
        Tools {
            timeline: None,
            position: None,
            present: None,
            playing: None,
            play_carry: 0.0,
            history: HistoryForm {
                plot_name: String::new(),
                x_by_date: false,
                overlay_b: true,
                reset_view: false,
            },
            replay: ReplayForm {
                play_speed: 200.0,
                jump_date: String::new(),
            },
            what_if: WhatIfForm {
                system: crate::ladder::rules::System::Elo,
                params: String::new(),
                only_moved: false,
            },
            comparison: None,
            scores: Vec::new(),
            simulated: None,
            sim_form: SimForm {
                players: "200".into(),
                weeks: "12".into(),
                matches_per_week: "2000".into(),
                seed: "1".into(),
                params: String::new(),
                system: crate::ladder::rules::System::Skyweaver,
                out: data_dir.join("simulated.rungs").display().to_string(),
            },
            plotted: Vec::new(),
            log_view: None,
            png_pending: None,
            plot_rect: None,
            history_cache: None,
            record_cache: None,
        }
    }
}

/// `path` if nothing is there, else the first of `stem-2.ext`, `stem-3.ext`, … that is free.
pub fn free_path(path: &std::path::Path) -> PathBuf {
    if !path.exists() {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or_else(
        || "simulated".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let stem = match stem.rsplit_once('-') {
        Some((base, n)) if n.parse::<u32>().is_ok() => base.to_string(),
        _ => stem,
    };
    let ext = path
        .extension()
        .map_or_else(|| "rungs".to_string(), |e| e.to_string_lossy().into_owned());
    (2u32..)
        .map(|i| path.with_file_name(format!("{stem}-{i}.{ext}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

/// Rules from a system and `NAME=VALUE` assignments separated by commas or spaces.
pub fn rules_from(
    system: crate::ladder::rules::System,
    params: &str,
) -> Result<Rules, crate::ladder::rules::ParamError> {
    let mut rules = Rules::defaults(system);
    for assignment in params
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        rules.assign(assignment)?;
    }
    Ok(rules)
}

impl AppState {
    /// Applies a tool command; failures become the error banner.
    pub(super) fn apply_tool(&mut self, cmd: ToolCommand) -> AppResult<()> {
        match cmd {
            ToolCommand::BuildTimeline => self.build_timeline(),
            ToolCommand::Seek(n) => self.seek(n),
            ToolCommand::Play(speed) => {
                self.tools.playing = speed.filter(|s| s.is_finite() && *s > 0.0);
                self.tools.play_carry = 0.0;
                if self.tools.playing.is_some() && self.tools.position.is_none() {
                    // Playing from now would end at once: start from the beginning.
                    self.seek(0)?;
                }
                Ok(())
            }
            ToolCommand::ReturnToNow => {
                self.return_to_now();
                Ok(())
            }
            ToolCommand::Compare(rules) => self.start_compare(rules),
            ToolCommand::CloseCompare => {
                self.tools.comparison = None;
                Ok(())
            }
            ToolCommand::Evaluate => self.start_evaluate(),
            ToolCommand::Simulate(cfg, path) => self.start_simulate(*cfg, path),
            ToolCommand::Plot(id) => {
                if !self.tools.plotted.contains(&id) {
                    self.tools.plotted.push(id);
                }
                Ok(())
            }
            ToolCommand::Unplot(id) => {
                self.tools.plotted.retain(|p| *p != id);
                Ok(())
            }
            ToolCommand::LoadLog => self.load_log(),
            ToolCommand::SavePng(path) => {
                let rect = self
                    .tools
                    .plot_rect
                    .ok_or(AppError::Nothing("no plot is on screen to save"))?;
                self.tools.png_pending = Some((path, rect));
                Ok(())
            }
        }
    }

    /// Forgets everything computed from the file (another file opened, or it changed).
    pub(super) fn reset_tools(&mut self, new_file: bool) {
        self.return_to_now();
        self.tools.timeline = None;
        self.tools.log_view = None;
        self.tools.playing = None;
        if new_file {
            self.tools.comparison = None;
            self.tools.scores.clear();
            self.tools.plotted.clear();
        }
    }

    /// The ladder now, not as shown on the timeline.
    pub fn now(&self) -> &Ladder {
        self.tools.present.as_ref().map_or(&self.ladder, |p| &p.0)
    }

    fn build_timeline(&mut self) -> AppResult<()> {
        let total = self.now().events;
        self.run(
            "building the timeline",
            Unit::Events,
            total,
            false,
            move |store, r| {
                let events = store.effective()?;
                let rules = store.initial_rules()?;
                let timeline = Timeline::build(&rules, events, &mut |n| r.keep_going(n))
                    .map_err(|e| AppError::task("the timeline", e))?;
                Ok(Done::Timeline(Box::new(timeline)))
            },
        )
    }

    /// Shows the ladder after the first `n` events; the end of the log is now.
    fn seek(&mut self, n: usize) -> AppResult<()> {
        let timeline = self
            .tools
            .timeline
            .clone()
            .ok_or(AppError::Nothing("the timeline is not built yet"))?;
        let n = n.min(timeline.len());
        if n == timeline.len() {
            self.return_to_now();
            return Ok(());
        }
        let ladder = match (self.tools.position, self.tools.present.is_some()) {
            // Forward from the point shown: only the events in between apply.
            (Some(at), true) if at <= n && n - at < timeline.interval() => {
                let mut l = self.ladder.clone();
                timeline
                    .seek(&mut l, n)
                    .map_err(|e| AppError::task("the timeline", e))?;
                l
            }
            _ => timeline
                .at(n)
                .map_err(|e| AppError::task("the timeline", e))?,
        };
        if self.tools.present.is_none() {
            let now = std::mem::replace(&mut self.ladder, Ladder::new(Rules::default()));
            self.tools.present = Some((now, std::mem::take(&mut self.standings)));
        }
        self.standings = standings::standings(&ladder);
        self.ladder = ladder;
        self.tools.position = Some(n);
        self.generation += 1;
        Ok(())
    }

    fn return_to_now(&mut self) {
        self.tools.playing = None;
        if let Some((ladder, standings)) = self.tools.present.take() {
            self.ladder = ladder;
            self.standings = standings;
            self.generation += 1;
        }
        self.tools.position = None;
    }

    /// Moves a playing timeline on by `dt` seconds of wall time.
    pub fn advance_play(&mut self, dt: f64) {
        let (Some(speed), Some(at), Some(t)) = (
            self.tools.playing,
            self.tools.position,
            self.tools.timeline.clone(),
        ) else {
            return;
        };
        self.tools.play_carry += speed * dt.clamp(0.0, 0.5);
        let steps = self.tools.play_carry.floor();
        if steps >= 1.0 {
            self.tools.play_carry -= steps;
            let next = (at + steps as usize).min(t.len());
            if let Err(e) = self.seek(next) {
                self.messages.next_stamp();
                let origin = super::jobs::Origin {
                    stamp: self.messages.stamp(),
                    screen: self.screen,
                };
                self.say_error(&e, origin);
                self.tools.playing = None;
            }
        }
    }

    /// Reads the log for the plots: here for a small ladder, as a job for a large one.
    fn load_log(&mut self) -> AppResult<()> {
        let inline = !self.is_large();
        let label = "reading the log for the plots";
        self.run(label, Unit::Permille, 0, inline, move |store, _| {
            let events = store.effective()?;
            let rules = store.initial_rules()?;
            let index = crate::chart::LogIndex::new(&rules, &events);
            Ok(Done::LogView(Box::new(LogView::new(events, index))))
        })
    }

    fn start_compare(&mut self, rules: Rules) -> AppResult<()> {
        // A is the file's own replay, which the caches already hold.
        let own = self.now().clone();
        let label = format!("replaying under {}", evaluate::label(&rules));
        self.run(&label, Unit::Permille, 0, false, move |store, _| {
            let events = store.effective()?;
            let (other, rows) = crate::ladder::replay::replay(
                &rules,
                events.iter().map(|e| (e.date, e.seq, &e.event)),
            )
            .map_err(|e| AppError::file(store.path(), e))?;
            let index = crate::chart::LogIndex::new(&rules, &events);
            let mut history: Vec<Vec<HistoryRow>> = vec![Vec::new(); other.players.len()];
            for row in rows {
                if let Some(h) = history.get_mut(row.player as usize) {
                    h.push(row);
                }
            }
            Ok(Done::Compared(Box::new(Comparison {
                rows: compare::compare(&own, &other),
                rules,
                history,
                index,
            })))
        })
    }

    fn start_evaluate(&mut self) -> AppResult<()> {
        // Six runs at most: each system at its defaults and the ladder's own rules.
        let total = self.now().events * (crate::ladder::rules::System::ALL.len() as u64 + 1);
        self.run(
            "scoring predictions",
            Unit::Events,
            total,
            false,
            move |store, r| {
                let events = store.effective()?;
                let own = store.initial_rules()?;
                let runs = evaluate::default_runs(&own, &events);
                let scores = evaluate::evaluate_runs(&runs, &events, &mut |n| r.keep_going(n))
                    .map_err(|e| AppError::task("scoring", e))?;
                Ok(Done::Scored(scores))
            },
        )
    }

    fn start_simulate(&mut self, cfg: SimConfig, path: PathBuf) -> AppResult<()> {
        cfg.validate().map_err(crate::action::ActionError::from)?;
        if path.exists() {
            return Err(AppError::file(
                &path,
                "already exists; a simulation writes a new file, so choose another name",
            ));
        }
        let total = cfg.events();
        self.spawn("simulating", Unit::Events, total, move |r| {
            let report =
                crate::action::files::simulate_into(&path, &cfg, &mut |n| r.keep_going(n))?;
            Ok(Done::Simulated(Box::new(Simulated { report, path })))
        })
    }

    /// A player's record (head-to-head, matches) up to the point shown, computed once per
    /// player, log and timeline position.
    pub fn record_of(&mut self, id: PlayerId, view: &Arc<LogView>) -> Arc<Record> {
        let shown = self.tools.position.unwrap_or(view.events.len());
        let key = (id, Arc::as_ptr(view) as usize, shown);
        if let Some((k, r)) = &self.tools.record_cache
            && *k == key
        {
            return r.clone();
        }
        let events = &view.events[..shown.min(view.events.len())];
        let r = Arc::new(crate::ladder::record::record(events, id));
        self.tools.record_cache = Some((key, r.clone()));
        r
    }

    /// A player's history as shown: up to the point viewed on the timeline.
    pub fn shown_history(&mut self, id: PlayerId) -> Vec<HistoryRow> {
        let rows = self.history_of(id);
        match (&self.tools.timeline, self.tools.position) {
            (Some(t), Some(n)) => t.rows_until(&rows, n).to_vec(),
            _ => rows,
        }
    }

    /// A player's history under the what-if rules, up to the point viewed.
    pub fn compared_history(&self, id: PlayerId) -> Option<Vec<HistoryRow>> {
        let rows = self.tools.comparison.as_ref()?.history.get(id as usize)?;
        Some(match (&self.tools.timeline, self.tools.position) {
            (Some(t), Some(n)) => t.rows_until(rows, n).to_vec(),
            _ => rows.clone(),
        })
    }
}

/// Whether a command would change the ladder file (refused while the past is shown).
pub fn changes_ladder(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::ImportCsv(..)
            | Command::Undo
            | Command::Redo
            | Command::AddMatch { .. }
            | Command::DeleteEvent { .. }
            | Command::EditMatch { .. }
            | Command::AddPlayer(_)
            | Command::Rename(..)
            | Command::Retire(..)
            | Command::PreviewSoftReset
            | Command::PreviewHardReset
            | Command::PreviewRules(..)
            | Command::PreviewMigration { .. }
            | Command::Confirm
    )
}

#[cfg(test)]
mod tests {
    use super::LogView;
    use crate::ladder::event::{Event, Match, MatchResult};
    use crate::ladder::log::Effective;
    use crate::ladder::rules::Rules;
    use crate::rating::Outcome;

    /// Two joins, two matches, a soft reset, a third match: the matches sit at 1, 2 and 3 on
    /// the ladder's axis for every player, the reset half-way after match 2, the joins at 0.5.
    #[test]
    fn the_ladder_axis_places_every_event_where_it_happened() {
        let d = |day| chrono::NaiveDate::from_ymd_opt(2026, 3, day).unwrap();
        let win = Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win)));
        let events = vec![
            Effective {
                date: d(1),
                seq: 1,
                event: Event::Player {
                    id: 0,
                    name: "Ann".into(),
                    undated: false,
                },
            },
            Effective {
                date: d(1),
                seq: 2,
                event: Event::Player {
                    id: 1,
                    name: "Bo".into(),
                    undated: false,
                },
            },
            Effective {
                date: d(2),
                seq: 3,
                event: win.clone(),
            },
            Effective {
                date: d(2),
                seq: 9,
                event: win.clone(),
            },
            Effective {
                date: d(7),
                seq: 4,
                event: Event::SoftReset,
            },
            Effective {
                date: d(8),
                seq: 5,
                event: win,
            },
        ];
        let index = crate::chart::LogIndex::new(&Rules::default(), &events);
        let view = LogView::new(events, index);
        let x: Vec<f64> = [(1, 1), (1, 2), (2, 3), (2, 9), (7, 4), (8, 5)]
            .iter()
            .map(|&(day, seq)| view.ladder_x((d(day), seq)))
            .collect();
        assert_eq!(x, vec![0.5, 0.5, 1.0, 2.0, 2.5, 3.0]);
        let marker = &view.index.markers()[0];
        assert_eq!(
            view.ladder_x(marker.key()),
            2.5,
            "the reset's marker, for everyone"
        );
    }
}
