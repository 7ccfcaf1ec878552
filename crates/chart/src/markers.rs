//! Vertical markers (resets, migrations, rules changes) and horizontal tier lines.

use super::x::{Key, date_x};
use chrono::NaiveDate;
use rungs_ladder::calendar::SCHEDULED_SEQ;
use rungs_ladder::event::Event;
use rungs_ladder::log::Effective;
use rungs_ladder::rules::{Rules, System};
use rungs_ladder::seasons;
use rungs_ladder::skyweaver::Tier;

/// What a marker marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    SoftReset,
    HardReset,
    Migration,
    /// A `rules` event: the system from then on, and whether it differs from the one before
    /// (otherwise only parameters changed).
    Rules {
        system: System,
        system_changed: bool,
    },
}

/// A labelled vertical line at an event of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// x in date mode ([`super::x::date_x`] of `date`).
    pub x_date: f64,
    pub date: NaiveDate,
    pub seq: u64,
    pub kind: MarkerKind,
    /// E.g. "soft reset (season 1, week 2 ends)", "rules: skyweaver → inversus".
    pub label: String,
    /// A reset by the season calendar (at sequence number [`SCHEDULED_SEQ`]), not an event
    /// of the log.
    pub scheduled: bool,
}

impl Marker {
    pub fn key(&self) -> Key {
        (self.date, self.seq)
    }
}

/// What the charts need to know about a log, gathered in one pass and small enough to keep:
/// its markers and the rules in force at every point. Every history row that is not a join
/// or a match comes from a marked event, which is how a player's rows are told apart
/// without the log itself.
#[derive(Debug, Clone, PartialEq)]
pub struct LogIndex {
    markers: Vec<Marker>,
    /// Rules from each key on, the initial rules first (at no key).
    rules: Vec<(Option<Key>, Rules)>,
}

impl LogIndex {
    /// Scans `events` (in replay order) once. The season calendar's resets are marked where
    /// replay applies them: those due between two events, as the second one is reached.
    pub fn new(initial: &Rules, events: &[Effective]) -> LogIndex {
        let mut rules = vec![(None, initial.clone())];
        let mut markers = Vec::new();
        let (mut season, mut week) = (1u32, 1u32);
        let scheduled = seasons::scheduled_resets(initial, events);
        let mut due = scheduled.iter().peekable();
        for (i, e) in events.iter().enumerate() {
            while let Some((_, reset)) = due.next_if(|(before, _)| *before == i) {
                let mut mark = |kind, label: String| {
                    markers.push(Marker {
                        x_date: date_x(reset.date),
                        date: reset.date,
                        seq: SCHEDULED_SEQ,
                        kind,
                        label: label + " by the calendar",
                        scheduled: true,
                    })
                };
                let label = format!("soft reset (season {season}, week {week} ends)");
                mark(MarkerKind::SoftReset, label);
                week += 1;
                if reset.hard {
                    mark(
                        MarkerKind::HardReset,
                        format!("hard reset (season {season} ends)"),
                    );
                    season += 1;
                    week = 1;
                }
            }
            let (kind, label) = match &e.event {
                Event::SoftReset => {
                    let label = format!("soft reset (season {season}, week {week} ends)");
                    week += 1;
                    (MarkerKind::SoftReset, label)
                }
                Event::HardReset => {
                    let label = format!("hard reset (season {season} ends)");
                    season += 1;
                    week = 1;
                    (MarkerKind::HardReset, label)
                }
                Event::Migration { migration } => {
                    let n = migration.entries.len();
                    let label = format!("migration ({n} player{})", plural(n));
                    (MarkerKind::Migration, label)
                }
                Event::Rules { rules: new } => {
                    let old = rules.last().map_or(initial, |(_, r)| r);
                    let kind = MarkerKind::Rules {
                        system: new.system(),
                        system_changed: new.system() != old.system(),
                    };
                    let label = rules_label(old, new);
                    rules.push((Some((e.date, e.seq)), (**new).clone()));
                    (kind, label)
                }
                _ => continue,
            };
            markers.push(Marker {
                x_date: date_x(e.date),
                date: e.date,
                seq: e.seq,
                kind,
                label,
                scheduled: false,
            });
        }
        LogIndex { markers, rules }
    }

    /// Every marker, in replay order.
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// The marker of the event at `key`, if that event is marked (of a scheduled soft and
    /// hard reset on one day, the soft one: see [`LogIndex::markers_at`]).
    pub fn marker_at(&self, key: Key) -> Option<&Marker> {
        self.markers_at(key).first()
    }

    /// Every marker at `key`: one for an event; two for a day the season calendar ends both
    /// a week and a season (soft, then hard, as their history rows come).
    pub fn markers_at(&self, key: Key) -> &[Marker] {
        let i = self.markers.partition_point(|m| m.key() < key);
        let n = self.markers[i..].partition_point(|m| m.key() == key);
        &self.markers[i..i + n]
    }

    /// The rules in force once the event at `key` has applied (a `rules` event's own rows
    /// are in its new system).
    pub fn rules_at(&self, key: Key) -> &Rules {
        let i = self
            .rules
            .partition_point(|(k, _)| k.is_none_or(|k| k <= key));
        let (_, rules) = &self.rules[i.saturating_sub(1)];
        rules
    }

    /// The rules the ladder started with.
    pub fn initial_rules(&self) -> &Rules {
        &self.rules[0].1
    }
}

/// The markers of `events` (in replay order) for a ladder that started under `initial`.
pub fn markers(initial: &Rules, events: &[Effective]) -> Vec<Marker> {
    LogIndex::new(initial, events).markers
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// "rules: skyweaver → inversus", or the parameters that changed: "rules (elo): k 32 → 16".
fn rules_label(old: &Rules, new: &Rules) -> String {
    if old.system() != new.system() {
        return format!("rules: {} → {}", old.system(), new.system());
    }
    let mut changes: Vec<String> = new
        .param_values()
        .into_iter()
        .filter(|(p, v)| old.param(p.name) != Some(*v))
        .map(|(p, v)| {
            let was = old
                .param(p.name)
                .map_or("—".to_string(), |x| p.value_text(x));
            format!("{} {was} → {}", p.name, p.value_text(v))
        })
        .collect();
    if changes.is_empty() {
        return format!("rules ({}): unchanged", new.system());
    }
    if changes.len() > 3 {
        let more = changes.len() - 3;
        changes.truncate(3);
        changes.push(format!("{more} more"));
    }
    format!("rules ({}): {}", new.system(), changes.join(", "))
}

/// Each tier's colour as red, green, blue: greys and greens low, blues and purples high, gold
/// at the top (the app's badges and the published pages use the same).
pub fn tier_rgb(tier: Tier) -> [u8; 3] {
    match tier {
        Tier::Wanderer => [140, 140, 140],
        Tier::TraineeI | Tier::TraineeII | Tier::TraineeIII => [120, 170, 110],
        Tier::ApprenticeI | Tier::ApprenticeII | Tier::ApprenticeIII => [80, 160, 200],
        Tier::ExpertI | Tier::ExpertII | Tier::ExpertIII => [120, 110, 220],
        Tier::Master => [200, 90, 200],
        Tier::Grandweaver => [230, 180, 40],
    }
}

/// A tier's badge glyph: hollow low, filled higher, a diamond at the top.
pub fn tier_glyph(tier: Tier) -> &'static str {
    match tier {
        Tier::Wanderer => "○",
        Tier::TraineeI | Tier::TraineeII | Tier::TraineeIII => "◔",
        Tier::ApprenticeI | Tier::ApprenticeII | Tier::ApprenticeIII => "◑",
        Tier::ExpertI | Tier::ExpertII | Tier::ExpertIII => "◕",
        Tier::Master => "●",
        Tier::Grandweaver => "◆",
    }
}

/// A labelled horizontal line on the score plot where a tier begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TierLine {
    pub value: f64,
    pub tier: Tier,
    pub label: &'static str,
}

/// The tier minima of the ladder's system, lowest first: Skyweaver's tier minimums (Table 1's
/// Wanderer 200 … Master 1200 unless the ladder cut its own; Grandweaver is the top N
/// Masters, not a line of its own). INVERSUS shows
/// bare Rank Points and the other systems have no tiers: no lines.
pub fn tier_lines(rules: &Rules) -> Vec<TierLine> {
    let table = rules.tier_table();
    match rules.facts().tiers {
        true => Tier::ALL
            .iter()
            .filter(|t| **t != Tier::Grandweaver)
            .map(|&tier| TierLine {
                value: table.min_rp(tier),
                tier,
                label: tier.name(),
            })
            .collect(),
        false => Vec::new(),
    }
}
