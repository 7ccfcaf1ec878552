//! Where a site's files go, one at a time, by their path inside it.

use std::io;

/// Where the files go, one at a time, by their path inside the site (`players/3.html`).
pub trait Sink {
    fn file(&mut self, path: &str, bytes: &[u8]) -> io::Result<()>;
}

/// Collects the files in memory (tests, small ladders).
impl Sink for Vec<(String, Vec<u8>)> {
    fn file(&mut self, path: &str, bytes: &[u8]) -> io::Result<()> {
        self.push((path.to_string(), bytes.to_vec()));
        Ok(())
    }
}
