use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = rungs_cli::Cli::parse();
    let result = match cli.command {
        None => rungs_app::run(cli.file)
            .map(|()| true)
            .map_err(anyhow::Error::msg),
        Some(_) => rungs_cli::run(cli),
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
