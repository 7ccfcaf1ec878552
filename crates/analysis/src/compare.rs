//! What-if: the same log under two sets of rules, standings side by side, so that a designer
//! sees what a change of rules does.

use rungs_ladder::event::PlayerId;
use rungs_ladder::replay::Ladder;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings;
use serde::{Serialize, Serializer};

/// One player under rules A and rules B.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRow {
    pub player: PlayerId,
    pub name: String,
    pub rank_a: usize,
    pub rank_b: usize,
    /// rank A − rank B: positive when the player stands higher under B.
    pub rank_change: i64,
    /// The player-facing score (RP, shown rank, or rating) and the rating, under each.
    pub score_a: f64,
    pub score_b: f64,
    pub rating_a: f64,
    pub rating_b: f64,
    #[serde(serialize_with = "tier_name")]
    pub tier_a: Option<Tier>,
    #[serde(serialize_with = "tier_name")]
    pub tier_b: Option<Tier>,
}

/// Tiers by the names people read (`Trainee I`), as the standings JSON writes them.
fn tier_name<S: Serializer>(t: &Option<Tier>, s: S) -> Result<S::Ok, S::Error> {
    t.map(Tier::name).serialize(s)
}

/// Every player who has joined both ladders, in B's standings order, with their places in
/// each (ranks are standings positions, so ties are broken as the standings break them).
pub fn compare(a: &Ladder, b: &Ladder) -> Vec<CompareRow> {
    let in_a = standings::standings(a);
    let (ca, cb) = (a.centre(), b.centre());
    let mut place_a: Vec<Option<(usize, Option<Tier>)>> = vec![None; a.players.len()];
    for s in &in_a {
        place_a[s.id as usize] = Some((s.position, s.tier));
    }
    standings::standings(b)
        .into_iter()
        .filter_map(|sb| {
            let (rank_a, tier_a) = place_a.get(sb.id as usize).copied().flatten()?;
            let (pa, pb) = (a.player(sb.id)?, b.player(sb.id)?);
            let (fa, fb) = (pa.figures_at(ca), pb.figures_at(cb));
            Some(CompareRow {
                player: sb.id,
                name: pb.name.clone(),
                rank_a,
                rank_b: sb.position,
                rank_change: rank_a as i64 - sb.position as i64,
                score_a: fa.score,
                score_b: fb.score,
                rating_a: fa.rating,
                rating_b: fb.rating,
                tier_a,
                tier_b: sb.tier,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;
    use rungs_ladder::event::{Event, Match, MatchResult};
    use rungs_ladder::replay::replay_state;
    use rungs_ladder::rules::{Rules, System};
    use rungs_rating::Outcome;

    fn elo(k: f64) -> Rules {
        let mut r = Rules::defaults(System::Elo);
        r.assign(&format!("k={k}")).unwrap();
        r
    }

    /// Elo at K=32 (A) and K=400 (B) on the same two results. E = 1/(1 + 10^((r_B − r_A)/400)).
    /// 1. Ann beats Bo, both 1500: E = ½; Ann 1500 + K/2, Bo 1500 − K/2.
    /// 2. Ann draws Cy (1500): E_Ann = 1/(1 + 10^(−K/800)); Ann += K(½ − E_Ann), Cy −= the same.
    ///
    /// K=32: E_Ann = 1/(1 + 10^−0.04) = 0.52301, Ann 1515.26 > Cy 1500.74 > Di 1500 > Bo 1484.
    /// K=400: E_Ann = 1/(1 + 10^−0.5) = 0.75974, Cy 1603.90 > Ann 1596.10 > Di 1500 > Bo 1300:
    /// the draw costs the favourite more than the win gave her.
    #[test]
    fn elo_k32_against_k400_by_hand() {
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let mut log: Vec<Event> = ["Ann", "Bo", "Cy", "Di"]
            .iter()
            .zip(0..)
            .map(|(n, id)| Event::Player {
                id,
                name: rungs_ladder::values::PlayerName::parse(n).unwrap(),
                undated: false,
            })
            .collect();
        for (a, b, o) in [(0, 1, Outcome::Win), (0, 2, Outcome::Draw)] {
            log.push(Event::Match(Match::new(a, b, MatchResult::Played(o))));
        }
        let events = || (0..).zip(&log).map(|(s, e)| (day, s, e));
        let (a, b) = (
            replay_state(&elo(32.0), events()).unwrap(),
            replay_state(&elo(400.0), events()).unwrap(),
        );
        let by_hand = |k: f64| {
            let e_ann = 1.0 / (1.0 + 10f64.powf(-k / 800.0));
            let moved = k * (0.5 - e_ann);
            // Ann, Bo, Cy, Di
            [
                1500.0 + k / 2.0 + moved,
                1500.0 - k / 2.0,
                1500.0 - moved,
                1500.0,
            ]
        };
        let (ha, hb) = (by_hand(32.0), by_hand(400.0));
        assert!((ha[0] - 1515.2637).abs() < 1e-4 && (hb[2] - 1603.8988).abs() < 1e-4);
        let rows = compare(&a, &b);
        let got: Vec<(&str, usize, usize, i64)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.rank_a, r.rank_b, r.rank_change))
            .collect();
        assert_eq!(
            got,
            [
                ("Cy", 2, 1, 1),
                ("Ann", 1, 2, -1),
                ("Di", 3, 3, 0),
                ("Bo", 4, 4, 0)
            ]
        );
        for r in &rows {
            let i = r.player as usize;
            assert!((r.rating_a - ha[i]).abs() < 1e-9, "{r:?} {}", ha[i]);
            assert!((r.rating_b - hb[i]).abs() < 1e-9, "{r:?} {}", hb[i]);
            assert_eq!((r.score_a, r.score_b), (r.rating_a, r.rating_b));
            assert_eq!((r.tier_a, r.tier_b), (None, None));
        }
        let json = serde_json::to_value(&rows[0]).unwrap();
        assert_eq!(json["tier_a"], serde_json::Value::Null);
    }

    #[test]
    fn tiers_show_by_name_under_skyweaver() {
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let log = [Event::Player {
            id: 0,
            name: rungs_ladder::values::PlayerName::parse("Ann").unwrap(),
            undated: false,
        }];
        let events = || log.iter().map(|e| (day, 1, e));
        let a = replay_state(&Rules::default(), events()).unwrap();
        let b = replay_state(&elo(32.0), events()).unwrap();
        let rows = compare(&a, &b);
        assert_eq!(rows[0].tier_a, Some(Tier::Wanderer));
        let json = serde_json::to_value(&rows[0]).unwrap();
        assert_eq!(
            (json["tier_a"].as_str(), json["score_a"].as_f64()),
            (Some("Wanderer"), Some(200.0))
        );
    }
}
