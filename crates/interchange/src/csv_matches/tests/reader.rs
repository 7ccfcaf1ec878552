//! Reading rows: the header, the shape of a row, the stream, and the table of sides.
use super::*;
use crate::csv_matches::open;
use crate::csv_matches::reader::CellIndex;
use proptest::prelude::*;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

#[test]
fn a_bad_row_does_not_stop_the_next() {
    let csv = format!("{STANDARD}2024-01-01,A,B,9,,,,\n2024-01-02,A,B,1,,,,\n");
    let rows = read_all(csv.as_bytes(), &Mapping::standard());
    assert!(rows[0].is_err());
    assert_eq!(rows[1].as_ref().unwrap().line, 3);
}

#[test]
fn error_empty_file() {
    let e = MatchReader::new(&b""[..], "games.csv", &Mapping::standard())
        .err()
        .unwrap()
        .to_string();
    assert_names(&e, 1, "row");
    assert!(e.contains("empty"), "{e}");
}

#[test]
fn error_too_few_columns() {
    let e = only_error(&format!("{STANDARD}2024-01-01,A,B\n"), &Mapping::standard());
    assert_names(&e, 2, "score");
    assert!(e.contains("has 3 columns but the header has 8"), "{e}");
    // Missing trailing optional cells are just empty.
    let rows = read_all(
        format!("{STANDARD}2024-01-01,A,B,1\n").as_bytes(),
        &Mapping::standard(),
    );
    assert!(rows[0].is_ok());
}

#[test]
fn error_too_many_columns() {
    let e = only_error(
        "date,player_a,player_b,score\n2024-01-01,Smith, John,B,1\n",
        &Mapping::standard(),
    );
    assert_names(&e, 2, "row");
    // Trailing empty cells are fine.
    let rows = read_all(
        b"date,player_a,player_b,score\n2024-01-01,A,B,1,,\n",
        &Mapping::standard(),
    );
    assert!(rows[0].is_ok());
}

#[test]
fn error_unreadable_stream() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let e = MatchReader::new(Failing, "games.csv", &Mapping::standard())
        .err()
        .unwrap()
        .to_string();
    assert_names(&e, 1, "row");
    assert!(e.contains("disk on fire"), "{e}");
    // A corrupt gzip after a good header: one error, then the iteration ends.
    let tmp = rungs_testkit::TempDir::new("csv-reader");
    let dir = tmp.path();
    let path = dir.join("bad.csv.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    io::Write::write_all(
        &mut gz,
        format!("{STANDARD}2024-01-01,A,B,1,,,,\n").as_bytes(),
    )
    .unwrap();
    let mut bytes = gz.finish().unwrap();
    let n = bytes.len();
    bytes[n - 6] ^= 0xff; // corrupt the CRC
    std::fs::write(&path, &bytes).unwrap();
    let rows: Vec<_> = open(&path, &Mapping::standard()).unwrap().collect();
    let last = rows.last().unwrap().as_ref().unwrap_err();
    assert_eq!(last.field, "row");
    let e = open(Path::new("/nonexistent/games.csv"), &Mapping::standard())
        .err()
        .unwrap();
    // The whole file: no line or field named.
    assert_eq!((e.line, e.field.as_str()), (0, "file"));
    assert_eq!(
        e.to_string(),
        "/nonexistent/games.csv: cannot be opened: No such file or directory (os error 2)"
    );
}

/// A short cell's key is its bytes, little-endian, and its length in the last byte (here
/// against that layout written out byte by byte); 16 bytes and over have none.
#[test]
fn short_cell_keys_are_their_bytes_and_length() {
    let text = b"P00001,Ann-Marie!";
    for n in 0..=17 {
        for start in 0..=(text.len() - n) {
            let b = &text[start..start + n];
            let got = CellIndex::short_key(b);
            if n >= 16 {
                assert_eq!(got, None);
                continue;
            }
            let mut bytes = [0u8; 16];
            bytes[..n].copy_from_slice(b);
            bytes[15] = n as u8;
            let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
            let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
            assert_eq!(got, Some([lo, hi]), "{n} bytes: {:?}", b);
        }
    }
}

/// A cell read once is shared by every row that repeats it.
#[test]
fn repeated_cells_share_their_names() {
    let csv = "date,player_a,player_b,score\n2024-01-01,Ann,Bo,1\n2024-01-02,Bo,Ann,0\n2024-01-03,Ann,Bo,1\n";
    let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::standard())
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert!(Arc::ptr_eq(&rows[0].player_a, &rows[2].player_a));
    assert!(Arc::ptr_eq(&rows[0].player_a, &rows[1].player_b));
    // A bad cell is reported on every line it appears, not remembered.
    let csv = "date,player_a,player_b,score\n2024-01-01,=Ann,Bo,1\n2024-01-02,=Ann,Bo,1\n";
    let lines: Vec<u64> = read_all(csv.as_bytes(), &Mapping::standard())
        .into_iter()
        .map(|r| r.unwrap_err().line)
        .collect();
    assert_eq!(lines, vec![2, 3]);
}

fn drain(bytes: &[u8]) {
    for mapping in [Mapping::standard(), Mapping::international()] {
        if let Ok(reader) = MatchReader::new(bytes, "fuzz.csv", &mapping) {
            for m in reader.flatten() {
                assert!(!m.player_a.is_empty() && !m.player_b.is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn fuzz_arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        drain(&bytes);
    }

    #[test]
    fn fuzz_csvish_text_never_panics(
        text in "[,\"\n\r0-9a-zA-Z .½-]{0,400}",
        header in 0..3usize,
    ) {
        let header = [
            "",
            "date,player_a,player_b,score,medals_a,medals_b,scenario,side_a\n",
            INTERNATIONAL,
        ][header];
        drain(format!("{header}{text}").as_bytes());
    }

    #[test]
    fn fuzz_rowish_text_never_panics(
        rows in proptest::collection::vec(
            ("(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]|[0-9a-z\" -]{0,12}",
             "[A-Za-z\" ,]{0,6}", "[A-Za-z\" ,]{0,6}",
             "[0-9.AB,\"-]{0,4}", "[0-9.\"-]{0,3}", "[0-9.\r\n\"-]{0,3}"),
            0..20),
    ) {
        for header in ["date,player_a,player_b,score,medals_a,medals_b\n", "date,home_team,away_team,home_score,away_score\n"] {
            let mut text = header.to_string();
            for (d, a, b, s, m1, m2) in &rows {
                text.push_str(&format!("{d},{a},{b},{s},{m1},{m2}\n"));
            }
            drain(text.as_bytes());
        }
    }
}
