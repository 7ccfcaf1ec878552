//! Tune (UI.md "Tune"): pick a system and the parameters to fit, fit them on the matches
//! before a date as a job with progress, read the train and test log-loss beside the defaults
//! and Elo K=32, a curve of log-loss against each fitted parameter around the optimum, and the
//! calibration of the fitted rules on the matches they never saw; apply the result as a
//! previewed rules change ([`Command::PreviewRules`]).
//!
//! The screen keeps its own state ([`Tune`]) and its own job thread, so it needs no more of
//! the app than a place in the screen list: the fit reads the ladder file through its own
//! connection and never writes it. Its calibration plot is `charts::calibration_plot`,
//! which Prediction quality shows as well.

use super::charts::{
    calibration_plot, labelled_x_axis, labelled_x_marks, labelled_y_axis, labelled_y_marks,
};
use super::command::Command;
use super::widgets;
use eframe::egui::{self, RichText};
use egui_plot::{Line, Plot, PlotPoints, Points};
use rungs_analysis::fit::{self, Fit, Scored};
use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::{Rules, System};
use rungs_store::Store;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};

/// Points on each parameter's log-loss curve.
const CURVE_POINTS: usize = 9;

/// A finished fit, with what the screen draws from it.
#[derive(Debug, Clone)]
pub struct Tuned {
    pub fit: Fit,
    /// Elo K=32 on the same split.
    pub baseline: Scored,
    /// For each fitted parameter: training log-loss against its value, the rest held at the fit.
    pub curves: Vec<(&'static str, Vec<[f64; 2]>)>,
}

/// The job of one fit: its progress in thousandths, a cancel flag, and the answer.
struct Running {
    permille: Arc<AtomicU64>,
    cancel: Arc<AtomicBool>,
    answer: Receiver<Result<Tuned, String>>,
}

/// The Tune screen's state.
#[derive(Default)]
pub struct Tune {
    /// The system to fit; `None` until the screen first sees a ladder (then its own).
    pub system: Option<System>,
    /// The parameters ticked for fitting.
    pub chosen: Vec<&'static str>,
    /// Let the fit choose the parameters itself (the ticks are then not read).
    pub auto: bool,
    /// "Fit on matches before", as typed; empty: the first 70 % of the log.
    pub until: String,
    pub result: Option<Box<Tuned>>,
    pub error: Option<String>,
    running: Option<Running>,
}

impl Tune {
    fn choose_system(&mut self, system: System) {
        self.system = Some(system);
        self.chosen = fit::default_params(system).to_vec();
    }

    /// Whether a fit is running.
    pub fn busy(&self) -> bool {
        self.running.is_some()
    }

    /// The share of the running fit done, 0 to 1.
    pub fn progress(&self) -> Option<f32> {
        self.running
            .as_ref()
            .map(|r| r.permille.load(Ordering::Relaxed) as f32 / 1000.0)
    }

    /// Starts fitting the chosen parameters of the chosen system on the ladder at `file`,
    /// whose rules are `own` (the starting point when the system is the ladder's own).
    pub fn start(&mut self, file: &Path, own: &Rules) -> Result<(), String> {
        if self.running.is_some() {
            return Err("a fit is running".into());
        }
        if self.system.is_none() {
            self.choose_system(own.system());
        }
        let system = self.system.unwrap_or(own.system());
        if self.chosen.is_empty() && !self.auto {
            return Err("tick at least one parameter to fit".into());
        }
        let until = match self.until.trim() {
            "" => None,
            text => Some(
                rungs_gate::parse_day(&Default::default(), "Fit on matches before", text)
                    .map_err(|e| e.to_string())?,
            ),
        };
        let start = if system == own.system() {
            own.clone()
        } else {
            own.defaults_for(system)
        };
        let names = (!self.auto).then(|| self.chosen.clone());
        let file: PathBuf = file.to_path_buf();
        let permille = Arc::new(AtomicU64::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let (p, c) = (permille.clone(), cancel.clone());
        std::thread::spawn(move || {
            let answer = run(&file, &start, names.as_deref(), until, &p, &c);
            let _ = tx.send(answer);
        });
        self.error = None;
        self.running = Some(Running {
            permille,
            cancel,
            answer: rx,
        });
        Ok(())
    }

    pub fn cancel(&self) {
        if let Some(r) = &self.running {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes the fit's answer once it is there; true when it landed this call.
    pub fn poll(&mut self) -> bool {
        let Some(r) = &self.running else {
            return false;
        };
        let answer = match r.answer.try_recv() {
            Ok(a) => a,
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => Err("the fit stopped unexpectedly".into()),
        };
        self.running = None;
        match answer {
            Ok(t) => self.result = Some(Box::new(t)),
            Err(e) => self.error = Some(e),
        }
        true
    }

    /// Waits for the running fit (tests; the screen polls).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            match r.answer.recv() {
                Ok(Ok(t)) => self.result = Some(Box::new(t)),
                Ok(Err(e)) => self.error = Some(e),
                Err(_) => self.error = Some("the fit stopped unexpectedly".into()),
            }
        }
    }
}

/// The fit, its curves and the baseline, off the UI thread. Progress: the search to 85 %,
/// the curves to 100 %.
fn run(
    file: &Path,
    start: &Rules,
    names: Option<&[&'static str]>,
    until: Option<chrono::NaiveDate>,
    permille: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<Tuned, String> {
    let store = Store::open(file).map_err(|e| e.to_string())?;
    let events = store.effective().map_err(|e| e.to_string())?;
    let until = match until {
        Some(d) => d,
        None => fit::default_split(&events).ok_or("no played matches to fit on")?,
    };
    let report = |share: f64| {
        permille.store((share.clamp(0.0, 1.0) * 1000.0) as u64, Ordering::Relaxed);
        !cancel.load(Ordering::Relaxed)
    };
    let mut progress = |done: u64, planned: u64| report(0.85 * done as f64 / planned.max(1) as f64);
    let fitted = match names {
        Some(names) => fit::fit(start, names, &events, until, &mut progress),
        // As `rungs fit` without names: a system that predicts draws lowers the three-outcome
        // log-loss, which alone tells apart what shapes only the draws.
        None => {
            let objective = if start.system().facts().draws {
                fit::Objective::ThreeOutcome
            } else {
                fit::Objective::Expected
            };
            fit::choose::fit_auto(start, &events, until, objective, &mut progress)
        }
    }
    .map_err(|e| e.to_string())?;
    let mut curves = Vec::with_capacity(fitted.params.len());
    let count = fitted.params.len().max(1) as f64;
    for (i, p) in fitted.params.iter().enumerate() {
        let curve = fit::profile(
            &fitted.rules,
            p.name,
            &events,
            until,
            CURVE_POINTS,
            &mut |done, total| {
                report(0.85 + 0.15 * (i as f64 + done as f64 / total.max(1) as f64) / count)
            },
        )
        .map_err(|e| e.to_string())?;
        curves.push((p.name, curve));
    }
    let baseline = fit::score_split(&Rules::defaults(System::Elo), &events, until)
        .map_err(|e| e.to_string())?;
    Ok(Tuned {
        fit: fitted,
        baseline,
        curves,
    })
}

/// The Tune screen. `file` is the open ladder's file, `ladder` the ladder as it stands.
pub fn show(
    ui: &mut egui::Ui,
    tune: &mut Tune,
    file: Option<&Path>,
    ladder: &Ladder,
    out: &mut Vec<Command>,
) {
    let Some(file) = file else {
        ui.label("Open or create a ladder first (File menu).");
        return;
    };
    if tune.system.is_none() {
        tune.choose_system(ladder.rules.system());
    }
    if tune.poll() || tune.busy() {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(100));
    }
    // The form, the scores and the curves run past a small window's height (at 560 × 420 the
    // curves began below its bottom edge): the page scrolls.
    egui::ScrollArea::vertical()
        .id_salt("tune-page")
        .auto_shrink([false, false])
        .show(ui, |ui| page(ui, tune, file, ladder, out));
}

/// The page below the screen's tab: the form, the Fit button, and the result.
fn page(ui: &mut egui::Ui, tune: &mut Tune, file: &Path, ladder: &Ladder, out: &mut Vec<Command>) {
    ui.label(
        "Fit a system's parameters to this ladder's history: the values that predict the \
         matches before the date best (log-loss), scored on the matches from it on, which the \
         fit never sees.",
    );
    form(ui, tune);
    ui.horizontal(|ui| {
        let busy = tune.busy();
        if ui.add_enabled(!busy, egui::Button::new("Fit")).clicked()
            && let Err(e) = tune.start(file, &ladder.rules)
        {
            tune.error = Some(e);
        }
        if let Some(share) = tune.progress() {
            ui.add(
                egui::ProgressBar::new(share)
                    .desired_width(240.0)
                    .show_percentage(),
            );
            if ui.button("Cancel").clicked() {
                tune.cancel();
            }
        }
        let applicable = tune.result.as_ref().filter(|t| t.fit.rules != ladder.rules);
        if ui
            .add_enabled(
                !busy && applicable.is_some(),
                egui::Button::new("Apply as rules change…"),
            )
            .clicked()
            && let Some(t) = applicable
        {
            out.push(Command::PreviewRules(t.fit.rules.clone(), String::new()));
        }
    });
    if let Some(e) = &tune.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let Some(t) = &tune.result {
        results(ui, t);
    }
}

/// System, the parameters to fit, and the date.
fn form(ui: &mut egui::Ui, tune: &mut Tune) {
    let Some(mut system) = tune.system else {
        return;
    };
    // Wrapped: at 560 points the date's note goes to a line of its own.
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("System");
        egui::ComboBox::from_id_salt("tune-system")
            .selected_text(system.label())
            .show_ui(ui, |ui| {
                for s in System::ALL {
                    ui.selectable_value(&mut system, s, s.label());
                }
            })
            .response
            .labelled_by(label.id);
        let label = ui.label("Fit on matches before");
        ui.add(
            egui::TextEdit::singleline(&mut tune.until)
                .hint_text("YYYY-MM-DD")
                .desired_width(110.0),
        )
        .labelled_by(label.id);
        // Beside the field, not in its hint: in 220 points the hint was cut to "(empty: the
        // first 7…".
        ui.weak("empty: the first 70 % of the matches");
    });
    if Some(system) != tune.system {
        tune.choose_system(system);
    }
    ui.checkbox(&mut tune.auto, "Let the fit choose the parameters")
        .on_hover_text(
            "each parameter moved alone on the matches before the date; those that predict \
             better are fitted together",
        );
    let ticks = !tune.auto;
    ui.add_enabled_ui(ticks, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Parameters to fit:");
            for p in system.facts().params {
                let mut on = tune.chosen.contains(&p.name);
                if ui
                    .checkbox(&mut on, p.label)
                    .on_hover_text(format!("{}: {} ({})", p.name, p.meaning, p.range_text()))
                    .changed()
                {
                    tune.chosen.retain(|n| *n != p.name);
                    if on {
                        tune.chosen.push(p.name);
                    }
                }
            }
        })
    });
}

fn loss(s: &rungs_analysis::evaluate::Score) -> String {
    if s.matches == 0 {
        "—".into()
    } else {
        format!("{:.4}", s.log_loss)
    }
}

/// The scores, the fitted values, the curves and the calibration.
fn results(ui: &mut egui::Ui, t: &Tuned) {
    let f = &t.fit;
    ui.add_space(6.0);
    // The screens' words, not the log's: "Skyweaver, Side advantage 134", not "advantage=134".
    ui.label(RichText::new(super::words::rules(&f.rules)).strong());
    let rows: Vec<Vec<String>> = [false, true]
        .iter()
        .map(|&test| {
            let mut row = vec![if test { "test" } else { "train" }.to_string()];
            for s in [&f.defaults, &f.fitted, &t.baseline] {
                row.push(loss(if test { &s.test } else { &s.train }));
            }
            row
        })
        .collect();
    widgets::text_table(
        ui,
        "tune-scores",
        &["log-loss", "defaults", "fitted", "Elo, K factor 32"],
        &[80.0, 90.0, 90.0, 130.0],
        &rows,
    );
    ui.label(format!(
        "log-loss; train: the {} matches before {}, test: the {} from it on",
        f.fitted.train.matches, f.until, f.fitted.test.matches
    ));
    ui.horizontal_wrapped(|ui| {
        for p in &f.params {
            let edge = if p.at_bound {
                " (edge of its range)"
            } else {
                ""
            };
            ui.label(format!("{} {} → {}{edge}", p.label, p.start, p.fitted));
        }
    });
    let width = (ui.available_width() / (t.curves.len() + 1) as f32 - 8.0).max(160.0);
    ui.horizontal_wrapped(|ui| {
        for (name, curve) in &t.curves {
            let param = f.params.iter().find(|p| p.name == *name);
            let fitted = param.map(|p| p.fitted);
            let label = param.map_or(*name, |p| p.label);
            ui.vertical(|ui| {
                // Each column as wide as its plot, its words wrapped to it: a long "flat: …"
                // line widened the column and pushed the next plot past an 800-point window.
                ui.set_max_width(width);
                ui.label(format!("log-loss vs {label}"));
                // The fitted value in words, as the line above writes it ("31.9", where this
                // said "32"): in a 160-px plot the axis may not name it.
                if let Some(x) = fitted {
                    ui.weak(format!("{label} fitted at {x} (the dot)"));
                }
                // The view held to the curve's own x range (never below the parameter's
                // floor: a deviation is not negative), round marks across it with room for
                // their labels on both axes (five even ticks read 17, 26, 35, 44, 53, and
                // egui's y axis named 0.71 alone), and a flat curve shown around its value,
                // said in words.
                let floor = f
                    .rules
                    .system()
                    .param(name)
                    .map_or(f64::NEG_INFINITY, |p| p.min);
                let view = rungs_chart::ticks::curve_view(curve, floor);
                if view.is_some_and(|v| v.flat) {
                    ui.weak(format!(
                        "flat: {label} changes no prediction over this range"
                    ));
                }
                let mut plot = Plot::new(format!("tune-curve-{name}"));
                if let Some(v) = view {
                    plot = plot
                        .default_x_bounds(v.x[0], v.x[1])
                        .default_y_bounds(v.y[0], v.y[1]);
                }
                plot.width(width)
                    .height(160.0)
                    .allow_scroll(false)
                    .custom_x_axes(vec![labelled_x_axis("")])
                    .x_grid_spacer(labelled_x_marks)
                    .custom_y_axes(vec![labelled_y_axis("")])
                    .y_grid_spacer(labelled_y_marks)
                    .show(ui, |p| {
                        p.line(Line::new("train log-loss", PlotPoints::from(curve.clone())));
                        if let Some(x) = fitted
                            && let Some(pt) = curve.iter().find(|q| q[0] == x)
                        {
                            p.points(Points::new("fitted", vec![*pt]).radius(4.0));
                        }
                    });
            });
        }
        ui.vertical(|ui| {
            ui.set_max_width(width);
            ui.label("calibration (test)");
            calibration_plot(ui, "tune-calibration", &f.fitted.test.calibration, width);
        });
    });
}
