//! The cache file format of a database.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "TAQUINPD"
//!      8     4  format version (little endian), currently 1
//!     12     1  width
//!     13     1  height
//!     14     1  blank goal cell
//!     15     1  k, tiles in the pattern
//!     16     1  bits per entry (4 or 8; 1 for a zero-aware table)
//!     17     1  largest excess stored
//!     18     1  layout: 0 by placement, 1 zero-aware (by set of cells, region, order)
//!     19     5  zero
//!     24     8  entries: N!/(N-k)! placements, or the states of a zero-aware table
//!     32     8  checksum of everything else (header with this field zeroed, then the table)
//!     40     k  goal cells of the pattern tiles, in index order
//!   40+k     -  the packed table
//! ```
//!
//! A file is written to a temporary name and renamed into place, so a crash never leaves a
//! half-written file under the real name. On reading, every field is checked against the spec
//! asked for and the checksum against the content; any difference rejects the file.
//!
//! Checked once: the checksum reads the whole file (260 MB for the 7-8's larger table, far
//! longer than a solve that looks up a few thousand entries of it). So after a full check
//! succeeds, a small record `NAME.pdb.checked` is written next to the file, holding the file's
//! identity (device, inode, size, modification and change times) and checksum. [`open`] trusts
//! a file whose identity still matches its record and checks only the header; any write to the
//! file, in place or by replacing it, changes its change time or its inode, and the next open
//! checks it fully again. A file is recorded only once its change time is
//! [`STABLE_BEFORE_RECORD`] old, so that a write in the same tick of the file system's clock
//! cannot leave the change time as it was. [`load`] (and `taquin pdb verify`) always checks
//! fully.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use std::sync::Arc;

use super::layout::Layout;
use super::table::{packed_len, PatternDb};
use super::{PatternSpec, PdbError};

/// The first eight bytes of every database file.
pub const MAGIC: &[u8; 8] = b"TAQUINPD";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Bytes of the header before the pattern cells.
pub const HEADER: usize = 40;
/// Offset of the checksum field in the header.
pub const CHECKSUM_AT: usize = 32;

/// A 64-bit checksum over `bytes`: four independent multiply-rotate lanes over 8-byte words,
/// fast enough to check a 260 MB table in a small fraction of a second. It catches damage, not
/// tampering.
pub fn checksum(bytes: &[u8]) -> u64 {
    const P1: u64 = 0x9E37_79B1_85EB_CA87;
    const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
    let mut lanes = [P1, P2, P1 ^ P2, P1.wrapping_mul(3)];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            let v = u64::from_le_bytes(word.try_into().expect("8-byte chunk"));
            *lane = (*lane ^ v.wrapping_mul(P2))
                .rotate_left(31)
                .wrapping_mul(P1);
        }
    }
    let mut h = bytes.len() as u64;
    for lane in lanes {
        h = (h ^ lane).wrapping_mul(P1).rotate_left(27);
    }
    for &b in blocks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(P2).rotate_left(11);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P2);
    h ^ (h >> 29)
}

fn header(db: &PatternDb) -> Vec<u8> {
    header_of(db.spec(), db.bits(), db.max_excess(), db.entries())
}

/// The header of a table of `spec` with `entries` entries of `bits` bits, the largest
/// `max_excess`, its checksum field zero.
fn header_of(spec: &PatternSpec, bits: u8, max_excess: u8, entries: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER + spec.cells.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(spec.width as u8);
    h.push(spec.height as u8);
    h.push(spec.blank_goal as u8);
    h.push(spec.cells.len() as u8);
    h.push(bits);
    h.push(max_excess);
    h.push(u8::from(spec.zero_aware));
    h.extend_from_slice(&[0; 5]);
    h.extend_from_slice(&entries.to_le_bytes());
    h.extend_from_slice(&[0; 8]);
    h.extend(spec.cells.iter().map(|&c| c as u8));
    h
}

/// A file for `spec` as a copy damaged inside leaves it: its header right (the pattern, the
/// entries, the length: what the planner reads), its table all zeros, which its checksum does
/// not match. Written sparse, so that a table of hundreds of megabytes costs no disk.
#[cfg(test)]
pub(crate) fn write_damaged(path: &Path, spec: &PatternSpec) {
    let bits = if spec.zero_aware { 1 } else { 4 };
    let entries = if spec.zero_aware {
        super::layout::Layout::shared(spec.width, spec.height, spec.cells.len())
            .zero_aware_entries()
    } else {
        spec.entries()
    };
    let mut head = header_of(spec, bits, 1, entries);
    head[CHECKSUM_AT] = 1;
    fs::write(path, &head).unwrap();
    let file = fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_len(head.len() as u64 + super::table::packed_len(entries, bits))
        .unwrap();
}

/// The checksum a file stores: over its `header` (the pattern cells included) with the checksum
/// field read as zero, then over the packed table `data`.
pub fn content_checksum(header: &[u8], data: &[u8]) -> u64 {
    let mut zeroed = header.to_vec();
    zeroed[CHECKSUM_AT..CHECKSUM_AT + 8].fill(0);
    checksum(&zeroed) ^ checksum(data).rotate_left(17)
}

/// Writes `db` to `path` (through a temporary file and a rename).
pub fn save(db: &PatternDb, path: &Path) -> Result<(), PdbError> {
    write_table(path, header(db), db.data())
}

/// Writes a table file to `path` (through a temporary file and a rename): `head`, its
/// checksum field at [`CHECKSUM_AT`] filled in here, then `data`. Shared with the multi-tile
/// tables, whose header has the same checksum field.
pub(crate) fn write_table(path: &Path, mut head: Vec<u8>, data: &[u8]) -> Result<(), PdbError> {
    let io = |source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(dir) = path.parent() {
        // create_dir_all on a file says only "File exists": say what is wrong instead.
        if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(PdbError::Io {
                path: dir.to_path_buf(),
                source: std::io::Error::other(
                    "this is a file, not a directory: choose a directory for the pattern \
                     databases, or a path where one can be created",
                ),
            });
        }
        fs::create_dir_all(dir).map_err(io)?;
    }
    let sum = content_checksum(&head, data);
    head[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.to_le_bytes());
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(fs::File::create(&tmp)?);
        f.write_all(&head)?;
        f.write_all(data)?;
        // No fsync: a table is a cache that can be rebuilt, and one torn by a power cut fails
        // its checksum and is rebuilt; waiting for the disk would add a few hundred
        // milliseconds to every quick table built on first use.
        f.into_inner().map_err(|e| e.into_error())?;
        fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io(e)
    })
}

/// What a file's header says, read without checking the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// The database's spec.
    pub spec: PatternSpec,
    /// Bits per entry.
    pub bits: u8,
    /// Largest excess stored.
    pub max_excess: u8,
    /// File size in bytes.
    pub bytes: u64,
    /// Entries of the table: placements, or states for a zero-aware table.
    pub entries: u64,
}

/// The error of a table file at `path` that is not what it should be, saying `reason`.
pub(crate) fn corrupt(path: &Path, reason: impl Into<String>) -> PdbError {
    PdbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// Parses and checks the header; returns the info, the header length and the layout of a
/// zero-aware table.
/// How far [`parse_header`] checks the entries a header states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entries {
    /// Against the pattern's: for a zero-aware table that takes its layout, worked out by a
    /// flood per set of cells (a quarter of a second for the 6x6 set's tables), which a load
    /// needs anyway.
    Checked,
    /// As written (the file's length is still checked against them): what the planner reads
    /// before any answer, so that asking which sets are on disk costs no layout.
    AsWritten,
}

fn parse_header(
    path: &Path,
    bytes: &[u8],
    file_len: u64,
    check: Entries,
) -> Result<(FileInfo, usize, Option<Arc<Layout>>), PdbError> {
    if bytes.len() < HEADER {
        return Err(corrupt(path, "too short to be a pattern database"));
    }
    if &bytes[..8] != MAGIC {
        return Err(corrupt(path, "not a taquin pattern database (bad magic)"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(corrupt(
            path,
            format!("format version {version}, this taquin reads version {VERSION}"),
        ));
    }
    let (width, height, blank, k) = (
        bytes[12] as usize,
        bytes[13] as usize,
        bytes[14] as usize,
        bytes[15] as usize,
    );
    let bits = bytes[16];
    // One bit only for a zero-aware table (byte 18).
    if !(bits == 4 || bits == 8 || bits == 1 && bytes[18] == 1) {
        return Err(corrupt(
            path,
            format!("{bits} bits per entry is not 4 or 8 (or 1 for a zero-aware table)"),
        ));
    }
    if bytes.len() < HEADER + k {
        return Err(corrupt(path, "the header is truncated"));
    }
    let cells: Vec<usize> = bytes[HEADER..HEADER + k]
        .iter()
        .map(|&c| c as usize)
        .collect();
    let spec = PatternSpec::new(width, height, blank, cells)
        .map_err(|e| corrupt(path, format!("invalid pattern in header: {e}")))?;
    let (spec, layout) = match bytes[18] {
        0 => (spec, None),
        1 => {
            // Checked before the layout is worked out, which takes time in proportion to the
            // sets of cells: the file must be large enough for a bit per placement, so that a
            // small file cannot ask for a large layout.
            let placements = spec.entries();
            if bits != 1 || k > 20 {
                return Err(corrupt(
                    path,
                    format!("a zero-aware table of {k} tiles and {bits} bits per entry"),
                ));
            }
            if file_len < (HEADER + k) as u64 + placements.div_ceil(8) {
                return Err(corrupt(
                    path,
                    format!(
                        "{file_len} bytes, too short for the {placements} placements of a \
                         zero-aware table"
                    ),
                ));
            }
            let layout = (check == Entries::Checked).then(|| Layout::shared(width, height, k));
            (spec.zero_aware(), layout)
        }
        other => return Err(corrupt(path, format!("unknown table layout {other}"))),
    };
    let entries = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
    let want = match &layout {
        Some(layout) => layout.zero_aware_entries(),
        None if spec.zero_aware => entries,
        None => spec.entries(),
    };
    if entries != want {
        return Err(corrupt(
            path,
            format!("header says {entries} entries, the pattern has {want}"),
        ));
    }
    let expected = (HEADER + k) as u64 + packed_len(entries, bits);
    if file_len != expected {
        return Err(corrupt(
            path,
            format!("{file_len} bytes, expected {expected} (truncated or padded)"),
        ));
    }
    Ok((
        FileInfo {
            spec,
            bits,
            max_excess: bytes[17],
            bytes: file_len,
            entries,
        },
        HEADER + k,
        layout,
    ))
}

/// The metadata of `path` when it is a regular file. Opening a FIFO for reading blocks until a
/// writer comes, possibly forever; a directory or a device is no table either. So the type is
/// checked before opening.
pub(crate) fn regular_file(path: &Path) -> Result<fs::Metadata, PdbError> {
    let meta = fs::metadata(path).map_err(|source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let kind = meta.file_type();
    if !kind.is_file() {
        return Err(corrupt(
            path,
            format!(
                "not a regular file but {}: remove it, or choose another directory for the pattern databases",
                if kind.is_dir() {
                    "a directory"
                } else {
                    "a FIFO, socket or device"
                }
            ),
        ));
    }
    Ok(meta)
}

/// Reads the header of the file at `path` (not the table), and checks the file's length
/// against it. Only regular files are opened. The entries of a zero-aware table are taken as
/// written (checking them takes the table's layout, a quarter of a second for the 6x6 set's);
/// [`load`] and [`open`] check everything.
pub fn info(path: &Path) -> Result<FileInfo, PdbError> {
    let (head, len) = read_head(path, "too short to be a pattern database")?;
    parse_header(path, &head, len, Entries::AsWritten).map(|(info, _, _)| info)
}

/// The header of the table file at `path` with its pattern's cells (the [`HEADER`] bytes, then
/// as many as byte 15 says), and the file's length, read without the table: the layout the
/// single-tile and multi-tile files share. `short` says what a file shorter than a header is.
/// Only regular files are opened.
pub(crate) fn read_head(path: &Path, short: &str) -> Result<(Vec<u8>, u64), PdbError> {
    use std::io::Read;
    let io = |source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let len = regular_file(path)?.len();
    if len < HEADER as u64 {
        return Err(corrupt(path, short));
    }
    let mut f = fs::File::open(path).map_err(io)?;
    let mut head = vec![0u8; HEADER];
    f.read_exact(&mut head).map_err(io)?;
    let k = head[15] as usize;
    if len < (HEADER + k) as u64 {
        return Err(corrupt(path, "the header is truncated"));
    }
    head.resize(HEADER + k, 0);
    f.read_exact(&mut head[HEADER..]).map_err(io)?;
    Ok((head, len))
}

/// Maps the file at `path`, fully checks it (header, size, checksum) and returns the database
/// reading its entries from the mapping; with `expect`, also checks that it is that pattern's
/// database. Only regular files are opened: a FIFO or device under a table's name is refused
/// instead of blocking the reader.
pub fn load(path: &Path, expect: Option<&PatternSpec>) -> Result<PatternDb, PdbError> {
    map_and_check(path, expect, Check::Full, STABLE_BEFORE_RECORD).map(|(db, _)| db)
}

/// [`load`], except that the checksum is not recomputed when the file was checked completely
/// before and has not changed since (see the module documentation): the header, the size and
/// the pattern are still checked. This is how tables are opened for solving.
pub fn open(path: &Path, expect: Option<&PatternSpec>) -> Result<PatternDb, PdbError> {
    map_and_check(path, expect, Check::UnlessRecorded, STABLE_BEFORE_RECORD).map(|(db, _)| db)
}

/// How much of the content [`map_and_check`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The checksum over the whole file, always.
    Full,
    /// The checksum unless a record says the unchanged file passed it.
    UnlessRecorded,
}

/// How old a file's change time must be before a full check records it as checked.
pub const STABLE_BEFORE_RECORD: Duration = Duration::from_secs(2);

/// Maps and checks the file; also says whether the checksum was computed (false: trusted from
/// its record). Records a successful full check of a file whose change time is `stable` old.
fn map_and_check(
    path: &Path,
    expect: Option<&PatternSpec>,
    check: Check,
    stable: Duration,
) -> Result<(PatternDb, bool), PdbError> {
    let io = |source| PdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    regular_file(path)?;
    let file = fs::File::open(path).map_err(io)?;
    // The identity of the file that is mapped, not of whatever the name points to later.
    let meta = file.metadata().map_err(io)?;
    let map = map_read_only(&file).map_err(io)?;
    let len = map.len() as u64;
    if len < HEADER as u64 {
        return Err(corrupt(path, "too short to be a pattern database"));
    }
    let k = usize::from(map[15]);
    if len < (HEADER + k) as u64 {
        return Err(corrupt(path, "the header is truncated"));
    }
    let (info, head_len, layout) = parse_header(path, &map[..HEADER + k], len, Entries::Checked)?;
    if let Some(spec) = expect {
        if &info.spec != spec {
            return Err(corrupt(
                path,
                format!("built for {}, not for {spec}", info.spec),
            ));
        }
    }
    let stored = u64::from_le_bytes(
        map[CHECKSUM_AT..CHECKSUM_AT + 8]
            .try_into()
            .expect("8 bytes"),
    );
    let record = record_of(&meta, stored);
    let recorded =
        check == Check::UnlessRecorded && fs::read(record_path(path)).is_ok_and(|r| r == record);
    if !recorded {
        if content_checksum(&map[..head_len], &map[head_len..]) != stored {
            return Err(corrupt(path, "checksum mismatch: the file is damaged"));
        }
        let changed = meta.modified().ok().max(changed_time(&meta));
        if changed.is_some_and(|t| t.elapsed().is_ok_and(|age| age >= stable)) {
            // Best effort: a directory we cannot write to only means checking again next time.
            let _ = fs::write(record_path(path), &record);
        }
    }
    Ok((
        PatternDb::from_mapped(info.spec, info.bits, info.max_excess, map, head_len, layout),
        !recorded,
    ))
}

/// Where the record of a full check of the table at `path` is kept.
fn record_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".checked");
    PathBuf::from(name)
}

/// The record of a full check: a tag, the file's identity and its checksum.
fn record_of(meta: &fs::Metadata, checksum: u64) -> Vec<u8> {
    let mut r = b"TAQUINOK".to_vec();
    for v in identity(meta) {
        r.extend_from_slice(&v.to_le_bytes());
    }
    r.extend_from_slice(&checksum.to_le_bytes());
    r
}

/// What identifies a file's content without reading it (see `identity`).
pub(crate) type FileIdentity = [i64; 7];

/// The identity of the regular file at `path` (`None` when there is none): it changes when
/// the file is written to or replaced.
pub(crate) fn file_identity(path: &Path) -> Option<FileIdentity> {
    regular_file(path).ok().map(|meta| identity(&meta))
}

/// What changes when a file is written to or replaced: device, inode, size, modification and
/// change times.
#[cfg(unix)]
fn identity(meta: &fs::Metadata) -> [i64; 7] {
    use std::os::unix::fs::MetadataExt;
    [
        meta.dev() as i64,
        meta.ino() as i64,
        meta.size() as i64,
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    ]
}

/// What changes when a file is written to or replaced, where the system offers no inode or
/// change time: size and modification time (in nanoseconds since the epoch).
#[cfg(not(unix))]
fn identity(meta: &fs::Metadata) -> [i64; 7] {
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(-1, |d| d.as_nanos() as i64);
    [meta.len() as i64, modified, 0, 0, 0, 0, 0]
}

/// The change time of the file (metadata or content), where the system has one.
#[cfg(unix)]
fn changed_time(meta: &fs::Metadata) -> Option<std::time::SystemTime> {
    use std::os::unix::fs::MetadataExt;
    let secs = u64::try_from(meta.ctime()).ok()?;
    let nanos = u32::try_from(meta.ctime_nsec()).ok()?;
    std::time::UNIX_EPOCH.checked_add(Duration::new(secs, nanos))
}

/// The change time of the file, where the system has one (not here).
#[cfg(not(unix))]
fn changed_time(_: &fs::Metadata) -> Option<std::time::SystemTime> {
    None
}

/// Maps `file` read-only.
#[allow(unsafe_code)]
fn map_read_only(file: &fs::File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: a mapping is undefined behaviour if the file changes under it. taquin never
    // writes a table file in place: `save` writes a temporary file and renames it over the old
    // name, which leaves this mapping on the old, unchanged inode. Only another program
    // truncating or overwriting the file in place could break it, as with any mapped file.
    unsafe { memmap2::Mmap::map(file) }
}

/// Where the database of `spec` lives in `dir`.
pub fn path_in(dir: &Path, spec: &PatternSpec) -> PathBuf {
    dir.join(spec.file_name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_aware_header_is_checked_before_its_layout_is_worked_out() {
        // Deleted when dropped, also when an assertion fails.
        let dir = crate::test_support::scratch_dir("store-zero");
        let path = dir.path().join("bad.pdb");
        // 8x8, 63 tiles, one bit, zero-aware, and a handful of bytes: found by the table_file
        // fuzz target, when it made the reader work out the orders of 63 tiles (a panic).
        let mut head = Vec::from(&MAGIC[..]);
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&[8, 8, 0, 63, 1, 0, 1, 0, 0, 0, 0, 0]);
        head.extend_from_slice(&[0; 16]);
        head.extend((1..64u8).take(63));
        // 8x8 with six tiles, zero-aware: too short for a bit per placement.
        let mut short = head[..HEADER].to_vec();
        short[15] = 6;
        short.extend(1..7u8);
        short.extend_from_slice(&[0; 64]);
        for (bytes, why) in [(head, "63 tiles"), (short, "too short")] {
            fs::write(&path, &bytes).unwrap();
            let err = info(&path).unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
            assert!(load(&path, None).is_err());
        }
    }

    /// A small table saved in a directory of the test's own, which is deleted with what it
    /// holds when dropped (also when the test fails): keep it until the test ends.
    fn saved(name: &str) -> (tempfile::TempDir, PathBuf, PatternSpec, PatternDb) {
        let dir = crate::test_support::scratch_dir(&format!("store-{name}"));
        let spec = PatternSpec::new(3, 3, 8, vec![0, 1, 2]).unwrap();
        let db = crate::pdb::build(&spec, 1, None, &crate::limits::Limits::none()).unwrap();
        let path = path_in(dir.path(), &spec);
        save(&db, &path).unwrap();
        (dir, path, spec, db)
    }

    #[test]
    fn a_recorded_file_is_trusted_until_it_changes() {
        let (_dir, path, spec, db) = saved("recorded");
        let checked = |check| map_and_check(&path, Some(&spec), check, Duration::ZERO).unwrap();
        // The first open checks fully and records it; the next one trusts the record, and a
        // full check still computes the checksum.
        assert!(checked(Check::UnlessRecorded).1);
        assert!(record_path(&path).exists());
        let (trusted, computed) = checked(Check::UnlessRecorded);
        assert!(!computed);
        assert_eq!(trusted, db);
        assert!(checked(Check::Full).1);

        // A damaged copy renamed over the file is a new file: checked again, and rejected.
        let mut bytes = fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        let tmp = path.with_extension("damaged");
        fs::write(&tmp, &bytes).unwrap();
        fs::rename(&tmp, &path).unwrap();
        let err =
            map_and_check(&path, Some(&spec), Check::UnlessRecorded, Duration::ZERO).unwrap_err();
        assert!(err.to_string().contains("checksum"), "{err}");
    }

    #[test]
    fn a_file_changed_within_the_stable_time_is_not_recorded() {
        let (_dir, path, spec, db) = saved("fresh");
        let (opened, computed) = map_and_check(
            &path,
            Some(&spec),
            Check::UnlessRecorded,
            STABLE_BEFORE_RECORD,
        )
        .unwrap();
        assert!(computed);
        assert_eq!(opened, db);
        assert!(!record_path(&path).exists());
    }
}
