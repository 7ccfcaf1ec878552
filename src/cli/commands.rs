//! What each subcommand does. Every change goes through the store as one action.

use super::{Cli, Command, MappingArgs, RulesArgs};
use super::{analysis, output};
use crate::interchange::csv_matches::{Mapping, ResultColumns};
use crate::interchange::{elo_list, jsonl, match_import};
use crate::ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use crate::ladder::preview;
use crate::ladder::replay::Ladder;
use crate::ladder::rules::{Rules, System};
use crate::ladder::scenarios::ScenarioOverride;
use crate::ladder::seasons::{Cutoffs, Migration, MigrationEntry};
use crate::ladder::standings;
use crate::store::Store;
use anyhow::{Context, Result, anyhow, bail};
use chrono::NaiveDate;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

/// Runs a parsed command line. `Ok(false)` means no subcommand was given.
pub fn run(cli: Cli) -> Result<bool> {
    let Some(command) = cli.command else {
        return Ok(false);
    };
    match command {
        Command::New { file, rules } => {
            let rules = build_rules(&rules, None)?;
            Store::create(&file, &rules)?;
            say!("created {} ({})", file.display(), rules.system());
        }
        Command::Params { system } => {
            let system = parse_system(&system)?;
            output::params(&Rules::defaults(system));
        }
        Command::AddPlayer { file, names, date } => {
            let date = parse_date(date.as_deref())?;
            let mut store = Store::open(&file)?;
            let ladder = store.ladder()?;
            let first = ladder.players.len() as PlayerId;
            let mut entries = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for (next, name) in (first..).zip(&names) {
                let name = checked_name(name)?;
                if store.find_player(&name)?.is_some() || !seen.insert(name.to_lowercase()) {
                    bail!(
                        "{}: a player called `{name}` already exists",
                        file.display()
                    );
                }
                entries.push((
                    date,
                    Entry::Add {
                        event: Event::Player { id: next, name },
                    },
                ));
            }
            store.commit(&format!("add {}", plural(names.len(), "player")), &entries)?;
            say!("added {}", plural(names.len(), "player"));
        }
        Command::Rename {
            file,
            old,
            new,
            date,
        } => {
            let date = parse_date(date.as_deref())?;
            let mut store = Store::open(&file)?;
            let id = player_id(&store, &file, &old)?;
            let new = checked_name(&new)?;
            if let Some(other) = store.find_player(&new)?
                && other != id
            {
                bail!("{}: a player called `{new}` already exists", file.display());
            }
            store.commit(
                &format!("rename {old} to {new}"),
                &[(
                    date,
                    Entry::Add {
                        event: Event::Rename { id, name: new },
                    },
                )],
            )?;
        }
        Command::Import {
            file,
            csv,
            mapping,
            no_new_players,
            json,
        } => import_csv(&file, &csv, &mapping, no_new_players, json)?,
        Command::AddMatch {
            file,
            args,
            date,
            team_a,
            team_b,
            medals,
            scenario,
            side_a,
            json,
        } => {
            let date = parse_date(date.as_deref())?;
            let mut store = Store::open(&file)?;
            let (a, b, score) = match (args.as_slice(), &team_a, &team_b) {
                ([score], Some(ta), Some(tb)) => {
                    (team(&store, &file, ta)?, team(&store, &file, tb)?, score)
                }
                ([a, b, score], None, None) => (
                    vec![player_id(&store, &file, a)?],
                    vec![player_id(&store, &file, b)?],
                    score,
                ),
                _ => bail!("give `A B SCORE`, or `SCORE` with --team-a and --team-b"),
            };
            let result = parse_result(score)?;
            let medals = medals.as_deref().map(parse_medals).transpose()?;
            let m = Match {
                a: a.into(),
                b: b.into(),
                result,
                medals,
                scenario,
                side_a,
            };
            let before = store.ladder()?;
            let seqs = store.commit(
                "add match",
                &[(
                    date,
                    Entry::Add {
                        event: Event::Match(m.clone()),
                    },
                )],
            )?;
            let after = store.ladder()?;
            output::match_change(
                &before,
                &after,
                &m,
                seqs.first().copied().unwrap_or(0),
                json,
            );
        }
        Command::EditMatch {
            file,
            seq,
            a,
            b,
            score,
            date,
        } => {
            let mut store = Store::open(&file)?;
            let events = store.effective()?;
            let current = events.iter().find(|e| e.seq == seq).ok_or_else(|| {
                anyhow!("{}: no event {seq} (see `rungs events`)", file.display())
            })?;
            let Event::Match(mut m) = current.event.clone() else {
                bail!("{}: event {seq} is not a match", file.display());
            };
            if let Some(a) = a {
                m.a = player_id(&store, &file, &a)?.into();
            }
            if let Some(b) = b {
                m.b = player_id(&store, &file, &b)?.into();
            }
            if let Some(s) = score {
                m.result = parse_result(&s)?;
            }
            let date = match date {
                Some(d) => parse_date(Some(&d))?,
                None => current.date,
            };
            store.commit(
                &format!("edit event {seq}"),
                &[(
                    date,
                    Entry::Edit {
                        target: seq,
                        event: Event::Match(m),
                    },
                )],
            )?;
            say!("edited event {seq}");
        }
        Command::DeleteEvent { file, seq } => {
            let mut store = Store::open(&file)?;
            let events = store.effective()?;
            let current = events.iter().find(|e| e.seq == seq).ok_or_else(|| {
                anyhow!("{}: no event {seq} (see `rungs events`)", file.display())
            })?;
            if matches!(current.event, Event::Player { .. }) {
                bail!(
                    "{}: event {seq} adds a player; players are not deleted",
                    file.display()
                );
            }
            store.commit(
                &format!("delete event {seq}"),
                &[(current.date, Entry::Delete { target: seq })],
            )?;
            say!("deleted event {seq}");
        }
        Command::Undo { file } => {
            let t = Store::open(&file)?.undo()?;
            say!("undid: {}", t.label);
        }
        Command::Redo { file } => {
            let t = Store::open(&file)?.redo()?;
            say!("redid: {}", t.label);
        }
        Command::Events { file, json } => {
            let store = Store::open(&file)?;
            let ladder = store.ladder()?;
            output::events(&ladder, &store.effective()?, json);
        }
        Command::Standings {
            file,
            json,
            all,
            at,
        } => {
            let store = Store::open(&file)?;
            let ladder = match at {
                None => store.ladder()?,
                Some(at) => ladder_at(&store, &file, &at)?,
            };
            output::standings_filtered(&ladder, &standings::standings(&ladder), json, all);
        }
        Command::History { file, player, json } => {
            let store = Store::open(&file)?;
            let id = player_id(&store, &file, &player)?;
            let ladder = store.ladder()?;
            output::history(&ladder, &store.history(id)?, json);
        }
        Command::Replay {
            file,
            rules,
            compare,
            json,
        } => {
            let store = Store::open(&file)?;
            let own = store.ladder()?;
            let rules = build_rules(&rules, Some(&own.rules))?;
            let bar = spinner(!json, "replaying");
            let ladder = store.replay_state(&rules)?;
            bar.finish_and_clear();
            if compare {
                analysis::compare(&own, &ladder, json);
            } else {
                output::standings(&ladder, &standings::standings(&ladder), json);
            }
        }
        Command::Predict {
            file,
            a,
            b,
            date,
            json,
        } => analysis::predict(&file, &a, &b, date.as_deref(), json)?,
        Command::Evaluate {
            file,
            systems,
            params,
            json,
        } => analysis::evaluate(&file, &systems, &params, json)?,
        Command::Simulate(args) => analysis::simulate(&args)?,
        Command::Rules { file, rules, date } => {
            let date = parse_date(date.as_deref())?;
            let mut store = Store::open(&file)?;
            let current = store.ladder()?.rules;
            let rules = build_rules(&rules, Some(&current))?;
            store.commit(
                &format!("rules: {}", rules.system()),
                &[(
                    date,
                    Entry::Add {
                        event: Event::Rules {
                            rules: Box::new(rules),
                        },
                    },
                )],
            )?;
            say!("rules changed from {date}");
        }
        Command::SoftReset {
            file,
            date,
            preview,
            json,
        } => {
            let rows = [(
                parse_date(date.as_deref())?,
                Entry::Add {
                    event: Event::SoftReset,
                },
            )];
            season_action(&file, "soft reset", &rows, preview, json)?;
        }
        Command::HardReset {
            file,
            date,
            preview,
            json,
        } => {
            let rows = [(
                parse_date(date.as_deref())?,
                Entry::Add {
                    event: Event::HardReset,
                },
            )];
            season_action(&file, "hard reset", &rows, preview, json)?;
        }
        Command::Migrate {
            file,
            list,
            from_elo,
            cutoffs,
            date,
            preview,
            json,
        } => {
            let date = parse_date(date.as_deref())?;
            let cutoffs = match cutoffs {
                Some(text) => Cutoffs::parse(&text).map_err(|e| anyhow!(e))?,
                None => Cutoffs::default(),
            };
            let store = Store::open(&file)?;
            let rows = match (list, from_elo) {
                (Some(list), false) => migration_from_list(&store, &list, &cutoffs, date)?,
                (None, true) => migration_from_elo(&store, &file, &cutoffs, date)?,
                _ => bail!("give an Elo list (CSV), or --from-elo"),
            };
            drop(store);
            season_action(&file, "migrate from Elo", &rows, preview, json)?;
        }
        Command::Scenario {
            file,
            name,
            sides,
            ratio,
            averages,
            date,
        } => {
            let date = parse_date(date.as_deref())?;
            let (first, second) = sides
                .split_once(',')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty() && !a.eq_ignore_ascii_case(b))
                .ok_or_else(|| {
                    anyhow!("--sides `{sides}`: give two different sides, `Allies,Axis`")
                })?;
            if !(0.0..=1.0).contains(&ratio) {
                bail!("--ratio {ratio}: give the first side's win fraction, from 0 to 1");
            }
            let averages = parse_medals(&averages).context("--averages")?;
            let figures = ScenarioOverride {
                scenario: name.trim().to_string(),
                sides: [first, second],
                ratio,
                averages,
            };
            let mut store = Store::open(&file)?;
            store.commit(
                &format!("scenario {}", figures.scenario),
                &[(
                    date,
                    Entry::Add {
                        event: Event::Scenario {
                            figures: Box::new(figures),
                        },
                    },
                )],
            )?;
            say!("scenario figures set from {date}");
        }
        Command::Scenarios { file, json } => {
            let ladder = Store::open(&file)?.ladder()?;
            if json {
                say!(
                    "{}",
                    serde_json::to_string(&ladder.scenarios).unwrap_or_else(|_| "{}".into())
                );
            } else {
                for (name, s) in &ladder.scenarios.scenarios {
                    let side = |i: usize| s.sides[i].clone().unwrap_or_else(|| "?".into());
                    say!(
                        "{name}: {} battles; {} {:.1} wins; {} {:.1} wins",
                        s.battles,
                        side(0),
                        s.wins[0],
                        side(1),
                        s.wins[1]
                    );
                }
                for o in ladder.scenarios.overrides.values() {
                    say!(
                        "{} (set): {} wins {:.0} %, averages {} {:.1}, {} {:.1}",
                        o.scenario,
                        o.sides[0],
                        o.ratio * 100.0,
                        o.sides[0],
                        o.averages[0],
                        o.sides[1],
                        o.averages[1]
                    );
                }
            }
        }
        Command::Seasons { file, json } => {
            let ladder = Store::open(&file)?.ladder()?;
            output::seasons(&ladder, json);
        }
        Command::Export { file, out } => export(&file, &out)?,
        Command::ImportLog { file, input } => {
            let name = input.display().to_string();
            let reader =
                std::fs::File::open(&input).with_context(|| format!("{name}: cannot open"))?;
            let log = jsonl::read(std::io::BufReader::new(reader), &name)?;
            let created = !file.exists();
            let mut store = if created {
                Store::create(&file, &log.rules)?
            } else {
                Store::open(&file)?
            };
            let bar = spinner(true, "replaying");
            let result = store.import_log(&log);
            bar.finish_and_clear();
            if let Err(e) = result {
                // A ladder made for this import and left empty by its failure goes too.
                drop(store);
                if created {
                    for suffix in ["", "-wal", "-shm"] {
                        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
                    }
                }
                return Err(e.into());
            }
            say!(
                "imported {} into {}",
                plural(log.actions.len(), "action"),
                file.display()
            );
        }
    }
    Ok(true)
}

/// Previews `rows`, or commits them and shows what they did: the same table either way.
fn season_action(
    file: &Path,
    label: &str,
    rows: &[(NaiveDate, Entry)],
    preview: bool,
    json: bool,
) -> Result<()> {
    let mut store = Store::open(file)?;
    let (before, after) = store.preview(rows)?;
    if !preview {
        store.commit(label, rows)?;
    }
    let changes = preview::changes(&before, &after);
    let title = if preview {
        format!("Preview — {label} (nothing changed)")
    } else {
        format!("Done — {label}")
    };
    output::changes(&title, &changes, json);
    Ok(())
}

fn migration_from_list(
    store: &Store,
    list: &Path,
    cutoffs: &Cutoffs,
    date: NaiveDate,
) -> Result<Vec<(NaiveDate, Entry)>> {
    let name = list.display().to_string();
    let handle = std::fs::File::open(list).with_context(|| format!("{name}: cannot open"))?;
    let lines = elo_list::read(std::io::BufReader::new(handle), &name)?;
    Ok(elo_list::migration_rows(
        &lines,
        &store.ladder()?,
        cutoffs,
        date,
        &name,
    )?)
}

fn migration_from_elo(
    store: &Store,
    file: &Path,
    cutoffs: &Cutoffs,
    date: NaiveDate,
) -> Result<Vec<(NaiveDate, Entry)>> {
    let ladder = store.ladder()?;
    if !matches!(ladder.rules, Rules::Elo(_)) {
        bail!(
            "{}: --from-elo needs a ladder running elo; this one runs {}",
            file.display(),
            ladder.rules.system()
        );
    }
    let entries = ladder
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.joined)
        .map(|(i, p)| {
            let elo = p.figures().rating;
            MigrationEntry {
                player: i as PlayerId,
                elo,
                old_rank: cutoffs.rank_of(elo),
            }
        })
        .collect();
    Ok(vec![
        (
            date,
            Entry::Add {
                event: Event::Rules {
                    rules: Box::new(Rules::defaults(System::Skyweaver)),
                },
            },
        ),
        (
            date,
            Entry::Add {
                event: Event::Migration {
                    migration: Box::new(Migration { entries }),
                },
            },
        ),
    ])
}

pub(super) fn plural(n: usize, what: &str) -> String {
    match (n, what.ends_with("ch")) {
        (1, _) => format!("1 {what}"),
        (_, true) => format!("{n} {what}es"),
        _ => format!("{n} {what}s"),
    }
}

pub(super) fn parse_system(name: &str) -> Result<System> {
    System::parse(name).ok_or_else(|| {
        let known: Vec<&str> = System::ALL.iter().map(|s| s.name()).collect();
        anyhow!(
            "unknown system `{name}`; choose one of {}",
            known.join(", ")
        )
    })
}

/// Rules from `--system` and `--param`: the named system's defaults, or `base` when no system
/// is named (or the same one is), with the parameters applied in order.
pub(super) fn build_rules(args: &RulesArgs, base: Option<&Rules>) -> Result<Rules> {
    let mut rules = match (&args.system, base) {
        (Some(s), Some(b)) if parse_system(s)? == b.system() => b.clone(),
        (Some(s), _) => Rules::defaults(parse_system(s)?),
        (None, Some(b)) => b.clone(),
        (None, None) => Rules::default(),
    };
    for p in &args.params {
        rules.set_param(p)?;
    }
    Ok(rules)
}

pub(super) fn parse_date(text: Option<&str>) -> Result<NaiveDate> {
    match text {
        None => Ok(chrono::Local::now().date_naive()),
        Some(t) => NaiveDate::parse_from_str(t.trim(), "%Y-%m-%d")
            .map_err(|_| anyhow!("date `{t}` does not parse; write it as YYYY-MM-DD")),
    }
}

fn parse_result(text: &str) -> Result<MatchResult> {
    MatchResult::parse(text).ok_or_else(|| {
        anyhow!("score `{text}` is out of range; use 1, 0.5 or 0 from A's view (or A, B, draw, forfeit-a, forfeit-b, cancelled)")
    })
}

fn parse_medals(text: &str) -> Result<[f64; 2]> {
    let bad = || anyhow!("medals `{text}`: write them as A,B with two numbers of 0 or more");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if !(a.is_finite() && b.is_finite() && a >= 0.0 && b >= 0.0) {
        return Err(bad());
    }
    Ok([a, b])
}

fn checked_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.contains(',') || name.chars().any(char::is_control) {
        bail!("player name `{name}` is empty or has a comma or control character");
    }
    Ok(name.to_string())
}

pub(super) fn player_id(store: &Store, file: &Path, name: &str) -> Result<PlayerId> {
    store.find_player(name)?.ok_or_else(|| {
        anyhow!(
            "{}: unknown player `{name}` (add them with `rungs add-player`)",
            file.display()
        )
    })
}

pub(super) fn team(store: &Store, file: &Path, names: &str) -> Result<Vec<PlayerId>> {
    names
        .split(',')
        .map(|n| player_id(store, file, n.trim()))
        .collect()
}

/// The ladder as it stood at the end of a date, or right after the event with that sequence
/// number.
fn ladder_at(store: &Store, file: &Path, at: &str) -> Result<Ladder> {
    let events = store.effective()?;
    let cut = if let Ok(date) = NaiveDate::parse_from_str(at.trim(), "%Y-%m-%d") {
        events.partition_point(|e| e.date <= date)
    } else if let Ok(seq) = at.trim().parse::<u64>() {
        events
            .iter()
            .position(|e| e.seq == seq)
            .map(|i| i + 1)
            .ok_or_else(|| anyhow!("{}: no event {seq} (see `rungs events`)", file.display()))?
    } else {
        bail!("--at `{at}`: give a date (YYYY-MM-DD) or an event number");
    };
    let (ladder, _) = crate::ladder::replay::replay(
        &store.initial_rules()?,
        events[..cut].iter().map(|e| (e.date, e.seq, &e.event)),
    )?;
    Ok(ladder)
}

/// A spinner on stderr when `show` and stdout is a terminal; hidden otherwise.
fn spinner(show: bool, message: &'static str) -> ProgressBar {
    if !show || !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_message(message);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
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
    Ok(m)
}

fn import_csv(
    file: &Path,
    csv: &Path,
    args: &MappingArgs,
    no_new_players: bool,
    json: bool,
) -> Result<()> {
    let mapping = mapping_from(args)?;
    let mut store = Store::open(file)?;
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
    let summary = match_import::import_file(&mut store, csv, &mapping, !no_new_players, &mut |n| {
        bar.set_position(n);
        true
    });
    bar.finish_and_clear();
    let summary = summary?;
    if json {
        say!(
            "{}",
            serde_json::json!({ "matches": summary.matches, "new_players": summary.new_players })
        );
    } else {
        say!(
            "imported {} and {}",
            plural(summary.matches, "match"),
            plural(summary.new_players, "new player")
        );
    }
    Ok(())
}

fn export(file: &Path, out: &Path) -> Result<()> {
    let store = Store::open(file)?;
    let name = out.display().to_string();
    let handle = std::fs::File::create(out).with_context(|| format!("{name}: cannot create"))?;
    let mut w = BufWriter::new(handle);
    let is_csv = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        let ladder = store.ladder()?;
        crate::interchange::csv_export::write_matches(&ladder, &store.effective()?, &mut w)?;
    } else {
        jsonl::write(&store.export_log()?, &mut w)?;
    }
    w.flush().with_context(|| format!("{name}: cannot write"))?;
    say!("wrote {name}");
    Ok(())
}
