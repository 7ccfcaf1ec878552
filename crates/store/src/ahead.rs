//! A replay that starts while the log is still being read: the common log (no correction, no
//! undated join, entered in date order) is already in replay order block by block, so a
//! second thread replays each block as soon as it is decoded. Any other log is found out as
//! it is read; its replay waits for the whole log and its sorting, as before.

use super::events::{Batch, Events};
use super::histories::Histories;
use super::log::InForce;
use super::replay::{Halt, Steps};
use super::{Result, Store, StoreError};
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::Rules;
use rungs_ladder::state::HistoryRow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Blocks decoded ahead of the replay (a block is some 4,096 events, 128 kB here).
const AHEAD: usize = 8;

/// A check's reading and replay (see [`Store::events_replayed`]).
pub(super) type Replayed = (Events, Result<(Histories, Result<Ladder>)>);

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
            let replay = scope.spawn(|| {
                let steps = Steps::new(Ladder::new(rules.clone()), skip_rules, false);
                replay_batches(steps, rx, &stop, cancel.as_deref(), &mut |_| {})
            });
            let (read, in_order) = self.read_sending(&force, tx, &stop);
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
                Err(e) => return Err(e),
            };
            self.run_keeping(rules, &events, skip_rules, false, false, &mut |_| {})
        })
    }

    /// The events `force` counts, read while each block's are sent to `tx` as long as they
    /// are in replay order, and whether they were. Once they turn out not to be in order, or
    /// the log does not read, the replay taking them is told to `stop`.
    fn read_sending(
        &self,
        force: &InForce,
        tx: SyncSender<Batch>,
        stop: &AtomicBool,
    ) -> (Result<Events>, bool) {
        let mut tx = Some(tx);
        let mut sent = 0;
        let mut in_order = true;
        let read = self.events_watched(&self.conn, force, None, &mut |builder| {
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
        if read.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        (read, in_order)
    }

    /// What a check replays: the log's events that count, read while a second thread
    /// replays them as [`Store::run`] does with its guard (every history row packed into
    /// histories with `room`, on a third thread when `large`; the season archive kept), so
    /// that the reading and the replay overlap as in [`Store::replay_state`]. A log that
    /// needs sorting or correcting is replayed after it is read, as before. An error is the
    /// log's (it does not read); the inner one is the rules' (they do not read); the
    /// innermost is the replay's.
    pub(super) fn events_replayed(&self, room: &[usize], large: bool) -> Result<Replayed> {
        let kinds = self.action_kinds(&self.conn)?;
        let force = self.in_force(&kinds);
        let after = |events: Events| -> Result<Replayed> {
            let replay = self.initial_rules().map(|rules| {
                Histories::with_room(room)
                    .packed_beside(large, |add| self.run(&rules, &events, false, true, add))
            });
            Ok((events, replay))
        };
        let start = self
            .initial_rules()
            .and_then(|rules| self.empty_ladder(&self.conn, &rules));
        let Ok(start) = start else {
            // (The same errors again, found where a replay after the reading finds them.)
            return after(self.events_with(&self.conn, &force, None)?);
        };
        let cancel = self.cancel.clone();
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let (tx, rx) = sync_channel::<Batch>(AHEAD);
            let (stop, cancel) = (&stop, cancel.as_deref());
            let replay = scope.spawn(move || {
                let steps = Steps::new(start, false, true);
                Histories::with_room(room)
                    .packed_beside(large, |add| replay_batches(steps, rx, stop, cancel, add))
            });
            let (read, in_order) = self.read_sending(&force, tx, stop);
            let events = read?;
            if !in_order {
                // Stopped at its next batch: its histories are of no use.
                drop(replay.join());
                return after(events);
            }
            let (histories, ended) = replay
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let ladder = match ended {
                Ended::Done(ladder) => Ok(*ladder),
                Ended::Failed(e) => Err(self.replay_error(e)),
                // (Nothing told it to stop: only a cancel ends it early here.)
                Ended::Cancelled | Ended::Stopped => Err(StoreError::Cancelled),
            };
            Ok((events, Ok((histories, ladder))))
        })
    }
}

/// Replays the batches as they come through `steps`, as `run_keeping` replays a whole log,
/// handing each event's history rows to `rows`.
fn replay_batches(
    mut steps: Steps,
    batches: Receiver<Batch>,
    stop: &AtomicBool,
    cancel: Option<&AtomicBool>,
    rows: &mut dyn FnMut(&[HistoryRow]),
) -> Ended {
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    for batch in batches {
        if stop.load(Ordering::Relaxed) {
            return Ended::Stopped;
        }
        let applied =
            batch.for_each(|date, seq, event| steps.apply(date, seq, event, cancelled, &mut *rows));
        match applied {
            Ok(()) => {}
            Err(Halt::Replay(e)) => return Ended::Failed(e),
            Err(Halt::Cancelled) => return Ended::Cancelled,
        }
    }
    Ended::Done(Box::new(steps.ladder))
}
