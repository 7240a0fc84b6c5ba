//! English number words: "twelve", "twenty-one", "three hundred and five", "two thirds".
//!
//! The values cover what reasoning traces write in words: 0 to 999 and simple fractions. Larger
//! numbers ("two million") are written in digits in practice and are left alone. Whether a
//! word is a statement of a value at all ("one" as a pronoun) is decided by the caller.
//!
//! Scale words after a numeral ("2 million", "1.5 billion", "5 dozen") multiply it
//! ([`scale`]): the answer engine and the candidate extractor read them as part of the value.

/// The value of a single cardinal word, case-insensitive: zero..nineteen, twenty..ninety.
pub(crate) fn cardinal(word: &str) -> Option<u32> {
    const WORDS: [(&str, u32); 28] = [
        ("zero", 0),
        ("one", 1),
        ("two", 2),
        ("three", 3),
        ("four", 4),
        ("five", 5),
        ("six", 6),
        ("seven", 7),
        ("eight", 8),
        ("nine", 9),
        ("ten", 10),
        ("eleven", 11),
        ("twelve", 12),
        ("thirteen", 13),
        ("fourteen", 14),
        ("fifteen", 15),
        ("sixteen", 16),
        ("seventeen", 17),
        ("eighteen", 18),
        ("nineteen", 19),
        ("twenty", 20),
        ("thirty", 30),
        ("forty", 40),
        ("fifty", 50),
        ("sixty", 60),
        ("seventy", 70),
        ("eighty", 80),
        ("ninety", 90),
    ];
    // Most words are not numbers: reject by length and first letter before comparing.
    let first = word.as_bytes().first()?.to_ascii_lowercase();
    if !(3..=9).contains(&word.len()) || !matches!(first, b'e' | b'f' | b'n' | b'o' | b's' | b't' | b'z') {
        return None;
    }
    WORDS
        .iter()
        .find(|(w, _)| w.len() == word.len() && w.as_bytes()[0] == first && w.eq_ignore_ascii_case(word))
        .map(|&(_, v)| v)
}

/// The denominator named by a fraction word: "half" 2, "thirds" 3, "quarter" 4, ... "tenth" 10.
/// Only meaningful after a cardinal ("two thirds"): alone, "third" is an ordinal.
pub(crate) fn denominator(word: &str) -> Option<u32> {
    const WORDS: [(&str, u32); 10] = [
        ("half", 2),
        ("halves", 2),
        ("third", 3),
        ("quarter", 4),
        ("fourth", 4),
        ("fifth", 5),
        ("sixth", 6),
        ("seventh", 7),
        ("eighth", 8),
        ("ninth", 9),
    ];
    let lower = word.to_ascii_lowercase();
    let singular = lower.strip_suffix('s').filter(|s| *s != "halve").unwrap_or(&lower);
    match singular {
        "tenth" => return Some(10),
        "twelfth" => return Some(12),
        "hundredth" => return Some(100),
        "thousandth" => return Some(1000),
        _ => {}
    }
    WORDS.iter().find(|(w, _)| *w == singular || *w == lower).map(|&(_, v)| v)
}

/// The denominator of a fraction word that counts after a numeral (`2 thirds` is 2/3, `3
/// tenths` 3/10): [`denominator`], except `half` and `quarter`, which after a count are as
/// often the noun it counts (`3 quarters` in coins) and stay words.
pub(crate) fn counted_fraction(word: &str) -> Option<u32> {
    let starts = |prefix: &str| word.get(..prefix.len()).is_some_and(|p| p.eq_ignore_ascii_case(prefix));
    if starts("half") || starts("halve") || starts("quarter") {
        return None;
    }
    denominator(word)
}

/// Whether `numerator` over `denominator` states a fraction in prose: not zero, and not a whole
/// number of wholes ("the two halves", "all 3 thirds" count the parts of a whole).
pub(crate) fn states_fraction(numerator: u64, denominator: u32) -> bool {
    numerator > 0 && numerator % u64::from(denominator) != 0
}

/// The value a number phrase spells, given its words in order: `["twenty", "one"]`,
/// `["three", "hundred", "and", "five"]`. `None` unless all the words form one number.
pub(crate) fn phrase_value(words: &[&str]) -> Option<u32> {
    let (hundreds, rest) = match words {
        [unit, hundred, rest @ ..] if hundred.eq_ignore_ascii_case("hundred") => {
            let unit = cardinal(unit).filter(|&u| (1..10).contains(&u))?;
            let rest = match rest {
                [and, rest @ ..] if and.eq_ignore_ascii_case("and") && !rest.is_empty() => rest,
                _ => rest,
            };
            (unit * 100, rest)
        }
        _ => (0, words),
    };
    let below_hundred = match rest {
        [] if hundreds > 0 => 0,
        [single] => cardinal(single)?,
        [tens, unit] => {
            let tens = cardinal(tens).filter(|&t| t >= 20)?;
            tens + cardinal(unit).filter(|&u| (1..10).contains(&u))?
        }
        _ => return None,
    };
    Some(hundreds + below_hundred)
}

/// What a scale word written after a numeral multiplies it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scale {
    /// `hundred` 2, `thousand` 3, `million` 6, `billion` 9, `trillion` 12, `quadrillion` 15.
    PowerOfTen(u32),
    /// `dozen`: 12.
    Dozen,
}

/// The scale a word names, case-insensitive, singular or plural ("2 millions", a common
/// non-native form, means 2·10^6 too): `hundred`, `thousand`, `million`, `billion`,
/// `trillion`, `quadrillion` (short scale, as English writes today) and `dozen`.
pub(crate) fn scale(word: &str) -> Option<Scale> {
    const WORDS: [(&str, Scale); 7] = [
        ("hundred", Scale::PowerOfTen(2)),
        ("thousand", Scale::PowerOfTen(3)),
        ("million", Scale::PowerOfTen(6)),
        ("billion", Scale::PowerOfTen(9)),
        ("trillion", Scale::PowerOfTen(12)),
        ("quadrillion", Scale::PowerOfTen(15)),
        ("dozen", Scale::Dozen),
    ];
    // Most words are not scales: reject by length and first letter before comparing.
    let first = word.as_bytes().first()?.to_ascii_lowercase();
    if !(5..=12).contains(&word.len()) || !matches!(first, b'h' | b't' | b'm' | b'b' | b'q' | b'd') {
        return None;
    }
    let singular = match word.as_bytes()[word.len() - 1] {
        b's' | b'S' => &word[..word.len() - 1],
        _ => word,
    };
    WORDS.iter().find(|(w, _)| w.eq_ignore_ascii_case(singular)).map(|&(_, s)| s)
}

/// The power a word after a value raises it to: "squared" 2, "cubed" 3 ("5 squared" is 25).
pub(crate) fn power_word(word: &str) -> Option<u32> {
    if word.eq_ignore_ascii_case("squared") {
        Some(2)
    } else if word.eq_ignore_ascii_case("cubed") {
        Some(3)
    } else {
        None
    }
}

/// Words that name an operation: after a value they continue or change it ("2 times", "2
/// minus", "5 factorial", "2 inverse"), so they are never the noun a value counts.
pub(crate) fn is_operation_word(word: &str) -> bool {
    const WORDS: [&str; 14] = [
        "times", "minus", "plus", "over", "divided", "inverse", "reciprocal", "factorial", "root", "power", "mod",
        "modulo", "choose", "squared",
    ];
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(word)) || power_word(word).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_words() {
        assert_eq!(scale("million"), Some(Scale::PowerOfTen(6)));
        assert_eq!(scale("Millions"), Some(Scale::PowerOfTen(6)));
        assert_eq!(scale("BILLION"), Some(Scale::PowerOfTen(9)));
        assert_eq!(scale("hundred"), Some(Scale::PowerOfTen(2)));
        assert_eq!(scale("dozens"), Some(Scale::Dozen));
        assert_eq!(scale("mill"), None);
        assert_eq!(scale("millionth"), None);
        assert_eq!(scale("hundredth"), None);
        assert_eq!(scale("s"), None);
        assert_eq!(scale(""), None);
    }

    #[test]
    fn single_words() {
        assert_eq!(cardinal("twelve"), Some(12));
        assert_eq!(cardinal("Twelve"), Some(12));
        assert_eq!(cardinal("ninety"), Some(90));
        assert_eq!(cardinal("hundred"), None);
        assert_eq!(cardinal("often"), None);
    }

    #[test]
    fn phrases() {
        assert_eq!(phrase_value(&["twenty", "one"]), Some(21));
        assert_eq!(phrase_value(&["three", "hundred"]), Some(300));
        assert_eq!(phrase_value(&["three", "hundred", "and", "five"]), Some(305));
        assert_eq!(phrase_value(&["one", "hundred", "forty", "two"]), Some(142));
        assert_eq!(phrase_value(&["twelve", "one"]), None);
        assert_eq!(phrase_value(&["twenty", "twelve"]), None);
        assert_eq!(phrase_value(&["hundred"]), None);
    }

    #[test]
    fn fraction_words() {
        assert_eq!(denominator("half"), Some(2));
        assert_eq!(denominator("halves"), Some(2));
        assert_eq!(denominator("thirds"), Some(3));
        assert_eq!(denominator("Quarters"), Some(4));
        assert_eq!(denominator("tenths"), Some(10));
        assert_eq!(denominator("second"), None);
        assert_eq!(denominator("hundredths"), Some(100));
        assert_eq!(denominator("twelfth"), Some(12));
    }
}
