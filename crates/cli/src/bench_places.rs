//! Where `taquin bench --results FILE` keeps the place of each instance's IDA*
//! ([`taquin::search::checkpoint`]): one checkpoint file per instance and heuristic in the
//! directory `FILE` names with the extension `.checkpoints` (`korf24.jsonl` ->
//! `korf24.checkpoints/`), and [`describe`], which `solve --checkpoint` shares. An instance stopped by a limit, by Ctrl-C or by a machine switched
//! off keeps its file; `--resume` solves it again from there; a solved one's file is deleted.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use taquin::instances::Instance;
use taquin::search::{Checkpoint, CheckpointFile};

use crate::common;

/// The checkpoint directory of one results file.
#[derive(Debug, Clone)]
pub struct Places {
    dir: PathBuf,
}

impl Places {
    /// The directory beside the results file `results`.
    pub fn beside(results: &Path) -> Places {
        Places {
            dir: results.with_extension("checkpoints"),
        }
    }

    /// The checkpoint of `inst`'s search with the heuristic named `hname`: its file (named
    /// after both, with anything but letters, digits, `-` and `.` made `_`) and its key (the
    /// board, goal and heuristic, so that the file of another search is never resumed).
    pub fn of(&self, inst: &Instance, hname: &str) -> CheckpointFile {
        let safe = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        };
        let tiles = |b: &taquin::Board| {
            b.tiles()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let key = format!(
            "bench instance {}: {} to {} ({}x{}) with {hname}",
            inst.id,
            tiles(&inst.board),
            tiles(&inst.goal),
            inst.board.width(),
            inst.board.height(),
        );
        let name = format!("{}.{}.txt", safe(&inst.id), safe(hname));
        CheckpointFile::new(self.dir.join(name), &key)
    }

    /// Whether `inst` keeps a place for `hname` (its file exists).
    pub fn kept(&self, inst: &Instance, hname: &str) -> bool {
        self.of(inst, hname).path().exists()
    }

    /// The instance is solved: its file goes, and the directory with the last one.
    pub fn done(&self, inst: &Instance, hname: &str) -> Result<()> {
        let file = self.of(inst, hname);
        file.remove()
            .with_context(|| format!("deleting the checkpoint {}", file.path().display()))?;
        // Not empty (other instances keep their places) or already gone: both fine.
        let _ = std::fs::remove_dir(&self.dir);
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// One line on where a kept search (`what`: "instance 21", "the search") stands, for the
/// user who resumes it.
pub fn describe(what: &str, file: &CheckpointFile, place: &Checkpoint) -> String {
    let within = if place.interlude_under_way() {
        "about to begin, its beams going on from the one that was under way".to_string()
    } else if place.is_unsplit() {
        "about to begin".to_string()
    } else {
        format!(
            "{} of {} subtrees searched",
            common::thousands(place.jobs_done() as u64),
            common::thousands(place.jobs as u64)
        )
    };
    format!(
        "{what}: going on from {} (iteration {} with bound {}, {within}; {} nodes \
         generated in {} so far)",
        file.path().display(),
        place.iterations,
        place.bound,
        common::thousands(place.nodes_so_far().0),
        common::millis(place.elapsed),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn each_instance_and_heuristic_has_its_own_file_and_key() {
        let instances = taquin::instances::parse_file(
            "1 2 1 0 2 3 4 5 6 7 8\n1/a 2 1 0 2 3 4 5 6 7 8\n3 2 3 0 2 1 4 5 6 7 8\n",
        )
        .unwrap();
        let places = Places::beside(Path::new("runs/korf24.jsonl"));
        assert_eq!(places.dir(), Path::new("runs/korf24.checkpoints"));
        let a = places.of(&instances[0], "pdb:zpdb-6-6-6-6+dual");
        assert_eq!(
            a.path(),
            Path::new("runs/korf24.checkpoints/1.pdb_zpdb-6-6-6-6_dual.txt")
        );
        // An id with a slash stays inside the directory.
        let b = places.of(&instances[1], "linear-conflict");
        assert_eq!(
            b.path(),
            Path::new("runs/korf24.checkpoints/1_a.linear-conflict.txt")
        );
        let c = places.of(&instances[2], "linear-conflict");
        assert_ne!(a.key(), places.of(&instances[0], "manhattan").key());
        assert_ne!(b.key(), c.key());
        assert!(c.key().contains("3 0 2 1 4 5 6 7 8 to 0 1 2 3 4 5 6 7 8"));
    }

    #[test]
    fn a_resumed_search_is_described_by_where_it_stands() {
        let file = CheckpointFile::new("r.checkpoints/21.h.txt", "k");
        let unsplit = Checkpoint::unsplit(
            101,
            9,
            (1_500_000_000, 700_000_000),
            &[1; 8],
            Duration::from_secs(600),
        );
        let text = describe("instance 21", &file, &unsplit);
        assert!(
            text.contains("iteration 9 with bound 101, about to begin; 1,500,000,000 nodes"),
            "{text}"
        );
        let mut beams = unsplit.clone();
        beams.interlude = Some("beams bound=101 width=4096".into());
        let text = describe("instance 21", &file, &beams);
        assert!(
            text.contains("bound 101, about to begin, its beams going on from the one that"),
            "{text}"
        );
        let mut under_way = unsplit.clone();
        under_way.jobs = 100;
        under_way.done = vec![0b111];
        let text = describe("instance 21", &file, &under_way);
        assert!(text.contains("3 of 100 subtrees searched"), "{text}");
    }
}
