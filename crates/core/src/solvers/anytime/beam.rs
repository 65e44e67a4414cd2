//! Breadth-first beam search: layer by layer from the start, keeping only the `width` children
//! of each layer with the smallest heuristic (Bisiani 1987; Zhou & Hansen 2005 for its use on
//! the sliding-tile puzzle). Every board of a layer has the same g, so ordering by h is ordering
//! by f = g + h. Memory is linear in the width and the depth, and the first goal met is the
//! shortest path the beam holds.
//!
//! Why it suits the anytime search: with a good heuristic, a wide beam finds far shorter paths
//! than weighted A* with the weight that fits the same memory, and widening the beam gives a
//! steady stream of better solutions. With an incumbent of length L, children with
//! g + 1 + h >= L are dropped (h is admissible, so they cannot lead to a shorter path), which
//! focuses the beam on the boards that can still improve on it.
//!
//! Duplicates: a board is kept in at most one layer (a 64-bit Zobrist hash of every kept board
//! is remembered), so the beam never spends its width on boards it already holds at a smaller
//! depth. A hash collision can only drop a board, never produce a wrong path: the path is
//! rebuilt from the parents and replayed by the caller.

use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Incremental;
use crate::limits::{Budget, LimitHit, Limits};
use crate::moves::Move;

use super::seen::SeenSet;

/// What one beam search gave.
#[derive(Debug)]
pub(crate) struct BeamOutcome {
    /// The path found, if any.
    pub moves: Option<Vec<Move>>,
    /// When no path was found: the path to the board of smallest heuristic value the beam
    /// kept (the shallowest of them), from which the caller can finish by other means. A beam
    /// ranked by the heuristic alone can settle on a plateau near the goal (on 7x7 boards
    /// with linear conflict, values 15-23 for hundreds of layers) and end at its bound.
    pub closest: Option<Vec<Move>>,
    /// Boards generated.
    pub generated: u64,
    /// Boards kept (expanded or to be expanded).
    pub expanded: u64,
    /// Largest memory estimate reached, in bytes.
    pub peak_memory_bytes: usize,
    /// The limit that ended the search before it found a path, if one did.
    pub limit: Option<LimitHit>,
}

/// A child considered for the next layer. Its heuristic state stays where its thread wrote it
/// (`slot`, see [`aux_at`]), so that choosing the best children moves 24 bytes a child, not
/// the whole state.
#[derive(Clone, Copy)]
struct Candidate {
    h: u32,
    parent: u32,
    hash: u64,
    slot: u32,
    mv: u8,
}

/// Random 64-bit keys, one per (cell, tile): the Zobrist hash of a board is the XOR of the
/// keys of its tiles' cells (Zobrist 1970), updated with four XORs per move.
///
/// The keys are the SplitMix64 sequence (Steele, Lea & Flood 2014) from a fixed seed, so runs
/// are reproducible. Up to [`ZOBRIST_TABLE_CELLS`] cells they are read from a table; beyond,
/// each is computed when asked (a table of cells x cells keys would take 800 MB on a 100x100
/// board and 8 TB on a 1000x1000), with the same values.
///
/// A beam keeps the children of smallest value, and among equal values those of smallest hash:
/// another stretch of the sequence (`ties`) gives another order of ties, and so another beam
/// of the same width.
struct Zobrist {
    cells: usize,
    /// Where this board's keys start in the sequence.
    offset: usize,
    table: Vec<u64>,
}

/// Largest board whose keys are kept in a table: 256 cells, 512 KB of keys.
const ZOBRIST_TABLE_CELLS: usize = 256;

impl Zobrist {
    /// The keys of the `ties`-th order of ties (0: the first stretch of the sequence).
    fn new(cells: usize, ties: usize) -> Zobrist {
        let offset = ties.wrapping_mul(cells * cells);
        let table = if cells <= ZOBRIST_TABLE_CELLS {
            (0..cells * cells)
                .map(|i| Zobrist::computed(i.wrapping_add(offset)))
                .collect()
        } else {
            Vec::new()
        };
        Zobrist {
            cells,
            offset,
            table,
        }
    }

    /// The `i`-th key of the sequence.
    fn computed(i: usize) -> u64 {
        const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut z = GOLDEN.wrapping_mul(i as u64 + 2);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The key of `tile` on `cell`.
    #[inline]
    fn key(&self, cell: usize, tile: Tile) -> u64 {
        let i = cell * self.cells + tile as usize;
        match self.table.get(i) {
            Some(&k) => k,
            None => Zobrist::computed(i.wrapping_add(self.offset)),
        }
    }
}

/// Boards whose children are prepared together (see [`Layer::expand`]): up to four children
/// each, enough table reads in flight to keep the memory busy, few enough that what was asked
/// for is still in the caches when it is read.
const BATCH_PARENTS: usize = 8;

/// A child prepared for its look-ups ([`Layer::expand`]).
struct Child<P> {
    parent: u32,
    mv: Move,
    to: u32,
    hash: u64,
    pending: P,
}

/// Parents a layer needs before its expansion is shared out among threads: below it, starting
/// the threads costs more than it saves.
const PARALLEL_MIN_PARENTS: usize = 2048;

/// One layer of the beam, read-only while its children are generated.
struct Layer<'a, H: Incremental> {
    h: &'a H,
    goal: &'a [Tile],
    keys: &'a Zobrist,
    seen: &'a SeenSet,
    /// Tiles of the boards, `n` per board.
    tiles: &'a [Tile],
    blanks: &'a [usize],
    hs: &'a [u32],
    auxes: &'a [H::Aux],
    hashes: &'a [u64],
    arrived: &'a [Option<Move>],
    n: usize,
    width: usize,
    height: usize,
    /// Moves from the start to this layer.
    g: usize,
    /// Only paths shorter than this are kept.
    bound: usize,
}

/// What generating the children of some boards of a layer gave. Kept from layer to layer, its
/// vectors cleared but not freed: a wide layer's children take hundreds of megabytes (the
/// search state of the 6x6 set and the 24-puzzle's combined one takes 224 bytes a child), and
/// memory freed and asked for again each layer comes back from the system as fresh pages,
/// each a page fault (a fifth of the CPU time of a 6x6 run at 30 s went to the kernel). Each
/// vector keeps the capacity of the widest layer so far, whose memory the beam checked before
/// expanding it.
struct Expansion<A> {
    candidates: Vec<Candidate>,
    /// The candidates' heuristic states, by `slot` (counted within this part).
    auxes: Vec<A>,
    generated: u64,
    /// The first child, in board order, that is the goal: its parent and move.
    goal: Option<(usize, Move)>,
    limit: Option<LimitHit>,
}

impl<A> Expansion<A> {
    fn new() -> Expansion<A> {
        Expansion {
            candidates: Vec::new(),
            auxes: Vec::new(),
            generated: 0,
            goal: None,
            limit: None,
        }
    }

    /// Empty again, for `parents` boards' children.
    fn reset(&mut self, parents: usize) {
        self.candidates.clear();
        self.auxes.clear();
        self.candidates.reserve(3 * parents);
        self.auxes.reserve(3 * parents);
        self.generated = 0;
        self.goal = None;
        self.limit = None;
    }
}

/// What a whole layer's expansion gave ([`Layer::expand_all`]); its candidates are in the
/// vector the caller passed, their heuristic states in the parts.
struct LayerOutcome {
    generated: u64,
    /// The first child, in board order, that is the goal: its parent and move.
    goal: Option<(usize, Move)>,
    limit: Option<LimitHit>,
    /// Parts that hold this layer's heuristic states, in slot order.
    parts: usize,
}

/// The heuristic state of candidate slot `slot` among `parts` (slots number the parts' states
/// one after the other).
fn aux_at<A: Copy>(parts: &[Expansion<A>], mut slot: usize) -> A {
    for part in parts {
        match part.auxes.get(slot) {
            Some(&aux) => return aux,
            None => slot -= part.auxes.len(),
        }
    }
    unreachable!("a candidate's slot is within the layer's parts")
}

impl<H: Incremental> Layer<'_, H> {
    /// The children of boards `parents` that may still lead to a path shorter than the bound
    /// and that no earlier layer kept, counting the nodes from `generated_before` against
    /// `limits`, into `out`. Stops at the first goal met.
    fn expand(
        &self,
        parents: std::ops::Range<usize>,
        limits: &Limits,
        generated_before: u64,
        out: &mut Expansion<H::Aux>,
    ) {
        let n = self.n;
        let key = |cell: usize, tile: Tile| self.keys.key(cell, tile);
        out.reset(parents.len());
        let mut budget = Budget::new(limits);
        let mut board: Vec<Tile> = vec![0; n];
        let mut batch: Vec<Child<H::Pending>> = Vec::with_capacity(4 * BATCH_PARENTS);
        let mut first = parents.start;
        while first < parents.end {
            let last = (first + BATCH_PARENTS).min(parents.end);
            // The children of a batch of boards are prepared first: their table entries and
            // their slots in the seen-set are asked for at once, so that the reads below
            // overlap instead of each waiting on the memory in turn.
            batch.clear();
            for i in first..last {
                let b = self.blanks[i];
                board.copy_from_slice(&self.tiles[i * n..(i + 1) * n]);
                for mv in Move::ALL {
                    if self.arrived[i] == Some(mv.inverse()) {
                        continue;
                    }
                    let Some(to) = mv.target(b, self.width, self.height) else {
                        continue;
                    };
                    let tile = board[to];
                    board.swap(b, to);
                    let pending = self.h.prepare(&board, tile, to, b, &self.auxes[i]);
                    board.swap(b, to);
                    let hash = self.hashes[i]
                        ^ key(to, tile)
                        ^ key(b, tile)
                        ^ key(b, BLANK)
                        ^ key(to, BLANK);
                    self.seen.prefetch(hash);
                    batch.push(Child {
                        parent: i as u32,
                        mv,
                        to: to as u32,
                        hash,
                        pending,
                    });
                }
            }
            let mut loaded = usize::MAX;
            for child in &batch {
                let i = child.parent as usize;
                let (b, to) = (self.blanks[i], child.to as usize);
                out.generated += 1;
                if budget.spend(1, generated_before + out.generated) {
                    out.limit = budget.hit();
                    return;
                }
                if loaded != i {
                    board.copy_from_slice(&self.tiles[i * n..(i + 1) * n]);
                    loaded = i;
                }
                let tile = board[to];
                board.swap(b, to);
                let mut aux = self.auxes[i];
                let hc = self
                    .h
                    .finish(&board, tile, to, b, self.hs[i], &mut aux, &child.pending);
                let done = hc == 0 && board == self.goal;
                board.swap(b, to);
                if done {
                    out.goal = Some((i, child.mv));
                    return;
                }
                if self.g + 1 + hc as usize >= self.bound || self.seen.contains(child.hash) {
                    continue;
                }
                out.candidates.push(Candidate {
                    h: hc,
                    parent: i as u32,
                    hash: child.hash,
                    slot: out.auxes.len() as u32,
                    mv: child.mv.index() as u8,
                });
                out.auxes.push(aux);
            }
            first = last;
        }
    }

    /// [`Layer::expand`] over the whole layer, on `threads` threads when the layer is large
    /// enough and the node budget cannot run out within it (so that a node budget stops the
    /// search at the same node as on one thread). The candidates come in board order, as on
    /// one thread, so the beam is the same whatever the number of threads. The candidates go
    /// to `candidates`, their heuristic states stay in `parts` (one per thread, kept from layer
    /// to layer; see [`aux_at`]).
    fn expand_all(
        &self,
        limits: &Limits,
        generated_before: u64,
        threads: usize,
        parts: &mut Vec<Expansion<H::Aux>>,
        candidates: &mut Vec<Candidate>,
    ) -> LayerOutcome
    where
        H: Sync,
        H::Aux: Send + Sync,
    {
        let parents = self.blanks.len();
        let fits = limits
            .max_nodes
            .is_none_or(|m| generated_before.saturating_add(4 * parents as u64) < m);
        let one =
            threads <= 1 || parents < PARALLEL_MIN_PARENTS || !fits || cfg!(target_arch = "wasm32");
        let used = if one { 1 } else { threads };
        // No part beyond those used keeps its memory.
        parts.truncate(used);
        while parts.len() < used {
            parts.push(Expansion::new());
        }
        if one {
            let part = &mut parts[0];
            // The part's candidates are the layer's: handed over, not copied, and one vector
            // serves both from layer to layer.
            part.candidates = std::mem::take(candidates);
            self.expand(0..parents, limits, generated_before, part);
            *candidates = std::mem::take(&mut part.candidates);
            return LayerOutcome {
                generated: part.generated,
                goal: part.goal,
                limit: part.limit,
                parts: 1,
            };
        }
        let chunk = parents.div_ceil(used);
        std::thread::scope(|scope| {
            let handles: Vec<_> = parts[..used]
                .iter_mut()
                .enumerate()
                .map(|(t, part)| {
                    let range = (t * chunk).min(parents)..((t + 1) * chunk).min(parents);
                    scope.spawn(move || self.expand(range, limits, generated_before, part))
                })
                .collect();
            for h in handles {
                h.join().expect("a beam expansion thread panicked");
            }
        });
        let mut all = LayerOutcome {
            generated: 0,
            goal: None,
            limit: None,
            parts: used,
        };
        candidates.clear();
        candidates.reserve(parts[..used].iter().map(|p| p.candidates.len()).sum());
        let mut offset = 0u32;
        for part in &parts[..used] {
            // Past a part that met the goal or a limit, one thread would have generated
            // nothing: the parts after it are not counted, so that the counts (and the node
            // budget's use of them) are the same on any number of threads.
            if all.goal.is_some() || all.limit.is_some() {
                break;
            }
            all.generated += part.generated;
            candidates.extend(part.candidates.iter().map(|c| Candidate {
                slot: c.slot + offset,
                ..*c
            }));
            offset += part.auxes.len() as u32;
            all.goal = part.goal;
            all.limit = part.limit;
        }
        all
    }
}

/// The boards of one layer, in order of value: tiles (`n` per board), blank cell, heuristic
/// value and state, Zobrist hash and the move that led there. Two of them serve the beam from
/// layer to layer, the next one cleared and filled (see [`Expansion`] for why).
struct Boards<A> {
    tiles: Vec<Tile>,
    blanks: Vec<usize>,
    hs: Vec<u32>,
    auxes: Vec<A>,
    hashes: Vec<u64>,
    arrived: Vec<Option<Move>>,
}

impl<A> Boards<A> {
    fn new() -> Boards<A> {
        Boards {
            tiles: Vec::new(),
            blanks: Vec::new(),
            hs: Vec::new(),
            auxes: Vec::new(),
            hashes: Vec::new(),
            arrived: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.tiles.clear();
        self.blanks.clear();
        self.hs.clear();
        self.auxes.clear();
        self.hashes.clear();
        self.arrived.clear();
    }
}

/// The moves from the start to board `index` of the last layer of `history` (each layer's
/// kept boards as (parent index, arriving move)).
fn path_to(history: &[Vec<(u32, Move)>], index: usize) -> Vec<Move> {
    let mut path = Vec::with_capacity(history.len() + 1);
    let mut at = index;
    for layer in history.iter().rev() {
        let (p, m) = layer[at];
        path.push(m);
        at = p as usize;
    }
    path.reverse();
    path
}

/// What a beam's memory is made of, in bytes, for a heuristic's search state and a board's
/// cells: [`beam_search`] checks each layer's estimate against the budget before spending it.
struct Footprint {
    /// A board of a layer: its tiles, search state, value, hash, blank and move.
    per_board: usize,
    /// A child generated, before the best are kept.
    per_candidate: usize,
    /// A board kept in an earlier layer: its path record and its hash in the seen-set.
    per_kept: usize,
}

impl Footprint {
    fn of<H: Incremental>(cells: usize) -> Footprint {
        Footprint {
            per_board: cells * std::mem::size_of::<Tile>() + std::mem::size_of::<H::Aux>() + 32,
            per_candidate: std::mem::size_of::<Candidate>() + std::mem::size_of::<H::Aux>(),
            per_kept: std::mem::size_of::<(u32, Move)>() + SeenSet::BYTES_PER_HASH,
        }
    }

    /// A layer of `layer` boards, with `stored` boards kept before it, and the next layer of
    /// up to `width`: the records so far, the boards of both layers, and up to three children
    /// per board.
    fn layer(&self, stored: usize, layer: usize, width: usize) -> usize {
        stored
            .saturating_mul(self.per_kept)
            .saturating_add(layer.saturating_add(width).saturating_mul(self.per_board))
            .saturating_add(layer.saturating_mul(3 * self.per_candidate))
    }
}

/// The memory of the last layer of a beam of `width` boards with heuristic `H` on a board of
/// `cells` cells that keeps `width` boards in each of its layers down to `depth` moves: the
/// most [`beam_search`] checks against its budget on the way (bytes). A beam whose estimate
/// exceeds the budget would stop there, its nodes spent for nothing.
pub(crate) fn beam_memory<H: Incremental>(cells: usize, width: usize, depth: usize) -> usize {
    Footprint::of::<H>(cells).layer(depth.saturating_sub(1).saturating_mul(width), width, width)
}

/// The widest of `width`, `width / 2`, `width / 4`, ... (at least 1) whose beam fits the
/// memory budget `budget` down to `depth` moves ([`beam_memory`]).
pub(crate) fn widest_fitting<H: Incremental>(
    cells: usize,
    width: usize,
    depth: usize,
    budget: usize,
) -> usize {
    let mut width = width.max(1);
    while width > 1 && beam_memory::<H>(cells, width, depth) > budget {
        width /= 2;
    }
    width
}

/// Runs a beam of `width` boards from `board` to `goal` with heuristic `h`, keeping only paths
/// shorter than `bound` when one is given, generating each layer's children on `threads`
/// threads. Stops at the first goal reached, when the beam empties (no path shorter than
/// `bound` in it), or at a limit of `limits` (time, nodes, cancel flag, memory budget).
/// `on_layer` hears the nodes of each layer as they are counted (generated once the layer is
/// expanded, then expanded once its best children are kept; together, the outcome's counts),
/// so that a long beam's work shows while it runs.
/// `ties` picks the order of ties among children of equal value (see [`Zobrist`]): beams of
/// the same width with other orders often end at other lengths on large boards.
#[allow(clippy::too_many_arguments)]
pub(crate) fn beam_search<H>(
    board: &Board,
    goal: &Board,
    h: &H,
    width: usize,
    bound: Option<usize>,
    limits: &Limits,
    threads: usize,
    on_layer: &dyn Fn(u64, u64),
    ties: usize,
) -> BeamOutcome
where
    H: Incremental + Sync,
    H::Aux: Send + Sync,
{
    let n = board.len();
    let (bw, bh) = (board.width(), board.height());
    let keys = Zobrist::new(n, ties);
    let width = width.max(1);
    let bound = bound.unwrap_or(usize::MAX);
    let mut out = BeamOutcome {
        moves: None,
        closest: None,
        generated: 0,
        expanded: 0,
        peak_memory_bytes: 0,
        limit: None,
    };
    if board.tiles() == goal.tiles() {
        out.moves = Some(Vec::new());
        return out;
    }
    let (h0, aux0) = h.init(board.tiles());
    // The current layer, the start alone.
    let mut current = Boards {
        tiles: board.tiles().to_vec(),
        blanks: vec![board.blank()],
        hs: vec![h0],
        auxes: vec![aux0],
        hashes: vec![board
            .tiles()
            .iter()
            .enumerate()
            .fold(0, |z, (c, &t)| z ^ keys.key(c, t))],
        arrived: vec![None],
    };
    // The next layer and the children: kept from layer to layer (see [`Expansion`]).
    let mut next = Boards::new();
    let mut parts: Vec<Expansion<H::Aux>> = Vec::new();
    let mut candidates: Vec<Candidate> = Vec::new();
    // Per layer, each kept board's parent index and move: enough to rebuild the path.
    let mut history: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut seen = SeenSet::new();
    seen.insert_all(&current.hashes);
    let footprint = Footprint::of::<H>(n);
    // Boards kept so far, in every layer: their path records and seen hashes stay.
    let mut stored = 0usize;
    // The kept board of smallest heuristic value so far, as (value, depth): the first board of
    // the layer at that depth (each layer is kept in order of value).
    let mut closest = (h0, 0usize);
    let closest_path = |history: &[Vec<(u32, Move)>], (_, depth): (u32, usize)| {
        (depth > 0).then(|| path_to(&history[..depth], 0))
    };
    for g in 0usize.. {
        if g + 1 >= bound {
            out.closest = closest_path(&history, closest);
            return out;
        }
        let memory = footprint.layer(stored, current.blanks.len(), width);
        if let Err(hit) = limits.check_memory(memory) {
            out.limit = Some(hit);
            return out;
        }
        out.peak_memory_bytes = out.peak_memory_bytes.max(memory);
        let outcome = Layer {
            h,
            goal: goal.tiles(),
            keys: &keys,
            seen: &seen,
            tiles: &current.tiles,
            blanks: &current.blanks,
            hs: &current.hs,
            auxes: &current.auxes,
            hashes: &current.hashes,
            arrived: &current.arrived,
            n,
            width: bw,
            height: bh,
            g,
            bound,
        }
        .expand_all(limits, out.generated, threads, &mut parts, &mut candidates);
        out.generated += outcome.generated;
        on_layer(outcome.generated, 0);
        if let Some((i, mv)) = outcome.goal {
            let mut path = path_to(&history, i);
            path.push(mv);
            out.moves = Some(path);
            return out;
        }
        if outcome.limit.is_some() {
            out.limit = outcome.limit;
            return out;
        }
        if candidates.is_empty() {
            out.closest = closest_path(&history, closest);
            return out;
        }
        // The best `width` distinct children, smallest h first (hash order among equals, so
        // that copies of one board lie side by side).
        let order = |c: &Candidate| (c.h, c.hash);
        let margin = (width + width / 4).min(candidates.len());
        if margin < candidates.len() {
            candidates.select_nth_unstable_by_key(margin - 1, order);
            candidates.truncate(margin);
        }
        candidates.sort_unstable_by_key(order);
        candidates.dedup_by_key(|c| c.hash);
        candidates.truncate(width);
        // Choosing among a wide layer's children (millions of them) takes a while: the deadline
        // may have passed meanwhile.
        if let Err(hit) = limits.check(out.generated) {
            out.limit = Some(hit);
            return out;
        }
        let kept = candidates.len();
        stored += kept;

        out.expanded += kept as u64;
        on_layer(0, kept as u64);
        let mut layer = Vec::with_capacity(kept);
        next.clear();
        for c in &candidates {
            let p = c.parent as usize;
            let mv = Move::ALL[c.mv as usize];
            let start = next.tiles.len();
            let from = current.blanks[p];
            next.tiles
                .extend_from_slice(&current.tiles[p * n..(p + 1) * n]);
            let to = mv
                .target(from, bw, bh)
                .expect("a candidate's move is legal");
            next.tiles.swap(start + from, start + to);
            layer.push((c.parent, mv));
            next.blanks.push(to);
        }
        // The other columns one at a time: each pass a plain copy the compiler can keep tight.
        let filled = &parts[..outcome.parts];
        next.hs.extend(candidates.iter().map(|c| c.h));
        next.auxes
            .extend(candidates.iter().map(|c| aux_at(filled, c.slot as usize)));
        next.hashes.extend(candidates.iter().map(|c| c.hash));
        next.arrived.extend(layer.iter().map(|&(_, m)| Some(m)));
        std::mem::swap(&mut current, &mut next);
        seen.insert_all(&current.hashes);
        history.push(layer);
        if current.hs[0] < closest.0 {
            closest = (current.hs[0], history.len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_keys_are_the_same_from_the_table_and_computed_and_none_is_stored_for_big_boards() {
        // The SplitMix64 sequence from its fixed seed, written out: runs stay reproducible.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let sequence: Vec<u64> = (0..16 * 16)
            .map(|_| {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        let small = Zobrist::new(16, 0);
        assert_eq!(small.table, sequence);
        for cell in 0..16 {
            for tile in 0..16u16 {
                let i = cell * 16 + tile as usize;
                assert_eq!(small.key(cell, tile as Tile), Zobrist::computed(i));
            }
        }
        // A 100x100 board: no table (it would take 800 MB), the keys computed.
        let big = Zobrist::new(10_000, 0);
        assert!(big.table.is_empty());
        assert_eq!(big.key(1, 2), Zobrist::computed(10_002));
        // Another order of ties: the next stretch of the sequence, from the table or computed.
        let other = Zobrist::new(16, 1);
        assert_eq!(other.key(0, 0), Zobrist::computed(256));
        assert_ne!(other.key(3, 5), small.key(3, 5));
        let big_other = Zobrist::new(10_000, 1);
        assert_eq!(big_other.key(1, 2), Zobrist::computed(10_002 + 100_000_000));
    }
    use crate::heuristic::{Heuristic, LinearConflict, Manhattan};

    fn replay(board: &Board, moves: &[Move]) -> Board {
        let mut b = board.clone();
        b.apply_all(moves).expect("legal moves");
        b
    }

    /// A beam of `width` boards with the `ties`-th order of ties: no bound, no limit, one
    /// thread, no reports.
    fn unbounded_beam<H>(
        board: &Board,
        goal: &Board,
        h: &H,
        width: usize,
        ties: usize,
    ) -> BeamOutcome
    where
        H: Incremental + Sync,
        H::Aux: Send + Sync,
    {
        beam_search(
            board,
            goal,
            h,
            width,
            None,
            &Limits::none(),
            1,
            &|_, _| {},
            ties,
        )
    }

    #[test]
    fn another_order_of_ties_is_another_beam_of_the_same_width() {
        let goal = Board::solved(7, 7).unwrap();
        let board = crate::generate::random_walk(&goal, 1600, &mut crate::generate::Rng::new(1));
        let h = LinearConflict::new(&goal);
        let lengths: Vec<usize> = (0..3)
            .map(|ties| {
                let moves = unbounded_beam(&board, &goal, &h, 64, ties)
                    .moves
                    .expect("a path");
                assert_eq!(replay(&board, &moves), goal);
                moves.len()
            })
            .collect();
        // The same order of ties gives the same beam; the others, other paths.
        let again = unbounded_beam(&board, &goal, &h, 64, 0);
        assert_eq!(again.moves.map(|m| m.len()), Some(lengths[0]));
        assert!(
            lengths[1] != lengths[0] || lengths[2] != lengths[0],
            "{lengths:?}"
        );
    }

    #[test]
    fn a_beam_that_ends_short_of_the_goal_gives_the_path_to_its_closest_board() {
        let goal = Board::solved(3, 3).unwrap();
        // 31 moves from the goal: no path is shorter than the bound.
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let h = Manhattan::new(&goal);
        let start = h.estimate(board.tiles());
        let out = beam_search(
            &board,
            &goal,
            &h,
            16,
            Some(31),
            &Limits::none(),
            1,
            &|_, _| {},
            0,
        );
        assert!(out.moves.is_none());
        assert!(out.limit.is_none());
        let closest = out.closest.expect("the closest board kept");
        let end = replay(&board, &closest);
        assert!(h.estimate(end.tiles()) < start, "{end:?}");
        // The shallowest of the closest boards: none on the way there is as close.
        let mut at = board.clone();
        for &m in &closest[..closest.len() - 1] {
            at.apply(m);
            assert!(h.estimate(at.tiles()) > h.estimate(end.tiles()));
        }
    }

    #[test]
    fn a_wide_beam_is_breadth_first_and_optimal_on_the_8_puzzle() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let h = Manhattan::new(&goal);
        let out = beam_search(
            &board,
            &goal,
            &h,
            1 << 20,
            None,
            &Limits::none(),
            1,
            &|_, _| {},
            0,
        );
        let moves = out.moves.expect("a path");
        assert_eq!(replay(&board, &moves), goal);
        assert_eq!(
            moves.len(),
            31,
            "the 8-puzzle's hardest board is 31 moves away"
        );
    }

    #[test]
    fn a_narrow_beam_still_reaches_the_goal_and_a_wider_one_is_no_longer() {
        let goal = Board::solved(5, 5).unwrap();
        let board = crate::generate::random_walk(&goal, 200, &mut crate::generate::Rng::new(7));
        let h = LinearConflict::new(&goal);
        let narrow = beam_search(
            &board,
            &goal,
            &h,
            8,
            None,
            &Limits::none(),
            1,
            &|_, _| {},
            0,
        );
        let narrow = narrow.moves.expect("a path");
        assert_eq!(replay(&board, &narrow), goal);
        let wide = beam_search(
            &board,
            &goal,
            &h,
            2000,
            None,
            &Limits::none(),
            1,
            &|_, _| {},
            0,
        );
        let wide = wide.moves.expect("a path");
        assert_eq!(replay(&board, &wide), goal);
        assert!(wide.len() as u32 >= h.estimate(board.tiles()));
    }

    #[test]
    fn threads_share_the_layers_without_changing_the_beam() {
        let goal = Board::solved(5, 5).unwrap();
        let board = crate::generate::random_walk(&goal, 300, &mut crate::generate::Rng::new(9));
        let h = LinearConflict::new(&goal);
        let run = |limits: &Limits, threads| {
            beam_search(
                &board,
                &goal,
                &h,
                4 * PARALLEL_MIN_PARENTS,
                None,
                limits,
                threads,
                &|_, _| {},
                0,
            )
        };
        let one = run(&Limits::none(), 1);
        assert!(one.moves.is_some());
        for threads in [2, 3] {
            let more = run(&Limits::none(), threads);
            assert_eq!(one.moves, more.moves);
            // The layers kept are the same; the last layer's threads may generate a few more
            // boards after one of them met the goal.
            assert_eq!(one.expanded, more.expanded);
            assert!(more.generated >= one.generated);
        }
        // A node budget stops the search at the same node on any number of threads.
        let nodes = Limits::none().with_max_nodes(one.generated / 2);
        let (one, two) = (run(&nodes, 1), run(&nodes, 2));
        assert_eq!(one.limit, Some(LimitHit::Nodes));
        assert_eq!((one.generated, one.limit), (two.generated, two.limit));
    }

    #[test]
    fn each_layer_s_nodes_are_heard_as_it_goes() {
        let goal = Board::solved(5, 5).unwrap();
        let board = crate::generate::random_walk(&goal, 200, &mut crate::generate::Rng::new(4));
        let h = LinearConflict::new(&goal);
        let heard = std::sync::Mutex::new(Vec::new());
        let out = beam_search(
            &board,
            &goal,
            &h,
            64,
            None,
            &Limits::none(),
            1,
            &|g, e| {
                heard.lock().unwrap().push((g, e));
            },
            0,
        );
        let path = out.moves.expect("a path");
        let heard = heard.into_inner().unwrap();
        // Twice a layer but the last (the goal's), whose children are not chosen.
        assert_eq!(heard.len(), 2 * path.len() - 1);
        let generated: u64 = heard.iter().map(|&(g, _)| g).sum();
        let expanded: u64 = heard.iter().map(|&(_, e)| e).sum();
        assert_eq!((generated, expanded), (out.generated, out.expanded));
    }

    #[test]
    fn a_bound_keeps_only_shorter_paths() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let h = Manhattan::new(&goal);
        // No path shorter than 31 exists: the beam empties.
        let out = beam_search(
            &board,
            &goal,
            &h,
            1 << 20,
            Some(31),
            &Limits::none(),
            1,
            &|_, _| {},
            0,
        );
        assert!(out.moves.is_none() && out.limit.is_none());
    }

    #[test]
    fn limits_stop_it() {
        let goal = Board::solved(6, 6).unwrap();
        let board = crate::generate::random_walk(&goal, 400, &mut crate::generate::Rng::new(3));
        let h = Manhattan::new(&goal);
        let nodes = Limits::none().with_max_nodes(1000);
        let out = beam_search(&board, &goal, &h, 1 << 16, None, &nodes, 1, &|_, _| {}, 0);
        assert_eq!(out.limit, Some(LimitHit::Nodes));
        assert!(out.generated <= 1000);
        let memory = Limits::none().with_max_memory(1 << 16);
        let out = beam_search(&board, &goal, &h, 1 << 16, None, &memory, 1, &|_, _| {}, 0);
        assert_eq!(out.limit, Some(LimitHit::Memory));
    }

    #[test]
    fn the_memory_foreseen_for_a_beam_is_the_most_it_checks() {
        let goal = Board::solved(5, 5).unwrap();
        let board = crate::generate::random_walk(&goal, 300, &mut crate::generate::Rng::new(7));
        let h = Manhattan::new(&goal);
        let width = 64;
        let run = |bound, limits: &Limits| {
            beam_search(&board, &goal, &h, width, bound, limits, 1, &|_, _| {}, 0)
        };
        let free = run(None, &Limits::none());
        let len = free.moves.expect("a path").len();
        assert!(len > 20, "a path long enough to fill many layers: {len}");
        // Bounded just above its length, the beam runs the same course within the memory
        // foreseen for that depth, and reaches that estimate at most.
        let foreseen = beam_memory::<Manhattan>(goal.len(), width, len + 1);
        let within = run(Some(len + 1), &Limits::none().with_max_memory(foreseen));
        assert_eq!(within.limit, None);
        assert_eq!(within.moves.map(|m| m.len()), Some(len));
        assert!(within.peak_memory_bytes <= foreseen);
        // Foreseen for half the depth, it would run out on the way.
        let half = beam_memory::<Manhattan>(goal.len(), width, len / 2);
        let short = run(Some(len + 1), &Limits::none().with_max_memory(half));
        assert_eq!(short.limit, Some(LimitHit::Memory));
        assert_eq!(
            widest_fitting::<Manhattan>(goal.len(), width, len + 1, foreseen),
            width
        );
        assert!(widest_fitting::<Manhattan>(goal.len(), width, len + 1, half) < width);
        assert_eq!(
            widest_fitting::<Manhattan>(goal.len(), width, len + 1, 0),
            1
        );
    }
}
