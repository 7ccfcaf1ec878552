//! Enter match: keyboard first, and safe. Date, Player A, Player B; Tab completes a name and
//! moves on (A → B → the result), never onto a button by accident; 1, D and 2 pick the
//! result whenever the keyboard is not in a text field (F then makes the pick a win by
//! forfeit); Enter saves only a complete form and never presses a focused button; after a
//! save the keyboard is back in Player A. Before saving: each side's chances (and the draw's,
//! where the system models draws) and the exact change each result would make — or why there
//! is no forecast. Below, the latest matches; "edit…" corrects date, players, result, medals
//! and sides, or deletes (with Undo offered, no dialog).

mod edit;
mod fields;
mod forecast;
mod form;
mod screen;

pub use forecast::Forecast;
pub use form::{EditForm, MatchForm, check, said};
pub use screen::{EnterMatchScreen, show};
