//! IDA* (Korf 1985), specialised for the sliding puzzle and for speed.
//!
//! Depth-first searches with an increasing bound on f = g + h; each bound is the smallest f that
//! exceeded the previous one, so the first solution found is optimal when h is admissible. The
//! search mutates one tile array in place, never generates the inverse of the move that led to a
//! node (which would only return to its parent), updates the heuristic incrementally through
//! [`Incremental`], tests the child's f before recursing, and allocates nothing per node.
//!
//! The depth-first `Engine` is shared with the parallel search ([`super::parallel`]), which
//! walks the top of the tree with it to cut the iteration into jobs and runs one engine per
//! thread on those subtrees.
//!
//! [`Pruning`] says what else it does. [`Pruning::plain`] is Korf's IDA*: with it the node
//! counts are the published ones. [`Pruning::full`] adds duplicate pruning by the automaton of
//! [`super::fsm`] and bidirectional pathmax (BPMX; Felner, Zahavi, Schaeffer & Holte 2005):
//! with an inconsistent heuristic a child's value `h'` proves the parent at least `h' - 1`
//! away and the parent's value proves each child at least `h - 1` away, since a move changes
//! the distance by one. A parent raised past the bound is left at once, its other children
//! unsearched; and [`Incremental::refine`] (the dual lookup) runs only on nodes that the cheap
//! value did not cut off.
//!
//! Above 16 cells it also tries the children of the nodes in the top third of the tree
//! smallest value first: each node's children are all valued (and with BPMX raise their
//! parent) before any is searched, and the goal of the last iteration tends to lie below the
//! children that look closest. 24-puzzle instance 40 with the zero-aware 6-6-6-6 takes 17 M
//! nodes instead of 27 M; lower in the tree the subtrees are small and the order would cost
//! more than it saves (BENCHMARKS.md).
//!
//! Between its iterations the search can run work of its caller's (`Between`): the solver's
//! beam searches beyond 16 cells, whose solution, once as short as the next bound, ends the
//! search as optimal without that iteration.

use crate::clock::Stopwatch;

use super::fsm::{Fsm, PRUNED};
use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Incremental;
use crate::limits::{LimitHit, Limits, Progress, ProgressFn};
use crate::moves::Move;
use crate::solution::{Solution, SolveError, Stats};

/// The depth-first search found the goal.
pub(crate) const FOUND: u32 = u32::MAX;
/// The depth-first search was stopped by its [`Control`].
pub(crate) const ABORTED: u32 = u32::MAX - 1;
/// The depth-first search met no f above the bound.
pub(crate) const UNBOUNDED: u32 = u32::MAX - 2;
/// No previous move: every move allowed at the root.
pub(crate) const NO_MOVE: u8 = 4;

/// The order in which IDA* (sequential and parallel) tries the blank's moves: up, left, right,
/// down.
///
/// Any order finds an optimal solution, but the order decides where in the last iteration the
/// goal is met, and with it how many nodes one instance takes: 24-puzzle instance 40 of Korf &
/// Felner takes from 18 M to 76 M nodes over the 24 possible orders. This one is the order of
/// Korf's experiments: with it, IDA* generates the published node counts to the node, with
/// Manhattan distance on the 15-puzzle (Korf 1985, whose counts include the start node; tested
/// in `tests/published_counts.rs`) and with the 6-6-6-6 databases and their reflection on the
/// 24-puzzle (Korf & Felner 2002; BENCHMARKS.md). Comparisons with the literature then measure
/// the implementation, not the luck of the last iteration.
pub const EXPANSION_ORDER: [Move; 4] = [Move::Up, Move::Left, Move::Right, Move::Down];

/// The neighbours of every cell: up to four (move, cell) pairs in [`EXPANSION_ORDER`], padded
/// with `NO_MOVE`.
pub(crate) fn neighbour_table(width: usize, height: usize) -> Vec<[(u8, u32); 4]> {
    (0..width * height)
        .map(|cell| {
            let mut entry = [(NO_MOVE, 0u32); 4];
            let mut k = 0;
            for m in EXPANSION_ORDER {
                if let Some(to) = m.target(cell, width, height) {
                    entry[k] = (m.index() as u8, to as u32);
                    k += 1;
                }
            }
            entry
        })
        .collect()
}

/// What IDA* prunes beyond the bound.
#[derive(Debug, Clone, Copy)]
pub struct Pruning {
    /// The duplicate-pruning automaton.
    pub fsm: &'static Fsm,
    /// Bidirectional pathmax (module docs).
    pub bpmx: bool,
    /// Children tried smallest value first (module docs).
    pub ordered: bool,
}

impl Pruning {
    /// Korf's IDA*: never the move back, nothing else (the published node counts).
    pub fn plain() -> Pruning {
        static PLAIN: std::sync::OnceLock<Fsm> = std::sync::OnceLock::new();
        Pruning {
            fsm: PLAIN.get_or_init(Fsm::inverse_only),
            bpmx: false,
            ordered: false,
        }
    }

    /// Every pruning for boards of `cells` cells: the learned automaton ([`Fsm::for_cells`]),
    /// BPMX, and above 16 cells children tried smallest value first. (On the 15-puzzle the
    /// order saves 4-9 % of the nodes with pattern databases, but costs more time than that
    /// with tables that stay in the caches: Korf's 100 with the 6-6-3, 4 % fewer nodes in
    /// about 20 % more time.)
    pub fn full(cells: usize) -> Pruning {
        Pruning::full_with(Fsm::for_cells(cells), cells)
    }

    /// [`Pruning::full`] with the automaton `fsm`.
    fn full_with(fsm: &'static Fsm, cells: usize) -> Pruning {
        Pruning {
            fsm,
            bpmx: true,
            ordered: cells > 16,
        }
    }
}

/// Largest board IDA* takes: its arrays have a power-of-two capacity so that indices are
/// masked instead of bounds-checked. Optimal search past a few dozen cells is impractical
/// anyway; the constructive solver handles large boards.
pub const MAX_CELLS: usize = 1024;

/// What the depth-first search asks of whoever runs it, every [`Limits::CHECK_EVERY`] nodes:
/// whether to stop. The sequential search checks its limits and reports progress; the parallel
/// one also publishes its counts and stops when a lower-numbered job has found the goal, and
/// its splitter ([`Control::SPLITS`]) turns the top of the tree into jobs.
pub(crate) trait Control<A> {
    /// True for the parallel search's splitter: at [`Engine::split_depth`] (or at a goal met
    /// above it) the engine hands the node to [`Control::job`] instead of searching below it.
    /// A constant, so that the other searches carry no trace of it.
    const SPLITS: bool = false;

    /// Given this engine's running totals, true to stop the search.
    fn stop(&mut self, generated: u64, expanded: u64, bound: u32) -> bool;

    /// The generated count at which to ask [`Control::stop`] next.
    fn next_check(&self, generated: u64) -> u64 {
        generated + Limits::CHECK_EVERY
    }

    /// The splitter's subtree below the node reached by `node.path` (only when
    /// [`Control::SPLITS`]).
    fn job(&mut self, _node: Job<A>) {}
}

/// One subtree of an iteration: the node at its root, as the parallel search hands it to a
/// thread.
pub(crate) struct Job<A> {
    /// The tiles at the node.
    pub tiles: Vec<Tile>,
    /// The moves from the start to the node.
    pub path: Vec<u8>,
    /// The blank's cell.
    pub blank: usize,
    /// Moves from the start.
    pub g: u32,
    /// The heuristic value at the node.
    pub h: u32,
    /// The value the search uses at the node (at least `h`: refined, or raised by BPMX).
    pub hb: u32,
    /// The heuristic's incremental state.
    pub aux: A,
    /// The pruning automaton's state at the node.
    pub state: u32,
}

/// The depth-first search of IDA*. `CAP` (64 or [`MAX_CELLS`]) is the capacity of the tile and
/// neighbour arrays; every index into them is `& (CAP - 1)`, which the compiler proves in
/// bounds, so the inner loop carries no bounds checks and no `unsafe`.
pub(crate) struct Engine<'a, H: Incremental, C: Control<H::Aux>, const CAP: usize> {
    heuristic: &'a H,
    cells: usize,
    tiles: [Tile; CAP],
    goal: [Tile; CAP],
    /// Up to four (move, target cell) pairs per cell, padded with `NO_MOVE`.
    neighbours: Box<[[(u8, u16); 4]; CAP]>,
    /// The pruning automaton's transitions ([`Fsm`]).
    fsm: &'static [[u32; 4]],
    /// Bidirectional pathmax.
    bpmx: bool,
    /// How far past the bound a child's value must be known before it is cut off
    /// ([`Incremental::update_within`]'s limit, beyond `bound - g - 1`): 0, or with BPMX and a
    /// heuristic that may be inconsistent 2, so that a child that would cut off its parent
    /// still does (one more than two past the bound), and the search is the same node for
    /// node.
    slack: u32,
    /// Children tried smallest value first.
    ordered: bool,
    /// With `ordered`: the children of the nodes on the current path, four per depth.
    children: Vec<Child<H::Aux>>,
    /// The automaton's state before any move.
    start: u32,
    /// Moves from where [`Engine::dfs`] started to the goal, last move first (written while
    /// unwinding, so that the search pushes and pops nothing per node).
    pub(crate) path: Vec<u8>,
    /// The f-bound of the current iteration.
    pub(crate) bound: u32,
    /// Nodes expanded by this engine so far.
    pub(crate) expanded: u64,
    /// Nodes generated by this engine so far.
    pub(crate) generated: u64,
    check_at: u64,
    /// The caller's stop check.
    pub(crate) control: C,
    /// With a splitting [`Control`]: the depth at which nodes become jobs.
    pub(crate) split_depth: u32,
    /// With a splitting [`Control`]: the moves from the start to the node being searched.
    trail: Vec<u8>,
}

impl<'a, H: Incremental, C: Control<H::Aux>, const CAP: usize> Engine<'a, H, C, CAP> {
    /// An engine for boards of `goal`'s size (at most `CAP` cells), loaded with `board`.
    pub(crate) fn new(
        board: &Board,
        goal: &Board,
        heuristic: &'a H,
        pruning: Pruning,
        control: C,
    ) -> Self {
        let cells = board.len();
        debug_assert!(cells <= CAP && CAP.is_power_of_two());
        let mut goal_tiles = [0; CAP];
        goal_tiles[..cells].copy_from_slice(goal.tiles());
        let mut neighbours = Box::new([[(NO_MOVE, 0u16); 4]; CAP]);
        for (cell, entry) in neighbour_table(board.width(), board.height())
            .into_iter()
            .enumerate()
        {
            neighbours[cell] = entry.map(|(m, to)| (m, to as u16));
        }
        let mut engine = Engine {
            heuristic,
            cells,
            tiles: [0; CAP],
            goal: goal_tiles,
            neighbours,
            fsm: pruning.fsm.table(),
            bpmx: pruning.bpmx,
            slack: if pruning.bpmx && !heuristic.consistent() {
                2
            } else {
                0
            },
            ordered: pruning.ordered,
            children: Vec::new(),
            start: pruning.fsm.start(),
            path: Vec::with_capacity(256),
            bound: 0,
            expanded: 0,
            generated: 0,
            check_at: control.next_check(0),
            control,
            split_depth: u32::MAX,
            trail: Vec::new(),
        };
        engine.load(board.tiles());
        engine
    }

    /// Puts `tiles` on the board (the start of a new depth-first search).
    pub(crate) fn load(&mut self, tiles: &[Tile]) {
        self.tiles[..self.cells].copy_from_slice(tiles);
    }

    /// The tiles as they stand.
    pub(crate) fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.cells]
    }

    /// The automaton's state before any move.
    pub(crate) fn start_state(&self) -> u32 {
        self.start
    }

    /// The search value at the start (the refined one with BPMX on, as for every other node).
    pub(crate) fn start_value(&self, h: u32, aux: &mut H::Aux, blank: usize) -> u32 {
        if self.bpmx {
            self.heuristic.refine(self.tiles(), blank, h, aux, u32::MAX)
        } else {
            h
        }
    }

    /// Searches below the node whose blank is on `blank`, reached with cost `g`, with
    /// heuristic value `h` (as `update` returned it) and search value `hb >= h`, in automaton
    /// state `state`. Returns FOUND, ABORTED, or the smallest f that exceeded the bound.
    pub(crate) fn dfs(
        &mut self,
        blank: usize,
        g: u32,
        h: u32,
        hb: u32,
        aux: &H::Aux,
        state: u32,
    ) -> u32 {
        let mask = CAP - 1;
        let at_goal = h == 0 && self.tiles[..self.cells] == self.goal[..self.cells];
        if C::SPLITS && (at_goal || g == self.split_depth) {
            self.control.job(Job {
                tiles: self.tiles().to_vec(),
                path: self.trail.clone(),
                blank,
                g,
                h,
                hb,
                aux: *aux,
                state,
            });
            // The job's own search reports its f values; a goal ends the walk.
            return if at_goal { FOUND } else { UNBOUNDED };
        }
        if at_goal {
            return FOUND;
        }
        // Counted once its children are to come: a node the limits stop at is not expanded
        // (so a search stopped at once never reports more expanded than generated).
        if self.generated >= self.check_at && self.check() {
            return ABORTED;
        }
        self.expanded += 1;
        // Ordering pays where the subtrees are large: in the top third of the tree (below,
        // most nodes are, and the subtrees a poor order would search first are small).
        if self.ordered && 3 * g < self.bound {
            return self.expand_ordered(blank, g, h, hb, aux, state);
        }
        let mut next_bound = UNBOUNDED;
        let mut hb = hb;
        for (m, to, child_state) in self.open_moves(blank, state) {
            let to = to as usize & mask;
            let tile = self.tiles[to];
            let mut child_aux = *aux;
            let (child_h, child_hb) = self.move_and_value(blank, to, g, h, hb, &mut child_aux);
            let f = g + 1 + child_hb;
            let result = if f > self.bound {
                f
            } else {
                if C::SPLITS {
                    self.trail.push(m);
                }
                let r = self.dfs(to, g + 1, child_h, child_hb, &child_aux, child_state);
                if C::SPLITS {
                    self.trail.pop();
                }
                if r == FOUND {
                    self.path.push(m);
                    return FOUND;
                }
                r
            };
            self.tiles[to] = tile;
            self.tiles[blank & mask] = BLANK;
            if result == ABORTED {
                return ABORTED;
            }
            next_bound = next_bound.min(result);
            if self.bpmx && child_hb > hb + 1 {
                // The child proves this node farther than thought: past the bound, its other
                // children need no search in this iteration.
                hb = child_hb - 1;
                if g + hb > self.bound {
                    return next_bound.min(g + hb);
                }
            }
        }
        next_bound
    }

    /// The moves out of a node with the blank on `blank` and the automaton in `state` that the
    /// automaton does not prune, in the fixed order: each move, its target cell and the
    /// automaton's state after it. Owned copies, so that the search can change the board
    /// while it walks them.
    #[inline(always)]
    fn open_moves(&self, blank: usize, state: u32) -> impl Iterator<Item = (u8, u16, u32)> {
        let entry = self.neighbours[blank & (CAP - 1)];
        let row = self.fsm[state as usize];
        entry.into_iter().filter_map(move |(m, to)| {
            let child_state = row[m as usize & 3];
            (m != NO_MOVE && child_state != PRUNED).then_some((m, to, child_state))
        })
    }

    /// Slides the tile on `to` into the blank on `blank` (a child of the node at depth `g` with
    /// heuristic value `h` and search value `hb`) and counts it generated; `child_aux` comes in
    /// as the parent's heuristic state and leaves as the child's. Returns the child's heuristic
    /// value and its search value (with BPMX, raised by the parent's and refined). The caller
    /// slides the tile back.
    #[inline(always)]
    fn move_and_value(
        &mut self,
        blank: usize,
        to: usize,
        g: u32,
        h: u32,
        hb: u32,
        child_aux: &mut H::Aux,
    ) -> (u32, u32) {
        let mask = CAP - 1;
        self.generated += 1;
        let tile = self.tiles[to];
        self.tiles[blank & mask] = tile;
        self.tiles[to] = BLANK;
        // A child past the bound is cut off whatever its exact value: the update may stop
        // once the value passes the limit (the state of a cut child is dropped).
        let limit = self.bound.saturating_sub(g + 1);
        let within = limit + self.slack;
        let child_h = self.heuristic.update_within(
            &self.tiles[..self.cells],
            tile,
            to,
            blank,
            h,
            child_aux,
            within,
        );
        let mut child_hb = child_h;
        if self.bpmx {
            child_hb = child_hb.max(hb.saturating_sub(1));
            // Only a node the cheap value left inside the bound is refined, and only until its
            // value passes the bound.
            if g + 1 + child_hb <= self.bound {
                child_hb = self.heuristic.refine(
                    &self.tiles[..self.cells],
                    to,
                    child_hb,
                    child_aux,
                    limit,
                );
            }
        }
        (child_h, child_hb)
    }

    /// The children of the node [`Engine::dfs`] expands (same arguments), all generated and
    /// valued first, then searched smallest value first: in the last iteration the goal lies
    /// below the children that look closest, so it is met sooner (any order searches the same
    /// nodes in the other iterations), and with BPMX every child's value raises the parent's
    /// before any subtree is searched.
    fn expand_ordered(
        &mut self,
        blank: usize,
        g: u32,
        h: u32,
        hb: u32,
        aux: &H::Aux,
        state: u32,
    ) -> u32 {
        let mask = CAP - 1;
        let base = 4 * g as usize;
        // Each child's state is written once, into its slot, and the slots stay put while the
        // order is sorted as indices: with the large sets a state is over 200 bytes, and
        // copying it into a slot, through the sort and out again took 4 % of the search's
        // instructions. The vector is taken out while the children are made, so that a slot
        // can be written while the engine makes the move.
        let mut kids = std::mem::take(&mut self.children);
        if kids.len() < base + 4 {
            let filler = Child {
                m: NO_MOVE,
                to: 0,
                state: 0,
                h: 0,
                hb: 0,
                aux: *aux,
            };
            kids.resize(base + 8, filler);
        }
        let mut count = 0;
        let mut hb = hb;
        for (m, to, child_state) in self.open_moves(blank, state) {
            let cell = to as usize & mask;
            let tile = self.tiles[cell];
            let slot = &mut kids[base + count];
            slot.aux = *aux;
            let (child_h, child_hb) = self.move_and_value(blank, cell, g, h, hb, &mut slot.aux);
            if self.bpmx {
                hb = hb.max(child_hb.saturating_sub(1));
            }
            self.tiles[cell] = tile;
            self.tiles[blank & mask] = BLANK;
            slot.m = m;
            slot.to = to;
            slot.state = child_state;
            slot.h = child_h;
            slot.hb = child_hb;
            count += 1;
        }
        self.children = kids;
        // A child far away proves this node at most one move nearer: past the bound, none of
        // the children needs a search in this iteration.
        if g + hb > self.bound {
            return g + hb;
        }
        // Smallest value first; among equals, the fixed order of the moves.
        let mut order = [0u8, 1, 2, 3];
        let value = |k: u8| self.children[base + k as usize].hb;
        for i in 1..count {
            let mut j = i;
            while j > 0 && value(order[j - 1]) > value(order[j]) {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut next_bound = UNBOUNDED;
        for &k in &order[..count] {
            let child = self.children[base + k as usize];
            // The parent's value, raised by its other children, bounds each child's too.
            let child_hb = child.hb.max(hb.saturating_sub(1));
            let f = g + 1 + child_hb;
            if f > self.bound {
                // The others come later in the order: no smaller.
                next_bound = next_bound.min(f);
                break;
            }
            let to = child.to as usize & mask;
            let tile = self.tiles[to];
            self.tiles[blank & mask] = tile;
            self.tiles[to] = BLANK;
            if C::SPLITS {
                self.trail.push(child.m);
            }
            let r = self.dfs(to, g + 1, child.h, child_hb, &child.aux, child.state);
            if C::SPLITS {
                self.trail.pop();
            }
            self.tiles[to] = tile;
            self.tiles[blank & mask] = BLANK;
            if r == FOUND {
                self.path.push(child.m);
                return FOUND;
            }
            if r == ABORTED {
                return ABORTED;
            }
            next_bound = next_bound.min(r);
        }
        next_bound
    }

    #[cold]
    fn check(&mut self) -> bool {
        self.check_at = self.control.next_check(self.generated);
        self.control.stop(self.generated, self.expanded, self.bound)
    }
}

/// A child of a node on the current path ([`Engine::expand_ordered`]): its move, cell and
/// automaton state, its heuristic value and its search value, and its heuristic state.
#[derive(Clone, Copy)]
struct Child<A> {
    m: u8,
    to: u16,
    state: u32,
    h: u32,
    hb: u32,
    aux: A,
}

/// The sequential search's stop check: the limits, and progress reports.
struct Sequential<'a> {
    limits: &'a Limits,
    hit: Option<LimitHit>,
    progress: Option<ProgressFn<'a>>,
    started: Stopwatch,
}

impl<A> Control<A> for Sequential<'_> {
    fn stop(&mut self, generated: u64, expanded: u64, bound: u32) -> bool {
        if let Err(hit) = self.limits.check(generated) {
            self.hit = Some(hit);
            return true;
        }
        if let Some(p) = self.progress {
            p(Progress {
                generated,
                expanded,
                bound,
                elapsed: self.started.elapsed(),
                best: None,
                best_moves: None,
            });
        }
        false
    }

    fn next_check(&self, generated: u64) -> u64 {
        // IDA*'s nodes cost the same whatever the board (up to MAX_CELLS): one unit each.
        self.limits.next_check(generated, generated)
    }
}

/// What work done between two iterations of IDA* gave ([`Between`]).
#[derive(Debug, Default)]
pub(crate) struct Interlude {
    /// The shortest solution it knows, if any. IDA* returns it, as optimal, once it is no longer
    /// than the bound of the next iteration: every shorter bound was searched without finding
    /// the goal.
    pub moves: Option<Vec<Move>>,
    /// Nodes it generated (counted with the search's, and but for `earlier`, against its node
    /// budget).
    pub generated: u64,
    /// Nodes it expanded.
    pub expanded: u64,
    /// The largest memory estimate it reached, in bytes.
    pub peak_memory_bytes: usize,
    /// Of `generated` and `expanded`, the nodes of earlier sittings of a resumed search (work
    /// that kept its place, [`crate::search::checkpoint`]): counted in the search's totals, not
    /// against this sitting's limits.
    pub earlier: (u64, u64),
}

/// Work IDA* runs before each iteration: the solver's search for a solution as short as the
/// next bound on large boards ([`crate::solvers::anytime::BeamIncumbent`]), which makes that
/// iteration, the most expensive one when it is the last, unnecessary. Called with the bound of
/// the iteration about to start, the nodes each iteration before it generated, the nodes the
/// whole search generated and expanded so far (over every sitting of a resumed search), and of
/// those generated, the ones of this sitting (which the caller's limits count).
pub(crate) type Between<'a> = &'a mut dyn FnMut(u32, &[u64], (u64, u64), u64) -> Interlude;

/// Runs `between` (if any) before the iteration with `bound`, adding its nodes to `stats`
/// (the search's so far over every sitting, which it times) and to `earlier` (those of the
/// sittings before this one, which the limits do not count) those it says are of earlier
/// sittings: its solution when no longer than `bound` (optimal: it ends the search), or the
/// limit this sitting's nodes reached.
pub(crate) fn interlude(
    between: &mut Option<Between>,
    bound: u32,
    sizes: &[u64],
    limits: &Limits,
    (stats, earlier): (&mut Stats, &mut (u64, u64)),
    started: Stopwatch,
) -> Result<Option<Solution>, SolveError> {
    let Some(between) = between else {
        return Ok(None);
    };
    let sitting = stats.generated - earlier.0;
    let found = between(bound, sizes, (stats.generated, stats.expanded), sitting);
    stats.generated += found.generated;
    stats.expanded += found.expanded;
    earlier.0 += found.earlier.0;
    earlier.1 += found.earlier.1;
    stats.peak_memory_bytes = stats.peak_memory_bytes.max(found.peak_memory_bytes);
    stats.elapsed = started.elapsed();
    if let Some(moves) = found.moves.filter(|m| m.len() as u64 <= u64::from(bound)) {
        // Shorter than the bound would mean an iteration missed a solution.
        debug_assert_eq!(moves.len() as u64, u64::from(bound));
        // The iteration with `bound` is not run.
        let stats = Stats {
            iterations: stats.iterations - 1,
            ..stats.clone()
        };
        return Ok(Some(Solution {
            moves,
            optimal: true,
            stats,
            ..Solution::default()
        }));
    }
    match limits.check(stats.generated - earlier.0) {
        Err(hit) if found.generated > found.earlier.0 => Err(SolveError::Limit {
            hit,
            stats: stats.clone(),
            bound,
        }),
        _ => Ok(None),
    }
}

/// Iterative deepening from `board` until a solution, a limit, or exhaustion.
fn run<H: Incremental, const CAP: usize>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    limits: &Limits,
    progress: Option<ProgressFn>,
    mut between: Option<Between>,
) -> Result<Solution, SolveError> {
    let started = Stopwatch::start();
    let control = Sequential {
        limits,
        hit: None,
        progress,
        started,
    };
    let mut engine = Engine::<H, Sequential, CAP>::new(board, goal, heuristic, pruning, control);
    let (h0, mut aux0) = heuristic.init(engine.tiles());
    let hb0 = engine.start_value(h0, &mut aux0, board.blank());
    let start = engine.start_state();
    engine.bound = hb0;
    let mut iterations = 0;
    // Nodes generated by each iteration, for `between`.
    let mut sizes: Vec<u64> = Vec::new();
    // What `between` reached (IDA*'s own memory is the path).
    let mut peak_memory_bytes = 0;
    loop {
        iterations += 1;
        let mut so_far = Stats {
            expanded: engine.expanded,
            generated: engine.generated,
            iterations,
            peak_memory_bytes,
            ..Stats::default()
        };
        let ended = interlude(
            &mut between,
            engine.bound,
            &sizes,
            limits,
            (&mut so_far, &mut (0, 0)),
            started,
        )?;
        if let Some(solution) = ended {
            return Ok(solution);
        }
        (engine.generated, engine.expanded) = (so_far.generated, so_far.expanded);
        peak_memory_bytes = so_far.peak_memory_bytes;
        let before = engine.generated;
        let r = engine.dfs(board.blank(), 0, h0, hb0, &aux0, start);
        sizes.push(engine.generated - before);
        let stats = Stats {
            expanded: engine.expanded,
            generated: engine.generated,
            elapsed: started.elapsed(),
            iterations,
            peak_memory_bytes,
            ..Stats::default()
        };
        match r {
            FOUND => {
                let moves = engine
                    .path
                    .iter()
                    .rev()
                    .map(|&m| Move::ALL[m as usize])
                    .collect();
                return Ok(Solution {
                    moves,
                    optimal: true,
                    stats,
                    ..Solution::default()
                });
            }
            ABORTED => {
                return Err(SolveError::Limit {
                    hit: engine.control.hit.unwrap_or(LimitHit::Cancelled),
                    stats,
                    bound: engine.bound,
                })
            }
            UNBOUNDED => return Err(SolveError::Unsupported(
                "the search space was exhausted without reaching the goal: the goal is unreachable"
                    .into(),
            )),
            next => {
                engine.bound = next;
                if let Some(p) = progress {
                    p(Progress {
                        generated: engine.generated,
                        expanded: engine.expanded,
                        bound: next,
                        elapsed: stats.elapsed,
                        best: None,
                        best_moves: None,
                    });
                }
            }
        }
    }
}

/// Optimal moves from `board` to `goal` by IDA* with `heuristic` (built for `goal`), pruning
/// only the move back ([`Pruning::plain`]: Korf's IDA*, whose node counts are the published
/// ones).
///
/// The caller checks solvability first ([`crate::solve`] does); on an unsolvable pair IDA* would
/// only stop at a limit.
pub fn idastar<H: Incremental>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    idastar_with(board, goal, heuristic, Pruning::plain(), limits, progress)
}

/// [`idastar`] with the pruning `pruning` ([`Pruning::full`] is what the solver uses).
pub fn idastar_with<H: Incremental>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    idastar_between(board, goal, heuristic, pruning, limits, progress, None)
}

/// [`idastar_with`] running `between` before each iteration (see [`Between`]).
pub(crate) fn idastar_between<H: Incremental>(
    board: &Board,
    goal: &Board,
    heuristic: &H,
    pruning: Pruning,
    limits: &Limits,
    progress: Option<ProgressFn>,
    between: Option<Between>,
) -> Result<Solution, SolveError> {
    board.check_same_size(goal)?;
    if board.len() <= 64 {
        run::<H, 64>(board, goal, heuristic, pruning, limits, progress, between)
    } else if board.len() <= MAX_CELLS {
        run::<H, MAX_CELLS>(board, goal, heuristic, pruning, limits, progress, between)
    } else {
        Err(too_large(board))
    }
}

/// The error for a board past [`MAX_CELLS`].
pub(crate) fn too_large(board: &Board) -> SolveError {
    SolveError::Unsupported(format!(
        "IDA* takes boards of up to {MAX_CELLS} cells and this one has {}: choose the \
         constructive or the anytime algorithm for large boards",
        board.len()
    ))
}
