//! Unit words: which trailing words of an answer are a unit, and one canonical name per unit.
//!
//! A unit may trail a numeric value (`12 cm`, `5.4 \text{ cents}`, `864 \mbox{ inches}^2`,
//! `4.4677 \times 10^{14} Hz`, `15000 \text{ kcal m}^{-2} \text{yr}^{-1}`). Single letters (`m`, `s`,
//! `g`, `K`, ...) are units only inside text (`\text{m}`) or after another unit (`km/h`): bare, they
//! are variables. Variants (`inches`, `inch`, `in.`; `meters`, `metres`, `m`) share one canonical
//! name so that `12 inches` and `12 \text{in}` carry the same unit.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::hash::FastMap;

/// (canonical name, spellings). Spellings are matched case-insensitively unless they are one
/// letter, and a plural `s`/`es` is accepted on any multi-letter spelling.
const UNITS: &[(&str, &[&str])] = &[
    // length
    ("mm", &["mm", "millimeter", "millimetre"]),
    ("cm", &["cm", "centimeter", "centimetre"]),
    ("m", &["m", "meter", "metre", "mtr"]),
    ("km", &["km", "kilometer", "kilometre"]),
    ("nm", &["nm", "nanometer", "nanometre"]),
    ("um", &["um", "micrometer", "micron"]),
    ("angstrom", &["angstrom", "Å"]),
    ("inch", &["inch", "inches", "in"]),
    ("foot", &["foot", "feet", "ft"]),
    ("yard", &["yard", "yd"]),
    ("mile", &["mile", "mi"]),
    ("au", &["au"]),
    ("pc", &["pc", "parsec"]),
    ("kpc", &["kpc"]),
    ("mpc", &["mpc"]),
    ("ly", &["ly", "lightyear"]),
    // time
    ("s", &["s", "sec", "second"]),
    ("min", &["min", "minute"]),
    ("h", &["h", "hr", "hour"]),
    ("day", &["day"]),
    ("week", &["week", "wk"]),
    ("month", &["month"]),
    ("year", &["year", "yr"]),
    ("ms", &["ms", "millisecond"]),
    ("ns", &["nanosecond"]),
    // speed
    ("mph", &["mph"]),
    ("kph", &["kph", "kmh", "kmph"]),
    // money
    ("dollar", &["dollar", "usd"]),
    ("cent", &["cent", "cents"]),
    ("euro", &["euro"]),
    ("rupee", &["rupee", "rs"]),
    // mass
    ("g", &["g", "gram", "gm"]),
    ("kg", &["kg", "kilogram"]),
    ("mg", &["mg", "milligram"]),
    ("lb", &["lb", "lbs", "pound"]),
    ("oz", &["oz", "ounce"]),
    ("ton", &["ton", "tonne"]),
    // volume
    ("l", &["L", "l", "liter", "litre"]),
    ("ml", &["ml", "milliliter", "millilitre"]),
    ("gallon", &["gallon", "gal"]),
    ("cc", &["cc"]),
    // angle
    ("degree", &["degree", "deg"]),
    ("radian", &["radian", "rad"]),
    ("arcsec", &["arcsec", "arcsecond"]),
    ("arcmin", &["arcmin", "arcminute"]),
    // physics
    ("hz", &["hz", "hertz"]),
    ("khz", &["khz"]),
    ("mhz", &["mhz"]),
    ("ghz", &["ghz"]),
    ("j", &["J", "joule"]),
    ("kj", &["kj"]),
    ("ev", &["ev"]),
    ("kev", &["kev"]),
    ("mev", &["mev"]),
    ("gev", &["gev"]),
    ("erg", &["erg"]),
    ("cal", &["cal", "calorie"]),
    ("kcal", &["kcal"]),
    ("w", &["W", "watt"]),
    ("kw", &["kw", "kilowatt"]),
    // Energy as power times time: [`COMPOUNDS`] writes them as their factors.
    ("kwh", &["kwh", "kilowatthour"]),
    ("wh", &["wh", "watthour"]),
    ("tesla", &["T", "tesla"]),
    ("wb", &["wb", "weber"]),
    ("psi", &["psi"]),
    ("bar", &["bar"]),
    ("torr", &["torr"]),
    ("mmhg", &["mmhg"]),
    ("db", &["db", "decibel"]),
    ("tev", &["tev"]),
    ("v", &["V", "volt"]),
    ("a", &["A", "ampere", "amp"]),
    ("ohm", &["ohm"]),
    ("n", &["N", "newton"]),
    ("pa", &["pa", "pascal"]),
    ("kpa", &["kpa"]),
    ("atm", &["atm"]),
    ("k", &["K", "kelvin"]),
    ("mol", &["mol", "mole"]),
    ("c", &["C", "coulomb"]),
    ("f", &["F"]),
    // counting nouns that commonly trail answers
    ("unit", &["unit"]),
    ("point", &["point"]),
    ("way", &["way"]),
    ("people", &["people", "person"]),
    ("student", &["student"]),
    ("item", &["item"]),
];

/// Units that are products of others, by canonical name: `kWh` is what siunitx's
/// `\kilo\watt\hour` typesets as `kW h`.
const COMPOUNDS: &[(&str, &[&str])] = &[("kwh", &["kw", "h"]), ("wh", &["w", "h"]), ("mwh_mega", &["mw_mega", "h"])];

/// The canonical units `name` is the product of, when it is one of [`COMPOUNDS`].
fn compound_factors(name: &str) -> Option<&'static [&'static str]> {
    COMPOUNDS.iter().find(|(n, _)| *n == name).map(|(_, parts)| *parts)
}

/// Prefixed symbols whose case is the prefix (`mW` is a milliwatt, `MW` a megawatt; `µM` is
/// no micrometre): (canonical name, spellings), matched exactly, before [`UNITS`]. siunitx's
/// `\milli\ampere` and `\kilo\ohm` typeset these.
const EXACT_SYMBOLS: &[(&str, &[&str])] = &[
    ("ns", &["ns"]),
    ("um", &["µm", "μm"]),
    ("us", &["µs", "μs"]),
    ("ug", &["µg", "μg"]),
    ("ul", &["µL", "μL", "µl", "μl"]),
    ("ma", &["mA"]),
    ("ua", &["µA", "μA"]),
    ("mv", &["mV"]),
    ("kv", &["kV"]),
    ("mn", &["mN"]),
    ("kn", &["kN"]),
    ("mpa_mega", &["MPa"]),
    ("mpa_milli", &["mPa"]),
    // `MHz`, and lowercase `mhz`, are megahertz ([`UNITS`]); only `mHz` is millihertz.
    ("mhz_milli", &["mHz"]),
    ("gpa", &["GPa"]),
    ("mj_milli", &["mJ"]),
    ("mj_mega", &["MJ"]),
    ("mw_milli", &["mW"]),
    ("mw_mega", &["MW"]),
    ("mwh_mega", &["MWh"]),
    ("ohm", &["Ω"]),
    ("kohm", &["kΩ"]),
    ("mohm_mega", &["MΩ"]),
    ("mohm_milli", &["mΩ"]),
    ("uf", &["µF", "μF"]),
    ("nf", &["nF"]),
    ("pf", &["pF"]),
];

/// The canonical name of a prefixed symbol of [`EXACT_SYMBOLS`], spelled exactly.
fn exact_symbol(word: &str) -> Option<&'static str> {
    SpellingIndex::get().exact.get(word).copied()
}

/// [`EXACT_SYMBOLS`] and [`UNITS`] by spelling, built once per process: the parser asks whether
/// a word is a unit for most words of most answers (every word after a number, every
/// implicit factor), and scanning the tables, as this did before, was about a tenth of all
/// the instructions parsing an anchor search's candidates took.
struct SpellingIndex {
    /// [`EXACT_SYMBOLS`]' spellings.
    exact: FastMap<&'static str, &'static str>,
    /// The one-character spellings of [`UNITS`] (matched exactly).
    letters: FastMap<&'static str, &'static str>,
    /// The longer spellings of [`UNITS`] in ASCII lower case (matched case-insensitively).
    words: FastMap<String, &'static str>,
}

impl SpellingIndex {
    fn get() -> &'static SpellingIndex {
        static INDEX: OnceLock<SpellingIndex> = OnceLock::new();
        INDEX.get_or_init(|| {
            let mut index =
                SpellingIndex { exact: FastMap::default(), letters: FastMap::default(), words: FastMap::default() };
            // A spelling listed twice keeps its first unit, as the scan in table order found.
            for &(name, spellings) in EXACT_SYMBOLS {
                for &s in spellings {
                    index.exact.entry(s).or_insert(name);
                }
            }
            for &(name, spellings) in UNITS {
                for &s in spellings {
                    if s.chars().count() == 1 {
                        index.letters.entry(s).or_insert(name);
                    } else {
                        index.words.entry(s.to_ascii_lowercase()).or_insert(name);
                    }
                }
            }
            index
        })
    }

    /// The first unit of [`UNITS`] with a spelling that matches `word`: exactly when either is one
    /// character, else ignoring ASCII case.
    fn unit(&self, word: &str) -> Option<&'static str> {
        let mut chars = word.chars();
        if chars.next().is_some() && chars.next().is_none() {
            return self.letters.get(word).copied();
        }
        if word.bytes().any(|b| b.is_ascii_uppercase()) {
            return self.words.get(word.to_ascii_lowercase().as_str()).copied();
        }
        self.words.get(word).copied()
    }
}

/// `text` in lower case, except the prefixed symbols whose case is their meaning
/// ([`EXACT_SYMBOLS`]: `MW` and `mW` stay two units): how text renders in canonical forms.
pub fn fold_case(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !text.bytes().any(|b| b.is_ascii_uppercase()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphabetic() {
            rest.find(|ch: char| !ch.is_alphabetic()).unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        let run = &rest[..len];
        if exact_symbol(run).is_some() {
            out.push_str(run);
        } else {
            out.push_str(&run.to_lowercase());
        }
        rest = &rest[len..];
    }
    Cow::Owned(out)
}

/// Modifiers that may precede a unit (`square units`, `sq ft`, `cubic meters`) or join two
/// (`meters per second`).
const MODIFIERS: &[&str] = &["square", "sq", "cubic", "cu", "per"];

/// The canonical unit a word spells, if any. Single letters are matched exactly (`m` is metres,
/// `M` is not a unit); longer spellings case-insensitively, with an optional plural.
pub fn canonical_unit(word: &str) -> Option<&'static str> {
    if let Some(name) = exact_symbol(word) {
        return Some(name);
    }
    let index = SpellingIndex::get();
    if let Some(found) = index.unit(word) {
        return Some(found);
    }
    let lower = word.to_ascii_lowercase();
    ["es", "s"]
        .iter()
        .filter_map(|suffix| lower.strip_suffix(suffix))
        .filter(|stem| stem.len() >= 2)
        .find_map(|stem| index.unit(stem))
}

/// True for a word that is a unit even written bare after a number (`12 cm`, `45 minutes`):
/// known units of two letters or more. One-letter units are variables when bare, and so are
/// the prefixed symbols whose case is their meaning (`2 mA` may be 2·m·A; `2\text{ mA}` and
/// `2\,\mathrm{mA}` are milliamperes).
pub fn is_bare_unit(word: &str) -> bool {
    word.chars().count() > 1 && exact_symbol(word).is_none() && canonical_unit(word).is_some() || is_modifier(word)
}

/// A letter of a unit symbol: ASCII, `Å`, `Ω` (ohm) and the micro sign `µ` (or Greek `μ`).
fn is_unit_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || matches!(c, 'Å' | 'Ω' | 'µ' | 'μ')
}

pub fn is_modifier(word: &str) -> bool {
    MODIFIERS.iter().any(|m| m.eq_ignore_ascii_case(word))
}

/// True when every word of `phrase` (split on spaces, `/`, `.`, `^`, digits and signs) is a unit or
/// a modifier, and there is at least one unit: `cm`, `kcal m`, `km/h`, `square units`.
pub fn is_unit_phrase(phrase: &str) -> bool {
    let mut units = 0;
    for word in phrase.split(|c: char| !is_unit_letter(c)) {
        if word.is_empty() {
            continue;
        }
        if is_modifier(word) || (units > 0 && crate::extract::power_word(word).is_some()) {
            continue;
        }
        if canonical_unit(word).is_none() {
            return false;
        }
        units += 1;
    }
    units > 0 && phrase.chars().all(|c| is_unit_letter(c) || c.is_ascii_digit() || " /.^-{}()*".contains(c))
}

/// Canonical form of a unit phrase: each unit once, in order of first appearance, with its net
/// exponent; a quotient and a negative power are one form. `\text{ Inches}^2` and `inches^{2}`
/// give `inch^2`, `kJ/mol` and `kJ mol^{-1}` give `kj mol^-1`, `J/(mol·K)` and
/// `J mol^{-1} K^{-1}` give `j mol^-1 k^-1`, `square feet` gives `foot^2`, `meters per second`
/// gives `m s^-1`. `words` are the phrase's words with their exponents; a word may hold `/`,
/// `^2` and parentheses itself (a unit written inside `\text{}`).
pub fn canonical_phrase(words: &[(String, Option<String>)]) -> String {
    let mut flat = String::new();
    for (word, exponent) in words {
        flat.push_str(word);
        if let Some(e) = exponent {
            flat.push_str("^{");
            flat.push_str(e);
            flat.push('}');
        }
        flat.push(' ');
    }
    let mut factors: Vec<(String, i64)> = Vec::new();
    // The factors the last unit added, with their exponents before a `^` applies (a compound
    // unit adds several: `kWh^2` is `kW^2 h^2`).
    let mut last: Vec<(usize, i64)> = Vec::new();
    let (mut power, mut divide_next, mut divided_group, mut depth) = (1i64, false, false, 0usize);
    let mut rest = flat.as_str();
    while let Some(c) = rest.chars().next() {
        if is_unit_letter(c) {
            let len = rest.find(|ch: char| !is_unit_letter(ch)).unwrap_or(rest.len());
            let word = &rest[..len];
            rest = &rest[len..];
            let lower = word.to_ascii_lowercase();
            match lower.as_str() {
                "square" | "sq" => power = 2,
                "cubic" | "cu" => power = 3,
                // After its unit: `cm squared` is `cm^2`.
                "squared" | "cubed" => {
                    let n = if lower == "squared" { 2 } else { 3 };
                    for (k, exponent) in &mut last {
                        factors[*k].1 += *exponent * (n - 1);
                        *exponent *= n;
                    }
                }
                "per" => divide_next = true,
                _ => {
                    let name = canonical_unit(word).map_or(lower, str::to_string);
                    let sign = if divide_next || divided_group { -1 } else { 1 };
                    let exponent = sign * power;
                    last.clear();
                    let mut add = |name: &str| {
                        let k = factors.iter().position(|(n, _)| n == name).unwrap_or_else(|| {
                            factors.push((name.to_string(), 0));
                            factors.len() - 1
                        });
                        factors[k].1 += exponent;
                        last.push((k, exponent));
                    };
                    match compound_factors(&name) {
                        Some(parts) => parts.iter().for_each(|p| add(p)),
                        None => add(&name),
                    }
                    (power, divide_next) = (1, false);
                }
            }
            continue;
        }
        rest = &rest[c.len_utf8()..];
        match c {
            '^' => {
                let digits = rest.trim_start_matches('{');
                let sign_len = usize::from(digits.starts_with(['-', '+']));
                let len = sign_len
                    + digits[sign_len..].find(|ch: char| !ch.is_ascii_digit()).unwrap_or(digits.len() - sign_len);
                if let Ok(n) = digits[..len].parse::<i64>() {
                    // The exponent applies to the unit before it: replace its contribution.
                    for (k, exponent) in &mut last {
                        factors[*k].1 += *exponent * (n - 1);
                        *exponent *= n;
                    }
                }
                rest = digits[len..].trim_start_matches('}');
            }
            '/' => divide_next = true,
            '(' if divide_next => {
                (divided_group, divide_next) = (true, false);
                depth += 1;
            }
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    divided_group = false;
                }
            }
            _ => {}
        }
    }
    let mut out = String::new();
    for (name, exponent) in factors.iter().filter(|(_, e)| *e != 0) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(name);
        if *exponent != 1 {
            out.push('^');
            out.push_str(&exponent.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The tables read in order, as [`SpellingIndex`] must answer.
    fn spelling_matches(spelling: &str, word: &str) -> bool {
        if spelling.chars().count() == 1 || word.chars().count() == 1 {
            spelling == word
        } else {
            spelling.eq_ignore_ascii_case(word)
        }
    }

    fn unit_by_scan(word: &str) -> Option<&'static str> {
        UNITS.iter().find(|(_, spellings)| spellings.iter().any(|s| spelling_matches(s, word))).map(|(c, _)| *c)
    }

    fn exact_by_scan(word: &str) -> Option<&'static str> {
        EXACT_SYMBOLS.iter().find(|(_, spellings)| spellings.contains(&word)).map(|(name, _)| *name)
    }

    fn agrees_with_the_scan(word: &str) {
        assert_eq!(SpellingIndex::get().unit(word), unit_by_scan(word), "{word:?}");
        assert_eq!(exact_symbol(word), exact_by_scan(word), "{word:?}");
    }

    #[test]
    fn the_index_finds_what_the_tables_read_in_order_find() {
        let spellings = UNITS.iter().chain(EXACT_SYMBOLS).flat_map(|(_, s)| s.iter().copied());
        for s in spellings {
            let upper = s.to_uppercase();
            let title: String = s.chars().take(1).flat_map(char::to_uppercase).chain(s.chars().skip(1)).collect();
            for word in [
                s.to_string(),
                s.to_ascii_uppercase(),
                upper,
                title,
                format!("{s}s"),
                format!("{s}es"),
                s.chars().skip(1).collect(),
            ] {
                agrees_with_the_scan(&word);
                if let Some(stem) = word.strip_suffix('s') {
                    agrees_with_the_scan(stem);
                }
            }
        }
        for word in ["", "M", "x", "Å", "å", "ÅS", "µ", "Ω", "kΩ", "KΩ", "İn", "ın", "ſ"] {
            agrees_with_the_scan(word);
        }
    }

    proptest! {
        #[test]
        fn any_word_gets_what_the_scan_gives(word in "[a-zA-ZµμΩÅåİı]{0,6}") {
            agrees_with_the_scan(&word);
        }
    }

    #[test]
    fn spellings_share_a_canonical_name() {
        assert_eq!(canonical_unit("inches"), Some("inch"));
        assert_eq!(canonical_unit("Inches"), Some("inch"));
        assert_eq!(canonical_unit("cm"), Some("cm"));
        assert_eq!(canonical_unit("centimeters"), Some("cm"));
        assert_eq!(canonical_unit("minutes"), Some("min"));
        assert_eq!(canonical_unit("m"), Some("m"));
        assert_eq!(canonical_unit("M"), None);
        assert_eq!(canonical_unit("Hz"), Some("hz"));
        assert_eq!(canonical_unit("dollars"), Some("dollar"));
        assert_eq!(canonical_unit("Evelyn"), None);
        assert_eq!(canonical_unit("x"), None);
    }

    #[test]
    fn bare_units_need_two_letters() {
        assert!(is_bare_unit("cm"));
        assert!(is_bare_unit("minutes"));
        assert!(!is_bare_unit("m"));
        assert!(!is_bare_unit("x"));
        assert!(!is_bare_unit("ab"));
    }

    #[test]
    fn phrases() {
        assert!(is_unit_phrase("cm"));
        assert!(is_unit_phrase("kcal m"));
        assert!(is_unit_phrase("km/h"));
        assert!(is_unit_phrase("square units"));
        assert!(is_unit_phrase("m"));
        assert!(!is_unit_phrase("Evelyn"));
        assert!(!is_unit_phrase("or"));
        assert!(!is_unit_phrase("square"));
        assert_eq!(canonical_phrase(&[("Inches".into(), Some("2".into()))]), "inch^2");
        let phrase = |words: &[(&str, Option<&str>)]| {
            canonical_phrase(&words.iter().map(|(w, e)| (w.to_string(), e.map(str::to_string))).collect::<Vec<_>>())
        };
        // A quotient and a negative power are one unit.
        assert_eq!(phrase(&[("kJ/mol", None)]), "kj mol^-1");
        assert_eq!(phrase(&[("kJ", None), ("mol", Some("-1"))]), "kj mol^-1");
        assert_eq!(
            phrase(&[("J", None), ("/", None), ("(", None), ("mol", None), ("K", None), (")", None)]),
            "j mol^-1 k^-1"
        );
        assert_eq!(phrase(&[("J", None), ("mol", Some("-1")), ("K", Some("-1"))]), "j mol^-1 k^-1");
        assert_eq!(phrase(&[("m/s^2", None)]), "m s^-2");
        assert_eq!(phrase(&[("m", None), ("s^{-2}", None)]), "m s^-2");
        assert_eq!(phrase(&[("meters", None), ("per", None), ("second", None)]), "m s^-1");
        assert_eq!(phrase(&[("km/h", None)]), "km h^-1");
        assert_eq!(phrase(&[("square", None), ("feet", None)]), "foot^2");
        assert_eq!(phrase(&[("ft", Some("2"))]), "foot^2");
        assert_ne!(phrase(&[("m/s", None)]), phrase(&[("m", None), ("s", None)]));
        assert_eq!(phrase(&[("degree", None), ("C", None)]), "degree c");
        // A compound unit is the product of its factors, powers included.
        assert_eq!(phrase(&[("kWh", None)]), phrase(&[("kW", None), ("h", None)]));
        assert_eq!(phrase(&[("kWh", Some("2"))]), "kw^2 h^2");
        assert_eq!(phrase(&[("kWh", None), ("squared", None)]), "kw^2 h^2");
        assert_eq!(phrase(&[("MWh", None)]), "mw_mega h");
        assert_ne!(phrase(&[("kWh", None)]), phrase(&[("Wh", None)]));
        assert_eq!(phrase(&[("kW", None), ("/", None), ("h", None)]), "kw h^-1");
    }
}
