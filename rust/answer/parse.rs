//! Recursive-descent parser from canonical tokens to a [`Node`].
//!
//! Grammar, loosest first:
//! ```text
//! answer   := list
//! list     := item ((',' | ';') item)*                      (`and`/`or` are `,` by now; `;` where they join comma groups)
//! item     := choice? union (relop union)* unit?            `x = 3`, `a < x \le b`, `12 cm`
//! union    := sum (\cup sum)*
//! sum      := [sign] term ((+ | - | \pm | \mp) term)*
//! term     := unary ((\cdot | * | / | juxtaposition) unary)*
//! unary    := (- | + | \pm) unary | postfix
//! postfix  := power (! | % | ° | ')*
//! power    := primary (^ group)*
//! primary  := number | symbol | function | \frac | \sqrt | \binom | (list) | [list] | \{list\}
//!           | {list} | |sum| | \lfloor sum \rfloor | matrix | \infty | \emptyset | \mathbb{R}
//! ```
//! Conventions where notation is loose (documented in `super`): `7\frac{3}{4}` is a mixed
//! number; `f(x)` with a lone argument is ambiguous (see [`super::expr`]); a function without
//! parentheses takes the following product (`\sin 2x = \sin(2x)`, `\sin x \cos x` is a product);
//! a trailing unit needs a numeric value before it; a word of four letters or more (or a common
//! short English word) makes the answer prose.
//!
//! Bounded: at most [`MAX_TOKENS`] tokens, [`MAX_DEPTH`] levels of recursion and expression trees
//! at most [`MAX_TREE_DEPTH`] deep; beyond, the answer is Unknown (too complex), never a crash.

use std::borrow::Cow;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use super::expr::{Constant, Decimal, Expr, ExprInfo, Func, Symbol};
use super::judgement::Reason;
use super::lexer::{render, render_token, Numeral, Tok};
use super::linear::{self, Linear};
use super::node::{assignments_as_tuple, is_label_expr, Node, Ratio, RelOp, Relation};
use super::normalize::{canonical_tokens, plain_text};
use super::rational;
use super::scalar::Scalar;
use super::sets::{self, SetOp};
use super::units;

pub const MAX_TOKENS: usize = 4096;
pub const MAX_DEPTH: usize = 100;
/// The most terms a `\sum` or `\prod` with literal bounds is written out to.
pub const MAX_SERIES_TERMS: i64 = 100;
/// Numerals longer than this are refused before conversion (decimal-to-binary conversion is
/// quadratic; 20,000 digits is already past the exact size cap).
const MAX_NUMERAL_DIGITS: usize = 20_000;
pub const MAX_TREE_DEPTH: u32 = 160;
/// At most this many `\pm` in one value are expanded (2^3 = 8 answers).
const MAX_PLUS_MINUS: u32 = 3;
/// Exponents of scientific notation folded into one decimal value (larger stay a power of ten,
/// which the exact path refuses beyond its size cap).
const MAX_FOLDED_EXPONENT: i64 = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fail {
    Unparsed,
    TooComplex,
    /// Prose words: the answer is text.
    Prose,
}

type PResult<T> = Result<T, Fail>;

/// An operand while parsing: an expression (becomes a scalar once its unit is known) or a
/// structure.
enum Operand {
    Expr(Expr),
    Node(Node),
}

impl Operand {
    fn expr(self) -> PResult<Expr> {
        match self {
            Operand::Expr(e) => Ok(e),
            Operand::Node(_) => Err(Fail::Unparsed),
        }
    }
}

/// Phrases that mean "no solution".
const EMPTY_PHRASES: &[&str] = &[
    "no solution", "no solutions", "no real solution", "no real solutions", "none", "empty set", "the empty set",
    "no such", "no real roots", "no roots", "no real values",
];

/// Short English words that make an answer prose rather than a product of variables.
/// Three-letter English words that make an answer prose rather than a product of variables
/// (two-letter ones cannot: `e^{at}` and `e^{it}` are products).
const PROSE_WORDS: &[&str] = &[
    "yes", "odd", "all", "any", "one", "two", "six", "ten", "the", "not", "are", "for", "but", "can", "has", "its",
    "may", "nor", "now", "off", "our", "out", "own", "too", "use", "was", "who", "why", "how", "get", "see", "say",
    "she", "him", "her", "his", "and",
];

/// The Greek letters' names, also as plain-text words (capital Pi aside: plain text means the
/// number by `Pi`).
pub(super) const GREEK_LETTERS: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi",
    "omicron", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda",
    "Xi", "Sigma", "Upsilon", "Phi", "Psi", "Omega",
];

/// Commands that name a symbol besides the Greek letters.
const OTHER_SYMBOL_COMMANDS: &[&str] = &["Pi", "hbar", "ell", "aleph", "varkappa"];

/// Whether the command `\c` names a symbol (`\alpha`, `\Delta`, `\hbar`).
fn names_a_symbol(c: &str) -> bool {
    GREEK_LETTERS.contains(&c) || OTHER_SYMBOL_COMMANDS.contains(&c)
}

const DECORATIONS: &[&str] =
    &["dot", "ddot", "hat", "bar", "vec", "tilde", "overline", "widehat", "widetilde", "overrightarrow", "underline"];

pub(super) fn function_name(name: &str) -> bool {
    Func::from_name(name).is_some()
        || matches!(
            name,
            "log"
                | "lg"
                | "arccot"
                | "acot"
                | "arcsec"
                | "asec"
                | "arccsc"
                | "acsc"
                | "coth"
                | "sech"
                | "csch"
                | "round"
                | "nthroot"
                | "cbrt"
                | "factorial"
                | "cis"
        )
        || inverse_hyperbolic(name).is_some()
}

/// `\operatorname{arsinh}` and its spellings: the hyperbolic function it inverts.
fn inverse_hyperbolic(name: &str) -> Option<&'static str> {
    Some(match name {
        "arsinh" | "arcsinh" | "asinh" => "sinh",
        "arcosh" | "arccosh" | "acosh" => "cosh",
        "artanh" | "arctanh" | "atanh" => "tanh",
        "arcsch" | "arccsch" | "acsch" => "csch",
        "arsech" | "arcsech" | "asech" => "sech",
        "arcoth" | "arccoth" | "acoth" => "coth",
        _ => return None,
    })
}

/// The inverse hyperbolic function `of` ("sinh", "cosh", "tanh") at `u`, written with the
/// logarithm: arsinh u = ln(u + sqrt(u^2 + 1)), arcosh u = ln(u + sqrt(u^2 - 1)),
/// artanh u = ln((1 + u)/(1 - u)) / 2.
fn inverse_hyperbolic_at(of: &str, u: Expr) -> Expr {
    let ln = |arg: Expr| Expr::Func(Func::Ln, vec![arg]);
    let square = |e: &Expr| Expr::Pow(Box::new(e.clone()), Box::new(Expr::int(2)));
    match of {
        "tanh" => Expr::Div(
            Box::new(ln(Expr::Div(
                Box::new(Expr::Add(vec![Expr::int(1), u.clone()])),
                Box::new(Expr::Add(vec![Expr::int(1), Expr::neg(u)])),
            ))),
            Box::new(Expr::int(2)),
        ),
        _ => {
            let shift = if of == "sinh" { Expr::int(1) } else { Expr::neg(Expr::int(1)) };
            let root = Expr::Func(Func::Sqrt, vec![Expr::Add(vec![square(&u), shift])]);
            ln(Expr::Add(vec![u, root]))
        }
    }
}

/// Parses canonical tokens into a node; never fails (unparseable input is an Unparsed node).
pub fn parse(tokens: &[Tok]) -> Node {
    if tokens.is_empty() {
        return Node::Unparsed(Reason::Unparsed);
    }
    if tokens.len() > MAX_TOKENS {
        return Node::Unparsed(Reason::TooComplex);
    }
    let rows = system_rows(tokens);
    let tokens = rows.as_deref().unwrap_or(tokens);
    let mut parser = Parser { toks: tokens, pos: 0, depth: 0, abs_depth: 0 };
    match parser.answer() {
        Ok(node) => node,
        // Only what the ordinary reading leaves unread is tried as linear algebra.
        Err(Fail::Unparsed) => Parser { toks: tokens, pos: 0, depth: 0, abs_depth: 0 }
            .linear_answer()
            .unwrap_or(Node::Unparsed(Reason::Unparsed)),
        Err(Fail::Prose) => {
            let text = plain_text(tokens);
            if EMPTY_PHRASES.contains(&text.trim_end_matches('.')) {
                Node::EmptySet
            } else {
                Node::Text(text)
            }
        }
        Err(Fail::TooComplex) => Node::Unparsed(Reason::TooComplex),
    }
}

/// The relation operator starting at `toks[k]` and how many tokens it takes.
fn relop_at(toks: &[Tok], k: usize) -> Option<(RelOp, usize)> {
    let next_eq = sym_tok(toks.get(k + 1), '=');
    Some(match toks.get(k)? {
        Tok::Sym('=') => (RelOp::Eq, if next_eq { 2 } else { 1 }),
        Tok::Sym('<') if next_eq => (RelOp::Le, 2),
        Tok::Sym('<') => (RelOp::Lt, 1),
        Tok::Sym('>') if next_eq => (RelOp::Ge, 2),
        Tok::Sym('>') => (RelOp::Gt, 1),
        Tok::Sym('!') if next_eq => (RelOp::Ne, 2),
        Tok::Cmd(c) => match &**c {
            "le" => (RelOp::Le, 1),
            "ge" => (RelOp::Ge, 1),
            "ne" => (RelOp::Ne, 1),
            "approx" => (RelOp::Approx, 1),
            "in" => (RelOp::In, 1),
            _ => return None,
        },
        _ => return None,
    })
}

/// Environments that stack equations or conditions, one per row.
const SYSTEM_ENVIRONMENTS: &[&str] = &["cases", "aligned", "align", "gathered", "gather", "split", "eqnarray"];

/// The rows of a system as one list of items: `\begin{cases} x + y = 3 \\ x - y = 1 \end{cases}`,
/// or the same rows without an environment (`x + y = 3 \\ x - y = 1`), read as
/// `x + y = 3, x - y = 1`, which compares as any list does (a set of equations; assignments in
/// alphabetical order are a point). Alignment marks next to a relation (`x &= 3`) are dropped.
/// A row with any other `&` (a piecewise definition, `x^2 & x > 0`), a nested environment or a
/// matrix is not a system: `None`, and the tokens are parsed as they are.
fn system_rows<'t>(tokens: &[Tok<'t>]) -> Option<Vec<Tok<'t>>> {
    let is_begin = |t: &Tok| matches!(t, Tok::Cmd(c) if c == "begin" || c == "end");
    if !tokens.iter().any(|t| matches!(t, Tok::RowSep) || is_begin(t)) {
        return None;
    }
    // `\begin{env}` with an optional `*`: the environment's name and the tokens it takes.
    let environment = |toks: &[Tok<'t>], command: &str| -> Option<(String, usize)> {
        let [Tok::Cmd(c), Tok::Sym('{'), Tok::Word(name), rest @ ..] = toks else { return None };
        if c != command {
            return None;
        }
        match rest {
            [Tok::Sym('}'), ..] => Some((name.to_string(), 4)),
            [Tok::Sym('*'), Tok::Sym('}'), ..] => Some((format!("{name}*"), 5)),
            _ => None,
        }
    };
    let mut inner = tokens;
    let mut wrapped = false;
    if let Some((name, open)) = environment(tokens, "begin") {
        if !SYSTEM_ENVIRONMENTS.contains(&name.trim_end_matches('*')) {
            return None;
        }
        let close = (0..tokens.len()).rev().find(|&k| matches!(&tokens[k], Tok::Cmd(c) if c == "end"))?;
        let (end_name, end_len) = environment(&tokens[close..], "end")?;
        if end_name != name || close + end_len != tokens.len() || close < open {
            return None;
        }
        inner = &tokens[open..close];
        wrapped = true;
    }

    let mut out: Vec<Tok<'t>> = Vec::with_capacity(inner.len());
    let mut depth = 0usize;
    let mut rows = 0;
    for (k, t) in inner.iter().enumerate() {
        match t {
            _ if is_begin(t) => return None,
            Tok::Sym('{' | '(' | '[') | Tok::SetOpen => depth += 1,
            Tok::Sym('}' | ')' | ']') | Tok::SetClose => depth = depth.saturating_sub(1),
            Tok::Sym('&') if depth == 0 => {
                if relop_at(inner, k + 1).is_some() || (k > 0 && relop_at(inner, k - 1).is_some()) {
                    continue;
                }
                return None;
            }
            Tok::RowSep if depth == 0 => {
                // A row break after the last row, or two in a row, separates nothing.
                if !out.is_empty() && !matches!(out.last(), Some(Tok::Sym(','))) && k + 1 < inner.len() {
                    out.push(Tok::Sym(','));
                    rows += 1;
                }
                continue;
            }
            _ => {}
        }
        out.push(t.clone());
    }
    (wrapped || rows > 0).then_some(out)
}

struct Parser<'t> {
    toks: &'t [Tok<'t>],
    pos: usize,
    depth: usize,
    /// Inside `|...|`: a bar closes instead of opening.
    abs_depth: usize,
}

fn sym_tok(t: Option<&Tok>, c: char) -> bool {
    t.is_some_and(|t| t.is_sym(c))
}

fn cmd_tok(t: Option<&Tok>, name: &str) -> bool {
    matches!(t, Some(Tok::Cmd(x)) if x == name)
}

fn product(mut factors: Vec<Expr>) -> Expr {
    if factors.len() == 1 {
        factors.pop().unwrap_or_else(|| Expr::int(1))
    } else {
        Expr::Mul(factors)
    }
}

fn sum_of(mut terms: Vec<Expr>) -> Expr {
    if terms.len() == 1 {
        terms.pop().unwrap_or_else(|| Expr::int(0))
    } else {
        Expr::Add(terms)
    }
}

/// The value of the decimal digits `int` then `frac` when there are at most 19 of them, all
/// ASCII digits (so it fits a `u64`); `None` otherwise (the caller parses a `BigInt`).
fn small_digits(int: &[u8], frac: &[u8]) -> Option<u64> {
    if int.len() + frac.len() > 19 {
        return None;
    }
    let mut v = 0u64;
    for &b in int.iter().chain(frac) {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(b - b'0');
    }
    Some(v)
}

/// The integer a token run writes, `7` or `-3`: its sign and digits (empty digits are 0).
fn integer_literal<'a>(toks: &'a [Tok<'a>]) -> Option<(bool, &'a str)> {
    match toks {
        [Tok::Num(Numeral { int, frac: None, exp: None })] => Some((false, int)),
        [Tok::Sym('-'), Tok::Num(Numeral { int, frac: None, exp: None })] => Some((true, int)),
        _ => None,
    }
}

fn is_integer_literal(e: &Expr) -> bool {
    matches!(e, Expr::Num(r) if r.is_integer())
}

impl<'t> Parser<'t> {
    fn peek(&self) -> Option<&'t Tok<'t>> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&'t Tok<'t>> {
        self.toks.get(self.pos + k)
    }

    fn expect_sym(&mut self, c: char) -> PResult<()> {
        if sym_tok(self.peek(), c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Fail::Unparsed)
        }
    }

    fn expect_cmd(&mut self, name: &str) -> PResult<()> {
        if cmd_tok(self.peek(), name) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Fail::Unparsed)
        }
    }

    /// Runs `f` one recursion level deeper, refusing beyond [`MAX_DEPTH`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Fail::TooComplex);
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn answer(&mut self) -> PResult<Node> {
        let mut semicolons = Vec::new();
        let mut items = self.list_with_semicolons(true, &mut semicolons)?;
        if self.pos != self.toks.len() {
            return Err(Fail::Unparsed);
        }
        if let Some(groups) = assignment_groups(&items, &semicolons) {
            return Ok(Node::List(groups));
        }
        match items.len() {
            0 => Err(Fail::Unparsed),
            1 => items.pop().ok_or(Fail::Unparsed),
            _ => Ok(Node::List(items)),
        }
    }

    /// Whether the item ends at `toks[k]`: at a separator or closing bracket, or at a choice
    /// label that ends it ([`trailing_choice_label`]).
    fn is_item_end_at(&self, k: usize) -> bool {
        self.is_bare_item_end_at(k)
            || (follows_value(self.toks, k)
                && trailing_choice_label(self.toks, k).is_some_and(|(len, _)| self.is_bare_item_end_at(k + len)))
    }

    fn is_bare_item_end_at(&self, k: usize) -> bool {
        match self.toks.get(k) {
            None => true,
            Some(Tok::Sym(c)) => matches!(c, ',' | ';' | ')' | ']' | '}' | '&'),
            Some(Tok::SetClose | Tok::RowSep) => true,
            Some(Tok::Cmd(c)) => c == "end",
            _ => false,
        }
    }

    fn at_item_end(&self) -> bool {
        self.is_item_end_at(self.pos)
    }

    /// Items separated by `,`/`;`. `expand` turns `a \pm b` into two items (not inside tuples,
    /// where it would change the arity).
    fn list(&mut self, expand: bool) -> PResult<Vec<Node>> {
        self.list_with_semicolons(expand, &mut Vec::new())
    }

    /// [`Self::list`], noting in `semicolons` how many items precede each `;`.
    fn list_with_semicolons(&mut self, expand: bool, semicolons: &mut Vec<usize>) -> PResult<Vec<Node>> {
        let mut items = Vec::new();
        if self.at_item_end() {
            return Ok(items);
        }
        loop {
            let item = self.item(expand)?;
            if items.is_empty() {
                items = item;
            } else {
                items.extend(item);
            }
            match self.peek() {
                Some(Tok::Sym(',')) => self.pos += 1,
                Some(Tok::Sym(';')) => {
                    semicolons.push(items.len());
                    self.pos += 1;
                }
                _ => return Ok(items),
            }
        }
    }

    fn item(&mut self, expand: bool) -> PResult<Vec<Node>> {
        if let Some(choice) = self.choice_marker()? {
            return Ok(vec![choice]);
        }
        let first = self.union()?;
        let values = self.item_rest(first, expand)?;
        // The value, then its choice label: `40\textbf{ (B)}`, `115 \Rightarrow \text{(D)}`.
        match trailing_choice_label(self.toks, self.pos) {
            Some((len, letter)) if follows_value(self.toks, self.pos) && self.is_bare_item_end_at(self.pos + len) => {
                self.pos += len;
                Ok(vec![Node::Choice { letter, value: one_node(values).map(Box::new) }])
            }
            _ => Ok(values),
        }
    }

    /// `(B)`, `\text{(B)}`, `\text{B}`, `\textbf{(C)}\ 20`, and a capital letter with a period
    /// or closing parenthesis before a value (`C. x = 42`, `B) 17`) at the start of an item.
    fn choice_marker(&mut self) -> PResult<Option<Node>> {
        let letter = match (self.peek(), self.peek_at(1), self.peek_at(2)) {
            (Some(Tok::Sym('(')), Some(Tok::Word(w)), Some(Tok::Sym(')'))) if is_choice_letter(w) => {
                self.pos += 3;
                w.chars().next()
            }
            (Some(Tok::Word(w)), Some(Tok::Sym('.' | ')')), Some(_))
                if is_choice_letter(w) && w.starts_with(|c: char| c.is_ascii_uppercase()) =>
            {
                self.pos += 2;
                w.chars().next()
            }
            (Some(Tok::Text(t)), _, _) => match choice_text(t) {
                Some((letter, rest)) => {
                    self.pos += 1;
                    if !rest.is_empty() {
                        let value = parse(&canonical_tokens(rest));
                        return Ok(Some(Node::Choice { letter, value: Some(Box::new(value)) }));
                    }
                    Some(letter)
                }
                None => None,
            },
            _ => None,
        };
        let Some(letter) = letter.map(|c| c.to_ascii_uppercase()) else { return Ok(None) };
        if self.at_item_end() {
            return Ok(Some(Node::Choice { letter, value: None }));
        }
        // `(D) = 143`, `\textbf{(B)} = \frac{35}{72}`: the label equals its value.
        if sym_tok(self.peek(), '=') && !sym_tok(self.peek_at(1), '=') {
            self.pos += 1;
        }
        // `\text{(E)}\ \pm 8`: both values are the choice's.
        let value = self.item(true)?;
        Ok(Some(Node::Choice { letter, value: one_node(value).map(Box::new) }))
    }

    /// The rest of an item after its first operand: relations, a unit, the end.
    fn item_rest(&mut self, first: Operand, expand: bool) -> PResult<Vec<Node>> {
        if self.relop().is_none() {
            // No relation (most answers): the operand is the value.
            let unit = self.item_unit()?;
            return match first {
                Operand::Expr(e) => scalar_nodes(e, unit, expand),
                Operand::Node(n) => Ok(vec![n]),
            };
        }
        let mut parts = vec![first];
        let mut ops = Vec::new();
        while let Some((op, len)) = self.relop() {
            self.pos += len;
            ops.push(op);
            parts.push(self.union()?);
        }
        let unit = self.item_unit()?;
        let last = parts.pop().ok_or(Fail::Unparsed)?;
        let values = match last {
            Operand::Expr(e) => scalar_nodes(e, unit, expand)?,
            Operand::Node(n) => vec![n],
        };
        if ops.is_empty() {
            return Ok(values);
        }
        let mut left = Vec::with_capacity(parts.len());
        for part in parts {
            left.push(match part {
                Operand::Expr(e) => Node::Scalar(Box::new(make_scalar(e, None)?)),
                Operand::Node(n) => n,
            });
        }
        Ok(values
            .into_iter()
            .map(|value| {
                let mut all = left.clone();
                all.push(value);
                Node::Relation(Box::new(Relation::new(all, ops.clone())))
            })
            .collect())
    }

    /// The unit that ends the item, if any; the item must end after it.
    fn item_unit(&mut self) -> PResult<Option<String>> {
        let unit = if self.at_item_end() {
            None
        } else {
            let (len, unit) = self.unit_suffix(self.pos).ok_or(Fail::Unparsed)?;
            self.pos += len;
            Some(unit)
        };
        if !self.at_item_end() {
            return Err(Fail::Unparsed);
        }
        Ok(unit)
    }

    fn relop(&self) -> Option<(RelOp, usize)> {
        relop_at(self.toks, self.pos)
    }

    /// A trailing unit starting at `start` and ending the item: its length and canonical name.
    fn unit_suffix(&self, start: usize) -> Option<(usize, String)> {
        let mut k = start;
        let mut words: Vec<(String, Option<String>)> = Vec::new();
        let mut after_degree = start > 0 && self.toks.get(start - 1) == Some(&Tok::Degree);
        let mut after_joiner = false;
        loop {
            match self.toks.get(k) {
                Some(Tok::Word(w)) => {
                    // A one-letter unit is a unit in a phrase of units: after another one, or
                    // before a longer one (`J mol^{-1}`, `J/(mol K)`; `m/s` stays m over s).
                    let context = after_joiner || after_degree || !words.is_empty() || self.longer_unit_follows(k + 1);
                    let known = units::is_bare_unit(w)
                        || (context && units::canonical_unit(w).is_some())
                        || (!words.is_empty() && crate::extract::power_word(w).is_some());
                    if !(known || is_generic_noun(w)) {
                        return None;
                    }
                    words.push((w.to_string(), None));
                }
                Some(Tok::Text(t)) => {
                    let nouns = t.split(' ').all(|w| {
                        w.len() >= 3
                            && w.chars().all(|c| c.is_ascii_alphabetic())
                            && !is_qualifier(w)
                            && !changes_a_value(w)
                    });
                    if !(units::is_unit_phrase(t) || nouns) {
                        return None;
                    }
                    words.extend(t.split([' ', '.']).filter(|w| !w.is_empty()).map(|w| (w.to_string(), None)));
                }
                Some(Tok::Prime) if words.is_empty() => {
                    let mut primes = 0;
                    while self.toks.get(k) == Some(&Tok::Prime) {
                        primes += 1;
                        k += 1;
                    }
                    words.push((if primes == 1 { "arcmin" } else { "arcsec" }.to_string(), None));
                    after_degree = false;
                    continue;
                }
                Some(Tok::Sym('^')) if !words.is_empty() => {
                    let (len, exponent) = self.integer_group(k + 1)?;
                    if let Some(last) = words.last_mut() {
                        last.1 = Some(exponent);
                    }
                    k += 1 + len;
                    continue;
                }
                Some(Tok::Sym('/')) if !words.is_empty() => {
                    words.push(("/".to_string(), None));
                    after_joiner = true;
                    k += 1;
                    // `J/(mol K)`: the units divided by, in parentheses.
                    if sym_tok(self.toks.get(k), '(') {
                        let close = (k + 1..self.toks.len()).find(|&j| sym_tok(self.toks.get(j), ')'))?;
                        let inner = &self.toks[k + 1..close];
                        let unit_words = inner.iter().all(|t| match t {
                            Tok::Word(w) => units::canonical_unit(w).is_some(),
                            Tok::Cmd(c) => c == "cdot",
                            _ => false,
                        });
                        if inner.is_empty() || !unit_words {
                            return None;
                        }
                        words.push(("(".to_string(), None));
                        words.extend(inner.iter().filter_map(|t| match t {
                            Tok::Word(w) => Some((w.to_string(), None)),
                            _ => None,
                        }));
                        words.push((")".to_string(), None));
                        k = close + 1;
                        after_joiner = false;
                    }
                    continue;
                }
                Some(Tok::Cmd(c)) if c == "cdot" && !words.is_empty() => {
                    after_joiner = true;
                    k += 1;
                    continue;
                }
                _ => break,
            }
            after_degree = false;
            after_joiner = false;
            k += 1;
        }
        let last_is_joiner = words.last().is_some_and(|(w, _)| w == "/");
        // Modifiers alone name nothing: `5 square` is no `5 square units` (nor 5).
        let names_something = words.iter().any(|(w, _)| !units::is_modifier(w) && w != "/" && w != "(" && w != ")");
        (names_something && !last_is_joiner && self.is_item_end_at(k))
            .then(|| (k - start, units::canonical_phrase(&words)))
    }

    /// Whether a unit word of two letters or more follows at `k`, after an optional exponent
    /// group, `/` or `\cdot`: what makes a one-letter unit before it a unit.
    fn longer_unit_follows(&self, mut k: usize) -> bool {
        if sym_tok(self.toks.get(k), '^') {
            let Some((_, end)) = self.group_span(k + 1) else { return false };
            k = end + 1;
        }
        if matches!(self.toks.get(k), Some(Tok::Sym('/'))) || cmd_tok(self.toks.get(k), "cdot") {
            k += 1;
        }
        if sym_tok(self.toks.get(k), '(') {
            k += 1;
        }
        match self.toks.get(k) {
            Some(Tok::Word(w)) => units::is_bare_unit(w) && !units::is_modifier(w),
            Some(Tok::Text(t)) => units::is_unit_phrase(t),
            _ => false,
        }
    }

    /// Whether the group at `k` holds a constant expression (numbers, `i`, `\pi`, functions
    /// of them: no letter that could be a name).
    fn constant_group_at(&self, k: usize) -> bool {
        let Some((start, end)) = self.group_span(k) else { return false };
        let mut inner = Parser { toks: &self.toks[start..end], pos: 0, depth: self.depth + 1, abs_depth: 0 };
        matches!(inner.sum().and_then(Operand::expr), Ok(e) if inner.pos == end - start && !e.info().free_symbols)
    }

    /// `{2}`, `{-3}` at `k`: length and the integer text.
    fn integer_group(&self, k: usize) -> Option<(usize, String)> {
        let (start, end) = self.group_span(k)?;
        let (negative, int) = integer_literal(&self.toks[start..end])?;
        let digits = if int.is_empty() { "0" } else { int };
        Some((end + 1 - k, if negative { format!("-{digits}") } else { digits.to_string() }))
    }

    fn union(&mut self) -> PResult<Operand> {
        let start = self.pos;
        let first = self.sum()?;
        if self.depth == 0 && sym_tok(self.peek(), ':') {
            return self.ratio(start, first);
        }
        let set_op = |t: Option<&Tok>| match t {
            Some(Tok::Cmd(c)) => match &**c {
                "cup" => Some(SetOp::Union),
                "cap" => Some(SetOp::Intersection),
                "setminus" | "smallsetminus" | "backslash" => Some(SetOp::Difference),
                _ => None,
            },
            _ => None,
        };
        if set_op(self.peek()).is_none() {
            return Ok(first);
        }
        let mut parts = vec![as_set(first)?];
        let mut worked_out: Option<Node> = None;
        while let Some(op) = set_op(self.peek()) {
            self.pos += 1;
            let next = as_set(self.sum()?)?;
            // A union stays as written; an intersection or a difference (left to right, as
            // written) is worked out, or the answer stays unparsed.
            if op != SetOp::Union || worked_out.is_some() {
                let so_far = match worked_out.take() {
                    Some(n) => n,
                    None if parts.len() == 1 => parts.pop().ok_or(Fail::Unparsed)?,
                    None => Node::Union(std::mem::take(&mut parts)),
                };
                worked_out = Some(sets::combine(&so_far, op, &next).ok_or(Fail::Unparsed)?);
            } else {
                parts.push(next);
            }
        }
        Ok(Operand::Node(worked_out.unwrap_or(Node::Union(parts))))
    }

    /// `a : b` after its first side (which starts at token `start`), at the top level of an
    /// answer only (not inside brackets or braces, where `:` may start a set-builder
    /// condition): a [`Ratio`] of two constants (`3:4`, `1 : 2`, the time `12:00`; not `3:0`),
    /// or the quotient of two labels before `=` (`V_1 : V_2 = 11 : 21`, which states its value
    /// as `AB = 4` does).
    /// Anything else stays unparsed, as do ratios of three terms (`1:2:3`).
    fn ratio(&mut self, start: usize, first: Operand) -> PResult<Operand> {
        let colon = self.pos;
        self.pos += 1;
        let second = self.sum()?;
        let (Operand::Expr(a), Operand::Expr(b)) = (first, second) else { return Err(Fail::Unparsed) };
        if sym_tok(self.peek(), ':') {
            return Err(Fail::Unparsed);
        }
        if matches!(self.relop(), Some((RelOp::Eq, _))) && is_label_expr(&a) && is_label_expr(&b) {
            return Ok(Operand::Expr(Expr::Div(Box::new(a), Box::new(b))));
        }
        let constant = |e: &Expr| !e.info().free_symbols;
        let zero = match &b {
            Expr::Num(n) => n.is_zero(),
            Expr::Decimal(d) => d.value.is_zero(),
            _ => false,
        };
        let digits = |range: std::ops::Range<usize>| match self.toks.get(range) {
            Some([Tok::Num(Numeral { int, frac: None, exp: None })]) => Some(int.len()),
            _ => None,
        };
        let minutes = matches!(&b, Expr::Num(n) if n.is_integer() && n.numer() <= &BigInt::from(59));
        let clock_like =
            matches!(digits(start..colon), Some(1 | 2)) && digits(colon + 1..self.pos) == Some(2) && minutes;
        // `12:00` is a time on the hour, no ratio; `5:0` is neither.
        if !(constant(&a) && constant(&b)) || (zero && !clock_like) {
            return Err(Fail::Unparsed);
        }
        let quotient = (!zero).then(|| Node::scalar(Expr::Div(Box::new(a.clone()), Box::new(b.clone()))));
        let terms = [Node::scalar(a), Node::scalar(b)];
        Ok(Operand::Node(Node::Ratio(Box::new(Ratio { terms, quotient, clock_like }))))
    }

    fn sum(&mut self) -> PResult<Operand> {
        self.nested(Self::sum_inner)
    }

    fn sum_inner(&mut self) -> PResult<Operand> {
        let mut terms: Vec<Expr> = Vec::new();
        let mut first = true;
        loop {
            let sign = match self.peek() {
                Some(Tok::Sym('+')) => Some('+'),
                Some(Tok::Sym('-')) => Some('-'),
                Some(Tok::Cmd(c)) if c == "pm" => Some('±'),
                Some(Tok::Cmd(c)) if c == "mp" => Some('∓'),
                _ => None,
            };
            if sign.is_none() && !first {
                break;
            }
            if sign.is_some() {
                self.pos += 1;
            }
            let term = match self.term()? {
                Operand::Node(node) => {
                    let continues = matches!(self.peek(), Some(Tok::Sym('+' | '-')))
                        || cmd_tok(self.peek(), "pm")
                        || cmd_tok(self.peek(), "mp");
                    return if first && sign.is_none() && !continues {
                        Ok(Operand::Node(node))
                    } else {
                        Err(Fail::Unparsed)
                    };
                }
                Operand::Expr(e) => e,
            };
            let term = match sign {
                None | Some('+') => term,
                Some('-') => Expr::neg(term),
                Some(s) => {
                    let lhs = (!terms.is_empty()).then(|| Box::new(sum_of(std::mem::take(&mut terms))));
                    Expr::PlusMinus { lhs, rhs: Box::new(term), minus_first: s == '∓' }
                }
            };
            if terms.is_empty() && !self.at_sum_sign() {
                // One term (most values): no vector.
                return Ok(Operand::Expr(term));
            }
            terms.push(term);
            first = false;
        }
        Ok(Operand::Expr(sum_of(terms)))
    }

    /// A `+`, `-`, `\pm` or `\mp` at the cursor.
    fn at_sum_sign(&self) -> bool {
        match self.peek() {
            Some(Tok::Sym('+' | '-')) => true,
            Some(Tok::Cmd(c)) => c == "pm" || c == "mp",
            _ => false,
        }
    }

    fn term(&mut self) -> PResult<Operand> {
        let first = match self.slash_derivative() {
            Some(derivative) => derivative,
            None => match self.unary()? {
                Operand::Node(node) => return Ok(Operand::Node(node)),
                Operand::Expr(e) => e,
            },
        };
        let continues = match self.peek() {
            Some(Tok::Sym('*' | '/')) => true,
            Some(Tok::Cmd(c)) if c == "cdot" => true,
            _ => self.starts_implicit_factor(std::slice::from_ref(&first)),
        };
        if !continues {
            // One factor (most terms): no vector.
            return Ok(Operand::Expr(first));
        }
        let mut factors = vec![first];
        loop {
            match self.peek() {
                Some(Tok::Sym('*')) => {
                    self.pos += 1;
                    factors.push(self.unary()?.expr()?);
                }
                Some(Tok::Cmd(c)) if c == "cdot" => {
                    self.pos += 1;
                    factors.push(self.unary()?.expr()?);
                }
                Some(Tok::Sym('/')) => {
                    self.pos += 1;
                    let den = self.unary()?.expr()?;
                    let num = product(std::mem::take(&mut factors));
                    if self.starts_implicit_factor(std::slice::from_ref(&den)) {
                        // `a/b c`: two readings (see `super::expr`).
                        let tail = self.implicit_product()?;
                        factors.push(Expr::SlashTail { num: Box::new(num), den: Box::new(den), tail: Box::new(tail) });
                    } else {
                        factors.push(Expr::Div(Box::new(num), Box::new(den)));
                    }
                }
                _ if self.starts_implicit_factor(&factors) => {
                    if let Some(mixed) = self.mixed_number(&factors)? {
                        // A sign after the fraction is the mixed number's: `33\frac{1}{3}\%`.
                        factors = vec![self.postfix_on(Operand::Expr(mixed))?.expr()?];
                        continue;
                    }
                    factors.push(self.postfix()?.expr()?);
                }
                _ => break,
            }
        }
        Ok(Operand::Expr(product(factors)))
    }

    /// `dy/dt` in plain text: the derivative `\frac{dy}{dt}` names, not `(d·y)/(d·t)`. Only
    /// `d` plus one letter on both sides, not followed by a factor (`dy/dt(0)`, `dy/dt x`) or a
    /// power.
    fn slash_derivative(&mut self) -> Option<Expr> {
        let d_name = |t: Option<&Tok>| match t {
            Some(Tok::Word(w)) if w.len() == 2 && w.starts_with('d') && w.as_bytes()[1].is_ascii_alphabetic() => {
                Some(w.to_string())
            }
            _ => None,
        };
        let num = d_name(self.toks.get(self.pos))?;
        if !sym_tok(self.toks.get(self.pos + 1), '/') {
            return None;
        }
        let den = d_name(self.toks.get(self.pos + 2))?;
        match self.toks.get(self.pos + 3) {
            None | Some(Tok::Sym('+' | '-' | '=' | ')' | ']' | '}' | ',' | ';' | '<' | '>')) => {}
            Some(Tok::Cmd(c)) if matches!(&**c, "cdot" | "times" | "le" | "ge" | "leq" | "geq" | "neq" | "ne") => {}
            _ => return None,
        }
        self.pos += 3;
        Some(derivative_symbol(&num, &den))
    }

    fn implicit_product(&mut self) -> PResult<Expr> {
        let mut factors = vec![self.postfix()?.expr()?];
        while self.starts_implicit_factor(&factors) {
            factors.push(self.postfix()?.expr()?);
        }
        Ok(product(factors))
    }

    /// `7\frac{3}{4}`: an integer literal directly followed by a fraction of integer literals.
    fn mixed_number(&mut self, factors: &[Expr]) -> PResult<Option<Expr>> {
        let [whole] = factors else { return Ok(None) };
        if !is_integer_literal(whole) || !cmd_tok(self.peek(), "frac") {
            return Ok(None);
        }
        let integer_group = |k: usize| -> Option<(BigInt, usize)> {
            match (self.toks.get(k), self.toks.get(k + 1), self.toks.get(k + 2)) {
                (Some(Tok::Sym('{')), Some(Tok::Num(Numeral { int, frac: None, exp: None })), Some(Tok::Sym('}'))) => {
                    Some((if int.is_empty() { BigInt::zero() } else { int.parse().ok()? }, k + 3))
                }
                _ => None,
            }
        };
        let Some((num, after_num)) = integer_group(self.pos + 1) else { return Ok(None) };
        let Some((den, after_den)) = integer_group(after_num) else { return Ok(None) };
        if den.is_zero() {
            return Ok(None);
        }
        let Expr::Num(whole) = whole else { return Ok(None) };
        self.pos = after_den;
        Ok(Some(Expr::rational(rational::add(whole, &rational::ratio(num, den)))))
    }

    fn starts_implicit_factor(&self, factors: &[Expr]) -> bool {
        let Some(tok) = self.peek() else { return false };
        let starts = match tok {
            // `2 3` is two numbers, not a product.
            Tok::Num(_) => !matches!(self.toks.get(self.pos.wrapping_sub(1)), Some(Tok::Num(_))),
            Tok::Word(_) => true,
            Tok::Cmd(c) => is_value_command(c),
            Tok::Sym('(' | '{') => true,
            // `\frac{1}{4}\left[\cos t + \sin t\right]`: square brackets grouping one expression,
            // except after a name, where they index it (`dp[2]`, `a[n]`).
            Tok::Sym('[') => {
                !matches!(self.toks.get(self.pos.wrapping_sub(1)), Some(Tok::Word(_))) && self.square_brackets_group()
            }
            Tok::Sym('|') => self.abs_depth == 0,
            _ => false,
        };
        if !starts {
            return false;
        }
        // A trailing unit after a numeric value is not a factor.
        let unit_ahead = matches!(tok, Tok::Word(_)) && self.unit_suffix(self.pos).is_some();
        !(unit_ahead && factors.iter().all(|f| !f.info().free_symbols))
    }

    /// Whether the `[` at the current position closes with `]` around one expression (no `,`
    /// or `;` at its own level): a grouping, not an interval or a list.
    fn square_brackets_group(&self) -> bool {
        let mut depth = 0usize;
        for tok in &self.toks[self.pos..] {
            match tok {
                Tok::Sym('(' | '[' | '{') | Tok::SetOpen => depth += 1,
                Tok::Sym(close @ (')' | ']' | '}')) => {
                    depth -= 1;
                    if depth == 0 {
                        return *close == ']';
                    }
                }
                Tok::SetClose => {
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                Tok::Sym(',' | ';') if depth == 1 => return false,
                _ => {}
            }
        }
        false
    }

    fn unary(&mut self) -> PResult<Operand> {
        match self.peek() {
            Some(Tok::Sym('-')) => {
                self.pos += 1;
                let inner = self.nested(Self::unary)?.expr()?;
                Ok(Operand::Expr(Expr::neg(inner)))
            }
            Some(Tok::Sym('+')) => {
                self.pos += 1;
                self.nested(Self::unary)
            }
            Some(Tok::Cmd(c)) if c == "pm" || c == "mp" => {
                let minus_first = c == "mp";
                self.pos += 1;
                let inner = self.nested(Self::unary)?.expr()?;
                Ok(Operand::Expr(Expr::PlusMinus { lhs: None, rhs: Box::new(inner), minus_first }))
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> PResult<Operand> {
        let operand = self.power()?;
        self.postfix_on(operand)
    }

    fn postfix_on(&mut self, mut operand: Operand) -> PResult<Operand> {
        loop {
            operand = match self.peek() {
                Some(Tok::Sym('!')) if !sym_tok(self.peek_at(1), '=') => {
                    self.pos += 1;
                    Operand::Expr(Expr::Factorial(Box::new(operand.expr()?)))
                }
                Some(Tok::Sym('%')) => {
                    self.pos += 1;
                    let inner = operand.expr()?;
                    // `100%%` is no percentage (read as one, the inner sign divided by 100), nor
                    // is a percentage of degrees.
                    if matches!(inner, Expr::Percent(_) | Expr::Degrees(_)) {
                        return Err(Fail::Unparsed);
                    }
                    Operand::Expr(Expr::Percent(Box::new(inner)))
                }
                Some(Tok::Degree) => {
                    self.pos += 1;
                    let inner = operand.expr()?;
                    // `100%°` is no angle: read as one, the percent sign would escape the
                    // percent policy (it equalled 1).
                    if matches!(inner, Expr::Percent(_)) {
                        return Err(Fail::Unparsed);
                    }
                    Operand::Expr(Expr::Degrees(Box::new(inner)))
                }
                _ => return Ok(operand),
            };
        }
    }

    fn power(&mut self) -> PResult<Operand> {
        let base = self.primary()?;
        self.power_on(base)
    }

    fn power_on(&mut self, mut base: Operand) -> PResult<Operand> {
        while sym_tok(self.peek(), '^') {
            self.pos += 1;
            let exponent = self.group_expr()?;
            base = Operand::Expr(Expr::Pow(Box::new(base.expr()?), Box::new(exponent)));
        }
        Ok(base)
    }

    /// `{ sum }`: a macro argument that must be one expression.
    fn group_expr(&mut self) -> PResult<Expr> {
        self.expect_sym('{')?;
        let e = self.sum()?.expr()?;
        self.expect_sym('}')?;
        Ok(e)
    }

    /// Span (start, end) of the group opening at `k`, braces excluded.
    fn group_span(&self, k: usize) -> Option<(usize, usize)> {
        if !sym_tok(self.toks.get(k), '{') {
            return None;
        }
        let mut depth = 0usize;
        for (i, t) in self.toks.iter().enumerate().skip(k) {
            match t {
                Tok::Sym('{') => depth += 1,
                Tok::Sym('}') => {
                    depth -= 1;
                    if depth == 0 {
                        return Some((k + 1, i));
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn primary(&mut self) -> PResult<Operand> {
        let Some(tok) = self.peek() else { return Err(Fail::Unparsed) };
        match tok {
            Tok::Num(n) => {
                self.pos += 1;
                self.number(n).map(Operand::Expr)
            }
            Tok::Word(w) => {
                self.pos += 1;
                self.word(w).map(Operand::Expr)
            }
            Tok::Cmd(c) => {
                self.pos += 1;
                self.command(c)
            }
            Tok::Sym('(') | Tok::Sym('[') => self.nested(Self::bracketed),
            Tok::Sym('{') => self.nested(Self::brace_group),
            Tok::SetOpen => self.nested(Self::set),
            Tok::Sym('|') if self.abs_depth == 0 => {
                self.pos += 1;
                self.abs_depth += 1;
                let inner = self.sum();
                self.abs_depth -= 1;
                let inner = inner?.expr()?;
                self.expect_sym('|')?;
                Ok(Operand::Expr(Expr::Func(Func::Abs, vec![inner])))
            }
            Tok::Text(_) => Err(Fail::Prose),
            _ => Err(Fail::Unparsed),
        }
    }

    fn number(&mut self, n: &Numeral) -> PResult<Expr> {
        let digits = if n.int.is_empty() { "0" } else { &*n.int };
        if digits.len() + n.frac.as_ref().map_or(0, |f| f.len()) > MAX_NUMERAL_DIGITS {
            return Err(Fail::TooComplex);
        }
        // `52_8`: a numeral in base 8.
        if n.frac.is_none() && n.exp.is_none() && sym_tok(self.peek(), '_') {
            let (len, base) = self.integer_group(self.pos + 1).ok_or(Fail::Unparsed)?;
            let base: u32 = base.parse().map_err(|_| Fail::Unparsed)?;
            if !(2..=36).contains(&base) {
                return Err(Fail::Unparsed);
            }
            let value = BigInt::parse_bytes(digits.as_bytes(), base).ok_or(Fail::Unparsed)?;
            self.pos += 1 + len;
            return Ok(Expr::Based { digits: digits.to_string(), base, value: Box::new(value) });
        }
        if n.frac.is_none() && n.exp.is_none() {
            let integer: BigInt = match small_digits(digits.as_bytes(), b"") {
                Some(v) => BigInt::from(v),
                None => digits.parse().map_err(|_| Fail::Unparsed)?,
            };
            return Ok(Expr::rational(BigRational::from_integer(integer)));
        }
        let frac = n.frac.as_deref().unwrap_or("");
        let (mantissa, nonzero_digits) = match small_digits(digits.as_bytes(), frac.as_bytes()) {
            Some(v) => {
                let zeros = digits.bytes().chain(frac.bytes()).take_while(|&b| b == b'0').count();
                (BigInt::from(v), digits.len() + frac.len() - zeros)
            }
            None => {
                let all_digits = format!("{digits}{frac}");
                let mantissa: BigInt = all_digits.parse().map_err(|_| Fail::Unparsed)?;
                (mantissa, all_digits.trim_start_matches('0').len())
            }
        };
        // Significant digits run from the first non-zero digit to the last written one; a
        // written zero (`0.000`) counts its fraction digits.
        let significant = if mantissa.is_zero() { frac.len().max(1) } else { nonzero_digits };
        let mantissa = Decimal {
            value: rational::ratio(mantissa, BigInt::from(10).pow(frac.len() as u32)),
            significant_digits: significant as u32,
            last_digit_exponent: -(frac.len() as i64),
        };
        let exp = n.exp.unwrap_or(0);
        if exp.abs() <= MAX_FOLDED_EXPONENT {
            let factor = BigRational::from_integer(BigInt::from(10)).pow(exp as i32);
            return Ok(Expr::Decimal(Box::new(Decimal {
                value: rational::mul(&mantissa.value, &factor),
                significant_digits: mantissa.significant_digits,
                last_digit_exponent: mantissa.last_digit_exponent + exp,
            })));
        }
        let power =
            Expr::Pow(Box::new(Expr::int(10)), Box::new(Expr::rational(BigRational::from_integer(BigInt::from(exp)))));
        Ok(Expr::Mul(vec![Expr::Decimal(Box::new(mantissa)), power]))
    }

    fn word(&mut self, w: &str) -> PResult<Expr> {
        if function_name(w) {
            return self.function(w);
        }
        // sympy's `gamma(5)`, `beta(2, 3)`, `zeta(2)`: functions this engine does not evaluate.
        if matches!(w, "gamma" | "beta" | "zeta") && sym_tok(self.peek(), '(') {
            return Err(Fail::Unparsed);
        }
        if w == "sqrt" {
            return self.sqrt();
        }
        if w.len() >= 4 || PROSE_WORDS.iter().any(|p| w.eq_ignore_ascii_case(p)) {
            return Err(Fail::Prose);
        }
        let mut letters = w.chars();
        let last = letters.next_back().ok_or(Fail::Unparsed)?;
        let init = letters.as_str();
        // Subscripts, primes, powers and postfix operators bind to the last letter: `ce^{-2t}`.
        let last = self.symbol_from(last.to_string(), true)?;
        let last = self.power_on(Operand::Expr(last))?;
        let last = self.postfix_on(last)?.expr()?;
        if init.is_empty() {
            return Ok(last);
        }
        let mut factors: Vec<Expr> = Vec::with_capacity(init.len() + 1);
        factors.extend(init.chars().map(letter_expr));
        factors.push(last);
        Ok(product(factors))
    }

    /// A symbol named `base` with its subscript, primes and (when followed by a parenthesised lone
    /// symbol or number) the ambiguous application. Single letters `e` and `i` are constants.
    fn symbol_from(&mut self, base: String, letter: bool) -> PResult<Expr> {
        let mut name = base;
        let mut decorated = false;
        if sym_tok(self.peek(), '_') {
            let (start, end) = self.group_span(self.pos + 1).ok_or(Fail::Unparsed)?;
            name = format!("{name}_{}", subscript_name(&self.toks[start..end]));
            self.pos = end + 1;
            decorated = true;
        }
        while self.peek() == Some(&Tok::Prime) {
            name.push('\'');
            self.pos += 1;
            decorated = true;
        }
        if letter && !decorated {
            match name.as_str() {
                "e" => return Ok(Expr::Const(Constant::E)),
                "i" => return Ok(Expr::Const(Constant::I)),
                _ => {}
            }
        }
        let symbol = Symbol::new(name);
        if let Some(len) = self.label_arguments_len() {
            // `\Phi(x, y) = ...`: a function of several variables named before `=` is a label,
            // one atom (like the name of `f(x)`); elsewhere `C(n, k)` stays unread.
            let atom =
                Symbol::new(format!("{}({})", symbol.name, render(&self.toks[self.pos + 1..self.pos + len - 1])));
            self.pos += len;
            return Ok(Expr::Sym(atom));
        }
        if let Some(len) = self.lone_argument_len() {
            let arg_tokens = &self.toks[self.pos + 1..self.pos + len - 1];
            let atom = Symbol::new(format!("{}({})", symbol.name, render(arg_tokens)));
            self.pos += 1;
            let arg = self.sum()?.expr()?;
            self.expect_sym(')')?;
            return Ok(Expr::Apply { func: symbol, arg: Box::new(arg), atom });
        }
        Ok(Expr::Sym(symbol))
    }

    /// `(x, y)`, `(t_1, \theta, z)` at the cursor, two or more lone symbols and then `=`: the
    /// token length including parentheses.
    fn label_arguments_len(&self) -> Option<usize> {
        if !sym_tok(self.peek(), '(') {
            return None;
        }
        let mut k = self.pos + 1;
        let mut count = 0;
        loop {
            k = self.lone_symbol_end(k, false)?;
            count += 1;
            match self.toks.get(k)? {
                Tok::Sym(',') => k += 1,
                Tok::Sym(')') => break,
                _ => return None,
            }
        }
        (count >= 2 && sym_tok(self.toks.get(k + 1), '=')).then(|| k + 1 - self.pos)
    }

    /// `(x)`, `(0)`, `(t_1)`, `(\theta)` at the cursor: the token length including parentheses.
    fn lone_argument_len(&self) -> Option<usize> {
        if !sym_tok(self.peek(), '(') {
            return None;
        }
        let k = self.lone_symbol_end(self.pos + 1, true)?;
        sym_tok(self.toks.get(k), ')').then(|| k + 1 - self.pos)
    }

    /// Where a lone symbol starting at token `k` ends: one letter or Greek letter (or, with
    /// `number`, a numeral), with its subscript.
    fn lone_symbol_end(&self, k: usize, number: bool) -> Option<usize> {
        match self.toks.get(k)? {
            Tok::Word(w) if w.len() == 1 => {}
            Tok::Num(_) if number => {}
            Tok::Cmd(c) if names_a_symbol(c) => {}
            _ => return None,
        }
        if sym_tok(self.toks.get(k + 1), '_') {
            let (_, end) = self.group_span(k + 2)?;
            return Some(end + 1);
        }
        Some(k + 1)
    }

    fn command(&mut self, c: &str) -> PResult<Operand> {
        let expr = match c {
            "frac" => self.fraction()?,
            "sqrt" => self.sqrt()?,
            "binom" => {
                let n = self.group_expr()?;
                let k = self.group_expr()?;
                Expr::Func(Func::Binom, vec![n, k])
            }
            "sum" | "prod" => self.finite_series(c == "prod")?,
            "pi" => Expr::Const(Constant::Pi),
            "infty" => Expr::Infinity,
            "emptyset" => return Ok(Operand::Node(Node::EmptySet)),
            "lfloor" | "lceil" => {
                let (close, f) = if c == "lfloor" { ("rfloor", Func::Floor) } else { ("rceil", Func::Ceil) };
                let inner = self.sum()?.expr()?;
                self.expect_cmd(close)?;
                Expr::Func(f, vec![inner])
            }
            "begin" => {
                let (env, matrix) = self.nested(Self::matrix_environment)?;
                // `\begin{vmatrix} … \end{vmatrix}` is the determinant.
                if env == "vmatrix" {
                    determinant(&matrix)?
                } else {
                    return Ok(Operand::Node(matrix));
                }
            }
            // `\det \begin{pmatrix} … \end{pmatrix}`, also in parentheses or braces.
            "det" => {
                let close = match self.peek() {
                    Some(Tok::Sym('(')) => Some(')'),
                    Some(Tok::Sym('{')) => Some('}'),
                    _ => None,
                };
                if close.is_some() {
                    self.pos += 1;
                }
                self.expect_cmd("begin")?;
                let (_, matrix) = self.nested(Self::matrix_environment)?;
                if let Some(c) = close {
                    self.expect_sym(c)?;
                }
                determinant(&matrix)?
            }
            "angle" => {
                let mut name = String::from("angle ");
                while let Some(Tok::Word(w)) = self.peek() {
                    name.push_str(w);
                    self.pos += 1;
                    if sym_tok(self.peek(), '_') {
                        let (start, end) = self.group_span(self.pos + 1).ok_or(Fail::Unparsed)?;
                        name.push('_');
                        name.push_str(&render(&self.toks[start..end]));
                        self.pos = end + 1;
                    }
                }
                Expr::Sym(Symbol::new(name))
            }
            _ if c.starts_with("mathbb{") => {
                let letter = c.chars().nth(7).ok_or(Fail::Unparsed)?;
                return Ok(Operand::Node(Node::NamedSet(letter)));
            }
            _ if function_name(c) => self.function(c)?,
            // `\Gamma(5)`, `\zeta(2)`: the special functions, which this engine does not
            // evaluate (read as a letter times 5 they would be a wrong "not equal").
            "Gamma" | "zeta" if sym_tok(self.peek(), '(') => return Err(Fail::Unparsed),
            _ if names_a_symbol(c) => self.symbol_from(c.to_string(), false)?,
            // `\overline{3+4i}`: a bar over a constant is its complex conjugate (over a name,
            // `\bar{x}`, `\overline{AB}`, it is a name of its own).
            "bar" | "overline" if self.constant_group_at(self.pos) => Expr::Func(Func::Conj, vec![self.group_expr()?]),
            _ if DECORATIONS.contains(&c) => {
                let (start, end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
                let inner = render(&self.toks[start..end]);
                self.pos = end + 1;
                self.symbol_from(format!("{c}({inner})"), false)?
            }
            // Integrals, sums, limits, set-builder, arrows, ...: not read here.
            _ => return Err(Fail::Unparsed),
        };
        Ok(Operand::Expr(expr))
    }

    /// `\sum_{k=a}^{b} body` or `\prod`, with integer literal bounds and at most
    /// [`MAX_SERIES_TERMS`] terms: the body at each k, added or multiplied
    /// (`\sum_{k=1}^{3} k^2` is `1^2 + 2^2 + 3^2`; an empty range is 0 or 1). The body is the
    /// term that follows, so `\sum_{k=1}^{3} k + 1` is `(1 + 2 + 3) + 1`. Symbolic bounds, a
    /// series inside the body, and a body where the index letter is part of a longer word stay
    /// unparsed.
    fn finite_series(&mut self, product: bool) -> PResult<Expr> {
        let bound = |toks: &[Tok]| -> PResult<i64> {
            let (negative, digits) = integer_literal(toks).filter(|(_, d)| d.len() <= 9).ok_or(Fail::Unparsed)?;
            let value: i64 = if digits.is_empty() { 0 } else { digits.parse().map_err(|_| Fail::Unparsed)? };
            Ok(if negative { -value } else { value })
        };
        self.expect_sym('_')?;
        let (start, end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
        let (index, low) = match &self.toks[start..end] {
            [Tok::Word(v), Tok::Sym('='), low @ ..] if v.len() == 1 => (v.clone(), bound(low)?),
            _ => return Err(Fail::Unparsed),
        };
        self.pos = end + 1;
        // `^{b}`: the lexer braces every exponent (`^5` arrives as `^{5}`).
        self.expect_sym('^')?;
        let (start, end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
        let high = bound(&self.toks[start..end])?;
        self.pos = end + 1;
        if high.saturating_sub(low) >= MAX_SERIES_TERMS {
            return Err(Fail::TooComplex);
        }
        let body_start = self.pos;
        self.nested(Self::term)?.expr()?;
        let body = &self.toks[body_start..self.pos];
        let unreadable = |t: &Tok| match t {
            Tok::Word(w) => **w != *index && w.contains(&*index),
            Tok::Cmd(c) => c == "sum" || c == "prod",
            _ => false,
        };
        if body.iter().any(unreadable) {
            return Err(Fail::Unparsed);
        }
        let mut terms = Vec::new();
        for k in low..=high {
            let value = Tok::Num(Numeral { int: Cow::Owned(k.unsigned_abs().to_string()), frac: None, exp: None });
            let mut toks: Vec<Tok> = Vec::with_capacity(body.len() + 4);
            for t in body {
                match t {
                    Tok::Word(w) if **w == *index => {
                        toks.push(Tok::Sym('('));
                        if k < 0 {
                            toks.push(Tok::Sym('-'));
                        }
                        toks.extend([value.clone(), Tok::Sym(')')]);
                    }
                    other => toks.push(other.clone()),
                }
            }
            let mut parser = Parser { toks: &toks, pos: 0, depth: self.depth + 1, abs_depth: 0 };
            let term = parser.term()?.expr()?;
            if parser.pos != toks.len() {
                return Err(Fail::Unparsed);
            }
            terms.push(term);
        }
        Ok(match (terms.is_empty(), product) {
            (true, false) => Expr::int(0),
            (true, true) => Expr::int(1),
            (false, false) => sum_of(terms),
            (false, true) => self::product(terms),
        })
    }

    /// `\frac{a}{b}`, or a derivative `\frac{dM}{dt}`, `\frac{d^2 v}{d t^2}` read as one symbol.
    fn fraction(&mut self) -> PResult<Expr> {
        let (num_start, num_end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
        if let Some((den_start, den_end)) = self.group_span(num_end + 1) {
            let num = &self.toks[num_start..num_end];
            let den = &self.toks[den_start..den_end];
            if is_derivative(num, den) {
                // `\frac{d}{dx} x^3` or `\frac{d x^2}{dx}` applies the operator to an expression:
                // its value needs calculus, which is left to no one here (undecided, never a
                // comparison of letters).
                if !differentiates_a_name(num) {
                    return Err(Fail::Unparsed);
                }
                self.pos = den_end + 1;
                // `\frac{d v}{d t}` and `\frac{dv}{dt}` name the same derivative.
                let compact = |t: &[Tok]| render(t).chars().filter(|c| !c.is_whitespace()).collect::<String>();
                return Ok(derivative_symbol(&compact(num), &compact(den)));
            }
        }
        let num = self.group_expr()?;
        let den = self.group_expr()?;
        Ok(Expr::Div(Box::new(num), Box::new(den)))
    }

    fn sqrt(&mut self) -> PResult<Expr> {
        if sym_tok(self.peek(), '[') {
            self.pos += 1;
            let index = self.sum()?.expr()?;
            self.expect_sym(']')?;
            let radicand = self.sqrt_argument()?;
            return Ok(Expr::Func(Func::Root, vec![index, radicand]));
        }
        Ok(Expr::Func(Func::Sqrt, vec![self.sqrt_argument()?]))
    }

    /// `\sqrt{x}`, or in plain text `sqrt(x)`.
    fn sqrt_argument(&mut self) -> PResult<Expr> {
        if sym_tok(self.peek(), '(') {
            self.pos += 1;
            let e = self.sum()?.expr()?;
            self.expect_sym(')')?;
            return Ok(e);
        }
        self.group_expr()
    }

    /// A named function with its optional base (`\log_2`), power (`\sin^2`) or inverse
    /// (`\sin^{-1}`), and argument: parenthesised, braced, or the following product.
    fn function(&mut self, name: &str) -> PResult<Expr> {
        let mut base = None;
        let mut power = None;
        let mut inverse = false;
        // `\operatorname{arsinh}` is `\sinh^{-1}` (and may still carry a power).
        let (name, named_inverse) = match inverse_hyperbolic(name) {
            Some(of) => (of, true),
            None => (name, false),
        };
        loop {
            if sym_tok(self.peek(), '_') && base.is_none() && (name == "log") {
                self.pos += 1;
                base = Some(self.group_expr()?);
            } else if sym_tok(self.peek(), '^') && power.is_none() && !inverse {
                self.pos += 1;
                let exponent = self.group_expr()?;
                let minus_one = matches!(&exponent, Expr::Neg(inner) if matches!(&**inner, Expr::Num(r) if r.is_one()));
                let func = Func::from_name(name);
                let reciprocal = matches!(name, "sec" | "csc" | "cot" | "coth" | "sech" | "csch");
                if minus_one
                    && (func.and_then(Func::inverse).is_some()
                        || matches!(name, "sinh" | "cosh" | "tanh")
                        || reciprocal)
                {
                    inverse = true;
                } else if minus_one {
                    // `\sinh^{-1} x`, `\sec^{-1} x` name inverse functions this engine does not
                    // evaluate; reading them as 1/sinh x would be a wrong "not equal".
                    return Err(Fail::Unparsed);
                } else {
                    power = Some(exponent);
                }
            } else {
                break;
            }
        }
        let args = match self.peek() {
            Some(Tok::Sym('(')) => {
                self.pos += 1;
                let mut args = vec![self.sum()?.expr()?];
                while sym_tok(self.peek(), ',') {
                    self.pos += 1;
                    args.push(self.sum()?.expr()?);
                }
                self.expect_sym(')')?;
                args
            }
            Some(Tok::Sym('{')) => vec![self.group_expr()?],
            _ => vec![self.implicit_argument()?],
        };
        let call = match name {
            "log" => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Log { base: base.map(Box::new), arg: Box::new(arg) }
            }
            "lg" => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Log { base: Some(Box::new(Expr::int(10))), arg: Box::new(arg) }
            }
            // The inverses of the reciprocal functions: arccot x = arctan(1/x) (for x > 0, as
            // variables are compared), arcsec x = arccos(1/x), arccsc x = arcsin(1/x).
            "arccot" | "acot" | "arcsec" | "asec" | "arccsc" | "acsc" => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                let func = match name {
                    "arccot" | "acot" => Func::Atan,
                    "arcsec" | "asec" => Func::Acos,
                    _ => Func::Asin,
                };
                Expr::Func(func, vec![Expr::Div(Box::new(Expr::int(1)), Box::new(arg))])
            }
            // Plain-text spellings: `round(x)` to the nearest integer, halves up (floor(x + 1/2)),
            // `nthroot(x, n)` and `cbrt(x)` the real root.
            "round" => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                let half = Expr::Div(Box::new(Expr::int(1)), Box::new(Expr::int(2)));
                Expr::Func(Func::Floor, vec![Expr::Add(vec![arg, half])])
            }
            "nthroot" => {
                let [radicand, index] = <[Expr; 2]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Func(Func::Root, vec![index, radicand])
            }
            "cbrt" => {
                let [radicand] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Func(Func::Root, vec![Expr::int(3), radicand])
            }
            // `r \operatorname{cis} \theta`: cos θ + i sin θ, that is e^{iθ}.
            "cis" => {
                let [theta] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Pow(
                    Box::new(Expr::Const(Constant::E)),
                    Box::new(Expr::Mul(vec![Expr::Const(Constant::I), theta])),
                )
            }
            // sympy's spelling of `n!`.
            "factorial" => {
                let [n] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                Expr::Factorial(Box::new(n))
            }
            // `\sec^{-1} x` is arcsec x, and so on.
            "sec" | "csc" | "cot" if inverse => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                let func = match name {
                    "cot" => Func::Atan,
                    "sec" => Func::Acos,
                    _ => Func::Asin,
                };
                Expr::Func(func, vec![Expr::Div(Box::new(Expr::int(1)), Box::new(arg))])
            }
            "sinh" | "cosh" | "tanh" if inverse || named_inverse => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                inverse_hyperbolic_at(name, arg)
            }
            // arcsch u = arsinh(1/u), arsech u = arcosh(1/u), arcoth u = artanh(1/u).
            "csch" | "sech" | "coth" if named_inverse || inverse => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                let of = match name {
                    "csch" => "sinh",
                    "sech" => "cosh",
                    _ => "tanh",
                };
                inverse_hyperbolic_at(of, Expr::Div(Box::new(Expr::int(1)), Box::new(arg)))
            }
            "coth" | "sech" | "csch" => {
                let [arg] = <[Expr; 1]>::try_from(args).map_err(|_| Fail::Unparsed)?;
                let (num, den) = match name {
                    "coth" => (Expr::Func(Func::Cosh, vec![arg.clone()]), Expr::Func(Func::Sinh, vec![arg])),
                    "sech" => (Expr::int(1), Expr::Func(Func::Cosh, vec![arg])),
                    _ => (Expr::int(1), Expr::Func(Func::Sinh, vec![arg])),
                };
                Expr::Div(Box::new(num), Box::new(den))
            }
            _ => {
                let mut func = Func::from_name(name).ok_or(Fail::Unparsed)?;
                if inverse {
                    func = func.inverse().ok_or(Fail::Unparsed)?;
                }
                if func.arity().is_some_and(|n| n != args.len()) || args.is_empty() {
                    return Err(Fail::Unparsed);
                }
                Expr::Func(func, args)
            }
        };
        Ok(match power {
            Some(p) => Expr::Pow(Box::new(call), Box::new(p)),
            None => call,
        })
    }

    /// The argument of `\sin 2x`: a signed first factor and the implicit product after it,
    /// stopping before another function (`\sin x \cos x`).
    fn implicit_argument(&mut self) -> PResult<Expr> {
        let mut factors = vec![self.unary()?.expr()?];
        while self.starts_implicit_factor(&factors) && !self.next_is_function() {
            factors.push(self.postfix()?.expr()?);
        }
        Ok(product(factors))
    }

    fn next_is_function(&self) -> bool {
        match self.peek() {
            Some(Tok::Cmd(c)) => function_name(c) || c == "frac",
            Some(Tok::Word(w)) => function_name(w),
            _ => false,
        }
    }

    /// `(...)` or `[...]`: a grouping of one expression, or a tuple / interval.
    fn bracketed(&mut self) -> PResult<Operand> {
        let open = match self.peek() {
            Some(Tok::Sym(c)) => *c,
            _ => return Err(Fail::Unparsed),
        };
        self.pos += 1;
        let first = self.union()?;
        if let Some(Tok::Sym(close @ (')' | ']'))) = self.peek() {
            let close = *close;
            self.pos += 1;
            let matching = (open == '(') == (close == ')');
            return match first {
                Operand::Expr(e) if matching => Ok(Operand::Expr(e)),
                Operand::Node(n) if matching => Ok(Operand::Node(n)),
                _ => Err(Fail::Unparsed),
            };
        }
        let mut items = self.item_rest(first, false)?;
        while sym_tok(self.peek(), ',') || sym_tok(self.peek(), ';') {
            self.pos += 1;
            items.extend(self.item(false)?);
        }
        let close = match self.peek() {
            Some(Tok::Sym(c @ (')' | ']'))) => *c,
            _ => return Err(Fail::Unparsed),
        };
        self.pos += 1;
        if items.len() == 1 {
            // `(x = 3)` and the like: a parenthesised single item.
            return items.pop().map(Operand::Node).ok_or(Fail::Unparsed);
        }
        Ok(Operand::Node(Node::Bracketed { open, close, items }))
    }

    /// `{...}`: a TeX group; several items make a list.
    fn brace_group(&mut self) -> PResult<Operand> {
        self.pos += 1;
        let first = self.union()?;
        if sym_tok(self.peek(), '}') {
            self.pos += 1;
            return Ok(first);
        }
        let mut items = self.item_rest(first, true)?;
        while sym_tok(self.peek(), ',') || sym_tok(self.peek(), ';') {
            self.pos += 1;
            items.extend(self.item(true)?);
        }
        self.expect_sym('}')?;
        Ok(Operand::Node(if items.len() == 1 { items.pop().ok_or(Fail::Unparsed)? } else { Node::List(items) }))
    }

    fn set(&mut self) -> PResult<Operand> {
        self.pos += 1;
        let items = self.list(true)?;
        if self.peek() != Some(&Tok::SetClose) {
            return Err(Fail::Unparsed);
        }
        self.pos += 1;
        Ok(Operand::Node(if items.is_empty() { Node::EmptySet } else { Node::Set(items) }))
    }

    /// The whole answer as arithmetic on tuples and matrices ([`super::linear`]): `None`
    /// unless it all reads and some operation involves a tuple or a matrix.
    fn linear_answer(&mut self) -> Option<Node> {
        let mut used = false;
        let value = self.linear_sum(&mut used).ok()?;
        if self.pos != self.toks.len() || !used {
            return None;
        }
        Some(match value {
            Linear::Scalar(e) => Node::scalar(e),
            Linear::Vector(items) => {
                Node::Bracketed { open: '(', close: ')', items: items.into_iter().map(Node::scalar).collect() }
            }
            Linear::Matrix { rows, cols, cells } => {
                Node::Matrix { rows, cols, cells: cells.into_iter().map(Node::scalar).collect() }
            }
        })
    }

    fn linear_sum(&mut self, used: &mut bool) -> PResult<Linear> {
        let mut value = self.linear_term(used)?;
        loop {
            let subtract = match self.peek() {
                Some(Tok::Sym('+')) => false,
                Some(Tok::Sym('-')) => true,
                _ => return Ok(value),
            };
            self.pos += 1;
            let rhs = self.linear_term(used)?;
            value = value.add(rhs, subtract).ok_or(Fail::Unparsed)?;
            *used = true;
        }
    }

    /// Factors joined by `\cdot`, `*` or nothing: a scalar times a tuple or matrix, or a
    /// matrix product.
    fn linear_term(&mut self, used: &mut bool) -> PResult<Linear> {
        let mut value = self.linear_factor(used)?;
        loop {
            let written = sym_tok(self.peek(), '*') || cmd_tok(self.peek(), "cdot");
            if written {
                self.pos += 1;
            } else if !self.starts_linear_factor() {
                return Ok(value);
            }
            let rhs = self.linear_factor(used)?;
            // `C(n, k)`, `f(a, b)`: a name before a tuple with no operator between is a
            // function or a point as often as a product, so it stays unread.
            if !written && matches!((&value, &rhs), (Linear::Scalar(e), Linear::Vector(_)) if e.info().free_symbols) {
                return Err(Fail::Unparsed);
            }
            value = value.mul(rhs).ok_or(Fail::Unparsed)?;
            *used = true;
        }
    }

    fn starts_linear_factor(&self) -> bool {
        match self.peek() {
            Some(Tok::Sym('(')) | Some(Tok::Num(_)) | Some(Tok::Word(_)) => true,
            Some(Tok::Sym('|')) => self.abs_depth == 0,
            Some(Tok::Cmd(c)) => matches!(&**c, "begin" | "tr") || is_value_command(c),
            _ => false,
        }
    }

    /// A signed factor with its postfix operations: `^T`, `^{\top}` (transpose), `^H`,
    /// `^{\dagger}` (conjugate transpose), `^{n}` for an integer n (`^{-1}`: the inverse).
    fn linear_factor(&mut self, used: &mut bool) -> PResult<Linear> {
        if sym_tok(self.peek(), '-') {
            self.pos += 1;
            return Ok(self.nested(|p| p.linear_factor(used))?.neg());
        }
        let mut value = self.nested(|p| p.linear_primary(used))?;
        while sym_tok(self.peek(), '^') {
            let (start, end) = self.group_span(self.pos + 1).ok_or(Fail::Unparsed)?;
            let integer =
                |n: &Numeral| if n.frac.is_none() && n.exp.is_none() { n.int.parse::<i64>().ok() } else { None };
            value = match &self.toks[start..end] {
                [Tok::Word(w)] if w == "T" => value.transpose(false),
                [Tok::Cmd(c)] if c == "top" || c == "intercal" => value.transpose(false),
                [Tok::Word(w)] if w == "H" => value.transpose(true),
                [Tok::Cmd(c)] if c == "dagger" => value.transpose(true),
                [Tok::Num(n)] => integer(n).and_then(|k| value.power(k)),
                [Tok::Sym('-'), Tok::Num(n)] => integer(n).and_then(|k| value.power(-k)),
                _ => None,
            }
            .ok_or(Fail::Unparsed)?;
            self.pos = end + 1;
            *used = true;
        }
        Ok(value)
    }

    fn linear_primary(&mut self, used: &mut bool) -> PResult<Linear> {
        match self.peek() {
            Some(Tok::Cmd(c)) if c == "begin" => {
                self.pos += 1;
                let (env, matrix) = self.nested(Self::matrix_environment)?;
                if env == "vmatrix" {
                    return Ok(Linear::Scalar(determinant(&matrix)?));
                }
                matrix_linear(&matrix)
            }
            Some(Tok::Cmd(c)) if c == "tr" => {
                self.pos += 1;
                let matrix = self.linear_factor(used)?;
                *used = true;
                matrix.trace().ok_or(Fail::Unparsed)
            }
            // `\|v\|` (lexed as bars) is the norm of a tuple; of a scalar, its absolute value.
            Some(Tok::Sym('|')) if self.abs_depth == 0 => {
                self.pos += 1;
                self.abs_depth += 1;
                let inner = self.linear_sum(used);
                self.abs_depth -= 1;
                let inner = inner?;
                self.expect_sym('|')?;
                match inner {
                    Linear::Scalar(e) => Ok(Linear::Scalar(Expr::Func(Func::Abs, vec![e]))),
                    tuple => {
                        *used = true;
                        tuple.norm().ok_or(Fail::Unparsed)
                    }
                }
            }
            // A tuple, a scalar in parentheses, or a linear expression in parentheses.
            Some(Tok::Sym('(')) => {
                let start = self.pos;
                match self.bracketed() {
                    Ok(Operand::Expr(e)) => return Ok(Linear::Scalar(e)),
                    Ok(Operand::Node(Node::Bracketed { open: '(', close: ')', items })) => {
                        return Ok(Linear::Vector(plain_values(&items)?))
                    }
                    _ => {}
                }
                self.pos = start + 1;
                let inner = self.linear_sum(used)?;
                self.expect_sym(')')?;
                Ok(inner)
            }
            _ => match self.power()? {
                Operand::Expr(e) => Ok(Linear::Scalar(e)),
                Operand::Node(_) => Err(Fail::Unparsed),
            },
        }
    }

    /// `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` (also bmatrix, matrix, array, vmatrix, ...):
    /// the environment's name and the matrix.
    fn matrix_environment(&mut self) -> PResult<(String, Node)> {
        let (start, end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
        let env = render(&self.toks[start..end]);
        if !matches!(env.as_str(), "pmatrix" | "bmatrix" | "matrix" | "Bmatrix" | "smallmatrix" | "array" | "vmatrix") {
            return Err(Fail::Unparsed);
        }
        self.pos = end + 1;
        if env == "array" {
            let (_, spec_end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
            self.pos = spec_end + 1;
        }
        let mut rows: Vec<Vec<Node>> = vec![Vec::new()];
        loop {
            if cmd_tok(self.peek(), "end") {
                break;
            }
            let mut cell = self.item(false)?;
            if cell.len() != 1 {
                return Err(Fail::Unparsed);
            }
            rows.last_mut().ok_or(Fail::Unparsed)?.extend(cell.pop());
            match self.peek() {
                Some(Tok::Sym('&')) => self.pos += 1,
                Some(Tok::RowSep) => {
                    self.pos += 1;
                    rows.push(Vec::new());
                }
                _ => {}
            }
        }
        self.pos += 1;
        let (close_start, close_end) = self.group_span(self.pos).ok_or(Fail::Unparsed)?;
        if render(&self.toks[close_start..close_end]) != env {
            return Err(Fail::Unparsed);
        }
        self.pos = close_end + 1;
        if rows.last().is_some_and(Vec::is_empty) {
            rows.pop();
        }
        let cols = rows.first().map_or(0, Vec::len);
        if cols == 0 || rows.iter().any(|r| r.len() != cols) {
            return Err(Fail::Unparsed);
        }
        let count = rows.len();
        Ok((env, Node::Matrix { rows: count, cols, cells: rows.into_iter().flatten().collect() }))
    }
}

/// The determinant of a square matrix of at most 4 rows whose entries are values, as the sum
/// over permutations (Leibniz): `\det \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}` is
/// 1·4 - 2·3.
fn determinant(matrix: &Node) -> PResult<Expr> {
    match matrix_linear(matrix)? {
        Linear::Matrix { rows, cols, cells } if rows == cols && rows <= 4 => Ok(linear::determinant(rows, &cells)),
        _ => Err(Fail::Unparsed),
    }
}

/// The entries of a value without unit, percent sign or infinity, as expressions.
fn plain_values(items: &[Node]) -> PResult<Vec<Expr>> {
    items
        .iter()
        .map(|item| match item {
            Node::Scalar(s) if s.unit.is_none() && !s.percent && s.infinity.is_none() => Ok(s.expr.clone()),
            _ => Err(Fail::Unparsed),
        })
        .collect()
}

/// A parsed matrix as a [`Linear`] matrix.
fn matrix_linear(matrix: &Node) -> PResult<Linear> {
    let Node::Matrix { rows, cols, cells } = matrix else { return Err(Fail::Unparsed) };
    Ok(Linear::Matrix { rows: *rows, cols: *cols, cells: plain_values(cells)? })
}

fn letter_expr(c: char) -> Expr {
    match c {
        'e' => Expr::Const(Constant::E),
        'i' => Expr::Const(Constant::I),
        other => Expr::Sym(Symbol::new(other.to_string())),
    }
}

fn is_value_command(c: &str) -> bool {
    matches!(c, "frac" | "sqrt" | "binom" | "pi" | "infty" | "lfloor" | "lceil" | "angle")
        || function_name(c)
        || names_a_symbol(c)
        || DECORATIONS.contains(&c)
}

/// `p = 5, q = 2; p = 7, q = 2`: solutions of a system, one per `;`-separated group of
/// assignments in alphabetical order ([`assignments_as_tuple`]), as a list of groups (each
/// compares with the tuple it names). `None` unless every group is such.
fn assignment_groups(items: &[Node], semicolons: &[usize]) -> Option<Vec<Node>> {
    if semicolons.is_empty() {
        return None;
    }
    let mut groups = Vec::with_capacity(semicolons.len() + 1);
    let mut start = 0;
    for &end in semicolons.iter().chain(std::iter::once(&items.len())) {
        let group = items.get(start..end)?;
        assignments_as_tuple(group)?;
        groups.push(Node::List(group.to_vec()));
        start = end;
    }
    Some(groups)
}

/// The name a subscript gives a symbol, the same for every spelling of the same typeset
/// label: font wrappers make no new symbol (`k_{\mathrm{B}}` is `k_B`, `T_{\text{s}}` is
/// `T_s`), so text is its letters and a brace group that only groups (not after `^`, `_` or a
/// command, whose argument it is) loses its braces. Whitespace is dropped.
fn subscript_name(toks: &[Tok]) -> String {
    let mut out = String::new();
    // For each open group: whether its braces are kept.
    let mut kept: Vec<bool> = Vec::new();
    let mut prev: Option<&Tok> = None;
    for tok in toks {
        match tok {
            Tok::Sym('{') => {
                let keep = matches!(prev, Some(Tok::Sym('^' | '_') | Tok::Cmd(_)))
                    || matches!(prev, Some(Tok::Sym('}'))) && out.ends_with('}');
                kept.push(keep);
                if keep {
                    out.push('{');
                }
            }
            Tok::Sym('}') => {
                if kept.pop().unwrap_or(true) {
                    out.push('}');
                }
            }
            Tok::Text(t) => out.extend(t.chars().filter(|c| !c.is_whitespace())),
            _ => {
                let mut one = String::new();
                render_token(tok, &mut one);
                out.extend(one.chars().filter(|c| !c.is_whitespace()));
            }
        }
        prev = Some(tok);
    }
    out
}

fn is_choice_letter(w: &str) -> bool {
    w.len() == 1 && matches!(w.chars().next(), Some('A'..='E' | 'a'..='e'))
}

/// The values of one item as one node: the value itself, or a list of the values `\pm` gives.
fn one_node(mut values: Vec<Node>) -> Option<Node> {
    match values.len() {
        0 => None,
        1 => values.pop(),
        _ => Some(Node::List(values)),
    }
}

/// Whether `toks[k]` follows a value: not at the start of an item (after a separator, an
/// opening bracket or a relation), where a label is the choice itself (`\textbf{(C)}`).
fn follows_value(toks: &[Tok], k: usize) -> bool {
    k > 0
        && !matches!(
            toks[k - 1],
            Tok::Sym(',' | ';' | '(' | '[' | '{' | '&' | '=' | '<' | '>') | Tok::SetOpen | Tok::RowSep
        )
}

/// A multiple-choice label after an item's value, as its length in tokens and its letter: a
/// text label `\textbf{(B)}` or `\text{ (E)}` (a capital letter in parentheses: `(a)` names a
/// part, and `(B)` in math could be a factor), or any label after an arrow (`\Rightarrow (D)`,
/// `\implies \text{B}`, `\Longrightarrow A`).
fn trailing_choice_label(toks: &[Tok], k: usize) -> Option<(usize, char)> {
    let capital = |w: &str| is_choice_letter(w).then(|| w.chars().next()).flatten().filter(char::is_ascii_uppercase);
    if let Some(Tok::Text(t)) = toks.get(k) {
        let inner = t.trim().strip_prefix('(')?.strip_suffix(')')?;
        return Some((1, capital(inner)?));
    }
    if !matches!(toks.get(k), Some(Tok::Cmd(c)) if matches!(&**c, "implies" | "to" | "rightarrow")) {
        return None;
    }
    match (toks.get(k + 1), toks.get(k + 2), toks.get(k + 3)) {
        (Some(Tok::Sym('(')), Some(Tok::Word(w)), Some(Tok::Sym(')'))) => Some((4, capital(w)?)),
        (Some(Tok::Text(t)), _, _) => {
            let t = t.trim();
            let inner = t.strip_prefix('(').and_then(|t| t.strip_suffix(')')).unwrap_or(t);
            Some((2, capital(inner)?))
        }
        (Some(Tok::Word(w)), _, _) => Some((2, capital(w)?)),
        _ => None,
    }
}

/// `(B)`, `B`, `(B) 17` as text: the letter and what follows it.
fn choice_text(t: &str) -> Option<(char, &str)> {
    let t = t.trim();
    let (letter, rest) = if let Some(inner) = t.strip_prefix('(') {
        let mut chars = inner.chars();
        let letter = chars.next()?;
        let rest = chars.as_str().strip_prefix(')')?;
        (letter, rest)
    } else {
        let mut chars = t.chars();
        let letter = chars.next()?;
        if !chars.as_str().is_empty() {
            return None;
        }
        (letter, "")
    };
    is_choice_letter(&letter.to_string()).then(|| (letter.to_ascii_uppercase(), rest.trim()))
}

/// A plain noun trailing a number (`5 apples`, `12 students`): four letters or more.
fn is_generic_noun(w: &str) -> bool {
    w.len() >= 4
        && !function_name(w)
        && w != "sqrt"
        && w.chars().all(|c| c.is_ascii_alphabetic())
        && !is_qualifier(w)
        && !changes_a_value(w)
}

/// A word after a value that is no noun it counts but changes it: a scale ("million"), a
/// power ("squared"), an operation ("times", "inverse") or a fraction ("thirds", "halves"; not
/// "quarters", often coins). The normalizer rewrites those right after a numeral; elsewhere
/// they leave the answer unparsed rather than dropped.
fn changes_a_value(w: &str) -> bool {
    use crate::extract::{denominator, is_operation_word, scale};
    scale(w).is_some()
        || is_operation_word(w)
        || (denominator(w).is_some() && !w.to_ascii_lowercase().starts_with("quarter"))
}

/// Words after a value that deny, hedge or bound it rather than name what it counts: `10 not`,
/// `7 or more`, `3 is impossible`, `5 at most`, `5 degrees below zero` are no `5 apples`.
const QUALIFIERS: &[&str] = &[
    "not", "never", "none", "nothing", "impossible", "wrong", "incorrect", "false", "invalid", "undefined", "unknown",
    "more", "less", "fewer", "least", "most", "maybe", "possibly", "probably", "perhaps",
    // `5 \text{ degrees below zero}` is -5.
    "below", "above",
];

fn is_qualifier(w: &str) -> bool {
    QUALIFIERS.iter().any(|q| q.eq_ignore_ascii_case(w))
}

/// The symbol a derivative is: `\frac{dy}{dt}`, `\frac{d y}{d t}` and plain `dy/dt` give the
/// same one (`num` and `den` without spaces).
fn derivative_symbol(num: &str, den: &str) -> Expr {
    Expr::Sym(Symbol::new(format!("d({num})/d({den})")))
}

/// `\frac{dM}{dt}`, `\frac{d^{2} v}{d t^{2}}`, `\frac{dx}{dt}`.
fn is_derivative(num: &[Tok], den: &[Tok]) -> bool {
    let starts_with_d = |toks: &[Tok]| match toks.first() {
        Some(Tok::Word(w)) => w == "d" || (w.len() == 2 && w.starts_with('d')),
        _ => false,
    };
    let variable_after_d = match den {
        [Tok::Word(w), rest @ ..] if w.len() == 2 && w.starts_with('d') => {
            rest.is_empty() || sym_tok(rest.first(), '^')
        }
        [Tok::Word(d), Tok::Word(v), rest @ ..] if d == "d" && v.len() == 1 => {
            rest.is_empty() || sym_tok(rest.first(), '^')
        }
        [Tok::Word(d), Tok::Cmd(g), rest @ ..] if d == "d" && names_a_symbol(g) => {
            rest.is_empty() || sym_tok(rest.first(), '^')
        }
        _ => false,
    };
    starts_with_d(num) && variable_after_d
}

/// The numerator of a derivative names what is differentiated: `dy`, `d y`, `dM`, `d^{2} v`,
/// `d\theta`, `d x_1`; not the bare operator `d` or `d^{2}`, nor `d x^2` or `d(x^2)`.
fn differentiates_a_name(num: &[Tok]) -> bool {
    let after_name = match num {
        [Tok::Word(w), rest @ ..] if w.len() == 2 && w.starts_with('d') => rest,
        [Tok::Word(d), rest @ ..] if d == "d" => {
            // An order: `^{2}`.
            let rest = match rest {
                [Tok::Sym('^'), Tok::Sym('{'), Tok::Num(_), Tok::Sym('}'), rest @ ..] => rest,
                _ => rest,
            };
            match rest {
                [Tok::Word(v), rest @ ..] if v.len() == 1 => rest,
                [Tok::Cmd(g), rest @ ..] if names_a_symbol(g) => rest,
                _ => return false,
            }
        }
        _ => return false,
    };
    match after_name {
        [] => true,
        [Tok::Sym('_'), Tok::Sym('{'), inner @ .., Tok::Sym('}')] => {
            !inner.is_empty() && !inner.iter().any(|t| matches!(t, Tok::Sym('{' | '}')))
        }
        _ => false,
    }
}

fn as_set(operand: Operand) -> PResult<Node> {
    match operand {
        Operand::Node(
            n @ (Node::Bracketed { .. } | Node::Set(_) | Node::EmptySet | Node::NamedSet(_) | Node::Union(_)),
        ) => Ok(n),
        _ => Err(Fail::Unparsed),
    }
}

/// Scalar nodes for a value: a `\pm` becomes several values when `expand` allows.
fn scalar_nodes(expr: Expr, unit: Option<String>, expand: bool) -> PResult<Vec<Node>> {
    let info = expr.info();
    if expand && info.plus_minus > 0 && info.plus_minus <= MAX_PLUS_MINUS {
        return expr
            .expand_plus_minus()
            .into_iter()
            .map(|e| Ok(Node::Scalar(Box::new(make_scalar(e, unit.clone())?))))
            .collect();
    }
    Ok(vec![Node::Scalar(Box::new(make_scalar_with(expr, info, unit)?))])
}

/// A scalar with its notation-level attributes stripped from the expression: a trailing `\%`
/// and a trailing degree mark (which becomes the unit `degree`).
fn make_scalar(expr: Expr, unit: Option<String>) -> PResult<Scalar> {
    let info = expr.info();
    make_scalar_with(expr, info, unit)
}

/// [`make_scalar`] of an expression whose [`Expr::info`] is `info`: the expression is walked
/// once, not again after the stripping (which removes nodes on the chain from the root, each
/// one level off every path and no fact of the walk's).
fn make_scalar_with(expr: Expr, info: ExprInfo, unit: Option<String>) -> PResult<Scalar> {
    if info.depth > MAX_TREE_DEPTH {
        return Err(Fail::TooComplex);
    }
    let (expr, percent) = strip(expr, |e| match e {
        Expr::Percent(inner) => Ok(*inner),
        other => Err(other),
    });
    let (expr, degrees) = strip(expr, |e| match e {
        Expr::Degrees(inner) => Ok(*inner),
        other => Err(other),
    });
    let info = ExprInfo { depth: info.depth - u32::from(percent) - u32::from(degrees), ..info };
    let unit = match (degrees, unit) {
        (true, Some(u)) => Some(format!("degree {u}")),
        (true, None) => Some("degree".to_string()),
        (false, u) => u,
    };
    Ok(Scalar::with_info(expr, info, percent, unit))
}

/// Removes a top-level wrapper (possibly under a minus sign) recognised by `unwrap`.
fn strip(expr: Expr, unwrap: impl Fn(Expr) -> Result<Expr, Expr>) -> (Expr, bool) {
    match expr {
        Expr::Neg(inner) => match unwrap(*inner) {
            Ok(e) => (Expr::neg(e), true),
            Err(e) => (Expr::neg(e), false),
        },
        other => match unwrap(other) {
            Ok(e) => (e, true),
            Err(e) => (e, false),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Node {
        parse(&canonical_tokens(s))
    }

    fn scalar(s: &str) -> Scalar {
        match p(s) {
            Node::Scalar(sc) => *sc,
            other => panic!("{s:?} parsed as {other:?}"),
        }
    }

    fn exact(s: &str) -> BigRational {
        scalar(s).exact().cloned().unwrap_or_else(|| panic!("{s:?} has no exact value"))
    }

    fn r(n: i64, d: i64) -> BigRational {
        rational::ratio(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn numbers() {
        assert_eq!(exact("17"), r(17, 1));
        assert_eq!(exact("023"), r(23, 1));
        assert_eq!(exact("\\frac{1}{2}"), r(1, 2));
        assert_eq!(exact("\\frac12"), r(1, 2));
        assert_eq!(exact("-3/2"), r(-3, 2));
        assert_eq!(exact("7\\frac{3}{4}"), r(31, 4));
        assert_eq!(exact("-7\\frac34"), r(-31, 4));
        assert_eq!(exact("137 \\frac{1}{2}"), r(275, 2));
        assert_eq!(exact("1,000"), r(1000, 1));
        assert_eq!(exact("8.7 \\times 10^{8}"), r(870_000_000, 1));
        assert_eq!(exact("4.4e7"), r(44_000_000, 1));
        assert_eq!(exact("1e-5"), r(1, 100_000));
        assert_eq!(exact(".0000672"), r(672, 10_000_000));
        assert_eq!(exact("2^{10}"), r(1024, 1));
        assert_eq!(exact("5!"), r(120, 1));
        assert_eq!(exact("\\binom{5}{2}"), r(10, 1));
        assert_eq!(exact("52_8"), r(42, 1));
        assert!(exact("\\frac{100!}{2^{50}}").numer().bits() > 400);
    }

    #[test]
    fn small_numerals_match_big_parsing() {
        // Either side of the u64 fast path (19 digits) gives what BigInt parsing gives.
        for s in ["0", "9999999999999999999", "18446744073709551615", "99999999999999999999", "000000000000000000012"] {
            assert_eq!(exact(s), BigRational::from_integer(s.parse::<BigInt>().unwrap()), "{s}");
        }
        for (s, sig) in [
            ("0.000", 3),
            ("000.0120", 3),
            ("999999999.9999999999", 19),
            ("9999999999.9999999999", 20),
            ("0.0000000000000000001", 1),
        ] {
            let d = scalar(s).decimal.unwrap();
            assert_eq!(d.significant_digits, sig, "{s}");
            let (i, f) = s.split_once('.').unwrap();
            let value =
                rational::ratio(format!("{i}{f}").parse::<BigInt>().unwrap(), BigInt::from(10).pow(f.len() as u32));
            assert_eq!(d.value, value, "{s}");
        }
    }

    #[test]
    fn decimals_keep_their_precision() {
        let d = scalar("8.7 \\times 10^{8}").decimal.unwrap();
        assert_eq!((d.significant_digits, d.last_digit_exponent), (2, 7));
        let d = scalar("0.10").decimal.unwrap();
        assert_eq!((d.significant_digits, d.last_digit_exponent), (2, -2));
        assert!(scalar("7 \\times 10^{37}").decimal.is_none());
    }

    #[test]
    fn percent_degrees_units() {
        let s = scalar("10\\%");
        assert!(s.percent);
        assert_eq!(s.exact(), Some(&r(10, 1)));
        assert_eq!(scalar("90^\\circ").unit.as_deref(), Some("degree"));
        assert_eq!(scalar("\\frac{270}7\\text{ degrees}").unit.as_deref(), Some("degree"));
        assert_eq!(scalar("12 cm").unit.as_deref(), Some("cm"));
        assert_eq!(scalar("864 \\mbox{ inches}^2").unit.as_deref(), Some("inch^2"));
        assert_eq!(scalar("5.4 \\text{ cents}").unit.as_deref(), Some("cent"));
        assert_eq!(scalar("1950^\\circ C").unit.as_deref(), Some("degree c"));
        assert_eq!(scalar("15000 \\text{ kcal m}^{-2} \\text{yr}^{-1}").unit.as_deref(), Some("kcal m^-2 year^-1"));
        assert_eq!(scalar("4.4677 \\times 10^{14} Hz").unit.as_deref(), Some("hz"));
        assert_eq!(scalar("45 minutes").unit.as_deref(), Some("min"));
        assert_eq!(scalar("5 apples").unit.as_deref(), Some("apples"));
        // A single bare letter after a number is a variable, not a unit.
        assert!(scalar("12 m").unit.is_none());
    }

    #[test]
    fn structures() {
        assert!(matches!(p("(1, 2]"), Node::Bracketed { open: '(', close: ']', .. }));
        assert!(matches!(p("\\{1, 2\\}"), Node::Set(v) if v.len() == 2));
        assert!(matches!(p("2, 3"), Node::List(v) if v.len() == 2));
        assert!(matches!(p("(0,9) \\cup (9,36)"), Node::Union(v) if v.len() == 2));
        assert!(matches!(p("\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"), Node::Matrix { rows: 2, cols: 2, .. }));
        assert!(matches!(p("\\emptyset"), Node::EmptySet));
        assert!(matches!(p("\\{\\}"), Node::EmptySet));
        assert!(matches!(p("\\mathbb{R}"), Node::NamedSet('R')));
        assert!(matches!(p("1 \\pm \\sqrt{19}"), Node::List(v) if v.len() == 2));
        assert!(matches!(p("\\{1\\pm\\sqrt{5},-2\\}"), Node::Set(v) if v.len() == 3));
        assert!(matches!(p("x = 3, -2"), Node::List(v) if v.len() == 2));
        assert!(matches!(p("x \\in [-2,7]"), Node::Relation(_)));
        assert!(matches!(p("\\left[ \\frac{\\pi^2}{8}, \\frac{5 \\pi^2}{4} \\right]"), Node::Bracketed { .. }));
    }

    #[test]
    fn choices_and_text() {
        assert!(matches!(p("(B)"), Node::Choice { letter: 'B', value: None }));
        assert!(matches!(p("\\text{(C)}"), Node::Choice { letter: 'C', value: None }));
        assert!(matches!(p("\\textbf{(B)}"), Node::Choice { letter: 'B', value: None }));
        assert!(matches!(p("\\textbf{(C)}\\ 20"), Node::Choice { letter: 'C', value: Some(_) }));
        assert!(matches!(p("\\text{Evelyn}"), Node::Text(t) if t == "evelyn"));
        assert!(matches!(p("Evelyn"), Node::Text(t) if t == "evelyn"));
        assert!(matches!(p("\\text{no solution}"), Node::EmptySet));
        assert!(matches!(p("SRAC=LRAC"), Node::Text(_)));
    }

    #[test]
    fn expressions() {
        assert!(matches!(scalar("\\sin 2x").expr, Expr::Func(Func::Sin, ref a) if matches!(a[0], Expr::Mul(_))));
        assert!(matches!(scalar("\\sin x \\cos x").expr, Expr::Mul(_)));
        assert!(matches!(scalar("\\sin^{-1} x").expr, Expr::Func(Func::Asin, _)));
        assert!(matches!(scalar("\\sin^2 x").expr, Expr::Pow(..)));
        assert!(matches!(scalar("ce^{-2t}").expr, Expr::Mul(ref f) if matches!(f[1], Expr::Pow(..))));
        assert!(matches!(scalar("f(x)").expr, Expr::Apply { .. }));
        assert!(matches!(scalar("x(x+1)").expr, Expr::Mul(_)));
        assert!(matches!(scalar("1/2x").expr, Expr::SlashTail { .. }));
        assert!(matches!(scalar("\\log_2 8").expr, Expr::Log { base: Some(_), .. }));
        assert!(matches!(scalar("\\log 8").expr, Expr::Log { base: None, .. }));
        assert!(matches!(scalar("\\frac{dM}{dt}").expr, Expr::Sym(_)));
        assert!(matches!(scalar("|x-1|").expr, Expr::Func(Func::Abs, _)));
        assert!(matches!(scalar("\\lfloor n/2 \\rfloor").expr, Expr::Func(Func::Floor, _)));
        assert!(matches!(scalar("\\sqrt[3]{7}").expr, Expr::Func(Func::Root, _)));
        assert!(matches!(scalar("sqrt(2)").expr, Expr::Func(Func::Sqrt, _)));
    }

    #[test]
    fn unparseable_and_hostile() {
        assert!(matches!(p("\\int_0^1 x dx"), Node::Unparsed(Reason::Unparsed)));
        assert!(matches!(p("\\lim_{x \\to 0} x"), Node::Unparsed(_)));
        assert!(matches!(p(""), Node::Unparsed(_)));
        assert!(matches!(p("2 3"), Node::Unparsed(_)));
        let deep = "(".repeat(200) + "1" + &")".repeat(200);
        let fine = "(".repeat(40) + "1" + &")".repeat(40);
        assert!(matches!(p(&fine), Node::Scalar(_)));
        assert!(matches!(p(&deep), Node::Unparsed(Reason::TooComplex)));
        let long_chain = vec!["1"; 3000].join("/");
        assert!(matches!(p(&long_chain), Node::Unparsed(Reason::TooComplex)));
        let many = vec!["1"; 5000].join("+");
        assert!(matches!(p(&many), Node::Unparsed(Reason::TooComplex)));
        for s in [
            "(", ")", "\\frac{", "x^", "\\begin{pmatrix}", "\\sqrt[", "|", "||", "\\{", "f(", "(B", "\\text{(", "1_",
            "1_{99}", "\\angle",
        ] {
            let _ = p(s);
        }
    }
}
