//! [`Answer`] (parsed once, compared many times) and the comparison of answers.
//!
//! Rules by shape (a value on the left stands for either side):
//! - identical canonical forms are equal;
//! - scalars: [`super::scalar::compare`];
//! - an assignment (`x = 3`, `f(x) = 2x`, `x \in [0,1]`) compares by its value with a value; two
//!   assignments to the same name compare by value; other relations (including assignments to
//!   different names: `x = 3` is not `y = 3`) compare as relations ([`super::relation`]) or as
//!   sets of reals;
//! - tuples and intervals: same brackets, same length, element by element;
//! - sets and bare lists (`2, 3`, `x = 3 \text{ or } x = -2`): unordered multisets, each element
//!   matched to one element of the other side; a set of one element equals its element; against a
//!   tuple with the same elements, undecided (solutions or an ordered triple: the question says);
//!   a parenthesised group of relations is a list of them;
//! - intervals, unions, `\mathbb{R}` and one-variable inequalities: as sets of reals;
//! - matrices element by element; a column matrix equals a parenthesised tuple of its entries;
//! - multiple-choice letters by letter (`(B)`, `B`, `\text{(B)}`); against a value, the value
//!   written after the letter if any, else Unknown;
//! - text answers case-insensitively, and against anything by plain text;
//! - numerals in a base (`52_8`) by value; against the same digits in base ten, Unknown.

use std::sync::OnceLock;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::expr::{Constant, Decimal, Expr};
use super::judgement::{Judgement, Method, Reason, Verdict};
use super::node::{assignments_as_tuple, Node, Ratio, RelOp, Relation};
use super::normalize::{canonical_tokens, plain_text, render_canonical};
use super::parse::parse;
use super::policy::Policy;
use super::rational;
use super::scalar::Scalar;
use super::{relation, scalar, sets, solution_set, sympy};

/// Largest collection compared as an unordered multiset (n² element comparisons).
const MAX_UNORDERED: usize = 64;

/// A parsed answer: cheap to compare, `Send + Sync`, reusable across policies.
#[derive(Debug, Clone)]
pub struct Answer {
    canonical: String,
    /// [`Answer::plain`], made on first use: only a comparison with a text answer reads it.
    plain: OnceLock<String>,
    /// The text it was parsed from, for `plain`; None for a plain number, whose plain text is
    /// its canonical form.
    source: Option<Box<str>>,
    root: Node,
}

/// `text` without the ASCII white space around it, and whether it starts with a minus sign
/// (then the rest after it): the start of the fast paths of [`Answer::parse`].
fn sign_and_rest(text: &str) -> (bool, &str) {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    match trimmed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, trimmed),
    }
}

impl Answer {
    /// Parses `text`. Never fails: what cannot be parsed is kept as text (compared by its
    /// canonical form only, Unknown otherwise).
    pub fn parse(text: &str) -> Answer {
        if let Some(answer) = Answer::parse_plain_number(text).or_else(|| Answer::parse_plain_fraction(text)) {
            return answer;
        }
        Answer::parse_in_general(text)
    }

    /// [`Answer::parse`] by the general machinery alone (the fast paths' reference).
    fn parse_in_general(text: &str) -> Answer {
        let tokens = canonical_tokens(text);
        Answer {
            canonical: render_canonical(&tokens),
            plain: OnceLock::new(),
            source: Some(text.into()),
            root: parse(&tokens),
        }
    }

    /// Plain lowercase text without TeX wrappers ([`plain_text`]): what a text answer is
    /// compared with.
    fn plain(&self) -> &str {
        self.plain.get_or_init(|| match &self.source {
            Some(source) => plain_text(&canonical_tokens(source)),
            None => self.canonical.clone(),
        })
    }

    /// The common cases, a plain integer (`17`, `-3`, `023`: most anchor-search candidates) or
    /// decimal (`2.0`, `-0.50`: many ground truths), without the general machinery; gives
    /// exactly what the general path gives (tested).
    fn parse_plain_number(text: &str) -> Option<Answer> {
        let (negative, number) = sign_and_rest(text);
        let (int, frac) = match number.split_once('.') {
            Some((int, frac)) => (int, Some(frac)),
            None => (number, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int) || !frac.map_or(true, all_digits) || int.len() + frac.map_or(0, str::len) > 18 {
            return None;
        }
        let int = int.trim_start_matches('0');
        let int = if int.is_empty() { "0" } else { int };
        let (value, digits) = match frac {
            None => (Expr::int(int.parse().ok()?), int.to_string()),
            Some(frac) => {
                let mantissa: u64 = format!("{int}{frac}").parse().ok()?;
                // Significant digits as the general path counts them: from the first non-zero
                // digit, or all the fraction digits of a zero (`0.000`).
                let significant = if mantissa == 0 { frac.len() } else { mantissa.to_string().len() };
                let decimal = Decimal {
                    value: rational::ratio(BigInt::from(mantissa), BigInt::from(10u64).pow(frac.len() as u32)),
                    significant_digits: significant as u32,
                    last_digit_exponent: -(frac.len() as i64),
                };
                (Expr::Decimal(Box::new(decimal)), format!("{int}.{frac}"))
            }
        };
        let canonical = if negative { format!("-{digits}") } else { digits };
        let expr = if negative { Expr::neg(value) } else { value };
        Some(Answer {
            canonical,
            plain: OnceLock::new(),
            source: None,
            root: Node::Scalar(Box::new(Scalar::new(expr, false, None))),
        })
    }

    /// The next common case, a fraction of two positive integers without leading zeros
    /// (`\frac{1}{2}`, `-\dfrac{5}{36}`, `\tfrac{6}{4}`: 11% of the traces' distinct final and
    /// gold answers), without the general machinery (10.6k instructions for `\frac{1}{2}`);
    /// gives exactly what the general path gives (tested), unreduced as written.
    fn parse_plain_fraction(text: &str) -> Option<Answer> {
        let (negative, rest) = sign_and_rest(text);
        let rest = rest.strip_prefix('\\')?;
        let rest = ["frac{", "dfrac{", "tfrac{"].iter().find_map(|command| rest.strip_prefix(command))?;
        let (numerator, rest) = rest.split_once('}')?;
        let denominator = rest.strip_prefix('{')?.strip_suffix('}')?;
        let plain_integer =
            |s: &str| (1..=18).contains(&s.len()) && !s.starts_with('0') && s.bytes().all(|b| b.is_ascii_digit());
        if !plain_integer(numerator) || !plain_integer(denominator) {
            return None;
        }
        let value =
            Expr::Div(Box::new(Expr::int(numerator.parse().ok()?)), Box::new(Expr::int(denominator.parse().ok()?)));
        let canonical = format!("{}\\frac{{{numerator}}}{{{denominator}}}", if negative { "-" } else { "" });
        let expr = if negative { Expr::neg(value) } else { value };
        Some(Answer {
            canonical,
            plain: OnceLock::new(),
            source: Some(text.into()),
            root: Node::Scalar(Box::new(Scalar::new(expr, false, None))),
        })
    }

    /// The exact value of a plain number (no unit, no percent sign, one reading): `3/4`,
    /// `0.75`, `-\frac{1}{2}`; `None` for anything else.
    pub fn plain_rational(&self) -> Option<&BigRational> {
        let Node::Scalar(scalar) = &self.root else { return None };
        if scalar.percent || scalar.unit.is_some() || scalar.info.readings != 0 {
            return None;
        }
        scalar.exact()
    }

    /// The real values of a constant scalar answer under each of its readings, for a test of
    /// how its value may be written: `Some([])` for a scalar with free variables or for an
    /// answer that is no scalar (a tuple, a set, a relation: no one value), `None` when a value
    /// is not a known real number to f64 precision (complex, too imprecise, out of f64's range)
    /// or the scalar carries a percent sign or a unit (whose values a policy may scale).
    pub fn real_values(&self) -> Option<Vec<f64>> {
        let Node::Scalar(scalar) = &self.root else { return Some(Vec::new()) };
        if scalar.percent || scalar.unit.is_some() {
            return None;
        }
        if !scalar.is_constant() {
            return Some(Vec::new());
        }
        let mut values = Vec::new();
        for readings in 0..=super::expr::ALL_READINGS {
            if readings & !scalar.info.readings != 0 {
                continue;
            }
            let ball = scalar.values(readings).ball?;
            let precise = ball.rad <= ball.re.abs() * 1e-9;
            if !(ball.real || ball.im == 0.0) || !ball.re.is_finite() || !precise {
                return None;
            }
            values.push(ball.re);
        }
        Some(values)
    }

    /// The canonical string ([`super::normalize`]).
    pub fn canonical(&self) -> &str {
        &self.canonical
    }

    /// Whether the answer is mathematics (numbers, expressions, relations, tuples, sets), not
    /// a multiple-choice letter, a text answer or unparsed notation, also as an item.
    pub fn is_mathematical(&self) -> bool {
        let not_words = |n: &Node| !matches!(n, Node::Choice { .. } | Node::Text(_) | Node::Unparsed(_));
        match &self.root {
            Node::List(items) | Node::Set(items) | Node::Bracketed { items, .. } => items.iter().all(not_words),
            root => not_words(root),
        }
    }

    pub fn node(&self) -> &Node {
        &self.root
    }

    /// A string for the CAS fallback: a Python expression over sympy and the container helpers
    /// of `apr_fast.cas` (`Tuple_`, `Set_`, `List_`, `Rel_`, ...). None where the answer has no
    /// symbolic form (text, choices, unparsed notation).
    pub fn to_sympy(&self) -> Option<String> {
        sympy::render(&self.root)
    }

    /// [`Answer::to_sympy`] for a comparison under `policy`: a long decimal is a rounding
    /// window (see [`sympy::render_rounding`]).
    pub fn to_sympy_for(&self, policy: &Policy) -> Option<String> {
        sympy::render_rounding(&self.root, policy.decimal_min_sig_digits)
    }
}

/// Compares two parsed answers.
pub fn compare(a: &Answer, b: &Answer, policy: &Policy) -> Judgement {
    if a.canonical == b.canonical && !a.canonical.is_empty() {
        return Judgement::equal(Method::Exact, Reason::SameCanonicalForm);
    }
    match (&a.root, &b.root) {
        (Node::Unparsed(reason), _) | (_, Node::Unparsed(reason)) => Judgement::unknown(*reason),
        (Node::Text(x), Node::Text(y)) if x == y => text_verdict(true),
        (Node::Text(x), Node::Text(y)) => match (math_in_text(x), math_in_text(y)) {
            (Some(p), Some(q)) => compare(&p, &q, policy),
            _ => text_verdict(false),
        },
        (Node::Text(x), _) => match math_in_text(x) {
            Some(inner) => compare(&inner, b, policy),
            None => text_verdict(*x == b.plain()),
        },
        (_, Node::Text(y)) => match math_in_text(y) {
            Some(inner) => compare(a, &inner, policy),
            None => text_verdict(a.plain() == *y),
        },
        (x, y) => compare_roots(x, y, policy),
    }
}

/// The answer a text-mode answer states as mathematics, when it holds a numeral and reads as
/// more than words: `\text{18 cm}` says what `18 cm` says, `\text{x = 5}` what `x = 5` says.
/// `None` for words (`\text{Evelyn}`) and for prose that reads as nothing else.
fn math_in_text(text: &str) -> Option<Answer> {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    let inner = Answer::parse(text);
    (!matches!(inner.root, Node::Text(_) | Node::Unparsed(_))).then_some(inner)
}

/// Parses and compares two strings.
pub fn equivalent(a: &str, b: &str, policy: &Policy) -> Judgement {
    compare(&Answer::parse(a), &Answer::parse(b), policy)
}

fn text_verdict(equal: bool) -> Judgement {
    if equal {
        Judgement::equal(Method::Text, Reason::TextMatch)
    } else {
        Judgement::not_equal(Method::Text, Reason::TextMatch)
    }
}

/// Whether a bracketed group writes a vector whatever its brackets: `(..)` or `[..]` around
/// three or more items (two items in square brackets are a closed interval).
fn is_vector(open: char, close: char, items: &[Node]) -> bool {
    matches!((open, close), ('(', ')') | ('[', ']')) && items.len() >= 3
}

fn different_shape() -> Judgement {
    Judgement::not_equal(Method::Exact, Reason::DifferentShape)
}

fn different_structure() -> Judgement {
    Judgement::not_equal(Method::Exact, Reason::DifferentStructure)
}

/// Compares two answers' nodes: by shape, and where that finds no equality between two
/// conditions on one variable, by their solution sets.
fn compare_roots(a: &Node, b: &Node, policy: &Policy) -> Judgement {
    let judgement = compare_nodes(a, b, policy);
    // Values compared exactly (`x = 10^{20}` against `x = 10^{20} + 1`) or as exact sets of
    // reals stay decided; different shapes and relations that are not multiples of each other
    // may still be one condition.
    let by_shape_only =
        matches!(judgement.reason, Reason::DifferentShape | Reason::DifferentStructure | Reason::RelationFactor);
    if judgement.verdict == Verdict::Equal
        || (judgement.verdict == Verdict::NotEqual && !by_shape_only)
        || !may_be_conditions(a, b)
    {
        return judgement;
    }
    // `x^2 = 4` and `x = 2 \text{ or } x = -2`: different shapes, one condition on x.
    let judgement = solution_set::compare(a, b, policy).unwrap_or(judgement);
    if judgement.verdict == Verdict::NotEqual && judgement.reason == Reason::DifferentShape && may_be_alternatives(a, b)
    {
        return Judgement::unknown(Reason::AmbiguousNotation);
    }
    judgement
}

/// An equation against a list of equations that each give one name a value in other variables
/// (`|x| = |y|` against `x = y \text{ or } x = -y`; "or" and "," read alike): the list may be
/// alternatives whose union is the equation, which shapes cannot tell (with one variable the
/// solution sets decide first).
fn may_be_alternatives(a: &Node, b: &Node) -> bool {
    let alternatives = |items: &[Node]| {
        let mut name: Option<&str> = None;
        items.len() >= 2
            && items.iter().all(|item| {
                let Node::Relation(r) = item else { return false };
                let ([RelOp::Eq], [Node::Scalar(lhs), Node::Scalar(value)]) = (r.ops.as_slice(), r.parts.as_slice())
                else {
                    return false;
                };
                let Expr::Sym(symbol) = &lhs.expr else { return false };
                value.expr.info().free_symbols && *name.get_or_insert(&symbol.name) == symbol.name
            })
    };
    match (a, b) {
        (Node::Relation(r), Node::List(items)) | (Node::List(items), Node::Relation(r)) => {
            r.ops == [RelOp::Eq] && alternatives(items)
        }
        _ => false,
    }
}

/// A cheap test before [`solution_set::compare`]: relations (or lists of them) on one side,
/// relations or sets of reals on the other.
fn may_be_conditions(a: &Node, b: &Node) -> bool {
    let relational = |n: &Node| match n {
        Node::Relation(_) => true,
        Node::List(items) | Node::Bracketed { items, .. } => {
            items.iter().any(|i| matches!(i, Node::Relation(_) | Node::Bracketed { .. }))
        }
        _ => false,
    };
    let condition = |n: &Node| {
        relational(n)
            || matches!(
                n,
                Node::Bracketed { .. } | Node::Set(_) | Node::Union(_) | Node::EmptySet | Node::NamedSet('R')
            )
    };
    (relational(a) && condition(b)) || (relational(b) && condition(a))
}

/// Compares two nodes (see module doc for the rules).
pub fn compare_nodes(a: &Node, b: &Node, policy: &Policy) -> Judgement {
    use Node::*;
    match (a, b) {
        (Unparsed(r), _) | (_, Unparsed(r)) => return Judgement::unknown(*r),
        (Text(x), Text(y)) => return text_verdict(x == y),
        (Text(_), _) | (_, Text(_)) => return different_shape(),
        (Choice { .. }, _) => return compare_choice(a, b, policy),
        (_, Choice { .. }) => return compare_choice(b, a, policy),
        _ => {}
    }
    if sets::is_set_valued(a) || sets::is_set_valued(b) {
        if let Some(j) = sets::compare(a, b, policy) {
            return j;
        }
    }
    match (a, b) {
        (Scalar(x), Scalar(y)) => compare_scalars(x, y, policy),
        (Relation(x), Relation(y)) => compare_relations(x, y, policy),
        (Relation(r), other) | (other, Relation(r)) => match r.assigned_value() {
            Some(value) => compare_nodes(value, other, policy),
            None => different_shape(),
        },
        (Ratio(x), Ratio(y)) => compare_ratios(x, y, policy),
        // A ratio that may be a clock time (`2:30` against `0.0667`) is equal to nothing else.
        (Ratio(r), other) | (other, Ratio(r)) => match &r.quotient {
            Some(quotient) if !r.clock_like => compare_nodes(quotient, other, policy),
            _ => Judgement::unknown(Reason::AmbiguousNotation),
        },
        (EmptySet, EmptySet) => Judgement::equal(Method::Exact, Reason::ExactValue),
        (EmptySet, Set(_) | List(_)) | (Set(_) | List(_), EmptySet) => different_structure(),
        (Bracketed { open: o1, close: c1, items: x }, Bracketed { open: o2, close: c2, items: y }) => {
            // Three or more items are no interval: `[1, 2, 3]` and `(1, 2, 3)` are one vector.
            let same_brackets = (o1 == o2 && c1 == c2) || (is_vector(*o1, *c1, x) && is_vector(*o2, *c2, y));
            if !same_brackets || x.len() != y.len() {
                different_structure()
            } else {
                ordered(x, y, policy)
            }
        }
        (Set(x) | List(x), Set(y) | List(y)) => {
            let judgement = unordered(x, y, policy);
            // A set, or a list of tuples (the solutions of a system), says each item once:
            // `(3, 2), (2, 3), (3, 2)` is `(2, 3), (3, 2)`. A list of numbers may answer
            // several questions, so `2, 2` stays two answers.
            let is_set =
                |n: &Node, items: &[Node]| matches!(n, Set(_)) || items.iter().all(|i| matches!(i, Bracketed { .. }));
            if judgement.verdict == Verdict::Equal || !(is_set(a, x) && is_set(b, y)) {
                return judgement;
            }
            match (without_repeats(x, policy), without_repeats(y, policy)) {
                (None, None) => judgement,
                (dx, dy) => unordered(dx.as_deref().unwrap_or(x), dy.as_deref().unwrap_or(y), policy),
            }
        }
        // `x = 1, y = 2` is the point `(1, 2)`: no interval reading is left.
        (Bracketed { open: '(', close: ')', items: x }, List(y))
        | (List(y), Bracketed { open: '(', close: ')', items: x })
            if assignments_as_tuple(y).is_some_and(|values| values.len() == x.len()) =>
        {
            let values = assignments_as_tuple(y).unwrap_or_default();
            Judgement::all(x.iter().zip(values).map(|(p, q)| compare_nodes(p, q, policy)))
        }
        // `(f(n) = n, g(n) = 1)`: a parenthesised group of relations is a list of them.
        (Bracketed { open: '(', close: ')', items: x }, List(y))
        | (List(y), Bracketed { open: '(', close: ')', items: x })
            if x.iter().all(|n| matches!(n, Relation(_))) =>
        {
            unordered(x, y, policy)
        }
        // `\frac13, -2, 5` against `(\frac13, -2, 5)`: solutions or an ordered triple, depending
        // on the question. The same items in the same order say the same under both readings
        // (three or more, or a pair of values that is no open interval: `(1000, 10)`; a
        // parenthesised pair `(1, 10)` may be one, and `y = 2, x = 1` leaves the pair's order
        // open); otherwise equal elements leave it undecided and different ones decide.
        (Bracketed { open: '(', close: ')', items: x }, List(y))
        | (List(y), Bracketed { open: '(', close: ')', items: x })
            if (x.len() >= 3 || (x.len() == 2 && is_no_interval(x) && !y.iter().any(|n| matches!(n, Relation(_)))))
                && x.len() == y.len()
                && ordered(x, y, policy).verdict == Verdict::Equal =>
        {
            ordered(x, y, policy)
        }
        (Bracketed { open: '(', close: ')', items: x }, Set(y) | List(y))
        | (Set(y) | List(y), Bracketed { open: '(', close: ')', items: x }) => match unordered(x, y, policy) {
            j if j.verdict == Verdict::Equal => Judgement::unknown(Reason::AmbiguousNotation),
            j if j.verdict == Verdict::NotEqual => different_shape(),
            j => j,
        },
        // `\{3\}` as the answer to "find all x" says what `3` says.
        (Set(x), other) | (other, Set(x)) if x.len() == 1 && !matches!(other, Union(_) | Matrix { .. }) => {
            compare_nodes(&x[0], other, policy)
        }
        (Matrix { rows: r1, cols: c1, cells: x }, Matrix { rows: r2, cols: c2, cells: y }) => {
            if r1 != r2 || c1 != c2 {
                different_structure()
            } else {
                ordered(x, y, policy)
            }
        }
        (Matrix { cols: 1, cells, .. }, Bracketed { open, close, items })
        | (Bracketed { open, close, items }, Matrix { cols: 1, cells, .. })
            if (*open, *close) == ('(', ')') || is_vector(*open, *close, items) =>
        {
            if cells.len() == items.len() {
                ordered(cells, items, policy)
            } else {
                different_structure()
            }
        }
        (NamedSet(x), NamedSet(y)) => {
            if x == y {
                Judgement::equal(Method::Exact, Reason::ExactValue)
            } else {
                different_structure()
            }
        }
        _ => different_shape(),
    }
}

fn compare_scalars(a: &scalar::Scalar, b: &scalar::Scalar, policy: &Policy) -> Judgement {
    match (based(a), based(b)) {
        (Some((_, x)), Some((_, y))) => {
            if x == y {
                Judgement::equal(Method::Exact, Reason::BaseNumeral)
            } else {
                Judgement::not_equal(Method::Exact, Reason::BaseNumeral)
            }
        }
        (Some((digits, value)), None) | (None, Some((digits, value))) => {
            let other = if based(a).is_some() { b } else { a };
            match other.exact().filter(|r| r.is_integer()) {
                Some(r) if r.numer() == value => Judgement::equal(Method::Exact, Reason::BaseNumeral),
                // `52` against `52_8`: the same digits, perhaps meant in base 8.
                Some(r) if r.numer().to_string() == digits => Judgement::unknown(Reason::BaseVersusDecimal),
                Some(_) => Judgement::not_equal(Method::Exact, Reason::BaseNumeral),
                None => scalar::compare(a, b, policy),
            }
        }
        (None, None) => scalar::compare(a, b, policy),
    }
}

/// A scalar that is exactly a numeral in a base: its digits and value.
fn based(s: &scalar::Scalar) -> Option<(&str, &BigInt)> {
    match &s.expr {
        Expr::Based { digits, value, .. } => Some((digits, value)),
        _ => None,
    }
}

/// The same terms are the same ratio. Otherwise two ratios compare by their quotients; a ratio
/// that may be a clock time against one that may not is undecided (`2:30` against `1:15`);
/// two clock times with different terms differ as times, so they differ unless their
/// quotients may be equal (`10:30` and `7:21` are both 1/3), and a time on the hour has no
/// quotient (`12:00` against `1:00` differ).
fn compare_ratios(x: &Ratio, y: &Ratio, policy: &Policy) -> Judgement {
    let same = ordered(&x.terms, &y.terms, policy);
    if same.verdict == Verdict::Equal {
        return same;
    }
    match (x.clock_like, y.clock_like, &x.quotient, &y.quotient) {
        (false, false, Some(p), Some(q)) => compare_nodes(p, q, policy),
        (true, true, Some(p), Some(q)) => match compare_nodes(p, q, policy) {
            j if j.verdict == Verdict::NotEqual => j,
            _ => Judgement::unknown(Reason::AmbiguousNotation),
        },
        (true, true, _, _) => Judgement::not_equal(Method::Exact, Reason::ExactValue),
        _ => Judgement::unknown(Reason::AmbiguousNotation),
    }
}

fn compare_relations(a: &Relation, b: &Relation, policy: &Policy) -> Judgement {
    // Two assignments to the same name compare by value (`x \in [0, 1]`, `(x, y) = (1, 2)`);
    // to different names they are different relations (`x = 1, y = 2` is not `x = 2, y = 1`).
    // `\frac{1}{3} \approx 0.333` and `2 + 3 = 5` state their constant, to compare with what
    // the other states.
    let states_constant = |r: &Relation| r.approximated_constant().is_some() || r.true_constant_chain().is_some();
    if states_constant(a) || states_constant(b) {
        return match (a.assigned_value(), b.assigned_value()) {
            (Some(x), Some(y)) => compare_nodes(x, y, policy),
            _ => different_shape(),
        };
    }
    if let (Some(va), Some(vb)) = (a.assigned_value(), b.assigned_value()) {
        if same_names(&a.parts[0], &b.parts[0]) || name_one_function((&a.parts[0], va), (&b.parts[0], vb)) {
            return compare_nodes(va, vb, policy);
        }
    }
    let by_factor = relation::compare(a, b, policy);
    if let Some(j) = by_factor.filter(|j| j.reason != Reason::OneBranch) {
        return j;
    }
    // Relations that agree on one branch of an |…| may still be told apart by their solution
    // sets (`|x| = 2` against `x = 2`).
    let as_nodes = (Node::Relation(Box::new(a.clone())), Node::Relation(Box::new(b.clone())));
    if let Some(j) = sets::compare(&as_nodes.0, &as_nodes.1, policy) {
        return j;
    }
    if let Some(j) = by_factor {
        return j;
    }
    if a.ops != b.ops || a.parts.len() != b.parts.len() {
        return different_structure();
    }
    match ordered(&a.parts, &b.parts, policy) {
        j if j.verdict == Verdict::Equal => j,
        // Different parts of a chain may still describe the same relation.
        _ => Judgement::unknown(Reason::TooClose),
    }
}

/// Whether two name-like nodes name the same things (`x`, `f(x)`, `(x, y)`); `x` and `x(t)` do
/// (x written as a function of t), and so do `f(x)` and `f(t)` (the values then decide);
/// `f(4)` and `f(5)` do not (two values of one function), nor do `g(5)` and `g(x)`.
fn same_names(a: &Node, b: &Node) -> bool {
    let base = |e: &Expr| match e {
        Expr::Sym(s) => Some(s.name.clone()),
        Expr::Apply { func, .. } => Some(func.name.clone()),
        _ => None,
    };
    let arguments_differ = |p: &Expr, q: &Expr| match (p, q) {
        (Expr::Apply { arg: x, .. }, Expr::Apply { arg: y, .. }) => {
            x != y && !(applied_variable(p).is_some() && applied_variable(q).is_some())
        }
        _ => false,
    };
    match (a, b) {
        (Node::Scalar(x), Node::Scalar(y)) => match (base(&x.expr), base(&y.expr)) {
            (Some(p), Some(q)) => p == q && !arguments_differ(&x.expr, &y.expr),
            _ => false,
        },
        (Node::Bracketed { items: x, .. }, Node::Bracketed { items: y, .. }) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_names(p, q))
        }
        _ => false,
    }
}

/// Whether two assignments give one function of one variable under different labels:
/// `f(x) = 2x + 3`, `g(x) = 2x + 3` and `y = 2x + 3` all give 2x + 3 as a function of x, as
/// each of them already equals the bare `2x + 3`. One label applies a function to a name; the
/// other applies one to the same name, or is a single name (the dependent variable) that
/// neither value uses. `f(x)` against `g(t)`, or `x = 3` against `y = 3`, stay relations.
fn name_one_function((la, va): (&Node, &Node), (lb, vb): (&Node, &Node)) -> bool {
    let (Node::Scalar(a), Node::Scalar(b)) = (la, lb) else { return false };
    let uses = |value: &Node, name: &str| match value {
        Node::Scalar(s) => s.expr.symbol_names().contains(&name),
        _ => true,
    };
    match (applied_variable(&a.expr), applied_variable(&b.expr)) {
        (Some(x), Some(t)) => x == t,
        (Some(x), None) | (None, Some(x)) => {
            let dependent = if applied_variable(&a.expr).is_some() { &b.expr } else { &a.expr };
            matches!(dependent, Expr::Sym(y) if y.name != x && !uses(va, &y.name) && !uses(vb, &y.name))
        }
        (None, None) => false,
    }
}

/// The variable a label applies its function to: `x` in `f(x)`; `None` for `f(4)` or a name.
fn applied_variable(e: &Expr) -> Option<&str> {
    match e {
        Expr::Apply { arg, .. } => match arg.as_ref() {
            Expr::Sym(s) => Some(s.name.as_str()),
            _ => None,
        },
        _ => None,
    }
}

fn compare_choice(choice: &Node, other: &Node, policy: &Policy) -> Judgement {
    let Node::Choice { letter, value } = choice else { return different_shape() };
    if let Some(l) = other.choice_letter() {
        return if l == *letter {
            Judgement::equal(Method::Text, Reason::ChoiceLetter)
        } else {
            Judgement::not_equal(Method::Text, Reason::ChoiceLetter)
        };
    }
    match value {
        Some(v) => compare_nodes(v, other, policy),
        // `\text{e}` against `e`: the same letter whether it names a choice or the constant.
        None if constant_letter(other) == Some(*letter) => Judgement::equal(Method::Text, Reason::ChoiceLetter),
        None => Judgement::unknown(Reason::ChoiceVersusValue),
    }
}

/// The letter of a bare `e` or `i` (which parse as constants, not as names).
fn constant_letter(node: &Node) -> Option<char> {
    match node {
        Node::Scalar(s) if s.unit.is_none() => match s.expr {
            Expr::Const(Constant::E) => Some('E'),
            Expr::Const(Constant::I) => Some('I'),
            _ => None,
        },
        _ => None,
    }
}

/// Two items of a tuple, set or list. A set among the items is a member in its own right:
/// `\{1, \{2\}\}` is not `\{1, 2\}` (only a whole answer `\{3\}` says what `3` says).
fn compare_items(a: &Node, b: &Node, policy: &Policy) -> Judgement {
    let is_set = |n: &Node| matches!(n, Node::Set(_) | Node::EmptySet);
    if is_set(a) != is_set(b) {
        return different_structure();
    }
    compare_nodes(a, b, policy)
}

fn ordered(x: &[Node], y: &[Node], policy: &Policy) -> Judgement {
    Judgement::all(x.iter().zip(y).map(|(p, q)| compare_items(p, q, policy)))
}

/// Multiset comparison: equal when a perfect matching of equal pairs exists; not equal when no
/// perfect matching exists even counting undecided pairs.
fn unordered(x: &[Node], y: &[Node], policy: &Policy) -> Judgement {
    if x.len() != y.len() {
        return different_structure();
    }
    if x.len() > MAX_UNORDERED {
        return Judgement::unknown(Reason::TooComplex);
    }
    // The common case first: already in the same order.
    let in_order: Vec<Judgement> = x.iter().zip(y).map(|(p, q)| compare_items(p, q, policy)).collect();
    if in_order.iter().all(Judgement::is_equal) {
        return Judgement::all(in_order);
    }
    let n = x.len();
    let table: Vec<Vec<Judgement>> = x
        .iter()
        .enumerate()
        .map(|(i, p)| {
            y.iter().enumerate().map(|(j, q)| if i == j { in_order[i] } else { compare_items(p, q, policy) }).collect()
        })
        .collect();
    if let Some(matching) = perfect_matching(n, |i, j| table[i][j].verdict == Verdict::Equal) {
        return Judgement::all(matching.iter().enumerate().map(|(i, &j)| table[i][j]));
    }
    if perfect_matching(n, |i, j| table[i][j].verdict != Verdict::NotEqual).is_none() {
        return different_structure();
    }
    let first_unknown = table.iter().flatten().find(|j| j.verdict == Verdict::Unknown).copied();
    first_unknown.unwrap_or(Judgement::unknown(Reason::TooClose))
}

/// `items` without those equal to an earlier one; `None` when none repeats (or there are too
/// many items to compare all pairs).
fn without_repeats(items: &[Node], policy: &Policy) -> Option<Vec<Node>> {
    if items.len() > MAX_UNORDERED {
        return None;
    }
    let mut kept: Vec<&Node> = Vec::with_capacity(items.len());
    for item in items {
        if !kept.iter().any(|k| compare_nodes(k, item, policy).verdict == Verdict::Equal) {
            kept.push(item);
        }
    }
    (kept.len() < items.len()).then(|| kept.into_iter().cloned().collect())
}

/// A perfect matching of 0..n to 0..n along `edge` (Kuhn's augmenting paths): `m[i]` is the
/// partner of i. Iterative, so no recursion depth to worry about.
fn perfect_matching(n: usize, edge: impl Fn(usize, usize) -> bool) -> Option<Vec<usize>> {
    let mut partner_of_right: Vec<Option<usize>> = vec![None; n];
    for start in 0..n {
        // Breadth-first search for an augmenting path from `start`.
        let mut parent_left: Vec<Option<usize>> = vec![None; n]; // right j reached from left i
        let mut queue = vec![start];
        let mut head = 0;
        let mut found = None;
        while head < queue.len() && found.is_none() {
            let i = queue[head];
            head += 1;
            for j in 0..n {
                if parent_left[j].is_some() || !edge(i, j) {
                    continue;
                }
                parent_left[j] = Some(i);
                match partner_of_right[j] {
                    None => {
                        found = Some(j);
                        break;
                    }
                    Some(next) => queue.push(next),
                }
            }
        }
        let mut j = found?;
        // Flip the path back to `start`.
        loop {
            let i = parent_left[j]?;
            let previous = (0..n).find(|&r| partner_of_right[r] == Some(i));
            partner_of_right[j] = Some(i);
            match previous {
                Some(r) if i != start => j = r,
                _ => break,
            }
        }
    }
    let mut matching = vec![0; n];
    for (j, i) in partner_of_right.iter().enumerate() {
        matching[(*i)?] = j;
    }
    Some(matching)
}

/// Whether the pair `(a, b)` cannot be an open interval: two real constants with a >= b (the
/// interval would be empty, which nobody writes that way), so it is a point.
fn is_no_interval(pair: &[Node]) -> bool {
    let [Node::Scalar(a), Node::Scalar(b)] = pair else { return false };
    if let (Some(x), Some(y)) = (a.exact(), b.exact()) {
        return x >= y;
    }
    match (a.ball(), b.ball()) {
        (Some(x), Some(y)) => x.real && y.real && x.re - x.rad >= y.re + y.rad,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain-number fast path gives `s` exactly what the general path gives.
    fn same_as_general_path(s: &str) -> Result<(), String> {
        let fast = Answer::parse_plain_number(s).ok_or_else(|| format!("{s:?} is not a plain number"))?;
        let tokens = canonical_tokens(s);
        let general = Answer {
            canonical: render_canonical(&tokens),
            plain: plain_text(&tokens).into(),
            source: None,
            root: parse(&tokens),
        };
        let same = fast.canonical == general.canonical
            && fast.plain() == general.plain()
            && format!("{:?}", fast.root) == format!("{:?}", general.root);
        same.then_some(()).ok_or_else(|| format!("{s:?}: fast {fast:?} vs general {general:?}"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn integer_fast_path_matches_the_general_path(s in "[ ]?-?0{0,3}[0-9]{1,15}[ ]?") {
            prop_assert_eq!(same_as_general_path(&s), Ok(()));
        }

        #[test]
        fn decimal_fast_path_matches_the_general_path(s in "[ ]?-?0{0,2}[0-9]{1,7}\\.[0-9]{1,7}0{0,2}[ ]?") {
            prop_assert_eq!(same_as_general_path(&s), Ok(()));
        }

        #[test]
        fn fraction_fast_path_matches_the_general_path(s in "[ \n]?-?\\\\[dt]?frac\\{[1-9][0-9]{0,17}\\}\\{[1-9][0-9]{0,17}\\}[ ]?") {
            prop_assert_eq!(fraction_same_as_general_path(&s), Ok(()));
        }
    }

    /// The fraction fast path gives `s` exactly what the general path gives, plain text too.
    fn fraction_same_as_general_path(s: &str) -> Result<(), String> {
        let fast = Answer::parse_plain_fraction(s).ok_or_else(|| format!("{s:?} is not a plain fraction"))?;
        let general = Answer::parse_in_general(s);
        let same = format!("{fast:?}") == format!("{general:?}") && fast.plain() == general.plain();
        same.then_some(()).ok_or_else(|| format!("{s:?}: fast {fast:?} vs general {general:?}"))
    }

    #[test]
    fn fraction_fast_path_edge_cases() {
        for s in [
            "\\frac{1}{2}", "-\\frac{3}{4}", "\\dfrac{6}{4}", "\\tfrac{12}{1}", " \\frac{999999999999999999}{7} ",
            "\\frac{1}{999999999999999999}",
        ] {
            assert_eq!(fraction_same_as_general_path(s), Ok(()));
        }
        for s in [
            "\\frac{0}{2}", "\\frac{04}{8}", "\\frac{1}{0}", "\\frac12", "\\frac {1}{2}", "\\frac{ 1}{2}",
            "\\frac{1}{2}.", "\\frac{1}{2}x", "- \\frac{1}{2}", "+\\frac{1}{2}", "\\frac{1.5}{2}", "\\frac{-1}{2}",
            "\\frac{1}{2}{3}", "\\frac{1}{2", "\\frac{1000000000000000000}{3}", "\\cfrac{1}{2}", "",
        ] {
            assert!(Answer::parse_plain_fraction(s).is_none(), "{s}");
        }
    }

    #[test]
    fn fast_path_edge_cases_match_the_general_path() {
        for s in ["0", "-0", "000", "0.0", "-0.0", "00.000", "2.0", "0.50", "007.250", "123456789.123456789", "-1.5"] {
            assert_eq!(same_as_general_path(s), Ok(()));
        }
        for s in [".5", "5.", "1.2.3", "1e5", "- 1.5", "1,000.5", "1234567890.1234567890", "+3", ""] {
            assert!(Answer::parse_plain_number(s).is_none(), "{s}");
        }
    }

    #[test]
    fn matching_finds_permutations() {
        let perm = [2usize, 0, 1];
        let m = perfect_matching(3, |i, j| perm[i] == j).unwrap();
        assert_eq!(m, vec![2, 0, 1]);
        assert!(perfect_matching(2, |i, _| i == 0).is_none());
        // Needs an augmenting path: 0 can take 0 or 1, 1 only 0.
        let m = perfect_matching(2, |i, j| (i == 0) || j == 0).unwrap();
        assert_eq!(m, vec![1, 0]);
    }
}
