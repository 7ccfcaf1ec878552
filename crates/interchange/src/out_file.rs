//! Where an export is written. It goes under a hidden temporary name beside its target and
//! is renamed into place only once complete and synced: an export that fails part way (a full
//! disk, a cancelled job) leaves the old file as it was, or nothing. And an export never
//! replaces a ladder: not the one being exported (the ladder would be gone), not any other
//! SQLite file, and not the files SQLite keeps beside one (its `-wal` holds changes not yet
//! in the file itself) — an export is a copy of data, never a way to lose some. It writes
//! only a regular file or a new name: a device, a pipe or a socket is refused by name (a
//! rename would replace the node itself, `/dev/null` or `/dev/full` with a file; reading a
//! pipe to see whether it held a database waited forever). A symbolic link is followed to the
//! file it names, which is written in its place.

use rungs_store::newfile::{SIDECARS, sweep_unlocked};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first 16 bytes of every SQLite database, ladders included.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// An export being written; [`OutFile::commit`] puts it in place, dropping it removes it.
pub struct OutFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<BufWriter<File>>,
}

fn refuse(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::AlreadyExists, message)
}

/// Whether `path` is an existing SQLite database (a ladder, or any other).
fn is_database(path: &Path) -> bool {
    let mut head = [0u8; 16];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == SQLITE_MAGIC)
}

/// The database `path` is a side file of, if it is one (`club.rungs-wal` of `club.rungs`).
fn sidecar_of(path: &Path) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let name = path.file_name()?.as_bytes();
    SIDECARS.iter().find_map(|s| {
        let base = name.strip_suffix(s.as_bytes())?;
        let base = path.with_file_name(std::ffi::OsStr::from_bytes(base));
        is_database(&base).then_some(base)
    })
}

const TEMP_SUFFIX: &str = ".rungs-export";

/// What an existing `target` is, as a reason to refuse it; `None` for a regular file or a name
/// not yet taken. Asked of the name itself, without opening it (opening a pipe waits).
fn not_a_file(target: &Path) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = match std::fs::metadata(target) {
        Ok(m) => m.file_type(),
        // A dangling link: a name for nothing the rename would replace with a file.
        Err(_) if target.symlink_metadata().is_ok() => {
            return Some("is a symbolic link to a file that is not there");
        }
        Err(_) => return None,
    };
    if kind.is_file() {
        None
    } else if kind.is_dir() {
        Some("is a folder")
    } else if kind.is_char_device() || kind.is_block_device() {
        Some("is a device, not a file; an export writes a file")
    } else if kind.is_fifo() {
        Some("is a pipe, not a file; an export writes a file")
    } else if kind.is_socket() {
        Some("is a socket, not a file; an export writes a file")
    } else {
        Some("is not a regular file; an export writes a file")
    }
}

/// What an existing `target` is, as a reason to refuse it as a folder to write a site into;
/// `None` for a folder or a name not yet taken. Asked of the name itself, without opening
/// it, as `not_a_file` asks; a symbolic link is followed to what it names.
pub fn not_a_folder(target: &Path) -> Option<&'static str> {
    match not_a_file(target) {
        None if target.exists() => Some("is a file, not a folder; publishing writes a folder"),
        Some("is a folder") | None => None,
        Some("is a symbolic link to a file that is not there") => {
            Some("is a symbolic link to a folder that is not there")
        }
        Some(_) => {
            Some("is a device, a pipe or a socket, not a folder; publishing writes a folder")
        }
    }
}

impl OutFile {
    /// Starts an export of the ladder at `ladder` to `target`, refusing a target that is that
    /// ladder or any other database, or anything but a regular file.
    pub fn create(target: &Path, ladder: &Path) -> io::Result<OutFile> {
        if let Some(why) = not_a_file(target) {
            return Err(refuse(why.into()));
        }
        // A link is written through: the file it names is the one replaced.
        let resolved;
        let target = match target.symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => {
                resolved = target.canonicalize()?;
                resolved.as_path()
            }
            _ => target,
        };
        let same = match (target.canonicalize(), ladder.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if same {
            return Err(refuse(
                "is the ladder being exported; an export goes to a file of its own".into(),
            ));
        }
        if is_database(target) {
            return Err(refuse(
                "is a ladder (a SQLite database); an export does not replace one — \
                 choose another name"
                    .into(),
            ));
        }
        if let Some(base) = sidecar_of(target) {
            return Err(refuse(format!(
                "is where SQLite keeps changes of {} not yet in the file itself; an export \
                 there would lose them — choose another name",
                base.display()
            )));
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| refuse("is not a file name".into()))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(
            ".{}-{}{TEMP_SUFFIX}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = target.with_file_name(temp_name);
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Some(name) = name.to_str() {
            sweep_unlocked(dir, name, TEMP_SUFFIX, |p| {
                let _ = std::fs::remove_file(p);
            });
        }
        let file = File::options().write(true).create_new(true).open(&temp)?;
        // Held until the export is in place or dropped: a sweep leaves a live export alone.
        if let Err(std::fs::TryLockError::Error(e)) = file.try_lock() {
            drop(file);
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
        Ok(OutFile {
            target: target.to_path_buf(),
            temp,
            writer: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes and syncs the export and renames it into place.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(writer) = self.writer.take() else {
            return Err(io::Error::other("the export was closed already"));
        };
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&self.temp, &self.target)?;
        drop(file);
        // The rename itself lasts only once the folder is synced.
        if let Some(dir) = self.target.parent().filter(|p| !p.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Write for OutFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().map_or(Ok(0), |w| w.write(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().map_or(Ok(()), |w| w.flush())
    }
}

impl Drop for OutFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> rungs_testkit::TempDir {
        rungs_testkit::TempDir::new(&format!("out-file-{name}"))
    }

    fn files(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn an_export_appears_only_when_committed_and_replaces_an_old_export() {
        let tmp = dir("commit");
        let d = tmp.path();
        let (ladder, out) = (d.join("club.rungs"), d.join("log.jsonl"));
        std::fs::write(&ladder, b"SQLite format 3\0 and the rest").unwrap();
        std::fs::write(&out, "the old export").unwrap();
        let mut f = OutFile::create(&out, &ladder).unwrap();
        f.write_all(b"the new export").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old export");
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the new export");
        assert_eq!(files(d), ["club.rungs", "log.jsonl"]);
        // Dropped before commit (a failed or cancelled export): the old file stays, no litter.
        let mut f = OutFile::create(&out, &ladder).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the new export");
        assert_eq!(files(d), ["club.rungs", "log.jsonl"]);
    }

    #[test]
    fn an_export_never_replaces_the_ladder_or_another_database() {
        let tmp = dir("refuse");
        let d = tmp.path();
        let ladder = d.join("club.rungs");
        let other = d.join("other.csv");
        std::fs::write(&ladder, b"SQLite format 3\0 the ladder").unwrap();
        std::fs::write(&other, b"SQLite format 3\0 another ladder").unwrap();
        let same = OutFile::create(&ladder, &ladder).err().unwrap();
        assert!(
            same.to_string().starts_with("is the ladder being exported"),
            "{same}"
        );
        // The same file by another spelling.
        let dotted = d.join(".").join("club.rungs");
        assert!(OutFile::create(&dotted, &ladder).is_err());
        let db = OutFile::create(&other, &ladder).err().unwrap();
        assert!(
            db.to_string()
                .starts_with("is a ladder (a SQLite database)"),
            "{db}"
        );
        assert!(OutFile::create(d, &ladder).is_err(), "a folder");
        assert_eq!(
            std::fs::read(&ladder).unwrap(),
            b"SQLite format 3\0 the ladder",
            "nothing changed"
        );
        assert_eq!(files(d), ["club.rungs", "other.csv"]);
    }

    /// Audit finding: `rungs export club.rungs club.rungs-wal` replaced the write-ahead log of
    /// the open ladder; 22 saved matches were lost and `check` called the file sound. Every
    /// side file SQLite keeps beside a database is refused; the same names beside a file that
    /// is no database are ordinary names.
    #[test]
    fn an_export_never_replaces_a_databases_side_files() {
        let tmp = dir("sidecars");
        let d = tmp.path();
        let ladder = d.join("club.rungs");
        std::fs::write(&ladder, b"SQLite format 3\0 and the rest").unwrap();
        std::fs::write(d.join("notes"), "plain text").unwrap();
        for s in ["-wal", "-shm", "-journal"] {
            let target = d.join(format!("club.rungs{s}"));
            std::fs::write(&target, "SQLite's own").unwrap();
            let e = OutFile::create(&target, &ladder).err().expect("refused");
            assert!(
                e.to_string()
                    .contains("club.rungs not yet in the file itself"),
                "{e}"
            );
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "SQLite's own");
            let mut f = OutFile::create(&d.join(format!("notes{s}")), &ladder).unwrap();
            f.write_all(b"x").unwrap();
            f.commit().unwrap();
        }
    }

    /// Audit finding: exports killed part way left `.out.jsonl.PID-N.rungs-export` files (185
    /// MB after five) that nothing removed. The next export to that name sweeps those nobody
    /// holds; one being written (its lock held) stays.
    #[test]
    fn an_export_sweeps_what_killed_exports_left() {
        let tmp = dir("sweep");
        let d = tmp.path();
        let (ladder, out) = (d.join("club.rungs"), d.join("out.jsonl"));
        std::fs::write(&ladder, b"SQLite format 3\0").unwrap();
        std::fs::write(d.join(".out.jsonl.4242-0.rungs-export"), "half an export").unwrap();
        std::fs::write(d.join(".other.jsonl.4242-0.rungs-export"), "another's").unwrap();
        let live = OutFile::create(&d.join("out.jsonl"), &ladder).unwrap();
        let mut f = OutFile::create(&out, &ladder).unwrap();
        f.write_all(b"done").unwrap();
        f.commit().unwrap();
        let left = files(d);
        assert!(
            !left.contains(&".out.jsonl.4242-0.rungs-export".to_string()),
            "{left:?}"
        );
        assert!(left.contains(&".other.jsonl.4242-0.rungs-export".to_string()));
        assert!(
            left.contains(
                &live
                    .temp
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            )
        );
        drop(live);
        assert_eq!(
            files(d),
            [
                ".other.jsonl.4242-0.rungs-export",
                "club.rungs",
                "out.jsonl"
            ]
        );
    }
}
