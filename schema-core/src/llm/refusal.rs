//! Telling a refusal from other prose.

/// Phrases that, in a reply without JSON, read as the model declining the task. Lower case,
/// straight apostrophes (the text is normalised the same way before matching).
const PHRASES: &[&str] = &[
    "i can't help",
    "i cannot help",
    "i can't assist",
    "i cannot assist",
    "i can't provide",
    "i cannot provide",
    "i can't comply",
    "i cannot comply",
    "i can't do that",
    "i cannot do that",
    "i can't fulfill",
    "i cannot fulfill",
    "i can't create",
    "i cannot create",
    "i can't generate",
    "i cannot generate",
    "i won't be able",
    "i will not be able",
    "i won't help",
    "i won't provide",
    "i'm unable to",
    "i am unable to",
    "i'm not able to",
    "i am not able to",
    "i must decline",
    "i have to decline",
    "i'm sorry, but",
    "i am sorry, but",
    "sorry, but i",
    "i apologize, but",
    "i apologise, but",
    "as an ai",
    "as a language model",
    "against my guidelines",
    "against my policies",
    "violates my guidelines",
    "not able to help with",
];

/// How much of the reply is read: refusals say so at the start.
const READ: usize = 2048;

/// Whether `text` reads as a refusal ("I can't help with that", "I'm sorry, but I cannot...",
/// "As an AI...").
///
/// A heuristic over the first 2 KiB, meant for replies in which no JSON was found: it looks for
/// a fixed list of English refusal phrases, case-insensitively, with curly apostrophes read as
/// straight ones. It does not look for JSON itself.
///
/// ```
/// use schema_core::llm::detect_refusal;
/// assert!(detect_refusal("I’m sorry, but I can’t help with that request."));
/// assert!(!detect_refusal("Here is the summary you asked for."));
/// ```
pub fn detect_refusal(text: &str) -> bool {
    let mut end = text.len().min(READ);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let normalised: String = text[..end]
        .chars()
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '`' => '\'',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    PHRASES.iter().any(|p| normalised.contains(p))
}

#[cfg(test)]
mod tests {
    use super::detect_refusal;

    #[test]
    fn refusals() {
        for t in [
            "I can't help with that.",
            "I'm sorry, but I cannot share that information.",
            "As an AI language model, I do not have opinions.",
            "I CANNOT ASSIST WITH THIS REQUEST.",
            "Sorry, but I won't be able to do this.",
        ] {
            assert!(detect_refusal(t), "{t}");
        }
    }

    #[test]
    fn ordinary_prose_is_not_a_refusal() {
        for t in [
            "",
            "The answer is 42.",
            "Sure! I can help: the file is src/main.rs.",
            "Here is what I found about the API.",
        ] {
            assert!(!detect_refusal(t), "{t}");
        }
    }
}
