//! Reading and writing files other programs make or read: match CSV, JSON Lines logs, and
//! FIDE's Tournament Report File (TRF-16) for Swiss events.
pub mod csv_export;
pub mod csv_matches;
pub mod elo_list;
pub mod jsonl;
pub mod out_file;
pub mod trf;
