//! Bindings of `crate::reward`: `NativeScorer`, wrapped by `apr_fast.reward.APRScorer`.
//!
//! One scorer holds a validated `RewardConfig` (and optionally a vocabulary) and scores whole
//! batches in one call with the interpreter released. Each rollout's result crosses back as
//! the values of `RolloutScore`'s fields in `SCORE_FIELDS` order: a flat tuple, or, given the
//! class, a `RolloutScore` built here with those values in its `__dict__` (no conversion per
//! field, no per-row work left in Python); offsets in it are character offsets into the
//! response text.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyModule, PyTuple};

use super::answer::method_name;
use super::tokens::{ids_arg, int64_rows, token_spans, IdsArg, Indexed, NativeEncoder, NativeVocabulary};
use super::{
    borrow_str, borrow_str_list, char_lengths, read_text, static_name, think_tags_of, threads_arg, tuple_of,
    untracked_pair, ConfigError, InstanceBuilder, TextReader,
};
use crate::anchor::{AnchorMode, AnchorOptions, ContextRule};
use crate::answer::{Judgement, PercentPolicy, Policy, UnitsPolicy};
use crate::extract::{ThinkTags, AUTO_THINK_TAGS};
use crate::parallel::{map_items, ItemPanic};
use crate::reward::{
    apr_reward as core_apr_reward, score_batch, AnchorScope, IdsRollout, IdsScorer, ReferenceChoice, RewardConfig,
    Rollout, RolloutScore, Status, TokenSpans,
};
use crate::text::cues::CueMatcher;
use crate::text::offsets::{bytes_to_chars_sorted, bytes_to_chars_sorted_with_total, count_chars};
use crate::tokens::{token_ends_from_spans, Vocabulary};

/// Names of the tuple fields returned per rollout, in order.
const SCORE_FIELDS: &[&str] = &[
    "status", "status_code", "reward", "correct", "correctness_method", "correctness_detail", "final_answer",
    "final_answer_rule", "final_answer_span", "has_think_close", "thinking_span", "anchor_found", "anchor_searched",
    "anchor_sentence", "num_sentences", "anchor_span", "anchor_end", "anchor_byte_span", "anchor_token",
    "matched_candidate", "matched_span", "undecided_comparisons", "t_think", "l_ast", "rho", "length_unit", "mode",
    "error",
];

type Span = (usize, usize);

/// A score with character offsets, ready to become a Python tuple.
struct CharScore {
    score: RolloutScore,
    final_span: Option<Span>,
    thinking_span: Span,
    anchor_span: Span,
    anchor_end: usize,
    matched_span: Option<Span>,
    error: Option<String>,
}

/// Converts every byte offset of `score` into a character offset of `text` (of `total_chars`
/// characters when Python told: then the offsets near the end are counted from there).
fn with_chars(text: &str, total_chars: Option<usize>, score: RolloutScore, error: Option<String>) -> CharScore {
    let mut offsets = vec![
        score.thinking.start, score.thinking.end, score.anchor_span.start, score.anchor_span.end, score.anchor_end,
    ];
    if let Some(f) = &score.final_answer {
        offsets.extend([f.start, f.end]);
    }
    if let Some((span, _)) = &score.matched {
        offsets.extend([span.start, span.end]);
    }
    let mut sorted: Vec<usize> = offsets.iter().map(|&o| o.min(text.len())).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let bytes = sorted.clone();
    match total_chars {
        Some(total) => bytes_to_chars_sorted_with_total(text, total, &mut sorted),
        None => bytes_to_chars_sorted(text, &mut sorted),
    }
    let char_of = |b: usize| sorted[bytes.partition_point(|&x| x < b.min(text.len()))];
    CharScore {
        final_span: score.final_answer.as_ref().map(|f| (char_of(f.start), char_of(f.end))),
        thinking_span: (char_of(score.thinking.start), char_of(score.thinking.end)),
        anchor_span: (char_of(score.anchor_span.start), char_of(score.anchor_span.end)),
        anchor_end: char_of(score.anchor_end),
        matched_span: score.matched.as_ref().map(|(s, _)| (char_of(s.start), char_of(s.end))),
        score,
        error,
    }
}

/// The values of `SCORE_FIELDS`, in order.
fn score_values(py: Python<'_>, c: CharScore) -> [PyObject; SCORE_FIELDS.len()] {
    let s = &c.score;
    let j: Option<Judgement> = s.correctness;
    // Without a judgement, the method is "none" and the detail says why nothing was compared.
    let detail = match j {
        Some(j) => j.reason.name(),
        None if s.final_answer.is_none() => "no final answer",
        None => "no ground truth",
    };
    [
        static_name(py, s.status.as_str()),
        s.status.code().into_py(py),
        s.reward.into_py(py),
        s.correct.into_py(py),
        static_name(py, j.map_or("none", |j| method_name(j.method))),
        static_name(py, detail),
        s.final_answer.as_ref().map(|f| f.text.as_str()).into_py(py),
        s.final_answer.as_ref().map_or_else(|| py.None(), |f| static_name(py, f.rule.as_str())),
        c.final_span.map_or_else(|| py.None(), |p| untracked_pair(py, p)),
        s.has_think_close.into_py(py),
        untracked_pair(py, c.thinking_span),
        s.anchor_found.into_py(py),
        s.anchor_searched.into_py(py),
        s.anchor_sentence.into_py(py),
        s.num_sentences.into_py(py),
        untracked_pair(py, c.anchor_span),
        c.anchor_end.into_py(py),
        untracked_pair(py, (s.anchor_span.start, s.anchor_span.end)),
        s.anchor_token.into_py(py),
        s.matched.as_ref().map(|(_, t)| t.as_str()).into_py(py),
        c.matched_span.map_or_else(|| py.None(), |p| untracked_pair(py, p)),
        s.undecided_comparisons.into_py(py),
        s.t_think.into_py(py),
        s.l_ast.into_py(py),
        s.rho.into_py(py),
        static_name(py, s.unit.as_str()),
        static_name(py, s.mode.as_str()),
        c.error.into_py(py),
    ]
}

/// How score rows cross into Python: tuples of the `SCORE_FIELDS` values, or instances of a
/// class (`RolloutScore`) built here ([`InstanceBuilder`]), so the Python layer has no per-row
/// work left: on a batch scored by several threads, that serial work is what bounds the
/// speed-up.
enum RowForm<'py> {
    Tuple,
    Instance(InstanceBuilder<'py>),
}

impl<'py> RowForm<'py> {
    fn new(py: Python<'py>, into: Option<&'py PyAny>) -> PyResult<RowForm<'py>> {
        match into {
            None => Ok(RowForm::Tuple),
            Some(cls) => Ok(RowForm::Instance(InstanceBuilder::new(py, cls, SCORE_FIELDS)?)),
        }
    }

    fn row(&self, py: Python<'py>, c: CharScore) -> PyResult<PyObject> {
        let values = score_values(py, c);
        match self {
            RowForm::Tuple => Ok(tuple_of(py, values)),
            RowForm::Instance(builder) => builder.build(py, values),
        }
    }
}

/// Ground truths: one list of accepted answers per rollout.
pub(crate) fn ground_truth_lists(obj: &PyAny, n: usize) -> PyResult<Vec<Vec<&str>>> {
    let outer =
        obj.downcast::<PyList>().map_err(|_| PyTypeError::new_err("ground_truths must be a list of lists of str"))?;
    if outer.len() != n {
        return Err(PyValueError::new_err(format!("ground_truths has {} items for {n} rollouts", outer.len())));
    }
    outer.iter().enumerate().map(|(i, item)| borrow_str_list(item, &format_args!("ground_truths[{i}]"))).collect()
}

/// Problems: None, or one `str | None` per rollout.
pub(crate) fn problem_list(obj: Option<&PyAny>, n: usize) -> PyResult<Vec<Option<&str>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(vec![None; n]);
    };
    let list = obj.downcast::<PyList>().map_err(|_| PyTypeError::new_err("problems must be a list of str or None"))?;
    if list.len() != n {
        return Err(PyValueError::new_err(format!("problems has {} items for {n} rollouts", list.len())));
    }
    list.iter()
        .enumerate()
        .map(|(i, p)| if p.is_none() { Ok(None) } else { borrow_str(p, &format!("problems[{i}]")).map(Some) })
        .collect()
}

/// Token spans as HF tokenizers report them (per response, one `(start, end)` pair of
/// character offsets per token: `Encoding.offsets`, `offset_mapping`), turned into the byte
/// offset where each token ends ([`token_ends_from_spans`]). With `encoder`, an item may be
/// `None`: that response is encoded natively (`Ok(None)` for it).
fn token_byte_ends(
    obj: Option<&PyAny>,
    responses: &[&str],
    char_lengths: &[usize],
    encoder: bool,
) -> PyResult<Option<Vec<Option<Vec<usize>>>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(encoder.then(|| vec![None; responses.len()]));
    };
    let list = obj
        .downcast::<PyList>()
        .map_err(|_| PyTypeError::new_err("token_offsets must be a list of lists of (start, end) pairs"))?;
    if list.len() != responses.len() {
        return Err(PyValueError::new_err(format!(
            "token_offsets has {} items for {} rollouts",
            list.len(),
            responses.len()
        )));
    }
    let mut out = Vec::with_capacity(responses.len());
    for (i, (item, text)) in list.iter().zip(responses).enumerate() {
        if encoder && item.is_none() {
            out.push(None);
            continue;
        }
        let spans = token_spans(item).ok_or_else(|| {
            PyTypeError::new_err(format!("token_offsets[{i}] must be a list of (start, end) pairs of int >= 0"))
        })?;
        let ends = token_ends_from_spans(&spans);
        let n_chars = char_lengths[i];
        if ends.last().is_some_and(|&e| e > n_chars) {
            return Err(PyValueError::new_err(format!(
                "token_offsets[{i}] reaches past the end of the response ({n_chars} chars)"
            )));
        }
        out.push(Some(char_ends_to_bytes(text, &ends)));
    }
    Ok(Some(out))
}

fn char_ends_to_bytes(text: &str, char_ends: &[usize]) -> Vec<usize> {
    let mut boundaries = text.char_indices().map(|(b, _)| b).chain(std::iter::once(text.len()));
    let mut out = Vec::with_capacity(char_ends.len());
    let (mut at_char, mut at_byte) = (0usize, boundaries.next().unwrap_or(0));
    for &c in char_ends {
        while at_char < c {
            at_byte = boundaries.next().unwrap_or(text.len());
            at_char += 1;
        }
        out.push(at_byte);
    }
    out
}

/// The on/off refinements of `AnchorOptions`, in the order of `apr_fast.AnchorOptions.FLAGS`
/// (a nested tuple: PyO3 converts tuples of at most 12 items, so this one is full and a 13th
/// flag needs another level).
/// The on/off options, in the order of `apr_fast.reward.AnchorOptions.FLAGS`.
type OptionFlags = Vec<bool>;

/// How many on/off options there are (the count a Python caller's flags must have).
const OPTION_FLAGS: usize = 13;
/// `AnchorOptions` as Python sees it: (context, backtrack_gap, max_extra_complexity, flags).
type OptionsTuple = (&'static str, usize, Option<usize>, OptionFlags);
type OptionsArg<'a> = (&'a str, usize, Option<usize>, OptionFlags);

fn options_tuple(a: &AnchorOptions) -> OptionsTuple {
    let context = match a.context {
        ContextRule::Paper => "paper",
        ContextRule::Loose => "loose",
        ContextRule::None => "none",
    };
    (
        context,
        a.backtrack_gap,
        a.max_extra_complexity,
        vec![
            a.skip_problem_values, a.backtrack, a.number_words, a.boxed_is_conclusion, a.list_items,
            a.inequality_sides, a.skip_task_statements, a.skip_problem_arguments, a.skip_unreduced_forms,
            a.colon_carries_cue, a.skip_described_values, a.skip_trial_values, a.reference_figures,
        ],
    )
}

/// The native scorer: a validated configuration, optionally with the policy's vocabulary.
#[pyclass(module = "apr_fast._core", frozen)]
pub(crate) struct NativeScorer {
    config: RewardConfig,
    vocabulary: Option<Arc<Vocabulary>>,
}

fn config_error(message: String) -> PyErr {
    ConfigError::new_err(message)
}

#[pymethods]
impl NativeScorer {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        beta: f64,
        floor: Option<f64>,
        mode: &str,
        reference: &str,
        percent: &str,
        units: &str,
        decimal_min_sig_digits: u32,
        rel_tol: f64,
        conclusion_cues: Vec<String>,
        verification_cues: Vec<String>,
        cue_inflections: bool,
        vocabulary: Option<&NativeVocabulary>,
        anchor_options: Option<OptionsArg<'_>>,
        reject_problem_echo: bool,
        require_answer_after_think: bool,
        think_tags: Option<&PyAny>,
        anchors: &str,
    ) -> PyResult<Self> {
        let mode = AnchorMode::from_name(mode).ok_or_else(|| {
            let names: Vec<_> = AnchorMode::ALL.iter().map(|m| m.as_str()).collect();
            config_error(format!("mode must be one of {names:?}, got {mode:?}"))
        })?;
        let reference = ReferenceChoice::from_name(reference).ok_or_else(|| {
            config_error(format!("reference must be 'final_answer' or 'ground_truth', got {reference:?}"))
        })?;
        let anchors = AnchorScope::from_name(anchors)
            .ok_or_else(|| config_error(format!("anchors must be 'all' or 'rewarded', got {anchors:?}")))?;
        let percent = match percent {
            "strict" => PercentPolicy::Strict,
            "as_fraction" => PercentPolicy::AsFraction,
            "either" => PercentPolicy::Either,
            other => return Err(config_error(format!("percent must be strict, as_fraction or either, got {other:?}"))),
        };
        let units = match units {
            "strict" => UnitsPolicy::Strict,
            "ignore" => UnitsPolicy::Ignore,
            other => return Err(config_error(format!("units must be strict or ignore, got {other:?}"))),
        };
        if !(rel_tol.is_finite() && rel_tol >= 0.0) {
            return Err(config_error(format!("rel_tol must be a finite number >= 0, got {rel_tol}")));
        }
        let cues = CueMatcher::new(&conclusion_cues, &verification_cues, cue_inflections)
            .map_err(|e| config_error(e.to_string()))?;
        let mut config = RewardConfig::new(mode);
        config.beta = beta;
        config.floor = floor;
        config.reference = reference;
        config.policy = Policy {
            percent,
            units,
            decimal_min_sig_digits,
            rel_tol,
            prove_not_equal: true,
            unsolved_conditions: true,
        };
        config.cues = cues;
        config.reject_problem_echo = reject_problem_echo;
        config.require_answer_after_think = require_answer_after_think;
        config.think = think_tags_of(think_tags)?;
        config.anchors = anchors;
        if let Some((context, backtrack_gap, max_extra_complexity, flags)) = anchor_options {
            let Ok::<[bool; OPTION_FLAGS], _>(
                [skip_problem_values, backtrack, number_words, boxed, list_items, inequality_sides, skip_task_statements, skip_problem_arguments, skip_unreduced_forms, colon_carries_cue, skip_described_values, skip_trial_values, reference_figures],
            ) = flags.as_slice().try_into()
            else {
                return Err(config_error(format!("anchor options need {OPTION_FLAGS} flags, got {}", flags.len())));
            };
            let context = match context {
                "paper" => ContextRule::Paper,
                "loose" => ContextRule::Loose,
                "none" => ContextRule::None,
                other => return Err(config_error(format!("context must be paper, loose or none, got {other:?}"))),
            };
            config.anchor = AnchorOptions {
                context,
                skip_problem_values,
                skip_task_statements,
                skip_problem_arguments,
                skip_described_values,
                skip_trial_values,
                backtrack,
                backtrack_gap,
                max_extra_complexity,
                number_words,
                boxed_is_conclusion: boxed,
                list_items,
                inequality_sides,
                skip_unreduced_forms,
                colon_carries_cue,
                reference_figures,
            };
        }
        if let Some(v) = vocabulary {
            config.think = config.think.for_vocabulary(|tag| v.inner.token_id(tag).is_some());
        }
        config.validate().map_err(config_error)?;
        Ok(NativeScorer { config, vocabulary: vocabulary.map(|v| Arc::clone(&v.inner)) })
    }

    /// The think tags this scorer reads: (opening, closing), or ``"auto"`` (each response's
    /// own family's). Automatic tags given with a vocabulary are that vocabulary's family's
    /// when it holds the tags of one family (``ThinkTags::for_vocabulary``).
    #[getter]
    fn think_tags(&self, py: Python<'_>) -> PyObject {
        think_tags_value(py, &self.config.think)
    }

    /// Scores responses given as text; `token_offsets` (each response's token spans as a HF
    /// tokenizer reports them, `(start, end)` in characters) turns lengths into tokens, else
    /// they are characters. With `encoder`, responses without spans (all of them when
    /// `token_offsets` is None, else those whose item is None) are encoded natively. Rows are
    /// tuples of the `SCORE_FIELDS` values, or instances of the class `into` with those fields
    /// in their `__dict__`.
    #[args(
        responses,
        ground_truths,
        problems = "None",
        token_offsets = "None",
        threads = "None",
        into = "None",
        encoder = "None"
    )]
    #[allow(clippy::too_many_arguments)]
    fn score_texts(
        &self,
        py: Python<'_>,
        responses: &PyAny,
        ground_truths: &PyAny,
        problems: Option<&PyAny>,
        token_offsets: Option<&PyAny>,
        threads: Option<i64>,
        into: Option<&PyAny>,
        encoder: Option<&NativeEncoder>,
    ) -> PyResult<Vec<PyObject>> {
        let form = RowForm::new(py, into)?;
        let mut reader = TextReader::new(py)?;
        let (responses, chars) = (reader.read_all(responses, "responses")?, char_lengths(responses)?);
        let n = responses.len();
        let gts = ground_truth_lists(ground_truths, n)?;
        let problems = problem_list(problems, n)?;
        let ends = token_byte_ends(token_offsets, &responses, &chars, encoder.is_some())?;
        let threads = threads_arg(threads)?;
        let config = &self.config;
        let scores = py.allow_threads(|| {
            let rollouts: Vec<Rollout<'_>> = (0..n)
                .map(|i| Rollout {
                    response: responses[i],
                    ground_truth: &gts[i],
                    problem: problems[i],
                    tokens: ends
                        .as_ref()
                        .and_then(|e| e[i].as_ref())
                        .map(|e| TokenSpans { ends: e, think_close: None }),
                })
                .collect();
            let scores = score_batch(&rollouts, encoder.map(|e| &*e.inner), config, threads);
            scores
                .into_iter()
                .enumerate()
                .map(|(i, s)| with_chars(responses[i], Some(chars[i]), s, None))
                .collect::<Vec<_>>()
        });
        scores.into_iter().map(|c| form.row(py, c)).collect()
    }

    /// Scores responses given as the policy's token ids, decoded with this scorer's
    /// vocabulary: a list of id sequences (lists of int or 1-D C-contiguous int64 arrays), or,
    /// with `lengths`, one 2-D C-contiguous int64 array of padded rows, row i's ids being its
    /// first `lengths[i]` (read in place: one array for the whole batch). Rows as in
    /// `score_texts`; with `return_text`, each is a `(row, decoded text)` pair.
    #[args(
        token_ids,
        ground_truths,
        problems = "None",
        threads = "None",
        return_text = "false",
        lengths = "None",
        into = "None"
    )]
    #[allow(clippy::too_many_arguments)]
    fn score_ids(
        &self,
        py: Python<'_>,
        token_ids: &PyAny,
        ground_truths: &PyAny,
        problems: Option<&PyAny>,
        threads: Option<i64>,
        return_text: bool,
        lengths: Option<Vec<usize>>,
        into: Option<&PyAny>,
    ) -> PyResult<Vec<PyObject>> {
        let form = RowForm::new(py, into)?;
        let vocabulary = self
            .vocabulary
            .as_ref()
            .ok_or_else(|| ConfigError::new_err("this scorer has no vocabulary: pass one to score token ids"))?;
        let args: Vec<IdsArg<'_>> = match lengths {
            Some(lengths) => int64_rows(token_ids, &lengths, "token_ids")?.into_iter().map(IdsArg::Array).collect(),
            None => {
                let list = token_ids
                    .downcast::<PyList>()
                    .map_err(|_| PyTypeError::new_err("token_ids must be a list of id sequences"))?;
                list.iter().enumerate().map(|(i, o)| ids_arg(o, &Indexed("token_ids", i))).collect::<PyResult<_>>()?
            }
        };
        let n = args.len();
        let gts = ground_truth_lists(ground_truths, n)?;
        let problems = problem_list(problems, n)?;
        let threads = threads_arg(threads)?;
        let config = &self.config;
        // Each rollout's ids are converted, scored and turned into character offsets inside
        // the parallel loop: the work is spread over the threads and each id buffer is
        // released (and reused) as soon as its rollout is done.
        let indices: Vec<usize> = (0..n).collect();
        let results = py.allow_threads(|| {
            let scorer = IdsScorer::new(vocabulary, config);
            map_items(&indices, threads, |&i| {
                let scored = match args[i].to_u32(&Indexed("token_ids", i)) {
                    Ok(ids) => scorer.score(&IdsRollout { ids: &ids, ground_truth: &gts[i], problem: problems[i] }),
                    Err(message) => scorer.invalid_input(message),
                };
                let chars = with_chars(&scored.text, None, scored.score, scored.error);
                (chars, if return_text { scored.text } else { String::new() })
            })
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|ItemPanic(message)| {
                    let s = scorer.internal_error(&message);
                    (with_chars("", None, s.score, s.error), String::new())
                })
            })
            .collect::<Vec<_>>()
        });
        results
            .into_iter()
            .map(|(c, text)| {
                let row = form.row(py, c)?;
                Ok(if return_text { PyTuple::new(py, [row, text.into_py(py)]).into_py(py) } else { row })
            })
            .collect()
    }

    #[getter]
    fn beta(&self) -> f64 {
        self.config.beta
    }

    #[getter]
    fn has_vocabulary(&self) -> bool {
        self.vocabulary.is_some()
    }

    /// The anchor options in effect, in the field order of `apr_fast.reward.AnchorOptions`.
    #[getter]
    fn anchor_options(&self) -> OptionsTuple {
        options_tuple(&self.config.anchor)
    }
}

/// The options a mode stands for, in the tuple order of `NativeScorer.anchor_options`.
#[pyfunction]
fn anchor_mode_options(mode: &str) -> PyResult<OptionsTuple> {
    let mode = AnchorMode::from_name(mode).ok_or_else(|| config_error(format!("unknown anchor mode {mode:?}")))?;
    Ok(options_tuple(&mode.options()))
}

/// The (opening, closing) think tags a ``think_tags`` argument gives (None, a preset's name or
/// two str), or ``"auto"`` for the automatic ones; TypeError or ConfigError saying why it
/// gives none (see `ThinkTags::new`).
#[pyfunction]
fn resolve_think_tags(py: Python<'_>, value: Option<&PyAny>) -> PyResult<PyObject> {
    Ok(think_tags_value(py, &think_tags_of(value)?))
}

/// How Python sees think tags: ``"auto"`` or (opening, closing).
fn think_tags_value(py: Python<'_>, tags: &ThinkTags) -> PyObject {
    if tags.is_auto() {
        AUTO_THINK_TAGS.into_py(py)
    } else {
        (tags.open(), tags.close()).into_py(py)
    }
}

/// Where ``response``'s thinking lies, as the scorer reads it: ``(start, end, closed)``, the
/// character offsets of the text after a leading opening tag and before the first closing tag
/// (all of it when it has neither), and whether a closing tag ends it. ``think_tags`` as for
/// ``extract_final`` (gpt-oss text decoded without its special tokens is read by its words with
/// ``"harmony"``). Raises TypeError if ``response`` is not a str.
#[pyfunction(response, "*", think_tags = "None")]
#[pyo3(text_signature = "(response, *, think_tags=None)")]
fn thinking_span(response: &PyAny, think_tags: Option<&PyAny>) -> PyResult<(usize, usize, bool)> {
    let text = &*read_text(response, "response")?;
    let tags = think_tags_of(think_tags)?;
    let (thinking, close) = crate::reward::thinking_layout(text, None, tags.of_response(text));
    let start = count_chars(&text.as_bytes()[..thinking.start]);
    Ok((start, start + count_chars(&text.as_bytes()[thinking]), close.is_some()))
}

/// R = 1[correct and complete] · (1 − β · L_AST), bounded below by `floor` when given.
#[pyfunction(correct, complete, l_ast, beta, floor = "None")]
fn apr_reward(correct: bool, complete: bool, l_ast: usize, beta: f64, floor: Option<f64>) -> f64 {
    core_apr_reward(correct, complete, l_ast, beta, floor)
}

pub(crate) fn register(m: &PyModule) -> PyResult<()> {
    m.add_class::<NativeScorer>()?;
    m.add_function(wrap_pyfunction!(apr_reward, m)?)?;
    m.add_function(wrap_pyfunction!(anchor_mode_options, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_think_tags, m)?)?;
    m.add_function(wrap_pyfunction!(thinking_span, m)?)?;
    m.add("SCORE_FIELDS", PyTuple::new(m.py(), SCORE_FIELDS))?;
    m.add("ANCHOR_MODES", PyTuple::new(m.py(), AnchorMode::ALL.iter().map(|m| m.as_str())))?;
    m.add("STATUS_NAMES", PyTuple::new(m.py(), Status::ALL.iter().map(|s| s.as_str())))?;
    Ok(())
}
