//! A shared ladder's exchange with its server, driven from here because a change another
//! organiser overtook is checked again as a change: against the ladder as it now stands, and
//! against what the others did meanwhile (a match for a player another organiser retired is
//! not saved: it would bring them back behind that organiser's back).
//!
//! A [`Session`] holds the replica locked. The door opens it, works on [`Session::path`] as
//! on any ladder file (every change through [`crate::apply`] as always), and calls
//! [`Session::sync`]: the changes made since are queued under their change ids and sent, each
//! appended only where the server's head is the one the replica saw. When another organiser
//! got there first the replica is made again from the server and each waiting change is
//! checked again and made again on it, or refused in words. With the server unreachable the
//! changes wait, and are sent by the next session that reaches it.

use super::{Action, ActionError, Kind};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::values::name_key;
use rungs_store::Store;
use rungs_store::export::ActionKind;
use rungs_store::shared::server::{NewAction, new_change_id};
use rungs_store::shared::{
    Appended, LadderUrl, Replica, Server, ServerAction, SharedError, SyncState,
};
use std::collections::HashMap;
use std::path::Path;

/// An open shared ladder: its replica locked for this process, and the server if reachable.
pub struct Session {
    pub url: LadderUrl,
    replica: Replica,
    state: SyncState,
    server: Option<Server>,
    /// Why the server could not be reached, when it could not: work goes on on the replica.
    pub offline: Option<SharedError>,
}

/// What a [`Session::sync`] did.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Synced {
    /// Changes the server took.
    pub sent: usize,
    /// Other organisers' actions brought in.
    pub pulled: usize,
    /// Waiting changes that another organiser's made impossible, in words; they are gone
    /// from the replica and the queue.
    pub refused: Vec<String>,
}

impl Session {
    /// Opens the shared ladder `text` names: its replica locked, the server connected if it
    /// can be. An unreachable server is no error where a replica was pulled before.
    pub fn open(text: &str) -> Result<Session, ActionError> {
        Session::open_with_password(text, None)
    }

    /// [`Session::open`] with a password typed at a prompt: it takes the place of the URL's,
    /// `PGPASSFILE`'s or `~/.pgpass`'s, and is kept only in this process's memory.
    pub fn open_with_password(text: &str, password: Option<&str>) -> Result<Session, ActionError> {
        let mut url = LadderUrl::parse(text)?;
        if let Some(p) = password {
            url.config.password(p);
        }
        let replica = Replica::lock(&url)?;
        let state = replica.state()?;
        let (server, offline) = match Server::connect(&url) {
            Ok(mut server) => {
                server.ladder()?;
                (Some(server), None)
            }
            Err(e) if e.is_unreachable() && replica.exists() => (None, Some(e)),
            Err(e) => return Err(e.into()),
        };
        Ok(Session {
            url,
            replica,
            state,
            server,
            offline,
        })
    }

    /// The replica's file: what every command reads and changes.
    pub fn path(&self) -> &Path {
        &self.replica.path
    }

    /// Changes made here that the server has not taken yet.
    pub fn waiting(&self) -> usize {
        self.state.pending.len()
    }

    /// The server's last action the replica holds.
    pub fn base(&self) -> i64 {
        self.state.base
    }

    /// The server's head, when it can be reached.
    pub fn server_head(&mut self) -> Result<Option<i64>, ActionError> {
        match self.server.as_mut() {
            Some(s) => Ok(Some(s.head()?)),
            None => Ok(None),
        }
    }

    /// Refuses a role that may only read the ladder, before anything is changed or queued.
    /// Offline, what the server said last time decides.
    pub fn ensure_writer(&mut self) -> Result<(), ActionError> {
        let writer = match self.server.as_mut() {
            Some(s) => {
                let w = s.can_write()?;
                if self.state.writer != Some(w) {
                    self.state.writer = Some(w);
                    self.replica.save(&self.state)?;
                }
                w
            }
            None => self.state.writer.unwrap_or(true),
        };
        if writer {
            Ok(())
        } else {
            Err(SharedError::ViewerOnly {
                place: self.url.shown.clone(),
                role: self.url.user(),
            }
            .into())
        }
    }

    /// Brings the replica up to the server and sends what waits: see the module's doc. The
    /// changes made on the replica since the last sync are queued first, whatever happens.
    pub fn sync(&mut self) -> Result<Synced, ActionError> {
        let mut synced = Synced::default();
        let mut whole = true;
        if self.replica.exists() {
            let store = Store::open_for_sync(&self.replica.path)?;
            self.queue_new(&store)?;
            // A replica missing changes the queue holds (a kill while it was being made
            // again) is made again from the server, as a missing one is. One holding more
            // is not: the app writes on while its sync runs, and what it wrote since the
            // queue was read is queued next time.
            whole = store.last_action()? < self.state.base + self.state.pending.len() as i64;
        }
        let Some(server) = self.server.as_mut() else {
            return Ok(synced);
        };
        let place = self.url.shown.clone();
        if whole {
            rebuild(server, &self.replica, &mut self.state, &[], &mut synced)?;
        }
        loop {
            let head = server.head()?;
            let Some(next) = self.state.pending.first().cloned() else {
                if head > self.state.base {
                    let mut store = Store::open(&self.replica.path)?;
                    let actions = server.actions_after(self.state.base, store.last_row()?)?;
                    store.replay_server(&place, &actions)?;
                    synced.pulled += actions.len();
                    // What was read, which may reach past the head asked for a moment ago.
                    self.state.base += actions.len() as i64;
                    self.replica.save(&self.state)?;
                }
                return Ok(synced);
            };
            if head == self.state.base {
                match server.append(self.state.base, &next)? {
                    Appended::Done { seq } | Appended::AlreadyThere { seq }
                        if seq == self.state.base + 1 =>
                    {
                        self.state.base = seq;
                        self.state.pending.remove(0);
                        self.replica.save(&self.state)?;
                        synced.sent += 1;
                        continue;
                    }
                    _ => {}
                }
            }
            // Another organiser got there first: what they did, then the replica made again
            // with the waiting changes checked again on top.
            let store = Store::open_for_sync(&self.replica.path)?;
            let pending_rows: usize = self.state.pending.iter().map(|p| p.rows.len()).sum();
            let base_row = store.last_row()? - pending_rows as i64;
            drop(store);
            let others = server.actions_after(self.state.base, base_row)?;
            rebuild(server, &self.replica, &mut self.state, &others, &mut synced)?;
        }
    }

    /// Records the changes made on the replica since the last sync as waiting (what
    /// [`Session::sync`] does first), without sending them.
    pub fn queue(&mut self) -> Result<(), ActionError> {
        if self.replica.exists() {
            let store = Store::open_for_sync(&self.replica.path)?;
            self.queue_new(&store)?;
        }
        Ok(())
    }

    /// Queues the replica's actions after those the state knows, each under a new change id.
    fn queue_new(&mut self, store: &Store) -> Result<(), ActionError> {
        let known = self.state.base + self.state.pending.len() as i64;
        if store.last_action()? <= known {
            return Ok(());
        }
        for mut action in store.actions_since(known)? {
            action.change_id = new_change_id();
            self.state.pending.push(action);
        }
        self.replica.save(&self.state).map_err(ActionError::from)
    }
}

/// Makes the replica again from the server, then each waiting change again on it, checked
/// against the ladder and against `others` (what other organisers did since the replica's
/// base); a change that no longer stands is refused in words and leaves the queue.
fn rebuild(
    server: &mut Server,
    replica: &Replica,
    state: &mut SyncState,
    others: &[ServerAction],
    synced: &mut Synced,
) -> Result<(), ActionError> {
    replica.remove_file();
    let (mut store, head) = server.pull_whole(&replica.path)?;
    synced.pulled += others.len();
    let waiting = std::mem::take(&mut state.pending);
    let old_base = state.base;
    state.base = head;
    // The queue stays in the state until each change is made again (a kill meanwhile makes
    // the replica again next time).
    state.pending = waiting.clone();
    replica.save(state)?;
    let landed: Vec<&str> = others.iter().map(|o| o.change_id.as_str()).collect();
    let mut kept = Vec::new();
    for change in waiting {
        if landed.contains(&change.change_id.as_str()) {
            continue;
        }
        match again(&mut store, &change, others, old_base, &server.url.shown) {
            Ok(()) => {
                let last = store.last_action()?;
                let mut made = store.actions_since(last - 1)?;
                if let Some(mut made) = made.pop() {
                    made.change_id = change.change_id;
                    kept.push(made);
                }
            }
            Err(words) => synced.refused.push(words),
        }
    }
    state.pending = kept;
    replica.save(state)?;
    Ok(())
}

/// Who did something among `others`, and when: "ann at 2026-11-29 20:14".
fn by(o: &ServerAction) -> String {
    // The server's words are data: a role name written by hand is shown safely.
    format!(
        "by another organiser ({}) at {}",
        rungs_ladder::values::shown(&o.author),
        rungs_ladder::values::shown(&o.at)
    )
}

/// Makes `change` again on `store`, checked against the ladder as it stands and against
/// `others`; `Err` says in words why it was not saved.
fn again(
    store: &mut Store,
    change: &NewAction,
    others: &[ServerAction],
    old_base: i64,
    place: &str,
) -> Result<(), String> {
    let ladder = store.ladder().map_err(|e| e.to_string())?;
    let name = |id: PlayerId| {
        ladder
            .player(id)
            .map_or_else(|| format!("player #{id}"), |p| p.name.clone())
    };
    let remade = "the ladder changed under it; make it again";
    match change.kind {
        ActionKind::Undo | ActionKind::Redo => {
            let word = change.kind.as_str();
            let Some(target) = change.target.filter(|t| *t <= old_base) else {
                return Err(format!(
                    "the {word} of \"{}\" was not sent: {remade}",
                    change.label
                ));
            };
            // A stale undo: the action on top now is not the one it took back.
            let top = store
                .toggle_target(change.kind)
                .map_err(|e| e.to_string())?;
            if top != Some(target) {
                return Err(match others.last() {
                    Some(o) => format!(
                        "\"{}\" is no longer the last change: the ladder was changed {}; the {word} was not saved",
                        change.label,
                        by(o)
                    ),
                    None => format!("the {word} of \"{}\" was not saved: {remade}", change.label),
                });
            }
            let toggled = if change.kind == ActionKind::Undo {
                store.undo()
            } else {
                store.redo()
            };
            return toggled.map(|_| ()).map_err(|e| e.to_string());
        }
        ActionKind::Do => {}
    }
    // What the others did to players: retired them, brought in names.
    let mut retired: HashMap<PlayerId, &ServerAction> = HashMap::new();
    let mut added: HashMap<String, &ServerAction> = HashMap::new();
    for o in others {
        for row in &o.rows {
            match &row.entry {
                Entry::Add {
                    event: Event::Retire { id, retired: true },
                } => {
                    retired.insert(*id, o);
                }
                Entry::Add {
                    event: Event::Player { name, .. },
                } => {
                    added.insert(name_key(name), o);
                }
                _ => {}
            }
        }
    }
    let last_base_row = store.last_row().map_err(|e| e.to_string())?
        - others.iter().map(|o| o.rows.len() as i64).sum::<i64>();
    let first_new = change
        .rows
        .iter()
        .filter_map(|r| match &r.entry {
            Entry::Add {
                event: Event::Player { id, .. },
            } => Some(*id),
            _ => None,
        })
        .min();
    let shift = first_new.map_or(0, |first| ladder.players.len() as i64 - i64::from(first));
    let mut rows: Vec<(NaiveDate, Entry)> = Vec::with_capacity(change.rows.len());
    let mut kind = Kind::ImportMatches;
    for row in &change.rows {
        let entry = match &row.entry {
            Entry::Add {
                event: Event::Player { id, name, undated },
            } => {
                if let Some(o) = added.get(&name_key(name)) {
                    return Err(format!(
                        "{name} was added {}; \"{}\" was not saved",
                        by(o),
                        change.label
                    ));
                }
                kind = Kind::AddPlayers;
                let id =
                    PlayerId::try_from(i64::from(*id) + shift).map_err(|_| remade.to_string())?;
                Entry::Add {
                    event: Event::Player {
                        id,
                        name: name.clone(),
                        undated: *undated,
                    },
                }
            }
            Entry::Add { event } => {
                let players = match event {
                    Event::Match(m) => m.a.iter().chain(m.b.iter()).copied().collect(),
                    other => other.players(),
                };
                if shift != 0 && players.iter().any(|p| first_new.is_some_and(|f| *p >= f)) {
                    return Err(format!("\"{}\" was not saved: {remade}", change.label));
                }
                if let Event::Match(_) = event {
                    kind = Kind::AddMatch;
                    for p in &players {
                        if let Some(o) = retired.get(p) {
                            return Err(format!(
                                "{} was retired {}; the match was not saved",
                                name(*p),
                                by(o)
                            ));
                        }
                    }
                }
                if let Event::Retire { .. } = event {
                    kind = Kind::Retire;
                }
                if let Event::Rename { .. } = event {
                    kind = Kind::Rename;
                }
                row.entry.clone()
            }
            Entry::Edit { target, .. } | Entry::Delete { target } => {
                if *target as i64 > last_base_row {
                    return Err(format!("\"{}\" was not saved: {remade}", change.label));
                }
                kind = Kind::EditMatch;
                row.entry.clone()
            }
        };
        rows.push((row.date, entry));
    }
    let action = Action::new(kind, change.label.clone(), rows).map_err(|e| e.to_string())?;
    super::apply(store, &action)
        .map(|_| ())
        .map_err(|e| match e {
            ActionError::Replay { message, .. } => {
                format!("{place}: \"{}\" was not saved: {message}", change.label)
            }
            other => other.to_string(),
        })
}
