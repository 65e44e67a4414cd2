//! Black-box fuzzing of every parser a user's bytes reach in the core: board and goal text, move
//! letters, and the pattern-database file reader. Each must return a value or a clear error,
//! never panic or hang. Property tests stand in for cargo-fuzz, which needs a nightly
//! toolchain. `scripts/test.sh` runs them with more cases (`PROPTEST_CASES`); inputs that once
//! failed are kept in `fuzz/` and replayed here first.

use proptest::prelude::*;
use taquin::moves::parse_moves;
use taquin::pdb::{build, store, PatternSpec};
use taquin::{check_solvable, Board};

/// Text built from the characters boards are written with, and a few others.
fn board_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("0".to_string()),
            Just("_".to_string()),
            Just(".".to_string()),
            Just("/".to_string()),
            Just("\n".to_string()),
            Just(" ".to_string()),
            Just(",".to_string()),
            Just(";".to_string()),
            Just("-1".to_string()),
            Just("99999999999999999999".to_string()),
            (0u64..40).prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            "\\PC{0,4}",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn corpus(name: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(name);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
        .collect()
}

#[test]
fn the_corpus_still_parses_or_is_refused_cleanly() {
    for bytes in corpus("board") {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(b) = Board::parse(&text) {
            assert_eq!(Board::parse(&b.to_line()).unwrap(), b);
        }
    }
    for bytes in corpus("moves") {
        let _ = parse_moves(&String::from_utf8_lossy(&bytes));
    }
}

proptest! {
    #[test]
    fn board_text_parses_or_says_why(text in board_text()) {
        match Board::parse(&text) {
            Ok(board) => {
                // What parses prints back to itself, and its goal pair can be checked.
                prop_assert_eq!(Board::parse(&board.to_line()).unwrap(), board.clone());
                let goal = Board::solved(board.width(), board.height()).unwrap();
                let _ = check_solvable(&board, &goal);
            }
            Err(e) => prop_assert!(e.to_string().len() > 10),
        }
    }

    #[test]
    fn any_unicode_board_text_is_safe(text in "\\PC{0,60}") {
        let _ = Board::parse(&text);
    }

    #[test]
    fn move_text_parses_or_says_why(text in "[UDLRudlr ,x\\PC]{0,40}") {
        match parse_moves(&text) {
            Ok(moves) => prop_assert!(moves.len() <= text.len()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn a_damaged_table_file_is_refused_never_trusted(
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..4),
    ) {
        let spec = PatternSpec::new(3, 3, 0, vec![1, 2]).unwrap();
        let db = build(&spec, 1, None).unwrap();
        let dir = std::env::temp_dir().join(format!("taquin-fuzz-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}-{}.pdb", cut.index(1000), flips.len()));
        store::save(&db, &path).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        for (at, x) in &flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        if cut.index(4) == 0 {
            bytes.truncate(cut.index(bytes.len()));
        }
        std::fs::write(&path, &bytes).unwrap();
        // A file is either refused or read back exactly as the table that was written.
        match store::load(&path, Some(&spec)) {
            Ok(back) => prop_assert!(back == db, "a damaged file was accepted"),
            Err(e) => prop_assert!(e.to_string().len() > 10),
        }
        let _ = store::info(&path);
        let _ = std::fs::remove_file(&path);
    }
}
