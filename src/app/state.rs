//! What the app knows and what it can be asked to do. Screens read an [`AppState`] and send
//! [`Command`]s; the app applies them after the frame. Nothing here draws, writes SQL or
//! computes a rating: the store and the ladder do.

use super::jobs::{Done, FollowUp, Job, Reporter, Unit};
use crate::action::matches::{MatchEdit, MatchInput};
use crate::action::{self, Action, Context};
use crate::interchange::csv_matches::Mapping;
use crate::interchange::{elo_list, jsonl};
use crate::ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use crate::ladder::log::Effective;
use crate::ladder::preview::{self, Change};
use crate::ladder::replay::Ladder;
use crate::ladder::rules::{Rules, System};
use crate::ladder::standings::{self, Standing};
use crate::store::Store;
use chrono::NaiveDate;
use std::path::{Path, PathBuf};

/// The screens of the app, in tab order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Screen {
    #[default]
    Standings,
    EnterMatch,
    Players,
    Seasons,
    Migration,
    Settings,
    History,
    Replay,
    WhatIf,
    Quality,
    Simulate,
}

impl Screen {
    /// The organiser's screens, then the designer's.
    pub const ALL: [Screen; 11] = [
        Screen::Standings,
        Screen::EnterMatch,
        Screen::Players,
        Screen::Seasons,
        Screen::Migration,
        Screen::Settings,
        Screen::History,
        Screen::Replay,
        Screen::WhatIf,
        Screen::Quality,
        Screen::Simulate,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Standings => "Standings",
            Screen::EnterMatch => "Enter match",
            Screen::Players => "Players",
            Screen::Seasons => "Seasons",
            Screen::Migration => "Migration",
            Screen::Settings => "Settings",
            Screen::History => "History",
            Screen::Replay => "Replay",
            Screen::WhatIf => "What-if",
            Screen::Quality => "Prediction quality",
            Screen::Simulate => "Simulate",
        }
    }
}

/// Everything a screen may ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Show(Screen),
    Open(PathBuf),
    New(PathBuf, System),
    OpenDemo,
    SaveCopy(PathBuf),
    ImportCsv(PathBuf, Mapping),
    ExportJsonl(PathBuf),
    ExportCsv(PathBuf),
    CancelJob,
    Undo,
    Redo,
    /// Save the match form.
    EnterMatch,
    DeleteEvent(u64),
    /// Change a match's result, keeping everything else.
    EditResult(u64, MatchResult),
    AddPlayer(String),
    Rename(PlayerId, String),
    ShowPlayer(Option<PlayerId>),
    PreviewSoftReset,
    PreviewHardReset,
    PreviewRules(Rules),
    PreviewMigration,
    /// Apply the action being previewed.
    Confirm,
    /// Drop the action being previewed.
    Cancel,
    DismissMessage,
    /// The designer's and tester's tools.
    Tool(super::tools::ToolCommand),
}

/// An action shown before it happens.
#[derive(Debug, Clone)]
pub struct Pending {
    pub action: Action,
    pub changes: Vec<Change>,
    pub after: Ladder,
}

/// The match form of the Enter match screen.
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
}

/// The Standings screen's view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StandingsView {
    pub filter: String,
    pub show_all: bool,
    pub sort: super::standings::SortKey,
    pub descending: bool,
}

/// The migration wizard's inputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MigrationForm {
    pub path: String,
    pub cutoffs: String,
}

/// The Enter match screen's forecast for the form's pairing.
#[derive(Debug, Clone)]
pub struct WhatIf {
    key: MatchForm,
    pub prediction: Option<crate::rating::Prediction>,
    /// For A wins, draw, B wins: each player's change.
    pub outcomes: Vec<(MatchResult, Vec<Change>)>,
    /// The exact changes of a backdated match on a large ladder need a full recomputation
    /// each; they are left to the save rather than freezing the form.
    pub deferred: bool,
}

/// The app's whole state.
pub struct AppState {
    pub store: Option<Store>,
    pub ladder: Ladder,
    pub standings: Vec<Standing>,
    /// The latest events, newest first (the Enter match screen lists them).
    pub latest: Vec<Effective>,
    pub screen: Screen,
    pub error: Option<String>,
    pub notice: Option<String>,
    pub view: StandingsView,
    pub form: MatchForm,
    pub new_player: String,
    pub player: Option<PlayerId>,
    pub rename_to: String,
    pub pending: Option<Pending>,
    pub settings_rules: Option<Rules>,
    /// The Settings screen's parameter fields as typed.
    pub param_text: std::collections::BTreeMap<String, String>,
    pub migration: MigrationForm,
    pub job: Option<Job>,
    pub tools: super::tools::Tools,
    /// Jobs started so far (how tests tell work that went off the UI thread).
    pub jobs_started: u64,
    /// Ladders with more events than this recompute off the UI thread (appends at the end
    /// are always instant and stay on it).
    pub inline_limit: u64,
    pub recent: Vec<PathBuf>,
    pub data_dir: PathBuf,
    /// Bumped at every reload, so cached views know the ladder changed.
    pub generation: u64,
    pub table: super::standings::TableCache,
    what_if: Option<WhatIf>,
    what_if_generation: u64,
    /// The player page's history, read once per player and ladder change.
    history: Option<(PlayerId, u64, Vec<crate::ladder::state::HistoryRow>)>,
}

fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

impl AppState {
    /// An app with no ladder open; `data_dir` is where new and demo ladders go.
    pub fn empty(data_dir: PathBuf) -> AppState {
        AppState {
            store: None,
            ladder: Ladder::new(Rules::default()),
            standings: Vec::new(),
            latest: Vec::new(),
            screen: Screen::Standings,
            error: None,
            notice: None,
            view: StandingsView::default(),
            form: MatchForm {
                date: today().to_string(),
                ..MatchForm::default()
            },
            new_player: String::new(),
            player: None,
            rename_to: String::new(),
            pending: None,
            settings_rules: None,
            param_text: Default::default(),
            migration: MigrationForm {
                cutoffs: "Grandmaster=2200,Master=2000,Prophet=1800,Scholar=1600,Apprentice=1400"
                    .into(),
                ..MigrationForm::default()
            },
            job: None,
            tools: super::tools::Tools::new(&data_dir),
            jobs_started: 0,
            inline_limit: 50_000,
            recent: Vec::new(),
            data_dir,
            generation: 0,
            table: Default::default(),
            what_if: None,
            what_if_generation: 0,
            history: None,
        }
    }

    /// Opens `path` (creating a Skyweaver ladder there if nothing exists yet).
    pub fn open_or_create(data_dir: PathBuf, path: &Path) -> AppState {
        let mut state = AppState::empty(data_dir);
        let cmd = if path.exists() {
            Command::Open(path.to_path_buf())
        } else {
            Command::New(path.to_path_buf(), System::Skyweaver)
        };
        state.apply(cmd);
        state
    }

    pub fn path(&self) -> Option<&Path> {
        self.store.as_ref().map(Store::path)
    }

    /// Re-reads the ladder after a change.
    pub fn reload(&mut self) {
        // What the tools computed was of the file as it stood.
        self.reset_tools(false);
        let Some(store) = &self.store else {
            return;
        };
        // The cached state and the newest rows only: a million-match log is not read here.
        let loaded = store
            .ladder()
            .and_then(|l| Ok((l, store.latest_events(30)?)));
        match loaded {
            Ok((ladder, latest)) => {
                self.generation += 1;
                self.standings = standings::standings(&ladder);
                self.latest = latest;
                self.ladder = ladder;
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Applies one command; failures become the error banner and change nothing.
    pub fn apply(&mut self, cmd: Command) {
        if let Err(e) = self.try_apply(cmd) {
            self.error = Some(e);
        }
    }

    fn store(&mut self) -> Result<&mut Store, String> {
        self.store
            .as_mut()
            .ok_or_else(|| "no ladder is open".to_string())
    }

    /// What the gate checks the screens' changes against: the ladder as loaded.
    pub fn context(&self) -> Context<'_> {
        let file = self
            .path()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        Context::new(&self.ladder, file, today())
    }

    /// Commits one checked action: on this thread when it is quick (a small ladder, or new
    /// events after the last), else as a job. `then` tidies the asking screen once it has
    /// landed.
    fn commit(&mut self, act: Action, then: FollowUp) -> Result<(), String> {
        let inline = !self.is_large() || self.appends(act.rows());
        self.run(
            &format!("saving: {}", act.label()),
            Unit::Permille,
            0,
            inline,
            move |store, _| {
                action::apply(store, &act).map_err(|e| e.to_string())?;
                Ok(Done::Changed { notice: None, then })
            },
        )
    }

    /// Whether the ladder is big enough that a full recomputation would freeze the window.
    pub(super) fn is_large(&self) -> bool {
        self.now().events > self.inline_limit
    }

    /// Whether `rows` only add events after the latest one (the store's incremental path).
    fn appends(&self, rows: &[(NaiveDate, Entry)]) -> bool {
        let latest = self.latest.first().map(|e| e.date);
        rows.iter()
            .all(|(d, e)| matches!(e, Entry::Add { .. }) && latest.is_none_or(|l| *d >= l))
    }

    /// Runs `work` against the open ladder: here and now when `inline`, else on a job thread
    /// with its own connection, progress and Cancel. Either way its result lands through
    /// [`AppState::finish`], so both paths behave alike.
    pub(super) fn run(
        &mut self,
        label: &str,
        unit: Unit,
        total: u64,
        inline: bool,
        work: impl FnOnce(&mut Store, &Reporter) -> Result<Done, String> + Send + 'static,
    ) -> Result<(), String> {
        let path = self.path().ok_or("no ladder is open")?.to_path_buf();
        if inline {
            let store = self.store()?;
            let idle = Reporter {
                done: Default::default(),
                cancel: Default::default(),
            };
            let result = work(store, &idle);
            self.finish(result);
            return Ok(());
        }
        self.spawn(label, unit, total, move |reporter| {
            let mut store = Store::open(&path).map_err(|e| e.to_string())?;
            store.watch(reporter.cancel.clone(), reporter.done.clone());
            work(&mut store, reporter)
        })
    }

    /// Starts `work` as the job, unless one is running (one at a time: the file has one
    /// writer, and the screens one progress bar).
    pub(super) fn spawn(
        &mut self,
        label: &str,
        unit: Unit,
        total: u64,
        work: impl FnOnce(&Reporter) -> Result<Done, String> + Send + 'static,
    ) -> Result<(), String> {
        if let Some(job) = &self.job {
            return Err(format!(
                "still busy {}; wait for it or cancel it",
                job.label
            ));
        }
        self.jobs_started += 1;
        self.job = Some(Job::spawn(label, unit, total, work));
        Ok(())
    }

    /// Lands a job's result (or an inline one's).
    pub(super) fn finish(&mut self, result: Result<Done, String>) {
        match result {
            Ok(Done::Changed { notice, then }) => {
                self.error = None;
                if notice.is_some() {
                    self.notice = notice;
                }
                self.reload();
                match then {
                    FollowUp::Nothing => {}
                    FollowUp::ClearMatchForm => {
                        self.form = MatchForm {
                            date: std::mem::take(&mut self.form.date),
                            ..MatchForm::default()
                        };
                    }
                    FollowUp::ClearNewPlayer => self.new_player.clear(),
                    FollowUp::ClearPending => {
                        self.settings_rules = None;
                        self.param_text.clear();
                    }
                    FollowUp::Open(path) => self.apply(Command::Open(path)),
                }
            }
            Ok(Done::Said(notice)) => self.notice = Some(notice),
            Ok(Done::Preview(p)) => self.pending = Some(*p),
            Ok(Done::Timeline(t)) => self.tools.timeline = Some(std::sync::Arc::new(*t)),
            Ok(Done::Compared(c)) => self.tools.comparison = Some(*c),
            Ok(Done::Scored(scores)) if scores.iter().all(|s| s.matches == 0) => {
                self.tools.scores.clear();
                self.error = Some("no played matches to score yet".into());
            }
            Ok(Done::Scored(scores)) => self.tools.scores = scores,
            Ok(Done::LogView(v)) => self.tools.log_view = Some(std::sync::Arc::new(*v)),
            Ok(Done::Simulated(s)) => {
                self.notice = Some(format!("wrote the simulated ladder {}", s.path.display()));
                // The next run gets a free name, so Run simulation again just works.
                self.tools.sim_form.out = super::tools::free_path(&s.path).display().to_string();
                self.tools.simulated = Some(*s);
            }
            Err(e) => self.error = Some(e),
        }
    }

    fn try_apply(&mut self, cmd: Command) -> Result<(), String> {
        if let (true, Some(n)) = (super::tools::changes_ladder(&cmd), self.tools.position) {
            return Err(format!(
                "the ladder is shown as it stood after event {n}; return to now (Replay) before changing it"
            ));
        }
        match cmd {
            Command::Tool(t) => self.apply_tool(t)?,
            Command::Show(screen) => self.screen = screen,
            Command::Open(path) => {
                let store = Store::open(&path).map_err(|e| e.to_string())?;
                self.set_store(store);
            }
            Command::New(path, system) => {
                let store = action::files::create(&path, &Rules::defaults(system))
                    .map_err(|e| e.to_string())?;
                self.set_store(store);
            }
            Command::OpenDemo => self.open_demo()?,
            Command::SaveCopy(to) => {
                let inline = !self.is_large();
                self.run(
                    "saving a copy",
                    Unit::Permille,
                    0,
                    inline,
                    move |store, _| {
                        let log = store.export_log().map_err(|e| e.to_string())?;
                        action::files::import_log(&to, &log).map_err(|e| e.to_string())?;
                        Ok(Done::Said(format!("saved a copy as {}", to.display())))
                    },
                )?;
            }
            Command::ImportCsv(path, mapping) => self.start_import(path, mapping)?,
            Command::ExportJsonl(to) => {
                let inline = !self.is_large();
                self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
                    let log = store.export_log().map_err(|e| e.to_string())?;
                    let mut out = std::io::BufWriter::new(
                        std::fs::File::create(&to).map_err(|e| format!("{}: {e}", to.display()))?,
                    );
                    jsonl::write(&log, &mut out).map_err(|e| format!("{}: {e}", to.display()))?;
                    Ok(Done::Said(format!("wrote {}", to.display())))
                })?;
            }
            Command::ExportCsv(to) => self.export_csv(to)?,
            Command::CancelJob => {
                if let Some(job) = &self.job {
                    job.cancel();
                }
            }
            Command::Undo => self.toggle(true)?,
            Command::Redo => self.toggle(false)?,
            Command::EnterMatch => {
                let act = Action::add_match(&self.context(), &self.form_input())
                    .map_err(|e| e.to_string())?;
                self.commit(act, FollowUp::ClearMatchForm)?;
            }
            Command::DeleteEvent(seq) => {
                let current = self.find_event(seq)?;
                let act =
                    Action::delete_event(&self.context(), &current).map_err(|e| e.to_string())?;
                self.commit(act, FollowUp::Nothing)?;
            }
            Command::EditResult(seq, result) => {
                let current = self.find_event(seq)?;
                let edit = MatchEdit {
                    result: Some(result.as_text().to_string()),
                    ..MatchEdit::default()
                };
                let act = Action::edit_match(&self.context(), &current, &edit)
                    .map_err(|e| e.to_string())?;
                self.commit(act, FollowUp::Nothing)?;
            }
            Command::AddPlayer(name) => {
                let act = Action::add_players(&mut self.context(), &[name.as_str()], None)
                    .map_err(|e| e.to_string())?;
                self.commit(act, FollowUp::ClearNewPlayer)?;
            }
            Command::Rename(id, name) => {
                let old = self
                    .ladder
                    .player(id)
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                let act = Action::rename(&self.context(), &old, &name, None)
                    .map_err(|e| e.to_string())?;
                self.commit(act, FollowUp::Nothing)?;
            }
            Command::ShowPlayer(id) => {
                self.player = id;
                self.rename_to = id
                    .and_then(|i| self.ladder.player(i))
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                self.screen = Screen::Players;
            }
            Command::PreviewSoftReset => {
                let date = self.action_date().to_string();
                let act = Action::soft_reset(&self.context(), Some(&date));
                self.preview(act.map_err(|e| e.to_string())?)?
            }
            Command::PreviewHardReset => {
                let date = self.action_date().to_string();
                let act = Action::hard_reset(&self.context(), Some(&date));
                self.preview(act.map_err(|e| e.to_string())?)?
            }
            Command::PreviewRules(rules) => {
                let date = self.action_date().to_string();
                let act = Action::change_rules(&self.context(), rules, Some(&date));
                self.preview(act.map_err(|e| e.to_string())?)?;
            }
            Command::PreviewMigration => {
                let act = self.migration_action()?;
                self.preview(act)?;
            }
            Command::Confirm => {
                let pending = self.pending.take().ok_or("nothing to apply")?;
                let act = pending.action;
                let inline = !self.is_large() || self.appends(act.rows());
                self.run(
                    &format!("applying: {}", act.label()),
                    Unit::Permille,
                    0,
                    inline,
                    move |store, _| {
                        action::apply(store, &act).map_err(|e| e.to_string())?;
                        Ok(Done::Changed {
                            notice: Some(format!("done: {}", act.label())),
                            then: FollowUp::ClearPending,
                        })
                    },
                )?;
            }
            Command::Cancel => self.pending = None,
            Command::DismissMessage => {
                self.error = None;
                self.notice = None;
            }
        }
        Ok(())
    }

    fn set_store(&mut self, store: Store) {
        let path = store.path().to_path_buf();
        self.store = Some(store);
        self.reset_tools(true);
        self.pending = None;
        self.player = None;
        self.settings_rules = None;
        self.error = None;
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(8);
        self.reload();
    }

    /// A date for a season button or rules change: today, or the latest event's date if the
    /// log runs later (a reset goes after everything it resets).
    fn action_date(&self) -> NaiveDate {
        let latest = self.latest.first().map(|e| e.date);
        latest.map_or(today(), |d| d.max(today()))
    }

    fn preview(&mut self, act: Action) -> Result<(), String> {
        let inline = !self.is_large() || self.appends(act.rows());
        let title = format!("previewing: {}", act.label());
        self.run(&title, Unit::Permille, 0, inline, move |store, _| {
            let (before, after) = action::preview(store, &act).map_err(|e| e.to_string())?;
            Ok(Done::Preview(Box::new(Pending {
                changes: preview::changes(&before, &after),
                action: act,
                after,
            })))
        })
    }

    /// Undo (`true`) or redo: each recomputes from the first event the action touched.
    fn toggle(&mut self, undo: bool) -> Result<(), String> {
        let inline = !self.is_large();
        let title = if undo { "undoing" } else { "redoing" };
        self.run(title, Unit::Permille, 0, inline, move |store, _| {
            let label = action::undo(store, !undo).map_err(|e| e.to_string())?;
            let word = if undo { "undid" } else { "redid" };
            Ok(Done::Changed {
                notice: Some(format!("{word}: {label}")),
                then: FollowUp::Nothing,
            })
        })
    }

    pub fn player_id(&self, name: &str) -> Option<PlayerId> {
        action::Roster::new(&self.ladder).find(name)
    }

    /// Names of joined players starting with (then containing) `prefix`, for the pickers.
    pub fn suggestions(&self, prefix: &str, limit: usize) -> Vec<String> {
        let key = prefix.trim().to_lowercase();
        if key.is_empty() {
            return Vec::new();
        }
        let mut starts = Vec::new();
        let mut contains = Vec::new();
        for p in self.ladder.players.iter().filter(|p| p.joined) {
            let name = p.name.to_lowercase();
            if name.starts_with(&key) {
                starts.push(p.name.clone());
            } else if name.contains(&key) {
                contains.push(p.name.clone());
            }
        }
        starts.sort();
        contains.sort();
        starts.extend(contains);
        starts.truncate(limit);
        starts
    }

    /// The match form as the gate reads it.
    pub fn form_input(&self) -> MatchInput {
        let f = &self.form;
        let medals = match (f.medals_a.trim(), f.medals_b.trim()) {
            ("", "") => None,
            (a, b) => Some(format!("{a},{b}")),
        };
        MatchInput {
            date: Some(f.date.clone()),
            a: f.a.clone(),
            b: f.b.clone(),
            result: f
                .result
                .map(|r| r.as_text().to_string())
                .unwrap_or_default(),
            medals,
            scenario: Some(f.scenario.clone()),
            side_a: Some(f.side_a.clone()),
            home: None,
        }
    }

    /// The form as a checked match, or what is wrong with it.
    pub fn match_from_form(&self) -> Result<(NaiveDate, Match), String> {
        if self.form.result.is_none() {
            return Err("choose a result".into());
        }
        self.form_match(&self.form_input())
    }

    fn form_match(&self, input: &MatchInput) -> Result<(NaiveDate, Match), String> {
        let act = Action::add_match(&self.context(), input).map_err(|e| e.to_string())?;
        match act.rows() {
            [
                (
                    date,
                    Entry::Add {
                        event: Event::Match(m),
                    },
                ),
            ] => Ok((*date, m.clone())),
            _ => Err("not a match".into()),
        }
    }

    /// For the form's two players: the prediction and each result's effect on both,
    /// computed by the ladder as previews (nothing is written). Cached until the form's
    /// players, date or extras change; empty until both players are known.
    pub fn what_if(&mut self) -> Option<&WhatIf> {
        let mut key = self.form.clone();
        key.result = None;
        if self.what_if.as_ref().map(|w| &w.key) != Some(&key)
            || self.what_if_generation != self.generation
        {
            self.what_if_generation = self.generation;
            self.what_if = self.compute_what_if(key);
        }
        self.what_if
            .as_ref()
            .filter(|w| !w.outcomes.is_empty() || (w.deferred && w.prediction.is_some()))
    }

    fn compute_what_if(&self, key: MatchForm) -> Option<WhatIf> {
        let mut empty = WhatIf {
            key: key.clone(),
            prediction: None,
            outcomes: Vec::new(),
            deferred: false,
        };
        let (Some(store), Some((date, m))) = (self.store.as_ref(), self.clone_form_match()) else {
            return Some(empty);
        };
        empty.prediction = crate::ladder::predict::predict(&self.ladder, &m.a, &m.b);
        let probe = [(
            date,
            Entry::Add {
                event: Event::Match(m.clone()),
            },
        )];
        if self.is_large() && !self.appends(&probe) {
            empty.deferred = true;
            return Some(empty);
        }
        // The same numbers `rungs predict` prints.
        if let Ok(f) = store.forecast(date, &m) {
            empty.outcomes = f.outcomes;
        }
        Some(empty)
    }

    /// A player's history from the cache (their figures after each event that touched them).
    pub fn history_of(&mut self, id: PlayerId) -> Vec<crate::ladder::state::HistoryRow> {
        let fresh = matches!(&self.history, Some((p, g, _)) if *p == id && *g == self.generation);
        if !fresh {
            let rows = self
                .store
                .as_ref()
                .and_then(|s| s.history(id).ok())
                .unwrap_or_default();
            self.history = Some((id, self.generation, rows));
        }
        self.history
            .as_ref()
            .map(|h| h.2.clone())
            .unwrap_or_default()
    }

    /// The form's match with any result, if the rest of the form is complete.
    fn clone_form_match(&self) -> Option<(NaiveDate, Match)> {
        let mut input = self.form_input();
        input.result = MatchResult::Played(crate::rating::Outcome::Win)
            .as_text()
            .to_string();
        self.form_match(&input).ok()
    }

    fn find_event(&self, seq: u64) -> Result<Effective, String> {
        if let Some(e) = self.latest.iter().find(|e| e.seq == seq) {
            return Ok(e.clone());
        }
        let store = self.store.as_ref().ok_or("no ladder is open")?;
        store
            .event(seq)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no event {seq}"))
    }

    fn migration_action(&self) -> Result<Action, String> {
        let path = PathBuf::from(self.migration.path.trim());
        let name = path.display().to_string();
        let file = std::fs::File::open(&path).map_err(|e| format!("{name}: {e}"))?;
        let lines =
            elo_list::read(std::io::BufReader::new(file), &name).map_err(|e| e.to_string())?;
        let mut ctx = self.context();
        let cutoffs = action::seasons::parse_cutoffs(&ctx.at, &self.migration.cutoffs)
            .map_err(|e| e.to_string())?;
        let date = self.action_date().to_string();
        Action::migrate_list(&mut ctx, &name, &lines, &cutoffs, Some(&date))
            .map_err(|e| e.to_string())
    }

    fn export_csv(&mut self, to: PathBuf) -> Result<(), String> {
        let inline = !self.is_large();
        self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
            let events = store.effective().map_err(|e| e.to_string())?;
            let ladder = store.ladder().map_err(|e| e.to_string())?;
            let file = std::fs::File::create(&to).map_err(|e| format!("{}: {e}", to.display()))?;
            crate::interchange::csv_export::write_matches(
                &ladder,
                &events,
                std::io::BufWriter::new(file),
            )
            .map_err(|e| format!("{}: {e}", to.display()))?;
            Ok(Done::Said(format!("wrote {}", to.display())))
        })
    }

    /// Starts a CSV import on another thread; [`AppState::poll_job`] collects it.
    fn start_import(&mut self, path: PathBuf, mapping: Mapping) -> Result<(), String> {
        let total = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let label = format!("importing {}", path.display());
        self.run(&label, Unit::Bytes, total, false, move |store, reporter| {
            let reader = crate::interchange::csv_matches::open(&path, &mapping)
                .map_err(|e| e.to_string())?;
            let s = import_into(store, reader, &path.display().to_string(), reporter)?;
            Ok(Done::Changed {
                notice: Some(format!(
                    "imported {} matches and {} new players",
                    s.matches, s.new_players
                )),
                then: FollowUp::Nothing,
            })
        })
    }

    /// Lands a finished job, if one has finished.
    pub fn poll_job(&mut self) {
        if let Some(result) = self.job.as_ref().and_then(Job::poll) {
            self.job = None;
            self.finish(result);
        }
    }

    /// Waits for the running job and lands it (tests; the app polls instead).
    pub fn wait_for_job(&mut self) {
        if let Some(job) = self.job.take() {
            let result = job.wait();
            self.finish(result);
        }
    }

    /// The demo: international football 1872–2026 (bundled, CC0), imported once into the
    /// data directory and opened.
    fn open_demo(&mut self) -> Result<(), String> {
        let path = self.data_dir.join("demo-international.rungs");
        if path.exists() {
            return self.try_apply(Command::Open(path));
        }
        let data_dir = self.data_dir.clone();
        self.spawn(
            "importing the demo ladder",
            Unit::Bytes,
            demo_csv_len(),
            move |reporter| {
                std::fs::create_dir_all(&data_dir)
                    .map_err(|e| format!("{}: {e}", data_dir.display()))?;
                // Built under another name and renamed when complete, so a cancelled or
                // failed import never leaves a half demo behind.
                let partial = path.with_extension("partial");
                let remove_partial = || {
                    for suffix in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{}{suffix}", partial.display()));
                    }
                };
                remove_partial();
                let result = (|| {
                    let mut store = action::files::create(&partial, &action::imports::demo_rules())
                        .map_err(|e| e.to_string())?;
                    let reader = crate::interchange::csv_matches::MatchReader::new(
                        flate2::read::MultiGzDecoder::new(DEMO_CSV_GZ),
                        "international_results.csv",
                        &Mapping::international(),
                    )
                    .map_err(|e| e.to_string())?;
                    import_into(&mut store, reader, "international_results.csv", reporter)?;
                    drop(store);
                    std::fs::rename(&partial, &path).map_err(|e| format!("{}: {e}", path.display()))
                })();
                if result.is_err() {
                    remove_partial();
                }
                result?;
                Ok(Done::Changed {
                    notice: Some("opened the demo: international football 1872–2026".into()),
                    then: FollowUp::Open(path),
                })
            },
        )
    }
}

/// Imports a match CSV into `store` through the gate (new players allowed), hearing
/// `reporter`'s Cancel.
fn import_into<R: std::io::Read>(
    store: &mut Store,
    reader: crate::interchange::csv_matches::MatchReader<R>,
    name: &str,
    reporter: &Reporter,
) -> Result<action::imports::Summary, String> {
    action::imports::import_csv(store, reader, name, true, &mut |n| reporter.keep_going(n))
        .map_err(|e| e.to_string())
}

/// The demo CSV's size once unpacked: gzip ends with it (modulo 2³², ample here).
fn demo_csv_len() -> u64 {
    let n = DEMO_CSV_GZ.len();
    DEMO_CSV_GZ
        .get(n.saturating_sub(4)..)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map_or(0, |b| u32::from_le_bytes(b) as u64)
}

/// The demo ladder's matches, bundled so a fresh install needs nothing else.
pub const DEMO_CSV_GZ: &[u8] = include_bytes!("../../assets/international_results.csv.gz");
