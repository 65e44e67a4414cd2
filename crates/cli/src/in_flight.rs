//! The status of the instances a run is solving, shown beside its progress bar: a 24-puzzle
//! instance can take an hour, and a bar that counts finished instances alone would not move.

use std::collections::BTreeMap;
use std::sync::Mutex;

use indicatif::ProgressBar;
use taquin::Progress;

/// What each instance under way last reported, shown as the bar's message.
pub struct InFlight {
    bar: ProgressBar,
    /// By instance ID: its last report, with the best solution any report gave.
    running: Mutex<BTreeMap<String, Status>>,
}

/// An instance's progress as shown.
#[derive(Debug, Clone, Copy)]
struct Status {
    bound: u32,
    best: Option<u32>,
    generated: u64,
}

impl InFlight {
    /// The status of the instances solved under `bar` (nothing is done for a hidden bar).
    pub fn new(bar: &ProgressBar) -> InFlight {
        InFlight {
            bar: bar.clone(),
            running: Mutex::new(BTreeMap::new()),
        }
    }

    /// Instance `id` reported `p`: its bound (a proven lower bound), the best solution in hand
    /// (IDA*'s own reports carry none: the one the beams beside it reported stays), and its
    /// nodes so far.
    pub fn update(&self, id: &str, p: &Progress) {
        if self.bar.is_hidden() {
            return;
        }
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let before = running.get(id).and_then(|s| s.best);
        let status = Status {
            bound: p.bound,
            best: p.best.or(before),
            generated: p.generated,
        };
        running.insert(id.to_string(), status);
        self.show(&running);
    }

    /// Instance `id` is over.
    pub fn done(&self, id: &str) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.remove(id).is_some() {
            self.show(&running);
        }
    }

    /// The line shows as much of it as the terminal's width leaves (`{wide_msg}`).
    fn show(&self, running: &BTreeMap<String, Status>) {
        let line: Vec<String> = running
            .iter()
            .map(|(id, s)| {
                let best = s.best.map_or(String::new(), |b| format!(" best {b}"));
                format!("#{id} >= {}{best} {}", s.bound, nodes(s.generated))
            })
            .collect();
        self.bar.set_message(line.join("; "));
    }
}

/// A node count in three significant digits at most: `950`, `12.3 k`, `4.56 G` (rounded
/// first, so that 999,999 is `1.00 M`, not `1000 k`).
fn nodes(n: u64) -> String {
    if n < 1_000 {
        return n.to_string();
    }
    let mut value = n as f64;
    let units = ["k", "M", "G", "T", "P", "E"];
    for (i, unit) in units.iter().enumerate() {
        value /= 1e3;
        if value < 999.5 || i + 1 == units.len() {
            let digits = if value < 9.995 {
                2
            } else if value < 99.95 {
                1
            } else {
                0
            };
            return format!("{value:.digits$} {unit}");
        }
    }
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::tests::Screen;
    use std::time::Duration;

    fn report(bound: u32, best: Option<u32>, generated: u64) -> Progress {
        Progress {
            generated,
            expanded: 0,
            bound,
            elapsed: Duration::ZERO,
            best,
            best_moves: None,
        }
    }

    #[test]
    fn node_counts_are_short() {
        assert_eq!(nodes(950), "950");
        assert_eq!(nodes(12_345), "12.3 k");
        assert_eq!(nodes(1_234_567), "1.23 M");
        assert_eq!(nodes(456_000_000_000), "456 G");
        // Rounded before the unit is chosen: three digits, never four.
        assert_eq!(nodes(9_999), "10.0 k");
        assert_eq!(nodes(99_960), "100 k");
        assert_eq!(nodes(999_999), "1.00 M");
        assert_eq!(nodes(u64::MAX), "18.4 E");
    }

    #[test]
    fn each_instance_under_way_shows_its_last_report_until_it_is_done() {
        let bar = ProgressBar::with_draw_target(Some(3), indicatif::ProgressDrawTarget::hidden());
        // A hidden bar shows nothing, and costs nothing.
        let hidden = InFlight::new(&bar);
        hidden.update("7", &report(98, None, 1));
        assert_eq!(bar.message(), "");

        let bar = ProgressBar::with_draw_target(
            Some(3),
            indicatif::ProgressDrawTarget::term_like(Box::new(Screen::default())),
        );
        let in_flight = InFlight::new(&bar);
        in_flight.update("7", &report(98, None, 1_234_567));
        in_flight.update("12", &report(104, Some(108), 5));
        in_flight.update("7", &report(100, None, 2_000_000));
        assert_eq!(bar.message(), "#12 >= 104 best 108 5; #7 >= 100 2.00 M");
        // IDA*'s own reports carry no solution: the beams' stays.
        in_flight.update("12", &report(106, None, 7_000));
        assert_eq!(
            bar.message(),
            "#12 >= 106 best 108 7.00 k; #7 >= 100 2.00 M"
        );
        in_flight.done("12");
        assert_eq!(bar.message(), "#7 >= 100 2.00 M");
        in_flight.done("7");
        assert_eq!(bar.message(), "");
    }
}
