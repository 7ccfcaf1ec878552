//! The command-line tests, gathered into one binary: each file is a module.

mod analysis_cli;
mod bulk_journal;
mod calendar;
mod cli;
mod cli_bad_input;
mod crash_safety;
mod desktop;
mod draws;
mod fit_cli;
mod forecasts_and_edges;
mod formats_cli;
mod gate_cli;
mod goals_cli;
mod hostile_three;
mod memory_caps;
mod module_graph;
mod pair_cli;
mod publish;
mod publish_browser;
mod publish_formats;
mod rounds_cli;
mod standings_cli;
mod store_trust;
mod support;
