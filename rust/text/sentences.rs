//! Sentence splitting of a model's thinking text.
//!
//! The sentences tile the text: the first starts at 0, each starts where the previous ends, the
//! last ends at `text.len()`. A sentence is its content plus the whitespace after it (leading
//! whitespace of the text belongs to the first sentence), so every character of the thinking is
//! in exactly one sentence and spans map back to bytes, characters and tokens. `content_end` is
//! the end of the last non-whitespace character: the reasoning anchor is the character before it.
//!
//! A sentence ends
//! - at a line break (`\n`, `\r`), so headings, list items, `**Final Answer**` lines and display
//!   formulas on their own lines are sentences of their own;
//! - after a terminator run: `.`, `!` or `?` followed by any of `.!?)]"'*”’` and the CJK marks
//!   below (so `?!`, `...`, `.)`, `."` and `.**` stay with their sentence), when whitespace,
//!   the end of the text or a special token's `<|` follows the run (gpt-oss ends a message's
//!   last sentence with `<|end|>`, and a tool call may follow it inside the thinking);
//! - after a run that starts with or holds a CJK full stop, exclamation or question mark
//!   (`。`, `！`, `？`; closing `」』）` join the run), whatever follows: Chinese and Japanese put no
//!   space between sentences.
//!
//! It never ends
//! - inside a math region ([`crate::text::math_regions`]): line breaks and terminators there are
//!   part of the formula;
//! - inside a number: `3.14` has no whitespace after the dot;
//! - after an abbreviation ([`ABBREVIATIONS`], case-insensitive, not glued to a preceding word
//!   character). Two words are also ordinary sentence ends and are judged by what follows:
//!   `etc.` continues the sentence unless whitespace and an upper-case ASCII letter follow
//!   ("..., etc. Then"), and `No.` continues it only before whitespace and a digit ("No. 5"):
//!   in traces "No." is mostly an answer ("Is 7 a divisor? No.");
//! - after a list label at the start of a line: optional blanks and Markdown markers
//!   (`#>*+-`), then `1.`..`999.`, a single letter `a.`, a roman numeral of `i`/`v`/`x` up to
//!   five letters (`iv.`), or `Step 3.` / `Case 2.` / `Part 1.`. A label names the item that
//!   follows; on its own it is not a sentence and holds no answer. ("Step 3." in the middle of a
//!   line is left alone: "... this is case 2. Now ..." is a real sentence end.)
//!
//! Time is linear in the length of the text and nothing here can panic on any `&str`.

use crate::text::chars::{is_line_break_byte, skip_space, space_at, trim_space_back, word_boundary_before};
use crate::text::math_regions::{math_regions, MathRegion};

/// How a special token such as gpt-oss's `<|end|>` starts: after a terminator run it ends the
/// sentence as white space does.
const SPECIAL_TOKEN_START: &[u8] = b"<|";

/// Bounds on how far a math region may reach (see [`crate::text::math_regions`]). A region
/// longer than its bound is not math: its opener is read as literal text. The bounds only back
/// up the blank-line rule (no region contains a blank line), which already confines a stray
/// opener to its paragraph. Measured without bounds on the 2,921 shared traces, the longest
/// regions are 0.6 KB inline, 0.4 KB display and 0.2 KB boxed; the defaults leave a wide margin
/// for long matrices and alignments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SplitOptions {
    /// Longest `$...$` or `\(...\)` region, in bytes, delimiters included.
    pub max_inline_bytes: usize,
    /// Longest `$$...$$`, `\[...\]` or `\begin{env}...\end{env}` region, in bytes.
    pub max_display_bytes: usize,
    /// Longest `\boxed{...}` or `\fbox{...}` region, in bytes.
    pub max_boxed_bytes: usize,
}

impl SplitOptions {
    pub const DEFAULT_MAX_INLINE_BYTES: usize = 4 * 1024;
    pub const DEFAULT_MAX_DISPLAY_BYTES: usize = 16 * 1024;
    pub const DEFAULT_MAX_BOXED_BYTES: usize = 4 * 1024;
}

impl Default for SplitOptions {
    fn default() -> Self {
        SplitOptions {
            max_inline_bytes: Self::DEFAULT_MAX_INLINE_BYTES,
            max_display_bytes: Self::DEFAULT_MAX_DISPLAY_BYTES,
            max_boxed_bytes: Self::DEFAULT_MAX_BOXED_BYTES,
        }
    }
}

/// One sentence: byte offsets into the text, `start <= content_end <= end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sentence {
    pub start: usize,
    /// Exclusive; equals the next sentence's `start` (or the text length).
    pub end: usize,
    /// End of the last non-whitespace character. Equals `start` only when the whole text is
    /// whitespace (it is then one sentence without content).
    pub content_end: usize,
}

/// Words whose trailing `.` never ends a sentence, compared ASCII-case-insensitively and only
/// when no word character precedes them. `etc` and `no` are handled separately (see the module
/// documentation).
pub const ABBREVIATIONS: &[&str] = &["approx", "cf", "dr", "e.g", "eq", "fig", "i.e", "mr", "mrs", "vs"];

/// Splits `text` into sentences (see the module documentation for the rules).
pub fn split_sentences(text: &str, opts: &SplitOptions) -> Vec<Sentence> {
    split_sentences_around(text, &math_regions(text, opts))
}

/// Splits `text` given its math regions (ascending, non-overlapping, as [`math_regions`]
/// returns them), for callers that need the regions too.
pub fn split_sentences_around(text: &str, regions: &[MathRegion]) -> Vec<Sentence> {
    let bytes = text.as_bytes();
    let n = bytes.len();
    if n == 0 {
        return Vec::new();
    }
    // Traces average one sentence per ~42 bytes, and the long ones that end truncated (often
    // in short repeated lines) one per ~29: reserve enough to rarely grow.
    let mut out = Vec::with_capacity(n / 24 + 1);
    let mut start = 0;
    // Breaks inside the leading whitespace would leave the first sentence without content.
    let mut i = skip_space(text, 0);
    let mut r = 0;
    let mut stops = StopFinder::new(bytes);
    while let Some(p) = stops.next(i) {
        // Candidates only move forward, so regions that end before this one never matter again.
        while r < regions.len() && regions[r].end <= p {
            r += 1;
        }
        if let Some(region) = regions.get(r) {
            if region.start <= p {
                i = region.end;
                r += 1;
                continue;
            }
        }
        if bytes[p] >= 0xE3 && cjk_terminator_len(bytes, p) == 0 {
            // Another character of those blocks (`、`, `，`, kana, emoji): not a stop.
            i = p + 1;
            continue;
        }
        let break_at = if is_line_break_byte(bytes[p]) {
            p
        } else {
            let (j, cjk) = terminator_run(bytes, p);
            if cjk
                || ((j == n || space_at(text, j) || bytes[j..].starts_with(SPECIAL_TOKEN_START))
                    && !dot_continues_sentence(text, p))
            {
                j
            } else {
                // Every later terminator in the run ends at the same `j`: skip the run.
                i = j;
                continue;
            }
        };
        let next = skip_space(text, break_at);
        if next >= n {
            break;
        }
        out.push(Sentence { start, end: next, content_end: trim_space_back(text, break_at, start) });
        start = next;
        i = next;
    }
    out.push(Sentence { start, end: n, content_end: trim_space_back(text, n, start) });
    out
}

/// Finds terminators and line breaks (`.`, `!`, `?`, `\n`, `\r`) and the lead bytes of the CJK
/// marks (any byte from 0xE3 up: the few others are rejected by the caller), one 64-byte block
/// at a time: each block becomes a bit mask, whose set bits are the candidates in order.
///
/// Why blocks rather than `memchr3` from each candidate to the next: a trace has a candidate
/// every 16 bytes or so, and each search paid a call and a short-haystack start-up (about 40
/// instructions) plus two more searches for the rarer bytes; a block's mask costs a few dozen
/// instructions for 64 bytes, whatever it holds (AVX2 compares where the CPU has them).
struct StopFinder<'t> {
    bytes: &'t [u8],
    /// Offset of the block held (a multiple of 64).
    base: usize,
    /// Candidates of that block not yet passed: bit `k` is byte `base + k`.
    mask: u64,
    /// Whether the CPU has AVX2, asked once per text ([`cpu_has_avx2`]).
    avx2: bool,
}

impl<'t> StopFinder<'t> {
    fn new(bytes: &'t [u8]) -> Self {
        let avx2 = cpu_has_avx2();
        StopFinder { bytes, base: 0, mask: stop_mask(bytes, 0, avx2), avx2 }
    }

    /// First candidate at or after `from` (`from` must not decrease from one call to the next).
    #[inline(always)]
    fn next(&mut self, from: usize) -> Option<usize> {
        let n = self.bytes.len();
        if from >= self.base {
            if from - self.base >= 64 {
                // Jumped past the block (over a math region or a long run): load `from`'s.
                if from >= n {
                    return None;
                }
                self.base = from & !63;
                self.mask = stop_mask(self.bytes, self.base, self.avx2);
            }
            self.mask &= u64::MAX << (from - self.base);
        }
        while self.mask == 0 {
            self.base += 64;
            if self.base >= n {
                return None;
            }
            self.mask = stop_mask(self.bytes, self.base, self.avx2);
        }
        Some(self.base + self.mask.trailing_zeros() as usize)
    }
}

/// Whether the CPU has AVX2 (never outside x86-64).
fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Bit `k` set when byte `base + k` is `.`, `!`, `?`, `\n`, `\r` or at least 0xE3, for the 64
/// bytes from `base` (fewer at the end of the text; the rest count as NUL). `avx2` (only
/// where [`cpu_has_avx2`]) takes the AVX2 compares.
#[inline]
fn stop_mask(bytes: &[u8], base: usize, avx2: bool) -> u64 {
    match bytes.get(base..base + 64).and_then(|b| <&[u8; 64]>::try_from(b).ok()) {
        Some(block) => block_stop_mask(block, avx2),
        None => {
            let tail = &bytes[base.min(bytes.len())..];
            let mut block = [0u8; 64];
            block[..tail.len()].copy_from_slice(tail);
            block_stop_mask(&block, avx2)
        }
    }
}

#[inline(always)]
fn block_stop_mask(block: &[u8; 64], avx2: bool) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if avx2 {
        // SAFETY: `avx2` is true only when the CPU has AVX2 (`stop_mask`'s contract).
        return unsafe { block_stop_mask_avx2(block) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = avx2;
    block_stop_mask_portable(block)
}

/// [`block_stop_mask`] with AVX2: five compares and an unsigned maximum per 32 bytes, packed
/// into 32 bits by `vpmovmskb` (the portable version packs eight flag lanes and transposes
/// them).
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn block_stop_mask_avx2(block: &[u8; 64]) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };
    let mut mask = 0u64;
    for j in 0..2 {
        // Bytes 32j..32j+32 lie inside the 64-byte block; the load is unaligned.
        let v = _mm256_loadu_si256(block.as_ptr().add(32 * j).cast::<__m256i>());
        let is = |b: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8));
        // `max(v, 0xE3) == v` exactly when `v >= 0xE3` (unsigned).
        let high = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(0xE3u8 as i8)), v);
        let stop = _mm256_or_si256(
            _mm256_or_si256(_mm256_or_si256(is(b'.'), is(b'!')), _mm256_or_si256(is(b'?'), is(b'\n'))),
            _mm256_or_si256(is(b'\r'), high),
        );
        mask |= u64::from(_mm256_movemask_epi8(stop) as u32) << (32 * j);
    }
    mask
}

/// [`block_stop_mask`] without SIMD intrinsics. On x86-64 it is the fallback for a CPU without
/// AVX2 and stays out of the splitting loop, whose registers it would crowd (inlined there it
/// cost the AVX2 path 2.5k instructions per trace); elsewhere it is the only version.
#[cfg_attr(target_arch = "x86_64", inline(never))]
#[cfg_attr(not(target_arch = "x86_64"), inline(always))]
fn block_stop_mask_portable(block: &[u8; 64]) -> u64 {
    // A loop the compiler vectorises: byte `8j + k` puts its flag in bit `j` of flags[8j + k]...
    let mut flags = [0u8; 64];
    for (i, (f, &b)) in flags.iter_mut().zip(block).enumerate() {
        let stop = matches!(b, b'.' | b'!' | b'?' | b'\n' | b'\r') | (b >= 0xE3);
        *f = u8::from(stop) << (i / 8);
    }
    // ... so OR-ing the eight 8-byte lanes gives byte `k`, bit `j` = flag of byte `8j + k`,
    let quarter = |q: usize| {
        let mut sixteen = [0u8; 16];
        sixteen.copy_from_slice(&flags[16 * q..16 * q + 16]);
        u128::from_le_bytes(sixteen)
    };
    let halves = quarter(0) | quarter(1) | quarter(2) | quarter(3);
    let x = halves as u64 | (halves >> 64) as u64;
    // ... and transposing that 8x8 bit matrix puts it at bit `8j + k`.
    transpose8(x)
}

/// Transposes the 8x8 bit matrix held in `x` (row `r` is byte `r`): bit `8r + c` goes to bit
/// `8c + r`. Three rounds of swapping off-diagonal blocks (Hacker's Delight, 7-3).
#[inline(always)]
fn transpose8(x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    let x = x ^ t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    let x = x ^ t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Length of the CJK full stop, exclamation or question mark (`。`, `！`, `？`) at `p`, else 0.
fn cjk_terminator_len(bytes: &[u8], p: usize) -> usize {
    match bytes.get(p..p + 3) {
        Some([0xE3, 0x80, 0x82] | [0xEF, 0xBC, 0x81 | 0x9F]) => 3,
        _ => 0,
    }
}

/// Length of a character at `p` that extends a terminator run: a CJK terminator or a closing
/// `」`, `』`, `）`, `’`, `”`; else 0.
fn cjk_run_len(bytes: &[u8], p: usize) -> usize {
    match bytes.get(p..p + 3) {
        Some([0xE3, 0x80, 0x82 | 0x8D | 0x8F] | [0xEF, 0xBC, 0x81 | 0x9F | 0x89] | [0xE2, 0x80, 0x99 | 0x9D]) => 3,
        _ => 0,
    }
}

/// End of the terminator run that starts at `p` (terminators, closing brackets and quotes, `*`,
/// and the CJK marks), and whether it holds a CJK terminator.
fn terminator_run(bytes: &[u8], p: usize) -> (usize, bool) {
    let mut j = p;
    let mut cjk = false;
    loop {
        match bytes.get(j) {
            Some(b'.' | b'!' | b'?' | b')' | b']' | b'"' | b'\'' | b'*') => j += 1,
            _ => {
                let len = cjk_run_len(bytes, j);
                if len == 0 {
                    return (j, cjk);
                }
                cjk |= cjk_terminator_len(bytes, j) > 0;
                j += len;
            }
        }
    }
}

/// Whether the terminator run starting at `p` (followed by whitespace or the end) keeps the
/// sentence going: the dot of an abbreviation or of a line-start list label.
fn dot_continues_sentence(text: &str, p: usize) -> bool {
    let bytes = text.as_bytes();
    bytes.get(p) == Some(&b'.') && (is_label_dot(bytes, p) || ends_abbreviation(text, p))
}

/// Whether the ASCII word `word` ends at byte `p` (case-insensitive) with no word character
/// before it.
fn word_ends_at(text: &str, p: usize, word: &str) -> bool {
    let bytes = text.as_bytes();
    // Equal bytes are ASCII, so `p - word.len()` is a char boundary.
    p >= word.len()
        && bytes[p - word.len()..p].eq_ignore_ascii_case(word.as_bytes())
        && word_boundary_before(text, p - word.len())
}

/// Whether whitespace starts at `i` and the first character after it satisfies `pred`.
fn next_word_starts_with(text: &str, i: usize, pred: impl Fn(u8) -> bool) -> bool {
    if !space_at(text, i) {
        return false;
    }
    text.as_bytes().get(skip_space(text, i)).is_some_and(|&b| pred(b))
}

fn ends_abbreviation(text: &str, dot: usize) -> bool {
    let last = if dot > 0 { text.as_bytes()[dot - 1].to_ascii_lowercase() } else { 0 };
    match last {
        b'c' => word_ends_at(text, dot, "etc") && !next_word_starts_with(text, dot + 1, |b| b.is_ascii_uppercase()),
        b'o' => word_ends_at(text, dot, "no") && next_word_starts_with(text, dot + 1, |b| b.is_ascii_digit()),
        // The cheap test on the last letter first: most dots follow a letter no abbreviation
        // ends in.
        _ => {
            last.is_ascii_lowercase()
                && ABBREVIATION_ENDS >> (last - b'a') & 1 == 1
                && ABBREVIATIONS.iter().any(|a| a.as_bytes().last() == Some(&last) && word_ends_at(text, dot, a))
        }
    }
}

/// Bit `c - b'a'` is set when an abbreviation of [`ABBREVIATIONS`] ends in the letter `c`.
const ABBREVIATION_ENDS: u32 = {
    let mut ends = 0;
    let mut k = 0;
    while k < ABBREVIATIONS.len() {
        let word = ABBREVIATIONS[k].as_bytes();
        ends |= 1 << (word[word.len() - 1] - b'a');
        k += 1;
    }
    ends
};

/// Number of bytes before `end` (at most `max`) that satisfy `pred`.
fn count_back(bytes: &[u8], end: usize, max: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes[..end].iter().rev().take(max).take_while(|&&b| pred(b)).count()
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Whether only blanks and Markdown markers (`[ \t]*([#>*+-]+[ \t]*)?`) separate offset `t`
/// from the start of its line.
fn at_line_prefix(bytes: &[u8], t: usize) -> bool {
    let mut k = t - count_back(bytes, t, usize::MAX, is_blank);
    let marks = count_back(bytes, k, usize::MAX, |b| matches!(b, b'#' | b'>' | b'*' | b'+' | b'-'));
    if marks > 0 {
        k -= marks;
        k -= count_back(bytes, k, usize::MAX, is_blank);
    }
    k == 0 || is_line_break_byte(bytes[k - 1])
}

/// Whether the `.` at `dot` closes a list label at the start of a line (see the module docs).
fn is_label_dot(bytes: &[u8], dot: usize) -> bool {
    let digits = count_back(bytes, dot, 4, |b| b.is_ascii_digit());
    if digits > 3 {
        return false;
    }
    if digits > 0 {
        let number = dot - digits;
        if at_line_prefix(bytes, number) {
            return true;
        }
        let gap = count_back(bytes, number, usize::MAX, is_blank);
        let word_end = number - gap;
        if gap == 0 || count_back(bytes, word_end, 5, |b| b.is_ascii_alphabetic()) != 4 {
            return false;
        }
        let word = &bytes[word_end - 4..word_end];
        let is_step = [&b"step"[..], b"case", b"part"].iter().any(|w| word.eq_ignore_ascii_case(w));
        return is_step && at_line_prefix(bytes, word_end - 4);
    }
    // A single letter or up to five roman letters, and no other letter before them. Most dots
    // follow a longer word: rejected by its last two letters, with no run to count.
    let is_letter = |k: usize| k > 0 && bytes[k - 1].is_ascii_alphabetic();
    if !is_letter(dot) {
        return false;
    }
    let roman = count_back(bytes, dot, 6, |b| matches!(b | 0x20, b'i' | b'v' | b'x'));
    let letters = roman.max(1);
    letters <= 5 && !is_letter(dot - letters) && at_line_prefix(bytes, dot - letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        split_sentences(text, &SplitOptions::default()).iter().map(|s| &text[s.start..s.end]).collect()
    }

    fn contents(text: &str) -> Vec<&str> {
        split_sentences(text, &SplitOptions::default()).iter().map(|s| &text[s.start..s.content_end]).collect()
    }

    #[test]
    fn cjk_marks_end_sentences_without_spaces() {
        assert_eq!(
            split("所以答案是5。然后验证一下！对吗？是的"),
            vec!["所以答案是5。", "然后验证一下！", "对吗？", "是的"]
        );
        // Closing marks join the run; other marks of the same blocks are no stops.
        assert_eq!(split("他说：“好。”我们继续（见下）。」结束"), vec!["他说：“好。”", "我们继续（见下）。」", "结束"]);
        assert_eq!(split("x、y，z；算完"), vec!["x、y，z；算完"]);
        // Mixed with ASCII runs, and never inside math.
        assert_eq!(split("So x = 5.。Next"), vec!["So x = 5.。", "Next"]);
        assert_eq!(split("求 $a。b$ 的值。好"), vec!["求 $a。b$ 的值。", "好"]);
        assert_eq!(split("答案是 5。 Then we check."), vec!["答案是 5。 ", "Then we check."]);
    }

    #[test]
    fn empty_and_blank_texts() {
        assert!(split_sentences("", &SplitOptions::default()).is_empty());
        assert_eq!(
            split_sentences("  \n ", &SplitOptions::default()),
            vec![Sentence { start: 0, end: 4, content_end: 0 }]
        );
    }

    #[test]
    fn terminators_and_line_breaks() {
        assert_eq!(split("Hi. How are you? Fine!"), vec!["Hi. ", "How are you? ", "Fine!"]);
        assert_eq!(split("one\ntwo\n\n\nthree  "), vec!["one\n", "two\n\n\n", "three  "]);
        assert_eq!(contents("  lead. tail  \n"), vec!["  lead.", "tail"]);
        assert_eq!(split("no space.after"), vec!["no space.after"]);
    }

    #[test]
    fn a_special_token_after_a_terminator_ends_the_sentence() {
        let text = "So it is 42.<|end|><|start|>assistant<|channel|>commentary<|message|>print(42)<|call|>";
        assert_eq!(contents(text)[0], "So it is 42.");
        assert_eq!(split(text).concat(), text);
        // Not without the terminator, nor `<` alone.
        assert_eq!(split("So it is 42<|end|> ok."), vec!["So it is 42<|end|> ok."]);
        assert_eq!(split("a.<b. c"), vec!["a.<b. ", "c"]);
        assert_eq!(split("See e.g.<|end|>x").len(), 1, "an abbreviation still continues");
    }

    #[test]
    fn terminator_runs_stay_with_their_sentence() {
        assert_eq!(
            split("Really?! Yes... Sure.) Then.\" So.** Done.’ End”"),
            vec!["Really?! ", "Yes... ", "Sure.) ", "Then.\" ", "So.** ", "Done.’ ", "End”"]
        );
        assert_eq!(split("a.b.c. d"), vec!["a.b.c. ", "d"]);
    }

    #[test]
    fn never_inside_numbers() {
        assert_eq!(split("Pi is 3.14 and e is 2.718. Next."), vec!["Pi is 3.14 and e is 2.718. ", "Next."]);
        assert_eq!(split("Costs $1,000.50 today. Ok"), vec!["Costs $1,000.50 today. ", "Ok"]);
    }

    #[test]
    fn abbreviations() {
        assert_eq!(
            split("Use e.g. this, i.e. that, vs. them, approx. 3, cf. Fig. 2 and Eq. 5 now."),
            vec!["Use e.g. this, i.e. that, vs. them, approx. 3, cf. Fig. 2 and Eq. 5 now."]
        );
        assert_eq!(split("Dr. Who met Mr. X and Mrs. Y. Then"), vec!["Dr. Who met Mr. X and Mrs. Y. ", "Then"]);
        assert_eq!(
            split("Item No. 5 is it. Is 7 even? No. It is odd."),
            vec!["Item No. 5 is it. ", "Is 7 even? ", "No. ", "It is odd."]
        );
        assert_eq!(
            split("apples, etc. and pears, etc. Then more."),
            vec!["apples, etc. and pears, etc. ", "Then more."]
        );
        // Word-bounded: "avs." and "piano." are ordinary words.
        assert_eq!(split("avs. x piano. y"), vec!["avs. ", "x piano. ", "y"]);
        assert_eq!(split("E.G. this"), vec!["E.G. this"]);
        for a in ABBREVIATIONS {
            let text = format!("See {a}. and {}. then", a.to_uppercase());
            assert_eq!(split(&text), vec![text.as_str()], "{a}");
        }
    }

    #[test]
    fn list_labels_at_line_start() {
        assert_eq!(
            split("1. First. 2) second\n12. Twelve.\n  a. alpha\niv. roman\n(iii) third"),
            vec!["1. First. ", "2) second\n", "12. Twelve.\n  ", "a. alpha\n", "iv. roman\n", "(iii) third"]
        );
        assert_eq!(
            split("- 3. bullet\n### Step 2. Add.\n**Case 1.** x\n> B. quoted"),
            vec!["- 3. bullet\n", "### Step 2. Add.\n", "**Case 1.** x\n", "> B. quoted"]
        );
        // Not labels: too many digits, a longer word, a label not at the start of a line.
        assert_eq!(
            split("1234. x\nab. y\nthis is case 2. Now\nmix. z"),
            vec!["1234. ", "x\n", "ab. ", "y\n", "this is case 2. ", "Now\n", "mix. ", "z"]
        );
    }

    #[test]
    fn never_inside_math() {
        assert_eq!(
            split("So $x = 1. y$ holds. And \\(a. b\\) too."),
            vec!["So $x = 1. y$ holds. ", "And \\(a. b\\) too."]
        );
        assert_eq!(
            split("We get:\n\\[\nx = 1.\ny = 2\n\\]\nThus x."),
            vec!["We get:\n", "\\[\nx = 1.\ny = 2\n\\]\n", "Thus x."]
        );
        assert_eq!(
            split("A \\begin{align}a. &b\\\\\nc\\end{align} B. C"),
            vec!["A \\begin{align}a. &b\\\\\nc\\end{align} B. ", "C"]
        );
        assert_eq!(split("Answer: \\boxed{\\{1. 2\\}}. Next"), vec!["Answer: \\boxed{\\{1. 2\\}}. ", "Next"]);
        assert_eq!(split("**Final Answer**\n\\[\n\\boxed{5}\n\\]"), vec!["**Final Answer**\n", "\\[\n\\boxed{5}\n\\]"]);
    }

    #[test]
    fn unbalanced_openers_do_not_swallow_the_text() {
        assert_eq!(
            split("Costs $5. Then $x. More\n\nEnd. $"),
            vec!["Costs $5. ", "Then $x. ", "More\n\n", "End. ", "$"]
        );
        assert_eq!(split("\\[ a. b\n\ncc. d"), vec!["\\[ a. ", "b\n\n", "cc. ", "d"]);
        assert_eq!(split("\\boxed{1. 2\n\n3. x"), vec!["\\boxed{1. ", "2\n\n", "3. x"]);
        assert_eq!(split("\\begin{align} a. b"), vec!["\\begin{align} a. ", "b"]);
        // A stray `$` cannot pull the next line into inline math.
        assert_eq!(split("Find $m+n+p.\nLet $ABCD$ be"), vec!["Find $m+n+p.\n", "Let $ABCD$ be"]);
    }

    #[test]
    fn stop_masks_flag_exactly_the_candidate_bytes() {
        // Every byte value in every position of a block, full blocks and short tails.
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).cycle().take(64 * 9 + 37).collect();
        for base in (0..bytes.len()).step_by(64) {
            let want = bytes[base..].iter().take(64).enumerate().fold(0u64, |m, (k, &b)| {
                m | u64::from(matches!(b, b'.' | b'!' | b'?' | b'\n' | b'\r' | 0xE3..=0xFF)) << k
            });
            assert_eq!(stop_mask(&bytes, base, false), want, "{base}");
            if cpu_has_avx2() {
                assert_eq!(stop_mask(&bytes, base, true), want, "{base}");
            }
        }
        for (k, x) in [1u64, 1 << 9, 1 << 63, 0x0123_4567_89AB_CDEF].into_iter().enumerate() {
            let by_bits = (0..64).filter(|b| x >> b & 1 == 1).fold(0u64, |m, b| m | 1 << ((b % 8) * 8 + b / 8));
            assert_eq!(transpose8(x), by_bits, "{k}");
        }
    }

    #[test]
    fn offsets_are_char_boundaries_with_multibyte_text() {
        let t = "Ça va. 日本語です。 Done? ✓\n😀.";
        let got = split_sentences(t, &SplitOptions::default());
        for s in &got {
            assert!(t.is_char_boundary(s.start) && t.is_char_boundary(s.end) && t.is_char_boundary(s.content_end));
        }
        assert_eq!(split(t), vec!["Ça va. ", "日本語です。 ", "Done? ", "✓\n", "😀."]);
    }
}
