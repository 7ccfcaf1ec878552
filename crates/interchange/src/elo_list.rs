//! An Elo list for migration (the Skyweaver white paper, section 5): a CSV with a header
//! naming `player`, `elo` and, optionally, `rank` (the old ladder's rank: Grandmaster, Master,
//! Prophet, Scholar, Apprentice, or `none` for below Apprentice). An empty rank leaves it to
//! the cut-offs.

use rungs_ladder::seasons::OldRank;
use std::io::Read;

/// One line of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct EloLine {
    pub line: u64,
    pub player: String,
    pub elo: f64,
    /// `None` when the list has no rank column or the cell is empty: the cut-offs decide.
    pub rank: Option<OldRank>,
}

/// A bad line of an Elo list.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: line {line}, field `{field}`: {message}")]
pub struct EloListError {
    pub file: String,
    pub line: u64,
    pub field: String,
    pub message: String,
}

/// Two columns of a header that give one value (which would count?). Columns count from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("columns {first} (`{first_name}`) and {second} (`{second_name}`) both give it; keep one")]
struct TwoColumns {
    first: usize,
    first_name: String,
    second: usize,
    second_name: String,
}

/// The column of the header named one of `names`; two such columns are an error (which
/// would count?), as the match importer holds too.
fn column(headers: &csv::StringRecord, names: &[&str]) -> Result<Option<usize>, TwoColumns> {
    let mut hits = headers
        .iter()
        .enumerate()
        .filter(|(_, h)| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)));
    match (hits.next(), hits.next()) {
        (Some((i, a)), Some((j, b))) => Err(TwoColumns {
            first: i + 1,
            first_name: a.trim().to_string(),
            second: j + 1,
            second_name: b.trim().to_string(),
        }),
        (first, _) => Ok(first.map(|(i, _)| i)),
    }
}

/// Reads the whole list; the first bad line is the error.
pub fn read(input: impl Read, file: &str) -> Result<Vec<EloLine>, EloListError> {
    let file = &rungs_ladder::values::shown(file);
    let err = |line: u64, field: &str, message: String| EloListError {
        file: file.to_string(),
        line,
        field: field.to_string(),
        message,
    };
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(input);
    let headers = reader
        .headers()
        .map_err(|e| err(1, "header", e.to_string()))?
        .clone();
    let listed = headers.iter().collect::<Vec<_>>().join(", ");
    let player = column(&headers, &["player", "name"])
        .map_err(|e| err(1, "player", e.to_string()))?
        .ok_or_else(|| {
            err(
                1,
                "player",
                format!("no `player` column (the header has: {listed})"),
            )
        })?;
    let elo = column(&headers, &["elo", "rating"])
        .map_err(|e| err(1, "elo", e.to_string()))?
        .ok_or_else(|| {
            err(
                1,
                "elo",
                format!("no `elo` column (the header has: {listed})"),
            )
        })?;
    let rank =
        column(&headers, &["rank", "old_rank"]).map_err(|e| err(1, "rank", e.to_string()))?;
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut line = 1u64;
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(err(line + 1, "row", e.to_string())),
        }
        line = record.position().map_or(line + 1, |p| p.line());
        let name = record.get(player).unwrap_or("").trim();
        if name.is_empty() {
            return Err(err(line, "player", "is empty".into()));
        }
        let text = record.get(elo).unwrap_or("").trim();
        let value: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| err(line, "elo", format!("`{text}` is not a number")))?;
        let old_rank = match rank {
            None => None,
            Some(i) => {
                let t = record.get(i).unwrap_or("").trim();
                if t.is_empty() {
                    None
                } else {
                    Some(OldRank::parse(t).ok_or_else(|| {
                    err(
                        line,
                        "rank",
                        format!("`{t}` is not a rank: Grandmaster, Master, Prophet, Scholar, Apprentice, none, or empty"),
                    )
                })?)
                }
            }
        };
        out.push(EloLine {
            line,
            player: name.to_string(),
            elo: value,
            rank: old_rank,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `player,elo,elo` took the first `elo` and applied it (Alice 1839 → 1): which column
    /// was meant cannot be known, so neither is taken. `elo` and `rating` are one column too.
    #[test]
    fn a_column_given_twice_is_refused() {
        for (header, field, parts) in [
            ("player,elo,elo", "elo", "columns 2 (`elo`) and 3 (`elo`)"),
            (
                "player,elo,Rating",
                "elo",
                "columns 2 (`elo`) and 3 (`Rating`)",
            ),
            (
                "name,player,elo",
                "player",
                "columns 1 (`name`) and 2 (`player`)",
            ),
            (
                "player,elo,rank,old_rank",
                "rank",
                "columns 3 (`rank`) and 4 (`old_rank`)",
            ),
        ] {
            let text = format!("{header}\nAlice,1,2,3\n");
            let e = read(text.as_bytes(), "list.csv").unwrap_err();
            assert_eq!((e.line, e.field.as_str()), (1, field), "{e}");
            assert!(e.message.contains(parts), "{e}");
        }
    }

    #[test]
    fn reads_players_elo_and_ranks() {
        let text = "Player,Elo,Rank\nAnn,2210,Grandmaster\nBo,1650,scholar\nCy,1200,\n";
        let lines = read(text.as_bytes(), "list.csv").unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            (lines[0].player.as_str(), lines[0].elo, lines[0].rank),
            ("Ann", 2210.0, Some(OldRank::Grandmaster))
        );
        assert_eq!(lines[1].rank, Some(OldRank::Scholar));
        assert_eq!((lines[2].line, lines[2].rank), (4, None));
    }

    #[test]
    fn bad_lines_name_file_line_and_field() {
        let e = read("player,elo\nAnn,12x\n".as_bytes(), "list.csv")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("list.csv: line 2, field `elo`") && e.contains("12x"),
            "{e}"
        );
        let e = read("player,elo,rank\nAnn,1500,Wizard\n".as_bytes(), "l.csv")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 2, field `rank`") && e.contains("Wizard"),
            "{e}"
        );
        let e = read("name,score\nAnn,1\n".as_bytes(), "l.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 1, field `elo`"), "{e}");
    }
}
