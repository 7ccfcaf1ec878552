//! `rungs pair`: tonight's boards for the players present, from the ladder's own forecast
//! ([`crate::pairing`]); nothing is written (saving rounds in the log is to come).

use super::common::{context, open, shown};
use crate::action::{ActionError, Place, Roster};
use crate::ladder::event::PlayerId;
use crate::ladder::standings::standings;
use crate::pairing::balanced::{self, Night};
use crate::pairing::ladder::{History, present};
use crate::pairing::model::{Entrant, PairError, Pairs, Round, Weights};
use crate::pairing::{round_robin, swiss};
use anyhow::{Context as _, Result, anyhow, bail};
use serde_json::{Value, json};
use std::path::Path;

/// What `rungs pair` was asked.
pub struct PairArgs<'a> {
    pub present: Option<&'a str>,
    pub present_file: Option<&'a Path>,
    pub all_active: bool,
    pub format: Option<&'a str>,
    pub rounds: Option<&'a str>,
    pub forbid: &'a [String],
    pub date: Option<&'a str>,
    pub seed: Option<&'a str>,
    pub json: bool,
}

/// The most names a `--present-file` may list (a club night is a few dozen; an online pool
/// ten thousand): a file past it is no list of players.
const MAX_PRESENT: usize = 100_000;

/// The most bytes a `--present-file` may hold (100,000 names of 80 characters and then some);
/// `/dev/zero` is refused after this much, not read without end.
const MAX_PRESENT_BYTES: u64 = 32 << 20;

/// The players present, by id, each found where it was named (a line of the file, or the
/// option).
fn present_ids(file: &Path, roster: &Roster<'_>, args: &PairArgs<'_>) -> Result<Vec<PlayerId>> {
    let at = Place::file(shown(file));
    if let Some(text) = args.present {
        return Ok(roster.side(&at, "present", text)?);
    }
    if let Some(list) = args.present_file {
        let name = list.display().to_string();
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(
                std::fs::File::open(list).with_context(|| format!("{name}: cannot read"))?,
                MAX_PRESENT_BYTES + 1,
            ),
            &mut text,
        )
        .with_context(|| format!("{name}: cannot read (a list of names, one a line, as UTF-8)"))?;
        if text.len() as u64 > MAX_PRESENT_BYTES {
            bail!(
                "{name}: larger than {} MiB; a list of the players present is one name a line",
                MAX_PRESENT_BYTES >> 20
            );
        }
        let mut ids = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if ids.len() == MAX_PRESENT {
                bail!("{name}: more than {MAX_PRESENT} players listed");
            }
            ids.push(roster.player(&Place::line(&name, i as u64 + 1), "player", line)?);
        }
        return Ok(ids);
    }
    if args.all_active {
        return Ok(standings(roster.ladder())
            .iter()
            .filter(|s| s.listed())
            .map(|s| s.id)
            .collect());
    }
    Err(ActionError::refused(
        &at,
        "name the players present: --present \"Ann,Bo,Cy\", --present-file FILE (one name a \
         line), or --all-active (everyone on the leaderboard)",
    )
    .into())
}

fn number<T: std::str::FromStr>(at: &Place, field: &str, text: &str, what: &str) -> Result<T> {
    text.trim()
        .parse()
        .map_err(|_| ActionError::invalid(at, field, text, format!("give {what}")).into())
}

/// `rungs pair FILE`.
pub fn pair(file: &Path, args: &PairArgs<'_>) -> Result<()> {
    let (store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let at = Place::file(shown(file));
    let date = ctx.date("date", args.date)?;
    let roster = Roster::new(&ladder);
    let ids = present_ids(file, &roster, args)?;
    let mut history = History::default();
    store
        .for_each_event(|day, _, event| {
            history.read(day, event);
            Ok::<(), ()>(())
        })?
        .ok();
    let (entrants, forecast) =
        present(&ladder, &ids, date, &history).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let mut constraints = history.constraints(&entrants, date);
    constraints.forbidden = forbidden(&at, &roster, &entrants, args.forbid)?;
    let seed = match args.seed {
        Some(s) => number(&at, "seed", s, "a whole number, 0 or more")?,
        None => 0,
    };
    let format = args.format.unwrap_or("balanced");
    let rounds: Vec<Round> = match format {
        "balanced" => vec![
            balanced::pair(&Night {
                entrants: &entrants,
                forecast: &forecast,
                constraints: &constraints,
                weights: &Weights::default(),
                seed,
            })
            .map_err(|e| pair_error(file, e))?,
        ],
        "round-robin" => {
            let n = match args.rounds {
                Some(r) => number(&at, "rounds", r, "a whole number of rounds, 1 or more")?,
                None => entrants.len().max(2) - 1 + entrants.len() % 2,
            };
            if n == 0 {
                bail!(ActionError::invalid(&at, "rounds", "0", "give 1 or more"));
            }
            round_robin::pair(&entrants, &forecast, n).map_err(|e| pair_error(file, e))?
        }
        "swiss" => {
            // Without rounds saved in the log, an event begins here: round 1, by standings.
            let event = swiss::Event {
                scores: vec![0.0; entrants.len()],
                met: Pairs::new(),
            };
            vec![
                swiss::pair(&entrants, &forecast, &event, &constraints, seed)
                    .map_err(|e| pair_error(file, e))?,
            ]
        }
        other => {
            return Err(ActionError::invalid(
                &at,
                "format",
                other,
                "is not a format; choose balanced, swiss or round-robin",
            )
            .into());
        }
    };
    if args.json {
        let all: Vec<Value> = rounds
            .iter()
            .enumerate()
            .map(|(i, r)| round_json(i + 1, date, format, r, &entrants))
            .collect();
        match &all[..] {
            [one] => say!("{one}"),
            _ => say!("{}", Value::Array(all)),
        }
        return Ok(());
    }
    for (i, r) in rounds.iter().enumerate() {
        say!("Round {} — {date} ({format})", i + 1);
        for (k, b) in r.boards.iter().enumerate() {
            let p = b.prediction;
            let draw = if p.draw > 0.0 {
                format!(", draw {:.0} %", 100.0 * p.draw)
            } else {
                String::new()
            };
            say!(
                "  board {:>2}  {} – {}   {} {:.0} %{draw}, {} {:.0} %",
                k + 1,
                entrants[b.a].name,
                entrants[b.b].name,
                entrants[b.a].name,
                100.0 * p.win_a,
                entrants[b.b].name,
                100.0 * p.win_b
            );
        }
        if let Some(bye) = r.bye {
            say!("  bye        {}", entrants[bye].name);
        }
    }
    say!("(side A, named first, is at home or moves first; nothing is saved)");
    Ok(())
}

/// The forbidden pairs named `A,B`, as entrant indices; each must be present.
fn forbidden(
    at: &Place,
    roster: &Roster<'_>,
    entrants: &[Entrant],
    pairs: &[String],
) -> Result<Pairs> {
    let mut out = Pairs::new();
    for text in pairs {
        let ids = roster.side(at, "forbid", text)?;
        let [a, b] = ids[..] else {
            bail!(ActionError::invalid(
                at,
                "forbid",
                text,
                "names a pair: two players, `Ann,Bo`"
            ));
        };
        let index = |id: PlayerId| entrants.iter().position(|e| e.id == id);
        match (index(a), index(b)) {
            (Some(i), Some(j)) if i != j => out.insert(i, j),
            (Some(_), Some(_)) => bail!(ActionError::invalid(
                at,
                "forbid",
                text,
                "names one player twice"
            )),
            _ => bail!(ActionError::invalid(
                at,
                "forbid",
                text,
                "names a player who is not present tonight"
            )),
        }
    }
    Ok(out)
}

fn pair_error(file: &Path, e: PairError) -> anyhow::Error {
    anyhow!("{}: {e}", file.display())
}

/// A round as the JSON: `{round, date, format, boards: [{board, a, b, p_a, p_draw,
/// p_b}], bye}`.
fn round_json(
    n: usize,
    date: chrono::NaiveDate,
    format: &str,
    r: &Round,
    entrants: &[Entrant],
) -> Value {
    json!({
        "round": n,
        "date": date.to_string(),
        "format": format,
        "boards": r.boards.iter().enumerate().map(|(k, b)| json!({
            "board": k + 1,
            "a": entrants[b.a].name,
            "b": entrants[b.b].name,
            "p_a": b.prediction.win_a,
            "p_draw": b.prediction.draw,
            "p_b": b.prediction.win_b,
        })).collect::<Vec<_>>(),
        "bye": r.bye.map(|i| entrants[i].name.clone()),
    })
}
