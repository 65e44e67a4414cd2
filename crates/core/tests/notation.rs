//! Properties of the two notations and metrics on random move sequences.

use proptest::prelude::*;
use taquin::metric::{metrics, Metric};
use taquin::notation::Notation;
use taquin::Move;

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(prop::sample::select(Move::ALL.to_vec()), 0..200)
}

proptest! {
    /// Writing then reading gives the same moves back, in either notation.
    #[test]
    fn format_then_parse_is_the_identity(moves in moves()) {
        for notation in Notation::ALL {
            prop_assert_eq!(notation.parse(&notation.format(&moves)).unwrap(), moves.clone());
        }
    }

    /// Tile notation writes one token per multi-tile move, each letter the blank's opposite.
    #[test]
    fn tile_tokens_are_the_mtm_count(moves in moves()) {
        let text = Notation::Tiles.format(&moves);
        let (stm, mtm) = metrics(&moves);
        prop_assert_eq!(text.split_whitespace().count(), mtm);
        prop_assert_eq!(stm, moves.len());
        prop_assert!(mtm <= stm);
        prop_assert_eq!(mtm == 0, stm == 0);
        let reversed: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
        prop_assert_eq!(Metric::Mtm.length(&reversed), mtm);
    }
}
