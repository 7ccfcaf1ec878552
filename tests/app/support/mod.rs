//! Set-up shared by the app tests: the app opened in a kittest harness and driven by role
//! and label.

pub use rungs_testkit::TempDir;

pub mod app;
