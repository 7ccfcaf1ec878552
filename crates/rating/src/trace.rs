//! The figures an update works out on its way to a new rating, for a reader who asks why a
//! rating moved. Each system's update is written once, as an `…_explained` function that
//! hands every figure it works out to a [`Trace`]; the plain update calls it with `()`, which
//! keeps nothing and compiles away, so the figures shown are the very arithmetic that rated
//! the match, not a copy of it.

use serde::Serialize;
use std::borrow::Cow;

/// Where an update's figures go.
pub trait Trace {
    /// A figure: its symbol as the system's paper writes it, what it is, the formula that gave
    /// it (in the paper's terms), and its value.
    fn step(&mut self, symbol: &'static str, name: &'static str, formula: &'static str, value: f64);

    /// The figures that follow belong to a new part of the derivation, titled `title`.
    fn section(&mut self, title: &'static str) {
        let _ = title;
    }
}

/// No trace: the plain update.
impl Trace for () {
    #[inline(always)]
    fn step(&mut self, _: &'static str, _: &'static str, _: &'static str, _: f64) {}
}

/// One figure of a derivation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What the figure is ("expected score").
    pub name: Cow<'static, str>,
    /// Its symbol ("E").
    pub symbol: Cow<'static, str>,
    /// Its value.
    pub value: f64,
    /// How it was worked out ("E = 1/(1 + 10^(−g(RD_j)(r − r_j)/400))").
    pub formula: Cow<'static, str>,
}

/// A titled part of a derivation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    /// What this part works out ("Glicko update").
    pub title: Cow<'static, str>,
    /// Its figures, in the order they were worked out.
    pub steps: Vec<Step>,
}

/// A derivation kept whole: its sections in order. Figures given before any section opens
/// go into one titled "Update".
impl Trace for Vec<Section> {
    fn step(
        &mut self,
        symbol: &'static str,
        name: &'static str,
        formula: &'static str,
        value: f64,
    ) {
        if self.is_empty() {
            self.section("Update");
        }
        if let Some(last) = self.last_mut() {
            last.steps.push(Step {
                name: name.into(),
                symbol: symbol.into(),
                value,
                formula: formula.into(),
            });
        }
    }

    fn section(&mut self, title: &'static str) {
        // An empty section just opened gives way to the next one.
        if self.last().is_some_and(|s| s.steps.is_empty()) {
            self.pop();
        }
        self.push(Section {
            title: title.into(),
            steps: Vec::new(),
        });
    }
}

/// The value of the last figure called `symbol`, if any (what a test or a summary reads).
pub fn find(sections: &[Section], symbol: &str) -> Option<f64> {
    sections
        .iter()
        .flat_map(|s| s.steps.iter())
        .rev()
        .find(|s| s.symbol == symbol)
        .map(|s| s.value)
}
