//! Hover read-outs: the history row under the cursor, in one line.

use super::markers::MarkerKind;
use super::series::{PlayerSeries, RowKind, score_axis};
use super::x::Key;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::rules::System;
use rungs_ladder::state::{Figures, HistoryRow};

/// Says what a history row's event was for its player (e.g. from [`describe_event`]).
pub type Describe<'a> = &'a dyn Fn(&HistoryRow) -> Option<String>;

/// The event at `key` in `events` (in replay order).
pub fn event_at(events: &[Effective], key: Key) -> Option<&Event> {
    let i = events.partition_point(|e| (e.date, e.seq) < key);
    events
        .get(i)
        .filter(|e| (e.date, e.seq) == key)
        .map(|e| &e.event)
}

/// What `event` was for `player`, e.g. "beat Bo Chen", "lost to Bo + Cy (with Di)",
/// "soft reset"; `None` for a match `player` did not play in.
pub fn describe_event(
    event: &Event,
    player: PlayerId,
    name: &dyn Fn(PlayerId) -> String,
) -> Option<String> {
    let m = match event {
        Event::Match(m) => m,
        Event::Player { .. } => return Some("joined".into()),
        Event::Rename { name, .. } => return Some(format!("renamed to {name}")),
        Event::Retire { retired: true, .. } => return Some("retired".into()),
        Event::Retire { retired: false, .. } => return Some("came back".into()),
        Event::SoftReset => return Some("soft reset".into()),
        Event::HardReset => return Some("hard reset".into()),
        Event::DueResets => return Some("the season calendar's due resets".into()),
        Event::Migration { .. } => return Some("migration".into()),
        Event::Rules { rules } => return Some(format!("rules: {}", rules.system())),
        Event::Scenario { .. } => return Some("scenario figures".into()),
        Event::Round { round } => return Some(format!("round {}", round.number)),
        Event::PairRule { .. } => return Some("pairing rule".into()),
        Event::ChallengeLadder { .. } | Event::Challenge { .. } | Event::ChallengePlace { .. } => {
            return Some("challenge ladder".into());
        }
        Event::BoxPeriod { .. } | Event::BoxWithdraw { .. } | Event::BoxJoin { .. } => {
            return Some("box league".into());
        }
    };
    let (own, other, on_a) = if m.a.contains(&player) {
        (&m.a, &m.b, true)
    } else if m.b.contains(&player) {
        (&m.b, &m.a, false)
    } else {
        return None;
    };
    let names = |ids: &[PlayerId]| ids.iter().map(|&i| name(i)).collect::<Vec<_>>().join(" + ");
    let them = names(other);
    let result = if on_a { m.result } else { m.result.flipped() };
    let verb = format!("{} {them}", result.verb());
    let mates: Vec<PlayerId> = own.iter().copied().filter(|&i| i != player).collect();
    if mates.is_empty() {
        Some(verb)
    } else {
        Some(format!("{verb} (with {})", names(&mates)))
    }
}

/// A row's figures as the standings show them: "RP 1412 (+9) · r 1876 ± 62" (± RD),
/// "rank 16 (+2) · μ 25.3, σ 8.1", "rating 1516 (+16)". The change is from
/// `previous_score` when given.
pub fn figures_text(system: System, f: &Figures, previous_score: Option<f64>) -> String {
    let change = previous_score
        .map(|p| format!(" ({})", signed(f.score - p)))
        .unwrap_or_default();
    let score = format!("{} {}{change}", score_axis(system), whole(f.score));
    match system {
        System::Skyweaver | System::Inversus => {
            format!("{score} · r {} ± {}", whole(f.rating), whole(f.deviation))
        }
        System::Allegskill => format!(
            "{score} · μ {}, σ {}",
            tenths(f.rating),
            tenths(f.deviation)
        ),
        System::Memoir44 | System::Elo => score,
        System::Goals => format!("{score} ± {}", whole(f.deviation)),
    }
}

fn whole(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.0}")
    } else {
        "—".into()
    }
}

fn tenths(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else {
        "—".into()
    }
}

/// +9, −4, ±0 (rounded as the score is shown).
pub fn signed(d: f64) -> String {
    if !d.is_finite() {
        return "—".into();
    }
    let r = d.round();
    if r > 0.0 {
        format!("+{r:.0}")
    } else if r < 0.0 {
        format!("−{:.0}", -r)
    } else {
        "±0".into()
    }
}

fn kind_text(kind: RowKind) -> String {
    match kind {
        RowKind::Join => "joined".into(),
        RowKind::Match => "match".into(),
        RowKind::Marked(MarkerKind::SoftReset) => "soft reset".into(),
        RowKind::Marked(MarkerKind::HardReset) => "hard reset".into(),
        RowKind::Marked(MarkerKind::Migration) => "migration".into(),
        RowKind::Marked(MarkerKind::Rules { system, .. }) => format!("rules: {system}"),
    }
}

impl PlayerSeries {
    /// One line for row `i` of [`PlayerSeries::points`]: "2026-11-20 · event 812 · beat Bo
    /// Chen · RP 1412 (+9) · r 1876 ± 62". `describe` names what the event was for this
    /// player (see [`describe_event`]); without it, the row's kind is said instead.
    pub fn readout(&self, i: usize, describe: Option<Describe<'_>>) -> Option<String> {
        let p = self.points.get(i)?;
        let previous = i
            .checked_sub(1)
            .and_then(|j| self.points.get(j))
            .filter(|q| q.system == p.system)
            .map(|q| q.row.figures.score);
        let what = describe
            .and_then(|d| d(&p.row))
            .unwrap_or_else(|| kind_text(p.kind));
        let event = match (p.kind, p.row.seq) {
            (RowKind::Marked(_), rungs_ladder::calendar::SCHEDULED_SEQ) => "by the calendar".into(),
            (_, seq) => format!("event {seq}"),
        };
        let mut parts = vec![p.row.date.to_string(), event];
        parts.push(what);
        parts.push(figures_text(p.system, &p.row.figures, previous));
        Some(parts.join(" · "))
    }

    /// [`PlayerSeries::readout`] of the row nearest to `x`.
    pub fn readout_at(&self, x: f64, describe: Option<Describe<'_>>) -> Option<String> {
        self.readout(self.nearest(x)?, describe)
    }
}
