//! A replay that starts while the log is still being read: the common log (no correction, no
//! undated join, entered in date order) is already in replay order block by block, so a
//! second thread replays each block as soon as it is decoded. Any other log is found out as
//! it is read; its replay waits for the whole log and its sorting, as before.

use super::events::Batch;
use super::replay::{Halt, Steps};
use super::{Result, Store, StoreError};
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::Rules;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

/// Blocks decoded ahead of the replay (a block is some 4,096 events, 128 kB here).
const AHEAD: usize = 8;

/// How the replaying thread ended.
enum Ended {
    Done(Box<Ladder>),
    Failed(ReplayError),
    Cancelled,
    /// Told to stop: the log turned out to need sorting or correcting, or was damaged.
    Stopped,
}

impl Store {
    /// The final standings of the log under `rules`, without history or season archive (with
    /// `skip_rules`, the log's rules changes passed over): what [`Store::replay_state`] and
    /// [`Store::replay_fixed`] return, the same ladder to the bit, the replay beside the
    /// reading on two cores.
    pub(super) fn replay_reading(&self, rules: &Rules, skip_rules: bool) -> Result<Ladder> {
        let kinds = self.action_kinds(&self.conn)?;
        let force = self.in_force(&kinds);
        let cancel = self.cancel.clone();
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let (tx, rx) = sync_channel::<Batch>(AHEAD);
            let replay =
                scope.spawn(|| replay_batches(rules, skip_rules, rx, &stop, cancel.as_deref()));
            let mut tx = Some(tx);
            let mut sent = 0;
            let mut in_order = true;
            let read = self.events_watched(&self.conn, &force, None, &mut |builder| {
                in_order = in_order && builder.in_order();
                if !in_order {
                    // The batches already sent are of no use: the thread stops at the next.
                    stop.store(true, Ordering::Relaxed);
                    tx = None;
                } else if let Some(sender) = &tx {
                    // A thread that stopped on an error takes nothing more; the rest of the
                    // log is still read (a later correction may take the error away).
                    if sender.send(builder.batch(sent)).is_err() {
                        tx = None;
                    }
                    sent = builder.len();
                }
                Ok(())
            });
            drop(tx);
            let events = match read {
                Ok(events) if !in_order => events,
                Ok(_) => {
                    return match replay.join() {
                        Ok(Ended::Done(ladder)) => Ok(*ladder),
                        Ok(Ended::Failed(e)) => Err(self.replay_error(e)),
                        // (Nothing told it to stop: only a cancel ends it early here.)
                        Ok(Ended::Cancelled | Ended::Stopped) => Err(StoreError::Cancelled),
                        Err(panic) => std::panic::resume_unwind(panic),
                    };
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            stop.store(true, Ordering::Relaxed);
            self.run_keeping(rules, &events, skip_rules, false, false, &mut |_| {})
        })
    }
}

/// Replays the batches as they come, from an empty ladder, as `run_keeping` replays a whole
/// log when it shows standings: no history rows kept, each season's archive dropped.
fn replay_batches(
    rules: &Rules,
    skip_rules: bool,
    batches: Receiver<Batch>,
    stop: &AtomicBool,
    cancel: Option<&AtomicBool>,
) -> Ended {
    let mut steps = Steps::new(Ladder::new(rules.clone()), skip_rules, false);
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    for batch in batches {
        if stop.load(Ordering::Relaxed) {
            return Ended::Stopped;
        }
        let applied =
            batch.for_each(|date, seq, event| steps.apply(date, seq, event, cancelled, |_| {}));
        match applied {
            Ok(()) => {}
            Err(Halt::Replay(e)) => return Ended::Failed(e),
            Err(Halt::Cancelled) => return Ended::Cancelled,
        }
    }
    Ended::Done(Box::new(steps.ladder))
}
