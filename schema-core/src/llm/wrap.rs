//! What wraps the answer in a reply: a reasoning preamble and markdown fences. Small functions
//! of their own so that other readers of model text (a streaming parser) apply the same rules.

use std::ops::Range;

/// A reasoning block found at the start of a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reasoning {
    /// From the start of the block to just after its end marker (or to the end of the text when
    /// it is not closed).
    pub span: Range<usize>,
    /// Whether the end marker was found: without it the reply stopped while reasoning.
    pub closed: bool,
}

/// Tag pairs of reasoning blocks, as models served by LM Studio, Ollama, vLLM write them
/// (Qwen3 and DeepSeek-R1 distills: `<think>`).
const TAGS: &[(&str, &str)] = &[
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("<reflection>", "</reflection>"),
];

/// The harmony format's (gpt-oss) channel markers: reasoning goes to `analysis`, the answer
/// follows `<|channel|>final<|message|>`.
const CHANNEL: &str = "<|channel|>";
const FINAL: &str = "<|channel|>final<|message|>";

/// Finds the reasoning a reply starts with, so the answer is read after it.
///
/// Recognised: `<think>…</think>` (also `<thinking>`, `<reasoning>`, `<reflection>`), any number
/// in a row, optionally after whitespace; a reply holding only the closing `</think>` (chat
/// templates that put the opening tag in the prompt); and harmony-style channels, where
/// everything up to `<|channel|>final<|message|>` is reasoning. Braces inside the reasoning do
/// not count as JSON. Linear in the text.
///
/// ```
/// use schema_core::llm::find_reasoning;
/// let reply = "<think>The user wants {\"a\": 1}?</think>\n{\"a\": 2}";
/// let r = find_reasoning(reply).unwrap();
/// assert!(r.closed);
/// assert_eq!(reply[r.span.end..].trim(), "{\"a\": 2}");
/// ```
pub fn find_reasoning(text: &str) -> Option<Reasoning> {
    let lead = text.len() - text.trim_start().len();
    if text[lead..].starts_with(CHANNEL) || text[lead..].starts_with("<|start|>") {
        return Some(match text.find(FINAL) {
            Some(k) => Reasoning {
                span: lead..k + FINAL.len(),
                closed: true,
            },
            None => Reasoning {
                span: lead..text.len(),
                closed: false,
            },
        });
    }
    let mut end = lead;
    let mut found = false;
    loop {
        let at = end + (text[end..].len() - text[end..].trim_start().len());
        let Some((open, close)) = TAGS.iter().find(|(o, _)| starts_with_ci(&text[at..], o)) else {
            break;
        };
        let body = at + open.len();
        match find_ci(&text[body..], close) {
            Some(k) => {
                end = body + k + close.len();
                found = true;
            }
            None => {
                return Some(Reasoning {
                    span: lead..text.len(),
                    closed: false,
                })
            }
        }
    }
    if found {
        return Some(Reasoning {
            span: lead..end,
            closed: true,
        });
    }
    // Only the closing tag: the template opened the block in the prompt. Taken when nothing
    // that could be the answer's JSON comes before it.
    let k = text.find("</think>")?;
    let before = &text[..k];
    // Not inside a JSON string (`{"a": "</think>"}`, or one in prose).
    let in_string = before.ends_with(['"', '\\']);
    let plausible =
        !in_string && !before.contains("```") && !before.trim_start().starts_with(['{', '[']);
    plausible.then(|| Reasoning {
        span: lead..k + "</think>".len(),
        closed: true,
    })
}

fn starts_with_ci(s: &str, prefix: &str) -> bool {
    s.len() >= prefix.len() && s.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

fn find_ci(s: &str, needle: &str) -> Option<usize> {
    let n = needle.as_bytes();
    s.as_bytes()
        .windows(n.len())
        .position(|w| w.eq_ignore_ascii_case(n))
}

/// The body ranges of the fenced blocks tagged as JSON (`json`, `jsonc`, `json5`, any case) or
/// untagged, in order, at most 16. A block without a closing fence runs to the end of the text
/// (a truncated reply).
///
/// The scan is JSON-aware: a ```` ``` ```` inside a JSON string (a code generator's answer
/// holding a markdown snippet) does not close the block. A raw newline ends such a string (JSON
/// strings cannot hold one), so a stray quote cannot hide the real closing fence; and when no
/// fence outside strings is found, the first one closes the block.
///
/// ```
/// use schema_core::llm::json_fences;
/// let text = "```json\n{\"code\": \"see ``` below\"}\n```\n";
/// let body = json_fences(text)[0].clone();
/// assert_eq!(&text[body], "{\"code\": \"see ``` below\"}\n");
/// ```
pub fn json_fences(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while out.len() < super::MAX_FENCES {
        let Some(k) = text[from..].find("```") else {
            break;
        };
        let mut info_start = from + k + 3;
        while bytes.get(info_start) == Some(&b'`') {
            info_start += 1;
        }
        let line_end = text[info_start..]
            .find('\n')
            .map_or(text.len(), |k| info_start + k);
        let tag = text[info_start..line_end]
            .split_whitespace()
            .next()
            .unwrap_or("");
        let body_start = (line_end + 1).min(text.len());
        let close = closing_fence(text, body_start);
        let body_end = close.unwrap_or(text.len());
        let is_json = tag.is_empty()
            || ["json", "jsonc", "json5"]
                .iter()
                .any(|t| tag.eq_ignore_ascii_case(t));
        if is_json && line_end < text.len() {
            out.push(body_start..body_end);
        }
        match close {
            Some(c) => {
                from = c + 3;
                while bytes.get(from) == Some(&b'`') {
                    from += 1;
                }
            }
            None => break,
        }
    }
    out
}

/// The first ```` ``` ```` at or after `from` outside a JSON string, else the first one at all.
fn closing_fence(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' | b'\n' => in_string = false,
                _ => {}
            }
        } else if c == b'"' {
            in_string = true;
        } else if c == b'`' && b[i..].starts_with(b"```") {
            super::count_work((i - from) as u64);
            return Some(i);
        }
        i += 1;
    }
    super::count_work((b.len() - from) as u64);
    text[from..].find("```").map(|k| from + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasoning_forms() {
        let r = find_reasoning("  <think>a {b}</think><reasoning>c</reasoning> {}").unwrap();
        assert_eq!(r.span, 2..46);
        assert!(find_reasoning("<THINK>x").is_some_and(|r| !r.closed));
        let t = "x {y} </think>{\"a\": 1}";
        assert_eq!(find_reasoning(t).unwrap().span.end, 14);
        let t = "<|channel|>analysis<|message|>{x}<|end|><|start|>assistant<|channel|>final<|message|>{}";
        assert_eq!(&t[find_reasoning(t).unwrap().span.end..], "{}");
        assert_eq!(find_reasoning("{\"a\": \"</think>\"}"), None);
        assert_eq!(find_reasoning("Here: {\"a\": \"</think>\"}"), None);
        assert_eq!(find_reasoning("no reasoning {}"), None);
    }

    #[test]
    fn fences_ignore_backticks_in_strings() {
        let t = "```\n{\"code\": \"see ``` below\", \"n\": 1}\n```\nprose";
        assert_eq!(
            &t[json_fences(t)[0].clone()],
            "{\"code\": \"see ``` below\", \"n\": 1}\n"
        );
        // An unclosed quote does not hide the closing fence.
        let t = "```json\n{\"a\": \"x}\n```\n";
        assert_eq!(&t[json_fences(t)[0].clone()], "{\"a\": \"x}\n");
    }
}
