//! "Why did this move?": for one event and each player it changed, the derivation of the
//! change in the rating system's own terms (Skyweaver's E, g(RD), d², Δr, F, B, A, rounding,
//! floor and tier; Glicko-2's v, Δ, the volatility search and the bounds; TrueSkill's t, v, w
//! and the draw margin; Memoir '44's ratio, averages, bonus and zero-sum share; INVERSUS's
//! target, half-way step and cap; the goals model's rates; Elo's E and K), with the idle time
//! and the season calendar's due resets applied first. Pure: the log in, the explanation out.
//!
//! The log is replayed to just before the event with the ladder's own replay, and the event's
//! update is worked out by the functions the replay calls (`rungs_ladder::explained`), each
//! handing its figures to a trace; the event is then applied as the replay applies it, and
//! the figures before and after are the ones the history shows.

use chrono::NaiveDate;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::explained::{MatchChange, match_explained};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::{Params, Rules};
use rungs_ladder::seasons;
use rungs_ladder::state::{Figures, HistoryRow};
use rungs_rating::trace::{Section, Step};
use serde::Serialize;

/// An event's explanation: for each player it changed, how.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub seq: u64,
    pub date: NaiveDate,
    /// What kind of event it is ("match", "soft reset", …).
    pub event: &'static str,
    /// The rating system that rated it ("skyweaver", …).
    pub system: &'static str,
    pub players: Vec<PlayerChange>,
}

/// One player's change at the event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayerChange {
    pub player: PlayerId,
    /// Their name at the event.
    pub name: String,
    /// Their figures just before the event (before its due resets), as the history shows
    /// them; `None` for a player joining at it.
    pub before: Option<Figures>,
    /// Their figures after it: the history row the event wrote for them.
    pub after: Figures,
    /// The derivation, in order.
    pub sections: Vec<Section>,
    /// The skill and Rank Points the derivation arrived at (a match the player was rated in).
    #[serde(skip)]
    pub worked_out: Option<MatchChange>,
}

/// Why there is nothing to explain. Players are named.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExplainError {
    #[error("there is no event {seq}")]
    NoEvent { seq: u64 },
    #[error("event {seq} did not change {name}")]
    NotChanged { seq: u64, name: String },
    #[error("{0}")]
    Replay(#[from] ReplayError),
}

/// The explanation of event `seq` of `events` (the log in replay order, rated from
/// `rules`), for `player` or, without one, for every player the event changed.
pub fn explain(
    rules: &Rules,
    events: &[Effective],
    seq: u64,
    player: Option<PlayerId>,
) -> Result<Explanation, ExplainError> {
    let i = events
        .iter()
        .position(|e| e.seq == seq)
        .ok_or(ExplainError::NoEvent { seq })?;
    let event = &events[i];
    let before = rungs_ladder::replay::replay_state(
        rules,
        events[..i].iter().map(|e| (e.date, e.seq, &e.event)),
    )?;
    // The ladder as the event finds it: its due resets applied first (as `Ladder::apply`
    // runs them), their rows kept to show.
    let mut at = before.clone();
    at.keep_goals_pool();
    let (mut reset_rows, mut marks) = (Vec::new(), Vec::new());
    seasons::catch_up_marked(&mut at, event.date, &mut reset_rows, Some(&mut marks));
    // Each reset row with whether a hard reset wrote it.
    let hard: Vec<bool> = (0..reset_rows.len())
        .map(|i| marks.iter().rev().find(|m| m.0 <= i).is_some_and(|m| m.1))
        .collect();
    let mut after = at.clone();
    let mut rows = Vec::new();
    after.apply(event.date, event.seq, &event.event, &mut rows)?;
    let changed: Vec<PlayerId> = match player {
        Some(id) => vec![id],
        None => {
            let mut ids: Vec<PlayerId> = reset_rows.iter().chain(&rows).map(|r| r.player).collect();
            ids.sort_unstable();
            ids.dedup();
            // A match's players in the order it names them, then anyone else.
            if let Event::Match(m) = &event.event {
                let named: Vec<PlayerId> = m.a.iter().chain(m.b.iter()).copied().collect();
                ids.sort_by_key(|id| named.iter().position(|n| n == id).unwrap_or(usize::MAX));
            }
            ids
        }
    };
    let mut players = Vec::with_capacity(changed.len());
    for id in changed {
        let name = after
            .player(id)
            .map_or_else(|| format!("player #{id}"), |p| p.name.clone());
        let row = rows
            .iter()
            .chain(reset_rows.iter().rev())
            .find(|r| r.player == id)
            .ok_or_else(|| ExplainError::NotChanged {
                seq,
                name: name.clone(),
            })?;
        players.push(player_change(
            &before,
            &at,
            event,
            id,
            name,
            row.figures,
            (&reset_rows, &hard),
        ));
    }
    Ok(Explanation {
        seq,
        date: event.date,
        event: kind(&event.event),
        system: before.rules.system().name(),
        players,
    })
}

fn player_change(
    before: &Ladder,
    at: &Ladder,
    event: &Effective,
    id: PlayerId,
    name: String,
    after: Figures,
    (reset_rows, hard): (&[HistoryRow], &[bool]),
) -> PlayerChange {
    let figures_before = before
        .player(id)
        .filter(|p| p.joined)
        .map(|p| p.figures_at(before.centre()));
    let mut sections: Vec<Section> = Vec::new();
    let resets: Vec<(&HistoryRow, bool)> = reset_rows
        .iter()
        .zip(hard.iter().copied())
        .filter(|(r, _)| r.player == id)
        .collect();
    if !resets.is_empty() {
        sections.push(resets_section(at, figures_before, &resets));
    }
    let mut worked_out = None;
    match &event.event {
        Event::Match(m) => {
            let mut traced: Vec<Section> = Vec::new();
            worked_out = match_explained(at, event.date, m, id, &mut traced);
            sections.extend(traced.into_iter().filter(|s| !s.steps.is_empty()));
        }
        other => {
            let going_in = at
                .player(id)
                .filter(|p| p.joined)
                .map(|p| p.figures_at(at.centre()));
            sections.push(other_event_section(other, going_in, &after));
        }
    }
    sections.push(shown_section(at, figures_before, &after));
    PlayerChange {
        player: id,
        name,
        before: figures_before,
        after,
        sections,
        worked_out,
    }
}

/// What each kind of event is called in an explanation.
fn kind(event: &Event) -> &'static str {
    match event {
        Event::Player { .. } => "join",
        Event::Rename { .. } => "rename",
        Event::Retire { .. } => "retirement",
        Event::Match(_) => "match",
        Event::SoftReset => "soft reset",
        Event::HardReset => "hard reset",
        Event::Rules { .. } => "rules change",
        Event::DueResets => "due resets",
        Event::Migration { .. } => "migration",
        Event::Scenario { .. } => "scenario figures",
        Event::Round { .. } => "round",
        Event::PairRule { .. } => "pairing rule",
        Event::ChallengeLadder { .. } => "challenge ladder rules",
        Event::Challenge { .. } => "challenge",
        Event::ChallengePlace { .. } => "challenge ladder place",
        Event::BoxPeriod { .. } => "box period",
        Event::BoxWithdraw { .. } => "box withdrawal",
        Event::BoxJoin { .. } => "box entry",
    }
}

fn step(symbol: &'static str, name: String, formula: &'static str, value: f64) -> Step {
    Step {
        name: name.into(),
        symbol: symbol.into(),
        value,
        formula: formula.into(),
    }
}

/// The season calendar's resets that fell since the previous event, as they changed the
/// player (each reset's row).
fn resets_section(
    at: &Ladder,
    mut going: Option<Figures>,
    rows: &[(&HistoryRow, bool)],
) -> Section {
    let mut steps = Vec::new();
    for &(row, hard) in rows {
        let what = if hard { "hard reset" } else { "soft reset" };
        let (rating_formula, deviation_formula, score_formula) = match at.rules.params {
            Params::Skyweaver(_) if hard => (
                "r' = 1500 + (r − r_lo)/(r_hi − r_lo)·span",
                "RD' = RD_init",
                "RP' = Table 1's reset value for the season's highest tier",
            ),
            Params::Skyweaver(_) => (
                "r",
                "RD' = min(√(RD² + c²t), RD_init), t = the calendar weeks it closes",
                "RP' = min(RP, 1300) at Master, min(RP, 1400) as Grandweaver",
            ),
            _ => (
                "the system's reset",
                "the system's reset",
                "the system's reset",
            ),
        };
        let f = row.figures;
        let moved = |x: f64, y: Option<f64>| y.is_none_or(|y| x.to_bits() != y.to_bits());
        if moved(f.rating, going.map(|g| g.rating)) {
            steps.push(step(
                "r",
                format!("rating after the {what} of {}", row.date),
                rating_formula,
                f.rating,
            ));
        }
        if moved(f.deviation, going.map(|g| g.deviation)) {
            steps.push(step(
                "RD",
                format!("deviation after the {what} of {}", row.date),
                deviation_formula,
                f.deviation,
            ));
        }
        if moved(f.score, going.map(|g| g.score)) {
            steps.push(step(
                "score",
                format!("score after the {what} of {}", row.date),
                score_formula,
                f.score,
            ));
        }
        going = Some(f);
    }
    Section {
        title: "Season calendar: resets due before the event".into(),
        steps,
    }
}

/// An event other than a match: what it set.
fn other_event_section(event: &Event, going: Option<Figures>, after: &Figures) -> Section {
    let formula = match event {
        Event::Player { .. } => "a newcomer starts at the system's initial figures",
        Event::SoftReset => {
            "the soft reset: RD grows one rating period; Master and Grandweaver RP capped"
        }
        Event::HardReset => {
            "the hard reset: MMR rescaled, RD to its ceiling, RP to Table 1's reset value"
        }
        Event::Rules { .. } => "a rules change: each rating keeps its place on the 1500 scale",
        Event::Migration { .. } => "the Elo list's rank and rating set the new figures (Table 2)",
        _ => "as the event sets it",
    };
    let mut steps = Vec::new();
    if let Some(g) = going {
        steps.push(step("score", "score going in".into(), "score", g.score));
    }
    steps.push(step(
        "rating'",
        "rating after the event".into(),
        formula,
        after.rating,
    ));
    steps.push(step(
        "deviation'",
        "deviation after the event".into(),
        formula,
        after.deviation,
    ));
    steps.push(step(
        "score'",
        "score after the event".into(),
        formula,
        after.score,
    ));
    Section {
        title: "The event".into(),
        steps,
    }
}

/// The figures the standings and history show, before and after, and the change.
fn shown_section(at: &Ladder, before: Option<Figures>, after: &Figures) -> Section {
    let (score, rating, deviation) = match at.rules.params {
        Params::Skyweaver(_) => ("RP", "MMR r", "RD"),
        Params::Inversus(_) => ("RP", "rating", "RD"),
        Params::Allegskill(_) => ("rank", "μ", "σ"),
        Params::Goals(_) => ("rating", "rating", "deviation"),
        Params::Elo(_) | Params::Memoir44(_) => ("rating", "rating", "deviation"),
    };
    let mut steps = Vec::new();
    let mut push = |symbol: &'static str, name: &str, b: Option<f64>, a: f64| {
        if let Some(b) = b {
            steps.push(step(
                symbol,
                format!("{name} before"),
                "as the history shows it",
                b,
            ));
            steps.push(step(
                symbol,
                format!("{name} change"),
                "after − before",
                a - b,
            ));
        }
        steps.push(step(
            symbol,
            format!("{name} after"),
            "as the history shows it",
            a,
        ));
    };
    push("score", score, before.map(|b| b.score), after.score);
    if rating != score {
        push("rating", rating, before.map(|b| b.rating), after.rating);
    }
    if after.deviation != 0.0 || before.is_some_and(|b| b.deviation != 0.0) {
        push(
            "deviation",
            deviation,
            before.map(|b| b.deviation),
            after.deviation,
        );
    }
    Section {
        title: "Shown in standings and history".into(),
        steps,
    }
}
