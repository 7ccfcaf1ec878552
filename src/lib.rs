//! rungs: a ladder manager. The rating math lives in [`rating`].
pub mod rating;
