//! The app's (egui_kittest) tests, gathered into one binary: each file is a module.

mod app;
mod app_evening;
mod app_everyday;
mod app_followups;
mod app_formats;
mod app_publish;
mod app_round_three;
mod app_shared;
mod app_tonight;
mod app_tonight_swiss;
mod app_tools;
mod app_walk;
mod explain_panel;
mod import_words;
mod paste;
mod support;
mod tier_cut;
mod tune;
mod walk_charts;
