//! A hostile tester's third round: each fault through the real binary where it was found
//! through it. Each test says what went wrong and what holds now.

use crate::support::cli as cli_support;
use crate::support::tools;
use cli_support::Dir;
use cli_support::{LADDER, assert_mentions, failed};
use rustix::fs::{CWD, FileType, Mode};
use rustix::process::{Pid, Signal, kill_process};
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The `rules` events of a ladder's log, in order (their JSON bodies).
fn rules_events(dir: &Dir, file: &str) -> Vec<Value> {
    let events = json(&dir.ok(&["events", file, "--json"]));
    events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "rules")
        .map(|e| e["rules"].clone())
        .collect()
}

/// A ladder of `n` matches among six players, side A at home and winning two in three.
fn home_ladder(dir: &Dir, file: &str, system: &str, n: usize) {
    let mut csv = String::from("date,player_a,player_b,score,home\n");
    let names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"];
    for i in 0..n {
        let (a, b) = (names[i % 6], names[(i * 5 + 1) % 6]);
        let (a, b) = if a == b {
            (a, names[(i + 2) % 6])
        } else {
            (a, b)
        };
        let day = 1 + (i / 4) % 28;
        let month = 1 + (i / 112) % 12;
        let score = if i % 3 == 2 { "0" } else { "1" };
        csv += &format!("2024-{month:02}-{day:02},{a},{b},{score},a\n");
    }
    dir.write("home.csv", &csv);
    dir.ok(&["new", file, "--system", system]);
    dir.ok(&["import", file, "home.csv"]);
}

/// The processor time process `pid` has used so far (Linux's `/proc/PID/stat`), while it runs.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name in parentheses: state is field 3, utime and stime 14 and 15.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().ok()? + fields[12].parse::<u64>().ok()?;
    (fields[0] != "Z").then(|| {
        Duration::from_secs_f64(ticks as f64 / rustix::param::clock_ticks_per_second() as f64)
    })
}

/// `fit --apply` started on a big ladder, and a `rules` change by another program
/// while it fitted: both said done, and the fit's rules event put back what the other had
/// changed (`idle_days` 365, the manual calendar). Now the fit's change is made against the
/// ladder it read: refused when another program changed it meanwhile, and fitted again on what
/// is there. Whatever the timing, the other program's change survives.
#[test]
fn a_fit_applied_while_another_program_changes_the_rules_keeps_that_change() {
    let dir = Dir::new("fit-race");
    dir.ok(&[
        "simulate",
        "sim.rungs",
        "--players",
        "300",
        "--weeks",
        "16",
        "--matches-per-week",
        "2500",
        "--system",
        "elo",
    ]);
    // The fit reads the ladder in its first few percent of work and records its change in
    // its last: stopped (SIGSTOP) half-way through the work a fit of this ladder without
    // `--apply` does, it has read the ladder and not yet changed it, on any machine. The
    // other program changes the rules then, and the fit is let go after.
    let work = {
        let mut alone = dir
            .command(&["fit", "sim.rungs", "--params", "k"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let mut most = Duration::ZERO;
        while alone.try_wait().unwrap().is_none() {
            most = most.max(cpu_time(alone.id()).unwrap_or(most));
            std::thread::sleep(Duration::from_millis(1));
        }
        most
    };
    let mut fit = dir
        .command(&["fit", "sim.rungs", "--params", "k", "--apply"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = Pid::from_child(&fit);
    while cpu_time(fit.id()).is_some_and(|t| t < work / 2) {
        std::thread::sleep(Duration::from_millis(1));
    }
    kill_process(pid, Signal::STOP).unwrap();
    assert!(
        fit.try_wait().unwrap().is_none(),
        "the fit ended before half its work"
    );
    dir.ok(&[
        "rules",
        "sim.rungs",
        "--param",
        "idle_days=30",
        "--soft-every",
        "7",
    ]);
    kill_process(pid, Signal::CONT).unwrap();
    let out = fit.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stderr}");
    assert_mentions(
        &stderr,
        &["another program changed sim.rungs while it was being fitted; nothing was recorded"],
    );
    assert!(said.contains("Done — "), "{said}");
    let last = rules_events(&dir, "sim.rungs").pop().unwrap();
    assert_eq!(last["params"]["idle_days"], 30, "{last}");
    assert_eq!(last["calendar"]["scheduled"]["soft_days"], 7, "{last}");
    let k = last["params"]["k"].as_f64().unwrap();
    assert!((1.0..=200.0).contains(&k), "{last}");
}

/// After `rules --param k=10 --date <next year>`, `fit --params advantage --apply`
/// recorded "elo K=10 … from today": the scheduled change came forward. The fit starts from
/// the rules in force today, as `rules --param` does.
#[test]
fn a_fit_applied_today_does_not_bring_a_scheduled_change_forward() {
    let dir = Dir::new("fit-scheduled");
    home_ladder(&dir, LADDER, "elo", 120);
    let next_year = (chrono::Local::now().date_naive() + chrono::Days::new(365)).to_string();
    dir.ok(&["rules", LADDER, "--param", "k=10", "--date", &next_year]);
    let out = json(&dir.ok(&["fit", LADDER, "--params", "advantage", "--apply", "--json"]));
    let label = out["applied"]["label"].as_str().unwrap();
    assert!(label.starts_with("rules: elo K=32"), "{label}");
    let rules = rules_events(&dir, LADDER);
    assert_eq!(rules.len(), 2, "{rules:?}");
    // In replay order: today's fit, then next year's K=10, which still waits for its date.
    let k: Vec<f64> = rules
        .iter()
        .map(|r| r["params"]["k"].as_f64().unwrap())
        .collect();
    assert_eq!(k, [32.0, 10.0]);
    assert!(rules[0]["advantage"].as_f64().unwrap() > 0.0, "{rules:?}");
}

/// `fit --params initial_rating --apply` on a 20-match Elo ladder recorded
/// `initial_rating=500` for a training log-loss of 0.4919 before and after (Elo's predictions
/// depend on rating differences only, so every start value predicts alike but for rounding).
/// A value moves only for a gain above 1e-9; otherwise it is kept, and said so.
#[test]
fn a_parameter_that_changes_no_prediction_keeps_its_value() {
    let dir = Dir::new("fit-no-gain");
    home_ladder(&dir, LADDER, "elo", 20);
    let before = dir.snapshot(LADDER);
    let out = json(&dir.ok(&[
        "fit",
        LADDER,
        "--params",
        "initial_rating",
        "--apply",
        "--json",
    ]));
    let p = &out["fits"][0]["params"][0];
    assert_eq!(p["name"], "initial_rating");
    assert_eq!(
        (p["start"].as_f64(), p["fitted"].as_f64()),
        (Some(1500.0), Some(1500.0))
    );
    assert_eq!(p["kept"], true);
    assert_eq!(out["applied"], Value::Null);
    assert_eq!(dir.snapshot(LADDER), before, "nothing was recorded");
    let text = dir.ok(&["fit", LADDER, "--params", "initial_rating", "--apply"]);
    assert_mentions(
        &text,
        &[
            "(kept: no value predicts better)",
            "Nothing applied: no parameter predicts better than its value in force",
        ],
    );
    // A parameter that matters still moves: K on the same ladder.
    let k = json(&dir.ok(&["fit", LADDER, "--params", "k", "--json"]));
    assert_eq!(k["fits"][0]["params"][0]["kept"], false, "{k}");
}

/// `rungs export club.rungs mynull` (a device node) printed "wrote mynull" and left
/// a regular file where the node was; `/dev/full` was replaced the same way; an export to a
/// FIFO never returned. Every kind of target: a new name or a regular file is written, a link
/// is written through to its file, anything else is refused by name at once and left as it
/// was. `-` streams the log to standard output.
#[test]
fn an_export_writes_only_a_file_and_refuses_every_other_kind_of_target() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Dir::new("export-kinds");
    dir.ladder();
    dir.ok(&["export", LADDER, "plain.jsonl"]);
    let log = std::fs::read_to_string(dir.path("plain.jsonl")).unwrap();
    // Standard output: the same log, streamed; no "wrote" line mixed into it.
    assert_eq!(dir.ok(&["export", LADDER, "-"]), log);
    // … but never into the ladder itself (`>> club.rungs`, found attacking this change).
    let standings = dir.ok(&["standings", LADDER, "--json"]);
    let into_itself = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path(LADDER))
        .unwrap();
    let out = dir
        .command(&["export", LADDER, "-"])
        .stdout(into_itself)
        .output()
        .unwrap();
    let m = failed(&["export", LADDER, "-"], &out);
    assert_mentions(&m, &["standard output is this ladder's own file"]);
    assert_eq!(dir.ok(&["standings", LADDER, "--json"]), standings);
    // A regular file is replaced; a link is written through, and stays a link.
    dir.write("old.jsonl", "old");
    dir.ok(&["export", LADDER, "old.jsonl"]);
    assert_eq!(std::fs::read_to_string(dir.path("old.jsonl")).unwrap(), log);
    dir.write("target.jsonl", "old");
    std::os::unix::fs::symlink(dir.path("target.jsonl"), dir.path("link.jsonl")).unwrap();
    dir.ok(&["export", LADDER, "link.jsonl"]);
    assert!(
        dir.path("link.jsonl")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.path("target.jsonl")).unwrap(),
        log
    );
    // Refused, each by name, each left as it was.
    std::os::unix::fs::symlink(dir.path("nothing-here"), dir.path("dangling.jsonl")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.path("null-link")).unwrap();
    std::fs::create_dir(dir.path("folder")).unwrap();
    rustix::fs::mkfifoat(CWD, dir.path("fifo"), Mode::from_raw_mode(0o644)).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.path("socket")).unwrap();
    let mut cases = vec![
        (
            "dangling.jsonl",
            "is a symbolic link to a file that is not there",
        ),
        ("null-link", "is a device, not a file"),
        ("folder", "is a folder"),
        ("fifo", "is a pipe, not a file"),
        ("socket", "is a socket, not a file"),
    ];
    // As root, a device node of the test's own (the finding's `mknod -m 666 mynull c 1 3`).
    // makedev(1, 3) is /dev/null's number.
    let null = rustix::fs::makedev(1, 3);
    let mode = Mode::from_raw_mode(0o666);
    match rustix::fs::mknodat(
        CWD,
        dir.path("mynull"),
        FileType::CharacterDevice,
        mode,
        null,
    ) {
        Ok(()) => cases.push(("mynull", "is a device, not a file")),
        Err(_) if !tools::root() => {
            tools::skipped("exporting to a device node: making one needs root")
        }
        Err(e) => panic!("root could not make a device node: {e}"),
    }
    for (name, said) in cases {
        let kind_before = dir.path(name).symlink_metadata().unwrap().file_type();
        let args = ["export", LADDER, name];
        let out = if name == "fifo" {
            export_with_a_reader(&dir, &args)
        } else {
            dir.run(&args)
        };
        let m = failed(&args, &out);
        assert_mentions(&m, &[name, said]);
        let kind_after = dir.path(name).symlink_metadata().unwrap().file_type();
        assert_eq!(kind_before, kind_after, "{name} was replaced");
        if name == "mynull" {
            assert!(kind_after.is_char_device());
        }
    }
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

/// Runs `rungs export … fifo` while a reader waits on the FIFO. An export that opened it (it
/// used to, and waited there for ever with no reader) finds this one, writes the log into it
/// and is caught by what the reader got; one that refuses the FIFO by name never opens it,
/// and the reader's own open (which waits for a writer) is let go by a writer of the test's.
fn export_with_a_reader(dir: &Dir, args: &[&str]) -> std::process::Output {
    use std::os::unix::fs::OpenOptionsExt;
    let fifo = dir.path("fifo");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            std::fs::File::open(fifo)
                .and_then(|mut f| f.read_to_end(&mut got))
                .unwrap();
            got
        })
    };
    let out = dir.run(args);
    // Opened without waiting, a FIFO's writer end fails while no reader has it open: tried
    // until the reader is there, or done.
    while !reader.is_finished() {
        let writer = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
        match writer {
            Ok(_) => break,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => std::thread::yield_now(),
            Err(e) => panic!("{e}"),
        }
    }
    let got = reader.join().unwrap();
    assert!(
        got.is_empty(),
        "the export wrote {} bytes into the FIFO",
        got.len()
    );
    out
}

/// `import --home-col nosuch` (or `--neutral-col nosuch`, or `--home-col date`)
/// imported with no home flags, passing over the file's own `home` column, a `banana` in it
/// included. Every mapped column must be in the header, and be read as one thing only.
#[test]
fn every_column_an_import_is_told_of_must_be_there_and_be_one_thing() {
    let dir = Dir::new("csv-mapping");
    dir.ok(&["new", LADDER]);
    dir.write(
        "week.csv",
        "date,player_a,player_b,score,home,when,first,second,result,ga,gb\n\
         2024-01-01,Ann,Bo,1,banana,2024-01-01,Ann,Bo,1,1,0\n",
    );
    let before = dir.snapshot(LADDER);
    let missing: [&[&str]; 8] = [
        &["--date-col", "nosuch"],
        &["--a-col", "nosuch"],
        &["--b-col", "nosuch"],
        &["--score-col", "nosuch"],
        &["--goals-a-col", "nosuch", "--goals-b-col", "gb"],
        &["--goals-a-col", "ga", "--goals-b-col", "nosuch"],
        &["--home-col", "nosuch"],
        &["--neutral-col", "nosuch"],
    ];
    for options in missing {
        let mut args = vec!["import", LADDER, "week.csv"];
        args.extend_from_slice(options);
        let m = dir.fail(&args);
        assert_mentions(
            &m,
            &["week.csv", "line 1", "`nosuch`", "the header has no column"],
        );
    }
    for (options, twice) in [
        (
            &["--home-col", "date"][..],
            "as the date and as the home side",
        ),
        (
            &["--neutral-col", "player_a"][..],
            "as side A and as the neutral-ground flag",
        ),
        (
            &["--a-col", "first", "--b-col", "first"][..],
            "as side A and as side B",
        ),
        (&["--score-col", "date"][..], "as the date and as the score"),
    ] {
        let mut args = vec!["import", LADDER, "week.csv"];
        args.extend_from_slice(options);
        let m = dir.fail(&args);
        assert_mentions(&m, &["week.csv", "is mapped twice", twice]);
    }
    // Without options the file's own `home` column is read, and its banana refused.
    let m = dir.fail(&["import", LADDER, "week.csv"]);
    assert_mentions(&m, &["line 2", "`home`", "banana"]);
    assert_eq!(dir.snapshot(LADDER), before, "nothing was imported");
    // Named and there, the columns are read (here the home flag from a column of its own).
    dir.write(
        "other.csv",
        "when,first,second,result,where
2024-01-01,Ann,Bo,1,b
",
    );
    dir.ok(&[
        "import",
        LADDER,
        "other.csv",
        "--date-col",
        "when",
        "--a-col",
        "first",
        "--b-col",
        "second",
        "--score-col",
        "result",
        "--home-col",
        "where",
    ]);
    let events = json(&dir.ok(&["events", LADDER, "--json"]));
    let last = events.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["home"], "b", "{last}");
}

/// `events`, `standings --json`, `history --json`, `seasons --json` and `man` into
/// `/dev/full` exited 0 with the output gone; `completions bash` panicked (101); an error
/// printed to a closed stderr gave 101. A failed write is exit 1 with its reason; a closed
/// pipe is the usual quiet exit.
#[test]
fn a_failed_write_to_standard_output_is_an_error_and_never_a_panic() {
    let dir = Dir::new("full-stdout");
    dir.ladder();
    let commands: [&[&str]; 7] = [
        &["events", LADDER],
        &["standings", LADDER, "--json"],
        &["history", LADDER, "Ann", "--json"],
        &["seasons", LADDER, "--json"],
        &["man"],
        &["completions", "bash"],
        &["export", LADDER, "-"],
    ];
    for args in commands {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = dir.command(args).stdout(full).output().unwrap();
        let m = failed(args, &out);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_mentions(
            &m,
            &["standard output: cannot write", "No space left on device"],
        );
        // A reader that closes the pipe early: quiet, and no error.
        let mut child = dir
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {:?}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    // An error with stderr closed: exit 1, not a panic's 101.
    let mut child = dir
        .command(&["standings", "nosuch.rungs"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

/// `simulate` wrote matches dated after today, which its own export could not
/// `import-log`. A simulation without `--start` ends by today; one whose `--start` runs past
/// today is refused, naming the field and the latest start.
#[test]
fn a_simulation_is_dated_in_the_past_and_its_export_imports_back() {
    let dir = Dir::new("sim-dates");
    let today = chrono::Local::now().date_naive();
    dir.ok(&[
        "simulate",
        "sim.rungs",
        "--players",
        "12",
        "--weeks",
        "60",
        "--matches-per-week",
        "6",
    ]);
    let events = json(&dir.ok(&["events", "sim.rungs", "--json"]));
    let last = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["date"].as_str().unwrap().to_string())
        .max()
        .unwrap();
    assert!(last <= today.to_string(), "{last} is after {today}");
    dir.ok(&["export", "sim.rungs", "sim.jsonl"]);
    dir.ok(&["import-log", "back.rungs", "sim.jsonl"]);
    let start = (today - chrono::Days::new(7)).to_string();
    let m = dir.fail(&[
        "simulate",
        "late.rungs",
        "--players",
        "4",
        "--weeks",
        "2",
        "--matches-per-week",
        "2",
        "--start",
        &start,
    ]);
    let latest = (today - chrono::Days::new(13)).to_string();
    assert_mentions(
        &m,
        &["late.rungs", "`start`", &start, "after today", &latest],
    );
    assert!(!dir.path("late.rungs").exists());
}

/// A mean over no match (`fit --json` with no test matches printed `log_loss: 0.0`) is null
/// in JSON, never a number read as a perfect score, and nothing non-finite is
/// printed, whatever the log holds.
#[test]
fn scores_over_nothing_are_null_and_every_number_is_finite() {
    fn finite_or_null(v: &Value, path: &str) {
        match v {
            Value::Number(n) => assert!(n.as_f64().is_some_and(f64::is_finite), "{path}: {n}"),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| finite_or_null(x, &format!("{path}[{i}]"))),
            Value::Object(o) => o
                .iter()
                .for_each(|(k, x)| finite_or_null(x, &format!("{path}.{k}"))),
            _ => {}
        }
    }
    let dir = Dir::new("eval-nothing");
    dir.ok(&["new", LADDER]);
    dir.ok(&["add-player", LADDER, "Ann", "Bo", "--date", "2026-01-01"]);
    for result in ["0.5", "forfeit-a", "cancelled"] {
        dir.ok(&[
            "add-match",
            LADDER,
            "Ann",
            "Bo",
            result,
            "--date",
            "2026-01-02",
        ]);
    }
    let out = json(&dir.ok(&["evaluate", LADDER, "--json"]));
    finite_or_null(&out, "evaluate");
    for s in out["scores"].as_array().unwrap() {
        assert_eq!(s["accuracy"], Value::Null, "{s}");
        assert_eq!(
            (s["matches"].as_u64(), s["decisive"].as_u64()),
            (Some(1), Some(0))
        );
    }
    // A fit whose split leaves no test match: its test scores are null.
    let out = json(&dir.ok(&[
        "fit",
        LADDER,
        "--system",
        "elo",
        "--until",
        "2026-01-03",
        "--json",
    ]));
    finite_or_null(&out, "fit");
    let fitted = &out["fits"][0]["fitted"];
    assert_eq!(fitted["test"]["matches"], 0, "{fitted}");
    assert_eq!(fitted["test"]["log_loss"], Value::Null, "{fitted}");
    assert_eq!(fitted["test"]["brier"], Value::Null, "{fitted}");
    assert!(fitted["train"]["log_loss"].as_f64().is_some(), "{fitted}");
}

/// A match entered where the day had begun (UTC+14) could not have its score
/// edited where it had not (UTC−12): "in the future". A date left as it was is not checked
/// against today; one moved ahead still is, and "today" says whose calendar it is.
#[test]
fn a_match_entered_east_of_here_can_be_edited_west_of_here() {
    let dir = Dir::new("time-zones");
    dir.ladder();
    let east = (chrono::Utc::now() + chrono::Duration::hours(14))
        .date_naive()
        .to_string();
    let tz = |zone: &str, args: &[&str]| {
        let out = dir.command(args).env("TZ", zone).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, e) = tz(
        "Etc/GMT-14",
        &["add-match", LADDER, "Cy", "Ann", "1", "--date", &east],
    );
    assert!(ok, "{e}");
    let seq = json(&dir.ok(&["events", LADDER, "--json"]))
        .as_array()
        .unwrap()
        .last()
        .unwrap()["seq"]
        .to_string();
    let (ok, e) = tz("Etc/GMT+12", &["edit-match", LADDER, &seq, "--score", "0"]);
    assert!(ok, "{e}");
    let (ok, e) = tz(
        "Etc/GMT+12",
        &["add-match", LADDER, "Cy", "Ann", "1", "--date", &east],
    );
    assert!(!ok);
    assert_mentions(&e, &["is in the future", "on this computer's calendar"]);
}

/// A file with rungs' mark and format number −1 was "no schema for format -1".
#[test]
fn a_negative_format_number_is_not_a_rungs_ladder() {
    let dir = Dir::new("format-minus-one");
    dir.ladder();
    cli_support::sqlite(&dir.path(LADDER))
        .pragma_update(None, "user_version", -1)
        .unwrap();
    let m = dir.fail(&["standings", LADDER]);
    assert_mentions(&m, &[LADDER, "not a rungs ladder", "format number -1"]);
}

/// Through the binary: installed from a folder whose name holds line breaks, the
/// entry gained keys (`Terminal=true`, `X-Injected=1`); from `pct%u`, a field code. The first
/// is refused with nothing written; the second is written `%%`.
#[test]
fn install_desktop_from_a_hostile_folder_injects_nothing() {
    let dir = Dir::new("desktop-folders");
    for (folder, ok) in [("pct%u", true), ("bin\nTerminal=true\nX-Injected=1", false)] {
        let bin = dir.path(folder);
        std::fs::create_dir_all(&bin).unwrap();
        let exe = bin.join("rungs");
        if std::fs::hard_link(env!("CARGO_BIN_EXE_rungs"), &exe).is_err() {
            std::fs::copy(env!("CARGO_BIN_EXE_rungs"), &exe).unwrap();
        }
        let data = dir.path("data");
        let out = Command::new(&exe)
            .arg("install-desktop")
            .env("XDG_DATA_HOME", &data)
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let entry = std::fs::read_to_string(data.join("applications/rungs.desktop"));
        if ok {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let entry = entry.unwrap();
            let exec = format!("\nExec={}/pct%%u/rungs %f\n", dir.0.display());
            assert!(entry.contains(&exec), "{entry}");
            std::fs::remove_dir_all(&data).unwrap();
        } else {
            let m = failed(&["install-desktop"], &out);
            assert_mentions(&m, &["line break", "install again"]);
            assert!(entry.is_err(), "an entry was written");
        }
    }
}

/// Another program's edit of what no digest covered went unnoticed but by `check`
/// (which itself called an edited label sound): `UPDATE actions SET label=…` made `undo` say
/// "undid: added Bo beat Ann" while taking back "Ann beat Cy"; `cache_ladder.last_day` moved
/// back made a backdated match land on the end state; a history blob's middle rows rewritten,
/// or two players' blobs swapped, showed another past. Each is now refused when read, with
/// the way to repair, and `check` names it.
#[test]
fn what_no_digest_covered_is_guarded_and_refused_with_the_way_to_repair() {
    let cases: [(&str, &str, &[&str], &str); 4] = [
        (
            "label",
            "UPDATE actions SET label = 'added Bo beat Ann' WHERE id = (SELECT MAX(id) FROM actions)",
            &["undo", LADDER],
            "the labels of its actions (what undo says it takes back) were changed outside rungs",
        ),
        (
            "last-day",
            "UPDATE cache_ladder SET last_day = last_day - 100",
            &[
                "add-match",
                LADDER,
                "Cy",
                "Ann",
                "1",
                "--date",
                "2026-01-01",
            ],
            "the caches' last event (`cache_ladder.last_day`, `last_seq`) was changed outside rungs",
        ),
        (
            "history-rows",
            "UPDATE cache_history SET rows = CAST(substr(rows, 1, 3) || x'7f' || substr(rows, 5) AS BLOB) \
             WHERE player = 0",
            &["history", LADDER, "Ann"],
            "the players' histories were changed outside rungs",
        ),
        (
            "history-swap",
            "UPDATE cache_history SET rows = (SELECT rows FROM cache_history h \
             WHERE h.player = 1 - cache_history.player) WHERE player IN (0, 1)",
            &["history", LADDER, "Bo"],
            "the players' histories were changed outside rungs",
        ),
    ];
    for (tag, sql, read, why) in cases {
        let dir = Dir::new(&format!("guard-{tag}"));
        dir.ladder();
        dir.ok(&[
            "add-match",
            LADDER,
            "Ann",
            "Cy",
            "1",
            "--date",
            "2026-01-03",
        ]);
        let honest = dir.ok(&["history", LADDER, "Ann", "--json"]);
        cli_support::sqlite(&dir.path(LADDER))
            .execute_batch(sql)
            .unwrap();
        let m = dir.fail(read);
        assert_mentions(&m, &[LADDER, why, "rungs repair"]);
        let out = dir.run(&["check", LADDER]);
        assert!(!out.status.success(), "{tag}: check called it sound");
        let said = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            said.contains(why.split(" (").next().unwrap()) || said.contains("histories"),
            "{tag}: {said}"
        );
        dir.ok(&["repair", LADDER]);
        assert!(dir.ok(&["check", LADDER]).contains("sound"), "{tag}");
        if tag != "label" {
            assert_eq!(
                dir.ok(&["history", LADDER, "Ann", "--json"]),
                honest,
                "{tag}"
            );
        }
        dir.ok(read);
    }
}
