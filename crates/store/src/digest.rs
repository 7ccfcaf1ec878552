//! Which log the caches were derived from. The caches record a [`Stamp`] of the log: its last
//! action and row, and two 64-bit digests — one of the initial rules and every action's id and
//! kind (which rows count), one of every block of rows. Opening a ladder computes the stamp of
//! the log as it is and compares: a log changed by another program (a row added, edited or
//! flipped, an undo slipped in) is noticed before anything derived from it is shown.
//!
//! The digest guards against accident and other programs, not against forgery (whoever can
//! write the file can write the stamp): a fast 128-bit-multiply hash, a few gigabytes a second,
//! so a million-match log is checked in milliseconds at every open.

const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;
const P2: u64 = 0x8ebc_6af0_9c88_c6e3;

fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

fn word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(w)
}

/// The hash of a byte string.
pub fn hash(data: &[u8]) -> u64 {
    let mut h = P0 ^ mum(data.len() as u64 ^ P1, P2);
    let mut chunks = data.chunks_exact(16);
    for c in &mut chunks {
        h = mum(word(&c[..8]) ^ P1 ^ h, word(&c[8..]) ^ P2);
    }
    let tail = chunks.remainder();
    let (lo, hi) = tail.split_at(tail.len().min(8));
    h = mum(word(lo) ^ P1 ^ h, word(hi) ^ P2 ^ tail.len() as u64);
    mum(h ^ P0, P1)
}

/// A running digest of a sequence of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold(pub u64);

impl Fold {
    pub fn new(seed: u64) -> Fold {
        Fold(mum(seed ^ P2, P0))
    }

    pub fn add(&mut self, v: u64) {
        self.0 = mum(self.0 ^ v ^ P1, P2 ^ self.0.rotate_left(17));
    }
}

/// What the caches were derived from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The last action's id (0 for none).
    pub last_action: i64,
    /// The last row's sequence number (0 for none).
    pub last_seq: i64,
    /// The initial rules, then every action's id and kind.
    pub actions: Fold,
    /// Every block: its first sequence number, action, row count and bytes.
    pub rows: Fold,
}

impl Stamp {
    /// The stamp of a log with `rules_json` as its initial rules and nothing else.
    pub fn empty(rules_json: &str) -> Stamp {
        Stamp {
            last_action: 0,
            last_seq: 0,
            actions: Fold::new(hash(rules_json.as_bytes())),
            rows: Fold::new(0),
        }
    }

    /// Adds an action (`kind` 0 do, 1 undo, 2 redo).
    pub fn add_action(&mut self, id: i64, kind: u8) {
        self.actions.add(id as u64);
        self.actions.add(u64::from(kind));
        self.last_action = self.last_action.max(id);
    }

    /// Adds a block of `rows` rows from `first_seq` on, written by `action`.
    pub fn add_block(&mut self, first_seq: i64, action: i64, rows: i64, data: &[u8]) {
        self.rows.add(first_seq as u64);
        self.rows.add(action as u64);
        self.rows.add(rows as u64);
        self.rows.add(hash(data));
        self.last_seq = self.last_seq.max(first_seq.saturating_add(rows - 1));
    }

    /// Why the log this stamp describes is not `now`, in words; `None` if it is.
    pub fn differs(&self, now: &Stamp) -> Option<String> {
        if self == now {
            return None;
        }
        let mut what = Vec::new();
        if self.last_seq != now.last_seq {
            what.push(format!(
                "the log has {} rows where its caches were made from {}",
                now.last_seq, self.last_seq
            ));
        } else if self.rows != now.rows {
            what.push("rows of the log were changed".to_string());
        }
        if self.last_action != now.last_action {
            what.push(format!(
                "it has {} actions where its caches were made from {}",
                now.last_action, self.last_action
            ));
        } else if self.actions != now.actions {
            what.push("its rules or its undo history were changed".to_string());
        }
        Some(what.join("; "))
    }
}

/// The digest of one cached state (the ladder's, `id` 0 with no key; or a player's): the
/// cached states' digest is the wrapping sum of theirs, so a write that changes two players
/// takes two out and puts two in.
pub fn cached_state(id: i64, key: &str, state: &str) -> u64 {
    let mut f = Fold::new(id as u64);
    f.add(hash(key.as_bytes()));
    f.add(hash(state.as_bytes()));
    f.0
}

/// The digest of the ladder's own cached state.
pub fn cached_ladder(state: &str) -> u64 {
    cached_state(-1, "", state)
}

/// The digest of the archived season at `position` (players are 0 on, the ladder −1).
pub fn cached_season(position: i64, state: &str) -> u64 {
    cached_state(-2 - position, "", state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_single_bit_flip_changes_the_hash() {
        let data: Vec<u8> = (0..100u32).map(|i| (i * 37 % 251) as u8).collect();
        let h = hash(&data);
        for bit in 0..data.len() * 8 {
            let mut d = data.clone();
            d[bit / 8] ^= 1 << (bit % 8);
            assert_ne!(hash(&d), h, "bit {bit}");
        }
        // Length matters, trailing zeros included.
        assert_ne!(hash(&[0]), hash(&[0, 0]));
        assert_ne!(hash(&[]), hash(&[0]));
    }

    #[test]
    fn stamps_tell_what_changed() {
        let mut a = Stamp::empty("{}");
        a.add_action(1, 0);
        a.add_block(1, 1, 3, b"abc");
        let mut b = a;
        assert_eq!(a.differs(&b), None);
        b.add_action(2, 1);
        assert_eq!(
            a.differs(&b).unwrap(),
            "it has 2 actions where its caches were made from 1"
        );
        let mut c = Stamp::empty("{}");
        c.add_action(1, 0);
        c.add_block(1, 1, 3, b"abd");
        assert_eq!(a.differs(&c).unwrap(), "rows of the log were changed");
        let mut d = Stamp::empty("{\"x\":1}");
        d.add_action(1, 0);
        d.add_block(1, 1, 3, b"abc");
        assert_eq!(
            a.differs(&d).unwrap(),
            "its rules or its undo history were changed"
        );
    }
}
