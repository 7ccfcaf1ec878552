//! Talking to the server: connecting (a password from the URL or `~/.pgpass`, TLS by the
//! URL's `sslmode` through rustls), making a ladder, its head, appending one action against
//! the head the replica saw, and reading the actions after one. Every value is bound as a
//! parameter; no text a user or a server gave is ever part of a statement.

use super::error::SharedError;
use super::schema;
use super::url::{LadderUrl, pgpass_password};
use crate::export::ActionKind;
use rungs_ladder::event::LogRow;
use std::sync::Arc;
use std::time::Duration;

/// How long a connection may take before the server counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection to the server of one shared ladder.
pub struct Server {
    client: postgres::Client,
    pub url: LadderUrl,
}

/// One action of the server's log, as read (its rows checked by `pull.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerAction {
    pub seq: i64,
    pub change_id: String,
    pub kind: ActionKind,
    /// For an undo or a redo: the action it takes back or does again.
    pub target: Option<i64>,
    pub label: String,
    pub rows: Vec<LogRow>,
    /// The role that appended it.
    pub author: String,
    /// When, in the machine's local time, `YYYY-MM-DD HH:MM`.
    pub at: String,
}

/// The raw text of an action's columns, before its rows are read.
pub(crate) struct RawAction {
    pub seq: i64,
    pub change_id: String,
    pub kind: String,
    pub target: Option<i64>,
    pub label: String,
    pub rows: String,
    pub author: String,
    pub at: String,
}

/// What an append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Appended {
    /// It is now the server's action `seq`.
    Done { seq: i64 },
    /// The server holds this change already, as action `seq` (sent before, then interrupted).
    AlreadyThere { seq: i64 },
    /// The server's head moved on from the one expected: another organiser got there first.
    Behind { head: i64 },
}

fn tls(url: &LadderUrl) -> Result<postgres_rustls::MakeTlsConnector, SharedError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    if let Some(file) = &url.root_cert {
        let text = std::fs::read(file).map_err(|e| SharedError::BadUrl {
            url: url.shown.clone(),
            what: format!("sslrootcert {}: {e}", file.display()),
        })?;
        for cert in rustls_pki_certs(&text) {
            let _ = roots.add(cert);
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| SharedError::Server {
            place: url.shown.clone(),
            message: format!("TLS: {e}"),
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(postgres_rustls::MakeTlsConnector::new(
        tokio_rustls::TlsConnector::from(Arc::new(config)),
    ))
}

/// The certificates of a PEM file.
fn rustls_pki_certs(pem: &[u8]) -> Vec<rustls::pki_types::CertificateDer<'static>> {
    use rustls::pki_types::pem::PemObject;
    rustls::pki_types::CertificateDer::pem_slice_iter(pem)
        .filter_map(|c| c.ok())
        .collect()
}

impl Server {
    /// Connects to the ladder's server. The password, when the URL gives none, comes from
    /// `~/.pgpass`; a missing or refused one is said without repeating it.
    pub fn connect(url: &LadderUrl) -> Result<Server, SharedError> {
        let mut config = url.config.clone();
        config.connect_timeout(CONNECT_TIMEOUT);
        let role = url.user();
        if config.get_user().is_none() {
            config.user(&role);
        }
        if config.get_password().is_none() {
            let host = match config.get_hosts().first() {
                Some(postgres::config::Host::Tcp(h)) => h.clone(),
                _ => "localhost".into(),
            };
            let port = config.get_ports().first().copied().unwrap_or(5432);
            let db = config.get_dbname().unwrap_or(&role).to_string();
            if let Some(p) = pgpass_password(&host, port, &db, &role) {
                config.password(p);
            }
        }
        let place = url.shown.clone();
        // A Unix socket carries no TLS, as with libpq.
        let socket_only = !config.get_hosts().is_empty()
            && config
                .get_hosts()
                .iter()
                .all(|h| matches!(h, postgres::config::Host::Unix(_)));
        let connected = match config.get_ssl_mode() {
            postgres::config::SslMode::Disable => config.connect(postgres::NoTls),
            _ if socket_only => config.connect(postgres::NoTls),
            _ => config.connect(tls(url)?),
        };
        let client = connected.map_err(|e| {
            let refused = e.as_db_error().is_some_and(|d| d.code().code() == "28P01");
            let text = e.to_string();
            if refused {
                SharedError::WrongPassword {
                    place: place.clone(),
                    role: role.clone(),
                }
            } else if says_password_missing(&e) {
                SharedError::NoPassword {
                    place: place.clone(),
                    role: role.clone(),
                }
            } else if e.as_db_error().is_some() {
                SharedError::from_pg(&place, e)
            } else {
                SharedError::Unreachable {
                    place: place.clone(),
                    cause: super::error::without_password(&text),
                }
            }
        })?;
        Ok(Server {
            client,
            url: url.clone(),
        })
    }

    fn place(&self) -> &str {
        &self.url.shown
    }

    fn pg(&self, e: postgres::Error) -> SharedError {
        SharedError::from_pg(self.place(), e)
    }

    /// Makes a new ladder on the server under `rules_json` (the tables too, where the
    /// database has none yet).
    pub fn create(&mut self, rules_json: &str) -> Result<(), SharedError> {
        let place = self.place().to_string();
        schema::install(&mut self.client, &place)?;
        let made = self
            .client
            .execute(
                "INSERT INTO rungs_ladders(name, rules) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&self.url.ladder, &rules_json],
            )
            .map_err(|e| self.pg(e))?;
        if made == 0 {
            return Err(SharedError::Exists { place });
        }
        Ok(())
    }

    /// The rules the ladder was created with (JSON) and its head; refuses a database
    /// without rungs' tables of this version, and a ladder it does not hold.
    pub fn ladder(&mut self) -> Result<(String, i64), SharedError> {
        let place = self.place().to_string();
        schema::check(&mut self.client, &place)?;
        let row = self
            .client
            .query_opt(
                "SELECT rules, head FROM rungs_ladders WHERE name = $1",
                &[&self.url.ladder],
            )
            .map_err(|e| self.pg(e))?
            .ok_or(SharedError::NoLadder { place })?;
        Ok((row.get(0), row.get(1)))
    }

    /// The ladder's head: its last action's number.
    pub fn head(&mut self) -> Result<i64, SharedError> {
        Ok(self.ladder()?.1)
    }

    /// Whether this role may append to the log (an organiser) or only read it (a viewer).
    pub fn can_write(&mut self) -> Result<bool, SharedError> {
        let row = self
            .client
            .query_one(
                "SELECT has_table_privilege('rungs_actions', 'INSERT') \
                 AND has_table_privilege('rungs_ladders', 'UPDATE')",
                &[],
            )
            .map_err(|e| self.pg(e))?;
        Ok(row.get(0))
    }

    /// Appends one action as the server's action `expected + 1`, if the server's head is
    /// still `expected` and no action carries `change_id` yet; one transaction, the ladder's
    /// row locked so that appends take turns.
    pub fn append(&mut self, expected: i64, action: &NewAction) -> Result<Appended, SharedError> {
        let rows = serde_json::to_string(&action.rows).map_err(|e| SharedError::Server {
            place: self.place().to_string(),
            message: e.to_string(),
        })?;
        let ladder = self.url.ladder.clone();
        let place = self.place().to_string();
        let pg = |e| SharedError::from_pg(&place, e);
        let mut tx = self.client.transaction().map_err(pg)?;
        let head: i64 = tx
            .query_opt(
                "SELECT head FROM rungs_ladders WHERE name = $1 FOR UPDATE",
                &[&ladder],
            )
            .map_err(pg)?
            .ok_or_else(|| SharedError::NoLadder {
                place: place.clone(),
            })?
            .get(0);
        if let Some(row) = tx
            .query_opt(
                "SELECT seq FROM rungs_actions WHERE change_id = $1 AND ladder = $2",
                &[&action.change_id, &ladder],
            )
            .map_err(pg)?
        {
            return Ok(Appended::AlreadyThere { seq: row.get(0) });
        }
        if head != expected {
            return Ok(Appended::Behind { head });
        }
        let seq = head + 1;
        tx.execute(
            "INSERT INTO rungs_actions(ladder, seq, change_id, kind, target, label, rows) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &ladder,
                &seq,
                &action.change_id,
                &action.kind.as_str(),
                &action.target,
                &action.label,
                &rows,
            ],
        )
        .map_err(pg)?;
        tx.execute(
            "UPDATE rungs_ladders SET head = $2 WHERE name = $1",
            &[&ladder, &seq],
        )
        .map_err(pg)?;
        // Whoever follows the ladder hears of it at once (LISTEN rungs).
        tx.execute("SELECT pg_notify('rungs', $1)", &[&ladder])
            .map_err(pg)?;
        tx.commit().map_err(pg)?;
        Ok(Appended::Done { seq })
    }

    /// The server's actions after `after`, at most `limit`, in order, as written.
    pub(crate) fn fetch(&mut self, after: i64, limit: i64) -> Result<Vec<RawAction>, SharedError> {
        let rows = self
            .client
            .query(
                "SELECT seq, change_id, kind, target, label, rows, author, \
                 to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') \
                 FROM rungs_actions WHERE ladder = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                &[&self.url.ladder, &after, &limit],
            )
            .map_err(|e| self.pg(e))?;
        Ok(rows
            .iter()
            .map(|r| RawAction {
                seq: r.get(0),
                change_id: r.get(1),
                kind: r.get(2),
                target: r.get(3),
                label: r.get(4),
                rows: r.get(5),
                author: r.get(6),
                at: r.get(7),
            })
            .collect())
    }

    /// Puts a whole log on the server as a new ladder in one transaction: `rules_json`, then
    /// each action `next` gives (numbered 1, 2, 3, …). Nothing lands unless all of it does.
    pub fn copy_in(
        &mut self,
        rules_json: &str,
        next: &mut dyn FnMut() -> Result<Option<NewAction>, SharedError>,
    ) -> Result<i64, SharedError> {
        let place = self.place().to_string();
        schema::install(&mut self.client, &place)?;
        let ladder = self.url.ladder.clone();
        let pg = |e| SharedError::from_pg(&place, e);
        let mut tx = self.client.transaction().map_err(pg)?;
        let made = tx
            .execute(
                "INSERT INTO rungs_ladders(name, rules) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&ladder, &rules_json],
            )
            .map_err(pg)?;
        if made == 0 {
            return Err(SharedError::Exists { place });
        }
        let insert = tx
            .prepare(
                "INSERT INTO rungs_actions(ladder, seq, change_id, kind, target, label, rows) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .map_err(pg)?;
        let mut seq = 0i64;
        while let Some(action) = next()? {
            seq += 1;
            let rows = serde_json::to_string(&action.rows).map_err(|e| SharedError::Server {
                place: place.clone(),
                message: e.to_string(),
            })?;
            tx.execute(
                &insert,
                &[
                    &ladder,
                    &seq,
                    &action.change_id,
                    &action.kind.as_str(),
                    &action.target,
                    &action.label,
                    &rows,
                ],
            )
            .map_err(pg)?;
        }
        tx.execute(
            "UPDATE rungs_ladders SET head = $2 WHERE name = $1",
            &[&ladder, &seq],
        )
        .map_err(pg)?;
        tx.commit().map_err(pg)?;
        Ok(seq)
    }
}

/// An action to append: a change made on a replica, under the id that keeps it from landing
/// twice.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NewAction {
    pub change_id: String,
    pub kind: ActionKind,
    pub target: Option<i64>,
    pub label: String,
    pub rows: Vec<LogRow>,
}

/// A new change id: 128 random bits in hex, from the system's generator.
pub fn new_change_id() -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 16];
    if ring::rand::SystemRandom::new().fill(&mut bytes).is_err() {
        // No system generator: the time and the process make an id unique enough here.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (now ^ (u128::from(std::process::id()) << 96)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the driver refused to connect because the server asked a password and none was
/// given: its words ("password missing") are in the error's cause, under "invalid
/// configuration".
fn says_password_missing(e: &postgres::Error) -> bool {
    let mut cause: Option<&dyn std::error::Error> = Some(e);
    while let Some(c) = cause {
        if c.to_string().contains("password missing") {
            return true;
        }
        cause = c.source();
    }
    false
}
