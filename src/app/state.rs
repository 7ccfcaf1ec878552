//! What the app knows and what it can be asked to do. The open ladder (file, replayed state,
//! standings, newest events) is shared by every screen; each screen keeps its own form state
//! in [`Screens`]. Screens read the state and send [`Command`]s carrying their data; the app
//! applies them after the frame. Nothing here draws, writes SQL or computes a rating: the
//! gate, the store and the ladder do.

use super::error::{AppError, AppResult};
use super::files::Picker;
use super::jobs::{Done, FollowUp, Job, Origin, Reporter, Unit};
use super::messages::{Level, Message, Messages, Offer};
use crate::action::{self, Action, Context};
use crate::interchange::csv_matches::Mapping;
use crate::interchange::{elo_list, jsonl};
use crate::ladder::event::{Entry, PlayerId};
use crate::ladder::log::Effective;
use crate::ladder::preview::{self, Change};
use crate::ladder::replay::Ladder;
use crate::ladder::rules::{Rules, System};
use crate::ladder::standings::{self, Standing};
use crate::store::Store;
use chrono::NaiveDate;
use std::path::{Path, PathBuf};

pub use super::command::{Command, Screen};

/// An action shown before it happens.
#[derive(Debug, Clone)]
pub struct Pending {
    pub action: Action,
    pub changes: Vec<Change>,
    pub after: Ladder,
    /// Which preview this is (its table scrolls from the top, not where the last one was).
    pub id: u64,
}

/// Each organiser screen's own state (forms as typed, views, caches). The designer's screens
/// keep theirs in [`super::tools::Tools`].
#[derive(Default)]
pub struct Screens {
    pub standings: super::standings::StandingsScreen,
    pub enter: super::enter_match::EnterMatchScreen,
    pub players: super::players::PlayersScreen,
    pub settings: super::settings::SettingsScreen,
    pub migration: super::migration::MigrationScreen,
    pub tune: super::tune::Tune,
    pub new_ladder: Option<super::new_ladder::NewLadderForm>,
}

/// The app's whole state.
pub struct AppState {
    pub store: Option<Store>,
    pub ladder: Ladder,
    pub standings: Vec<Standing>,
    /// The latest events, newest first (the Enter match screen lists them).
    pub latest: Vec<Effective>,
    pub screen: Screen,
    pub messages: Messages,
    pub screens: Screens,
    pub pending: Option<Pending>,
    pub job: Option<Job>,
    pub tools: super::tools::Tools,
    pub picker: Picker,
    /// Jobs started so far (how tests tell work that went off the UI thread).
    pub jobs_started: u64,
    /// Ladders with more events than this recompute off the UI thread (appends at the end
    /// are always instant and stay on it).
    pub inline_limit: u64,
    pub recent: Vec<PathBuf>,
    pub data_dir: PathBuf,
    /// Bumped at every reload, so cached views know the ladder changed.
    pub generation: u64,
    /// A player's history, read once per player and ladder change.
    history: Option<(PlayerId, u64, Vec<crate::ladder::state::HistoryRow>)>,
}

pub fn today() -> NaiveDate {
    action::today()
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
            messages: Messages::default(),
            screens: Screens::default(),
            pending: None,
            job: None,
            tools: super::tools::Tools::new(&data_dir),
            picker: Picker::new(data_dir.clone()),
            jobs_started: 0,
            inline_limit: 50_000,
            recent: Vec::new(),
            data_dir,
            generation: 0,
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

    /// The error showing, if any.
    pub fn error(&self) -> Option<&str> {
        self.messages.error()
    }

    /// The notice showing, if any.
    pub fn notice(&self) -> Option<&str> {
        self.messages.notice()
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
            Err(e) => {
                let origin = self.origin();
                self.say_error(&AppError::Store(e), origin);
            }
        }
    }

    /// Where a message about what is being done now belongs.
    fn origin(&self) -> Origin {
        Origin {
            stamp: self.messages.stamp(),
            screen: self.screen,
        }
    }

    pub(super) fn say(&mut self, text: impl Into<String>, offer: Offer, origin: Origin) {
        self.messages.show(Message {
            level: Level::Notice,
            text: text.into(),
            offer,
            screen: origin.screen,
            stamp: origin.stamp,
        });
    }

    pub(super) fn say_error(&mut self, e: &AppError, origin: Origin) {
        if e.is_cancelled() {
            self.say("stopped; the ladder is unchanged", Offer::Nothing, origin);
            return;
        }
        self.messages.show(Message {
            level: Level::Error,
            text: e.to_string(),
            offer: Offer::Nothing,
            screen: origin.screen,
            stamp: origin.stamp,
        });
    }

    /// Applies one command; a failure becomes the error message and changes nothing.
    pub fn apply(&mut self, cmd: Command) {
        self.messages.next_stamp();
        let origin = self.origin();
        if let Err(e) = self.try_apply(cmd) {
            self.say_error(&e, origin);
        }
    }

    fn store(&mut self) -> AppResult<&mut Store> {
        self.store.as_mut().ok_or(AppError::NoLadder)
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
    /// landed; `said` is the message then.
    fn commit(
        &mut self,
        act: Action,
        said: Option<(String, Offer)>,
        then: FollowUp,
    ) -> AppResult<()> {
        let inline = !self.is_large() || self.appends(act.rows());
        self.run(
            &format!("saving: {}", act.label()),
            Unit::Permille,
            0,
            inline,
            move |store, _| {
                action::apply(store, &act)?;
                Ok(Done::Changed { said, then })
            },
        )
    }

    /// Whether the ladder is big enough that a full recomputation would freeze the window.
    pub(super) fn is_large(&self) -> bool {
        self.now().events > self.inline_limit
    }

    /// Whether `rows` only add events after the latest one (the store's incremental path).
    pub(super) fn appends(&self, rows: &[(NaiveDate, Entry)]) -> bool {
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
        work: impl FnOnce(&mut Store, &Reporter) -> AppResult<Done> + Send + 'static,
    ) -> AppResult<()> {
        let path = self.path().ok_or(AppError::NoLadder)?.to_path_buf();
        if inline {
            let origin = self.origin();
            let store = self.store()?;
            let idle = Reporter {
                done: Default::default(),
                cancel: Default::default(),
            };
            let result = work(store, &idle);
            self.finish(result, origin);
            return Ok(());
        }
        self.spawn(label, unit, total, move |reporter| {
            let mut store = Store::open(&path)?;
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
        work: impl FnOnce(&Reporter) -> AppResult<Done> + Send + 'static,
    ) -> AppResult<()> {
        if let Some(job) = &self.job {
            return Err(AppError::Busy(job.label.clone()));
        }
        self.jobs_started += 1;
        let origin = self.origin();
        self.job = Some(Job::spawn(label, unit, total, origin, work));
        Ok(())
    }

    /// Lands a job's result (or an inline one's); what it says belongs to `origin`.
    pub(super) fn finish(&mut self, result: AppResult<Done>, origin: Origin) {
        match result {
            Ok(Done::Changed { said, then }) => {
                if let Some((text, offer)) = said {
                    self.say(text, offer, origin);
                }
                self.reload();
                match then {
                    FollowUp::Nothing => {}
                    FollowUp::MatchSaved => self.screens.enter.saved(),
                    FollowUp::EditDone => self.screens.enter.edit = None,
                    FollowUp::PlayerAdded => self.screens.players.added(),
                    FollowUp::RulesApplied => self.screens.settings.reset(),
                    FollowUp::Open(path) => {
                        if let Err(e) = self.try_apply(Command::Open(path)) {
                            self.say_error(&e, origin);
                        }
                    }
                }
            }
            Ok(Done::Said(notice)) => self.say(notice, Offer::Nothing, origin),
            Ok(Done::Preview(p)) => self.pending = Some(*p),
            Ok(Done::Timeline(t)) => self.tools.timeline = Some(std::sync::Arc::new(*t)),
            Ok(Done::Compared(c)) => self.tools.comparison = Some(*c),
            Ok(Done::Scored(scores)) if scores.iter().all(|s| s.matches == 0) => {
                self.tools.scores.clear();
                self.say_error(&AppError::Nothing("no played matches to score yet"), origin);
            }
            Ok(Done::Scored(scores)) => self.tools.scores = scores,
            Ok(Done::LogView(v)) => self.tools.log_view = Some(std::sync::Arc::new(*v)),
            Ok(Done::Simulated(s)) => {
                let text = format!("wrote the simulated ladder {}", s.path.display());
                self.say(text, Offer::Nothing, origin);
                // The next run gets a free name, so Run simulation again just works.
                self.tools.sim_form.out = super::tools::free_path(&s.path).display().to_string();
                self.tools.simulated = Some(*s);
            }
            Err(e) => self.say_error(&e, origin),
        }
    }

    fn try_apply(&mut self, cmd: Command) -> AppResult<()> {
        if let (true, Some(n)) = (super::tools::changes_ladder(&cmd), self.tools.position) {
            return Err(AppError::InThePast(n));
        }
        let origin = self.origin();
        match cmd {
            Command::Tool(t) => self.apply_tool(t)?,
            Command::Show(screen) => {
                self.messages.left_screen(screen);
                self.screen = screen;
            }
            Command::Open(path) => {
                let store = Store::open(&path)?;
                self.set_store(store);
            }
            Command::New(path, system) => {
                let store = action::files::create(&path, &Rules::defaults(system))?;
                self.set_store(store);
                self.screens.new_ladder = None;
                let text = format!(
                    "created {} ({}): add players or import matches to begin",
                    path.display(),
                    system.label()
                );
                self.say(text, Offer::Nothing, origin);
            }
            Command::AskNewLadder => {
                let folder = self
                    .path()
                    .and_then(Path::parent)
                    .map_or_else(|| self.data_dir.clone(), Path::to_path_buf);
                self.screens.new_ladder = Some(super::new_ladder::NewLadderForm::new(folder));
            }
            Command::Pick(purpose) => {
                if let Some(p) = self.path().and_then(Path::parent) {
                    self.picker.start = p.to_path_buf();
                }
                if let Some(text) = self.picker.start(purpose) {
                    self.say(text, Offer::Nothing, origin);
                }
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
                        let log = store.export_log()?;
                        action::files::import_log(&to, &log)?;
                        Ok(Done::Said(format!("saved a copy as {}", to.display())))
                    },
                )?;
            }
            Command::ImportCsv(path, mapping) => self.start_import(path, mapping)?,
            Command::ExportJsonl(to) => {
                let inline = !self.is_large();
                self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
                    let log = store.export_log()?;
                    let file = std::fs::File::create(&to).map_err(|e| AppError::file(&to, e))?;
                    let mut out = std::io::BufWriter::new(file);
                    jsonl::write(&log, &mut out).map_err(|e| AppError::file(&to, e))?;
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
            Command::AddMatch { input, said } => {
                let act = Action::add_match(&self.context(), &input)?;
                let said = Some((format!("Saved: {said}"), Offer::Undo));
                self.commit(act, said, FollowUp::MatchSaved)?;
            }
            Command::EditMatch { seq, edit } => {
                let current = self.find_event(seq)?;
                let act = Action::edit_match(&self.context(), &current, &edit)?;
                let before = super::widgets::event_line(&self.ladder, &current.event);
                let said = Some((format!("Changed: {before}"), Offer::Undo));
                self.commit(act, said, FollowUp::EditDone)?;
            }
            Command::DeleteEvent { seq, said } => {
                let current = self.find_event(seq)?;
                let act = Action::delete_event(&self.context(), &current)?;
                let said = Some((format!("Deleted: {said}"), Offer::Undo));
                self.commit(act, said, FollowUp::EditDone)?;
            }
            Command::AddPlayer(name) => {
                let act = Action::add_players(&mut self.context(), &[name.as_str()], None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, FollowUp::PlayerAdded)?;
            }
            Command::Rename(id, name) => {
                let old = self.name_of(id);
                let act = Action::rename(&self.context(), &old, &name, None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, FollowUp::Nothing)?;
            }
            Command::Retire(id, retired) => {
                let name = self.name_of(id);
                let act = Action::retire(&self.context(), &name, retired, None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, FollowUp::Nothing)?;
            }
            Command::ShowPlayer(id) => {
                self.screens.players.show(id, &self.ladder);
                self.messages.left_screen(Screen::Players);
                self.screen = Screen::Players;
            }
            Command::PreviewSoftReset => {
                let date = self.action_date().to_string();
                let act = Action::soft_reset(&self.context(), Some(&date))?;
                self.preview(act)?
            }
            Command::PreviewHardReset => {
                let date = self.action_date().to_string();
                let act = Action::hard_reset(&self.context(), Some(&date))?;
                self.preview(act)?
            }
            Command::PreviewRules(rules, date) => {
                let date = match date.trim() {
                    "" => self.action_date().to_string(),
                    d => d.to_string(),
                };
                let act = Action::change_rules(&self.context(), rules, Some(&date))?;
                self.preview(act)?;
            }
            Command::PreviewMigration { path, cutoffs } => {
                let act = self.migration_action(&path, &cutoffs)?;
                self.preview(act)?;
            }
            Command::Confirm => {
                let pending = self
                    .pending
                    .take()
                    .ok_or(AppError::Nothing("nothing to apply"))?;
                let act = pending.action;
                let inline = !self.is_large() || self.appends(act.rows());
                self.run(
                    &format!("applying: {}", act.label()),
                    Unit::Permille,
                    0,
                    inline,
                    move |store, _| {
                        action::apply(store, &act)?;
                        Ok(Done::Changed {
                            said: Some((format!("done: {}", act.label()), Offer::Undo)),
                            then: FollowUp::RulesApplied,
                        })
                    },
                )?;
            }
            Command::Cancel => self.pending = None,
            Command::DismissMessage => self.messages.dismiss(),
            Command::Problem { field, message } => return Err(AppError::field(field, message)),
        }
        Ok(())
    }

    fn name_of(&self, id: PlayerId) -> String {
        self.ladder
            .player(id)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    fn set_store(&mut self, store: Store) {
        let path = store.path().to_path_buf();
        self.store = Some(store);
        self.reset_tools(true);
        self.pending = None;
        self.screens = Screens::default();
        self.messages.ladder_changed();
        self.history = None;
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(8);
        self.reload();
    }

    /// A date for a season button or rules change: today, or the latest event's date if the
    /// log runs later (a reset goes after everything it resets).
    pub fn action_date(&self) -> NaiveDate {
        let latest = self.latest.first().map(|e| e.date);
        latest.map_or(today(), |d| d.max(today()))
    }

    fn preview(&mut self, act: Action) -> AppResult<()> {
        let inline = !self.is_large() || self.appends(act.rows());
        let title = format!("previewing: {}", act.label());
        let id = self.messages.stamp();
        self.run(&title, Unit::Permille, 0, inline, move |store, _| {
            let (before, after) = action::preview(store, &act)?;
            Ok(Done::Preview(Box::new(Pending {
                changes: preview::changes(&before, &after),
                action: act,
                after,
                id,
            })))
        })
    }

    /// Undo (`true`) or redo: each recomputes from the first event the action touched.
    fn toggle(&mut self, undo: bool) -> AppResult<()> {
        let inline = !self.is_large();
        let title = if undo { "undoing" } else { "redoing" };
        self.run(title, Unit::Permille, 0, inline, move |store, _| {
            let label = action::undo(store, !undo)?;
            let word = if undo { "undid" } else { "redid" };
            Ok(Done::Changed {
                said: Some((format!("{word}: {label}"), Offer::Nothing)),
                then: FollowUp::Nothing,
            })
        })
    }

    pub fn player_id(&self, name: &str) -> Option<PlayerId> {
        action::Roster::new(&self.ladder).find(name)
    }

    /// Names of joined players for a picker, best first: the exact name, then names starting
    /// with `prefix`, then names containing it. Among those that start alike, the player
    /// with more matches comes first (the regular, not the one-off: "Germ" offers Germany
    /// before German DR), then the shorter name.
    pub fn suggestions(&self, prefix: &str, limit: usize) -> Vec<String> {
        let key = prefix.trim().to_lowercase();
        if key.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<(u8, std::cmp::Reverse<u32>, usize, String)> = Vec::new();
        for p in self.ladder.players.iter().filter(|p| p.joined) {
            let name = p.name.to_lowercase();
            let rank = if name == key {
                0
            } else if name.starts_with(&key) {
                1
            } else if name.contains(&key) {
                2
            } else {
                continue;
            };
            found.push((
                rank,
                std::cmp::Reverse(p.matches),
                name.len(),
                p.name.clone(),
            ));
        }
        found.sort();
        found.into_iter().take(limit).map(|f| f.3).collect()
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

    fn find_event(&self, seq: u64) -> AppResult<Effective> {
        if let Some(e) = self.latest.iter().find(|e| e.seq == seq) {
            return Ok(e.clone());
        }
        let store = self.store.as_ref().ok_or(AppError::NoLadder)?;
        store.event(seq)?.ok_or_else(|| {
            AppError::Action(action::ActionError::NoEvent {
                at: action::Place::file(store.path().display().to_string()),
                seq,
            })
        })
    }

    fn migration_action(&self, path: &str, cutoffs: &str) -> AppResult<Action> {
        let path = PathBuf::from(path.trim());
        if path.as_os_str().is_empty() {
            return Err(AppError::field(
                "Elo list",
                "choose the file first (step 1)",
            ));
        }
        let name = path.display().to_string();
        let file = std::fs::File::open(&path).map_err(|e| AppError::file(&path, e))?;
        let lines = elo_list::read(std::io::BufReader::new(file), &name)
            .map_err(action::ActionError::from)?;
        let mut ctx = self.context();
        let cutoffs = action::seasons::parse_cutoffs(&ctx.at, cutoffs)?;
        let date = self.action_date().to_string();
        Ok(Action::migrate_list(
            &mut ctx,
            &name,
            &lines,
            &cutoffs,
            Some(&date),
        )?)
    }

    fn export_csv(&mut self, to: PathBuf) -> AppResult<()> {
        let inline = !self.is_large();
        self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
            let events = store.effective()?;
            let ladder = store.ladder()?;
            let file = std::fs::File::create(&to).map_err(|e| AppError::file(&to, e))?;
            crate::interchange::csv_export::write_matches(
                &ladder,
                &events,
                std::io::BufWriter::new(file),
            )
            .map_err(|e| AppError::file(&to, e))?;
            Ok(Done::Said(format!("wrote {}", to.display())))
        })
    }

    /// Starts a CSV import on another thread; [`AppState::poll_job`] collects it.
    fn start_import(&mut self, path: PathBuf, mapping: Mapping) -> AppResult<()> {
        let total = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let label = format!("importing {}", path.display());
        self.run(&label, Unit::Bytes, total, false, move |store, reporter| {
            let reader = crate::interchange::csv_matches::open(&path, &mapping)
                .map_err(action::ActionError::from)?;
            let s = import_into(store, reader, &path.display().to_string(), reporter)?;
            Ok(Done::Changed {
                said: Some((
                    format!(
                        "imported {} matches and {} new players",
                        s.matches, s.new_players
                    ),
                    Offer::Undo,
                )),
                then: FollowUp::Nothing,
            })
        })
    }

    /// Lands a finished job, if one has finished.
    pub fn poll_job(&mut self) {
        if let Some(result) = self.job.as_ref().and_then(Job::poll)
            && let Some(job) = self.job.take()
        {
            self.finish(result, job.origin);
        }
    }

    /// Waits for the running job and lands it (tests; the app polls instead).
    pub fn wait_for_job(&mut self) {
        if let Some(job) = self.job.take() {
            let result = job.wait();
            self.finish(result, job.origin);
        }
    }

    /// The demo: international football 1872–2026 (bundled, CC0), imported once into the
    /// data directory and opened.
    fn open_demo(&mut self) -> AppResult<()> {
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
                std::fs::create_dir_all(&data_dir).map_err(|e| AppError::file(&data_dir, e))?;
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
                    let mut store =
                        action::files::create(&partial, &action::imports::demo_rules())?;
                    let reader = crate::interchange::csv_matches::MatchReader::new(
                        flate2::read::MultiGzDecoder::new(DEMO_CSV_GZ),
                        "international_results.csv",
                        &Mapping::international(),
                    )
                    .map_err(action::ActionError::from)?;
                    import_into(&mut store, reader, "international_results.csv", reporter)?;
                    drop(store);
                    std::fs::rename(&partial, &path).map_err(|e| AppError::file(&path, e))
                })();
                if result.is_err() {
                    remove_partial();
                }
                result?;
                Ok(Done::Changed {
                    said: Some((
                        "opened the demo: international football 1872–2026".into(),
                        Offer::Nothing,
                    )),
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
) -> AppResult<action::imports::Summary> {
    Ok(action::imports::import_csv(
        store,
        reader,
        name,
        true,
        &mut |n| reporter.keep_going(n),
    )?)
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
