//! Grid marks and tick labels for a date x-axis (x = days since 1970-01-01), at the calendar's
//! own boundaries — Mondays, firsts of months, new years — rather than at round day counts.

use super::x::{date_x, x_date};
use chrono::{Datelike, NaiveDate};

#[derive(Debug, Clone, Copy)]
enum Step {
    Days(i64),
    Months(i32),
    Years(i32),
}

impl Step {
    fn days(self) -> f64 {
        match self {
            Step::Days(n) => n as f64,
            Step::Months(n) => 30.44 * f64::from(n),
            Step::Years(n) => 365.25 * f64::from(n),
        }
    }
}

const STEPS: [Step; 17] = [
    Step::Days(1),
    Step::Days(7),
    Step::Months(1),
    Step::Months(3),
    Step::Months(6),
    Step::Years(1),
    Step::Years(2),
    Step::Years(5),
    Step::Years(10),
    Step::Years(20),
    Step::Years(50),
    Step::Years(100),
    Step::Years(200),
    Step::Years(500),
    Step::Years(1000),
    Step::Years(2000),
    Step::Years(5000),
];

/// Grid marks between `x_min` and `x_max` as `[x, step in days]`: the finest calendar step
/// (day, week, month, quarter, half-year, 1–5000 years) that gives at most `max_marks`
/// (at least 1). Empty for an unusable range.
pub fn date_grid(x_min: f64, x_max: f64, max_marks: usize) -> Vec<[f64; 2]> {
    let (Some(from), Some(to)) = (x_date(x_min), x_date(x_max)) else {
        return Vec::new();
    };
    if from > to {
        return Vec::new();
    }
    let span = x_max - x_min;
    let max_marks = max_marks.max(1) as f64;
    let Some(step) = STEPS.into_iter().find(|s| span / s.days() <= max_marks) else {
        return Vec::new();
    };
    let dates = match step {
        Step::Days(n) => days(from, to, n),
        Step::Months(n) => months(from, to, n),
        Step::Years(n) => years(from, to, n),
    };
    dates
        .into_iter()
        .map(date_x)
        .filter(|x| *x >= x_min && *x <= x_max)
        .map(|x| [x, step.days()])
        .collect()
}

/// Every `n`-th day from `from`; weeks start on Mondays.
fn days(from: NaiveDate, to: NaiveDate, n: i64) -> Vec<NaiveDate> {
    let start = if n == 7 {
        let back = i64::from(from.weekday().num_days_from_monday());
        let monday = from - chrono::Days::new(back.unsigned_abs());
        if monday < from {
            monday + chrono::Days::new(7)
        } else {
            monday
        }
    } else {
        from
    };
    let mut out = Vec::new();
    let mut d = start;
    while d <= to {
        out.push(d);
        let Some(next) = d.checked_add_days(chrono::Days::new(n.unsigned_abs())) else {
            break;
        };
        d = next;
    }
    out
}

/// The first of every month whose number (from January, 0) is a multiple of `n`.
fn months(from: NaiveDate, to: NaiveDate, n: i32) -> Vec<NaiveDate> {
    let mut out = Vec::new();
    let (mut y, mut m) = (from.year(), from.month0() as i32);
    while (y, m) <= (to.year(), to.month0() as i32) {
        if m % n == 0
            && let Some(d) = NaiveDate::from_ymd_opt(y, m as u32 + 1, 1)
        {
            out.push(d);
        }
        m += 1;
        if m == 12 {
            (y, m) = (y + 1, 0);
        }
    }
    out
}

/// 1 January of every year that is a multiple of `n`.
fn years(from: NaiveDate, to: NaiveDate, n: i32) -> Vec<NaiveDate> {
    let first = from.year().div_euclid(n) * n;
    (0..)
        .map(|k| first + k * n)
        .take_while(|y| *y <= to.year())
        .filter_map(|y| NaiveDate::from_ymd_opt(y, 1, 1))
        .collect()
}

/// A tick's label at the step's resolution: `2026` for yearly marks, `2026-11` for monthly,
/// `2026-11-20` for finer.
pub fn format_date_tick(x: f64, step_days: f64) -> String {
    let Some(d) = x_date(x) else {
        return String::new();
    };
    if step_days >= 365.0 {
        d.format("%Y").to_string()
    } else if step_days >= 28.0 {
        d.format("%Y-%m").to_string()
    } else {
        d.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(y: i32, m: u32, d: u32) -> f64 {
        date_x(NaiveDate::from_ymd_opt(y, m, d).unwrap())
    }

    #[test]
    fn weeks_fall_on_mondays() {
        let marks = date_grid(x(2026, 11, 1), x(2026, 11, 30), 6);
        let dates: Vec<String> = marks.iter().map(|m| format_date_tick(m[0], m[1])).collect();
        assert_eq!(
            dates,
            [
                "2026-11-02",
                "2026-11-09",
                "2026-11-16",
                "2026-11-23",
                "2026-11-30"
            ]
        );
    }

    #[test]
    fn months_and_years() {
        let marks = date_grid(x(2026, 1, 15), x(2026, 12, 31), 12);
        assert_eq!(marks.len(), 11); // February to December
        assert_eq!(format_date_tick(marks[0][0], marks[0][1]), "2026-02");
        let marks = date_grid(x(1872, 11, 30), x(2026, 6, 1), 10);
        let labels: Vec<String> = marks.iter().map(|m| format_date_tick(m[0], m[1])).collect();
        assert_eq!(
            labels,
            [
                "1880", "1900", "1920", "1940", "1960", "1980", "2000", "2020"
            ]
        );
    }

    #[test]
    fn unusable_ranges_give_nothing() {
        assert!(date_grid(f64::NAN, 1.0, 5).is_empty());
        assert!(date_grid(10.0, 1.0, 5).is_empty());
        assert!(date_grid(0.0, 1e9, 5).is_empty());
        assert_eq!(date_grid(0.0, 0.0, 0).len(), 1);
    }
}
