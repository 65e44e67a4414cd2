//! Building a database: breadth-first search backwards from the goal over the pattern's abstract
//! space, on every core, with two bits per abstract state.
//!
//! An abstract state is a placement of the pattern tiles plus the blank's cell. Moves of the
//! blank through non-pattern cells cost nothing (those tiles are not counted, which is what makes
//! disjoint databases additive: Korf & Felner 2002), so the states of one placement fall into
//! *regions*: the connected groups of non-pattern cells, all at the same distance. A search step
//! slides a pattern tile next to the blank's region into it, at cost 1; the tile's old cell
//! becomes the blank's cell in the new placement.
//!
//! Memory: the search keeps, for each placement and each non-pattern cell, two bits holding
//! "unseen", "on the layer being expanded", "on the next layer" or "done" (a two-bit
//! breadth-first search in the manner of Cooperman & Finkelstein 1992). A layer is found by
//! scanning the array, so no queue is needed; the codes of the current and next layer swap
//! after each layer, and expanded states become "done" as the scan passes them.
//! For the 15-puzzle's 8-tile pattern that is 519 million placements x 8 cells x 2 bits =
//! 1.04 GB, plus the 4-bit result table (259 MB). The value of a placement is the distance of
//! its first region reached; it is written once, when that region is found.
//!
//! Symmetric patterns (see `pdb/mirror.rs`): when a board symmetry maps the pattern's goal
//! onto itself, states are kept only on the smaller index of each mirror pair and the value of
//! a placement is written for its image too, which halves the search (the 15-puzzle 7-8
//! databases' 8-tile pattern).
//!
//! Both cores: each layer's array is cut into chunks that the threads take in turn. A state
//! found twice in one layer gets the same code and the same value from both threads, so plain
//! atomic ORs suffice.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};

use super::index::{self, Divider, Odometer};
use super::mirror::Mirror;
use super::regions::{Geometry, Region, Regions};
use super::table::{packed_len, PatternDb};
use super::{PatternSpec, PdbError};
use crate::heuristic::manhattan::cell_distance;
use crate::limits::{LimitHit, Limits};

/// How far a build got, handed to the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildProgress {
    /// Placements whose value is known.
    pub done: u64,
    /// Placements reachable from the goal (all of them, or half when the pattern holds every
    /// tile, by parity).
    pub total: u64,
    /// The layer (pattern moves from the goal) being expanded.
    pub depth: u32,
}

/// Largest memory the two-bit array may take: beyond this a build would not fit the machines
/// taquin targets, and a clear error beats being killed by the system.
const MAX_SEARCH_BYTES: u64 = 6 << 30;

/// Placements a thread takes at a time. Even, so that the two placements sharing a byte of a
/// four-bit result table always fall in the same chunk (only the mirror images of a symmetric
/// pattern's placements are written from other chunks, with atomic ORs).
const CHUNK_PLACEMENTS: u64 = 1 << 16;

/// Abstract states (placements times non-pattern cells) one core processes per second: about
/// 25 million for the 15-puzzle's 8-tile pattern (counting the mirror half it skips at the
/// symmetric share below) and 40 million for the 24-puzzle's 6-tile ones on the development
/// machine (AMD EPYC, 2026-11-24). Used only for the "about N s" line before a build.
const STATES_PER_SECOND_PER_THREAD: f64 = 25e6;

/// Bytes the build needs at its peak: the two-bit array and the result table. A symmetric
/// pattern's search writes only one placement of each mirror pair, and the array's pages it
/// never writes take no memory (the array is zeroed by the allocator), so it counts half.
pub fn peak_bytes(spec: &PatternSpec) -> u64 {
    let free = (spec.board_cells() - spec.cells.len()) as u64;
    let array = (spec.entries() * free * 2).div_ceil(64) * 8;
    let touched = if symmetry(spec).is_some() {
        array / 2
    } else {
        array
    };
    touched + packed_len(spec.entries(), 4)
}

/// A rough duration of the build in seconds on `threads` cores, for the line printed before it.
pub fn estimate_seconds(spec: &PatternSpec, threads: usize) -> f64 {
    let free = (spec.board_cells() - spec.cells.len()) as f64;
    // A symmetric pattern's search visits half the placements, at a higher cost for each.
    let share = if symmetry(spec).is_some() { 0.65 } else { 1.0 };
    share * spec.entries() as f64 * free / (STATES_PER_SECOND_PER_THREAD * threads.max(1) as f64)
}

/// The name of the board symmetry that maps the goal of `spec` onto itself (e.g.
/// "left-right"), if any: the build then searches one placement of each mirror pair.
pub fn symmetry(spec: &PatternSpec) -> Option<&'static str> {
    Mirror::find(spec, &Geometry::new(spec.width, spec.height)).map(|m| m.name)
}

/// The number of threads a build or a parallel search uses by default: every core.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Builds the database of `spec` with `threads` threads (0: every core), calling `progress`
/// after each chunk of work.
///
/// `limits` bound the build for whoever waits on it: a memory budget the build's peak would pass
/// refuses it before it starts, and the deadline and the cancel flag are checked before each
/// chunk of work, so a build stops within milliseconds of either ([`PdbError::Stopped`]). The
/// node budget is left to the searches: a table serves every later search, not only the first.
pub fn build(
    spec: &PatternSpec,
    threads: usize,
    progress: Option<&(dyn Fn(BuildProgress) + Sync)>,
    limits: &Limits,
) -> Result<PatternDb, PdbError> {
    let search_bytes = peak_bytes(spec);
    if limits
        .max_memory_bytes
        .is_some_and(|budget| search_bytes > budget as u64)
    {
        return Err(PdbError::Stopped {
            hit: LimitHit::Memory,
            what: format!(
                "the database of {spec} needs {} MiB to build, over the memory limit of {} MiB",
                search_bytes >> 20,
                limits.memory_budget() >> 20
            ),
        });
    }
    if search_bytes > MAX_SEARCH_BYTES {
        return Err(PdbError::Unsupported(format!(
            "the database of {spec} has {} entries and would need {:.1} GiB to build (at most {} GiB): use smaller patterns",
            spec.entries(),
            search_bytes as f64 / f64::from(1u32 << 30),
            MAX_SEARCH_BYTES >> 30
        )));
    }
    let threads = if threads == 0 {
        default_threads()
    } else {
        threads
    };
    let limits = Limits {
        max_nodes: None,
        ..limits.clone()
    };
    let run =
        |bits| Builder::new(spec, bits, CHUNK_PLACEMENTS, true, &limits).run(threads, progress);
    // Four bits hold the excess of every preset's pattern; the rare pattern whose excess
    // exceeds 15 is built again with a byte per entry rather than stored saturated.
    match run(4).or_else(|halt| match halt {
        Halt::Overflow => run(8),
        limit => Err(limit),
    }) {
        Ok(db) => Ok(db),
        Err(Halt::Limit(hit)) => Err(PdbError::Stopped {
            hit,
            what: format!("building the database of {spec}"),
        }),
        Err(Halt::Overflow) => {
            unreachable!("an excess never exceeds 255 on a board of at most 64 cells")
        }
    }
}

/// Why a build ended without a table.
#[derive(Debug)]
enum Halt {
    /// An excess did not fit the entry size.
    Overflow,
    /// A limit of the caller stopped it.
    Limit(LimitHit),
}

/// The code of the layer `depth` in the two-bit array: 1 and 2 alternate; 0 is unseen, 3 done.
#[inline]
fn current_code(depth: u32) -> u64 {
    u64::from(depth % 2) + 1
}

/// The low bit of every two-bit field of a word.
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// `len` bits from bit `start` (`start + len <= 64`).
#[inline]
fn bit_range(start: u64, len: u64) -> u64 {
    if len == 64 {
        u64::MAX
    } else {
        ((1u64 << len) - 1) << start
    }
}

/// `slot` of a cell no pattern tile stands on: above every tile number, with place value 0
/// (see [`index::step`]).
const FREE_SLOT: u8 = u8::MAX;

/// The two-bit array: field `j` of placement `p` is the code of the `j`-th non-pattern cell.
struct Codes {
    words: Vec<AtomicU64>,
    fields: usize,
}

impl Codes {
    fn new(placements: u64, fields: usize) -> Codes {
        let words = (placements * fields as u64 * 2).div_ceil(64) as usize;
        Codes {
            // Zeroed by the allocator, not written: the pages a search never reaches (half the
            // array of a symmetric pattern) are never touched and take no memory.
            words: bytemuck::zeroed_vec(words),
            fields,
        }
    }

    /// True when a field of placement `p` is done (code 3): the placement was reached on an
    /// earlier layer.
    #[inline]
    fn placement_has_done(&self, p: u64) -> bool {
        let mut bit = p * self.fields as u64 * 2;
        let mut left = self.fields as u64 * 2;
        while left > 0 {
            let shift = bit % 64;
            let take = left.min(64 - shift);
            let x =
                self.words[(bit / 64) as usize].load(Ordering::Relaxed) & bit_range(shift, take);
            if x & (x >> 1) & LOW_BITS != 0 {
                return true;
            }
            bit += take;
            left -= take;
        }
        false
    }

    /// Sets the fields of `ranks` of placement `p` to `code` (they must be unseen or `code`).
    #[inline(always)]
    fn set(&self, p: u64, ranks: u64, code: u64) {
        let base = p * self.fields as u64 * 2;
        if ranks >> 32 == 0 {
            // The fields are contiguous: spread the ranks to two bits each and write the
            // one or two words they cover, rather than a loop over the fields.
            let bits = u128::from(spread_to_fields(ranks) * code) << (base % 64);
            let w = (base / 64) as usize;
            self.words[w].fetch_or(bits as u64, Ordering::Relaxed);
            let high = (bits >> 64) as u64;
            if high != 0 {
                self.words[w + 1].fetch_or(high, Ordering::Relaxed);
            }
            return;
        }
        let mut word = u64::MAX;
        let mut bits = 0u64;
        let mut m = ranks;
        while m != 0 {
            let bit = base + 2 * u64::from(m.trailing_zeros());
            let w = bit / 64;
            if w != word {
                if bits != 0 {
                    self.words[word as usize].fetch_or(bits, Ordering::Relaxed);
                }
                word = w;
                bits = 0;
            }
            bits |= code << (bit % 64);
            m &= m - 1;
        }
        if bits != 0 {
            self.words[word as usize].fetch_or(bits, Ordering::Relaxed);
        }
    }
}

/// Bit `j` of `ranks` (below 32) moved to bit `2 j`: the low bits of the two-bit fields of
/// those ranks (the halving steps of a Morton code).
#[inline]
fn spread_to_fields(ranks: u64) -> u64 {
    let mut x = ranks & 0xFFFF_FFFF;
    x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333_3333_3333;
    (x | (x << 1)) & LOW_BITS
}

struct Builder<'a> {
    spec: &'a PatternSpec,
    /// The caller's deadline and cancel flag (no node budget), checked before each chunk.
    limits: &'a Limits,
    /// The board and the blank's regions.
    regions: Regions,
    /// The symmetry of the pattern the search uses, if it has one.
    mirror: Option<Mirror>,
    k: usize,
    fields: usize,
    placements: u64,
    bits: u8,
    codes: Codes,
    values: Vec<AtomicU8>,
    /// `manhattan[i * n + c]`.
    manhattan: Vec<u32>,
    /// Place values of the index digits by tile, 0 from `k` on (so for `FREE_SLOT`).
    place: Box<[u64; 256]>,
    /// Placements a thread takes at a time (even).
    chunk: u64,
    /// Division by `chunk`.
    per_chunk: Divider,
    /// `active[d % 2][c]`: chunk `c` holds fields of layer `d`. Set when a field is reached,
    /// read and cleared when the layer is expanded.
    active: [Vec<AtomicBool>; 2],
    /// Counters the threads update, on cache lines of their own: were they next to the fields
    /// above, every update would evict the others from the other core's cache.
    shared: Shared,
}

/// What the build threads write in common, rarely (once per chunk).
#[repr(align(128))]
struct Shared {
    /// An excess did not fit the entry size.
    overflow: AtomicBool,
    /// Placements whose value is known.
    done: AtomicU64,
    /// The limit that stopped the build, once one did.
    stopped: std::sync::OnceLock<LimitHit>,
}

/// Per-thread result of one layer.
#[derive(Default)]
struct LayerOutcome {
    /// Placements first reached on this layer.
    found: u64,
    /// States put on the next layer.
    queued: u64,
    /// The largest excess among them.
    max_excess: u8,
    /// The layer being expanded.
    depth: u32,
    batch: Vec<Candidate>,
}

/// A successor waiting for its look-up in the two-bit array.
#[derive(Clone, Copy)]
struct Candidate {
    /// Its placement.
    q: u64,
    /// The rank among `free` of the cell the blank is on (the moved tile's old cell).
    rank: u8,
    /// The rank of the mirror image of that cell when the placement is its own mirror image
    /// (both regions are then recorded, as the search keeps no other copy of the image's
    /// state); `rank` otherwise.
    mirror_rank: u8,
    /// The cell the blank is on, of rank `rank`.
    blank: u8,
    /// Non-pattern cells of the new placement.
    free: u64,
    /// Field of the blank's cell: word and shift, then its value once loaded.
    word: u32,
    shift: u8,
    loaded: u8,
}

/// The mirror image of the placement being expanded.
struct Image {
    /// Its index.
    index: u64,
    /// `slot[x]`: its tile on cell `x`, `FREE_SLOT` if none.
    slot: [u8; super::MAX_CELLS],
    /// Its free cells.
    free: u64,
}

/// Successors looked up together: their cache misses overlap instead of queueing one after
/// another, which is what bounds the speed of the build on a large table.
const BATCH: usize = 64;

impl<'a> Builder<'a> {
    /// A builder for `spec` with entries of `bits` bits, `chunk` placements per piece of work,
    /// searching one placement of each mirror pair when `symmetry` is set and the pattern has
    /// a symmetry.
    fn new(
        spec: &'a PatternSpec,
        bits: u8,
        chunk: u64,
        symmetry: bool,
        limits: &'a Limits,
    ) -> Builder<'a> {
        debug_assert!(chunk.is_multiple_of(2));
        let n = spec.board_cells();
        let k = spec.cells.len();
        let placements = spec.entries();
        let fields = n - k;
        let w = spec.width;
        let mut manhattan = vec![0u32; k * n];
        for (i, &g) in spec.cells.iter().enumerate() {
            for c in 0..n {
                manhattan[i * n + c] = cell_distance(c, g, w) as u32;
            }
        }
        let geo = Geometry::new(spec.width, spec.height);
        let mirror = if symmetry {
            Mirror::find(spec, &geo)
        } else {
            None
        };
        Builder {
            spec,
            limits,
            mirror,
            regions: Regions::new(geo, fields),
            k,
            fields,
            placements,
            bits,
            codes: Codes::new(placements, fields),
            values: bytemuck::zeroed_vec(packed_len(placements, bits) as usize),
            manhattan,
            place: {
                let mut place = Box::new([0u64; 256]);
                place[..k].copy_from_slice(&index::weights(n, k));
                place
            },
            shared: Shared {
                overflow: AtomicBool::new(false),
                done: AtomicU64::new(0),
                stopped: std::sync::OnceLock::new(),
            },
            chunk,
            per_chunk: Divider::new(chunk),
            active: std::array::from_fn(|_| {
                (0..placements.div_ceil(chunk))
                    .map(|_| AtomicBool::new(false))
                    .collect()
            }),
        }
    }

    /// Runs the search, unless an excess does not fit `bits` or a limit stops it.
    fn run(
        self,
        threads: usize,
        progress: Option<&(dyn Fn(BuildProgress) + Sync)>,
    ) -> Result<PatternDb, Halt> {
        let n = self.regions.geo().n;
        // A thread with no chunk to take would only be started and joined at every layer.
        let threads = threads.min(self.active[0].len()).max(1);
        // With every tile in the pattern, the placement fixes the blank and only the
        // placements of the goal's parity are reachable.
        let total = if self.fields == 1 {
            self.placements.div_ceil(2)
        } else {
            self.placements
        };
        let goal_index = index::rank(self.spec.cells.iter().copied(), n);
        let taken = self.spec.cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let free = self.regions.geo().full & !taken;
        let region = self.regions.of(
            free,
            (free & ((1u64 << self.spec.blank_goal) - 1)).count_ones(),
        );
        self.codes.set(goal_index, region.ranks, 1);
        self.active[0][self.per_chunk.quotient(goal_index) as usize].store(true, Ordering::Relaxed);
        let mut depth = 0u32;
        let mut max_excess = 0u8;
        loop {
            let next_chunk = AtomicUsize::new(0);
            let work = || {
                let report = |done: u64| {
                    if let Some(p) = progress {
                        p(BuildProgress {
                            done: done.min(total),
                            total,
                            depth,
                        });
                    }
                };
                if self.mirror.is_some() {
                    self.layer_worker::<true>(depth, &next_chunk, report)
                } else {
                    self.layer_worker::<false>(depth, &next_chunk, report)
                }
            };
            // One thread works here, without spawning: a browser (wasm32) has no threads.
            let outcomes: Vec<LayerOutcome> = if threads <= 1 {
                vec![work()]
            } else {
                std::thread::scope(|s| {
                    let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().expect("a build thread panicked"))
                        .collect()
                })
            };
            if let Some(&hit) = self.shared.stopped.get() {
                return Err(Halt::Limit(hit));
            }
            if self.shared.overflow.load(Ordering::Relaxed) {
                return Err(Halt::Overflow);
            }
            max_excess = outcomes.iter().fold(max_excess, |m, o| m.max(o.max_excess));
            // Stop when the next layer is empty. Not when this one reached no new placement:
            // a layer can hold only new regions of known placements and still lead to new
            // placements on the next (a 2x4 board shows it: see the tests).
            if outcomes.iter().all(|o| o.queued == 0) {
                break;
            }
            depth += 1;
        }
        if let Some(p) = progress {
            p(BuildProgress {
                done: total,
                total,
                depth,
            });
        }
        let Builder {
            spec,
            bits,
            values,
            codes,
            ..
        } = self;
        drop(codes);
        let data: Vec<u8> = values.into_iter().map(AtomicU8::into_inner).collect();
        Ok(PatternDb::from_parts(spec.clone(), bits, max_excess, data))
    }

    /// Expands chunks of layer `depth` until none is left.
    fn layer_worker<const MIRROR: bool>(
        &self,
        depth: u32,
        next_chunk: &AtomicUsize,
        report: impl Fn(u64),
    ) -> LayerOutcome {
        let mut outcome = LayerOutcome {
            batch: Vec::with_capacity(BATCH + 4 * super::MAX_CELLS),
            ..LayerOutcome::default()
        };
        let pattern = current_code(depth) * LOW_BITS;
        outcome.depth = depth;
        let f = self.fields as u64;
        let per_placement = Divider::new(f);
        let mut odo = Odometer::at(0, self.regions.geo().n, self.k);
        loop {
            let chunk = next_chunk.fetch_add(1, Ordering::Relaxed);
            let first = chunk as u64 * self.chunk;
            if first >= self.placements
                || self.shared.overflow.load(Ordering::Relaxed)
                || self.shared.stopped.get().is_some()
            {
                break;
            }
            if let Err(hit) = self.limits.check(0) {
                let _ = self.shared.stopped.set(hit);
                break;
            }
            if !self.active[depth as usize % 2][chunk].swap(false, Ordering::Relaxed) {
                // Nothing of this layer here: skip the scan, which on a sparse layer would be
                // all of the time.
                continue;
            }
            // The chunk owns the fields of its placements, and so a word at either end only in
            // part: the masks keep the chunk's bits.
            let start_bit = first * f * 2;
            let end_bit = (first + self.chunk).min(self.placements) * f * 2;
            let (first_word, last_word) = ((start_bit / 64) as usize, (end_bit - 1) as usize / 64);
            let first_mask = u64::MAX << (start_bit % 64);
            let last_mask = bit_range(0, end_bit - last_word as u64 * 64);
            // The placement being gathered, its first field, the field after its last (none
            // yet: the first hit starts one), and its fields on this layer: the scan meets them
            // in order, so a division is needed only once per placement.
            let mut p = first;
            let mut p_first = first * f;
            let mut p_end = p_first;
            let mut frontier = 0u64;
            let mut first_reached = false;
            let before = outcome.found;
            for w in first_word..=last_word {
                let x = self.codes.words[w].load(Ordering::Relaxed);
                if x == 0 {
                    continue;
                }
                let t = x ^ pattern;
                let mut hits = !(t | (t >> 1)) & LOW_BITS;
                if w == first_word {
                    hits &= first_mask;
                }
                if w == last_word {
                    hits &= last_mask;
                }
                if hits == 0 {
                    continue;
                }
                let done = hits * 3;
                let first_field = w as u64 * 32;
                while hits != 0 {
                    let field = first_field + u64::from(hits.trailing_zeros() / 2);
                    hits &= hits - 1;
                    if field >= p_end {
                        if frontier != 0 {
                            self.expand::<MIRROR>(
                                &mut odo,
                                p,
                                frontier,
                                first_reached,
                                &mut outcome,
                            );
                        }
                        p = per_placement.quotient(field);
                        p_first = p * f;
                        p_end = p_first + f;
                        frontier = 0;
                        // Read before this layer's fields of `p` are marked done below.
                        first_reached = !self.codes.placement_has_done(p);
                    }
                    frontier |= 1 << (field - p_first);
                }
                // The layer's fields of this word are expanded or gathered for expansion: mark
                // them done. Other threads only turn unseen fields into next-layer ones.
                self.codes.words[w].fetch_or(done, Ordering::Relaxed);
            }
            if frontier != 0 {
                self.expand::<MIRROR>(&mut odo, p, frontier, first_reached, &mut outcome);
            }
            self.flush(depth, &mut outcome);
            let found = outcome.found - before;
            let done = self.shared.done.fetch_add(found, Ordering::Relaxed) + found;
            report(done);
        }
        outcome
    }

    /// Expands the regions of placement `p` whose fields in `frontier` are on layer `depth`.
    ///
    /// With `MIRROR` (the pattern has a symmetry) `p` is the smaller of a mirror pair; its
    /// value is also its image's, and each successor is recorded as the smaller of its pair.
    fn expand<const MIRROR: bool>(
        &self,
        odo: &mut Odometer,
        p: u64,
        mut frontier: u64,
        first_reached: bool,
        outcome: &mut LayerOutcome,
    ) {
        let depth = outcome.depth;
        let n = self.regions.geo().n;
        let k = self.k;
        odo.seek(p);
        let cells = &odo.cells[..k];
        let taken = odo.taken();
        let free = self.regions.geo().full & !taken;
        // slot[x]: the pattern tile on cell x (FREE_SLOT if none).
        let mut slot = [FREE_SLOT; super::MAX_CELLS];
        for (i, &c) in cells.iter().enumerate() {
            slot[c] = i as u8;
        }
        // The image of the placement: its index, tiles by cell and free cells.
        let mut image = Image {
            index: p,
            slot: [FREE_SLOT; super::MAX_CELLS],
            free,
        };
        if MIRROR {
            let mirror = self
                .mirror
                .as_ref()
                .expect("MIRROR is set only with a mirror");
            let (index, image_taken) = mirror.image(cells, n, &mut image.slot);
            image.index = index;
            image.free = self.regions.geo().full & !image_taken;
        }
        // The first layer that reaches a placement gives its value.
        if first_reached {
            let md: u32 = cells
                .iter()
                .enumerate()
                .map(|(i, &c)| self.manhattan[i * n + c])
                .sum();
            // Pattern moves and Manhattan distance change by one together, so their difference
            // is even.
            debug_assert!((depth - md) & 1 == 0);
            let excess = (depth - md) / 2;
            if MIRROR {
                // Either may share its byte with a placement of another thread's chunk.
                self.store::<true>(p, excess, outcome);
                if image.index != p {
                    self.store::<true>(image.index, excess, outcome);
                }
            } else {
                self.store::<false>(p, excess, outcome);
            }
        }
        let geo = self.regions.geo();
        while frontier != 0 {
            let Region {
                cells: region,
                ranks,
            } = self.regions.of(free, frontier.trailing_zeros());
            frontier &= !ranks;
            // Pattern tiles next to the region, each sliding into each region cell it touches.
            if let Some(mut moves) = geo.moves_into(region, taken) {
                // One loop over every move, whose exit the processor mispredicts once per
                // region rather than once per tile.
                while moves != 0 {
                    let (c, to) = geo.decode_move(moves.trailing_zeros());
                    moves &= moves - 1;
                    self.push_successor::<MIRROR>(p, c, to, free, &slot, &image, cells, outcome);
                }
            } else {
                let mut movers = geo.spread(region) & taken;
                while movers != 0 {
                    let c = movers.trailing_zeros() as usize;
                    movers &= movers - 1;
                    let mut targets = geo.neighbours[c] & region;
                    while targets != 0 {
                        let to = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        self.push_successor::<MIRROR>(
                            p, c, to, free, &slot, &image, cells, outcome,
                        );
                    }
                }
            }
        }
        if outcome.batch.len() >= BATCH {
            self.flush(outcome.depth, outcome);
        }
    }

    /// Adds to the batch the state reached from placement `p` (free cells `free`, tiles on
    /// cells `cells`, `slot[x]` the tile on cell `x` or `FREE_SLOT`) when the tile on `c`
    /// slides into the blank's cell `to`.
    /// With `MIRROR`, `image` is the mirror image of `p` and the state is recorded on the
    /// smaller index of its mirror pair (on both regions when the placement is its own image).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn push_successor<const MIRROR: bool>(
        &self,
        p: u64,
        c: usize,
        to: usize,
        free: u64,
        slot: &[u8; super::MAX_CELLS],
        image: &Image,
        cells: &[usize],
        outcome: &mut LayerOutcome,
    ) {
        let i = usize::from(slot[c]);
        let place = &self.place;
        let q = index::step(p, i, place[i], c, to, |y| {
            let j = usize::from(slot[y]);
            (j, place[j])
        });
        debug_assert_eq!(
            q,
            index::rank(
                (0..self.k).map(|t| if t == i { to } else { cells[t] }),
                self.regions.geo().n
            )
        );
        // In the new placement `to` is taken and `c` is free.
        let mut rank = (free & ((1u64 << c) - 1)).count_ones() - u32::from(to < c);
        let mut new_free = free ^ (1u64 << c) ^ (1u64 << to);
        let mut q = q;
        let mut blank = c;
        let mut mirror_rank = rank;
        if MIRROR {
            let mirror = self
                .mirror
                .as_ref()
                .expect("MIRROR is set only with a mirror");
            let (mc, mto) = (usize::from(mirror.cell[c]), usize::from(mirror.cell[to]));
            let mi = usize::from(mirror.tile[i]);
            let mq = index::step(image.index, mi, place[mi], mc, mto, |y| {
                let j = usize::from(image.slot[y]);
                (j, place[j])
            });
            let m_rank = (image.free & ((1u64 << mc) - 1)).count_ones() - u32::from(mto < mc);
            // Selections the compiler can make without branches: which of the pair is smaller
            // is a coin toss.
            let smaller = mq < q;
            mirror_rank = if mq <= q { m_rank } else { rank };
            rank = if smaller { m_rank } else { rank };
            new_free = if smaller {
                image.free ^ (1u64 << mc) ^ (1u64 << mto)
            } else {
                new_free
            };
            q = if smaller { mq } else { q };
            blank = if smaller { mc } else { c };
        }
        let bit = (q * self.fields as u64 + u64::from(rank)) * 2;
        outcome.batch.push(Candidate {
            q,
            rank: rank as u8,
            mirror_rank: mirror_rank as u8,
            blank: blank as u8,
            free: new_free,
            word: (bit / 64) as u32,
            shift: (bit % 64) as u8,
            loaded: 0,
        });
    }

    /// Looks up the batched successors and records the new ones on layer `depth + 1`.
    fn flush(&self, depth: u32, outcome: &mut LayerOutcome) {
        let next_code = current_code(depth + 1);
        let next_active = &self.active[(depth as usize + 1) % 2];
        let mut queued = 0;
        // First all the loads, independent of each other, so that they run in parallel.
        for cand in outcome.batch.iter_mut() {
            let w = self.codes.words[cand.word as usize].load(Ordering::Relaxed);
            cand.loaded = ((w >> cand.shift) & 3) as u8;
        }
        for cand in &outcome.batch {
            if cand.loaded != 0 {
                continue;
            }
            // An earlier candidate of the batch may have reached the same region.
            let w = self.codes.words[cand.word as usize].load(Ordering::Relaxed);
            if (w >> cand.shift) & 3 != 0 {
                continue;
            }
            let mut ranks = self
                .regions
                .of_cell(cand.free, u32::from(cand.rank), || usize::from(cand.blank))
                .ranks;
            if cand.mirror_rank != cand.rank {
                ranks |= self
                    .regions
                    .of(cand.free, u32::from(cand.mirror_rank))
                    .ranks;
            }
            self.codes.set(cand.q, ranks, next_code);
            queued += 1;
            let flag = &next_active[self.per_chunk.quotient(cand.q) as usize];
            if !flag.load(Ordering::Relaxed) {
                flag.store(true, Ordering::Relaxed);
            }
        }
        outcome.queued += queued;
        outcome.batch.clear();
    }

    /// Records the value of placement `q`, which belongs to this thread's chunk: plain stores
    /// suffice, as no other thread writes its byte (without a mirror; see `SHARED`).
    ///
    /// With `SHARED` the byte may hold a placement of another thread's chunk, and the write is
    /// an atomic OR.
    fn store<const SHARED: bool>(&self, q: u64, excess: u32, outcome: &mut LayerOutcome) {
        let limit = if self.bits == 4 { 15 } else { 255 };
        if excess > limit {
            self.shared.overflow.store(true, Ordering::Relaxed);
            return;
        }
        outcome.found += 1;
        outcome.max_excess = outcome.max_excess.max(excess as u8);
        if self.bits == 4 {
            let byte = &self.values[(q >> 1) as usize];
            let bits = (excess as u8) << ((q & 1) * 4);
            if SHARED {
                byte.fetch_or(bits, Ordering::Relaxed);
            } else {
                byte.store(byte.load(Ordering::Relaxed) | bits, Ordering::Relaxed);
            }
        } else {
            self.values[q as usize].store(excess as u8, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_puts_each_rank_on_its_field() {
        for ranks in [0u64, 1, 0b1011, 0x8000_0001, 0xFFFF_FFFF, 0x1234_5678] {
            let mut want = 0u64;
            for j in 0..32 {
                if ranks & (1 << j) != 0 {
                    want |= 1 << (2 * j);
                }
            }
            assert_eq!(spread_to_fields(ranks), want, "{ranks:#x}");
        }
    }

    #[test]
    fn small_chunks_that_split_words_give_the_same_table() {
        let none = Limits::none();
        // Fields per placement: 5 (10 bits) and 13 (26 bits), so chunks of 2 or 6 placements
        // start and end inside words; the default chunk holds each whole table.
        for spec in [
            PatternSpec::new(3, 3, 8, vec![0, 1, 2, 3]).unwrap(),
            PatternSpec::new(4, 4, 0, vec![1, 2]).unwrap(),
        ] {
            let whole = build(&spec, 1, None, &Limits::none()).unwrap();
            for (threads, chunk) in [(1, 2), (2, 2), (2, 6)] {
                let split = Builder::new(&spec, 4, chunk, false, &none)
                    .run(threads, None)
                    .unwrap();
                assert_eq!(split.data(), whole.data(), "{spec} chunk {chunk}");
                assert_eq!(split.max_excess(), whole.max_excess());
            }
        }
    }

    #[test]
    fn searching_one_of_each_mirror_pair_gives_the_same_table() {
        let none = Limits::none();
        for (spec, symmetry) in [
            // Korf's goal: bottom rows left to right (as the 7-8 databases' 8-tile pattern).
            (PatternSpec::new(4, 4, 0, (12..16).collect()), "left-right"),
            (PatternSpec::new(4, 4, 0, vec![9, 10, 13, 14]), "left-right"),
            (
                PatternSpec::new(4, 4, 5, vec![0, 3, 12, 15, 6]),
                "anti-diagonal",
            ),
            (
                PatternSpec::new(4, 4, 0, vec![1, 4, 15, 5, 10]),
                "main diagonal",
            ),
            (PatternSpec::new(3, 3, 8, (0..8).collect()), "main diagonal"),
            (PatternSpec::new(3, 3, 4, vec![0, 2, 6, 8, 1]), "left-right"),
            (
                PatternSpec::new(5, 3, 7, vec![0, 4, 10, 14, 2]),
                "left-right",
            ),
        ] {
            let spec = spec.unwrap();
            let plain = Builder::new(&spec, 4, CHUNK_PLACEMENTS, false, &none)
                .run(2, None)
                .unwrap();
            for (threads, chunk) in [(1, CHUNK_PLACEMENTS), (2, 2), (2, 6)] {
                let builder = Builder::new(&spec, 4, chunk, true, &none);
                assert_eq!(
                    builder.mirror.as_ref().map(|m| m.name),
                    Some(symmetry),
                    "{spec}"
                );
                let mirrored = builder.run(threads, None).unwrap();
                assert_eq!(mirrored.data(), plain.data(), "{spec} {threads} {chunk}");
                assert_eq!(mirrored.max_excess(), plain.max_excess());
            }
        }
    }

    #[test]
    fn the_complete_eight_puzzle_table_has_the_known_radius() {
        let spec = PatternSpec::new(3, 3, 8, (0..8).collect()).unwrap();
        let db = build(&spec, 2, None, &Limits::none()).unwrap();
        let mut max = 0;
        let mut cells = [0usize; 8];
        for idx in 0..spec.entries() {
            index::unrank(idx, 9, &mut cells);
            max = max.max(db.value(&cells));
        }
        // The two hardest 8-puzzle positions need 31 moves.
        assert_eq!(max, 31);
    }
}
