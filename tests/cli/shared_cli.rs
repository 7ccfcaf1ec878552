//! Shared ladders through the real binary against a real PostgreSQL server the test starts
//! (`rungs_testkit::postgres`): several organisers' machines (each its own cache directory,
//! so its own replica) writing at once, a writer killed mid-append, the server stopped and
//! started again, a conflict said in words, rows written on the server by hand, a viewer's
//! role and a wrong password.

use rungs_testkit::TempDir;
use rungs_testkit::postgres::PgServer;
use serde_json::Value;
use std::process::{Command, Output};

/// One organiser's machine: its own replicas (`RUNGS_CACHE_DIR`) and `~/.pgpass`.
struct Machine {
    dir: TempDir,
    url: String,
}

impl Machine {
    fn new(server: &PgServer, role: &str, password: &str, ladder: &str) -> Machine {
        let dir = TempDir::new("machine");
        // Mode 0600 is what libpq asks of the file; rungs reads it as libpq does.
        std::fs::write(
            dir.path().join("pgpass"),
            format!("*:*:*:{role}:{password}\n"),
        )
        .unwrap();
        let url = server.url(role, None, "rungs", &format!("ladder={ladder}"));
        Machine { dir, url }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_rungs"));
        c.args(args)
            .env("RUNGS_CACHE_DIR", self.dir.path().join("cache"))
            .env("PGPASSFILE", self.dir.path().join("pgpass"))
            .env_remove("PGPASSWORD");
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// `args` with the machine's URL for `URL`; must succeed; its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "URL" { self.url.as_str() } else { a })
            .collect();
        let out = self.run(&args);
        assert!(
            out.status.success(),
            "rungs {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `args` must fail; its stderr.
    fn fails(&self, args: &[&str]) -> String {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "URL" { self.url.as_str() } else { a })
            .collect();
        let out = self.run(&args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "rungs {args:?} did not fail: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stderr).unwrap()
    }

    fn json(&self, args: &[&str]) -> Value {
        serde_json::from_str(&self.ok(args)).unwrap()
    }

    fn file(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

/// A server with ladder `ladder` made by the superuser, organisers ann and bo, viewer vic.
fn server_with_ladder(tag: &str, ladder: &str) -> Option<PgServer> {
    let server = PgServer::start(tag)?;
    let admin_url = server.url(
        rungs_testkit::postgres::ADMIN,
        None,
        "rungs",
        &format!("ladder={ladder}"),
    );
    let admin = Machine {
        dir: TempDir::new("admin"),
        url: admin_url,
    };
    admin.ok(&["new", "URL", "--system", "elo"]);
    server.sql(
        "rungs",
        "CREATE ROLE ann LOGIN PASSWORD 'ann-pw';
         CREATE ROLE bo LOGIN PASSWORD 'bo-pw';
         CREATE ROLE vic LOGIN PASSWORD 'vic-pw';
         GRANT SELECT ON rungs_schema, rungs_ladders, rungs_actions TO ann, bo, vic;
         GRANT INSERT ON rungs_actions TO ann, bo;
         GRANT UPDATE ON rungs_ladders TO ann, bo;",
    );
    Some(server)
}

/// The server's matches of `ladder`, counted in its rows.
fn server_matches(server: &PgServer, ladder: &str) -> i64 {
    let mut admin = server.admin("rungs");
    admin
        .query_one(
            "SELECT count(*) FROM rungs_actions a, jsonb_array_elements(a.rows::jsonb) r \
             WHERE a.ladder = $1 AND r->>'op' = 'add' AND r->'event'->>'kind' = 'match'",
            &[&ladder],
        )
        .unwrap()
        .get(0)
}

fn events(machine: &Machine) -> Vec<Value> {
    machine
        .json(&["events", "URL", "--json"])
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn matches_in(machine: &Machine) -> usize {
    events(machine)
        .iter()
        .filter(|e| e.to_string().contains("\"match\""))
        .count()
}

const PLAYERS: [&str; 6] = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"];

/// Three organisers' machines, each entering 12 matches as fast as it can, one process a
/// match: every match lands once on the server (3 × 12 = 36) and in every replica, and the
/// standings each machine shows are those of a fresh replay of `rungs export URL`.
#[test]
fn three_writers_at_once_land_every_match_once() {
    let Some(server) = server_with_ladder("writers", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    let mut add = vec!["add-player", "URL"];
    add.extend(PLAYERS);
    add.extend(["--date", "2026-01-01"]);
    ann.ok(&add);
    let machines = [
        ann,
        Machine::new(&server, "bo", "bo-pw", "club"),
        Machine::new(&server, "ann", "ann-pw", "club"),
    ];
    const EACH: usize = 12;
    std::thread::scope(|s| {
        for (m, machine) in machines.iter().enumerate() {
            s.spawn(move || {
                for i in 0..EACH {
                    let a = PLAYERS[(m + i) % 6];
                    let b = PLAYERS[(m + i + 1 + i % 4) % 6];
                    if a == b {
                        continue;
                    }
                    machine.ok(&["add-match", "URL", a, b, "1", "--date", "2026-01-02"]);
                }
            });
        }
    });
    let expected: usize = (0..3)
        .map(|m| {
            (0..EACH)
                .filter(|i| PLAYERS[(m + i) % 6] != PLAYERS[(m + i + 1 + i % 4) % 6])
                .count()
        })
        .sum();
    assert_eq!(
        expected, 36,
        "(m + i) and (m + 2i + 1 + i mod 4) mod 6 never meet here"
    );
    assert_eq!(server_matches(&server, "club"), 36);
    let exported = machines[0].file("log.jsonl");
    machines[0].ok(&["export", "URL", &exported]);
    let fresh = machines[0].file("fresh.rungs");
    machines[0].ok(&["import-log", &fresh, &exported]);
    let replayed: Value =
        serde_json::from_str(&machines[0].ok(&["standings", &fresh, "--json"])).unwrap();
    for machine in &machines {
        assert_eq!(matches_in(machine), 36);
        assert_eq!(machine.json(&["standings", "URL", "--json"]), replayed);
        assert!(
            machine
                .ok(&["status", "URL"])
                .contains("0 changes waiting for the server")
        );
    }
}

/// A writer killed (SIGKILL) at moments across its run: afterwards the server and the
/// replica hold the same matches, none twice, and those the killed writers got in at most.
#[test]
fn a_writer_killed_mid_append_loses_and_doubles_nothing() {
    let Some(server) = server_with_ladder("killed", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&["add-player", "URL", "Ann", "Bo", "--date", "2026-01-01"]);
    for delay_ms in [5u64, 20, 40, 60, 90, 130, 200] {
        let url = ann.url.clone();
        let mut child = ann
            .command(&["add-match", &url, "Ann", "Bo", "1", "--date", "2026-01-02"])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
    }
    // The next command sends whatever a killed writer left waiting.
    ann.ok(&["standings", "URL"]);
    let on_server = server_matches(&server, "club");
    assert!(on_server <= 7, "{on_server} matches from 7 writers");
    assert_eq!(matches_in(&ann), on_server as usize);
    let bo = Machine::new(&server, "bo", "bo-pw", "club");
    assert_eq!(matches_in(&bo), on_server as usize);
    let mut admin = server.admin("rungs");
    let ids: i64 = admin
        .query_one(
            "SELECT count(DISTINCT change_id) - count(*) FROM rungs_actions",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(ids, 0);
}

/// The server stopped while changes are made: they wait on the replica ("3 changes waiting
/// for the server"), and the first command once it is back sends each once.
#[test]
fn with_the_server_stopped_changes_wait_and_go_once_it_is_back() {
    let Some(server) = server_with_ladder("offline", "club") else {
        return;
    };
    let bo = Machine::new(&server, "bo", "bo-pw", "club");
    bo.ok(&[
        "add-player",
        "URL",
        "Ann",
        "Bo",
        "Cy",
        "--date",
        "2026-01-01",
    ]);
    server.stop();
    for (a, b) in [("Ann", "Bo"), ("Bo", "Cy"), ("Cy", "Ann")] {
        let out = bo.run(&["add-match", &bo.url, a, b, "1", "--date", "2026-01-02"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let last = bo.run(&["standings", &bo.url]);
    assert!(last.status.success());
    assert!(
        String::from_utf8_lossy(&last.stderr).starts_with("3 changes waiting for the server: "),
        "{}",
        String::from_utf8_lossy(&last.stderr)
    );
    assert_eq!(matches_in(&bo), 3, "the replica shows the waiting matches");
    assert!(
        bo.ok(&["status", "URL"])
            .contains("server: cannot be reached")
    );
    server.restart();
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 3);
    bo.ok(&["standings", "URL"]);
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 0);
    assert_eq!(server_matches(&server, "club"), 3);
    // Sent again by nobody: a second sync finds nothing to send.
    bo.ok(&["standings", "URL"]);
    assert_eq!(server_matches(&server, "club"), 3);
}

/// Bo enters a match offline for Ann, whom Ann's organiser retires meanwhile: when Bo's
/// change reaches the server it is checked again, refused in words, and gone everywhere.
#[test]
fn a_match_for_a_player_retired_meanwhile_is_refused_in_words() {
    let Some(server) = server_with_ladder("conflict", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&["add-player", "URL", "Ann", "Bo", "--date", "2026-01-01"]);
    let bo = Machine::new(&server, "bo", "bo-pw", "club");
    bo.ok(&["standings", "URL"]);
    server.stop();
    bo.ok(&["add-match", "URL", "Ann", "Bo", "1", "--date", "2026-01-02"]);
    server.restart();
    ann.ok(&["retire", "URL", "Ann", "--date", "2026-01-02"]);
    let said = bo.fails(&["standings", "URL"]);
    assert!(
        said.contains("Ann was retired by another organiser (ann) at ")
            && said.contains("; the match was not saved"),
        "{said}"
    );
    assert_eq!(server_matches(&server, "club"), 0);
    assert_eq!(matches_in(&bo), 0);
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 0);
}

/// Rows written on the server by hand: each is refused by its number and change id, and the
/// replica stays as it was; a newer schema version is refused; a name that reads as SQL is
/// a name.
#[test]
fn hostile_server_rows_are_refused_and_names_stay_names() {
    let Some(server) = server_with_ladder("hostile", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    let evil = "Robert'); DROP TABLE rungs_actions; --";
    ann.ok(&["add-player", "URL", "Ann", evil, "--date", "2026-01-01"]);
    let names: Vec<String> = events(&ann).iter().map(|e| e.to_string()).collect();
    assert!(
        names.iter().any(|n| n.contains("DROP TABLE rungs_actions")),
        "{names:?}"
    );
    ann.ok(&["add-match", "URL", "Ann", evil, "1", "--date", "2026-01-02"]);
    let before = events(&ann);
    // A real match row with its first player made #999, who never joined: a forged event.
    let mut admin = server.admin("rungs");
    let real: String = admin
        .query_one("SELECT rows FROM rungs_actions WHERE seq = 2", &[])
        .unwrap()
        .get(0);
    let forged_match = real
        .replacen("[0]", "[999]", 1)
        .replacen("\"seq\":3", "\"seq\":4", 1);
    assert_ne!(forged_match, real);
    let forged = [
        ("bad-json", "do", None, "[{not json".to_string()),
        ("forged", "do", None, forged_match),
        // An undo must say which action it takes back.
        ("blind-undo", "undo", None, "[]".to_string()),
        ("wrong-undo", "undo", Some(1i64), "[]".to_string()),
    ];
    for (id, kind, target, rows) in forged {
        admin
            .execute(
                "INSERT INTO rungs_actions(ladder, seq, change_id, kind, target, label, rows) \
                 VALUES ('club', 3, $1, $2, $3, 'by hand', $4)",
                &[&id, &kind, &target, &rows],
            )
            .unwrap();
        admin
            .execute("UPDATE rungs_ladders SET head = 3 WHERE name = 'club'", &[])
            .unwrap();
        let said = ann.fails(&["standings", "URL"]);
        assert!(
            said.contains(&format!("the server's action 3 (change {id}) is refused")),
            "{said}"
        );
        assert!(said.contains("the replica was left as it was"), "{said}");
        admin
            .execute("DELETE FROM rungs_actions WHERE seq = 3", &[])
            .unwrap();
        admin
            .execute("UPDATE rungs_ladders SET head = 2 WHERE name = 'club'", &[])
            .unwrap();
        assert_eq!(events(&ann), before);
    }
    server.sql("rungs", "UPDATE rungs_schema SET version = 2");
    let said = ann.fails(&["standings", "URL"]);
    assert!(
        said.contains("schema version 2; this rungs reads version 1"),
        "{said}"
    );
}

/// A viewer's role reads the ladder and is refused a change in words before anything is
/// queued; a wrong password is said without being printed.
#[test]
fn a_viewer_cannot_write_and_a_wrong_password_is_not_printed() {
    let Some(server) = server_with_ladder("roles", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&["add-player", "URL", "Ann", "Bo", "--date", "2026-01-01"]);
    let vic = Machine::new(&server, "vic", "vic-pw", "club");
    assert!(vic.ok(&["standings", "URL"]).contains("Ann"));
    let said = vic.fails(&["add-match", "URL", "Ann", "Bo", "1"]);
    assert!(
        said.contains("role vic may read this ladder but not change it"),
        "{said}"
    );
    assert_eq!(vic.json(&["status", "URL", "--json"])["waiting"], 0);
    assert_eq!(matches_in(&vic), 0);
    let wrong = Machine::new(&server, "ann", "not-the-password-42", "club");
    let said = wrong.fails(&["standings", "URL"]);
    assert!(
        said.contains("the server refused the password for role ann"),
        "{said}"
    );
    assert!(!said.contains("not-the-password-42"), "{said}");
    let in_url = server.url("ann", Some("secret-in-url-7"), "rungs", "ladder=club");
    let out = wrong.run(&["standings", &in_url]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("refused the password") && !said.contains("secret-in-url-7"),
        "{said}"
    );
    // No password for ann anywhere, and no terminal to ask at (a script): where to put it.
    let none = Machine::new(&server, "somebody-else", "x", "club");
    let url = server.url("ann", None, "rungs", "ladder=club");
    let out = none.run(&["standings", &url]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(
            "the server asks a password for role ann, and none was given; put it in ~/.pgpass"
        ),
        "{said}"
    );
}

/// At a terminal, a password the server asks for and nobody gave is asked for, and not
/// echoed as it is typed (`script` gives the command a terminal; the password is its input).
#[test]
fn a_missing_password_is_asked_at_the_terminal_without_echo() {
    let Some(server) = server_with_ladder("prompt", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&[
        "add-player",
        "URL",
        "Ann Lee",
        "Bo Chen",
        "--date",
        "2026-01-01",
    ]);
    let none = Machine::new(&server, "somebody-else", "x", "club");
    let url = server.url("ann", None, "rungs", "ladder=club");
    let line = format!("{} standings '{url}'", env!("CARGO_BIN_EXE_rungs"));
    let c = none.command(&[]);
    let mut script = Command::new("script");
    script.args(["-qec", &line, "/dev/null"]);
    for (k, v) in c.get_envs() {
        match v {
            Some(v) => script.env(k, v),
            None => script.env_remove(k),
        };
    }
    script
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = match script.spawn() {
        Ok(child) => child,
        Err(e) => {
            rungs_testkit::postgres::skipped(&format!("`script` (util-linux) cannot run: {e}"));
            return;
        }
    };
    // Typed once the prompt shows, as a person would: what a terminal gets before that is
    // echoed by the terminal itself.
    use std::io::{Read as _, Write as _};
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 256];
    while !String::from_utf8_lossy(&seen).contains("password for") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "no prompt: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    // The prompt is written before the terminal's echo is turned off (rpassword prints, then
    // reads without echo): a person's typing comes later than that, so the test waits too.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"ann-pw\n").unwrap();
    stdout.read_to_end(&mut seen).unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    let seen = String::from_utf8_lossy(&seen);
    assert!(status.success(), "{seen}");
    assert!(
        seen.contains("password for ann at postgres://ann@"),
        "{seen}"
    );
    assert!(seen.contains("Bo Chen"), "the standings: {seen}");
    assert!(!seen.contains("ann-pw"), "the password was echoed: {seen}");
}

/// `copy FILE URL` puts a ladder on the server whole, undo history included, and `copy URL
/// FILE` takes it back: the same standings and the same log.
#[test]
fn a_ladder_copied_to_the_server_and_back_is_the_same_ladder() {
    let Some(server) = server_with_ladder("copy", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "other");
    let file = ann.file("club.rungs");
    ann.ok(&["new", &file, "--system", "elo"]);
    ann.ok(&[
        "add-player",
        &file,
        "Ann",
        "Bo",
        "Cy",
        "--date",
        "2026-01-01",
    ]);
    ann.ok(&["add-match", &file, "Ann", "Bo", "1", "--date", "2026-01-02"]);
    ann.ok(&["add-match", &file, "Bo", "Cy", "1", "--date", "2026-01-03"]);
    ann.ok(&["undo", &file]);
    ann.ok(&[
        "add-match",
        &file,
        "Cy",
        "Ann",
        "draw",
        "--date",
        "2026-01-04",
    ]);
    // The superuser makes the ladder; ann's role may write to it once made.
    let admin_url = server.url(
        rungs_testkit::postgres::ADMIN,
        None,
        "rungs",
        "ladder=copied",
    );
    assert!(ann.ok(&["copy", &file, &admin_url]).contains("(5 actions)"));
    let back = ann.file("back.rungs");
    ann.ok(&["copy", &admin_url, &back]);
    assert_eq!(
        ann.json(&["standings", &back, "--json"]),
        ann.json(&["standings", &file, "--json"])
    );
    let (a, b) = (ann.file("a.jsonl"), ann.file("b.jsonl"));
    ann.ok(&["export", &file, &a]);
    ann.ok(&["export", &back, &b]);
    assert_eq!(
        std::fs::read_to_string(a).unwrap(),
        std::fs::read_to_string(b).unwrap()
    );
    // The undo came along: redo is refused, as on the file (a match was done after it).
    assert_eq!(server_matches(&server, "copied"), 3);
}

/// A command refused on a shared ladder names the ladder by its URL, not by the replica.
#[test]
fn a_refusal_names_the_url_not_the_replica() {
    let Some(server) = server_with_ladder("words", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&["add-player", "URL", "Ann", "--date", "2026-01-01"]);
    let said = ann.fails(&[
        "add-match",
        "URL",
        "Ann",
        "Nobody",
        "1",
        "--date",
        "2026-01-02",
    ]);
    assert!(said.starts_with(&format!("rungs: {}", ann.url)), "{said}");
    assert!(said.contains("unknown player `Nobody`"), "{said}");
    assert!(!said.contains(".rungs"), "{said}");
}

/// Bo undoes the latest match offline while Ann's organiser enters another: Bo's undo would
/// now take back a change that is no longer the last, so it is refused in words and both
/// matches stand, on the server and in Bo's replica.
#[test]
fn a_stale_undo_is_refused_in_words() {
    let Some(server) = server_with_ladder("undo", "club") else {
        return;
    };
    let ann = Machine::new(&server, "ann", "ann-pw", "club");
    ann.ok(&[
        "add-player",
        "URL",
        "Ann",
        "Bo",
        "Cy",
        "--date",
        "2026-01-01",
    ]);
    ann.ok(&["add-match", "URL", "Ann", "Bo", "1", "--date", "2026-01-02"]);
    let bo = Machine::new(&server, "bo", "bo-pw", "club");
    bo.ok(&["standings", "URL"]);
    server.stop();
    bo.ok(&["undo", "URL"]);
    assert_eq!(
        matches_in(&bo),
        0,
        "offline, the undo shows on Bo's replica"
    );
    server.restart();
    ann.ok(&["add-match", "URL", "Bo", "Cy", "1", "--date", "2026-01-03"]);
    let said = bo.fails(&["standings", "URL"]);
    assert!(
        said.contains("\"added Ann beat Bo\" is no longer the last change: the ladder was changed by another organiser (ann) at ")
            && said.ends_with("; the undo was not saved\n"),
        "{said}"
    );
    assert_eq!(server_matches(&server, "club"), 2);
    assert_eq!(matches_in(&bo), 2);
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 0);
}

/// Twenty changes wait; the server is stopped while they are being sent, at moments across
/// the send, and started again: once a command gets through, each is on the server once.
#[test]
fn the_server_stopped_mid_sync_loses_and_doubles_nothing() {
    let Some(server) = server_with_ladder("midsync", "club") else {
        return;
    };
    let bo = Machine::new(&server, "bo", "bo-pw", "club");
    bo.ok(&["add-player", "URL", "Ann", "Bo", "--date", "2026-01-01"]);
    server.stop();
    for _ in 0..20 {
        bo.ok(&["add-match", "URL", "Ann", "Bo", "1", "--date", "2026-01-02"]);
    }
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 20);
    for delay_ms in [15u64, 40, 80] {
        server.restart();
        let url = bo.url.clone();
        let mut child = bo
            .command(&["standings", &url])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        server.stop();
        let _ = child.wait();
    }
    server.restart();
    bo.ok(&["standings", "URL"]);
    assert_eq!(bo.json(&["status", "URL", "--json"])["waiting"], 0);
    assert_eq!(server_matches(&server, "club"), 20);
    assert_eq!(matches_in(&bo), 20);
    assert_eq!(
        matches_in(&Machine::new(&server, "ann", "ann-pw", "club")),
        20
    );
}
