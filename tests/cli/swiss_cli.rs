//! A Swiss event through the real binary: five rounds paired by `rungs pair --format swiss
//! --save`, with draws, forfeits, a requested half-point bye, a withdrawal and a late entry,
//! each round checked against the absolute criteria of FIDE's Swiss rules (FIDE Handbook
//! C.04.1 and C.04.3, <https://handbook.fide.com/chapter/C0403202507>) by a checker written
//! here from those rules, reading only what `rungs round --json` prints.

use crate::support::cli::Dir;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub(crate) const FILE: &str = "swiss.rungs";

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

/// Eleven players (Lu, a twelfth, enters late in round 2) over five rounds paired and saved
/// by `rungs pair --format swiss`: Cy asks for a half-point bye in round 3, Di withdraws
/// before round 4, one forfeit in round 2. Each saved round as `rungs round --json` shows it.
fn five_round_event(dir: &Dir) -> Vec<Value> {
    dir.ok(&["new", FILE, "--system", "elo"]);
    let first = [
        "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit",
    ];
    let mut args = vec!["add-player", FILE];
    args.extend(first);
    args.extend(["--date", "2026-01-01"]);
    dir.ok(&args);
    dir.ok(&["add-player", FILE, "Lu", "--date", "2026-01-01"]);
    let mut saved = Vec::new();
    for round in 1..=5usize {
        let mut present: Vec<&str> = first.to_vec();
        let mut extra: Vec<&str> = Vec::new();
        if round >= 2 {
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
        saved.push(json(&dir.ok(&["round", FILE, &n, "--json"])));
    }
    saved
}

#[test]
fn five_rounds_paired_by_rungs_meet_the_absolute_criteria() {
    let dir = Dir::new("swiss-five");
    let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
    for (k, saved) in five_round_event(&dir).iter().enumerate() {
        assert_eq!(saved["event"], 1, "{saved}");
        check_round(saved, &mut seen);
        match k + 1 {
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
    // Played games, counted once per player: 5 boards in round 1 (11 players, a bye); 6 in
    // round 2 (Lu's entry), one of them forfeited (5 played); 5 boards and a bye in rounds
    // 3 (Cy's bye), 4 and 5 (Di out): 5 + 5 + 15 = 25 games, 50 player-games.
    let games: usize = seen.values().map(|s| s.colours.len()).sum();
    assert_eq!(games, 50);
}

/// A four-player event of two rounds, paired by rungs (equal ratings: pairing numbers by
/// name, Ann 1, Bo 2, Cy 3, Di 4). Round 1: Ann (w) – Cy 1–0, Di (w) – Bo ½–½. Round 2:
/// Bo (w) – Ann 1–0, Cy (w) – Di ½–½.
pub(crate) fn four_player_event(dir: &Dir) {
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

/// rungs' own TRF of an event (late entry, requested bye, withdrawal, forfeit, pairing
/// byes) imported into a new ladder and exported again is the same file, byte for byte, and
/// the two ladders show the same crosstable.
#[test]
fn a_trf_export_imports_back_exactly() {
    let dir = Dir::new("swiss-trf-trip");
    five_round_event(&dir);
    let out = dir.ok(&["export", FILE, "first.trf", "--event", "1"]);
    assert_eq!(out.trim(), "wrote first.trf (12 players, 5 rounds)");
    let first = std::fs::read_to_string(dir.path("first.trf")).unwrap();
    assert!(
        first.starts_with("012 swiss, Swiss event of round 1\n"),
        "{first}"
    );
    dir.ok(&["new", "copy.rungs", "--system", "elo"]);
    let imported = json(&dir.ok(&["import", "copy.rungs", "first.trf", "--json"]));
    assert_eq!(imported["players"], 12);
    assert_eq!(imported["new_players"], 12);
    assert_eq!(imported["rounds"], 5);
    // Boards: 5 + 6 + 5 + 5 + 5.
    assert_eq!(imported["results"], 26);
    dir.ok(&["export", "copy.rungs", "second.trf"]);
    let second = std::fs::read_to_string(dir.path("second.trf")).unwrap();
    assert_eq!(first, second);
    assert_eq!(
        dir.ok(&["crosstable", FILE, "--json"]),
        dir.ok(&["crosstable", "copy.rungs", "--json"])
    );
}

/// A TRF as Swiss-Manager writes one (header lines 012–132, "Surname, Given" names, titles,
/// federations, FIDE ids, CRLF line ends, XXR/XXC): six players, three rounds with a
/// forfeit, a requested half-point bye (H) and a pairing-allocated bye (U). Petra Novak is
/// on the ladder already and is matched by name; the five others join.
#[test]
fn a_trf_from_another_program_imports_and_undoes_in_one_step() {
    let dir = Dir::new("swiss-trf-other");
    dir.ok(&["new", FILE, "--system", "elo"]);
    dir.ok(&["add-player", FILE, "Petra Novak", "--date", "2026-01-01"]);
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/swiss_manager_event.trf");
    std::fs::copy(&fixture, dir.path("event.trf")).unwrap();
    let text = dir.ok(&["import", FILE, "event.trf"]);
    assert!(
        text.starts_with(
            "imported Riverside Autumn Open 2026 as the Swiss event of round 1: 6 players (5 \
             new), 3 rounds, 8 results"
        ),
        "{text}"
    );
    let t = json(&dir.ok(&["crosstable", FILE, "--json"]));
    let rows = t["rows"].as_array().unwrap();
    let line = |k: usize| {
        let r = &rows[k];
        let cells: Vec<&str> = r["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap())
            .collect();
        (
            r["place"].as_u64().unwrap(),
            r["name"].as_str().unwrap().to_string(),
            r["rating"].as_u64().unwrap(),
            r["points"].as_f64().unwrap(),
            cells.join(" "),
        )
    };
    // Points from the file's blocks: Kowalski 1 + ½ + 1, Novak 1 + ½ + 1, Dubois 0 + 1
    // (forfeit) + ½, Rossi 0 + 1 (bye) + ½, Evans ½ + ½ (H) + 0, Schmidt ½ + 0 + 0.
    // Kowalski and Novak tie on 2½. Buchholz counts an opponent's unplayed rounds as draws
    // (C.07 article 16): Dubois 0 + ½ + ½ = 1, Schmidt ½ + ½ + 0 = 1, Rossi 0 + ½ + ½ = 1,
    // Evans ½ + ½ + 0 = 1. Kowalski met Dubois 1, Novak 2½, Schmidt 1: BH 4½, Cut-1 3½;
    // Novak met Rossi 1, Kowalski 2½, Evans 1: the same. Their game was drawn (DE ½ each)
    // and each won two (WIN 2): they share first place, in the file's order.
    assert_eq!(
        line(0),
        (1, "Jan Kowalski".into(), 2210, 2.5, "3w1 1b½ 6w1".into())
    );
    assert_eq!(
        line(1),
        (1, "Petra Novak".into(), 2105, 2.5, "3b1 1w½ 5b1".into())
    );
    assert_eq!(
        rows[0]["tiebreaks"],
        serde_json::json!({"BH-C1": 3.5, "BH": 4.5, "DE": 0.5, "WIN": 2.0})
    );
    assert_eq!(rows[1]["tiebreaks"], rows[0]["tiebreaks"]);
    // Dubois and Rossi tie on 1½. Each one's own unplayed round counts as a game against a
    // dummy with their own score (1½), and is the first cut. Dubois: Kowalski 2½ + dummy
    // 1½ + Rossi 1 = BH 5, Cut-1 3½; Rossi: Novak 2½ + dummy 1½ + Dubois (0 + ½ + ½) 1 =
    // the same. Their game was drawn; each has one round with a win's points (the forfeit,
    // the bye): they share third. Evans 1 is 5th, Schmidt ½ 6th.
    assert_eq!(
        line(2),
        (3, "Claire Dubois".into(), 1850, 1.5, "1b0 6w+ 3b½".into())
    );
    assert_eq!(
        line(3),
        (3, "Marco Rossi".into(), 1720, 1.5, "1w0 bye 3w½".into())
    );
    assert_eq!(line(4), (5, "Tom Evans".into(), 0, 1.0, "6b½ ½ 1w0".into()));
    assert_eq!(
        line(5),
        (6, "Lukas Schmidt".into(), 1987, 0.5, "5w½ 3b− 1b0".into())
    );
    let rossi = rows.iter().find(|r| r["name"] == "Marco Rossi").unwrap();
    assert_eq!(rossi["rounds"][1]["text"], "bye");
    let evans = rows.iter().find(|r| r["name"] == "Tom Evans").unwrap();
    assert_eq!(evans["rounds"][1]["text"], "½");
    assert_eq!(evans["rating"], 0);
    let dubois = rows.iter().find(|r| r["name"] == "Claire Dubois").unwrap();
    assert!(
        dubois["rounds"][1]["text"]
            .as_str()
            .unwrap()
            .ends_with("w+")
    );
    // Exported again, the event keeps its name and declared rounds.
    dir.ok(&["export", FILE, "again.trf"]);
    let again = std::fs::read_to_string(dir.path("again.trf")).unwrap();
    assert!(
        again.starts_with("012 Riverside Autumn Open 2026\n"),
        "{again}"
    );
    assert!(again.contains("\nXXR 3\n"), "{again}");
    // One undo takes the whole event back, its new players too.
    dir.ok(&["undo", FILE]);
    let refused = dir.fail(&["crosstable", FILE]);
    assert!(refused.contains("no Swiss event"), "{refused}");
    let standings = dir.ok(&["standings", FILE, "--json", "--all"]);
    assert!(!standings.contains("Kowalski"), "{standings}");
}

/// A bad line is refused by line and column, and the ladder is left as it was.
#[test]
fn a_bad_trf_line_is_refused_by_line_and_column() {
    let dir = Dir::new("swiss-trf-bad");
    dir.ok(&["new", FILE, "--system", "elo"]);
    dir.ok(&["add-player", FILE, "Petra Novak", "--date", "2026-01-01"]);
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/swiss_manager_event.trf");
    let good = std::fs::read_to_string(fixture).unwrap();
    // Line 18 (Schmidt's): a rating with a letter in it, at column 49.
    let bad = good.replacen(
        "Schmidt, Lukas                    1987",
        "Schmidt, Lukas                    19x7",
        1,
    );
    std::fs::write(dir.path("bad.trf"), &bad).unwrap();
    let message = dir.fails_unchanged(FILE, &["import", FILE, "bad.trf"]);
    assert_eq!(
        message,
        "bad.trf: TRF line 18, column 49: a rating, not \"19x7\""
    );
    // A name with a right-to-left override in it (the column widths kept) is no name.
    let bad = good.replacen("Evans, Tom ", "Evans, T\u{202E}om", 1);
    std::fs::write(dir.path("bad.trf"), &bad).unwrap();
    let message = dir.fails_unchanged(FILE, &["import", FILE, "bad.trf"]);
    assert!(
        message.starts_with("bad.trf: field `player \"Evans, T\\u{202e}om\"`")
            && message
                .contains("is not a name: it contains the invisible formatting character U+202E"),
        "{message}"
    );
    // Round 2 of Dubois says she met Schmidt as white, but Schmidt's line says otherwise.
    let bad = good.replacen("0004 b -", "0004 w -", 1);
    std::fs::write(dir.path("bad.trf"), &bad).unwrap();
    let message = dir.fails_unchanged(FILE, &["import", FILE, "bad.trf"]);
    assert!(
        message.starts_with("bad.trf: TRF line 18, column "),
        "{message}"
    );
}

/// The published site has the event's page: its crosstable as `rungs crosstable` shows it,
/// the tie-breaks' heads, links to the players' pages, and the index links to it.
#[test]
fn the_published_site_shows_the_event_crosstable() {
    let dir = Dir::new("swiss-site");
    four_player_event(&dir);
    dir.ok(&["publish", FILE, "site", "--title", "Club night"]);
    let page = std::fs::read_to_string(dir.path("site/events/1.html")).unwrap();
    let index = std::fs::read_to_string(dir.path("site/index.html")).unwrap();
    assert!(index.contains(r#"<a href="events/1.html">Swiss event of round 1</a>"#));
    assert!(page.contains("Swiss event of round 1"), "{page}");
    assert!(page.contains("after 2 rounds"), "{page}");
    for head in ["BH-C1", "BH", "DE", "WIN", "R1", "R2", "Pts"] {
        assert!(page.contains(&format!(">{head}</th>")), "{head}: {page}");
    }
    // Bo's line (see the crosstable test): first, ½ + 1 = 1½, Cut-1 1, Buchholz 2, one win.
    let bo = page
        .split("<tr>")
        .find(|row| row.contains(">Bo</a>"))
        .unwrap();
    let cells: Vec<&str> = bo
        .split("<td class=\"num")
        .skip(1)
        .map(|c| &c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()])
        .collect();
    assert_eq!(
        cells,
        ["1", "1500", "3b½", "2w1", "1.5", "1", "2", "0", "1"]
    );
    assert!(bo.contains(r#"href="../players/1.html""#), "{bo}");
    assert!(page.contains(r#"href="../rungs.css""#));
}
