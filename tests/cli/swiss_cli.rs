//! A Swiss event through the real binary: five rounds paired by `rungs pair --format swiss
//! --save`, with draws, forfeits, a requested half-point bye, a withdrawal and a late entry,
//! each round checked against the absolute criteria of FIDE's Swiss rules (FIDE Handbook
//! C.04.1 and C.04.3, <https://handbook.fide.com/chapter/C0403202507>) by a checker written
//! here from those rules, reading only what `rungs round --json` prints.

use crate::support::cli::Dir;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const FILE: &str = "swiss.rungs";

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// What the rules need of one player so far.
#[derive(Default, Debug)]
struct Seen {
    /// Colours of games played over the board, oldest first ('w' or 'b').
    colours: Vec<char>,
    /// Opponents met over the board.
    met: BTreeSet<String>,
    /// Had the pairing-allocated bye, or a point without playing (a forfeit win): C.04.1 d
    /// gives such a player no pairing-allocated bye.
    no_bye: bool,
}

/// The absolute criteria for one round: nobody paired twice, no rematch of a game played,
/// no second pairing-allocated bye (nor one after a forfeit win), and afterwards every
/// colour difference within ±2 and no three same colours in a row (the last two are what
/// an absolute colour preference protects: no topscorer exception applies, the event
/// declares no last round).
fn check_round(round: &Value, seen: &mut BTreeMap<String, Seen>) {
    let n = &round["round"];
    let mut paired = BTreeSet::new();
    for b in round["boards"].as_array().unwrap() {
        let (w, bl) = (b["a"].as_str().unwrap(), b["b"].as_str().unwrap());
        assert!(paired.insert(w.to_string()), "round {n}: {w} twice");
        assert!(paired.insert(bl.to_string()), "round {n}: {bl} twice");
        let result = b["result"].as_str().unwrap_or_else(|| panic!("{b}"));
        let played = !result.starts_with("forfeit");
        if played {
            assert!(
                !seen.entry(w.into()).or_default().met.contains(bl),
                "round {n}: {w} and {bl} meet again"
            );
            for (me, other, c) in [(w, bl, 'w'), (bl, w, 'b')] {
                let s = seen.entry(me.into()).or_default();
                s.met.insert(other.into());
                s.colours.push(c);
            }
        } else {
            // The side that did not forfeit had a point without playing.
            let winner = if result == "forfeit-a" { bl } else { w };
            seen.entry(winner.into()).or_default().no_bye = true;
        }
    }
    if let Some(bye) = round["bye"].as_str() {
        assert!(paired.insert(bye.to_string()), "round {n}: {bye} twice");
        let s = seen.entry(bye.into()).or_default();
        assert!(
            !s.no_bye,
            "round {n}: {bye} has a second point without playing"
        );
        s.no_bye = true;
    }
    for (name, s) in seen.iter() {
        let difference: i32 = s
            .colours
            .iter()
            .map(|&c| if c == 'w' { 1 } else { -1 })
            .sum();
        assert!(
            difference.abs() <= 2,
            "round {n}: {name} has colours {:?}",
            s.colours
        );
        assert!(
            !s.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
            "round {n}: {name} has colours {:?}",
            s.colours
        );
    }
}

/// Round r's board k (from 1) ends by this rule: a spread of wins, draws and losses, and
/// one forfeit (side A, white, does not come) on the last board of round 2.
fn result(round: usize, board: usize, boards: usize) -> &'static str {
    if round == 2 && board == boards {
        return "forfeit-a";
    }
    match (round * 7 + board * 3) % 5 {
        0 | 1 => "1",
        2 => "D",
        _ => "2",
    }
}

#[test]
fn five_rounds_paired_by_rungs_meet_the_absolute_criteria() {
    let dir = Dir::new("swiss-five");
    dir.ok(&["new", FILE, "--system", "elo"]);
    let first = [
        "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit",
    ];
    let mut args = vec!["add-player", FILE];
    args.extend(first);
    args.extend(["--date", "2026-01-01"]);
    dir.ok(&args);
    dir.ok(&["add-player", FILE, "Lu", "--date", "2026-01-01"]);
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    for round in 1..=5usize {
        let mut present: Vec<&str> = first.to_vec();
        let mut extra: Vec<&str> = Vec::new();
        if round >= 2 {
            // Lu enters late, in round 2.
            present.push("Lu");
        }
        if round == 3 {
            present.retain(|p| *p != "Cy");
            extra.extend(["--half-bye", "Cy"]);
        }
        if round >= 4 {
            present.retain(|p| *p != "Di");
        }
        if round == 4 {
            extra.extend(["--withdraw", "Di"]);
        }
        let present = present.join(",");
        let event = if round == 1 { "new" } else { "1" };
        let mut args = vec![
            "pair",
            FILE,
            "--present",
            &present,
            "--format",
            "swiss",
            "--date",
            "2026-01-10",
            "--event",
            event,
            "--save",
            "--json",
        ];
        args.extend(extra);
        let paired = json(&dir.ok(&args));
        let boards = paired["boards"].as_array().unwrap().len();
        let n = round.to_string();
        for board in 1..=boards {
            dir.ok(&[
                "result",
                FILE,
                &n,
                &board.to_string(),
                result(round, board, boards),
            ]);
        }
        let saved = json(&dir.ok(&["round", FILE, &n, "--json"]));
        assert_eq!(saved["event"], 1, "{saved}");
        check_round(&saved, &mut seen);
        match round {
            // Eleven players: one has the pairing-allocated bye.
            1 => assert!(saved["bye"].is_string(), "{saved}"),
            3 => {
                assert_eq!(
                    saved["requested_byes"],
                    serde_json::json!([{"player": "Cy", "points": 0.5}])
                );
                // Cy is not paired.
                assert!(!saved["boards"].to_string().contains("\"Cy\""), "{saved}");
                assert_ne!(saved["bye"], "Cy");
            }
            4 => assert_eq!(saved["withdrawn"], serde_json::json!(["Di"])),
            _ => {}
        }
    }
    // Everyone present in each round is on a board or has the bye: 11 players in round 1,
    // 12 in round 2 (Lu's entry), 11 in round 3 (Cy's bye), 11 in rounds 4 and 5 (Di out).
    let games: usize = seen.values().map(|s| s.colours.len()).sum();
    // Played games, counted once per player: 5 boards in round 1; 6 in round 2, one of them
    // forfeited (5 played); 5 boards and a bye in rounds 3, 4 and 5: 5 + 5 + 15 = 25 games,
    // 50 player-games.
    assert_eq!(games, 50);
}

/// A four-player event of two rounds, paired by rungs (equal ratings: pairing numbers by
/// name, Ann 1, Bo 2, Cy 3, Di 4). Round 1: Ann (w) – Cy 1–0, Di (w) – Bo ½–½. Round 2:
/// Bo (w) – Ann 1–0, Cy (w) – Di ½–½.
fn four_player_event(dir: &Dir) {
    dir.ok(&["new", FILE, "--system", "elo"]);
    dir.ok(&[
        "add-player",
        FILE,
        "Ann",
        "Bo",
        "Cy",
        "Di",
        "--date",
        "2026-01-01",
    ]);
    let expected = [[["Ann", "Cy"], ["Di", "Bo"]], [["Bo", "Ann"], ["Cy", "Di"]]];
    let results = [["1", "D"], ["1", "D"]];
    for (r, (boards, results)) in expected.iter().zip(results).enumerate() {
        let out = json(&dir.ok(&[
            "pair",
            FILE,
            "--present",
            "Ann,Bo,Cy,Di",
            "--format",
            "swiss",
            "--date",
            "2026-01-10",
            "--event",
            if r == 0 { "new" } else { "1" },
            "--save",
            "--json",
        ]));
        for (k, [a, b]) in boards.iter().enumerate() {
            assert_eq!(out["boards"][k]["a"], *a, "{out}");
            assert_eq!(out["boards"][k]["b"], *b, "{out}");
            let (round, board) = ((r + 1).to_string(), (k + 1).to_string());
            dir.ok(&["result", FILE, &round, &board, results[k]]);
        }
    }
}

/// Points: Bo ½ + 1 = 1½; Ann 1 + 0 = 1; Di ½ + ½ = 1; Cy 0 + ½ = ½.
/// Buchholz (opponents' points): Ann Cy ½ + Bo 1½ = 2; Di Bo 1½ + Cy ½ = 2; Bo Di 1 + Ann 1
/// = 2; Cy Ann 1 + Di 1 = 2. Cut-1 drops the lowest: Ann 1½, Di 1½, Bo 1, Cy 1.
/// Ann and Di tie on 1 point, Cut-1 and Buchholz; they have not met (direct encounter 0
/// each); Ann has one win (Cy), Di none: Ann 2nd, Di 3rd.
#[test]
fn the_crosstable_shows_rounds_points_and_fide_tiebreaks() {
    let dir = Dir::new("swiss-crosstable");
    four_player_event(&dir);
    let t = json(&dir.ok(&["crosstable", FILE, "--json"]));
    assert_eq!(t["event"], 1);
    assert_eq!(t["rounds"], serde_json::json!([1, 2]));
    assert_eq!(
        t["tiebreaks"],
        serde_json::json!(["BH-C1", "BH", "DE", "WIN"])
    );
    let rows = t["rows"].as_array().unwrap();
    let line = |k: usize| {
        let r = &rows[k];
        let cells: Vec<&str> = r["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap())
            .collect();
        let tb = &r["tiebreaks"];
        (
            r["place"].as_u64().unwrap(),
            r["name"].as_str().unwrap().to_string(),
            cells.join(" "),
            r["points"].as_f64().unwrap(),
            [&tb["BH-C1"], &tb["BH"], &tb["DE"], &tb["WIN"]].map(|v| v.as_f64().unwrap()),
        )
    };
    assert_eq!(
        line(0),
        (1, "Bo".into(), "3b½ 2w1".into(), 1.5, [1.0, 2.0, 0.0, 1.0])
    );
    assert_eq!(
        line(1),
        (2, "Ann".into(), "4w1 1b0".into(), 1.0, [1.5, 2.0, 0.0, 1.0])
    );
    assert_eq!(
        line(2),
        (3, "Di".into(), "1w½ 4b½".into(), 1.0, [1.5, 2.0, 0.0, 0.0])
    );
    assert_eq!(
        line(3),
        (4, "Cy".into(), "2b0 3w½".into(), 0.5, [1.0, 2.0, 0.0, 0.0])
    );
    assert_eq!(rows[1]["rounds"][1]["opponent"], "Bo");
    assert_eq!(rows[1]["rounds"][1]["colour"], "black");

    // Sonneborn-Berger first: Ann beat Cy (½ × 1) and lost to Bo (0) = ½; Di drew Bo
    // (1½ × ½ = ¾) and Cy (½ × ½ = ¼) = 1: Di above Ann. Progressive (running score after
    // each round, summed): Di ½ + 1 = 1½, Ann 1 + 1 = 2.
    let text = dir.ok(&[
        "crosstable",
        FILE,
        "--event",
        "1",
        "--tiebreaks",
        "sonneborn-berger,PS",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["#", "Name", "Rtg", "R1", "R2", "Pts", "SB", "PS"]
    );
    let words = |k: usize| lines[k].split_whitespace().collect::<Vec<_>>();
    assert_eq!(words(3), ["2", "Di", "1500", "1w½", "4b½", "1", "1", "1.5"]);
    assert_eq!(
        words(4),
        ["3", "Ann", "1500", "4w1", "1b0", "1", "0.5", "2"]
    );

    let bad = dir.fail(&["crosstable", FILE, "--tiebreaks", "buchholz,koya"]);
    assert!(
        bad.contains("koya") && bad.contains("sonneborn-berger"),
        "{bad}"
    );
    let bad = dir.fail(&["crosstable", FILE, "--event", "2"]);
    assert!(
        bad.contains("not the first round of a Swiss event"),
        "{bad}"
    );
}
