//! The pattern-database file reader (`pdb::store::info` and `load`): header validation, size
//! and checksum. Input: a byte whose low bit says whether to write the right checksum into the
//! file (so that the checks behind the checksum are reached too), then the file's bytes.
//! Invariants: no panic; a file `load` accepts is one `info` accepts with the same header; its
//! entries can all be looked up; a file with a wrong checksum is never accepted.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use taquin::pdb::store::{self, content_checksum, CHECKSUM_AT, HEADER};
use taquin_fuzz::assert_explains;

fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        // libFuzzer ends the process without dropping anything, so no scratch directory made
        // here is removed: `scripts/test.sh` names one it removes after the runs. Otherwise
        // memory-backed when the machine has it: one file is written per run.
        let base = std::env::var_os("TAQUIN_FUZZ_SCRATCH")
            .map(PathBuf::from)
            .or_else(|| {
                ["/dev/shm", "/tmp"]
                    .into_iter()
                    .map(PathBuf::from)
                    .find(|d| d.is_dir())
            })
            .unwrap_or_else(std::env::temp_dir);
        let dir = base.join(format!("taquin-fuzz-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir.join("table.pdb")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, file)) = data.split_first() else {
        return;
    };
    let mut bytes = file.to_vec();
    if mode & 1 == 1 && bytes.len() >= HEADER {
        let k = usize::from(bytes[15]);
        let head = (HEADER + k).min(bytes.len());
        let sum = content_checksum(&bytes[..head], &bytes[head..]);
        bytes[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.to_le_bytes());
    }
    let path = path();
    std::fs::write(path, &bytes).expect("the scratch file is written");
    let info = store::info(path);
    match store::load(path, None) {
        Ok(db) => {
            let info = info.expect("a file load accepts has a readable header");
            assert_eq!(
                (&info.spec, info.bits, info.max_excess),
                (db.spec(), db.bits(), db.max_excess())
            );
            assert_eq!(info.bytes, bytes.len() as u64);
            let head = HEADER + db.spec().cells.len();
            let stored = &bytes[CHECKSUM_AT..CHECKSUM_AT + 8];
            let sum = content_checksum(&bytes[..head], &bytes[head..]);
            assert_eq!(
                stored,
                sum.to_le_bytes(),
                "a file with a wrong checksum was accepted"
            );
            for index in 0..db.entries() {
                let _ = db.excess(index);
            }
            // The same file checked against the spec it declares is accepted too.
            assert!(store::load(path, Some(db.spec())).is_ok());
        }
        Err(e) => assert_explains(&e),
    }
});
