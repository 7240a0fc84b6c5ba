//! Where a sentence restates or uses a value instead of stating it as a result.
//!
//! Reasoning traces open by restating the problem, and a value the problem gives can equal the
//! final answer by coincidence: the sum of the proper divisors of the sum of the proper divisors
//! of 284 is 284. Two places hold such a value without stating it as an answer:
//! - a sentence that states the task ([`states_task`]): "Okay, so I need to find the sum of the
//!   proper divisors of 284.", "The question is asking for ...", "So I have this problem where
//!   there are 2013 red points ...";
//! - the argument of an operation ([`follows_argument_word`]): "Let me start by factoring 284.",
//!   "divided by 100", "log base 2 of 3", "for x from 1 to 20".
//!
//! A count the problem gives is also restated with its noun ([`counted_nouns`]): "We have 12
//! letters" after "The twelve letters ...".
//!
//! The anchor search applies them to values the problem mentions only: "a remainder of 3" states
//! a result when the problem does not give 3.

/// A phrase is a sequence of consecutive words, each one of a set of alternatives.
type Phrase = &'static [&'static [&'static str]];

/// Who is to do something: "need to", "have to", "want to", "asked to", "trying to".
const TASK_LEADS: &[&str] = &["need", "needs", "have", "has", "want", "wants", "asked", "trying", "supposed"];

/// What the task asks for.
const TASK_VERBS: &[&str] = &[
    "find", "compute", "calculate", "determine", "figure", "evaluate", "solve", "show", "prove", "rewrite", "convert",
    "simplify", "express", "count", "identify", "list",
];

/// The phrases that mark a task statement, matched on lower-case ASCII words (an apostrophe
/// splits a word: "we're" is "we", "re").
const TASK_PHRASES: &[Phrase] = &[
    &[TASK_LEADS, &["to"], TASK_VERBS],
    &[&["have", "got"], &["this", "a"], &["problem", "question"]],
    &[&["this"], &["problem", "question"], &["where", "here", "about"]],
    &[&["problem", "question"], &["says", "states", "gives", "asks", "wants"]],
    &[&["problem", "question"], &["is"], &["asking"]],
    &[&["asking", "asks"], &["for"]],
    &[&["are", "re", "am", "m", "was", "were"], &["given", "asked"]],
    &[&["given"], &["that", "as"]],
];

/// Whether `sentence` states the task: it holds one of [`TASK_PHRASES`]. Linear in the
/// sentence's length; allocates nothing.
pub fn states_task(sentence: &str) -> bool {
    // The last three words, oldest first; a phrase matches where it ends.
    let mut recent = [""; 3];
    sentence.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).any(|word| {
        recent = [recent[1], recent[2], word];
        TASK_PHRASES.iter().any(|phrase| ends_with(&recent, phrase))
    })
}

/// Whether the words `recent` end with `phrase` (at most as many words as `recent` holds).
fn ends_with(recent: &[&str; 3], phrase: Phrase) -> bool {
    phrase.len() <= recent.len()
        && recent[recent.len() - phrase.len()..]
            .iter()
            .zip(phrase.iter())
            .all(|(word, choices)| choices.iter().any(|c| word.eq_ignore_ascii_case(c)))
}

/// Words after which a value is the argument of an operation: "divided by 100", "the divisors
/// of 284", "from 1 to 20", "factoring 284", "so we remove 284"; or a label the problem gives:
/// "the angle labeled 124 degrees".
const ARGUMENT_WORDS: &[&str] = &[
    "by", "of", "from", "factoring", "factor", "factorize", "dividing", "divide", "divides", "remove", "removing",
    "exclude", "excluding", "subtract", "subtracting", "label", "labeled", "labelled", "marked",
];

/// Whether the value that begins at byte `start` of `sentence` follows one of
/// [`ARGUMENT_WORDS`], with only white space and math delimiters (`$`, `\(`) between.
/// `start` must be a char boundary of `sentence`.
pub fn follows_argument_word(sentence: &str, start: usize) -> bool {
    let word = word_before(sentence, start);
    ARGUMENT_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// The run of ASCII letters that ends right before byte `start` of `sentence`, past white
/// space and math delimiters (`$`, `(`, `\`); empty when there is none or `start` is no char
/// boundary.
pub fn word_before(sentence: &str, start: usize) -> &str {
    let Some(before) = sentence.get(..start) else { return "" };
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || c == '$' || c == '(' || c == '\\');
    let word_start =
        before.char_indices().rev().find(|(_, c)| !c.is_ascii_alphabetic()).map_or(0, |(i, c)| i + c.len_utf8());
    &before[word_start..]
}

/// The two runs of ASCII letters before byte `start` of `sentence`, the nearer last:
/// ("different", "from") before the `1` of "different from 1"; each as [`word_before`] reads
/// it, empty where there is none.
pub fn two_words_before(sentence: &str, start: usize) -> (&str, &str) {
    let word = word_before(sentence, start);
    if word.is_empty() {
        return ("", "");
    }
    // `word` is a piece of `sentence`: its offset is the distance between their starts.
    let at = word.as_ptr() as usize - sentence.as_ptr() as usize;
    (word_before(sentence, at), word)
}

/// The run of ASCII letters that starts right after byte `end` of `sentence`, past white space
/// and math delimiters (`$`, `)`, `\`), and the text after it; empty when there is none or
/// `end` is no char boundary.
pub fn word_after(sentence: &str, end: usize) -> (&str, &str) {
    let Some(after) = sentence.get(end..) else { return ("", "") };
    let after = after.trim_start_matches(|c: char| c.is_whitespace() || c == '$' || c == ')' || c == '\\');
    let len = after.bytes().take_while(u8::is_ascii_alphabetic).count();
    after.split_at(len)
}

/// Words before which a value is an operand: "110 divided by 3", "(200 choose 100) times 2".
const OPERATION_WORDS: &[&str] = &["divided", "times", "multiplied", "minus", "plus", "over", "squared", "cubed"];

/// Whether the value that ends at byte `end` of `sentence` is followed by one of
/// [`OPERATION_WORDS`], with only white space and math delimiters (`$`, `\)`) between: an
/// operand of an operation written in words, not a value stated.
pub fn precedes_operation_word(sentence: &str, end: usize) -> bool {
    let (word, _) = word_after(sentence, end);
    OPERATION_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w))
}

/// Words before a value that make it the result of its clause, not its subject: "the area is
/// 468 = 12*39", "So, 81 is 3^4", "we get 284".
const RESULT_WORDS: &[&str] = &[
    "is", "was", "are", "be", "equals", "equal", "to", "get", "gets", "got", "gives", "give", "yields", "makes",
    "becomes", "so", "thus", "therefore", "hence",
];

/// Whether the value that begins at byte `start` of `sentence` opens its clause as a subject:
/// no `=`, `:` or comparison sign before it, and none of [`RESULT_WORDS`] (a comma may stand
/// between: "So, 81 is 3^4" is a result).
pub fn opens_clause(sentence: &str, start: usize) -> bool {
    let Some(before) = sentence.get(..start) else { return false };
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || c == '$' || c == '(' || c == '\\');
    // word_before reads past white space itself; past a comma, "So, 81" is read as "So 81".
    let lead = before.trim_end_matches(',');
    !before.ends_with(['=', '≈', ':', '<', '>'])
        && !RESULT_WORDS.iter().any(|w| word_before(lead, lead.len()).eq_ignore_ascii_case(w))
}

/// What a value can be said to be without being a result: "284 is an even number", "4 is a
/// power of 2", "7 is prime", "12 is divisible by 3".
const PROPERTY_WORDS: &[&str] = &["a", "an", "even", "odd", "prime", "composite", "divisible", "positive", "negative"];

/// Whether the value that spans bytes `start..end` of `sentence` is the subject of a property:
/// it opens its clause ([`opens_clause`]) and "is" and one of [`PROPERTY_WORDS`] follow it, in
/// a clause that does not name an answer ("12 is an answer" states it).
pub fn has_property(sentence: &str, start: usize, end: usize) -> bool {
    let (verb, rest) = word_after(sentence, end);
    if !verb.eq_ignore_ascii_case("is") || !opens_clause(sentence, start) {
        return false;
    }
    let (property, rest) = word_after(rest, 0);
    if !PROPERTY_WORDS.iter().any(|w| property.eq_ignore_ascii_case(w)) {
        return false;
    }
    // The clause's next 160 bytes at most: a sentence without punctuation must not make every
    // value read the rest of it (quadratic time).
    let mut cut = rest.len().min(160);
    while !rest.is_char_boundary(cut) {
        cut -= 1;
    }
    let clause = rest[..cut].split([',', ';', '.', '?', '!']).next().unwrap_or("").to_ascii_lowercase();
    !["answer", "solution", "result"].iter().any(|w| clause.contains(w))
}

/// The counts a text gives with the noun they count: `(12, "letter")` for "The twelve letters"
/// or "12 letters", `(6, "pair")` for "$6$ pairs" (`number_word` reads a word such as
/// "twelve"; nouns are lower case, without a plural `s`). A number and the word of three
/// letters or more right after it, with only white space, math delimiters and braces between
/// ("$2$ /bushel" is a price, `3x` a product); at most [`MAX_COUNTED_NOUNS`] of them.
pub fn counted_nouns(text: &str, number_word: impl Fn(&str) -> Option<u32>) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    // The previous word's value if it was a number, and where it ended.
    let mut previous: Option<(u64, usize)> = None;
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        // `word` is a piece of `text`: its offset is the distance between their starts.
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        if let Some((count, end)) = previous.take() {
            let gap_is_blank =
                text[end..start].chars().all(|c| c.is_whitespace() || matches!(c, '$' | '\\' | '(' | ')' | '{' | '}'));
            if gap_is_blank && word.len() >= 3 && word.bytes().all(|b| b.is_ascii_alphabetic()) {
                out.push((count, noun_stem(word)));
                if out.len() == MAX_COUNTED_NOUNS {
                    break;
                }
                continue;
            }
        }
        let value =
            if word.bytes().all(|b| b.is_ascii_digit()) { word.parse().ok() } else { number_word(word).map(u64::from) };
        previous = value.map(|v| (v, start + word.len()));
    }
    out
}

/// The most counts [`counted_nouns`] collects from one text.
pub const MAX_COUNTED_NOUNS: usize = 256;

/// A noun as [`counted_nouns`] keeps it: lower case, a plural `s` dropped ("letters" ->
/// "letter"; "boxes" -> "boxe": a form that only matches its own plural).
pub fn noun_stem(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    match lower.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
        _ => lower,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_with_their_nouns() {
        let words = |w: &str| match w.to_ascii_lowercase().as_str() {
            "twelve" => Some(12),
            "six" => Some(6),
            _ => None,
        };
        let counts = counted_nouns(
            "The twelve letters are grouped into $6$ pairs, \\(3\\) boxes; 3x + 2 = y, $2$ /bushel, 5-gons.",
            words,
        );
        assert_eq!(counts, vec![(12, "letter".to_string()), (6, "pair".to_string()), (3, "boxe".to_string())]);
        assert_eq!(noun_stem("Letters"), "letter");
        assert_eq!(noun_stem("class"), "class");
        assert_eq!(noun_stem("gas"), "gas");
    }
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_and_offset_is_read_without_panic(text in any::<String>(), at in 0usize..64) {
            let _ = states_task(&text);
            let _ = follows_argument_word(&text, at);
            let _ = precedes_operation_word(&text, at);
            let _ = opens_clause(&text, at);
            let _ = two_words_before(&text, at);
            let _ = has_property(&text, at, at + 1);
            prop_assert!(counted_nouns(&text, |_| None).len() <= MAX_COUNTED_NOUNS);
            // At every char boundary the answer is the same as for the text cut there.
            for (i, _) in text.char_indices() {
                prop_assert_eq!(follows_argument_word(&text, i), follows_argument_word(&text[..i], i));
            }
        }
    }

    #[test]
    fn a_value_that_opens_its_clause_is_its_subject() {
        let at = |s: &str, v: &str| s.find(v).unwrap();
        for s in [
            "284 is even.", "But 8 is 4*2.", "Hmm, 159 is 3*53.", "Since $4$ is a power of 2.",
            "I can write 25 as 5^2.",
        ] {
            let v = s.trim_start_matches(|c: char| !c.is_ascii_digit());
            assert!(opens_clause(s, at(s, v)), "{s}");
        }
        for (s, v) in [
            ("So, 81 is 3^4.", "81"),
            ("The area is 468 = 12*39.", "468"),
            ("x = 7 is odd.", "7"),
            ("we get 12 is", "12"),
        ] {
            assert!(!opens_clause(s, at(s, v)), "{s}");
        }
    }

    #[test]
    fn two_words_before_a_value_are_read_back_to_back() {
        assert_eq!(two_words_before("a number different from 1", 24), ("different", "from"));
        assert_eq!(two_words_before("from $1$", 6), ("", "from"));
        assert_eq!(two_words_before("1", 0), ("", ""));
    }

    #[test]
    fn properties_describe_a_value_and_answers_state_it() {
        let has = |s: &str, v: &str| {
            let start = s.find(v).unwrap();
            has_property(s, start, start + v.len())
        };
        assert!(has("Let me see, 284 is an even number, so it's divisible by 2.", "284"));
        assert!(has("Since 4 is a power of 2, specifically 2 squared, that might help.", "4"));
        assert!(has("Well, 7 is prime.", "7"));
        assert!(!has("So, 12 is an answer.", "12"), "a clause that names an answer states it");
        assert!(!has("Maybe 134 is the minimal positive integer.", "134"), "'the' is no property word");
        assert!(!has("Therefore x is 4, which is even.", "4"), "after 'is' the value is a result");
        assert!(!has("So, 4 is a power of 2.", "4"), "'so' makes the clause a conclusion");
        assert!(!has("4 is", "4"));
    }

    #[test]
    fn every_phrase_fits_the_words_kept() {
        assert!(TASK_PHRASES.iter().all(|p| !p.is_empty() && p.len() <= 3));
    }

    #[test]
    fn restatements_of_the_task_state_it() {
        for s in [
            "Okay, so I need to find the value of x that satisfies the equation log base 4 of T.",
            "The question is asking for the sum of the proper divisors of 284.",
            "We need to find: \"the sum of the proper divisors of 284\".",
            "Alright, so I have this problem where there are 2013 red points.",
            "Then, I have to find the sum of their areas modulo 100.",
            "We're given that a + b = 5.",
            "The problem says the perimeter is 12.",
            "I'm asked to compute 3 + 4.",
            "So we have a problem here: what is 1 raised to 2^{235423523}?",
        ] {
            assert!(states_task(s), "{s}");
        }
    }

    #[test]
    fn statements_of_results_do_not() {
        for s in [
            "So, the smallest possible value of a is 3.",
            "Therefore, the sum of the proper divisors is 284.",
            "So I need 4 more.",
            "The answer is given by 3 + 4 = 7.",
            "This problem's answer is 12.",
            "Finding x gives x = 4.",
            "",
            "need",
        ] {
            assert!(!states_task(s), "{s}");
        }
    }

    #[test]
    fn arguments_of_operations_follow_their_word() {
        for (s, value) in [
            ("Let me start by factoring 284.", "284"),
            ("Output the remainder when it is divided by 100.", "100"),
            ("So first compute the sum of proper divisors of $284$.", "284"),
            ("for x from \\(1\\) to 20", "1"),
            ("It is a power of 2.", "2"),
            ("Proper divisors exclude the number itself, so we remove 284.", "284"),
            ("3^4 divides it, but subtracting 1 it does not.", "1"),
            ("the angle labeled $124^\\circ$ is at A", "124"),
        ] {
            let start = s.find(value).unwrap();
            assert!(follows_argument_word(s, start), "{s}");
        }
        for (s, value) in [
            ("So the sum is 284.", "284"),
            ("x = 4", "4"),
            ("4 is the answer", "4"),
            ("logₓ 2", "2"),
            ("abyss 3", "3"),
            ("removed 3 times", "3"),
        ] {
            let start = s.find(value).unwrap();
            assert!(!follows_argument_word(s, start), "{s}");
        }
        assert!(!follows_argument_word("by 3", 10));
        // Operands before an operation word.
        for (s, value) in
            [("Calculating x: 110 divided by 3 is 36.7", "110"), ("so $5$ times 2", "5"), ("7 squared is 49", "7")]
        {
            let end = s.find(value).unwrap() + value.len();
            assert!(precedes_operation_word(s, end), "{s}");
        }
        for (s, value) in [("the angle is 110 degrees", "110"), ("5 timestamps", "5"), ("x = 4.", "4")] {
            let end = s.find(value).unwrap() + value.len();
            assert!(!precedes_operation_word(s, end), "{s}");
        }
        assert!(!precedes_operation_word("3 divided", 10));
        assert!(!follows_argument_word("ₓ3", 1));
    }
}
