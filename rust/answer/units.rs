//! Unit words: which trailing words of an answer are a unit, and one canonical name per unit.
//!
//! A unit may trail a numeric value (`12 cm`, `5.4 \text{ cents}`, `864 \mbox{ inches}^2`,
//! `4.4677 \times 10^{14} Hz`, `15000 \text{ kcal m}^{-2} \text{yr}^{-1}`). Single letters (`m`, `s`,
//! `g`, `K`, ...) are units only inside text (`\text{m}`) or after another unit (`km/h`): bare, they
//! are variables. Variants (`inches`, `inch`, `in.`; `meters`, `metres`, `m`) share one canonical
//! name so that `12 inches` and `12 \text{in}` carry the same unit.

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

/// Modifiers that may precede a unit (`square units`, `sq ft`, `cubic meters`) or join two
/// (`meters per second`).
const MODIFIERS: &[&str] = &["square", "sq", "cubic", "cu", "per"];

/// The canonical unit a word spells, if any. Single letters are matched exactly (`m` is metres,
/// `M` is not a unit); longer spellings case-insensitively, with an optional plural.
pub fn canonical_unit(word: &str) -> Option<&'static str> {
    let find = |w: &str| {
        UNITS.iter().find(|(_, spellings)| spellings.iter().any(|s| spelling_matches(s, w))).map(|(c, _)| *c)
    };
    if let Some(found) = find(word) {
        return Some(found);
    }
    let lower = word.to_ascii_lowercase();
    ["es", "s"].iter().filter_map(|suffix| lower.strip_suffix(suffix)).filter(|stem| stem.len() >= 2).find_map(find)
}

fn spelling_matches(spelling: &str, word: &str) -> bool {
    if spelling.chars().count() == 1 || word.chars().count() == 1 {
        spelling == word
    } else {
        spelling.eq_ignore_ascii_case(word)
    }
}

/// True for a word that is a unit even written bare after a number (`12 cm`, `45 minutes`):
/// known units of two letters or more. One-letter units are variables when bare.
pub fn is_bare_unit(word: &str) -> bool {
    word.chars().count() > 1 && canonical_unit(word).is_some() || is_modifier(word)
}

pub fn is_modifier(word: &str) -> bool {
    MODIFIERS.iter().any(|m| m.eq_ignore_ascii_case(word))
}

/// True when every word of `phrase` (split on spaces, `/`, `.`, `^`, digits and signs) is a unit or
/// a modifier, and there is at least one unit: `cm`, `kcal m`, `km/h`, `square units`.
pub fn is_unit_phrase(phrase: &str) -> bool {
    let mut units = 0;
    for word in phrase.split(|c: char| !c.is_ascii_alphabetic() && c != 'Å') {
        if word.is_empty() {
            continue;
        }
        if is_modifier(word) {
            continue;
        }
        if canonical_unit(word).is_none() {
            return false;
        }
        units += 1;
    }
    units > 0 && phrase.chars().all(|c| c.is_ascii_alphanumeric() || " /.^-{}()*".contains(c) || c == 'Å')
}

/// Canonical form of a unit phrase: canonical words in order, modifiers kept, exponents kept.
/// `\text{ Inches}^2` and `inches^{2}` both give `inch^2`.
pub fn canonical_phrase(words: &[(String, Option<String>)]) -> String {
    let mut out = String::new();
    for (word, exponent) in words {
        let name = canonical_unit(word).map(str::to_string).unwrap_or_else(|| word.to_ascii_lowercase());
        let name = match name.as_str() {
            "sq" => "square".to_string(),
            "cu" => "cubic".to_string(),
            _ => name,
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&name);
        if let Some(e) = exponent {
            out.push('^');
            out.push_str(e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
