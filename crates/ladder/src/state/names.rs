//! [`NameBook`]: who holds each name, so that no two players are given one.
use super::player::PlayerState;
use crate::event::PlayerId;

/// Who holds each name now, as names compare (`values::name_key`: case, spacing and Unicode
/// form aside), so that a join or a rename dated in the past cannot give a name another
/// player holds on that date. Built from the players when first needed, then kept by joins
/// and renames; not part of the ladder's value (two ladders equal whatever their books).
///
/// The rule guards what enters a ladder, so only the store's replays (a change, an import, a
/// check) hold a log to it; a replay that only reads a log (evaluate, fit, the timeline,
/// `standings --at`) takes it as it is.
#[derive(Debug, Clone)]
pub struct NameBook {
    /// Every holder of each name: more than one only where an older log shares a name.
    holders: Option<std::collections::HashMap<String, Vec<PlayerId>>>,
    /// Events up to this sequence number may share a name: every event, unless the store
    /// says otherwise (all but a format-1 log's events, which compared names by case only).
    pub tolerated_through: u64,
}

impl Default for NameBook {
    fn default() -> NameBook {
        NameBook {
            holders: None,
            tolerated_through: u64::MAX,
        }
    }
}

impl PartialEq for NameBook {
    fn eq(&self, _: &NameBook) -> bool {
        true
    }
}

impl NameBook {
    /// Gives `name` to player `id` (joining or renamed) at event `seq`; the player who holds
    /// it already, if it is another's and the event is held to the rule. Every holder counts:
    /// where two players of an older log share a name, a rename of one to another spelling of
    /// it is refused, since the other still holds it.
    pub fn claim(
        &mut self,
        players: &[PlayerState],
        seq: u64,
        id: PlayerId,
        name: &str,
    ) -> Result<(), PlayerId> {
        use crate::values::name_key;
        let holders = self.holders.get_or_insert_with(|| {
            let mut map: std::collections::HashMap<String, Vec<PlayerId>> =
                std::collections::HashMap::new();
            for (i, p) in players.iter().enumerate().filter(|(_, p)| p.joined) {
                map.entry(name_key(&p.name))
                    .or_default()
                    .push(i as PlayerId);
            }
            map
        });
        if let Some(p) = players.get(id as usize).filter(|p| p.joined) {
            let old = name_key(&p.name);
            if let Some(list) = holders.get_mut(&old) {
                list.retain(|&h| h != id);
                if list.is_empty() {
                    holders.remove(&old);
                }
            }
        }
        let key = name_key(name);
        let list = holders.entry(key.clone()).or_default();
        let holder = list.iter().copied().find(|&other| {
            other != id
                && players
                    .get(other as usize)
                    .is_some_and(|p| p.joined && name_key(&p.name) == key)
        });
        match holder {
            Some(other) if seq > self.tolerated_through => Err(other),
            _ => {
                if !list.contains(&id) {
                    list.push(id);
                }
                Ok(())
            }
        }
    }
}
