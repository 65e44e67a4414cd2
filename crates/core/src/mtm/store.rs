//! The file of a multi-tile pattern database, next to the single-tile ones in the tables'
//! directory but under names and a magic of its own, so that neither kind is ever read as
//! the other.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "TAQUINMT"
//!      8     4  format version (little endian), currently 1
//!     12     1  width
//!     13     1  height
//!     14     1  blank goal cell
//!     15     1  k, tiles in the pattern
//!     16     8  zero
//!     24     8  entries, N! / (N-k-1)!
//!     32     8  checksum of everything else (header with this field zeroed, then the table)
//!     40     k  goal cells of the pattern tiles, in index order
//!   40+k     -  one byte per entry
//! ```
//!
//! Written to a temporary name and renamed into place; on reading, every field is checked
//! against the spec asked for and the checksum against the content.

use std::fs;
use std::path::{Path, PathBuf};

use super::pdb::MtmPdb;
use crate::pdb::store::{
    content_checksum, corrupt, read_head, regular_file, write_table, CHECKSUM_AT,
};
use crate::pdb::{PatternSpec, PdbError};

/// The first eight bytes of every multi-tile database file.
pub const MAGIC: &[u8; 8] = b"TAQUINMT";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
const HEADER: usize = 40;

/// Where the multi-tile database of `spec` lives in `dir`: `mtm-` and the single-tile name's
/// fields, with its own extension (`mtm-4x4-b0f-000102030405.mtm`).
pub fn path_in(dir: &Path, spec: &PatternSpec) -> PathBuf {
    let stem = spec.file_name();
    let stem = stem.strip_suffix(".pdb").unwrap_or(&stem);
    dir.join(format!("mtm-{stem}.mtm"))
}

fn header(spec: &PatternSpec) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER + spec.cells.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(spec.width as u8);
    h.push(spec.height as u8);
    h.push(spec.blank_goal as u8);
    h.push(spec.cells.len() as u8);
    h.extend_from_slice(&[0; 8]);
    h.extend_from_slice(&MtmPdb::entries(spec).to_le_bytes());
    h.extend_from_slice(&[0; 8]);
    h.extend(spec.cells.iter().map(|&c| c as u8));
    h
}

/// Writes `db` to `path` (through a temporary file and a rename).
pub fn save(db: &MtmPdb, path: &Path) -> Result<(), PdbError> {
    write_table(path, header(db.spec()), db.data())
}

/// What a multi-tile file's header says, read without checking the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// The pattern the table is for.
    pub spec: PatternSpec,
    /// Entries of the table (one byte each): placements of the pattern's tiles and the blank.
    pub entries: u64,
    /// File size in bytes.
    pub bytes: u64,
}

/// Reads the header of the multi-tile file at `path` (for listing a directory): the pattern,
/// the entries and the size, checked against each other but not against the content, which
/// [`check`] reads in full.
pub fn info(path: &Path) -> Result<FileInfo, PdbError> {
    let (head, len) = read_head(path, "shorter than its header")?;
    if head[..8] != MAGIC[..] {
        return Err(corrupt(path, "not a multi-tile pattern database"));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(corrupt(
            path,
            format!("format version {version}, this taquin reads version {VERSION}"),
        ));
    }
    let k = head.len() - HEADER;
    let cells = head[HEADER..].iter().map(|&c| usize::from(c)).collect();
    let spec = PatternSpec::new(
        usize::from(head[12]),
        usize::from(head[13]),
        usize::from(head[14]),
        cells,
    )
    .map_err(|e| corrupt(path, format!("invalid pattern in header: {e}")))?;
    let entries = u64::from_le_bytes(head[24..32].try_into().expect("8 bytes"));
    let want = MtmPdb::entries(&spec);
    if entries != want {
        return Err(corrupt(
            path,
            format!("header says {entries} entries, the pattern has {want}"),
        ));
    }
    // Saturating: a forged header may give a pattern whose placements overflow.
    let expected = ((HEADER + k) as u64).saturating_add(entries);
    if len != expected {
        return Err(corrupt(
            path,
            format!("{len} bytes, expected {expected} (truncated or padded)"),
        ));
    }
    Ok(FileInfo {
        spec,
        entries,
        bytes: len,
    })
}

/// Reads and fully checks the multi-tile file at `path`, whatever pattern it is for (header,
/// size, checksum): the database, or an error that says what is wrong with the file.
pub fn check(path: &Path) -> Result<MtmPdb, PdbError> {
    let spec = info(path)?.spec;
    load(path, &spec)?.ok_or_else(|| PdbError::Io {
        path: path.to_path_buf(),
        source: std::io::ErrorKind::NotFound.into(),
    })
}

/// Reads the database of `spec` from `path`: `Ok(None)` when there is no file, an error when
/// the file is not that database or is damaged (it should then be rebuilt). Only a regular
/// file is read: a FIFO under a table's name would block the reader.
pub fn load(path: &Path, spec: &PatternSpec) -> Result<Option<MtmPdb>, PdbError> {
    match regular_file(path) {
        Ok(_) => {}
        Err(PdbError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(None)
        }
        Err(e) => return Err(e),
    }
    let bytes = fs::read(path).map_err(|source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let corrupt = |why: &str| corrupt(path, why);
    let expected = header(spec);
    if bytes.len() < expected.len() {
        return Err(corrupt("shorter than its header"));
    }
    let (head, data) = bytes.split_at(expected.len());
    if head[..8] != MAGIC[..] {
        return Err(corrupt("not a multi-tile pattern database"));
    }
    let mut zeroed = head.to_vec();
    zeroed[CHECKSUM_AT..CHECKSUM_AT + 8].fill(0);
    if zeroed != expected {
        return Err(corrupt(
            "its header is for another pattern or format version",
        ));
    }
    let stored = u64::from_le_bytes(
        head[CHECKSUM_AT..CHECKSUM_AT + 8]
            .try_into()
            .expect("8 bytes"),
    );
    if stored != content_checksum(head, data) {
        return Err(corrupt("checksum mismatch (damaged or truncated)"));
    }
    MtmPdb::from_parts(spec.clone(), data.to_vec())
        .map(Some)
        .ok_or_else(|| corrupt("wrong length"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    #[test]
    fn a_saved_table_loads_back_and_damage_is_caught() {
        // Deleted when dropped, also when an assertion fails.
        let dir = crate::test_support::scratch_dir("mtm-store");
        let spec = PatternSpec::new(3, 3, 8, vec![0, 1, 2]).unwrap();
        let db = MtmPdb::build(&spec, &Limits::none(), 1, None).unwrap();
        let path = path_in(dir.path(), &spec);
        assert!(path.to_string_lossy().ends_with(".mtm"));
        assert!(load(&path, &spec).unwrap().is_none());
        save(&db, &path).unwrap();
        assert_eq!(load(&path, &spec).unwrap().unwrap().data(), db.data());
        let other = PatternSpec::new(3, 3, 8, vec![0, 1, 3]).unwrap();
        assert!(load(&path, &other).is_err());
        // Read without knowing the pattern, as `taquin pdb list` and `verify` do.
        let found = info(&path).unwrap();
        assert_eq!(found.spec, spec);
        assert_eq!(found.entries, 9 * 8 * 7 * 6);
        assert_eq!(found.bytes, fs::metadata(&path).unwrap().len());
        assert_eq!(check(&path).unwrap().data(), db.data());
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(load(&path, &spec).is_err());
        // The header still reads; the full check finds the damage.
        assert!(info(&path).is_ok());
        let err = check(&path).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        // A truncated file, and a single-tile table's file, are refused by their header.
        fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        let err = info(&path).unwrap_err().to_string();
        assert!(err.contains("truncated or padded"), "{err}");
        let mut single = bytes.clone();
        single[..8].copy_from_slice(crate::pdb::store::MAGIC);
        fs::write(&path, &single).unwrap();
        let err = info(&path).unwrap_err().to_string();
        assert!(err.contains("not a multi-tile pattern database"), "{err}");
    }
}
