//! Running a command again when what stopped it passes in a moment: another program's
//! change landing between this one's reading the ladder and its own change, or, for a reader
//! that may not write the ladder, another program's write under its read.

use anyhow::Result;
use rungs_gate as action;
use std::time::{Duration, Instant};

/// How long a reader without write access reads again while another program writes the
/// ladder: as long as a writer waits for the ladder's lock (`BUSY_TIMEOUT`), five times over,
/// since each read needs a whole quiet moment where a writer needs only its turn.
pub(crate) const READER_WAITS: std::time::Duration =
    std::time::Duration::from_millis(5 * rungs_store::BUSY_TIMEOUT.as_millis() as u64);

/// Whether `e` is a read torn by another program's write, which this process could not hold
/// back (it may not write the ladder): a moment later it reads whole.
fn changed_while_read(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<rungs_store::StoreError>(),
            Some(rungs_store::StoreError::ChangedWhileRead { .. })
        ) || c.downcast_ref::<action::ActionError>().is_some_and(|a| {
            matches!(
                a,
                action::ActionError::Store(rungs_store::StoreError::ChangedWhileRead { .. })
            )
        })
    })
}

/// Whether `e` is the store's refusal of a change to a ladder changed meanwhile.
fn changed_meanwhile(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<rungs_store::StoreError>()
            .is_some_and(|s| s.is_changed_meanwhile())
            || c.downcast_ref::<action::ActionError>()
                .is_some_and(|a| a.is_changed_meanwhile())
    })
}

/// Runs `attempt`, and again while it fails for a reason a moment cures. A change is built
/// from the ladder as read; if another program changed the ladder before it landed, it was
/// refused whole, so it is read and built again (five tries in all). A reader that may not
/// write the ladder cannot take SQLite's locks, so it cannot make a writer wait as a reader
/// with write access does: it waits instead, reading again until it meets a moment when
/// nothing is being written, for `reader_waits` at most.
pub(crate) fn run<T>(mut attempt: impl FnMut() -> Result<T>, reader_waits: Duration) -> Result<T> {
    let started = Instant::now();
    let mut attempts = 1;
    loop {
        match attempt() {
            Err(e) if attempts < 5 && changed_meanwhile(&e) => {
                // A moment for the other program to finish what it is writing.
                std::thread::sleep(Duration::from_millis(20 * attempts));
                attempts += 1;
            }
            Err(e) if changed_while_read(&e) && started.elapsed() < reader_waits => {
                std::thread::sleep(Duration::from_millis(20 * attempts.min(5)));
                attempts += 1;
            }
            done => break done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_store::StoreError;

    fn torn() -> anyhow::Error {
        anyhow::Error::new(StoreError::ChangedWhileRead {
            path: "club.rungs".into(),
        })
        .context("reading the standings")
    }

    fn meanwhile() -> anyhow::Error {
        anyhow::Error::new(StoreError::ChangedMeanwhile {
            path: "club.rungs".into(),
            read: 4,
            now: 5,
        })
    }

    /// A reader without write access that meets the owner's writes eight times in a row
    /// reads on the ninth try, and says nothing of the eight: past the five tries any
    /// refusal gets, it waits for a quiet moment (it used to fail: "another program was
    /// writing the ladder while rungs read it").
    #[test]
    fn a_read_torn_by_another_programs_write_is_read_again() {
        let mut calls = 0;
        let done = run(
            || {
                calls += 1;
                if calls <= 8 { Err(torn()) } else { Ok(calls) }
            },
            READER_WAITS,
        );
        assert_eq!(done.unwrap(), 9);
    }

    /// While the writer never stops, the reader gives up once its time is out, with the
    /// torn read's own words; with no time to wait it tries five times, as any change does.
    #[test]
    fn a_reader_gives_up_when_its_time_is_out() {
        let mut calls = 0;
        let done: Result<()> = run(
            || {
                calls += 1;
                Err(torn())
            },
            Duration::from_millis(400),
        );
        let e = done.unwrap_err();
        assert!(
            format!("{e:#}").contains("another program was writing the ladder"),
            "{e:#}"
        );
        assert!(calls > 5, "{calls} tries");
        calls = 0;
        let once: Result<()> = run(
            || {
                calls += 1;
                Err(torn())
            },
            Duration::ZERO,
        );
        assert!(once.is_err());
        assert_eq!(calls, 5);
    }

    /// A change refused because the ladder changed meanwhile is built again, five tries in
    /// all; any other failure is said at once.
    #[test]
    fn a_change_is_built_again_five_times_and_other_failures_at_once() {
        let mut calls = 0;
        let done: Result<()> = run(
            || {
                calls += 1;
                Err(meanwhile())
            },
            READER_WAITS,
        );
        assert!(done.is_err());
        assert_eq!(calls, 5);
        calls = 0;
        let done: Result<()> = run(
            || {
                calls += 1;
                Err(anyhow::anyhow!("no player is called Zed"))
            },
            READER_WAITS,
        );
        assert_eq!(done.unwrap_err().to_string(), "no player is called Zed");
        assert_eq!(calls, 1);
    }
}
