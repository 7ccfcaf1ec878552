//! rungs at home on the desktop: an application entry with its icon, `.rungs` files opening in
//! rungs from a file manager, shell completions and the man page, all generated from what the
//! binary carries and installed for the current user under the XDG data directory.

use super::args::Cli;
use anyhow::{Context as _, Result, anyhow};
use clap::CommandFactory;
use std::path::{Path, PathBuf};

const DESKTOP: &str = include_str!("../../../assets/desktop/rungs.desktop");
const MIME: &str = include_str!("../../../assets/desktop/rungs-mime.xml");
const SVG: &[u8] = include_bytes!("../../../assets/desktop/rungs.svg");
const PNGS: [(&str, &[u8]); 4] = [
    (
        "16x16",
        include_bytes!("../../../assets/desktop/rungs-16.png"),
    ),
    (
        "32x32",
        include_bytes!("../../../assets/desktop/rungs-32.png"),
    ),
    (
        "48x48",
        include_bytes!("../../../assets/desktop/rungs-48.png"),
    ),
    (
        "256x256",
        include_bytes!("../../../assets/desktop/rungs-256.png"),
    ),
];
/// The MIME type of a ladder file (declared in `rungs-mime.xml`).
pub const MIME_TYPE: &str = "application/x-rungs-ladder";

/// `rungs completions SHELL`.
pub fn completions(shell: clap_complete::Shell) {
    let mut cmd = Cli::command();
    // Into memory first: clap_complete panics on a failed write.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "rungs", &mut script);
    super::stdout::write_all(&script);
}

/// The man page, as roff.
fn man_page() -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    // Each command, its arguments and options, under a heading of its own.
    let roff = |text: &str| text.replace('\\', "\\e").replace('-', "\\-");
    for sub in Cli::command().get_subcommands() {
        let mut text = format!(".SH \"RUNGS {}\"\n", sub.get_name().to_uppercase());
        if let Some(about) = sub.get_long_about().or(sub.get_about()) {
            text += &format!("{}\n", roff(&about.to_string()));
        }
        for arg in sub.get_arguments().filter(|a| !a.is_hide_set()) {
            let name = match (arg.get_long(), arg.get_value_names()) {
                (Some(long), Some(v)) => format!("\\-\\-{} {}", roff(long), v.join(" ")),
                (Some(long), None) => format!("\\-\\-{}", roff(long)),
                (None, Some(v)) => v.join(" "),
                (None, None) => arg.get_id().to_string().to_uppercase(),
            };
            text += &format!(".TP\n\\fB{name}\\fR\n");
            if let Some(help) = arg.get_long_help().or(arg.get_help()) {
                text += &format!("{}\n", roff(&help.to_string()));
            }
        }
        out.extend_from_slice(text.as_bytes());
    }
    Ok(out)
}

/// `rungs man`.
pub fn man() -> Result<()> {
    super::stdout::write_all(&man_page()?);
    Ok(())
}

/// The characters the Desktop Entry specification reserves in an `Exec` argument: an argument
/// holding one is quoted (its tab and line break are control characters, refused outright).
const RESERVED: &[char] = &[
    ' ', '"', '\'', '\\', '>', '<', '~', '|', '&', ';', '$', '*', '?', '#', '(', ')', '`',
];

/// The desktop entry with `Exec` naming this binary, quoted as the Desktop Entry specification
/// asks: an argument with a reserved character in double quotes, `"` `` ` `` `$` `\` escaped
/// inside them, then every backslash escaped again by the string rules of a key's value, and
/// `%` written `%%` (a lone `%` starts a field code). A path no entry can hold — one with a line
/// break or another control character, which would end the key and start another, or one that
/// is not UTF-8 — is refused.
fn desktop_entry(exe: &Path) -> Result<String> {
    let where_ = || format!("{}", exe.display()).escape_debug().to_string();
    let Some(path) = exe.to_str() else {
        return Err(anyhow!(
            "{}: this rungs lies in a folder whose name is not UTF-8, which a desktop entry \
             cannot name; move it (cargo install --root DIR) and install again",
            where_()
        ));
    };
    if path.chars().any(char::is_control) {
        return Err(anyhow!(
            "{}: this rungs lies in a folder whose name holds a line break or another control \
             character, which would break the desktop entry; move it (cargo install --root \
             DIR) and install again",
            where_()
        ));
    }
    let path = path.replace('%', "%%");
    let quoted = if path.contains(RESERVED) {
        let escaped = path
            .replace('\\', "\\\\\\\\")
            .replace('"', "\\\\\"")
            .replace('`', "\\\\`")
            .replace('$', "\\\\$");
        format!("\"{escaped}\"")
    } else {
        path
    };
    Ok(DESKTOP.replace("Exec=rungs %f", &format!("Exec={quoted} %f")))
}

/// Where each installed file goes, under the user's data directory, with its content.
fn files(data: &Path, exe: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut out = vec![
        (
            data.join("applications/rungs.desktop"),
            desktop_entry(exe)?.into_bytes(),
        ),
        (
            data.join("mime/packages/rungs.xml"),
            MIME.as_bytes().to_vec(),
        ),
        (
            data.join("icons/hicolor/scalable/apps/rungs.svg"),
            SVG.to_vec(),
        ),
    ];
    for (size, png) in PNGS {
        out.push((
            data.join(format!("icons/hicolor/{size}/apps/rungs.png")),
            png.to_vec(),
        ));
    }
    let mut bash = Vec::new();
    clap_complete::generate(
        clap_complete::Shell::Bash,
        &mut Cli::command(),
        "rungs",
        &mut bash,
    );
    out.push((data.join("bash-completion/completions/rungs"), bash));
    out.push((data.join("man/man1/rungs.1"), man_page()?));
    Ok(out)
}

/// Runs a desktop database tool if the machine has it; says what happened.
fn refresh(tool: &str, args: &[&str]) {
    match std::process::Command::new(tool).args(args).output() {
        Ok(o) if o.status.success() => say!("  ran {tool}"),
        Ok(o) => say!(
            "  {tool} failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
        Err(_) => {
            say!("  ({tool} is not installed; the desktop picks the files up on its next scan)")
        }
    }
}

/// `rungs install-desktop [--uninstall]`.
pub fn install(uninstall: bool) -> Result<()> {
    let dirs = directories::BaseDirs::new()
        .ok_or_else(|| anyhow!("no home directory: cannot find where desktop files go"))?;
    let data = dirs.data_dir().to_path_buf();
    let exe = std::env::current_exe().context("cannot tell where this rungs binary is")?;
    // Removing needs only the names: an entry that could not be written is no obstacle.
    let files = files(&data, if uninstall { Path::new("rungs") } else { &exe })?;
    if uninstall {
        for (path, _) in &files {
            match std::fs::remove_file(path) {
                Ok(()) => say!("removed {}", path.display()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(e).with_context(|| format!("{}: cannot remove", path.display()));
                }
            }
        }
    } else {
        for (path, bytes) in &files {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("{}: cannot create", dir.display()))?;
            }
            std::fs::write(path, bytes)
                .with_context(|| format!("{}: cannot write", path.display()))?;
            say!("wrote {}", path.display());
        }
    }
    let (mime, apps) = (data.join("mime"), data.join("applications"));
    refresh("update-mime-database", &[&mime.display().to_string()]);
    refresh("update-desktop-database", &[&apps.display().to_string()]);
    if !uninstall {
        refresh("xdg-mime", &["default", "rungs.desktop", MIME_TYPE]);
        say!("rungs is in the application menu; a double-click on a .rungs file opens it");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_runs_this_binary_with_the_file() {
        let plain = desktop_entry(Path::new("/home/ann/.cargo/bin/rungs")).unwrap();
        assert!(
            plain.contains("\nExec=/home/ann/.cargo/bin/rungs %f\n"),
            "{plain}"
        );
        assert!(plain.contains(&format!("MimeType={MIME_TYPE};")));
        // A path with a space is quoted; a quote and a dollar are escaped (twice: once for the
        // quoting rules, once for the string rules of the key's value).
        let spaced = desktop_entry(Path::new("/opt/my apps/ru\"ngs$")).unwrap();
        assert!(
            spaced.contains("\nExec=\"/opt/my apps/ru\\\\\"ngs\\\\$\" %f\n"),
            "{spaced}"
        );
    }

    /// Installed from a folder `bin\nTerminal=true\nX-Injected=1`
    /// the line breaks became lines of the entry, and a folder `pct%u` gave `Exec=…/pct%u/rungs
    /// %f`, a field code where the path had a percent sign.
    #[test]
    fn a_path_cannot_inject_keys_or_field_codes() {
        let injected = desktop_entry(Path::new("/opt/bin\nTerminal=true\nX-Injected=1/rungs"))
            .unwrap_err()
            .to_string();
        assert!(injected.contains("line break"), "{injected}");
        assert!(
            injected.contains("\\n"),
            "the name is shown escaped: {injected}"
        );
        let pct = desktop_entry(Path::new("/opt/pct%u/rungs")).unwrap();
        assert!(pct.contains("\nExec=/opt/pct%%u/rungs %f\n"), "{pct}");
        // Every reserved character quotes the argument; nothing else of the entry moves.
        for c in RESERVED {
            let entry = desktop_entry(Path::new(&format!("/opt/a{c}b/rungs"))).unwrap();
            let exec = entry.lines().find(|l| l.starts_with("Exec=")).unwrap();
            assert!(exec.starts_with("Exec=\"/opt/a"), "{c:?}: {exec}");
            assert_eq!(entry.lines().count(), DESKTOP.lines().count(), "{c:?}");
        }
        use std::os::unix::ffi::OsStrExt;
        let bytes = std::ffi::OsStr::from_bytes(b"/opt/\xff/rungs");
        assert!(desktop_entry(Path::new(bytes)).is_err());
    }

    #[test]
    fn the_man_page_names_every_command() {
        let page = String::from_utf8(man_page().unwrap()).unwrap();
        assert!(page.starts_with(".ie"), "{}", &page[..40]);
        // roff writes a hyphen as \-.
        for name in ["add\\-match", "import", "standings", "install\\-desktop"] {
            assert!(page.contains(name), "{name} missing");
        }
        assert!(
            page.contains(".SH \"RUNGS ADD-MATCH\""),
            "no section per command"
        );
    }
}
