//! The challenge ladder and box leagues through the real binary: a challenge and its result
//! move the positions, undo gives the tables back, export and import-log keep them, `rungs
//! check` passes, and bad input is refused with a message naming the players while nothing
//! changes.

use crate::support::cli as cli_support;
use cli_support::{Dir, LADDER, assert_mentions};

/// Six players Ann…Fay on 1 March 2026, the challenge ladder in that order.
fn challenge_ladder(dir: &Dir) -> &'static str {
    let f = LADDER;
    dir.ok(&["new", f, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        f,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "Eve",
        "Fay",
        "--date",
        "2026-03-01",
    ]);
    dir.ok(&[
        "challenge-ladder",
        f,
        "--order",
        "Ann,Bo,Cy,Di,Eve,Fay",
        "--date",
        "2026-03-01",
    ]);
    f
}

fn positions(dir: &Dir, f: &str, date: &str) -> Vec<String> {
    let out = dir.ok(&["challenges", f, "--json", "--date", date]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_challenge_won_leapfrogs_and_undo_gives_the_table_back() {
    let dir = Dir::new("formats-leapfrog");
    let f = challenge_ladder(&dir);
    dir.ok(&["challenge", f, "Eve", "Bo", "--date", "2026-03-02"]);
    let open = dir.ok(&["challenges", f, "--json", "--date", "2026-03-05"]);
    let v: serde_json::Value = serde_json::from_str(&open).unwrap();
    // Made on 2 March with 7 days to play: the deadline is 9 March, 4 days after the 5th.
    assert_eq!(v["open"][0]["deadline"], "2026-03-09");
    assert_eq!(v["open"][0]["days_left"], 4);
    let before = dir.ok(&["challenges", f, "--json", "--date", "2026-03-05"]);
    let out = dir.ok(&["challenge-result", f, "1", "1", "--date", "2026-03-03"]);
    assert!(out.contains("Eve now at place 2, Bo at place 3"), "{out}");
    // Eve (5) takes Bo's place 2; Bo, Cy, Di move down one.
    assert_eq!(
        positions(&dir, f, "2026-03-05"),
        ["Ann", "Eve", "Bo", "Cy", "Di", "Fay"]
    );
    // The result rated as any match.
    let standings = dir.ok(&["standings", f, "--json"]);
    assert!(standings.contains("Eve"), "{standings}");
    dir.ok(&["undo", f]);
    assert_eq!(
        dir.ok(&["challenges", f, "--json", "--date", "2026-03-05"]),
        before
    );
    dir.ok(&["redo", f]);
    // Exported and loaded into a new file: the same table; `rungs check` finds nothing.
    dir.ok(&["export", f, "log.jsonl"]);
    dir.ok(&["import-log", "copy.rungs", "log.jsonl"]);
    assert_eq!(
        positions(&dir, "copy.rungs", "2026-03-05"),
        ["Ann", "Eve", "Bo", "Cy", "Di", "Fay"]
    );
    dir.ok(&["check", f]);
    dir.ok(&["check", "copy.rungs"]);
}

#[test]
fn bad_challenges_are_refused_naming_the_players_and_change_nothing() {
    let dir = Dir::new("formats-bad-challenges");
    let f = challenge_ladder(&dir);
    dir.ok(&["retire", f, "Cy", "--date", "2026-03-01"]);
    dir.ok(&["challenge", f, "Eve", "Bo", "--date", "2026-03-02"]);
    // After Cy retired: Ann 1, Bo 2, Di 3, Eve 4, Fay 5.
    let d = ["--date", "2026-03-03"];
    for (args, words) in [
        (
            vec!["challenge", f, "Fay", "Ann"],
            vec![
                "Fay (place 5) may challenge at most 3 places up, to place 2",
                "Ann is at place 1",
            ],
        ),
        (
            vec!["challenge", f, "Di", "Di"],
            vec!["Di cannot challenge themselves"],
        ),
        (
            vec!["challenge", f, "Di", "Cy"],
            vec!["Cy holds no position on the challenge ladder (retired?)"],
        ),
        (
            vec!["challenge", f, "Eve", "Ann"],
            vec!["Eve already has challenge 1 open against Bo"],
        ),
        (
            vec!["challenge", f, "Di", "Bo"],
            vec!["Bo was challenged on 2026-03-02 and may be challenged again from 2026-03-09"],
        ),
        (
            vec!["challenge", f, "Nobody", "Bo"],
            vec!["Nobody", "challenger"],
        ),
        (
            vec!["challenge-result", f, "7", "1"],
            vec!["there is no challenge 7"],
        ),
        (
            vec!["challenge-result", f, "-1", "1"],
            vec!["`number`", "-1"],
        ),
    ] {
        let args = [&args[..], &d[..]].concat();
        let m = dir.fails_unchanged(f, &args);
        assert_mentions(&m, &[&[f][..], &words[..]].concat());
    }
    // A result for a challenge already closed.
    dir.ok(&["challenge-result", f, "1", "0", "--date", "2026-03-03"]);
    let m = dir.fails_unchanged(
        f,
        &["challenge-result", f, "1", "1", "--date", "2026-03-04"],
    );
    assert_mentions(
        &m,
        &["challenge 1 (Eve v Bo) closed on 2026-03-03: enter the match on its own"],
    );
    // Hostile settings.
    for (flag, value) in [
        ("--reach", "0"),
        ("--reach", "-1"),
        ("--reach", "99999999999"),
        ("--respond-days", "NaN"),
        ("--respond-days", "1e308"),
        ("--idle-days", "0"),
        ("--movement", "sideways"),
        ("--order", "Ann,Ann"),
        ("--order", "Ann,\u{202e}Bo"),
    ] {
        let m = dir.fails_unchanged(f, &["challenge-ladder", f, flag, value]);
        assert_mentions(&m, &[f]);
    }
}

/// Six players in two boxes of three for March 2026, points by game score.
fn boxes(dir: &Dir) -> &'static str {
    let f = LADDER;
    dir.ok(&["new", f, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        f,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "Eve",
        "Fay",
        "--date",
        "2026-03-01",
    ]);
    dir.ok(&[
        "start-boxes",
        f,
        "--start",
        "2026-03-01",
        "--end",
        "2026-03-31",
        "--box-size",
        "3",
        "--up",
        "1",
        "--down",
        "1",
        "--order",
        "Ann,Bo,Cy,Di,Eve,Fay",
    ]);
    f
}

#[test]
fn a_box_month_closes_into_the_next_with_one_up_and_one_down() {
    let dir = Dir::new("formats-boxes");
    let f = boxes(&dir);
    // Box 1: Cy beats Ann 3-1 (6–2), Cy beats Bo 3-0 (7–1), Ann beats Bo 3-2 (5–3):
    // Cy 13, Ann 7, Bo 4. Box 2: Fay beats Di 3-2 (5–3), Fay beats Eve 3-1 (6–2), Di beats
    // Eve 3-0 (7–1): Fay 11, Di 10, Eve 3.
    for (a, b, games) in [
        ("Cy", "Ann", "3-1"),
        ("Cy", "Bo", "3-0"),
        ("Ann", "Bo", "3-2"),
        ("Fay", "Di", "3-2"),
        ("Fay", "Eve", "3-1"),
        ("Di", "Eve", "3-0"),
    ] {
        dir.ok(&[
            "box-result",
            f,
            a,
            b,
            "--goals",
            games,
            "--date",
            "2026-03-10",
        ]);
    }
    let out = dir.ok(&["boxes", f, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let table = |b: usize| -> Vec<(String, u64)> {
        v["boxes"][b]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["player"].as_str().unwrap().to_string(),
                    r["points"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let s = |n: &str, p| (n.to_string(), p);
    assert_eq!(table(0), [s("Cy", 13), s("Ann", 7), s("Bo", 4)]);
    assert_eq!(table(1), [s("Fay", 11), s("Di", 10), s("Eve", 3)]);
    assert_eq!(v["boxes"][0]["still_to_play"], serde_json::json!([]));
    // Bo (bottom of box 1) goes down, Fay (top of box 2) up.
    let preview = dir.ok(&[
        "close-period",
        f,
        "--preview",
        "--json",
        "--date",
        "2026-03-31",
    ]);
    let p: serde_json::Value = serde_json::from_str(&preview).unwrap();
    assert_eq!(
        p["boxes"],
        serde_json::json!([["Cy", "Ann", "Fay"], ["Bo", "Di", "Eve"]])
    );
    assert_eq!(p["end"], "2026-04-30");
    dir.ok(&["close-period", f, "--date", "2026-03-31"]);
    let next: serde_json::Value = serde_json::from_str(&dir.ok(&["boxes", f, "--json"])).unwrap();
    assert_eq!(next["period"], 2);
    assert_eq!(
        next["boxes"][0]["still_to_play"][0],
        serde_json::json!(["Ann", "Cy"])
    );
    dir.ok(&["check", f]);
    // Undone, the March tables are back as they were.
    dir.ok(&["undo", f]);
    assert_eq!(dir.ok(&["boxes", f, "--json"]), out);
}

#[test]
fn bad_box_input_is_refused_naming_the_players_and_changes_nothing() {
    let dir = Dir::new("formats-bad-boxes");
    let f = boxes(&dir);
    dir.ok(&[
        "box-result",
        f,
        "Ann",
        "Bo",
        "--goals",
        "3-1",
        "--date",
        "2026-03-05",
    ]);
    for (args, words) in [
        (
            vec![
                "box-result",
                f,
                "Ann",
                "Di",
                "--goals",
                "3-0",
                "--date",
                "2026-03-06",
            ],
            vec!["Ann is in box 1 and Di in box 2"],
        ),
        (
            vec![
                "box-result",
                f,
                "Bo",
                "Ann",
                "--goals",
                "3-0",
                "--date",
                "2026-03-06",
            ],
            vec!["Bo and Ann have played their box match this period"],
        ),
        (
            vec!["box-result", f, "Ann", "Cy", "1", "--date", "2026-03-06"],
            vec!["this league scores by games: give Ann v Cy's games"],
        ),
        (
            vec![
                "box-result",
                f,
                "Ann",
                "Cy",
                "--goals",
                "3-0",
                "--date",
                "2026-04-02",
            ],
            vec!["the period runs from 2026-03-01 to 2026-03-31; 2026-04-02 is outside it"],
        ),
        (
            vec!["box-join", f, "Ann", "--date", "2026-03-06"],
            vec!["Ann is in box 1 already"],
        ),
        (
            vec![
                "start-boxes",
                f,
                "--start",
                "2026-04-01",
                "--end",
                "2026-04-30",
            ],
            vec!["a box period is under way already"],
        ),
    ] {
        let m = dir.fails_unchanged(f, &args);
        assert_mentions(&m, &[&[f][..], &words[..]].concat());
    }
    let other = Dir::new("formats-bad-box-rules");
    let g = other.ladder();
    for (flag, value) in [
        ("--box-size", "1"),
        ("--box-size", "-5"),
        ("--up", "99"),
        ("--tie-breaks", "points,points"),
        ("--tie-breaks", "luck"),
        ("--table", "3-1:6-2,1-3:2-6"),
        ("--walkover", "1e308-0"),
        ("--points", "goals"),
    ] {
        let m = other.fails_unchanged(
            g,
            &[
                "start-boxes",
                g,
                "--start",
                "2026-03-01",
                "--end",
                "2026-03-31",
                flag,
                value,
            ],
        );
        assert_mentions(&m, &[g]);
    }
    let m = other.fails_unchanged(
        g,
        &[
            "start-boxes",
            g,
            "--start",
            "2026-03-31",
            "--end",
            "2026-03-01",
        ],
    );
    assert_mentions(&m, &[g, "ends (2026-03-01) before it starts (2026-03-31)"]);
    let m = other.fails_unchanged(g, &["close-period", g]);
    assert_mentions(&m, &[g, "no box period yet"]);
}
