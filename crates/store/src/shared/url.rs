//! A shared ladder's place: a `postgres://` (or `postgresql://`) URL as libpq writes them,
//! plus `ladder=NAME` in its query naming one of the database's ladders (`main` when absent).
//!
//! `postgres://ann@db.example.org/federation?ladder=county&sslmode=require`
//! `postgres://ann@%2Fvar%2Frun%2Fpostgresql/federation?ladder=club` (a Unix socket)
//!
//! The password is never shown: [`LadderUrl::shown`] is the URL without it, and is what
//! messages, titles and the replica's name are made from. A password comes from the URL, from
//! `PGPASSFILE` or `~/.pgpass` (the file libpq reads, in its format), or is asked for by the
//! door that opens the ladder.

use super::error::SharedError;
pub use super::error::without_password;
use std::path::PathBuf;

/// The ladder a database holds when the URL names none.
pub const DEFAULT_LADDER: &str = "main";

/// A parsed ladder URL.
#[derive(Clone)]
pub struct LadderUrl {
    /// The connection settings (the `ladder` and `sslrootcert` options taken out).
    pub config: postgres::Config,
    /// Which ladder of the database.
    pub ladder: String,
    /// The URL as shown: no password in it.
    pub shown: String,
    /// A file of trusted certificates (`sslrootcert=`), beside the system's.
    pub root_cert: Option<PathBuf>,
}

impl std::fmt::Debug for LadderUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the config: it may hold a password.
        f.write_str(&self.shown)
    }
}

/// Whether `text` names a shared ladder rather than a file.
pub fn is_url(text: &str) -> bool {
    let lower = text.get(..13).unwrap_or(text).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// Whether `name` may name a ladder: 1 to 64 letters, digits, `-`, `_` or `.`.
pub fn ladder_name_ok(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

impl LadderUrl {
    /// Parses `text`; an error names what is wrong without repeating a password.
    pub fn parse(text: &str) -> Result<LadderUrl, SharedError> {
        let shown = without_password(text);
        let bad = |what: String| SharedError::BadUrl {
            url: shown.clone(),
            what,
        };
        if !is_url(text) {
            return Err(bad("a shared ladder's URL begins postgres://".into()));
        }
        let (base, query) = match text.split_once('?') {
            Some((b, q)) => (b, q),
            None => (text, ""),
        };
        let mut ladder = None;
        let mut root_cert = None;
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "ladder" => ladder = Some(percent_decoded(value)),
                "sslrootcert" => root_cert = Some(PathBuf::from(percent_decoded(value))),
                _ => kept.push(pair),
            }
        }
        let ladder = ladder.unwrap_or_else(|| DEFAULT_LADDER.to_string());
        if !ladder_name_ok(&ladder) {
            return Err(bad(format!(
                "ladder={ladder}: a ladder's name is 1 to 64 letters, digits, - _ or ."
            )));
        }
        let rest = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        let config: postgres::Config = rest
            .parse()
            .map_err(|e: postgres::Error| bad(without_password(&e.to_string())))?;
        Ok(LadderUrl {
            config,
            ladder,
            shown,
            root_cert,
        })
    }

    /// The role the URL logs in as (the login name of this process when it names none).
    pub fn user(&self) -> String {
        self.config
            .get_user()
            .map(str::to_string)
            .or_else(|| std::env::var("PGUSER").ok())
            .or_else(|| std::env::var("USER").ok())
            .unwrap_or_else(|| "postgres".into())
    }

    /// A stable short name for this ladder's place, for its replica's file name: the ladder's
    /// name and a hash of the URL without its password.
    pub fn replica_name(&self) -> String {
        // FNV-1a, 64 bits: a name, not a secret.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.shown.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{}-{hash:016x}", self.ladder)
    }
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The password `~/.pgpass` (or the file `PGPASSFILE` names) gives for this host, port,
/// database and role, as libpq reads it: `host:port:database:user:password` lines, `*`
/// matching anything, `\:` and `\\` escaped, `#` comments. A Unix socket's host is
/// `localhost` there, as libpq has it.
pub fn pgpass_password(host: &str, port: u16, db: &str, user: &str) -> Option<String> {
    let file = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pgpass")))?;
    let text = std::fs::read_to_string(file).ok()?;
    let port = port.to_string();
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|line| {
            let fields = pgpass_fields(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let matches = |pattern: &str, value: &str| pattern == "*" || pattern == value;
            (matches(h, host) && matches(p, &port) && matches(d, db) && matches(u, user))
                .then(|| password.clone())
        })
}

fn pgpass_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next()
                    && let Some(last) = fields.last_mut()
                {
                    last.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(last) = fields.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_option_is_taken_out_and_the_password_never_shown() {
        let url = LadderUrl::parse(
            "postgres://ann:s3cret@db.example.org:5433/fed?ladder=county&sslmode=require",
        )
        .expect("a URL");
        assert_eq!(url.ladder, "county");
        assert_eq!(url.user(), "ann");
        assert_eq!(url.config.get_ports(), &[5433]);
        assert_eq!(
            url.shown,
            "postgres://ann@db.example.org:5433/fed?ladder=county&sslmode=require"
        );
        assert!(!format!("{url:?}").contains("s3cret"));
        let plain = LadderUrl::parse("postgresql://ann@%2Ftmp%2Fsock/fed").expect("a socket URL");
        assert_eq!(plain.ladder, "main");
        assert_eq!(
            without_password("postgres://h/db?password=x&ladder=a"),
            "postgres://h/db?ladder=a"
        );
    }

    #[test]
    fn a_bad_ladder_name_or_option_is_refused_in_words() {
        let e = LadderUrl::parse("postgres://ann:pw@h/db?ladder=a;drop").expect_err("refused");
        assert_eq!(
            e.to_string(),
            "postgres://ann@h/db?ladder=a;drop: ladder=a;drop: a ladder's name is 1 to 64 letters, digits, - _ or ."
        );
        assert!(LadderUrl::parse("postgres://h/db?nonsense=1").is_err());
        assert!(!is_url("club.rungs"));
    }

    proptest::proptest! {
        /// Whatever the password (any printable text but the URL's own delimiters; "QZ" first so
        /// that it cannot be a piece of the host by chance), neither
        /// the shown URL, nor the Debug form, nor a parse error repeats it.
        #[test]
        fn no_password_is_ever_shown(password in "QZ[A-Za-z0-9!$%&()*+,;=._~-]{4,28}", ladder in "[a-z;' ]{0,8}") {
            let text = format!("postgres://ann:{password}@db.example.org/fed?ladder={ladder}");
            let said = match LadderUrl::parse(&text) {
                Ok(url) => format!("{} {url:?}", url.shown),
                Err(e) => e.to_string(),
            };
            proptest::prop_assert!(!said.contains(&password), "{said}");
            let in_query = format!("postgres://db.example.org/fed?password={password}&ladder=x");
            let said = match LadderUrl::parse(&in_query) {
                Ok(url) => format!("{} {url:?}", url.shown),
                Err(e) => e.to_string(),
            };
            proptest::prop_assert!(!said.contains(&password), "{said}");
        }
    }

    #[test]
    fn pgpass_lines_read_as_libpq_reads_them() {
        assert_eq!(
            pgpass_fields(r"h:5432:db:ann:pa\:ss\\w"),
            ["h", "5432", "db", "ann", r"pa:ss\w"]
        );
        assert_eq!(pgpass_fields("*:*:*:bo:x:y"), ["*", "*", "*", "bo", "x:y"]);
    }
}
