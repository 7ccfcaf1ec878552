//! Players join, are renamed, retire and come back. A player is never deleted: matches name
//! them, and the log keeps every event.

use super::{Action, ActionError, Context, Kind};
use rungs_ladder::event::{Entry, Event};

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl Action {
    /// New players. With a date they join on it (and a match before it is refused); without
    /// one the join is undated: recorded today, and moved to the player's first event if that
    /// is earlier, so a backdated match never finds them "not yet joined".
    pub fn add_players(
        ctx: &mut Context<'_>,
        names: &[&str],
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        if names.is_empty() {
            return Err(ActionError::refused(
                &ctx.at,
                "name at least one player to add",
            ));
        }
        let undated = date.is_none_or(|d| d.trim().is_empty());
        let day = ctx.past_date("date", date)?;
        let mut rows = Vec::with_capacity(names.len());
        for text in names {
            let name = ctx.roster.new_name(&ctx.at, "name", text, None)?;
            let id = ctx.roster.next_id(&ctx.at, "name", text)?;
            ctx.roster.claim(&name, id);
            rows.push((
                day,
                Entry::Add {
                    event: Event::Player { id, name, undated },
                },
            ));
        }
        let label = match rows.as_slice() {
            [
                (
                    _,
                    Entry::Add {
                        event: Event::Player { name, .. },
                    },
                ),
            ] => format!("added {name}"),
            _ => format!("added {}", plural(rows.len(), "player")),
        };
        Action::new(Kind::AddPlayers, label, rows)
    }

    /// Renames the player called `old` to `new` from `date` on (default today).
    pub fn rename(
        ctx: &Context<'_>,
        old: &str,
        new: &str,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let id = ctx.roster.player(&ctx.at, "player", old)?;
        let name = ctx.roster.new_name(&ctx.at, "name", new, Some(id))?;
        let day = ctx.past_date("date", date)?;
        let label = format!("renamed {} to {name}", ctx.roster.name(id).unwrap_or(old));
        Action::new(
            Kind::Rename,
            label,
            vec![(
                day,
                Entry::Add {
                    event: Event::Rename { id, name },
                },
            )],
        )
    }

    /// Retires the player called `name` from `date` on (`retired` false brings them back).
    /// A retired player is left off the standings; their history stays, and playing a match
    /// brings them back.
    pub fn retire(
        ctx: &Context<'_>,
        name: &str,
        retired: bool,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let id = ctx.roster.player(&ctx.at, "player", name)?;
        let shown = ctx.roster.name(id).unwrap_or(name).to_string();
        let is_retired = ctx.ladder().player(id).is_some_and(|p| p.retired);
        if is_retired == retired {
            let state = if retired { "retired" } else { "on the ladder" };
            return Err(ActionError::refused(
                &ctx.at,
                format!("{shown} is already {state}"),
            ));
        }
        let day = ctx.past_date("date", date)?;
        let label = if retired {
            format!("retired {shown}")
        } else {
            format!("brought back {shown}")
        };
        Action::new(
            Kind::Retire,
            label,
            vec![(
                day,
                Entry::Add {
                    event: Event::Retire { id, retired },
                },
            )],
        )
    }
}
