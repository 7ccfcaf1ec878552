//! The organiser's ladder-wide changes: the season buttons, a rules change, an Elo migration,
//! a Memoir '44 scenario's figures.

use super::{Action, ActionError, Context, Kind, Place};
use chrono::NaiveDate;
use rungs_interchange::elo_list::EloLine;
use rungs_ladder::calendar::{self, Calendar, HardResets, Schedule};
use rungs_ladder::event::{Entry, Event, Migration, MigrationEntry, PlayerId, ScenarioOverride};
use rungs_ladder::rules::{Params, Rules, System};
use rungs_ladder::seasons::Cutoffs;
use rungs_ladder::values::{self, parse_medals};

/// The Elo values a migration accepts (the range of a starting rating).
pub const ELO_RANGE: std::ops::RangeInclusive<f64> = 0.0..=4000.0;

fn one(
    kind: Kind,
    label: impl Into<String>,
    date: NaiveDate,
    event: Event,
) -> Result<Action, ActionError> {
    Action::new(kind, label, vec![(date, Entry::Add { event })])
}

impl Action {
    /// The weekly button.
    pub fn soft_reset(ctx: &Context<'_>, date: Option<&str>) -> Result<Action, ActionError> {
        let date = ctx.past_date("date", date)?;
        one(Kind::SoftReset, "soft reset", date, Event::SoftReset)
    }

    /// The season button.
    pub fn hard_reset(ctx: &Context<'_>, date: Option<&str>) -> Result<Action, ActionError> {
        let date = ctx.past_date("date", date)?;
        one(Kind::HardReset, "hard reset", date, Event::HardReset)
    }

    /// The season calendar's resets due by `date` (today when not given) applied now rather
    /// than with the next match (Seasons' "Apply due resets now"). Replay applies the resets
    /// due before an event when it reaches it, so the action is an event on `date` that
    /// changes nothing itself and says what it is for (restating the rules read as a rules
    /// change that changed nothing). Refused when no reset is due by then.
    pub fn apply_due_resets(ctx: &Context<'_>, date: Option<&str>) -> Result<Action, ActionError> {
        let ladder = ctx.ladder();
        let date = ctx.past_date("date", date)?;
        if ladder.last_date.is_some_and(|last| date < last)
            || !rungs_ladder::seasons::resets_due(ladder, date)
        {
            return Err(ActionError::refused(
                &ctx.at,
                format!("no reset of the season calendar is due by {date}; nothing to apply"),
            ));
        }
        one(
            Kind::DueResets,
            format!("the season calendar's resets due by {date}"),
            date,
            Event::DueResets,
        )
    }

    /// New rules from `date` on; every parameter must lie in its declared range, and they must
    /// differ from `in_force`, the rules on that date (`Store::rules_on`).
    pub fn change_rules(
        ctx: &Context<'_>,
        rules: Rules,
        in_force: &Rules,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        rules
            .check()
            .map_err(|e| ActionError::refused(&ctx.at, e.to_string()))?;
        let date = ctx.date("date", date)?;
        if rules == *in_force {
            return Err(ActionError::refused(
                &ctx.at,
                format!("these are the ladder's rules on {date} already; nothing to change"),
            ));
        }
        let label = format!("rules: {}", rungs_analysis::evaluate::label(&rules));
        one(
            Kind::ChangeRules,
            label,
            date,
            Event::Rules {
                rules: Box::new(rules),
            },
        )
    }

    /// An Elo list brought in (the Skyweaver white paper, section 5): players the ladder does
    /// not know join (undated, on the migration's date); old ranks from the list, else from
    /// `cutoffs`.
    pub fn migrate_list(
        ctx: &mut Context<'_>,
        file: &str,
        lines: &[EloLine],
        cutoffs: &Cutoffs,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let date = ctx.past_date("date", date)?;
        let mut rows = Vec::new();
        let mut entries: Vec<MigrationEntry> = Vec::new();
        for line in lines {
            let at = Place::line(file, line.line);
            if !ELO_RANGE.contains(&line.elo) {
                return Err(ActionError::invalid(
                    &at,
                    "elo",
                    &line.elo.to_string(),
                    "is outside 0 to 4000",
                ));
            }
            let id = match ctx.roster.find(&line.player) {
                Some(id) => id,
                None => {
                    let name = ctx.roster.new_name(&at, "player", &line.player, None)?;
                    let id = ctx.roster.next_id(&at, "player", &line.player)?;
                    ctx.roster.claim(&name, id);
                    let event = Event::Player {
                        id,
                        name,
                        undated: true,
                    };
                    rows.push((date, Entry::Add { event }));
                    id
                }
            };
            if entries.iter().any(|e| e.player == id) {
                return Err(ActionError::invalid(
                    &at,
                    "player",
                    &line.player,
                    "is listed twice",
                ));
            }
            entries.push(MigrationEntry {
                player: id,
                elo: line.elo,
                old_rank: line.rank.unwrap_or_else(|| cutoffs.rank_of(line.elo)),
            });
        }
        if entries.is_empty() {
            return Err(ActionError::refused(
                &Place::file(file),
                "the list names no players",
            ));
        }
        let label = format!("migration of {} players from Elo", entries.len());
        rows.push((
            date,
            Entry::Add {
                event: Event::Migration {
                    migration: Box::new(Migration { entries }),
                },
            },
        ));
        Action::new(Kind::Migrate, label, rows)
    }

    /// This ladder's own Elo ratings become a Skyweaver ladder (the Skyweaver white paper,
    /// section 5): a rules change to Skyweaver, then every player migrated with their Elo and
    /// the old rank `cutoffs` give it.
    pub fn migrate_from_elo(
        ctx: &Context<'_>,
        cutoffs: &Cutoffs,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let ladder = ctx.ladder();
        if !matches!(ladder.rules.params, Params::Elo(_)) {
            return Err(ActionError::refused(
                &ctx.at,
                format!(
                    "migrating from the ladder's own Elo needs a ladder running elo; this one \
                     runs {}",
                    ladder.rules.system()
                ),
            ));
        }
        let date = ctx.past_date("date", date)?;
        let centre = ladder.centre();
        let entries: Vec<MigrationEntry> = ladder
            .players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.joined)
            .map(|(i, p)| {
                let elo = p.figures_at(centre).rating;
                MigrationEntry {
                    player: i as PlayerId,
                    elo,
                    old_rank: cutoffs.rank_of(elo),
                }
            })
            .collect();
        let count = entries.len();
        Action::new(
            Kind::Migrate,
            format!("migration of {count} players from this ladder's Elo to skyweaver"),
            vec![
                (
                    date,
                    Entry::Add {
                        event: Event::Rules {
                            rules: Box::new(Rules::defaults(System::Skyweaver)),
                        },
                    },
                ),
                (
                    date,
                    Entry::Add {
                        event: Event::Migration {
                            migration: Box::new(Migration { entries }),
                        },
                    },
                ),
            ],
        )
    }

    /// The organiser's figures for a Memoir '44 scenario, from `date` on: its two sides
    /// (`Allies,Axis`), the first side's win fraction, and each side's average medals.
    pub fn set_scenario(
        ctx: &Context<'_>,
        name: &str,
        sides: &str,
        ratio: &str,
        averages: &str,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let label = |field: &str, text: &str| {
            values::label(text).map_err(|e| {
                ActionError::invalid(at, field, text, format!("is not usable: it {e}"))
            })
        };
        let scenario = label("scenario", name)?;
        let (first, second) = sides.split_once(',').ok_or_else(|| {
            ActionError::invalid(at, "sides", sides, "needs two sides, e.g. `Allies,Axis`")
        })?;
        let (first, second) = (label("sides", first)?, label("sides", second)?);
        if values::name_key(&first) == values::name_key(&second) {
            return Err(ActionError::invalid(
                at,
                "sides",
                sides,
                "names one side twice; give two different sides",
            ));
        }
        let ratio_value: f64 = ratio.trim().parse().map_err(|_| {
            ActionError::invalid(
                at,
                "ratio",
                ratio,
                "is not the first side's win fraction, a number between 0 and 1",
            )
        })?;
        let ratio_value = values::win_fraction(ratio_value)
            .map_err(|e| ActionError::invalid(at, "ratio", ratio, e))?;
        let averages = parse_medals(averages)
            .map(values::Medals::get)
            .map_err(|e| ActionError::invalid(at, "averages", averages, e))?;
        let date = ctx.past_date("date", date)?;
        let figures = ScenarioOverride {
            scenario,
            sides: [first, second],
            ratio: ratio_value,
            averages,
        };
        one(
            Kind::SetScenario,
            format!("scenario {}", figures.scenario),
            date,
            Event::Scenario {
                figures: Box::new(figures),
            },
        )
    }
}

/// Old-rank cut-offs typed as `Grandmaster=2200,Master=2000,…`.
pub fn parse_cutoffs(at: &Place, text: &str) -> Result<Cutoffs, ActionError> {
    Cutoffs::parse(text).map_err(|e| ActionError::invalid(at, "cutoffs", text, e))
}

/// A system named by text, or an error listing the systems.
pub fn parse_system(at: &Place, name: &str) -> Result<System, ActionError> {
    System::parse(name).ok_or_else(|| {
        let known: Vec<&str> = System::ALL.iter().map(|s| s.name()).collect();
        ActionError::invalid(
            at,
            "system",
            name,
            format!("is not a system; choose one of {}", known.join(", ")),
        )
    })
}

/// Rules from a system name and `NAME=VALUE` parameters: the named system's defaults, or
/// `base` when no system is named (or the same one is), with each parameter checked against
/// its declared range. The season calendar and the side advantage are `base`'s whatever the
/// system (they belong to the ladder, not to a rating system: [`Rules::defaults_for`]);
/// [`rules_with_calendar`] changes the calendar too.
pub fn rules_from(
    at: &Place,
    system: Option<&str>,
    params: &[String],
    base: Option<&Rules>,
) -> Result<Rules, ActionError> {
    let mut rules = match (system, base) {
        (Some(s), Some(b)) => match parse_system(at, s)? {
            same if same == b.system() => b.clone(),
            other => b.defaults_for(other),
        },
        (Some(s), None) => Rules::defaults(parse_system(at, s)?),
        (None, Some(b)) => b.clone(),
        (None, None) => Rules::default(),
    };
    let mut given: Vec<(&str, &str)> = Vec::new();
    for p in params {
        // `--param k=1 --param k=2`: which was meant cannot be known, so neither is taken.
        let name = p.split_once('=').map_or(p.as_str(), |(n, _)| n).trim();
        if let Some((_, first)) = given.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            return Err(ActionError::refused(
                at,
                format!("parameter `{name}` is given twice (`{first}` and `{p}`); give it once"),
            ));
        }
        given.push((name, p));
        rules.assign(p).map_err(|error| ActionError::Param {
            at: at.clone(),
            error: Box::new(error),
        })?;
    }
    Ok(rules)
}

/// The season calendar as typed (each field's text; `None` where nothing was given): what the
/// command line's `--calendar`, `--soft-every`, `--hard-every` and `--anchor` say, or a form.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CalendarInput<'a> {
    /// `manual` (the buttons only) or `weekly` (the Skyweaver white paper's weekly and monthly
    /// resets: Mondays, monthly seasons).
    pub calendar: Option<&'a str>,
    /// Days between two soft resets, 1 to 366.
    pub soft_every: Option<&'a str>,
    /// `month`, or a number of soft resets from 1 to 52.
    pub hard_every: Option<&'a str>,
    /// A day a soft reset falls on, `YYYY-MM-DD`.
    pub anchor: Option<&'a str>,
}

impl CalendarInput<'_> {
    /// Whether anything was said about the calendar.
    pub fn is_empty(&self) -> bool {
        *self == CalendarInput::default()
    }
}

/// The calendar `input` asks for, starting from `base`: `manual` turns it off (and takes no
/// other setting), `weekly` starts from the weekly default ([`Schedule::default`]: Mondays,
/// monthly seasons); any other setting turns the calendar on, changing only what it names
/// (from the weekly default when `base` is manual). Each value
/// is checked: 1 to 366 days, 1 to 52 soft resets or `month`, a day from 0001 to 9999.
pub fn calendar_from(
    at: &Place,
    input: &CalendarInput<'_>,
    base: Calendar,
) -> Result<Calendar, ActionError> {
    let settings = [
        ("soft-every", input.soft_every),
        ("hard-every", input.hard_every),
        ("anchor", input.anchor),
    ];
    let mut schedule = match input.calendar.map(|c| c.trim().to_ascii_lowercase()) {
        None if settings.iter().all(|(_, v)| v.is_none()) => return Ok(base),
        None => base.schedule().copied().unwrap_or_default(),
        Some(c) if c == "weekly" => Schedule::default(),
        Some(c) if c == "manual" => {
            if let Some((field, Some(text))) = settings.iter().find(|(_, v)| v.is_some()) {
                return Err(ActionError::invalid(
                    at,
                    field,
                    text,
                    "sets a scheduled calendar, and `--calendar manual` has none; give one or \
                     the other",
                ));
            }
            return Ok(Calendar::Manual);
        }
        Some(_) => {
            let text = input.calendar.unwrap_or_default();
            return Err(ActionError::invalid(
                at,
                "calendar",
                text,
                "is not a calendar; give `manual` (resets by the buttons only) or `weekly` \
                 (a soft reset every Monday, a hard reset at each month's first)",
            ));
        }
    };
    if let Some(text) = input.soft_every {
        schedule.soft_days = whole_in(at, "soft-every", text, calendar::SOFT_DAYS, "days")?;
    }
    if let Some(text) = input.hard_every {
        schedule.hard = match text.trim().to_ascii_lowercase().as_str() {
            "month" | "monthly" => HardResets::Monthly,
            _ => HardResets::Every(whole_in(
                at,
                "hard-every",
                text,
                calendar::HARD_EVERY,
                "soft resets, or `month`",
            )?),
        };
    }
    if let Some(text) = input.anchor {
        schedule.anchor = super::parse_day(at, "anchor", text)?;
    }
    let calendar = Calendar::Scheduled(schedule);
    calendar
        .check()
        .map_err(|e| ActionError::refused(at, e.to_string()))?;
    Ok(calendar)
}

/// A whole number typed into `field`, within `range`.
fn whole_in(
    at: &Place,
    field: &str,
    text: &str,
    range: std::ops::RangeInclusive<u32>,
    unit: &str,
) -> Result<u32, ActionError> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            ActionError::invalid(
                at,
                field,
                text,
                format!(
                    "is not a whole number from {} to {} ({unit})",
                    range.start(),
                    range.end()
                ),
            )
        })
}

/// [`rules_from`] with the season calendar `input` asks for (see [`calendar_from`]).
pub fn rules_with_calendar(
    at: &Place,
    system: Option<&str>,
    params: &[String],
    input: &CalendarInput<'_>,
    base: Option<&Rules>,
) -> Result<Rules, ActionError> {
    let mut rules = rules_from(at, system, params, base)?;
    rules.calendar = calendar_from(at, input, rules.calendar)?;
    Ok(rules)
}
