//! Upper bounds for IDA* on large boards: beam searches between its iterations.
//!
//! IDA*'s last iteration, the one at the optimal length, is its most expensive: on the
//! 24-puzzle each iteration generates 6 to 10 times the nodes of the one before, and the
//! search stops only where the goal lies in that last iteration's depth-first order, often
//! well into it (Korf & Felner's instance 1: 156 M nodes for every iteration below the optimum
//! of 95, then 890 M in the last one). Once every iteration below a bound is complete, a
//! solution as long as that bound is optimal, so a solution found by other means before the
//! last iteration starts makes that iteration unnecessary. Beam searches find such solutions
//! for a small share of the cost (instance 1: 95 moves within 33 M nodes of beams and windows).
//!
//! [`BeamIncumbent`] runs before each iteration (IDA*'s [`Between`] hook), until its solution is
//! as short as the coming bound or its nodes reach [`SHARE`] of what the coming iteration is
//! foreseen to cost (the last iteration's size times its growth over the one before):
//! - beams of growing width (the anytime search's, [`super::beam`]), each bounded by the best
//!   solution so far; fourfold wider each time, up to the widest that fits the memory budget,
//!   then that width again with other orders of ties ([`super::beam::beam_search`]'s `ties`);
//!   where the next one does not fit what is left of the share, a narrower one (down to a
//!   quarter) with an order of ties not tried yet;
//! - each solution they find polished as the anytime search polishes them: the quick post-pass,
//!   goal windows of up to 60 moves re-solved optimally with the goal's heuristic
//!   ([`super::windows`]), rectangle windows; and once the widest beam has run, the best
//!   solution through the long goal windows (75 to 110 moves).
//!
//! Everything it does is bounded by node counts and the memory budget, never by the clock, so
//! within the same budget its beams and windows generate the same nodes and find the same
//! moves every time, on any number of threads.
//!
//! With a checkpoint file ([`BeamIncumbent::keeping`]) it keeps its place in the search's after
//! each beam ([`crate::search::checkpoint`]): on the hardest 24-puzzles the beams before the
//! last iteration take hours (Korf & Felner's #33: 39 minutes and 4.8 G nodes of them went
//! without a trace when that search was stopped). A search resumed before an iteration goes
//! on with the beam that was under way, one resumed within an iteration with the schedule and
//! counts the beams had reached: either way its beams are those of a search run in one go.
//!
//! [`Between`]: crate::search::idastar::Between

use crate::board::Board;
use crate::clock::Instant;
use crate::heuristic::Incremental;
use crate::limits::{LimitHit, Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::search::checkpoint::CheckpointFile;
use crate::search::idastar::Interlude;
use crate::solvers::shorten::{shorten_reporting, ShortenOptions};

use super::beam::beam_search;
use super::improve::{
    first_width, GOAL_WINDOWS, LONG_GOAL_WINDOWS, MAX_WIDTH, RECT_WINDOWS, WIDTH_GROWTH,
};
use super::windows::resolve_goal_windows;

/// Boards beyond this many cells get the beams. On the 15-puzzle the last iteration is cheap
/// (its 17 hardest positions, 80 moves each, with the zero-aware 7-8: 7.51 M nodes an instance
/// with the beams against 7.69 M without, in more time): boards this small keep plain IDA*.
pub(crate) const BEAMS_BEYOND_CELLS: usize = 16;

/// Share of the coming iteration's foreseen nodes that the beams and windows before it may have
/// spent in all: when they fail, the search costs at most about this much more; when they
/// succeed, it saves the part of the last iteration before its goal (half of it on average).
pub(crate) const SHARE: f64 = 0.1;

/// Nodes a beam of width `w` is first assumed to generate per unit of width and move of the
/// heuristic's root value, before one has run: about two children a board per layer, about
/// 1.2 layers per move of the root value on the 24-puzzle.
const FIRST_COST_PER_WIDTH_AND_MOVE: f64 = 2.5;

/// Beams and goal windows run between IDA*'s iterations (module documentation).
pub(crate) struct BeamIncumbent<'a, H> {
    board: &'a Board,
    goal: &'a Board,
    h: &'a H,
    limits: &'a Limits,
    threads: usize,
    progress: Option<ProgressFn<'a>>,
    /// The shortest solution found so far.
    best: Option<Vec<Move>>,
    /// Width of the next beam of the schedule.
    width: usize,
    /// Whether the schedule's width has had no beam yet: its first takes the first order of
    /// ties ([`beam_search`]'s `ties`), every other beam a new one (the same width and order
    /// would give the same beam).
    fresh: bool,
    /// The last order of ties taken by a beam that was not the first of its width.
    orders: usize,
    /// Whether the best solution has been through the long goal windows.
    long_windows_done: bool,
    /// Widest beam that fits the memory budget (lowered when one did not).
    widest: usize,
    /// Nodes generated per unit of width by the last beam (assumed before the first).
    cost_per_width: f64,
    /// Nodes generated by the beams and windows so far.
    generated: u64,
    /// Nodes expanded by the beams and windows so far.
    expanded: u64,
    /// Largest memory estimate a beam reached, in bytes.
    peak_memory_bytes: usize,
    /// Nodes generated and expanded by IDA*'s iterations so far (as of the last call).
    searched: (u64, u64),
    /// Nodes the beams and windows may have generated in all before the coming iteration.
    allowed: u64,
    /// When the search began: reports count their time from it.
    started: Instant,
    /// A beam or window stopped at the time or node limit or the cancel flag: nothing more is
    /// run (IDA* meets the limit at its next check).
    stopped: bool,
    /// A beam of one board ran out of memory: no beam fits the budget, and none runs again.
    no_beam_fits: bool,
    /// Where the search keeps its place, if anywhere: this hook keeps its own there too.
    keep: Option<&'a CheckpointFile>,
    /// Nodes generated and expanded by the beams and windows before the bound under way.
    before_bound: (u64, u64),
    /// Nodes generated and expanded by the beams and windows when this sitting's call for the
    /// bound under way began (more than `before_bound` when it goes on from a place an earlier
    /// sitting kept before this same bound).
    call_start: (u64, u64),
    /// Nodes the search had generated in this sitting when that call began: the caller's
    /// limits count this sitting's nodes ([`BeamIncumbent::in_sitting`]).
    sitting_at_call: u64,
    /// The search's time as the file had it when the call for the bound under way began, and
    /// when that was: the time of the place kept.
    search_time: (std::time::Duration, Instant),
    /// Whether the place kept in the file has been read ([`BeamIncumbent::resume`]).
    resumed: bool,
}

impl<'a, H> BeamIncumbent<'a, H>
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    /// Beams from `board` to `goal` guided by `h` (built for `goal`), within `limits`, with
    /// their layers expanded on `threads` threads; each better solution is reported through
    /// `progress` as an anytime search's are.
    pub(crate) fn new(
        board: &'a Board,
        goal: &'a Board,
        h: &'a H,
        limits: &'a Limits,
        threads: usize,
        progress: Option<ProgressFn<'a>>,
    ) -> Self {
        let root = h.estimate(board.tiles()).max(1);
        BeamIncumbent {
            board,
            goal,
            h,
            limits,
            threads: threads.max(1),
            progress,
            best: None,
            width: first_width(board.len()),
            fresh: true,
            orders: 0,
            long_windows_done: false,
            widest: MAX_WIDTH,
            cost_per_width: FIRST_COST_PER_WIDTH_AND_MOVE * f64::from(root),
            generated: 0,
            expanded: 0,
            peak_memory_bytes: 0,
            searched: (0, 0),
            allowed: 0,
            started: Instant::now(),
            stopped: false,
            no_beam_fits: false,
            keep: None,
            before_bound: (0, 0),
            call_start: (0, 0),
            sitting_at_call: 0,
            search_time: (std::time::Duration::ZERO, Instant::now()),
            resumed: false,
        }
    }

    /// The same, keeping its place in `file` (the search's checkpoint) after each beam, and
    /// going on from the place kept there when the search resumes before an iteration.
    pub(crate) fn keeping(mut self, file: Option<&'a CheckpointFile>) -> Self {
        self.keep = file;
        self
    }

    /// IDA*'s hook before the iteration with `bound`: `sizes` holds the nodes each iteration
    /// before it generated, `total` the nodes the search generated and expanded so far over
    /// every sitting (this hook's included), `sitting` those generated in this sitting.
    /// Returns the best solution, and the nodes spent since the last call (with those of an
    /// earlier sitting's beams before this bound, when it goes on from their place).
    pub(crate) fn before_iteration(
        &mut self,
        bound: u32,
        sizes: &[u64],
        total: (u64, u64),
        sitting: u64,
    ) -> Interlude {
        self.before_bound = (self.generated, self.expanded);
        self.resume(bound);
        (self.call_start, self.sitting_at_call) = ((self.generated, self.expanded), sitting);
        let (generated, expanded) = self.before_bound;
        self.searched = (
            total.0.saturating_sub(generated),
            total.1.saturating_sub(expanded),
        );
        self.allowed = (SHARE * foreseen(sizes)) as u64;
        while !self.stopped && !self.no_beam_fits && self.best_len() > bound as usize {
            if self.width >= self.widest && !self.fresh && !self.long_windows_done {
                // The widest beam has had its turn: the best solution goes through the long
                // goal windows once, as in the anytime search once its beams are over
                // (Korf & Felner's #5: the beams of a million boards end at 102 moves, the
                // windows of 75 to 110 moves take it to the optimum of 100).
                self.long_windows_done = true;
                if let Some(best) = self.best.clone() {
                    let polished = self.goal_windows(best, &LONG_GOAL_WINDOWS);
                    self.keep(polished, bound);
                }
                self.keep_place(bound);
                continue;
            }
            let Some(width) = self.fitting_width() else {
                break;
            };
            self.run_beam(bound, width);
            self.keep_place(bound);
        }
        Interlude {
            moves: self.best.clone(),
            generated: self.generated - generated,
            expanded: self.expanded - expanded,
            peak_memory_bytes: self.peak_memory_bytes,
            earlier: (self.call_start.0 - generated, self.call_start.1 - expanded),
        }
    }

    /// This hook's place before the iteration with `bound`, in the words
    /// [`BeamIncumbent::resume`] reads: its schedule, its counts and its best solution.
    fn place(&self, bound: u32) -> String {
        let best = self
            .best
            .as_deref()
            .map_or_else(|| "-".to_string(), crate::moves::to_letters);
        format!(
            "beams bound={bound} before_bound={}/{} spent={}/{} width={} widest={} fresh={} \
             orders={} long_windows_done={} no_beam_fits={} cost_per_width={:?} \
             peak_memory_bytes={} best={best}",
            self.before_bound.0,
            self.before_bound.1,
            self.generated,
            self.expanded,
            self.width,
            self.widest,
            u8::from(self.fresh),
            self.orders,
            u8::from(self.long_windows_done),
            u8::from(self.no_beam_fits),
            self.cost_per_width,
            self.peak_memory_bytes,
        )
    }

    /// Writes this hook's place before the iteration with `bound` to the checkpoint file, if
    /// any, unless one of the caller's limits has run out: the step then may have stopped half
    /// way (a window pass cut short still gives its moves), and its place is the one before it.
    fn keep_place(&self, bound: u32) {
        let Some(file) = self.keep else {
            return;
        };
        let ran_out = self.limits.check(self.in_sitting()).is_err();
        if !self.stopped && !ran_out {
            let (elapsed, since) = self.search_time;
            file.keep_interlude(bound, &self.place(bound), elapsed + since.elapsed());
        }
    }

    /// Reads the search's time before the iteration with `bound` from the checkpoint file,
    /// and at the first call, the place an earlier sitting kept there, to go on from it: one
    /// kept before this bound goes on with the beam that was under way, one kept before an
    /// earlier bound (the iterations since were IDA*'s alone) with this bound's first. A
    /// place that cannot be read, or whose solution does not solve the board, is not taken:
    /// the beams start afresh, which costs time, never an answer.
    fn resume(&mut self, bound: u32) {
        let Some(file) = self.keep else {
            return;
        };
        let Ok(Some(kept)) = file.load() else {
            return;
        };
        if kept.is_unsplit() && kept.bound == bound {
            self.search_time = (kept.elapsed, Instant::now());
        }
        if std::mem::replace(&mut self.resumed, true) {
            return;
        }
        let Some(place) = kept.interlude.as_deref().and_then(|k| self.read_place(k)) else {
            return;
        };
        if place.bound > bound {
            return;
        }
        self.before_bound = if place.bound == bound {
            place.before_bound
        } else {
            place.spent
        };
        (self.generated, self.expanded) = place.spent;
        (self.width, self.widest, self.fresh, self.orders) =
            (place.width, place.widest, place.fresh, place.orders);
        self.long_windows_done = place.long_windows_done;
        self.no_beam_fits = place.no_beam_fits;
        self.cost_per_width = place.cost_per_width;
        self.peak_memory_bytes = self.peak_memory_bytes.max(place.peak_memory_bytes);
        self.best = place.best;
    }

    /// The place [`BeamIncumbent::place`] wrote, if `text` is one, with a solution that solves
    /// the board.
    fn read_place(&self, text: &str) -> Option<KeptPlace> {
        let place = KeptPlace::parse(text)?;
        if let Some(moves) = &place.best {
            crate::solution::verify_moves(self.board, self.goal, moves).ok()?;
        }
        Some(place)
    }

    /// The width of the next beam: the schedule's, or where it does not fit what is left of
    /// the share (at the rate of the last beam), the widest narrower one that does, down to a
    /// quarter of it; `None` when none fits.
    fn fitting_width(&self) -> Option<usize> {
        let left = self.allowed.saturating_sub(self.generated) as f64;
        let mut width = self.width;
        while self.cost_per_width * width as f64 > left {
            width /= 2;
            if width < (self.width / 4).max(1) {
                return None;
            }
        }
        Some(width)
    }

    /// No beam of `width` boards fits the memory budget: half as wide from now on.
    fn narrow_below(&mut self, width: usize) {
        self.widest = width / 2;
        if self.width > self.widest {
            (self.width, self.fresh) = (self.widest, true);
        }
    }

    fn best_len(&self) -> usize {
        self.best.as_ref().map_or(usize::MAX, Vec::len)
    }

    /// The nodes the search has generated in this sitting, this hook's included: what the
    /// caller's limits count (a resumed search's limits are counted afresh).
    fn in_sitting(&self) -> u64 {
        self.sitting_at_call + (self.generated - self.call_start.0)
    }

    /// The caller's limits with the node budget IDA* and this hook left, and at most what is
    /// left of this hook's share before the coming iteration plus `slack`; whether that share
    /// is the tighter of the two.
    fn left(&self, slack: u64) -> (Limits, bool) {
        let limits = self.limits.after(self.in_sitting());
        let share = self
            .allowed
            .saturating_sub(self.generated)
            .saturating_add(slack);
        let by_share = limits.max_nodes.is_none_or(|m| share < m);
        (limits.at_most(share), by_share)
    }

    /// Whether a search stopped by `limit` under [`BeamIncumbent::left`]'s limits stops this
    /// hook for good: not when only the share ran out, nor at the memory budget (a narrower
    /// beam may fit).
    fn stops(&mut self, limit: Option<LimitHit>, by_share: bool) {
        match limit {
            None | Some(LimitHit::Memory) => {}
            Some(LimitHit::Nodes) if by_share => {}
            Some(_) => self.stopped = true,
        }
    }

    /// One beam of `width` boards, bounded by the best solution; what it finds is polished
    /// and kept. A beam of the schedule's width moves the schedule on: fourfold, up to the
    /// widest that fits the memory; past it, the same width again.
    fn run_beam(&mut self, bound: u32, width: usize) {
        // No beam is held back for the memory a full-width beam would take down to the bound:
        // the bound thins the layers (on instance 29 with 2 GiB, a beam of 524,288 boards
        // foreseen at 2.8 GB found the optimum within the budget; narrowing such beams took
        // 382 M nodes against 180 M). One that does run out narrows the beams after it.
        let best = self.best.as_ref().map(Vec::len);
        let scheduled = width == self.width;
        let ties = if scheduled && self.fresh {
            0
        } else {
            self.orders += 1;
            self.orders
        };
        self.fresh &= !scheduled;
        // A beam is started only where its foreseen cost fits the share, but the foreseen cost
        // is that of the last beam's rate, and a beam cut short gives nothing: it may overrun
        // the share by as much again.
        let foreseen = (self.cost_per_width * width as f64) as u64;
        let (limits, by_share) = self.left(foreseen);
        // The beam's running count, for the reports between its layers.
        let beam = std::sync::atomic::AtomicU64::new(0);
        let report = |generated: u64, _expanded: u64| {
            use std::sync::atomic::Ordering::Relaxed;
            let so_far = beam.fetch_add(generated, Relaxed) + generated;
            self.report(bound, so_far);
        };
        let out = beam_search(
            self.board,
            self.goal,
            self.h,
            width,
            best,
            &limits,
            self.threads,
            &report,
            ties,
        );
        self.generated += out.generated;
        self.expanded += out.expanded;
        self.peak_memory_bytes = self.peak_memory_bytes.max(out.peak_memory_bytes);
        if out.generated > 0 && out.limit.is_none() {
            self.cost_per_width = out.generated as f64 / width as f64;
        }
        match out.limit {
            Some(LimitHit::Memory) if width > 1 => {
                self.narrow_below(width);
                return;
            }
            Some(limit) => {
                // At width 1 out of memory: no beam fits at all.
                self.no_beam_fits |= limit == LimitHit::Memory;
                self.stops(Some(limit), by_share);
                return;
            }
            None => {}
        }
        if let Some(moves) = out.moves {
            let polished = self.polish(moves);
            self.keep(polished, bound);
        }
        if scheduled && self.width < self.widest {
            self.width = (self.width * WIDTH_GROWTH).min(self.widest);
            self.fresh = true;
        }
    }

    /// Keeps `moves` (a solution) if it is the shortest so far, and reports it.
    fn keep(&mut self, moves: Vec<Move>, bound: u32) {
        if moves.len() < self.best_len() {
            self.best = Some(moves);
            self.long_windows_done = false;
            self.report(bound, 0);
        }
    }

    /// `moves` polished as the anytime search polishes a beam's answer, within the share: the
    /// quick post-pass ([`crate::solvers::shorten`]), the goal windows re-solved optimally with
    /// the goal's heuristic, then rectangle windows.
    fn polish(&mut self, moves: Vec<Move>) -> Vec<Move> {
        let rect = RECT_WINDOWS.map(|(window, max_cells, node_budget)| ShortenOptions {
            window,
            max_cells,
            node_budget,
            passes: 2,
        });
        let moves = self.shortened(moves, &ShortenOptions::default());
        let mut moves = self.goal_windows(moves, &GOAL_WINDOWS);
        for options in &rect {
            moves = self.shortened(moves, options);
        }
        moves
    }

    /// `moves` with the goal windows of `passes` ((window length, node budget) each, see
    /// [`resolve_goal_windows`]) re-solved in turn, within the share.
    fn goal_windows(&mut self, mut moves: Vec<Move>, passes: &[(usize, u64)]) -> Vec<Move> {
        for &(window, nodes) in passes {
            let Some(limits) = self.left_for_polish() else {
                break;
            };
            let pass = resolve_goal_windows(
                self.board,
                self.goal,
                self.h,
                &moves,
                window,
                nodes,
                &limits,
                &|_, _| {},
            );
            self.generated += pass.generated;
            self.expanded += pass.expanded;
            moves = pass.moves;
        }
        moves
    }

    /// `moves` after [`shorten_reporting`] with `options`, within the share.
    fn shortened(&mut self, moves: Vec<Move>, options: &ShortenOptions) -> Vec<Move> {
        let Some(limits) = self.left_for_polish() else {
            return moves;
        };
        match shorten_reporting(self.board, self.goal, &moves, options, &limits, &|_, _| {}) {
            Ok(s) => {
                self.generated += s.generated;
                self.expanded += s.expanded;
                if s.moves.len() < moves.len() {
                    s.moves
                } else {
                    moves
                }
            }
            Err(_) => moves,
        }
    }

    /// [`BeamIncumbent::left`]'s limits for a step of the polish, or `None` (the hook stopped
    /// if a limit of the caller's ran out) when nothing is left.
    fn left_for_polish(&mut self) -> Option<Limits> {
        let (limits, by_share) = self.left(0);
        match limits.check(0) {
            Ok(()) => Some(limits),
            Err(hit) => {
                self.stops(Some(hit), by_share);
                None
            }
        }
    }

    /// Tells `progress` how the search stands: the bound of the coming iteration, the nodes
    /// so far (`beam` of them by a beam under way) and the best solution, if any.
    fn report(&self, bound: u32, beam: u64) {
        let Some(progress) = self.progress else {
            return;
        };
        progress(Progress {
            generated: self.searched.0 + self.generated + beam,
            expanded: self.searched.1 + self.expanded,
            bound,
            elapsed: self.started.elapsed(),
            best: self.best.as_ref().map(|b| b.len() as u32),
            best_moves: self.best.as_ref().map(|b| b.as_slice().into()),
        });
    }
}

/// [`BeamIncumbent`]'s place as a checkpoint file keeps it ([`BeamIncumbent::place`]).
struct KeptPlace {
    /// The bound of the iteration it was kept before.
    bound: u32,
    before_bound: (u64, u64),
    spent: (u64, u64),
    width: usize,
    widest: usize,
    fresh: bool,
    orders: usize,
    long_windows_done: bool,
    no_beam_fits: bool,
    cost_per_width: f64,
    peak_memory_bytes: usize,
    best: Option<Vec<Move>>,
}

impl KeptPlace {
    /// The place [`BeamIncumbent::place`] wrote, if `text` is one (its solution not checked
    /// against the board).
    fn parse(text: &str) -> Option<KeptPlace> {
        let mut words = text.split_whitespace();
        if words.next() != Some("beams") {
            return None;
        }
        let fields: std::collections::HashMap<&str, &str> =
            words.map(|w| w.split_once('=')).collect::<Option<_>>()?;
        let number = |name: &str| fields.get(name)?.parse::<u64>().ok();
        let pair = |name: &str| {
            let (a, b) = fields.get(name)?.split_once('/')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let flag = |name: &str| match *fields.get(name)? {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let best = match *fields.get("best")? {
            "-" => None,
            letters => Some(crate::moves::parse_moves(letters).ok()?),
        };
        let place = KeptPlace {
            bound: u32::try_from(number("bound")?).ok()?,
            before_bound: pair("before_bound")?,
            spent: pair("spent")?,
            width: usize::try_from(number("width")?).ok()?,
            widest: usize::try_from(number("widest")?).ok()?,
            fresh: flag("fresh")?,
            orders: usize::try_from(number("orders")?).ok()?,
            long_windows_done: flag("long_windows_done")?,
            no_beam_fits: flag("no_beam_fits")?,
            cost_per_width: fields.get("cost_per_width")?.parse().ok()?,
            peak_memory_bytes: usize::try_from(number("peak_memory_bytes")?).ok()?,
            best,
        };
        // No search counts 2^62 nodes: larger counts are damage, and would overflow the sums.
        let sane = place.spent.0 < 1 << 62
            && place.spent.1 <= place.spent.0
            && place.before_bound.0 <= place.spent.0
            && place.before_bound.1 <= place.spent.1
            && (1..=MAX_WIDTH).contains(&place.width)
            && (1..=MAX_WIDTH).contains(&place.widest)
            && place.cost_per_width.is_finite()
            && place.cost_per_width > 0.0;
        sane.then_some(place)
    }
}

/// The nodes generated and expanded by the beams and windows before the coming iteration that a
/// checkpoint's own counts leave out, if `interlude` is the line [`BeamIncumbent::place`] kept
/// there: the place's counts are those of the search when that iteration's place was first
/// written, and the steps since are in the line.
pub(crate) fn nodes_past_place(interlude: &str) -> Option<(u64, u64)> {
    let place = KeptPlace::parse(interlude)?;
    Some((
        place.spent.0 - place.before_bound.0,
        place.spent.1 - place.before_bound.1,
    ))
}

/// The nodes the next iteration is foreseen to generate, from the sizes of those before it: the
/// last one's times its growth over the one before (0 before the second iteration: the first
/// ones are small).
fn foreseen(sizes: &[u64]) -> f64 {
    match sizes {
        [.., before, last] if *before > 0 => *last as f64 * (*last as f64 / *before as f64),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{random_walk, Rng};
    use crate::heuristic::LinearConflict;
    use crate::search::idastar::{idastar_between, Between};
    use crate::search::parallel::idastar_parallel_between;
    use crate::search::{idastar_with, Pruning};
    use crate::solution::{verify_moves, Solution};

    #[test]
    fn a_beam_that_does_not_fit_the_share_gives_way_to_a_narrower_one_down_to_a_quarter() {
        let goal = Board::solved(5, 5).unwrap();
        let h = LinearConflict::new(&goal);
        let limits = Limits::none();
        let mut beams = BeamIncumbent::new(&goal, &goal, &h, &limits, 1, None);
        (beams.width, beams.cost_per_width) = (4096, 100.0);
        let fitting = |beams: &mut BeamIncumbent<LinearConflict>, allowed| {
            beams.allowed = allowed;
            beams.fitting_width()
        };
        assert_eq!(fitting(&mut beams, 500_000), Some(4096));
        assert_eq!(fitting(&mut beams, 300_000), Some(2048));
        assert_eq!(fitting(&mut beams, 150_000), Some(1024));
        assert_eq!(fitting(&mut beams, 50_000), None);
        // What the beams spent already counts against the share.
        beams.generated = 200_000;
        assert_eq!(fitting(&mut beams, 500_000), Some(2048));
    }

    #[test]
    fn a_beam_whose_full_width_would_not_fit_the_memory_still_runs_and_can_find_the_bound() {
        // The bound prunes the beam's layers below its width, so a beam can fit a budget its
        // full width would not.
        let (board, goal, exact) = scrambled(60, 3);
        let optimum = exact.len();
        let h = LinearConflict::new(&goal);
        let width = 256;
        let full = super::super::beam::beam_memory::<LinearConflict>(goal.len(), width, optimum);
        let limits = Limits::none().with_max_memory(full - 1);
        let mut beams = BeamIncumbent::new(&board, &goal, &h, &limits, 1, None);
        let mut longer = exact.moves.clone();
        let last = *longer.last().unwrap();
        longer.extend([last.inverse(), last]);
        beams.best = Some(longer);
        (beams.width, beams.allowed) = (width, u64::MAX);
        beams.run_beam(optimum as u32, width);
        assert!(beams.generated > 0, "the beam ran");
        assert_eq!(beams.best_len(), optimum);
        assert!(beams.peak_memory_bytes < full);
    }

    #[test]
    fn the_next_iteration_is_foreseen_from_the_growth_of_the_last() {
        assert_eq!(foreseen(&[]), 0.0);
        assert_eq!(foreseen(&[100]), 0.0);
        assert_eq!(foreseen(&[100, 800]), 6400.0);
        assert_eq!(foreseen(&[5, 100, 800]), 6400.0);
        assert_eq!(foreseen(&[0, 800]), 0.0);
    }

    /// A 5x5 board `moves` random moves from the goal, the goal, and IDA*'s own solution with
    /// linear conflict and every pruning.
    fn scrambled(moves: usize, seed: u64) -> (Board, Board, Solution) {
        let goal = Board::solved(5, 5).unwrap();
        let board = random_walk(&goal, moves, &mut Rng::new(seed));
        let h = LinearConflict::new(&goal);
        let exact =
            idastar_with(&board, &goal, &h, Pruning::full(25), &Limits::none(), None).unwrap();
        (board, goal, exact)
    }

    /// IDA* with linear conflict and every pruning, `between` run before each iteration.
    fn with_hook(board: &Board, goal: &Board, between: Between) -> Solution {
        let h = LinearConflict::new(goal);
        let pruning = Pruning::full(25);
        idastar_between(
            board,
            goal,
            &h,
            pruning,
            &Limits::none(),
            None,
            Some(between),
        )
        .unwrap()
    }

    #[test]
    fn a_solution_as_long_as_the_next_bound_ends_the_search_proven_without_that_iteration() {
        let (board, goal, exact) = scrambled(60, 3);
        let mut bounds = Vec::new();
        let mut hook = |bound: u32, _: &[u64], _: (u64, u64), _: u64| {
            bounds.push(bound);
            Interlude {
                moves: Some(exact.moves.clone()),
                ..Interlude::default()
            }
        };
        let s = with_hook(&board, &goal, &mut hook);
        assert!(s.optimal);
        assert_eq!(s.moves, exact.moves);
        // Every iteration below the optimum ran first: the solution was not taken as optimal
        // while a shorter one could still exist.
        assert_eq!(bounds.last(), Some(&(exact.len() as u32)));
        assert!(
            bounds.len() >= 2,
            "the board needs several iterations: {bounds:?}"
        );
        assert_eq!(s.stats.iterations as usize, bounds.len() - 1);
        assert!(
            s.stats.generated < exact.stats.generated,
            "the last iteration was not spared: {} >= {}",
            s.stats.generated,
            exact.stats.generated
        );
    }

    #[test]
    fn a_longer_solution_leaves_the_search_as_it_was_and_its_nodes_are_counted() {
        let (board, goal, exact) = scrambled(60, 3);
        let mut longer = exact.moves.clone();
        let last = *longer.last().unwrap();
        longer.extend([last.inverse(), last]);
        let mut hook = |_: u32, _: &[u64], _: (u64, u64), _: u64| Interlude {
            moves: Some(longer.clone()),
            generated: 10,
            expanded: 1,
            peak_memory_bytes: 0,
            earlier: (0, 0),
        };
        let s = with_hook(&board, &goal, &mut hook);
        assert_eq!(s.moves, exact.moves);
        assert_eq!(
            s.stats.generated,
            exact.stats.generated + 10 * s.stats.iterations as u64
        );
    }

    /// IDA* with linear conflict and the beams of [`BeamIncumbent`], on `threads` threads.
    fn with_beams(board: &Board, goal: &Board, threads: usize) -> Solution {
        with_beams_within(board, goal, threads, &Limits::none()).unwrap()
    }

    /// [`with_beams`] within `limits`.
    fn with_beams_within(
        board: &Board,
        goal: &Board,
        threads: usize,
        limits: &Limits,
    ) -> Result<Solution, crate::solution::SolveError> {
        with_beams_keeping(board, goal, threads, limits, None)
    }

    /// [`with_beams_within`], the search and the beams keeping their place in `keep` if given
    /// (on the parallel engine, as the solver does).
    fn with_beams_keeping(
        board: &Board,
        goal: &Board,
        threads: usize,
        limits: &Limits,
        keep: Option<&CheckpointFile>,
    ) -> Result<Solution, crate::solution::SolveError> {
        let h = LinearConflict::new(goal);
        let beams = BeamIncumbent::new(board, goal, &h, limits, threads, None);
        let mut beams = beams.keeping(keep);
        let mut hook = |bound, sizes: &[u64], total, sitting| {
            beams.before_iteration(bound, sizes, total, sitting)
        };
        let (pruning, between) = (Pruning::full(25), Some(&mut hook as Between));
        if threads == 1 && keep.is_none() {
            idastar_between(board, goal, &h, pruning, limits, None, between)
        } else {
            idastar_parallel_between(
                board,
                goal,
                &h,
                pruning,
                limits,
                None,
                (threads, keep),
                between,
            )
        }
    }

    /// [`with_beams_within`] on the parallel engine on one thread, keeping its place and the
    /// beams' in `file`.
    fn with_beams_kept(
        board: &Board,
        goal: &Board,
        limits: &Limits,
        file: &CheckpointFile,
    ) -> Result<Solution, crate::solution::SolveError> {
        with_beams_keeping(board, goal, 1, limits, Some(file))
    }

    #[test]
    fn a_search_stopped_anywhere_goes_on_with_the_beams_it_would_have_run_in_one_go() {
        // Deleted with the places kept in it when dropped, also when an assertion fails.
        let dir = crate::test_support::scratch_dir("beams-kept");
        let file = |name: &str| CheckpointFile::new(dir.path().join(name), "beams kept");
        // IDA* with linear conflict takes 1.6 M nodes on this board; the beams spare it the
        // last iteration.
        let (board, goal, exact) = scrambled(70, 4);
        let whole = with_beams_kept(&board, &goal, &Limits::none(), &file("whole")).unwrap();
        assert!(whole.optimal && whole.len() == exact.len());
        let (mut within_beams, mut within_iterations) = (0, 0);
        for twentieth in 1..20 {
            let f = file(&format!("stopped-{twentieth}"));
            let budget = whole.stats.generated * twentieth / 20;
            let stopped =
                with_beams_kept(&board, &goal, &Limits::none().with_max_nodes(budget), &f);
            assert!(
                matches!(stopped, Err(crate::solution::SolveError::Limit { .. })),
                "{budget}: {stopped:?}"
            );
            let kept = f.load().unwrap().unwrap();
            let Some(beams) = kept.interlude.clone() else {
                continue;
            };
            assert!(beams.starts_with("beams bound="), "{beams}");
            if kept.is_unsplit() && beams.starts_with(&format!("beams bound={} ", kept.bound)) {
                within_beams += 1;
            } else {
                within_iterations += 1;
            }
            // However often it was stopped, the search goes on with the same beams, and its
            // moves and counts are those of the search run in one go.
            let resumed = with_beams_kept(&board, &goal, &Limits::none(), &f).unwrap();
            assert_eq!(resumed.moves, whole.moves, "stopped at {budget}");
            assert_eq!(
                (resumed.stats.generated, resumed.stats.expanded),
                (whole.stats.generated, whole.stats.expanded),
                "stopped at {budget}: {kept:?}"
            );
            f.remove().unwrap();
        }
        assert!(
            within_beams > 0 && within_iterations > 0,
            "stops within the beams: {within_beams}, within IDA*'s iterations: {within_iterations}"
        );
        // A node budget for each sitting (a resumed search's limits are counted afresh): each
        // sitting gets on, however many nodes the earlier ones generated, until the search
        // ends as it does in one go. (A budget smaller than one of IDA*'s jobs or one beam
        // would not: each sitting would stop within the same step.)
        let f = file("sittings");
        let budget = whole.stats.generated / 8;
        let mut sittings = 0;
        let solved = loop {
            sittings += 1;
            assert!(
                sittings <= 40,
                "no end after {sittings} sittings of {budget} nodes"
            );
            match with_beams_kept(&board, &goal, &Limits::none().with_max_nodes(budget), &f) {
                Ok(s) => break s,
                Err(crate::solution::SolveError::Limit { hit, .. }) => {
                    assert_eq!(hit, LimitHit::Nodes)
                }
                Err(e) => panic!("{e}"),
            }
        };
        assert_eq!(solved.moves, whole.moves);
        assert_eq!(solved.stats.generated, whole.stats.generated);
        assert!(sittings >= 8, "{sittings} sittings of {budget} nodes");
        // Where no beam fits the memory budget, the beams stop for good, and so they do
        // after a resume.
        for log2 in [11, 13] {
            let small = Limits::none().with_max_memory(1 << log2);
            let whole = with_beams_kept(&board, &goal, &small, &file("small")).unwrap();
            for twentieth in 1..4 {
                let f = file(&format!("small-{twentieth}"));
                let budget = whole.stats.generated * twentieth / 20;
                let _ = with_beams_kept(&board, &goal, &small.clone().with_max_nodes(budget), &f);
                let resumed = with_beams_kept(&board, &goal, &small, &f).unwrap();
                assert_eq!(resumed.moves, whole.moves, "2^{log2} bytes, {budget} nodes");
                assert_eq!(
                    resumed.stats.generated, whole.stats.generated,
                    "2^{log2} bytes, stopped at {budget} nodes"
                );
            }
        }
        // A place that cannot be read is not taken: the beams start afresh, and the answer is
        // the same.
        let f = file("unreadable");
        let budget = whole.stats.generated / 2;
        let _ = with_beams_kept(&board, &goal, &Limits::none().with_max_nodes(budget), &f);
        let mut kept = f.load().unwrap().unwrap();
        for damage in ["beams width=x", "beams bound=9 best=UUUU"] {
            kept.interlude = Some(damage.into());
            f.save(&kept).unwrap();
            let resumed = with_beams_kept(&board, &goal, &Limits::none(), &f).unwrap();
            assert_eq!(resumed.moves, whole.moves, "{damage}");
        }
        f.remove().unwrap();
        file("whole").remove().unwrap();
    }

    #[test]
    fn beams_between_the_iterations_keep_the_optimum_and_can_spare_the_last_iteration() {
        // Boards whose IDA* with linear conflict takes 1.6 M to 6.1 M nodes (enough for beams
        // to run before the last iterations).
        let mut spared = 0;
        for (moves, seed) in [(70, 4), (70, 5), (60, 5)] {
            let (board, goal, exact) = scrambled(moves, seed);
            let s = with_beams(&board, &goal, 1);
            verify_moves(&board, &goal, &s.moves).unwrap();
            assert!(s.optimal);
            assert_eq!(s.len(), exact.len(), "seed {seed}");
            if s.stats.generated < exact.stats.generated {
                spared += 1;
            }
            // Neither do the beams' moves and counts depend on the threads (IDA*'s own differ
            // in a last iteration, which these boards may not run).
            let two = with_beams(&board, &goal, 2);
            assert_eq!(two.moves, s.moves, "seed {seed}");
            if s.stats.iterations < exact.stats.iterations {
                assert_eq!(two.stats.generated, s.stats.generated, "seed {seed}");
            }
        }
        assert!(spared > 0, "no board was solved with fewer nodes");
    }

    #[test]
    fn a_node_budget_holds_with_the_beams_and_a_cancel_stops_them() {
        let (board, goal, exact) = scrambled(70, 4);
        for budget in [1_000, 50_000, 400_000, 1_500_000] {
            let limits = Limits::none().with_max_nodes(budget);
            match with_beams_within(&board, &goal, 1, &limits) {
                Err(crate::solution::SolveError::Limit { hit, stats, .. }) => {
                    assert_eq!(hit, LimitHit::Nodes);
                    // IDA* checks every few thousand nodes; a beam's layer can overshoot by
                    // the children of its boards.
                    assert!(
                        stats.generated <= budget + Limits::CHECK_EVERY,
                        "{budget}: {stats:?}"
                    );
                }
                Ok(s) => panic!("{budget}: solved in {} nodes", s.stats.generated),
                Err(e) => panic!("{budget}: {e}"),
            }
        }
        let cancelled = Limits::none().with_cancel(std::sync::Arc::new(true.into()));
        assert!(matches!(
            with_beams_within(&board, &goal, 1, &cancelled),
            Err(crate::solution::SolveError::Limit {
                hit: LimitHit::Cancelled,
                ..
            })
        ));
        // No beam fits a budget of a byte: IDA* alone, still optimal.
        let tiny = Limits::none().with_max_memory(1);
        let s = with_beams_within(&board, &goal, 1, &tiny).unwrap();
        assert!(s.optimal);
        assert_eq!(s.len(), exact.len());
    }
}
