//! `\boxed{...}` and `\fbox{...}` in a whole response.
//!
//! One pass with a stack of open braces matches every brace, so finding the boxes costs linear
//! time whatever the input (100k unclosed `\boxed{`, 100k-deep braces): no opener rescans the
//! text for its closer. `\{` and `\}` are escaped braces, not groups; `\\` is a line break, so
//! the brace after it is a real one.

use std::ops::Range;

/// One box with balanced braces, or the brace-less form `\boxed 5`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BoxSpan {
    /// Byte of the backslash of `\boxed`.
    pub command_start: usize,
    /// The content, whitespace trimmed (never empty).
    pub content: Range<usize>,
    /// One past the closing brace (or past the brace-less content).
    pub end: usize,
}

const BOX_COMMANDS: [&[u8]; 2] = [b"boxed", b"fbox"];

/// The length of `\boxed` or `\fbox` at `bytes[i..]`, if a box command starts there.
fn box_command_len(bytes: &[u8], i: usize) -> Option<usize> {
    BOX_COMMANDS.iter().find_map(|name| {
        let end = i + 1 + name.len();
        let matches = bytes.get(i + 1..end) == Some(*name) && !bytes.get(end).is_some_and(|b| b.is_ascii_alphabetic());
        matches.then_some(1 + name.len())
    })
}

/// Where the scan for boxes may start: the backslash run holding the first `\\boxed` or
/// `\\fbox` of `range` (found with two SIMD searches), `None` when there is none. Nothing before
/// it changes the result: the scan reaches a backslash run only at its start (so its escapes
/// pair up the same way), and a brace opened earlier lies below every box on the stack, so
/// closing it affects no box.
fn first_box_scan_start(bytes: &[u8], range: &Range<usize>) -> Option<usize> {
    // One search for the "box" both names share, instead of one per name.
    let region = &bytes[range.clone()];
    let first = memchr::memmem::find_iter(region, b"box").find_map(|k| {
        if k >= 1 && region[k - 1] == b'\\' && region[k + 3..].starts_with(b"ed") {
            Some(k - 1)
        } else if k >= 2 && region[k - 2..k] == *b"\\f" {
            Some(k - 2)
        } else {
            None
        }
    })?;
    let mut start = range.start + first;
    while start > range.start && bytes[start - 1] == b'\\' {
        start -= 1;
    }
    Some(start)
}

/// `range` with surrounding whitespace removed.
fn trim_range(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start = range.start + (slice.len() - slice.trim_start().len());
    let end = range.end - (slice.len() - slice.trim_end().len());
    start..end.max(start)
}

/// Whether `b` ends the content of a brace-less box.
pub(crate) fn is_braceless_delimiter(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'$' | b'{' | b'}' | b'\\')
}

/// The content of a brace-less box (`\boxed 5`, `\boxed5`, `\boxed -2.5`): a number, up to
/// white space, `$`, a brace or a backslash, without a trailing `.`, `,` or `;`. Words after
/// `\boxed` ("\boxed wait" in a looping trace) are no answer.
fn braceless_content(bytes: &[u8], from: usize, limit: usize) -> Range<usize> {
    let digit_at = |k: usize| k < limit && bytes[k].is_ascii_digit();
    let sign = usize::from(from < limit && matches!(bytes[from], b'-' | b'+' | b'.'));
    if !digit_at(from + sign) {
        return from..from;
    }
    let mut end = from;
    while end < limit && !is_braceless_delimiter(bytes[end]) {
        end += 1;
    }
    while end > from && matches!(bytes[end - 1], b'.' | b',' | b';') {
        end -= 1;
    }
    from..end
}

/// The outermost non-empty boxes of `text[range]` in order (a box inside another box belongs
/// to the outer one). Unclosed boxes are skipped; a box nested in an unclosed one still counts.
pub(crate) fn outermost_boxes(text: &str, range: Range<usize>) -> Vec<BoxSpan> {
    match first_box_scan_start(text.as_bytes(), &range) {
        Some(start) => outermost_boxes_from(text, range, start).boxes,
        None => Vec::new(),
    }
}

/// The longest text between two boxes of one row (`\boxed{2}, \boxed{3}`).
pub(crate) const MAX_ROW_GAP: usize = 64;

/// The outermost boxes of `text[range]` when they and the rows they form are the same in any
/// region that ends where `range` ends and starts earlier, whatever that earlier text holds;
/// `None` otherwise. `range` must start after a byte that is no backslash (after `</think>`).
/// `thorough`: when the quick test below fails for a `}` near the first box, scan all of
/// `range` rather than answer `None` (what a caller that cannot read the rest cheaply wants;
/// one that can reads the rest, which costs less than the longer scan on real answer sections).
///
/// A scan of the longer region differs only through what starts before `range`:
/// - a brace-less box (`\boxed 8`) running into `range`: its content runs to the first
///   delimiter and holds a digit, so the run of other bytes right before `range` holds one;
/// - a brace opened before `range` and closed by a `}` of it. Closed before the first box of
///   `range`, it can end a box whose row joins that first box; closed after it, it could
///   enclose boxes. So every `}` from the first box on must close a brace opened there, and
///   no `}` may lie within [`MAX_ROW_GAP`] bytes before that box, unless (`thorough`) the scan
///   starts at `range`'s start and every `}` of `range` closes a brace opened in it. (A box
///   opened before `range` and never closed stays unclosed, and a box inside an unclosed one
///   still counts.)
pub(crate) fn self_contained_boxes(text: &str, range: Range<usize>, thorough: bool) -> Option<Vec<BoxSpan>> {
    let start = range.start;
    let bytes = text.as_bytes();
    let run = bytes[..start].iter().rev().take_while(|b| !is_braceless_delimiter(**b));
    if run.clone().any(u8::is_ascii_digit) {
        return None;
    }
    let Some(first_box) = first_box_scan_start(bytes, &range) else { return Some(Vec::new()) };
    let closes_near_first_box =
        memchr::memchr(b'}', &bytes[first_box.saturating_sub(MAX_ROW_GAP + 1).max(start)..first_box]).is_some();
    let scan_start = match (closes_near_first_box, thorough) {
        (false, _) => first_box,
        (true, true) => start,
        (true, false) => return None,
    };
    let scan = outermost_boxes_from(text, range, scan_start);
    (!scan.closes_outside).then_some(scan.boxes)
}

struct BoxScan {
    boxes: Vec<BoxSpan>,
    /// A `}` closed nothing opened in the scanned region.
    closes_outside: bool,
}

/// [`outermost_boxes`], scanning from `start` (in `range`).
fn outermost_boxes_from(text: &str, range: Range<usize>, start: usize) -> BoxScan {
    let mut closes_outside = false;
    let bytes = text.as_bytes();
    // Open braces; the brace that opens a box holds (command start, content start).
    let mut open: Vec<Option<(usize, usize)>> = Vec::new();
    let mut closed: Vec<BoxSpan> = Vec::new();
    let mut i = start;
    while i < range.end {
        // Only `\`, `{` and `}` matter: jump to the next one.
        match memchr::memchr3(b'\\', b'{', b'}', &bytes[i..range.end]) {
            Some(k) => i += k,
            None => break,
        }
        match bytes[i] {
            b'\\' => {
                // `\\boxed` is `\boxed` escaped twice (a JSON string printed raw): as LaTeX it
                // would be a line break and the word "boxed", which no response means.
                let command = box_command_len(bytes, i).or_else(|| {
                    let run_of_two = bytes.get(i + 1) == Some(&b'\\') && (i == 0 || bytes[i - 1] != b'\\');
                    run_of_two.then(|| box_command_len(bytes, i + 1)).flatten().map(|len| len + 1)
                });
                if let Some(len) = command {
                    let mut j = i + len;
                    while j < range.end && bytes[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if j < range.end && bytes[j] == b'{' {
                        open.push(Some((i, j + 1)));
                        i = j + 1;
                        continue;
                    }
                    // A brace-less box takes what follows on the same line: `\boxed 5`, `\boxed5`.
                    let same_line = !bytes[i + len..j].contains(&b'\n');
                    let content = braceless_content(bytes, j, range.end);
                    if same_line && !content.is_empty() && (j > i + len || bytes[j].is_ascii_digit()) {
                        closed.push(BoxSpan { command_start: i, end: content.end, content });
                    }
                    i = j;
                    continue;
                }
                // `\{`, `\}` and `\\` are escapes; any other backslash starts a command name.
                i += if matches!(bytes.get(i + 1), Some(b'{' | b'}' | b'\\')) { 2 } else { 1 };
            }
            b'{' => {
                open.push(None);
                i += 1;
            }
            b'}' => {
                match open.pop() {
                    Some(Some((command_start, content_start))) => {
                        let content = trim_range(text, content_start..i);
                        if !content.is_empty() {
                            closed.push(BoxSpan { command_start, content, end: i + 1 });
                        }
                    }
                    Some(None) => {}
                    None => closes_outside = true,
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    // Closed boxes nest properly; sorted by start, a box inside another starts before the
    // enclosing box has ended.
    closed.sort_by_key(|b| b.command_start);
    let mut outermost: Vec<BoxSpan> = Vec::with_capacity(closed.len());
    for b in closed {
        if outermost.last().map_or(true, |last| b.command_start >= last.end) {
            outermost.push(b);
        }
    }
    BoxScan { boxes: outermost, closes_outside }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(text: &str) -> Vec<&str> {
        outermost_boxes(text, 0..text.len()).iter().map(|b| &text[b.content.clone()]).collect()
    }

    proptest::proptest! {
        #[test]
        fn starting_at_the_first_box_finds_what_a_whole_scan_finds(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "\\boxed", "\\fbox", "\\boxed{", "\\\\", "\\", "{", "}", "\\{", "\\}", " ", "5", "x", "\n", "boxed", "\\fboxed", "box", "f", "ed", "b",
            ]), 0..40),
            cut in 0usize..8,
        ) {
            let text = parts.concat();
            let start = cut.min(text.len());
            proptest::prop_assert_eq!(outermost_boxes(&text, start..text.len()), outermost_boxes_from(&text, start..text.len(), start).boxes);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]
        /// What `self_contained_boxes` finds in a tail is what a scan of the whole text finds
        /// there, whatever comes before the tail (the tail starts after a `>`, as after
        /// `</think>`).
        #[test]
        fn self_contained_boxes_of_a_tail_are_those_of_the_whole(
            head in proptest::collection::vec(proptest::sample::select(vec![
                "\\boxed{", "\\fbox{", "{", "}", "\\", "\\{", "x", " ", "\\boxed{1}", "\\boxed 4", "5",
            ]), 0..12),
            tail in proptest::collection::vec(proptest::sample::select(vec![
                "\\boxed", "\\boxed{", "\\", "\\{", "\\}", "{", "}", " ", "5", ", ", "\\boxed{2}", "\\boxed 3",
            ]), 0..16),
        ) {
            let text = format!("{}>{}", head.concat(), tail.concat());
            let from = head.concat().len() + 1;
            let whole: Vec<BoxSpan> = outermost_boxes(&text, 0..text.len()).into_iter().filter(|b| b.command_start >= from).collect();
            let quick = self_contained_boxes(&text, from..text.len(), false);
            let thorough = self_contained_boxes(&text, from..text.len(), true);
            if let Some(boxes) = &thorough {
                proptest::prop_assert_eq!(boxes, &whole);
            }
            // The thorough scan decides whatever the quick one does, and more.
            if quick.is_some() {
                proptest::prop_assert_eq!(&quick, &thorough);
            }
        }
    }

    #[test]
    fn a_tail_with_a_brace_closed_from_before_is_not_self_contained() {
        let tail = |text: &'static str| (text, text.find('>').unwrap() + 1..text.len());
        let (text, range) = tail("\\boxed{3 >} , \\boxed{4}");
        assert!(self_contained_boxes(text, range.clone(), false).is_none());
        assert!(self_contained_boxes(text, range, true).is_none());
        let (text, range) = tail("x > \\boxed{4}, \\boxed{5}");
        assert_eq!(self_contained_boxes(text, range, false).unwrap().len(), 2);
        // A brace closed just before the first box: the quick test gives up; the thorough scan
        // finds the box when the brace was opened in the tail, not when it closes one from
        // before.
        let (text, range) = tail("\\boxed{1 > so $\\frac{1}{2}$ is \\boxed{4}");
        assert!(self_contained_boxes(text, range.clone(), false).is_none());
        assert_eq!(self_contained_boxes(text, range, true).unwrap().len(), 1);
        let (text, range) = tail("\\boxed{1 > so $x}$ is \\boxed{4}");
        assert!(self_contained_boxes(text, range, true).is_none());
    }

    #[test]
    fn nested_and_escaped_braces() {
        assert_eq!(contents(r"\boxed{\frac{1}{2}}"), vec![r"\frac{1}{2}"]);
        assert_eq!(contents(r"\boxed{\{1, 2\}}"), vec![r"\{1, 2\}"]);
        assert_eq!(contents(r"\boxed{a \\{b} c}"), vec![r"a \\{b} c"]);
        assert_eq!(contents(r"\boxed{\boxed{5}}"), vec![r"\boxed{5}"]);
    }

    #[test]
    fn empty_unclosed_and_braceless() {
        assert!(contents(r"\boxed{} \boxed{  }").is_empty());
        assert_eq!(contents(r"\boxed{3} then \boxed{4"), vec!["3"]);
        assert_eq!(contents(r"\boxed{ \boxed{7} never closed"), vec!["7"]);
        assert_eq!(contents(r"so \boxed 5."), vec!["5"]);
        assert_eq!(contents(r"$\boxed5$"), vec!["5"]);
        assert!(contents("\\boxed\n\n no").is_empty());
        assert!(contents(r"\boxed wait").is_empty());
        assert_eq!(contents(r"\boxed -2.5."), vec!["-2.5"]);
        assert!(contents(r"\boxedfoo{3}").is_empty());
        assert_eq!(contents(r"\fbox{B}"), vec!["B"]);
    }

    #[test]
    fn a_box_escaped_twice_is_a_box() {
        assert_eq!(contents(r"therefore\\boxed{840}."), vec!["840"]);
        assert_eq!(contents(r"\\boxed{\\frac{1}{2}}"), vec![r"\\frac{1}{2}"]);
        assert_eq!(contents(r"\\boxed 5"), vec!["5"]);
        // A line break and then a box; two line breaks and the word "boxed".
        assert_eq!(contents(r"1 \\\boxed{2}"), vec!["2"]);
        assert!(contents(r"1 \\\\boxed{2}").is_empty());
    }

    #[test]
    fn adversarial_inputs_finish() {
        let unclosed = r"\boxed{".repeat(100_000);
        assert!(contents(&unclosed).is_empty());
        let deep = format!(r"\boxed{{{}x{}}}", "{".repeat(100_000), "}".repeat(100_000));
        assert_eq!(contents(&deep).len(), 1);
    }
}
