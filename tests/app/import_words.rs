//! A match CSV's problems in the app's words: the file by its name, the line, the column by
//! the header's name for it in quotes — never the command line's "field `x`", backticks or a
//! `rungs …` command.

use rungs_app::command::Command;
use rungs_ladder::rules::Rules;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use support::TempDir as Temp;

/// What the app says importing a CSV holding `text` (named `name`) into an empty ladder.
fn said(dir: &Temp, name: &str, text: &str) -> String {
    let path = dir.0.join("club.rungs");
    if !path.exists() {
        Store::create(&path, &Rules::default()).unwrap();
    }
    let mut h = app_support::open(&path, eframe::egui::vec2(1400.0, 900.0));
    let csv = dir.0.join(name);
    std::fs::write(&csv, text).unwrap();
    let mapping = rungs_app::files::mapping_for_file(&csv);
    h.state_mut().state.apply(Command::ImportCsv(csv, mapping));
    h.state_mut().state.wait_for_job();
    h.run();
    h.state().state.error().unwrap_or_default().to_string()
}

#[test]
fn a_csvs_problems_are_said_in_the_apps_words() {
    let dir = Temp::new("import-words");
    let cases = [
        (
            "when.csv",
            "when,player_a,player_b,score\n2024-01-01,Ann,Bo,1\n",
            "when.csv has no column called “date”; its columns are “when”, “player_a”, \
             “player_b”, “score”. A match file's first line names its columns: date, \
             player_a, player_b, score",
        ),
        (
            "twice.csv",
            "date,player_a,player_b,score,Date\n2024-01-01,Ann,Bo,1,x\n",
            "twice.csv: the first line names the column “date” twice (columns 1 and 5)",
        ),
        (
            "medals.csv",
            "date,player_a,player_b,score,medals_a\n2024-01-01,Ann,Bo,1,3\n",
            "medals.csv has a column “medals_a” but none called “medals_b”: medals need both",
        ),
        (
            "short.csv",
            "date,player_a,player_b,score\n2024-01-01,Ann,Bo,1\n2024-01-02,Ann\n",
            "short.csv, line 3: the line has 2 cells where the first line names 4 columns, so \
             it has no “player_b”",
        ),
        (
            "empty.csv",
            "date,player_a,player_b,score\n2024-01-01,Ann,,1\n",
            "empty.csv, line 2, column “player_b”: the player is missing (empty cell)",
        ),
        (
            "comma.csv",
            "date,player_a,player_b,score\n2024-01-01,\"Smith, J\",Bo,1\n",
            "comma.csv, line 2, column “player_a”: \"Smith, J\" holds a comma and a space: a \
             name cannot hold a comma (write \"Smith J\" without it); a team is written with \
             commas alone, as \"Ann,Bo\"",
        ),
    ];
    for (name, text, want) in cases {
        let got = said(&dir, name, text);
        assert_eq!(got, want, "{name}");
        for cli in ["`", "field ", "rungs "] {
            assert!(!got.contains(cli), "{name} says {cli:?}: {got}");
        }
    }
}
