//! A match CSV brought into a ladder as one action: names to players, new players joining
//! at their first match, every line checked before anything is written.

use super::{Action, ActionError, Context, Kind, Place};
use chrono::NaiveDate;
use foldhash::{HashMap, HashMapExt};
use rungs_interchange::csv_matches::{MatchReader, Side};
use rungs_ladder::calendar::{Calendar, HardResets, Schedule, default_anchor};
use rungs_ladder::event::{
    Entry, Event, EventClass, Home, Match, MatchResult, PlayerId, Side as EventSide,
};
use rungs_ladder::rules::{Params, Rules, SkyweaverParams};
use std::io::Read;

/// What an import brings in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub matches: usize,
    pub new_players: usize,
    /// Matches the ladder holds already: the same date, sides and result.
    pub already: usize,
}

impl Summary {
    /// What an import says of matches the ladder held already (imported all the same).
    pub fn already_note(&self) -> String {
        match self.already {
            0 => String::new(),
            1 => "; 1 of them was in the ladder already (same date, players and result)".into(),
            n => {
                format!("; {n} of them were in the ladder already (same date, players and result)")
            }
        }
    }
}

/// A match as read, held compactly until the file is sorted by date: its sides are indices
/// into the distinct sides read (the reader shares a side between rows with the same cell),
/// its rarely used fields boxed away. 40 bytes a match, so a million-match file stages in
/// tens of megabytes.
struct Staged {
    line: u64,
    date: NaiveDate,
    a: u32,
    b: u32,
    result: MatchResult,
    /// Which side is at home (the international preset sets it on most rows).
    home: Option<Home>,
    /// Each side's points and the event's class, as the file gives them.
    goals: Option<[u32; 2]>,
    class: Option<EventClass>,
    /// Index into the extras, or `NO_EXTRAS`.
    extras: u32,
}

const NO_EXTRAS: u32 = u32::MAX;

/// Medals, scenario and side, for the matches that have any.
struct Extras {
    medals: Option<rungs_ladder::values::Medals>,
    scenario: Option<String>,
    side_a: Option<String>,
}

/// Staged matches made into the action's rows, in date order: each side's names to players
/// (a name the ladder does not know joins, undated, on the date of its first match, unless
/// `allow_new` is false), each match checked.
struct Resolver<'f> {
    file: &'f str,
    /// The header's names of the two player columns.
    fields: &'f [String; 2],
    allow_new: bool,
    /// The sides the rows name, as the reader numbers them, each resolved to players once.
    sides: Vec<Side>,
    ids: Vec<Option<EventSide>>,
    extras: Vec<Extras>,
    /// Players by name as written: each distinct name is looked up in the roster once.
    known: HashMap<String, PlayerId>,
    rows: Vec<(NaiveDate, Entry)>,
    new_players: usize,
}

impl Resolver<'_> {
    fn add(&mut self, sides: Vec<Side>, extras: Vec<Extras>) {
        self.sides.extend(sides);
        self.ids.resize(self.sides.len(), None);
        self.extras.extend(extras);
    }

    /// Back to no rows made, the sides and extras kept.
    fn restart(&mut self) {
        self.ids.iter_mut().for_each(|id| *id = None);
        self.known.clear();
        self.rows = Vec::new();
        self.new_players = 0;
    }

    /// Side `i` (a side of match `m`, in player column `column`) as players.
    fn side(
        &mut self,
        ctx: &mut Context<'_>,
        i: u32,
        column: usize,
        m: &Staged,
    ) -> Result<EventSide, ActionError> {
        let i = i as usize;
        if let Some(known) = &self.ids[i] {
            return Ok(known.clone());
        }
        let field = self.fields[column].as_str();
        let mut found = Vec::with_capacity(self.sides[i].len());
        for name in self.sides[i].iter() {
            if let Some(&id) = self.known.get(name.as_str()) {
                found.push(id);
                continue;
            }
            if let Some(id) = ctx.roster.find(name.as_str()) {
                self.known.insert(name.to_string(), id);
                found.push(id);
                continue;
            }
            if !self.allow_new {
                return Err(ActionError::UnknownPlayer {
                    at: Place::line(self.file, m.line),
                    field: field.to_string(),
                    name: name.to_string(),
                    why: crate::error::Unknown::NotAllowedNew,
                });
            }
            let id = ctx
                .roster
                .next_id(&Place::line(self.file, m.line), field, name.as_str())?;
            ctx.roster.claim(name, id);
            self.known.insert(name.to_string(), id);
            self.new_players += 1;
            let event = Event::Player {
                id,
                name: name.clone(),
                undated: true,
            };
            self.rows.push((m.date, Entry::Add { event }));
            found.push(id);
        }
        let found = EventSide::from(found);
        self.ids[i] = Some(found.clone());
        Ok(found)
    }

    /// Match `m`'s rows: its new players' and its own.
    fn push(&mut self, ctx: &mut Context<'_>, m: &Staged) -> Result<(), ActionError> {
        let a = self.side(ctx, m.a, 0, m)?;
        let b = self.side(ctx, m.b, 1, m)?;
        let extra = self.extras.get(m.extras as usize);
        let game = Match {
            a,
            b,
            result: m.result,
            medals: extra.and_then(|e| e.medals),
            scenario: extra.and_then(|e| e.scenario.clone()),
            side_a: extra.and_then(|e| e.side_a.clone()),
            home: m.home,
            goals: m.goals,
            class: m.class,
            board: None,
        };
        // New players are undated and cannot be "not yet joined"; existing ones are checked
        // against the ladder.
        let at = || Place::line(self.file, m.line);
        super::matches::check_medals(&at(), &game, &|| ctx.words(&Event::Match(game.clone())))?;
        ctx.check_match(&at, m.date, &game)?;
        ctx.check_side(&at, &game)?;
        self.rows.push((
            m.date,
            Entry::Add {
                event: Event::Match(game),
            },
        ));
        Ok(())
    }
}

/// A run of rows as read, with the sides and extras first named in it.
struct Batch {
    matches: Vec<Staged>,
    sides: Vec<Side>,
    extras: Vec<Extras>,
}

/// Why the rows made while reading are not the action's.
enum Stop {
    /// A row dated before the one above it: the rows are made again once sorted.
    Unsorted,
    Failed(ActionError),
}

/// Rows to the second thread at a time (and how often `progress` hears of the reading).
const BATCH: usize = 4096;

impl Action {
    /// Every match of `reader` (the CSV named `file`), in date order (a file's own order
    /// within a date). A name the ladder does not know joins, undated, on the date of its
    /// first match, unless `allow_new` is false (then it is an error naming its line).
    /// `progress` hears the bytes read so far and returns false to cancel.
    ///
    /// A file in date order (most are) has its rows made on a second thread as it is read:
    /// the same rows in the same order, and the same first error, as when they are made
    /// after it. A bad line of the file comes first, as when nothing is made before the file
    /// is read whole; a file not in date order is sorted and its rows made again.
    pub fn import_matches<R: Read>(
        ctx: &mut Context<'_>,
        mut reader: MatchReader<R>,
        file: &str,
        allow_new: bool,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<(Action, Summary), ActionError> {
        let cancelled = || ActionError::Store(rungs_store::StoreError::Cancelled);
        let fields = reader.player_fields();
        let mut made = Resolver {
            file,
            fields: &fields,
            allow_new,
            sides: Vec::new(),
            ids: Vec::new(),
            extras: Vec::new(),
            known: HashMap::new(),
            rows: Vec::new(),
            new_players: 0,
        };
        // As the ladder's names stand before the import: what a file not in date order
        // starts again from.
        let before = ctx.clone();
        let (read, runs, stop) = std::thread::scope(|s| {
            let (send, batches) = std::sync::mpsc::sync_channel::<Batch>(4);
            let worker = s.spawn(|| {
                // The runs as they came, kept whole (not copied into one list): only a file
                // out of order needs them again.
                let mut runs: Vec<Vec<Staged>> = Vec::new();
                let mut failed = None;
                let (mut sorted, mut last) = (true, NaiveDate::MIN);
                for batch in batches {
                    made.add(batch.sides, batch.extras);
                    for m in &batch.matches {
                        sorted &= m.date >= last;
                        last = m.date;
                        // Past a bad row only the order is looked at: a file out of order
                        // is sorted and made again, and a row dated earlier may fail first.
                        if sorted
                            && failed.is_none()
                            && let Err(e) = made.push(ctx, m)
                        {
                            failed = Some(e);
                        }
                    }
                    runs.push(batch.matches);
                }
                let stop = match (sorted, failed) {
                    (false, _) => Some(Stop::Unsorted),
                    (true, failed) => failed.map(Stop::Failed),
                };
                (runs, stop)
            });
            let mut batch = Batch {
                matches: Vec::with_capacity(BATCH),
                sides: Vec::new(),
                extras: Vec::new(),
            };
            let (mut sent_sides, mut extras) = (0, 0usize);
            let read = loop {
                let row = match reader.next_row() {
                    Some(Ok(row)) => Some(row),
                    Some(Err(e)) => break Err(e.into()),
                    None => None,
                };
                let end = row.is_none();
                if let Some(m) = row {
                    let extra = if m.medals.is_some() || m.scenario.is_some() || m.side_a.is_some()
                    {
                        batch.extras.push(Extras {
                            medals: m.medals,
                            scenario: m.scenario,
                            side_a: m.side_a,
                        });
                        extras += 1;
                        u32::try_from(extras - 1).unwrap_or(NO_EXTRAS)
                    } else {
                        NO_EXTRAS
                    };
                    batch.matches.push(Staged {
                        line: m.line,
                        date: m.date,
                        a: m.a,
                        b: m.b,
                        result: m.result,
                        home: m.home,
                        goals: m.goals,
                        class: m.class,
                        extras: extra,
                    });
                }
                if batch.matches.len() == BATCH || end {
                    batch.sides = reader.sides_from(sent_sides);
                    sent_sides += batch.sides.len();
                    let next = Batch {
                        matches: Vec::with_capacity(BATCH),
                        sides: Vec::new(),
                        extras: Vec::new(),
                    };
                    // The worker ends only when this thread lets it.
                    let _ = send.send(std::mem::replace(&mut batch, next));
                    if !progress(reader.bytes_read()) {
                        break Err(cancelled());
                    }
                }
                if end {
                    break Ok(());
                }
            };
            drop(send);
            let (runs, stop) = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (read, runs, stop)
        });
        let count: usize = runs.iter().map(Vec::len).sum();
        if let Err(e) = read {
            *ctx = before;
            return Err(e);
        }
        match stop {
            None => {}
            Some(Stop::Failed(e)) => return Err(e),
            Some(Stop::Unsorted) => {
                *ctx = before;
                made.restart();
                // A stable sort keeps the file's order within a date, which replay would
                // keep anyway.
                let mut matches: Vec<Staged> = runs.into_iter().flatten().collect();
                matches.sort_by_key(|m| m.date);
                made.rows
                    .reserve(matches.len() + made.sides.len().min(1 << 20));
                for m in &matches {
                    made.push(ctx, m)?;
                }
            }
        }
        let (rows, new_players) = (made.rows, made.new_players);
        let summary = Summary {
            matches: count,
            new_players,
            already: 0,
        };
        let label = format!(
            "imported {} ({} matches)",
            rungs_ladder::values::shown(file),
            summary.matches
        );
        Ok((Action::new(Kind::ImportMatches, label, rows)?, summary))
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
/// action: what `rungs import`, the app's Import and the demo all do. A file whose every
/// match the ladder holds already (imported before) is refused unless `again`.
pub fn import_csv<R: Read>(
    store: &mut rungs_store::Store,
    reader: MatchReader<R>,
    name: &str,
    allow_new: bool,
    again: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Summary, ActionError> {
    let ladder = store.ladder()?;
    let mut ctx = Context::new(&ladder, store.path().display().to_string(), super::today());
    let (act, mut summary) = Action::import_matches(&mut ctx, reader, name, allow_new, progress)?;
    if ladder.events > 0 {
        summary.already = already_held(store, &act)?;
    }
    if summary.matches > 0 && summary.already == summary.matches && !again {
        return Err(ActionError::AlreadyImported {
            at: Place::file(name),
            matches: summary.matches,
        });
    }
    let applied = super::apply(store, &act);
    // A million rows take tens of milliseconds to free, row by row: a thread of their own
    // frees them, and a process that ends meanwhile (the command line's) leaves it undone.
    if act.rows().len() > 1 << 16 {
        std::thread::spawn(move || drop(act));
    }
    applied?;
    Ok(summary)
}

/// How many of `action`'s matches the ladder holds already (the same date, sides and
/// result), each held match answering for one. The log streams past once; only the action's
/// own matches are kept.
fn already_held(store: &rungs_store::Store, action: &Action) -> Result<usize, ActionError> {
    type Key = (NaiveDate, EventSide, EventSide, MatchResult);
    // Per key: (matches in the action, matches found in the ladder).
    let mut wanted: HashMap<Key, (usize, usize)> = HashMap::new();
    for (date, entry) in action.rows() {
        if let Entry::Add {
            event: Event::Match(m),
        } = entry
        {
            wanted
                .entry((*date, m.a.clone(), m.b.clone(), m.result))
                .or_default()
                .0 += 1;
        }
    }
    store.each_event(|date, event| {
        if let Event::Match(m) = event
            && let Some((_, found)) = wanted.get_mut(&(date, m.a.clone(), m.b.clone(), m.result))
        {
            *found += 1;
        }
    })?;
    Ok(wanted.values().map(|&(new, found)| new.min(found)).sum())
}
