//! The databases the builder writes stay byte for byte what they were: any change to the build
//! (its speed-ups included) must leave every entry, the entry size and the largest excess as
//! they are, or the files already on users' disks would silently disagree with new ones.
//!
//! The checksums below were taken from the builder as first released with this file format;
//! they cover the 8-puzzle's complete table and the 15-puzzle's 5-5-5 and 6-6-3 sets for both
//! the standard goal and Korf's (blank first), whose patterns include a mirror-symmetric one.

use taquin::pdb::{self, store, PdbPreset};
use taquin::Board;

/// `(bits, largest excess, checksum of the packed entries)` of one database.
type Fingerprint = (u8, u8, u64);

/// The fingerprint of each database of `preset` for `goal`, in partition order.
fn fingerprints(preset: &str, goal: &Board) -> Vec<Fingerprint> {
    PdbPreset::from_name(preset)
        .unwrap()
        .partition(goal)
        .unwrap()
        .iter()
        .map(|spec| {
            let db = pdb::build(spec, 2, None, &taquin::Limits::none()).unwrap();
            (db.bits(), db.max_excess(), store::checksum(db.data()))
        })
        .collect()
}

#[test]
fn databases_are_byte_identical_to_the_reference() {
    let korf = Board::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").unwrap();
    let standard = Board::solved(4, 4).unwrap();
    let cases: [(&str, &Board, &[Fingerprint]); 5] = [
        (
            "8",
            &Board::solved(3, 3).unwrap(),
            &[(4, 9, 0x6968_1ca0_bd56_549c)],
        ),
        (
            "5-5-5",
            &standard,
            &[
                (4, 4, 0x511c_6a90_25d0_a19a),
                (4, 4, 0x983c_a355_3623_cfbf),
                (4, 4, 0x7a82_5779_e8c3_9cb1),
            ],
        ),
        (
            "5-5-5",
            &korf,
            &[
                (4, 4, 0x7f3d_4202_5365_e813),
                (4, 4, 0x1816_fe59_d583_8984),
                (4, 4, 0x7cd9_3f67_c8d2_0edc),
            ],
        ),
        (
            "6-6-3",
            &standard,
            &[
                (4, 5, 0x19a8_d2e1_382d_c83f),
                (4, 5, 0x4b5b_9496_2eee_5ded),
                (4, 2, 0x2b2e_cddf_7644_161f),
            ],
        ),
        (
            "6-6-3",
            &korf,
            &[
                (4, 5, 0xe84e_6ee5_2af0_dff8),
                (4, 5, 0x4de5_cc42_02ef_9005),
                (4, 2, 0x2c2d_a8a1_9ec3_904c),
            ],
        ),
    ];
    let mut differ = Vec::new();
    for (preset, goal, want) in cases {
        let got = fingerprints(preset, goal);
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
