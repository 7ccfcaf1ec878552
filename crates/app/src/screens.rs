//! Every screen's own state side by side ([`Screens`]), which screen draws with which, and
//! what each does when something the app did has landed ([`FollowUp`]). The app state knows
//! none of this: it queues follow-ups, and the window hands them here.

use super::boxes::{self, BoxesScreen};
use super::challenge_ladder::{self, ChallengesScreen};
use super::command::{Command, Screen};
use super::enter_match::{self, EnterMatchScreen};
use super::explain::{self, ExplainPanel};
use super::history::{self, HistoryScreen};
use super::jobs::FollowUp;
use super::matches::{self, MatchesScreen};
use super::migration::{self, MigrationScreen};
use super::new_ladder::NewLadderForm;
use super::players::{self, PlayersScreen};
use super::replay::{self, ReplayScreen};
use super::settings::{self, SettingsScreen};
use super::simulate::{self, SimForm};
use super::standings::StandingsScreen;
use super::standings_table;
use super::state::AppState;
use super::tier_cut::TierCutPanel;
use super::tonight::{self, TonightScreen};
use super::tune::{self, Tune};
use super::what_if::{self, WhatIfScreen};
use super::{quality, seasons};
use eframe::egui;

/// Each screen's own state (forms as typed, views, caches). Prediction quality keeps none;
/// Seasons keeps its tier cut's shares.
pub struct Screens {
    pub standings: StandingsScreen,
    pub enter: EnterMatchScreen,
    pub matches: MatchesScreen,
    pub players: PlayersScreen,
    pub settings: SettingsScreen,
    pub migration: MigrationScreen,
    pub history: HistoryScreen,
    pub replay: ReplayScreen,
    pub what_if: WhatIfScreen,
    pub tune: Tune,
    pub simulate: SimForm,
    pub tonight: TonightScreen,
    pub challenges: ChallengesScreen,
    pub boxes: BoxesScreen,
    /// Seasons → Cut tiers to a target…: the shares as typed.
    pub tier_cut: TierCutPanel,
    /// The File → New form, while it is open.
    pub new_ladder: Option<NewLadderForm>,
    /// File → Publish…'s options, from when they are asked for until a folder is chosen.
    pub publish: Option<rungs_publish::Options>,
    /// The screen drawn last frame: arriving on a screen is when it takes the keyboard.
    shown: Option<Screen>,
    /// Why an event moved a player's figures, over whichever screen asked.
    pub explain: ExplainPanel,
}

impl Screens {
    /// Every screen as it first shows; new files are offered in `data_dir`.
    pub fn new(data_dir: &std::path::Path) -> Screens {
        Screens {
            standings: StandingsScreen::default(),
            enter: EnterMatchScreen::default(),
            matches: MatchesScreen::default(),
            players: PlayersScreen::default(),
            settings: SettingsScreen::default(),
            migration: MigrationScreen::default(),
            history: HistoryScreen::new(),
            replay: ReplayScreen::default(),
            what_if: WhatIfScreen::default(),
            tune: Tune::default(),
            simulate: SimForm::new(data_dir),
            tonight: TonightScreen::default(),
            challenges: ChallengesScreen::default(),
            boxes: BoxesScreen::default(),
            tier_cut: TierCutPanel::default(),
            new_ladder: None,
            publish: None,
            shown: None,
            explain: ExplainPanel::default(),
        }
    }

    /// Does what `f` asks of the screens; `state` is the app as it now stands.
    pub fn follow_up(&mut self, f: FollowUp, state: &AppState) {
        match f {
            FollowUp::MatchSaved => self.enter.saved(),
            FollowUp::EditDone => self.enter.edit = None,
            FollowUp::PlayerAdded => self.players.added(),
            FollowUp::RulesApplied => self.settings.reset(),
            FollowUp::LadderOpened => {
                // The organiser's forms were about the other ladder; the designer's tools
                // (axis, speed, rules B, the simulation's form) carry over.
                self.standings = StandingsScreen::default();
                self.enter = EnterMatchScreen::default();
                self.players = PlayersScreen::default();
                self.settings = SettingsScreen::default();
                self.migration = MigrationScreen::default();
                self.tune = Tune::default();
                self.tonight = TonightScreen::default();
                self.challenges = ChallengesScreen::default();
                self.boxes = BoxesScreen::default();
                self.new_ladder = None;
                self.publish = None;
                self.explain = ExplainPanel::default();
            }
            FollowUp::AskNewLadder(folder) => self.new_ladder = Some(NewLadderForm::new(folder)),
            FollowUp::AskPublish(title) => {
                self.publish = Some(rungs_publish::Options {
                    title,
                    ..Default::default()
                })
            }
            FollowUp::ShowPlayer(id) => self.players.show(id, &state.ladder),
            FollowUp::Simulated(path) => self.simulate.written(&path),
            FollowUp::Explained(x) => self.explain.open(*x),
            FollowUp::ChangedElsewhere => {
                // The explanation was of the ladder as it stood: it closes.
                self.explain = ExplainPanel::default();
                // An edit window on a match another program deleted or changed would save
                // over what is no longer so: it closes (the message says what arrived).
                if let Some(edit) = &self.enter.edit
                    && state.event(edit.original.seq).as_ref() != Some(&edit.original)
                {
                    self.enter.edit = None;
                }
            }
        }
    }

    /// Draws the screen showing: each gets its own state to change and the rest of the app
    /// to read, and says what it wants done in `out`.
    pub fn show(&mut self, ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
        if self.shown.replace(state.screen) != Some(state.screen) {
            match state.screen {
                Screen::EnterMatch => self.enter.arrived(),
                // The list, not a player's page: the keyboard goes to New player.
                Screen::Players if self.players.player.is_none() => self.players.arrived(),
                _ => {}
            }
        }
        match state.screen {
            Screen::Standings => standings_table::show(ui, &mut self.standings, state, out),
            Screen::EnterMatch => enter_match::show(ui, &mut self.enter, state, out),
            Screen::Matches => {
                self.enter.show_edit(ui, state, out);
                matches::show(ui, &mut self.matches, &mut self.enter, state, out)
            }
            Screen::Players => players::show(ui, &mut self.players, state, out),
            Screen::Seasons => seasons::show(ui, &mut self.tier_cut, state, out),
            Screen::Migration => migration::show(ui, &mut self.migration, state, out),
            Screen::Settings => settings::show(ui, &mut self.settings, state, out),
            Screen::History => history::show(ui, &mut self.history, state, out),
            Screen::Replay => replay::show(ui, &mut self.replay, state, out),
            Screen::WhatIf => what_if::show(ui, &mut self.what_if, state, out),
            Screen::Quality => quality::show(ui, state, out),
            Screen::Tune => {
                // "Apply as rules change…" previews here, where it was asked for.
                if let Some(p) = &state.pending {
                    super::preview::preview(ui, p, &state.now().rules, out);
                }
                let file = state.store.as_ref().map(|s| s.path());
                tune::show(ui, &mut self.tune, file, &state.ladder, out)
            }
            Screen::Simulate => simulate::show(ui, &mut self.simulate, state, out),
            Screen::Tonight => tonight::show(ui, &mut self.tonight, state, out),
            Screen::Challenges => challenge_ladder::show(ui, &mut self.challenges, state, out),
            Screen::Boxes => boxes::show(ui, &mut self.boxes, state, out),
        }
        explain::show(ui.ctx(), &mut self.explain);
    }
}
