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

pub mod error;
pub mod pull;
pub mod replica;
pub mod schema;
pub mod server;
pub mod url;

pub use error::SharedError;
pub use replica::{LocalAction, Replica, SyncState};
pub use server::{Appended, Server, ServerAction};
pub use url::{LadderUrl, is_url};
