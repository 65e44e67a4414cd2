//! The sliding puzzle as a plain [`Graph`] for the generic searches: a node is a board packed
//! into a `u128` where it fits (up to 25 cells), so A* on the 8- and 15-puzzle hashes and stores
//! 16 bytes a node and allocates nothing per node.

use super::Graph;
use crate::board::{Board, Tile, BLANK};
use crate::heuristic::Heuristic;
use crate::moves::Move;

/// A board as a graph node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PackedBoard {
    /// Tiles packed `bits` bits each, first cell in the highest bits.
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

impl<'h> PuzzleGraph<'h> {
    /// The graph of `goal`'s size with `heuristic` (built for `goal`).
    pub fn new(goal: &Board, heuristic: &'h dyn Heuristic) -> PuzzleGraph<'h> {
        let cells = goal.len();
        let bits = usize::BITS - (cells - 1).leading_zeros();
        let mut g = PuzzleGraph {
            width: goal.width(),
            height: goal.height(),
            bits,
            goal: PackedBoard::Small(0),
            heuristic,
        };
        g.goal = g.pack(goal.tiles());
        g
    }

    fn packs_small(&self) -> bool {
        (self.width * self.height) as u32 * self.bits <= 128
    }

    /// Packs tiles into a node.
    pub fn pack(&self, tiles: &[Tile]) -> PackedBoard {
        if self.packs_small() {
            let mut key = 0u128;
            for &t in tiles {
                key = (key << self.bits) | t as u128;
            }
            PackedBoard::Small(key)
        } else {
            PackedBoard::Large(tiles.into())
        }
    }

    /// Unpacks a node into `out` (cleared first).
    pub fn unpack(&self, node: &PackedBoard, out: &mut Vec<Tile>) {
        out.clear();
        match node {
            PackedBoard::Small(key) => {
                let cells = self.width * self.height;
                let mask = (1u128 << self.bits) - 1;
                out.extend(
                    (0..cells)
                        .rev()
                        .map(|i| ((key >> (i as u32 * self.bits)) & mask) as Tile),
                );
            }
            PackedBoard::Large(tiles) => out.extend_from_slice(tiles),
        }
    }

    /// The moves between consecutive nodes of a path.
    pub fn moves_of(&self, nodes: &[PackedBoard]) -> Vec<Move> {
        let mut buf = Vec::new();
        let blanks: Vec<usize> = nodes
            .iter()
            .map(|n| {
                self.unpack(n, &mut buf);
                buf.iter().position(|&t| t == BLANK).unwrap_or(0)
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

    fn with_tiles<R>(&self, node: &PackedBoard, f: impl FnOnce(&mut [Tile]) -> R) -> R {
        match node {
            PackedBoard::Small(key) => {
                let mut buf = [0 as Tile; 32];
                let cells = self.width * self.height;
                let mask = (1u128 << self.bits) - 1;
                for (i, slot) in buf[..cells].iter_mut().enumerate() {
                    *slot = ((key >> ((cells - 1 - i) as u32 * self.bits)) & mask) as Tile;
                }
                f(&mut buf[..cells])
            }
            PackedBoard::Large(tiles) => f(&mut tiles.to_vec()),
        }
    }
}

impl Graph for PuzzleGraph<'_> {
    type Node = PackedBoard;

    fn neighbours(&self, node: &PackedBoard, out: &mut Vec<(PackedBoard, u32)>) {
        let cells = self.width * self.height;
        self.with_tiles(node, |tiles| {
            let blank = tiles.iter().position(|&t| t == BLANK).unwrap_or(0);
            for m in Move::ALL {
                if let Some(to) = m.target(blank, self.width, self.height) {
                    let next = match node {
                        // A move only swaps the blank (0) with one tile: move that tile's bits
                        // from its cell's field to the blank's instead of repacking the board.
                        PackedBoard::Small(key) => {
                            let shift = |cell: usize| (cells - 1 - cell) as u32 * self.bits;
                            let t = u128::from(tiles[to]);
                            PackedBoard::Small(key - (t << shift(to)) + (t << shift(blank)))
                        }
                        PackedBoard::Large(_) => {
                            tiles.swap(blank, to);
                            let packed = self.pack(tiles);
                            tiles.swap(blank, to);
                            packed
                        }
                    };
                    out.push((next, 1));
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
            PackedBoard::Small(_) => 0,
            PackedBoard::Large(t) => t.len() * std::mem::size_of::<Tile>(),
        }
    }
}
