//! `rungs tiers FILE --target "wanderer=5,…"`: Skyweaver's tier minimums cut so that each
//! tier holds its target share of the players at season end (`rungs_analysis::tiers`), the
//! shares and the flow matrix before and after; with `--apply`, the minimums recorded as a
//! rules change through the gate, dated on the log's first day so the whole history is read
//! under them, previewed first and undoable.

use super::common::{context, open, rules_change_applied, shown};
use super::output;
use anyhow::{Result, anyhow};
use rungs_analysis::tiers::{Proposal, Targets, TiersError, propose};
use rungs_gate::Action;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::tier_flow::{SeasonFlow, TIERS, share_beside_target, shares, short_name, summed};
use rungs_ladder::tiers::{CUT_TIERS, TierTable};
use serde_json::{Value, json};
use std::path::Path;

pub fn tiers(file: &Path, target: &str, apply: bool, json: bool) -> Result<()> {
    let targets =
        Targets::parse(target).map_err(|e| anyhow!("{}: field `target`: {e}", shown(file)))?;
    let (mut store, ladder) = open(file)?;
    let events = store.effective()?;
    let proposal = propose(&store.initial_rules()?, &events, &targets, &mut |_| true).map_err(
        |e| match e {
            TiersError::Replay(cause) => {
                let name = |id| ladder.player(id).map(|p| p.name.clone());
                anyhow!("{}: {}", shown(file), cause.describe(&name))
            }
            other => anyhow!("{}: {other}", shown(file)),
        },
    )?;
    let applied = if apply {
        Some(record(&mut store, file, &ladder, &proposal, json)?)
    } else {
        None
    };
    if json {
        let mut out = proposal_json(&proposal);
        out["applied"] = applied.unwrap_or(Value::Null);
        say!("{}", serde_json::to_string_pretty(&out)?);
    } else if !apply {
        print_text(&proposal);
    }
    Ok(())
}

/// The proposal recorded: one rules change on the log's first day.
fn record(
    store: &mut rungs_store::Store,
    file: &Path,
    ladder: &rungs_ladder::replay::Ladder,
    proposal: &Proposal,
    json: bool,
) -> Result<Value> {
    if !json {
        print_text(proposal);
    }
    let first = proposal.from;
    let in_force = store.rules_on(first)?;
    let day = first.to_string();
    let act = Action::change_rules(
        &context(file, ladder),
        proposal.rules.clone(),
        &in_force,
        Some(&day),
    )?;
    let (_, seq) = rules_change_applied(store, file, &act, json)?;
    Ok(json!({ "label": act.label(), "seq": seq, "date": first }))
}

fn minimums_json(t: &TierTable) -> Value {
    output::per_tier(&t.minimums())
}

/// One side of the proposal: minimums, pooled counts and shares, and each season's flow.
fn side_json(table: &TierTable, counts: &[u32; TIERS], flows: &[SeasonFlow]) -> Value {
    let seasons: Vec<Value> = flows
        .iter()
        .map(|f| {
            let mut season = json!({ "number": f.season, "ended": f.ended });
            for (key, value) in output::flow_json(f) {
                season[key] = value;
            }
            season
        })
        .collect();
    json!({
        "minimums": minimums_json(table),
        "counts": output::per_tier(counts),
        "shares": output::per_tier(&shares(counts)),
        "seasons": seasons,
    })
}

fn proposal_json(p: &Proposal) -> Value {
    let unreachable: Vec<Value> = p
        .unreachable
        .iter()
        .map(|u| json!({ "tier": u.tier.name(), "why": u.why }))
        .collect();
    json!({
        "counted": "players who played in a season, at its end, pooled over every finished \
                    season; Master's target counts the Grandweavers",
        "targets": output::per_tier(&p.targets.0),
        "before": side_json(&p.before, &p.counts_before, &p.flows_before),
        "after": side_json(&p.after, &p.counts_after, &p.flows_after),
        "replays": p.rounds,
        "unreachable": unreachable,
    })
}

fn print_text(p: &Proposal) {
    let (before, after) = (shares(&p.counts_before), shares(&p.counts_after));
    say!(
        "Tier minimums for the target shares at season end (players who played in a season, \
         pooled over {} seasons; {} replays)",
        p.flows_after.len(),
        p.rounds
    );
    say!(
        "  {:<15} {:>8} {:>9} {:>8} {:>8} {:>8}",
        "tier",
        "minimum",
        "proposed",
        "target",
        "before",
        "after"
    );
    let master = CUT_TIERS - 1;
    for (i, t) in Tier::ALL.iter().enumerate() {
        let name = if i == master {
            "Master and up".to_string()
        } else {
            t.name().to_string()
        };
        let (now, proposed, target) = if i < CUT_TIERS {
            (
                format!("{:.0}", p.before.minimums()[i]),
                format!("{:.0}", p.after.minimums()[i]),
                format!("{:.1} %", p.targets.0[i]),
            )
        } else {
            ("top N".into(), "top N".into(), "·".into())
        };
        say!(
            "  {:<15} {:>8} {:>9} {:>8} {:>6.1} % {:>6.1} %",
            name,
            now,
            proposed,
            target,
            share_beside_target(&before, i),
            share_beside_target(&after, i)
        );
    }
    for u in &p.unreachable {
        say!("  {} missed its target: {}", u.tier.name(), u.why);
    }
    for (title, flows) in [("before", &p.flows_before), ("after", &p.flows_after)] {
        say!("");
        say!("Flow, {title}: tier at a season's start (rows) → at its end, all seasons summed");
        print_flow(flows);
    }
}

/// The flow matrices of every season summed, as a grid.
fn print_flow(flows: &[SeasonFlow]) {
    let sum = summed(flows);
    let mut head = format!("  {:<8}", "");
    for t in Tier::ALL {
        head.push_str(&format!("{:>8}", short_name(t)));
    }
    say!("{head}");
    for (r, row) in sum.iter().enumerate() {
        if row.iter().all(|n| *n == 0) {
            continue;
        }
        let name = r
            .checked_sub(1)
            .map_or("joined".into(), |t| short_name(Tier::ALL[t]));
        let mut line = format!("  {name:<8}");
        for n in row {
            line.push_str(&format!("{n:>8}"));
        }
        say!("{line}");
    }
}
