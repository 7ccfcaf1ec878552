//! The checks of cells and their messages.
use super::*;
use proptest::prelude::*;
use rungs_ladder::event::Home;

#[test]
fn home_column_reads_a_b_neutral_and_empty() {
    let csv = "date,player_a,player_b,score,home\n\
               2024-01-01,Ann,Bo,1,a\n\
               2024-01-02,Ann,Bo,0, B \n\
               2024-01-03,Ann,Bo,draw,Neutral\n\
               2024-01-04,Ann,Bo,1,\n\
               2024-01-05,Ann,Bo,1,home\n";
    let rows = read_all(csv.as_bytes(), &Mapping::standard());
    let homes: Vec<Option<Home>> = rows[..4].iter().map(|r| r.as_ref().unwrap().home).collect();
    assert_eq!(
        homes,
        [Some(Home::A), Some(Home::B), Some(Home::Neutral), None]
    );
    let e = rows[4].as_ref().unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (6, "home"));
    assert!(
        e.message.contains("\"home\"") && e.message.contains("neutral"),
        "{e}"
    );
    // A foreign file whose `home` column is mapped as side A keeps its names there.
    let mapping = Mapping {
        player_a: "home".into(),
        player_b: "away".into(),
        ..Mapping::standard()
    };
    let rows = read_all(b"date,home,away,score\n2024-01-01,Ann,Bo,1\n", &mapping);
    let row = rows[0].as_ref().unwrap();
    assert_eq!((one(&row.player_a), row.home), ("Ann", None));
}

#[test]
fn error_missing_player() {
    let e = only_error(
        &format!("{STANDARD}2024-01-01,  ,Bob,1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "player_a");
    assert!(e.contains("player is missing"), "{e}");
    let e = only_error(
        &format!("{STANDARD}2024-01-01,Bob,,1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "player_b");
}

/// `"Smith, J"` was read as a team of two new players, Smith and J. A name cannot hold a
/// comma, and a team is written as export writes it, `Ann,Bo`: a comma and a space is
/// refused, naming the cell; `Ann,Bo` stays a team.
#[test]
fn error_a_comma_and_space_is_neither_a_name_nor_a_team() {
    let e = only_error(
        &format!("{STANDARD}2025-01-01,\"Smith, J\",Lee,1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "player_a");
    assert!(e.contains("\"Smith, J\" holds a comma and a space"), "{e}");
    assert!(e.contains("write \"Smith J\" without it"), "{e}");
    let rows = read_all(
        format!("{STANDARD}2025-01-01,\"Ann,Bo\",Lee,1,,,,\n").as_bytes(),
        &Mapping::standard(),
    );
    let team = rows[0].as_ref().unwrap();
    assert_eq!(team.player_a.len(), 2, "{team:?}");
}

#[test]
fn error_same_player_on_both_sides() {
    let e = only_error(
        &format!("{STANDARD}2024-01-01,Élodie,ÉLODIE ,1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "player_b");
    assert!(e.contains("same player"), "{e}");
}

#[test]
fn error_bad_date() {
    let e = only_error(
        &format!("{STANDARD}\n2024-02-30,A,B,1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 3, "date");
    assert!(e.contains("\"2024-02-30\""), "{e}");
    assert!(e.contains("%Y-%m-%d") && e.contains("2024-03-01"), "{e}");
}

#[test]
fn error_score_not_understood() {
    let e = only_error(
        &format!("{STANDARD}2024-01-01,A,B,3-1,,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "score");
    assert!(e.contains("\"3-1\""), "{e}");
    assert!(e.contains("forfeit-a") && e.contains("draw"), "{e}");
}

#[test]
fn error_goals_not_a_non_negative_number() {
    for bad in ["-1", "two", "NaN", "inf", ""] {
        let e = only_error(
            &format!(
                "{INTERNATIONAL}1872-11-30,Scotland,England,0,{bad},Friendly,Glasgow,Scotland,FALSE\n"
            ),
            &Mapping::international(),
        );
        assert_names(&e, 2, "away_score");
        if !bad.is_empty() {
            assert!(e.contains(&format!("\"{bad}\"")), "{e}");
        }
    }
}

#[test]
fn error_medals_not_a_non_negative_finite_number() {
    for bad in ["-2", "lots", "inf", "NaN"] {
        let e = only_error(
            &format!("{STANDARD}2024-01-01,A,B,1,{bad},3,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "medals_a");
        assert!(e.contains(&format!("\"{bad}\"")), "{e}");
    }
}

#[test]
fn error_only_one_medal_given() {
    let e = only_error(
        &format!("{STANDARD}2024-01-01,A,B,1,4,,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "medals_b");
    assert!(e.contains("only one"), "{e}");
    let e = only_error(
        &format!("{STANDARD}2024-01-01,A,B,1,,4,,\n"),
        &Mapping::standard(),
    );
    assert_names(&e, 2, "medals_a");
}

#[test]
fn error_invalid_utf8() {
    let mut csv = STANDARD.as_bytes().to_vec();
    csv.extend_from_slice(b"2024-01-01,A,Bj\xf6rn,1,,,,\n");
    let rows = read_all(&csv, &Mapping::standard());
    let e = rows[0].as_ref().unwrap_err().to_string();
    assert_names(&e, 2, "player_b");
    assert!(e.contains("UTF-8"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn iso_fast_path_agrees_with_chrono(
        text in "[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9+-]{1,12}|[0-9]{4}-[0-9]-[0-9]{1,2}",
    ) {
        let reader =
            MatchReader::new(&b"date,player_a,player_b,score\n"[..], "games.csv", &Mapping::standard())
                .unwrap();
        prop_assert_eq!(
            reader.parse_date(&text),
            NaiveDate::parse_from_str(&text, "%Y-%m-%d").ok()
        );
    }
}
