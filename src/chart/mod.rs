//! Plot data for the history and ladder-wide charts, as plain numbers (no drawing).
