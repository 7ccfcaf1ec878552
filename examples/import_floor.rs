//! What reading an import's CSV costs at its floor, beside rungs' reader: the file's bytes,
//! the csv crate splitting them into records (no field looked at), and `MatchReader` (each
//! row checked: date, both sides, result), each timed on its own (CPU of this thread, best of
//! `runs`), and how large a row of the action an import makes is (each is a fresh page's
//! worth of memory the kernel zeroes). `cargo run --release --example import_floor --
//! FILE.csv [runs]`.

use rungs_interchange::csv_matches::{Mapping, MatchReader};
use std::io::Read;
use std::time::Instant;

fn best(runs: usize, mut work: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::INFINITY;
    let mut n = 0;
    for _ in 0..runs {
        let start = Instant::now();
        n = work();
        best = best.min(start.elapsed().as_secs_f64());
    }
    (best * 1e3, n)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: import_floor FILE.csv [runs]");
        std::process::exit(2);
    };
    let runs = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let open = || std::fs::File::open(path).expect("the CSV opens");
    let (ms, n) = best(runs, || {
        let mut bytes = Vec::new();
        open().read_to_end(&mut bytes).expect("the CSV reads");
        bytes.len()
    });
    println!("read the file's {n} bytes: {ms:.1} ms");
    let (ms, n) = best(runs, || {
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(64 * 1024)
            .from_reader(open());
        let mut record = csv::ByteRecord::new();
        let mut n = 0;
        while csv.read_byte_record(&mut record).expect("a record") {
            n += record.len();
        }
        n
    });
    println!("csv ByteRecord, every record split into its {n} fields: {ms:.1} ms");
    let (ms, n) = best(runs, || {
        let mut reader =
            MatchReader::new(open(), "floor.csv", &Mapping::standard()).expect("a header");
        let mut n = 0;
        while let Some(row) = reader.next_row() {
            n += usize::from(row.is_ok());
        }
        n
    });
    println!("MatchReader::next_row, {n} rows checked: {ms:.1} ms");
    let row = std::mem::size_of::<(chrono::NaiveDate, rungs_ladder::event::Entry)>();
    let event = std::mem::size_of::<rungs_ladder::event::Event>();
    println!(
        "a row of the action: {row} bytes (an event {event}); {n} rows: {:.0} MB",
        (row * n) as f64 / 1e6
    );
}
