//! The value keywords: `type`, the schema `false`, `const`, `enum`, `minLength`, `maxLength`,
//! `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and
//! `multipleOf`, with the partial forms the stream asks about a string still arriving
//! ([`max_length_so_far`], [`const_enum_so_far`]), and the family helpers the fast path calls
//! ([`string_matches`], [`number_within`]).

use super::super::check::{cmp_num, is_multiple, json_eq};
use super::super::compile::Node;
use super::super::format;
use super::Broken;
use serde_json::{Number, Value};
use std::cmp::Ordering::{Greater, Less};

/// Whether a `type` of bits `types` (`0`: any type) takes a value of the kind `bits` (a `T_*`
/// bit, or `T_INT | T_NUM` for a number whose fraction is not known yet).
#[inline(always)]
pub(crate) fn type_admits(types: u8, bits: u8) -> bool {
    types == 0 || types & bits != 0
}

/// `type`, of a value of the kind `bits` (see [`type_admits`]).
#[inline]
pub(crate) fn type_of(n: &Node, bits: u8) -> Result<(), Broken<'static>> {
    if type_admits(n.types, bits) {
        Ok(())
    } else {
        Err(Broken::Type(n.types))
    }
}

/// The schema `false`: no value passes.
#[inline]
pub(crate) fn falsy(n: &Node) -> Result<(), Broken<'static>> {
    if n.falsy {
        Err(Broken::False)
    } else {
        Ok(())
    }
}

/// `const`: the value equals it (numbers by value: `1` equals `1.0`).
#[inline]
pub(crate) fn const_value<'n>(n: &'n Node, v: &Value) -> Result<(), Broken<'n>> {
    match &n.const_value {
        Some(c) if !json_eq(c, v) => Err(Broken::Const(c)),
        _ => Ok(()),
    }
}

/// `enum`: the value equals one of them; adds the values compared to `steps`.
#[inline]
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
#[inline]
pub(crate) fn string_in_const_enum(n: &Node, s: &str) -> bool {
    n.const_value.as_ref().is_none_or(|c| c.as_str() == Some(s))
        && n.enum_values
            .as_ref()
            .is_none_or(|e| e.iter().any(|x| x.as_str() == Some(s)))
}

/// `const` and `enum` of a string still arriving, `so_far` its text yet: it fails once no
/// continuation can make it one of the values (a `const` or `enum` that is not all strings is
/// left to the whole value). `hint` is the index of the `enum` value the text began last time,
/// tried first (a string is asked about at each chunk, a byte at a time for a byte-by-byte
/// feeder), and keeps the one found.
#[cfg(feature = "stream")]
#[inline]
pub(crate) fn const_enum_so_far<'n>(
    n: &'n Node,
    so_far: &str,
    hint: &mut usize,
) -> Result<(), Broken<'n>> {
    match (&n.const_value, &n.enum_values) {
        (Some(c @ Value::String(s)), _) if !s.starts_with(so_far) => Err(Broken::Const(c)),
        (None, Some(e)) => {
            if let Some(Value::String(a)) = e.get(*hint) {
                if a.starts_with(so_far) {
                    return Ok(());
                }
            }
            match e.iter().position(|v| match v {
                Value::String(a) => a.starts_with(so_far),
                // Not all strings: left to the whole value.
                _ => true,
            }) {
                Some(i) => {
                    *hint = i;
                    Ok(())
                }
                None => Err(Broken::Enum(e)),
            }
        }
        _ => Ok(()),
    }
}

/// `minLength` and `maxLength` of a string, counting its characters.
#[inline]
pub(crate) fn length_within(n: &Node, s: &str) -> bool {
    let len = s.chars().count() as u64;
    min_length(n, len).is_ok() && max_length(n, len).is_ok()
}

/// `minLength`, of a string of `len` characters (Unicode scalar values).
#[inline]
pub(crate) fn min_length(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.min_length {
        Some(min) if len < min => Err(Broken::MinLength { min, len }),
        _ => Ok(()),
    }
}

/// `maxLength`, of a string of `len` characters.
#[inline]
pub(crate) fn max_length(n: &Node, len: u64) -> Result<(), Broken<'static>> {
    match n.max_length {
        Some(max) if len > max => Err(Broken::MaxLength { max, len }),
        _ => Ok(()),
    }
}

/// `maxLength` `max` (the largest a string may have among the schemas it may still meet) of a
/// string still arriving, `chars` characters so far: more can only make it longer.
#[cfg(feature = "stream")]
#[inline]
pub(crate) fn max_length_so_far(max: u64, chars: u64) -> Result<(), Broken<'static>> {
    if chars > max {
        Err(Broken::MaxLengthSoFar { max })
    } else {
        Ok(())
    }
}

/// `pattern`: matches somewhere in the string; adds the engine's work to `steps`.
#[inline]
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
#[inline]
pub(crate) fn format<'n>(n: &'n Node, s: &str) -> Result<(), Broken<'n>> {
    match &n.format {
        Some(f) if !format::check(f, s) => Err(Broken::Format(f)),
        _ => Ok(()),
    }
}

/// `pattern` and `format`: whether the string passes both.
#[inline]
pub(crate) fn string_matches(n: &Node, s: &str) -> bool {
    pattern(n, s, &mut 0).is_ok() && format(n, s).is_ok()
}

/// `minimum`.
#[inline]
pub(crate) fn minimum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.minimum {
        Some(m) if cmp_num(num, m) == Some(Less) => Err(Broken::Minimum(m)),
        _ => Ok(()),
    }
}

/// `maximum`.
#[inline]
pub(crate) fn maximum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.maximum {
        Some(m) if cmp_num(num, m) == Some(Greater) => Err(Broken::Maximum(m)),
        _ => Ok(()),
    }
}

/// `exclusiveMinimum` (the 2019-09 and later form: a number).
#[inline]
pub(crate) fn exclusive_minimum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.exclusive_minimum {
        Some(m) if cmp_num(num, m) != Some(Greater) => Err(Broken::ExclusiveMinimum(m)),
        _ => Ok(()),
    }
}

/// `exclusiveMaximum`.
#[inline]
pub(crate) fn exclusive_maximum<'n>(n: &'n Node, num: &Number) -> Result<(), Broken<'n>> {
    match &n.exclusive_maximum {
        Some(m) if cmp_num(num, m) != Some(Less) => Err(Broken::ExclusiveMaximum(m)),
        _ => Ok(()),
    }
}

/// `multipleOf`, exactly (decimal arithmetic, not floating point).
#[inline]
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
#[inline]
pub(crate) fn number_within(n: &Node, num: &Number) -> bool {
    minimum(n, num).is_ok()
        && maximum(n, num).is_ok()
        && exclusive_minimum(n, num).is_ok()
        && exclusive_maximum(n, num).is_ok()
        && multiple_of(n, num).is_ok()
}
