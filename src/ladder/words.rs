//! Events in words, with the players named by whoever asks (the ladder on screen, or the
//! gate's roster): what the app lists and what an action's label says, written once.

use super::event::{Event, PlayerId};

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
        Event::Rules { rules } => format!("rules: {}", super::evaluate::label(rules)),
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
    }
}

/// A pairing rule in words: "Ann and Bo never paired", "… avoided", "… free to meet".
pub fn pair_rule(a: &str, b: &str, rule: crate::ladder::event::PairRule) -> String {
    use crate::ladder::event::PairRule;
    match rule {
        PairRule::Forbid => format!("{a} and {b} never paired"),
        PairRule::Avoid => format!("{a} and {b} avoided"),
        PairRule::Free => format!("{a} and {b} free to meet"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ladder::event::{Match, MatchResult};
    use crate::rating::Outcome;

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
            name: "Anna".into(),
        };
        assert_eq!(event(&renamed, &name), "Ann renamed Anna");
    }
}
