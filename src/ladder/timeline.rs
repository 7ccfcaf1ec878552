//! The replay timeline: the ladder as it stood after any event, from checkpoints.
