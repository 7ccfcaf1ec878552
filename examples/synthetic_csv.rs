//! Writes the benchmarks' synthetic ladder (see `benches/support/synthetic.rs`) as a match CSV,
//! for timing whole commands: `cargo run --release --example synthetic_csv -- 1000000 10000
//! synthetic-1m.csv` (matches, players, file).

#[path = "../benches/support/synthetic.rs"]
mod synthetic;

use rungs_ladder::event::{Entry, Event};
use std::io::Write;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize, default: u32| {
        args.get(i)
            .and_then(|a| a.parse::<u32>().ok())
            .unwrap_or(default)
    };
    let (matches, players) = (number(1, 1_000_000), number(2, 10_000));
    let out = args.get(3).map_or("synthetic.csv", String::as_str);
    let names: Vec<String> = (0..players).map(|id| format!("Player {id:05}")).collect();
    let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
    writeln!(w, "date,player_a,player_b,score")?;
    for (date, entry) in synthetic::entries(players, matches, 42) {
        if let Entry::Add {
            event: Event::Match(m),
        } = entry
        {
            let (a, b) = (m.a[0] as usize, m.b[0] as usize);
            writeln!(w, "{date},{},{},{}", names[a], names[b], m.result.as_text())?;
        }
    }
    w.flush()
}
