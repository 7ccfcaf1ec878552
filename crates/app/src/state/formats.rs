//! The club formats' changes from the Challenges and Boxes screens, each through the gate
//! ([`rungs_gate::formats`]) against the formats read from the log up to today; and that
//! reading, for the screens to show.

use super::AppState;
use crate::command::FormatCommand;
use crate::error::{AppError, AppResult};
use crate::messages::Offer;
use chrono::{Datelike, Months, NaiveDate};
use rungs_gate::Action;
use rungs_gate::formats::{Formats, formats};
use rungs_ladder::formats::settings::{BoxSettings, ChallengeSettings};

/// The first and last day of `day`'s calendar month.
fn this_month(day: NaiveDate) -> (NaiveDate, NaiveDate) {
    let first = day.with_day(1).unwrap_or(day);
    let last = first
        .checked_add_months(Months::new(1))
        .and_then(|d| d.pred_opt())
        .unwrap_or(day);
    (first, last)
}

/// A result as typed: empty when the games alone decide it.
fn typed(text: &str) -> Option<&str> {
    Some(text.trim()).filter(|t| !t.is_empty())
}

impl AppState {
    /// The challenge ladder and the box league as the log holds them today (deadlines and
    /// idle drops due by today applied); none without a ladder.
    pub fn formats(&self) -> AppResult<Option<Formats>> {
        let Some(store) = &self.store else {
            return Ok(None);
        };
        Ok(Some(formats(store, super::today())?))
    }

    pub(super) fn apply_format(&mut self, cmd: FormatCommand) -> AppResult<()> {
        let today = super::today();
        let f = self.formats()?.ok_or(AppError::NoLadder)?;
        match cmd {
            FormatCommand::Challenge {
                challenger,
                defender,
            } => {
                let act = Action::challenge(&self.context(), &f, &challenger, &defender, today)?;
                let said = Some((format!("Saved: {}", act.label()), Offer::Undo));
                self.commit(act, said, None)
            }
            FormatCommand::ChallengeResult {
                number,
                result,
                games,
            } => {
                let act = Action::challenge_result(
                    &self.context(),
                    &f,
                    number,
                    typed(&result),
                    typed(&games),
                    today,
                )?;
                let said = Some((format!("Saved: {}", act.label()), Offer::Undo));
                self.commit(act, said, None)
            }
            FormatCommand::BoxResult {
                a,
                b,
                result,
                games,
            } => {
                let act = Action::box_result(
                    &self.context(),
                    &f,
                    &a,
                    &b,
                    typed(&result),
                    typed(&games),
                    today,
                )?;
                let said = Some((format!("Saved: {}", act.label()), Offer::Undo));
                self.commit(act, said, None)
            }
            FormatCommand::StartChallengeLadder => {
                let settings = ChallengeSettings::default();
                let act = Action::challenge_ladder(&self.context(), &f, settings, &[], today)?;
                let said = Some((format!("Done: {}", act.label()), Offer::Undo));
                self.commit(act, said, None)
            }
            FormatCommand::StartBoxes { seasons } => {
                let (start, end) = if seasons {
                    rungs_gate::formats::season_dates(&self.context(), today)?
                } else {
                    this_month(today)
                };
                let settings = BoxSettings {
                    seasons,
                    ..BoxSettings::default()
                };
                let act = Action::start_boxes(&self.context(), &f, settings, &[], start, end)?;
                let said = Some((format!("Done: {}", act.label()), Offer::Undo));
                self.commit(act, said, None)
            }
            FormatCommand::PreviewClosePeriod => {
                let (act, _) = Action::close_period(&self.context(), &f, None, None, today)?;
                self.preview(act)
            }
        }
    }
}
