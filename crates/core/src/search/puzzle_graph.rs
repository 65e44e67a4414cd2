//! The sliding puzzle as a plain [`Graph`] for the generic searches. A node is the board packed
//! into one machine word where it fits (`u64`: the 8- and 15-puzzle), else into a `u128` (up to
//! 25 cells), so A* hashes and stores a few bytes a node and allocates nothing per node; larger
//! boards keep their tiles in a box.

use super::Graph;
use crate::board::{Board, Tile, BLANK};
use crate::heuristic::{Heuristic, Incremental};
use crate::moves::Move;

/// A board as a graph node: tiles packed `bits` bits each, first cell in the highest bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PackedBoard {
    /// Boards whose tiles fit in 64 bits.
    Word(u64),
    /// Boards whose tiles fit in 128 bits.
    Small(u128),
    /// Boards too large to pack.
    Large(Box<[Tile]>),
}

/// The puzzle graph: unit-cost moves of the blank, a heuristic, a goal.
pub struct PuzzleGraph<'h> {
    width: usize,
    height: usize,
    bits: u32,
    goal: PackedBoard,
    heuristic: &'h dyn Heuristic,
}

/// Cells a decoded packed board may have (25 is the most a `u128` holds).
const PACKED_CELLS: usize = 32;

impl<'h> PuzzleGraph<'h> {
    /// The graph of `goal`'s size with `heuristic` (built for `goal`).
    pub fn new(goal: &Board, heuristic: &'h dyn Heuristic) -> PuzzleGraph<'h> {
        let cells = goal.len();
        let bits = usize::BITS - (cells - 1).leading_zeros();
        let mut g = PuzzleGraph {
            width: goal.width(),
            height: goal.height(),
            bits,
            goal: PackedBoard::Word(0),
            heuristic,
        };
        g.goal = g.pack(goal.tiles());
        g
    }

    fn packed_bits(&self) -> u32 {
        (self.width * self.height) as u32 * self.bits
    }

    /// Packs tiles into a node.
    pub fn pack(&self, tiles: &[Tile]) -> PackedBoard {
        let bits = self.packed_bits();
        if bits <= 64 {
            PackedBoard::Word(
                tiles
                    .iter()
                    .fold(0u64, |k, &t| (k << self.bits) | u64::from(t)),
            )
        } else if bits <= 128 {
            PackedBoard::Small(
                tiles
                    .iter()
                    .fold(0u128, |k, &t| (k << self.bits) | u128::from(t)),
            )
        } else {
            PackedBoard::Large(tiles.into())
        }
    }

    /// Unpacks a node into `out` (cleared first).
    pub fn unpack(&self, node: &PackedBoard, out: &mut Vec<Tile>) {
        out.clear();
        self.with_tiles(node, |tiles| out.extend_from_slice(tiles));
    }

    /// The moves between consecutive nodes of a path.
    pub fn moves_of(&self, nodes: &[PackedBoard]) -> Vec<Move> {
        let blanks: Vec<usize> = nodes
            .iter()
            .map(|n| {
                self.with_tiles(n, |tiles| {
                    tiles.iter().position(|&t| t == BLANK).unwrap_or(0)
                })
            })
            .collect();
        blanks
            .windows(2)
            .filter_map(|w| {
                Move::ALL
                    .into_iter()
                    .find(|m| m.target(w[0], self.width, self.height) == Some(w[1]))
            })
            .collect()
    }

    /// Runs `f` on the tiles of `node`, decoded on the stack for packed boards.
    fn with_tiles<R>(&self, node: &PackedBoard, f: impl FnOnce(&mut [Tile]) -> R) -> R {
        let cells = self.width * self.height;
        let mut buf = [0 as Tile; PACKED_CELLS];
        match node {
            // Decoded from the lowest bits up, one constant shift a cell.
            PackedBoard::Word(key) => {
                let (mut k, mask) = (*key, (1u64 << self.bits) - 1);
                for slot in buf[..cells].iter_mut().rev() {
                    *slot = (k & mask) as Tile;
                    k >>= self.bits;
                }
                f(&mut buf[..cells])
            }
            PackedBoard::Small(key) => {
                let (mut k, mask) = (*key, (1u128 << self.bits) - 1);
                for slot in buf[..cells].iter_mut().rev() {
                    *slot = (k & mask) as Tile;
                    k >>= self.bits;
                }
                f(&mut buf[..cells])
            }
            PackedBoard::Large(tiles) => f(&mut tiles.to_vec()),
        }
    }

    /// The node after the tile on cell `to` slides into the blank on cell `blank`: for packed
    /// boards, that tile's bits move from its field to the blank's (which held 0).
    fn moved(
        &self,
        node: &PackedBoard,
        tiles: &mut [Tile],
        blank: usize,
        to: usize,
    ) -> PackedBoard {
        let cells = self.width * self.height;
        let shift = |cell: usize| (cells - 1 - cell) as u32 * self.bits;
        match node {
            PackedBoard::Word(key) => {
                let t = u64::from(tiles[to]);
                PackedBoard::Word(key - (t << shift(to)) + (t << shift(blank)))
            }
            PackedBoard::Small(key) => {
                let t = u128::from(tiles[to]);
                PackedBoard::Small(key - (t << shift(to)) + (t << shift(blank)))
            }
            PackedBoard::Large(_) => {
                tiles.swap(blank, to);
                let packed = self.pack(tiles);
                tiles.swap(blank, to);
                packed
            }
        }
    }
}

impl Graph for PuzzleGraph<'_> {
    type Node = PackedBoard;

    fn neighbours(&self, node: &PackedBoard, out: &mut Vec<(PackedBoard, u32)>) {
        self.with_tiles(node, |tiles| {
            let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
            for m in Move::ALL {
                if let Some(to) = m.target(blank, self.width, self.height) {
                    out.push((self.moved(node, tiles, blank, to), 1));
                }
            }
        });
    }

    fn neighbours_with_heuristic(
        &self,
        node: &PackedBoard,
        out: &mut Vec<(PackedBoard, u32, u32)>,
    ) {
        // The tiles are decoded once for all neighbours, and each neighbour's estimate is taken
        // on them with the move applied in place.
        self.with_tiles(node, |tiles| {
            let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
            for m in Move::ALL {
                if let Some(to) = m.target(blank, self.width, self.height) {
                    let next = self.moved(node, tiles, blank, to);
                    tiles.swap(blank, to);
                    let h = self.heuristic.estimate(tiles);
                    tiles.swap(blank, to);
                    out.push((next, 1, h));
                }
            }
        });
    }

    fn heuristic(&self, node: &PackedBoard) -> u32 {
        self.with_tiles(node, |tiles| self.heuristic.estimate(tiles))
    }

    fn is_goal(&self, node: &PackedBoard) -> bool {
        *node == self.goal
    }

    fn node_heap_bytes(&self, node: &PackedBoard) -> usize {
        match node {
            PackedBoard::Word(_) | PackedBoard::Small(_) => 0,
            PackedBoard::Large(t) => t.len() * std::mem::size_of::<Tile>(),
        }
    }
}

/// Turns a generic search result on the puzzle graph into a [`Solution`].
pub(crate) fn graph_solution(
    graph: &PuzzleGraph,
    result: Result<super::Path<PackedBoard>, super::SearchFailure>,
) -> Result<crate::solution::Solution, crate::solution::SolveError> {
    match result {
        Ok(path) => Ok(crate::solution::Solution {
            moves: graph.moves_of(&path.nodes),
            optimal: true,
            stats: path.stats,
            ..crate::solution::Solution::default()
        }),
        Err(super::SearchFailure::Limit { hit, stats, bound }) => {
            Err(crate::solution::SolveError::Limit { hit, stats, bound })
        }
        Err(super::SearchFailure::NoPath { .. }) => Err(crate::solution::SolveError::Unsupported(
            "the whole reachable space was searched without reaching the goal".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Manhattan;

    #[test]
    fn every_packing_round_trips_and_moves_in_place() {
        for (w, h) in [(3, 3), (4, 4), (5, 5), (7, 7)] {
            let goal = Board::solved(w, h).unwrap();
            let md = Manhattan::new(&goal);
            let g = PuzzleGraph::new(&goal, &md);
            let mut b = goal.clone();
            b.apply(Move::Up);
            b.apply(Move::Left);
            let node = g.pack(b.tiles());
            let mut back = Vec::new();
            g.unpack(&node, &mut back);
            assert_eq!(back, b.tiles());
            let mut with_h = Vec::new();
            g.neighbours_with_heuristic(&node, &mut with_h);
            let mut plain = Vec::new();
            g.neighbours(&node, &mut plain);
            assert_eq!(with_h.len(), plain.len());
            for ((n1, c1, h1), (n2, c2)) in with_h.iter().zip(&plain) {
                assert_eq!((n1, c1), (n2, c2));
                assert_eq!(*h1, g.heuristic(n1));
            }
            assert!(plain
                .iter()
                .any(|(n, _)| g.is_goal(n) || g.heuristic(n) == 1));
        }
    }
}

/// A node of [`IncrementalPuzzleGraph`]: the packed board, with its heuristic value and the
/// heuristic's incremental state riding along. Equality and hashing look at the board only.
#[derive(Debug, Clone)]
pub struct ScoredBoard<A> {
    /// The board.
    pub board: PackedBoard,
    h: u32,
    aux: A,
}

impl<A> PartialEq for ScoredBoard<A> {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
    }
}

impl<A> Eq for ScoredBoard<A> {}

impl<A> std::hash::Hash for ScoredBoard<A> {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        self.board.hash(state);
    }
}

/// The puzzle graph for an [`Incremental`] heuristic: each neighbour's value is updated from
/// its parent's in a few operations, as IDA* does, instead of evaluated over the whole board.
/// This is what makes A* on the 8-puzzle take well under a millisecond with linear conflict.
pub struct IncrementalPuzzleGraph<'h, H: Incremental> {
    packing: PuzzleGraph<'h>,
    heuristic: &'h H,
}

impl<'h, H: Incremental> IncrementalPuzzleGraph<'h, H> {
    /// The graph of `goal`'s size with `heuristic` (built for `goal`).
    pub fn new(goal: &Board, heuristic: &'h H) -> IncrementalPuzzleGraph<'h, H> {
        IncrementalPuzzleGraph {
            packing: PuzzleGraph::new(goal, heuristic),
            heuristic,
        }
    }

    /// The start node for `tiles`.
    pub fn start(&self, tiles: &[Tile]) -> ScoredBoard<H::Aux> {
        let (h, aux) = self.heuristic.init(tiles);
        ScoredBoard {
            board: self.packing.pack(tiles),
            h,
            aux,
        }
    }

    /// The packing graph, e.g. for [`PuzzleGraph::moves_of`].
    pub fn packing(&self) -> &PuzzleGraph<'h> {
        &self.packing
    }
}

impl<H: Incremental> Graph for IncrementalPuzzleGraph<'_, H> {
    type Node = ScoredBoard<H::Aux>;

    fn neighbours(&self, node: &Self::Node, out: &mut Vec<(Self::Node, u32)>) {
        let mut scored = Vec::new();
        self.neighbours_with_heuristic(node, &mut scored);
        out.extend(scored.into_iter().map(|(n, cost, _)| (n, cost)));
    }

    fn neighbours_with_heuristic(&self, node: &Self::Node, out: &mut Vec<(Self::Node, u32, u32)>) {
        let g = &self.packing;
        g.with_tiles(&node.board, |tiles| {
            let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
            for m in Move::ALL {
                if let Some(to) = m.target(blank, g.width, g.height) {
                    let board = g.moved(&node.board, tiles, blank, to);
                    let tile = tiles[to];
                    tiles.swap(blank, to);
                    let mut aux = node.aux;
                    let h = self
                        .heuristic
                        .update(tiles, tile, to, blank, node.h, &mut aux);
                    tiles.swap(blank, to);
                    out.push((ScoredBoard { board, h, aux }, 1, h));
                }
            }
        });
    }

    fn heuristic(&self, node: &Self::Node) -> u32 {
        node.h
    }

    fn is_goal(&self, node: &Self::Node) -> bool {
        self.packing.is_goal(&node.board)
    }

    fn node_heap_bytes(&self, node: &Self::Node) -> usize {
        self.packing.node_heap_bytes(&node.board)
    }
}
