//! Set-up shared by the integration tests: a temporary directory of the test's own.
//! (A dev-dependency of every crate with integration tests.)

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary directory, removed when dropped. Its name
/// is `rungs-{tag}-` and random characters (the `tempfile` crate): tests running in parallel,
/// or another user on the machine, can neither share it nor guess it in advance.
pub struct TempDir(pub PathBuf, tempfile::TempDir);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("rungs-{tag}-"))
            .tempdir()
            .expect("a temporary directory");
        TempDir(dir.path().to_path_buf(), dir)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.1.path()
    }
}

pub mod postgres;
pub mod strategies;
