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

use std::collections::HashSet;

use crate::board::{Board, Tile, BLANK};
use crate::hashing::FoldState;
use crate::heuristic::Incremental;
use crate::limits::{Budget, LimitHit, Limits};
use crate::moves::Move;

/// What one beam search gave.
#[derive(Debug)]
pub(crate) struct BeamOutcome {
    /// The path found, if any.
    pub moves: Option<Vec<Move>>,
    /// Boards generated.
    pub generated: u64,
    /// Boards kept (expanded or to be expanded).
    pub expanded: u64,
    /// Largest memory estimate reached, in bytes.
    pub peak_memory_bytes: usize,
    /// The limit that ended the search before it found a path, if one did.
    pub limit: Option<LimitHit>,
}

/// A child considered for the next layer.
struct Candidate<A> {
    h: u32,
    hash: u64,
    parent: u32,
    mv: u8,
    aux: A,
}

/// Random 64-bit keys, one per (cell, tile): the Zobrist hash of a board is the XOR of the
/// keys of its tiles' cells (Zobrist 1970), updated with four XORs per move.
fn zobrist_keys(cells: usize) -> Vec<u64> {
    // SplitMix64 (Steele, Lea & Flood 2014): fixed seed, so runs are reproducible.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    (0..cells * cells)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

/// Runs a beam of `width` boards from `board` to `goal` with heuristic `h`, keeping only paths
/// shorter than `bound` when one is given. Stops at the first goal reached, when the beam
/// empties (no path shorter than `bound` in it), or at a limit of `limits` (time, nodes,
/// cancel flag, memory budget).
pub(crate) fn beam_search<H: Incremental>(
    board: &Board,
    goal: &Board,
    h: &H,
    width: usize,
    bound: Option<usize>,
    limits: &Limits,
) -> BeamOutcome {
    let n = board.len();
    let (bw, bh) = (board.width(), board.height());
    let keys = zobrist_keys(n);
    let key = |cell: usize, tile: Tile| keys[cell * n + tile as usize];
    let width = width.max(1);
    let bound = bound.unwrap_or(usize::MAX);
    let mut out = BeamOutcome {
        moves: None,
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
    // The current layer: tiles (n per board), blank cell, h, aux, hash and the arriving move.
    let mut tiles: Vec<Tile> = board.tiles().to_vec();
    let mut blanks: Vec<usize> = vec![board.blank()];
    let mut hs: Vec<u32> = vec![h0];
    let mut auxes: Vec<H::Aux> = vec![aux0];
    let mut hashes: Vec<u64> = vec![board
        .tiles()
        .iter()
        .enumerate()
        .fold(0, |z, (c, &t)| z ^ key(c, t))];
    let mut arrived: Vec<Option<Move>> = vec![None];
    // Per layer, each kept board's parent index and move: enough to rebuild the path.
    let mut history: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut seen: HashSet<u64, FoldState> = HashSet::with_hasher(FoldState);
    seen.insert(hashes[0]);
    let mut budget = Budget::new(limits);
    let mut candidates: Vec<Candidate<H::Aux>> = Vec::new();
    let per_board = n * std::mem::size_of::<Tile>() + std::mem::size_of::<H::Aux>() + 32;
    let per_candidate = std::mem::size_of::<Candidate<H::Aux>>();
    let mut stored = 0usize;
    for g in 0usize.. {
        if g + 1 >= bound {
            return out;
        }
        // This layer's memory, estimated before it is spent: the path records so far, the
        // boards of this layer and the next, and up to three children per board.
        let layer = blanks.len();
        let memory = stored + (layer + width) * per_board + 3 * layer * per_candidate;
        if let Err(hit) = limits.check_memory(memory) {
            out.limit = Some(hit);
            return out;
        }
        out.peak_memory_bytes = out.peak_memory_bytes.max(memory);
        candidates.clear();
        for i in 0..blanks.len() {
            let b = blanks[i];
            let parent = &mut tiles[i * n..(i + 1) * n];
            for mv in Move::ALL {
                if arrived[i] == Some(mv.inverse()) {
                    continue;
                }
                let Some(to) = mv.target(b, bw, bh) else {
                    continue;
                };
                out.generated += 1;
                if budget.spend(1, out.generated) {
                    out.limit = budget.hit();
                    return out;
                }
                let tile = parent[to];
                parent.swap(b, to);
                let mut aux = auxes[i];
                let hc = h.update(parent, tile, to, b, hs[i], &mut aux);
                let done = hc == 0 && parent == goal.tiles();
                parent.swap(b, to);
                if done {
                    let mut path = vec![mv];
                    let mut at = i;
                    for layer in history.iter().rev() {
                        let (p, m) = layer[at];
                        path.push(m);
                        at = p as usize;
                    }
                    path.reverse();
                    out.moves = Some(path);
                    return out;
                }
                if g + 1 + hc as usize >= bound {
                    continue;
                }
                let hash =
                    hashes[i] ^ key(to, tile) ^ key(b, tile) ^ key(b, BLANK) ^ key(to, BLANK);
                if seen.contains(&hash) {
                    continue;
                }
                candidates.push(Candidate {
                    h: hc,
                    hash,
                    parent: i as u32,
                    mv: mv.index() as u8,
                    aux,
                });
            }
        }
        if candidates.is_empty() {
            return out;
        }
        // The best `width` distinct children, smallest h first (hash order among equals, so
        // that copies of one board lie side by side).
        let order = |c: &Candidate<H::Aux>| (c.h, c.hash);
        let margin = (width + width / 4).min(candidates.len());
        if margin < candidates.len() {
            candidates.select_nth_unstable_by_key(margin - 1, order);
            candidates.truncate(margin);
        }
        candidates.sort_unstable_by_key(order);
        candidates.dedup_by_key(|c| c.hash);
        candidates.truncate(width);
        let kept = candidates.len();
        stored += kept * (std::mem::size_of::<(u32, Move)>() + 16);

        out.expanded += kept as u64;
        let mut next_tiles = Vec::with_capacity(kept * n);
        let mut layer = Vec::with_capacity(kept);
        for c in &candidates {
            let p = c.parent as usize;
            let mv = Move::ALL[c.mv as usize];
            let start = next_tiles.len();
            next_tiles.extend_from_slice(&tiles[p * n..(p + 1) * n]);
            let to = mv
                .target(blanks[p], bw, bh)
                .expect("a candidate's move is legal");
            next_tiles.swap(start + blanks[p], start + to);
            seen.insert(c.hash);
            layer.push((c.parent, mv));
        }
        blanks = candidates
            .iter()
            .map(|c| {
                Move::ALL[c.mv as usize]
                    .target(blanks[c.parent as usize], bw, bh)
                    .expect("a candidate's move is legal")
            })
            .collect();
        hs = candidates.iter().map(|c| c.h).collect();
        auxes = candidates.iter().map(|c| c.aux).collect();
        hashes = candidates.iter().map(|c| c.hash).collect();
        arrived = layer.iter().map(|&(_, m)| Some(m)).collect();
        tiles = next_tiles;
        history.push(layer);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::{Heuristic, LinearConflict, Manhattan};

    fn replay(board: &Board, moves: &[Move]) -> Board {
        let mut b = board.clone();
        b.apply_all(moves).expect("legal moves");
        b
    }

    #[test]
    fn a_wide_beam_is_breadth_first_and_optimal_on_the_8_puzzle() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let h = Manhattan::new(&goal);
        let out = beam_search(&board, &goal, &h, 1 << 20, None, &Limits::none());
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
        let narrow = beam_search(&board, &goal, &h, 8, None, &Limits::none());
        let narrow = narrow.moves.expect("a path");
        assert_eq!(replay(&board, &narrow), goal);
        let wide = beam_search(&board, &goal, &h, 2000, None, &Limits::none());
        let wide = wide.moves.expect("a path");
        assert_eq!(replay(&board, &wide), goal);
        assert!(wide.len() as u32 >= h.estimate(board.tiles()));
    }

    #[test]
    fn a_bound_keeps_only_shorter_paths() {
        let goal = Board::solved(3, 3).unwrap();
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let h = Manhattan::new(&goal);
        // No path shorter than 31 exists: the beam empties.
        let out = beam_search(&board, &goal, &h, 1 << 20, Some(31), &Limits::none());
        assert!(out.moves.is_none() && out.limit.is_none());
    }

    #[test]
    fn limits_stop_it() {
        let goal = Board::solved(6, 6).unwrap();
        let board = crate::generate::random_walk(&goal, 400, &mut crate::generate::Rng::new(3));
        let h = Manhattan::new(&goal);
        let nodes = Limits::none().with_max_nodes(1000);
        let out = beam_search(&board, &goal, &h, 1 << 16, None, &nodes);
        assert_eq!(out.limit, Some(LimitHit::Nodes));
        assert!(out.generated <= 1000);
        let memory = Limits::none().with_max_memory(1 << 16);
        let out = beam_search(&board, &goal, &h, 1 << 16, None, &memory);
        assert_eq!(out.limit, Some(LimitHit::Memory));
    }
}
