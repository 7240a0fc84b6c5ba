//! The tags around a response's thinking: `<think>`/`</think>` unless the model writes others,
//! named presets for the model families that do, and the other ways a format whose tags are
//! special tokens reads (gpt-oss's text decoded without them; its answer with no thinking, with
//! or without them).

/// The tag that ends the thinking.
pub const THINK_CLOSE: &str = "</think>";

/// The tag that opens the thinking.
pub const THINK_OPEN: &str = "<think>";

/// The longest think tag accepted (bytes).
pub const MAX_THINK_TAG_BYTES: usize = 64;

/// gpt-oss's thinking tags: its analysis channel's header and the end of a message.
const HARMONY_OPEN: &str = "<|channel|>analysis<|message|>";
const HARMONY_CLOSE: &str = "<|end|>";

/// Think tags by model family: (name, opening tag, closing tag). `harmony` is gpt-oss's
/// format, whose thinking is the analysis channel's message
/// (`<|channel|>analysis<|message|>...<|end|>`, the final channel's message after it); its
/// text decoded without the special tokens is read too ([`ThinkTags::of_response`]).
pub const THINK_TAG_PRESETS: [(&str, &str, &str); 5] = [
    ("think", THINK_OPEN, THINK_CLOSE),
    ("magistral", "[THINK]", "[/THINK]"),
    ("seed", "<seed:think>", "</seed:think>"),
    ("kimi", "\u{25c1}think\u{25b7}", "\u{25c1}/think\u{25b7}"),
    ("harmony", HARMONY_OPEN, HARMONY_CLOSE),
];

/// The names of [`THINK_TAG_PRESETS`], comma-separated (for messages).
pub fn think_tag_preset_names() -> String {
    THINK_TAG_PRESETS.iter().map(|(name, _, _)| *name).collect::<Vec<_>>().join(", ")
}

/// The tags around a response's thinking: `<think>` and `</think>`, unless the model writes
/// others (Magistral's `[THINK]` / `[/THINK]`, Seed-OSS's `<seed:think>` / `</seed:think>`,
/// Kimi's `◁think▷` / `◁/think▷`, gpt-oss's analysis channel). Everything this crate says
/// about `</think>` holds for the closing tag given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThinkTags {
    open: String,
    close: String,
    /// How responses read otherwise when these tags are a special-token format's.
    format: Option<&'static SpecialTokenFormat>,
    /// Each response's tags are those of the family it is written in ([`ThinkTags::auto`]);
    /// `open` and `close` are then the default ones.
    auto: bool,
}

/// The name that asks for each response's own family's tags ([`ThinkTags::auto`]).
pub const AUTO_THINK_TAGS: &str = "auto";

/// A format whose think tags are special tokens, and the other ways its responses read.
#[derive(Debug, PartialEq, Eq)]
struct SpecialTokenFormat {
    open: &'static str,
    close: &'static str,
    /// The words the text keeps of the two tags when decoding skips special tokens.
    stripped: (&'static str, &'static str),
    /// What opens an answer written with no thinking at all.
    answer_header: &'static str,
    /// The word the text keeps of that header when decoding skips special tokens; it opens
    /// such an answer when neither a lowercase letter nor white space follows it (`final42`,
    /// `finalThe answer`; not `finally`, nor thinking that starts "final answer").
    stripped_answer_header: &'static str,
    /// The end of the message before the answer, and the answer's header: thinking written in
    /// several messages (analysis, a tool call, the tool's output, analysis again) ends at the
    /// first of these, not at the first `close`.
    end_before_answer: &'static str,
    /// What starts a message: one after `close` that is not the answer means the thinking
    /// goes on (a tool call), so without `end_before_answer` it never closed.
    message_start: &'static str,
}

/// gpt-oss's harmony format: `<|channel|>analysis<|message|>…<|end|><|start|>assistant
/// <|channel|>final<|message|>…`, which reads `analysis…assistantfinal…` when decoded with
/// `skip_special_tokens=True` (as verl's own reward managers decode), and starts with
/// `<|channel|>final<|message|>` (decoded without the special tokens, `final`) when the model
/// writes no analysis. With tools, messages to and from them (`<|start|>assistant<|channel|>
/// commentary to=functions.python …<|call|><|start|>functions.python to=assistant<|channel|>
/// commentary<|message|>…<|end|>`) and more analysis may come before the final channel: all of
/// it is the thinking, as it is in the text decoded without the special tokens (whose first
/// `assistantfinal` opens the answer).
const SPECIAL_TOKEN_FORMATS: [SpecialTokenFormat; 1] = [SpecialTokenFormat {
    open: HARMONY_OPEN,
    close: HARMONY_CLOSE,
    stripped: ("analysis", "assistantfinal"),
    answer_header: "<|channel|>final<|message|>",
    stripped_answer_header: "final",
    end_before_answer: HARMONY_END_BEFORE_ANSWER,
    message_start: "<|start|>",
}];

/// gpt-oss's end of a message followed by the final channel's header.
const HARMONY_END_BEFORE_ANSWER: &str = "<|end|><|start|>assistant<|channel|>final<|message|>";

impl Default for ThinkTags {
    fn default() -> ThinkTags {
        ThinkTags { open: THINK_OPEN.to_owned(), close: THINK_CLOSE.to_owned(), format: None, auto: false }
    }
}

/// The special-token format whose tags these are, if any.
fn format_of(open: &str, close: &str) -> Option<&'static SpecialTokenFormat> {
    SPECIAL_TOKEN_FORMATS.iter().find(|f| f.open == open && f.close == close)
}

/// Whether `tag` is one token of a vocabulary (`is_token`), or made of special tokens that are,
/// with plain words between them (harmony's `<|channel|>analysis<|message|>`).
pub fn tag_is_tokens(tag: &str, is_token: &impl Fn(&str) -> bool) -> bool {
    if is_token(tag) {
        return true;
    }
    let mut pieces = 0;
    let mut rest = tag;
    while let Some(start) = rest.find("<|") {
        let Some(len) = rest[start..].find("|>") else { break };
        if !is_token(&rest[start..start + len + 2]) {
            return false;
        }
        pieces += 1;
        rest = &rest[start + len + 2..];
    }
    pieces > 0
}

impl ThinkTags {
    /// Two tags, or why they cannot be used. Each must be non-empty, at most
    /// [`MAX_THINK_TAG_BYTES`], without white space at either end, braces or backslashes (they
    /// would change how boxes are read); the closing tag must hold a mark that no text between
    /// two boxes of one answer holds (`<`, `>`, `/`, `|`, `◁`, ...; not only letters, digits,
    /// `,;$()[]~&`), so that it always ends a row of boxes. The two must differ.
    pub fn new(open: &str, close: &str) -> Result<ThinkTags, String> {
        for (name, tag) in [("opening", open), ("closing", close)] {
            let why = if tag.is_empty() {
                Some("is empty")
            } else if tag.len() > MAX_THINK_TAG_BYTES {
                Some("is longer than 64 bytes")
            } else if tag.trim() != tag {
                Some("begins or ends with white space")
            } else if tag.contains(['{', '}', '\\']) {
                Some("holds a brace or a backslash")
            } else if name == "closing"
                && !tag.chars().any(|c| !c.is_alphanumeric() && !c.is_whitespace() && !",;$()[]~&".contains(c))
            {
                Some("holds no mark such as < > / | that sets it apart from the text between boxes")
            } else {
                None
            };
            if let Some(why) = why {
                return Err(format!("the {name} think tag {tag:?} {why}"));
            }
        }
        if open == close {
            return Err(format!("the opening and closing think tags are the same ({open:?})"));
        }
        Ok(ThinkTags { open: open.to_owned(), close: close.to_owned(), format: format_of(open, close), auto: false })
    }

    /// Each response read with the tags of the family it is written in (one of
    /// [`THINK_TAG_PRESETS`], found by [`Self::of_response`]): for batches that mix model
    /// families, or a scorer that is not told which family its policy is.
    pub fn auto() -> ThinkTags {
        ThinkTags { auto: true, ..ThinkTags::default() }
    }

    /// Whether these are [`Self::auto`]'s tags.
    pub fn is_auto(&self) -> bool {
        self.auto
    }

    /// The closing tag, when it is what [`Self::of_response`] gives every response (not the
    /// automatic tags, and not a special-token format whose responses may close elsewhere):
    /// then the end of a response can be read for its final answer without the rest.
    pub fn fixed_close(&self) -> Option<&str> {
        (!self.auto && self.format.is_none()).then_some(self.close.as_str())
    }

    /// [`Self::auto`]'s tags settled by a vocabulary (`is_token`: whether a string is one of
    /// its tokens): the one family of [`THINK_TAG_PRESETS`] whose two tags it holds as tokens
    /// (harmony's as special tokens with words between them). Unchanged when these are not the
    /// automatic tags, or when the vocabulary holds the tags of no family or of several: each
    /// response is then read by its own.
    pub fn for_vocabulary(&self, is_token: impl Fn(&str) -> bool) -> ThinkTags {
        if !self.auto {
            return self.clone();
        }
        let mut held = THINK_TAG_PRESETS
            .iter()
            .filter(|(_, open, close)| tag_is_tokens(open, &is_token) && tag_is_tokens(close, &is_token));
        match (held.next(), held.next()) {
            (Some((name, _, _)), None) => ThinkTags::preset(name).unwrap_or_else(|_| self.clone()),
            _ => self.clone(),
        }
    }

    /// The tags of a preset, or the automatic ones by their name ([`AUTO_THINK_TAGS`]).
    pub fn named(name: &str) -> Result<ThinkTags, String> {
        if name == AUTO_THINK_TAGS {
            return Ok(ThinkTags::auto());
        }
        ThinkTags::preset(name).map_err(|why| format!("{why}, or {AUTO_THINK_TAGS} (each response's own family)"))
    }

    /// The (opening, closing) tags of `response`. For a format whose tags are special tokens
    /// ([`SPECIAL_TOKEN_FORMATS`]: gpt-oss's), a response that holds no closing tag and starts
    /// with the words the tags leave when decoding skips them is read by those words
    /// (`analysis…assistantfinal…`), and one that starts with the header of an answer (no
    /// thinking written), or with the word decoding leaves of it (`final42`), closes its empty
    /// thinking with that header or word. With the tokens kept a
    /// response starts with `<|channel|>analysis`, or, when the prompt opened the channel, holds
    /// `<|end|>`: it is read by the tags, and when it holds the end of a message followed by the
    /// answer's header (`<|end|><|start|>assistant<|channel|>final<|message|>`) the thinking
    /// closes there, after any tool calls and further analysis, not at the first `<|end|>`.
    ///
    /// With [`Self::auto`]'s tags, the response's family ([`family_of`]) decides, and its
    /// tags read the response as above.
    pub fn of_response(&self, response: &str) -> (&str, &str) {
        if self.auto {
            let (open, close) = family_of(response);
            return tags_of_response(open, close, format_of(open, close), response);
        }
        tags_of_response(&self.open, &self.close, self.format, response)
    }

    /// The tags of a family in [`THINK_TAG_PRESETS`], or why there is none by that name.
    pub fn preset(name: &str) -> Result<ThinkTags, String> {
        match THINK_TAG_PRESETS.iter().find(|(preset, _, _)| *preset == name) {
            Some((_, open, close)) => ThinkTags::new(open, close),
            None => Err(format!("no think tags are named {name:?}; the names are {}", think_tag_preset_names())),
        }
    }

    pub fn open(&self) -> &str {
        &self.open
    }

    pub fn close(&self) -> &str {
        &self.close
    }
}

/// [`ThinkTags::of_response`] for the tags `(open, close)` and their special-token format.
fn tags_of_response<'a>(
    open: &'a str,
    close: &'a str,
    format: Option<&'static SpecialTokenFormat>,
    response: &str,
) -> (&'a str, &'a str) {
    let main = (open, close);
    let Some(format) = format else { return main };
    let bytes = response.as_bytes();
    if memchr::memmem::find(bytes, format.end_before_answer.as_bytes()).is_some() {
        // The thinking runs to the message before the answer, over any tool calls in between.
        return (open, format.end_before_answer);
    }
    if let Some(end) = memchr::memmem::find(bytes, close.as_bytes()) {
        // Another message after the thinking's first and no answer: a tool call, then the
        // response was cut short (or ended with the call). The thinking never closed.
        let goes_on = memchr::memmem::find(&bytes[end + close.len()..], format.message_start.as_bytes()).is_some();
        return if goes_on { (open, format.end_before_answer) } else { main };
    }
    // No closing tag: the forms of a response read without its markers, or with no thinking.
    let lead = response.trim_start();
    if lead.starts_with(format.answer_header) {
        (open, format.answer_header)
    } else if lead.starts_with(format.stripped.0) {
        format.stripped
    } else if lead
        .strip_prefix(format.stripped_answer_header)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase() || c.is_whitespace()))
    {
        (open, format.stripped_answer_header)
    } else {
        main
    }
}

/// The (opening, closing) tags of the family `response` is written in: the family whose
/// opening tag (or gpt-oss's answer header) starts it; else the one whose closing tag comes
/// first in it (for gpt-oss text decoded without its special tokens, which starts with
/// `analysis`, its `assistantfinal`); else gpt-oss's when the response reads as such text
/// otherwise (it starts with `analysis`, or is `final42`: [`tags_of_response`]); else the
/// default tags, which find no closing tag: the response is truncated under every family's.
fn family_of(response: &str) -> (&'static str, &'static str) {
    let lead = response.trim_start();
    if let Some((_, open, close)) = THINK_TAG_PRESETS.iter().find(|(_, open, _)| lead.starts_with(open)) {
        return (open, close);
    }
    if SPECIAL_TOKEN_FORMATS.iter().any(|f| lead.starts_with(f.answer_header)) {
        return (HARMONY_OPEN, HARMONY_CLOSE);
    }
    let bytes = response.as_bytes();
    // gpt-oss text decoded without its markers closes its analysis with `assistantfinal`.
    let stripped_closes = SPECIAL_TOKEN_FORMATS
        .iter()
        .filter(|f| lead.starts_with(f.stripped.0))
        .filter_map(|f| memchr::memmem::find(bytes, f.stripped.1.as_bytes()).map(|at| (at, f.open, f.close)));
    let first_close = THINK_TAG_PRESETS
        .iter()
        .filter_map(|(_, open, close)| memchr::memmem::find(bytes, close.as_bytes()).map(|at| (at, *open, *close)))
        .chain(stripped_closes)
        .min_by_key(|(at, _, _)| *at);
    if let Some((_, open, close)) = first_close {
        return (open, close);
    }
    for f in &SPECIAL_TOKEN_FORMATS {
        if tags_of_response(f.open, f.close, Some(f), response) != (f.open, f.close) {
            return (f.open, f.close);
        }
    }
    (THINK_OPEN, THINK_CLOSE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{extract_final_with, FinalRule};

    #[test]
    fn think_tags_are_checked() {
        assert!(ThinkTags::new("[THINK]", "[/THINK]").is_ok());
        assert!(ThinkTags::new("<seed:think>", "</seed:think>").is_ok());
        assert!(ThinkTags::new("◁think▷", "◁/think▷").is_ok());
        assert_eq!(ThinkTags::default(), ThinkTags::new("<think>", "</think>").unwrap());
        let refused = |open: &str, close: &str, why: &str| {
            let err = ThinkTags::new(open, close).unwrap_err();
            assert!(err.contains(why), "{err:?} lacks {why:?}");
        };
        refused("", "</think>", "is empty");
        refused("<think>", " </think>", "white space");
        refused("<think>", "}", "brace");
        refused("<think>", "\\end", "backslash");
        refused("THINK", "and", "holds no mark");
        refused("[THINK]", "[END]", "holds no mark");
        refused("<t>", ", ;", "holds no mark");
        refused(&"<".repeat(65), "</think>", "longer than 64 bytes");
        refused("<t>", "<t>", "the same");
        // The answer after another closing tag, found from the end.
        let f = extract_final_with("[THINK]so 4?[/THINK] \\boxed{5}", "[/THINK]").unwrap();
        assert_eq!((f.text.as_str(), f.rule, f.in_thinking), ("5", FinalRule::BoxedAfterThink, false));
        let f = extract_final_with("so \\boxed{4}</think>", "[/THINK]").unwrap();
        assert!(f.in_thinking, "`</think>` is no closing tag here");
    }

    #[test]
    fn think_tag_presets_are_valid_and_named() {
        for (name, open, close) in THINK_TAG_PRESETS {
            assert_eq!(ThinkTags::preset(name), ThinkTags::new(open, close), "{name}");
            assert!(ThinkTags::preset(name).is_ok(), "{name}");
        }
        assert_eq!(ThinkTags::preset("think").unwrap(), ThinkTags::default());
        assert_eq!(ThinkTags::preset("kimi").unwrap().close(), "◁/think▷");
        let err = ThinkTags::preset("gpt-oss").unwrap_err();
        assert!(err.contains("\"gpt-oss\"") && err.contains("harmony"), "{err}");
        // gpt-oss: the analysis channel is the thinking, the final channel's box the answer.
        let harmony = ThinkTags::preset("harmony").unwrap();
        let think = ThinkTags::default();
        let response = "<|channel|>analysis<|message|>so \\boxed{4}?<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{5}<|return|>";
        let f = extract_final_with(response, harmony.close()).unwrap();
        assert_eq!((f.text.as_str(), f.rule, f.in_thinking), ("5", FinalRule::BoxedAfterThink, false));
        // Decoded without its special tokens, gpt-oss's text is read by the words left.
        assert_eq!(harmony.of_response(response), (harmony.open(), HARMONY_END_BEFORE_ANSWER));
        assert_eq!(harmony.of_response(" analysisso 4?assistantfinal 5"), ("analysis", "assistantfinal"));
        // Thinking that starts with the word, after a prompt that opened the channel.
        assert_eq!(harmony.of_response("analysis of it: 4<|end|>5"), (harmony.open(), harmony.close()));
        // No analysis written: the final channel's header closes an empty thinking.
        let answer_only = "<|channel|>final<|message|>\\boxed{5}";
        assert_eq!(harmony.of_response(answer_only), (harmony.open(), "<|channel|>final<|message|>"));
        let f = extract_final_with(answer_only, harmony.of_response(answer_only).1).unwrap();
        assert_eq!((f.text.as_str(), f.rule), ("5", FinalRule::BoxedAfterThink));
        // The same decoded without the special tokens; not thinking that starts "finally".
        assert_eq!(harmony.of_response("final42"), (harmony.open(), "final"));
        assert_eq!(harmony.of_response(" finalThe answer is \\boxed{5}"), (harmony.open(), "final"));
        let f = extract_final_with("final42", "final").unwrap();
        assert_eq!((f.text.as_str(), f.rule), ("42", FinalRule::BareAfterThink));
        assert_eq!(harmony.of_response("finally, 42"), (harmony.open(), harmony.close()));
        assert_eq!(harmony.of_response("final answer: 42"), (harmony.open(), harmony.close()));
        assert_eq!(think.of_response("final42"), ("<think>", "</think>"));
        assert_eq!(ThinkTags::new("<|channel|>analysis<|message|>", "<|end|>").unwrap(), harmony);
        assert_eq!(think.of_response("analysisso 4?assistantfinal 5"), ("<think>", "</think>"));
    }

    #[test]
    fn harmony_thinking_runs_over_tool_calls_to_the_answer() {
        let harmony = ThinkTags::preset("harmony").unwrap();
        let response = "<|channel|>analysis<|message|>Let me compute it.<|end|><|start|>assistant<|channel|>commentary \
            to=functions.python <|constrain|>json<|message|>{\"code\": \"print(6*7)\"}<|call|><|start|>functions.python \
            to=assistant<|channel|>commentary<|message|>42<|end|><|start|>assistant<|channel|>analysis<|message|>So it \
            is 42.<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{42}<|return|>";
        let (open, close) = harmony.of_response(response);
        assert_eq!((open, close), (HARMONY_OPEN, HARMONY_END_BEFORE_ANSWER));
        let end = memchr::memmem::find(response.as_bytes(), close.as_bytes()).unwrap();
        assert!(response[..end].ends_with("So it is 42."), "{:?}", &response[..end]);
        let f = extract_final_with(response, close).unwrap();
        assert_eq!((f.text.as_str(), f.rule, f.in_thinking), ("42", FinalRule::BoxedAfterThink, false));
        // Cut short after a tool call, before the final channel: the thinking never closed (a
        // box in it is no answer after the thinking), with markers or without.
        let cut = &response[..response.find("<|start|>assistant<|channel|>final").unwrap()];
        assert_eq!(harmony.of_response(cut), (HARMONY_OPEN, HARMONY_END_BEFORE_ANSWER));
        let called = &response[..response.find("<|call|>").unwrap() + "<|call|>".len()];
        assert_eq!(harmony.of_response(called), (HARMONY_OPEN, HARMONY_END_BEFORE_ANSWER));
        for short in [cut, called] {
            assert!(memchr::memmem::find(short.as_bytes(), HARMONY_END_BEFORE_ANSWER.as_bytes()).is_none());
            assert!(extract_final_with(short, HARMONY_END_BEFORE_ANSWER).map_or(true, |f| f.in_thinking));
        }
        // One analysis message and its end, with no message after it, still closes there.
        assert_eq!(harmony.of_response("<|channel|>analysis<|message|>So 4.<|end|>4"), (HARMONY_OPEN, HARMONY_CLOSE));
        assert_eq!(ThinkTags::auto().of_response(response), (HARMONY_OPEN, HARMONY_END_BEFORE_ANSWER));
    }

    #[test]
    fn automatic_tags_read_each_response_by_its_family() {
        let auto = ThinkTags::auto();
        assert!(auto.is_auto() && !ThinkTags::default().is_auto());
        for (name, open, close) in THINK_TAG_PRESETS {
            let preset = ThinkTags::preset(name).unwrap();
            // The opening tag starts the response.
            let response = format!("{open}so 4?{close}\\boxed{{4}}");
            assert_eq!(auto.of_response(&response), preset.of_response(&response), "{name}");
            // The opening tag was in the prompt: the closing tag tells.
            let response = format!("so 4?{close}\\boxed{{4}}");
            assert_eq!(auto.of_response(&response), (open, close), "{name}");
            let f = extract_final_with(&response, auto.of_response(&response).1).unwrap();
            assert_eq!((f.text.as_str(), f.rule), ("4", FinalRule::BoxedAfterThink), "{name}");
        }
        // The first closing tag decides between two families.
        assert_eq!(auto.of_response("a [/THINK] b </think> c"), ("[THINK]", "[/THINK]"));
        assert_eq!(auto.of_response("a </think> b [/THINK] c"), (THINK_OPEN, THINK_CLOSE));
        // gpt-oss's text decoded without its special tokens, and its answer with no thinking.
        assert_eq!(auto.of_response(" analysisso 4?assistantfinal 5"), ("analysis", "assistantfinal"));
        assert_eq!(auto.of_response("final42"), (HARMONY_OPEN, "final"));
        let answer_only = "<|channel|>final<|message|>\\boxed{5}";
        assert_eq!(auto.of_response(answer_only), (HARMONY_OPEN, "<|channel|>final<|message|>"));
        // No family's closing tag: the default tags, under which (as under every family's)
        // the response is truncated.
        for truncated in ["so 4? Let me check", "finally, 42", "final answer: 42", ""] {
            assert_eq!(auto.of_response(truncated), (THINK_OPEN, THINK_CLOSE), "{truncated:?}");
        }
        // gpt-oss text decoded without its markers whose answer writes another family's tag.
        assert_eq!(auto.of_response("analysisso 4?assistantfinal 5 </think>"), ("analysis", "assistantfinal"));
        assert_eq!(auto.of_response("analysis: 4</think>assistantfinal"), (THINK_OPEN, THINK_CLOSE));
        // gpt-oss's analysis decoded without its markers and cut short: read as harmony reads it
        // (truncated under both, the word `analysis` outside the thinking).
        assert_eq!(auto.of_response("analysisWe need 4"), ("analysis", "assistantfinal"));
    }

    #[test]
    fn automatic_tags_settle_on_the_one_family_a_vocabulary_holds() {
        let auto = ThinkTags::auto();
        let vocabulary = |tokens: &'static [&'static str]| move |t: &str| tokens.contains(&t);
        assert_eq!(auto.for_vocabulary(vocabulary(&["<think>", "</think>", "a"])), ThinkTags::default());
        let harmony = ThinkTags::preset("harmony").unwrap();
        assert_eq!(auto.for_vocabulary(vocabulary(&["<|channel|>", "<|message|>", "<|end|>", "<|start|>"])), harmony);
        assert_eq!(auto.for_vocabulary(vocabulary(&["[THINK]", "[/THINK]"])), ThinkTags::preset("magistral").unwrap());
        // One tag of a family, Phi's `<|end|>` without harmony's channel, no family, or two:
        // still each response's own.
        for tokens in
            [&["</think>"][..], &["<|end|>", "<|message|>"], &[], &["<think>", "</think>", "[THINK]", "[/THINK]"]]
        {
            assert!(auto.for_vocabulary(vocabulary(tokens)).is_auto(), "{tokens:?}");
        }
        // Tags given explicitly stay as given.
        assert_eq!(ThinkTags::default().for_vocabulary(vocabulary(&["[THINK]", "[/THINK]"])), ThinkTags::default());
        assert_eq!(ThinkTags::named("auto").unwrap(), auto);
        assert_eq!(ThinkTags::named("kimi"), ThinkTags::preset("kimi"));
        let err = ThinkTags::named("gpt-oss").unwrap_err();
        assert!(err.contains("harmony") && err.contains("auto"), "{err}");
    }
}
