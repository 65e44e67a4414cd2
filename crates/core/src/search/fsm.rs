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
//! serves every board. The learning to depth 12 takes about a third of a second and a quarter
//! of a gigabyte, so its result, the list of duplicate strings, is kept in the source
//! (`duplicates.txt`, checked against the learning by a test), and each process builds its
//! automata from that list in milliseconds ([`Fsm::for_cells`]).

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::hashing::FoldState;
use std::sync::OnceLock;

/// A transition into a state that completes a duplicate: the move is not generated.
pub const PRUNED: u32 = u32::MAX;

/// Depth of the learning search for boards of up to [`QUICK_MAX_CELLS`] cells
/// ([`Fsm::for_cells`]).
///
/// The short cycles carry most of the gain (the blank around a 2x2 block twice is the same as
/// once the other way round: 8 moves against 4); deeper learning finds rarer duplicates, and
/// the automaton grows about ten times per two moves of depth (395 states at depth 8, 48,957
/// at depth 12).
pub const QUICK_DEPTH: usize = 8;
/// Depth of the learning search for larger boards. On the 15-puzzle with the zero-aware 7-8 it
/// cuts the nodes by 9 % (Korf's 100) to 11 % (the 80-move positions) against depth 8, and the
/// instructions with them: a lookup in its larger table costs about the same.
pub const DEEP_DEPTH: usize = 12;
/// Largest board pruned by the quick automaton: the 8-puzzle's searches take less time than
/// building the deep one (about 3 ms).
pub const QUICK_MAX_CELLS: usize = 9;

/// The minimal duplicate strings of up to [`DEEP_DEPTH`] moves, as [`Fsm::duplicate_strings`]
/// learns them and in its order, one a line in the letters of [`crate::Move`] (where the blank
/// goes), after comment lines that begin with `#`. A test checks that the learning still gives
/// this list, and rewrites it when asked to (see [`Fsm::duplicates_file`]).
const DUPLICATES_FILE: &str = include_str!("duplicates.txt");

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

/// The automata of [`Fsm::for_cells`], built once per process.
static QUICK: OnceLock<Fsm> = OnceLock::new();
static DEEP: OnceLock<Fsm> = OnceLock::new();

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

    /// The automaton for boards of `cells` cells: it refuses the duplicates of up to
    /// [`QUICK_DEPTH`] moves up to [`QUICK_MAX_CELLS`] cells, of [`DEEP_DEPTH`] beyond; built
    /// once per process from the list kept in the source (each is a constant, the same for
    /// every board and goal).
    pub fn for_cells(cells: usize) -> &'static Fsm {
        let (cell, depth) = Fsm::slot(cells);
        cell.get_or_init(|| Fsm::kept(depth))
    }

    /// Where [`Fsm::for_cells`] keeps the automaton of boards of `cells` cells, and its depth.
    fn slot(cells: usize) -> (&'static OnceLock<Fsm>, usize) {
        if cells > QUICK_MAX_CELLS {
            (&DEEP, DEEP_DEPTH)
        } else {
            (&QUICK, QUICK_DEPTH)
        }
    }

    /// Starts building [`Fsm::for_cells`]'s automaton on a thread of its own if it is not built
    /// yet (not in a browser, which has no threads), for a search about to open its tables:
    /// it then finds the automaton built, or waits only for the rest of the build. The deep
    /// one takes about 3 ms, as long as the whole search of an easy 15-puzzle.
    pub fn build_beside(cells: usize) {
        #[cfg(not(target_arch = "wasm32"))]
        if Fsm::slot(cells).0.get().is_none() {
            // No thread to be had: the search builds it when it starts.
            let _ = std::thread::Builder::new()
                .name("taquin-automaton".into())
                .spawn(move || Fsm::for_cells(cells));
        }
        #[cfg(target_arch = "wasm32")]
        let _ = cells;
    }

    /// The automaton of the kept duplicate strings of up to `depth` moves (at most
    /// [`DEEP_DEPTH`]): the same as [`Fsm::learned`] with that depth, without the learning.
    fn kept(depth: usize) -> Fsm {
        debug_assert!(depth <= DEEP_DEPTH);
        // Read in place, letter by letter: a list of vectors would cost more than the trie.
        let index = |letter: u8| match crate::Move::from_letter(char::from(letter)) {
            Some(m) => m.index() as u8,
            None => unreachable!("the kept list is checked by a test"),
        };
        let duplicates = DUPLICATES_FILE
            .lines()
            .filter(|line| !line.starts_with('#') && line.len() <= depth)
            .map(|line| line.bytes().map(index));
        Fsm::recognising(duplicates)
    }

    /// The text of the list of duplicate strings kept in the source (`duplicates.txt`):
    /// those of up to [`DEEP_DEPTH`] moves, as learned, one a line, after its comment lines.
    pub fn duplicates_file() -> String {
        let mut text = format!(
            "# The minimal duplicate strings of up to {DEEP_DEPTH} moves of the sliding puzzle (Taylor & Korf\n\
             # 1993), one a line, U D L R the direction the blank moves: learned by\n\
             # `Fsm::duplicate_strings({DEEP_DEPTH})` (crates/core/src/search/fsm.rs), whose test checks this\n\
             # file; rewrite it with\n\
             #   TAQUIN_WRITE_DUPLICATES=1 cargo test --release -p taquin-core --lib kept_duplicates\n",
        );
        for d in Fsm::duplicate_strings(DEEP_DEPTH) {
            text.extend(d.iter().map(|&m| crate::Move::ALL[usize::from(m)].letter()));
            text.push('\n');
        }
        text
    }

    /// The automaton learned from every move string of up to `depth` moves (module docs); a
    /// depth past [`MAX_DEPTH`] learns to [`MAX_DEPTH`] (which takes minutes already).
    pub fn learned(depth: usize) -> Fsm {
        let duplicates = Fsm::duplicate_strings(depth);
        Fsm::recognising(duplicates.iter().map(|d| d.iter().copied()))
    }

    /// The minimal duplicate strings of up to `depth` moves (at most [`MAX_DEPTH`]) on an
    /// unbounded board (module docs), each move as its [`crate::Move::index`]: a first string
    /// extended by one move that reaches a state some smaller string reached first, kept when
    /// that smaller string's blank stays inside the rectangle this one's sweeps. Shortest
    /// first, the four moves back (`UD`, `DU`, `LR`, `RL`) leading; longer strings ending in a
    /// move back are not listed, those four already cover them.
    pub fn duplicate_strings(depth: usize) -> Vec<Vec<u8>> {
        duplicate_strings(depth.min(MAX_DEPTH))
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
    fn recognising<S: Iterator<Item = u8>>(strings: impl Iterator<Item = S>) -> Fsm {
        const NONE: u32 = u32::MAX;
        let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
        let mut terminal = vec![false];
        let mut count = 0;
        for s in strings {
            count += 1;
            let mut node = 0usize;
            for m in s {
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
        let mut queue = std::collections::VecDeque::with_capacity(goto.len());
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
        // In place: the table is most of a megabyte for the deep automaton.
        for row in goto.iter_mut() {
            for t in row.iter_mut() {
                if terminal[*t as usize] {
                    *t = PRUNED;
                }
            }
        }
        Fsm {
            next: goto,
            start: 0,
            duplicates: count,
        }
    }
}

/// See [`Fsm::duplicate_strings`].
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
    fn kept_duplicates_are_the_learned_ones() {
        let learned = Fsm::duplicates_file();
        if std::env::var_os("TAQUIN_WRITE_DUPLICATES").is_some() {
            // The list this test binary holds is the one from before: the next run checks it.
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/duplicates.txt");
            std::fs::write(path, &learned).unwrap();
            return;
        }
        assert!(
            learned == DUPLICATES_FILE,
            "crates/core/src/search/duplicates.txt is not what the learning gives: rewrite it \
             as its first lines say"
        );
        // Each automaton built from the kept list is the one its depth's learning gives: the
        // learning goes level by level, so the first levels' duplicates do not depend on how
        // deep it goes.
        for (cells, depth) in [(9, QUICK_DEPTH), (16, DEEP_DEPTH)] {
            let kept = Fsm::for_cells(cells);
            let fresh = Fsm::learned(depth);
            assert_eq!(kept.table(), fresh.table(), "depth {depth}");
            assert_eq!(kept.start(), fresh.start());
            assert_eq!(kept.duplicates(), fresh.duplicates());
        }
        assert!(std::ptr::eq(Fsm::for_cells(49), Fsm::for_cells(10)));
        assert!(std::ptr::eq(Fsm::for_cells(4), Fsm::for_cells(9)));
        assert!(Fsm::for_cells(10).states() > 10 * Fsm::for_cells(9).states());
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
