//! The designer's and tester's tools as app state: the replay timeline (viewing the ladder as
//! it stood after any event), the what-if comparison under other rules, prediction quality,
//! the simulation written, and the players overlaid on the history plot. Plain data and the
//! timeline's moves; the work runs as jobs (`work.rs`), each screen keeps its own form.

use super::error::{AppError, AppResult};
use rungs_analysis::compare::CompareRow;
use rungs_analysis::evaluate::Score;
use rungs_analysis::simulate::SimReport;
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::Rules;
use rungs_ladder::standings::{self, Standing};
use rungs_ladder::state::HistoryRow;
use rungs_ladder::timeline::Timeline;
use std::path::PathBuf;
use std::sync::Arc;

/// The log as the plots need it: its events (for hover read-outs) and its index (markers and
/// the rules in force at each point).
pub struct LogView {
    pub events: Vec<rungs_ladder::log::Effective>,
    pub index: rungs_chart::LogIndex,
    /// Matches in the log up to and including each event (the ladder-wide match axis).
    pub match_counts: Vec<u32>,
}

impl LogView {
    pub fn new(events: Vec<rungs_ladder::log::Effective>, index: rungs_chart::LogIndex) -> LogView {
        let mut n = 0u32;
        let match_counts = events
            .iter()
            .map(|e| {
                if matches!(e.event, rungs_ladder::event::Event::Match(_)) {
                    n += 1;
                }
                n
            })
            .collect();
        LogView {
            events,
            index,
            match_counts,
        }
    }

    /// Where the event at `key` sits on the ladder-wide match axis: the k-th match of the
    /// ladder at k, anything else half-way after the match before it — the same place for
    /// every player, so resets and rules changes are marked where they happened.
    pub fn ladder_x(&self, key: rungs_chart::Key) -> f64 {
        let i = self.events.partition_point(|e| (e.date, e.seq) < key);
        match self.events.get(i) {
            Some(e) if (e.date, e.seq) == key => {
                let count = f64::from(self.match_counts[i]);
                if matches!(e.event, rungs_ladder::event::Event::Match(_)) {
                    count
                } else {
                    count + 0.5
                }
            }
            _ => i
                .checked_sub(1)
                .map_or(0.5, |j| f64::from(self.match_counts[j]) + 0.5),
        }
    }
}

/// The same log under rules B, beside the file's own rules (A).
pub struct Comparison {
    pub rules: Rules,
    pub rows: Vec<CompareRow>,
    /// Every player's history under B, by player id.
    pub history: Vec<Vec<HistoryRow>>,
    /// The log's markers and rules as B reads them.
    pub index: rungs_chart::LogIndex,
}

/// A finished simulation.
pub struct Simulated {
    pub report: SimReport,
    pub path: PathBuf,
}

/// What the designer's screens share: the timeline and the point shown, the comparison, the
/// scores, the simulation written, the log as read, the plotted players.
#[derive(Default)]
pub struct Tools {
    pub timeline: Option<Arc<Timeline>>,
    /// `Some(n)` while the screens show the ladder after event `n` rather than now.
    pub position: Option<usize>,
    /// The present, kept aside while the past is shown.
    present: Option<(Ladder, Vec<Standing>)>,
    /// Events a second while playing.
    pub playing: Option<f64>,
    play_carry: f64,
    pub comparison: Option<Comparison>,
    pub scores: Vec<Score>,
    pub simulated: Option<Simulated>,
    /// Players on the history plot, in the order they were added (Standings, Players and
    /// What-if add to it too).
    pub plotted: Vec<PlayerId>,
    pub log_view: Option<Arc<LogView>>,
    /// Tier minimums proposed for target shares (Seasons → Cut tiers to a target…).
    pub tiers: Option<rungs_analysis::tiers::Proposal>,
}

impl Tools {
    /// The ladder now, when `shown` is what the screens show.
    pub fn now<'a>(&'a self, shown: &'a Ladder) -> &'a Ladder {
        self.present.as_ref().map_or(shown, |p| &p.0)
    }

    /// Forgets everything computed from the file (another file opened, or it changed); the
    /// screens show now again. Returns whether what `ladder` and `standings` hold changed.
    pub fn reset(
        &mut self,
        new_file: bool,
        ladder: &mut Ladder,
        standings: &mut Vec<Standing>,
    ) -> bool {
        let moved = self.return_to_now(ladder, standings);
        self.timeline = None;
        self.log_view = None;
        self.playing = None;
        if new_file {
            self.comparison = None;
            self.scores.clear();
            self.plotted.clear();
            self.tiers = None;
        }
        moved
    }

    /// Shows the ladder after the first `n` events in `ladder` and `standings` (the present
    /// kept aside); the end of the log is now. Returns whether they changed.
    pub fn seek(
        &mut self,
        n: usize,
        ladder: &mut Ladder,
        standings: &mut Vec<Standing>,
    ) -> AppResult<bool> {
        let timeline = self
            .timeline
            .clone()
            .ok_or(AppError::Nothing("the timeline is not built yet"))?;
        let n = n.min(timeline.len());
        if n == timeline.len() {
            return Ok(self.return_to_now(ladder, standings));
        }
        let past = match (self.position, self.present.is_some()) {
            // Forward from the point shown: only the events in between apply.
            (Some(at), true) if at <= n && n - at < timeline.interval() => {
                let mut l = ladder.clone();
                timeline
                    .seek(&mut l, n)
                    .map_err(|e| AppError::task("the timeline", e))?;
                l
            }
            _ => timeline
                .at(n)
                .map_err(|e| AppError::task("the timeline", e))?,
        };
        if self.present.is_none() {
            let now = std::mem::replace(ladder, Ladder::new(Rules::default()));
            self.present = Some((now, std::mem::take(standings)));
        }
        *standings = standings::standings(&past);
        *ladder = past;
        self.position = Some(n);
        Ok(true)
    }

    /// Back to now: `ladder` and `standings` get the present back. Returns whether they
    /// changed.
    pub fn return_to_now(&mut self, ladder: &mut Ladder, standings: &mut Vec<Standing>) -> bool {
        self.playing = None;
        self.position = None;
        match self.present.take() {
            Some((now, now_standings)) => {
                *ladder = now;
                *standings = now_standings;
                true
            }
            None => false,
        }
    }

    /// Starts playing at `speed` events a second (`None`, or a speed that is no speed,
    /// pauses). Returns whether playing must start from the beginning (from now it would end
    /// at once).
    pub fn play(&mut self, speed: Option<f64>) -> bool {
        self.playing = speed.filter(|s| s.is_finite() && *s > 0.0);
        self.play_carry = 0.0;
        self.playing.is_some() && self.position.is_none()
    }

    /// Where a playing timeline is after `dt` more seconds of wall time, if it moved on.
    pub fn advance(&mut self, dt: f64) -> Option<usize> {
        let (Some(speed), Some(at), Some(t)) = (self.playing, self.position, &self.timeline) else {
            return None;
        };
        self.play_carry += speed * dt.clamp(0.0, 0.5);
        let steps = self.play_carry.floor();
        if steps < 1.0 {
            return None;
        }
        self.play_carry -= steps;
        Some((at + steps as usize).min(t.len()))
    }

    /// `rows` (a player's history) up to the point shown on the timeline.
    pub fn as_shown<'a>(&self, rows: &'a [HistoryRow]) -> &'a [HistoryRow] {
        match (&self.timeline, self.position) {
            (Some(t), Some(n)) => t.rows_until(rows, n),
            _ => rows,
        }
    }

    /// A player's history under the what-if rules, up to the point shown.
    pub fn compared_history(&self, id: PlayerId) -> Option<Vec<HistoryRow>> {
        let rows = self.comparison.as_ref()?.history.get(id as usize)?;
        Some(self.as_shown(rows).to_vec())
    }
}

/// Rules from a system and `NAME=VALUE` assignments separated by commas or spaces: the
/// system's defaults, under the side advantage and season calendar of `ladder`'s rules when
/// there is a ladder (they are the ladder's, whatever the system).
pub fn rules_from(
    ladder: Option<&Rules>,
    system: rungs_ladder::rules::System,
    params: &str,
) -> Result<Rules, rungs_ladder::rules::ParamError> {
    let mut rules = ladder.map_or_else(|| Rules::defaults(system), |l| l.defaults_for(system));
    for assignment in params
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        rules.assign(assignment)?;
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::LogView;
    use rungs_ladder::event::{Event, Match, MatchResult};
    use rungs_ladder::log::Effective;
    use rungs_ladder::rules::Rules;
    use rungs_rating::Outcome;

    /// Two joins, two matches, a soft reset, a third match: the matches sit at 1, 2 and 3 on
    /// the ladder's axis for every player, the reset half-way after match 2, the joins at 0.5.
    #[test]
    fn the_ladder_axis_places_every_event_where_it_happened() {
        let d = |day| chrono::NaiveDate::from_ymd_opt(2026, 3, day).unwrap();
        let win = Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Win)));
        let events = vec![
            Effective {
                date: d(1),
                seq: 1,
                event: Event::Player {
                    id: 0,
                    name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
                    undated: false,
                },
            },
            Effective {
                date: d(1),
                seq: 2,
                event: Event::Player {
                    id: 1,
                    name: rungs_ladder::values::PlayerName::parse("Bo").unwrap(),
                    undated: false,
                },
            },
            Effective {
                date: d(2),
                seq: 3,
                event: win.clone(),
            },
            Effective {
                date: d(2),
                seq: 9,
                event: win.clone(),
            },
            Effective {
                date: d(7),
                seq: 4,
                event: Event::SoftReset,
            },
            Effective {
                date: d(8),
                seq: 5,
                event: win,
            },
        ];
        let index = rungs_chart::LogIndex::new(&Rules::default(), &events);
        let view = LogView::new(events, index);
        let x: Vec<f64> = [(1, 1), (1, 2), (2, 3), (2, 9), (7, 4), (8, 5)]
            .iter()
            .map(|&(day, seq)| view.ladder_x((d(day), seq)))
            .collect();
        assert_eq!(x, vec![0.5, 0.5, 1.0, 2.0, 2.5, 3.0]);
        let marker = &view.index.markers()[0];
        assert_eq!(
            view.ladder_x(marker.key()),
            2.5,
            "the reset's marker, for everyone"
        );
    }
}
