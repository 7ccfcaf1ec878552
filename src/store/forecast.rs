//! A pairing forecast: each side's chances and the exact change every player would get
//! for each result, computed by previews through the store (nothing is written).
