use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = rungs::cli::Cli::parse();
    let result = match cli.command {
        None => rungs::app::run(cli.file)
            .map(|()| true)
            .map_err(anyhow::Error::msg),
        Some(_) => rungs::cli::run(cli),
    };
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            // Never a panic, not even with stderr closed.
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr().lock(), "rungs: {message}");
            ExitCode::FAILURE
        }
    }
}
