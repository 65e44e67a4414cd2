//! Runs every example of the README: in each ```console block, a line `$ taquin ARGS` is run, and
//! the lines that follow it (up to the next `$` line or the end of the block) must appear in its
//! output in the same order, and its exit status must be the one its output implies (2 after an
//! `error:` line, 1 after `unsolvable:`, `invalid:` or a cycling player, 0 otherwise). Times vary from run to
//! run, so time figures (`12.3 ms`, `1.2 s;`, `"time_ms":0.05`, `32.7 M nodes/s`) are masked on
//! both sides; everything else on a line must match.

mod common;
use common::taquin;

/// Splits a command line into words, honouring double and single quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// Collapses white space and masks time figures, so a line compares on what is reproducible.
fn normalise(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let is_number = words[i].parse::<f64>().is_ok();
        let unit = words
            .get(i + 1)
            .map(|u| u.trim_end_matches([',', ';', ')']));
        if is_number && matches!(unit, Some("ms" | "s")) {
            out.push("<time>".into());
            i += 2;
            continue;
        }
        // A rate: `32.7 M nodes/s`.
        let rate_unit = words
            .get(i + 2)
            .map(|u| u.trim_end_matches([',', ';', ')']));
        if is_number && words.get(i + 1) == Some(&"M") && rate_unit == Some("nodes/s") {
            out.push("<rate>".into());
            i += 3;
            continue;
        }
        // How many instances ran at once: the machine's cores.
        if is_number && words.get(i + 1) == Some(&"at") && words.get(i + 2) == Some(&"once") {
            out.push("<jobs>".into());
            i += 1;
            continue;
        }
        out.push(mask_json_time(words[i]));
        i += 1;
    }
    out.join(" ")
}

/// Replaces the number after `"time_ms":` in a JSON word.
fn mask_json_time(word: &str) -> String {
    const KEY: &str = "\"time_ms\":";
    match word.find(KEY) {
        Some(at) => {
            let start = at + KEY.len();
            let rest = &word[start..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
                .unwrap_or(rest.len());
            format!("{}<time>{}", &word[..start], &rest[end..])
        }
        None => word.to_string(),
    }
}

#[test]
fn readme_examples_run_as_documented() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let mut in_block = false;
    let mut examples: Vec<(String, Vec<String>)> = Vec::new();
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_block = line.trim() == "```console";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ ") {
            examples.push((cmd.to_string(), Vec::new()));
        } else if let Some((_, expected)) = examples.last_mut() {
            expected.push(line.to_string());
        }
    }
    let taquin_examples: Vec<_> = examples
        .iter()
        .filter(|(c, _)| c.starts_with("taquin "))
        .collect();
    assert!(
        taquin_examples.len() >= 4,
        "the README should show at least four taquin examples"
    );
    for (cmd, expected) in taquin_examples {
        let args = words(cmd);
        assert!(
            !cmd.contains('|'),
            "README examples must not use pipes: {cmd}"
        );
        // Examples are written as run from the repository root.
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let out = taquin()
            .current_dir(root)
            .args(&args[1..])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let status = if expected.iter().any(|l| l.starts_with("error:")) {
            2
        } else if expected.iter().any(|l| {
            ["unsolvable:", "invalid:", "the player cycles"]
                .iter()
                .any(|p| l.starts_with(p))
        }) {
            1
        } else {
            0
        };
        assert_eq!(
            out.status.code(),
            Some(status),
            "README example `{cmd}` exited with {:?}, its output implies {status}:\n{text}",
            out.status.code()
        );
        let mut lines = text.lines();
        for want in expected.iter().filter(|l| !l.trim().is_empty()) {
            assert!(
                lines.any(|got| normalise(got) == normalise(want)),
                "README example `{cmd}`: expected line\n  {want}\nnot found (in order) in its output:\n{text}"
            );
        }
    }
}

#[test]
fn normalise_masks_times_only() {
    assert_eq!(
        normalise("     2     55     55     ok        1,505,593      82.1 ms"),
        "2 55 55 ok 1,505,593 <time>"
    );
    assert_eq!(
        normalise(r#"{"length":2,"time_ms":0.055484}"#),
        r#"{"length":2,"time_ms":<time>}"#
    );
    assert_ne!(normalise("31 moves"), normalise("30 moves"));
}

#[test]
fn words_honours_quotes() {
    assert_eq!(
        words(r#"taquin solve "6 4 7/8 5 0/3 2 1" -H 'linear-conflict'"#),
        [
            "taquin",
            "solve",
            "6 4 7/8 5 0/3 2 1",
            "-H",
            "linear-conflict"
        ]
    );
}
