//! The two ways to count a solution's length.
//!
//! - [`Metric::Stm`], the single-tile metric: every tile slid one cell counts 1 (taquin's
//!   `length`, the literature's usual count: 80 for the hardest 15-puzzles).
//! - [`Metric::Mtm`], the multi-tile metric: sliding a run of tiles of one row or column at once
//!   counts 1, however many tiles move (43 for the hardest 15-puzzles; Norskog & Davidson 2010).
//!   In the blank's moves, a maximal run of one letter (`LLL`) is one such slide.

use crate::moves::Move;

/// A way of counting moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Metric {
    /// Single-tile moves: one per cell the blank moves.
    #[default]
    Stm,
    /// Multi-tile moves: one per run of the blank in one direction.
    Mtm,
}

impl Metric {
    /// Both metrics.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// The name used by `--metric` and in JSON: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// The metric with this name (any case), if any.
    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The length of `moves` in this metric.
    pub fn length(self, moves: &[Move]) -> usize {
        match self {
            Metric::Stm => moves.len(),
            Metric::Mtm => crate::notation::runs(moves).count(),
        }
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The length of `moves` in both metrics: `(stm, mtm)`.
///
/// ```
/// let moves = taquin::moves::parse_moves("UULLLDR")?;
/// assert_eq!(taquin::metric::metrics(&moves), (7, 4));
/// # Ok::<(), taquin::moves::MoveParseError>(())
/// ```
pub fn metrics(moves: &[Move]) -> (usize, usize) {
    (Metric::Stm.length(moves), Metric::Mtm.length(moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::parse_moves;

    #[test]
    fn runs_count_once_in_mtm() {
        assert_eq!(metrics(&[]), (0, 0));
        assert_eq!(metrics(&parse_moves("U").unwrap()), (1, 1));
        assert_eq!(metrics(&parse_moves("UD").unwrap()), (2, 2));
        assert_eq!(metrics(&parse_moves("RRRDDLUU").unwrap()), (8, 4));
        assert_eq!(Metric::from_name("MTM"), Some(Metric::Mtm));
    }
}
