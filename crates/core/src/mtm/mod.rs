//! Solutions optimal in the multi-tile metric ([`Metric::Mtm`]): IDA* (Korf 1985) whose moves
//! are the slides of 1 to `side - 1` tiles of the blank's row or column at once, each costing 1.
//!
//! Two facts keep the tree small. An optimal solution never follows a slide by another in the
//! same line (the two would merge into one slide, or cancel), so horizontal and vertical
//! slides alternate: the branching factor is `width - 1` or `height - 1`. And at least `a`
//! horizontal and `b` vertical slides remain, where `b` is the larger of the multi-tile walking
//! distance of the rows (`walking_distance`) and `ceil(V / (height - 1))`, `V` the tiles'
//! total vertical Manhattan distance (a slide of `k <= height - 1` tiles moves each by one row),
//! and `a` likewise for columns. With alternation, the bound is `max(a + b, 2a, 2b - 1)` when
//! the next slide must be vertical (and symmetrically), which never exceeds the true MTM
//! distance (admissible; tested against a breadth-first search in MTM over every 8-puzzle
//! state in `tests/mtm.rs`).
//!
//! Multi-tile pattern databases ([`pdb`], chosen by [`sets`], stored by [`store`]) raise the
//! bound to their maximum; each is read on the board and, on a square board, on its mirror
//! image in the diagonal. [`MtmSolver::with_threads`] shares each iteration out over threads.

mod parallel;
pub mod pdb;
pub mod sets;
pub mod store;
pub(crate) mod walking_distance;

use std::sync::Arc;

use crate::clock::Instant;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::GoalGeometry;
use crate::limits::{LimitHit, Limits, Progress, ProgressFn};
use crate::metric::Metric;
use crate::moves::Move;
use crate::solution::{verify_moves, Solution, SolveError, Stats};
use crate::solvability::check_solvable;
use pdb::MtmPdb;
use walking_distance::Table;

/// The orientation the next slide must have, after the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    /// At the start: either.
    Any,
    /// After a vertical slide.
    Horizontal,
    /// After a horizontal slide.
    Vertical,
}

/// Lower bound on the MTM distance: `a` horizontal and `b` vertical slides still needed, slides
/// alternating, the first of them of orientation `next`.
fn alternating_bound(a: u32, b: u32, next: Next) -> u32 {
    // A sequence that starts with orientation X and holds m slides of orientation Y has at
    // least 2m moves (Y in even places) and, for X, at least 2m - 1.
    let lead = |first: u32, second: u32| (2 * first).saturating_sub(1).max(2 * second);
    let alternating = match next {
        Next::Any => (2 * a.max(b)).saturating_sub(1),
        Next::Horizontal => lead(a, b),
        Next::Vertical => lead(b, a),
    };
    (a + b).max(alternating)
}

/// Solves boards toward one goal with the fewest multi-tile moves; holds that goal's
/// walking-distance tables, so that many boards can share them.
#[derive(Debug, Clone)]
pub struct MtmSolver {
    goal: Board,
    geometry: GoalGeometry,
    /// Row counts (vertical slides), when the board is small enough for a table.
    rows: Option<Table>,
    /// Column counts (horizontal slides).
    columns: Option<Table>,
    /// Threads of one search.
    threads: usize,
    /// Multi-tile pattern databases, each read once as built and, on a square board whose
    /// goal blank is on the diagonal, once more on the transposed board.
    databases: Vec<Lookup>,
}

/// One way to read a pattern database during the search.
#[derive(Debug, Clone)]
struct Lookup {
    db: Arc<MtmPdb>,
    /// The tiles whose cells are read, in the table's order.
    tiles: Vec<Tile>,
    /// Read on the board mirrored in its main diagonal.
    transposed: bool,
}

impl MtmSolver {
    /// The solver for `goal`. Builds its two walking-distance tables (a fraction of a second
    /// for the 15-puzzle); boards with more than 5 rows or columns, or too many count tables
    /// (the 24-puzzle), go without them. [`MtmSolver::within`] builds them within limits.
    pub fn new(goal: &Board) -> MtmSolver {
        MtmSolver::within(goal, &Limits::none()).expect("no limit to reach")
    }

    /// [`MtmSolver::new`] within `limits`: the tables' builds check the cancel flag and the
    /// deadline every few milliseconds, and their bytes against the memory budget before
    /// anything is allocated (a node budget of 0 stops them too, as it does every table build).
    pub fn within(goal: &Board, limits: &Limits) -> Result<MtmSolver, LimitHit> {
        MtmSolver::with_tables(goal, limits, walking_distance::MAX_STATES)
    }

    /// The solver for `goal` with only the walking-distance tables that build at once (at most
    /// [`MtmSolver::AT_ONCE_STATES`] count tables each, milliseconds: the 15-puzzle's but not
    /// the 3x5 board's rows), for a bound needed without delay, e.g. after a limit stopped the
    /// planned solver.
    pub fn at_once(goal: &Board) -> MtmSolver {
        MtmSolver::with_tables(goal, &Limits::none(), MtmSolver::AT_ONCE_STATES)
            .expect("no limit to reach")
    }

    /// Most count tables of a walking-distance table [`MtmSolver::at_once`] builds.
    pub const AT_ONCE_STATES: usize = 30_000;

    /// The solver for `goal` with the walking-distance tables of at most `most_states` count
    /// tables, built within `limits` (both tables' bytes checked before either is built).
    fn with_tables(
        goal: &Board,
        limits: &Limits,
        most_states: usize,
    ) -> Result<MtmSolver, LimitHit> {
        let (w, h) = (goal.width(), goal.height());
        // Rows: `h` lines of `w` cells (vertical slides); columns the other way.
        let shapes = [(h, w, goal.blank() / w), (w, h, goal.blank() % w)];
        let states = shapes.map(|(lines, per_line, blank)| {
            Table::states(lines, per_line, blank).filter(|&n| n <= most_states)
        });
        let bytes = states.iter().flatten().map(|&n| Table::bytes(n)).sum();
        limits.check_memory(bytes)?;
        limits.check(0)?;
        let mut tables = [None, None];
        for ((table, (lines, per_line, blank)), states) in tables.iter_mut().zip(shapes).zip(states)
        {
            if states.is_some() {
                *table = Table::build(lines, per_line, blank, limits)?;
            }
        }
        let [rows, columns] = tables;
        Ok(MtmSolver {
            goal: goal.clone(),
            geometry: GoalGeometry::new(goal),
            rows,
            columns,
            databases: Vec::new(),
            threads: 1,
        })
    }

    /// The same solver searching on `threads` threads (0: every core). Each iteration shares
    /// out the subtrees below the first two slides; the moves are those of one thread, as the
    /// first solution in the sequential order is kept.
    pub fn with_threads(mut self, threads: usize) -> MtmSolver {
        self.threads = crate::search::parallel::threads_or_cores(threads);
        self
    }

    /// The solver for `goal` with multi-tile pattern databases besides the walking distance:
    /// the bound is the largest of them. Each table must be for `goal`'s size and blank cell;
    /// its pattern tiles are the goal's tiles on the table's cells.
    pub fn with_databases(goal: &Board, databases: Vec<Arc<MtmPdb>>) -> MtmSolver {
        MtmSolver::new(goal).and_databases(databases)
    }

    /// This solver with `databases` besides its bound, as [`MtmSolver::with_databases`].
    pub(crate) fn and_databases(mut self, databases: Vec<Arc<MtmPdb>>) -> MtmSolver {
        let goal = self.goal.clone();
        let (w, h) = (goal.width(), goal.height());
        // Transposing the board turns slides into slides and keeps the goal's blank in place
        // when it is on the diagonal, so the mirrored board is as far from the goal (relabelled
        // by the same mirror) as the board: a table for the cells P also bounds the tiles
        // whose goal cells are the mirror images of P, read at the mirrored cells.
        let symmetric = w == h && goal.blank() % w == goal.blank() / w;
        for db in databases {
            let spec = db.spec();
            if (spec.width, spec.height, spec.blank_goal) != (w, h, goal.blank()) {
                continue;
            }
            let tiles_on = |cells: &mut dyn Iterator<Item = usize>| -> Vec<Tile> {
                cells.map(|c| goal.tiles()[c]).collect()
            };
            let straight = tiles_on(&mut spec.cells.iter().copied());
            if symmetric {
                let mirrored = tiles_on(&mut spec.cells.iter().map(|&c| transpose(c, w)));
                self.databases.push(Lookup {
                    db: db.clone(),
                    tiles: mirrored,
                    transposed: true,
                });
            }
            self.databases.push(Lookup {
                db,
                tiles: straight,
                transposed: false,
            });
        }
        self
    }

    /// A lower bound on the multi-tile moves from `board` (of the goal's size) to the goal:
    /// the bound the search starts from, never above the true MTM distance.
    pub fn lower_bound(&self, board: &Board) -> u32 {
        let limits = Limits::none();
        self.search(board, &limits, None, Instant::now())
            .estimate(Next::Any, u32::MAX)
    }

    /// A search positioned on `board`: tiles, distance sums and count-table keys.
    fn search<'a>(
        &'a self,
        board: &Board,
        limits: &'a Limits,
        progress: Option<ProgressFn<'a>>,
        started: Instant,
    ) -> Search<'a> {
        let (w, h) = (board.width(), board.height());
        let mut search = Search {
            width: w,
            height: h,
            tiles: board.tiles().to_vec(),
            cell_of: board.positions(),
            blank: board.blank(),
            horizontal: 0,
            vertical: 0,
            solver: self,
            row_key: 0,
            column_key: 0,
            row_distance: 0,
            column_distance: 0,
            path: Vec::new(),
            stats: Stats::default(),
            limits,
            next_check: limits.next_check(0, 0),
            started,
            bound: 0,
            progress,
            shared: None,
        };
        let tiles = || {
            board
                .tiles()
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t != BLANK)
        };
        for (cell, &t) in tiles() {
            let (dc, dr) = search.distances(t, cell);
            search.horizontal += dc;
            search.vertical += dr;
        }
        let g = &self.geometry;
        if let Some(rows) = &self.rows {
            let lines = tiles().map(|(cell, &t)| (cell / w, g.goal_row(t)));
            search.row_key = rows.key(lines, board.blank() / w);
        }
        if let Some(columns) = &self.columns {
            let lines = tiles().map(|(cell, &t)| (cell % w, g.goal_col(t)));
            search.column_key = columns.key(lines, board.blank() % w);
        }
        search.refresh_walking_distance(true);
        search.refresh_walking_distance(false);
        search
    }

    /// Finds a solution of `board` with the fewest multi-tile moves. The moves are returned
    /// one cell at a time (as every solution in taquin), so a slide of three tiles is three
    /// equal letters; [`crate::metric::metrics`] counts them. `optimal` means optimal in MTM.
    pub fn solve(
        &self,
        board: &Board,
        limits: &Limits,
        progress: Option<ProgressFn>,
    ) -> Result<Solution, SolveError> {
        let started = Instant::now();
        let goal = &self.goal;
        check_solvable(board, goal)?;
        let mut search = self.search(board, limits, progress, started);
        search.bound = search.estimate(Next::Any, u32::MAX);
        loop {
            search.stats.iterations += 1;
            if let Some(report) = progress {
                report(search.snapshot());
            }
            // Every solution is at least 3 slides long past that bound, so the first two
            // slides can be shared out without missing a shorter one.
            let outcome = if self.threads > 1 && search.bound >= 3 {
                parallel::iteration(self, board, &mut search)
            } else {
                search.dfs(0, Next::Any)
            };
            match outcome {
                Outcome::Found => break,
                Outcome::Above(next) => search.bound = next,
                Outcome::Stopped(hit) => {
                    search.stats.elapsed = started.elapsed();
                    return Err(SolveError::Limit {
                        hit,
                        stats: search.stats,
                        bound: search.bound,
                    });
                }
            }
        }
        let moves: Vec<Move> = search
            .path
            .iter()
            .flat_map(|&(mv, k)| std::iter::repeat_n(mv, k))
            .collect();
        verify_moves(board, goal, &moves)?;
        debug_assert_eq!(Metric::Mtm.length(&moves) as u32, search.bound);
        let mut stats = search.stats;
        stats.elapsed = started.elapsed();
        Ok(Solution {
            moves,
            optimal: true,
            stats,
            ..Solution::default()
        })
    }
}

/// The cell mirrored in the main diagonal of a square board of side `side`.
fn transpose(cell: usize, side: usize) -> usize {
    (cell % side) * side + cell / side
}

/// Finds a solution of `board` to `goal` with the fewest multi-tile moves: [`MtmSolver::solve`]
/// with the goal's tables built for this one call, within `limits` too (their time is in the
/// stats' `elapsed`).
pub fn solve_mtm(
    board: &Board,
    goal: &Board,
    limits: &Limits,
    progress: Option<ProgressFn>,
) -> Result<Solution, SolveError> {
    board.check_same_size(goal)?;
    let started = Instant::now();
    let solver = MtmSolver::within(goal, limits).map_err(|hit| SolveError::Limit {
        hit,
        stats: Stats {
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        bound: 0,
    })?;
    let set_up = started.elapsed();
    // Stats count the tables' set-up too, as every other search's do.
    let add_set_up = |mut stats: Stats| {
        stats.elapsed += set_up;
        stats
    };
    match solver.solve(board, limits, progress) {
        Ok(solution) => Ok(Solution {
            stats: add_set_up(solution.stats),
            ..solution
        }),
        Err(SolveError::Limit { hit, stats, bound }) => Err(SolveError::Limit {
            hit,
            stats: add_set_up(stats),
            bound,
        }),
        Err(err) => Err(err),
    }
}

enum Outcome {
    Found,
    /// No solution within the bound; the smallest f seen above it.
    Above(u32),
    Stopped(LimitHit),
}

struct Search<'a> {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    /// `cell_of[t]`: the cell of tile `t`, for the pattern databases.
    cell_of: Vec<usize>,
    blank: usize,
    /// Sum of the tiles' column distances to their goal columns.
    horizontal: u32,
    /// Sum of the tiles' row distances to their goal rows.
    vertical: u32,
    solver: &'a MtmSolver,
    /// Keys of the row and column count tables (0 when there is no table).
    row_key: u128,
    column_key: u128,
    /// The walking distances of those keys (0 without a table).
    row_distance: u32,
    column_distance: u32,
    /// The slides so far: the blank's direction and how many cells.
    path: Vec<(Move, usize)>,
    stats: Stats,
    limits: &'a Limits,
    next_check: u64,
    started: Instant,
    bound: u32,
    progress: Option<ProgressFn<'a>>,
    /// In a parallel iteration: what the threads share.
    shared: Option<parallel::Shared<'a>>,
}

impl Search<'_> {
    /// Column and row distance of tile `t` at `cell` from its goal cell.
    fn distances(&self, t: Tile, cell: usize) -> (u32, u32) {
        let (c, r) = (cell % self.width, cell / self.width);
        (
            c.abs_diff(self.solver.geometry.goal_col(t)) as u32,
            r.abs_diff(self.solver.geometry.goal_row(t)) as u32,
        )
    }

    /// The lower bound with the next slide of orientation `next`. Stops at the first part
    /// that exceeds `limit` (the search's budget for this node), which it returns: the cheap
    /// parts come first, so most cut-off nodes never read a pattern database.
    fn estimate(&self, next: Next, limit: u32) -> u32 {
        let a = self
            .horizontal
            .div_ceil(self.width as u32 - 1)
            .max(self.column_distance);
        let b = self
            .vertical
            .div_ceil(self.height as u32 - 1)
            .max(self.row_distance);
        let mut bound = alternating_bound(a, b, next);
        for lookup in &self.solver.databases {
            if bound > limit {
                break;
            }
            let cells = lookup.tiles.iter().map(|&t| self.cell_of[t as usize]);
            let d = if lookup.transposed {
                let w = self.width;
                let cells = cells.map(|c| transpose(c, w));
                lookup.db.distance(transpose(self.blank, w), cells)
            } else {
                lookup.db.distance(self.blank, cells)
            };
            bound = bound.max(d);
        }
        bound
    }

    /// Looks up the walking distance of the rows (after a vertical slide) or of the columns.
    fn refresh_walking_distance(&mut self, vertical: bool) {
        if vertical {
            if let Some(rows) = &self.solver.rows {
                self.row_distance = rows.distance(self.row_key);
            }
        } else if let Some(columns) = &self.solver.columns {
            self.column_distance = columns.distance(self.column_key);
        }
    }

    fn snapshot(&self) -> Progress {
        Progress {
            generated: self.stats.generated,
            expanded: self.stats.expanded,
            bound: self.bound,
            elapsed: self.started.elapsed(),
            best: None,
            best_moves: None,
        }
    }

    /// Moves the blank one cell by `mv` (known legal), updating the distance sums.
    fn step(&mut self, mv: Move) {
        let to = mv
            .target(self.blank, self.width, self.height)
            .expect("slides stay on the board");
        let t = self.tiles[to];
        let (oc, or) = self.distances(t, to);
        let (nc, nr) = self.distances(t, self.blank);
        self.horizontal = self.horizontal + nc - oc;
        self.vertical = self.vertical + nr - or;
        let g = &self.solver.geometry;
        let w = self.width;
        if mv.is_vertical() {
            if let Some(rows) = &self.solver.rows {
                self.row_key = rows.moved(self.row_key, g.goal_row(t), to / w, self.blank / w);
            }
        } else if let Some(columns) = &self.solver.columns {
            self.column_key = columns.moved(self.column_key, g.goal_col(t), to % w, self.blank % w);
        }
        self.tiles.swap(self.blank, to);
        self.cell_of[t as usize] = self.blank;
        self.blank = to;
    }

    fn dfs(&mut self, g: u32, next: Next) -> Outcome {
        let f = g + self.estimate(next, self.bound.saturating_sub(g));
        if f > self.bound {
            return Outcome::Above(f);
        }
        if self.horizontal == 0 && self.vertical == 0 {
            return Outcome::Found;
        }
        self.stats.expanded += 1;
        if self.stats.generated >= self.next_check {
            let (generated, threads) = match &mut self.shared {
                Some(shared) => match shared.check(self.stats.generated) {
                    Some(total) => (total, self.solver.threads),
                    // Another thread found a solution that comes first.
                    None => return Outcome::Stopped(LimitHit::Cancelled),
                },
                None => (self.stats.generated, 1),
            };
            // Counted from every thread's nodes, as far as this thread's share of the node
            // budget left allows.
            let step = self.limits.next_check_of(generated, generated, threads) - generated;
            self.next_check = self.stats.generated + step;
            if let Err(hit) = self.limits.check(generated) {
                return Outcome::Stopped(hit);
            }
            if let Some(report) = self.progress {
                report(self.snapshot());
            }
        }
        let mut smallest = u32::MAX;
        for mv in Move::ALL {
            let (allowed, after) = if mv.is_vertical() {
                (next != Next::Horizontal, Next::Horizontal)
            } else {
                (next != Next::Vertical, Next::Vertical)
            };
            if !allowed {
                continue;
            }
            let mut k = 0;
            let saved = (self.row_distance, self.column_distance);
            while mv.target(self.blank, self.width, self.height).is_some() {
                self.step(mv);
                self.refresh_walking_distance(mv.is_vertical());
                k += 1;
                self.stats.generated += 1;
                self.path.push((mv, k));
                let outcome = self.dfs(g + 1, after);
                match outcome {
                    Outcome::Found => return outcome,
                    Outcome::Stopped(_) => {
                        self.undo(mv, k);
                        return outcome;
                    }
                    Outcome::Above(f) => smallest = smallest.min(f),
                }
                self.path.pop();
            }
            self.undo(mv, k);
            (self.row_distance, self.column_distance) = saved;
        }
        Outcome::Above(smallest)
    }

    /// Slides back the `k` tiles a run of the blank in direction `mv` moved.
    fn undo(&mut self, mv: Move, k: usize) {
        for _ in 0..k {
            self.step(mv.inverse());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metric::metrics;

    #[test]
    fn the_bound_counts_alternation() {
        assert_eq!(alternating_bound(0, 0, Next::Any), 0);
        assert_eq!(alternating_bound(3, 0, Next::Any), 5);
        assert_eq!(alternating_bound(3, 0, Next::Vertical), 6);
        assert_eq!(alternating_bound(3, 0, Next::Horizontal), 5);
        assert_eq!(alternating_bound(2, 2, Next::Any), 4);
    }

    #[test]
    fn a_row_slid_at_once_is_one_move() {
        let goal = Board::solved(4, 4).unwrap();
        let board = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/0 13 14 15").unwrap();
        let s = solve_mtm(&board, &goal, &Limits::none(), None).unwrap();
        assert_eq!(metrics(&s.moves), (3, 1));
        assert!(s.optimal);
        let board = Board::parse("6 4 7/8 5 0/3 2 1").unwrap();
        let s = solve_mtm(&board, &Board::solved(3, 3).unwrap(), &Limits::none(), None).unwrap();
        let (stm, mtm) = metrics(&s.moves);
        assert!(stm >= 31 && mtm <= 31, "{stm} {mtm}");
    }

    #[test]
    fn unsolvable_is_refused_before_search() {
        let goal = Board::solved(3, 3).unwrap();
        let board = Board::parse("2 1 3/4 5 6/7 8 0").unwrap();
        assert!(matches!(
            solve_mtm(&board, &goal, &Limits::none(), None),
            Err(SolveError::Unsolvable(_))
        ));
    }
}
