//! The command line's arguments: what clap parses, and nothing else (every other CLI module
//! reads these; this one imports no other part of rungs).

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use rungs_ladder::rules::System;
use std::path::PathBuf;

/// What `--system` takes, as help and completions offer it: the ladder's one list of systems
/// ([`System::ALL`]), so that the choices are written nowhere else. The text is passed on as
/// typed: the gate reads it (`parse_system`), and says in its own words what is wrong with a
/// name it does not know.
#[derive(Debug, Clone, Copy)]
pub struct SystemName;

impl TypedValueParser for SystemName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            System::ALL
                .into_iter()
                .map(|s| PossibleValue::new(s.name()).help(s.label())),
        ))
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "rungs",
    version,
    about = "A ladder manager: rating systems, rank tiers, seasons, in one SQLite file."
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A ladder file to open in the app (what a file manager runs on a double-click), or a
    /// shared ladder's postgres:// URL.
    #[arg(value_name = "FILE.rungs")]
    pub file: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Rules chosen on the command line.
#[derive(Debug, Args, Clone, Default)]
pub struct RulesArgs {
    /// Rating system.
    #[arg(long, value_name = "SYSTEM", value_parser = SystemName)]
    pub system: Option<String>,
    /// A parameter of the system, NAME=VALUE (repeatable); `rungs params SYSTEM` lists them.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    #[command(flatten)]
    pub calendar: CalendarArgs,
}

/// The season calendar chosen on the command line.
#[derive(Debug, Args, Clone, Default)]
pub struct CalendarArgs {
    /// The season calendar: `manual` (resets by the buttons only; the default) or `weekly`
    /// (a soft reset every Monday, a hard reset at the first one of each month, as Skyweaver's
    /// ranking white paper runs its weeks and seasons).
    #[arg(long, value_name = "manual|weekly")]
    pub calendar: Option<String>,
    /// Scheduled soft resets every DAYS days, 1 to 366 (turns the calendar on).
    #[arg(long, value_name = "DAYS", allow_hyphen_values = true)]
    pub soft_every: Option<String>,
    /// Scheduled hard resets: `month` (the first soft reset of each month) or every M soft
    /// resets, 1 to 52 (turns the calendar on).
    #[arg(long, value_name = "month|M", allow_hyphen_values = true)]
    pub hard_every: Option<String>,
    /// A day a scheduled soft reset falls on, YYYY-MM-DD; the others are every DAYS days
    /// before and after it (default 2001-01-01, a Monday).
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    pub anchor: Option<String>,
}

/// How a CSV file's columns map onto matches.
#[derive(Debug, Args, Clone, Default)]
pub struct MappingArgs {
    /// A known layout: `standard` (date,player_a,player_b,score) or `international`
    /// (date,home_team,away_team,home_score,away_score).
    #[arg(long)]
    pub preset: Option<String>,
    #[arg(long, value_name = "COLUMN")]
    pub date_col: Option<String>,
    #[arg(long, value_name = "COLUMN")]
    pub a_col: Option<String>,
    #[arg(long, value_name = "COLUMN")]
    pub b_col: Option<String>,
    /// A score column from A's view: 1/0.5/0, A/B/draw.
    #[arg(long, value_name = "COLUMN")]
    pub score_col: Option<String>,
    /// Two number columns (goals, points): the higher wins, equal is a draw.
    #[arg(long, value_name = "COLUMN", requires = "goals_b_col")]
    pub goals_a_col: Option<String>,
    #[arg(long, value_name = "COLUMN", requires = "goals_a_col")]
    pub goals_b_col: Option<String>,
    /// chrono date format, default %Y-%m-%d.
    #[arg(long, value_name = "FORMAT")]
    pub date_format: Option<String>,
    /// A column saying which side is at home or moves first: a, b or neutral (default
    /// `home`; the side advantage).
    #[arg(long, value_name = "COLUMN", conflicts_with = "neutral_col")]
    pub home_col: Option<String>,
    /// A column saying whether the ground is neutral: TRUE, or FALSE for side A at home
    /// (the international preset's `neutral`).
    #[arg(long, value_name = "COLUMN")]
    pub neutral_col: Option<String>,
    /// A column with the event's class: friendly, league, cup, championship, a weight, or
    /// a tournament's name (Friendly, … qualification, FIFA World Cup; see the README).
    #[arg(long, value_name = "COLUMN")]
    pub class_col: Option<String>,
}

/// What `rungs simulate` plays. Numbers are read here, not by clap, so that a bad one gets the
/// same one-line message and exit code as every other bad input.
#[derive(Debug, Args, Clone)]
pub struct SimArgs {
    /// The new ladder file to write (it must not exist).
    pub out: PathBuf,
    /// Players, 2 to 100000.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub players: String,
    /// Weeks, 1 to 520; each ends with a soft reset, every fourth also with a hard reset.
    /// Players × weeks is at most 5,200,000 (each reset records every player).
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    pub weeks: String,
    /// Matches per week across the whole ladder (at most 2,000,000 over all weeks).
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub matches_per_week: String,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The random seed (default 1): the same seed gives the same ladder.
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<String>,
    /// The spread of true skill on the 1500 Elo scale (default 200).
    #[arg(long, value_name = "SD", allow_hyphen_values = true)]
    pub skill_sd: Option<String>,
    /// The noise on the rating players are matched by (default 100).
    #[arg(long, value_name = "SD", allow_hyphen_values = true)]
    pub pairing_noise: Option<String>,
    /// How players are paired: nearest (default: a random player against the nearest
    /// rating plus noise), random, balanced or swiss (each day's players as rounds of the
    /// engine `rungs pair` uses).
    #[arg(long, allow_hyphen_values = true)]
    pub pairing: Option<String>,
    /// The first day, YYYY-MM-DD (default 2026-01-05).
    #[arg(long, allow_hyphen_values = true)]
    pub start: Option<String>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Create a new ladder file.
    New {
        file: PathBuf,
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// List a system's parameters with their defaults.
    Params {
        #[arg(value_parser = SystemName)]
        system: String,
    },
    /// Add players.
    AddPlayer {
        file: PathBuf,
        #[arg(required = true)]
        names: Vec<String>,
        /// Joining date (default today).
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Rename a player.
    Rename {
        file: PathBuf,
        old: String,
        new: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Retire a player: the standings leave them off, their history stays; a match they play
    /// (or `unretire`) brings them back. Players are never deleted.
    Retire {
        file: PathBuf,
        player: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Bring a retired player back onto the standings.
    Unretire {
        file: PathBuf,
        player: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Import matches from a CSV file (new players join on their first match), or a Swiss
    /// event from a TRF-16 file (EVENT.trf: its players by name, new ones joining; its rounds
    /// and results, one undoable step).
    Import {
        file: PathBuf,
        csv: PathBuf,
        #[command(flatten)]
        mapping: MappingArgs,
        /// Refuse names the ladder does not know instead of adding them.
        #[arg(long)]
        no_new_players: bool,
        /// Import a file whose every match the ladder holds already (refused otherwise: it
        /// was most likely imported before).
        #[arg(long)]
        again: bool,
        #[arg(long)]
        json: bool,
    },
    /// Enter a match: `A B SCORE`, or `SCORE` with --team-a and --team-b. SCORE is from A's
    /// view: 1, 0.5, 0, A, B, draw, forfeit-a, forfeit-b, cancelled.
    AddMatch {
        file: PathBuf,
        #[arg(required = true, num_args = 1..=3, value_name = "A B SCORE")]
        args: Vec<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Team A, comma-separated names.
        #[arg(long, requires = "team_b")]
        team_a: Option<String>,
        #[arg(long, requires = "team_a")]
        team_b: Option<String>,
        /// Medal scores, `A,B` (Memoir '44).
        #[arg(long, allow_hyphen_values = true)]
        medals: Option<String>,
        #[arg(long)]
        scenario: Option<String>,
        /// The scenario side A played.
        #[arg(long)]
        side_a: Option<String>,
        /// Which side is at home or moves first, for the side advantage: a, b or neutral
        /// (default: no flag, no advantage).
        #[arg(long, value_name = "a|b|neutral")]
        home: Option<String>,
        /// Each side's points, `3-1` (goals, games, frames): the score decides the result,
        /// so `A B --goals 3-1` needs no SCORE.
        #[arg(long, value_name = "A-B", allow_hyphen_values = true)]
        goals: Option<String>,
        /// The event's class: friendly, league, cup, championship, or a weight (0 to 10].
        #[arg(long, value_name = "CLASS", allow_hyphen_values = true)]
        class: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Change a match (by its sequence number, see `rungs events`): any of its date, sides,
    /// score, medals, scenario and side; an empty value removes medals, scenario or side.
    EditMatch {
        file: PathBuf,
        seq: u64,
        /// Side A: a name, or a team `Name,Name`.
        #[arg(long)]
        a: Option<String>,
        #[arg(long)]
        b: Option<String>,
        #[arg(long)]
        score: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Medal scores, `A,B`.
        #[arg(long, allow_hyphen_values = true)]
        medals: Option<String>,
        #[arg(long)]
        scenario: Option<String>,
        #[arg(long)]
        side_a: Option<String>,
        /// a, b or neutral; empty removes the flag.
        #[arg(long, value_name = "a|b|neutral")]
        home: Option<String>,
        /// Each side's points, `3-1` (sets the result it decides); empty removes the score.
        #[arg(long, value_name = "A-B", allow_hyphen_values = true)]
        goals: Option<String>,
        /// friendly, league, cup, championship or a weight; empty removes the class.
        #[arg(long, value_name = "CLASS", allow_hyphen_values = true)]
        class: Option<String>,
    },
    /// Delete an event (by its sequence number); recorded, and undoable.
    DeleteEvent { file: PathBuf, seq: u64 },
    /// Undo the latest change.
    Undo { file: PathBuf },
    /// Redo the latest undone change.
    Redo { file: PathBuf },
    /// The log's events in replay order, with their sequence numbers.
    Events {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The standings.
    Standings {
        file: PathBuf,
        #[arg(long)]
        json: bool,
        /// Also list provisional and idle players, whom the leaderboard leaves off.
        #[arg(long)]
        all: bool,
        /// As they stood at the end of a date (YYYY-MM-DD), or after an event (its sequence number).
        #[arg(long, value_name = "DATE|EVENT", allow_hyphen_values = true)]
        at: Option<String>,
        /// As CSV for a spreadsheet: place, player, tier, score, rating, deviation, W-D-L,
        /// last played, status (no cell a live formula).
        #[arg(long, conflicts_with = "json")]
        csv: bool,
    },
    /// Publish the standings as a static site in DIR: index.html (standings by tier, with
    /// movement since the last publish into DIR, or a week before), a page per player (history plot, record, head to head),
    /// the season archive, a share image; no script, nothing from the network; prints as an
    /// A4 wall chart. DIR is a new folder, or one rungs published before (replaced whole).
    Publish {
        file: PathBuf,
        dir: PathBuf,
        /// As the ladder stood at the end of a date (YYYY-MM-DD), or after an event (its
        /// sequence number): any past week published again exactly.
        #[arg(long, value_name = "DATE|EVENT", allow_hyphen_values = true)]
        at: Option<String>,
        /// Measure movement from the ladder at the end of this date, or after this event
        /// (default: the last publish of this ladder into DIR, else a week before).
        #[arg(long, value_name = "DATE|EVENT", allow_hyphen_values = true)]
        since: Option<String>,
        /// The site's heading (default: Standings).
        #[arg(long, value_name = "TITLE", allow_hyphen_values = true)]
        title: Option<String>,
        /// Leave retired players off the site (no line, no page).
        #[arg(long)]
        hide_retired: bool,
        /// Names as a first name and initials ("Ann Lee" as "Ann L.").
        #[arg(long)]
        initials: bool,
    },
    /// A player's history: their figures after every event that touched them.
    History {
        file: PathBuf,
        player: String,
        #[arg(long)]
        json: bool,
    },
    /// Replays the log: with no rules options it reproduces the ladder (its own rules, and
    /// every rules change in the log); with --system or --param those rules hold from the
    /// start. The file is not changed.
    Replay {
        file: PathBuf,
        #[command(flatten)]
        rules: RulesArgs,
        /// Show the ladder's own standings (A) beside these rules' (B): ranks, the rank
        /// change, scores, ratings and tiers, in B's order.
        #[arg(long)]
        compare: bool,
        #[arg(long)]
        json: bool,
    },
    /// Each side's chances and the exact change each result would make to every player of
    /// the match; nothing is written. A side of several players is `Name,Name`.
    Predict {
        file: PathBuf,
        a: String,
        b: String,
        /// The match's date (default today, or the latest event's date if that is later).
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Which side is at home or moves first: a, b or neutral (the side advantage).
        #[arg(long)]
        home: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// How well rating systems predict this ladder's matches, each predicted before it counts:
    /// log-loss, Brier score and accuracy, best first. Without --system: every system at its
    /// defaults, and the ladder's own rules if they differ. The file is not changed.
    Evaluate {
        file: PathBuf,
        /// A system to evaluate (repeatable).
        #[arg(long = "system", value_name = "SYSTEM", value_parser = SystemName)]
        systems: Vec<String>,
        /// A parameter, NAME=VALUE (repeatable), set on every named system that has it.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Score only the matches from this date on (all of the log still replays).
        #[arg(long, value_name = "DATE")]
        from: Option<String>,
        /// A season calendar for every named system (by default they run without one).
        #[command(flatten)]
        calendar: CalendarArgs,
        #[arg(long)]
        json: bool,
    },
    /// Fit a system's parameters to this ladder's history: the values that predict the
    /// matches before --until best (log-loss), scored on the matches from it on, beside the
    /// defaults and Elo K=32. The file is not changed unless --apply records the fitted
    /// rules as a rules change from today (previewed first, undoable).
    Fit {
        file: PathBuf,
        /// A system to fit (repeatable; default: the ladder's own).
        #[arg(long = "system", value_name = "SYSTEM", value_parser = SystemName)]
        systems: Vec<String>,
        /// The parameters to fit, comma-separated (default: the fit chooses them: each
        /// parameter's effect alone on the matches before --until, then a joint search over
        /// those that matter).
        #[arg(long, value_name = "NAME,...")]
        params: Option<String>,
        /// Fit on the matches before this date (default: the first 70 % of them).
        #[arg(long, value_name = "DATE")]
        until: Option<String>,
        /// Record the fitted rules as a rules change from today, after a preview.
        #[arg(long)]
        apply: bool,
        #[arg(long)]
        json: bool,
        /// What the fit lowers: `expected` (the expected score's log-loss, the default) or
        /// `three-outcome` (−ln P(win, draw or loss)).
        #[arg(long, value_name = "expected|three-outcome")]
        objective: Option<String>,
    },
    /// Tonight's boards for the players present, from the ladder's own forecast: balanced (the
    /// closest games, no recent rematch, sides balanced), swiss (the next round of an event
    /// by FIDE's Dutch System) or round-robin (Berger tables). Nothing is saved.
    Pair {
        file: PathBuf,
        /// The players present, joined by commas: "Ann,Bo Chen,Cy".
        #[arg(long, value_name = "NAMES", conflicts_with_all = ["present_file", "all_active"])]
        present: Option<String>,
        /// A file listing the players present, one name a line (# starts a comment).
        #[arg(long, value_name = "FILE", conflicts_with = "all_active")]
        present_file: Option<PathBuf>,
        /// Everyone on the leaderboard (not provisional, idle or retired).
        #[arg(long)]
        all_active: bool,
        /// balanced (default), swiss or round-robin.
        #[arg(long)]
        format: Option<String>,
        /// Round robin: how many rounds (default: all of a single round robin). Swiss, a
        /// new event: the rounds it will have (its last round pairs topscorers as FIDE's
        /// rules say).
        #[arg(long, allow_hyphen_values = true)]
        rounds: Option<String>,
        /// Two players who must not meet, `Ann,Bo` (repeat for more pairs).
        #[arg(long, value_name = "A,B")]
        forbid: Vec<String>,
        /// The night's date, YYYY-MM-DD (default today): idle time is counted to it.
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Breaks ties between equally good pairings (default 0).
        #[arg(long, allow_hyphen_values = true)]
        seed: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        save: PairSaveArgs,
    },
    /// A saved round: its boards, the chances and what each result does, the results entered.
    Round {
        file: PathBuf,
        /// The round's number (rungs events lists the rounds).
        #[arg(allow_hyphen_values = true)]
        number: String,
        #[arg(long)]
        json: bool,
    },
    /// The result of a board of a saved round, from the board's side A view (1, D, 2 or
    /// 0.5, forfeit-a, forfeit-b…), dated the round's date unless --date.
    Result {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        round: String,
        #[arg(allow_hyphen_values = true)]
        board: String,
        #[arg(allow_hyphen_values = true)]
        score: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Two players never paired by `rungs pair` (siblings, team mates); undoable.
    Forbid(PairRuleArgs),
    /// Lifts a forbidden pair.
    Unforbid(PairRuleArgs),
    /// Two players paired only when the night is much better for it.
    Avoid(PairRuleArgs),
    /// Lifts an avoided pair.
    Unavoid(PairRuleArgs),
    /// Simulate players with known true skills into a new ladder file, and report how many
    /// matches it takes to climb, RP inflation per week, and how well the ladder orders skill.
    Simulate(SimArgs),
    /// Change the ladder's system or parameters from a date on.
    Rules {
        file: PathBuf,
        #[command(flatten)]
        rules: RulesArgs,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// The weekly reset: end-of-week RP archived, Grandweavers capped at 1400 and Masters at
    /// 1300, every RD grown by one rating period.
    SoftReset {
        file: PathBuf,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Show what it would do to every player; change nothing.
        #[arg(long)]
        preview: bool,
        #[arg(long)]
        json: bool,
    },
    /// The season reset: the season archived, RP to each player's hard-reset value, MMR
    /// rescaled, RD back to 350, floors cleared.
    HardReset {
        file: PathBuf,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        #[arg(long)]
        preview: bool,
        #[arg(long)]
        json: bool,
    },
    /// Bring in an Elo list (CSV with player, elo and optionally rank), or, with --from-elo,
    /// move this ladder from elo to skyweaver: r = Elo, RD = 350, RP by old rank (Table 2).
    Migrate {
        file: PathBuf,
        /// The Elo list; players not on the ladder join.
        list: Option<PathBuf>,
        /// Take the ratings from this ladder's own elo system and switch it to skyweaver.
        #[arg(long, conflicts_with = "list")]
        from_elo: bool,
        /// Old ranks from Elo where the list gives none: `Grandmaster=2200,Master=2000,
        /// Prophet=1800,Scholar=1600,Apprentice=1400` (these are the defaults).
        #[arg(long)]
        cutoffs: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        #[arg(long)]
        preview: bool,
        #[arg(long)]
        json: bool,
    },
    /// Set a Memoir '44 scenario's figures, replacing what the ladder's history says of it.
    Scenario {
        file: PathBuf,
        name: String,
        /// The two sides, `Allies,Axis`.
        #[arg(long)]
        sides: String,
        /// The fraction of battles the first side wins, e.g. 0.66.
        #[arg(long, allow_hyphen_values = true)]
        ratio: String,
        /// Average medals of each side, `3.4,2.6`.
        #[arg(long, allow_hyphen_values = true)]
        averages: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Memoir '44 scenarios: battles, wins and average medals per side, and overrides.
    Scenarios {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// The season archive: per season and player, ranking, peak tier, matches, weekly RP.
    Seasons {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Write the full log as JSON Lines (OUT.jsonl), the matches as CSV (OUT.csv), or a
    /// Swiss event as TRF-16 (OUT.trf, with --event); `-` writes the log to standard output.
    /// OUT is a regular file or a new name: a device or a pipe is refused.
    Export {
        file: PathBuf,
        out: PathBuf,
        /// OUT.trf: the Swiss event (the number of its first round; default the latest).
        #[arg(long, allow_hyphen_values = true)]
        event: Option<String>,
    },
    /// Install rungs for the current user: an application entry with its icon, and `.rungs`
    /// files opening in rungs from a file manager (under the XDG data directory, usually
    /// ~/.local/share), plus bash completions and the man page. --uninstall removes them.
    InstallDesktop {
        #[arg(long)]
        uninstall: bool,
    },
    /// Print shell completions: bash, zsh, fish, elvish or powershell.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of rungs and its commands.
    Man,
    /// Load a JSON Lines log into a new ladder file.
    ImportLog { file: PathBuf, input: PathBuf },
    /// Check a ladder file, changing nothing: SQLite's integrity check, the log well formed,
    /// the caches made from this log and equal to a fresh replay of it. Exits 1 naming what
    /// differs.
    Check {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Rebuild every cache of a ladder file from its log, in one transaction; the log itself
    /// is not touched.
    Repair { file: PathBuf },
    /// Copy a ladder whole (its rules, log and undo history) from a file to a shared
    /// ladder's postgres:// URL, or from a URL to a new file.
    Copy { from: PathBuf, to: PathBuf },
    /// A shared ladder's state: the server's last action, the replica's, the changes
    /// waiting for the server.
    Status {
        url: String,
        #[arg(long)]
        json: bool,
    },
    /// A Swiss event's crosstable: each player's opponent (by place), colour and result
    /// per round, points and FIDE's tie-breaks (default buchholz-cut1, buchholz,
    /// direct-encounter, wins).
    Crosstable {
        file: PathBuf,
        /// The event: the number of its first round (default the latest Swiss event).
        #[arg(long, allow_hyphen_values = true)]
        event: Option<String>,
        /// Tie-breaks in order, joined by commas: buchholz, buchholz-cut1,
        /// buchholz-median1, sonneborn-berger, direct-encounter, wins, games-won,
        /// black-games, progressive, aro, tpr (or C.07's abbreviations, BH-C1…).
        #[arg(long, value_name = "LIST")]
        tiebreaks: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Why an event moved a player's figures: the derivation in the rating system's own terms
    /// (the idle time and due resets first, then each figure of the update, Rank Points and
    /// tier), for PLAYER or every player the event changed.
    Explain {
        file: PathBuf,
        /// The event's sequence number, as `rungs events` shows it.
        #[arg(allow_hyphen_values = true)]
        event: String,
        #[arg(allow_hyphen_values = true)]
        player: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Start a challenge ladder beside the rating (positions 1..N; newcomers at the bottom),
    /// or change its rules; `--order` sets the positions (default at the start: by rating).
    ChallengeLadder(ChallengeLadderArgs),
    /// CHALLENGER challenges DEFENDER, a few places above, to play within the respond days.
    Challenge {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        challenger: String,
        #[arg(allow_hyphen_values = true)]
        defender: String,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// The challenge ladder's positions and open challenges with their days left.
    Challenges {
        file: PathBuf,
        /// The day to show (default today): the deadlines and idle drops due by then.
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// One player's places over time.
        #[arg(long, allow_hyphen_values = true)]
        player: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// The result of challenge N from the challenger's view (1, 0.5, 0, forfeit-a, forfeit-b),
    /// or its games with --goals: a match that rates as any other and moves the positions.
    ChallengeResult {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        number: String,
        #[arg(allow_hyphen_values = true)]
        score: Option<String>,
        #[arg(long, value_name = "A-B", allow_hyphen_values = true)]
        goals: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Put a player at a place of the challenge ladder (default: where their rating places
    /// them).
    ChallengePlace {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        player: String,
        #[arg(long, allow_hyphen_values = true)]
        position: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Start box leagues: the first period's boxes filled from --order (default: by rating).
    StartBoxes(StartBoxesArgs),
    /// The boxes of the period under way: each box's table with every tie-break, and who
    /// still has to play whom.
    Boxes {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// A box match between A and B (SCORE from A's view, or --goals 3-1).
    BoxResult {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        a: String,
        #[arg(allow_hyphen_values = true)]
        b: String,
        #[arg(allow_hyphen_values = true)]
        score: Option<String>,
        #[arg(long, value_name = "A-B", allow_hyphen_values = true)]
        goals: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// End the box period: the top of each box up, the bottom down, the next period's boxes.
    ClosePeriod {
        file: PathBuf,
        /// The next period's first day (default: the day after this one ends).
        #[arg(long, allow_hyphen_values = true)]
        start: Option<String>,
        /// Its last day (default: as long as this one).
        #[arg(long, allow_hyphen_values = true)]
        end: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
        /// Show the next period's boxes; change nothing.
        #[arg(long)]
        preview: bool,
        #[arg(long)]
        json: bool,
    },
    /// A player withdraws from the box period under way (--back: returns to it).
    BoxWithdraw {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        player: String,
        #[arg(long)]
        back: bool,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// A newcomer joins the bottom box of the period under way (or --box N).
    BoxJoin {
        file: PathBuf,
        #[arg(allow_hyphen_values = true)]
        player: String,
        #[arg(long = "box", allow_hyphen_values = true)]
        number: Option<String>,
        #[arg(long, allow_hyphen_values = true)]
        date: Option<String>,
    },
    /// Skyweaver: the tier minimums that put each tier's share of the players at season end
    /// on a target (`--target "wanderer=5,trainee-i=10,…,master=3"`, percent summing to 100;
    /// Master's counts the Grandweavers), the shares and flow matrix before and after;
    /// `--apply` records them as a rules change from the log's first day (undoable).
    Tiers {
        file: PathBuf,
        #[arg(long, allow_hyphen_values = true)]
        target: String,
        #[arg(long)]
        apply: bool,
        #[arg(long)]
        json: bool,
    },
}

/// `rungs pair`'s options for saving the round in the log.
#[derive(Debug, Clone, Args)]
pub struct PairSaveArgs {
    /// Save the round (every round of a round robin) in the log: undoable, and results are
    /// then entered by board (rungs result).
    #[arg(long)]
    pub save: bool,
    /// Swiss: continue the event begun by round N, or `new`; by default the latest Swiss
    /// event continues when its latest round was on the same date.
    #[arg(long, allow_hyphen_values = true)]
    pub event: Option<String>,
    /// What a bye scores in the event: `win` (a win by forfeit of nobody: 1 point, the
    /// default for Swiss) or `nothing`. A bye never changes a rating.
    #[arg(long, allow_hyphen_values = true)]
    pub bye: Option<String>,
    /// Swiss: players not paired this round who asked for a half-point bye, "Ann,Bo".
    #[arg(long, value_name = "NAMES")]
    pub half_bye: Option<String>,
    /// Swiss: players not paired this round who asked for a zero-point bye.
    #[arg(long, value_name = "NAMES")]
    pub zero_bye: Option<String>,
    /// Swiss: players who withdraw from the event before this round.
    #[arg(long, value_name = "NAMES")]
    pub withdraw: Option<String>,
}

/// Two players named for a pairing rule.
#[derive(Debug, Clone, Args)]
pub struct PairRuleArgs {
    pub file: PathBuf,
    #[arg(allow_hyphen_values = true)]
    pub a: String,
    #[arg(allow_hyphen_values = true)]
    pub b: String,
    #[arg(long, allow_hyphen_values = true)]
    pub date: Option<String>,
}

/// `rungs challenge-ladder`'s rules; each left out keeps the ladder's (or the default).
#[derive(Debug, Clone, Args)]
pub struct ChallengeLadderArgs {
    pub file: PathBuf,
    /// The positions, first place first: names joined by commas.
    #[arg(long, allow_hyphen_values = true)]
    pub order: Option<String>,
    /// How many places up a player may challenge (default 3).
    #[arg(long, allow_hyphen_values = true)]
    pub reach: Option<String>,
    /// A defender accepts one challenge per this many days (default 7).
    #[arg(long, allow_hyphen_values = true)]
    pub defend_days: Option<String>,
    /// The same pair not again within this many days (default 14).
    #[arg(long, allow_hyphen_values = true)]
    pub rematch_days: Option<String>,
    /// Days to play a challenge in (default 7).
    #[arg(long, allow_hyphen_values = true)]
    pub respond_days: Option<String>,
    /// A challenge unplayed by its deadline: `lapse` (default) or `forfeit` (the challenger
    /// wins).
    #[arg(long, value_name = "lapse|forfeit")]
    pub unplayed: Option<String>,
    /// A winning challenger: `leapfrog` (default) or `swap`.
    #[arg(long, value_name = "leapfrog|swap")]
    pub movement: Option<String>,
    /// Newcomers: `bottom` (default), `free-challenge` (one challenge to anyone) or
    /// `by-rating` (placed with rungs challenge-place).
    #[arg(long, value_name = "bottom|free-challenge|by-rating")]
    pub newcomers: Option<String>,
    /// Days without a match before a player drops (`off`: never; the default).
    #[arg(long, allow_hyphen_values = true)]
    pub idle_days: Option<String>,
    /// Places an idle player drops (default 1).
    #[arg(long, allow_hyphen_values = true)]
    pub idle_drop: Option<String>,
    #[arg(long, allow_hyphen_values = true)]
    pub date: Option<String>,
}

/// `rungs start-boxes`'s period and rules.
#[derive(Debug, Clone, Args)]
pub struct StartBoxesArgs {
    pub file: PathBuf,
    /// The first period's first day (with --seasons: a day of its season, default today).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "seasons")]
    pub start: Option<String>,
    /// Its last day.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "seasons")]
    pub end: Option<String>,
    /// Each period is a season of the ladder's calendar; close-period moves to the next.
    #[arg(long)]
    pub seasons: bool,
    /// The order the boxes fill in, top first: names joined by commas (default: by rating).
    #[arg(long, allow_hyphen_values = true)]
    pub order: Option<String>,
    /// Players a box (default 5; the last box may hold one more or one fewer).
    #[arg(long, allow_hyphen_values = true)]
    pub box_size: Option<String>,
    /// How many of each box go up at the period's end (default 2).
    #[arg(long, allow_hyphen_values = true)]
    pub up: Option<String>,
    /// How many go down (default 2).
    #[arg(long, allow_hyphen_values = true)]
    pub down: Option<String>,
    /// Fewer matches than this: not promoted, and out of the next period (default none).
    #[arg(long, allow_hyphen_values = true)]
    pub min_matches: Option<String>,
    /// `game-score` (3-0 7–1, 3-1 6–2, 3-2 5–3 unless --table; the default), `parts` (1 for
    /// playing, 1 a game, 1 for the win unless --parts) or `win-draw-loss` (3/1/0 unless
    /// --wdl).
    #[arg(long, value_name = "game-score|parts|win-draw-loss")]
    pub points: Option<String>,
    /// A game-score table: `3-0:7-1,3-1:6-2,3-2:5-3`.
    #[arg(long, allow_hyphen_values = true)]
    pub table: Option<String>,
    /// Parts: points for playing, a game, the win: `1,1,1`.
    #[arg(long, allow_hyphen_values = true)]
    pub parts: Option<String>,
    /// Win, draw, loss: `3,1,0`.
    #[arg(long, allow_hyphen_values = true)]
    pub wdl: Option<String>,
    /// A walkover's points, winner-loser (default 6-0).
    #[arg(long, allow_hyphen_values = true)]
    pub walkover: Option<String>,
    /// The tables' order, comma-separated: points, head-to-head, matches-won, games-lost,
    /// game-difference, rating (default the first four and rating).
    #[arg(long, allow_hyphen_values = true)]
    pub tie_breaks: Option<String>,
    /// Show the boxes; change nothing.
    #[arg(long)]
    pub preview: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every system the parser takes is offered wherever a system is chosen: in the help of
    /// each `--system` (and `params`' SYSTEM), in the completions, and in the README's and
    /// the command-line guide's example.
    #[test]
    fn every_system_is_offered_wherever_one_is_chosen() {
        let mut cli = Cli::command();
        for (command, arg) in [
            ("new", "system"),
            ("rules", "system"),
            ("evaluate", "systems"),
            ("fit", "systems"),
            ("params", "system"),
        ] {
            let sub = cli
                .find_subcommand_mut(command)
                .unwrap_or_else(|| panic!("no `{command}`"));
            let offered: Vec<String> = sub
                .get_arguments()
                .find(|a| a.get_id() == arg)
                .unwrap_or_else(|| panic!("`{command}` has no `{arg}`"))
                .get_possible_values()
                .iter()
                .map(|v| v.get_name().to_string())
                .collect();
            let all: Vec<String> = System::ALL.iter().map(|s| s.name().to_string()).collect();
            assert_eq!(offered, all, "{command}");
            let help = sub.render_long_help().to_string();
            for system in System::ALL {
                assert!(help.contains(system.name()), "{command}: {help}");
            }
        }
        let mut script = Vec::new();
        clap_complete::generate(clap_complete::Shell::Bash, &mut cli, "rungs", &mut script);
        let script = String::from_utf8_lossy(&script);
        for system in System::ALL {
            assert!(
                script.contains(system.name()),
                "bash completions lack {system}"
            );
        }
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        for doc in ["README.md", "docs/cli/files.md"] {
            let text = std::fs::read_to_string(format!("{root}/{doc}")).unwrap_or_default();
            let example = text
                .lines()
                .find(|l| l.starts_with("rungs new club.rungs --system"))
                .unwrap_or_else(|| panic!("{doc} has no `rungs new … --system` example"));
            for system in System::ALL {
                assert!(example.contains(system.name()), "{doc}: {example}");
            }
        }
    }

    /// A name that is no system is passed on as typed, for the gate to refuse in its own
    /// words (the one parser of a system's name).
    #[test]
    fn an_unknown_system_reaches_the_gate() {
        let cli = Cli::try_parse_from(["rungs", "new", "club.rungs", "--system", "chess"]);
        match cli.map(|c| c.command) {
            Ok(Some(Command::New { rules, .. })) => {
                assert_eq!(rules.system.as_deref(), Some("chess"));
            }
            other => panic!("{other:?}"),
        }
    }
}
