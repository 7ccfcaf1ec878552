//! Players by name: the one place a name typed or read becomes a player id, and a side
//! written `Ann` or `Ann,Bo` (a team) becomes a list of ids.

use super::error::{ActionError, Place, Unknown};
use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use rungs_ladder::values::{PlayerName, name_key};
use std::collections::HashMap;

/// The ladder's current names, keyed as names compare (case and Unicode form aside).
#[derive(Clone)]
pub struct Roster<'a> {
    ladder: &'a Ladder,
    by_key: HashMap<String, PlayerId>,
    /// Keys two or more players share, and who: a ladder from an older rungs may hold names
    /// that differ only in case, spacing or Unicode form. Each is found by its exact name.
    shared: HashMap<String, Vec<PlayerId>>,
    /// Players joining in the action being built, by id.
    joining: HashMap<PlayerId, PlayerName>,
}

impl<'a> Roster<'a> {
    pub fn new(ladder: &'a Ladder) -> Roster<'a> {
        let mut by_key = HashMap::new();
        let mut shared: HashMap<String, Vec<PlayerId>> = HashMap::new();
        for (i, p) in ladder.players.iter().enumerate().filter(|(_, p)| p.joined) {
            let key = name_key(&p.name);
            if let Some(&first) = by_key.get(&key) {
                shared
                    .entry(key)
                    .or_insert_with(|| vec![first])
                    .push(i as PlayerId);
            } else {
                by_key.insert(key, i as PlayerId);
            }
        }
        Roster {
            ladder,
            by_key,
            shared,
            joining: HashMap::new(),
        }
    }

    pub fn ladder(&self) -> &'a Ladder {
        self.ladder
    }

    /// The player called `name`, if any: of players whose names compare equal, the one
    /// whose name is `name` exactly.
    pub fn find(&self, name: &str) -> Option<PlayerId> {
        let key = name_key(name);
        match self.shared.get(&key) {
            Some(ids) => ids
                .iter()
                .copied()
                .find(|&id| self.name(id) == Some(name.trim())),
            None => self.by_key.get(&key).copied(),
        }
    }

    /// The name of player `id` as the ladder shows it (or as it joins in this action).
    pub fn name(&self, id: PlayerId) -> Option<&str> {
        match self.ladder.player(id).filter(|p| p.joined) {
            Some(p) => Some(p.name.as_str()),
            None => self.joining.get(&id).map(PlayerName::as_str),
        }
    }

    /// The player called `name`, or an error naming the field.
    pub fn player(&self, at: &Place, field: &str, name: &str) -> Result<PlayerId, ActionError> {
        if let Some(id) = self.find(name) {
            return Ok(id);
        }
        let why = match self.shared.get(&name_key(name)) {
            Some(ids) => Unknown::Alike(
                ids.iter()
                    .filter_map(|&id| self.name(id))
                    .map(str::to_string)
                    .collect(),
            ),
            None => Unknown::Nobody,
        };
        Err(ActionError::UnknownPlayer {
            at: at.clone(),
            field: field.to_string(),
            name: name.trim().to_string(),
            why,
        })
    }

    /// A side: one name, or a team of names joined by commas (names never hold a comma).
    pub fn side(&self, at: &Place, field: &str, text: &str) -> Result<Vec<PlayerId>, ActionError> {
        let names: Vec<&str> = text.split(',').map(str::trim).collect();
        if names.iter().any(|n| n.is_empty()) {
            return Err(ActionError::invalid(
                at,
                field,
                text,
                "has an empty name; write one name, or a team as `Ann,Bo`",
            ));
        }
        names.iter().map(|n| self.player(at, field, n)).collect()
    }

    /// A new name for the ladder: valid, and no other player's (`except` may keep its own).
    pub fn new_name(
        &self,
        at: &Place,
        field: &str,
        text: &str,
        except: Option<PlayerId>,
    ) -> Result<PlayerName, ActionError> {
        let name = PlayerName::parse(text)
            .map_err(|e| ActionError::invalid(at, field, text, format!("is not a name: it {e}")))?;
        // Every holder of the name counts: where an older rungs let two players share it, a
        // rename of one to another spelling of it leaves it shared.
        let key = name.key();
        let holder = match self.shared.get(&key) {
            Some(ids) => ids.iter().copied().find(|&id| Some(id) != except),
            None => self.by_key.get(&key).copied(),
        };
        match holder {
            Some(other) if Some(other) != except => Err(ActionError::NameTaken {
                at: at.clone(),
                field: field.to_string(),
                name: name.to_string(),
                existing: self.name(other).unwrap_or_default().to_string(),
            }),
            _ => Ok(name),
        }
    }

    /// Claims a key for a player joining in the same action, so that two new names that
    /// compare equal are one player.
    pub fn claim(&mut self, name: &PlayerName, id: PlayerId) {
        self.by_key.insert(name.key(), id);
        self.joining.insert(id, name.clone());
    }

    /// The id the next new player, `name`, gets; refused past the most a ladder holds, naming
    /// the player where the change came from.
    pub fn next_id(&self, at: &Place, field: &str, name: &str) -> Result<PlayerId, ActionError> {
        let next = self.ladder.players.len() + self.joining.len();
        if next >= rungs_ladder::replay::MAX_PLAYERS {
            return Err(ActionError::invalid(
                at,
                field,
                name,
                format!(
                    "would be player number {}; a ladder holds at most {} players",
                    next + 1,
                    rungs_ladder::replay::MAX_PLAYERS
                ),
            ));
        }
        Ok(next as PlayerId)
    }
}
