//! The improver's schedule: what it runs, in which order, to shorten the best solution.
//!
//! 1. The constructive solver's solution (any board, in milliseconds; [`super::first_solution`]).
//! 2. Beam searches ([`super::beam`]) of growing width, each keeping only paths shorter than the
//!    best so far, their layers expanded on every core, their boards ranked by the heuristic's
//!    lighter form where it has one ([`Incremental::lighter`]). Each beam is four times as wide
//!    as the one before, or as wide as the time left allows: a beam the deadline cuts off gives
//!    nothing, so the last one is sized to end in time. A beam that settles on a plateau short
//!    of the goal is finished from the closest board it kept by the constructive solver. Each
//!    solution is given at once, then refined: the quick post-pass
//!    ([`crate::solvers::shorten`]), windows ending on a board whose blank a flip brings onto
//!    the goal's blank cell re-solved optimally with the goal's heuristic ([`super::windows`]),
//!    longer and longer, then small rectangle windows; on a thread of its own beside the next
//!    beam, unless a node budget bounds the run or in a browser. The first solution gets the
//!    quick post-pass only if the first beam found nothing: on a 7x7 board the pass takes
//!    seconds.
//! 3. When a beam hits the memory budget, or no wider beam fits in the time left, that time
//!    goes to longer windows.
//! 4. Time still left after those (on 7x7 boards, where the prover gives up its core early):
//!    beams of the last width again, or narrower where it no longer fits, each with another
//!    order of ties among boards of equal value ([`super::beam::beam_search`]'s `ties`), while
//!    one fits.
//!
//! Measured against the restarting weighted A* that came before (BENCHMARKS.md): on a random
//! 6x6 board with linear conflict, a beam of 2,048 reached 235 moves where weighted A* with
//! w = 3 stopped at 295; on the 24-puzzle with the 6-6-6-6 databases, beams and windows come
//! within a few percent of the optimum in seconds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::clock::Instant;

use crate::board::Board;
use crate::heuristic::Incremental;
use crate::limits::Limits;
use crate::moves::Move;
use crate::request::Request;
use crate::solution::Stats;
use crate::solvers::constructive::construct_checked;
use crate::solvers::shorten::{shorten_reporting, ShortenOptions};

use super::beam::widest_fitting;
use super::{beam, windows, Shared};

/// Width of the first beam on the 24-puzzle (narrower on larger boards). Measured on Korf & Felner's first five 24-puzzles with the 6-6-6-6,
/// 20 M nodes each (BENCHMARKS.md): starting at 1,024 and growing fourfold gave a mean of
/// 1.021 x the optimum, against 1.025 for 256 or 1,024 growing twofold.
const FIRST_WIDTH: usize = 1024;
/// Narrowest first beam, on the largest boards.
const MIN_FIRST_WIDTH: usize = 32;
/// Each beam is this many times as wide as the one before.
pub(super) const WIDTH_GROWTH: usize = 4;
/// Share of the time left a beam is planned to take: beams do not all cost the same per board
/// (the bound prunes more as solutions shorten; the machine may be busy).
const FIT_MARGIN: f64 = 0.85;
/// Widest beam: about 200 MB a layer on the 24-puzzle, within the default memory budget.
pub(super) const MAX_WIDTH: usize = 1 << 20;

/// Goal-window passes after each beam solution: (window length, IDA* nodes per window).
/// Measured on Korf & Felner's 24-puzzles with the 6-6-6-6: windows of 30 cost microseconds,
/// of 60 a fraction of a second for the whole path.
pub(super) const GOAL_WINDOWS: [(usize, u64); 3] = [(30, 20_000), (45, 100_000), (60, 400_000)];
/// Longer goal windows, for the time left once the beams are over (run after every beam, they
/// cost more than they gain: 1.086 x the optimum against 1.025 on the measurement above).
pub(super) const LONG_GOAL_WINDOWS: [(usize, u64); 3] =
    [(75, 1_000_000), (90, 4_000_000), (110, 16_000_000)];

/// Rectangle-window passes of [`crate::solvers::shorten`]: (window length, cells, node budget).
pub(super) const RECT_WINDOWS: [(usize, usize, u64); 3] =
    [(16, 20, 20_000), (20, 24, 100_000), (24, 30, 400_000)];

/// The improver's thread (see the module documentation). Returns what it spent; its answers
/// are in `shared`.
pub(super) fn improve<H>(request: &Request, h: &H, limits: &Limits, shared: &Shared) -> Stats
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let (board, goal) = (request.board(), request.goal());
    // Nodes spent so far, so that a node budget bounds the improver's work as a whole.
    let spent = AtomicU64::new(0);
    // Nodes the goal windows expanded (the beams count theirs in `stats`).
    let windows_expanded = AtomicU64::new(0);
    let left = || limits.after(spent.load(Ordering::Relaxed));
    let mut stats = Stats::default();
    let stopped = || shared.stop.load(Ordering::Relaxed) || left().check(0).is_err();
    let best = || shared.best.moves().clone();
    // The nodes of a window pass as its searches report them: a pass over a long path takes
    // seconds, and the progress shows them as they go.
    let heard = |generated: u64, expanded: u64| {
        shared.best.improved.add(generated, expanded);
        shared.tick();
    };
    let polish = |moves: Vec<Move>, options: &ShortenOptions| -> Vec<Move> {
        match shorten_reporting(board, goal, &moves, options, &left(), &heard) {
            Ok(s) => {
                spent.fetch_add(s.generated, Ordering::Relaxed);
                // Heard as the searches went; the answer's own counts come from `stats`.
                windows_expanded.fetch_add(s.expanded, Ordering::Relaxed);
                if s.moves.len() < moves.len() {
                    s.moves
                } else {
                    moves
                }
            }
            Err(_) => moves,
        }
    };
    let goal_windows = |passes: &[(usize, u64)]| {
        for &(window, nodes) in passes {
            if stopped() {
                return;
            }
            let moves = best();
            let pass = windows::resolve_goal_windows(
                board,
                goal,
                h,
                &moves,
                window,
                nodes,
                &left(),
                &heard,
            );
            spent.fetch_add(pass.generated, Ordering::Relaxed);
            // Heard as the searches went; the answer's own counts come from `stats`.
            windows_expanded.fetch_add(pass.expanded, Ordering::Relaxed);
            shared.offer(pass.moves);
        }
    };
    let rect_windows = || {
        for (window, max_cells, node_budget) in RECT_WINDOWS {
            if stopped() {
                return;
            }
            let moves = best();
            let options = ShortenOptions {
                window,
                max_cells,
                node_budget,
                passes: 2,
            };
            shared.offer(polish(moves, &options));
        }
    };
    // Each beam's answer is polished (the quick post-pass, then goal and rectangle windows)
    // on a thread of its own while the next beam runs, unless a node budget bounds the run
    // (whose runs are the same every time) or there is one core to run on (a browser, or a
    // search given one: [`Limits::cores`]): on a 7x7 board
    // the polish of a 400-move path takes seconds of one core, which the beams' layers, split
    // over every core only when they are wide, and a prover that gave up its iteration
    // ([`super::forecast`]) leave idle.
    let beside = cfg!(not(target_arch = "wasm32"))
        && limits.max_nodes.is_none()
        && limits.cores_in_use() > 1;
    // The best answer, polished (in turn, it is the beam's answer just offered; beside, the
    // polish before may have shortened it since).
    let quick = || shared.offer(polish(best(), &ShortenOptions::default()));
    let refine = || {
        quick();
        goal_windows(&GOAL_WINDOWS);
        rect_windows();
    };
    let refine = &refine;
    // The beams rank their boards by the lighter heuristic where there is one (the 24-puzzle's
    // combined set: its 6-6-6-6 alone, one table read a move instead of two), the windows
    // re-solve with the full one. Twice as many boards a second: at 60 s a board, Korf &
    // Felner's 50 end at 1.0049 times the optimum against 1.0057 (four boards shorter, two
    // longer: other routes), the same at 10 s (BENCHMARKS.md).
    let lighter = h.lighter();
    let rank = lighter.as_ref().unwrap_or(h);
    // One beam of `width` boards with the `ties`-th order of ties, bounded by the best answer:
    // what it found that is shorter (a beam that settled short of the goal is finished by the
    // constructive solver from the closest board it kept: on 7x7 boards the beams of some
    // widths all do), the limit that stopped it, and its own time (waiting for the polish of
    // the beam before is not part of it).
    let run_beam = |width: usize, ties: usize, stats: &mut Stats| {
        let started = Instant::now();
        let out = beam::beam_search(
            board,
            goal,
            rank,
            width,
            Some(shared.best.len()),
            &left(),
            // Every core it may use: the prover and the polish keep their own threads, so
            // during a wide beam's layers they share those cores (BENCHMARKS.md).
            limits.cores_in_use(),
            &|generated, expanded| {
                shared.best.improved.add(generated, expanded);
                shared.tick();
            },
            ties,
        );
        let took = started.elapsed();
        spent.fetch_add(out.generated, Ordering::Relaxed);
        stats.generated += out.generated;
        stats.expanded += out.expanded;
        stats.peak_memory_bytes = stats.peak_memory_bytes.max(out.peak_memory_bytes);
        let found = out
            .moves
            .or_else(|| {
                let prefix = out.closest.filter(|_| out.limit.is_none())?;
                finish_from(board, goal, prefix, &left())
            })
            .filter(|moves| moves.len() < shared.best.len());
        (found, out.limit, took)
    };
    // The last beam that ended without a limit: its width and time.
    let mut last_beam: Option<(usize, Duration)> = None;
    std::thread::scope(|scope| {
        let mut polishing: Option<std::thread::ScopedJoinHandle<'_, ()>> = None;
        // `all`: the whole polish; otherwise the quick post-pass only.
        let mut polish_next = |all: bool| {
            // One polish at a time: the one before ends first.
            if let Some(previous) = polishing.take() {
                let _ = previous.join();
            }
            if !all {
                quick();
            } else if beside {
                // Where the system refuses a thread (a busy server), the polish runs in turn.
                match std::thread::Builder::new().spawn_scoped(scope, refine) {
                    Ok(handle) => polishing = Some(handle),
                    Err(_) => refine(),
                }
            } else {
                refine();
            }
        };
        // The first solution (the constructive solver's, found before the tables were loaded)
        // is shortened by the quick post-pass once the first beam has had its turn, and only if
        // that beam found nothing: on a large board the pass takes seconds (1.75 s for a
        // 664-move 7x7 answer, to 622 moves) where the first beam gives a far shorter answer.
        let mut first_polished = false;
        let mut width = first_width(board.len());
        while !stopped() && width <= MAX_WIDTH {
            // A beam that would run out of memory before its last layers spends its nodes for
            // nothing: the widest that fits, if wider than the last one.
            let fitting = widest_fitting::<H>(
                board.len(),
                width,
                shared.best.len(),
                limits.memory_budget(),
            );
            if fitting < width {
                match last_beam {
                    Some((last, _)) if fitting <= last => break,
                    _ => width = fitting,
                }
            }
            let (found, limit, took) = run_beam(width, 0, &mut stats);
            match found {
                Some(moves) => {
                    // Given at once, then polished: on a 7x7 board the polish of a beam's path
                    // takes seconds.
                    shared.offer(moves);
                    polish_next(true);
                    // Shorter than the first solution, and polished: it supersedes it.
                    first_polished = true;
                }
                None if !first_polished => {
                    polish_next(false);
                    first_polished = true;
                }
                None => {}
            }
            if limit.is_some() {
                // Out of time or nodes, or cancelled: the windows below stop at once. Out of
                // memory: wider beams would not fit either, and the time left goes to longer
                // windows.
                break;
            }
            last_beam = Some((width, took));
            match next_width(width, took, limits.deadline) {
                Some(next) => width = next,
                None => break,
            }
        }
        if let Some(last) = polishing {
            let _ = last.join();
        }
    });
    goal_windows(&GOAL_WINDOWS);
    goal_windows(&LONG_GOAL_WINDOWS);
    rect_windows();
    // Time still left once no wider beam fitted and the windows are done (on 7x7 boards,
    // where the prover gives up its core early, runs ended seconds before their deadline):
    // beams of the last width again, or narrower where it no longer fits, each with another
    // order of ties, which on such boards end tens of moves apart (BENCHMARKS.md), for as long
    // as one fits.
    if let (Some((mut width, mut took)), Some(deadline)) = (last_beam, limits.deadline) {
        let mut ties = 0;
        while !stopped() {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(narrower) = fitting_width(width, took, left) else {
                break;
            };
            ties += 1;
            let (found, limit, time) = run_beam(narrower, ties, &mut stats);
            if let Some(moves) = found {
                shared.offer(moves);
                refine();
            }
            if limit.is_some() {
                break;
            }
            (width, took) = (narrower, time);
        }
    }
    stats.generated = spent.load(Ordering::Relaxed);
    stats.expanded += windows_expanded.load(Ordering::Relaxed);
    stats
}

/// The widest beam, `width` or narrower by halves down to [`MIN_FIRST_WIDTH`], that fits in
/// the time `left` (with the margin of [`FIT_MARGIN`]: a beam cut off by the deadline gives
/// nothing), after a beam of `width` that took `took` (a beam's time is about proportional to
/// its width); `None` if none does.
fn fitting_width(width: usize, took: Duration, left: Duration) -> Option<usize> {
    let left = left.as_secs_f64() * FIT_MARGIN;
    let mut fitting = width;
    let mut time = took.as_secs_f64();
    while time > left {
        if fitting / 2 < MIN_FIRST_WIDTH {
            return None;
        }
        fitting /= 2;
        time /= 2.0;
    }
    Some(fitting)
}

/// The width of the first beam on a board of `cells` cells: larger boards have longer paths
/// and dearer boards, and a narrower first beam keeps the first improvement as quick as on the
/// 24-puzzle (on 7x7 boards under load, a first beam of 1,024 did not end within 10 s).
pub(super) fn first_width(cells: usize) -> usize {
    (FIRST_WIDTH * 25 / cells.max(1)).clamp(MIN_FIRST_WIDTH, FIRST_WIDTH)
}

/// `prefix` (moves from `board`), then the constructive solver's path from where it leads to
/// `goal`, within `limits`.
fn finish_from(
    board: &Board,
    goal: &Board,
    prefix: Vec<Move>,
    limits: &Limits,
) -> Option<Vec<Move>> {
    let mut closest = board.clone();
    for &m in &prefix {
        closest.apply(m);
    }
    let rest = construct_checked(&closest, goal, limits).ok()?;
    let mut moves = prefix;
    moves.extend(rest.moves);
    Some(moves)
}

/// The width of the beam after one of `width` boards that took `took`: [`WIDTH_GROWTH`] times
/// as wide, or as wide as the time left before `deadline` allows (a beam's time grows about
/// in proportion to its width, and a beam cut off by the deadline gives nothing), or `None`
/// when not even a wider beam than this one fits (the time left goes to longer windows).
fn next_width(width: usize, took: Duration, deadline: Option<Instant>) -> Option<usize> {
    let grown = width.saturating_mul(WIDTH_GROWTH);
    let Some(deadline) = deadline else {
        return Some(grown);
    };
    let left = deadline
        .saturating_duration_since(Instant::now())
        .as_secs_f64();
    let fits = width as f64 * FIT_MARGIN * left / took.as_secs_f64().max(1e-6);
    if fits >= grown as f64 {
        return Some(grown);
    }
    // The widest power of two that fits, if wider than this beam.
    let fitting = 1usize << (fits.max(1.0).log2().floor() as u32);
    (fitting > width).then_some(fitting)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_to_a_board_near_the_goal_is_finished_to_the_goal() {
        let goal = Board::solved(7, 7).unwrap();
        let board = crate::generate::random_walk(&goal, 400, &mut crate::generate::Rng::new(3));
        // Any legal prefix: its board is finished by the constructive solver.
        let mut prefix = Vec::new();
        let mut at = board.clone();
        for m in [
            Move::Up,
            Move::Left,
            Move::Up,
            Move::Right,
            Move::Down,
            Move::Left,
        ] {
            if at.target(m).is_some() {
                at.apply(m);
                prefix.push(m);
            }
        }
        let moves = finish_from(&board, &goal, prefix.clone(), &Limits::none()).expect("a path");
        assert!(moves.starts_with(&prefix));
        let mut end = board.clone();
        for &m in &moves {
            end.apply(m);
        }
        assert_eq!(end, goal);
    }

    #[test]
    fn the_time_left_takes_the_widest_beam_that_fits() {
        let second = Duration::from_secs(1);
        let ms = Duration::from_millis;
        assert_eq!(fitting_width(1024, second, ms(3000)), Some(1024));
        // 1 s left: a beam of 1 s would be cut off, with the margin; one of half the width not.
        assert_eq!(fitting_width(1024, second, ms(1000)), Some(512));
        assert_eq!(fitting_width(1024, second, ms(400)), Some(256));
        // Never narrower than the narrowest first beam.
        assert_eq!(fitting_width(64, second, ms(400)), None);
        assert_eq!(fitting_width(1024, second, ms(0)), None);
    }

    #[test]
    fn beams_widen_only_as_far_as_the_time_left_allows() {
        let second = Duration::from_secs(1);
        // No deadline: always fourfold.
        assert_eq!(next_width(1024, second, None), Some(4096));
        // Plenty of time: fourfold.
        let far = Instant::now() + Duration::from_secs(3600);
        assert_eq!(next_width(1024, second, Some(far)), Some(4096));
        // About 6 s left after a beam of 1 s: a beam of about 5 times the width fits.
        let soon = Instant::now() + Duration::from_secs(6);
        assert_eq!(next_width(1000, second, Some(soon)), Some(4000));
        // About 3 s left: 2.5 times, rounded down to a power of two.
        let sooner = Instant::now() + Duration::from_millis(3000);
        assert_eq!(next_width(1024, second, Some(sooner)), Some(2048));
        // Less time than this beam took: no wider beam.
        let now = Instant::now() + Duration::from_millis(900);
        assert_eq!(next_width(1024, second, Some(now)), None);
    }
}
