//! The n-puzzle file format (a size line, then the rows, `#` comments) and the reader that
//! accepts either it or taquin's board text (`npuzzle_file::parse_board`).
//! Invariants: no panic; a board read is square when the format says so; a square board
//! written in the format reads back to itself and is recognised as the format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taquin::npuzzle_file::{looks_like, parse, parse_board, to_text};
use taquin_fuzz::assert_explains;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let strict = parse(&text);
    match &strict {
        Ok(board) => assert_eq!(board.width(), board.height()),
        Err(e) => assert_explains(e),
    }
    let board = match parse_board(&text) {
        Ok(board) => board,
        Err(e) => return assert_explains(&e),
    };
    if looks_like(&text) {
        assert_eq!(
            strict.as_ref().ok(),
            Some(&board),
            "parse_board did not use the format"
        );
    }
    match to_text(&board) {
        Some(written) => {
            assert!(looks_like(&written), "{written:?} is not recognised");
            assert_eq!(parse(&written).as_ref().ok(), Some(&board), "{written:?}");
        }
        None => assert_ne!(board.width(), board.height()),
    }
});
