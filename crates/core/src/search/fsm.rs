//! Duplicate pruning by a finite-state machine (Taylor & Korf 1993).
//!
//! IDA* searches a tree, and the sliding puzzle's graph has many short cycles: the same state is
//! reached by several move strings. Never undoing the last move removes the cycles of length 2.
//! Taylor & Korf learn the longer ones: a breadth-first search over move strings from one blank
//! cell of an unbounded board, in the order of length and then of the letters, keeps the first
//! string that reaches each state; a string that reaches a state already reached by a shorter or
//! an equally long, alphabetically smaller string is a *duplicate*, and so is every string that
//! contains one. An automaton that recognises the minimal duplicates anywhere in a string
//! (Aho & Corasick 1975) then lets IDA* refuse a move that would complete one.
//!
//! Why this stays complete: among the optimal solutions take the smallest in (length, letters)
//! order. If it contained a duplicate `d`, the string `e` that `d` duplicates could replace it:
//! same effect on the tiles, and `e` stays inside the rectangle that `d`'s blank sweeps (only
//! such duplicates are kept), so it is playable wherever `d` is, on any board. The result would
//! be a smaller optimal solution: a contradiction. So that solution is never pruned, and IDA*
//! still finds an optimal one. Admissibility is not touched; only repeated subtrees go.
//!
//! The automaton depends only on the depth of the learning search, not on the board, so one
//! serves every board; it is learned once per process ([`Fsm::for_cells`]).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::hashing::FoldState;
use crate::limits::{LimitHit, Limits};
use std::sync::OnceLock;

/// A transition into a state that completes a duplicate: the move is not generated.
pub const PRUNED: u32 = u32::MAX;

/// Depth of the learning search for boards of up to 16 cells ([`Fsm::for_cells`]): learned in
/// about 10 M instructions (a few milliseconds), so that a process solving one 15-puzzle
/// hardly waits for it. On Korf's 100 with the 7-8 it cuts the nodes by 7 % against depth 6;
/// depth 10 would cut 13 % but costs ten times more to learn, as much as it saves there.
///
/// The short cycles carry most of the gain (the blank around a 2x2 block twice is the same as
/// once the other way round: 8 moves against 4); deeper learning finds rarer duplicates at a
/// growing cost in build time (about ten times more per two moves of depth).
pub const QUICK_DEPTH: usize = 8;
/// Depth of the learning search for larger boards, whose searches run for seconds to hours
/// (about 1 G instructions, a third of a second).
pub const DEEP_DEPTH: usize = 12;

/// Most memory the learning of the deep automaton takes at its peak: 272 MB of resident memory
/// measured for the whole process (every first string of up to [`DEEP_DEPTH`] moves is kept
/// with its state); the automaton itself takes under 1 MB. The peak is not counted in a
/// search's own memory estimate, beside which it may run, so the deep automaton is learned only
/// where it is at most a quarter of the memory budget (`--max-memory` of 1,200 MiB and more;
/// the default is 4 GiB); with a smaller budget, searches prune with the quick automaton:
/// still complete, with somewhat more nodes.
pub const DEEP_LEARNING_BYTES: usize = 300 << 20;

/// True when the deep automaton's learning fits a memory budget of `budget` bytes.
fn deep_learning_fits(budget: usize) -> bool {
    budget / 4 >= DEEP_LEARNING_BYTES
}

/// Moves as the engines index them ([`crate::Move::index`]): up, down, left, right as (dx, dy).
const STEPS: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// The pruning automaton: `next[state][move]` is the state after the move, or [`PRUNED`].
#[derive(Debug, Clone)]
pub struct Fsm {
    next: Vec<[u32; 4]>,
    start: u32,
    /// The duplicate strings it recognises (0 for [`Fsm::inverse_only`]: it is written by hand).
    duplicates: usize,
}

/// The automata of [`Fsm::for_cells`], learned once per process.
static QUICK: OnceLock<Fsm> = OnceLock::new();
static DEEP: OnceLock<Fsm> = OnceLock::new();

/// Starts learning the deep automaton on a thread of its own, once per process.
#[cfg(not(target_arch = "wasm32"))]
fn learn_deep_in_background() {
    static STARTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !STARTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let spawned = std::thread::Builder::new()
            .name("taquin-automaton".into())
            .spawn(|| DEEP.get_or_init(|| Fsm::learned(DEEP_DEPTH)));
        if spawned.is_err() {
            // No thread to be had: a later caller tries again (or learns it in place).
            STARTED.store(false, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl Fsm {
    /// The automaton of plain IDA*: never undo the last move, nothing more. Its states are the
    /// last move (0..4) and the start (4). With it, IDA* generates the published node counts.
    pub fn inverse_only() -> Fsm {
        const INVERSE: [u32; 4] = [1, 0, 3, 2];
        let next = (0..5)
            .map(|s| {
                let mut row = [0u32; 4];
                for (m, slot) in row.iter_mut().enumerate() {
                    *slot = if s < 4 && INVERSE[s] == m as u32 {
                        PRUNED
                    } else {
                        m as u32
                    };
                }
                row
            })
            .collect();
        Fsm {
            next,
            start: 4,
            duplicates: 0,
        }
    }

    /// The automaton for boards of `cells` cells: learned from every move string of up to
    /// [`QUICK_DEPTH`] moves up to 16 cells, [`DEEP_DEPTH`] beyond; built once per process
    /// (each is a constant, the same for every board and goal).
    pub fn for_cells(cells: usize) -> &'static Fsm {
        Fsm::for_cells_within(cells, usize::MAX)
    }

    /// [`Fsm::for_cells`] for a search whose memory budget is `budget` bytes: beyond 16 cells,
    /// the quick automaton when the deep one is not learned yet and its learning would not fit
    /// ([`DEEP_LEARNING_BYTES`]).
    pub fn for_cells_within(cells: usize, budget: usize) -> &'static Fsm {
        if cells > 16 {
            if let Some(fsm) = DEEP.get() {
                return fsm;
            }
            if deep_learning_fits(budget) {
                return DEEP.get_or_init(|| Fsm::learned(DEEP_DEPTH));
            }
        }
        QUICK.get_or_init(|| Fsm::learned(QUICK_DEPTH))
    }

    /// [`Fsm::for_cells`] if it takes no time: learned already, or quick to learn (up to 16
    /// cells). Otherwise `None`, and the learning starts on a thread of its own (where there
    /// are threads), so that a later call has it: the deep automaton takes about a second to
    /// learn, which an anytime search's first answers must not wait for.
    pub fn for_cells_if_ready(cells: usize, budget: usize) -> Option<&'static Fsm> {
        if cells <= 16 || !deep_learning_fits(budget) {
            return Some(Fsm::for_cells_within(cells, budget));
        }
        if let Some(fsm) = DEEP.get() {
            return Some(fsm);
        }
        #[cfg(not(target_arch = "wasm32"))]
        learn_deep_in_background();
        None
    }

    /// [`Fsm::for_cells_within`] the memory budget of `limits`, for a search that must keep
    /// them: the deep automaton's learning takes about a second and a quarter of a gigabyte,
    /// which must not hold a search past its deadline, nor leave it no time to search. With a
    /// deadline, it is learned on a thread of its own and waited for at most half the time
    /// left; past that, the search gets the quick automaton (learned in milliseconds; the
    /// moves stay optimal, only the nodes pruned differ), and the learning goes on for the
    /// next search. Without one, it is learned in place, as is everything in a browser (no
    /// threads). `Err` only when the search was cancelled meanwhile.
    pub fn for_cells_within_limits(
        cells: usize,
        limits: &Limits,
    ) -> Result<&'static Fsm, LimitHit> {
        let budget = limits.memory_budget();
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(deadline) = limits.deadline {
            if cells > 16 && DEEP.get().is_none() && deep_learning_fits(budget) {
                learn_deep_in_background();
                let now = crate::clock::Instant::now();
                let wait_until = now + deadline.saturating_duration_since(now) / 2;
                while crate::clock::Instant::now() < wait_until {
                    if let Some(fsm) = DEEP.get() {
                        return Ok(fsm);
                    }
                    if let Err(LimitHit::Cancelled) = limits.check(0) {
                        return Err(LimitHit::Cancelled);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                limits.check(0)?;
                return Ok(DEEP
                    .get()
                    .unwrap_or_else(|| QUICK.get_or_init(|| Fsm::learned(QUICK_DEPTH))));
            }
        }
        if cells > 16 && DEEP.get().is_none() && deep_learning_fits(budget) {
            // About to learn it in place: not for a search already cancelled.
            if let Err(LimitHit::Cancelled) = limits.check(0) {
                return Err(LimitHit::Cancelled);
            }
        }
        Ok(Fsm::for_cells_within(cells, budget))
    }

    /// The automaton learned from every move string of up to `depth` moves (module docs); a
    /// depth past [`MAX_DEPTH`] learns to [`MAX_DEPTH`] (which takes minutes already).
    pub fn learned(depth: usize) -> Fsm {
        let duplicates = duplicate_strings(depth.min(MAX_DEPTH));
        let count = duplicates.len();
        let mut fsm = Fsm::recognising(&duplicates);
        fsm.duplicates = count;
        fsm
    }

    /// The state before any move.
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The state after move `m` (0..4, [`crate::Move::index`]) in `state`, or [`PRUNED`].
    #[inline]
    pub fn next(&self, state: u32, m: u8) -> u32 {
        self.next[state as usize][usize::from(m & 3)]
    }

    /// The transition table, one row of four per state.
    pub(crate) fn table(&self) -> &[[u32; 4]] {
        &self.next
    }

    /// Number of states.
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// Number of duplicate strings recognised.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// True when no move of `moves`, played from the start, is refused.
    pub fn accepts(&self, moves: &[u8]) -> bool {
        let mut s = self.start;
        for &m in moves {
            s = self.next(s, m);
            if s == PRUNED {
                return false;
            }
        }
        true
    }

    /// The Aho–Corasick automaton of `strings`: a trie, failure links found breadth first, and
    /// every transition completed, so that each move costs one table lookup.
    fn recognising(strings: &[Vec<u8>]) -> Fsm {
        const NONE: u32 = u32::MAX;
        let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
        let mut terminal = vec![false];
        for s in strings {
            let mut node = 0usize;
            for &m in s {
                let m = usize::from(m);
                if goto[node][m] == NONE {
                    goto[node][m] = goto.len() as u32;
                    goto.push([NONE; 4]);
                    terminal.push(false);
                }
                node = goto[node][m] as usize;
            }
            terminal[node] = true;
        }
        let mut fail = vec![0u32; goto.len()];
        let mut queue = std::collections::VecDeque::new();
        for slot in goto[0].iter_mut() {
            match *slot {
                NONE => *slot = 0,
                child => queue.push_back(child as usize),
            }
        }
        while let Some(node) = queue.pop_front() {
            let f = fail[node] as usize;
            terminal[node] |= terminal[f];
            let fallback = goto[f];
            for (slot, &via_fail) in goto[node].iter_mut().zip(fallback.iter()) {
                match *slot {
                    NONE => *slot = via_fail,
                    child => {
                        fail[child as usize] = via_fail;
                        queue.push_back(child as usize);
                    }
                }
            }
        }
        let next = goto
            .iter()
            .map(|row| row.map(|t| if terminal[t as usize] { PRUNED } else { t }))
            .collect();
        Fsm {
            next,
            start: 0,
            duplicates: 0,
        }
    }
}

/// The minimal duplicate strings of up to `depth` moves on an unbounded board (module docs):
/// a first string extended by one move that reaches a state some smaller string reached first,
/// kept when that smaller string's blank stays inside the rectangle this one's sweeps. The
/// four moves back (`UD`, `DU`, `LR`, `RL`) come first; longer strings ending in a move back
/// are not listed, those four already cover them.
fn duplicate_strings(depth: usize) -> Vec<Vec<u8>> {
    const INVERSE: [u8; 4] = [1, 0, 3, 2];
    let mut duplicates: Vec<Vec<u8>> = (0..4u8).map(|m| vec![m, INVERSE[m as usize]]).collect();
    // Every first string as (parent, last move), the root first; only the last level's
    // strings keep their blank, rectangle and state, for the next level.
    let mut trail: Vec<(u32, u8)> = vec![(u32::MAX, 4)];
    let mut level = vec![Node {
        id: 0,
        last: 4,
        blank: (0, 0),
        rect: Rect::at(0, 0),
        state: State::default(),
    }];
    let mut seen: HashMap<State, Rect, FoldState> = HashMap::with_hasher(FoldState);
    seen.insert(State::default(), Rect::at(0, 0));
    for _ in 0..depth {
        let mut next = Vec::with_capacity(level.len() * 3);
        seen.reserve(level.len() * 3);
        for parent in &level {
            for m in 0..4u8 {
                if parent.last < 4 && m == INVERSE[usize::from(parent.last)] {
                    continue;
                }
                let (dx, dy) = STEPS[usize::from(m)];
                let (x, y) = parent.blank;
                let to = (x + dx, y + dy);
                let state = parent.state.slid(parent.blank, to);
                let rect = parent.rect.add(to.0, to.1);
                match seen.entry(state) {
                    Entry::Occupied(first) => {
                        if first.get().inside(&rect) {
                            let mut d = moves_of(&trail, parent.id);
                            d.push(m);
                            duplicates.push(d);
                        }
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(rect);
                        next.push(Node {
                            id: trail.len() as u32,
                            last: m,
                            blank: to,
                            rect,
                            state,
                        });
                        trail.push((parent.id, m));
                    }
                }
            }
        }
        level = next;
    }
    duplicates
}

/// A first string of the learning search's last level.
struct Node {
    /// Its place in the trail of first strings.
    id: u32,
    last: u8,
    blank: (i32, i32),
    rect: Rect,
    state: State,
}

/// The moves of first string `n` of `trail`, first move first.
fn moves_of(trail: &[(u32, u8)], n: u32) -> Vec<u8> {
    let mut moves = Vec::new();
    let mut n = n as usize;
    while trail[n].0 != u32::MAX {
        moves.push(trail[n].1);
        n = trail[n].0 as usize;
    }
    moves.reverse();
    moves
}

/// Deepest learning search [`Fsm::learned`] runs: a state of the learning search then fits its
/// fixed array (`depth` moves displace at most `depth + 1` cells) and a coordinate fits 8 bits.
pub const MAX_DEPTH: usize = 15;

/// A state of the unbounded board: the cells whose content moved, each with what it holds
/// (the content named by its first cell), in cell order. The blank starts on (0, 0). Each entry
/// is one word, the cell in the high half ([`pack`]), and the entries live in a fixed array, so
/// that making, hashing and comparing a state allocates nothing: the learning search to depth
/// 12 makes about a million of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct State {
    len: u8,
    /// `entries[..len]`, the rest 0.
    entries: [u32; MAX_DEPTH + 1],
}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // The unused entries are 0: hashing only the used ones is consistent with `Eq`.
        self.entries[..usize::from(self.len)].hash(state);
    }
}

/// A cell as 16 bits, ordered as (x, y) is: each coordinate biased into 8 bits (the learning
/// search never goes more than [`MAX_DEPTH`] cells from the start).
fn pack(c: (i32, i32)) -> u32 {
    (((c.0 + 0x80) as u32) << 8) | ((c.1 + 0x80) as u32 & 0xff)
}

impl State {
    fn find(&self, c: (i32, i32)) -> Result<usize, usize> {
        let key = pack(c);
        self.entries[..usize::from(self.len)].binary_search_by(|e| (e >> 16).cmp(&key))
    }

    /// What cell `c` holds (packed).
    fn at(&self, c: (i32, i32)) -> u32 {
        self.find(c).map_or(pack(c), |i| self.entries[i] & 0xffff)
    }

    /// The state after the blank on `from` slid to `to`.
    fn slid(&self, from: (i32, i32), to: (i32, i32)) -> State {
        let (blank, tile) = (self.at(from), self.at(to));
        let mut next = *self;
        next.set(from, tile);
        next.set(to, blank);
        next
    }

    fn set(&mut self, c: (i32, i32), content: u32) {
        let home = pack(c);
        let len = usize::from(self.len);
        match self.find(c) {
            Ok(i) if content == home => {
                self.entries.copy_within(i + 1..len, i);
                self.entries[len - 1] = 0;
                self.len -= 1;
            }
            Ok(i) => self.entries[i] = home << 16 | content,
            Err(_) if content == home => {}
            Err(i) => {
                self.entries.copy_within(i..len, i + 1);
                self.entries[i] = home << 16 | content;
                self.len += 1;
            }
        }
    }
}

/// The rectangle of cells a blank swept, as (x0, y0, x1, y1), inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect(i32, i32, i32, i32);

impl Rect {
    fn at(x: i32, y: i32) -> Rect {
        Rect(x, y, x, y)
    }

    fn add(self, x: i32, y: i32) -> Rect {
        Rect(self.0.min(x), self.1.min(y), self.2.max(x), self.3.max(y))
    }

    /// True when this rectangle lies inside `outer`.
    fn inside(&self, outer: &Rect) -> bool {
        self.0 >= outer.0 && self.1 >= outer.1 && self.2 <= outer.2 && self.3 <= outer.3
    }
}

/// Plays `moves` from (0, 0): the state reached and the rectangle the blank swept.
#[cfg(test)]
fn play(moves: &[u8]) -> (State, Rect) {
    let mut state = State::default();
    let (mut blank, mut rect) = ((0, 0), Rect::at(0, 0));
    for &m in moves {
        let (dx, dy) = STEPS[usize::from(m)];
        let to = (blank.0 + dx, blank.1 + dy);
        state = state.slid(blank, to);
        blank = to;
        rect = rect.add(to.0, to.1);
    }
    (state, rect)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_memory_budget_gets_the_quick_automaton_unless_the_deep_one_is_learned() {
        let quick = Fsm::for_cells(16);
        let small = Fsm::for_cells_within(49, 4 * DEEP_LEARNING_BYTES - 1);
        // Another test may have learned the deep automaton meanwhile: then either is right.
        match DEEP.get() {
            Some(deep) => assert!(std::ptr::eq(small, deep) || std::ptr::eq(small, quick)),
            None => assert!(std::ptr::eq(small, quick)),
        }
        assert!(Fsm::for_cells_if_ready(49, 1 << 20).is_some());
        assert!(std::ptr::eq(Fsm::for_cells_within(16, usize::MAX), quick));
    }

    const U: u8 = 0;
    const D: u8 = 1;
    const L: u8 = 2;
    const R: u8 = 3;

    #[test]
    fn the_plain_automaton_refuses_only_the_move_back() {
        let fsm = Fsm::inverse_only();
        assert!(fsm.accepts(&[U, L, D, R, U, L]));
        assert!(!fsm.accepts(&[U, D]));
        assert!(!fsm.accepts(&[L, R]));
        assert!(fsm.accepts(&[U, U, L, L]));
    }

    #[test]
    fn learned_automaton_refuses_the_known_duplicates() {
        let fsm = Fsm::learned(8);
        // Never undo a move.
        for (a, b) in [(U, D), (D, U), (L, R), (R, L)] {
            assert!(!fsm.accepts(&[a, b]));
            assert!(!fsm.accepts(&[L, U, a, b]));
        }
        // The blank twice round a 2x2 block is once round the other way; of the eight ways
        // to go round twice, only those are refused whose reverse is smaller.
        let twice_clockwise = [R, D, L, U, R, D, L, U];
        let twice_anticlockwise = [D, R, U, L, D, R, U, L];
        assert!(!fsm.accepts(&twice_clockwise) || !fsm.accepts(&twice_anticlockwise));
        // Straight lines and a single round are no duplicates.
        assert!(fsm.accepts(&[U, U, U, U, U, U, U, U]));
        assert!(fsm.accepts(&[R, D, L, U]));
        assert!(fsm.duplicates() > 4);
    }

    #[test]
    fn every_duplicate_has_a_smaller_twin_inside_its_rectangle() {
        // Checked independently of the learning search: every string of each length in
        // (length, letters) order, the first to reach each state kept.
        let depth = 8;
        let duplicates = duplicate_strings(depth);
        assert!(duplicates.len() > 4);
        let mut first: HashMap<State, (Vec<u8>, Rect)> = HashMap::new();
        let mut frontier = vec![Vec::new()];
        first.insert(State::default(), (Vec::new(), Rect::at(0, 0)));
        for _ in 0..depth {
            let mut next = Vec::new();
            for s in &frontier {
                for m in 0..4u8 {
                    let mut t: Vec<u8> = s.clone();
                    t.push(m);
                    let (key, rect) = play(&t);
                    first.entry(key).or_insert_with(|| {
                        next.push(t.clone());
                        (t, rect)
                    });
                }
            }
            frontier = next;
        }
        for d in &duplicates {
            let (key, rect) = play(d);
            let (twin, twin_rect) = &first[&key];
            assert!((twin.len(), twin) < (d.len(), d), "{d:?} against {twin:?}");
            assert!(twin_rect.inside(&rect));
        }
    }
}
