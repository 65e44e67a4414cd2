//! Symmetries of the board, used to let goals that differ only by a mirror or a turn share
//! their pattern databases.
//!
//! A pattern database depends on the goal cells of its tiles and on the blank's goal cell, not
//! on how the tiles are numbered (`pdb::PdbPreset::partition`). Mirroring the board, turning it
//! half a turn or (on a square board) transposing it keeps adjacency, so a board and its goal,
//! both mapped by the same symmetry, are exactly as far apart, and a solution of the image pair
//! maps back move by move. The solver maps every goal whose blank is not in a canonical cell
//! (see [`Symmetry::for_tables`]) before any search over pattern databases: a 4x4 board then
//! needs tables for three blank cells (a corner, an edge cell and an inner cell) instead of
//! sixteen, the standard goal and Korf's share theirs, and a goal with its blank in any corner
//! gets the reflected lookup, which needs the blank on the main diagonal.

use crate::board::{Board, Tile};
use crate::moves::Move;

/// A symmetry of a `width` x `height` board: an optional transposition (square boards only),
/// then optional mirrors, left to right and top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Symmetry {
    transpose: bool,
    mirror_columns: bool,
    mirror_rows: bool,
}

impl Symmetry {
    /// The symmetry that maps every cell to itself.
    pub const IDENTITY: Symmetry = Symmetry {
        transpose: false,
        mirror_columns: false,
        mirror_rows: false,
    };

    /// Every symmetry of a `width` x `height` board: eight on a square board, four otherwise,
    /// the identity first.
    pub fn all(width: usize, height: usize) -> impl Iterator<Item = Symmetry> {
        let transposes: &[bool] = if width == height {
            &[false, true]
        } else {
            &[false]
        };
        transposes.iter().flat_map(|&transpose| {
            [(false, false), (true, false), (false, true), (true, true)]
                .into_iter()
                .map(move |(mirror_columns, mirror_rows)| Symmetry {
                    transpose,
                    mirror_columns,
                    mirror_rows,
                })
        })
    }

    /// The symmetry the solver maps `goal` by before it looks for pattern databases: the first
    /// (the identity if it is one) that takes the goal's blank to the lowest-numbered cell it
    /// can reach. The standard goal (blank last) is turned half a turn onto the blank-first
    /// orientation of Korf's goal, so one set of tables serves both.
    pub fn for_tables(goal: &Board) -> Symmetry {
        let (w, h, blank) = (goal.width(), goal.height(), goal.blank());
        Symmetry::all(w, h)
            .min_by_key(|s| s.cell(blank, w, h))
            .unwrap_or(Symmetry::IDENTITY)
    }

    /// The goal whose pattern databases serve `goal`: its image under
    /// [`Symmetry::for_tables`]. `taquin pdb build --goal G` builds the tables of this goal.
    pub fn table_goal(goal: &Board) -> Board {
        Symmetry::for_tables(goal).board(goal)
    }

    /// True for the identity.
    pub fn is_identity(self) -> bool {
        self == Symmetry::IDENTITY
    }

    /// The image of cell `cell` of a `width` x `height` board.
    pub fn cell(self, cell: usize, width: usize, height: usize) -> usize {
        let (mut x, mut y) = (cell % width, cell / width);
        if self.transpose {
            (x, y) = (y, x);
        }
        if self.mirror_columns {
            x = width - 1 - x;
        }
        if self.mirror_rows {
            y = height - 1 - y;
        }
        y * width + x
    }

    /// The image of `board`: the tile on cell `c` moves to the image of `c`.
    pub fn board(self, board: &Board) -> Board {
        let (w, h) = (board.width(), board.height());
        Board::from_tiles(w, h, self.tiles(board.tiles(), w, h))
            .expect("a symmetry only moves the tiles of a valid board")
    }

    /// The image of the tiles of a `width` x `height` board, as [`Symmetry::board`] maps them
    /// (without the checks of a [`Board`]).
    pub fn tiles(self, tiles: &[Tile], width: usize, height: usize) -> Vec<Tile> {
        let mut image = vec![0; tiles.len()];
        for (c, &t) in tiles.iter().enumerate() {
            image[self.cell(c, width, height)] = t;
        }
        image
    }

    /// The move on the original board whose image is `image`: if the blank moves from cell
    /// `a` to cell `b` on the image, it moves from the preimage of `a` to that of `b`.
    pub fn move_back(self, image: Move) -> Move {
        let (mut dx, mut dy) = step(image);
        if self.mirror_columns {
            dx = -dx;
        }
        if self.mirror_rows {
            dy = -dy;
        }
        if self.transpose {
            (dx, dy) = (dy, dx);
        }
        move_of(dx, dy)
    }

    /// The image of `original`, a move on the original board: the inverse of
    /// [`Symmetry::move_back`] (the transposition comes first, as in [`Symmetry::cell`]).
    pub fn move_to(self, original: Move) -> Move {
        let (mut dx, mut dy) = step(original);
        if self.transpose {
            (dx, dy) = (dy, dx);
        }
        if self.mirror_columns {
            dx = -dx;
        }
        if self.mirror_rows {
            dy = -dy;
        }
        move_of(dx, dy)
    }
}

/// The blank's step of `mv`, in columns and rows.
fn step(mv: Move) -> (i8, i8) {
    match mv {
        Move::Up => (0, -1),
        Move::Down => (0, 1),
        Move::Left => (-1, 0),
        Move::Right => (1, 0),
    }
}

/// The move whose blank steps `dx` columns and `dy` rows (one of them +-1, the other 0).
fn move_of(dx: i8, dy: i8) -> Move {
    match (dx, dy) {
        (0, -1) => Move::Up,
        (0, 1) => Move::Down,
        (-1, 0) => Move::Left,
        _ => Move::Right,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solution::verify_moves;

    #[test]
    fn a_solution_of_the_image_maps_back_to_a_solution() {
        for (w, h) in [(4, 4), (4, 3), (3, 5), (2, 2)] {
            let goal = Board::solved(w, h).unwrap();
            let mut board = goal.clone();
            let mut rng = crate::generate::Rng::new(12345);
            let mut walk = Vec::new();
            for _ in 0..60 {
                let legal: Vec<Move> = board.legal_moves().collect();
                let mv = legal[rng.below(legal.len())];
                board.apply(mv);
                walk.push(mv);
            }
            // The walk backwards brings `board` to `goal`; its image brings the image of
            // `board` to the image of `goal`.
            let back: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
            for s in Symmetry::all(w, h) {
                let image_back: Vec<Move> = {
                    let mut image = s.board(&board);
                    let target = s.board(&goal);
                    let mut moves = Vec::new();
                    let mut original = board.clone();
                    for &m in &back {
                        let from = original.blank();
                        original.apply(m);
                        let to = original.blank();
                        let (a, b) = (s.cell(from, w, h), s.cell(to, w, h));
                        let mv = image.legal_moves().find(|&mv| image.target(mv) == Some(b));
                        assert_eq!(image.blank(), a);
                        let mv = mv.expect("adjacent cells stay adjacent");
                        image.apply(mv);
                        moves.push(mv);
                    }
                    assert_eq!(image, target, "{s:?} on {w}x{h}");
                    moves
                };
                let mapped: Vec<Move> = image_back.iter().map(|&m| s.move_back(m)).collect();
                assert_eq!(mapped, back, "{s:?} on {w}x{h}");
                // And the other way: the original moves' images are the image's moves.
                let imaged: Vec<Move> = back.iter().map(|&m| s.move_to(m)).collect();
                assert_eq!(imaged, image_back, "{s:?} on {w}x{h}");
                verify_moves(&board, &goal, &mapped).unwrap();
            }
        }
    }

    #[test]
    fn goals_share_tables_with_a_canonical_blank_cell() {
        let classes = |w: usize, h: usize| {
            let mut cells: Vec<usize> = (0..w * h)
                .map(|blank| {
                    let mut tiles: Vec<crate::board::Tile> =
                        (1..(w * h) as crate::board::Tile).collect();
                    tiles.insert(blank, 0);
                    let goal = Board::from_tiles(w, h, tiles).unwrap();
                    let s = Symmetry::for_tables(&goal);
                    s.board(&goal).blank()
                })
                .collect();
            cells.sort_unstable();
            cells.dedup();
            cells
        };
        assert_eq!(classes(4, 4), vec![0, 1, 5]);
        assert_eq!(classes(3, 3), vec![0, 1, 4]);
        assert_eq!(classes(4, 3), vec![0, 1, 4, 5]);
        assert_eq!(classes(5, 3), vec![0, 1, 2, 5, 6, 7]);
        // The standard goal shares the tables of Korf's (blank first); Korf's is kept as it is.
        let standard = Board::solved(4, 4).unwrap();
        let korf = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
        let files = |goal: &Board| -> Vec<String> {
            crate::pdb::PdbPreset::P78
                .partition(goal)
                .unwrap()
                .iter()
                .map(|spec| spec.file_name())
                .collect()
        };
        assert_eq!(files(&Symmetry::table_goal(&standard)), files(&korf));
        assert!(Symmetry::for_tables(&korf).is_identity());
    }
}
