//! Programs some tests need beside rungs (a browser, shells, the freedesktop validators,
//! `setpriv`), and what a test does without one: it says that it skipped and why, and under
//! CI (the `CI` variable set), where `.ci/run` installs them all, it fails instead.

use std::process::Command;

/// The path of `name` on `PATH`, if it is there.
pub fn find(name: &str) -> Option<String> {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
    (found.status.success() && !path.is_empty()).then_some(path)
}

/// `name`'s path; where it is missing, [`skipped`] with `package`, the Debian package that
/// provides it.
pub fn need(name: &str, package: &str, what: &str) -> Option<String> {
    let path = find(name);
    if path.is_none() {
        skipped(&format!(
            "{what}: {name} is not installed (apt-get install {package})"
        ));
    }
    path
}

/// Says that (part of) a test did not run and why; under CI, fails the test instead.
pub fn skipped(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and a test could not run ({why}): .ci/run provides what it needs"
    );
    eprintln!("skipped: {why}");
}

/// Whether the tests run as root (by the process's real user id).
pub fn root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
    })
}
