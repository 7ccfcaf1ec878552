//! Glicko-2, by the steps of Glickman's "Example of the Glicko-2 system", with the optional
//! bounds and per-match rating periods of the INVERSUS ranking notes.
//!
//! Ratings live on Glicko-2's native scale (μ, φ, σ). Conversion to Glicko units uses
//! 173.7178 = 400/ln 10; the INVERSUS ranking notes print 172.7178, a typo.
//!
//! Glickman's worked example: a 1500 ± 200 player (σ = 0.06, τ = 0.5) beats a 1400 ± 30
//! player and loses to 1550 ± 100 and 1700 ± 300 in one rating period, ending at
//! 1464.06 ± 151.52 (σ′ = 0.05999).
//!
//! ```
//! use rungs_rating::glicko2::{Config, Rating, rate_period};
//!
//! let player = Rating::from_glicko(1500.0, 200.0, 0.06);
//! let results = [
//!     (Rating::from_glicko(1400.0, 30.0, 0.06), 1.0),
//!     (Rating::from_glicko(1550.0, 100.0, 0.06), 0.0),
//!     (Rating::from_glicko(1700.0, 300.0, 0.06), 0.0),
//! ];
//! let after = rate_period(&player, &results, &Config::default());
//! assert!((after.rating() - 1464.05).abs() < 0.01);
//! assert!((after.deviation() - 151.52).abs() < 0.01);
//! ```

use super::trace::Trace;
use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

/// Glicko units per native unit, 400/ln(10).
pub const SCALE: f64 = 173.7178;
const INV_PI2: f64 = 1.0 / (std::f64::consts::PI * std::f64::consts::PI);

/// System constants and bounds. The default is Glickman's plain Glicko-2 (a new player at
/// 1500 ± 350 with σ = 0.06, τ = 0.5, no bounds); [`Config::inversus`] is the INVERSUS
/// ranking notes'.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A new player's μ (0, i.e. 1500).
    pub initial_mu: f64,
    /// A new player's φ (350/173.7178).
    pub initial_phi: f64,
    /// A new player's σ (0.06).
    pub initial_sigma: f64,
    /// τ, how fast volatility may change (0.5; Glickman suggests 0.3–1.2).
    pub tau: f64,
    /// Bounds on μ, applied after every update.
    pub min_mu: f64,
    /// The upper bound on μ.
    pub max_mu: f64,
    /// Bounds on φ, applied after every update and after inactivity.
    pub min_phi: f64,
    /// The upper bound on φ.
    pub max_phi: f64,
    /// Bounds on σ, applied after every update.
    pub min_sigma: f64,
    /// The upper bound on σ.
    pub max_sigma: f64,
    /// Convergence tolerance of the Illinois iteration for σ (1e-6).
    pub tolerance: f64,
    /// Iteration cap, so the volatility search always ends (100; it converges in about 10).
    pub max_iterations: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_mu: 0.0,
            initial_phi: 350.0 / SCALE,
            initial_sigma: 0.06,
            tau: 0.5,
            min_mu: -f64::MAX,
            max_mu: f64::MAX,
            min_phi: 0.0,
            max_phi: f64::MAX,
            min_sigma: 0.0,
            max_sigma: f64::MAX,
            tolerance: 1e-6,
            max_iterations: 100,
        }
    }
}

impl Config {
    /// INVERSUS Deluxe: a new player at μ = 0, φ = 2.015, σ = 0.06; μ ∈ [−6.045, 6.045],
    /// φ ∈ [0.175, 2.015], σ ∈ [0.04, 0.08]; τ = 0.5.
    pub fn inversus() -> Config {
        Config {
            initial_mu: 0.0,
            initial_phi: 2.015,
            initial_sigma: 0.06,
            tau: 0.5,
            min_mu: -6.045,
            max_mu: 6.045,
            min_phi: 0.175,
            max_phi: 2.015,
            min_sigma: 0.04,
            max_sigma: 0.08,
            ..Config::default()
        }
    }

    fn bound(&self, p: Rating) -> Rating {
        // max/min rather than clamp: clamp asserts min ≤ max, and a bad bound from a file
        // must not panic.
        Rating {
            mu: p.mu.max(self.min_mu).min(self.max_mu),
            phi: p.phi.max(self.min_phi).min(self.max_phi),
            sigma: p.sigma.max(self.min_sigma).min(self.max_sigma),
        }
    }
}

/// A player on the native scale: rating μ, deviation φ, volatility σ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating μ on Glicko-2's scale (0 for a new player; 173.7178·μ + 1500 on Glicko's).
    pub mu: f64,
    /// The deviation φ on Glicko-2's scale.
    pub phi: f64,
    /// The volatility σ: how erratic the player's results are.
    pub sigma: f64,
}

impl Rating {
    /// A new player.
    pub fn new(config: &Config) -> Rating {
        Rating {
            mu: config.initial_mu,
            phi: config.initial_phi,
            sigma: config.initial_sigma,
        }
    }

    /// From Glicko units (r, RD) and a volatility.
    pub fn from_glicko(rating: f64, deviation: f64, sigma: f64) -> Rating {
        Rating {
            mu: (rating - 1500.0) / SCALE,
            phi: deviation / SCALE,
            sigma,
        }
    }

    /// The rating in Glicko units, 173.7178·μ + 1500.
    pub fn rating(&self) -> f64 {
        SCALE * self.mu + 1500.0
    }

    /// The deviation in Glicko units, 173.7178·φ.
    pub fn deviation(&self) -> f64 {
        SCALE * self.phi
    }
}

/// g(φ) = 1/√(1 + 3φ²/π²).
pub fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi * INV_PI2).sqrt()
}

/// E and 1 − E for μ against an opponent whose g is `g_opp`, each without cancellation.
fn expected(mu: f64, mu_opp: f64, g_opp: f64) -> (f64, f64) {
    let z = (-g_opp * (mu - mu_opp)).exp();
    let e = 1.0 / (1.0 + z);
    (e, z * e)
}

/// Inactivity of `periods` rating periods (fractions allowed): φ = √(φ² + t·σ²), bounded.
pub fn apply_inactivity(player: &Rating, periods: f64, config: &Config) -> Rating {
    apply_inactivity_explained(player, periods, config, &mut ())
}

/// [`apply_inactivity`], handing its figures to `trace`: t, φ and the grown φ, bounded.
pub fn apply_inactivity_explained<T: Trace + ?Sized>(
    player: &Rating,
    periods: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    let t = if periods.is_finite() {
        periods.max(0.0)
    } else {
        0.0
    };
    trace.step("φ", "deviation going in", "φ", player.phi);
    trace.step("σ", "volatility", "σ", player.sigma);
    trace.step("t", "idle rating periods", "t", t);
    let grown = (player.phi * player.phi + t * player.sigma * player.sigma).sqrt();
    trace.step(
        "φ_t",
        "deviation after the idle time",
        "φ_t = √(φ² + t·σ²)",
        grown,
    );
    let bounded = config.bound(Rating {
        phi: grown,
        ..*player
    });
    trace.step(
        "φ_t (bounded)",
        "deviation within its bounds",
        "min(max(φ_t, φ_min), φ_max)",
        bounded.phi,
    );
    bounded
}

/// Step 5 of Glickman's procedure: the new volatility is exp(x/2) at the root x of
/// f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − a)/τ², found by the Illinois
/// variant of regula falsi. Kept as a state machine so that two players' searches can run
/// in lock-step: each step waits on an `exp` and a division, and interleaving two
/// independent searches lets the processor overlap those latencies.
struct VolatilitySearch {
    a: f64,
    delta2: f64,
    phi2_v: f64,
    inv_tau2: f64,
    lo: f64,
    hi: f64,
    f_lo: f64,
    f_hi: f64,
    /// e^lo and e^hi, kept so that σ'² = e^A needs no further exp.
    exp_lo: f64,
    exp_hi: f64,
    iterations: u32,
    tolerance: f64,
    max_iterations: u32,
}

impl VolatilitySearch {
    fn new(sigma: f64, delta2: f64, phi2: f64, v: f64, config: &Config) -> VolatilitySearch {
        let sigma2 = sigma * sigma;
        let tau = config.tau;
        let mut search = VolatilitySearch {
            a: sigma2.ln(),
            delta2,
            phi2_v: phi2 + v,
            inv_tau2: 1.0 / (tau * tau),
            lo: 0.0,
            hi: 0.0,
            f_lo: 0.0,
            f_hi: 0.0,
            exp_lo: sigma2,
            exp_hi: 0.0,
            iterations: 0,
            tolerance: config.tolerance,
            max_iterations: config.max_iterations,
        };
        let a = search.a;
        // f(a) and, when B = ln(Δ² − φ² − v), f(B) need no exp: e^a = σ², e^B = Δ² − φ² − v.
        search.lo = a;
        search.f_lo = search.f_at(a, sigma2);
        if delta2 > search.phi2_v {
            let gap = delta2 - search.phi2_v;
            search.hi = gap.ln();
            search.exp_hi = gap;
            search.f_hi = search.f_at(search.hi, gap);
        } else {
            let mut k = 1.0;
            let mut x = a - tau;
            let mut ex = x.exp();
            while search.f_at(x, ex) < 0.0 && k < config.max_iterations as f64 {
                k += 1.0;
                x = a - k * tau;
                ex = x.exp();
            }
            search.hi = x;
            search.exp_hi = ex;
            search.f_hi = search.f_at(x, ex);
        }
        search
    }

    /// f(x), given eˣ.
    fn f_at(&self, x: f64, ex: f64) -> f64 {
        let d = self.phi2_v + ex;
        ex * (self.delta2 - d) / (2.0 * d * d) - (x - self.a) * self.inv_tau2
    }

    fn running(&self) -> bool {
        let denominator = self.f_hi - self.f_lo;
        (self.hi - self.lo).abs() > self.tolerance
            && self.iterations < self.max_iterations
            && denominator != 0.0
            && denominator.is_finite()
    }

    /// The next point C = A + (A − B)·f(A)/(f(B) − f(A)).
    fn next_point(&self) -> f64 {
        self.lo + (self.lo - self.hi) * self.f_lo / (self.f_hi - self.f_lo)
    }

    fn accept(&mut self, c: f64, exp_c: f64) {
        let f_c = self.f_at(c, exp_c);
        if f_c * self.f_hi <= 0.0 {
            self.lo = self.hi;
            self.f_lo = self.f_hi;
            self.exp_lo = self.exp_hi;
        } else {
            self.f_lo *= 0.5;
        }
        self.hi = c;
        self.f_hi = f_c;
        self.exp_hi = exp_c;
        self.iterations += 1;
    }

    fn step(&mut self) {
        let c = self.next_point();
        self.accept(c, c.exp());
    }

    /// σ' = e^{A/2} = √(e^A), or the old σ should the search have run off (it cannot for
    /// finite input).
    fn sigma(&self, old: f64) -> f64 {
        let sigma = self.exp_lo.sqrt();
        if sigma.is_finite() && sigma > 0.0 {
            sigma
        } else {
            old
        }
    }

    fn solve(self, old: f64) -> f64 {
        self.solve_explained(old, &mut ())
    }

    /// [`Self::solve`], handing `trace` the search's start (a = ln σ², and B), how many
    /// steps it took, and σ'.
    fn solve_explained<T: Trace + ?Sized>(mut self, old: f64, trace: &mut T) -> f64 {
        trace.step("a", "start of the search", "a = ln(σ²)", self.a);
        trace.step(
            "B",
            "other end of the first bracket",
            "B = ln(Δ² − φ² − v), or a − kτ",
            self.hi,
        );
        while self.running() {
            self.step();
        }
        trace.step(
            "iterations",
            "steps of the Illinois search",
            "until |B − A| ≤ ε",
            f64::from(self.iterations),
        );
        trace.step("A", "root of f(x)", "f(A) = 0", self.lo);
        let sigma = self.sigma(old);
        trace.step("σ'", "new volatility", "σ' = e^(A/2)", sigma);
        sigma
    }

    /// Two independent searches, stepped together while both run.
    fn solve_pair(mut x: VolatilitySearch, mut y: VolatilitySearch, old: (f64, f64)) -> (f64, f64) {
        while x.running() && y.running() {
            let (cx, cy) = (x.next_point(), y.next_point());
            let (ex, ey) = (cx.exp(), cy.exp());
            x.accept(cx, ex);
            y.accept(cy, ey);
        }
        (x.solve(old.0), y.solve(old.1))
    }
}

/// What one player's games of a period add up to: Σg²E(1−E) and Σg(s−E).
#[derive(Clone, Copy)]
struct PeriodSums {
    info: f64,
    surprise: f64,
}

impl PeriodSums {
    /// False when the games carry no information (odds so lopsided that E(1−E) underflows).
    fn informative(&self) -> bool {
        self.info > 0.0 && self.info.is_finite()
    }

    fn search(&self, player: &Rating, config: &Config) -> VolatilitySearch {
        let v = 1.0 / self.info;
        let delta = v * self.surprise;
        VolatilitySearch::new(
            player.sigma,
            delta * delta,
            player.phi * player.phi,
            v,
            config,
        )
    }

    /// Steps 6–8: φ*, then φ' and μ', then the bounds.
    fn finish(&self, player: &Rating, sigma: f64, config: &Config) -> Rating {
        self.finish_explained(player, sigma, config, &mut ())
    }

    /// [`Self::finish`], handing its figures to `trace`.
    fn finish_explained<T: Trace + ?Sized>(
        &self,
        player: &Rating,
        sigma: f64,
        config: &Config,
        trace: &mut T,
    ) -> Rating {
        let phi_star2 = player.phi * player.phi + sigma * sigma;
        trace.step(
            "φ*",
            "pre-period deviation",
            "φ* = √(φ² + σ'²)",
            phi_star2.sqrt(),
        );
        let phi_new2 = phi_star2 / (1.0 + phi_star2 * self.info);
        let step = phi_new2 * self.surprise;
        trace.step(
            "φ'",
            "new deviation",
            "φ' = 1/√(1/φ*² + 1/v)",
            phi_new2.sqrt(),
        );
        trace.step("Δμ", "change of μ", "Δμ = φ'²·g(φ_j)·(s − E)", step);
        let mu = player.mu + step;
        trace.step("μ'", "new rating", "μ' = μ + Δμ", mu);
        let bounded = config.bound(Rating {
            mu,
            phi: phi_new2.sqrt(),
            sigma,
        });
        if config.min_mu > -f64::MAX || config.max_mu < f64::MAX {
            trace.step("μ_min", "lower bound on μ", "μ_min", config.min_mu);
            trace.step("μ_max", "upper bound on μ", "μ_max", config.max_mu);
        }
        trace.step(
            "μ' (bounded)",
            "new rating within its bounds",
            "min(max(μ', μ_min), μ_max)",
            bounded.mu,
        );
        trace.step(
            "φ' (bounded)",
            "new deviation within its bounds",
            "min(max(φ', φ_min), φ_max)",
            bounded.phi,
        );
        trace.step(
            "σ' (bounded)",
            "new volatility within its bounds",
            "min(max(σ', σ_min), σ_max)",
            bounded.sigma,
        );
        bounded
    }

    fn apply(&self, player: &Rating, config: &Config) -> Rating {
        self.apply_explained(player, config, &mut ())
    }

    /// [`Self::apply`], handing `trace` v, Δ, the volatility search and the update.
    fn apply_explained<T: Trace + ?Sized>(
        &self,
        player: &Rating,
        config: &Config,
        trace: &mut T,
    ) -> Rating {
        if !self.informative() {
            trace.section("No information: one idle rating period");
            return apply_inactivity_explained(player, 1.0, config, trace);
        }
        let search = self.search(player, config);
        trace.step(
            "v",
            "estimated variance from the game",
            "v = 1/Σ g(φ_j)²·E_j·(1 − E_j)",
            1.0 / self.info,
        );
        trace.step(
            "Δ",
            "estimated improvement",
            "Δ = v·Σ g(φ_j)·(s_j − E_j)",
            (1.0 / self.info) * self.surprise,
        );
        trace.section("Volatility search (Illinois)");
        let sigma = search.solve_explained(player.sigma, trace);
        trace.section("Glicko-2 update");
        self.finish_explained(player, sigma, config, trace)
    }
}

/// One rating period with `results` (opponent, score). With no games, φ grows by one period.
pub fn rate_period(player: &Rating, results: &[(Rating, f64)], config: &Config) -> Rating {
    rate_period_explained(player, results, config, &mut ())
}

/// [`rate_period`], handing `trace` each game's g(φ_j), E and s, then v, Δ, the volatility
/// search and the update (the plain function is this one with no trace).
pub fn rate_period_explained<T: Trace + ?Sized>(
    player: &Rating,
    results: &[(Rating, f64)],
    config: &Config,
    trace: &mut T,
) -> Rating {
    if results.is_empty() {
        return apply_inactivity_explained(player, 1.0, config, trace);
    }
    trace.step(
        "μ",
        "rating at the period's start (native scale)",
        "μ = (r − 1500)/173.7178",
        player.mu,
    );
    trace.step(
        "φ",
        "deviation at the period's start",
        "φ = RD/173.7178",
        player.phi,
    );
    trace.step("σ", "volatility at the period's start", "σ", player.sigma);
    let mut sums = PeriodSums {
        info: 0.0,
        surprise: 0.0,
    };
    for (opponent, score) in results {
        let g_opp = g(opponent.phi);
        let (e, one_minus_e) = expected(player.mu, opponent.mu, g_opp);
        trace.step(
            "μ_j",
            "opponent's rating at the period's start",
            "μ_j",
            opponent.mu,
        );
        trace.step(
            "φ_j",
            "opponent's deviation at the period's start",
            "φ_j",
            opponent.phi,
        );
        trace.step(
            "g(φ_j)",
            "weight of the opponent's deviation",
            "g(φ_j) = 1/√(1 + 3φ_j²/π²)",
            g_opp,
        );
        trace.step(
            "E",
            "expected score",
            "E = 1/(1 + exp(−g(φ_j)(μ − μ_j)))",
            e,
        );
        trace.step("s", "score", "win 1, draw ½, loss 0", *score);
        sums.info += g_opp * g_opp * e * one_minus_e;
        sums.surprise += g_opp * (score - e);
    }
    sums.apply_explained(player, config, trace)
}

/// A 1v1 match as one rating period for each player (as INVERSUS rates). Returns (A', B').
pub fn rate(a: &Rating, b: &Rating, outcome: Outcome, config: &Config) -> (Rating, Rating) {
    rate_with_advantage(a, b, outcome, 0.0, config)
}

/// [`rate`] with side A's μ raised by `advantage` (native units: rating points ÷ 173.7178)
/// in both expected scores (the side advantage of the design notes); the updates and the
/// bounds apply to μ itself.
pub fn rate_with_advantage(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> (Rating, Rating) {
    let s = outcome.score();
    let g_a = g(a.phi);
    let g_b = g(b.phi);
    let (e_a, not_e_a) = expected(a.mu + advantage, b.mu, g_b);
    let (e_b, not_e_b) = expected(b.mu, a.mu + advantage, g_a);
    let sums_a = PeriodSums {
        info: g_b * g_b * e_a * not_e_a,
        surprise: g_b * (s - e_a),
    };
    let sums_b = PeriodSums {
        info: g_a * g_a * e_b * not_e_b,
        surprise: g_a * ((1.0 - s) - e_b),
    };
    if !(sums_a.informative() && sums_b.informative()) {
        return (sums_a.apply(a, config), sums_b.apply(b, config));
    }
    let (sigma_a, sigma_b) = VolatilitySearch::solve_pair(
        sums_a.search(a, config),
        sums_b.search(b, config),
        (a.sigma, b.sigma),
    );
    (
        sums_a.finish(a, sigma_a, config),
        sums_b.finish(b, sigma_b, config),
    )
}

/// A's side of [`rate_with_advantage`]: its `.0`, to the bit, without B's volatility search
/// (A's own search is the same whether or not B's runs beside it).
pub fn rate_one(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> Rating {
    one_sided(a, b, outcome, advantage).apply(a, config)
}

/// [`rate_one`], handing `trace` every figure of Glickman's steps: μ, φ, σ going in, the
/// opponent's, g(φ_j), E, v, Δ, the volatility search, φ*, φ', μ' and the bounds (the same
/// arithmetic as [`rate_one`]).
pub fn rate_one_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    trace.step(
        "μ",
        "rating going in (native scale)",
        "μ = (r − 1500)/173.7178",
        a.mu,
    );
    trace.step("φ", "deviation going in", "φ = RD/173.7178", a.phi);
    trace.step("σ", "volatility going in", "σ", a.sigma);
    trace.step("μ_j", "opponent's rating", "μ_j", b.mu);
    trace.step("φ_j", "opponent's deviation", "φ_j", b.phi);
    if advantage != 0.0 {
        trace.step("h", "side advantage (native)", "h", advantage);
    }
    one_sided_explained(a, b, outcome, advantage, trace).apply_explained(a, config, trace)
}

/// Two players' own updates at once, each `x` = (player, opponent, outcome, advantage) as
/// [`rate_one`] rates it — a 1v1 match from each side's view — with the two volatility
/// searches stepped together where both run (as [`rate_with_advantage`] steps A's and B's).
pub fn rate_pair(
    x: (&Rating, &Rating, Outcome, f64),
    y: (&Rating, &Rating, Outcome, f64),
    config: &Config,
) -> (Rating, Rating) {
    let sums_x = one_sided(x.0, x.1, x.2, x.3);
    let sums_y = one_sided(y.0, y.1, y.2, y.3);
    if !(sums_x.informative() && sums_y.informative()) {
        return (sums_x.apply(x.0, config), sums_y.apply(y.0, config));
    }
    let (sigma_x, sigma_y) = VolatilitySearch::solve_pair(
        sums_x.search(x.0, config),
        sums_y.search(y.0, config),
        (x.0.sigma, y.0.sigma),
    );
    (
        sums_x.finish(x.0, sigma_x, config),
        sums_y.finish(y.0, sigma_y, config),
    )
}

/// A's sums in [`rate_with_advantage`].
fn one_sided(a: &Rating, b: &Rating, outcome: Outcome, advantage: f64) -> PeriodSums {
    one_sided_explained(a, b, outcome, advantage, &mut ())
}

/// [`one_sided`], handing `trace` g(φ_j), E and s.
fn one_sided_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    trace: &mut T,
) -> PeriodSums {
    let g_b = g(b.phi);
    let (e_a, not_e_a) = expected(a.mu + advantage, b.mu, g_b);
    trace.step(
        "g(φ_j)",
        "weight of the opponent's deviation",
        "g(φ_j) = 1/√(1 + 3φ_j²/π²)",
        g_b,
    );
    trace.step(
        "E",
        "expected score",
        "E = 1/(1 + exp(−g(φ_j)(μ + h − μ_j)))",
        e_a,
    );
    trace.step("s", "score", "win 1, draw ½, loss 0", outcome.score());
    PeriodSums {
        info: g_b * g_b * e_a * not_e_a,
        surprise: g_b * (outcome.score() - e_a),
    }
}

/// The probability that A beats B, from both deviations: E with g(√(φ_A² + φ_B²)).
pub fn predict(a: &Rating, b: &Rating) -> Prediction {
    predict_with_advantage(a, b, 0.0)
}

/// [`predict`] with side A's μ raised by `advantage` (native units).
pub fn predict_with_advantage(a: &Rating, b: &Rating, advantage: f64) -> Prediction {
    let combined = (a.phi * a.phi + b.phi * b.phi).sqrt();
    Prediction::decisive(expected(a.mu + advantage, b.mu, g(combined)).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's Glicko-2 example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    /// 1700/300, τ = 0.5 → 1464.06, 151.52, σ' = 0.05999.
    #[test]
    fn glickman_worked_example() {
        let cfg = Config::default();
        let player = Rating::from_glicko(1500.0, 200.0, 0.06);
        let results = [
            (Rating::from_glicko(1400.0, 30.0, 0.06), 1.0),
            (Rating::from_glicko(1550.0, 100.0, 0.06), 0.0),
            (Rating::from_glicko(1700.0, 300.0, 0.06), 0.0),
        ];
        let new = rate_period(&player, &results, &cfg);
        assert!(
            (new.rating() - 1464.05).abs() <= 0.01,
            "r' = {}",
            new.rating()
        );
        assert!(
            (new.deviation() - 151.52).abs() <= 0.01,
            "RD' = {}",
            new.deviation()
        );
        assert!((new.sigma - 0.059996).abs() <= 1e-6, "σ' = {}", new.sigma);
        // Glickman's intermediate values: μ' = −0.2069, φ' = 0.8722.
        assert!((new.mu + 0.2069).abs() < 5e-5);
        assert!((new.phi - 0.8722).abs() < 5e-5);
    }

    /// The advantage h enters only through μ_A + h − μ_B in both expectations, so the update
    /// of A with it is the update of A moved up by h, moved back down; B's is the same.
    /// And A at μ with h against B at μ + h is an even match: E = ½.
    #[test]
    fn side_advantage_shifts_the_expectation_only() {
        let cfg = Config::inversus();
        let h = 100.0 / SCALE;
        let a = Rating {
            mu: 0.2,
            phi: 0.6,
            sigma: 0.06,
        };
        let b = Rating {
            mu: 0.5,
            phi: 0.9,
            sigma: 0.05,
        };
        for o in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
            let (a2, b2) = rate_with_advantage(&a, &b, o, h, &cfg);
            let shifted = Rating { mu: a.mu + h, ..a };
            let (s2, t2) = rate(&shifted, &b, o, &cfg);
            assert!((a2.mu - (s2.mu - h)).abs() < 1e-12, "{o:?}");
            assert_eq!((a2.phi, a2.sigma), (s2.phi, s2.sigma));
            assert_eq!(b2, t2);
        }
        let even = Rating { mu: a.mu + h, ..b };
        assert!((predict_with_advantage(&a, &even, h).win_a - 0.5).abs() < 1e-15);
        assert!(predict_with_advantage(&a, &a, h).win_a > 0.5);
    }

    #[test]
    fn inactivity_is_a_partial_period() {
        let cfg = Config::inversus();
        let p = Rating {
            mu: 1.0,
            phi: 0.5,
            sigma: 0.06,
        };
        let half = apply_inactivity(&p, 0.5, &cfg);
        assert!((half.phi - (0.25f64 + 0.5 * 0.0036).sqrt()).abs() < 1e-15);
        // A very long absence stops at the unrated deviation.
        assert_eq!(apply_inactivity(&p, 1e9, &cfg).phi, 2.015);
        assert_eq!(half.mu, 1.0);
    }

    #[test]
    fn inversus_bounds_hold_after_updates() {
        let cfg = Config::inversus();
        let mut a = Rating::new(&cfg);
        let b = Rating {
            mu: -6.0,
            phi: 0.2,
            sigma: 0.04,
        };
        for _ in 0..200 {
            a = rate(&a, &b, Outcome::Win, &cfg).0;
        }
        assert!(a.mu <= 6.045 && a.phi >= 0.175 && a.sigma >= 0.04 && a.sigma <= 0.08);
    }

    #[test]
    fn glicko_units_use_400_over_ln_10() {
        assert!((SCALE - 400.0 / std::f64::consts::LN_10).abs() < 1e-4);
        let r = Rating::from_glicko(1700.0, 100.0, 0.06);
        assert!((r.rating() - 1700.0).abs() < 1e-12 && (r.deviation() - 100.0).abs() < 1e-12);
    }

    /// Each side's own update, alone (`rate_one`) or beside the other's (`rate_pair`), is the
    /// first half of the two-player update from that side's view, to the bit — with an
    /// advantage, where B's view is not the second half of A's.
    #[test]
    fn one_side_and_a_pair_of_views_rate_as_the_whole_update() {
        let cfg = Config::inversus();
        let a = Rating::from_glicko(1620.0, 80.0, 0.061);
        let b = Rating::from_glicko(1480.0, 240.0, 0.05);
        for outcome in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
            for h in [0.0, 0.4, -0.25] {
                let whole_a = rate_with_advantage(&a, &b, outcome, h, &cfg).0;
                let whole_b = rate_with_advantage(&b, &a, outcome.flipped(), -h, &cfg).0;
                assert_eq!(rate_one(&a, &b, outcome, h, &cfg), whole_a);
                let pair = rate_pair((&a, &b, outcome, h), (&b, &a, outcome.flipped(), -h), &cfg);
                assert_eq!(pair, (whole_a, whole_b), "{outcome:?} {h}");
            }
        }
    }
}
