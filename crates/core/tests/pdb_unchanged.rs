//! The databases the builder writes stay byte for byte what they were: any change to the build
//! (its speed-ups included) must leave every entry, the entry size and the largest excess as
//! they are, or the files already on users' disks would silently disagree with new ones.
//!
//! The checksums below were taken from the builder as first released with this file format;
//! they cover the 8-puzzle's complete table and two 15-puzzle partitions (the 5-5-5 and 6-6-3
//! of compact blocks that the presets used then) for both the standard goal and Korf's (blank
//! first), whose patterns include a mirror-symmetric one. The groups are written out here, so
//! that a preset choosing other groups leaves this test of the builder as it is.

use taquin::pdb::{self, store, PatternSpec};
use taquin::Board;

/// `(bits, largest excess, checksum of the packed entries)` of one database.
type Fingerprint = (u8, u8, u64);

/// Groups of goal cells for a goal with the blank on cell 0.
type Groups = &'static [&'static [usize]];

/// The 15-puzzle 5-5-5 of compact blocks.
const BLOCKS_555: Groups = &[&[1, 2, 3, 6, 7], &[4, 5, 8, 9, 12], &[10, 11, 13, 14, 15]];
/// The 15-puzzle 6-6-3 of compact blocks.
const BLOCKS_663: Groups = &[&[1, 2, 3, 5, 6, 7], &[9, 10, 11, 13, 14, 15], &[4, 8, 12]];

/// The fingerprint of each database of `groups` on the goal of `goal`, in order. `groups` are
/// cells for a goal with the blank on cell 0; for a goal with the blank on the last cell they
/// are turned by 180 degrees.
fn fingerprints(groups: Groups, goal: &Board) -> Vec<Fingerprint> {
    let n = goal.len();
    let blank = goal.blank();
    groups
        .iter()
        .map(|cells| {
            let cells = cells
                .iter()
                .map(|&c| if blank == 0 { c } else { n - 1 - c })
                .collect();
            let spec = PatternSpec::new(goal.width(), goal.height(), blank, cells).unwrap();
            let db = pdb::build(&spec, 2, None, &taquin::Limits::none()).unwrap();
            (db.bits(), db.max_excess(), store::checksum(db.data()))
        })
        .collect()
}

#[test]
fn databases_are_byte_identical_to_the_reference() {
    let korf = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
    let standard = Board::solved(4, 4).unwrap();
    let complete8: Groups = &[&[1, 2, 3, 4, 5, 6, 7, 8]];
    let cases: [(&str, Groups, &Board, &[Fingerprint]); 5] = [
        (
            "8",
            complete8,
            &Board::solved(3, 3).unwrap(),
            &[(4, 9, 0x6968_1ca0_bd56_549c)],
        ),
        (
            "5-5-5",
            BLOCKS_555,
            &standard,
            &[
                (4, 4, 0x511c_6a90_25d0_a19a),
                (4, 4, 0x983c_a355_3623_cfbf),
                (4, 4, 0x7a82_5779_e8c3_9cb1),
            ],
        ),
        (
            "5-5-5",
            BLOCKS_555,
            &korf,
            &[
                (4, 4, 0x7f3d_4202_5365_e813),
                (4, 4, 0x1816_fe59_d583_8984),
                (4, 4, 0x7cd9_3f67_c8d2_0edc),
            ],
        ),
        (
            "6-6-3",
            BLOCKS_663,
            &standard,
            &[
                (4, 5, 0x19a8_d2e1_382d_c83f),
                (4, 5, 0x4b5b_9496_2eee_5ded),
                (4, 2, 0x2b2e_cddf_7644_161f),
            ],
        ),
        (
            "6-6-3",
            BLOCKS_663,
            &korf,
            &[
                (4, 5, 0xe84e_6ee5_2af0_dff8),
                (4, 5, 0x4de5_cc42_02ef_9005),
                (4, 2, 0x2c2d_a8a1_9ec3_904c),
            ],
        ),
    ];
    let mut differ = Vec::new();
    for (preset, groups, goal, want) in cases {
        let got = fingerprints(groups, goal);
        if got != want {
            differ.push(format!(
                "{preset} for the goal {}: {got:#x?}",
                goal.to_line()
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "changed databases:\n{}",
        differ.join("\n")
    );
}
