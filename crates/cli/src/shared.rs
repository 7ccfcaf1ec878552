//! Shared ladders on the command line: a command's FILE may be a `postgres://` URL. Such a
//! command runs on the ladder's replica (an ordinary ladder file, see
//! `rungs_gate::shared`), after the replica is brought up to the server and before what it
//! changed is sent: one place, so every command that takes FILE takes a URL the same way.
//! `new URL`, `copy` and `status` are shared ladders' own.

use super::args::Command;
use super::common::plural;
use anyhow::{Result, bail};
use rungs_gate::shared::{Session, Synced};
use rungs_store::Store;
use rungs_store::shared::server::{NewAction, new_change_id};
use rungs_store::shared::{LadderUrl, is_url};
use std::path::{Path, PathBuf};

/// The ladder a command names, where it names one.
fn ladder_arg(command: &mut Command) -> Option<&mut PathBuf> {
    use Command as C;
    match command {
        C::New { file, .. }
        | C::AddPlayer { file, .. }
        | C::Rename { file, .. }
        | C::Retire { file, .. }
        | C::Unretire { file, .. }
        | C::Import { file, .. }
        | C::AddMatch { file, .. }
        | C::EditMatch { file, .. }
        | C::DeleteEvent { file, .. }
        | C::Undo { file }
        | C::Redo { file }
        | C::Events { file, .. }
        | C::Standings { file, .. }
        | C::Publish { file, .. }
        | C::History { file, .. }
        | C::Replay { file, .. }
        | C::Predict { file, .. }
        | C::Evaluate { file, .. }
        | C::Fit { file, .. }
        | C::Pair { file, .. }
        | C::Round { file, .. }
        | C::Result { file, .. }
        | C::Rules { file, .. }
        | C::SoftReset { file, .. }
        | C::HardReset { file, .. }
        | C::Migrate { file, .. }
        | C::Scenario { file, .. }
        | C::Scenarios { file, .. }
        | C::Seasons { file, .. }
        | C::Export { file, .. }
        | C::ImportLog { file, .. }
        | C::Check { file, .. }
        | C::Crosstable { file, .. }
        | C::Explain { file, .. }
        | C::Challenge { file, .. }
        | C::Challenges { file, .. }
        | C::ChallengeResult { file, .. }
        | C::ChallengePlace { file, .. }
        | C::Boxes { file, .. }
        | C::BoxResult { file, .. }
        | C::ClosePeriod { file, .. }
        | C::BoxWithdraw { file, .. }
        | C::BoxJoin { file, .. }
        | C::Tiers { file, .. }
        | C::Repair { file } => Some(file),
        C::ChallengeLadder(args) => Some(&mut args.file),
        C::StartBoxes(args) => Some(&mut args.file),
        C::Forbid(args) | C::Unforbid(args) | C::Avoid(args) | C::Unavoid(args) => {
            Some(&mut args.file)
        }
        C::Params { .. }
        | C::Simulate(_)
        | C::InstallDesktop { .. }
        | C::Completions { .. }
        | C::Man
        | C::Copy { .. }
        | C::Status { .. } => None,
    }
}

/// Whether a command only reads its ladder (a viewer's role may run it).
fn only_reads(command: &Command) -> bool {
    use Command as C;
    match command {
        C::Events { .. }
        | C::Standings { .. }
        | C::Publish { .. }
        | C::History { .. }
        | C::Replay { .. }
        | C::Predict { .. }
        | C::Evaluate { .. }
        | C::Round { .. }
        | C::Scenarios { .. }
        | C::Seasons { .. }
        | C::Export { .. }
        | C::Check { .. }
        | C::Crosstable { .. }
        | C::Explain { .. }
        | C::Challenges { .. }
        | C::Boxes { .. } => true,
        C::Fit { apply, .. } | C::Tiers { apply, .. } => !apply,
        C::ClosePeriod { preview, .. } => *preview,
        C::Pair { save, .. } => !save.save,
        C::SoftReset { preview, .. } | C::HardReset { preview, .. } => *preview,
        C::Migrate { preview, list, .. } => *preview && list.is_none(),
        _ => false,
    }
}

fn url_of(path: &Path) -> Option<String> {
    path.to_str().filter(|t| is_url(t)).map(str::to_string)
}

/// What a shared ladder's own commands do (`new URL`, `copy`, `status`), or `None` for a
/// command that is not one.
pub fn special(command: &Command) -> Option<Result<()>> {
    match command {
        Command::New { file, rules } => {
            let url = url_of(file)?;
            Some(new(&url, rules))
        }
        Command::Copy { from, to } => Some(copy(from, to)),
        Command::Status { url, json } => Some(status(url, *json)),
        Command::ImportLog { file, .. } if url_of(file).is_some() => Some(Err(anyhow::anyhow!(
            "import-log makes a ladder file; import it into a file, then `rungs copy FILE URL`"
        ))),
        _ => None,
    }
}

/// Opens the shared ladder a command names, brought up to the server, and points the command
/// at its replica; `None` for a command on a file.
pub fn open(command: &mut Command) -> Result<Option<Session>> {
    let reads = only_reads(command);
    let Some(arg) = ladder_arg(command) else {
        return Ok(None);
    };
    let Some(url) = url_of(arg) else {
        return Ok(None);
    };
    let mut session = super::shared_password::open_session(&url)?;
    if !reads {
        session.ensure_writer()?;
    }
    let synced = session.sync()?;
    refusals(&synced)?;
    *arg = session.path().to_path_buf();
    Ok(Some(session))
}

/// Sends what the command changed, and says what waits; a waiting change that another
/// organiser's made impossible is an error, in words.
pub fn finish(session: Option<Session>, done: Result<()>) -> Result<()> {
    let Some(mut session) = session else {
        return done;
    };
    let synced = session.sync();
    // A refusal names the ladder by its URL, not by the replica's file.
    let replica = session.path().display().to_string();
    done.map_err(|e| anyhow::anyhow!(format!("{e:#}").replace(&replica, &session.url.shown)))?;
    let synced = synced?;
    waiting(&session);
    refusals(&synced)
}

fn refusals(synced: &Synced) -> Result<()> {
    match synced.refused.as_slice() {
        [] => Ok(()),
        [one] => bail!("{one}"),
        more => bail!("{}", more.join("\n")),
    }
}

/// "3 changes waiting for the server", on standard error, when any wait.
fn waiting(session: &Session) {
    let n = session.waiting();
    if n > 0 {
        let why = session
            .offline
            .as_ref()
            .map(|e| format!(": {e}"))
            .unwrap_or_default();
        eprintln!("{} waiting for the server{why}", plural(n, "change"));
    }
}

fn new(url: &str, rules: &super::args::RulesArgs) -> Result<()> {
    let parsed = LadderUrl::parse(url)?;
    let at = rungs_gate::Place::file(parsed.shown.clone());
    let rules = super::common::rules_of(&at, rules, None)?;
    rules
        .check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", parsed.shown))?;
    let text = serde_json::to_string(&rules)?;
    super::shared_password::connect(&parsed)?.create(&text)?;
    let mut session = super::shared_password::open_session(url)?;
    session.sync()?;
    say!("created {} ({})", parsed.shown, rules.system());
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    match (url_of(from), url_of(to)) {
        (None, Some(url)) => {
            let url = LadderUrl::parse(&url)?;
            let store = Store::open(from)?;
            let log = store.export_log()?;
            let rules = serde_json::to_string(&log.rules)?;
            let mut actions = log.actions.into_iter();
            let mut fold = rungs_store::export::UndoFold::default();
            let mut next = || {
                Ok(actions.next().map(|a| {
                    let target = toggled(&mut fold, a.kind);
                    NewAction {
                        change_id: new_change_id(),
                        kind: a.kind,
                        target,
                        label: a.label,
                        rows: a.rows,
                    }
                }))
            };
            let n = super::shared_password::connect(&url)?.copy_in(&rules, &mut next)?;
            say!(
                "copied {} to {} ({})",
                from.display(),
                url.shown,
                plural(n as usize, "action")
            );
        }
        (Some(url), None) => {
            let url = LadderUrl::parse(&url)?;
            let (_, n) = super::shared_password::connect(&url)?.pull_whole(to)?;
            say!(
                "copied {} to {} ({})",
                url.shown,
                to.display(),
                plural(n as usize, "action")
            );
        }
        (Some(_), Some(_)) => {
            bail!("copy a shared ladder to a file, then the file to the other URL")
        }
        (None, None) => bail!("copy takes a ladder file and a postgres:// URL, either way round"),
    }
    Ok(())
}

/// The action an undo or a redo of `kind` toggles, folding the actions as they come; counts
/// from 1 as the store does.
fn toggled(
    fold: &mut rungs_store::export::UndoFold,
    kind: rungs_store::export::ActionKind,
) -> Option<i64> {
    let (done, undone) = fold.stacks();
    let target = match kind {
        rungs_store::export::ActionKind::Do => None,
        rungs_store::export::ActionKind::Undo => done.last().map(|&i| i as i64 + 1),
        rungs_store::export::ActionKind::Redo => undone.last().map(|&i| i as i64 + 1),
    };
    fold.push(kind);
    target
}

fn status(url: &str, json: bool) -> Result<()> {
    let mut session = super::shared_password::open_session(url)?;
    session.queue()?;
    let head = session.server_head()?;
    let shown = session.url.shown.clone();
    if json {
        say!(
            "{}",
            serde_json::json!({
                "ladder": shown,
                "server_head": head,
                "replica_base": session.base(),
                "waiting": session.waiting(),
                "replica": session.path().display().to_string(),
            })
        );
        return Ok(());
    }
    say!("{shown}");
    match head {
        Some(h) => say!("server: {}", plural(h as usize, "action")),
        None => say!(
            "server: cannot be reached ({})",
            session
                .offline
                .as_ref()
                .map(|e| e.to_string())
                .unwrap_or_default()
        ),
    }
    say!(
        "replica: {} ({} from the server)",
        session.path().display(),
        plural(session.base() as usize, "action")
    );
    say!(
        "{} waiting for the server",
        plural(session.waiting(), "change")
    );
    Ok(())
}
