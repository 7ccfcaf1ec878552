//! Where an export is written. It goes under a hidden temporary name beside its target and
//! is renamed into place only once complete and synced: an export that fails part way (a full
//! disk, a cancelled job) leaves the old file as it was, or nothing. And an export never
//! replaces a ladder: not the one being exported (the ladder would be gone), and not any
//! other SQLite file — an export is a copy of data, never a way to lose some.

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

impl OutFile {
    /// Starts an export of the ladder at `ladder` to `target`, refusing a target that is that
    /// ladder or any other database.
    pub fn create(target: &Path, ladder: &Path) -> io::Result<OutFile> {
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
        if target.is_dir() {
            return Err(refuse("is a folder".into()));
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| refuse("is not a file name".into()))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(
            ".{}-{}.rungs-export",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let temp = target.with_file_name(temp_name);
        let file = File::options().write(true).create_new(true).open(&temp)?;
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
        drop(file);
        std::fs::rename(&self.temp, &self.target)
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

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("rungs-out-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
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
        let d = dir("commit");
        let (ladder, out) = (d.join("club.rungs"), d.join("log.jsonl"));
        std::fs::write(&ladder, b"SQLite format 3\0 and the rest").unwrap();
        std::fs::write(&out, "the old export").unwrap();
        let mut f = OutFile::create(&out, &ladder).unwrap();
        f.write_all(b"the new export").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the old export");
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the new export");
        assert_eq!(files(&d), ["club.rungs", "log.jsonl"]);
        // Dropped before commit (a failed or cancelled export): the old file stays, no litter.
        let mut f = OutFile::create(&out, &ladder).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "the new export");
        assert_eq!(files(&d), ["club.rungs", "log.jsonl"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn an_export_never_replaces_the_ladder_or_another_database() {
        let d = dir("refuse");
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
        assert!(OutFile::create(&d, &ladder).is_err(), "a folder");
        assert_eq!(
            std::fs::read(&ladder).unwrap(),
            b"SQLite format 3\0 the ladder",
            "nothing changed"
        );
        assert_eq!(files(&d), ["club.rungs", "other.csv"]);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
