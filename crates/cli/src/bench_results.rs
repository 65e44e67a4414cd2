//! What `taquin bench` keeps beside its own figures: the published node count of each instance
//! (to print and store the ratio), and for a results file the commit, date and CPU of the run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Published node counts by instance id, from a file of `ID NODES` lines (`#` comments, and
/// thousands separators `,` or `_` allowed).
pub fn read_published(path: &Path) -> Result<HashMap<String, u64>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut counts = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(id), Some(nodes), None) = (fields.next(), fields.next(), fields.next()) else {
            anyhow::bail!(
                "{} line {}: expected `ID NODES` (an instance id and its published node count)",
                path.display(),
                i + 1
            );
        };
        let nodes: u64 = nodes.replace([',', '_'], "").parse().with_context(|| {
            format!(
                "{} line {}: {nodes:?} is not a node count",
                path.display(),
                i + 1
            )
        })?;
        // A second count for one instance is a mistake in the file (a pasted line, a wrong
        // id): which one is right cannot be told, so neither is used.
        let (first_line, first) = *counts.entry(id.to_string()).or_insert((i + 1, nodes));
        if first != nodes {
            anyhow::bail!(
                "{} line {}: instance {id} already has a published count at line {first_line} \
                 ({first}, here {nodes}): keep the right one",
                path.display(),
                i + 1
            );
        }
    }
    Ok(counts
        .into_iter()
        .map(|(id, (_, nodes))| (id, nodes))
        .collect())
}

/// The published-counts file that goes with an instance file: `NAME.nodes.txt` beside
/// `NAME.txt` (e.g. `bench/korf24.nodes.txt`), if there is one.
pub fn published_beside(instances: &str) -> Option<PathBuf> {
    let path = Path::new(instances);
    let stem = path.file_stem()?.to_str()?;
    let candidate = path.with_file_name(format!("{stem}.nodes.txt"));
    candidate.is_file().then_some(candidate)
}

/// Where a result came from: the code's commit (`TAQUIN_COMMIT` at run time, else the commit
/// the binary was built from), the date (UTC) and the CPU model.
#[derive(Debug, Clone)]
pub struct RunInfo {
    /// The commit.
    pub commit: String,
    /// The date, `YYYY-MM-DD`.
    pub date: String,
    /// The CPU model as the system names it.
    pub cpu: String,
}

impl RunInfo {
    /// The run's commit, today's date and this machine's CPU.
    pub fn now() -> RunInfo {
        let commit = std::env::var("TAQUIN_COMMIT")
            .ok()
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| env!("TAQUIN_BUILD_COMMIT").to_string());
        let days = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        RunInfo {
            commit,
            date: civil_date(days as i64),
            cpu: cpu_model(),
        }
    }
}

/// The CPU model from `/proc/cpuinfo` ("unknown" elsewhere).
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The proleptic Gregorian date `YYYY-MM-DD` of day `days` after 1970-01-01 (the civil-date
/// conversion by eras of 400 years: 146,097 days each).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(11_017), "2000-03-01");
        assert_eq!(civil_date(20_780), "2026-11-23");
    }

    #[test]
    fn published_counts_are_read_and_bad_lines_refused() {
        // Deleted when dropped, also when an assertion fails.
        let scratch = tempfile::Builder::new()
            .prefix("taquin-published-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        let path = dir.join("x.nodes.txt");
        std::fs::write(&path, "# source\n1 2,031,102,635\n40 65099578\n").unwrap();
        let counts = read_published(&path).unwrap();
        assert_eq!(counts["1"], 2_031_102_635);
        assert_eq!(counts["40"], 65_099_578);
        std::fs::write(&path, "1 many\n").unwrap();
        assert!(read_published(&path).is_err());
        // The same count twice is harmless; two different ones are refused, naming both lines.
        std::fs::write(&path, "1 5\n1 5\n").unwrap();
        assert_eq!(read_published(&path).unwrap()["1"], 5);
        std::fs::write(&path, "1 5\n2 6\n1 5\n1 7\n").unwrap();
        let err = read_published(&path).unwrap_err().to_string();
        assert!(
            err.contains("line 4: instance 1 already has a published count at line 1"),
            "{err}"
        );
        std::fs::write(dir.join("x.txt"), "").unwrap();
        assert_eq!(
            published_beside(dir.join("x.txt").to_str().unwrap()),
            Some(path)
        );
    }
}
