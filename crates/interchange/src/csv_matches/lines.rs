//! Physical line numbers: a reader under the csv parser that notes where each line ends.
use super::types::MAX_ROW_BYTES;
use std::collections::VecDeque;
use std::io::{self, Read};

/// A reader that notes where the line breaks are, so rows get physical line numbers.
///
/// The csv reader's own line count is off for CRLF files (a row's `\n` is counted when the
/// next row is read), for blank lines (counted into the next row) and for lone `\r` endings
/// (not counted), so this counts them itself: `\r`, `\r\n` and `\n` each end one line.
pub(super) struct LineTracker<R> {
    inner: R,
    /// Offset of the next byte `inner` will give.
    offset: u64,
    /// Whether the last byte read was `\r`.
    prev_cr: bool,
    /// The `\r` and `\n` bytes the csv parser may not have passed yet: offset, and whether the
    /// byte ends a line (every `\r`; a `\n` unless it follows a `\r`).
    terminators: VecDeque<(u64, bool)>,
    /// Line ends among terminators already dropped from the front.
    breaks_dropped: u64,
    /// Where the record being read began (the end of the last one).
    record_start: u64,
    /// Whether reading stopped at a row longer than [`MAX_ROW_BYTES`].
    pub(super) overlong: bool,
}

impl<R> LineTracker<R> {
    pub(super) fn new(inner: R) -> Self {
        LineTracker {
            inner,
            offset: 0,
            prev_cr: false,
            terminators: VecDeque::new(),
            breaks_dropped: 0,
            record_start: 0,
            overlong: false,
        }
    }

    /// The line of the byte at `offset`.
    pub(super) fn line_at(&self, offset: u64) -> u64 {
        let before = self
            .terminators
            .iter()
            .take_while(|(off, _)| *off < offset)
            .filter(|(_, brk)| *brk)
            .count() as u64;
        1 + self.breaks_dropped + before
    }

    /// The line on which the record the parser read from `start` to `end` begins: the csv
    /// parser skips line ends (blank lines, the `\n` of a `\r\n`) before a record, so the
    /// record's first byte is the first byte from `start` on that is not a line end. Then
    /// forgets the line ends before `end`.
    pub(super) fn record_line(&mut self, start: u64, end: u64) -> u64 {
        let mut first = start;
        let mut breaks = self.breaks_dropped;
        for &(off, brk) in &self.terminators {
            if off > first {
                break;
            }
            if off == first {
                first += 1;
            }
            if brk {
                breaks += 1;
            }
        }
        while let Some(&(off, brk)) = self.terminators.front() {
            if off >= end {
                break;
            }
            if brk {
                self.breaks_dropped += 1;
            }
            self.terminators.pop_front();
        }
        self.record_start = end;
        1 + breaks
    }
}

impl<R> LineTracker<R> {
    /// Notes the line ends in `bytes`, which start at offset `at`.
    fn scan(&mut self, bytes: &[u8], at: u64, prev_cr: &mut bool) {
        for (i, &byte) in bytes.iter().enumerate() {
            match byte {
                b'\r' => {
                    self.terminators.push_back((at + i as u64, true));
                    *prev_cr = true;
                }
                b'\n' => {
                    self.terminators.push_back((at + i as u64, !*prev_cr));
                    *prev_cr = false;
                }
                _ => *prev_cr = false,
            }
        }
    }
}

/// Whether any byte of `word` is `\r` or `\n`: the exact has-zero-byte test applied to `word`
/// xor each.
pub(super) fn has_line_end(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    has_zero(word ^ (ONES * u64::from(b'\n'))) || has_zero(word ^ (ONES * u64::from(b'\r')))
}

impl<R: Read> Read for LineTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A row that has not ended after this many bytes is not a match row: stop before the
        // parser holds more of it.
        if self.offset.saturating_sub(self.record_start) > MAX_ROW_BYTES {
            self.overlong = true;
            return Err(io::Error::other("a row longer than the limit"));
        }
        let n = self.inner.read(buf)?;
        let data = buf.get(..n).unwrap_or_default();
        let mut prev_cr = self.prev_cr;
        let mut at = self.offset;
        // Eight bytes at a time: most words hold no line end.
        let words = data.chunks_exact(8);
        let tail = words.remainder();
        for word in words {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            if has_line_end(u64::from_ne_bytes(bytes)) {
                self.scan(word, at, &mut prev_cr);
            } else {
                prev_cr = false;
            }
            at += 8;
        }
        self.scan(tail, at, &mut prev_cr);
        self.prev_cr = prev_cr;
        self.offset += data.len() as u64;
        Ok(n)
    }
}
