//! Each [`Command`] applied: what a screen asked for, done through the gate, the store or a
//! job. Failures come back as the error the message strip shows.

use super::AppState;
use crate::command::{Command, Screen, ToolCommand};
use crate::error::{AppError, AppResult};
use crate::jobs::{Done, FollowUp, Unit};
use crate::messages::Offer;
use crate::work;
use rungs_gate::{self as action, Action};
use rungs_interchange::csv_matches::Mapping;
use rungs_ladder::rules::Rules;
use rungs_store::Store;
use std::path::{Path, PathBuf};

impl AppState {
    /// Imports the match CSV at `path` as a job; `again` imports a file whose every match
    /// the ladder holds already.
    fn import_csv(&mut self, path: PathBuf, mapping: Mapping, again: bool) -> AppResult<()> {
        let total = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let label = format!("importing {}", path.display());
        self.run(&label, Unit::Bytes, total, false, move |store, reporter| {
            work::import_csv(store, &path, &mapping, again, reporter)
        })
    }

    /// Applies `cmd`; a failure is the error the message strip shows.
    pub(super) fn try_apply(&mut self, cmd: Command) -> AppResult<()> {
        if let (true, Some(n)) = (cmd.changes_ladder(), self.tools.position) {
            return Err(AppError::InThePast(n));
        }
        let origin = self.origin();
        match cmd {
            Command::Tool(t) => self.apply_tool(t)?,
            Command::Show(screen) => {
                self.messages.left_screen(screen);
                self.screen = screen;
            }
            Command::AskShared => {
                self.shared_form
                    .get_or_insert_with(crate::shared_ladder::SharedForm::default);
            }
            Command::OpenShared { url, password } => self.open_shared(url, password)?,
            Command::Open(path) => {
                let store = Store::open(&path)?;
                self.set_store(store);
            }
            Command::Repair(path) => {
                // Rebuilds every cache from the log in one transaction; the log is not touched.
                let repaired = Store::repair(&path)?;
                let store = Store::open(&path)?;
                self.set_store(store);
                let text = format!(
                    "repaired {}: its caches rebuilt from its log ({} events, {} players)",
                    path.display(),
                    repaired.events,
                    repaired.players
                );
                self.say(text, Offer::Nothing, origin);
            }
            Command::New(path, system) => {
                self.try_apply(Command::Create(path, Rules::defaults(system)))?
            }
            Command::Create(path, rules) => {
                let system = rules.system();
                let store = action::files::create(&path, &rules)?;
                self.set_store(store);
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
                self.follow_ups.push(FollowUp::AskNewLadder(folder));
            }
            Command::PickOwn(purpose) => {
                if let Some(p) = self.path().and_then(Path::parent) {
                    self.picker.start = p.to_path_buf();
                }
                self.picker.open_own(purpose);
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
                    move |store, _| work::save_copy(store, &to),
                )?;
            }
            Command::ImportCsv(path, mapping) => self.import_csv(path, mapping, false)?,
            Command::ImportCsvAgain(path, mapping) => self.import_csv(path, mapping, true)?,
            Command::ExportJsonl(to) => {
                let inline = !self.is_large();
                self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
                    work::export_jsonl(store, &to)
                })?;
            }
            Command::ExportCsv(to) => {
                let inline = !self.is_large();
                self.run("exporting", Unit::Permille, 0, inline, move |store, _| {
                    work::export_csv(store, &to)
                })?;
            }
            Command::AskPublish => {
                let store = self.store.as_ref().ok_or(AppError::NoLadder)?;
                self.follow_ups
                    .push(FollowUp::AskPublish(work::publish_title(store)));
            }
            Command::Publish(dir, options) => {
                let inline = !self.is_large();
                self.run("publishing", Unit::Permille, 0, inline, move |store, _| {
                    work::publish(store, &dir, &options)
                })?;
            }
            Command::SaveStandingsPng(to) => {
                let png =
                    rungs_publish::standings_image(&self.ladder, "Standings").map_err(|e| {
                        AppError::File {
                            path: to.clone(),
                            message: e.to_string(),
                        }
                    })?;
                let ladder = self.path().ok_or(AppError::NoLadder)?.to_path_buf();
                work::write_bytes(&to, &ladder, &png)?;
                let origin = self.origin();
                self.say(format!("wrote {}", to.display()), Offer::Nothing, origin);
            }
            Command::SaveSimulatePlot(plot, to) => {
                let sim = self.tools.simulated.as_ref().ok_or(AppError::File {
                    path: to.clone(),
                    message: "run a simulation first".into(),
                })?;
                let svg = rungs_publish::plot::simulation(plot, &plot.curves(&sim.report));
                let png = to
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("png"));
                let bytes = if png {
                    rungs_publish::image::png(&svg).map_err(|e| AppError::File {
                        path: to.clone(),
                        message: e.to_string(),
                    })?
                } else {
                    svg.into_bytes()
                };
                let beside = sim.path.clone();
                work::write_bytes(&to, &beside, &bytes)?;
                let origin = self.origin();
                self.say(format!("wrote {}", to.display()), Offer::Nothing, origin);
            }
            Command::CopiedStandings(rows) => {
                let origin = self.origin();
                let text = format!("copied the standings ({rows} players), tab-separated");
                self.say(text, Offer::Nothing, origin);
            }
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
                self.commit(act, said, Some(FollowUp::MatchSaved))?;
            }
            Command::EditMatch { seq, edit } => {
                let current = self.find_event(seq)?;
                let act = Action::edit_match(&self.context(), &current, &edit)?;
                // What it was and what it is now ("Changed: Spain beat Peru → Peru beat Spain"),
                // not the old label alone.
                let widgets =
                    |e: &rungs_ladder::event::Event| crate::widgets::event_line(&self.ladder, e);
                let before = widgets(&current.event);
                let after = act.rows().iter().find_map(|(_, entry)| match entry {
                    rungs_ladder::event::Entry::Edit { event, .. }
                    | rungs_ladder::event::Entry::Add { event } => Some(widgets(event)),
                    _ => None,
                });
                let text = match after {
                    Some(after) if after != before => format!("Changed: {before} → {after}"),
                    _ => format!("Changed: {before}"),
                };
                let said = Some((text, Offer::Undo));
                self.commit(act, said, Some(FollowUp::EditDone))?;
            }
            Command::DeleteEvent { seq, said } => {
                let current = self.find_event(seq)?;
                let act = Action::delete_event(&self.context(), &current)?;
                let said = Some((format!("Deleted: {said}"), Offer::Undo));
                self.commit(act, said, Some(FollowUp::EditDone))?;
            }
            Command::SaveRound(input) => {
                let book = action::rounds::book(self.store.as_ref().ok_or(AppError::NoLadder)?)?;
                let act = Action::save_rounds(&self.context(), &book, &[*input])?;
                let said = Some((
                    format!("Saved: {}", act.label().trim_start_matches("saved ")),
                    Offer::Undo,
                ));
                self.commit(act, said, None)?;
            }
            Command::BoardResult {
                round,
                board,
                result,
                said,
            } => {
                let book = action::rounds::book(self.store.as_ref().ok_or(AppError::NoLadder)?)?;
                let act =
                    Action::board_result(&self.context(), &book, round, board, &result, None)?;
                let said = Some((format!("Saved: {said}"), Offer::Undo));
                self.commit(act, said, None)?;
            }
            Command::AddPlayer(name) => {
                let act = Action::add_players(&mut self.context(), &[name.as_str()], None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, Some(FollowUp::PlayerAdded))?;
            }
            Command::AddPlayers(names) => {
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                let act = Action::add_players(&mut self.context(), &names, None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, Some(FollowUp::PlayerAdded))?;
            }
            Command::Rename(id, name) => {
                let old = self.name_of(id);
                let act = Action::rename(&self.context(), &old, &name, None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, None)?;
            }
            Command::Retire(id, retired) => {
                let name = self.name_of(id);
                let act = Action::retire(&self.context(), &name, retired, None)?;
                let said = Some((act.label().to_string(), Offer::Undo));
                self.commit(act, said, None)?;
            }
            Command::ShowPlayer(id) => {
                self.follow_ups.push(FollowUp::ShowPlayer(id));
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
            Command::PreviewDueResets => {
                let act = Action::apply_due_resets(&self.context(), None)?;
                self.preview(act)?
            }
            Command::PreviewRules(rules, date) => {
                let date = match date.trim() {
                    "" => self.action_date().to_string(),
                    d => d.to_string(),
                };
                // The form holds whole rules; they must differ from those on their date.
                let day = self.context().date("date", Some(&date))?;
                let in_force = self.store()?.rules_on(day)?;
                let act = Action::change_rules(&self.context(), rules, &in_force, Some(&date))?;
                self.preview(act)?;
            }
            Command::PreviewMigration { path, cutoffs } => {
                let date = self.action_date().to_string();
                let act = work::migration(&mut self.context(), &path, &cutoffs, &date)?;
                self.preview(act)?;
            }
            Command::Confirm => {
                let pending = self
                    .pending
                    .take()
                    .ok_or(AppError::Nothing("nothing to apply"))?;
                let act = pending.action;
                let done = format!("Done: {}", crate::words::change(&act, &self.now().rules));
                let inline = !self.is_large() || self.appends(act.rows());
                self.run(
                    &format!("applying: {}", act.label()),
                    Unit::Permille,
                    0,
                    inline,
                    move |store, _| {
                        action::apply(store, &act)?;
                        Ok(Done::Changed {
                            said: Some((done, Offer::Undo)),
                            then: Some(FollowUp::RulesApplied),
                        })
                    },
                )?;
            }
            Command::Cancel => self.pending = None,
            Command::DismissMessage => self.messages.dismiss(),
            Command::OpenFolder(dir) => super::open_folder(&dir)?,
            Command::Problem { field, message } => return Err(AppError::field(field, message)),
            Command::Explain { seq, player } => {
                // The log replayed to the event: off the window's thread on a large ladder.
                let inline = !self.is_large();
                let label = format!("explaining event {seq}");
                self.run(&label, Unit::Permille, 0, inline, move |store, _| {
                    let (rules, events) = (store.initial_rules()?, store.effective()?);
                    let explanation = rungs_analysis::explain::explain(
                        &rules, &events, seq, player,
                    )
                    .map_err(|e| AppError::Task {
                        task: "explaining the change",
                        message: e.to_string(),
                    })?;
                    Ok(Done::Explained(Box::new(explanation)))
                })?;
            }
            Command::Format(f) => self.apply_format(f)?,
        }
        Ok(())
    }

    /// Applies a tool command; failures become the error message.
    fn apply_tool(&mut self, cmd: ToolCommand) -> AppResult<()> {
        match cmd {
            ToolCommand::BuildTimeline => {
                let total = self.now().events;
                let label = "building the timeline";
                self.run(label, Unit::Events, total, false, work::timeline)?;
            }
            ToolCommand::Seek(n) => self.seek(n)?,
            ToolCommand::Play(speed) => {
                if self.tools.play(speed) {
                    // Playing from now would end at once: start from the beginning.
                    self.seek(0)?;
                }
            }
            ToolCommand::ReturnToNow => self.return_to_now(),
            ToolCommand::Compare(rules) => {
                // A is the file's own replay, which the caches already hold.
                let own = self.now().clone();
                let label = format!("replaying under {}", crate::words::rules(&rules));
                self.run(&label, Unit::Permille, 0, false, move |store, _| {
                    work::compare(store, &own, rules)
                })?;
            }
            ToolCommand::CloseCompare => self.tools.comparison = None,
            ToolCommand::Evaluate => {
                let total = work::evaluate_total(self.now().events);
                self.run(
                    "scoring predictions",
                    Unit::Events,
                    total,
                    false,
                    work::evaluate,
                )?;
            }
            ToolCommand::Simulate(cfg, path) => {
                cfg.validate().map_err(action::ActionError::from)?;
                if path.exists() {
                    return Err(AppError::file(
                        &path,
                        "already exists; a simulation writes a new file, so choose another name",
                    ));
                }
                let total = cfg.events();
                self.spawn("simulating", Unit::Events, total, move |r| {
                    work::simulate(&cfg, path, r)
                })?;
            }
            ToolCommand::Plot(id) => {
                if !self.tools.plotted.contains(&id) {
                    self.tools.plotted.push(id);
                }
            }
            ToolCommand::Unplot(id) => self.tools.plotted.retain(|p| *p != id),
            ToolCommand::ProposeTiers(targets) => {
                self.run(
                    "cutting the tiers",
                    Unit::Permille,
                    0,
                    false,
                    move |store, r| work::propose_tiers(store, &targets, r),
                )?;
            }
            ToolCommand::LoadLog => {
                let inline = !self.is_large();
                let label = "reading the log for the plots";
                self.run(label, Unit::Permille, 0, inline, |store, _| {
                    work::read_log(store)
                })?;
            }
        }
        Ok(())
    }
}
