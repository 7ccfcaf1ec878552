//! `rungs pair`: tonight's boards for the players present, from the ladder's own forecast
//! ([`rungs_pairing`]), with the ladder's forbidden and avoided pairs, its byes and its
//! Swiss events; `--save` records the round through the gate.

use super::common::{context, open, shown};
use anyhow::{Context as _, Result, anyhow, bail};
use rungs_gate::rounds::RoundInput;
use rungs_gate::{self as action, Action, ActionError, Place, Roster};
use rungs_ladder::event::{ByeScore, Format, PlayerId, RequestedBye, SwissRecord};
use rungs_ladder::rounds::Book;
use rungs_ladder::standings::standings;
use rungs_pairing::balanced::{self, Night};
use rungs_pairing::ladder::{History, present};
use rungs_pairing::model::{Board, Entrant, Forecast, PairError, Pairs, Round, Weights};
use rungs_pairing::swiss_event::{self, Next};
use rungs_pairing::{night, round_robin};
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
    pub save: &'a super::args::PairSaveArgs,
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
    let (mut store, ladder) = open(file)?;
    let ctx = context(file, &ladder);
    let at = Place::file(shown(file));
    let date = ctx.date("date", args.date)?;
    let roster = Roster::new(&ladder);
    let ids = present_ids(file, &roster, args)?;
    let mut history = History::default();
    let mut book = Book::default();
    store
        .for_each_event(|day, seq, event| {
            history.read(day, event);
            book.read(day, seq, event);
            Ok::<(), ()>(())
        })?
        .ok();
    let (entrants, forecast) =
        present(&ladder, &ids, date, &history).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let mut constraints = history.constraints(&entrants, date);
    constraints.forbidden = forbidden(&at, &roster, &entrants, args.forbid)?;
    night::add_rules(&book, &entrants, &mut constraints);
    let seed = match args.seed {
        Some(s) => number(&at, "seed", s, "a whole number, 0 or more")?,
        None => 0,
    };
    let format_text = args.format.unwrap_or("balanced");
    let Some(format) = Format::parse(format_text) else {
        return Err(ActionError::invalid(
            &at,
            "format",
            format_text,
            "is not a format; choose balanced, swiss or round-robin",
        )
        .into());
    };
    let bye_scores = match args.save.bye.as_deref() {
        None => rungs_pairing::night::default_bye(format),
        Some(t) => ByeScore::parse(t).ok_or_else(|| {
            ActionError::invalid(
                &at,
                "bye",
                t,
                "is not what a bye scores; use win or nothing",
            )
        })?,
    };
    let mut event = None;
    let mut swiss = SwissRecord::default();
    let rounds: Vec<Round> = match format {
        Format::Balanced => vec![
            balanced::pair(&Night {
                entrants: &entrants,
                forecast: &forecast,
                constraints: &constraints,
                weights: &Weights::default(),
                seed,
            })
            .map_err(|e| pair_error(file, e))?,
        ],
        Format::RoundRobin => {
            let n = match args.rounds {
                Some(r) => number(&at, "rounds", r, "a whole number of rounds, 1 or more")?,
                None => entrants.len().max(2) - 1 + entrants.len() % 2,
            };
            if n == 0 {
                bail!(ActionError::invalid(&at, "rounds", "0", "give 1 or more"));
            }
            round_robin::pair(&entrants, &forecast, n).map_err(|e| pair_error(file, e))?
        }
        Format::Swiss => {
            event = swiss_event(&at, &book, date, args.save.event.as_deref())?;
            let declared = match (event, args.rounds) {
                (_, None) => None,
                (None, Some(r)) => Some(number::<u32>(
                    &at,
                    "rounds",
                    r,
                    "the rounds the event will have, a whole number",
                )?),
                (Some(e), Some(_)) => bail!(ActionError::invalid(
                    &at,
                    "rounds",
                    args.rounds.unwrap_or_default(),
                    format!("is said when an event begins; round {e}'s event has its own"),
                )),
            };
            let names = |field: &str, text: Option<&str>| -> Result<Vec<PlayerId>> {
                Ok(match text {
                    Some(t) => roster.side(&at, field, t)?,
                    None => Vec::new(),
                })
            };
            let mut requested: Vec<RequestedBye> = Vec::new();
            for (field, halves) in [("half_bye", 1), ("zero_bye", 0)] {
                let text = match halves {
                    1 => args.save.half_bye.as_deref(),
                    _ => args.save.zero_bye.as_deref(),
                };
                for player in names(field, text)? {
                    requested.push(RequestedBye { player, halves });
                }
            }
            let withdrawn = names("withdraw", args.save.withdraw.as_deref())?;
            // The pairs named by --forbid and the ladder's own forbidden pairs.
            let forbidden: Vec<(PlayerId, PlayerId)> = constraints
                .forbidden
                .iter()
                .map(|(i, j)| (entrants[i].id, entrants[j].id))
                .collect();
            let who = night::swiss_who(&ladder, date);
            let so_far = event.map(|e| swiss_event::read(&book, e, &who));
            let next = swiss_event::pair_next(
                so_far.as_ref(),
                &Next {
                    present: &ids,
                    requested: &requested,
                    withdrawn: &withdrawn,
                    forbidden: &forbidden,
                    rounds: declared,
                    first_black: false,
                    bye_scores,
                },
                &who,
            )
            .map_err(|e| pair_error(file, e))?;
            swiss = next.record;
            let index = |id: PlayerId| entrants.iter().position(|e| e.id == id).unwrap_or(0);
            vec![Round {
                boards: next
                    .boards
                    .iter()
                    .map(|&[a, b]| {
                        let (a, b) = (index(a), index(b));
                        Board {
                            a,
                            b,
                            prediction: forecast.predict(a, b),
                            cost: 0.0,
                        }
                    })
                    .collect(),
                bye: next.bye.map(index),
            }]
        }
    };
    let format = format.as_text();
    let mut numbers: Vec<u32> = Vec::new();
    if args.save.save {
        let inputs: Vec<RoundInput> = rounds
            .iter()
            .map(|r| RoundInput {
                date,
                format: Format::parse(format).unwrap_or(Format::Balanced),
                boards: r
                    .boards
                    .iter()
                    .map(|b| [entrants[b.a].id, entrants[b.b].id])
                    .collect(),
                bye: r.bye.map(|i| entrants[i].id),
                bye_scores,
                event,
                swiss: swiss.clone(),
            })
            .collect();
        let act = Action::save_rounds(&ctx, &book, &inputs)?;
        let next = book.next_number().unwrap_or(1);
        action::apply(&mut store, &act)?;
        numbers = (0..inputs.len() as u32).map(|k| next + k).collect();
    }
    // A round not saved is shown under the number saving would give it (the ladder's next),
    // so a Swiss event's fourth round reads "Round 4" before it is saved as after.
    let next = book.next_number().unwrap_or(1) as usize;
    let shown_number = |i: usize| numbers.get(i).map_or(next + i, |n| *n as usize);
    if args.json {
        let all: Vec<Value> = rounds
            .iter()
            .enumerate()
            .map(|(i, r)| round_json(shown_number(i), date, format, r, &entrants))
            .collect();
        match &all[..] {
            [one] => say!("{one}"),
            _ => say!("{}", Value::Array(all)),
        }
        return Ok(());
    }
    for (i, r) in rounds.iter().enumerate() {
        say!("Round {} — {date} ({format})", shown_number(i));
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
    match numbers[..] {
        [] => say!("(side A, named first, is at home or moves first; nothing is saved: --save)"),
        [n] => say!(
            "(side A, named first, is at home or moves first) Saved as round {n}: results by \
             `rungs result {} {n} BOARD 1|D|2`; `rungs undo` takes it back",
            shown(file)
        ),
        [first, .., last] => say!(
            "(side A, named first, is at home or moves first) Saved as rounds {first}–{last}; \
             `rungs undo` takes them back"
        ),
    }
    Ok(())
}

/// The Swiss event a round continues: `new`, the event begun by round N, or by default the
/// latest Swiss event if its latest round was on `date` (one night); `None` begins one.
fn swiss_event(
    at: &Place,
    book: &Book,
    date: chrono::NaiveDate,
    asked: Option<&str>,
) -> Result<Option<u32>> {
    match asked.map(str::trim) {
        None => Ok(book
            .latest_swiss()
            .filter(|(_, last)| *last == date)
            .map(|(e, _)| e)),
        Some("new") => Ok(None),
        Some(text) => {
            let n = text
                .parse::<u64>()
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| book.rounds.get(n).and_then(|r| r.event()) == Some(*n));
            match n {
                Some(n) => Ok(Some(n)),
                None => Err(ActionError::invalid(
                    at,
                    "event",
                    text,
                    format!(
                        "is not the first round of a Swiss event of this ladder (which holds \
                         {}), nor `new`",
                        book.held()
                    ),
                )
                .into()),
            }
        }
    }
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
