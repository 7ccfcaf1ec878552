//! The command line: the same binary as the app, headless. `rungs` alone opens the app. Every
//! change goes through the gate ([`rungs_gate`]); a refused one exits 1 with its one-line
//! message and leaves the ladder as it was.

/// `println!` that never panics: the first failed write is kept ([`stdout::write_line`]) and
/// decides the exit — a closed pipe (`rungs standings | head`) quietly, anything else (a full
/// disk) as an error.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::stdout::write_line(format_args!($($arg)*))
    };
}

mod analysis;
pub mod args;
mod boxes;
mod challenges;
mod common;
mod desktop;
mod explain;
mod files;
mod fit;
mod maintenance;
mod matches;
mod output;
mod pair;
mod players;
mod publish;
mod retries;
mod rounds;
mod seasons;
mod shared;
mod shared_password;
pub mod stdout;
mod swiss;
mod tiers;
mod views;

pub use args::{Cli, Command};

use anyhow::Result;
use rungs_gate as action;

/// A TRF-16 file, by its extension.
fn is_trf(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("trf"))
}

/// Runs a parsed command line. `Ok(false)` means no subcommand was given.
pub fn run(cli: Cli) -> Result<bool> {
    let Some(mut command) = cli.command else {
        return Ok(false);
    };
    if let Some(done) = shared::special(&command) {
        return done.and(stdout::finished()).map(|()| true);
    }
    // A shared ladder's command runs on its replica, brought up to the server first and
    // sent to it after.
    let session = shared::open(&mut command)?;
    let done = retries::run(|| run_command(command.clone()), retries::READER_WAITS);
    let done = shared::finish(session, done);
    // What was done is said; output that could not be written is an error of its own.
    done.and(stdout::finished()).map(|()| true)
}

fn run_command(command: Command) -> Result<()> {
    use Command as C;
    match command {
        C::New { file, rules } => files::new(&file, &rules)?,
        C::Params { system } => files::params(&system)?,
        C::Import {
            file,
            csv,
            no_new_players,
            json,
            ..
        } if is_trf(&csv) => swiss::import_trf(&file, &csv, !no_new_players, json)?,
        C::Import {
            file,
            csv,
            mapping,
            no_new_players,
            again,
            json,
        } => files::import_csv(&file, &csv, &mapping, no_new_players, again, json)?,
        C::Export { file, out, event } if is_trf(&out) => {
            swiss::export_trf(&file, &out, event.as_deref())?
        }
        C::Export { file, out, .. } => files::export(&file, &out)?,
        C::ImportLog { file, input } => files::import_log(&file, &input)?,
        C::InstallDesktop { uninstall } => desktop::install(uninstall)?,
        C::Completions { shell } => desktop::completions(shell),
        C::Man => desktop::man()?,
        C::AddPlayer { file, names, date } => players::add(&file, &names, date.as_deref())?,
        C::Rename {
            file,
            old,
            new,
            date,
        } => players::rename(&file, &old, &new, date.as_deref())?,
        C::Retire { file, player, date } => players::retire(&file, &player, true, date.as_deref())?,
        C::Unretire { file, player, date } => {
            players::retire(&file, &player, false, date.as_deref())?
        }
        C::AddMatch {
            file,
            args,
            date,
            team_a,
            team_b,
            medals,
            scenario,
            side_a,
            home,
            goals,
            class,
            json,
        } => {
            // `A B --goals 3-1`: the score decides the result.
            let mut args = args;
            if goals.is_some() && (args.len() == 2 || args.is_empty() && team_a.is_some()) {
                args.push(String::new());
            }
            let mut input = matches::input(&args, team_a, team_b, date, medals, scenario, side_a)?;
            input.home = home;
            input.score = goals;
            input.class = class;
            matches::add(&file, &input, json)?
        }
        C::EditMatch {
            file,
            seq,
            a,
            b,
            score,
            date,
            medals,
            scenario,
            side_a,
            home,
            goals,
            class,
        } => {
            let edit = action::matches::MatchEdit {
                date,
                a,
                b,
                result: score,
                medals,
                scenario,
                side_a,
                home,
                score: goals,
                class,
            };
            matches::edit(&file, seq, &edit)?
        }
        C::DeleteEvent { file, seq } => matches::delete(&file, seq)?,
        C::Undo { file } => matches::undo(&file, true)?,
        C::Redo { file } => matches::undo(&file, false)?,
        C::Events { file, json } => views::events(&file, json)?,
        C::Standings {
            file,
            all,
            at,
            csv: true,
            ..
        } => publish::standings_csv(&file, all, at.as_deref())?,
        C::Standings {
            file,
            json,
            all,
            at,
            csv: false,
        } => views::standings(&file, json, all, at.as_deref())?,
        C::Publish {
            file,
            dir,
            at,
            since,
            title,
            hide_retired,
            initials,
        } => publish::publish(
            &file,
            &dir,
            at.as_deref(),
            since.as_deref(),
            &rungs_publish::Options {
                title: title.unwrap_or_default(),
                hide_retired,
                initials,
            },
        )?,
        C::History { file, player, json } => views::history(&file, &player, json)?,
        C::Explain {
            file,
            event,
            player,
            json,
        } => explain::explain(&file, &event, player.as_deref(), json)?,
        C::Seasons { file, json } => views::seasons(&file, json)?,
        C::Scenarios { file, json } => views::scenarios(&file, json)?,
        C::Replay {
            file,
            rules,
            compare,
            json,
        } => analysis::replay(&file, &rules, compare, json)?,
        C::Predict {
            file,
            a,
            b,
            date,
            home,
            json,
        } => analysis::predict(&file, &a, &b, date.as_deref(), home.as_deref(), json)?,
        C::Evaluate {
            file,
            systems,
            params,
            from,
            calendar,
            json,
        } => analysis::evaluate(&file, &systems, &params, from.as_deref(), &calendar, json)?,
        C::Fit {
            file,
            systems,
            params,
            until,
            apply,
            json,
            objective,
        } => fit::fit(
            &file,
            &fit::FitArgs {
                systems: &systems,
                params: params.as_deref(),
                until: until.as_deref(),
                apply,
                json,
                objective: objective.as_deref(),
            },
        )?,
        C::Simulate(args) => analysis::simulate(&args)?,
        C::Pair {
            file,
            present,
            present_file,
            all_active,
            format,
            rounds,
            forbid,
            date,
            seed,
            json,
            save,
        } => pair::pair(
            &file,
            &pair::PairArgs {
                present: present.as_deref(),
                present_file: present_file.as_deref(),
                all_active,
                format: format.as_deref(),
                rounds: rounds.as_deref(),
                forbid: &forbid,
                date: date.as_deref(),
                seed: seed.as_deref(),
                json,
                save: &save,
            },
        )?,
        C::Round { file, number, json } => rounds::round(&file, &number, json)?,
        C::Result {
            file,
            round,
            board,
            score,
            date,
            json,
        } => rounds::result(&file, &round, &board, &score, date.as_deref(), json)?,
        C::Forbid(args) => rounds::pair_rule(&args, rungs_ladder::event::PairRule::Forbid, false)?,
        C::Unforbid(args) => rounds::pair_rule(&args, rungs_ladder::event::PairRule::Forbid, true)?,
        C::Avoid(args) => rounds::pair_rule(&args, rungs_ladder::event::PairRule::Avoid, false)?,
        C::Unavoid(args) => rounds::pair_rule(&args, rungs_ladder::event::PairRule::Avoid, true)?,
        C::Rules { file, rules, date } => seasons::rules(&file, &rules, date.as_deref())?,
        C::SoftReset {
            file,
            date,
            preview,
            json,
        } => seasons::reset(&file, false, date.as_deref(), preview, json)?,
        C::HardReset {
            file,
            date,
            preview,
            json,
        } => seasons::reset(&file, true, date.as_deref(), preview, json)?,
        C::Migrate {
            file,
            list,
            from_elo,
            cutoffs,
            date,
            preview,
            json,
        } => seasons::migrate(
            &file,
            list.as_deref(),
            from_elo,
            cutoffs.as_deref(),
            date.as_deref(),
            preview,
            json,
        )?,
        C::Scenario {
            file,
            name,
            sides,
            ratio,
            averages,
            date,
        } => seasons::scenario(&file, &name, &sides, &ratio, &averages, date.as_deref())?,
        C::Check { file, json } => maintenance::check(&file, json)?,
        C::Repair { file } => maintenance::repair(&file)?,
        // Handled by `shared::special` before any ladder is opened.
        C::Copy { .. } | C::Status { .. } => {}
        C::Crosstable {
            file,
            event,
            tiebreaks,
            json,
        } => swiss::show(&file, event.as_deref(), tiebreaks.as_deref(), json)?,
        C::ChallengeLadder(args) => challenges::challenge_ladder(&args)?,
        C::Challenge {
            file,
            challenger,
            defender,
            date,
        } => challenges::challenge(&file, &challenger, &defender, date.as_deref())?,
        C::Challenges {
            file,
            date,
            player,
            json,
        } => challenges::challenges(&file, date.as_deref(), player.as_deref(), json)?,
        C::ChallengeResult {
            file,
            number,
            score,
            goals,
            date,
            json,
        } => challenges::challenge_result(
            &file,
            &number,
            score.as_deref(),
            goals.as_deref(),
            date.as_deref(),
            json,
        )?,
        C::ChallengePlace {
            file,
            player,
            position,
            date,
        } => challenges::challenge_place(&file, &player, position.as_deref(), date.as_deref())?,
        C::StartBoxes(args) => boxes::start_boxes(&args)?,
        C::Boxes { file, json } => boxes::boxes(&file, json)?,
        C::BoxResult {
            file,
            a,
            b,
            score,
            goals,
            date,
            json,
        } => boxes::box_result(
            &file,
            &a,
            &b,
            score.as_deref(),
            goals.as_deref(),
            date.as_deref(),
            json,
        )?,
        C::ClosePeriod {
            file,
            start,
            end,
            date,
            preview,
            json,
        } => boxes::close_period(
            &file,
            start.as_deref(),
            end.as_deref(),
            date.as_deref(),
            preview,
            json,
        )?,
        C::BoxWithdraw {
            file,
            player,
            back,
            date,
        } => boxes::box_withdraw(&file, &player, back, date.as_deref())?,
        C::BoxJoin {
            file,
            player,
            number,
            date,
        } => boxes::box_join(&file, &player, number.as_deref(), date.as_deref())?,
        C::Tiers {
            file,
            target,
            apply,
            json,
        } => tiers::tiers(&file, &target, apply, json)?,
    }
    Ok(())
}
