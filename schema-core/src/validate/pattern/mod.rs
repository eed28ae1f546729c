//! `pattern` and `patternProperties`: ECMA-262 regular expressions, checked in time linear in
//! the string's length, or within a step budget.
//!
//! A pattern is read as ECMA-262 with the `u` flag plus Annex B's identity escapes of characters
//! other than ASCII letters and digits (by `schema-pattern`, whose docs say exactly which form; the
//! derive's compile-time check reads it the same way), and [`ecma`] rewrites it for an engine.
//! Then:
//!
//! - a pattern without backreferences or lookarounds (nearly every pattern real schemas write)
//!   becomes a Thompson NFA (`regex-automata`) run by the Pike VM of [`pikevm`]: each character
//!   of the string is read once, against at most every state of the automaton, so the work is
//!   at most the automaton's size times the string's length, whatever the pattern;
//! - a pattern with a backreference or a lookaround runs on `fancy-regex`'s backtracking VM
//!   (its parts without them on `regex-automata`'s linear engines) under a step budget
//!   ([`DEFAULT_BACKTRACK_LIMIT`], settable with
//!   [`ValidatorBuilder::pattern_backtrack_limit`](super::ValidatorBuilder::pattern_backtrack_limit)):
//!   a string it cannot decide within the budget is a [`PatternBudgetExceeded`], reported as
//!   an error, never a hang.
//!
//! The linear engine is behind the feature `pattern`, the backtracking one behind `lookaround`
//! (`pattern` on by default, `lookaround` off; `lookaround` implies `pattern`). A pattern whose engine is not built
//! does not compile, and the error names the feature; without `pattern` the reader still checks
//! a pattern's syntax (the `regex` format).
//!
//! Where the backtracking engine departs from ECMA-262: a backreference to a group that took no
//! part in the match fails (ECMA-262 matches it as empty), and a lookbehind of no fixed length
//! that itself holds a backreference or a lookaround may be refused when the schema is compiled
//! (`fancy-regex` runs such lookbehinds backwards only when they need no backtracking).

mod ecma;
#[cfg(feature = "pattern")]
pub(crate) mod pikevm;

use std::fmt;

/// The default step budget of a pattern that needs backtracking (a backreference or a
/// lookaround): how many backtracking steps one check may take.
pub const DEFAULT_BACKTRACK_LIMIT: usize = 1_000_000;

/// The most memory the automaton of one pattern may take (a counted repetition such as
/// `.{1,100000}` grows it); a pattern over it is refused when the schema is compiled.
#[cfg(feature = "pattern")]
const NFA_SIZE_LIMIT: usize = 16 << 20;

/// A pattern with backtracking could not be checked on a string within its step budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatternBudgetExceeded {
    /// The budget, in backtracking steps.
    pub limit: usize,
}

impl fmt::Display for PatternBudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the pattern could not be checked within its budget of {} backtracking steps",
            self.limit
        )
    }
}

impl std::error::Error for PatternBudgetExceeded {}

/// An ECMA-262 regular expression, compiled for the engine its features need.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    engine: Engine,
}

#[derive(Debug, Clone)]
enum Engine {
    #[cfg(feature = "pattern")]
    Linear(pikevm::PikeVm),
    #[cfg(feature = "lookaround")]
    Backtracking {
        re: Box<fancy_regex::Regex>,
        limit: usize,
    },
}

impl Pattern {
    /// Compiles `src` with the default backtracking budget.
    #[cfg(feature = "pattern")]
    pub(crate) fn new(src: &str) -> Result<Pattern, String> {
        Pattern::with_limit(src, DEFAULT_BACKTRACK_LIMIT)
    }

    /// Compiles `src`; a pattern that needs backtracking gets `limit` steps per check.
    #[cfg(feature = "pattern")]
    pub(crate) fn with_limit(src: &str, limit: usize) -> Result<Pattern, String> {
        let t = ecma::translate(src)?;
        #[cfg(not(feature = "lookaround"))]
        if t.backtracking {
            let _ = limit;
            return Err(
                "a backreference, a lookaround or a multiline flag needs schema-core's feature `lookaround`"
                    .to_string(),
            );
        }
        #[cfg(feature = "lookaround")]
        if t.backtracking {
            let re = fancy_regex::RegexBuilder::new(&t.regex)
                .backtrack_limit(limit)
                .delegate_size_limit(NFA_SIZE_LIMIT)
                .build()
                .map_err(|e| format!("the backtracking engine refuses it: {e}"))?;
            let engine = Engine::Backtracking {
                re: Box::new(re),
                limit,
            };
            return Ok(Pattern { engine });
        }
        let engine = Engine::Linear(pikevm::PikeVm::new(&t.regex, NFA_SIZE_LIMIT)?);
        Ok(Pattern { engine })
    }

    /// Without the feature `pattern` there is no engine: a valid pattern is refused, naming the
    /// feature.
    #[cfg(not(feature = "pattern"))]
    pub(crate) fn with_limit(src: &str, _limit: usize) -> Result<Pattern, String> {
        ecma::translate(src)?;
        Err("checking a pattern needs schema-core's feature `pattern`".to_string())
    }

    /// Whether the pattern matches anywhere in `s` (patterns are not implicitly anchored), or
    /// that it could not be told within the budget.
    #[cfg(any(feature = "stream", test))]
    pub(crate) fn matches(&self, s: &str) -> Result<bool, PatternBudgetExceeded> {
        self.matches_counting(s, &mut 0)
    }

    /// As [`matches`](Pattern::matches), adding the linear engine's work to `steps` (states
    /// visited plus bytes read; a backtracking check adds the string's length): for tests
    /// that show the work grows linearly with the input without relying on the clock.
    #[cfg(feature = "pattern")]
    pub(crate) fn matches_counting(
        &self,
        s: &str,
        steps: &mut u64,
    ) -> Result<bool, PatternBudgetExceeded> {
        match &self.engine {
            #[cfg(feature = "pattern")]
            Engine::Linear(vm) => Ok(vm.is_match(s, steps)),
            #[cfg(feature = "lookaround")]
            Engine::Backtracking { re, limit } => {
                *steps += s.len() as u64;
                re.is_match(s)
                    .map_err(|_| PatternBudgetExceeded { limit: *limit })
            }
        }
    }

    /// Without the feature `pattern` no pattern compiles, so there is none to run.
    #[cfg(not(feature = "pattern"))]
    pub(crate) fn matches_counting(
        &self,
        _s: &str,
        _steps: &mut u64,
    ) -> Result<bool, PatternBudgetExceeded> {
        match self.engine {}
    }
}

/// Whether `src` is a pattern the validator compiles (the `regex` format); without the feature
/// `pattern`, whether the reader accepts its syntax.
pub(crate) fn is_valid(src: &str) -> bool {
    #[cfg(feature = "pattern")]
    return Pattern::new(src).is_ok();
    #[cfg(not(feature = "pattern"))]
    return ecma::translate(src).is_ok();
}

#[cfg(all(test, feature = "pattern"))]
mod tests {
    use super::Pattern;
    use schema_pattern::names;

    /// Every property name the reader accepts compiles with the Unicode tables this crate turns
    /// on (the crosscheck package's build has every table, through its other dependencies, so
    /// only this crate's own build can show a missing one).
    #[test]
    fn every_accepted_property_compiles() {
        let mut n = 0;
        for (prefix, list) in [
            ("", names::BINARY),
            ("", names::GENERAL_CATEGORY),
            ("gc=", names::GENERAL_CATEGORY),
            ("sc=", names::SCRIPT),
            ("scx=", names::SCRIPT),
        ] {
            for name in list {
                for p in [
                    format!(r"\p{{{prefix}{name}}}"),
                    format!(r"[^\P{{{prefix}{name}}}]"),
                ] {
                    if let Err(e) = Pattern::new(&p) {
                        panic!("{p}: {e}");
                    }
                    n += 1;
                }
            }
        }
        assert!(n > 1000, "{n}");
    }

    #[test]
    fn tables_and_case_folding_answer() {
        let m = |p: &str, s: &str| Pattern::new(p).unwrap().matches(s) == Ok(true);
        assert!(m(r"^\p{Lu}$", "Å") && !m(r"^\p{Lu}$", "å"));
        assert!(m(r"^\p{sc=Greek}+$", "αβγ") && !m(r"^\p{sc=Greek}+$", "abc"));
        assert!(m(r"^(?i:abc)$", "AbC") && !m(r"^abc$", "AbC"));
        assert!(m(r"^\p{Alphabetic}$", "ß"));
        // ECMA-262's ASCII classes, whatever the tables.
        assert!(!m(r"^\d$", "５") && !m(r"^\w$", "é") && m(r"\bé", "aé") == m(r"\Bé", "é"));
        assert!(m(r"^\s$", "\u{feff}") && !m(r"^.$", "\u{2028}"));
        // A lookbehind of any length, as ECMA-262 allows.
        #[cfg(feature = "lookaround")]
        assert!(m(r"(?<=a+)b", "caab") && !m(r"(?<=a+)b", "cb"));
    }
}
