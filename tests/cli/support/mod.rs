//! Set-up shared by the command-line tests: the binary run with arguments, and the checks
//! made of what it says.

pub use rungs_testkit::TempDir;

pub mod binary;
pub mod cli;
pub mod tools;
