//! A match CSV brought into a ladder as one action: names to players, new players joining
//! at their first match, every line checked before anything is written.

use super::{Action, ActionError, Context, Kind, Place};
use crate::interchange::csv_matches::{CsvMatch, MatchReader};
use crate::ladder::calendar::{Calendar, HardResets, Schedule, default_anchor};
use crate::ladder::event::{Entry, Event, Match};
use crate::ladder::rules::{Params, Rules, SkyweaverParams};
use chrono::NaiveDate;
use std::io::Read;

/// What an import brings in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub matches: usize,
    pub new_players: usize,
}

impl Action {
    /// Every match of `reader` (the CSV named `file`), in date order (a file's own order
    /// within a date). A name the ladder does not know joins, undated, on the date of its
    /// first match, unless `allow_new` is false (then it is an error naming its line).
    /// `progress` hears the bytes read so far and returns false to cancel.
    pub fn import_matches<R: Read>(
        ctx: &mut Context<'_>,
        mut reader: MatchReader<R>,
        file: &str,
        allow_new: bool,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<(Action, Summary), ActionError> {
        let cancelled = || ActionError::Store(crate::store::StoreError::Cancelled);
        let fields = reader.player_fields();
        let mut matches: Vec<CsvMatch> = Vec::new();
        while let Some(row) = reader.next() {
            matches.push(row?);
            if matches.len().is_multiple_of(4096) && !progress(reader.bytes_read()) {
                return Err(cancelled());
            }
        }
        if !progress(reader.bytes_read()) {
            return Err(cancelled());
        }
        // A stable sort keeps the file's order within a date, which replay would keep anyway.
        matches.sort_by_key(|m| m.date);
        let mut rows: Vec<(NaiveDate, Entry)> = Vec::with_capacity(matches.len() + 64);
        let mut new_players = 0;
        for m in &matches {
            let mut side = |names: &[crate::ladder::values::PlayerName],
                            field: &str,
                            rows: &mut Vec<(NaiveDate, Entry)>| {
                let mut ids = Vec::with_capacity(names.len());
                for name in names {
                    if let Some(id) = ctx.roster.find(name.as_str()) {
                        ids.push(id);
                        continue;
                    }
                    if !allow_new {
                        return Err(ActionError::UnknownPlayer {
                            at: Place::line(file, m.line),
                            field: field.to_string(),
                            name: name.to_string(),
                            hint: "; add the player first, or allow new players".into(),
                        });
                    }
                    let id = ctx.roster.next_id();
                    ctx.roster.claim(name, id);
                    new_players += 1;
                    let event = Event::Player {
                        id,
                        name: name.to_string(),
                        undated: true,
                    };
                    rows.push((m.date, Entry::Add { event }));
                    ids.push(id);
                }
                Ok(ids)
            };
            let a = side(&m.player_a, &fields[0], &mut rows)?;
            let b = side(&m.player_b, &fields[1], &mut rows)?;
            let game = Match {
                a: a.into(),
                b: b.into(),
                result: m.result,
                medals: m.medals,
                scenario: m.scenario.clone(),
                side_a: m.side_a.clone(),
                home: m.home,
            };
            // New players are undated and cannot be "not yet joined"; existing ones are
            // checked against the ladder.
            ctx.check_match(&|| Place::line(file, m.line), m.date, &game)?;
            rows.push((
                m.date,
                Entry::Add {
                    event: Event::Match(game),
                },
            ));
        }
        let summary = Summary {
            matches: matches.len(),
            new_players,
        };
        let label = format!("imported {file} ({} matches)", summary.matches);
        Ok((Action::new(Kind::ImportMatches, label, rows), summary))
    }
}

/// The demo ladder's rules: international football 1872–2026 (the bundled results) under
/// Skyweaver, scaled to national teams (README, "The demo ladder"). A team plays about ten
/// matches a year, a Skyweaver player as many in an evening: a year stands for the paper's
/// week and a World Cup cycle for its season. So a soft reset every 365 days from 1 August
/// 2026 (after each summer's tournaments) and a hard reset every fourth, with c = 10 (a soft
/// reset rolls 52 weekly rating periods: c = 34.6 would put every RD back above 250 each
/// August), the hard reset's MMR span 1500 (the teams' ratings spread wider than 750), and
/// the top 10 Masters Grandweavers. Chosen by `rungs evaluate` and the standings' spread:
/// the figures are in BENCHMARKS.md.
pub fn demo_rules() -> Rules {
    let params = SkyweaverParams {
        c: 10.0,
        hard_reset_span: 1500.0,
        grandweaver_count: 10,
        ..SkyweaverParams::default()
    };
    let mut rules = Rules::from(Params::Skyweaver(params));
    rules.calendar = Calendar::Scheduled(Schedule {
        soft_days: 365,
        anchor: NaiveDate::from_ymd_opt(2026, 8, 1).unwrap_or_else(default_anchor),
        hard: HardResets::Every(4),
    });
    rules
}

/// Reads the match CSV `reader` (named `name` in messages) and commits it to `store` as one
/// action: what `rungs import`, the app's Import and the demo all do.
pub fn import_csv<R: Read>(
    store: &mut crate::store::Store,
    reader: MatchReader<R>,
    name: &str,
    allow_new: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Summary, ActionError> {
    let ladder = store.ladder()?;
    let mut ctx = Context::new(&ladder, store.path().display().to_string(), super::today());
    let (act, summary) = Action::import_matches(&mut ctx, reader, name, allow_new, progress)?;
    super::apply(store, &act)?;
    Ok(summary)
}
