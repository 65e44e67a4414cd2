//! The constructive solver: any m x n board up to 1000 x 1000, in time proportional to the moves
//! it makes and memory proportional to the board plus the solution.
//!
//! It solves the board the way people do. While the unsolved region is larger than 3 x 3, it
//! places its top row (when the region is at least as tall as it is wide) or its left column
//! (otherwise), tile by tile, and locks what it placed; the remaining core of at most 3 x 3 cells
//! is then solved optimally by IDA* ([`crate::search::idastar()`]). Taking the longer side first
//! keeps the region square, so the blank never has far to go.
//!
//! A tile travels one cell at a time: the blank is routed to the cell in front of it, without
//! crossing the tile or a locked cell, and then swaps with it. Where the tile must both climb and
//! shift, the cheaper of the two next cells for the blank is taken, so the tile follows a staircase
//! (three moves a step) rather than two straight legs (five moves a step).
//!
//! The last two cells of a row (or column) cannot be filled one after the other: the first tile
//! is parked in the corner and the second below it, and two moves of the blank slide both home.
//! When the second tile is trapped in the corner pocket, the six cells around the two targets are
//! solved by breadth-first search instead.
//!
//! Goals with the blank elsewhere than the bottom-right corner are handled by solving towards
//! the goal with its blank walked to that corner, then walking it back.
//!
//! Moves that undo the previous move are cancelled as they are produced, so the stored solution
//! is already free of such pairs; [`Construction::raw_moves`] counts every move made.

use std::collections::HashMap;
use std::time::Duration;

use crate::clock::Instant;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::manhattan::grid_distance;
use crate::heuristic::LinearConflict;
use crate::limits::Limits;
use crate::moves::Move;
use crate::search::idastar;
use crate::solution::{Solution, SolveError, Stats};
use crate::solvability::check_solvable;
use crate::solvers::with_manhattan_bound;

/// The side of the core that is solved optimally instead of row by row.
const CORE_SIDE: usize = 3;

/// What the constructive solver produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Construction {
    /// The moves, with immediately undone pairs already cancelled.
    pub moves: Vec<Move>,
    /// Every move made, cancelled pairs included.
    pub raw_moves: u64,
    /// Tiles placed row by row and column by column (the optimal core not counted).
    pub tiles_placed: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Solves `board` -> `goal` constructively; see the module documentation.
///
/// Limits are checked every few thousand moves: the node budget counts moves made.
/// The moves are not replayed here; [`constructive`] does that.
pub fn construct(board: &Board, goal: &Board, limits: &Limits) -> Result<Construction, SolveError> {
    check_solvable(board, goal)?;
    construct_checked(board, goal, limits)
}

/// [`construct`] for a pair already known to be solvable and of the same size.
pub(crate) fn construct_checked(
    board: &Board,
    goal: &Board,
    limits: &Limits,
) -> Result<Construction, SolveError> {
    let started = Instant::now();
    let (w, h) = (board.width(), board.height());

    // Walk the goal's blank to the bottom-right corner: the reduction ends there.
    let mut corner_goal = goal.clone();
    let mut walk = Vec::new();
    while corner_goal.blank() % w + 1 < w {
        corner_goal.apply(Move::Right);
        walk.push(Move::Right);
    }
    while corner_goal.blank() / w + 1 < h {
        corner_goal.apply(Move::Down);
        walk.push(Move::Down);
    }

    // Solutions measure about four times the Manhattan distance on random boards (BENCHMARKS.md):
    // reserving a little more up front spares a 1000x1000 solve the copies and the doubled
    // peak memory of growing a vector of billions of moves.
    let expected = super::manhattan_lower_bound(board, &corner_goal) as usize;
    // The answer is replayed twice before it is returned (by `constructive` and by the front
    // door): on a huge board that takes seconds, which the construction leaves before the
    // deadline (it stops that much earlier), so that the answer, or the limit, comes on time.
    // Where those seconds are all the time there is, the construction is tried with the
    // deadline as given: stopped at once, it would say "time limit reached" milliseconds
    // after a start given seconds.
    let reserved = limits.ending_earlier(crate::solution::replay_reserve(
        expected.saturating_mul(4),
        2,
    ));
    let limits = match reserved.check(0) {
        Err(crate::limits::LimitHit::Time) => limits,
        _ => &reserved,
    };
    let mut engine = Engine::new(board, corner_goal.tiles(), limits);
    engine
        .moves
        .reserve(expected.saturating_mul(17) / 4 + 4 * (w + h) * (w + h));
    let (mut c0, mut r0) = (0, 0);
    while w - c0 > CORE_SIDE || h - r0 > CORE_SIDE {
        if h - r0 >= w - c0 {
            engine.solve_row(r0, c0)?;
            r0 += 1;
        } else {
            engine.solve_column(r0, c0)?;
            c0 += 1;
        }
    }
    engine.solve_core(c0, r0)?;
    for &m in walk.iter().rev() {
        engine.go(m.inverse());
    }
    engine.moves.shrink_to_fit();
    Ok(Construction {
        moves: engine.moves,
        raw_moves: engine.raw,
        tiles_placed: engine.placed,
        elapsed: started.elapsed(),
    })
}

/// Solves `board` -> `goal` constructively and replays the moves before returning them.
///
/// Boards of at most 3 x 3 are solved optimally outright. The statistics count tiles placed as
/// `expanded` and moves made (before cancellation) as `generated`.
///
/// ```
/// use taquin::{solvers::constructive::constructive, generate, Board, Limits};
/// let goal = Board::solved(12, 7).unwrap();
/// let board = generate::uniform(&goal, &mut generate::Rng::new(1));
/// let solution = constructive(&board, &goal, &Limits::none()).unwrap();
/// solution.verify(&board, &goal).unwrap();
/// assert!(!solution.optimal);
/// ```
pub fn constructive(board: &Board, goal: &Board, limits: &Limits) -> Result<Solution, SolveError> {
    let started = Instant::now();
    if board.width() <= CORE_SIDE && board.height() <= CORE_SIDE {
        check_solvable(board, goal)?;
        let mut s = idastar(board, goal, &LinearConflict::new(goal), limits, None)?;
        s.stats.elapsed = started.elapsed();
        return Ok(s);
    }
    let c = construct(board, goal, limits).map_err(|e| with_manhattan_bound(e, board, goal))?;
    let solution = Solution {
        moves: c.moves,
        optimal: false,
        stats: Stats {
            expanded: c.tiles_placed,
            generated: c.raw_moves,
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        ..Solution::default()
    };
    solution.verify(board, goal)?;
    Ok(solution)
}

/// A cell as (column, row).
type Cell = (usize, usize);

/// No cell: used when the blank has nothing to avoid.
const NOWHERE: Cell = (usize::MAX, usize::MAX);

/// The cell one step from `(x, y)` in direction `m`; off-board steps wrap to huge coordinates,
/// which [`Engine::free`] rejects.
#[inline]
fn step((x, y): Cell, m: Move) -> Cell {
    match m {
        Move::Up => (x, y.wrapping_sub(1)),
        Move::Down => (x, y + 1),
        Move::Left => (x.wrapping_sub(1), y),
        Move::Right => (x + 1, y),
    }
}

/// The moves that bring `from` closer to `to`: the one along the longer axis first, `None` on
/// an axis where the two already agree.
fn towards(from: Cell, to: Cell) -> [Option<Move>; 2] {
    use std::cmp::Ordering;
    let horizontal = match to.0.cmp(&from.0) {
        Ordering::Greater => Some(Move::Right),
        Ordering::Less => Some(Move::Left),
        Ordering::Equal => None,
    };
    let vertical = match to.1.cmp(&from.1) {
        Ordering::Greater => Some(Move::Down),
        Ordering::Less => Some(Move::Up),
        Ordering::Equal => None,
    };
    if to.0.abs_diff(from.0) >= to.1.abs_diff(from.1) {
        [horizontal, vertical]
    } else {
        [vertical, horizontal]
    }
}

/// The direction from `a` to its neighbour `b`.
fn direction(a: Cell, b: Cell) -> Move {
    if b.0 > a.0 {
        Move::Right
    } else if b.0 < a.0 {
        Move::Left
    } else if b.1 > a.1 {
        Move::Down
    } else {
        Move::Up
    }
}

fn perpendicular(m: Move) -> [Move; 2] {
    if m.is_vertical() {
        [Move::Left, Move::Right]
    } else {
        [Move::Up, Move::Down]
    }
}

fn internal(what: &str) -> SolveError {
    SolveError::InvalidSolution(format!("constructive solver: {what}"))
}

/// The board being solved, with where every tile is, what is locked, and the moves so far.
struct Engine<'a> {
    w: usize,
    h: usize,
    tiles: Vec<Tile>,
    /// `pos[t]`: the cell index of tile `t`.
    pos: Vec<u32>,
    blank: Cell,
    /// `blank` as a cell index.
    blank_index: usize,
    /// Cells already solved: neither the blank nor a travelling tile may enter them.
    locked: Vec<bool>,
    /// The tile each cell must end with.
    goal: &'a [Tile],
    moves: Vec<Move>,
    raw: u64,
    placed: u64,
    limits: &'a Limits,
    next_check: u64,
}

impl<'a> Engine<'a> {
    fn new(board: &Board, goal: &'a [Tile], limits: &'a Limits) -> Engine<'a> {
        let w = board.width();
        let mut pos = vec![0u32; board.len()];
        for (cell, &t) in board.tiles().iter().enumerate() {
            pos[t as usize] = cell as u32;
        }
        Engine {
            w,
            h: board.height(),
            tiles: board.tiles().to_vec(),
            pos,
            blank: (board.blank() % w, board.blank() / w),
            blank_index: board.blank(),
            locked: vec![false; board.len()],
            goal,
            moves: Vec::new(),
            raw: 0,
            placed: 0,
            limits,
            next_check: limits.next_check(0, 0),
        }
    }

    #[inline]
    fn index(&self, (x, y): Cell) -> usize {
        y * self.w + x
    }

    #[inline]
    fn cell_of(&self, t: Tile) -> Cell {
        let p = self.pos[t as usize] as usize;
        (p % self.w, p / self.w)
    }

    #[inline]
    fn free(&self, c: Cell) -> bool {
        c.0 < self.w && c.1 < self.h && !self.locked[c.1 * self.w + c.0]
    }

    fn lock(&mut self, c: Cell, on: bool) {
        let i = self.index(c);
        self.locked[i] = on;
    }

    /// Moves the blank one cell; a move that undoes the previous one cancels it in the record.
    #[inline]
    fn go(&mut self, m: Move) {
        let to = step(self.blank, m);
        debug_assert!(to.0 < self.w && to.1 < self.h, "blank left the board");
        let from_i = self.blank_index;
        let to_i = match m {
            Move::Up => from_i - self.w,
            Move::Down => from_i + self.w,
            Move::Left => from_i - 1,
            Move::Right => from_i + 1,
        };
        let t = self.tiles[to_i];
        self.tiles[from_i] = t;
        self.tiles[to_i] = BLANK;
        self.pos[t as usize] = from_i as u32;
        self.blank = to;
        self.blank_index = to_i;
        self.raw += 1;
        if self.moves.last() == Some(&m.inverse()) {
            self.moves.pop();
        } else {
            self.moves.push(m);
        }
    }

    fn check_limits(&mut self) -> Result<(), SolveError> {
        if self.raw < self.next_check {
            return Ok(());
        }
        self.next_check = self.limits.next_check(self.raw, self.raw);
        self.limits
            .check(self.raw)
            .map_err(|hit| SolveError::Limit {
                hit,
                stats: Stats {
                    expanded: self.placed,
                    generated: self.raw,
                    ..Stats::default()
                },
                bound: 0,
            })
    }

    /// Routes the blank to `target` without entering `avoid` or a locked cell: straight towards
    /// it while a step that shortens the distance is free; round the obstacle when the blank is
    /// right behind it; by breadth-first search in the rare remaining cases.
    fn route(&mut self, target: Cell, avoid: Cell) -> Result<(), SolveError> {
        loop {
            let b = self.blank;
            if b == target {
                return Ok(());
            }
            let order = towards(b, target);
            if let Some(m) = order.into_iter().flatten().find(|&m| {
                let c = step(b, m);
                c != avoid && self.free(c)
            }) {
                self.go(m);
                continue;
            }
            // Right behind the obstacle, with the target right in front of it: go round it
            // on whichever side is open (the move that makes a tile travel in a straight line).
            if let Some(d) = order[0] {
                if step(b, d) == avoid && step(avoid, d) == target {
                    if let Some(side) = perpendicular(d).into_iter().find(|&s| {
                        self.free(step(b, s))
                            && self.free(step(avoid, s))
                            && self.free(step(target, s))
                    }) {
                        self.go(side);
                        self.go(d);
                        self.go(d);
                        self.go(side.inverse());
                        return Ok(());
                    }
                }
            }
            return self.search_route(target, avoid);
        }
    }

    /// Breadth-first search for the blank, first in a small box round the blank, the target and
    /// the obstacle, then over the whole board.
    fn search_route(&mut self, target: Cell, avoid: Cell) -> Result<(), SolveError> {
        let b = self.blank;
        let mut xs = vec![b.0, target.0];
        let mut ys = vec![b.1, target.1];
        if avoid != NOWHERE {
            xs.push(avoid.0);
            ys.push(avoid.1);
        }
        let margin = 2;
        let small = (
            xs.iter().min().unwrap_or(&0).saturating_sub(margin),
            ys.iter().min().unwrap_or(&0).saturating_sub(margin),
            (xs.iter().max().unwrap_or(&0) + margin).min(self.w - 1),
            (ys.iter().max().unwrap_or(&0) + margin).min(self.h - 1),
        );
        for (x0, y0, x1, y1) in [small, (0, 0, self.w - 1, self.h - 1)] {
            if let Some(path) = self.bfs(target, avoid, x0, y0, x1, y1) {
                for m in path {
                    self.go(m);
                }
                return Ok(());
            }
        }
        Err(internal("the blank cannot reach the cell it needs"))
    }

    /// Moves of a shortest path of the blank to `target` inside the box `x0..=x1, y0..=y1`.
    fn bfs(
        &self,
        target: Cell,
        avoid: Cell,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
    ) -> Option<Vec<Move>> {
        let bw = x1 - x0 + 1;
        let local = |c: Cell| (c.1 - y0) * bw + (c.0 - x0);
        // The move that reached each cell, or NONE.
        const NONE: u8 = 4;
        let mut came = vec![NONE; bw * (y1 - y0 + 1)];
        let start = self.blank;
        came[local(start)] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            if c == target {
                let mut path = Vec::new();
                let mut at = c;
                while at != start {
                    let m = Move::ALL[came[local(at)] as usize];
                    path.push(m);
                    at = step(at, m.inverse());
                }
                path.reverse();
                return Some(path);
            }
            for m in Move::ALL {
                let n = step(c, m);
                if n.0 < x0 || n.0 > x1 || n.1 < y0 || n.1 > y1 || n == avoid || !self.free(n) {
                    continue;
                }
                let i = local(n);
                if came[i] == NONE && n != start {
                    came[i] = m.index() as u8;
                    queue.push_back(n);
                }
            }
        }
        None
    }

    /// Brings tile `t` to `target`, one cell at a time, never through a locked cell.
    fn move_tile(&mut self, t: Tile, target: Cell) -> Result<(), SolveError> {
        // Found once; afterwards the tile only moves where this loop sends it.
        let mut p = self.cell_of(t);
        loop {
            if p == target {
                return Ok(());
            }
            let order = towards(p, target);
            // The blank's cost to reach the cell in front: its distance, plus two when it stands
            // right behind the tile and must go round it.
            let mut best: Option<(usize, Move, Cell)> = None;
            for d in order.into_iter().flatten() {
                let front = step(p, d);
                if !self.free(front) {
                    continue;
                }
                let behind = step(p, d.inverse()) == self.blank;
                let cost = grid_distance(self.blank, front) + if behind { 2 } else { 0 };
                if !matches!(best, Some((c, _, _)) if c <= cost) {
                    best = Some((cost, d, front));
                }
            }
            let Some((_, d, front)) = best else {
                return Err(internal("a tile has no free way towards its cell"));
            };
            self.route(front, p)?;
            self.go(d.inverse());
            p = front;
        }
    }

    /// Places tile-by-tile the cell `c` and locks it.
    fn place(&mut self, c: Cell) -> Result<(), SolveError> {
        let t = self.goal[self.index(c)];
        self.move_tile(t, c)?;
        self.lock(c, true);
        self.placed += 1;
        self.check_limits()
    }

    /// Solves row `r0` of the region whose top-left cell is `(c0, r0)`.
    fn solve_row(&mut self, r0: usize, c0: usize) -> Result<(), SolveError> {
        let w = self.w;
        for x in c0..w - 2 {
            self.place((x, r0))?;
        }
        let (a, b) = ((w - 2, r0), (w - 1, r0));
        let (x, c) = ((w - 2, r0 + 1), (w - 1, r0 + 1));
        self.last_two(a, b, c, x, [a, b, x, c, (w - 2, r0 + 2), (w - 1, r0 + 2)])
    }

    /// Solves column `c0` of the region whose top-left cell is `(c0, r0)`.
    fn solve_column(&mut self, r0: usize, c0: usize) -> Result<(), SolveError> {
        let h = self.h;
        for y in r0..h - 2 {
            self.place((c0, y))?;
        }
        let (a, b) = ((c0, h - 2), (c0, h - 1));
        let (x, c) = ((c0 + 1, h - 2), (c0 + 1, h - 1));
        self.last_two(a, b, c, x, [a, b, x, c, (c0 + 2, h - 2), (c0 + 2, h - 1)])
    }

    /// Fills the last two cells `a` (the inner one) and `b` (the corner) of a row or column.
    /// `c` is the cell next to `b` inside the region and `x` the one next to `a`; `window` is
    /// a 2 x 3 block holding all four, solved by search when the usual trick is blocked.
    fn last_two(
        &mut self,
        a: Cell,
        b: Cell,
        c: Cell,
        x: Cell,
        window: [Cell; 6],
    ) -> Result<(), SolveError> {
        let (ta, tb) = (self.goal[self.index(a)], self.goal[self.index(b)]);
        if self.cell_of(ta) == a && self.cell_of(tb) == b {
            self.lock(a, true);
            self.lock(b, true);
            self.placed += 2;
            return self.check_limits();
        }
        // Park a's tile in the corner, then b's tile beside it.
        self.move_tile(ta, b)?;
        self.lock(b, true);
        let pb = self.cell_of(tb);
        // b's tile in the pocket `a` (or the blank there, walled in by b's tile) cannot get out
        // without disturbing the corner: search the window instead.
        if pb == a || (self.blank == a && pb == x) {
            if pb == a {
                self.route(x, NOWHERE)?;
            }
            self.lock(b, false);
            self.solve_window(window, [(ta, a), (tb, b)])?;
        } else {
            self.move_tile(tb, c)?;
            self.lock(c, true);
            self.route(a, NOWHERE)?;
            self.lock(b, false);
            self.lock(c, false);
            // a's tile slides from the corner into `a`, then b's tile from `c` into the corner.
            self.go(direction(a, b));
            self.go(direction(b, c));
        }
        self.lock(a, true);
        self.lock(b, true);
        self.placed += 2;
        self.check_limits()
    }

    /// Breadth-first search over the arrangements of a small window holding the blank, until
    /// each of `wanted`'s tiles stands on its cell.
    fn solve_window(
        &mut self,
        window: [Cell; 6],
        wanted: [(Tile, Cell); 2],
    ) -> Result<(), SolveError> {
        let start: [Tile; 6] = window.map(|c| self.tiles[self.index(c)]);
        let slot = |c: Cell| window.iter().position(|&w| w == c);
        let targets: Vec<(Tile, usize)> = wanted
            .iter()
            .map(|&(t, c)| slot(c).map(|s| (t, s)))
            .collect::<Option<_>>()
            .ok_or_else(|| internal("window misses a target"))?;
        let done = |s: &[Tile; 6]| targets.iter().all(|&(t, i)| s[i] == t);
        let mut states: Vec<([Tile; 6], usize, Move)> = vec![(start, usize::MAX, Move::Up)];
        let mut seen: HashMap<[Tile; 6], ()> = HashMap::from([(start, ())]);
        let mut head = 0;
        while head < states.len() {
            let (s, _, _) = states[head];
            if done(&s) {
                let mut path = Vec::new();
                let mut i = head;
                while states[i].1 != usize::MAX {
                    path.push(states[i].2);
                    i = states[i].1;
                }
                for &m in path.iter().rev() {
                    self.go(m);
                }
                return Ok(());
            }
            let bi = s
                .iter()
                .position(|&t| t == BLANK)
                .ok_or_else(|| internal("the blank left the window"))?;
            for m in Move::ALL {
                if let Some(ni) = slot(step(window[bi], m)) {
                    let mut n = s;
                    n.swap(bi, ni);
                    if seen.insert(n, ()).is_none() {
                        states.push((n, head, m));
                    }
                }
            }
            head += 1;
        }
        Err(internal("the last two tiles of a line cannot be placed"))
    }

    /// Solves the remaining region of at most 3 x 3 cells from `(c0, r0)` optimally.
    fn solve_core(&mut self, c0: usize, r0: usize) -> Result<(), SolveError> {
        let (cw, ch) = (self.w - c0, self.h - r0);
        let cells: Vec<usize> = (r0..self.h)
            .flat_map(|y| (c0..self.w).map(move |x| (x, y)))
            .map(|c| self.index(c))
            .collect();
        // Relabel the core's tiles 1..k in the goal's order, the blank staying 0.
        let mut label: HashMap<Tile, Tile> = HashMap::new();
        let mut goal_tiles = Vec::with_capacity(cells.len());
        for &i in &cells {
            let t = self.goal[i];
            let l = if t == BLANK {
                0
            } else {
                label.len() as Tile + 1
            };
            label.insert(t, l);
            goal_tiles.push(l);
        }
        let tiles: Vec<Tile> = cells
            .iter()
            .map(|&i| label.get(&self.tiles[i]).copied())
            .collect::<Option<_>>()
            .ok_or_else(|| internal("a tile outside the core was left unsolved"))?;
        let board = Board::from_tiles(cw, ch, tiles)?;
        let goal = Board::from_tiles(cw, ch, goal_tiles)?;
        check_solvable(&board, &goal).map_err(|_| internal("the core is unsolvable"))?;
        let s = idastar(
            &board,
            &goal,
            &LinearConflict::new(&goal),
            &Limits::none(),
            None,
        )?;
        for m in s.moves {
            self.go(m);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{uniform, Rng};

    fn check(board: &Board, goal: &Board) -> Solution {
        let s = constructive(board, goal, &Limits::none()).unwrap();
        s.verify(board, goal).unwrap();
        s
    }

    #[test]
    fn every_small_shape_and_both_goal_conventions() {
        let mut rng = Rng::new(11);
        for w in 2..=7 {
            for h in 2..=7 {
                let blank_last = Board::solved(w, h).unwrap();
                let blank_first = Board::from_tiles(w, h, (0..(w * h) as Tile).collect()).unwrap();
                for goal in [&blank_last, &blank_first] {
                    for _ in 0..6 {
                        check(&uniform(goal, &mut rng), goal);
                    }
                }
            }
        }
    }

    #[test]
    fn goal_and_already_solved_boards() {
        let goal = Board::solved(6, 5).unwrap();
        assert!(check(&goal, &goal).is_empty());
        let mut b = goal.clone();
        b.apply(Move::Up);
        assert_eq!(check(&b, &goal).moves, vec![Move::Down]);
    }

    #[test]
    fn long_thin_boards() {
        let mut rng = Rng::new(5);
        for (w, h) in [(2, 40), (40, 2), (3, 25), (25, 3)] {
            let goal = Board::solved(w, h).unwrap();
            for _ in 0..5 {
                check(&uniform(&goal, &mut rng), &goal);
            }
        }
    }

    #[test]
    fn unsolvable_and_limits_are_errors() {
        let goal = Board::solved(5, 5).unwrap();
        let mut tiles = goal.tiles().to_vec();
        tiles.swap(0, 1);
        let bad = Board::from_tiles(5, 5, tiles).unwrap();
        assert!(matches!(
            constructive(&bad, &goal, &Limits::none()),
            Err(SolveError::Unsolvable(_))
        ));
        let board = uniform(&Board::solved(60, 60).unwrap(), &mut Rng::new(2));
        let goal = Board::solved(60, 60).unwrap();
        let err = constructive(&board, &goal, &Limits::none().with_max_nodes(1000)).unwrap_err();
        assert!(err.is_limit(), "{err}");
    }
}
