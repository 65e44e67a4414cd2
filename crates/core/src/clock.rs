//! The clock of every time limit and timing figure. `std::time::Instant` panics in a browser
//! (wasm32-unknown-unknown has no system clock), so there it is `web_time::Instant`, which reads
//! `performance.now()`; everywhere else it is the standard one.

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

use std::time::Duration;

/// Time since a start, plus the time of earlier sittings of the same work: a search resumed
/// from its checkpoint counts the time it had already spent. Kept apart from the start
/// rather than by moving the start back, which a clock that cannot go back before the
/// machine started (Windows, just after boot) would refuse.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    since: Instant,
    before: Duration,
}

impl Stopwatch {
    /// A stopwatch started now, with `before` already on it.
    pub fn resumed(before: Duration) -> Stopwatch {
        Stopwatch {
            since: Instant::now(),
            before,
        }
    }

    /// A stopwatch started now.
    pub fn start() -> Stopwatch {
        Stopwatch::resumed(Duration::ZERO)
    }

    /// The time of earlier sittings plus the time since the start.
    pub fn elapsed(&self) -> Duration {
        self.before + self.since.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resumed_stopwatch_counts_the_earlier_sittings() {
        // Far more than this process (or the machine) has been running: the start cannot be
        // moved back that far on every platform, and need not be.
        let long_ago = Duration::from_secs(10 * 365 * 24 * 3600);
        let watch = Stopwatch::resumed(long_ago);
        assert!(watch.elapsed() >= long_ago);
        assert!(watch.elapsed() < long_ago + Duration::from_secs(3600));
        assert!(Stopwatch::start().elapsed() < Duration::from_secs(3600));
    }
}
