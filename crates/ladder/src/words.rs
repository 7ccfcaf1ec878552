//! Events in words, with the players named by whoever asks (the ladder on screen, or the
//! gate's roster): what the app lists and what an action's label says, written once.

use super::event::{Event, PlayerId};
use super::state::SeasonRecord;

/// A side in words: "Ann", or a team "Ann + Bo".
pub fn side(ids: &[PlayerId], name: &dyn Fn(PlayerId) -> String) -> String {
    ids.iter().map(|&i| name(i)).collect::<Vec<_>>().join(" + ")
}

/// One event in words: "Ann beat Bo", "soft reset", "rules: elo K=32".
pub fn event(event: &Event, name: &dyn Fn(PlayerId) -> String) -> String {
    match event {
        Event::Match(m) => m.result.sentence(&side(&m.a, name), &side(&m.b, name)),
        Event::Player { name, .. } => format!("{name} joined"),
        Event::Rename { id, name: to } => format!("{} renamed {to}", name(*id)),
        Event::Retire { id, retired: true } => format!("{} retired", name(*id)),
        Event::Retire { id, retired: false } => format!("{} came back", name(*id)),
        Event::SoftReset => "soft reset".into(),
        Event::HardReset => "hard reset".into(),
        Event::DueResets => "the season calendar's due resets".into(),
        Event::Rules { rules } => format!("rules: {}", super::rules::label(rules)),
        Event::Migration { migration } => {
            format!("migration from Elo ({} players)", migration.entries.len())
        }
        Event::Scenario { .. } => "scenario figures".into(),
        Event::Round { round } => format!(
            "round {} ({}, {} board{})",
            round.number,
            round.format.as_text(),
            round.boards.len(),
            if round.boards.len() == 1 { "" } else { "s" }
        ),
        Event::PairRule { a, b, rule } => pair_rule(&name(*a), &name(*b), *rule),
        Event::ChallengeLadder { order, .. } if order.is_empty() => "challenge ladder rules".into(),
        Event::ChallengeLadder { order, .. } => {
            format!("challenge ladder order ({} players)", order.len())
        }
        Event::Challenge {
            challenger,
            defender,
        } => format!("{} challenged {}", name(*challenger), name(*defender)),
        Event::ChallengePlace { player, position } => {
            format!("{} placed at {position}", name(*player))
        }
        Event::BoxPeriod { period } => format!(
            "box period {} ({} to {}, {} boxes)",
            period.number,
            period.start,
            period.end,
            period.boxes.len()
        ),
        Event::BoxWithdraw {
            player,
            withdrawn: true,
        } => format!("{} withdrew from the box period", name(*player)),
        Event::BoxWithdraw { player, .. } => {
            format!("{} back in the box period", name(*player))
        }
        Event::BoxJoin { player, index } => {
            format!("{} joined box {}", name(*player), u64::from(*index) + 1)
        }
    }
}

/// A pairing rule in words: "Ann and Bo never paired", "… avoided", "… free to meet".
pub fn pair_rule(a: &str, b: &str, rule: crate::event::PairRule) -> String {
    use crate::event::PairRule;
    match rule {
        PairRule::Forbid => format!("{a} and {b} never paired"),
        PairRule::Avoid => format!("{a} and {b} avoided"),
        PairRule::Free => format!("{a} and {b} free to meet"),
    }
}

/// When a season ran and for how long: "2026-02-02 to 2026-02-05, 3 days". The record's
/// `weeks` counts the soft resets inside the season, so a season ended by the button before
/// its first soft reset would read "0 weeks"; its real length is the days since the previous
/// season ended. The first season (whose start the archive does not hold) and folded runs
/// say the soft resets they counted, or "within its first week".
pub fn season_span(season: &SeasonRecord, began: Option<chrono::NaiveDate>) -> String {
    let ended = season.ended;
    match began {
        Some(start) if season.folded == 0 && start <= ended => {
            let days = (ended - start).num_days().max(0) as usize;
            let length = match (days / 7, days % 7) {
                (0, d) => count(d, "day"),
                (w, 0) => count(w, "week"),
                (w, d) => format!("{}, {}", count(w, "week"), count(d, "day")),
            };
            format!("{start} to {ended}, {length}")
        }
        _ if season.weeks == 0 => format!("ended {ended} within its first week"),
        _ => format!(
            "ended {ended} after {}",
            count(season.weeks as usize, "week")
        ),
    }
}

/// "1 day", "3 weeks".
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Match, MatchResult};
    use rungs_rating::Outcome;

    #[test]
    fn a_match_names_its_winner_first_and_a_team_by_its_members() {
        let names = ["Spain", "Portugal", "Ann", "Bo"];
        let name = |id: PlayerId| names[id as usize].to_string();
        let lost = Event::Match(Match::new(0, 1, MatchResult::Played(Outcome::Loss)));
        assert_eq!(event(&lost, &name), "Portugal beat Spain");
        let team = Event::Match(Match {
            a: vec![2, 3].into(),
            ..Match::new(0, 1, MatchResult::Played(Outcome::Draw))
        });
        assert_eq!(event(&team, &name), "Ann + Bo drew with Portugal");
        let renamed = Event::Rename {
            id: 2,
            name: crate::values::PlayerName::parse("Anna").unwrap(),
        };
        assert_eq!(event(&renamed, &name), "Ann renamed Anna");
    }
}
