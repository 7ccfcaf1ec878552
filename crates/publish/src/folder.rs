//! Writing a site into a folder whole. The files go into a new hidden folder beside the
//! target, and the folder is then put in the target's place in one step (an
//! exchange of the two names where the system offers it): a reader of the target sees the
//! old site or the new one, never half of each, and a publish that fails part way leaves the
//! old site as it was. A target that is there already must be a site rungs wrote (it holds
//! [`MARK`]) or an empty folder: publishing never replaces a folder of other files, a file,
//! a device or a ladder. A symbolic link is followed to the folder it names.

use super::sink::Sink;
use rungs_interchange::out_file::not_a_folder;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The file that says a folder is a site rungs published (and may be replaced by the next).
pub const MARK: &str = ".rungs-site";

/// Why a site could not be written: the folder it was for, and the reason in words.
#[derive(Debug, thiserror::Error)]
#[error("{}: {why}", rungs_ladder::values::shown(&dir.display().to_string()))]
pub struct FolderError {
    pub dir: PathBuf,
    pub why: String,
}

fn fail(dir: &Path, why: impl std::fmt::Display) -> FolderError {
    FolderError {
        dir: dir.to_path_buf(),
        why: why.to_string(),
    }
}

/// A site being written; [`Staged::commit`] puts it in place, dropping it removes it.
pub struct Staged {
    target: PathBuf,
    temp: PathBuf,
    done: bool,
    /// The mark of the site being replaced (its text, if it is one rungs wrote).
    previous: Option<String>,
}

impl Staged {
    /// Checks `target` and makes the hidden folder beside it.
    pub fn new(target: &Path) -> Result<Staged, FolderError> {
        if target.as_os_str().is_empty() {
            return Err(fail(target, "no folder named"));
        }
        if let Some(why) = not_a_folder(target) {
            return Err(fail(target, why));
        }
        // A link is followed: the folder it names is the one replaced.
        let target = match target.symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => {
                target.canonicalize().map_err(|e| fail(target, e))?
            }
            _ => target.to_path_buf(),
        };
        if target.is_dir() && !replaceable(&target) {
            return Err(fail(
                &target,
                "is a folder with other files in it; publishing replaces only a folder it \
                 wrote before (or an empty one) — name a new folder",
            ));
        }
        let name = target
            .file_name()
            .ok_or_else(|| fail(&target, "names no folder (give a folder's name)"))?;
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let previous = read_mark(&target);
        let temp = parent.join(format!(
            ".{}.rungs-publish-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        if temp.symlink_metadata().is_ok() {
            fs::remove_dir_all(&temp).map_err(|e| fail(&temp, e))?;
        }
        fs::create_dir(&temp).map_err(|e| fail(&parent, format!("cannot make a folder: {e}")))?;
        Ok(Staged {
            target,
            temp,
            done: false,
            previous,
        })
    }

    /// The folder the site ends up in.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The text of the mark the site being replaced carries (`None` for a new folder).
    pub fn previous_mark(&self) -> Option<&str> {
        self.previous.as_deref()
    }

    /// Marks the folder as a site (the mark's text is `mark`: what was published, for the
    /// next publish to read) and puts it in the target's place. The pages are not
    /// synced to the disk first: a site is made again from the log in a second, and a sync
    /// (`syncfs`) flushed every other program's writes too — seconds on a busy machine.
    pub fn commit(mut self, mark: &str) -> Result<(), FolderError> {
        let t = self.temp.clone();
        File::create(t.join(MARK))
            .and_then(|mut f| f.write_all(mark.as_bytes()))
            .map_err(|e| fail(&t, e))?;
        if self.target.exists() {
            exchange(&t, &self.target).map_err(|e| fail(&self.target, e))?;
            // The old site is now at the temporary name, which drop removes.
        } else {
            fs::rename(&t, &self.target).map_err(|e| fail(&self.target, e))?;
            self.done = true;
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_dir_all(&self.temp);
        }
    }
}

impl Sink for Staged {
    fn file(&mut self, path: &str, bytes: &[u8]) -> io::Result<()> {
        // Paths are the site's own (`players/3.html`): never absolute, never `..`.
        let rel = Path::new(path);
        if rel.is_absolute()
            || rel
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("bad path in site: {path}"),
            ));
        }
        let full = self.temp.join(rel);
        if let Some(dir) = full.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::write(&full, bytes)
    }
}

/// The mark's text in `dir`, read up to 64 KiB (a mark is a few hundred bytes; a larger one
/// was not written by rungs and is read as far as that).
fn read_mark(dir: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = Vec::new();
    File::open(dir.join(MARK))
        .ok()?
        .take(64 * 1024)
        .read_to_end(&mut text)
        .ok()?;
    String::from_utf8(text).ok()
}

/// Whether a folder may be replaced: it is empty, or a site rungs wrote.
fn replaceable(dir: &Path) -> bool {
    dir.join(MARK).is_file() || fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

/// Swaps two names in one step (Linux's `renameat2` with `RENAME_EXCHANGE`); where the file
/// system cannot, the old folder is moved aside first and the new one renamed in.
fn exchange(new: &Path, old: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use rustix::io::Errno;
    match renameat_with(CWD, new, CWD, old, RenameFlags::EXCHANGE) {
        Ok(()) => return Ok(()),
        // The file system or the kernel cannot swap: the fallback below.
        Err(Errno::INVAL | Errno::NOSYS) => {}
        Err(e) => return Err(e.into()),
    }
    let aside = new.with_extension("old");
    fs::rename(old, &aside)?;
    if let Err(e) = fs::rename(new, old) {
        let _ = fs::rename(&aside, old);
        return Err(e);
    }
    fs::rename(&aside, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> rungs_testkit::TempDir {
        rungs_testkit::TempDir::new(&format!("publish-{name}"))
    }

    fn site(target: &Path, text: &str) -> Result<(), FolderError> {
        let mut s = Staged::new(target)?;
        s.file("index.html", text.as_bytes()).unwrap();
        s.file("players/1.html", b"p").unwrap();
        s.commit(&format!("{text}\n"))
    }

    /// A new folder appears whole; a second publish replaces the first whole (no file of
    /// the old one left), and no hidden folder is left beside it.
    #[test]
    fn a_site_replaces_the_site_before_it_whole() {
        let tmp = dir("swap");
        let d = tmp.path();
        let t = d.join("site");
        site(&t, "one").unwrap();
        fs::write(t.join("players/old.html"), "stale").unwrap();
        let again = Staged::new(&t).unwrap();
        assert_eq!(again.previous_mark(), Some("one\n"));
        drop(again);
        site(&t, "two").unwrap();
        assert_eq!(fs::read_to_string(t.join("index.html")).unwrap(), "two");
        assert!(!t.join("players/old.html").exists());
        let left: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("site")]);
    }

    /// A file, a device, a folder of other files and a dangling link are refused by name,
    /// and nothing in them changes.
    #[test]
    fn a_target_that_is_not_a_site_folder_is_refused() {
        let tmp = dir("refuse");
        let d = tmp.path();
        let file = d.join("notes.txt");
        fs::write(&file, "keep").unwrap();
        let e = site(&file, "x").unwrap_err();
        assert!(e.to_string().contains("is a file, not a folder"), "{e}");
        assert_eq!(fs::read_to_string(&file).unwrap(), "keep");
        let e = site(Path::new("/dev/null"), "x").unwrap_err();
        assert!(e.to_string().contains("device"), "{e}");
        let home = d.join("home");
        fs::create_dir(&home).unwrap();
        fs::write(home.join("thesis.tex"), "keep").unwrap();
        let e = site(&home, "x").unwrap_err();
        assert!(e.to_string().contains("other files"), "{e}");
        assert_eq!(fs::read_to_string(home.join("thesis.tex")).unwrap(), "keep");
        let link = d.join("dangling");
        std::os::unix::fs::symlink(d.join("nowhere"), &link).unwrap();
        let e = site(&link, "x").unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        // A link to a site folder is followed: the folder it names is replaced.
        let real = d.join("real");
        site(&real, "one").unwrap();
        let to_real = d.join("to-real");
        std::os::unix::fs::symlink(&real, &to_real).unwrap();
        site(&to_real, "two").unwrap();
        assert!(to_real.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(fs::read_to_string(real.join("index.html")).unwrap(), "two");
    }
}
