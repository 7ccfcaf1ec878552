//! Physical line numbers.
use super::*;
use crate::csv_matches::MAX_ROW_BYTES;
use crate::csv_matches::lines::has_line_end;
use proptest::prelude::*;
use std::io::{self, Read};

#[test]
fn line_numbers_are_physical_lines() {
    // A quoted two-line cell, blank lines, CRLF and lone-CR line ends.
    let csv = "date,player_a,player_b,score,scenario\r\n\
               2024-01-01,A,B,1,\"two\r\nlines\"\r\n\
               \r\n\
               2024-01-02,A,A,1,\r\n\
               2024-01-03,A,B,x,\r\r\
               2024-01-04,,B,1,\"three\nmore\nlines\"\n\
               2024-01-05,A,B,0,\n\
               2024-01-06,A,B,zz,";
    let rows = read_all(csv.as_bytes(), &Mapping::standard());
    let lines: Vec<u64> = rows
        .iter()
        .map(|r| match r {
            Ok(m) => m.line,
            Err(e) => e.line,
        })
        .collect();
    assert_eq!(lines, vec![2, 5, 6, 8, 11, 12]);
    // A scenario across lines holds line breaks, which no label may (they are control
    // characters): the row is refused at the line it starts on.
    let e = rows[0].as_ref().unwrap_err();
    assert_eq!((e.line, e.field.as_str()), (2, "scenario"));
    assert!(e.message.contains("U+000D"), "{}", e.message);
    assert!(
        rows[1]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("line 5,")
    );
    assert!(
        rows[5]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("line 12,")
    );
}

/// An endless row (`/dev/zero`, a binary file) is refused once it passes the limit, and
/// the reader holds no more than about that much of it: the bytes read before refusing
/// are the limit plus one buffer.
#[test]
fn an_endless_row_is_refused_within_the_limit() {
    struct Endless {
        byte: u8,
        given: u64,
    }
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(self.byte);
            self.given += buf.len() as u64;
            Ok(buf.len())
        }
    }
    for (header, byte) in [(false, 0u8), (true, b'x'), (true, b'\n')] {
        let mut source = Endless { byte, given: 0 };
        let prefix: &[u8] = if header {
            b"date,player_a,player_b,score\n"
        } else {
            b""
        };
        let input = prefix.chain(&mut source);
        let outcome = match MatchReader::new(input, "zero.csv", &Mapping::standard()) {
            Err(e) => Some(e),
            Ok(mut reader) => reader.next().and_then(Result::err),
        };
        if byte == b'\n' {
            // Blank lines hold no row but count towards the limit too: reading stops.
            assert!(outcome.is_some());
            assert!(source.given <= MAX_ROW_BYTES + 256 * 1024);
            continue;
        }
        let e = outcome.expect("an error");
        assert_eq!(e.field, "row");
        assert_eq!(e.line, if header { 2 } else { 1 });
        assert!(e.message.contains("more than 1 MiB"), "{}", e.message);
        assert!(
            source.given <= MAX_ROW_BYTES + 256 * 1024,
            "read {} bytes",
            source.given
        );
    }
}

/// Gives its bytes `step` at a time, to split line ends across reads.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}
impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = rest;
        Ok(n)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn line_numbers_do_not_depend_on_read_sizes(
        text in "[,\"\n\r0-9a-zA-Z -]{0,300}",
        step in 1..20usize,
    ) {
        let text = format!("date,player_a,player_b,score\n{text}");
        let key = |r: Result<CsvMatch, CsvError>| match r {
            Ok(m) => (m.line, String::new()),
            Err(e) => (e.line, e.to_string()),
        };
        let whole: Vec<_> = read_all(text.as_bytes(), &Mapping::standard())
            .into_iter().map(key).collect();
        let trickled: Vec<_> =
            MatchReader::new(Trickle { data: text.as_bytes(), step }, "games.csv", &Mapping::standard())
                .unwrap().map(key).collect();
        prop_assert_eq!(whole, trickled);
    }

    #[test]
    fn line_end_test_is_exact(word in any::<u64>(), at in 0..8usize, end in 0..3u8) {
        let mut bytes = word.to_ne_bytes();
        if end > 0 {
            bytes[at] = if end == 1 { b'\n' } else { b'\r' };
        }
        let naive = bytes.iter().any(|&b| b == b'\n' || b == b'\r');
        prop_assert_eq!(has_line_end(u64::from_ne_bytes(bytes)), naive);
    }
}
