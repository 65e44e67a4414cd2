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
//! **Layout.** The search names a placement by the set of cells its tiles stand on (its *cells*,
//! module `subsets`) and the order of its tiles on them (module `perm`), as Clausecker &
//! Reinefeld's zero-aware databases do, and a state by its placement and region. The two-bit
//! codes ("unseen", "on the layer being expanded", "on the next layer", "done", in the manner of
//! Cooperman & Finkelstein 1992) are stored by cells, then region, then order: all the orders of
//! one region of one set of cells lie together, a few kilobytes. A slide turns every state of
//! such a block into a state of one other block, at an order computed by one table look-up
//! (none for a horizontal slide, which keeps the order), so the search reads and writes within
//! two blocks at a time, in the processor's caches, instead of all over an array of hundreds of
//! megabytes; and a horizontal slide moves 32 states at once, a word of codes at a time. A layer
//! is found by scanning the codes, so no queue is needed; the codes of the current and next
//! layer swap after each layer, and expanded states become "done".
//!
//! The value of a placement (the distance of its first region reached) is written, as its excess
//! over the Manhattan distance, into a table in the same cells-then-order layout, and turned into
//! the index order of [`super::index`] once the search is over. For the 15-puzzle's 8-tile
//! pattern the codes take 356 MB (2.75 regions a placement on average) and each table 259 MB.
//! A zero-aware table keeps a value for every state instead: one bit, the parity of its excess
//! (see [`PatternDb`]), recorded block by block and turned at the end into the table's layout,
//! order after order (module `layout`), 64 blocks by 64 orders at a time; it is half the size of
//! the codes.
//!
//! Both cores: each layer's sets of cells are cut into chunks that the threads take in turn. A
//! state found twice in one layer gets the same code from both threads, so atomic ORs suffice;
//! a state is read before it is written, and only an unseen one is written.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

use super::index::Odometer;
use super::layout::Layout;
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

/// Largest memory a build may take: beyond this a build would not fit the machines taquin
/// targets, and a clear error beats being killed by the system.
const MAX_BUILD_BYTES: u64 = 6 << 30;

/// Codes a thread takes at a time, roughly: whole sets of cells are taken, as many as make up
/// this many codes (at least one).
const CHUNK_CODES: u64 = 1 << 17;

/// Placements below which a build runs on one thread: about a millisecond of work a layer.
const SMALL_TABLE: u64 = 1 << 21;

/// Placements one core settles per second, on the development machine (AMD EPYC, 2026-11-25:
/// 17.6 million for the 15-puzzle's 8-tile pattern, 18 million for the 24-puzzle's 6-tile
/// ones), for tables of up to [`CACHE_BOUND_PLACEMENTS`] placements: used for the "about N s"
/// line before a build and for the planner's choice of the tables it builds at once.
const PLACEMENTS_PER_SECOND_PER_THREAD: f64 = 18e6;

/// Placements beyond which a build settles fewer of them a second, as placements to the power
/// [`CACHE_BOUND_EXPONENT`]: its tables outgrow the caches, and each step of the search waits
/// longer on the memory. Measured (same machine, two threads, idle): the 24-puzzle's 7-tile
/// zero-aware tables (2.4e9 placements) take 122 s each, 9.9 million a second a core, where
/// the flat rate promised 67 s; the 6x6 set's 6-tile tables (1.4e9), 190 s for the set against
/// 196 s flat and 290 s by this rule. An estimate high by half is kinder than one low by half.
const CACHE_BOUND_PLACEMENTS: f64 = 5e8;

/// See [`CACHE_BOUND_PLACEMENTS`].
const CACHE_BOUND_EXPONENT: f64 = -0.4;

/// How many times slower a build settles its placements when the pattern has more tiles than
/// [`super::perm::TABLE_MAX_TILES`]: there is no table of orders then, and each order is worked
/// out from its rank by divisions. Measured (Intel Xeon, 2026-11-30, `taquin pdb build zpdb:8-3`
/// and `zpdb:9-2` with `--size 4x3 --goal korf`): 13.4 million placements a second of CPU for
/// the 8-tile table, 1.84 million for the 9-tile one, 69 % of whose time went to unranking.
const WITHOUT_ORDER_TABLE_SLOWDOWN: f64 = 7.0;

/// Bytes the build needs at its peak: the codes and the table in the search's layout during
/// the search, then (unless the table is zero-aware, and so already in its final layout) that
/// table and the final one while the first is turned into the second.
pub fn peak_bytes(spec: &PatternSpec) -> u64 {
    match check_size(spec) {
        Ok(()) => peak_of(
            spec,
            &Layout::shared(spec.width, spec.height, spec.cells.len()),
            4,
        ),
        Err(_) => u64::MAX,
    }
}

/// Refuses, before it starts, the build of `spec` when its peak ([`peak_bytes`]) is over the
/// memory limit of `limits`, with a sentence that says what it needs. A table too large to
/// build at all passes here: [`build`] refuses it in its own words.
pub fn check_memory(spec: &PatternSpec, limits: &Limits) -> Result<(), PdbError> {
    match peak_bytes(spec) {
        u64::MAX => Ok(()),
        peak => over_budget(spec, peak, limits),
    }
}

/// [`check_memory`] for a build whose peak is known to be `peak` bytes.
fn over_budget(spec: &PatternSpec, peak: u64, limits: &Limits) -> Result<(), PdbError> {
    if limits
        .max_memory_bytes
        .is_some_and(|budget| peak > budget as u64)
    {
        return Err(PdbError::Stopped {
            hit: LimitHit::Memory,
            what: format!(
                "the database of {spec} needs {} MiB to build, over the memory limit of {} MiB",
                peak >> 20,
                limits.memory_budget() >> 20
            ),
        });
    }
    Ok(())
}

/// Bytes at the peak of the build of `spec` in `layout` with entries of `bits` bits.
fn peak_of(spec: &PatternSpec, layout: &Layout, bits: u8) -> u64 {
    let codes = layout.blocks() * words(layout) as u64 * 8;
    let bookkeeping = layout.bytes();
    if spec.zero_aware {
        return codes + packed_len(layout.zero_aware_entries(), 1) + bookkeeping;
    }
    let values = packed_len(layout.subsets.count * layout.per_set, bits);
    let table = packed_len(spec.entries(), bits);
    (codes + values).max(values + table) + bookkeeping
}

/// Words of two-bit codes of one block: 32 orders a word.
fn words(layout: &Layout) -> usize {
    layout.perms.count.div_ceil(32) as usize
}

/// Refuses a pattern whose tables alone pass [`MAX_BUILD_BYTES`], before its layout (whose
/// sets of cells are counted one by one) is worked out.
fn check_size(spec: &PatternSpec) -> Result<(), PdbError> {
    // Two tables of four bits an entry: a byte an entry. Counted in floating point, since past
    // 20 tiles the entries no longer fit 64 bits.
    let tables = entries_counted(spec);
    if tables > MAX_BUILD_BYTES as f64 || spec.cells.len() > 20 {
        return Err(too_large(spec, tables));
    }
    Ok(())
}

/// The entries of `spec`'s table, counted in floating point so that no count saturates.
fn entries_counted(spec: &PatternSpec) -> f64 {
    let n = spec.board_cells();
    (0..spec.cells.len().min(n))
        .map(|i| (n - i) as f64)
        .product()
}

/// Refuses the build of a table too large to build at all (over [`MAX_BUILD_BYTES`] at its
/// peak), before it is announced: a line that promised such a build would only be taken back.
pub(crate) fn check_buildable(spec: &PatternSpec) -> Result<(), PdbError> {
    check_size(spec)?;
    let layout = Layout::shared(spec.width, spec.height, spec.cells.len());
    check_peak(spec, peak_of(spec, &layout, 4))
}

/// Refuses a build whose peak, `peak` bytes, passes [`MAX_BUILD_BYTES`].
fn check_peak(spec: &PatternSpec, peak: u64) -> Result<(), PdbError> {
    if peak > MAX_BUILD_BYTES {
        return Err(too_large(spec, peak as f64));
    }
    Ok(())
}

/// A rough duration of the build in seconds on `threads` cores, for the line printed before it.
pub fn estimate_seconds(spec: &PatternSpec, threads: usize) -> f64 {
    let placements = spec.entries() as f64;
    let slowdown = (placements / CACHE_BOUND_PLACEMENTS)
        .powf(CACHE_BOUND_EXPONENT)
        .min(1.0);
    let unranked = if spec.cells.len() > super::perm::TABLE_MAX_TILES {
        WITHOUT_ORDER_TABLE_SLOWDOWN
    } else {
        1.0
    };
    unranked * placements / (PLACEMENTS_PER_SECOND_PER_THREAD * slowdown * threads.max(1) as f64)
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
    build_in_chunks(spec, threads, progress, limits, 0)
}

/// [`build`], handing out `chunk` sets of cells at a time (0: about [`CHUNK_CODES`] codes'
/// worth).
fn build_in_chunks(
    spec: &PatternSpec,
    threads: usize,
    progress: Option<&(dyn Fn(BuildProgress) + Sync)>,
    limits: &Limits,
    chunk: u64,
) -> Result<PatternDb, PdbError> {
    check_size(spec)?;
    let layout = Layout::shared(spec.width, spec.height, spec.cells.len());
    let peak = peak_of(spec, &layout, 4);
    over_budget(spec, peak, limits)?;
    check_peak(spec, peak)?;
    let threads = if threads == 0 {
        default_threads()
    } else {
        threads
    };
    let limits = Limits {
        max_nodes: None,
        ..limits.clone()
    };
    let run = |bits| Builder::new(spec, &layout, bits, &limits, chunk).run(threads, progress);
    // A zero-aware table keeps one bit, the excess's parity. Four bits hold the excess of every
    // preset's pattern; the rare pattern whose excess exceeds 15 is built again with a byte
    // per entry rather than stored saturated.
    let bits = if spec.zero_aware { 1 } else { 4 };
    match run(bits).or_else(|halt| match halt {
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

fn too_large(spec: &PatternSpec, bytes: f64) -> PdbError {
    let entries = entries_counted(spec);
    let entries = if entries < 1e15 {
        crate::report::thousands(entries as u64)
    } else {
        format!("{entries:.2e}")
    };
    let gib = bytes / f64::from(1u32 << 30);
    let gib = if gib < 1e6 {
        format!("{gib:.1}")
    } else {
        format!("{gib:.2e}")
    };
    PdbError::Unsupported(format!(
        "the database of {spec} has {entries} entries and would need {gib} GiB to build (at most {} GiB): use smaller patterns",
        MAX_BUILD_BYTES >> 30
    ))
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

/// The low bits of the fields of `x` that hold code `pattern` (a code repeated in every field).
#[inline(always)]
fn fields_equal(x: u64, pattern: u64) -> u64 {
    let t = x ^ pattern;
    !(t | (t >> 1)) & LOW_BITS
}

/// The low bits of the fields of `x` that are unseen (code 0).
#[inline(always)]
fn fields_unseen(x: u64) -> u64 {
    !(x | (x >> 1)) & LOW_BITS
}

/// The low bits of the fields of `x` that are done (code 3).
#[inline(always)]
fn fields_done(x: u64) -> u64 {
    x & (x >> 1) & LOW_BITS
}

/// A slide out of a block: the block it leads to, and the change to the order.
#[derive(Clone, Copy)]
struct Slide {
    /// The set of cells after the slide.
    set: u64,
    /// The first word of the block of the blank's region after the slide.
    word: u64,
    /// The moved tile's position in the order before (`from`) and after (`to`) the slide.
    from: u8,
    to: u8,
}

/// What one set of cells looks like: its cells, regions, and the slides out of each region.
struct SetView {
    /// Sorted cells of the pattern tiles.
    cells: [u8; super::MAX_CELLS],
    /// Regions, by lowest cell.
    regions: Vec<u64>,
    /// Slides out of region `r`: `slides[starts[r]..starts[r + 1]]`.
    slides: Vec<Slide>,
    starts: Vec<usize>,
    /// `manhattan[s * k + t]`: the Manhattan distance of tile `t` standing on `cells[s]`.
    manhattan: Vec<u8>,
}

impl SetView {
    fn new() -> SetView {
        SetView {
            cells: [0; super::MAX_CELLS],
            regions: Vec::new(),
            slides: Vec::new(),
            starts: Vec::new(),
            manhattan: Vec::new(),
        }
    }

    /// Fills the view of the set of rank `m`.
    fn fill(&mut self, spec: &PatternSpec, layout: &Layout, m: u64) {
        let geo = &layout.geo;
        let k = spec.cells.len();
        let words = words(layout) as u64;
        let taken = layout.subsets.unrank(m);
        let free = geo.full & !taken;
        let mut t = taken;
        for s in 0..k {
            self.cells[s] = t.trailing_zeros() as u8;
            t &= t - 1;
        }
        self.manhattan.clear();
        for s in 0..k {
            for &g in &spec.cells {
                self.manhattan
                    .push(cell_distance(usize::from(self.cells[s]), g, spec.width) as u8);
            }
        }
        self.regions.clear();
        self.regions.extend(geo.regions(free));
        self.slides.clear();
        self.starts.clear();
        for &region in &self.regions {
            self.starts.push(self.slides.len());
            let mut movers = geo.spread(region) & taken;
            while movers != 0 {
                let c = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let mut targets = geo.neighbours[c] & region;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    let after = taken ^ (1 << c) ^ (1 << to);
                    let set = layout.subsets.rank(after);
                    let block = layout.block(set, c);
                    self.slides.push(Slide {
                        set,
                        word: block * words,
                        from: (taken & ((1u64 << c) - 1)).count_ones() as u8,
                        to: (after & ((1u64 << to) - 1)).count_ones() as u8,
                    });
                }
            }
        }
        self.starts.push(self.slides.len());
    }
}

struct Builder<'a> {
    spec: &'a PatternSpec,
    layout: &'a Arc<Layout>,
    /// Words of codes of a block.
    words: usize,
    /// The caller's deadline and cancel flag (no node budget), checked before each chunk.
    limits: &'a Limits,
    bits: u8,
    codes: Vec<AtomicU64>,
    /// Excesses, `bits` bits each: by set of cells then order (`per_set` entries a set), or
    /// for a zero-aware table by block then order.
    values: Vec<AtomicU8>,
    /// Sets of cells a thread takes at a time.
    chunk: u64,
    /// `active[d % 2][m]`: set `m` holds states of layer `d`. Set when a state is reached,
    /// read and cleared when the layer is expanded.
    active: [Vec<AtomicBool>; 2],
    /// Counters the threads update, on cache lines of their own.
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
    /// Placements (states, for a zero-aware table) first reached on this layer.
    found: u64,
    /// States put on the next layer.
    queued: u64,
    /// The largest excess among them.
    max_excess: u8,
}

/// A thread's working space for one set of cells.
struct Scratch {
    view: SetView,
    /// `frontier[r * words + w]`: the low bits of the fields of word `w` of region `r` on the
    /// layer being expanded.
    frontier: Vec<u64>,
    /// Per word: some region of the order is on the layer / done.
    any_current: Vec<u64>,
    any_done: Vec<u64>,
    order: Vec<u8>,
    /// The successors of one slide in its target block, as low bits of their fields, by word.
    gathered: Vec<u64>,
}

impl<'a> Builder<'a> {
    /// A builder that hands out `chunk` sets of cells at a time (0: about [`CHUNK_CODES`]
    /// codes' worth).
    fn new(
        spec: &'a PatternSpec,
        layout: &'a Arc<Layout>,
        bits: u8,
        limits: &'a Limits,
        chunk: u64,
    ) -> Builder<'a> {
        let sets = layout.subsets.count;
        let blocks = layout.blocks();
        let words = words(layout);
        let entries = if spec.zero_aware {
            layout.zero_aware_entries()
        } else {
            sets * layout.per_set
        };
        let chunk = if chunk > 0 {
            chunk
        } else {
            (CHUNK_CODES / (layout.perms.count * blocks.div_ceil(sets.max(1)))).max(1)
        };
        Builder {
            spec,
            layout,
            words,
            limits,
            bits,
            // Zeroed by the allocator, not written: pages the search has not reached yet take
            // no memory.
            codes: bytemuck::zeroed_vec((blocks * words as u64) as usize),
            values: bytemuck::zeroed_vec(packed_len(entries, bits) as usize),
            chunk,
            active: std::array::from_fn(|_| (0..sets).map(|_| AtomicBool::new(false)).collect()),
            shared: Shared {
                overflow: AtomicBool::new(false),
                done: AtomicU64::new(0),
                stopped: std::sync::OnceLock::new(),
            },
        }
    }

    /// Runs the search, unless an excess does not fit `bits` or a limit stops it.
    fn run(
        self,
        threads: usize,
        progress: Option<&(dyn Fn(BuildProgress) + Sync)>,
    ) -> Result<PatternDb, Halt> {
        let layout = self.layout;
        let spec = self.spec;
        let geo = &layout.geo;
        let n = geo.n;
        let sets = layout.subsets.count;
        let chunks = sets.div_ceil(self.chunk) as usize;
        // A small table's layers take less time than starting threads for each of them.
        let threads = if spec.entries() < SMALL_TABLE {
            1
        } else {
            threads.min(chunks).max(1)
        };
        // With every tile in the pattern, the placement fixes the blank and only the
        // placements of the goal's parity are reachable. A zero-aware table counts states.
        let placements = if spec.zero_aware {
            layout.blocks() * layout.perms.count
        } else {
            spec.entries()
        };
        let total = if n - spec.cells.len() == 1 {
            placements.div_ceil(2)
        } else {
            placements
        };
        // The goal: tiles on their cells in pattern order, the blank in its region.
        let taken = spec.cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let goal_set = layout.subsets.rank(taken);
        let mut order: Vec<(usize, u8)> = spec
            .cells
            .iter()
            .enumerate()
            .map(|(t, &c)| (c, t as u8))
            .collect();
        order.sort_unstable();
        let order: Vec<u8> = order.into_iter().map(|(_, t)| t).collect();
        let goal_order = layout.perms.rank(&order);
        let block = layout.block(goal_set, spec.blank_goal);
        let word = block * self.words as u64 + goal_order / 32;
        self.codes[word as usize].store(1 << (2 * (goal_order % 32)), Ordering::Relaxed);
        self.active[0][goal_set as usize].store(true, Ordering::Relaxed);

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
                self.layer_worker(depth, &next_chunk, chunks, report)
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
        let Builder {
            bits,
            values,
            codes,
            limits,
            ..
        } = self;
        drop(codes);
        let (data, zero_aware) = if spec.zero_aware {
            let data: Vec<u8> = values.into_iter().map(AtomicU8::into_inner).collect();
            (
                transpose_bits(layout, &data, threads),
                Some(Arc::clone(layout)),
            )
        } else {
            (reorder(spec, layout, bits, &values, threads, limits)?, None)
        };
        if let Some(p) = progress {
            p(BuildProgress {
                done: total,
                total,
                depth,
            });
        }
        Ok(PatternDb::from_parts(
            spec.clone(),
            bits,
            max_excess,
            data,
            zero_aware,
        ))
    }

    /// Expands chunks of sets of cells of layer `depth` until none is left.
    fn layer_worker(
        &self,
        depth: u32,
        next_chunk: &AtomicUsize,
        chunks: usize,
        report: impl Fn(u64),
    ) -> LayerOutcome {
        let layout = self.layout;
        let words = self.words;
        let mut outcome = LayerOutcome::default();
        let mut scratch = Scratch {
            view: SetView::new(),
            frontier: Vec::new(),
            any_current: vec![0; words],
            any_done: vec![0; words],
            order: vec![0; layout.perms.k],
            gathered: vec![0; words],
        };
        let sets = layout.subsets.count;
        loop {
            let chunk = next_chunk.fetch_add(1, Ordering::Relaxed);
            if chunk >= chunks
                || self.shared.overflow.load(Ordering::Relaxed)
                || self.shared.stopped.get().is_some()
            {
                break;
            }
            if let Err(hit) = self.limits.check(0) {
                let _ = self.shared.stopped.set(hit);
                break;
            }
            let before = outcome.found;
            let first = chunk as u64 * self.chunk;
            for m in first..(first + self.chunk).min(sets) {
                if self.active[depth as usize % 2][m as usize].swap(false, Ordering::Relaxed) {
                    self.expand(m, depth, &mut scratch, &mut outcome);
                }
            }
            let found = outcome.found - before;
            if found > 0 {
                let done = self.shared.done.fetch_add(found, Ordering::Relaxed) + found;
                report(done);
            }
        }
        outcome
    }

    /// Expands the states of layer `depth` of the set of cells of rank `m`.
    fn expand(&self, m: u64, depth: u32, scratch: &mut Scratch, outcome: &mut LayerOutcome) {
        let layout = self.layout;
        let words = self.words;
        let current = current_code(depth) * LOW_BITS;
        let next = current_code(depth + 1);
        let regions = layout.regions_of(m);
        let block_words = |r: usize| {
            &self.codes[(layout.block_of_region(m, r) * words as u64) as usize..][..words]
        };
        // The layer's states of each region, and per order whether some region is on the layer
        // or done: read before anything of this set is marked done.
        scratch.frontier.clear();
        scratch.frontier.resize(regions * words, 0);
        scratch.any_current.fill(0);
        scratch.any_done.fill(0);
        let mut live = 0u64;
        for r in 0..regions {
            let block = block_words(r);
            let frontier = &mut scratch.frontier[r * words..][..words];
            for w in 0..words {
                let x = block[w].load(Ordering::Relaxed);
                if x == 0 {
                    continue;
                }
                let cur = fields_equal(x, current);
                frontier[w] = cur;
                scratch.any_current[w] |= cur;
                scratch.any_done[w] |= fields_done(x);
                if cur != 0 {
                    live |= 1 << r.min(63);
                }
            }
        }
        if live == 0 {
            return;
        }
        scratch.view.fill(self.spec, layout, m);
        self.record_values(m, depth, scratch, outcome);
        let view = &scratch.view;
        for r in 0..regions {
            let frontier = &scratch.frontier[r * words..][..words];
            if live & (1 << r.min(63)) == 0 {
                continue;
            }
            for slide in &view.slides[view.starts[r]..view.starts[r + 1]] {
                let target = &self.codes[slide.word as usize..][..words];
                let mut queued = 0u64;
                if slide.from == slide.to {
                    // The order is kept: a word of states at a time.
                    for (w, &f) in frontier.iter().enumerate() {
                        if f == 0 {
                            continue;
                        }
                        let new = f & fields_unseen(target[w].load(Ordering::Relaxed));
                        if new != 0 {
                            target[w].fetch_or(new * next, Ordering::Relaxed);
                            queued += u64::from(new.count_ones());
                        }
                    }
                } else {
                    // The successors are gathered by word first, and each word is then checked
                    // against the target and written with one atomic OR: a check and an atomic
                    // per state would cost more than the rest of the loop.
                    let (a, b) = (usize::from(slide.from), usize::from(slide.to));
                    let gathered = &mut scratch.gathered;
                    match layout.perms.shift_table(a, b) {
                        Some(table) => {
                            for (w, &f) in frontier.iter().enumerate() {
                                let mut bits = f;
                                while bits != 0 {
                                    let p = w * 32 + (bits.trailing_zeros() / 2) as usize;
                                    bits &= bits - 1;
                                    let q = usize::from(table[p]);
                                    gathered[q / 32] |= 1 << (2 * (q % 32));
                                }
                            }
                        }
                        None => {
                            for (w, &f) in frontier.iter().enumerate() {
                                let mut bits = f;
                                while bits != 0 {
                                    let p = w as u64 * 32 + u64::from(bits.trailing_zeros() / 2);
                                    bits &= bits - 1;
                                    let q = layout.perms.shift(p, a, b);
                                    gathered[(q / 32) as usize] |= 1 << (2 * (q % 32));
                                }
                            }
                        }
                    }
                    for (word, g) in target.iter().zip(gathered.iter_mut()) {
                        if *g != 0 {
                            let new = *g & fields_unseen(word.load(Ordering::Relaxed));
                            if new != 0 {
                                word.fetch_or(new * next, Ordering::Relaxed);
                                queued += u64::from(new.count_ones());
                            }
                            *g = 0;
                        }
                    }
                }
                if queued > 0 {
                    outcome.queued += queued;
                    let flag = &self.active[(depth as usize + 1) % 2][slide.set as usize];
                    if !flag.load(Ordering::Relaxed) {
                        flag.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        // The layer's states are expanded: mark them done. Other threads only turn unseen
        // fields into next-layer ones.
        for r in 0..regions {
            let block = block_words(r);
            for (w, &f) in scratch.frontier[r * words..][..words].iter().enumerate() {
                if f != 0 {
                    block[w].fetch_or(f * 3, Ordering::Relaxed);
                }
            }
        }
    }

    /// Writes the values that layer `depth` settles in set `m`: of every state on the layer
    /// for a zero-aware table, else of every placement first reached (some region on the
    /// layer, none done before).
    fn record_values(&self, m: u64, depth: u32, scratch: &mut Scratch, outcome: &mut LayerOutcome) {
        let layout = self.layout;
        let k = layout.perms.k;
        let limit = match self.bits {
            1 => u32::MAX,
            4 => 15,
            _ => 255,
        };
        let words = self.words;
        let regions = scratch.frontier.len() / words;
        for w in 0..words {
            let mut settled = if self.spec.zero_aware {
                scratch.any_current[w]
            } else {
                scratch.any_current[w] & !scratch.any_done[w]
            };
            while settled != 0 {
                let field = settled.trailing_zeros();
                let p = w as u64 * 32 + u64::from(field / 2);
                settled &= settled - 1;
                let order: &[u8] = if layout.perms.has_orders() {
                    layout.perms.order(p)
                } else {
                    layout.perms.unrank(p, &mut scratch.order);
                    &scratch.order
                };
                let md: u32 = order
                    .iter()
                    .enumerate()
                    .map(|(s, &t)| u32::from(scratch.view.manhattan[s * k + usize::from(t)]))
                    .sum();
                // Pattern moves and Manhattan distance change by one together, so their
                // difference is even.
                debug_assert!(depth >= md && (depth - md) & 1 == 0);
                let excess = (depth - md) / 2;
                if excess > limit {
                    self.shared.overflow.store(true, Ordering::Relaxed);
                    return;
                }
                outcome.max_excess = outcome.max_excess.max(excess.min(255) as u8);
                if self.spec.zero_aware {
                    for r in 0..regions {
                        if scratch.frontier[r * words + w] & (1 << field) != 0 {
                            outcome.found += 1;
                            let block = layout.block_of_region(m, r);
                            self.store(block * layout.per_set + p, excess);
                        }
                    }
                } else {
                    outcome.found += 1;
                    self.store(m * layout.per_set + p, excess);
                }
            }
        }
    }

    /// Stores `excess` at entry `e` of the values (its parity in a one-bit table). A set's (or a
    /// block's) entries fill whole bytes, and one thread expands the set: plain stores suffice.
    #[inline]
    fn store(&self, e: u64, excess: u32) {
        let (byte, bits) = match self.bits {
            1 => (e >> 3, ((excess & 1) as u8) << (e & 7)),
            4 => (e >> 1, (excess as u8) << ((e & 1) * 4)),
            _ => (e, excess as u8),
        };
        let byte = &self.values[byte as usize];
        byte.store(byte.load(Ordering::Relaxed) | bits, Ordering::Relaxed);
    }
}

/// A zero-aware table's bits, recorded block after block (`per_set` orders each), laid out
/// order after order ([`Layout::entry`]), 64 blocks by 64 orders at a time: both are multiples
/// of 64 entries, so each square is 64 words in and 64 words out.
fn transpose_bits(layout: &Layout, data: &[u8], threads: usize) -> Vec<u8> {
    let blocks = layout.blocks();
    let per_set = layout.per_set;
    let stride = layout.stride();
    let word = |i: u64| {
        let at = (i * 8) as usize;
        data.get(at..at + 8)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    };
    let out: Vec<AtomicU64> = bytemuck::zeroed_vec((stride * per_set / 64) as usize);
    let next = AtomicU64::new(0);
    let work = || loop {
        let group = next.fetch_add(1, Ordering::Relaxed);
        if group * 64 >= blocks {
            break;
        }
        let mut square = [0u64; 64];
        for orders in 0..per_set / 64 {
            for (r, row) in square.iter_mut().enumerate() {
                let block = group * 64 + r as u64;
                *row = if block < blocks {
                    word((block * per_set) / 64 + orders)
                } else {
                    0
                };
            }
            transpose64(&mut square);
            for (c, &row) in square.iter().enumerate() {
                let order = orders * 64 + c as u64;
                // Each word has one writer: no other group writes these 64 blocks.
                out[((order * stride) / 64 + group) as usize].store(row, Ordering::Relaxed);
            }
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(work);
            }
        });
    }
    out.into_iter()
        .flat_map(|w| w.into_inner().to_le_bytes())
        .collect()
}

/// Transposes a 64 x 64 bit matrix, row `r` being word `r` and column `c` its bit `c`: the
/// quadrants swap, then the quadrants of those, down to single bits (Warren, Hacker's Delight,
/// 7-3).
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Placements turned at a time from the search's layout to the index order: their look-ups
/// are issued together, so that their cache misses overlap.
const BATCH: usize = 64;

/// The values of `values` (by set of cells then order) in the index order of [`index::rank`],
/// packed in `bits` bits: each thread fills a range of the result in order, reading the values
/// where they lie.
fn reorder(
    spec: &PatternSpec,
    layout: &Layout,
    bits: u8,
    values: &[AtomicU8],
    threads: usize,
    limits: &Limits,
) -> Result<Vec<u8>, Halt> {
    let n = spec.board_cells();
    let k = spec.cells.len();
    let entries = spec.entries();
    let mut data = vec![0u8; packed_len(entries, bits) as usize];
    // Ranges of whole bytes: an even number of entries each.
    let per_thread = entries.div_ceil(threads as u64).next_multiple_of(2).max(2);
    let stopped = std::sync::OnceLock::new();
    let read = |e: u64| -> u8 {
        if bits == 4 {
            (values[(e >> 1) as usize].load(Ordering::Relaxed) >> ((e & 1) * 4)) & 0x0f
        } else {
            values[e as usize].load(Ordering::Relaxed)
        }
    };
    let fill = |first: u64, out: &mut [u8]| {
        let count = if bits == 4 {
            (out.len() as u64 * 2).min(entries - first)
        } else {
            out.len() as u64
        };
        let mut odo = Odometer::at(first, n, k);
        let mut at = [0u64; BATCH];
        let mut done = 0u64;
        while done < count {
            if done.is_multiple_of(1 << 20) {
                if let Err(hit) = limits.check(0) {
                    let _ = stopped.set(hit);
                    return;
                }
            }
            let batch = (count - done).min(BATCH as u64) as usize;
            for slot in at.iter_mut().take(batch) {
                *slot = entry_of(layout, &odo.cells[..k], odo.taken());
                if odo.index + 1 < entries {
                    odo.advance();
                }
            }
            for (j, &e) in at.iter().take(batch).enumerate() {
                let v = read(e);
                let i = done + j as u64;
                if bits == 4 {
                    out[(i >> 1) as usize] |= v << ((i & 1) * 4);
                } else {
                    out[i as usize] = v;
                }
            }
            done += batch as u64;
        }
    };
    let bytes_per_thread = packed_len(per_thread, bits) as usize;
    if threads <= 1 {
        fill(0, &mut data);
    } else {
        std::thread::scope(|s| {
            for (t, out) in data.chunks_mut(bytes_per_thread).enumerate() {
                let fill = &fill;
                s.spawn(move || fill(t as u64 * per_thread, out));
            }
        });
    }
    match stopped.get() {
        Some(&hit) => Err(Halt::Limit(hit)),
        None => Ok(data),
    }
}

/// The entry, in the search's layout, of the placement whose tile `i` stands on `cells[i]`
/// (`taken` their cells): its set's rank, and the rank of the order of its tiles.
#[inline]
fn entry_of(layout: &Layout, cells: &[usize], taken: u64) -> u64 {
    layout.subsets.rank(taken) * layout.per_set + layout.order_of(cells.iter().copied(), taken)
}

#[cfg(test)]
mod tests {
    use super::super::index;
    use super::*;
    use std::collections::{HashMap, VecDeque};

    #[test]
    fn build_estimates_follow_the_measured_times() {
        let seconds = |w, h, cells: Vec<usize>| {
            let spec = PatternSpec::new(w, h, 0, cells).unwrap().zero_aware();
            estimate_seconds(&spec, 2)
        };
        // Measured on two threads (see CACHE_BOUND_PLACEMENTS): the 15-puzzle's 8-tile table
        // 15.6 s with its 7-tile one, the 24-puzzle's 7-tile tables 122 s each.
        let eight = seconds(4, 4, (8..16).collect());
        assert!((10.0..20.0).contains(&eight), "{eight}");
        let seven = seconds(5, 5, vec![1, 2, 5, 6, 7, 10, 11]);
        assert!((90.0..180.0).contains(&seven), "{seven}");
        // Small tables keep the flat rate: a 6-tile table of the 15-puzzle, a fraction of a
        // second, as the planner's choice of what to build at once assumes.
        let six = seconds(4, 4, vec![1, 4, 5, 8, 9, 12]);
        assert!(six < 0.2, "{six}");
        // Nine tiles have no table of orders: the 15-puzzle's 9-tile table of a 9-6 took 58
        // minutes with about one core's worth of CPU (3,456 s), where the rate of eight-tile
        // tables promised 4.5 minutes on two threads.
        let nine = seconds(4, 4, vec![1, 2, 4, 5, 6, 8, 9, 12, 13]);
        assert!((1_200.0..3_600.0).contains(&nine), "{nine}");
        // More placements never take less time, across the bend too.
        let mut last = 0.0;
        for k in 1..=8 {
            let t = seconds(5, 5, (1..=k).collect());
            assert!(t >= last, "{k} tiles: {t} s after {last} s");
            last = t;
        }
    }

    /// Distances by the plainest search there is: over (placement, blank cell) states with a
    /// queue and a map, every blank step at cost 0 done by a 0-1 breadth-first search.
    fn reference(spec: &PatternSpec) -> HashMap<(Vec<usize>, usize), u32> {
        let n = spec.board_cells();
        let w = spec.width;
        let neighbours = |c: usize| {
            let mut v = vec![];
            if !c.is_multiple_of(w) {
                v.push(c - 1);
            }
            if c % w + 1 < w {
                v.push(c + 1);
            }
            if c >= w {
                v.push(c - w);
            }
            if c + w < n {
                v.push(c + w);
            }
            v
        };
        let mut dist: HashMap<(Vec<usize>, usize), u32> = HashMap::new();
        let mut queue = VecDeque::new();
        let start = (spec.cells.clone(), spec.blank_goal);
        dist.insert(start.clone(), 0);
        queue.push_back(start);
        while let Some((cells, blank)) = queue.pop_front() {
            let d = dist[&(cells.clone(), blank)];
            for to in neighbours(blank) {
                let (next, cost) = match cells.iter().position(|&c| c == to) {
                    Some(i) => {
                        let mut moved = cells.clone();
                        moved[i] = blank;
                        (moved, 1)
                    }
                    None => (cells.clone(), 0),
                };
                let key = (next, to);
                if dist.get(&key).is_none_or(|&old| old > d + cost) {
                    dist.insert(key.clone(), d + cost);
                    if cost == 0 {
                        queue.push_front(key);
                    } else {
                        queue.push_back(key);
                    }
                }
            }
        }
        dist
    }

    fn specs() -> Vec<PatternSpec> {
        [
            (3, 3, 8, vec![0, 1, 2, 3]),
            (3, 3, 0, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (4, 3, 0, vec![1, 5, 6]),
            (2, 4, 7, vec![0, 3, 4]),
            (4, 2, 3, vec![0, 1, 2, 4, 5]),
            (4, 4, 0, vec![1, 2]),
            (5, 2, 9, vec![0]),
            (2, 5, 0, vec![9, 8, 7, 6, 5, 4, 3, 2, 1]),
        ]
        .into_iter()
        .map(|(w, h, b, cells)| PatternSpec::new(w, h, b, cells).unwrap())
        .collect()
    }

    #[test]
    fn the_search_agrees_with_a_plain_breadth_first_search() {
        for spec in specs() {
            let dist = reference(&spec);
            let mut best: HashMap<&[usize], u32> = HashMap::new();
            for ((cells, _), &d) in &dist {
                let b = best.entry(cells.as_slice()).or_insert(d);
                *b = (*b).min(d);
            }
            let n = spec.board_cells();
            for (threads, chunk) in [(1, 0), (2, 1), (2, 3)] {
                let db = build_in_chunks(&spec, threads, None, &Limits::none(), chunk).unwrap();
                let zero_aware = spec.clone().zero_aware();
                let zdb =
                    build_in_chunks(&zero_aware, threads, None, &Limits::none(), chunk).unwrap();
                assert_eq!(db.entries(), spec.entries());
                let mut cells = vec![0; spec.cells.len()];
                for i in 0..spec.entries() {
                    index::unrank(i, n, &mut cells);
                    let taken = cells.iter().fold(0u64, |t, &c| t | 1 << c);
                    match best.get(cells.as_slice()) {
                        Some(&d) => assert_eq!(
                            db.value(&cells, 0),
                            d,
                            "{spec} {cells:?} threads {threads} chunk {chunk}"
                        ),
                        // Unreachable (a full pattern of the other parity): excess 0.
                        None => assert_eq!(db.excess(i), 0, "{spec} {cells:?}"),
                    }
                    // The zero-aware table: the distance from each cell of the blank.
                    for blank in (0..n).filter(|&b| taken & (1 << b) == 0) {
                        if let Some(&d) = dist.get(&(cells.clone(), blank)) {
                            assert_eq!(
                                zdb.value(&cells, blank),
                                d,
                                "{zero_aware} {cells:?} blank {blank} threads {threads}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn entries_are_ranked_as_the_search_lays_them_out() {
        for spec in specs() {
            let k = spec.cells.len();
            let layout = Layout::new(spec.width, spec.height, k);
            let n = spec.board_cells();
            let mut cells = vec![0; k];
            let mut seen = vec![false; (layout.subsets.count * layout.per_set) as usize];
            for i in 0..spec.entries() {
                index::unrank(i, n, &mut cells);
                let taken = cells.iter().fold(0u64, |t, &c| t | 1 << c);
                let e = entry_of(&layout, &cells, taken);
                let set = e / layout.per_set;
                assert_eq!(layout.subsets.unrank(set), taken);
                let mut order = vec![0u8; k];
                layout.perms.unrank(e % layout.per_set, &mut order);
                let mut by_cell: Vec<(usize, u8)> = cells
                    .iter()
                    .enumerate()
                    .map(|(t, &c)| (c, t as u8))
                    .collect();
                by_cell.sort_unstable();
                assert_eq!(order, by_cell.iter().map(|&(_, t)| t).collect::<Vec<_>>());
                assert!(!seen[e as usize]);
                seen[e as usize] = true;
            }
        }
    }

    #[test]
    fn bit_squares_transpose() {
        let mut a = [0u64; 64];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for row in a.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *row = x;
        }
        let mut t = a;
        transpose64(&mut t);
        for (r, row) in a.iter().enumerate() {
            for (c, column) in t.iter().enumerate() {
                assert_eq!((column >> r) & 1, (row >> c) & 1, "row {r} column {c}");
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
            max = max.max(db.value(&cells, 0));
        }
        // The two hardest 8-puzzle positions need 31 moves.
        assert_eq!(max, 31);
    }
}
