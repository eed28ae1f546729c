//! The rule of each validation keyword, written once: a function of compiled [`Node`] data and
//! the value (or what is known of it so far) that says whether the value passes and, when not,
//! which keyword failed and how ([`Broken`]).
//!
//! The rules are grouped by the kind of value they judge: [`value`] (`type`, `false`, `const`,
//! `enum`, the string keywords and the number keywords), [`array`](mod@array) (`minItems`, `maxItems`,
//! the item schema of a position, `contains` with its bounds, `uniqueItems`), [`object`]
//! (`required`, `additionalProperties`, `minProperties`, `maxProperties`,
//! `dependentRequired`) and [`union`] (the tag of a tagged `anyOf` / `oneOf`, and `oneOf`'s
//! count of passing branches). Where the stream judges a value still arriving, the partial
//! form of a rule sits beside the whole-value one (`max_length_so_far`, `max_items_so_far`,
//! `const_enum_so_far`, `tag_so_far`): what more text can only make worse.
//!
//! Three walkers call them: the collecting checker (`check`), which turns every [`Broken`] into
//! an error; the typed fast path (`guided`), which only asks whether a value passes (its plan
//! keeps, per node, the bounds and bits these rules read); and the stream's early stop
//! (`stream/early.rs`), which asks about values still arriving. The walkers decide when a rule
//! applies (a precomputed plan, a partial value); what the keyword means, and the words of its
//! error, live here.

mod array;
mod object;
mod union;
mod value;

pub(crate) use array::*;
pub(crate) use object::*;
pub(crate) use union::*;
pub(crate) use value::*;

use super::check::{describe, list_values, plural, type_names};
use super::compile::{deref, Discriminator, Node, NodeId};
use super::pattern::PatternBudgetExceeded;
use serde_json::{Number, Value};
use std::collections::HashSet;

/// A keyword the value fails, with what the message needs.
#[derive(Debug)]
pub(crate) enum Broken<'n> {
    /// `type`: the types allowed (`T_*` bits).
    Type(u8),
    /// The schema `false`.
    False,
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
    MinItems {
        min: u64,
        len: u64,
    },
    MaxItems {
        max: u64,
        len: u64,
    },
    /// An array still arriving already has more than `max` items.
    MaxItemsSoFar {
        max: u64,
    },
    /// Fewer than `min` items match `contains` (`written`: `minContains` is written).
    MinContains {
        min: u64,
        count: u64,
        written: bool,
    },
    MaxContains {
        max: u64,
        count: u64,
    },
    /// An item equal to an earlier one.
    UniqueItems,
    MinProperties {
        min: u64,
        len: u64,
    },
    MaxProperties {
        max: u64,
        len: u64,
    },
    /// The object lacks `name`, which `required` lists (`nodes` and `node` describe it).
    Required {
        name: &'n str,
        node: &'n Node,
        nodes: &'n [Node],
    },
    /// The object lacks `name`, which `dependentRequired` asks for because `because` is present.
    DependentRequired {
        because: &'n str,
    },
    /// The property `key`, which `additionalProperties: false` forbids in `objects`.
    Additional {
        key: &'n str,
        objects: Objects<'n>,
    },
    /// A tagged union's object lacks its tag.
    TagMissing(&'n Discriminator),
    /// A tagged union's tag names no branch (`one_of`: the union is a `oneOf`).
    TagUnknown {
        d: &'n Discriminator,
        one_of: bool,
    },
    /// A value matches several `oneOf` branches (their indexes).
    OneOfMany(&'n [usize]),
}

// No drop glue: a rule's `Result` that a walker only tests (`is_ok()`) costs a comparison, not a
// call to drop it (the fast path asks the rules on every value).
const _: () = assert!(!std::mem::needs_drop::<Broken<'static>>());

/// The object nodes an `additionalProperties` error lists the properties of.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Objects<'n> {
    /// One object node.
    One(&'n Node),
    /// The branches of a tagged union whose tag is not known yet (a `Discriminator`'s tags
    /// and branches; the stream's early stop meets one).
    #[cfg_attr(not(feature = "stream"), allow(dead_code))]
    Branches(&'n [Node], &'n [(String, NodeId)]),
}

impl Objects<'_> {
    /// The property names the objects define, each once, in schema order.
    fn names(&self) -> Vec<&str> {
        match *self {
            Objects::One(n) => n.properties.iter().map(|(k, _)| k.as_str()).collect(),
            Objects::Branches(nodes, branches) => {
                let mut seen = HashSet::new();
                branches
                    .iter()
                    .flat_map(|(_, b)| &nodes[deref(nodes, *b)].properties)
                    .map(|(k, _)| k.as_str())
                    .filter(|k| seen.insert(*k))
                    .collect()
            }
        }
    }
}

impl Broken<'_> {
    /// The schema keyword that failed.
    pub(crate) fn keyword(&self) -> &'static str {
        match self {
            Broken::Type(_) => "type",
            Broken::False => "false",
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
            Broken::MinItems { .. } => "minItems",
            Broken::MaxItems { .. } | Broken::MaxItemsSoFar { .. } => "maxItems",
            Broken::MinContains { written: true, .. } => "minContains",
            Broken::MinContains { written: false, .. } => "contains",
            Broken::MaxContains { .. } => "maxContains",
            Broken::UniqueItems => "uniqueItems",
            Broken::MinProperties { .. } => "minProperties",
            Broken::MaxProperties { .. } => "maxProperties",
            Broken::Required { .. } | Broken::TagMissing(_) => "required",
            Broken::DependentRequired { .. } => "dependentRequired",
            Broken::Additional { .. } => "additionalProperties",
            Broken::TagUnknown { one_of: true, .. } | Broken::OneOfMany(_) => "oneOf",
            Broken::TagUnknown { one_of: false, .. } => "anyOf",
        }
    }

    /// What was expected, in words a model understands.
    pub(crate) fn expected(&self) -> String {
        let items = |n: u64| format!("{n} item{}", plural(n as usize));
        match self {
            Broken::Type(t) => type_names(*t),
            Broken::False => "nothing (no value is allowed here)".into(),
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
            Broken::MinItems { min, .. } => format!("at least {}", items(*min)),
            Broken::MaxItems { max, .. } | Broken::MaxItemsSoFar { max } => {
                format!("at most {}", items(*max))
            }
            Broken::MinContains { min, .. } => {
                format!("at least {} matching the `contains` schema", items(*min))
            }
            Broken::MaxContains { max, .. } => {
                format!("at most {} matching the `contains` schema", items(*max))
            }
            Broken::UniqueItems => "unique items".into(),
            Broken::MinProperties { min, .. } => format!("at least {min} properties"),
            Broken::MaxProperties { max, .. } => format!("at most {max} properties"),
            Broken::Required { name, node, nodes } => node
                .property(name)
                .map(|p| describe(nodes, p))
                .filter(|d| !d.is_empty())
                .map(|d| format!("required property ({d})"))
                .unwrap_or_else(|| "required property".to_string()),
            Broken::DependentRequired { because } => {
                format!("required property (because {because:?} is present)")
            }
            Broken::Additional { key, objects } => {
                let allowed = objects.names();
                let allowed = if allowed.is_empty() {
                    "no properties".to_string()
                } else if allowed.len() > 12 {
                    format!(
                        "allowed: {}, … ({} properties)",
                        allowed[..12].join(", "),
                        allowed.len()
                    )
                } else {
                    format!("allowed: {}", allowed.join(", "))
                };
                format!("no property {key:?} ({allowed})")
            }
            Broken::TagMissing(d) => format!("required property (one of {})", tags(d)),
            Broken::TagUnknown { d, .. } => format!("one of {}", tags(d)),
            Broken::OneOfMany(_) => "a value matching exactly one alternative".into(),
        }
    }

    /// What was found; `preview` shows the value itself (or what is known of it) where the
    /// message names it.
    pub(crate) fn found(&self, preview: impl FnOnce() -> String) -> String {
        match self {
            Broken::MinLength { len, .. } | Broken::MaxLength { len, .. } => {
                format!("{len} character{}", plural(*len as usize))
            }
            Broken::MaxLengthSoFar { max } => format!("more than {max} characters"),
            Broken::Pattern {
                budget: Some(e), ..
            } => format!("{} ({e})", preview()),
            Broken::MinItems { len, .. } | Broken::MaxItems { len, .. } => {
                format!("{len} item{}", plural(*len as usize))
            }
            Broken::MaxItemsSoFar { max } => format!("more than {max}"),
            Broken::MinContains { count, .. } | Broken::MaxContains { count, .. } => {
                count.to_string()
            }
            Broken::UniqueItems => format!("a repeat of an earlier item: {}", preview()),
            Broken::MinProperties { len, .. } | Broken::MaxProperties { len, .. } => {
                len.to_string()
            }
            Broken::Required { .. } | Broken::DependentRequired { .. } | Broken::TagMissing(_) => {
                "nothing".into()
            }
            Broken::OneOfMany(which) => {
                let which: Vec<String> = which.iter().map(usize::to_string).collect();
                format!("a value matching alternatives {}", which.join(" and "))
            }
            _ => preview(),
        }
    }
}

/// A tagged union's tags, as a message lists them.
fn tags(d: &Discriminator) -> String {
    let t: Vec<Value> = d
        .branches
        .iter()
        .map(|(t, _)| Value::from(t.as_str()))
        .collect();
    list_values(&t)
}
