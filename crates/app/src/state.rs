//! What the app knows and what it can be asked to do: the open ladder (file, replayed state,
//! standings, newest events), the message, the running job, the designer's tools, the file
//! picker. Screens read it and send [`Command`]s carrying their data; [`AppState::apply`]
//! applies them after the frame. What a screen's own state must do once something has
//! landed (clear a form, open a page) is queued as a [`FollowUp`] for the window to hand on:
//! the state never sees a screen. Nothing here draws, writes SQL or computes a rating: the
//! gate, the store and the ladder do; the jobs' work is in `work.rs`, and each command's
//! handling in `state/dispatch.rs`.

use super::command::{Command, Screen};
use super::error::{AppError, AppResult};
use super::files::Picker;
use super::jobs::{Done, FollowUp, Job, Origin, Pending, Reporter, Unit};
use super::messages::{Level, Message, Messages, Offer};
use super::tools::Tools;
use super::work;
use chrono::NaiveDate;
use rungs_gate::{self as action, Action, Context};
use rungs_ladder::event::{Entry, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::standings::{self, Standing};
use rungs_ladder::state::HistoryRow;
use rungs_store::Store;
use std::path::{Path, PathBuf};

mod dispatch;
mod formats;
mod shared;

/// The app's whole state but the screens' own.
pub struct AppState {
    pub store: Option<Store>,
    pub ladder: Ladder,
    pub standings: Vec<Standing>,
    /// The latest events, newest first (the Enter match screen lists them).
    pub latest: Vec<Effective>,
    pub screen: Screen,
    pub messages: Messages,
    /// The action being previewed (Apply or Cancel).
    pub pending: Option<Pending>,
    pub job: Option<Job>,
    pub tools: Tools,
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
    /// What the screens' own state must do, in order, since the window last looked.
    follow_ups: Vec<FollowUp>,
    /// A player's history, read once per player and ladder change.
    history: Option<(PlayerId, u64, Vec<HistoryRow>)>,
    /// Actions another program made while this window was open (each said when it arrived):
    /// an undo of one says whose it was.
    others_actions: std::collections::HashSet<i64>,
    /// The shared ladder open, if the ladder is one (its replica is the store's file).
    pub shared: Option<crate::shared_ladder::SharedLadder>,
    /// File → Open shared ladder…'s form, while it shows.
    pub shared_form: Option<crate::shared_ladder::SharedForm>,
    /// How many times the shared ladder's replica had been made again when last opened.
    pub(crate) shared_remade: u64,
    /// How many other organisers' actions its syncs had brought in when last looked.
    pub(crate) shared_pulled: u64,
}

/// Opens `dir` in the desktop's file manager (xdg-open), waited for on a thread of its own so
/// that it leaves no zombie behind.
pub fn open_folder(dir: &Path) -> AppResult<()> {
    let child = std::process::Command::new("xdg-open")
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| AppError::File {
            path: dir.to_path_buf(),
            message: format!("no program could open it (xdg-open: {e})"),
        })?;
    let mut child = child;
    std::thread::spawn(move || child.wait());
    Ok(())
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
            pending: None,
            job: None,
            tools: Tools::default(),
            picker: Picker::new(data_dir.clone()),
            jobs_started: 0,
            inline_limit: 50_000,
            recent: Vec::new(),
            data_dir,
            generation: 0,
            follow_ups: Vec::new(),
            history: None,
            others_actions: std::collections::HashSet::new(),
            shared: None,
            shared_form: None,
            shared_remade: 0,
            shared_pulled: 0,
        }
    }

    /// Opens the file a person named (`rungs FILE`, a double-click). A name that is not
    /// there is said, and nothing is made: a mistyped name must not quietly become a new,
    /// empty ladder.
    pub fn open_named(data_dir: PathBuf, path: &Path) -> AppState {
        if path.exists() {
            return AppState::open_or_create(data_dir, path);
        }
        let mut state = AppState::empty(data_dir);
        state.say_now(Err(AppError::file(
            path,
            "no such file; File → Open opens a ladder, File → New makes one",
        )));
        state
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

    /// If another program changed the ladder since it was read, reads it again and says what
    /// arrived ("2 changes from another program: …"), so that what the screens show, and what
    /// Undo takes back, is the file as it is. Not while a job runs or a preview waits (they
    /// land or are refused against the file as they find it).
    pub fn follow_file(&mut self) {
        if self.job.is_some() || self.pending.is_some() {
            return;
        }
        let Some(store) = &self.store else {
            return;
        };
        if !store.changed_elsewhere().unwrap_or(false) {
            return;
        }
        let before = store.seen_action().unwrap_or(0);
        self.reload();
        self.say_arrived(before);
    }

    /// Says what arrived after action `before` ("2 changes from another program: …").
    pub(crate) fn say_arrived(&mut self, before: i64) {
        let Some(store) = &self.store else {
            return;
        };
        let Ok(arrived) = store.actions_after(before) else {
            return;
        };
        // An undo or redo carries the label of the action it toggled: said bare, another
        // program's undo of an edit read as the edit itself.
        let arrived: Vec<(i64, String)> = arrived
            .into_iter()
            .map(|(id, kind, label)| {
                let label = rungs_ladder::values::shown(&label).into_owned();
                let said = match kind.as_str() {
                    "undo" => format!("undid “{label}”"),
                    "redo" => format!("redid “{label}”"),
                    _ => label,
                };
                (id, said)
            })
            .collect();
        if arrived.is_empty() {
            // The log is as it was (an undo elsewhere was undone, or only caches moved).
            return;
        }
        self.others_actions
            .extend(arrived.iter().map(|(id, _)| *id));
        let shown: Vec<String> = arrived
            .iter()
            .take(3)
            .map(|(_, said)| said.clone())
            .collect();
        let more = match arrived.len() {
            n if n > 3 => format!("; and {} more", n - 3),
            _ => String::new(),
        };
        let what = match arrived.len() {
            1 => "1 change".to_string(),
            n => format!("{n} changes"),
        };
        let text = format!("{what} from another program: {}{more}", shown.join("; "));
        let origin = self.origin();
        self.say(text, Offer::Nothing, origin);
        self.follow_ups.push(FollowUp::ChangedElsewhere);
    }

    /// Event `seq` as the ladder now holds it, if it still counts.
    pub fn event(&self, seq: u64) -> Option<Effective> {
        self.find_event(seq).ok()
    }

    /// What the screens' own state must do, oldest first; the window hands each on.
    pub fn take_follow_ups(&mut self) -> Vec<FollowUp> {
        std::mem::take(&mut self.follow_ups)
    }

    /// Where a message about what is being done now belongs.
    pub(crate) fn origin(&self) -> Origin {
        Origin {
            stamp: self.messages.stamp(),
            screen: self.screen,
        }
    }

    /// Says `text` (with what it offers) for what was done at `origin`.
    pub fn say(&mut self, text: impl Into<String>, offer: Offer, origin: Origin) {
        self.messages.show(Message {
            level: Level::Notice,
            text: text.into(),
            offer,
            screen: origin.screen,
            stamp: origin.stamp,
        });
    }

    /// Says what went wrong with what was done at `origin` (a cancel is a notice).
    pub fn say_error(&mut self, e: &AppError, origin: Origin) {
        self.say_error_typed(e, origin, origin.screen.into());
    }

    /// [`say_error`](Self::say_error), naming fields by their labels in `form`.
    fn say_error_typed(&mut self, e: &AppError, origin: Origin, form: super::words::Form) {
        if e.is_cancelled() {
            self.say("stopped; the ladder is unchanged", Offer::Nothing, origin);
            return;
        }
        // Another program changed the ladder under the screens: they show it as it is now,
        // so the change refused can be made again against what is there.
        if e.is_changed_meanwhile() {
            self.reload();
        }
        // A log changed behind rungs' back is not shown; the repair is offered right there.
        let offer = match e {
            AppError::Store(rungs_store::StoreError::Stale { path, .. }) => {
                Offer::Repair(path.into())
            }
            AppError::AlreadyImported { path, mapping, .. } => {
                Offer::ImportAgain(path.clone(), mapping.clone())
            }
            _ => super::words::fix(e).map_or(Offer::Nothing, Offer::Fix),
        };
        self.messages.show(Message {
            level: Level::Error,
            text: super::words::app(e, form),
            offer,
            screen: origin.screen,
            stamp: origin.stamp,
        });
    }

    /// Says `text` now, with `offer` beside it.
    pub fn say_offering(&mut self, text: String, offer: Offer) {
        self.messages.next_stamp();
        let origin = self.origin();
        self.say(text, offer, origin);
    }

    /// Says `text` about something the window did by itself just now (a picture saved).
    pub fn say_now(&mut self, said: Result<String, AppError>) {
        self.messages.next_stamp();
        let origin = self.origin();
        match said {
            Ok(text) => self.say(text, Offer::Nothing, origin),
            Err(e) => self.say_error(&e, origin),
        }
    }

    /// Applies one command; a failure becomes the error message and changes nothing.
    pub fn apply(&mut self, cmd: Command) {
        self.messages.next_stamp();
        let origin = self.origin();
        // An edit is typed in the edit window, whose labels differ from Enter match's.
        let form = match cmd {
            Command::EditMatch { .. } => super::words::Form::EditWindow,
            _ => origin.screen.into(),
        };
        let changes = cmd.changes_ladder();
        // A shared ladder's change waits for a sync under way, and lands on its replica as
        // that sync left it (see `shared_ladder`).
        let guard = self.shared.as_ref().filter(|_| changes).map(|s| s.guard());
        let held = guard.as_ref().map(|g| g.lock());
        if held.is_some() {
            self.follow_shared();
        }
        if let Err(e) = self.try_apply(cmd) {
            self.say_error_typed(&e, origin, form);
        }
        if let (true, Some(shared)) = (changes, &self.shared) {
            shared.poke();
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
        then: Option<FollowUp>,
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
    pub fn is_large(&self) -> bool {
        self.now().events > self.inline_limit
    }

    /// Whether `rows` only add events after the latest one (the store's incremental path).
    pub fn appends(&self, rows: &[(NaiveDate, Entry)]) -> bool {
        let latest = self.latest.first().map(|e| e.date);
        rows.iter()
            .all(|(d, e)| matches!(e, Entry::Add { .. }) && latest.is_none_or(|l| *d >= l))
    }

    /// Runs `work` against the open ladder: here and now when `inline`, else on a job thread
    /// with its own connection, progress and Cancel. Either way its result lands through
    /// [`AppState::finish`], so both paths behave alike.
    fn run(
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
        // A shared ladder's sync waits for the job (see `shared_ladder`).
        let guard = self.shared.as_ref().map(|s| s.guard());
        self.spawn(label, unit, total, move |reporter| {
            let _held = guard.as_ref().map(|g| g.lock());
            let mut store = Store::open(&path)?;
            store.watch(reporter.cancel.clone(), reporter.done.clone());
            work(&mut store, reporter)
        })
    }

    /// Starts `work` as the job, unless one is running (one at a time: the file has one
    /// writer, and the screens one progress bar).
    fn spawn(
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
    fn finish(&mut self, result: AppResult<Done>, origin: Origin) {
        match result {
            Ok(Done::Changed { said, then }) => {
                if let Some((text, offer)) = said {
                    self.say(text, offer, origin);
                }
                self.reload();
                self.follow_ups.extend(then);
            }
            Ok(Done::Made { built, path, said }) => {
                if let Err(e) = self.put_in_place(&built, &path) {
                    self.say_error(&e, origin);
                } else {
                    self.say(said, Offer::Nothing, origin);
                }
            }
            Ok(Done::Said(notice)) => self.say(notice, Offer::Nothing, origin),
            Ok(Done::SaidOffering(notice, offer)) => self.say(notice, offer, origin),
            Ok(Done::Preview(p)) => self.pending = Some(*p),
            Ok(Done::Timeline(t)) => self.tools.timeline = Some(std::sync::Arc::new(*t)),
            Ok(Done::Compared(c)) => self.tools.comparison = Some(*c),
            Ok(Done::Scored(scores)) if scores.iter().all(|s| s.matches == 0) => {
                self.tools.scores.clear();
                self.say_error(&AppError::Nothing("no played matches to score yet"), origin);
            }
            Ok(Done::Scored(scores)) => self.tools.scores = scores,
            Ok(Done::LogView(v)) => self.tools.log_view = Some(std::sync::Arc::new(*v)),
            Ok(Done::Explained(x)) => self.follow_ups.push(FollowUp::Explained(x)),
            Ok(Done::TiersProposed(p)) => self.tools.tiers = Some(*p),
            Ok(Done::Simulated(s)) => {
                let text = format!("wrote the simulated ladder {}", s.path.display());
                self.say(text, Offer::Nothing, origin);
                self.follow_ups.push(FollowUp::Simulated(s.path.clone()));
                self.tools.simulated = Some(*s);
            }
            Err(e) => self.say_error(&e, origin),
        }
    }

    /// The file built at `built` replaces `path` (closed first if it is the one open), and
    /// opens.
    fn put_in_place(&mut self, built: &Path, path: &Path) -> AppResult<()> {
        if self.path() == Some(path) {
            // Its connection goes before its file does.
            self.store = None;
            self.reload_empty();
        }
        work::replace_with_built(built, path)?;
        self.set_store(Store::open(path)?);
        Ok(())
    }

    /// No ladder open: nothing shown.
    fn reload_empty(&mut self) {
        self.reset_tools(true);
        self.pending = None;
        self.ladder = Ladder::new(Rules::default());
        self.standings.clear();
        self.latest.clear();
        self.generation += 1;
        self.history = None;
    }

    /// Forgets everything computed from the file (another file opened, or it changed).
    fn reset_tools(&mut self, new_file: bool) {
        if self
            .tools
            .reset(new_file, &mut self.ladder, &mut self.standings)
        {
            self.generation += 1;
        }
    }

    /// The ladder now, not as shown on the timeline.
    pub fn now(&self) -> &Ladder {
        self.tools.now(&self.ladder)
    }

    /// Shows the ladder after the first `n` events; the end of the log is now.
    fn seek(&mut self, n: usize) -> AppResult<()> {
        if self.tools.seek(n, &mut self.ladder, &mut self.standings)? {
            self.generation += 1;
        }
        Ok(())
    }

    fn return_to_now(&mut self) {
        if self
            .tools
            .return_to_now(&mut self.ladder, &mut self.standings)
        {
            self.generation += 1;
        }
    }

    /// Moves a playing timeline on by `dt` seconds of wall time.
    pub fn advance_play(&mut self, dt: f64) {
        if let Some(next) = self.tools.advance(dt)
            && let Err(e) = self.seek(next)
        {
            self.say_now(Err(e));
            self.tools.playing = None;
        }
    }

    fn name_of(&self, id: PlayerId) -> String {
        self.ladder
            .player(id)
            .map(|p| p.name.clone())
            .unwrap_or_default()
    }

    pub(crate) fn set_store(&mut self, store: Store) {
        let path = store.path().to_path_buf();
        // Another ladder: a shared one open lets its replica go (after a last sync).
        self.shared = None;
        self.store = Some(store);
        self.reset_tools(true);
        self.pending = None;
        self.follow_ups.push(FollowUp::LadderOpened);
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
            work::preview(store, act, id)
        })
    }

    /// Undo (`true`) or redo: each recomputes from the first event the action touched.
    fn toggle(&mut self, undo: bool) -> AppResult<()> {
        let inline = !self.is_large();
        let title = if undo { "undoing" } else { "redoing" };
        let others = self.others_actions.clone();
        self.run(title, Unit::Permille, 0, inline, move |store, _| {
            let (label, target) = action::undo_action(store, !undo)?;
            let word = if undo { "Undone" } else { "Redone" };
            let whose = if others.contains(&target) {
                " (another program's change)"
            } else {
                ""
            };
            Ok(Done::Changed {
                said: Some((format!("{word}: {label}{whose}"), Offer::Nothing)),
                then: None,
            })
        })
    }

    pub fn player_id(&self, name: &str) -> Option<PlayerId> {
        action::Roster::new(&self.ladder).find(name)
    }

    /// Names of joined players for a picker, best first (`picker::suggestions`).
    pub fn suggestions(&self, prefix: &str, limit: usize) -> Vec<String> {
        super::picker::suggestions(&self.ladder, prefix, limit)
    }

    /// A player's history from the cache (their figures after each event that touched them).
    pub fn history_of(&mut self, id: PlayerId) -> Vec<HistoryRow> {
        let fresh = matches!(&self.history, Some((p, g, _)) if *p == id && *g == self.generation);
        if !fresh {
            let rows = match self.store.as_ref().map(|s| s.history(id)) {
                Some(Ok(rows)) => rows,
                // A history cache changed outside rungs: said, with the way to repair it.
                Some(Err(e)) => {
                    let origin = self.origin();
                    self.say_error(&AppError::from(e), origin);
                    Vec::new()
                }
                None => Vec::new(),
            };
            self.history = Some((id, self.generation, rows));
        }
        self.history
            .as_ref()
            .map(|h| h.2.clone())
            .unwrap_or_default()
    }

    /// A player's history as shown: up to the point viewed on the timeline.
    pub fn shown_history(&mut self, id: PlayerId) -> Vec<HistoryRow> {
        let rows = self.history_of(id);
        self.tools.as_shown(&rows).to_vec()
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

    /// The demo: international football 1872–2026 (bundled, CC0), built once in the data
    /// directory and opened — and built again where an older rungs built it under other
    /// rules, unless it holds changes of the user's (then it opens as it is).
    fn open_demo(&mut self) -> AppResult<()> {
        let path = self.data_dir.join("demo-international.rungs");
        match work::demo_file(&path)? {
            work::DemoFile::Missing | work::DemoFile::Untouched => {}
            work::DemoFile::Keep { older } => {
                let origin = self.origin();
                self.try_apply(Command::Open(path))?;
                if older {
                    let text = "opened the demo as it is: an older rungs built it, and it holds \
                                changes of yours, so it was not built again";
                    self.say(text, Offer::Nothing, origin);
                }
                return Ok(());
            }
        }
        let total = work::demo_csv_len();
        self.spawn(
            "importing the demo ladder",
            Unit::Bytes,
            total,
            move |reporter| work::build_demo(path, reporter),
        )
    }
}
