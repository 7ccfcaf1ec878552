//! The gate: every change to a ladder is an [`Action`], built by one constructor
//! that checks it, and applied or previewed here. The app, the command line, the CSV, Elo-list
//! and JSON Lines importers and `simulate` change a ladder only through this module; each
//! rule about what may enter a ladder (names, dates, medals, parameters, who may play when,
//! what may be deleted) has its home in one constructor below.
//!
//! An action is the log rows it will write. What [`preview`] shows is what [`apply`] commits:
//! both hand the same rows to the store, which runs the same replay.

pub mod error;
pub mod files;
pub mod formats;
pub mod imports;
pub mod matches;
pub mod players;
pub mod roster;
pub mod rounds;
pub mod seasons;
pub mod shared;
pub mod swiss_import;

pub use error::{ActionError, Fix, Place};
pub use roster::Roster;

use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::values::Day;
use rungs_store::{Change, Store, StoreError};

/// What kind of change an action is (the app tidies the asking screen by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    AddPlayers,
    Rename,
    Retire,
    AddMatch,
    EditMatch,
    DeleteEvent,
    ChangeRules,
    SoftReset,
    HardReset,
    DueResets,
    Migrate,
    SetScenario,
    ImportMatches,
    SaveRound,
    PairRule,
    ChallengeLadder,
    Challenge,
    BoxLeague,
}

/// A checked change, ready to preview or apply. Made only by the constructors of this module,
/// so an action in hand has passed every check that does not need a replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    kind: Kind,
    /// The rows and their label, checked by the store's own checks as well as this
    /// module's: the one form in which the store takes rows to write.
    change: Change,
}

impl Action {
    fn new(
        kind: Kind,
        label: impl Into<String>,
        rows: Vec<(NaiveDate, Entry)>,
    ) -> Result<Action, ActionError> {
        Ok(Action {
            kind,
            change: Change::new(label, rows)?,
        })
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// How the action reads in the undo list and its messages: "added Portugal beat Spain".
    pub fn label(&self) -> &str {
        self.change.label()
    }

    /// The log rows the action writes.
    pub fn rows(&self) -> &[(NaiveDate, Entry)] {
        self.change.rows()
    }

    /// The name of a player this action brings in, if it does.
    fn joining_name(&self, id: PlayerId) -> Option<&str> {
        self.rows().iter().find_map(|(_, e)| match e {
            Entry::Add {
                event: Event::Player { id: i, name, .. },
            } if *i == id => Some(name.as_str()),
            _ => None,
        })
    }
}

/// What the constructors check against: the ladder as it stands, where its file is (for
/// messages), and today's date (the default date, and the latest a result may carry).
#[derive(Clone)]
pub struct Context<'a> {
    pub roster: Roster<'a>,
    pub at: Place,
    pub today: NaiveDate,
}

impl<'a> Context<'a> {
    pub fn new(ladder: &'a Ladder, file: impl Into<String>, today: NaiveDate) -> Context<'a> {
        Context {
            roster: Roster::new(ladder),
            at: Place::file(file),
            today,
        }
    }

    pub fn ladder(&self) -> &'a Ladder {
        self.roster.ladder()
    }

    /// An event in words, its players named as the ladder names them now: how an action's
    /// label says what it did ("deleted Portugal beat Spain").
    pub fn words(&self, event: &rungs_ladder::event::Event) -> String {
        let name = |id| self.roster.name(id).unwrap_or("?").to_string();
        rungs_ladder::words::event(event, &name)
    }

    /// A date typed into `field`, or today when none was given.
    pub fn date(&self, field: &str, text: Option<&str>) -> Result<NaiveDate, ActionError> {
        match text.map(str::trim).filter(|t| !t.is_empty()) {
            None => Ok(self.today),
            Some(t) => parse_day(&self.at, field, t),
        }
    }

    /// The date of something that has happened (a join, a rename, a retirement, a reset, a
    /// migration, a scenario's figures): typed into `field` or today, and not after today. A
    /// join dated ahead blocked every match of the player until then, with no way to move it.
    /// Only a rules change may be dated ahead: it is scheduled.
    pub fn past_date(&self, field: &str, text: Option<&str>) -> Result<NaiveDate, ActionError> {
        self.not_ahead(self.date(field, text)?)
    }

    /// `date`, if it is not after today (see [`Context::past_date`]).
    pub fn not_ahead(&self, date: NaiveDate) -> Result<NaiveDate, ActionError> {
        if date > self.today {
            return Err(ActionError::Future {
                at: self.at.clone(),
                date,
                today: self.today,
                why: "a change is recorded once it has happened (only a rules change is \
                      scheduled ahead)",
            });
        }
        Ok(date)
    }
}

/// A `YYYY-MM-DD` date within 0001-01-01..9999-12-31, or an error naming the field.
pub fn parse_day(at: &Place, field: &str, text: &str) -> Result<NaiveDate, ActionError> {
    Day::parse(text)
        .map(Day::date)
        .map_err(|e| ActionError::invalid(at, field, text, e))
}

/// Today, on this machine's calendar.
pub fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Commits `action` as one undoable step: all of its rows land, or none. Returns the
/// sequence numbers the rows got.
pub fn apply(store: &mut Store, action: &Action) -> Result<Vec<u64>, ActionError> {
    if matches!(action.kind, Kind::Rename | Kind::Retire) {
        // Dated in the past, it may be undone by a later event: known only by its replay.
        preview(store, action)?;
    }
    store
        .commit(&action.change)
        .map_err(|e| named(store, action, e))
}

/// The ladder now and as `action` would leave it; nothing is written.
pub fn preview(store: &Store, action: &Action) -> Result<(Ladder, Ladder), ActionError> {
    let (before, after) = store
        .preview(action.rows())
        .map_err(|e| named(store, action, e))?;
    shows(
        action,
        &before,
        &after,
        &Place::file(store.path().display().to_string()),
    )?;
    Ok((before, after))
}

/// A rename or a retirement dated in the past is what the ladder shows afterwards, or it is
/// refused: a later rename, or a later match or retirement change, would undo it at once and
/// the message saying it was done would not be true.
fn shows(action: &Action, before: &Ladder, after: &Ladder, at: &Place) -> Result<(), ActionError> {
    for (date, entry) in action.rows() {
        let Entry::Add { event } = entry else {
            continue;
        };
        let now = |id: PlayerId| before.player(id).map_or(String::new(), |p| p.name.clone());
        let problem = match event {
            Event::Rename { id, name } => {
                if let Some(p) = after.player(*id).filter(|p| p.name != *name) {
                    return Err(ActionError::RenamedAgain {
                        at: at.clone(),
                        name: now(*id),
                        date: *date,
                        later: p.name.clone(),
                    });
                }
                None
            }
            Event::Retire { id, retired } => after
                .player(*id)
                .filter(|p| p.retired != *retired)
                .map(|p| match (retired, p.last_played) {
                    (true, Some(last)) if last >= *date => format!(
                        "{} plays after {date} (last on {last}), and a match brings a player \
                         back; retire them from {last} on",
                        now(*id)
                    ),
                    (true, _) => format!(
                        "{} is brought back after {date}; retire them after that",
                        now(*id)
                    ),
                    (false, _) => format!(
                        "{} is retired after {date}; bring them back after that",
                        now(*id)
                    ),
                }),
            _ => None,
        };
        if let Some(reason) = problem {
            return Err(ActionError::refused(at, reason));
        }
    }
    Ok(())
}

/// What a preview of `action` says beside its table, where there is more to say: a hard
/// reset under Skyweaver states the MMR range it rescales from and onto (the Skyweaver white
/// paper's eq. 5, whose span is a parameter). The range is the ladder's as it stands
/// (`before`), so a backdated reset, which sees the ladder of its own date, is not given one. A
/// migration says where Table 2's Master lands by Table 1
/// ([`rungs_ladder::seasons::migration_note`]).
pub fn preview_note(action: &Action, before: &Ladder) -> Option<String> {
    if let Some((
        _,
        Entry::Add {
            event: Event::Migration { migration },
        },
    )) = action.rows().last()
    {
        let name = |id| {
            before
                .player(id)
                .filter(|p| p.joined)
                .map(|p| p.name.clone())
                .or_else(|| action.joining_name(id).map(str::to_string))
        };
        return rungs_ladder::seasons::migration_note(before, migration, &name);
    }
    let at_end = action
        .rows()
        .first()
        .is_some_and(|(date, _)| before.last_date.is_none_or(|last| *date >= last));
    (action.kind == Kind::HardReset && at_end)
        .then(|| rungs_ladder::seasons::hard_reset_range(before))
        .flatten()
        .map(|r| format!("The hard reset rescales {}.", r.text()))
}

/// A store error with the players of a replay failure called by name.
fn named(store: &Store, action: &Action, e: StoreError) -> ActionError {
    match e {
        StoreError::Replay { path, cause } => {
            let mut message = describe_replay(store, action, &cause);
            // Not this change's doing: the log already gave one name to two players on a
            // date (an older rungs checked names at the end only).
            if matches!(cause, ReplayError::NameTaken { .. })
                && matches!(store.names_apart(), Ok(false))
            {
                message.push_str(&format!(
                    ". The ladder held this before this change (an older rungs let it in): \
                     `rungs repair {path}` keeps its log as written and holds only later \
                     changes to the rule"
                ));
            }
            ActionError::Replay {
                at: Place::file(path),
                message,
            }
        }
        other => ActionError::Store(other),
    }
}

fn describe_replay(store: &Store, action: &Action, cause: &ReplayError) -> String {
    let ladder = store.ladder().ok();
    cause.describe(&|id| {
        ladder
            .as_ref()
            .and_then(|l| l.player(id))
            .filter(|p| p.joined)
            .map(|p| p.name.clone())
            .or_else(|| action.joining_name(id).map(str::to_string))
    })
}

/// Undoes the latest change that is not undone (`redo` false), or redoes the latest undone
/// one. Returns the change's label.
pub fn undo(store: &mut Store, redo: bool) -> Result<String, ActionError> {
    Ok(undo_action(store, redo)?.0)
}

/// [`undo`], with the id of the action taken back (or done again).
pub fn undo_action(store: &mut Store, redo: bool) -> Result<(String, i64), ActionError> {
    let toggled = if redo { store.redo() } else { store.undo() }?;
    // The label may come from an imported log or an older file: shown safely.
    let label = rungs_ladder::values::shown(&toggled.label).into_owned();
    Ok((label, toggled.target))
}
