//! The integers both packed formats use — the log's blocks (`codec.rs`) and the history blobs
//! (`history_blob.rs`): LEB128 varints (7 bits a byte, low first), zigzag for signed values,
//! and a reader that refuses what a writer never makes (an overlong varint, a cut-off value).

/// The most bytes a `u64` takes as a varint.
pub const MAX_LEN: usize = 10;

/// Writes `v` at `buf[at..]` (room for [`MAX_LEN`] bytes); returns the end. A fixed buffer
/// because the history packer builds each row on the stack before one copy.
pub fn put_at(buf: &mut [u8], mut at: usize, mut v: u64) -> usize {
    while v >= 0x80 {
        buf[at] = (v as u8) | 0x80;
        v >>= 7;
        at += 1;
    }
    buf[at] = v as u8;
    at + 1
}

/// Appends `v` to `out`.
pub fn put(out: &mut Vec<u8>, v: u64) {
    let mut buf = [0u8; MAX_LEN];
    let n = put_at(&mut buf, 0, v);
    out.extend_from_slice(&buf[..n]);
}

/// A signed value as an unsigned one with small magnitudes small: 0, −1, 1, −2 → 0, 1, 2, 3.
pub fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

pub fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

/// Reads values off a byte slice; each read is `None` where the bytes end or are malformed.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, pos: 0 }
    }

    /// How many bytes are left.
    pub fn left(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    /// A varint; `None` for one cut off or longer than a `u64` holds.
    pub fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            let bits = u64::from(b & 0x7f);
            if shift == 63 && bits > 1 {
                return None;
            }
            v |= bits << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// The next `len` bytes.
    pub fn take(&mut self, len: u64) -> Option<&'a [u8]> {
        let end = usize::try_from(len)
            .ok()
            .and_then(|l| self.pos.checked_add(l))
            .filter(|&e| e <= self.data.len())?;
        let bytes = &self.data[self.pos..end];
        self.pos = end;
        Some(bytes)
    }

    /// An f64 from its 8 little-endian bytes.
    pub fn f64(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_refuse_overlong_or_cut_encodings() {
        for v in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            put(&mut out, v);
            // 7 bits a byte: 127 takes one, 128 two, u64::MAX ten.
            let len = match v {
                0..=127 => 1,
                128..=16383 => 2,
                u64::MAX => 10,
                _ => out.len(),
            };
            assert_eq!(out.len(), len, "{v}");
            assert_eq!(Reader::new(&out).varint(), Some(v));
            assert_eq!(Reader::new(&out[..out.len() - 1]).varint(), None, "cut {v}");
        }
        assert_eq!(Reader::new(&[0xff; 11]).varint(), None);
        // Ten bytes whose last carries more than the one bit left of a u64.
        let mut over = [0xff; 10];
        over[9] = 0x02;
        assert_eq!(Reader::new(&over).varint(), None);
        for v in [-5i64, 0, 1, i64::MIN, i64::MAX] {
            assert_eq!(unzigzag(zigzag(v)), v);
        }
        assert_eq!([0, -1, 1, -2].map(zigzag), [0, 1, 2, 3]);
    }

    #[test]
    fn takes_stop_at_the_end() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.take(2), Some(&[1, 2][..]));
        assert_eq!(r.take(2), None);
        assert_eq!(r.left(), 1);
        assert_eq!(r.take(u64::MAX), None);
        assert_eq!(r.f64(), None);
    }
}
