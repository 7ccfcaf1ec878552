//! What goes wrong with a shared ladder, in words that name its URL and never its password.

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
        "{place}: the server's rungs tables are of schema version {found}; this rungs reads version {supported} (update rungs)"
    )]
    SchemaVersion {
        place: String,
        found: String,
        supported: i32,
    },
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
            // Class 08, a connection exception; 57P01..57P03, the server shutting down or
            // starting: the server is out of reach for now, as with a pulled cable.
            if code.starts_with("08") || code.starts_with("57P") {
                return SharedError::Unreachable {
                    place,
                    cause: without_password(db.message()),
                };
            }
            return match code {
                // invalid_password, invalid_authorization_specification
                "28P01" | "28000" => SharedError::NotAllowed {
                    place,
                    message: without_password(db.message()),
                },
                // insufficient_privilege
                "42501" => SharedError::NotAllowed {
                    place,
                    message: db.message().to_string(),
                },
                _ => SharedError::Server {
                    place,
                    message: without_password(db.message()),
                },
            };
        }
        let text = without_password(&e.to_string());
        // "error communicating with the server": the connection broke under a query (a
        // server stopped or a cable pulled while this session held it).
        if e.is_closed()
            || text.contains("error connecting")
            || text.contains("error communicating")
            || text.contains("timed out")
        {
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

/// `text` with any password taken out: the `user:password@` form and a `password=` option.
pub fn without_password(text: &str) -> String {
    let mut out = text.to_string();
    if let Some(start) = out.find("://").map(|i| i + 3) {
        let end = out[start..]
            .find(['/', '?'])
            .map_or(out.len(), |i| start + i);
        if let Some(at) = out[start..end].rfind('@').map(|i| start + i)
            && let Some(colon) = out[start..at].find(':').map(|i| start + i)
        {
            out.replace_range(colon..at, "");
        }
    }
    if let Some((base, query)) = out.split_once('?') {
        let kept: Vec<&str> = query
            .split('&')
            .filter(|p| !p.starts_with("password="))
            .collect();
        out = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
    }
    // A message from the URL parser may quote it in other forms: no `password` word passes.
    if out.contains("password=") {
        return "(a URL with a password)".into();
    }
    out
}
