//! Limits on a search: a node budget, a deadline, a memory budget and a cancel flag, plus the
//! progress callback through which a long search reports how far it got.
//!
//! Searches check limits every [`Limits::CHECK_EVERY`] nodes so that the check costs nothing
//! measurable in the inner loop, and a cancel or deadline is still seen within milliseconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a search may spend before it gives up. `Limits::default()` is unlimited.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when the open and closed sets of a memory-bound search (A*, BFS) would exceed this
    /// many bytes (estimated from their entry counts), instead of being killed by the system.
    pub max_memory_bytes: Option<usize>,
    /// Stop as soon as this flag becomes true (set from another thread, e.g. on Ctrl-C or when a
    /// web client goes away).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Which limit stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    /// The node budget ran out.
    Nodes,
    /// The deadline passed.
    Time,
    /// The memory budget would have been exceeded.
    Memory,
    /// The cancel flag was raised.
    Cancelled,
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitHit::Nodes => "node limit reached",
            LimitHit::Time => "time limit reached",
            LimitHit::Memory => "memory limit reached",
            LimitHit::Cancelled => "cancelled",
        })
    }
}

impl Limits {
    /// How many nodes a search may generate between two checks of the limits.
    pub const CHECK_EVERY: u64 = 1 << 14;

    /// Default memory budget for A* and BFS when none is given: 4 GiB, well inside the machine.
    pub const DEFAULT_MEMORY: usize = 4 << 30;

    /// No limit at all.
    pub fn none() -> Limits {
        Limits::default()
    }

    /// A limit of `timeout` from now.
    pub fn with_timeout(mut self, timeout: Duration) -> Limits {
        self.deadline = Some(Instant::now() + timeout);
        self
    }

    /// A node budget.
    pub fn with_max_nodes(mut self, nodes: u64) -> Limits {
        self.max_nodes = Some(nodes);
        self
    }

    /// A memory budget in bytes.
    pub fn with_max_memory(mut self, bytes: usize) -> Limits {
        self.max_memory_bytes = Some(bytes);
        self
    }

    /// A cancel flag shared with the caller.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(flag);
        self
    }

    /// The memory budget in force: the one given, or [`Limits::DEFAULT_MEMORY`].
    pub fn memory_budget(&self) -> usize {
        self.max_memory_bytes.unwrap_or(Limits::DEFAULT_MEMORY)
    }

    /// Checks node budget, cancel flag and deadline, in that order (cheapest first).
    pub fn check(&self, generated: u64) -> Result<(), LimitHit> {
        if self.max_nodes.is_some_and(|m| generated >= m) {
            return Err(LimitHit::Nodes);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(LimitHit::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(LimitHit::Time);
        }
        Ok(())
    }

    /// Checks the memory budget against an estimate of bytes in use.
    pub fn check_memory(&self, bytes: usize) -> Result<(), LimitHit> {
        if bytes > self.memory_budget() {
            Err(LimitHit::Memory)
        } else {
            Ok(())
        }
    }
}

/// A snapshot of a running search, handed to the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Nodes generated so far.
    pub generated: u64,
    /// Nodes expanded so far.
    pub expanded: u64,
    /// The current f-bound (IDA*) or the smallest f on the open list (A*): a proven lower bound
    /// on the solution length.
    pub bound: u32,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The progress callback type: called every few thousand nodes and at each new IDA* bound.
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_limit_trips() {
        assert_eq!(Limits::none().check(u64::MAX), Ok(()));
        assert_eq!(
            Limits::none().with_max_nodes(10).check(10),
            Err(LimitHit::Nodes)
        );
        let flag = Arc::new(AtomicBool::new(false));
        let l = Limits::none().with_cancel(flag.clone());
        assert_eq!(l.check(0), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(l.check(0), Err(LimitHit::Cancelled));
        let l = Limits::none().with_timeout(Duration::ZERO);
        assert_eq!(l.check(0), Err(LimitHit::Time));
        assert_eq!(
            Limits::none().with_max_memory(10).check_memory(11),
            Err(LimitHit::Memory)
        );
    }
}
