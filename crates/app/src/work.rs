//! What the app's jobs do, each a function of the ladder file (and what it was given) that
//! returns what landed ([`Done`]): copies and exports, imports, the demo, previews, the
//! timeline, the log for the plots, what-if, scoring and simulation. The app state decides
//! where each runs (here and now, or on a job thread with progress and Cancel) and lands the
//! result; nothing here reads or changes the app's state.

use super::error::{AppError, AppResult};
use super::jobs::{Done, Pending, Reporter};
use super::messages::Offer;
use super::tools::{Comparison, LogView, Simulated};
use rungs_analysis::compare;
use rungs_analysis::evaluate;
use rungs_analysis::simulate::SimConfig;
use rungs_gate::{self as action, Action, Context};
use rungs_interchange::csv_matches::{Mapping, MatchReader};
use rungs_interchange::out_file::OutFile;
use rungs_interchange::{csv_export, elo_list, jsonl};
use rungs_ladder::preview;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::state::HistoryRow;
use rungs_ladder::timeline::Timeline;
use rungs_store::Store;
use std::path::{Path, PathBuf};

/// The export `to` of the ladder at `ladder`, written under a temporary name until complete.
fn create(to: &Path, ladder: &Path) -> AppResult<OutFile> {
    OutFile::create(to, ladder).map_err(|e| AppError::file(to, e))
}

/// A copy of the ladder as a new file (its log, replayed there).
pub fn save_copy(store: &mut Store, to: &Path) -> AppResult<Done> {
    let log = store.export_log()?;
    action::files::import_log(to, &log)?;
    Ok(Done::Said(format!("saved a copy as {}", to.display())))
}

pub fn export_jsonl(store: &mut Store, to: &Path) -> AppResult<Done> {
    let log = store.export_log()?;
    let mut out = create(to, store.path())?;
    jsonl::write(&log, &mut out).map_err(|e| AppError::file(to, e))?;
    out.commit().map_err(|e| AppError::file(to, e))?;
    Ok(Done::Said(format!("wrote {}", to.display())))
}

pub fn export_csv(store: &mut Store, to: &Path) -> AppResult<Done> {
    let events = store.effective()?;
    let ladder = store.ladder()?;
    let out = create(to, store.path())?;
    csv_export::write_matches(&ladder, &events, out)
        .map_err(|e| AppError::file(to, e))?
        .commit()
        .map_err(|e| AppError::file(to, e))?;
    Ok(Done::Said(format!("wrote {}", to.display())))
}

/// Writes `bytes` to `to` whole, as an export does (never over a ladder).
pub fn write_bytes(to: &Path, ladder: &Path, bytes: &[u8]) -> AppResult<()> {
    use std::io::Write;
    let mut out = create(to, ladder)?;
    out.write_all(bytes).map_err(|e| AppError::file(to, e))?;
    out.commit().map_err(|e| AppError::file(to, e))
}

/// The title File → Publish… offers: "NAME standings", NAME the ladder file's name.
pub fn publish_title(store: &Store) -> String {
    format!("{} standings", ladder_stem(store))
}

fn ladder_stem(store: &Store) -> String {
    store
        .path()
        .file_stem()
        .map_or("ladder".into(), |s| s.to_string_lossy().into_owned())
}

/// Publishes the ladder as it is now into `dir` with the organiser's `options` (those of
/// `rungs publish --title --hide-retired --initials`), and says where the site is.
/// A folder chosen that holds other files gets the site in a new folder inside it.
pub fn publish(store: &mut Store, dir: &Path, options: &rungs_publish::Options) -> AppResult<Done> {
    let events = store.effective()?;
    let stem = ladder_stem(store);
    let taken = std::fs::read_dir(dir).is_ok_and(|mut e| e.next().is_some())
        && !dir.join(rungs_publish::folder::MARK).is_file();
    let dir = if taken {
        dir.join(format!("{stem}-standings"))
    } else {
        dir.to_path_buf()
    };
    let request = rungs_publish::Request {
        initial: &store.initial_rules()?,
        events: &events,
        cut: events.len(),
        day: action::today(),
        ladder: store.path(),
        since: None,
    };
    let (target, pages) =
        rungs_publish::publish_site(&request, options, &dir).map_err(|e| match e {
            rungs_publish::PublishError::Folder(f) => AppError::File {
                path: f.dir,
                message: f.why,
            },
            other => AppError::file(&dir, other),
        })?;
    let index = target.join("index.html");
    Ok(Done::SaidOffering(
        format!("published {} ({pages} player pages)", index.display()),
        Offer::OpenFolder(target),
    ))
}

/// Imports the match CSV at `path` through the gate (new players allowed). A file whose
/// every match the ladder holds already is refused unless `again`; the refusal offers it.
pub fn import_csv(
    store: &mut Store,
    path: &Path,
    mapping: &Mapping,
    again: bool,
    reporter: &Reporter,
) -> AppResult<Done> {
    let reader =
        rungs_interchange::csv_matches::open(path, mapping).map_err(action::ActionError::from)?;
    let s =
        import_into(store, reader, &path.display().to_string(), again, reporter).map_err(|e| {
            match e {
                action::ActionError::AlreadyImported { .. } => AppError::AlreadyImported {
                    error: Box::new(e),
                    path: path.to_path_buf(),
                    mapping: Box::new(mapping.clone()),
                },
                e => e.into(),
            }
        })?;
    Ok(Done::Changed {
        said: Some((
            format!(
                "imported {} matches and {} new players{}",
                s.matches,
                s.new_players,
                s.already_note()
            ),
            Offer::Undo,
        )),
        then: None,
    })
}

/// Imports a match CSV into `store` through the gate (new players allowed), hearing
/// `reporter`'s Cancel.
fn import_into<R: std::io::Read>(
    store: &mut Store,
    reader: MatchReader<R>,
    name: &str,
    again: bool,
    reporter: &Reporter,
) -> Result<action::imports::Summary, action::ActionError> {
    action::imports::import_csv(store, reader, name, true, again, &mut |n| {
        reporter.keep_going(n)
    })
}

/// The demo ladder's matches, bundled so a fresh install needs nothing else.
pub const DEMO_CSV_GZ: &[u8] = include_bytes!("../../../assets/international_results.csv.gz");

/// The demo CSV's size once unpacked: gzip ends with it (modulo 2³², ample here).
pub fn demo_csv_len() -> u64 {
    let n = DEMO_CSV_GZ.len();
    DEMO_CSV_GZ
        .get(n.saturating_sub(4)..)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map_or(0, |b| u32::from_le_bytes(b) as u64)
}

/// What lies where the demo is kept.
#[derive(Debug, PartialEq, Eq)]
pub enum DemoFile {
    /// Nothing yet: build it.
    Missing,
    /// A demo an older rungs built under older rules, never changed since: built again.
    Untouched,
    /// A demo to open as it is: this version's, or an older one holding the user's changes
    /// (`older`), which a rebuild would throw away.
    Keep { older: bool },
}

/// What the file at `path` is as a demo. One that does not open is never rebuilt over: the
/// error says why (changed by another program, locked, damaged) and the file stays.
pub fn demo_file(path: &Path) -> AppResult<DemoFile> {
    if !path.exists() {
        return Ok(DemoFile::Missing);
    }
    let store = Store::open(path)?;
    // The demo's whole log is its one import of the bundled results.
    let untouched = matches!(
        store.actions()?.as_slice(),
        [(1, kind, label)] if kind == "do"
            && label.starts_with("imported international_results.csv (")
    );
    if store.initial_rules()? == action::imports::demo_rules() {
        // A demo built before matches kept their score is built again with them.
        let scoreless = untouched
            && store.effective()?.iter().find_map(|e| match &e.event {
                rungs_ladder::event::Event::Match(m) => Some(m.goals.is_none()),
                _ => None,
            }) == Some(true);
        return Ok(if scoreless {
            DemoFile::Untouched
        } else {
            DemoFile::Keep { older: false }
        });
    }
    Ok(if untouched {
        DemoFile::Untouched
    } else {
        DemoFile::Keep { older: true }
    })
}

/// The file the demo is built in before it takes the demo's place.
fn demo_partial(path: &Path) -> PathBuf {
    path.with_extension("partial")
}

/// SQLite's files beside a database: its write-ahead log and shared-memory index.
fn sidecars(path: &Path) -> [PathBuf; 2] {
    ["-wal", "-shm"].map(|s| PathBuf::from(format!("{}{s}", path.display())))
}

/// Builds the demo (international football 1872–2026) beside `path`, under another name,
/// so a cancelled or failed build never leaves half a demo and an older demo stays usable
/// until the new one is complete. [`replace_with_built`] then puts it in place.
pub fn build_demo(path: PathBuf, reporter: &Reporter) -> AppResult<Done> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| AppError::file(dir, e))?;
    }
    let partial = demo_partial(&path);
    let remove_partial = || {
        let _ = std::fs::remove_file(&partial);
        for f in sidecars(&partial) {
            let _ = std::fs::remove_file(f);
        }
    };
    remove_partial();
    let result = (|| {
        let mut store = action::files::create(&partial, &action::imports::demo_rules())?;
        let reader = MatchReader::new(
            flate2::read::MultiGzDecoder::new(DEMO_CSV_GZ),
            "international_results.csv",
            &Mapping::international(),
        )
        .map_err(action::ActionError::from)?;
        import_into(
            &mut store,
            reader,
            "international_results.csv",
            false,
            reporter,
        )?;
        AppResult::Ok(())
    })();
    if let Err(e) = result {
        remove_partial();
        return Err(e);
    }
    Ok(Done::Made {
        built: partial,
        path,
        said: "opened the demo: international football 1872–2026".into(),
    })
}

/// Puts the file built at `built` (closed) in the place of `path`, whose own connections
/// must be closed too: the old file's write-ahead log goes with it, the new one's comes
/// along.
pub fn replace_with_built(built: &Path, path: &Path) -> AppResult<()> {
    let [wal, shm] = sidecars(path);
    for f in [&wal, &shm] {
        match std::fs::remove_file(f) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(AppError::file(f, e));
            }
            _ => {}
        }
    }
    let [built_wal, built_shm] = sidecars(built);
    if built_wal.exists() {
        std::fs::rename(&built_wal, &wal).map_err(|e| AppError::file(&wal, e))?;
    }
    let _ = std::fs::remove_file(built_shm);
    std::fs::rename(built, path).map_err(|e| AppError::file(path, e))
}

/// The checked action previewed: every player's standing before → after, from the rows
/// `apply` would write.
pub fn preview(store: &mut Store, act: Action, id: u64) -> AppResult<Done> {
    let (before, after) = action::preview(store, &act)?;
    Ok(Done::Preview(Box::new(Pending {
        changes: preview::changes(&before, &after),
        note: match (due_note(&act, &before), action::preview_note(&act, &before)) {
            (Some(due), Some(note)) => Some(format!("{due} {note}")),
            (due, note) => due.or(note),
        },
        action: act,
        after,
        id,
    })))
}

/// A change appended after resets of the season calendar fell due brings them with it: the
/// preview says so, or a rules change seems to reset every RP ("Spain 1394 → 1000") for no
/// reason. Not said of the action that applies those resets, which is all they are.
fn due_note(act: &Action, before: &Ladder) -> Option<String> {
    use rungs_ladder::event::{Entry, Event};
    let (date, entry) = act.rows().first()?;
    if let Entry::Add {
        event: Event::Rules { rules },
    } = entry
        && **rules == before.rules
    {
        return None;
    }
    let due = rungs_ladder::seasons::due_first(before, *date, &[])?;
    let what = match (due.soft, due.hard) {
        (1, 0) => "A soft reset of the season calendar (the week ends) is due".to_string(),
        (1, _) => "A hard reset of the season calendar (the season ends) is due".to_string(),
        (n, 0) => format!("{n} soft resets of the season calendar are due"),
        (n, 1) => format!("{n} resets of the season calendar are due (one ends the season)"),
        (n, h) => format!("{n} resets of the season calendar are due ({h} of them end seasons)"),
    };
    let comes = if due.soft == 1 {
        "it comes"
    } else {
        "they come"
    };
    Some(format!(
        "{what}: {comes} first, with this change, and the figures below include {}.",
        if due.soft == 1 { "it" } else { "them" }
    ))
}

/// The migration from the Elo list at `path` with these rank cut-offs, checked.
pub fn migration(ctx: &mut Context, path: &str, cutoffs: &str, date: &str) -> AppResult<Action> {
    let path = PathBuf::from(path.trim());
    if path.as_os_str().is_empty() {
        return Err(AppError::field(
            "Elo list",
            "choose the file first (step 1)",
        ));
    }
    let name = path.display().to_string();
    let file = std::fs::File::open(&path).map_err(|e| AppError::file(&path, e))?;
    let lines =
        elo_list::read(std::io::BufReader::new(file), &name).map_err(action::ActionError::from)?;
    let cutoffs = action::seasons::parse_cutoffs(&ctx.at, cutoffs)?;
    Ok(Action::migrate_list(
        ctx,
        &name,
        &lines,
        &cutoffs,
        Some(date),
    )?)
}

/// The replay timeline: the log replayed once, with checkpoints.
pub fn timeline(store: &mut Store, r: &Reporter) -> AppResult<Done> {
    let events = store.effective()?;
    let rules = store.initial_rules()?;
    let timeline = Timeline::build(&rules, events, &mut |n| r.keep_going(n))
        .map_err(|e| AppError::task("the timeline", e))?;
    Ok(Done::Timeline(Box::new(timeline)))
}

/// The log as the plots read it (markers, hover read-outs).
pub fn read_log(store: &mut Store) -> AppResult<Done> {
    let events = store.effective()?;
    let rules = store.initial_rules()?;
    let index = rungs_chart::LogIndex::new(&rules, &events);
    Ok(Done::LogView(Box::new(LogView::new(events, index))))
}

/// The log replayed under `rules`, beside `own` (the file's own replay).
pub fn compare(store: &mut Store, own: &Ladder, rules: Rules) -> AppResult<Done> {
    let events = store.effective()?;
    let (other, rows) =
        rungs_ladder::replay::replay(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
            .map_err(|e| AppError::file(store.path(), e))?;
    let index = rungs_chart::LogIndex::new(&rules, &events);
    let mut history: Vec<Vec<HistoryRow>> = vec![Vec::new(); other.players.len()];
    for row in rows {
        if let Some(h) = history.get_mut(row.player as usize) {
            h.push(row);
        }
    }
    Ok(Done::Compared(Box::new(Comparison {
        rows: compare::compare(own, &other),
        rules,
        history,
        index,
    })))
}

/// How many events scoring replays: each system at its defaults and the ladder's own rules.
pub fn evaluate_total(events: u64) -> u64 {
    events * (System::ALL.len() as u64 + 1)
}

/// Prediction quality of each system at its defaults and of the ladder's own rules.
pub fn evaluate(store: &mut Store, r: &Reporter) -> AppResult<Done> {
    let events = store.effective()?;
    let own = store.initial_rules()?;
    let runs = evaluate::default_runs(&own, &events);
    let scores = evaluate::evaluate_runs(&runs, &events, &mut |n| r.keep_going(n))
        .map_err(|e| AppError::task("scoring", e))?;
    Ok(Done::Scored(scores))
}

/// Tier minimums for `targets`, the log replayed under each proposal (the progress counts
/// the replays against the most the search makes).
pub fn propose_tiers(
    store: &mut Store,
    targets: &rungs_analysis::tiers::Targets,
    r: &Reporter,
) -> AppResult<Done> {
    let events = store.effective()?;
    let rules = store.initial_rules()?;
    let proposal = rungs_analysis::tiers::propose(&rules, &events, targets, &mut |n| {
        r.keep_going((n * 1000 / rungs_analysis::tiers::MAX_ROUNDS) as u64)
    })
    .map_err(|e| AppError::task("cutting the tiers", e))?;
    Ok(Done::TiersProposed(Box::new(proposal)))
}

/// A simulation written to a new ladder file at `path`.
pub fn simulate(cfg: &SimConfig, path: PathBuf, r: &Reporter) -> AppResult<Done> {
    let report = action::files::simulate_into(&path, cfg, &mut |n| r.keep_going(n))?;
    Ok(Done::Simulated(Box::new(Simulated { report, path })))
}
