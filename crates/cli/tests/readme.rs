//! Runs every example of the README: in each ```console block, a line `$ taquin ARGS` is run, and
//! the lines that follow it (up to the next `$` line or the end of the block) must appear in its
//! output in the same order. Lines that report a time vary from run to run and are skipped.

use assert_cmd::Command;

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
        let out = Command::cargo_bin("taquin")
            .unwrap()
            .args(&args[1..])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lines = text.lines();
        for want in expected
            .iter()
            .filter(|l| !l.trim().is_empty() && !l.contains("time"))
        {
            assert!(
                lines.any(|got| got.trim_end() == want.trim_end()),
                "README example `{cmd}`: expected line\n  {want}\nnot found (in order) in its output:\n{text}"
            );
        }
    }
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
