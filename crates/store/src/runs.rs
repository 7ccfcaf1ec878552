//! A map from a row's place in a log (0, 1, 2, …) to a number that mostly counts up with it —
//! its sequence number, its line — kept as runs: a log of ten million rows numbered 1, 2, 3, …
//! is one run, where a list would hold ten million numbers.

/// Increasing numbers by place, as runs of consecutive numbers.
#[derive(Debug, Clone, Default)]
pub struct Runs {
    /// Each run's first place and first number.
    starts: Vec<(u64, u64)>,
    len: u64,
    last: Option<u64>,
}

impl Runs {
    /// The number of the next place; false (and nothing kept) unless it is above the last.
    pub fn push(&mut self, value: u64) -> bool {
        match self.last {
            Some(last) if value <= last => return false,
            Some(last) if value == last + 1 => {}
            _ => self.starts.push((self.len, value)),
        }
        self.last = Some(value);
        self.len += 1;
        true
    }

    /// How many places.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number at `place`.
    pub fn at(&self, place: u64) -> Option<u64> {
        if place >= self.len {
            return None;
        }
        let i = self.starts.partition_point(|&(p, _)| p <= place) - 1;
        let (p, v) = self.starts[i];
        Some(v + (place - p))
    }

    /// The place holding `value`.
    pub fn place_of(&self, value: u64) -> Option<u64> {
        let i = self
            .starts
            .partition_point(|&(_, v)| v <= value)
            .checked_sub(1)?;
        let (p, v) = self.starts[i];
        let end = self.starts.get(i + 1).map_or(self.len, |&(next, _)| next);
        let place = p + (value - v);
        (place < end).then_some(place)
    }

    /// How many runs: what the map costs.
    pub fn runs(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_numbers_are_one_run_and_gaps_start_new_ones() {
        let mut r = Runs::default();
        for v in [1, 2, 3, 7, 8, 20] {
            assert!(r.push(v));
        }
        assert!(!r.push(20), "not above the last");
        assert!(!r.push(5));
        assert_eq!(r.len(), 6);
        assert_eq!(r.runs(), 3); // 1..=3, 7..=8, 20
        let at: Vec<_> = (0..7).map(|p| r.at(p)).collect();
        assert_eq!(
            at,
            [Some(1), Some(2), Some(3), Some(7), Some(8), Some(20), None]
        );
        // 4, 5, 6 and 9 lie in the gaps; 0 and 21 outside.
        let places: Vec<_> = [0, 1, 3, 4, 6, 7, 8, 9, 20, 21]
            .iter()
            .map(|&v| r.place_of(v))
            .collect();
        assert_eq!(
            places,
            [
                None,
                Some(0),
                Some(2),
                None,
                None,
                Some(3),
                Some(4),
                None,
                Some(5),
                None
            ]
        );
    }

    #[test]
    fn a_million_rows_numbered_in_order_cost_one_run() {
        let mut r = Runs::default();
        for v in 1..=1_000_000 {
            r.push(v);
        }
        assert_eq!(r.runs(), 1);
        assert_eq!(r.at(999_999), Some(1_000_000));
        assert_eq!(r.place_of(500_000), Some(499_999));
    }
}
