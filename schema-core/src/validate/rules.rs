//! The rule of each value keyword, written once: `const`, `enum`, `minLength`, `maxLength`,
//! `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and
//! `multipleOf`, each a function of a compiled [`Node`] and the value that says whether the value
//! passes and, when not, which keyword failed and how ([`Broken`]).
//!
//! Three walkers call them: the collecting checker (`check`), which turns every [`Broken`] into
//! an error; the typed fast path (`guided`), which only asks whether a value passes (through the
//! family helpers [`string_matches`] and [`number_within`]); and the stream's early stop
//! (`stream/early.rs`), which asks [`max_length_so_far`] about a string still arriving. The
//! walkers decide when a rule applies (a precomputed plan, a partial value); what the keyword
//! means lives here.

use super::check::{cmp_num, is_multiple, json_eq, list_values, plural};
use super::compile::Node;
use super::format;
use super::pattern::PatternBudgetExceeded;
use serde_json::{Number, Value};
use std::cmp::Ordering::{Greater, Less};

/// A keyword the value fails, with what the message needs.
#[derive(Debug)]
pub(crate) enum Broken<'n> {
    Const(&'n Value),
    Enum(&'n [Value]),
    MinLength {
        min: u64,
        len: u64,
    },
    MaxLength {
        max: u64,
        len: u64,
    },
    /// A string still arriving already has more than `max` characters.
    #[cfg_attr(not(feature = "stream"), allow(dead_code))]
    MaxLengthSoFar {
        max: u64,
    },
    Pattern {
        src: &'n str,
        /// The pattern could not be checked within its budget.
        budget: Option<PatternBudgetExceeded>,
    },
    Format(&'n str),
    Minimum(&'n Number),
    Maximum(&'n Number),
    ExclusiveMinimum(&'n Number),
    ExclusiveMaximum(&'n Number),
    MultipleOf(&'n Number),
}

impl Broken<'_> {
    /// The schema keyword that failed.
    pub(crate) fn keyword(&self) -> &'static str {
        match self {
            Broken::Const(_) => "const",
            Broken::Enum(_) => "enum",
            Broken::MinLength { .. } => "minLength",
            Broken::MaxLength { .. } | Broken::MaxLengthSoFar { .. } => "maxLength",
            Broken::Pattern { .. } => "pattern",
            Broken::Format(_) => "format",
            Broken::Minimum(_) => "minimum",
            Broken::Maximum(_) => "maximum",
            Broken::ExclusiveMinimum(_) => "exclusiveMinimum",
            Broken::ExclusiveMaximum(_) => "exclusiveMaximum",
            Broken::MultipleOf(_) => "multipleOf",
        }
    }

    /// What was expected, in words a model understands.
    pub(crate) fn expected(&self) -> String {
        match self {
            Broken::Const(c) => c.to_string(),
            Broken::Enum(e) => format!("one of {}", list_values(e)),
            Broken::MinLength { min, .. } => {
                format!("at least {min} character{}", plural(*min as usize))
            }
            Broken::MaxLength { max, .. } | Broken::MaxLengthSoFar { max } => {
                format!("at most {max} character{}", plural(*max as usize))
            }
            Broken::Pattern { src, .. } => format!("a string matching /{src}/"),
            Broken::Format(f) => format!("a valid {f}"),
            Broken::Minimum(m) => format!("a number >= {m}"),
            Broken::Maximum(m) => format!("a number <= {m}"),
            Broken::ExclusiveMinimum(m) => format!("a number > {m}"),
            Broken::ExclusiveMaximum(m) => format!("a number < {m}"),
            Broken::MultipleOf(m) => format!("a multiple of {m}"),
        }
    }

    /// What was found; `preview` shows the value itself where the message names it.
    pub(crate) fn found(&self, preview: impl FnOnce() -> String) -> String {
        match self {
            Broken::MinLength { len, .. } | Broken::MaxLength { len, .. } => {
                format!("{len} character{}", plural(*len as usize))
            }
            Broken::MaxLengthSoFar { max } => format!("more than {max} characters"),
            Broken::Pattern {
                budget: Some(e), ..
            } => format!("{} ({e})", preview()),
            _ => preview(),
        }
    }
}

/// `const`: the value equals it (numbers by value: `1` equals `1.0`).
pub(crate) fn const_value<'n>(n: &'n Node, v: &Value) -> Result<(), Broken<'n>> {
    match &n.const_value {
        Some(c) if !json_eq(c, v) => Err(Broken::Const(c)),
        _ => Ok(()),
    }
}

/// `enum`: the value equals one of them; adds the values compared to `steps`.
pub(crate) fn enum_values<'n>(n: &'n Node, v: &Value, steps: &mut u64) -> Result<(), Broken<'n>> {
    let Some(e) = &n.enum_values else {
        return Ok(());
    };
    let pos = e.iter().position(|x| json_eq(x, v));
    *steps += pos.map_or(e.len(), |p| p + 1) as u64;
    match pos {
        Some(_) => Ok(()),
        None => Err(Broken::Enum(e)),
    }
}

/// `const` and `enum` of a string, without building a [`Value`] (the fast path's form of
/// [`const_value`] and [`enum_values`]: a string equals only the same string).
pub(crate) fn string_in_const_enum(n: &Node, s: &str) -> bool {
    n.const_value.as_ref().is_none_or(|c| c.as_str() == Some(s))
        && n.enum_values
            .as_ref()
            .is_none_or(|e| e.iter().any(|x| x.as_str() == Some(s)))
}

/// `minLength` and `maxLength` of a string, counting its characters.
pub(crate) fn length_within(n: &Node, s: &str) -> bool {
    let len = s.chars().count() as u64;
    min_length(n, len).is_ok() && max_length(n, len).is_ok()
}

/// `minLength`, of a string of `len` characters (Unicode scalar values).
pub(crate) fn min_length(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.min_length {
        Some(min) if len < min => Err(Broken::MinLength { min, len }),
        _ => Ok(()),
    }
}

/// `maxLength`, of a string of `len` characters.
pub(crate) fn max_length(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.max_length {
        Some(max) if len > max => Err(Broken::MaxLength { max, len }),
        _ => Ok(()),
    }
}

/// `maxLength` `max` (the largest a string may have among the schemas it may still meet) of a
/// string still arriving, `chars` characters so far: more can only make it longer.
#[cfg(feature = "stream")]
pub(crate) fn max_length_so_far(max: u64, chars: u64) -> Result<(), Broken<'static>> {
    if chars > max {
        Err(Broken::MaxLengthSoFar { max })
    } else {
        Ok(())
    }
}

/// `pattern`: matches somewhere in the string; adds the engine's work to `steps`.
pub(crate) fn pattern<'n>(n: &'n Node, s: &str, steps: &mut u64) -> Result<(), Broken<'n>> {
    let Some((src, re)) = &n.pattern else {
        return Ok(());
    };
    match re.matches_counting(s, steps) {
        Ok(true) => Ok(()),
        Ok(false) => Err(Broken::Pattern { src, budget: None }),
        Err(e) => Err(Broken::Pattern {
            src,
            budget: Some(e),
        }),
    }
}

/// `format` (asserted when the schema was compiled so).
pub(crate) fn format<'n>(n: &'n Node, s: &str) -> Result<(), Broken<'n>> {
    match &n.format {
        Some(f) if !format::check(f, s) => Err(Broken::Format(f)),
        _ => Ok(()),
    }
}

/// `pattern` and `format`: whether the string passes both.
pub(crate) fn string_matches(n: &Node, s: &str) -> bool {
    pattern(n, s, &mut 0).is_ok() && format(n, s).is_ok()
}

/// `minimum`.
pub(crate) fn minimum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.minimum {
        Some(m) if cmp_num(num, m) == Some(Less) => Err(Broken::Minimum(m)),
        _ => Ok(()),
    }
}

/// `maximum`.
pub(crate) fn maximum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.maximum {
        Some(m) if cmp_num(num, m) == Some(Greater) => Err(Broken::Maximum(m)),
        _ => Ok(()),
    }
}

/// `exclusiveMinimum` (the 2019-09 and later form: a number).
pub(crate) fn exclusive_minimum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.exclusive_minimum {
        Some(m) if cmp_num(num, m) != Some(Greater) => Err(Broken::ExclusiveMinimum(m)),
        _ => Ok(()),
    }
}

/// `exclusiveMaximum`.
pub(crate) fn exclusive_maximum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.exclusive_maximum {
        Some(m) if cmp_num(num, m) != Some(Less) => Err(Broken::ExclusiveMaximum(m)),
        _ => Ok(()),
    }
}

/// `multipleOf`, exactly (decimal arithmetic, not floating point).
pub(crate) fn multiple_of<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.multiple_of {
        Some(m) if !is_multiple(num, m) => Err(Broken::MultipleOf(m)),
        _ => Ok(()),
    }
}

/// A number keyword's rule.
pub(crate) type NumberRule = for<'n> fn(&'n Node, &Number) -> Result<(), Broken<'n>>;

/// The number rules in the order errors are reported.
pub(crate) const NUMBER_RULES: [NumberRule; 5] = [
    minimum,
    maximum,
    exclusive_minimum,
    exclusive_maximum,
    multiple_of,
];

/// Whether the number passes every number rule (written out, not through [`NUMBER_RULES`], so
/// that the fast path makes direct calls).
pub(crate) fn number_within(n: &Node, num: &Number) -> bool {
    minimum(n, num).is_ok()
        && maximum(n, num).is_ok()
        && exclusive_minimum(n, num).is_ok()
        && exclusive_maximum(n, num).is_ok()
        && multiple_of(n, num).is_ok()
}
