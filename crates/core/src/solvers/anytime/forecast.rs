//! When the prover gives its core to the improver: an IDA* iteration raises the lower bound
//! only once it is complete, so one that cannot end before the deadline is wasted work, unless
//! it finds a solution on the way. Each iteration generates several times the nodes of the one
//! before (on a 7x7 board with linear conflict, 24 and 23 times: 0.08 s, then 1.7 s, then more
//! than the 28 s left of a 30 s run), so the next one's time is foreseen from the last two.
//!
//! The prover stops when its iteration under way is foreseen to end after the deadline and the
//! best answer is far above the bound (at least [`FAR_ABOVE`] times it): the optimum is then
//! seldom at the bound, and the core is worth more to the beams. Near the bound (the 24-puzzle
//! with its tables, a few moves apart) the prover keeps searching: it may find an optimal
//! solution before the iteration ends. The choice is made as each iteration begins, with the
//! best answer of that moment (answers only get shorter, so a later look could only keep the
//! prover going more often; looking once leaves no core idle while waiting to look again).

use std::time::Duration;

use crate::limits::Progress;

/// How far above the bound the best answer must be, as a ratio, for the prover to give up an
/// iteration that cannot end in time. On 7x7 boards the answers stand 1.5 times above the
/// bound, on 6x6 ones 1.1-1.3 times, on the 24-puzzle with its tables 1.0-1.05 times.
const FAR_ABOVE: f64 = 1.1;

/// Iterations smaller than this many nodes are too short to foresee the next one from: on a
/// 7x7 scramble, 41 k nodes then 2.7 M (65 times) foresaw 19 s for the next iteration, which
/// took under 10 s.
const MIN_NODES: u64 = 1_000_000;

/// The prover's completed iterations, as (time, nodes generated) when each new bound began.
#[derive(Debug, Default)]
pub(super) struct Forecast {
    bound: u32,
    starts: Vec<(Duration, u64)>,
}

impl Forecast {
    /// Takes the prover's progress `p`; true when it begins a new bound (the iteration before
    /// it is complete), or is the first progress of the search.
    pub fn record(&mut self, p: &Progress) -> bool {
        if !self.starts.is_empty() && p.bound <= self.bound {
            return false;
        }
        self.bound = p.bound;
        self.starts.push((p.elapsed, p.generated));
        true
    }

    /// How long the iteration that began last is foreseen to take: the one before it took
    /// `t` and grew the nodes by `r` over its own predecessor, so this one takes `t * r`.
    /// `None` until two iterations of at least [`MIN_NODES`] nodes are complete.
    pub fn next_iteration(&self) -> Option<Duration> {
        let [.., (_, n0), (t1, n1), (t2, n2)] = self.starts[..] else {
            return None;
        };
        let (before, last) = (n1.saturating_sub(n0), n2.saturating_sub(n1));
        if before < MIN_NODES || last < MIN_NODES {
            return None;
        }
        let growth = (last as f64 / before as f64).max(1.0);
        Some(t2.saturating_sub(t1).mul_f64(growth))
    }

    /// True when the prover should stop: the iteration that began last is foreseen to take
    /// longer than `left` (the time to the deadline), and `best` (the length of the best
    /// answer) is at least [`FAR_ABOVE`] times the bound.
    pub fn give_up(&self, left: Duration, best: usize) -> bool {
        best as f64 >= FAR_ABOVE * f64::from(self.bound)
            && self.next_iteration().is_some_and(|t| t > left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64, generated: u64, bound: u32) -> Progress {
        Progress {
            generated,
            expanded: 0,
            bound,
            elapsed: Duration::from_millis(ms),
            best: None,
            best_moves: None,
        }
    }

    /// The 7x7 board's iterations above: bound 238 at 3 ms (47 k nodes), 240 at 84 ms (1.1 M),
    /// 242 at 1,742 ms (26 M).
    fn seven_by_seven() -> Forecast {
        let mut f = Forecast::default();
        for p in [
            at(0, 6, 234),
            at(3, 47_365, 238),
            at(50, 600_000, 238),
            at(84, 1_134_108, 240),
            at(1_742, 26_177_956, 242),
        ] {
            f.record(&p);
        }
        f
    }

    #[test]
    fn the_next_iteration_is_foreseen_from_the_growth_of_the_last() {
        let f = seven_by_seven();
        // 1.658 s times 25.0 M / 1.09 M nodes (each iteration's own): about 38 s.
        let t = f.next_iteration().unwrap().as_secs_f64();
        assert!((37.0..40.0).contains(&t), "{t}");
        // Progress within a bound is no new iteration.
        let mut g = seven_by_seven();
        assert!(!g.record(&at(2_000, 27_000_000, 242)));
        assert_eq!(g.next_iteration(), f.next_iteration());
    }

    #[test]
    fn small_iterations_foresee_nothing() {
        let mut f = Forecast::default();
        for p in [at(0, 6, 222), at(4, 40_708, 224), at(294, 2_702_058, 226)] {
            f.record(&p);
        }
        assert_eq!(f.next_iteration(), None);
        assert!(!f.give_up(Duration::ZERO, 1_000));
    }

    #[test]
    fn the_prover_gives_up_only_far_from_the_answer_and_short_of_time() {
        let f = seven_by_seven();
        // 28 s left of a 30 s run, the answer 1.5 times the bound: it stops.
        assert!(f.give_up(Duration::from_secs(28), 363));
        // A minute left: the iteration may end in time.
        assert!(!f.give_up(Duration::from_secs(60), 363));
        // The answer a few moves above the bound: the optimum may be found on the way.
        assert!(!f.give_up(Duration::from_secs(28), 250));
    }
}
