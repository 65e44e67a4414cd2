//! Benchmark instance lines (`ID OPTLEN t0 t1 ...`, the format of `taquin bench` files and of
//! `taquin batch` plain lines): `instances::parse_line`, and `parse_file` over whole texts.
//! Invariants: no panic; a file is refused when an id comes twice, else its instances are its
//! lines'; an instance is a square board of at least 2x2 with its goal of the
//! same size (blank first), and its tiles written back in the format read back to it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taquin::instances::{parse_file, parse_line, InstanceError};
use taquin::BLANK;
use taquin_fuzz::assert_explains;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_file(&text);
    let mut instances = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line, i + 1) {
            Ok(Some(instance)) => instances.push(instance),
            Ok(None) => {}
            Err(e) => {
                assert_explains(&e);
                assert!(parsed.is_err(), "parse_file accepted a bad line {}", i + 1);
                return;
            }
        }
    }
    // Lines that each parse make a file unless an id comes twice: then the file is refused
    // at the first line that repeats one.
    let mut seen = std::collections::HashSet::new();
    if let Some(k) = instances.iter().position(|i| !seen.insert(i.id.clone())) {
        match &parsed {
            Err(e @ InstanceError::DuplicateId { id, .. }) => {
                assert_eq!(id, &instances[k].id);
                assert_explains(e);
            }
            other => panic!(
                "parse_file missed the repeated id {:?}: {other:?}",
                instances[k].id
            ),
        }
        return;
    }
    assert_eq!(
        parsed.as_ref(),
        Ok(&instances),
        "parse_file and parse_line disagree"
    );
    for instance in instances {
        let (board, goal) = (&instance.board, &instance.goal);
        assert_eq!(board.width(), board.height());
        assert_eq!(
            (goal.width(), goal.height()),
            (board.width(), board.height())
        );
        assert_eq!(goal.tiles()[0], BLANK);
        let tiles: Vec<String> = board.tiles().iter().map(u32::to_string).collect();
        let length = instance
            .optimal_length
            .map_or("-".to_string(), |n| n.to_string());
        let line = format!("{} {length} {}", instance.id, tiles.join(" "));
        let back = parse_line(&line, 1).expect("a written instance reads back");
        assert_eq!(back.as_ref(), Some(&instance), "{line}");
    }
});
