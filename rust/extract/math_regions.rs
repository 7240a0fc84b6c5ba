//! Delimited math inside a piece of prose: `$..$`, `$$..$$`, `\(..\)` and `\[..\]`.
//!
//! A single `$` opens math only when a non-space follows it and closes only when a non-space
//! precedes it and no digit follows (pandoc's rule), so prices such as "$5 and $6" stay prose.
//! An opener without a closer is literal text, and so is a `$` whose closer lies beyond another
//! `$` ("pay $5, so $x = 5$": the first `$` is a price). `\$`, `\\` and the other backslash pairs are
//! skipped as escapes. One left-to-right pass collects the delimiters and each opener finds its
//! closer through a cursor that only moves forward, so the work is linear in the text length
//! (a lone opener does not rescan the rest of the text).

/// One delimited math region. Offsets are bytes into the scanned text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MathRegion {
    /// First byte of the opening delimiter.
    pub open_start: usize,
    /// First byte of the content (after the opening delimiter).
    pub content_start: usize,
    /// One past the last byte of the content (the closing delimiter starts here).
    pub content_end: usize,
    /// One past the closing delimiter.
    pub close_end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delimiter {
    ParenOpen,
    ParenClose,
    BracketOpen,
    BracketClose,
    DoubleDollar,
    Dollar { can_open: bool, can_close: bool },
}

impl Delimiter {
    fn width(self) -> usize {
        match self {
            Delimiter::Dollar { .. } => 1,
            _ => 2,
        }
    }
}

/// Every unescaped math delimiter of `text`, in order.
fn delimiters(text: &str) -> Vec<(usize, Delimiter)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Only `\\` and `$` matter: jump to the next one.
        match memchr::memchr2(b'\\', b'$', &bytes[i..]) {
            Some(k) => i += k,
            None => break,
        }
        match bytes[i] {
            b'\\' => {
                let delimiter = match bytes.get(i + 1) {
                    Some(b'(') => Some(Delimiter::ParenOpen),
                    Some(b')') => Some(Delimiter::ParenClose),
                    Some(b'[') => Some(Delimiter::BracketOpen),
                    Some(b']') => Some(Delimiter::BracketClose),
                    _ => None,
                };
                if let Some(d) = delimiter {
                    found.push((i, d));
                }
                // Every backslash pair is an escape or a command start: `\$` is no delimiter.
                i += 2;
            }
            b'$' if bytes.get(i + 1) == Some(&b'$') => {
                found.push((i, Delimiter::DoubleDollar));
                i += 2;
            }
            b'$' => {
                let before = text[..i].chars().next_back();
                let after = text[i + 1..].chars().next();
                let can_open = after.is_some_and(|c| !c.is_whitespace());
                let can_close =
                    before.is_some_and(|c| !c.is_whitespace()) && after.map_or(true, |c| !c.is_ascii_digit());
                found.push((i, Delimiter::Dollar { can_open, can_close }));
                i += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// The math regions of `text`, in order and not overlapping.
pub(crate) fn find_math_regions(text: &str) -> Vec<MathRegion> {
    let delims = delimiters(text);
    if delims.is_empty() {
        return Vec::new();
    }
    // For each kind of closer, the indices (into `delims`) of the delimiters that can close it.
    let closer_indices = |accepts: fn(Delimiter) -> bool| -> Vec<usize> {
        delims.iter().enumerate().filter(|(_, (_, d))| accepts(*d)).map(|(k, _)| k).collect()
    };
    let closers: [Vec<usize>; 4] = [
        closer_indices(|d| d == Delimiter::ParenClose),
        closer_indices(|d| d == Delimiter::BracketClose),
        closer_indices(|d| d == Delimiter::DoubleDollar),
        closer_indices(|d| matches!(d, Delimiter::Dollar { can_close: true, .. })),
    ];
    // Single dollars before each delimiter, to see in O(1) whether a `$` lies between two.
    let mut dollars_before = Vec::with_capacity(delims.len() + 1);
    let mut count = 0usize;
    for (_, d) in &delims {
        dollars_before.push(count);
        count += matches!(d, Delimiter::Dollar { .. }) as usize;
    }
    let mut cursors = [0usize; 4];
    let mut regions = Vec::new();
    let mut k = 0;
    while k < delims.len() {
        let (open_pos, open) = delims[k];
        let list = match open {
            Delimiter::ParenOpen => 0,
            Delimiter::BracketOpen => 1,
            Delimiter::DoubleDollar => 2,
            Delimiter::Dollar { can_open: true, .. } => 3,
            _ => {
                k += 1;
                continue;
            }
        };
        let cursor = &mut cursors[list];
        while closers[list].get(*cursor).is_some_and(|&j| j <= k) {
            *cursor += 1;
        }
        let dollar_between = |j: usize| dollars_before[j] - dollars_before[k] > 1;
        match closers[list].get(*cursor) {
            Some(&j) if !(list == 3 && dollar_between(j)) => {
                let (close_pos, close) = delims[j];
                regions.push(MathRegion {
                    open_start: open_pos,
                    content_start: open_pos + open.width(),
                    content_end: close_pos,
                    close_end: close_pos + close.width(),
                });
                k = j + 1;
            }
            _ => k += 1,
        }
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(text: &str) -> Vec<&str> {
        find_math_regions(text).iter().map(|r| &text[r.content_start..r.content_end]).collect()
    }

    #[test]
    fn finds_every_delimiter_style() {
        assert_eq!(contents(r"a $x$ b \(y\) c \[z\] d $$w$$ e"), vec!["x", "y", "z", "w"]);
    }

    #[test]
    fn prices_are_not_math() {
        assert!(contents("it costs $5 and $6 today").is_empty());
        assert_eq!(contents("pay $5, so $x = 5$"), vec!["x = 5"]);
        assert!(contents(r"escaped \$5 and \$6").is_empty());
    }

    #[test]
    fn unclosed_openers_are_literal() {
        assert!(contents(r"so \(x = 3 and more").is_empty());
        assert_eq!(contents(r"\( a \( b \)"), vec![r" a \( b "]);
        assert!(contents("$$ never closed").is_empty());
    }

    #[test]
    fn many_lone_dollars_stay_linear_and_empty() {
        let text = "$ ".repeat(50_000);
        assert!(contents(&text).is_empty());
    }
}
