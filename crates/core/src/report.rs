//! The machine-readable shape of a solve, shared by the CLI's `--json`, the web API and the
//! bindings so the field names are the same everywhere: `moves`, `length`, `optimal`,
//! `lower_bound`, `algorithm`, `heuristic`, `expanded`, `generated`, `time_ms`, `plan`.

use crate::notation::Notation;
use crate::solution::Solution;

/// A duration as the machine-readable outputs give it (`time_ms`): milliseconds, to the
/// microsecond. Unrounded, a float prints as 7.9930829999999995.
///
/// ```
/// assert_eq!(taquin::report::millis(std::time::Duration::from_nanos(7_993_083)), 7.993);
/// ```
pub fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// A count as people read it, its digits grouped by thousands: `1,234,567`. Any unsigned
/// integer type (counts of states of large boards need 128 bits).
///
/// ```
/// assert_eq!(taquin::report::thousands(1_234_567u64), "1,234,567");
/// assert_eq!(taquin::report::thousands(999u32), "999");
/// assert_eq!(taquin::report::thousands(u128::MAX).len(), 51);
/// ```
pub fn thousands(n: impl Into<u128>) -> String {
    let n: u128 = n.into();
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count and its noun, singular for one: `1 node`, `1,234 nodes`, `0 moves` (the noun is
/// given in the singular; its plural adds an `s`).
///
/// ```
/// assert_eq!(taquin::report::counted(1u64, "node"), "1 node");
/// assert_eq!(taquin::report::counted(1_234u64, "node"), "1,234 nodes");
/// assert_eq!(taquin::report::counted(0u32, "multi-tile move"), "0 multi-tile moves");
/// ```
pub fn counted(n: impl Into<u128>, noun: &str) -> String {
    let n: u128 = n.into();
    let s = if n == 1 { "" } else { "s" };
    format!("{} {noun}{s}", thousands(n))
}

/// A solve as reported to machines. With the `serde` feature it serialises to exactly these
/// field names.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SolveReport {
    /// The moves as letters (direction the blank moves), e.g. `"DLLURR"`.
    pub moves: String,
    /// Number of moves (single-tile moves, STM).
    pub length: usize,
    /// Number of multi-tile moves (MTM): a run of tiles of one row or column slid at once
    /// counts 1 ([`crate::metric::metrics`]).
    pub mtm_length: usize,
    /// True when proven optimal.
    pub optimal: bool,
    /// The best proven lower bound on the optimal length (`length` when optimal).
    pub lower_bound: u64,
    /// Algorithm name, as accepted on input.
    pub algorithm: String,
    /// Heuristic name, as accepted on input (`none` for BFS).
    pub heuristic: String,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// Wall-clock milliseconds, to the microsecond ([`millis`]).
    pub time_ms: f64,
    /// IDA* iterations (0 for other searches).
    pub iterations: u32,
    /// Peak estimated bytes of open and closed sets (0 where there are none).
    pub peak_memory_bytes: usize,
    /// The planner's decision in one line.
    pub plan: String,
    /// The factor the solution is proven to be within of the optimum
    /// ([`Solution::suboptimality_bound`]): 1 when optimal, null when nothing is proven.
    pub suboptimality_bound: Option<f64>,
}

impl SolveReport {
    /// The names every front end's solve record carries (CLI `--json` and `batch`, web API,
    /// Python results), for tests and tools that check them.
    pub const FIELDS: [&'static str; 11] = [
        "moves",
        "length",
        "optimal",
        "lower_bound",
        "algorithm",
        "heuristic",
        "expanded",
        "generated",
        "time_ms",
        "plan",
        "suboptimality_bound",
    ];

    /// The report of `solution` (which names its algorithm, heuristic and plan).
    pub fn new(solution: &Solution) -> SolveReport {
        SolveReport {
            moves: solution.letters(),
            ..SolveReport::summary(solution)
        }
    }

    /// The report with its `moves` written in `notation` (the API's `notation` field).
    pub fn in_notation(mut self, solution: &Solution, notation: Notation) -> SolveReport {
        // Blank letters are what `new` wrote: no second copy of a long solution.
        if notation != Notation::Blank || self.moves.len() != solution.len() {
            self.moves = notation.format(&solution.moves);
        }
        self
    }

    /// The report with an empty `moves` string (every other field filled, `length` too), for
    /// writers that stream billions of move letters instead of holding them as one string.
    pub fn summary(solution: &Solution) -> SolveReport {
        SolveReport {
            moves: String::new(),
            length: solution.len(),
            mtm_length: crate::metric::Metric::Mtm.length(&solution.moves),
            optimal: solution.optimal,
            lower_bound: solution.lower_bound,
            algorithm: solution.algorithm.clone(),
            heuristic: solution.heuristic.clone(),
            expanded: solution.stats.expanded,
            generated: solution.stats.generated,
            time_ms: millis(solution.stats.elapsed),
            iterations: solution.stats.iterations,
            peak_memory_bytes: solution.stats.peak_memory_bytes,
            plan: solution.plan.clone(),
            suboptimality_bound: solution.suboptimality_bound(),
        }
    }
}
