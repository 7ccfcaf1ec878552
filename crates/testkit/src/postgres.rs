//! A throwaway PostgreSQL server for the shared-ladder tests: `initdb` into a temporary
//! directory, `pg_ctl start` listening on a Unix socket in that directory only (no network),
//! stopped and removed when dropped.
//!
//! The binaries are looked for on `PATH`, then in Debian's `/usr/lib/postgresql/<version>/bin`
//! (the `postgresql` package puts them there, off `PATH`), then in `/usr/local/bin`. Where
//! none is found the test says that it skipped and why, and under CI (`CI` set), where
//! `.ci/run` installs PostgreSQL, it fails instead.
//!
//! `initdb` refuses to run as root ("cannot be run as root"): as root, the server's own
//! programs run as the unprivileged `nobody` through util-linux's `setpriv`, and the
//! temporary directory is handed to that user. The tests connect as root over the socket.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The superuser the server is made with; it connects without a password over the socket.
pub const ADMIN: &str = "rungs_admin";

/// A running server; stopped (`pg_ctl stop -m immediate`) and its files removed on drop.
pub struct PgServer {
    bin: PathBuf,
    dir: crate::TempDir,
    /// The user the server's programs run as when the tests run as root.
    as_user: Option<(u32, u32)>,
}

/// Where the binaries are, or why none were found.
pub fn binaries() -> Result<PathBuf, String> {
    let mut places: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Ok(versions) = std::fs::read_dir("/usr/lib/postgresql") {
        let mut found: Vec<(u32, PathBuf)> = versions
            .flatten()
            .filter_map(|e| {
                let v = e.file_name().to_str()?.parse::<u32>().ok()?;
                Some((v, e.path().join("bin")))
            })
            .collect();
        found.sort();
        places.extend(found.into_iter().rev().map(|(_, p)| p));
    }
    places.push(PathBuf::from("/usr/local/bin"));
    places
        .into_iter()
        .find(|p| p.join("initdb").is_file() && p.join("pg_ctl").is_file())
        .ok_or_else(|| {
            "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)".into()
        })
}

/// Says that a test did not run and why; under CI, fails the test instead.
pub fn skipped(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and a test could not run ({why}): .ci/run installs what it needs"
    );
    eprintln!("skipped: {why}");
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    })
}

impl PgServer {
    /// Starts a server, or says why it cannot (see [`skipped`]) and gives `None`.
    pub fn start(tag: &str) -> Option<PgServer> {
        let bin = match binaries() {
            Ok(bin) => bin,
            Err(why) => {
                skipped(&why);
                return None;
            }
        };
        let dir = crate::TempDir::new(&format!("pg-{tag}"));
        let as_user = if is_root() {
            if !Path::new("/usr/bin/setpriv").exists() && !Path::new("/bin/setpriv").exists() {
                skipped(
                    "running as root, and setpriv (util-linux) is missing to run initdb as nobody",
                );
                return None;
            }
            // nobody:nogroup on Debian.
            let (uid, gid) = (65534, 65534);
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .expect("chown the server's directory");
            Some((uid, gid))
        } else {
            None
        };
        let server = PgServer { bin, dir, as_user };
        let data = server.data();
        let hba = server.dir.path().join("hba");
        server.run(
            "initdb",
            &[
                "-D",
                data.to_str()?,
                "-U",
                ADMIN,
                "--auth-local=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ],
        );
        // The superuser comes in without a password; every other role gives its own.
        std::fs::write(
            &hba,
            format!("local all {ADMIN} trust\nlocal all all scram-sha-256\n"),
        )
        .expect("write pg_hba");
        let options = format!(
            "-k {} -c listen_addresses='' -c hba_file={} -c fsync=off",
            server.dir.path().display(),
            hba.display()
        );
        let log = server.dir.path().join("log");
        server.run(
            "pg_ctl",
            &[
                "start",
                "-w",
                "-D",
                data.to_str()?,
                "-l",
                log.to_str()?,
                "-o",
                &options,
            ],
        );
        server.sql("postgres", &format!("CREATE DATABASE rungs OWNER {ADMIN}"));
        Some(server)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// Runs one of the server's programs (as `nobody` when the tests run as root).
    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = match self.as_user {
            Some((uid, gid)) => {
                let mut c = Command::new("setpriv");
                c.args([
                    format!("--reuid={uid}"),
                    format!("--regid={gid}"),
                    "--clear-groups".into(),
                ])
                .arg(&path);
                c
            }
            None => Command::new(&path),
        };
        let out = command
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .unwrap_or_else(|e| panic!("{program} did not start: {e}"));
        let log = std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default();
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}\n{log}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The directory holding the server's socket.
    pub fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// A `postgres://` URL of database `db` on this server as `user` (a password, if given,
    /// in the URL), with `query` appended (`ladder=club`).
    pub fn url(&self, user: &str, password: Option<&str>, db: &str, query: &str) -> String {
        let host: String = self.socket_dir().display().to_string().replace('/', "%2F");
        let auth = match password {
            Some(p) => format!("{user}:{p}"),
            None => user.to_string(),
        };
        let query = if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        };
        format!("postgres://{auth}@{host}/{db}{query}")
    }

    /// Runs `statements` in database `db` as the superuser, panicking on an error.
    pub fn sql(&self, db: &str, statements: &str) {
        let mut client = self.admin(db);
        client
            .batch_execute(statements)
            .unwrap_or_else(|e| panic!("{statements}: {e}"));
    }

    /// A connection to database `db` as the superuser.
    pub fn admin(&self, db: &str) -> postgres::Client {
        postgres::Config::new()
            .host_path(self.socket_dir())
            .user(ADMIN)
            .dbname(db)
            .connect(postgres::NoTls)
            .unwrap_or_else(|e| panic!("connect to the test server: {e}"))
    }

    /// Stops the server at once (what a crash or a pulled cable looks like to a client).
    pub fn stop(&self) {
        let data = self.data();
        self.run(
            "pg_ctl",
            &[
                "stop",
                "-m",
                "immediate",
                "-w",
                "-D",
                &data.display().to_string(),
            ],
        );
    }

    /// Starts the stopped server again, as it was.
    pub fn restart(&self) {
        let data = self.data();
        let hba = self.dir.path().join("hba");
        let log = self.dir.path().join("log");
        let options = format!(
            "-k {} -c listen_addresses='' -c hba_file={} -c fsync=off",
            self.dir.path().display(),
            hba.display()
        );
        self.run(
            "pg_ctl",
            &[
                "start",
                "-w",
                "-D",
                &data.display().to_string(),
                "-l",
                &log.display().to_string(),
                "-o",
                &options,
            ],
        );
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let data = self.data();
        let _ = Command::new(self.bin.join("pg_ctl"))
            .args(["stop", "-m", "immediate", "-D"])
            .arg(&data)
            .output();
        // As root the stop above was refused (pg_ctl will not run as root): stop as nobody.
        if let Some((uid, gid)) = self.as_user {
            let _ = Command::new("setpriv")
                .args([
                    format!("--reuid={uid}"),
                    format!("--regid={gid}"),
                    "--clear-groups".into(),
                ])
                .arg(self.bin.join("pg_ctl"))
                .args(["stop", "-m", "immediate", "-D"])
                .arg(&data)
                .output();
        }
    }
}
