//! Native micro-benchmark of parse and compare on the real gold answers. Ignored by default
//! (timings are measured, never asserted); run it with
//!
//! ```text
//! APR_FAST_GOLDS_DIR=<benchmarks dir> cargo test --release --lib answer::bench -- --ignored --nocapture
//! ```
//!
//! It reads the benchmark JSON/JSONL files in `APR_FAST_GOLDS_DIR` (a directory of rows with
//! an `answer` field) and prints nanoseconds per call: parsing each gold, and
//! comparing a parsed reference with parsed candidates (itself, a rewriting, a different gold).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use super::{compare, Answer, Judgement, Policy, Verdict};

fn golds() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Some(dir) = std::env::var_os("APR_FAST_GOLDS_DIR") else { return out };
    let dir = Path::new(&dir);
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let rows: Vec<serde_json::Value> = match path.extension().and_then(|e| e.to_str()) {
            Some("json") => serde_json::from_str(&text).unwrap_or_default(),
            Some("jsonl") => text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect(),
            _ => continue,
        };
        for row in rows {
            let answers = match &row["answer"] {
                serde_json::Value::Array(v) => v.clone(),
                other => vec![other.clone()],
            };
            for a in answers {
                let s = match a {
                    serde_json::Value::String(s) => s,
                    serde_json::Value::Number(n) => match n.as_f64() {
                        Some(f) if f.fract() == 0.0 => format!("{}", f as i64),
                        _ => n.to_string(),
                    },
                    _ => continue,
                };
                out.push((name.clone(), s));
            }
        }
    }
    out
}

/// Nanoseconds per call of `f`, the best of several rounds of `iterations` calls.
fn ns_per_call(iterations: usize, mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..iterations {
                f();
            }
            started.elapsed().as_nanos() as f64 / iterations as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn summary(mut values: Vec<f64>) -> String {
    if values.is_empty() {
        return "-".into();
    }
    values.sort_by(f64::total_cmp);
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let q = |p: f64| values[((values.len() - 1) as f64 * p).round() as usize];
    format!(
        "n={:>5}  mean {:>8.0}  median {:>8.0}  p90 {:>8.0}  p99 {:>8.0}",
        values.len(),
        mean,
        q(0.5),
        q(0.9),
        q(0.99)
    )
}

fn is_integer(s: &str) -> bool {
    let t = s.trim().trim_matches('$').trim();
    !t.is_empty() && t.trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
}

#[test]
#[ignore = "benchmark: run with --ignored --nocapture"]
fn micro_benchmark_on_gold_answers() {
    let golds = golds();
    if golds.is_empty() {
        eprintln!("set APR_FAST_GOLDS_DIR to a directory of benchmark JSON/JSONL files: nothing to measure");
        return;
    }
    let policy = Policy::default();
    let parsed: Vec<Answer> = golds.iter().map(|(_, s)| Answer::parse(s)).collect();
    let (mut parse_int, mut parse_other) = (Vec::new(), Vec::new());
    for (_, s) in &golds {
        let ns = ns_per_call(200, || {
            black_box(Answer::parse(black_box(s)));
        });
        if is_integer(s) {
            parse_int.push(ns)
        } else {
            parse_other.push(ns)
        }
    }
    // Rewritings that defeat the canonical-text shortcut, so the value comparison runs.
    let rewritten: Vec<Answer> =
        golds.iter().map(|(_, s)| Answer::parse(&format!("x = {}", s.trim().trim_matches('$')))).collect();
    let (mut same_int, mut same_other, mut diff_int, mut diff_other) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut equal = 0;
    for (i, (_, s)) in golds.iter().enumerate() {
        let other = &parsed[(i + 1) % parsed.len()];
        let ns_same = ns_per_call(2000, || {
            black_box(compare(black_box(&parsed[i]), black_box(&rewritten[i]), &policy));
        });
        let ns_diff = ns_per_call(2000, || {
            black_box(compare(black_box(&parsed[i]), black_box(other), &policy));
        });
        equal += usize::from(compare(&parsed[i], &rewritten[i], &policy).verdict == Verdict::Equal);
        if is_integer(s) {
            same_int.push(ns_same);
            diff_int.push(ns_diff);
        } else {
            same_other.push(ns_same);
            diff_other.push(ns_diff);
        }
    }
    println!("native ns per call on {} gold answers (best of 5 rounds):", golds.len());
    println!("  parse   integer golds       {}", summary(parse_int));
    println!("  parse   other golds         {}", summary(parse_other));
    println!("  compare integer vs `x = n`  {}", summary(same_int));
    println!("  compare other vs `x = ...`  {}", summary(same_other));
    println!("  compare integer vs next     {}", summary(diff_int));
    println!("  compare other vs next       {}", summary(diff_other));
    println!(
        "  (`x = <gold>` is an equal rewriting for {equal} of {} golds; lists, relations and text are the rest)",
        golds.len()
    );
}

/// Answer texts, one per line of the file `APR_FAST_PARSE_TEXTS`: a JSON string, or a JSON
/// array whose last item is the text (empty when the variable is unset).
fn corpus_texts() -> Vec<String> {
    let Some(path) = std::env::var_os("APR_FAST_PARSE_TEXTS") else { return Vec::new() };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", Path::new(&path).display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(serde_json::Value::Array(items)) => {
                items.last().and_then(|v| v.as_str()).unwrap_or_default().to_string()
            }
            _ => panic!("not a JSON string or array: {l}"),
        })
        .collect()
}

/// A parser change that should change no answer, checked on real texts: writes the `Debug` form
/// of every text's [`Answer`] to `APR_FAST_PARSE_DUMP` (one line each) for `cmp` against the
/// dump of the build before; with `APR_FAST_PARSE_ROUNDS=n`, parses the corpus `n` times more
/// (under `valgrind --tool=callgrind`, instructions per parse). See CONTRIBUTING.md.
#[test]
#[ignore = "tool: run with --ignored and APR_FAST_PARSE_TEXTS"]
fn parsed_answers_of_a_corpus() {
    use std::io::Write;
    let texts = corpus_texts();
    if let Some(path) = std::env::var_os("APR_FAST_PARSE_DUMP") {
        let mut out =
            std::io::BufWriter::new(std::fs::File::create(path).expect("APR_FAST_PARSE_DUMP must be writable"));
        for t in &texts {
            writeln!(out, "{:?}", Answer::parse(t)).expect("write the dump");
        }
    }
    let rounds: usize = std::env::var("APR_FAST_PARSE_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(0);
    for _ in 0..rounds {
        for t in &texts {
            black_box(Answer::parse(black_box(t)));
        }
    }
}

/// Where judging a batch's distinct (final answer, accepted answers) pairs goes, by the
/// judgement that decides them: reads `APR_FAST_JUDGE_PAIRS`, one JSON array
/// `[final answer, [accepted answer, ...]]` per line (CONTRIBUTING.md writes it from the real
/// traces), and prints per `(verdict, reason)` the pairs and their nanoseconds, parsing and
/// judging apart, then the `APR_FAST_JUDGE_SHOW` (default 20) slowest pairs. Every timed call
/// parses anew, as a batch does: a parsed answer keeps its values at the evaluation points, so
/// judging a parsed pair again would time a case no batch is in.
#[test]
#[ignore = "tool: run with --ignored --nocapture and APR_FAST_JUDGE_PAIRS"]
fn judged_pairs_by_reason() {
    let Some(path) = std::env::var_os("APR_FAST_JUDGE_PAIRS") else { return };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", Path::new(&path).display()));
    let pairs: Vec<(String, Vec<String>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not [final, [accepted, ...]] ({e}): {l}")))
        .collect();
    let show: usize = std::env::var("APR_FAST_JUDGE_SHOW").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let policy = Policy::default();
    let parse_all = |f: &str, gts: &[String]| {
        (Answer::parse(black_box(f)), gts.iter().map(|g| Answer::parse(black_box(g))).collect::<Vec<_>>())
    };
    // As an outcome batch judges a pair: in order, up to the first equal accepted answer.
    let judge = |a: &Answer, gs: &[Answer]| crate::outcome::judge_alternatives(black_box(a), gs, &policy);
    // (pairs, parse ns, judge ns) per decisive judgement.
    let mut by_reason: std::collections::BTreeMap<String, (usize, f64, f64)> = Default::default();
    let mut slowest: Vec<(f64, String, &str, String)> = Vec::new();
    for (f, gts) in &pairs {
        let parse_ns = ns_per_call(20, || {
            black_box(parse_all(f, gts));
        });
        let total_ns = ns_per_call(20, || {
            let (a, gs) = parse_all(f, gts);
            black_box(judge(&a, &gs));
        });
        let (a, gs) = parse_all(f, gts);
        // The judgement that decides, as `Outcome::correctness` picks it.
        let judgements = judge(&a, &gs);
        let reason = if judgements.is_empty() {
            "nothing to compare".to_string()
        } else {
            let decisive = Judgement::any(judgements);
            format!("{:?} {:?}", decisive.verdict, decisive.reason)
        };
        let judge_ns = (total_ns - parse_ns).max(0.0);
        let entry = by_reason.entry(reason.clone()).or_default();
        entry.0 += 1;
        entry.1 += parse_ns;
        entry.2 += judge_ns;
        slowest.push((judge_ns, reason, f, gts.join(" | ")));
    }
    let (parse_total, judge_total): (f64, f64) = by_reason.values().fold((0.0, 0.0), |(p, j), v| (p + v.1, j + v.2));
    println!(
        "{} distinct pairs: parsing {:.0} µs, judging {:.0} µs in all (best of 5 rounds of 20 calls each)",
        pairs.len(),
        parse_total / 1e3,
        judge_total / 1e3
    );
    println!(
        "{:<40} {:>6} {:>12} {:>12} {:>12}",
        "decisive judgement", "pairs", "parse ns", "judge ns", "judge µs all"
    );
    for (reason, (n, parse_ns, judge_ns)) in &by_reason {
        let n_f = *n as f64;
        println!("{reason:<40} {n:>6} {:>12.0} {:>12.0} {:>12.0}", parse_ns / n_f, judge_ns / n_f, judge_ns / 1e3);
    }
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("the {show} slowest to judge (ns, judgement, final answer, accepted answers):");
    for (ns, reason, f, gts) in slowest.iter().take(show) {
        println!("{ns:>9.0}  {reason:<28} {f:?}  vs  {gts:?}");
    }
}
