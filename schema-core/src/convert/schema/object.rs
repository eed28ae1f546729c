//! An object's shape read from its keywords: the `required` list (in order, each name once)
//! and the [`Object`] built from it and the read property schemas.

use super::normalize::malformed;
use super::{Extra, Object, Prop, Schema};
use crate::convert::{kind_of, pointer, SmallMap};
use serde_json::{Map, Value};
use std::collections::HashSet;

type R<T> = Result<T, crate::convert::ConvertError>;

/// Below this many names a `required` list is searched rather than hashed.
const SHORT: usize = 16;

/// The names in an object's `required`, in order without repeats (and as a set once there
/// are [`SHORT`] of them).
pub(super) struct Required<'m> {
    /// In order, each once.
    names: Vec<&'m str>,
    /// The same names, once there are [`SHORT`] of them (empty before).
    set: HashSet<&'m str>,
}

impl Required<'_> {
    /// Whether `name` is required.
    pub(super) fn contains(&self, name: &str) -> bool {
        if self.set.is_empty() {
            self.names.contains(&name)
        } else {
            self.set.contains(name)
        }
    }
}

/// The `required` list of an object schema.
#[inline(never)]
pub(super) fn required_of<'m>(m: &'m Map<String, Value>, at: &str) -> R<Required<'m>> {
    // (a set once the list is long, so that 100,000 properties take linear time; a short
    // list is searched)
    let mut required: Vec<&str> = Vec::new();
    let mut is_required: HashSet<&str> = HashSet::new();
    if let Some(r) = m.fget("required") {
        let names = match r {
            Value::Array(names) => names,
            other => {
                let p = pointer::push(at, "required");
                return malformed(&p, format!("expected an array, found {}", kind_of(other)));
            }
        };
        for name in names {
            let Value::String(name) = name else {
                let p = pointer::push(at, "required");
                return malformed(&p, format!("expected names, found {}", kind_of(name)));
            };
            let new = if required.len() < SHORT {
                !required.contains(&name.as_str())
            } else {
                if is_required.is_empty() {
                    is_required.extend(required.iter().copied());
                }
                is_required.insert(name)
            };
            if new {
                required.push(name);
            }
        }
    }
    Ok(Required {
        names: required,
        set: is_required,
    })
}

/// An object's shape from its read parts (the properties already marked required) and its
/// `required` list.
#[inline(never)]
pub(super) fn build_object(
    required: &Required<'_>,
    props: Vec<Prop>,
    extra: Extra,
    patterns: Vec<(String, Schema)>,
) -> Object {
    Object {
        props,
        listed: required.names.iter().map(|r| r.to_string()).collect(),
        extra,
        patterns,
        clauses: Vec::new(),
    }
}
