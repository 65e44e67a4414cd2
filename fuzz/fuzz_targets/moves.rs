//! Move text in both notations (blank letters, and tile runs with counts) and the plain
//! letter reader. Invariants: no panic; what parses prints back (in each notation) to text that
//! parses to the same moves; the written moves expand to the parsed ones; the plain reader
//! agrees with the blank notation on text without counts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taquin::moves::{parse_moves, to_letters};
use taquin::notation::Notation;
use taquin_fuzz::assert_explains;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for notation in Notation::ALL {
        let moves = match notation.parse(&text) {
            Ok(moves) => moves,
            Err(e) => {
                assert_explains(&e);
                // The written moves end with the same error.
                assert_eq!(notation.written(&text).last(), Some(Err(e)));
                continue;
            }
        };
        let written: Vec<_> = notation
            .written(&text)
            .collect::<Result<_, _>>()
            .expect("parse accepted it");
        let expanded: usize = written.iter().map(|w| w.count).sum();
        assert_eq!(expanded, moves.len());
        for other in Notation::ALL {
            let printed = other.format(&moves);
            let back = other.parse(&printed);
            assert_eq!(back.as_ref(), Ok(&moves), "{other} prints {printed:?}");
        }
    }
    match parse_moves(&text) {
        Ok(moves) => {
            assert_eq!(Notation::Blank.parse(&text).as_ref(), Ok(&moves));
            assert_eq!(parse_moves(&to_letters(&moves)).as_ref(), Ok(&moves));
        }
        Err(e) => assert_explains(&e),
    }
});
