//! The events that count, in replay order, held compactly: 24 bytes an event, a plain 1v1
//! match made afresh as it is handed out and any other event kept decoded. A million-match
//! log is 24 MB here where `Vec<Effective>` takes several times that, and replaying it reads
//! no JSON. Built from the log's rows in entry order, as `ladder::log::resolve` would resolve
//! them (edits, deletions, undated joins), and checked on the way: every player id within the
//! joins seen so far, so that replay never allocates for players the log does not hold.

use super::codec::{self, Body, Op, Row};
use chrono::NaiveDate;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::log::{DanglingCorrection, Effective};
use rungs_ladder::quick::{self, Item, PlainMatch};
use rungs_ladder::values::FIRST_DAY;
use std::collections::HashMap;

/// `Key::tag` of an event kept in `others` (its index in `a`); 0–5 are plain results.
const OTHER: u8 = 6;
/// `Key::tag` of an event since deleted.
const DEAD: u8 = 7;

#[derive(Debug, Clone, Copy)]
struct Key {
    seq: u64,
    day: i32,
    a: u32,
    b: u32,
    tag: u8,
}

/// What is wrong with a log read row by row.
#[derive(Debug)]
pub(crate) enum Problem {
    /// A row that cannot be part of a ladder's log.
    Row(String),
    /// A correction of nothing.
    Dangling(DanglingCorrection),
}

/// The events that count, in replay order.
#[derive(Debug, Default)]
pub struct Events {
    keys: Vec<Key>,
    others: Vec<Event>,
}

/// Builds [`Events`] from rows in entry order.
#[derive(Default)]
pub(crate) struct Builder {
    keys: Vec<Key>,
    others: Vec<Event>,
    joins: u64,
    undated: bool,
    /// Whether the keys so far may not be the events in replay order as they stand: a
    /// correction changed or removed a key already made, a date went back (then they are
    /// sorted at the end), or an undated join came for an id counted before (an earlier
    /// event may name it, and the join would move to that event's date).
    reordered: bool,
}

impl Builder {
    /// Checks that the ids `event` names are within the joins so far, and counts a join.
    fn check_ids(&mut self, seq: u64, event: &Event) -> Result<(), Problem> {
        if let Event::Player { id, undated, .. } = event {
            if u64::from(*id) > self.joins {
                return Err(Problem::Row(format!(
                    "row {seq}: player id {id} skips ids ({} players joined before it)",
                    self.joins
                )));
            }
            self.joins = self.joins.max(u64::from(*id) + 1);
            self.undated |= *undated;
            return Ok(());
        }
        for id in event.players() {
            self.check_id(seq, id)?;
        }
        Ok(())
    }

    fn check_id(&self, seq: u64, id: PlayerId) -> Result<(), Problem> {
        if u64::from(id) < self.joins {
            Ok(())
        } else {
            Err(Problem::Row(format!(
                "row {seq}: player id {id} has not joined by this row ({} joins before it)",
                self.joins
            )))
        }
    }

    /// The key a row's event gets, checking its ids.
    fn key(&mut self, row: &Row<'_>) -> Result<Key, Problem> {
        match row.body {
            Body::Plain { a, b, result } => {
                self.check_id(row.seq, a)?;
                self.check_id(row.seq, b)?;
                let tag = codec::result_code(result);
                Ok(Key {
                    seq: row.seq,
                    day: row.day,
                    a,
                    b,
                    tag,
                })
            }
            Body::Json(_) => {
                let event = row
                    .event()
                    .map_err(|e| Problem::Row(e.to_string()))?
                    .ok_or_else(|| Problem::Row(format!("row {}: no event", row.seq)))?;
                // A new id cannot have been named before its join (ids are checked against
                // the joins so far), so in a log kept in date order its undated join stays.
                if let Event::Player {
                    id, undated: true, ..
                } = &event
                    && u64::from(*id) < self.joins
                {
                    self.reordered = true;
                }
                self.check_ids(row.seq, &event)?;
                let index = u32::try_from(self.others.len())
                    .map_err(|_| Problem::Row("too many events".into()))?;
                self.others.push(event);
                Ok(Key {
                    seq: row.seq,
                    day: row.day,
                    a: index,
                    b: 0,
                    tag: OTHER,
                })
            }
            Body::Nothing => Err(Problem::Row(format!("row {}: no event", row.seq))),
        }
    }

    fn live(&self, seq: u64, target: u64) -> Result<usize, Problem> {
        match self.keys.binary_search_by_key(&target, |k| k.seq) {
            Ok(i) if self.keys[i].tag != DEAD => Ok(i),
            _ => Err(Problem::Dangling(DanglingCorrection { seq, target })),
        }
    }

    /// Takes the next row in entry order; `counts` is whether its action is in force (a row
    /// of an undone action only has its ids checked and its joins counted).
    pub fn push(&mut self, row: &Row<'_>, counts: bool) -> Result<(), Problem> {
        if !counts {
            return match row.body {
                Body::Plain { a, b, .. } => {
                    self.check_id(row.seq, a)?;
                    self.check_id(row.seq, b)
                }
                Body::Json(_) => {
                    let event = row.event().map_err(|e| Problem::Row(e.to_string()))?;
                    match event {
                        Some(e) => self.check_ids(row.seq, &e),
                        None => Ok(()),
                    }
                }
                Body::Nothing => Ok(()),
            };
        }
        match row.op {
            Op::Add => {
                let key = self.key(row)?;
                self.reordered |= self.keys.last().is_some_and(|last| key.day < last.day);
                self.keys.push(key);
            }
            Op::Edit => {
                self.reordered = true;
                let at = self.live(row.seq, row.target)?;
                let key = self.key(row)?;
                self.keys[at] = Key {
                    seq: row.target,
                    ..key
                };
            }
            Op::Delete => {
                self.reordered = true;
                let at = self.live(row.seq, row.target)?;
                self.keys[at].tag = DEAD;
            }
        }
        Ok(())
    }

    /// Whether the keys made so far are already the first events in replay order, whatever
    /// rows come next, unless a later row is a correction, dated earlier, or an undated join
    /// of an id seen before (then it turns false for good). An undated join of a new id in
    /// such a log stays where it is: every event naming the player comes after it, on its
    /// date or later (what `place_undated_joins` would find).
    pub fn in_order(&self) -> bool {
        !self.reordered
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// A copy of the keys from `from` on, with the events they keep (a replay on another
    /// thread takes them while the log is still read; the builder keeps its own for a log
    /// that turns out to need sorting or correcting).
    pub fn batch(&self, from: usize) -> Batch {
        let mut others = Vec::new();
        let keys = self.keys[from.min(self.keys.len())..]
            .iter()
            .map(|k| {
                if k.tag != OTHER {
                    return *k;
                }
                others.push(self.others[k.a as usize].clone());
                Key {
                    a: others.len() as u32 - 1,
                    ..*k
                }
            })
            .collect();
        Batch { keys, others }
    }

    /// Room for `rows` rows (a hint: the log's length).
    pub fn with_capacity(rows: usize) -> Builder {
        Builder {
            keys: Vec::with_capacity(rows),
            ..Builder::default()
        }
    }

    /// The events in replay order.
    pub fn finish(mut self) -> Events {
        // In order as they stand ([`Builder::in_order`]): nothing deleted, no undated join
        // to move, nothing to sort; the three passes over a million keys are skipped.
        if !self.reordered {
            return Events {
                keys: self.keys,
                others: self.others,
            };
        }
        self.keys.retain(|k| k.tag != DEAD);
        if self.undated {
            self.place_undated_joins();
        }
        // Most logs are entered in date order: sorted already.
        if !self.keys.is_sorted_by_key(|k| (k.day, k.seq)) {
            self.keys.sort_unstable_by_key(|k| (k.day, k.seq));
        }
        Events {
            keys: self.keys,
            others: self.others,
        }
    }

    /// An undated join takes place at the player's first event if that comes before the
    /// date it was entered on (as `ladder::log` places them).
    fn place_undated_joins(&mut self) {
        // Indexed by player id: every id is below the joins counted (checked as rows came).
        const NONE: u32 = u32::MAX;
        let players = self.joins as usize;
        let mut undated: Vec<u32> = vec![NONE; players];
        for (i, k) in self.keys.iter().enumerate() {
            if k.tag == OTHER
                && let Event::Player {
                    id, undated: true, ..
                } = self.others[k.a as usize]
                && let Some(slot) = undated.get_mut(id as usize)
            {
                *slot = i as u32;
            }
        }
        let mut first: Vec<i32> = vec![i32::MAX; players];
        let mut note = |id: PlayerId, day: i32| {
            if let Some(f) = first.get_mut(id as usize) {
                *f = (*f).min(day);
            }
        };
        for k in &self.keys {
            if k.tag == OTHER {
                let event = &self.others[k.a as usize];
                if !matches!(event, Event::Player { .. }) {
                    for id in event.players() {
                        note(id, k.day);
                    }
                }
            } else {
                note(k.a, k.day);
                note(k.b, k.day);
            }
        }
        for (id, &i) in undated.iter().enumerate() {
            if i != NONE && first[id] != i32::MAX {
                let key = &mut self.keys[i as usize];
                key.day = key.day.min(first[id]);
            }
        }
    }
}

/// Some events in replay order, taken from a [`Builder`] as the log is read.
#[derive(Debug, Default)]
pub(crate) struct Batch {
    keys: Vec<Key>,
    others: Vec<Event>,
}

impl Batch {
    /// Calls `f` with every event of the batch in order; stops at the first error.
    pub fn for_each<E>(
        &self,
        f: impl FnMut(NaiveDate, u64, &Event) -> Result<(), E>,
    ) -> Result<(), E> {
        each(&self.keys, &self.others, f)
    }
}

/// Calls `f` with the event of every key in turn, a plain match made afresh and any other
/// event from `others`.
fn each<E>(
    keys: &[Key],
    others: &[Event],
    mut f: impl FnMut(NaiveDate, u64, &Event) -> Result<(), E>,
) -> Result<(), E> {
    for (date, seq, item) in items(keys, others) {
        match item {
            Item::Plain(p) => f(date, seq, &Event::Match(p.to_match()))?,
            Item::Event(event) => f(date, seq, event)?,
        }
    }
    Ok(())
}

/// Every key in turn with its date: a plain match as it is kept (not made), any other event
/// from `others`.
fn items<'a>(
    keys: &'a [Key],
    others: &'a [Event],
) -> impl Iterator<Item = (NaiveDate, u64, Item<'a>)> + 'a {
    let mut day = i32::MIN;
    let mut date = FIRST_DAY;
    keys.iter().map(move |k| {
        if k.day != day {
            day = k.day;
            date = codec::date_of(day).unwrap_or(FIRST_DAY);
        }
        let item = match codec::result_of(k.tag) {
            Some(result) => Item::Plain(PlainMatch {
                a: k.a,
                b: k.b,
                result,
            }),
            None => Item::Event(&others[k.a as usize]),
        };
        (date, k.seq, item)
    })
}

impl Events {
    /// How many events the log holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the log holds no event.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The replay key of the last event.
    pub fn last_key(&self) -> Option<(NaiveDate, u64)> {
        self.keys
            .last()
            .map(|k| (codec::date_of(k.day).unwrap_or(FIRST_DAY), k.seq))
    }

    /// Calls `f` with every event in replay order; stops at the first error.
    pub fn for_each<E>(
        &self,
        f: impl FnMut(NaiveDate, u64, &Event) -> Result<(), E>,
    ) -> Result<(), E> {
        each(&self.keys, &self.others, f)
    }

    /// Every event as [`Effective`], in replay order.
    pub fn to_effective(&self) -> Vec<Effective> {
        let mut out = Vec::with_capacity(self.keys.len());
        let _ = self.for_each(|date, seq, event| -> Result<(), ()> {
            out.push(Effective {
                date,
                seq,
                event: event.clone(),
            });
            Ok(())
        });
        out
    }

    /// Event `seq` as it stands, if it counts.
    pub fn get(&self, seq: u64) -> Option<Effective> {
        let mut found = None;
        let _ = self.for_each(|date, s, event| {
            if s == seq {
                found = Some(Effective {
                    date,
                    seq,
                    event: event.clone(),
                });
                return Err(());
            }
            Ok(())
        });
        found
    }

    /// The replay date of each of `seqs` that counts.
    pub fn dates_of(&self, seqs: &[u64]) -> HashMap<u64, NaiveDate> {
        let wanted: std::collections::HashSet<u64> = seqs.iter().copied().collect();
        self.keys
            .iter()
            .filter(|k| wanted.contains(&k.seq))
            .map(|k| (k.seq, codec::date_of(k.day).unwrap_or(FIRST_DAY)))
            .collect()
    }

    /// The events but their rules changes, indexed for the prediction-only replay up to
    /// `stop` as `quick::Log::index` would index them from [`Events::to_effective`], but
    /// with no plain match made (evaluate scores from this alone where it can).
    pub fn quick_log(&self, stop: Option<NaiveDate>) -> Option<quick::Log<'_>> {
        let items = items(&self.keys, &self.others).filter_map(|(date, _, item)| match item {
            Item::Event(Event::Rules { .. }) => None,
            item => Some((date, item)),
        });
        quick::Log::index_items(items, self.keys.len(), stop)
    }

    /// How many `rules` events count.
    pub fn rules_changes(&self) -> usize {
        self.keys
            .iter()
            .filter(|k| k.tag == OTHER && matches!(self.others[k.a as usize], Event::Rules { .. }))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_ladder::event::{Entry, Home, Match, MatchResult};
    use rungs_ladder::rules::{Rules, System};
    use rungs_rating::Outcome;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
    }

    fn join(id: PlayerId, name: &str) -> Event {
        Event::Player {
            id,
            name: rungs_ladder::values::PlayerName::parse(name).unwrap(),
            undated: false,
        }
    }

    /// The index made from the compact events, plain matches not made, is the index made
    /// from every event made (`to_effective`, rules changes taken out, as evaluate took
    /// them), op for op: plain and scored matches, a team match, a rules change, a scenario's
    /// figures, a rename, an edit and a deletion, with a stop and without.
    #[test]
    fn the_compact_index_is_the_index_of_every_event() {
        let win = MatchResult::Played(Outcome::Win);
        let mut scored = Match::new(0, 2, MatchResult::Played(Outcome::Draw));
        scored.home = Some(Home::A);
        scored.goals = Some([1, 1]);
        let adds = [
            (day(1), join(0, "Ann")),
            (day(1), join(1, "Bo")),
            (day(1), join(2, "Cy")),
            (day(2), Event::Match(Match::new(0, 1, win))),
            (day(3), Event::Match(scored)),
            (day(3), Event::Match(Match::new(vec![0, 1], 2, win))),
            (
                day(4),
                Event::Rules {
                    rules: Box::new(Rules::defaults(System::Elo)),
                },
            ),
            (
                day(5),
                Event::Match(Match::new(2, 1, MatchResult::ForfeitA)),
            ),
            (
                day(6),
                Event::Rename {
                    id: 1,
                    name: rungs_ladder::values::PlayerName::parse("Bea").unwrap(),
                },
            ),
            (day(7), Event::Match(Match::new(1, 0, win))),
            (
                day(8),
                Event::Match(Match::new(0, 2, MatchResult::Cancelled)),
            ),
        ];
        let mut rows: Vec<(NaiveDate, Entry)> = adds
            .into_iter()
            .map(|(d, event)| (d, Entry::Add { event }))
            .collect();
        // Row 12 edits the match of row 4 into a loss; row 13 deletes row 11.
        let edit = Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Loss)));
        rows.push((
            day(2),
            Entry::Edit {
                target: 4,
                event: edit,
            },
        ));
        rows.push((day(9), Entry::Delete { target: 11 }));
        let mut builder = Builder::default();
        let mut seq = 1;
        for (n, data) in codec::encode(&rows).unwrap() {
            let mut block = codec::Rows::new(seq, n, &data);
            for row in block.by_ref() {
                builder.push(&row.unwrap(), true).unwrap();
            }
            block.finish().unwrap();
            seq += n;
        }
        let events = builder.finish();
        let effective = events.to_effective();
        let shown = |log: Option<quick::Log<'_>>| {
            let log = log.expect("indexed");
            let ops: Vec<String> = log
                .ops
                .iter()
                .map(|op| {
                    let step = match op.step {
                        quick::Step::Plain(p) => format!("{:?}", p.to_match()),
                        quick::Step::Match(m) => format!("{m:?}"),
                        other => format!("{other:?}"),
                    };
                    format!("{} {} {} {step}", op.date, op.day, op.at)
                })
                .collect();
            (ops, log.players, log.events)
        };
        for stop in [None, Some(day(5)), Some(day(7))] {
            let whole = quick::Log::index(
                rungs_analysis::evaluate::without_rules_changes(
                    effective.iter().map(|e| (e.date, e.seq, &e.event)),
                ),
                stop,
            );
            let compact = shown(events.quick_log(stop));
            assert_eq!(compact, shown(whole), "stop {stop:?}");
        }
        // Nine events count but the rules change (the cancelled match is deleted): three
        // joins, the edited match, the draw at home, the team match, the forfeit, the rename
        // and the last win; the rename moves no rating, so eight ops.
        let (ops, players, counted) = shown(events.quick_log(None));
        assert_eq!((players, counted), (3, 9));
        assert!(ops[3].ends_with("Match { a: One(0), b: One(1), result: Played(Loss), medals: None, scenario: None, side_a: None, home: None, goals: None, class: None, board: None }"), "{}", ops[3]);
        assert_eq!(ops.len(), 8, "{ops:#?}");
    }
}
