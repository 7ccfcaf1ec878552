//! Per-system facts, declared once: names, the one sentence that explains each system, what its
//! score is called, its uncertainty band, whether it has tiers and Rank Points, and every
//! parameter with its range, integer-ness and meaning. The CLI (`rungs params`, `--param`),
//! the app's Settings and New dialogs, replay, evaluate and log import all read these.
//!
//! Ranges are chosen so that every point of the box gives finite ratings for every result
//! (a property test walks the box), and where two parameters must keep an order (a floor below
//! a ceiling) their ranges do not overlap.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The rating systems a ladder can run (docs/sources.md names the documents they follow).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    Skyweaver,
    Inversus,
    Allegskill,
    Memoir44,
    Elo,
    Goals,
}

/// One parameter of a system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// The code name, as in `--param NAME=VALUE` and in the file.
    pub name: &'static str,
    /// What a person calls it.
    pub label: &'static str,
    /// One line: what it does.
    pub meaning: &'static str,
    pub min: f64,
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// Values outside the range that the parameter takes by a word, with what each means:
    /// AllegSkill's `draw_rate=observed`. Stored as its number; typed and shown as the word.
    pub words: &'static [Word],
}

/// A parameter value given by a word (`observed`), stored as a number outside the range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Word {
    pub word: &'static str,
    pub value: f64,
    pub meaning: &'static str,
}

impl Param {
    /// Whether `value` is one this parameter may take.
    pub fn admits(&self, value: f64) -> bool {
        (value.is_finite()
            && value >= self.min
            && value <= self.max
            && (!self.integer || value.fract() == 0.0))
            || self.words.iter().any(|w| w.value == value)
    }

    /// The value as typed: a number, or one of the parameter's words (case aside).
    pub fn parse(&self, text: &str) -> Option<f64> {
        let text = text.trim();
        self.words
            .iter()
            .find(|w| w.word.eq_ignore_ascii_case(text))
            .map(|w| w.value)
            .or_else(|| text.parse().ok())
    }

    /// The value as shown: its word if it has one, else the number.
    pub fn value_text(&self, value: f64) -> String {
        match self.words.iter().find(|w| w.value == value) {
            Some(w) => w.word.to_string(),
            None => format!("{value}"),
        }
    }

    /// The range as text for messages: "0 to 400", "whole numbers 1 to 1000".
    pub fn range_text(&self) -> String {
        let n = |x: f64| {
            if x.abs() >= 1e-3 || x == 0.0 {
                format!("{x}")
            } else {
                format!("{x:e}")
            }
        };
        let range = if self.integer {
            format!("a whole number from {} to {}", n(self.min), n(self.max))
        } else {
            format!("from {} to {}", n(self.min), n(self.max))
        };
        self.words.iter().fold(range, |text, w| {
            format!("{text}, or `{}` ({})", w.word, w.meaning)
        })
    }
}

/// How a system's uncertainty is drawn around its rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// The band is rating ± factor × deviation.
    pub factor: f64,
    /// How the band is written: "r ± 1.96·RD".
    pub label: &'static str,
}

/// Everything the screens and commands need to know about one system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facts {
    pub system: System,
    /// The code name: `skyweaver`.
    pub name: &'static str,
    /// The display name: "Skyweaver".
    pub label: &'static str,
    /// One plain sentence for someone choosing a system.
    pub about: &'static str,
    /// What the standings rank by: "RP", "rank", "rating".
    pub score: &'static str,
    /// What the rating is called on an axis: "r", "μ", "rating".
    pub rating: &'static str,
    /// Whether the score is the rating itself (Elo, Memoir '44): one plot says it all.
    pub score_is_rating: bool,
    /// The uncertainty band, if the system has one.
    pub band: Option<Band>,
    /// Skyweaver's rank tiers (Table 1).
    pub tiers: bool,
    /// Whether the system predicts draws (a three-outcome forecast).
    pub draws: bool,
    pub params: &'static [Param],
}

const fn param(
    name: &'static str,
    label: &'static str,
    meaning: &'static str,
    min: f64,
    max: f64,
) -> Param {
    Param {
        name,
        label,
        meaning,
        min,
        max,
        integer: false,
        words: &[],
    }
}

const fn whole(
    name: &'static str,
    label: &'static str,
    meaning: &'static str,
    min: f64,
    max: f64,
) -> Param {
    Param {
        name,
        label,
        meaning,
        min,
        max,
        integer: true,
        words: &[],
    }
}

const INITIAL_RATING: Param = param(
    "initial_rating",
    "Starting rating",
    "a new player's rating",
    0.0,
    4000.0,
);
const PROVISIONAL: Param = whole(
    "provisional_games",
    "Provisional games",
    "games before a player enters the displayed leaderboard",
    0.0,
    10_000.0,
);
const IDLE_DAYS: Param = whole(
    "idle_days",
    "Idle after days",
    "days without a game after which a player leaves the displayed leaderboard (0: never)",
    0.0,
    36_500.0,
);
/// Glickman's rating periods for the Glicko family (`rules::RATING_PERIOD_DAYS`).
const RATING_PERIOD: Param = whole(
    "rating_period_days",
    "Rating period (days)",
    "days of one rating period whose games are rated together, as in Glickman's papers: \
     each against the ratings at the period's start (0: each match its own period; 7: a \
     week from Monday)",
    0.0,
    366.0,
);

/// The side advantage, shared by every system and stored beside the system's own
/// parameters (`Rules::advantage`). ±1000 points is 10^2.5 ≈ 316 to 1 at equal ratings: far
/// past any home ground or first move, and every system stays finite across it.
pub const ADVANTAGE: Param = param(
    "advantage",
    "Side advantage",
    "rating points (1500 scale) added to the side a match marks as at home or moving first, \
     in prediction and update alike",
    -1000.0,
    1000.0,
);

/// Margin of victory, the ladder's, declared once for the Elo/Glicko family:
/// stored as a number, typed and shown as its word.
pub const MARGIN: Param = Param {
    words: &[
        Word {
            word: "none",
            value: 0.0,
            meaning: "the result alone, as before",
        },
        Word {
            word: "wfe",
            value: 1.0,
            meaning: "World Football Elo's goal-difference index: 1, 1.5, 1.75, then +1/8 a goal",
        },
        Word {
            word: "log",
            value: 2.0,
            meaning: "ln(1 + N)/ln 2 with the autocorrelation correction 2.2/(0.001·lead + 2.2)",
        },
        Word {
            word: "sqrt",
            value: 3.0,
            meaning: "√N",
        },
    ],
    ..whole(
        "margin",
        "Margin of victory",
        "how a win by N goals (points) scales the update; 1 for a win by one or a draw",
        0.0,
        3.0,
    )
};

/// How strongly the margin counts: the option's multiplier raised to this power.
const MARGIN_POWER: Param = param(
    "margin_power",
    "Margin strength",
    "γ: the margin's multiplier m counts as m^γ (1 as the option says, 0 not at all)",
    0.0,
    3.0,
);

/// A K (update) multiplier for an event class.
const fn class_k(name: &'static str, label: &'static str, meaning: &'static str) -> Param {
    param(name, label, meaning, 0.0, 10.0)
}
const K_FRIENDLY: Param = class_k(
    "k_friendly",
    "Friendly weight",
    "the update's multiplier for a friendly",
);
const K_LEAGUE: Param = class_k(
    "k_league",
    "League weight",
    "the update's multiplier for a league (qualifier) match",
);
const K_CUP: Param = class_k(
    "k_cup",
    "Cup weight",
    "the update's multiplier for a cup match",
);
const K_CHAMPIONSHIP: Param = class_k(
    "k_championship",
    "Championship weight",
    "the update's multiplier for a championship's match",
);

const SKYWEAVER: Facts = Facts {
    system: System::Skyweaver,
    name: "skyweaver",
    label: "Skyweaver",
    about: "Rank Points and tiers from Wanderer to Grandweaver over a hidden Glicko rating, \
            with weekly and monthly resets: a ladder to climb.",
    score: "RP",
    rating: "r",
    score_is_rating: false,
    band: Some(Band {
        factor: 1.96,
        label: "r ± 1.96·RD",
    }),
    tiers: true,
    draws: false,
    params: &[
        param(
            "initial_rating",
            "Starting rating",
            "a new player's matchmaking rating r",
            0.0,
            4000.0,
        ),
        param(
            "initial_deviation",
            "Starting RD",
            "a new player's rating deviation, and the most it grows back to",
            100.0,
            1000.0,
        ),
        param(
            "min_deviation",
            "Lowest RD",
            "the floor under the rating deviation",
            1.0,
            100.0,
        ),
        param(
            "c",
            "RD growth per week",
            "how much uncertainty one idle rating period adds (c of eq. 1); a period is a \
             calendar week with the season calendar on, one soft reset with the buttons",
            0.0,
            350.0,
        ),
        param(
            "c_per_day",
            "RD growth per idle day",
            "uncertainty each day without a match adds before the next one (eq. 1 with days \
             for periods; 0 leaves RD growth to the soft resets)",
            0.0,
            350.0,
        ),
        param(
            "entry",
            "Newcomer from first opponent",
            "how far a newcomer starts at the rating of the first rated player it meets \
             (0: at the starting rating)",
            0.0,
            1.0,
        ),
        param(
            "entry_offset",
            "Newcomer offset",
            "rating points added to a newcomer's start against a rated player (below 0: \
             newcomers are taken for weaker than the player they meet)",
            -1000.0,
            1000.0,
        ),
        param(
            "f_min",
            "Rating weight at 200 RP",
            "how much a rating change counts toward RP at 200 RP, rising to 1 at 1200 (F)",
            0.0,
            1.0,
        ),
        param(
            "b_min",
            "Win bias at 1200 RP",
            "RP added to every win at and above 1200 RP (B)",
            0.0,
            100.0,
        ),
        param(
            "b_max",
            "Win bias at 200 RP",
            "RP added to every win at 200 RP (B)",
            0.0,
            100.0,
        ),
        param(
            "a",
            "Streak bonus",
            "RP added to a third straight win (A; 0 turns it off)",
            0.0,
            100.0,
        ),
        param(
            "initial_rp",
            "Starting RP",
            "a new player's Rank Points (200 is Wanderer)",
            0.0,
            1200.0,
        ),
        whole(
            "grandweaver_count",
            "Grandweavers",
            "how many top Masters are Grandweavers",
            0.0,
            100_000.0,
        ),
        param(
            "hard_reset_span",
            "Hard reset span",
            "the width of the rating range a hard reset rescales to, above 1500",
            0.0,
            2000.0,
        ),
        PROVISIONAL,
        IDLE_DAYS,
        RATING_PERIOD,
        ADVANTAGE,
        MARGIN,
        MARGIN_POWER,
        K_FRIENDLY,
        K_LEAGUE,
        K_CUP,
        K_CHAMPIONSHIP,
    ],
};

const INVERSUS: Facts = Facts {
    system: System::Inversus,
    name: "inversus",
    label: "INVERSUS",
    about: "Rank Points that chase a cautious Glicko-2 rating half-way each match, with an \
            upset bonus and no decay between seasons: steady and hard to game.",
    score: "RP",
    rating: "r",
    score_is_rating: false,
    band: Some(Band {
        factor: 1.96,
        label: "r ± 1.96·RD",
    }),
    tiers: false,
    draws: false,
    params: &[
        param(
            "initial_mu",
            "Starting μ",
            "a new player's Glicko-2 rating (0 is 1500)",
            -1.0,
            1.0,
        ),
        param(
            "initial_phi",
            "Starting φ",
            "a new player's Glicko-2 deviation",
            0.2,
            4.0,
        ),
        param(
            "initial_sigma",
            "Starting σ",
            "a new player's volatility",
            0.001,
            1.0,
        ),
        param(
            "tau",
            "τ",
            "how fast volatility may change (Glickman suggests 0.3 to 1.2)",
            0.05,
            3.0,
        ),
        param("min_mu", "Lowest μ", "the floor under μ", -20.0, -1.0),
        param("max_mu", "Highest μ", "the ceiling over μ", 1.0, 20.0),
        param("min_phi", "Lowest φ", "the floor under φ", 0.001, 0.2),
        param("max_phi", "Highest φ", "the ceiling over φ", 0.2, 10.0),
        param("min_sigma", "Lowest σ", "the floor under σ", 0.001, 0.04),
        param("max_sigma", "Highest σ", "the ceiling over σ", 0.04, 1.0),
        param(
            "tolerance",
            "Volatility tolerance",
            "when the volatility search stops",
            1e-12,
            1e-2,
        ),
        whole(
            "max_iterations",
            "Volatility iterations",
            "the most steps the volatility search takes",
            1.0,
            1000.0,
        ),
        param(
            "days_per_period",
            "Days per idle period",
            "idle days that count as one rating period before a match",
            1.0,
            3650.0,
        ),
        param(
            "approach",
            "RP approach",
            "the share of the way to the target RP one match moves",
            0.0,
            1.0,
        ),
        param(
            "max_step",
            "Largest RP move",
            "the most RP one match can move, upset bonus included",
            1.0,
            10_000.0,
        ),
        param(
            "upset_bonus",
            "Upset bonus",
            "RP for beating the highest-rated possible opponent as the lowest",
            0.0,
            10_000.0,
        ),
        PROVISIONAL,
        IDLE_DAYS,
        RATING_PERIOD,
        ADVANTAGE,
        MARGIN,
        MARGIN_POWER,
        K_FRIENDLY,
        K_LEAGUE,
        K_CUP,
        K_CHAMPIONSHIP,
    ],
};

/// AllegSkill's `draw_rate=observed`, as stored: ε follows the ladder's own draw rate (see
/// `AllegskillParams::trueskill_after`).
pub const OBSERVED_DRAW_RATE: f64 = -1.0;

const ALLEGSKILL: Facts = Facts {
    system: System::Allegskill,
    name: "allegskill",
    label: "AllegSkill",
    about: "TrueSkill with draws: a skill μ and its uncertainty σ, shown as the cautious \
            rank μ − 3σ that grows as players prove themselves.",
    score: "rank",
    rating: "μ",
    score_is_rating: false,
    band: Some(Band {
        factor: 3.0,
        label: "μ ± 3σ",
    }),
    tiers: false,
    draws: true,
    params: &[
        param(
            "initial_mu",
            "Starting μ",
            "a new player's skill",
            0.0,
            100.0,
        ),
        param(
            "initial_sigma",
            "Starting σ",
            "a new player's uncertainty",
            0.1,
            50.0,
        ),
        param(
            "beta",
            "β",
            "how much one game's performance varies around skill",
            0.1,
            50.0,
        ),
        param(
            "gamma",
            "γ",
            "uncertainty added back after each game, so ratings keep moving",
            0.0,
            10.0,
        ),
        param(
            "epsilon",
            "Draw margin ε",
            "how close two performances must be to count as a draw",
            0.001,
            10.0,
        ),
        Param {
            words: &[Word {
                word: "observed",
                value: OBSERVED_DRAW_RATE,
                meaning: "the ladder's own rate so far, starting from ε as set",
            }],
            ..param(
                "draw_rate",
                "Draw rate",
                "the share of games drawn, from which ε is derived (0 keeps ε as set; \
                 `observed`: the ladder's matches so far, with a prior of 100 at ε's rate)",
                0.0,
                0.9,
            )
        },
        PROVISIONAL,
        IDLE_DAYS,
        ADVANTAGE,
    ],
};

const MEMOIR44: Facts = Facts {
    system: System::Memoir44,
    name: "memoir44",
    label: "Memoir '44",
    about: "Elo that weighs each battle by how often the scenario's side wins and by the medal \
            margin, for games whose scenarios are not balanced.",
    score: "rating",
    rating: "rating",
    score_is_rating: true,
    band: None,
    tiers: false,
    draws: false,
    params: &[
        INITIAL_RATING,
        param(
            "points",
            "Points at stake",
            "twice the stake of an even battle (64 gives Elo's K = 32)",
            0.0,
            400.0,
        ),
        param(
            "bonus_per_medal",
            "Bonus per medal",
            "how much each medal of margin against the side's average adds",
            0.0,
            1.0,
        ),
        PROVISIONAL,
        IDLE_DAYS,
        ADVANTAGE,
        MARGIN,
        MARGIN_POWER,
        K_FRIENDLY,
        K_LEAGUE,
        K_CUP,
        K_CHAMPIONSHIP,
    ],
};

const ELO: Facts = Facts {
    system: System::Elo,
    name: "elo",
    label: "Elo",
    about: "Plain Elo: one number per player that every win raises and every loss lowers, \
            by K times the surprise.",
    score: "rating",
    rating: "rating",
    score_is_rating: true,
    band: None,
    tiers: false,
    draws: false,
    params: &[
        INITIAL_RATING,
        param(
            "k",
            "K factor",
            "the most one game can move a rating",
            0.0,
            400.0,
        ),
        PROVISIONAL,
        IDLE_DAYS,
        ADVANTAGE,
        MARGIN,
        MARGIN_POWER,
        K_FRIENDLY,
        K_LEAGUE,
        K_CUP,
        K_CHAMPIONSHIP,
    ],
};

/// A class's weight on the step.
const fn class_weight(name: &'static str, label: &'static str, meaning: &'static str) -> Param {
    param(name, label, meaning, 0.0, 10.0)
}

const GOALS: Facts = Facts {
    system: System::Goals,
    name: "goals",
    label: "Goals",
    about: "Each player's attack and defence, learnt from the score of every match (Poisson \
            goals with the Dixon–Coles low-score correction): predicts wins, draws and losses.",
    score: "rating",
    rating: "strength",
    score_is_rating: true,
    band: Some(Band {
        factor: 1.96,
        label: "strength ± 1.96·SD",
    }),
    tiers: false,
    draws: true,
    params: &[
        param(
            "mu",
            "Base goal rate (log)",
            "μ: the log of the goals an average side scores against an average side",
            -2.0,
            2.0,
        ),
        param(
            "rho",
            "Low-score correction ρ",
            "Dixon–Coles ρ: below 0 makes 0-0 and 1-1 more likely than independent goals",
            -0.6,
            0.3,
        ),
        param(
            "initial_variance",
            "Starting variance",
            "how uncertain a newcomer's attack and defence are (and the most idle time restores)",
            0.001,
            2.0,
        ),
        param(
            "drift",
            "Drift per idle day",
            "variance each idle day adds: how fast strengths are let move after a break",
            0.0,
            0.01,
        ),
        param(
            "step",
            "Step size",
            "a multiplier on the update's gain (1 is the plain Kalman step)",
            0.0,
            5.0,
        ),
        param(
            "share",
            "Attack–defence share",
            "κ: how much a side's attack and defence move together (0 apart, 1 as one)",
            0.0,
            1.0,
        ),
        param(
            "home_split",
            "Advantage kept out",
            "σ: the share of the side advantage that lowers the other side's goals rather \
             than raising the favoured side's (0: all raises)",
            0.0,
            1.0,
        ),
        param(
            "entry",
            "Newcomer from first opponent",
            "how far a newcomer starts at the strengths of the first rated side it meets \
             (0: at the pool's zero)",
            0.0,
            1.0,
        ),
        param(
            "entry_offset",
            "Newcomer offset",
            "added to a newcomer's attack and defence as it starts (log units; below 0 a \
             newcomer is taken for weaker than where it starts)",
            -2.0,
            2.0,
        ),
        param(
            "entry_pool",
            "Newcomer from the pool",
            "how far a newcomer starts at the mean attack and defence of every rated side \
             (added to the first opponent's part and the offset; 0: not at all)",
            0.0,
            1.0,
        ),
        param(
            "cap",
            "Goals counted at most",
            "the most goals one side's score counts for in the update (a rout says less \
             than its size; 1000: every goal counts)",
            1.0,
            1000.0,
        ),
        class_weight(
            "w_friendly",
            "Friendly weight",
            "how much a friendly counts",
        ),
        class_weight(
            "w_league",
            "League weight",
            "how much a league (qualifier) match counts",
        ),
        class_weight("w_cup", "Cup weight", "how much a cup match counts"),
        class_weight(
            "w_championship",
            "Championship weight",
            "how much a championship's match counts",
        ),
        PROVISIONAL,
        IDLE_DAYS,
        ADVANTAGE,
    ],
};

impl System {
    pub const ALL: [System; 6] = [
        System::Skyweaver,
        System::Inversus,
        System::Allegskill,
        System::Memoir44,
        System::Elo,
        System::Goals,
    ];

    pub fn facts(self) -> &'static Facts {
        match self {
            System::Skyweaver => &SKYWEAVER,
            System::Inversus => &INVERSUS,
            System::Allegskill => &ALLEGSKILL,
            System::Memoir44 => &MEMOIR44,
            System::Elo => &ELO,
            System::Goals => &GOALS,
        }
    }

    pub fn name(self) -> &'static str {
        self.facts().name
    }

    pub fn label(self) -> &'static str {
        self.facts().label
    }

    pub fn parse(name: &str) -> Option<System> {
        System::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The declaration of parameter `name`, if the system has one.
    pub fn param(self, name: &str) -> Option<&'static Param> {
        self.facts().params.iter().find(|p| p.name == name)
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
