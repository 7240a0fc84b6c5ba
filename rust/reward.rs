//! The Anchor-based Process Reward of one rollout, and of a whole batch in one call.
//!
//! R = 1[ŷ ≡ y*] · (1 − β · L_AST) for complete responses (with `</think>`), 0 for incorrect
//! or truncated ones. L_AST counts the thinking tokens after the anchor token (the token that
//! holds the last character of the anchor sentence); T_think counts the thinking tokens. With
//! no token information the same quantities are counted in characters and the result says so.
//!
//! When β · L_AST > 1 the paper's formula gives a correct answer a negative reward, below an
//! incorrect one (0). The paper keeps β small enough that this is rare on average (β < 6e-4
//! for a ~1,400-token tail); [`RewardConfig::floor`] bounds the reward from below when set
//! (0.0 keeps every correct answer at or above every incorrect one).

use std::ops::Range;

use crate::anchor::{Anchor, AnchorMode, AnchorOptions, AnchorSearch, Problem};
use crate::answer::{Answer, Judgement, Policy, Verdict};
pub use crate::extract::ThinkTags;
use crate::extract::{FinalAnswer, THINK_TAG_PRESETS};
use crate::outcome::{final_answer_of, judge_alternatives, outcome_of, OutcomeMemo, OutcomeQuery};
use crate::parallel::{map_items, ItemPanic};
use crate::text::cues::CueMatcher;
use crate::text::offsets::count_chars;
use crate::text::sentences::{split_sentences, SplitOptions};
use crate::tokens::{DecodeError, Encoder, Vocabulary};

/// Which answer the anchor search looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReferenceChoice {
    /// The response's own final answer ŷ: the paper's choice for training and for the
    /// redundancy study (the answer's stability, not its correctness, defines the tail).
    FinalAnswer,
    /// The ground truth y*: the paper's choice for truncated traces.
    GroundTruth,
}

impl ReferenceChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            ReferenceChoice::FinalAnswer => "final_answer",
            ReferenceChoice::GroundTruth => "ground_truth",
        }
    }

    pub fn from_name(name: &str) -> Option<ReferenceChoice> {
        [ReferenceChoice::FinalAnswer, ReferenceChoice::GroundTruth].into_iter().find(|r| r.as_str() == name)
    }
}

/// Which rollouts the anchor search reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnchorScope {
    /// Every rollout: its L_AST and ρ are reported whatever its reward (the redundancy study
    /// reads them; VeRL's validation logs them).
    All,
    /// Only rollouts whose reward depends on the anchor: correct and complete ones, and those
    /// whose correctness the Python layer sends to the CAS ([`Status::CorrectnessUnknown`]).
    /// The others (incorrect, truncated, without a final answer) have reward 0 whatever their
    /// anchor: they are reported with [`RolloutScore::anchor_searched`] false, no anchor
    /// sentence and L_AST 0. The rewards are those of [`AnchorScope::All`].
    Rewarded,
}

impl AnchorScope {
    pub fn as_str(self) -> &'static str {
        match self {
            AnchorScope::All => "all",
            AnchorScope::Rewarded => "rewarded",
        }
    }

    pub fn from_name(name: &str) -> Option<AnchorScope> {
        [AnchorScope::All, AnchorScope::Rewarded].into_iter().find(|s| s.as_str() == name)
    }
}

/// Everything that shapes the reward. Build once, share across a batch.
#[derive(Debug, Clone)]
pub struct RewardConfig {
    pub beta: f64,
    /// Lower bound of the reward of a correct complete response; `None` = the paper's formula.
    pub floor: Option<f64>,
    pub mode: AnchorMode,
    pub anchor: AnchorOptions,
    pub reference: ReferenceChoice,
    pub policy: Policy,
    pub split: SplitOptions,
    pub cues: CueMatcher,
    /// With the problem text given, a final answer that restates one of its expressions and is
    /// more complex than every accepted answer is not correct (status
    /// [`Status::ProblemEcho`]): for "Simplify E", boxing E itself equals the answer but is a
    /// reward hack. See [`is_problem_echo`].
    pub reject_problem_echo: bool,
    /// Only a final answer after `</think>` counts: one found only inside the thinking is none
    /// (status [`Status::NoFinalAnswer`], reward 0), as a strict format reward counts it. Off
    /// by default: a response whose answer section is empty is then judged by its thinking.
    pub require_answer_after_think: bool,
    /// The tags around the thinking (`<think>` / `</think>` by default).
    pub think: ThinkTags,
    /// Which rollouts the anchor search reads (all by default).
    pub anchors: AnchorScope,
}

impl RewardConfig {
    /// β = 2e-4 (the paper's 1.5B setting), no floor, the given mode, paper cues.
    pub fn new(mode: AnchorMode) -> RewardConfig {
        RewardConfig {
            beta: 2e-4,
            floor: None,
            mode,
            anchor: mode.options(),
            reference: ReferenceChoice::FinalAnswer,
            policy: Policy::default(),
            split: SplitOptions::default(),
            cues: CueMatcher::paper(),
            reject_problem_echo: true,
            require_answer_after_think: false,
            think: ThinkTags::default(),
            anchors: AnchorScope::All,
        }
    }

    /// Why the configuration cannot be used, if it cannot.
    pub fn validate(&self) -> Result<(), String> {
        if !self.beta.is_finite() || self.beta < 0.0 {
            return Err(format!("beta must be a finite number >= 0, got {}", self.beta));
        }
        if let Some(floor) = self.floor {
            if !floor.is_finite() || floor > 1.0 {
                return Err(format!("floor must be a finite number <= 1, got {floor}"));
            }
        }
        Ok(())
    }
}

/// The APR reward from its parts (also used by the Python layer once a CAS has decided
/// correctness the native engine could not).
pub fn apr_reward(correct: bool, complete: bool, l_ast: usize, beta: f64, floor: Option<f64>) -> f64 {
    if !(correct && complete) {
        return 0.0;
    }
    let r = 1.0 - beta * l_ast as f64;
    match floor {
        Some(f) => r.max(f),
        None => r,
    }
}

/// What was unusual about a rollout. The numbers are stable: VeRL logs them as a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    /// No `</think>`: the response ran out of tokens; reward 0.
    Truncated = 1,
    /// No final answer could be extracted; scored as incorrect.
    NoFinalAnswer = 2,
    /// `</think>` present but nothing before it.
    EmptyThinking = 3,
    /// The native engine could not decide ŷ ≡ y*; the Python layer sends it to the CAS.
    CorrectnessUnknown = 4,
    /// The CAS ran out of time (set by the Python layer).
    CasTimeout = 5,
    /// The CAS failed (set by the Python layer).
    CasError = 6,
    /// The input could not be read (token ids outside the vocabulary, ...).
    InvalidInput = 7,
    /// A bug caught at the boundary; the rollout scores 0.
    InternalError = 8,
    /// The final answer restates an expression of the problem statement instead of its value
    /// (boxing the expression to simplify); scored as incorrect (see
    /// [`RewardConfig::reject_problem_echo`]).
    ProblemEcho = 9,
}

impl Status {
    pub const ALL: [Status; 10] = [
        Status::Ok,
        Status::Truncated,
        Status::NoFinalAnswer,
        Status::EmptyThinking,
        Status::CorrectnessUnknown,
        Status::CasTimeout,
        Status::CasError,
        Status::InvalidInput,
        Status::InternalError,
        Status::ProblemEcho,
    ];

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Truncated => "truncated",
            Status::NoFinalAnswer => "no_final_answer",
            Status::EmptyThinking => "empty_thinking",
            Status::CorrectnessUnknown => "correctness_unknown",
            Status::CasTimeout => "cas_timeout",
            Status::CasError => "cas_error",
            Status::InvalidInput => "invalid_input",
            Status::InternalError => "internal_error",
            Status::ProblemEcho => "problem_echo",
        }
    }
}

/// The unit of T_think and L_AST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LengthUnit {
    Tokens,
    Chars,
}

impl LengthUnit {
    pub fn as_str(self) -> &'static str {
        match self {
            LengthUnit::Tokens => "tokens",
            LengthUnit::Chars => "chars",
        }
    }
}

/// Token boundaries of a response: `ends[i]` is the byte offset in the response text where
/// token `i` ends (ascending; a token holding part of a character has an empty span).
#[derive(Debug, Clone, Copy)]
pub struct TokenSpans<'a> {
    pub ends: &'a [usize],
    /// Index of the `</think>` token when it was found by its id (token-id input; used when it
    /// is the tag the response's thinking closes with); with text input the tag is found in the
    /// text.
    pub think_close: Option<usize>,
}

impl TokenSpans<'_> {
    /// The token holding byte `offset` (the last token if `offset` is past the end).
    fn at_byte(&self, offset: usize) -> usize {
        self.ends.partition_point(|&end| end <= offset).min(self.ends.len().saturating_sub(1))
    }

    fn start_of(&self, token: usize) -> usize {
        if token == 0 {
            0
        } else {
            self.ends[token - 1]
        }
    }
}

/// One rollout to score.
#[derive(Debug, Clone, Copy)]
pub struct Rollout<'a> {
    pub response: &'a str,
    /// Accepted answers (any one is correct); empty = no answer can be correct.
    pub ground_truth: &'a [&'a str],
    /// The problem statement, for refinements that recognise values copied from it.
    pub problem: Option<&'a str>,
    pub tokens: Option<TokenSpans<'a>>,
}

/// The score of one rollout. Offsets are bytes into the response text (for token-id input,
/// the decoded text).
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutScore {
    pub status: Status,
    pub reward: f64,
    pub correct: bool,
    /// ŷ ≡ y* as the native engine decided it (Unknown: see [`Status::CorrectnessUnknown`]);
    /// `None` when there is no final answer or no ground truth to compare.
    pub correctness: Option<Judgement>,
    pub final_answer: Option<FinalAnswer>,
    pub has_think_close: bool,
    pub thinking: Range<usize>,
    pub anchor_found: bool,
    /// Whether the anchor search read the thinking: not for a rollout that
    /// [`AnchorScope::Rewarded`] leaves out, nor for one that could not be scored
    /// ([`failed_score`]). Without it there is no anchor sentence, `anchor_found` is false and
    /// L_AST is 0.
    pub anchor_searched: bool,
    pub anchor_sentence: Option<usize>,
    pub num_sentences: usize,
    /// The anchor sentence (whitespace after it included).
    pub anchor_span: Range<usize>,
    /// One past the anchor character (the anchor sentence's last non-whitespace character).
    pub anchor_end: usize,
    /// The token holding the anchor character (token input only).
    pub anchor_token: Option<usize>,
    /// The candidate that matched the reference: span and text.
    pub matched: Option<(Range<usize>, String)>,
    /// Candidate comparisons before the anchor the native engine left undecided.
    pub undecided_comparisons: usize,
    pub t_think: usize,
    pub l_ast: usize,
    pub rho: f64,
    pub unit: LengthUnit,
    pub mode: AnchorMode,
}

/// Where the thinking lies: after an optional leading `<think>`, before the first `</think>`
/// (`tags`: the (opening, closing) tags [`ThinkTags::of_response`] gives the response), and
/// the closing tag's span.
pub fn thinking_layout(
    response: &str,
    tokens: Option<&TokenSpans<'_>>,
    tags: (&str, &str),
) -> (Range<usize>, Option<Range<usize>>) {
    let (open, close_tag) = tags;
    let lead = response.len() - response.trim_start().len();
    let start = if response[lead..].starts_with(open) { lead + open.len() } else { 0 };
    // The token found by its id, when the response's thinking closes at that very tag (not,
    // for gpt-oss, at the message before the answer, or at an answer header).
    let close = match tokens.and_then(|t| t.think_close.map(|k| (t, k))) {
        Some((t, k)) if k < t.ends.len() && response.get(t.start_of(k)..t.ends[k]) == Some(close_tag) => {
            Some(t.start_of(k).max(start)..t.ends[k].max(start))
        }
        _ => memchr::memmem::find(&response.as_bytes()[start..], close_tag.as_bytes())
            .map(|p| start + p..start + p + close_tag.len()),
    };
    let end = close.as_ref().map_or(response.len(), |c| c.start);
    (start..end, close)
}

/// Scores one rollout.
pub fn score_rollout(rollout: &Rollout<'_>, config: &RewardConfig) -> RolloutScore {
    score_rollout_in(rollout, config, &OutcomeMemo::default())
}

/// Scores one rollout of a batch whose outcome judgements are shared in `memo`.
fn score_rollout_in(rollout: &Rollout<'_>, config: &RewardConfig, memo: &OutcomeMemo) -> RolloutScore {
    let response = rollout.response;
    let tags = config.think.of_response(response);
    let (thinking, close) = thinking_layout(response, rollout.tokens.as_ref(), tags);
    let complete = close.is_some();
    let thinking_text = &response[thinking.clone()];

    let final_answer = final_answer_of(response, config.require_answer_after_think, tags.1);
    let final_parsed = final_answer.as_ref().map(|f| Answer::parse(&f.text));
    let parse_ground_truth = || -> Vec<Answer> { rollout.ground_truth.iter().map(|g| Answer::parse(g)).collect() };
    let judgements = match (&final_answer, &final_parsed) {
        (Some(f), Some(parsed)) => memo.judgements(&f.text, rollout.ground_truth, || {
            judge_alternatives(parsed, &parse_ground_truth(), &config.policy)
        }),
        _ => Vec::new(),
    };
    let query = OutcomeQuery { response, ground_truth: rollout.ground_truth, problem: rollout.problem };
    let outcome = outcome_of(final_answer, judgements, &query, config.reject_problem_echo);
    let correctness = outcome.correctness();
    let verdict = correctness.map(|j| j.verdict);
    let echo = outcome.problem_echo;
    let correct = outcome.correct();
    let final_answer = outcome.final_answer;

    let status = if !complete {
        Status::Truncated
    } else if thinking_text.trim().is_empty() {
        Status::EmptyThinking
    } else if final_answer.is_none() {
        Status::NoFinalAnswer
    } else if echo {
        Status::ProblemEcho
    } else if verdict == Some(Verdict::Unknown) {
        Status::CorrectnessUnknown
    } else {
        Status::Ok
    };

    // The reward of any other rollout is 0 whatever its anchor (the CAS decides the unknown).
    let searched = config.anchors == AnchorScope::All || (correct && complete) || status == Status::CorrectnessUnknown;
    let anchor: Anchor = if searched {
        let references: Vec<Answer> = match config.reference {
            ReferenceChoice::FinalAnswer => final_parsed.into_iter().collect(),
            ReferenceChoice::GroundTruth => parse_ground_truth(),
        };
        let options = &config.anchor;
        let problem = rollout.problem.filter(|_| options.reads_problem()).map(Problem::new);
        let sentences = split_sentences(thinking_text, &config.split);
        let search = AnchorSearch {
            options,
            policy: &config.policy,
            own_answer: config.reference == ReferenceChoice::FinalAnswer,
        };
        search.locate(thinking_text, &sentences, &config.cues, &references, problem.as_ref())
    } else {
        Anchor::NO_SENTENCE
    };

    let (t_think, l_ast, anchor_token, unit) = match rollout.tokens.as_ref().filter(|t| !t.ends.is_empty()) {
        Some(tokens) if !thinking.is_empty() => {
            let first = tokens.at_byte(thinking.start);
            let last = tokens.at_byte(thinking.end - 1);
            let t_think = last + 1 - first.min(last + 1);
            let anchor_byte = thinking.start + anchor.content_end.max(1) - 1;
            let anchor_token = tokens.at_byte(anchor_byte).clamp(first, last);
            let l_ast = if anchor.found { last - anchor_token } else { 0 };
            // Without a search there is no anchor token to name.
            (t_think, l_ast, searched.then_some(anchor_token), LengthUnit::Tokens)
        }
        Some(_) => (0, 0, None, LengthUnit::Tokens),
        None => {
            let t_think = count_chars(thinking_text.as_bytes());
            let l_ast = if anchor.found { count_chars(&thinking_text.as_bytes()[anchor.content_end..]) } else { 0 };
            (t_think, l_ast, None, LengthUnit::Chars)
        }
    };
    let rho = if t_think == 0 { 0.0 } else { l_ast as f64 / t_think as f64 };

    let offset = |r: Range<usize>| thinking.start + r.start..thinking.start + r.end;
    RolloutScore {
        status,
        reward: apr_reward(correct, complete, l_ast, config.beta, config.floor),
        correct,
        correctness,
        final_answer,
        has_think_close: complete,
        thinking: thinking.clone(),
        anchor_found: anchor.found,
        anchor_searched: searched,
        anchor_sentence: anchor.sentence,
        num_sentences: anchor.num_sentences,
        anchor_span: offset(anchor.sentence_span.clone()),
        anchor_end: thinking.start + anchor.content_end,
        anchor_token,
        matched: anchor.matched.map(|(span, text)| (offset(span), text)),
        undecided_comparisons: anchor.undecided,
        t_think,
        l_ast,
        rho,
        unit,
        mode: config.mode,
    }
}

/// A score for a rollout that could not be scored at all.
pub fn failed_score(status: Status, config: &RewardConfig) -> RolloutScore {
    RolloutScore {
        status,
        reward: 0.0,
        correct: false,
        correctness: None,
        final_answer: None,
        has_think_close: false,
        thinking: 0..0,
        anchor_found: false,
        anchor_searched: false,
        anchor_sentence: None,
        num_sentences: 0,
        anchor_span: 0..0,
        anchor_end: 0,
        anchor_token: None,
        matched: None,
        undecided_comparisons: 0,
        t_think: 0,
        l_ast: 0,
        rho: 0.0,
        unit: LengthUnit::Tokens,
        mode: config.mode,
    }
}

/// Scores a batch of rollouts on `threads` workers; a rollout that panics gets
/// [`Status::InternalError`] and the rest are unaffected. With `encoder`, a rollout that comes
/// without token spans (`tokens: None`) is encoded on the worker that scores it and counted in
/// those tokens (else in characters).
pub fn score_batch(
    rollouts: &[Rollout<'_>],
    encoder: Option<&Encoder>,
    config: &RewardConfig,
    threads: Option<usize>,
) -> Vec<RolloutScore> {
    let memo = OutcomeMemo::default();
    map_items(rollouts, threads, |r| match (encoder, r.tokens) {
        (Some(encoder), None) => {
            let encoding = encoder.encode(r.response);
            let tokens = TokenSpans { ends: &encoding.ends, think_close: None };
            score_rollout_in(&Rollout { tokens: Some(tokens), ..*r }, config, &memo)
        }
        _ => score_rollout_in(r, config, &memo),
    })
    .into_iter()
    .map(|r| r.unwrap_or_else(|ItemPanic(_)| failed_score(Status::InternalError, config)))
    .collect()
}

/// One rollout given as the policy's token ids (the VeRL path).
#[derive(Debug, Clone, Copy)]
pub struct IdsRollout<'a> {
    pub ids: &'a [u32],
    pub ground_truth: &'a [&'a str],
    pub problem: Option<&'a str>,
}

/// A token-id rollout's score with the text it decoded to (offsets refer to it).
#[derive(Debug, Clone, PartialEq)]
pub struct IdsScore {
    pub score: RolloutScore,
    pub text: String,
    /// Why the ids could not be decoded (then `score.status` is [`Status::InvalidInput`]).
    pub error: Option<String>,
}

/// Scores token-id rollouts one at a time: decodes each with the vocabulary (no
/// re-tokenization), finds `</think>` by its id, and counts lengths in these very tokens.
/// Trailing special tokens (end-of-sequence, padding) are not part of the response text or its
/// length. Callers run it inside their own parallel loop (the binding converts each rollout's
/// ids there too), one scorer per batch: it remembers the batch's outcome judgements.
pub struct IdsScorer<'a> {
    vocabulary: &'a Vocabulary,
    config: &'a RewardConfig,
    think_close_id: Option<u32>,
    /// The ids of the closing tags a response may end with, which are not trailing special
    /// tokens to drop: the closing tag's, or with automatic tags every family's.
    closing_ids: Vec<u32>,
    /// Outcome judgements shared by the rollouts this scorer scores (one batch).
    memo: OutcomeMemo,
}

impl<'a> IdsScorer<'a> {
    pub fn new(vocabulary: &'a Vocabulary, config: &'a RewardConfig) -> IdsScorer<'a> {
        // Automatic tags (not settled by the vocabulary, [`ThinkTags::for_vocabulary`]) find
        // each response's closing tag in its text.
        let think_close_id = if config.think.is_auto() { None } else { vocabulary.token_id(config.think.close()) };
        let closing_ids = if config.think.is_auto() {
            THINK_TAG_PRESETS.iter().filter_map(|(_, _, close)| vocabulary.token_id(close)).collect()
        } else {
            think_close_id.into_iter().collect()
        };
        IdsScorer { vocabulary, config, think_close_id, closing_ids, memo: OutcomeMemo::default() }
    }

    /// The score of a rollout whose scoring panicked (a bug), with the panic's message.
    pub fn internal_error(&self, message: &str) -> IdsScore {
        self.failed(Status::InternalError, format!("internal error in apr_fast (please report): {message}"))
    }

    /// The score of a rollout whose ids cannot be read, with why.
    pub fn invalid_input(&self, message: String) -> IdsScore {
        self.failed(Status::InvalidInput, message)
    }

    fn failed(&self, status: Status, message: String) -> IdsScore {
        IdsScore { score: failed_score(status, self.config), text: String::new(), error: Some(message) }
    }

    /// Decodes the ids, finds `</think>` by its id, and scores the text in these tokens.
    pub fn score(&self, rollout: &IdsRollout<'_>) -> IdsScore {
        let (vocabulary, config) = (self.vocabulary, self.config);
        let mut ids = rollout.ids;
        while let Some((&last, rest)) = ids.split_last() {
            if vocabulary.is_special(last) && !self.closing_ids.contains(&last) {
                ids = rest;
            } else {
                break;
            }
        }
        let decoded = match vocabulary.decode_with_offsets(ids, false) {
            Ok(d) => d,
            Err(e @ DecodeError::UnknownId { .. }) => return self.invalid_input(e.to_string()),
        };
        let think_close = self.think_close_id.and_then(|id| position_of_id(ids, id));
        let tokens = TokenSpans { ends: &decoded.token_ends, think_close };
        let score = score_rollout_in(
            &Rollout {
                response: &decoded.text,
                ground_truth: rollout.ground_truth,
                problem: rollout.problem,
                tokens: Some(tokens),
            },
            config,
            &self.memo,
        );
        IdsScore { score, text: decoded.text, error: None }
    }
}

/// The index of the first `id` in `ids`: 16 ids at a time, each block tested at once
/// (vectorised), instead of one by one (3 instructions per token of the thinking).
fn position_of_id(ids: &[u32], id: u32) -> Option<usize> {
    const BLOCK: usize = 16;
    let mut blocks = ids.chunks_exact(BLOCK);
    for (b, block) in (&mut blocks).enumerate() {
        if block.iter().fold(false, |any, &t| any | (t == id)) {
            return block.iter().position(|&t| t == id).map(|k| b * BLOCK + k);
        }
    }
    let rest = blocks.remainder();
    rest.iter().position(|&t| t == id).map(|k| ids.len() - rest.len() + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_position_of_an_id_at_every_place() {
        for n in 0..40usize {
            for at in [None, Some(0), Some(n / 2), Some(n.saturating_sub(1))] {
                let mut ids: Vec<u32> = (0..n as u32).map(|k| 100 + k).collect();
                if let Some(at) = at.filter(|&a| a < n) {
                    ids[at] = 7;
                    if at + 3 < n {
                        ids[at + 3] = 7;
                    }
                }
                assert_eq!(position_of_id(&ids, 7), ids.iter().position(|&t| t == 7), "n {n} at {at:?}");
            }
        }
    }

    fn score(response: &str, gt: &str, mode: AnchorMode) -> RolloutScore {
        let config = RewardConfig::new(mode);
        score_rollout(&Rollout { response, ground_truth: &[gt], problem: None, tokens: None }, &config)
    }

    #[test]
    fn correct_response_is_penalised_by_its_tail_in_chars() {
        let r = "<think>\nSo the answer is 5. Let me check: 2 + 3 = 5. Yes.\n</think>\nThe answer is \\boxed{5}.";
        let s = score(r, "5", AnchorMode::Paper);
        assert_eq!(s.status, Status::Ok);
        assert!(s.correct && s.anchor_found && s.has_think_close);
        assert_eq!(s.unit, LengthUnit::Chars);
        let thinking = &r[s.thinking.clone()];
        assert_eq!(thinking, "\nSo the answer is 5. Let me check: 2 + 3 = 5. Yes.\n");
        assert_eq!(&r[s.anchor_end - 1..s.anchor_end], ".");
        assert_eq!(s.l_ast, " Let me check: 2 + 3 = 5. Yes.\n".chars().count());
        assert_eq!(s.t_think, thinking.chars().count());
        let expected = 1.0 - 2e-4 * s.l_ast as f64;
        assert!((s.reward - expected).abs() < 1e-12);
    }

    #[test]
    fn truncated_and_incorrect_responses_score_zero() {
        let truncated = score("So the answer is 5. Wait, let me check", "5", AnchorMode::Paper);
        assert_eq!(truncated.status, Status::Truncated);
        assert_eq!(truncated.reward, 0.0);
        assert!(!truncated.has_think_close);
        let wrong = score("So it is 4. Let me check.</think>\\boxed{4}", "5", AnchorMode::Paper);
        assert_eq!(wrong.status, Status::Ok);
        assert!(!wrong.correct);
        assert_eq!(wrong.reward, 0.0);
        assert!(wrong.anchor_found, "the anchor follows the model's own answer, right or wrong");
    }

    #[test]
    fn the_rewarded_scope_searches_only_rollouts_whose_reward_depends_on_the_anchor() {
        let rewarded = RewardConfig { anchors: AnchorScope::Rewarded, ..RewardConfig::new(AnchorMode::Default) };
        let all = RewardConfig::new(AnchorMode::Default);
        let tokens = |r: &str| -> Vec<usize> { (1..=r.len()).filter(|&e| r.is_char_boundary(e)).collect() };
        let cases = [
            ("So it is 5. Let me check: 2 + 3 = 5.</think>\\boxed{5}", "5", true),
            ("So it is 4. Let me check: 2 + 2 = 4.</think>\\boxed{4}", "5", false),
            ("So it is \\boxed{5}. Let me check: 2 + 3 = 5", "5", false),
            ("So it is 5. Let me check.</think>no box", "5", false),
            // Undecided natively: the Python layer's CAS may make it correct, which needs its L_AST.
            ("So it is 52. Let me check.</think>\\boxed{52}", "52_8", true),
        ];
        for (response, gt, searched) in cases {
            let ends = tokens(response);
            for spans in [None, Some(TokenSpans { ends: &ends, think_close: None })] {
                let rollout = Rollout { response, ground_truth: &[gt], problem: None, tokens: spans };
                let (a, r) = (score_rollout(&rollout, &all), score_rollout(&rollout, &rewarded));
                assert!(a.anchor_searched, "{response}");
                assert_eq!(r.anchor_searched, searched, "{response}");
                assert_eq!(
                    (r.reward, r.status, r.correct, r.t_think),
                    (a.reward, a.status, a.correct, a.t_think),
                    "{response}"
                );
                if searched {
                    assert_eq!(format!("{r:?}"), format!("{a:?}"));
                } else {
                    assert_eq!(
                        (r.anchor_found, r.anchor_sentence, r.num_sentences, r.l_ast, r.rho),
                        (false, None, 0, 0, 0.0)
                    );
                    assert_eq!((r.anchor_token, r.matched.is_none()), (None, true));
                }
            }
        }
        assert_eq!(AnchorScope::from_name("rewarded"), Some(AnchorScope::Rewarded));
        assert_eq!(AnchorScope::from_name("correct"), None);
    }

    #[test]
    fn missing_final_answer_and_empty_thinking_have_a_status() {
        assert_eq!(score("So it is 4.</think>no box here", "4", AnchorMode::Paper).status, Status::NoFinalAnswer);
        assert_eq!(score("<think>  </think>\\boxed{4}", "4", AnchorMode::Paper).status, Status::EmptyThinking);
    }

    #[test]
    fn other_think_tags_delimit_the_thinking() {
        let mut config = RewardConfig::new(AnchorMode::Paper);
        config.think = ThinkTags::new("[THINK]", "[/THINK]").unwrap();
        let r = "[THINK]\nSo the answer is 5. Let me check: 2 + 3 = 5. Yes.\n[/THINK]\nThe answer is \\boxed{5}.";
        let tagged =
            score_rollout(&Rollout { response: r, ground_truth: &["5"], problem: None, tokens: None }, &config);
        let standard = score(&r.replace("[THINK]", "<think>").replace("[/THINK]", "</think>"), "5", AnchorMode::Paper);
        assert!(tagged.has_think_close && !tagged.final_answer.as_ref().unwrap().in_thinking);
        assert_eq!((tagged.status, tagged.t_think, tagged.l_ast), (standard.status, standard.t_think, standard.l_ast));
        assert_eq!(tagged.reward, standard.reward);
        // The default tags do not see these: no closing tag, truncated.
        assert_eq!(score(r, "5", AnchorMode::Paper).status, Status::Truncated);
    }

    #[test]
    fn gpt_oss_thinking_over_a_tool_call_is_read_to_the_answer() {
        let mut config = RewardConfig::new(AnchorMode::Default);
        config.think = ThinkTags::preset("harmony").unwrap();
        let scored = |r: &str| {
            score_rollout(&Rollout { response: r, ground_truth: &["42"], problem: None, tokens: None }, &config)
        };
        let marked = scored(
            "<|channel|>analysis<|message|>Let me compute 6 times 7 with python.<|end|><|start|>assistant<|channel|>commentary \
             to=functions.python <|constrain|>json<|message|>{\"code\": \"print(6*7)\"}<|call|><|start|>functions.python \
             to=assistant<|channel|>commentary<|message|>42<|end|><|start|>assistant<|channel|>analysis<|message|>So the \
             answer is 42. Let me double check: 6 times 7 is 42.<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{42}",
        );
        // The same decoded without the special tokens, as verl's managers decode it.
        let stripped = scored(
            "analysisLet me compute 6 times 7 with python.assistantcommentary to=functions.python json{\"code\": \
             \"print(6*7)\"}functions.python to=assistantcommentary42assistantanalysisSo the answer is 42. Let me double \
             check: 6 times 7 is 42.assistantfinal\\boxed{42}",
        );
        for s in [&marked, &stripped] {
            assert_eq!((s.status, s.correct, s.anchor_found), (Status::Ok, true, true));
            assert_eq!(s.matched.as_ref().map(|m| m.1.as_str()), Some("42"));
            assert_eq!(s.l_ast, " Let me double check: 6 times 7 is 42.".chars().count(), "the tail after the anchor");
        }
        assert!(marked.t_think > stripped.t_think && stripped.t_think > 100, "the tool call is thinking");
        // Cut short after the tool call: truncated, reward 0, though the analysis states 42.
        let cut = scored(
            "<|channel|>analysis<|message|>Let me compute.<|end|><|start|>assistant<|channel|>commentary to=functions.python \
             <|message|>print(6*7)<|call|><|start|>functions.python to=assistant<|channel|>commentary<|message|>42<|end|>\
             <|start|>assistant<|channel|>analysis<|message|>So the answer is \\boxed{42}. Let me check",
        );
        assert_eq!((cut.status, cut.reward, cut.has_think_close), (Status::Truncated, 0.0, false));
    }

    #[test]
    fn gpt_oss_responses_read_with_or_without_their_markers_or_analysis() {
        let mut config = RewardConfig::new(AnchorMode::Default);
        config.think = ThinkTags::preset("harmony").unwrap();
        config.require_answer_after_think = true;
        let scored = |r: &str| {
            score_rollout(&Rollout { response: r, ground_truth: &["5"], problem: None, tokens: None }, &config)
        };
        let marked = scored(
            "<|channel|>analysis<|message|>So x = 5.<|end|><|start|>assistant<|channel|>final<|message|>\\boxed{5}",
        );
        let stripped = scored("analysisSo x = 5.assistantfinal\\boxed{5}");
        for s in [&marked, &stripped] {
            assert_eq!((s.status, s.correct, s.t_think, s.l_ast, s.anchor_found), (Status::Ok, true, 9, 0, true));
        }
        // An answer with no analysis: complete, empty thinking, the full reward when correct.
        let answer_only = scored("<|channel|>final<|message|>\\boxed{5}");
        assert_eq!(
            (answer_only.status, answer_only.has_think_close, answer_only.reward),
            (Status::EmptyThinking, true, 1.0)
        );
        for stripped_answer in ["final\\boxed{5}", "final5", "finalThe answer is 5."] {
            let s = scored(stripped_answer);
            assert_eq!(
                (s.status, s.has_think_close, s.correct, s.reward, s.t_think),
                (Status::EmptyThinking, true, true, 1.0, 0)
            );
        }
        assert_eq!(scored("<|channel|>analysis<|message|>So x = 5.").status, Status::Truncated);
    }

    #[test]
    fn a_strict_format_needs_the_answer_after_think() {
        let mut config = RewardConfig::new(AnchorMode::Default);
        config.require_answer_after_think = true;
        let strict = |response: &str| {
            score_rollout(&Rollout { response, ground_truth: &["5"], problem: None, tokens: None }, &config)
        };
        let inside = strict("So x = 5, so the answer is \\boxed{5}.</think>");
        assert_eq!((inside.status, inside.correct, inside.reward), (Status::NoFinalAnswer, false, 0.0));
        assert!(inside.final_answer.is_none());
        let after = strict("So x = 5.</think>The answer is \\boxed{5}.");
        assert_eq!((after.status, after.correct), (Status::Ok, true));
        // Off (the default), the box in the thinking is the final answer.
        let lenient = score("So x = 5, so the answer is \\boxed{5}.</think>", "5", AnchorMode::Default);
        assert_eq!((lenient.status, lenient.correct), (Status::Ok, true));
    }

    #[test]
    fn no_anchor_means_no_penalty() {
        let s = score("I computed it.\n</think>\\boxed{5}", "5", AnchorMode::Paper);
        assert!(s.correct && !s.anchor_found);
        assert_eq!((s.l_ast, s.rho, s.reward), (0, 0.0, 1.0));
    }

    #[test]
    fn token_spans_count_exact_token_lengths() {
        // Tokens: "So x = 5." | " Let" | " me check." | "</think>" | "\\boxed{5}"
        let r = "So x = 5. Let me check.</think>\\boxed{5}";
        let ends = [9, 13, 23, 31, 40];
        let config = RewardConfig::new(AnchorMode::Paper);
        let s = score_rollout(
            &Rollout {
                response: r,
                ground_truth: &["5"],
                problem: None,
                tokens: Some(TokenSpans { ends: &ends, think_close: None }),
            },
            &config,
        );
        assert_eq!(s.unit, LengthUnit::Tokens);
        assert_eq!(s.t_think, 3);
        assert_eq!(s.anchor_token, Some(0));
        assert_eq!(s.l_ast, 2);
        assert!((s.rho - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn floor_bounds_the_reward_of_a_long_tail() {
        let mut config = RewardConfig::new(AnchorMode::Paper);
        config.beta = 0.5;
        let r = "So it is 5. Let me check it again and again.</think>\\boxed{5}";
        let rollout = Rollout { response: r, ground_truth: &["5"], problem: None, tokens: None };
        assert!(score_rollout(&rollout, &config).reward < 0.0);
        config.floor = Some(0.0);
        assert_eq!(score_rollout(&rollout, &config).reward, 0.0);
    }

    #[test]
    fn reward_parts() {
        assert_eq!(apr_reward(true, true, 1000, 2e-4, None), 0.8);
        assert_eq!(apr_reward(false, true, 10, 2e-4, None), 0.0);
        assert_eq!(apr_reward(true, false, 10, 2e-4, None), 0.0);
        assert_eq!(apr_reward(true, true, 10_000, 2e-4, Some(0.0)), 0.0);
    }

    #[test]
    fn ground_truth_reference_finds_the_answer_in_a_truncated_trace() {
        let mut config = RewardConfig::new(AnchorMode::Paper);
        config.reference = ReferenceChoice::GroundTruth;
        let r = "So the answer is 42. Wait, let me re-derive everything from scratch";
        let s = score_rollout(&Rollout { response: r, ground_truth: &["42"], problem: None, tokens: None }, &config);
        assert_eq!(s.status, Status::Truncated);
        assert!(s.anchor_found);
        assert!(s.l_ast > 0);
        assert_eq!(s.reward, 0.0);
    }

    #[test]
    fn an_echo_of_the_problem_expression_is_not_correct() {
        let config = RewardConfig::new(AnchorMode::Default);
        let problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$";
        let echo = "<think>x</think> \\boxed{\\tan 100^\\circ + 4 \\sin 100^\\circ}";
        let score = |response: &str, gt: &str, problem: Option<&str>, config: &RewardConfig| {
            score_rollout(&Rollout { response, ground_truth: &[gt], problem, tokens: None }, config)
        };
        let s = score(echo, "-\\sqrt{3}", Some(problem), &config);
        assert_eq!((s.correct, s.status, s.reward), (false, Status::ProblemEcho, 0.0));
        assert_eq!(s.correctness.map(|j| j.verdict), Some(Verdict::Equal), "the value itself is right");
        // Without the problem, or with the check off, the value decides.
        assert!(score(echo, "-\\sqrt{3}", None, &config).correct);
        let mut off = config.clone();
        off.reject_problem_echo = false;
        assert!(score(echo, "-\\sqrt{3}", Some(problem), &off).correct);
        // The simplified value is correct; a value the problem names itself is no echo.
        assert!(score("<think>x</think> \\boxed{-\\sqrt{3}}", "-\\sqrt{3}", Some(problem), &config).correct);
        let choice = "Which is larger? (A) $2^{10}$ (B) $1000$";
        assert!(score("<think>x</think> \\boxed{2^{10}}", "2^{10}", Some(choice), &config).correct);
    }

    #[test]
    fn a_batch_judges_each_pair_once_and_scores_as_one_by_one() {
        let config = RewardConfig::new(AnchorMode::Default);
        let problem = "Simplify $\\tan 100^\\circ + 4 \\sin 100^\\circ.$";
        let echo = "<think>x</think> \\boxed{\\tan 100^\\circ + 4 \\sin 100^\\circ}";
        let plain = "<think>So it is 5. Let me check.</think> \\boxed{5}";
        let rollouts = [
            Rollout { response: plain, ground_truth: &["5"], problem: None, tokens: None },
            Rollout { response: plain, ground_truth: &["5"], problem: None, tokens: None },
            Rollout { response: plain, ground_truth: &["6"], problem: None, tokens: None },
            Rollout { response: plain, ground_truth: &["5", "6"], problem: None, tokens: None },
            // The same pair with and without the problem: the echo rule stays per rollout.
            Rollout { response: echo, ground_truth: &["-\\sqrt{3}"], problem: Some(problem), tokens: None },
            Rollout { response: echo, ground_truth: &["-\\sqrt{3}"], problem: None, tokens: None },
        ];
        for threads in [1, 2] {
            let batch = score_batch(&rollouts, None, &config, Some(threads));
            let single: Vec<RolloutScore> = rollouts.iter().map(|r| score_rollout(r, &config)).collect();
            assert_eq!(batch, single);
        }
        let batch = score_batch(&rollouts, None, &config, Some(1));
        assert_eq!(batch.iter().map(|s| s.correct).collect::<Vec<_>>(), [true, true, false, true, false, true]);
        // A memo key cannot confuse a text's end with the next text's start.
        let memo = OutcomeMemo::default();
        assert_eq!(memo.judgements("a", &["bc"], Vec::new), vec![]);
        let other = memo.judgements("ab", &["c"], || vec![Judgement::unknown(crate::answer::Reason::Unparsed)]);
        assert_eq!(other.len(), 1);
    }

    #[test]
    fn config_validation() {
        let mut c = RewardConfig::new(AnchorMode::Paper);
        assert!(c.validate().is_ok());
        c.beta = -1.0;
        assert!(c.validate().is_err());
        c.beta = 1e-4;
        c.floor = Some(f64::NAN);
        assert!(c.validate().is_err());
    }
}
