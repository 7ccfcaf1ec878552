//! Whole files: a new ladder, a system's parameters, a match CSV in, the log or the matches
//! out, a JSON Lines log into a new ladder.

use super::args::{MappingArgs, RulesArgs};
use super::common::{open, plural, shown, spinner};
use super::output;
use anyhow::{Context as _, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rungs_gate::{self as action, ActionError, Place};
use rungs_interchange::csv_matches::{self, HomeColumn, Mapping, ResultColumns};
use rungs_interchange::jsonl;
use rungs_interchange::out_file::OutFile;
use std::io::IsTerminal;
use std::path::Path;

pub fn new(file: &Path, args: &RulesArgs) -> Result<()> {
    let at = Place::file(shown(file));
    let rules = super::common::rules_of(&at, args, None)?;
    action::files::create(file, &rules)?;
    match rules.calendar.schedule() {
        None => say!("created {} ({})", file.display(), rules.system()),
        Some(_) => say!(
            "created {} ({}; calendar: {})",
            file.display(),
            rules.system(),
            rules.calendar.describe()
        ),
    }
    Ok(())
}

pub fn params(system: &str) -> Result<()> {
    let system = action::seasons::parse_system(&Place::default(), system)?;
    output::params(system);
    Ok(())
}

fn mapping_from(args: &MappingArgs) -> Result<Mapping> {
    let mut m = match args.preset.as_deref() {
        None | Some("standard") => Mapping::standard(),
        Some("international") => Mapping::international(),
        Some(other) => bail!("unknown preset `{other}`; choose standard or international"),
    };
    if let Some(c) = &args.date_col {
        m.date = c.clone();
    }
    if let Some(c) = &args.a_col {
        m.player_a = c.clone();
    }
    if let Some(c) = &args.b_col {
        m.player_b = c.clone();
    }
    if let Some(c) = &args.score_col {
        m.result = ResultColumns::Score(c.clone());
    }
    if let (Some(a), Some(b)) = (&args.goals_a_col, &args.goals_b_col) {
        m.result = ResultColumns::Goals {
            a: a.clone(),
            b: b.clone(),
        };
    }
    if let Some(f) = &args.date_format {
        m.date_format = f.clone();
    }
    if let Some(c) = &args.home_col {
        m.home = Some(HomeColumn::Side(c.clone()));
    }
    if let Some(c) = &args.neutral_col {
        m.home = Some(HomeColumn::Neutral(c.clone()));
    }
    if let Some(c) = &args.class_col {
        m.class = Some(c.clone());
    }
    // Every column named here must be in the file, read as one thing.
    m.named = [
        &args.date_col,
        &args.a_col,
        &args.b_col,
        &args.score_col,
        &args.goals_a_col,
        &args.goals_b_col,
        &args.home_col,
        &args.neutral_col,
        &args.class_col,
    ]
    .into_iter()
    .flatten()
    .cloned()
    .collect();
    Ok(m)
}

pub fn import_csv(
    file: &Path,
    csv: &Path,
    args: &MappingArgs,
    no_new_players: bool,
    again: bool,
    json: bool,
) -> Result<()> {
    let mapping = mapping_from(args)?;
    let mut store = rungs_store::Store::open(file)?;
    let gzipped = csv
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let size = std::fs::metadata(csv).map(|m| m.len()).unwrap_or(0);
    let bar = if json || !std::io::stdout().is_terminal() {
        ProgressBar::hidden()
    } else if gzipped {
        // The size on disk says nothing of the unpacked size: count bytes instead.
        ProgressBar::new_spinner()
    } else {
        ProgressBar::new(size)
    };
    let template = if gzipped {
        "{spinner} reading {bytes}"
    } else {
        "reading {bar:40} {bytes}/{total_bytes}"
    };
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let reader = csv_matches::open(csv, &mapping).map_err(ActionError::from)?;
    let summary = action::imports::import_csv(
        &mut store,
        reader,
        &shown(csv),
        !no_new_players,
        again,
        &mut |n| {
            bar.set_position(n);
            true
        },
    );
    bar.finish_and_clear();
    let summary = summary.map_err(|e| match e {
        ActionError::AlreadyImported { .. } => {
            anyhow::anyhow!("{e} (`rungs import --again` imports them a second time)")
        }
        e => e.into(),
    })?;
    if json {
        say!(
            "{}",
            serde_json::json!({
                "matches": summary.matches,
                "new_players": summary.new_players,
                "already_in_the_ladder": summary.already
            })
        );
    } else {
        say!(
            "imported {} and {}{}",
            plural(summary.matches, "match"),
            plural(summary.new_players, "new player"),
            summary.already_note()
        );
    }
    Ok(())
}

/// Writes the log as JSON Lines, or the matches as CSV, one row at a time: a log of any
/// size streams through in constant memory.
pub fn export(file: &Path, out: &Path) -> Result<()> {
    let (store, ladder) = open(file)?;
    if out.as_os_str() == "-" {
        // Standard output, as a stream: no temporary file, no rename, no "wrote" line. Never
        // into the ladder itself (`>> club.rungs` would append a log to the database).
        if stdout_is(file) {
            anyhow::bail!(
                "{}: standard output is this ladder's own file (or one SQLite keeps beside it); \
                 writing the log there would damage it — send it to another file",
                file.display()
            );
        }
        let mut jsonl = jsonl::Writer::new(std::io::BufWriter::new(std::io::stdout().lock()));
        match store.stream_log(&mut |item| jsonl.item(item))? {
            Ok(()) => super::stdout::check(std::io::Write::flush(&mut jsonl.into_inner())),
            Err(e) => super::stdout::keep(e),
        }
        return Ok(());
    }
    let name = out.display().to_string();
    let w = OutFile::create(out, file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let is_csv = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    let cannot_write = |e: &dyn std::fmt::Display| anyhow::anyhow!("{name}: cannot write: {e}");
    let w = if is_csv {
        // A first pass finds whether any match has a score or class (the header says so).
        let mut scores = false;
        store
            .for_each_event(|_, _, event| {
                scores |= rungs_interchange::csv_export::has_scores([event]);
                Ok::<(), std::convert::Infallible>(())
            })?
            .ok();
        let mut csv = rungs_interchange::csv_export::MatchWriter::with_scores(w, scores)
            .map_err(|e| cannot_write(&e))?;
        store
            .for_each_event(|date, _, event| csv.event(&ladder, date, event))?
            .map_err(|e| cannot_write(&e))?;
        csv.finish().map_err(|e| cannot_write(&e))?
    } else {
        let mut jsonl = jsonl::Writer::new(w);
        store
            .stream_log(&mut |item| jsonl.item(item))?
            .map_err(|e| cannot_write(&e))?;
        jsonl.into_inner()
    };
    w.commit().map_err(|e| cannot_write(&e))?;
    say!("wrote {name}");
    Ok(())
}

/// Whether standard output is the file at `ladder`, or one of the files SQLite keeps beside it.
fn stdout_is(ladder: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(out) = std::fs::metadata("/dev/stdout") else {
        return false;
    };
    rungs_store::newfile::SIDECARS
        .iter()
        .map(|s| {
            let mut p = ladder.as_os_str().to_owned();
            p.push(s);
            std::path::PathBuf::from(p)
        })
        .chain([ladder.to_path_buf()])
        .filter_map(|p| std::fs::metadata(p).ok())
        .any(|m| m.dev() == out.dev() && m.ino() == out.ino())
}

pub fn import_log(file: &Path, input: &Path) -> Result<()> {
    let name = input.display().to_string();
    let reader = std::fs::File::open(input).with_context(|| format!("{name}: cannot open"))?;
    let mut log = jsonl::LogReader::open(std::io::BufReader::new(reader), &name)?;
    let bar = spinner(true, "importing");
    let made = action::files::import_log_reader(file, &mut log);
    bar.finish_and_clear();
    let (_, actions) = made?;
    say!(
        "imported {} into {}",
        plural(actions as usize, "action"),
        file.display()
    );
    Ok(())
}
