//! Box leagues as a pure reading of the log in replay order: each period's boxes, the box
//! matches played in it, the tables under the organiser's points and tie-breaks, who still
//! has to play whom, and the next period's boxes when it closes.
//!
//! A box match is the first match of a pair of one box dated within a period (entered
//! however: the CLI's box result, `add-match`, the app, an import); it rates under the
//! ladder's system like any other. A later match of the same pair, one with a withdrawn
//! player, or one between boxes counts for no box. Unplayed pairs are void (0–0).

use super::box_points::{BoxMatch, Share, Tally, TieValue, order, shares};
use super::refusal::Refusal;
use super::settings::{BoxPeriodRecord, BoxSettings, PlayerId, TieBreak};
use crate::event::Event;
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A period as it stands: its record, newcomers added to their boxes, withdrawals, and the
/// box matches counted, by pair (lower id first).
#[derive(Debug, Clone, PartialEq)]
pub struct Period {
    pub record: BoxPeriodRecord,
    pub withdrawn: BTreeSet<PlayerId>,
    pub results: BTreeMap<(PlayerId, PlayerId), (NaiveDate, BoxMatch)>,
    box_of: HashMap<PlayerId, usize>,
}

/// One row of a box table.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxRow {
    /// From 1.
    pub place: u32,
    pub player: PlayerId,
    pub tally: Tally,
    /// Each tie-break's value, in the table's `tie_breaks` order.
    pub tie_values: Vec<Option<TieValue>>,
}

/// A box's table.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxTable {
    /// From 1, the top box first.
    pub number: u32,
    pub tie_breaks: Vec<TieBreak>,
    pub rows: Vec<BoxRow>,
    /// Players who withdrew for the period, in join order.
    pub withdrawn: Vec<PlayerId>,
}

/// Pairs of a box still to play, lower id first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StillToPlay {
    pub number: u32,
    pub pairs: Vec<(PlayerId, PlayerId)>,
}

/// Where a player goes at a period's close.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    Up,
    Stay,
    Down,
    /// Played fewer than the minimum, or retired: out of the next period's boxes.
    Out,
}

/// The next period worked out: its record and each player's move.
#[derive(Debug, Clone, PartialEq)]
pub struct NextPeriod {
    pub record: BoxPeriodRecord,
    /// Each player of the closing period: their box (from 1), and their move.
    pub moves: Vec<(PlayerId, u32, Move)>,
}

/// The box league read from the log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoxLeague {
    pub periods: Vec<Period>,
    retired: BTreeSet<PlayerId>,
}

/// Fills boxes of `size` from `order`, top box first. When `size` does not divide the count,
/// a remainder of one joins the last box (one larger); otherwise one box more, the players
/// shared out so that the bottom boxes hold one fewer (a remainder of `size − 1`: the last box
/// alone).
pub fn fill_boxes(order: &[PlayerId], size: u32) -> Vec<Vec<PlayerId>> {
    let size = size.max(1) as usize;
    let n = order.len();
    if n == 0 {
        return Vec::new();
    }
    let (q, r) = (n / size, n % size);
    let sizes: Vec<usize> = if r == 0 {
        vec![size; q]
    } else if r == 1 && q >= 1 {
        let mut s = vec![size; q];
        s[q - 1] += 1;
        s
    } else {
        // As few boxes as hold everyone, the top ones a player larger than the bottom ones.
        let boxes = q + 1;
        let (base, extra) = (n / boxes, n % boxes);
        (0..boxes).map(|i| base + usize::from(i < extra)).collect()
    };
    let mut out = Vec::with_capacity(sizes.len());
    let mut at = 0;
    for s in sizes {
        out.push(order[at..at + s].to_vec());
        at += s;
    }
    out
}

fn pair(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    (a.min(b), a.max(b))
}

impl Period {
    fn new(record: BoxPeriodRecord) -> Period {
        let mut box_of = HashMap::new();
        for (i, b) in record.boxes.iter().enumerate() {
            for p in b {
                box_of.entry(*p).or_insert(i);
            }
        }
        Period {
            record,
            withdrawn: BTreeSet::new(),
            results: BTreeMap::new(),
            box_of,
        }
    }

    /// The player's box (from 0), if they are in one and have not withdrawn.
    pub fn box_index(&self, player: PlayerId) -> Option<usize> {
        (!self.withdrawn.contains(&player))
            .then(|| self.box_of.get(&player).copied())
            .flatten()
    }

    /// Whether a match between `a` and `b` on `date` may be entered as a box match.
    pub fn check_result(&self, a: PlayerId, b: PlayerId, date: NaiveDate) -> Result<(), Refusal> {
        let ia = self.box_index(a).ok_or(Refusal::NotInABox { player: a })?;
        let ib = self.box_index(b).ok_or(Refusal::NotInABox { player: b })?;
        if ia != ib {
            return Err(Refusal::DifferentBoxes {
                a,
                a_box: ia as u32 + 1,
                b,
                b_box: ib as u32 + 1,
            });
        }
        if a == b {
            return Err(Refusal::PlaysSelf { player: a });
        }
        if date < self.record.start || date > self.record.end {
            return Err(Refusal::OutsidePeriod {
                date,
                start: self.record.start,
                end: self.record.end,
            });
        }
        if self.results.contains_key(&pair(a, b)) {
            return Err(Refusal::AlreadyPlayed { a, b });
        }
        Ok(())
    }

    fn read_match(&mut self, date: NaiveDate, m: BoxMatch) {
        if self.check_result(m.a, m.b, date).is_ok() {
            self.results.insert(pair(m.a, m.b), (date, m));
        }
    }

    /// The share `p` took from their box match with `q`.
    fn share(&self, p: PlayerId, q: PlayerId) -> Option<Share> {
        let (_, m) = self.results.get(&pair(p, q))?;
        let s = &self.record.settings;
        let [sa, sb] = shares(&s.points, s.walkover, m)?;
        Some(if m.a == p { sa } else { sb })
    }

    fn tallies(&self) -> HashMap<PlayerId, Tally> {
        let mut t: HashMap<PlayerId, Tally> = HashMap::new();
        let s = &self.record.settings;
        for (_, m) in self.results.values() {
            if self.withdrawn.contains(&m.a) || self.withdrawn.contains(&m.b) {
                continue;
            }
            if let Some([sa, sb]) = shares(&s.points, s.walkover, m) {
                t.entry(m.a).or_default().add(&sa);
                t.entry(m.b).or_default().add(&sb);
            }
        }
        t
    }

    /// Each box's players still in it (not withdrawn), in join order.
    fn members(&self, i: usize) -> Vec<PlayerId> {
        let mut v: Vec<PlayerId> = self.record.boxes[i]
            .iter()
            .copied()
            .filter(|p| !self.withdrawn.contains(p))
            .collect();
        v.sort_unstable();
        v
    }

    /// The box tables, top box first; `rating` gives the ladder's rating for the rating
    /// tie-break.
    pub fn tables(&self, rating: &dyn Fn(PlayerId) -> Option<f64>) -> Vec<BoxTable> {
        let tallies = self.tallies();
        let rules = &self.record.settings.tie_breaks;
        let between = |p, q| self.share(p, q);
        (0..self.record.boxes.len())
            .map(|i| {
                let ordered = order(&self.members(i), &tallies, &between, rules, rating);
                let rows = ordered
                    .players
                    .iter()
                    .zip(ordered.values)
                    .enumerate()
                    .map(|(k, (p, tie_values))| BoxRow {
                        place: k as u32 + 1,
                        player: *p,
                        tally: tallies.get(p).copied().unwrap_or_default(),
                        tie_values,
                    })
                    .collect();
                let mut withdrawn: Vec<PlayerId> = self.record.boxes[i]
                    .iter()
                    .copied()
                    .filter(|p| self.withdrawn.contains(p))
                    .collect();
                withdrawn.sort_unstable();
                BoxTable {
                    number: i as u32 + 1,
                    tie_breaks: rules.clone(),
                    rows,
                    withdrawn,
                }
            })
            .collect()
    }

    /// Who still has to play whom, box by box.
    pub fn still_to_play(&self) -> Vec<StillToPlay> {
        (0..self.record.boxes.len())
            .map(|i| {
                let m = self.members(i);
                let mut pairs = Vec::new();
                for (k, a) in m.iter().enumerate() {
                    for b in &m[k + 1..] {
                        if !self.results.contains_key(&pair(*a, *b)) {
                            pairs.push((*a, *b));
                        }
                    }
                }
                StillToPlay {
                    number: i as u32 + 1,
                    pairs,
                }
            })
            .collect()
    }
}

impl BoxLeague {
    /// The league from the log's events in replay order.
    pub fn from_log<'a>(events: impl IntoIterator<Item = (NaiveDate, &'a Event)>) -> BoxLeague {
        let mut league = BoxLeague::default();
        for (date, event) in events {
            league.read(date, event);
        }
        league
    }

    /// Reads one event on `date`; events come in replay order.
    pub fn read(&mut self, date: NaiveDate, event: &Event) {
        match event {
            Event::BoxPeriod { period } => self.periods.push(Period::new((**period).clone())),
            Event::Retire { id, retired } => {
                if *retired {
                    self.retired.insert(*id);
                } else {
                    self.retired.remove(id);
                }
            }
            Event::BoxWithdraw { player, withdrawn } => {
                if let Some(p) = self.periods.last_mut() {
                    if *withdrawn {
                        p.withdrawn.insert(*player);
                    } else {
                        p.withdrawn.remove(player);
                    }
                }
            }
            Event::BoxJoin { player, index } => {
                if let Some(p) = self.periods.last_mut()
                    && !p.box_of.contains_key(player)
                    && !p.record.boxes.is_empty()
                {
                    let i = (*index as usize).min(p.record.boxes.len() - 1);
                    // A box takes newcomers up to twice its size (a log written by hand may
                    // hold more joins; the pairs still to play stay within reach).
                    if p.record.boxes[i].len() >= 2 * p.record.settings.box_size.max(1) as usize {
                        return;
                    }
                    p.record.boxes[i].push(*player);
                    p.box_of.insert(*player, i);
                }
            }
            Event::Match(m) => {
                for id in m.a.iter().chain(m.b.iter()) {
                    self.retired.remove(id);
                }
                // The period whose days hold the match: a late result of a closed period
                // still counts for it.
                let held = self
                    .periods
                    .iter_mut()
                    .rev()
                    .find(|p| p.record.start <= date && date <= p.record.end);
                if let (Some(p), [a], [b]) = (held, &m.a[..], &m.b[..]) {
                    p.read_match(
                        date,
                        BoxMatch {
                            a: *a,
                            b: *b,
                            result: m.result,
                            games: m.goals,
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// The period under way (the last the log holds).
    pub fn current(&self) -> Option<&Period> {
        self.periods.last()
    }

    /// The tables of the period under way.
    pub fn tables(&self, rating: &dyn Fn(PlayerId) -> Option<f64>) -> Vec<BoxTable> {
        self.current().map(|p| p.tables(rating)).unwrap_or_default()
    }

    /// Who still has to play whom in the period under way.
    pub fn still_to_play(&self) -> Vec<StillToPlay> {
        self.current()
            .map(Period::still_to_play)
            .unwrap_or_default()
    }

    /// The period after the current one closes, from `start` to `end` under `settings`
    /// (the current period's when none): the top `up` of each box (among those who played
    /// the minimum) go up one box, the bottom `down` go down one, players under the minimum
    /// and retired players leave, and withdrawn players keep their box; then the boxes are
    /// filled again from that order.
    pub fn next_period(
        &self,
        rating: &dyn Fn(PlayerId) -> Option<f64>,
        start: NaiveDate,
        end: NaiveDate,
        settings: Option<&BoxSettings>,
    ) -> Result<NextPeriod, Refusal> {
        let current = self.current().ok_or(Refusal::NoBoxPeriod)?;
        let rules = &current.record.settings;
        let tables = current.tables(rating);
        let last = tables.len().saturating_sub(1);
        // (target box, tier: from above 0, staying 1, from below 2, place) for each player.
        let mut placed: Vec<(usize, u8, u32, PlayerId)> = Vec::new();
        let mut moves = Vec::new();
        for (i, t) in tables.iter().enumerate() {
            let number = t.number;
            let mut eligible = Vec::new();
            for row in &t.rows {
                let short = rules.min_matches.is_some_and(|m| row.tally.played < m);
                if short || self.retired.contains(&row.player) {
                    moves.push((row.player, number, Move::Out));
                } else {
                    eligible.push(row.player);
                }
            }
            let n = eligible.len();
            let up = if i > 0 { (rules.up as usize).min(n) } else { 0 };
            let down = if i < last {
                (rules.down as usize).min(n - up)
            } else {
                0
            };
            for (k, p) in eligible.iter().enumerate() {
                let (target, tier, how) = if k < up {
                    (i - 1, 2, Move::Up)
                } else if k >= n - down {
                    (i + 1, 0, Move::Down)
                } else {
                    (i, 1, Move::Stay)
                };
                placed.push((target, tier, k as u32, *p));
                moves.push((*p, number, how));
            }
            for (k, p) in t.withdrawn.iter().enumerate() {
                if self.retired.contains(p) {
                    moves.push((*p, number, Move::Out));
                } else {
                    placed.push((i, 1, (n + k) as u32, *p));
                    moves.push((*p, number, Move::Stay));
                }
            }
        }
        placed.sort_unstable();
        let order: Vec<PlayerId> = placed.iter().map(|x| x.3).collect();
        let settings = settings.unwrap_or(rules).clone();
        let boxes = fill_boxes(&order, settings.box_size);
        Ok(NextPeriod {
            record: BoxPeriodRecord {
                number: current.record.number.saturating_add(1),
                start,
                end,
                settings,
                boxes,
            },
            moves,
        })
    }
}
