use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = rungs::cli::Cli::parse();
    match rungs::cli::run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            // No subcommand: this is where the desktop app opens once it lands.
            println!(
                "rungs {}: the desktop app is not built yet; `rungs --help` lists the commands.",
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            eprintln!("rungs: {message}");
            ExitCode::FAILURE
        }
    }
}
