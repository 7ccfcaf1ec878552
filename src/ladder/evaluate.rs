//! Prediction quality: every match predicted before the ladder updates on it, scored by
//! log-loss, Brier score and accuracy.
