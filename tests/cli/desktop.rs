//! rungs on the desktop, through the real binary: completions for three shells, the man page,
//! and the per-user install of the application entry, icon and ladder MIME type, checked by
//! the shells themselves and the freedesktop tools. A machine without one of those says what
//! it skipped; under CI, which installs them all (`.ci/run`), a missing one fails.

use std::path::Path;
use std::process::Command;

use crate::support::TempDir;
use crate::support::tools;

fn rungs(args: &[&str], data: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rungs"))
        .args(args)
        .env("HOME", data)
        .env("XDG_DATA_HOME", data.join("share"))
        .output()
        .unwrap()
}

#[test]
fn completions_generate_for_bash_zsh_and_fish() {
    let dir = TempDir::new("completions");
    for shell in ["bash", "zsh", "fish"] {
        let out = rungs(&["completions", shell], &dir.0);
        assert!(out.status.success(), "{shell}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        for command in ["add-match", "soft-reset", "install-desktop", "completions"] {
            assert!(text.contains(command), "{shell} completions lack {command}");
        }
        // The script parses in its own shell.
        let what = format!("parsing the {shell} completions");
        if let Some(check) = tools::need(shell, shell, &what) {
            let file = dir.0.join(format!("rungs.{shell}"));
            std::fs::write(&file, &text).unwrap();
            let flag = if shell == "fish" {
                "--no-execute"
            } else {
                "-n"
            };
            let status = Command::new(check).arg(flag).arg(&file).status().unwrap();
            assert!(status.success(), "{shell} does not parse its completions");
        }
    }
    let out = rungs(&["completions", "tcsh"], &dir.0);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn the_man_page_is_roff_with_every_command() {
    let dir = TempDir::new("man");
    let out = rungs(&["man"], &dir.0);
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(page.contains(".TH rungs 1"), "{}", &page[..200]);
    assert!(page.contains(".SH \"RUNGS IMPORT\"") && page.contains(".SH \"RUNGS FIT\""));
}

#[test]
fn install_desktop_writes_valid_entries_and_uninstall_removes_them() {
    let dir = TempDir::new("desktop");
    let share = dir.0.join("share");
    let out = rungs(&["install-desktop"], &dir.0);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let entry = share.join("applications/rungs.desktop");
    let text = std::fs::read_to_string(&entry).unwrap();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_rungs")).unwrap();
    assert!(
        text.contains(&format!("Exec={} %f", exe.display()))
            || text.contains(&format!("Exec={} %f", env!("CARGO_BIN_EXE_rungs"))),
        "{text}"
    );
    assert!(text.contains("MimeType=application/x-rungs-ladder;"));
    for icon in [
        "icons/hicolor/scalable/apps/rungs.svg",
        "icons/hicolor/48x48/apps/rungs.png",
        "icons/hicolor/256x256/apps/rungs.png",
        "mime/packages/rungs.xml",
        "bash-completion/completions/rungs",
        "man/man1/rungs.1",
    ] {
        assert!(share.join(icon).is_file(), "{icon} not written");
    }
    let validate = tools::need(
        "desktop-file-validate",
        "desktop-file-utils",
        "validating the installed entry",
    );
    if let Some(validate) = validate {
        let out = Command::new(validate).arg(&entry).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let warnings = String::from_utf8_lossy(&out.stdout);
        assert!(!warnings.contains("error"), "{warnings}");
    }
    let what = "the ladder type in the MIME database";
    if tools::need("update-mime-database", "shared-mime-info", what).is_some() {
        // The installer ran it: the ladder type is known by its glob and its magic.
        let globs = std::fs::read_to_string(share.join("mime/globs2")).unwrap();
        assert!(
            globs.contains("application/x-rungs-ladder:*.rungs"),
            "{globs}"
        );
        let magic = std::fs::read(share.join("mime/magic")).unwrap();
        assert!(
            magic
                .windows(b"x-rungs-ladder".len())
                .any(|w| w == b"x-rungs-ladder"),
            "no magic for the ladder type"
        );
    }
    let out = rungs(&["install-desktop", "--uninstall"], &dir.0);
    assert!(out.status.success());
    assert!(!entry.exists() && !share.join("mime/packages/rungs.xml").exists());
    assert!(!share.join("icons/hicolor/48x48/apps/rungs.png").exists());
}

/// The files in `assets/desktop` are the ones the binary installs.
#[test]
fn the_desktop_assets_validate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/desktop");
    let what = "validating assets/desktop/rungs.desktop";
    if let Some(validate) = tools::need("desktop-file-validate", "desktop-file-utils", what) {
        let out = Command::new(validate)
            .arg(root.join("rungs.desktop"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let png = std::fs::read(root.join("rungs-256.png")).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let info = decoder.read_info().unwrap();
    assert_eq!((info.info().width, info.info().height), (256, 256));
}

/// Where no window can open (no display at all), the app says so and what still works, exits
/// with status 1, and writes nothing: no ladder is created in the data directory.
#[test]
fn without_a_display_the_app_says_what_still_works() {
    let dir = TempDir::new("no-display");
    let out = Command::new(env!("CARGO_BIN_EXE_rungs"))
        .env("HOME", &dir.0)
        .env("XDG_DATA_HOME", dir.0.join("share"))
        .env("XDG_CONFIG_HOME", dir.0.join("config"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.starts_with("rungs: cannot open a window ("), "{text}");
    assert!(
        text.contains("every command works without one (`rungs --help`)"),
        "{text}"
    );
    assert!(!dir.0.join("share/rungs").exists(), "nothing is written");
}

/// The README's two commands are the ones CI runs: `cargo test` in `.ci/run`, `cargo run
/// --release` in its real-window smoke test; and the README gives what a fresh machine needs.
#[test]
fn the_readme_commands_are_the_ones_ci_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = &readme[readme.find("## Two commands").unwrap()..];
    let block = section
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(commands, ["cargo run --release", "cargo test"]);
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap()
        + &std::fs::read_to_string(root.join(".ci/smoke-gui.sh")).unwrap();
    let run: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("cargo ") && !l.starts_with('#') && !l.starts_with("echo"))
        .collect();
    for command in commands {
        assert!(
            run.iter().any(|l| l.contains(command)),
            "CI does not run `{command}`: {run:?}"
        );
    }
    for need in [
        "C compiler",
        "build-essential",
        "GB",
        "When no window opens",
    ] {
        assert!(section.contains(need), "the README lacks {need:?}");
    }
}
