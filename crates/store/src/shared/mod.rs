//! A shared ladder: its log on a PostgreSQL server, a replica of it on each machine.
//!
//! The server holds the append-only log of actions (`schema.rs`); each machine keeps a
//! replica, an ordinary ladder file in the user's cache directory whose actions 1..=base are
//! the server's actions 1..=base, followed by the changes made here that the server has not
//! taken yet (`replica.rs`). A change is made on the replica as on any ladder file, then
//! appended on the server in one transaction that checks the server's head is the replica's
//! base (`server.rs`); the server's newer actions are read and replayed into the replica
//! (`pull.rs`), each checked as a change made here is.
//!
//! What this crate cannot do is check a change again against a ladder other organisers moved
//! on: that is the gate's (`rungs_gate::shared`), which drives the whole exchange.

pub mod pull;
pub mod replica;
pub mod schema;
pub mod server;
pub mod url;

pub use replica::{LocalAction, Replica, SyncState};
pub use server::{Appended, Server, ServerAction};
pub use url::{LadderUrl, is_url};

use crate::StoreError;

/// What goes wrong with a shared ladder, each naming the ladder's URL (never its password).
#[derive(Debug, thiserror::Error)]
pub enum SharedError {
    #[error("{url}: {what}")]
    BadUrl { url: String, what: String },
    #[error("{place}: the server cannot be reached ({cause})")]
    Unreachable { place: String, cause: String },
    #[error(
        "{place}: the server refused the password for role {role}; check the password in the URL, PGPASSFILE or ~/.pgpass"
    )]
    WrongPassword { place: String, role: String },
    #[error(
        "{place}: the server asks a password for role {role}, and none was given; put it in ~/.pgpass (or the file PGPASSFILE names)"
    )]
    NoPassword { place: String, role: String },
    #[error(
        "{place}: role {role} may read this ladder but not change it; ask the database's owner for an organiser's role"
    )]
    ViewerOnly { place: String, role: String },
    #[error("{place}: the server refused: {message}")]
    NotAllowed { place: String, message: String },
    #[error("{place}: no such shared ladder on the server; make it with `new` or `copy`")]
    NoLadder { place: String },
    #[error("{place}: the server holds this ladder already")]
    Exists { place: String },
    #[error(
        "{place}: the server's rungs tables are of schema version {found}; this rungs reads version {} (update rungs)",
        schema::VERSION
    )]
    SchemaVersion { place: String, found: String },
    #[error(
        "{place}: the server's action {seq} (change {change_id}) is refused: {what}; the replica was left as it was"
    )]
    Hostile {
        place: String,
        seq: i64,
        change_id: String,
        what: String,
    },
    #[error("{place}: {message}")]
    Server { place: String, message: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl SharedError {
    /// A server error in words: a refused password, a missing privilege, an unreachable server.
    pub fn from_pg(place: &str, e: postgres::Error) -> SharedError {
        let place = place.to_string();
        if let Some(db) = e.as_db_error() {
            let code = db.code().code();
            return match code {
                // invalid_password, invalid_authorization_specification
                "28P01" | "28000" => SharedError::NotAllowed {
                    place,
                    message: url::without_password(db.message()),
                },
                // insufficient_privilege
                "42501" => SharedError::NotAllowed {
                    place,
                    message: db.message().to_string(),
                },
                _ => SharedError::Server {
                    place,
                    message: url::without_password(db.message()),
                },
            };
        }
        let text = url::without_password(&e.to_string());
        if e.is_closed() || text.contains("error connecting") || text.contains("timed out") {
            return SharedError::Unreachable { place, cause: text };
        }
        SharedError::Server {
            place,
            message: text,
        }
    }

    /// Whether the server could not be reached (work goes on on the replica).
    pub fn is_unreachable(&self) -> bool {
        matches!(self, SharedError::Unreachable { .. })
    }
}
