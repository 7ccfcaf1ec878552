//! The challenge ladder and the box league a published log runs, read up to the site's day
//! as the gate reads them (what the site's navigation and the formats' pages show).

use chrono::NaiveDate;
use rungs_ladder::formats::boxes::BoxLeague;
use rungs_ladder::formats::challenge::ChallengeLadder;
use rungs_ladder::log::Effective;

/// The formats the published log runs, read up to the site's day.
#[derive(Debug, Clone, Default)]
pub struct ClubFormats {
    /// Once started.
    pub challenge: Option<ChallengeLadder>,
    /// Once a period is under way.
    pub boxes: Option<BoxLeague>,
}

impl ClubFormats {
    pub fn read(events: &[Effective], day: NaiveDate) -> ClubFormats {
        let pairs = || events.iter().map(|e| (e.date, &e.event));
        let challenge = ChallengeLadder::from_log(pairs(), day);
        let boxes = BoxLeague::from_log(pairs());
        ClubFormats {
            challenge: challenge.started.then_some(challenge),
            boxes: boxes.current().is_some().then_some(boxes),
        }
    }
}
