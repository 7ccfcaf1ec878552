//! What an action would do to every player, computed by the same code that applies it.

use crate::event::PlayerId;
use crate::replay::Ladder;
use crate::skyweaver::Tier;
use crate::standings;
use crate::state::Figures;
use serde::Serialize;
use std::collections::HashMap;

/// One player's figures before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub player: PlayerId,
    pub name: String,
    pub before: Option<Figures>,
    pub after: Figures,
    pub tier_before: Option<Tier>,
    pub tier_after: Option<Tier>,
}

impl Change {
    /// Whether anything shown for this player moves.
    pub fn moved(&self) -> bool {
        self.before != Some(self.after) || self.tier_before != self.tier_after
    }
}

fn tiers(ladder: &Ladder) -> HashMap<PlayerId, Tier> {
    standings::standings(ladder)
        .into_iter()
        .filter_map(|s| s.tier.map(|t| (s.id, t)))
        .collect()
}

/// Every player of `after` with their figures in `before` (absent for a new player), in
/// `after`'s standings order.
pub fn changes(before: &Ladder, after: &Ladder) -> Vec<Change> {
    let (tb, ta) = (tiers(before), tiers(after));
    let (cb, ca) = (before.centre(), after.centre());
    standings::standings(after)
        .into_iter()
        .map(|s| {
            let p = &after.players[s.id as usize];
            let old = before.player(s.id).filter(|o| o.joined);
            Change {
                player: s.id,
                name: p.name.clone(),
                before: old.map(|o| o.figures_at(cb)),
                after: p.figures_at(ca),
                tier_before: tb.get(&s.id).copied(),
                tier_after: ta.get(&s.id).copied(),
            }
        })
        .collect()
}
