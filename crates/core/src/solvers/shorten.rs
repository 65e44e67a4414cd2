//! A post-pass that shortens any solution, whatever produced it, and never lengthens one.
//!
//! 1. [`cut_loops`]: wherever the moves come back to a board already reached, the moves in
//!    between are dropped. A move followed by its inverse is the shortest such loop
//!    ([`cancel_inverse_pairs`] removes only those, in place, in linear time); the real-time
//!    players also walk longer loops. Boards are recognised by an incremental 64-bit hash,
//!    and a loop is cut only after its boards are compared cell by cell.
//! 2. [`resolve_windows`]: the solution is cut into windows of a few moves; each window only
//!    moves tiles inside the rectangle its blank visits, so that rectangle is a small puzzle of
//!    its own, solved optimally by IDA* ([`crate::search::idastar()`], Manhattan distance); a shorter
//!    answer replaces the window. Alternate passes shift the windows by half a window so that
//!    waste across a border is seen too.
//!
//! [`shorten`] runs both and replays the result.

use std::collections::HashMap;
use std::time::Duration;

use crate::clock::Instant;

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::{Heuristic, Manhattan};
use crate::limits::{Budget, LimitHit, Limits};
use crate::moves::Move;
use crate::search::idastar;
use crate::solution::{verify_moves, Solution, SolveError};

/// How hard [`shorten`] works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortenOptions {
    /// Moves per window re-solved optimally; 0 turns window re-solving off.
    pub window: usize,
    /// Largest rectangle (in cells) a window may span; larger ones are left as they are.
    pub max_cells: usize,
    /// IDA* node budget per window; a window over budget is left as it is.
    pub node_budget: u64,
    /// Window passes at most (they also stop when a pass gains nothing).
    pub passes: usize,
}

impl Default for ShortenOptions {
    /// Windows of 12 moves within 16 cells, 2,000 nodes each, up to 2 passes: measured as
    /// the best gain per second (BENCHMARKS.md); larger windows find little more and cost
    /// much more, since IDA* must prove that no shorter path exists.
    fn default() -> Self {
        ShortenOptions {
            window: 12,
            max_cells: 16,
            node_budget: 2_000,
            passes: 2,
        }
    }
}

/// A shortened solution and what each step gained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortened {
    /// The shortened moves, replayed and checked.
    pub moves: Vec<Move>,
    /// Length before.
    pub original: usize,
    /// Length after cutting loops.
    pub after_loops: usize,
    /// Length after re-solving windows (and cutting the loops that made).
    pub after_windows: usize,
    /// Windows replaced by a shorter optimal path.
    pub windows_improved: u64,
    /// Nodes the windows' searches generated.
    pub generated: u64,
    /// Nodes the windows' searches expanded.
    pub expanded: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The limit that cut the work short, if one did: the moves are then the best found by
    /// then (still a checked solution, never longer than the original).
    pub limit: Option<LimitHit>,
}

impl Shortened {
    /// Puts the shortened moves in place of `solution`'s, and adds the windows' nodes and the
    /// time taken to its stats: a post-pass is part of what the answer cost.
    pub fn apply_to(self, solution: &mut Solution) {
        solution.moves = self.moves;
        solution.stats.generated += self.generated;
        solution.stats.expanded += self.expanded;
        solution.stats.elapsed += self.elapsed;
    }
}

/// Removes every move immediately followed by its inverse, repeatedly (`U L R D` becomes
/// nothing), in place. Returns how many moves were removed.
///
/// ```
/// use taquin::{moves::{parse_moves, to_letters}, solvers::shorten::cancel_inverse_pairs};
/// let mut m = parse_moves("UULRDLR").unwrap();
/// assert_eq!(cancel_inverse_pairs(&mut m), 6);
/// assert_eq!(to_letters(&m), "U");
/// ```
pub fn cancel_inverse_pairs(moves: &mut Vec<Move>) -> usize {
    let before = moves.len();
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if kept > 0 && moves[kept - 1] == m.inverse() {
            kept -= 1;
        } else {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
    before - kept
}

/// A pseudo-random key for tile `t` on `cell` (SplitMix64 finaliser): hashing boards by XOR of
/// these keys lets a move update the hash in O(1), on boards of any size, with no table.
#[inline]
fn cell_key(cell: usize, t: Tile) -> u64 {
    let mut z = (cell as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(u64::from(t).wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(0x2545_F491_4F6C_DD1D);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Drops every stretch of `moves` (played from `board`) that returns to a board reached before.
/// Time and memory are linear in the number of moves.
pub fn cut_loops(board: &Board, moves: &[Move]) -> Vec<Move> {
    cut_loops_within(board, moves, &mut Budget::new(&Limits::none()))
}

/// Bytes [`cut_loops`] keeps per move: the kept move, its board's hash, and an entry in the
/// map of first sightings (key, index and the map's slack).
const CUT_BYTES_PER_MOVE: usize = 1 + 8 + 32;

/// [`cut_loops`] within `budget` (a move is a unit of work): when a limit is hit, the moves not
/// yet looked at are kept as they are, so the result is still a solution.
fn cut_loops_within(board: &Board, moves: &[Move], budget: &mut Budget) -> Vec<Move> {
    let (w, h) = (board.width(), board.height());
    let mut tiles = board.tiles().to_vec();
    let mut blank = board.blank();
    let mut hash = tiles
        .iter()
        .enumerate()
        .fold(0u64, |acc, (c, &t)| acc ^ cell_key(c, t));
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    let mut hashes: Vec<u64> = Vec::with_capacity(moves.len() + 1);
    hashes.push(hash);
    let mut first_seen: HashMap<u64, usize> = HashMap::from([(hash, 0)]);
    for (done, &m) in moves.iter().enumerate() {
        if budget.spend(1, 0) {
            kept.extend_from_slice(&moves[done..]);
            break;
        }
        let Some(to) = m.target(blank, w, h) else {
            // An illegal move: leave the rest as it is, the replay check will reject it.
            kept.push(m);
            continue;
        };
        let t = tiles[to];
        hash ^= cell_key(blank, BLANK) ^ cell_key(to, t) ^ cell_key(blank, t) ^ cell_key(to, BLANK);
        tiles[blank] = t;
        tiles[to] = BLANK;
        blank = to;
        kept.push(m);
        hashes.push(hash);
        if let Some(&i) = first_seen.get(&hash) {
            budget.spend((kept.len() - i) as u64, 0);
            if same_board_after(&tiles, blank, w, h, &kept[i..]) {
                for &gone in &hashes[i + 1..] {
                    if first_seen.get(&gone).is_some_and(|&j| j > i) {
                        first_seen.remove(&gone);
                    }
                }
                kept.truncate(i);
                hashes.truncate(i + 1);
                continue;
            }
        }
        first_seen.entry(hash).or_insert(kept.len());
    }
    kept
}

/// True when undoing `segment` from the board `tiles` (blank on `blank`) leads back to the same
/// board: the cells it touches are replayed backwards on a sparse copy and compared.
fn same_board_after(tiles: &[Tile], blank: usize, w: usize, h: usize, segment: &[Move]) -> bool {
    let mut sparse: HashMap<usize, Tile> = HashMap::new();
    let mut b = blank;
    for &m in segment.iter().rev() {
        let Some(to) = m.inverse().target(b, w, h) else {
            return false;
        };
        let t = *sparse.get(&to).unwrap_or(&tiles[to]);
        sparse.insert(b, t);
        sparse.insert(to, BLANK);
        b = to;
    }
    b == blank && sparse.iter().all(|(&c, &t)| tiles[c] == t)
}

/// One window pass: windows of `window` moves, the first one `offset` moves long when
/// `offset > 0`. Returns the new moves and how many windows were replaced.
pub fn resolve_windows(
    board: &Board,
    moves: &[Move],
    window: usize,
    offset: usize,
    options: &ShortenOptions,
) -> (Vec<Move>, u64) {
    resolve_windows_within(
        board,
        moves,
        window,
        offset,
        options,
        &mut Budget::new(&Limits::none()),
        &|_, _| u64::MAX,
    )
}

/// [`resolve_windows`] within `budget` (a window counts as its moves plus its IDA* node
/// budget): when a limit is hit, the remaining moves are kept as they are. Each window's
/// search hands its nodes (generated, expanded) to `count`, which answers how many the windows
/// may still generate (asked with 0, 0 before the first): when none, the remaining moves are
/// kept too.
fn resolve_windows_within(
    board: &Board,
    moves: &[Move],
    window: usize,
    offset: usize,
    options: &ShortenOptions,
    budget: &mut Budget,
    count: &dyn Fn(u64, u64) -> u64,
) -> (Vec<Move>, u64) {
    let mut cur = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    let mut improved = 0;
    let mut i = 0;
    let mut first = offset.min(moves.len());
    if first == 0 {
        first = window.max(1);
    }
    let mut k = first;
    let mut nodes_left = count(0, 0);
    while i < moves.len() {
        if budget.spend(k as u64 + options.node_budget, 0) || nodes_left == 0 {
            out.extend_from_slice(&moves[i..]);
            break;
        }
        let seg = &moves[i..(i + k).min(moves.len())];
        let node_budget = options.node_budget.min(nodes_left);
        let (better, generated, expanded) =
            resolve_segment(&cur, seg, options.max_cells, node_budget);
        nodes_left = count(generated, expanded);
        let chosen = match better {
            Some(better) => {
                improved += 1;
                better
            }
            None => seg.to_vec(),
        };
        if cur.apply_all(&chosen).is_err() {
            // Illegal input moves: keep the rest untouched for the replay check to reject.
            out.extend_from_slice(&chosen);
            out.extend_from_slice(&moves[i + seg.len()..]);
            return (out, improved);
        }
        out.extend_from_slice(&chosen);
        i += seg.len();
        k = window.max(1);
    }
    (out, improved)
}

/// The optimal path inside the rectangle the blank visits during `seg` (at most `max_cells`
/// cells), when it is shorter and IDA* finds it within `node_budget` nodes, with the nodes its
/// search generated and expanded (none when no search was needed).
fn resolve_segment(
    cur: &Board,
    seg: &[Move],
    max_cells: usize,
    node_budget: u64,
) -> (Option<Vec<Move>>, u64, u64) {
    match shorter_in_rectangle(cur, seg, max_cells, node_budget) {
        Some(Ok(s)) => {
            let (generated, expanded) = (s.stats.generated, s.stats.expanded);
            (
                (s.len() < seg.len()).then_some(s.moves),
                generated,
                expanded,
            )
        }
        Some(Err(SolveError::Limit { stats, .. })) => (None, stats.generated, stats.expanded),
        Some(Err(_)) | None => (None, 0, 0),
    }
}

/// The optimal solution of the rectangle the blank visits during `seg` (tiles relabelled), by
/// IDA* within `node_budget` nodes; `None` where no search can help (a segment too short or on
/// one line, a rectangle over `max_cells`, or one the heuristic already proves tight).
fn shorter_in_rectangle(
    cur: &Board,
    seg: &[Move],
    max_cells: usize,
    node_budget: u64,
) -> Option<Result<Solution, SolveError>> {
    if seg.len() < 3 {
        return None;
    }
    let (w, h) = (cur.width(), cur.height());
    let (mut x, mut y) = (cur.blank() % w, cur.blank() / w);
    let (mut x0, mut x1, mut y0, mut y1) = (x, x, y, y);
    for &m in seg {
        match m {
            Move::Up if y > 0 => y -= 1,
            Move::Down if y + 1 < h => y += 1,
            Move::Left if x > 0 => x -= 1,
            Move::Right if x + 1 < w => x += 1,
            _ => return None,
        }
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    // A blank that stays on one line can only shift it; pair cancellation already did the rest.
    if x0 == x1 || y0 == y1 {
        return None;
    }
    let (bw, bh) = (x1 - x0 + 1, y1 - y0 + 1);
    if bw * bh > max_cells {
        return None;
    }
    let cells: Vec<usize> = (y0..=y1)
        .flat_map(|r| (x0..=x1).map(move |c| r * w + c))
        .collect();
    let start: Vec<Tile> = cells.iter().map(|&c| cur.tiles()[c]).collect();
    let mut end = start.clone();
    let mut lb = end.iter().position(|&t| t == BLANK)?;
    for &m in seg {
        let to = m.target(lb, bw, bh)?;
        end.swap(lb, to);
        lb = to;
    }
    // Relabel the window's tiles 1..k in their end order, the blank staying 0.
    let label = |t: Tile| -> Tile {
        if t == BLANK {
            0
        } else {
            end.iter()
                .filter(|&&e| e != BLANK)
                .position(|&e| e == t)
                .unwrap_or(0) as Tile
                + 1
        }
    };
    let sub_start = Board::from_tiles(bw, bh, start.iter().map(|&t| label(t)).collect()).ok()?;
    let sub_goal = Board::from_tiles(bw, bh, end.iter().map(|&t| label(t)).collect()).ok()?;
    // Manhattan distance: on windows this small its table costs less to build than the
    // search it saves would gain over linear conflict.
    let heuristic = Manhattan::new(&sub_goal);
    if heuristic.estimate(sub_start.tiles()) as usize >= seg.len() {
        return None;
    }
    let limits = Limits::none().with_max_nodes(node_budget);
    Some(idastar(&sub_start, &sub_goal, &heuristic, &limits, None))
}

/// Shortens `moves` (a solution of `board` -> `goal`): cuts loops, then re-solves windows as
/// `options` say, and replays the result. Fails only when `moves` is not a solution.
///
/// ```
/// use taquin::{moves::parse_moves, solvers::shorten::{shorten, ShortenOptions}, Board};
/// let goal = Board::solved(3, 3).unwrap();
/// let mut board = goal.clone();
/// board.apply_all(&parse_moves("UL").unwrap()).unwrap();
/// // Three turns round a 2x2 block bring its tiles back where they were: the loop is cut.
/// let long = parse_moves("ULDRULDRULDRRD").unwrap();
/// let s = shorten(&board, &goal, &long, &ShortenOptions::default()).unwrap();
/// assert_eq!(s.moves, parse_moves("RD").unwrap());
/// ```
pub fn shorten(
    board: &Board,
    goal: &Board,
    moves: &[Move],
    options: &ShortenOptions,
) -> Result<Shortened, SolveError> {
    shorten_within(board, goal, moves, options, &Limits::none())
}

/// [`shorten`] within `limits`: the deadline and the cancel flag are checked as it goes, and
/// when one is hit the best moves found so far are returned (replayed, never longer than
/// `moves`), with [`Shortened::limit`] saying which. Cutting loops keeps about 41 bytes a
/// move; when that would pass the memory budget only the moves undone at once are cancelled
/// (in place), and [`Shortened::limit`] is the memory limit.
pub fn shorten_within(
    board: &Board,
    goal: &Board,
    moves: &[Move],
    options: &ShortenOptions,
    limits: &Limits,
) -> Result<Shortened, SolveError> {
    // The node budget of `limits` is the search's; windows have their own.
    let limits = Limits {
        max_nodes: None,
        ..limits.clone()
    };
    shorten_reporting(board, goal, moves, options, &limits, &|_, _| {})
}

/// [`shorten_within`] for a search that goes on shortening: a node budget in `limits` bounds
/// the windows' nodes all together (the anytime search's, spent by its own searches before),
/// and `on_nodes` hears the nodes (generated, expanded) of each window's search as it ends, so
/// that whoever waits on a long pass (the anytime search's progress) sees it move on.
pub(crate) fn shorten_reporting(
    board: &Board,
    goal: &Board,
    moves: &[Move],
    options: &ShortenOptions,
    limits: &Limits,
    on_nodes: &dyn Fn(u64, u64),
) -> Result<Shortened, SolveError> {
    let started = Instant::now();
    verify_moves(board, goal, moves)?;
    // The windows' nodes, counted against the node budget here: the budget of the checks
    // below is time and memory.
    let generated = std::cell::Cell::new(0u64);
    let expanded = std::cell::Cell::new(0u64);
    let cap = limits.max_nodes.unwrap_or(u64::MAX);
    let count = |g: u64, e: u64| {
        generated.set(generated.get() + g);
        expanded.set(expanded.get() + e);
        on_nodes(g, e);
        cap.saturating_sub(generated.get())
    };
    let limits = Limits {
        max_nodes: None,
        ..limits.clone()
    };
    let mut budget = Budget::new(&limits);
    let fits = |n: usize| {
        limits
            .check_memory(n.saturating_mul(CUT_BYTES_PER_MOVE))
            .is_ok()
    };
    let mut memory_hit = None;
    let mut current = if fits(moves.len()) {
        cut_loops_within(board, moves, &mut budget)
    } else {
        memory_hit = Some(LimitHit::Memory);
        let mut m = moves.to_vec();
        cancel_inverse_pairs(&mut m);
        m
    };
    let after_loops = current.len();
    let mut windows_improved = 0;
    if options.window >= 3 && memory_hit.is_none() {
        for pass in 0..options.passes {
            if budget.hit().is_some() || generated.get() >= cap {
                break;
            }
            let offset = if pass % 2 == 1 { options.window / 2 } else { 0 };
            let (next, improved) = resolve_windows_within(
                board,
                &current,
                options.window,
                offset,
                options,
                &mut budget,
                &count,
            );
            windows_improved += improved;
            let next = cut_loops_within(board, &next, &mut budget);
            let gained = next.len() < current.len();
            current = next;
            if !gained && pass > 0 {
                break;
            }
        }
    }
    verify_moves(board, goal, &current)?;
    Ok(Shortened {
        after_windows: current.len(),
        moves: current,
        original: moves.len(),
        after_loops,
        windows_improved,
        generated: generated.get(),
        expanded: expanded.get(),
        elapsed: started.elapsed(),
        // The node budget is counted here, not by `budget`: spent, it stopped the windows
        // (when there were windows to run).
        limit: memory_hit
            .or(budget.hit())
            .or((options.window >= 3 && generated.get() >= cap).then_some(LimitHit::Nodes)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{uniform, Rng};
    use crate::moves::parse_moves;
    use crate::solvers::constructive::constructive;

    #[test]
    fn limits_return_the_best_so_far_still_a_solution() {
        let goal = Board::solved(30, 30).unwrap();
        let board = uniform(&goal, &mut Rng::new(2));
        let long = constructive(&board, &goal, &Limits::none()).unwrap().moves;
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancelled = Limits::none().with_cancel(flag);
        let s =
            shorten_within(&board, &goal, &long, &ShortenOptions::default(), &cancelled).unwrap();
        assert_eq!(s.limit, Some(LimitHit::Cancelled));
        assert!(s.moves.len() <= long.len());
        verify_moves(&board, &goal, &s.moves).unwrap();
        let tiny = Limits::none().with_max_memory(1000);
        let s = shorten_within(&board, &goal, &long, &ShortenOptions::default(), &tiny).unwrap();
        assert_eq!(s.limit, Some(LimitHit::Memory));
        verify_moves(&board, &goal, &s.moves).unwrap();
        // A node budget spent stops the windows, and says so.
        let few = Limits::none().with_max_nodes(1_000);
        let options = ShortenOptions::default();
        let s = shorten_reporting(&board, &goal, &long, &options, &few, &|_, _| {}).unwrap();
        assert_eq!(s.limit, Some(LimitHit::Nodes));
        assert!(s.generated >= 1_000);
        verify_moves(&board, &goal, &s.moves).unwrap();
        let free = shorten(&board, &goal, &long, &ShortenOptions::default()).unwrap();
        assert_eq!(free.limit, None);
        assert!(free.moves.len() < long.len());
    }

    #[test]
    fn pairs_and_loops_are_cut() {
        let goal = Board::solved(4, 4).unwrap();
        // A loop round a 2x2 block, done three times, returns to the start (it is a 3-cycle of
        // tiles, order 3), so twelve moves vanish.
        let lp = parse_moves("ULDR".repeat(3).as_str()).unwrap();
        assert_eq!(cut_loops(&goal, &lp), vec![]);
        let mut pairs = parse_moves("UDLR").unwrap();
        assert_eq!(cancel_inverse_pairs(&mut pairs), 4);
        let one = parse_moves("ULDR").unwrap();
        assert_eq!(cut_loops(&goal, &one), one);
    }

    #[test]
    fn shortening_constructive_solutions_keeps_them_valid_and_never_longer() {
        let mut rng = Rng::new(8);
        for (w, h) in [(4, 4), (5, 5), (7, 4), (8, 8)] {
            let goal = Board::solved(w, h).unwrap();
            let board = uniform(&goal, &mut rng);
            let s = constructive(&board, &goal, &Limits::none()).unwrap();
            let short = shorten(&board, &goal, &s.moves, &ShortenOptions::default()).unwrap();
            assert!(short.moves.len() <= s.len());
            assert!(short.after_loops <= short.original);
            verify_moves(&board, &goal, &short.moves).unwrap();
        }
    }

    #[test]
    fn the_windows_nodes_are_counted_and_heard_as_they_go() {
        let goal = Board::solved(5, 5).unwrap();
        let board = uniform(&goal, &mut Rng::new(5));
        let long = constructive(&board, &goal, &Limits::none()).unwrap().moves;
        let heard = std::cell::Cell::new((0u64, 0u64, 0u32));
        let s = shorten_reporting(
            &board,
            &goal,
            &long,
            &ShortenOptions::default(),
            &Limits::none(),
            &|g, e| {
                let (generated, expanded, calls) = heard.get();
                heard.set((generated + g, expanded + e, calls + 1));
            },
        )
        .unwrap();
        let (generated, expanded, calls) = heard.get();
        assert!(s.windows_improved > 0);
        assert!(s.generated > 0);
        assert!(s.expanded > 0 && s.expanded < s.generated);
        assert_eq!((generated, expanded), (s.generated, s.expanded));
        // Once a window, not once at the end.
        assert!(calls as usize >= long.len() / ShortenOptions::default().window);
    }

    #[test]
    fn a_detour_is_replaced_by_the_direct_path() {
        let goal = Board::solved(3, 3).unwrap();
        let mut board = goal.clone();
        board.apply_all(&parse_moves("UL").unwrap()).unwrap();
        // Round the 2x2 block three times (back where it started), then home.
        let long = parse_moves(&("ULDR".repeat(3) + "RD")).unwrap();
        let s = shorten(&board, &goal, &long, &ShortenOptions::default()).unwrap();
        assert_eq!(s.moves, parse_moves("RD").unwrap());
        assert!(shorten(
            &board,
            &goal,
            &parse_moves("D").unwrap(),
            &ShortenOptions::default()
        )
        .is_err());
    }
}
