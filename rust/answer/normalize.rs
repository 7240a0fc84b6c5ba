//! The canonical token stream of an answer and its string form, [`normalize`].
//!
//! On top of the lexer's spelling rules (see [`super::lexer`]) this pass turns the words that
//! join answers (`and`, `or`, `\text{ or }`, `\lor`, `\land`) into commas (into `;` where they
//! join groups that hold commas: `p=5, q=2 and p=7, q=2`), `percent` into `\%`, `infinity`
//! into `\infty`, the braced colon `{:}` into `:`, and drops sentence punctuation at the ends. The parser reads these
//! tokens; [`normalize`] renders them, with text content lowercased, as a canonical string.
//!
//! Two strings with the same canonical form are the same answer, and the canonical form is
//! idempotent: `normalize(normalize(x)) == normalize(x)`. It is a notational normal form, not a
//! mathematical one: `\frac{1}{2}` and `0.5` stay different strings (the comparison knows they are
//! equal), and `x = 3` keeps its `x =` (a relation can matter: `y = 2x` is not `x = 2y`).

use std::borrow::Cow;

use super::lexer::{lex, render_token, Tok};
use super::parse::GREEK_LETTERS;

/// Words and text that join several answers.
fn is_separator_word(word: &str) -> bool {
    ["and", "or", "and also", "or also", ",", ";", "as well as"].iter().any(|s| word.eq_ignore_ascii_case(s))
}

/// One lexer token as the parser reads it: joining words become commas, `percent` `\%`, ...
/// (`before_paren`: the next token is `(`).
fn canonical_token(tok: Tok, before_paren: bool) -> Tok {
    match tok {
        Tok::Word(w) | Tok::Text(w) if is_separator_word(&w) => Tok::Sym(','),
        // `\lor`, `\vee`, `∨` and `\land`, `\wedge`, `∧` join answers as "or" and "and" do.
        Tok::Cmd(c) if c == "lor" || c == "land" => Tok::Sym(','),
        Tok::Word(w) | Tok::Text(w) if ["percent", "pct", "percentage"].iter().any(|p| w.eq_ignore_ascii_case(p)) => {
            Tok::Sym('%')
        }
        Tok::Word(w) if matches!(&*w, "infinity" | "infty" | "Infinity") => Tok::Cmd("infty".into()),
        // Plain-text `2pi` means 2π, not 2·p·i.
        Tok::Word(w) if w == "pi" => Tok::Cmd("pi".into()),
        // So are `theta`, `mu` and `Delta` the Greek letters (not prose, not m·u); before a
        // parenthesis `gamma`, `beta` and `zeta` are sympy's functions (`gamma(5)` is 24).
        Tok::Word(w) if GREEK_LETTERS.contains(&&*w) && !(before_paren && matches!(&*w, "gamma" | "beta" | "zeta")) => {
            Tok::Cmd(w)
        }
        Tok::Text(t) if t.eq_ignore_ascii_case("infinity") => Tok::Cmd("infty".into()),
        // `r \text{cis} \theta`, as `\operatorname{cis}` is written too.
        Tok::Text(t) if t == "cis" => Tok::Word(t),
        other => other,
    }
}

/// The canonical tokens of `text`: what the parser reads.
pub fn canonical_tokens(text: &str) -> Vec<Tok<'_>> {
    // Rewritten in place in the lexer's vector.
    let mut tokens = super::siunitx::read_quantities(lex(text));
    let is_sep = |t: &Tok| matches!(t, Tok::Sym(',') | Tok::Sym(';'));
    let mut len = 0;
    // Commas outside brackets since the last `;`, and the bracket depth. Groups around the whole
    // answer (the one `\boxed{...}` leaves) are its top level too.
    let top = enclosing_groups(&tokens);
    let (mut commas_in_group, mut depth) = (0usize, 0usize);
    for i in 0..tokens.len() {
        let original = std::mem::replace(&mut tokens[i], Tok::RowSep);
        let joining_word = match &original {
            Tok::Word(w) | Tok::Text(w) => is_separator_word(w) && !matches!(w.as_ref(), "," | ";"),
            Tok::Cmd(c) => c == "lor" || c == "land",
            _ => false,
        };
        let mut tok = canonical_token(original, tokens.get(i + 1).is_some_and(|t| t.is_sym('(')));
        // A word that joins comma-separated groups joins at the higher level, as `;` does:
        // `p=5, q=2 and p=7, q=2` is two solutions, as `p=5,q=2; p=7,q=2` is. A comma right
        // before the word belongs to it (`1, and 2` is one list).
        let oxford = usize::from(len > 0 && tokens[len - 1].is_sym(','));
        if joining_word && depth <= top && commas_in_group > oxford {
            tok = Tok::Sym(';');
        }
        match tok {
            Tok::Sym('(' | '[' | '{') | Tok::SetOpen => depth += 1,
            Tok::Sym(')' | ']' | '}') | Tok::SetClose => depth = depth.saturating_sub(1),
            Tok::Sym(',') if depth <= top => commas_in_group += 1,
            Tok::Sym(';') if depth <= top => commas_in_group = 0,
            _ => {}
        }
        // `1, and 2` and `x=1; or x=2` leave a separator next to another: the higher one stays
        // (`x=1, y=2, and x=3, y=4` is two groups).
        if is_sep(&tok) && len > 0 && is_sep(&tokens[len - 1]) {
            if tok.is_sym(';') {
                tokens[len - 1] = tok;
            }
            continue;
        }
        tokens[len] = tok;
        len += 1;
    }
    tokens.truncate(len);
    // Before the braced colon, which a dropped period may reveal (`{:.}` is `{:}`), and again
    // after the passes that move tokens.
    drop_closing_periods(&mut tokens);
    braced_colons(&mut tokens);
    micro_prefixes(&mut tokens);
    number_words_after_numerals(&mut tokens);
    scientific_times(&mut tokens);
    subscripts_first(&mut tokens);
    drop_closing_periods(&mut tokens);
    strip_ends(tokens)
}

/// Whether `tokens` hold the symbol `c` (a match on the variant: `contains` would call the
/// derived comparison of every token, strings included, out of line).
fn has_sym(tokens: &[Tok], c: char) -> bool {
    tokens.iter().any(|t| matches!(t, Tok::Sym(s) if *s == c))
}

/// A sentence period cannot precede a closing bracket (`\boxed{5.}`) or end the answer: drop
/// every period whose next kept token closes (scanning backwards reaches the fixed point in one
/// pass).
fn drop_closing_periods(tokens: &mut Vec<Tok>) {
    if !has_sym(tokens, '.') {
        return;
    }
    let closes = |t: Option<&Tok>| matches!(t, None | Some(Tok::Sym('}' | ')' | ']') | Tok::SetClose));
    let mut kept: Vec<Tok> = Vec::with_capacity(tokens.len());
    for tok in std::mem::take(tokens).into_iter().rev() {
        if tok.is_sym('.') && closes(kept.last()) {
            continue;
        }
        kept.push(tok);
    }
    kept.reverse();
    *tokens = kept;
}

/// How many brace groups enclose the whole token stream (`{{x, y}}` has 2), up to 4.
fn enclosing_groups(tokens: &[Tok]) -> usize {
    let mut k = 0;
    while k < 4 && tokens.len() >= 2 * (k + 1) && tokens[k].is_sym('{') && tokens[tokens.len() - 1 - k].is_sym('}') {
        // The group opened at `k` must close at the end, not before (`{a}{b}`).
        let inner = &tokens[k..tokens.len() - k];
        let mut depth = 0usize;
        for (i, t) in inner.iter().enumerate() {
            match t {
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && i + 1 < inner.len() {
                        return k;
                    }
                }
                _ => {}
            }
        }
        k += 1;
    }
    k
}

/// `{:}`, the braced colon of `4{:}30` and `1{:}2` (TeX spaces a bare `:` as a relation), is
/// the colon; `{-}` and `{+}`, TeX's way of writing a sign without an operator's spacing
/// (`{-}13.5`, `\textbf{(B)}\ {-}1`), are the sign. Not after `^` or `_`, where a braced sign is
/// an exponent or index of its own (`0^{-}`, `H^{+}`).
fn braced_colons(tokens: &mut Vec<Tok>) {
    let braced = |w: &[Tok]| matches!(w, [Tok::Sym('{'), Tok::Sym(':' | '-' | '+'), Tok::Sym('}')]);
    if !tokens.windows(3).any(braced) {
        return;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len());
    for tok in std::mem::take(tokens) {
        out.push(tok);
        // Collapsed as soon as it closes, so that nested groups collapse in turn (`{{:}}`).
        while out.len() >= 3 && braced(&out[out.len() - 3..]) {
            let n = out.len();
            let script = n >= 4 && matches!(out[n - 4], Tok::Sym('^' | '_'));
            if script && !out[n - 2].is_sym(':') {
                break;
            }
            out.truncate(n - 1);
            let sign = out.pop().unwrap_or(Tok::Sym(':'));
            out.pop();
            out.push(sign);
        }
    }
    *tokens = out;
}

/// `2\,\mu\mathrm{m}`, `5 \mu \text{s}`: `\mu` right before a unit in text is the unit's micro
/// prefix (`µm`, `µs`). Done on tokens, after the wrappers have read their arguments, so that a
/// form and its rendering read alike (`\mu\text{m$` and `\mu\text{m}`); a bare `\mu m` stays
/// the product µ·m.
fn micro_prefixes(tokens: &mut Vec<Tok>) {
    let joins = |pair: &[Tok]| match pair {
        [Tok::Cmd(c), Tok::Text(t)] => c == "mu" && super::units::is_unit_phrase(&format!("µ{t}")),
        _ => false,
    };
    if !tokens.windows(2).any(joins) {
        return;
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if joins(&tokens[i..tokens.len().min(i + 2)]) {
            if let Tok::Text(t) = &tokens[i + 1] {
                out.push(Tok::Text(format!("µ{t}").into()));
            }
            i += 2;
            continue;
        }
        out.push(std::mem::replace(&mut tokens[i], Tok::RowSep));
        i += 1;
    }
    *tokens = out;
}

/// Number words right after a numeral that change its value: scale words multiply it
/// (`2 million`, `1.5\text{ billion}`, `3 hundred thousand`, `5 dozen` are `2\cdot10^{6}`, ...,
/// `5\cdot12`: a product, not an exponent of the numeral, so `1/2 million` is half a million),
/// power words raise it (`5 squared` is `5^{2}`, `2 cubed` `2^{3}`), fraction words divide it
/// (`2 thirds` is `2/3`, `3 tenths` `3/10`, `5 hundredths` `5/100`; not `quarter`, which after a
/// count is as often a coin, nor `half`). Words after them stay (`2 million dollars` keeps its
/// noun, which the parser then reads as a unit). Left as words, they were read as such a noun
/// and dropped: `2 million`, `2 squared` and `2 thirds` were "equal" to 2. Elsewhere
/// (`2^3 million`, `x squared`) such words are no nouns either (see the parser's
/// `is_generic_noun`), so the answer stays unparsed.
fn number_words_after_numerals(tokens: &mut Vec<Tok>) {
    use crate::extract::{counted_fraction, power_word, scale, Scale};
    /// What a word after a numeral does to it, as the tokens that write it.
    fn rewrite(word: &str) -> Option<&'static str> {
        if let Some(s) = scale(word) {
            return Some(match s {
                Scale::PowerOfTen(2) => "\\cdot10^{2}",
                Scale::PowerOfTen(3) => "\\cdot10^{3}",
                Scale::PowerOfTen(6) => "\\cdot10^{6}",
                Scale::PowerOfTen(9) => "\\cdot10^{9}",
                Scale::PowerOfTen(12) => "\\cdot10^{12}",
                Scale::PowerOfTen(_) => "\\cdot10^{15}",
                Scale::Dozen => "\\cdot12",
            });
        }
        if let Some(p) = power_word(word) {
            return Some(if p == 2 { "^{2}" } else { "^{3}" });
        }
        Some(match counted_fraction(word)? {
            3 => "/3",
            4 => "/4",
            5 => "/5",
            6 => "/6",
            7 => "/7",
            8 => "/8",
            9 => "/9",
            10 => "/10",
            12 => "/12",
            100 => "/100",
            1000 => "/1000",
            _ => return None,
        })
    }
    // What may follow a rewritten word: after a scale another one ("3 hundred thousand"), and
    // after anything that ends in a numeral (`2/3`) what may follow a numeral, as a second pass
    // over the rendering reads it (idempotence); not after an exponent (`2^{2}`).
    let chains = |rewritten: &str| rewritten.starts_with("\\cdot") || rewritten.ends_with(|c: char| c.is_ascii_digit());
    // A text is read when its words are all letters: the words left after the rewritten ones
    // stay a text, which must read back as one (`\text{(}` would read as a bracket).
    let plain = |t: &str| t.split(' ').all(|w| w.bytes().all(|b| b.is_ascii_alphabetic()));
    let first_word = |t: &Tok| match t {
        Tok::Word(w) => rewrite(w),
        Tok::Text(t) if plain(t) => rewrite(t.split(' ').next().unwrap_or_default()),
        _ => None,
    };
    if !tokens.windows(2).any(|pair| matches!(pair[0], Tok::Num(_)) && first_word(&pair[1]).is_some()) {
        return;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(tokens.len() + 8);
    // The last token written is a numeral, or a scale word after one.
    let mut open = false;
    for tok in std::mem::take(tokens) {
        if open {
            match &tok {
                Tok::Word(w) => {
                    if let Some(r) = rewrite(w) {
                        out.extend(lex(r));
                        open = chains(r);
                        continue;
                    }
                }
                Tok::Text(t) if plain(t) => {
                    let mut words = t.split(' ').peekable();
                    let mut read = false;
                    while open {
                        let Some(r) = words.peek().and_then(|w| rewrite(w)) else { break };
                        out.extend(lex(r));
                        open = chains(r);
                        words.next();
                        read = true;
                    }
                    if read {
                        let rest: Vec<&str> = words.collect();
                        if !rest.is_empty() {
                            out.push(Tok::Text(Cow::Owned(rest.join(" "))));
                            open = false;
                        }
                        continue;
                    }
                }
                _ => {}
            }
        }
        open = matches!(tok, Tok::Num(_));
        out.push(tok);
    }
    *tokens = out;
}

/// `4.57 x 10^-23`, `3 X 10^8`: in plain text, an `x` between a number and a power of ten is
/// the multiplication sign of scientific notation, as `\times` is (`×` is lexed as one already).
/// Only before `10^`: `3 x 4` or `2x` stay products with the variable x.
fn scientific_times(tokens: &mut [Tok]) {
    let is_ten = |t: &Tok| matches!(t, Tok::Num(n) if n.int == "10" && n.frac.is_none() && n.exp.is_none());
    for i in 1..tokens.len().saturating_sub(2) {
        if matches!(&tokens[i], Tok::Word(w) if w == "x" || w == "X")
            && matches!(tokens[i - 1], Tok::Num(_))
            && is_ten(&tokens[i + 1])
            && tokens[i + 2].is_sym('^')
        {
            tokens[i] = Tok::Cmd("cdot".into());
        }
    }
}

/// The longest script group (in tokens, braces included) that [`subscripts_first`] moves.
const MAX_SWAPPED_SCRIPT: usize = 32;

/// `v^{2}_{0}` is typeset as `v_{0}^{2}`: the subscript goes first, where the parser reads it
/// as part of the symbol's name. In a run of script groups (`^{a}_{b}^{c}_{d}`, an error in
/// LaTeX that answers still hold) every subscript moves before every superscript, each kind in
/// its order (`_{b}_{d}^{a}^{c}`), so that a second pass changes nothing: swapping pairs alone
/// made `^{0}^{0}_{0}` into `^{0}_{0}^{0}`, and that into `_{0}^{0}^{0}`. Only short groups
/// are moved, so the pass stays linear.
fn subscripts_first(tokens: &mut [Tok]) {
    if !has_sym(tokens, '^') || !has_sym(tokens, '_') {
        return;
    }
    let group_end = |tokens: &[Tok], open: usize| -> Option<usize> {
        if !tokens.get(open).is_some_and(|t| t.is_sym('{')) {
            return None;
        }
        let mut depth = 0usize;
        for (k, t) in tokens.iter().enumerate().skip(open).take(MAX_SWAPPED_SCRIPT) {
            match t {
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    };
    // The last token of the script group (`^` or `_`, then a short `{...}`) starting at `i`.
    let script_end = |tokens: &[Tok], i: usize| -> Option<usize> {
        matches!(tokens.get(i), Some(Tok::Sym('^' | '_'))).then(|| group_end(tokens, i + 1)).flatten()
    };
    let mut i = 0;
    while i < tokens.len() {
        let Some(first_end) = script_end(tokens, i) else {
            i += 1;
            continue;
        };
        // The whole run of script groups from `i`, as (start, end) pairs.
        let mut groups = vec![(i, first_end)];
        let mut next = first_end + 1;
        while let Some(end) = script_end(tokens, next) {
            groups.push((next, end));
            next = end + 1;
        }
        let is_sub = |&(start, _): &(usize, usize)| tokens[start].is_sym('_');
        let first_sup = groups.iter().position(|g| !is_sub(g));
        if first_sup.is_some_and(|f| groups[f..].iter().any(is_sub)) {
            let subs = groups.iter().filter(|g| is_sub(g));
            let sups = groups.iter().filter(|g| !is_sub(g));
            let reordered: Vec<Tok> =
                subs.chain(sups).flat_map(|&(start, end)| tokens[start..=end].iter().cloned()).collect();
            tokens[i..next].clone_from_slice(&reordered);
        }
        i = next;
    }
}

/// Drops what encloses or pads the whole answer, repeatedly: separators and sentence
/// punctuation at either end (`2, 3.`, `, 5`) and groups around everything (`{x}` is what
/// `\boxed{x}` leaves). Works on a window over the tokens, so it stays linear however deep.
fn strip_ends(mut tokens: Vec<Tok>) -> Vec<Tok> {
    // Partner of every `{` that closes (none to find without a `{`).
    let mut partner = Vec::new();
    if has_sym(&tokens, '{') {
        partner = vec![usize::MAX; tokens.len()];
        let mut open = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            match t {
                Tok::Sym('{') => open.push(i),
                Tok::Sym('}') => {
                    if let Some(o) = open.pop() {
                        partner[o] = i;
                    }
                }
                _ => {}
            }
        }
    }
    let (mut lo, mut hi) = (0, tokens.len());
    loop {
        let start = (lo, hi);
        while hi > lo && matches!(tokens[hi - 1], Tok::Sym(',' | ';' | '.' | ':')) {
            hi -= 1;
        }
        while lo < hi && matches!(tokens[lo], Tok::Sym(',' | ';' | ':')) {
            lo += 1;
        }
        while hi - lo >= 2 && partner.get(lo) == Some(&(hi - 1)) {
            lo += 1;
            hi -= 1;
        }
        if (lo, hi) == start {
            break;
        }
    }
    tokens.truncate(hi);
    tokens.drain(..lo);
    // Minutes keep their leading zero after a colon (`12:05`); with the colon stripped they are
    // a numeral like any other (`:05` is `5`, as its rendering `05` reads).
    if lo > 0 {
        if let Some(Tok::Num(n)) = tokens.first_mut() {
            if n.int.len() > 1 && n.int.starts_with('0') {
                let digits = n.int.trim_start_matches('0');
                n.int = Cow::Owned(if digits.is_empty() && n.frac.is_none() {
                    "0".to_string()
                } else {
                    digits.to_string()
                });
            }
        }
    }
    tokens
}

/// The canonical string of an answer (see module doc). Linear in the input.
pub fn normalize(text: &str) -> String {
    render_canonical(&canonical_tokens(text))
}

/// Renders canonical tokens; text content is lowercased (text answers compare case-insensitively).
pub fn render_canonical(tokens: &[Tok]) -> String {
    super::lexer::render_with(tokens, true)
}

/// Plain lowercase text of the tokens, without TeX wrappers: what a text answer is compared by
/// (`\text{Evelyn}` and `Evelyn` both give `evelyn`).
pub fn plain_text(tokens: &[Tok]) -> String {
    let mut out = String::with_capacity(tokens.len() * 2);
    // One buffer for every token's text (this runs for every parsed answer).
    let mut piece = String::new();
    let word_like = |c: char| c.is_alphanumeric();
    for tok in tokens {
        piece.clear();
        match tok {
            Tok::Text(t) | Tok::Word(t) => piece.push_str(t),
            Tok::Sym('{' | '}') => continue,
            // Directly, what the general path gives: a numeral renders lowercase ASCII starting
            // with a digit, a symbol other than `,` one ASCII punctuation character.
            Tok::Num(_) => {
                if out.ends_with(word_like) {
                    out.push(' ');
                }
                render_token(tok, &mut out);
                continue;
            }
            Tok::Sym(c) if *c != ',' && c.is_ascii_punctuation() => {
                out.push(*c);
                continue;
            }
            other => render_token(other, &mut piece),
        }
        if let Cow::Owned(folded) = super::units::fold_case(&piece) {
            piece = folded;
        }
        if out.ends_with(word_like) && piece.starts_with(word_like) {
            out.push(' ');
        }
        out.push_str(piece.trim());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_become_commas() {
        assert_eq!(normalize("x=3 \\text{ or } x=-2"), "x=3, x=-2");
        assert_eq!(normalize("2 and 3"), "2, 3");
        assert_eq!(normalize("1, and 2."), "1, 2");
        assert_eq!(normalize("\\boxed{5.}"), "5");
        assert_eq!(normalize("{a}{b}"), "{a}{b}");
        assert_eq!(normalize("{,}"), "");
        assert_eq!(normalize("{5}."), "5");
        assert_eq!(normalize("]..]5.0"), normalize(&normalize("]..]5.0")));
        assert_eq!(normalize("{, {, 5}}"), "5");
        assert_eq!(normalize("x = 1 \\lor x = 2"), "x=1, x=2");
    }

    #[test]
    fn words_for_symbols() {
        assert_eq!(normalize("10 percent"), "10%");
        assert_eq!(normalize("\\$32,\\!348"), "32348");
        assert_eq!(normalize("(-infinity, 2)"), "(-\\infty, 2)");
    }

    #[test]
    fn text_is_lowercased_and_unwrapped_for_plain_text() {
        assert_eq!(normalize("\\text{Evelyn}"), "\\text{evelyn}");
        assert_eq!(plain_text(&canonical_tokens("\\text{ Evelyn }")), "evelyn");
        assert_eq!(plain_text(&canonical_tokens("Evelyn")), "evelyn");
        assert_eq!(plain_text(&canonical_tokens("\\textbf{no solution}")), "no solution");
    }

    #[test]
    fn the_documented_rules() {
        let same = |a: &str, b: &str| assert_eq!(normalize(a), normalize(b), "{a} vs {b}");
        same("\\left( \\frac{1}{2} \\right)", "(\\frac12)");
        same("\\dfrac{3}{4}", "\\tfrac34");
        same("\\displaystyle\\cfrac{3}{4}", "\\frac{3}{4}");
        same("\\sqrt3", "\\sqrt{3}");
        same("1,000", "1000");
        same("1\\,000", "1{,}000");
        same(".5", "0.5");
        same("\\boxed{7}", "7");
        same("90^\\circ", "90^{\\circ}");
        same("90°", "90^\\circ");
        same("\\mathbf{x}", "{x}");
        same("√2 − 1", "\\sqrt{2}-1");
        same("x ≤ 3", "x \\leq 3");
        same("\\varnothing", "\\emptyset");
        same("\\{1,2\\}", "\\lbrace 1, 2\\rbrace");
        same("3 \\cdot 4", "3 \\times 4");
    }

    #[test]
    fn subscripts_go_before_superscripts_in_a_whole_run() {
        let same = |a: &str, b: &str| assert_eq!(normalize(a), normalize(b), "{a} vs {b}");
        same("v^2_0", "v_{0}^{2}");
        same("^0^0_0", "_{0}^{0}^{0}");
        same("a^b_c_d", "a_{c}_{d}^{b}");
        same("x^{2}_{1}^{3}_{4}", "x_{1}_{4}^{2}^{3}");
        same("x_1^2", "x_{1}^{2}");
    }

    #[test]
    fn idempotent_on_samples() {
        for s in [
            "\\left( 3, \\frac{\\pi}{2} \\right)",
            "\\text{(B)}",
            "10,\\!080",
            "\\$18.90",
            "864 \\mbox{ inches}^2",
            "\\begin{pmatrix} -1/3 \\\\ 2/3 \\end{pmatrix}",
            "x \\in [-2,7]",
            "1 \\pm \\sqrt{19}",
            "4.5e33",
            "2e-5x",
            "\\frac{d^{2} v_{o}}{d t^{2}}",
            ", and .",
            "\\text{ and } 5",
            "1 . 5",
            "a**b",
            "\\operatorname{text}",
            // Found by Hypothesis in a fresh CI run: one pass must order a whole run of scripts.
            "^0^0_0",
            "a^b_c_d",
            "x^{2}_{1}^{3}_{4}",
            "v^2_0",
        ] {
            let once = normalize(s);
            assert_eq!(normalize(&once), once, "{s:?}");
        }
    }
}
