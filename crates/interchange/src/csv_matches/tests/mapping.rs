//! The presets and the columns found from a header.
use super::*;
use crate::csv_matches::open;
use rungs_ladder::event::Home;
use std::collections::HashSet;
use std::path::Path;

#[test]
fn standard_format_reads_every_field() {
    let csv = format!(
        "{STANDARD}\
         2024-03-01,Alice,Bob,1,6,3,Pegasus Bridge,Allies\n\
         2024-03-02, Bob , Carol ,0.5,,,,\n\
         2024-03-03,Carol,Alice,0,2,6,Sainte-Mère-Église,Axis\n\
         2024-03-04,Dave,Alice,A,,,Omaha Beach,\n\
         2024-03-05,Alice,Dave,draw,4,4,,Allies\n\
         2024-03-06,Bob,Dave,B,0,5.5,,\n\
         2024-03-07,Bob,Eve,forfeit-a,,,,\n\
         2024-03-08,Eve,Bob,cancelled,,,,\n"
    );
    let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::standard())
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let m = |line,
             day,
             a: &str,
             b: &str,
             result,
             medals: Option<[f64; 2]>,
             scenario: Option<&str>,
             side_a: Option<&str>| CsvMatch {
        line,
        date: date(2024, 3, day),
        player_a: side(a),
        player_b: side(b),
        result,
        medals: medals.map(|pair| rungs_ladder::values::Medals::new(pair).unwrap()),
        scenario: scenario.map(Into::into),
        side_a: side_a.map(Into::into),
        home: None,
        goals: None,
        class: None,
    };
    let expected = vec![
        m(
            2,
            1,
            "Alice",
            "Bob",
            WIN,
            Some([6.0, 3.0]),
            Some("Pegasus Bridge"),
            Some("Allies"),
        ),
        m(3, 2, "Bob", "Carol", DRAW, None, None, None),
        m(
            4,
            3,
            "Carol",
            "Alice",
            LOSS,
            Some([2.0, 6.0]),
            Some("Sainte-Mère-Église"),
            Some("Axis"),
        ),
        m(5, 4, "Dave", "Alice", WIN, None, Some("Omaha Beach"), None),
        m(
            6,
            5,
            "Alice",
            "Dave",
            DRAW,
            Some([4.0, 4.0]),
            None,
            Some("Allies"),
        ),
        m(7, 6, "Bob", "Dave", LOSS, Some([0.0, 5.5]), None, None),
        m(8, 7, "Bob", "Eve", MatchResult::ForfeitA, None, None, None),
        m(9, 8, "Eve", "Bob", MatchResult::Cancelled, None, None, None),
    ];
    assert_eq!(rows, expected);
}

#[test]
fn standard_format_without_optional_columns_any_order_and_case() {
    let csv = "\u{feff} Score ,DATE,Player_B,player_a\r\nA,2024-01-02,Bob,Alice\r\n";
    let rows = read_all(csv.as_bytes(), &Mapping::standard());
    assert_eq!(
        rows,
        vec![Ok(CsvMatch {
            line: 2,
            date: date(2024, 1, 2),
            player_a: side("Alice"),
            player_b: side("Bob"),
            result: WIN,
            medals: None,
            scenario: None,
            side_a: None,
            home: None,
            goals: None,
            class: None,
        })]
    );
}

#[test]
fn custom_date_format() {
    let mapping = Mapping {
        date_format: "%d/%m/%Y".into(),
        ..Mapping::standard()
    };
    let rows = read_all(
        b"date,player_a,player_b,score\n31/12/2023,A,B,1\n",
        &mapping,
    );
    assert_eq!(rows[0].as_ref().unwrap().date, date(2023, 12, 31));
    let bad = Mapping {
        date_format: "%Y-%Q".into(),
        ..Mapping::standard()
    };
    let e = MatchReader::new(&b"date,player_a,player_b,score\n"[..], "games.csv", &bad)
        .err()
        .unwrap();
    assert_eq!(e.field, "date");
}

#[test]
fn international_preset_higher_goals_win() {
    let csv = format!(
        "{INTERNATIONAL}\
         1872-11-30,Scotland,England,0,0,Friendly,Glasgow,Scotland,FALSE\n\
         1873-03-08,England,Scotland,4,2,Friendly,London,England,FALSE\n\
         1876-03-25,Scotland,Wales,4,0,Friendly,Glasgow,Scotland,FALSE\n\
         1877-03-05,Wales,Scotland,0,2,Friendly,Wrexham,Wales,FALSE\n\
         1994-07-17,Brazil,Italy,0,0,FIFA World Cup,Pasadena,United States,TRUE\n\
         2010-07-11,Netherlands,Spain,0,1,FIFA World Cup,Johannesburg,South Africa,TRUE\n\
         2021-06-11,Turkey,Italy,0,3,UEFA Euro,\"Rome, Lazio\",Italy,TRUE\n"
    );
    let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::international())
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let got: Vec<(u64, NaiveDate, &str, &str, MatchResult)> = rows
        .iter()
        .map(|r| (r.line, r.date, one(&r.player_a), one(&r.player_b), r.result))
        .collect();
    assert_eq!(
        got,
        vec![
            (2, date(1872, 11, 30), "Scotland", "England", DRAW),
            (3, date(1873, 3, 8), "England", "Scotland", WIN),
            (4, date(1876, 3, 25), "Scotland", "Wales", WIN),
            (5, date(1877, 3, 5), "Wales", "Scotland", LOSS),
            (6, date(1994, 7, 17), "Brazil", "Italy", DRAW),
            (7, date(2010, 7, 11), "Netherlands", "Spain", LOSS),
            (8, date(2021, 6, 11), "Turkey", "Italy", LOSS),
        ]
    );
    assert!(
        rows.iter()
            .all(|r| r.medals.is_none() && r.scenario.is_none() && r.side_a.is_none())
    );
    // The home team is side A, at home unless the ground is neutral.
    let homes: Vec<Option<Home>> = rows.iter().map(|r| r.home).collect();
    let (home, neutral) = (Some(Home::A), Some(Home::Neutral));
    assert_eq!(homes, [home, home, home, home, neutral, neutral, neutral]);
    let bad = format!("{INTERNATIONAL}1872-11-30,Scotland,England,0,0,Friendly,G,S,maybe\n");
    let e = only_error(&bad, &Mapping::international());
    assert!(
        e.contains("line 2") && e.contains("`neutral`") && e.contains("TRUE"),
        "{e}"
    );
}

#[test]
fn error_missing_header_column() {
    let e = MatchReader::new(
        &b"date,player_a,score\n"[..],
        "games.csv",
        &Mapping::standard(),
    )
    .err()
    .unwrap()
    .to_string();
    assert_names(&e, 1, "player_b");
    assert!(e.contains("`date`, `player_a`, `score`"), "{e}");
    let e = MatchReader::new(
        &INTERNATIONAL.as_bytes()[..40],
        "games.csv",
        &Mapping::international(),
    )
    .err()
    .unwrap()
    .to_string();
    assert_names(&e, 1, "away_score");
}

#[test]
fn error_only_one_medal_column_in_header() {
    let csv = "date,player_a,player_b,score,medals_b\n";
    let e = MatchReader::new(csv.as_bytes(), "games.csv", &Mapping::standard())
        .err()
        .unwrap()
        .to_string();
    assert_names(&e, 1, "medals_a");
}

/// `--date-format %Y` read every row as "not a valid date; expected format %Y, e.g.
/// 2024": a format that cannot name a day is refused at the header.
#[test]
fn error_a_date_format_without_a_whole_day() {
    for format in ["%Y", "%Y-%m", "%m/%d", "%H:%M"] {
        let mapping = Mapping {
            date_format: format.into(),
            ..Mapping::standard()
        };
        let e = MatchReader::new(STANDARD.as_bytes(), "games.csv", &mapping)
            .err()
            .unwrap();
        assert_eq!((e.line, e.field.as_str()), (1, "date"), "{format}: {e}");
        assert!(
            e.message.contains("does not name a whole day"),
            "{format}: {e}"
        );
    }
    for format in ["%d/%m/%Y", "%e %b %Y", "%Y-%j", "%d.%m.%y"] {
        let mapping = Mapping {
            date_format: format.into(),
            ..Mapping::standard()
        };
        assert!(
            MatchReader::new(STANDARD.as_bytes(), "games.csv", &mapping).is_ok(),
            "{format}"
        );
    }
}

const ASSET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/international_results.csv.gz"
);

#[test]
fn bundled_international_results() {
    let reader = open(Path::new(ASSET), &Mapping::international()).unwrap();
    let (mut rows, mut draws) = (0u64, 0u64);
    let mut teams = HashSet::new();
    let mut first = None;
    for row in reader {
        let m = row.unwrap();
        rows += 1;
        if m.result == DRAW {
            draws += 1;
        }
        assert_eq!(m.line, rows + 1);
        teams.insert(m.player_a.clone());
        teams.insert(m.player_b.clone());
        first.get_or_insert(m);
    }
    assert_eq!(rows, 49_520);
    assert_eq!(teams.len(), 337);
    assert_eq!(draws, 11_258);
    let first = first.unwrap();
    assert_eq!(
        (
            first.line,
            first.date,
            one(&first.player_a),
            one(&first.player_b),
            first.result
        ),
        (2, date(1872, 11, 30), "Scotland", "England", DRAW)
    );
}
