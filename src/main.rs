fn main() {
    println!(
        "rungs {}: the rating core is built; the ladder file, command line and app are on their way.",
        env!("CARGO_PKG_VERSION")
    );
}
