//! The fast path: deserializing straight into the typed value while checking the schema.
//!
//! A wrapper around serde_json's deserializer walks the compiled schema in step with the value:
//! every string, number, array and object that reaches the type's `Deserialize` impl is checked
//! on the way (types, lengths, bounds, `enum`/`const`, unknown and missing properties, the exact
//! variant of a tagged enum). The first violation aborts; the caller then takes the slow path,
//! which parses a `Value` and collects every error. Valid input therefore costs one pass, close
//! to plain `serde_json::from_str::<T>`.
//!
//! What each node needs is worked out once per type ([`Plan`]): which checks a string, number or
//! boolean has (none, for most), the properties of an object with a bit per required one, the
//! item node and bounds of an array. An object key goes to the type's own field visitor through
//! a wrapping seed that notes which property it names on the way (the next property in schema
//! order is tried first, since a model writes them in that order), so the key is read once.
//!
//! Unions it follows: `anyOf [X, null]`, tagged unions of objects (a `const` tag property), and
//! serde's externally tagged enums (unit variants as strings, the others as one-member objects,
//! read as serde_json reads them with the payload checked). Tuples (`prefixItems`) are followed
//! item by item. Schemas with keywords that cannot be checked in one pass (`allOf`, `not`,
//! `uniqueItems`, `patternProperties`, `propertyNames`, untagged unions) have no plan and
//! always take the slow path.

use super::check::{cmp_num, is_multiple, type_names};
use super::compile::{
    deref, Additional, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use super::{format, Validator};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Number, Value};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

/// `Some(value)` when `text` deserializes into `T` and meets every constraint; `None` sends the
/// caller down the slow path, which collects every error.
#[inline]
pub(crate) fn fast_path<T: DeserializeOwned>(plan: Option<&Plan>, text: &str) -> Option<T> {
    let plan = plan?;
    let mut de = serde_json::Deserializer::from_str(text);
    let cx = Cx {
        info: &plan.info,
        plan,
        text: text.as_bytes(),
    };
    let guide = cx.guide(plan.root, false);
    let value = T::deserialize(Guided {
        de: &mut de,
        g: guide,
    })
    .ok()?;
    de.end().ok()?;
    Some(value)
}

/// A `type` bit no JSON value has: the node accepts nothing (the schema `false`).
const T_NOTHING: u8 = 0x80;

/// [`Info::fast`] bits: a value of this kind is accepted with no check beyond one bit test (a
/// string also within the byte bounds [`Info::min_bytes`] ..= [`Info::max_len`]).
const F_BOOL: u8 = 1;
const F_STR: u8 = 2;
const F_INT: u8 = 4;
const F_NUM: u8 = 8;

/// One property of an object node.
struct Prop {
    node: NodeId,
    required: bool,
    /// A `null` value reads as absent (the property is optional).
    null_absent: bool,
}

/// What the fast path knows about one node, computed once: the node after pure `$ref`s and
/// `anyOf [X, null]` are looked through, and which of its checks can apply to each kind of value.
#[derive(Default)]
struct Info {
    /// The node after pure `$ref`s and `anyOf [X, null]` are looked through.
    target: NodeId,
    /// The node's `type` bits (0: any type).
    types: u8,
    /// `null` is accepted here (`anyOf [X, null]`, `null` in `type`, or no type at all).
    null_ok: bool,
    /// `const` or `enum` is written: scalars are compared against them.
    scalar_check: bool,
    /// A string is checked beyond its type and length: `const`, `enum`, a `oneOf` of string
    /// `const`s, `pattern` or `format`.
    str_check: bool,
    /// `minLength` / `maxLength`, in characters (`0` / `u64::MAX` when absent).
    len_check: bool,
    min_len: u64,
    max_len: u64,
    /// `4 * min_len`: a string of at least this many bytes has at least `min_len` characters
    /// (as one of at most `max_len` bytes has at most `max_len`), so counting is not needed.
    min_bytes: u64,
    /// `F_*` bits: the kinds of scalar this node accepts with no further check.
    fast: u8,
    /// A number is checked beyond its type: bounds, `multipleOf`, `const`, `enum`.
    num_check: bool,
    /// When the only number checks are a `minimum` / `maximum` that are `i64`s (the bounds the
    /// derive writes for Rust's integer types, `u64` ones included): those bounds, absent ones as
    /// `i128::MIN` / `MAX`, so that an integer is checked by two comparisons.
    int_range: Option<(i128, i128)>,
    /// The bounds an integer must be within when that is all there is to check on one (no
    /// bounds: `i128::MIN` / `MAX`); `None` when an integer has other checks or is not taken.
    int_bounds: Option<(i128, i128)>,
    /// String values allowed by `oneOf` of `const`s (a documented string enum).
    consts: Option<Vec<String>>,
    /// Index into `Plan::unions` for a tagged union of objects.
    union: Option<usize>,
    /// The property names of an object node, in schema order (a linear scan beats hashing for
    /// the handful of properties a model's object has), and what each one is.
    names: Vec<Box<str>>,
    props: Vec<Prop>,
    /// Bits over the first 64 properties that are required; how many required properties come
    /// after those; whether `required` names a property the node does not define (such an
    /// object is left to the slow path).
    required_mask: u64,
    required_beyond: usize,
    required_undefined: bool,
    /// What a property outside `properties` must be.
    additional: Additional,
    /// Exactly one of `props` must be present (an externally tagged enum's object form).
    exactly_one: bool,
    /// An externally tagged enum: unit variants are the strings in `consts`, the others are
    /// `{"Variant": payload}` objects whose one property is in `props`.
    external: bool,
    /// An externally tagged enum's variants, in schema order: each name, and its payload's node
    /// (`None` for a unit variant).
    variants: Vec<(Box<str>, Option<NodeId>)>,
    /// The items of an array node (`prefix` first, one per position, then `items`), and its
    /// bounds (`0` / `u64::MAX` when absent).
    prefix: Vec<NodeId>,
    items: Option<NodeId>,
    min_items: u64,
    max_items: u64,
}

impl Info {
    /// Fills in [`Info::fast`] and [`Info::min_bytes`] from the other fields.
    fn with_fast_bits(mut self) -> Info {
        let takes = |bits: u8| self.types == 0 || self.types & bits != 0;
        let mut fast = 0;
        if takes(T_BOOL) && !self.scalar_check {
            fast |= F_BOOL;
        }
        if takes(T_STR) && !self.str_check {
            fast |= F_STR;
        }
        if takes(T_INT | T_NUM) && !self.num_check {
            fast |= F_INT;
        }
        if takes(T_NUM) && !self.num_check {
            fast |= F_NUM;
        }
        self.fast = fast;
        self.int_bounds = if fast & F_INT != 0 {
            Some((i128::MIN, i128::MAX))
        } else {
            self.int_range
        };
        self.min_bytes = self.min_len.saturating_mul(4);
        self
    }
}

/// A tagged union of closed objects, keyed the same across branches where possible.
struct Union {
    /// Index of the tag in `keys`.
    tag_index: usize,
    /// Tag value -> branch index.
    branches: Vec<(String, NodeId)>,
    /// Every property name of every branch (the same order as `keys`).
    names: Vec<Box<str>>,
    /// Per key: the node when it is the same in all branches.
    keys: Vec<Option<NodeId>>,
    /// Per branch: which keys it has, and which it requires (bit masks over `keys`).
    allowed: Vec<u64>,
    required: Vec<u64>,
    /// Per branch, per key: the branch's node for that property.
    by_branch: Vec<Vec<Option<NodeId>>>,
}

/// What the fast path knows about a type's compiled schema, computed once per type.
pub(crate) struct Plan {
    validator: Arc<Validator>,
    root: NodeId,
    info: Vec<Info>,
    unions: Vec<Union>,
}

impl Plan {
    pub(crate) fn new(validator: Arc<Validator>) -> Option<Plan> {
        let nodes = &validator.compiled().nodes;
        let root = validator.compiled().root;
        let mut unions = Vec::new();
        let info = (0..nodes.len())
            .map(|id| Self::info_of(nodes, id, &mut unions))
            .collect::<Option<Vec<Info>>>()?;
        Some(Plan {
            root,
            info,
            unions,
            validator: validator.clone(),
        })
    }

    fn nodes(&self) -> &[Node] {
        &self.validator.compiled().nodes
    }

    /// `None` when the node cannot be checked in one pass.
    fn info_of(nodes: &[Node], id: NodeId, unions: &mut Vec<Union>) -> Option<Info> {
        let mut target = deref(nodes, id);
        let mut nullable = false;
        let n = &nodes[target];
        if n.any_of.len() == 2 && n.types == 0 && n.discriminator.is_none() {
            let is_null = |b: NodeId| {
                let b = &nodes[deref(nodes, b)];
                b.types == T_NULL && b.enum_values.is_none() && b.const_value.is_none()
            };
            if is_null(n.any_of[1]) {
                target = deref(nodes, n.any_of[0]);
                nullable = true;
            } else if is_null(n.any_of[0]) {
                target = deref(nodes, n.any_of[1]);
                nullable = true;
            }
        }
        let n = &nodes[target];
        if n.falsy {
            // `false`: nothing is accepted (a tuple's `items: false`).
            return Some(
                Info {
                    target,
                    types: T_NOTHING,
                    max_len: u64::MAX,
                    max_items: u64::MAX,
                    ..Info::default()
                }
                .with_fast_bits(),
            );
        }
        if !n.all_of.is_empty()
            || n.not.is_some()
            || n.unique_items
            || !n.pattern_properties.is_empty()
            || n.property_names.is_some()
            || n.min_properties.is_some()
            || n.max_properties.is_some()
            || n.needs_full_validator()
        {
            return None;
        }
        let scalar = |v: &Value| !(v.is_array() || v.is_object());
        if n.const_value.as_ref().is_some_and(|c| !scalar(c))
            || n.enum_values
                .as_ref()
                .is_some_and(|e| !e.iter().all(scalar))
        {
            return None;
        }
        if n.reference.is_some() && (n.types != 0 || !n.properties.is_empty()) {
            // `$ref` beside other keywords: both apply, which one pass does not follow.
            return None;
        }
        let scalar_check = n.const_value.is_some() || n.enum_values.is_some();
        // `null` in `type` admits a `null` only when `const`/`enum` (if written) do too.
        let null_listed = n.const_value.as_ref().is_none_or(Value::is_null)
            && n.enum_values
                .as_ref()
                .is_none_or(|e| e.iter().any(Value::is_null));
        let null_ok =
            nullable || (n.types & T_NULL != 0 && null_listed) || (n.types == 0 && !scalar_check);
        let mut consts = None;
        if !n.one_of.is_empty() {
            let values: Option<Vec<String>> = n
                .one_of
                .iter()
                .map(|&b| {
                    nodes[deref(nodes, b)]
                        .const_value
                        .as_ref()
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
                .collect();
            consts = Some(values?);
        }
        if !n.any_of.is_empty() && n.discriminator.is_none() {
            return Self::external_of(nodes, target, null_ok);
        }
        let mut union = None;
        if !n.any_of.is_empty() {
            let d = n.discriminator.as_ref()?;
            union = Some(Self::union_of(
                nodes,
                d.property.clone(),
                &d.branches,
                unions,
            )?);
        }
        let names = n
            .properties
            .iter()
            .map(|(k, _)| k.as_str().into())
            .collect();
        let props: Vec<Prop> = n
            .properties
            .iter()
            .map(|(k, id)| {
                let required = n.required.contains(k);
                Prop {
                    node: *id,
                    required,
                    null_absent: !required,
                }
            })
            .collect();
        let mut required_mask = 0;
        let mut required_beyond = 0;
        for (i, p) in props.iter().enumerate() {
            if p.required {
                if i < 64 {
                    required_mask |= 1u64 << i;
                } else {
                    required_beyond += 1;
                }
            }
        }
        let required_undefined = n.required.iter().any(|r| n.property(r).is_none());
        let info = Info {
            target,
            types: n.types,
            null_ok,
            scalar_check,
            str_check: scalar_check
                || consts.is_some()
                || n.pattern.is_some()
                || n.format.is_some(),
            len_check: n.min_length.is_some() || n.max_length.is_some(),
            min_len: n.min_length.unwrap_or(0),
            max_len: n.max_length.unwrap_or(u64::MAX),
            num_check: scalar_check
                || n.minimum.is_some()
                || n.maximum.is_some()
                || n.exclusive_minimum.is_some()
                || n.exclusive_maximum.is_some()
                || n.multiple_of.is_some(),
            int_range: int_range(n, scalar_check),
            int_bounds: None,
            consts,
            union,
            names,
            props,
            required_mask,
            required_beyond,
            required_undefined,
            additional: n.additional.clone(),
            exactly_one: false,
            external: false,
            variants: Vec::new(),
            prefix: n.prefix_items.clone(),
            items: n.items,
            min_items: n.min_items.unwrap_or(0),
            max_items: n.max_items.unwrap_or(u64::MAX),
            min_bytes: 0,
            fast: 0,
        };
        Some(info.with_fast_bits())
    }

    /// An externally tagged enum, as the renderer writes it: an `anyOf` of string branches (the
    /// unit variants, as `enum` or `const`) and closed objects with one required property (the
    /// other variants), and no other keyword. `None` for any other union.
    fn external_of(nodes: &[Node], target: NodeId, null_ok: bool) -> Option<Info> {
        let n = &nodes[target];
        let bare = |n: &Node| {
            n.one_of.is_empty()
                && n.const_value.is_none()
                && n.enum_values.is_none()
                && n.min_length.is_none()
                && n.max_length.is_none()
                && n.pattern.is_none()
                && n.format.is_none()
                && n.minimum.is_none()
                && n.maximum.is_none()
                && n.exclusive_minimum.is_none()
                && n.exclusive_maximum.is_none()
                && n.multiple_of.is_none()
                && n.items.is_none()
                && n.min_items.is_none()
                && n.max_items.is_none()
        };
        if n.types != 0
            || !bare(n)
            || !n.properties.is_empty()
            || !n.required.is_empty()
            || !matches!(n.additional, Additional::Allowed)
        {
            return None;
        }
        let mut units: Vec<String> = Vec::new();
        let mut names: Vec<Box<str>> = Vec::new();
        let mut props = Vec::new();
        let mut variants = Vec::new();
        for &b in &n.any_of {
            let b = &nodes[deref(nodes, b)];
            if !b.any_of.is_empty() || !b.one_of.is_empty() {
                return None;
            }
            if b.types == T_STR && b.properties.is_empty() {
                let unit = |v: &Value| v.as_str().map(str::to_string);
                let listed: Option<Vec<String>> = match (&b.const_value, &b.enum_values) {
                    (Some(c), None) => unit(c).map(|u| vec![u]),
                    (None, Some(e)) => e.iter().map(unit).collect(),
                    _ => None,
                };
                if b.min_length.is_some()
                    || b.max_length.is_some()
                    || b.pattern.is_some()
                    || b.format.is_some()
                {
                    return None;
                }
                let listed = listed?;
                variants.extend(listed.iter().map(|u| (u.as_str().into(), None)));
                units.extend(listed);
            } else if b.types == T_OBJ
                && bare(b)
                && b.properties.len() == 1
                && b.required.len() == 1
                && b.required[0] == b.properties[0].0
                && matches!(b.additional, Additional::Forbidden)
            {
                let (name, payload) = &b.properties[0];
                names.push(name.as_str().into());
                variants.push((name.as_str().into(), Some(*payload)));
                props.push(Prop {
                    node: *payload,
                    required: false,
                    null_absent: false,
                });
            } else {
                return None;
            }
        }
        let mut all: Vec<&str> = units.iter().map(String::as_str).collect();
        all.extend(names.iter().map(|k| &**k));
        all.sort_unstable();
        if props.len() > 64 || all.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        let mut types = T_OBJ;
        if !units.is_empty() {
            types |= T_STR;
        }
        let info = Info {
            target,
            types,
            null_ok,
            str_check: true,
            consts: Some(units),
            names,
            props,
            additional: Additional::Forbidden,
            exactly_one: true,
            external: true,
            variants,
            max_len: u64::MAX,
            max_items: u64::MAX,
            ..Info::default()
        };
        Some(info.with_fast_bits())
    }

    fn union_of(
        nodes: &[Node],
        tag: String,
        branches: &[(String, NodeId)],
        unions: &mut Vec<Union>,
    ) -> Option<usize> {
        let resolved: Vec<(String, NodeId)> = branches
            .iter()
            .map(|(t, b)| (t.clone(), deref(nodes, *b)))
            .collect();
        let mut keys: Vec<(String, Option<NodeId>)> = Vec::new();
        for (_, b) in &resolved {
            let n = &nodes[*b];
            if !matches!(n.additional, Additional::Forbidden) || n.types & T_OBJ == 0 {
                return None;
            }
            for (name, p) in &n.properties {
                match keys.iter_mut().find(|(k, _)| k == name) {
                    Some((_, slot)) => {
                        if slot.is_some_and(|s| !same(nodes, s, *p, 0)) {
                            *slot = None;
                        }
                    }
                    None => keys.push((name.clone(), Some(*p))),
                }
            }
        }
        if keys.len() > 64 {
            return None;
        }
        let bit = |name: &str| keys.iter().position(|(k, _)| k == name).map(|i| 1u64 << i);
        let mut allowed = Vec::new();
        let mut required = Vec::new();
        for (_, b) in &resolved {
            let n = &nodes[*b];
            allowed.push(
                n.properties
                    .iter()
                    .filter_map(|(k, _)| bit(k))
                    .fold(0, |a, b| a | b),
            );
            required.push(
                n.required
                    .iter()
                    .filter_map(|k| bit(k))
                    .fold(0, |a, b| a | b),
            );
        }
        let by_branch = resolved
            .iter()
            .map(|(_, b)| keys.iter().map(|(k, _)| nodes[*b].property(k)).collect())
            .collect();
        let tag_index = keys.iter().position(|(k, _)| *k == tag)?;
        unions.push(Union {
            tag_index,
            by_branch,
            branches: resolved,
            names: keys.iter().map(|(k, _)| k.as_str().into()).collect(),
            keys: keys.into_iter().map(|(_, n)| n).collect(),
            allowed,
            required,
        });
        Some(unions.len() - 1)
    }
}

/// One call's walk: the plan, and the text being read.
struct Cx<'g> {
    /// `plan.info`, one load nearer.
    info: &'g [Info],
    plan: &'g Plan,
    /// The whole text: a string the deserializer borrows from it can be placed in it (see
    /// [`VariantLookup`]).
    text: &'g [u8],
}

impl<'g> Cx<'g> {
    #[inline]
    fn guide(&'g self, id: NodeId, optional: bool) -> Guide<'g> {
        Guide {
            cx: self,
            mode: Mode::Node(&self.info[id], optional),
        }
    }
}

/// Structural equality of two compiled nodes (descriptions are not compiled, so they do not count).
fn same(nodes: &[Node], a: NodeId, b: NodeId, depth: usize) -> bool {
    if a == b {
        return true;
    }
    if depth > 16 {
        return false;
    }
    let (x, y) = (&nodes[a], &nodes[b]);
    let same_list = |p: &[NodeId], q: &[NodeId]| {
        p.len() == q.len() && p.iter().zip(q).all(|(i, j)| same(nodes, *i, *j, depth + 1))
    };
    let same_opt = |p: Option<NodeId>, q: Option<NodeId>| match (p, q) {
        (None, None) => true,
        (Some(i), Some(j)) => same(nodes, i, j, depth + 1),
        _ => false,
    };
    x.falsy == y.falsy
        && x.types == y.types
        && x.enum_values == y.enum_values
        && x.const_value == y.const_value
        && x.min_length == y.min_length
        && x.max_length == y.max_length
        && x.pattern.as_ref().map(|p| &p.0) == y.pattern.as_ref().map(|p| &p.0)
        && x.format == y.format
        && x.minimum == y.minimum
        && x.maximum == y.maximum
        && x.exclusive_minimum == y.exclusive_minimum
        && x.exclusive_maximum == y.exclusive_maximum
        && x.multiple_of == y.multiple_of
        && same_opt(x.items, y.items)
        && x.min_items == y.min_items
        && x.max_items == y.max_items
        && x.unique_items == y.unique_items
        && x.required == y.required
        && x.properties.len() == y.properties.len()
        && x.properties
            .iter()
            .zip(&y.properties)
            .all(|((k, i), (l, j))| k == l && same(nodes, *i, *j, depth + 1))
        && match (&x.additional, &y.additional) {
            (Additional::Allowed, Additional::Allowed)
            | (Additional::Forbidden, Additional::Forbidden) => true,
            (Additional::Schema(i), Additional::Schema(j)) => same(nodes, *i, *j, depth + 1),
            _ => false,
        }
        && same_list(&x.any_of, &y.any_of)
        && same_list(&x.one_of, &y.one_of)
        && x.all_of.is_empty()
        && y.all_of.is_empty()
        && x.not.is_none()
        && y.not.is_none()
        && same_opt(x.reference, y.reference)
        && x.prefix_items.is_empty()
        && y.prefix_items.is_empty()
}

/// Where the walk is: what the current value must be.
#[derive(Clone, Copy)]
struct Guide<'g> {
    cx: &'g Cx<'g>,
    mode: Mode<'g>,
}

#[derive(Clone, Copy)]
enum Mode<'g> {
    /// Anything goes (no checks).
    Free,
    /// The property is unknown here: only `null` (read as absent) is accepted.
    NullOnly,
    /// The value must match the node; when the flag is set it is an optional property, and a
    /// `null` reads as absent.
    Node(&'g Info, bool),
    /// The value is a union's tag: record which branch it names.
    Capture(&'g Capture<'g>),
}

/// Where a union's tag is read: the union, and the branch its value names once read (one
/// reference in [`Mode`], so that a guide stays three words).
struct Capture<'g> {
    union: &'g Union,
    branch: &'g Cell<Option<usize>>,
}

impl<'g> Guide<'g> {
    fn node(&self) -> Option<&'g Node> {
        match self.mode {
            Mode::Node(i, _) => Some(&self.cx.plan.nodes()[i.target]),
            _ => None,
        }
    }

    /// `const` and `enum` (only called when one of them is written).
    #[cold]
    fn check_scalar(&self, v: &Value) -> bool {
        let Some(n) = self.node() else { return true };
        if let Some(c) = &n.const_value {
            if !super::check::json_eq(c, v) {
                return false;
            }
        }
        if let Some(e) = &n.enum_values {
            if !e.iter().any(|x| super::check::json_eq(x, v)) {
                return false;
            }
        }
        true
    }

    #[inline(always)]
    fn check_bool(&self, b: bool) -> bool {
        if let Mode::Node(i, _) = self.mode {
            if i.fast & F_BOOL != 0 {
                return true;
            }
        }
        self.check_bool_more(b)
    }

    /// A boolean the node does not take with one bit test.
    #[inline(never)]
    fn check_bool_more(&self, b: bool) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                (i.types == 0 || i.types & T_BOOL != 0)
                    && (!i.scalar_check || self.check_scalar(&Value::Bool(b)))
            }
            Mode::NullOnly => false,
            Mode::Free | Mode::Capture(..) => true,
        }
    }

    #[inline(always)]
    fn check_str(&self, s: &str) -> bool {
        if let Mode::Node(i, _) = self.mode {
            let bytes = s.len() as u64;
            if i.fast & F_STR != 0 && bytes <= i.max_len && bytes >= i.min_bytes {
                return true;
            }
        }
        self.check_str_node(s)
    }

    /// A string the node does not take with one bit test and the byte bounds.
    #[inline(never)]
    fn check_str_node(&self, s: &str) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                if i.types != 0 && i.types & T_STR == 0 {
                    return false;
                }
                if i.len_check {
                    // A string has between a quarter of its byte length and its byte length
                    // in characters: when both ends are within bounds, counting is not needed.
                    let bytes = s.len() as u64;
                    if (bytes > i.max_len || bytes.div_ceil(4) < i.min_len) && !count_within(i, s) {
                        return false;
                    }
                }
                !i.str_check || self.check_str_more(i, s)
            }
            Mode::Free => true,
            _ => self.check_str_other(s),
        }
    }

    /// A string where only `null` is accepted, or a union's tag.
    #[inline(never)]
    fn check_str_other(&self, s: &str) -> bool {
        match self.mode {
            Mode::Capture(c) => match c.union.branches.iter().position(|(t, _)| t == s) {
                Some(b) => {
                    c.branch.set(Some(b));
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// `const`, `enum`, a `oneOf` of `const`s, `pattern` and `format`.
    #[inline(never)]
    fn check_str_more(&self, i: &Info, s: &str) -> bool {
        let n = &self.cx.plan.nodes()[i.target];
        if let Some(c) = &n.const_value {
            if c.as_str() != Some(s) {
                return false;
            }
        }
        if let Some(e) = &n.enum_values {
            if !e.iter().any(|x| x.as_str() == Some(s)) {
                return false;
            }
        }
        if let Some(consts) = &i.consts {
            if !consts.iter().any(|c| c == s) {
                return false;
            }
        }
        if let Some((_, re)) = &n.pattern {
            if !re.is_match(s) {
                return false;
            }
        }
        if let Some(f) = &n.format {
            if !format::check(f, s) {
                return false;
            }
        }
        true
    }

    /// A number; `integral` says whether it has no fraction part (JSON Schema's `integer`).
    #[inline(always)]
    fn check_num(&self, integral: bool, num: impl FnOnce() -> Option<Number>) -> bool {
        if let Mode::Node(i, _) = self.mode {
            if i.fast & if integral { F_INT } else { F_NUM } != 0 {
                return true;
            }
        }
        self.check_num_node(integral, num)
    }

    /// An integer as serde_json reads it (`visit_i64` / `visit_u64`).
    #[inline]
    fn check_int(&self, n: i128) -> bool {
        if let Mode::Node(i, _) = self.mode {
            if i.fast & F_INT != 0 {
                return true;
            }
            if let Some((lo, hi)) = i.int_range {
                return lo <= n && n <= hi;
            }
        }
        self.check_num_node(true, || {
            Some(match i64::try_from(n) {
                Ok(n) => n.into(),
                Err(_) => u64::try_from(n).ok()?.into(),
            })
        })
    }

    /// A number the node does not take with one bit test.
    #[inline(never)]
    fn check_num_node(&self, integral: bool, num: impl FnOnce() -> Option<Number>) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                let bits = if integral { T_INT | T_NUM } else { T_NUM };
                if i.types != 0 && i.types & bits == 0 {
                    return false;
                }
                if !i.num_check {
                    return true;
                }
                num().is_some_and(|num| self.check_num_more(i, num))
            }
            Mode::NullOnly => false,
            Mode::Free | Mode::Capture(..) => true,
        }
    }

    /// Bounds, `multipleOf`, `const` and `enum`.
    fn check_num_more(&self, i: &Info, num: Number) -> bool {
        let n = &self.cx.plan.nodes()[i.target];
        use std::cmp::Ordering::*;
        if n.minimum
            .as_ref()
            .is_some_and(|m| cmp_num(&num, m) == Some(Less))
            || n.maximum
                .as_ref()
                .is_some_and(|m| cmp_num(&num, m) == Some(Greater))
            || n.exclusive_minimum
                .as_ref()
                .is_some_and(|m| cmp_num(&num, m) != Some(Greater))
            || n.exclusive_maximum
                .as_ref()
                .is_some_and(|m| cmp_num(&num, m) != Some(Less))
            || n.multiple_of
                .as_ref()
                .is_some_and(|m| !is_multiple(&num, m))
        {
            return false;
        }
        if i.scalar_check {
            return self.check_scalar(&Value::Number(num));
        }
        true
    }

    /// A number that arrives as something other than an `i64`/`u64`/`f64` (`i128`, `u128`).
    fn check_number(&self, num: Number) -> bool {
        let integral =
            num.is_i64() || num.is_u64() || num.as_f64().is_some_and(|f| f.fract() == 0.0);
        self.check_num(integral, || Some(num))
    }

    #[inline]
    fn check_null(&self) -> bool {
        match self.mode {
            Mode::Node(i, optional) => optional || i.null_ok,
            Mode::NullOnly | Mode::Free | Mode::Capture(..) => true,
        }
    }
}

/// `minLength` / `maxLength`, counting characters.
#[inline(never)]
/// [`Info::int_range`] of a node: `Some` when its only number checks are integer bounds (an
/// `i64` or a `u64`) and it takes integers.
fn int_range(n: &Node, scalar_check: bool) -> Option<(i128, i128)> {
    if scalar_check
        || n.exclusive_minimum.is_some()
        || n.exclusive_maximum.is_some()
        || n.multiple_of.is_some()
        || (n.types != 0 && n.types & (T_INT | T_NUM) == 0)
    {
        return None;
    }
    let bound = |b: &Option<Number>, absent: i128| match b {
        None => Some(absent),
        Some(b) => b
            .as_i64()
            .map(i128::from)
            .or_else(|| b.as_u64().map(i128::from)),
    };
    Some((bound(&n.minimum, i128::MIN)?, bound(&n.maximum, i128::MAX)?))
}

fn count_within(i: &Info, s: &str) -> bool {
    let len = s.chars().count() as u64;
    len >= i.min_len && len <= i.max_len
}

#[cold]
fn reject<E: de::Error>(g: &Guide<'_>, what: &str) -> E {
    let expected = match g.mode {
        Mode::Node(i, _) => type_names(i.types),
        _ => String::new(),
    };
    E::custom(format_args!("schema: {what} (expected {expected})"))
}

#[cold]
fn fail<E: de::Error>(what: &str) -> E {
    E::custom(format_args!("schema: {what}"))
}

/// A deserializer that checks each value against the schema on its way to the visitor.
struct Guided<'g, D> {
    de: D,
    g: Guide<'g>,
}

struct GuidedSeed<'g, S> {
    seed: S,
    g: Guide<'g>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for GuidedSeed<'_, S> {
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        // A value without a schema is still guided: its objects' keys are checked for one
        // written twice.
        self.seed.deserialize(Guided { de: d, g: self.g })
    }
}

/// Every `Deserializer` method but `deserialize_ignored_any` and `is_human_readable`, forwarded
/// to `self.de` with the visitor wrapped by the given expression.
macro_rules! forward_deserializer {
    // A whole wrapper: every method, an ignored value included, and `is_human_readable`.
    (@wrapper $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!($self_, $visitor => $wrap);
        forward_deserializer! { @methods $self_, $visitor => $wrap; deserialize_ignored_any; }
        fn is_human_readable(&self) -> bool {
            self.de.is_human_readable()
        }
    };
    ($self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!(@but_enum $self_, $visitor => $wrap);
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        }
    };
    (@but_enum $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!(@but_enum_ints $self_, $visitor => $wrap);
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
            deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
        }
    };
    // All but `deserialize_enum` and the integer methods up to 64 bits.
    (@but_enum_ints $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_any; deserialize_bool; deserialize_i128; deserialize_u128;
            deserialize_f32; deserialize_f64; deserialize_char;
            deserialize_str; deserialize_string; deserialize_bytes; deserialize_byte_buf;
            deserialize_option; deserialize_unit; deserialize_seq; deserialize_map;
            deserialize_identifier;
            deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str);
            deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        }
    };
    (@methods $self_:ident, $visitor:ident => $wrap:expr; $($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>($self_, $($($arg: $ty,)*)? $visitor: V) -> Result<V::Value, D::Error> {
            $self_.de.$method($($($arg,)*)? $wrap)
        }
    )*};
}

/// `Deserializer` methods for integers of up to 64 bits: when the node's only check on an integer
/// is a pair of bounds (or none), the type's own visitor is wrapped in [`Bounded`] alone, so that
/// serde_json's number parsing is not driven through the checking visitor.
macro_rules! guided_ints {
    ($($method:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            if let Mode::Node(i, _) = self.g.mode {
                if let Some((lo, hi)) = i.int_bounds {
                    return self.de.$method(Bounded { v: visitor, lo, hi });
                }
            }
            self.de.$method(GuidedVisitor { v: visitor, g: self.g })
        }
    )*};
}

/// A visitor that takes an integer (`visit_i64` / `visit_u64`) within `lo..=hi` and hands it on
/// unchanged, and nothing else: any other value, a float included, is an error (left to the slow
/// path).
struct Bounded<V> {
    v: V,
    lo: i128,
    hi: i128,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Bounded<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        if self.lo <= i128::from(n) && i128::from(n) <= self.hi {
            self.v.visit_i64(n)
        } else {
            Err(fail("an integer out of bounds"))
        }
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        if self.lo <= i128::from(n) && i128::from(n) <= self.hi {
            self.v.visit_u64(n)
        } else {
            Err(fail("an integer out of bounds"))
        }
    }
}

impl<'de, D: Deserializer<'de>> Guided<'_, D> {
    /// `deserialize_enum` for any enum but an externally tagged one the plan knows (kept out of
    /// line, so that the common case's frame stays small).
    #[inline(never)]
    fn other_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_enum(
            name,
            variants,
            GuidedVisitor {
                v: visitor,
                g: self.g,
            },
        )
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guided<'_, D> {
    type Error = D::Error;
    forward_deserializer!(@but_enum_ints self, visitor => GuidedVisitor { v: visitor, g: self.g });
    guided_ints! {
        deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
        deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if let Mode::Node(info, _) = self.g.mode {
            if info.external {
                // Read as serde_json reads an enum (a string, or an object of one member),
                // with the variant's payload checked on the way.
                return self.de.deserialize_enum(
                    name,
                    variants,
                    ExternalVisitor {
                        v: visitor,
                        cx: self.g.cx,
                        info,
                    },
                );
            }
        }
        self.other_enum(name, variants, visitor)
    }
    /// An ignored value is still checked (serde_json would skip it without a word).
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.de.deserialize_any(GuidedVisitor {
            v: visitor,
            g: self.g,
        })
    }
    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

struct GuidedVisitor<'g, V> {
    v: V,
    g: Guide<'g>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for GuidedVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }

    #[inline]
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<V::Value, E> {
        if !self.g.check_bool(b) {
            return Err(reject(&self.g, "boolean"));
        }
        self.v.visit_bool(b)
    }
    #[inline]
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        if !self.g.check_int(i128::from(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i64(n)
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        if !self.g.check_int(i128::from(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u64(n)
    }
    fn visit_i128<E: de::Error>(self, n: i128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_number(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i128(n)
    }
    fn visit_u128<E: de::Error>(self, n: u128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_number(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u128(n)
    }
    #[inline]
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<V::Value, E> {
        if !n.is_finite() || !self.g.check_num(n.fract() == 0.0, || Number::from_f64(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_f64(n)
    }
    fn visit_char<E: de::Error>(self, c: char) -> Result<V::Value, E> {
        if !self.g.check_str(c.encode_utf8(&mut [0; 4])) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_char(c)
    }
    #[inline]
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_str(s)
    }
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_borrowed_str(s)
    }
    #[inline]
    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        if !self.g.check_str(&s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_string(s)
    }
    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<V::Value, E> {
        self.v.visit_bytes(b)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<V::Value, E> {
        self.v.visit_borrowed_bytes(b)
    }
    fn visit_byte_buf<E: de::Error>(self, b: Vec<u8>) -> Result<V::Value, E> {
        self.v.visit_byte_buf(b)
    }
    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_none()
    }
    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_unit()
    }
    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        match self.g.mode {
            Mode::NullOnly => Err(reject(&self.g, "a value where only null is read as absent")),
            Mode::Free => self.v.visit_some(d),
            _ => self.v.visit_some(Guided { de: d, g: self.g }),
        }
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(Guided { de: d, g: self.g })
    }
    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let (items, prefix, min, max): (_, &[NodeId], _, _) = match self.g.mode {
            Mode::Node(i, _) => {
                if i.types != 0 && i.types & T_ARR == 0 {
                    return Err(reject(&self.g, "array"));
                }
                let items = i.items.map(|id| &self.g.cx.info[id]);
                (items, &i.prefix, i.min_items, i.max_items)
            }
            Mode::Free => (None, &[], 0, u64::MAX),
            Mode::NullOnly | Mode::Capture(..) => return Err(reject(&self.g, "array")),
        };
        self.v.visit_seq(GuidedSeq {
            seq,
            cx: self.g.cx,
            items,
            prefix,
            count: 0,
            min,
            max,
        })
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let (info, union) = match self.g.mode {
            Mode::Node(i, _) => {
                if i.types != 0 && i.types & T_OBJ == 0 {
                    return Err(reject(&self.g, "object"));
                }
                (Some(i), i.union.map(|u| &self.g.cx.plan.unions[u]))
            }
            Mode::Free => (None, None),
            Mode::NullOnly | Mode::Capture(..) => return Err(reject(&self.g, "object")),
        };
        self.v
            .visit_map(GuidedMap::new(map, self.g.cx, info, union))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(GuidedEnum { data, g: self.g })
    }
}

/// An externally tagged enum, read by serde_json's own `deserialize_enum` (a unit variant's
/// name, or an object whose one member is the variant and its payload): the variant's name picks
/// the payload's schema as the type's own seed reads it.
struct ExternalVisitor<'g, V> {
    v: V,
    cx: &'g Cx<'g>,
    info: &'g Info,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ExternalVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(ExternalEnum {
            data,
            cx: self.cx,
            info: self.info,
        })
    }
}

/// What the name of an externally tagged enum's variant turned out to be.
#[derive(Clone, Copy)]
enum Found {
    /// A name the schema does not list, a unit variant's name as an object's key (the schema
    /// writes unit variants as strings only), or a unit variant's name not read from the text
    /// itself (escaped: where it stands is not known here).
    Unknown,
    /// A unit variant's name, as a string value.
    Unit,
    /// The name of a variant with a payload: the payload's node.
    Payload(NodeId),
}

/// Finds which variant a name read by the type's own seed is (see [`Found`]).
struct VariantLookup<'g> {
    info: &'g Info,
    text: &'g [u8],
    found: Found,
}

impl Note for VariantLookup<'_> {
    #[inline]
    fn note(&mut self, s: &str) {
        let Some(v) = self
            .info
            .variants
            .iter()
            .find(|(name, _)| same_key(name.as_bytes(), s.as_bytes()))
        else {
            return;
        };
        self.found = match v.1 {
            Some(id) => Found::Payload(id),
            None if followed_by_colon(self.text, s) == Some(false) => Found::Unit,
            None => Found::Unknown,
        };
    }
}

/// Whether `s`, a string serde_json borrowed from `text`, is an object's key there (followed by
/// `:`) rather than a value; `None` when `s` is not a slice of `text` (an escaped string, which
/// serde_json unescapes into a buffer of its own).
#[inline]
fn followed_by_colon(text: &[u8], s: &str) -> Option<bool> {
    // Addresses only: a string before `text` wraps around to an offset past its end.
    let start = (s.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    if start > text.len() {
        return None;
    }
    let mut at = start + s.len();
    if text.get(at) != Some(&b'"') {
        return None;
    }
    at += 1;
    while let Some(&b) = text.get(at) {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b':' => return Some(true),
            _ => return Some(false),
        }
    }
    Some(false)
}

/// serde_json's enum access, with the variant's name noted as the type's seed reads it.
struct ExternalEnum<'g, A> {
    data: A,
    cx: &'g Cx<'g>,
    info: &'g Info,
}

impl<'de, 'g, A: de::EnumAccess<'de>> de::EnumAccess<'de> for ExternalEnum<'g, A> {
    type Error = A::Error;
    type Variant = ExternalVariant<'g, A::Variant>;
    #[inline]
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let mut lookup = VariantLookup {
            info: self.info,
            text: self.cx.text,
            found: Found::Unknown,
        };
        let (key, variant) = self.data.variant_seed(KeySeed {
            seed,
            lookup: &mut lookup,
        })?;
        Ok((
            key,
            ExternalVariant {
                variant,
                cx: self.cx,
                found: lookup.found,
            },
        ))
    }
}

/// serde_json's variant access, the payload checked against its variant's schema. A unit
/// variant is taken only as a string, a payload only for a variant the schema gives one (serde_json
/// itself rejects a payload variant written as a string, and an object of more than one member).
struct ExternalVariant<'g, A> {
    variant: A,
    cx: &'g Cx<'g>,
    found: Found,
}

impl<'g, A> ExternalVariant<'g, A> {
    #[inline]
    fn payload<E: de::Error>(&self) -> Result<Guide<'g>, E> {
        match self.found {
            Found::Payload(id) => Ok(self.cx.guide(id, false)),
            _ => Err(fail("an enum object names a variant with a payload")),
        }
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for ExternalVariant<'_, A> {
    type Error = A::Error;
    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        match self.found {
            Found::Unit => self.variant.unit_variant(),
            _ => Err(fail("a unit variant is a string")),
        }
    }
    #[inline]
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        let g = self.payload()?;
        self.variant.newtype_variant_seed(GuidedSeed { seed, g })
    }
    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let g = self.payload()?;
        self.variant
            .tuple_variant(len, GuidedVisitor { v: visitor, g })
    }
    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let g = self.payload()?;
        self.variant
            .struct_variant(fields, GuidedVisitor { v: visitor, g })
    }
}

struct GuidedEnum<'g, A> {
    data: A,
    g: Guide<'g>,
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for GuidedEnum<'_, A> {
    type Error = A::Error;
    type Variant = A::Variant;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.data.variant_seed(GuidedSeed { seed, g: self.g })
    }
}

struct GuidedSeq<'g, A> {
    seq: A,
    cx: &'g Cx<'g>,
    /// The node of the items after `prefix` (`None`: anything goes). Kept as the node rather
    /// than a guide, so that each item's guide is built from two words instead of copied.
    items: Option<&'g Info>,
    /// The nodes of the first items, one per position (a tuple).
    prefix: &'g [NodeId],
    count: u64,
    min: u64,
    max: u64,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for GuidedSeq<'_, A> {
    type Error = A::Error;
    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let g = match self.prefix.get(self.count as usize) {
            Some(&id) => self.cx.guide(id, false),
            None => Guide {
                cx: self.cx,
                mode: match self.items {
                    Some(i) => Mode::Node(i, false),
                    None => Mode::Free,
                },
            },
        };
        match self.seq.next_element_seed(GuidedSeed { seed, g })? {
            Some(v) => {
                self.count += 1;
                if self.count > self.max {
                    return Err(fail("too many items"));
                }
                Ok(Some(v))
            }
            None => {
                if self.count < self.min {
                    return Err(fail("too few items"));
                }
                Ok(None)
            }
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// [`Lookup::found`] when the key named no property of the object (or union).
const UNKNOWN: usize = usize::MAX - 1;
/// [`Lookup::found`] when the key was not read as a string (an integer or enum key): its name
/// is not known here.
const OPAQUE: usize = usize::MAX;

/// Finds which property a key names, trying the one after the last first (a model writes
/// properties in schema order).
struct Lookup<'g> {
    names: &'g [Box<str>],
    next: usize,
    /// What the last key named: the index of the property in `names`, [`UNKNOWN`] or
    /// [`OPAQUE`].
    found: usize,
    /// Every key so far named the property after the previous one, starting from the first
    /// (and there are at most 64): the properties seen are exactly the first `next`, none
    /// twice, so the map need not note each one.
    ordered: bool,
    /// How many properties had been seen in order when `ordered` was cleared.
    ordered_upto: usize,
    /// The hashes of the keys read that name no property, to find one written twice (which
    /// `from_llm` rejects: the slow path, which compares the keys themselves, reports it), and
    /// whether the last key's hash was seen before.
    others: Option<Box<KeyHashes>>,
    again: bool,
}

/// The hashes of an object's keys that name no property (boxed in [`Lookup`], which most
/// objects use without one).
#[derive(Default)]
struct KeyHashes(std::collections::HashSet<u64>);

/// Learns which name a key (or an enum's variant) is as the type's own seed reads it.
trait Note {
    /// The name just read, when it was read as a string.
    fn note(&mut self, s: &str);
}

impl Note for Lookup<'_> {
    #[inline(always)]
    fn note(&mut self, s: &str) {
        if let Some(k) = self.names.get(self.next) {
            if same_key(k.as_bytes(), s.as_bytes()) {
                self.found = self.next;
                self.next += 1;
                return;
            }
        }
        self.scan(s);
    }
}

impl Lookup<'_> {
    /// The key is not the next property in schema order: look at all of them.
    #[inline(never)]
    fn scan(&mut self, s: &str) {
        if self.ordered {
            self.ordered = false;
            self.ordered_upto = self.next;
        }
        self.found = match self
            .names
            .iter()
            .position(|k| same_key(k.as_bytes(), s.as_bytes()))
        {
            Some(i) => {
                self.next = i + 1;
                i
            }
            None => {
                let others = self.others.get_or_insert_with(Default::default);
                // FNV-1a: a collision only sends the text down the slow path.
                let hash = s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
                self.again = !others.0.insert(hash);
                UNKNOWN
            }
        };
    }
}

/// The first `n` bits.
fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Byte equality without a call to `memcmp` for the short keys of a model's objects: eight
/// bytes at a time, the last (overlapping) word closing the comparison.
#[inline(always)]
fn same_key(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let word =
            |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
        let mut at = 0;
        while at + 8 < n {
            if word(a, at) != word(b, at) {
                return false;
            }
            at += 8;
        }
        return word(a, n - 8) == word(b, n - 8);
    }
    if n >= 4 {
        let word =
            |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    // One to three bytes: the first, middle and last cover them all.
    n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1])
}

/// Hands an object key to the type's own seed, noting on the way which property it names.
struct KeySeed<'l, S, N> {
    seed: S,
    lookup: &'l mut N,
}

impl<'de, S: DeserializeSeed<'de>, N: Note> DeserializeSeed<'de> for KeySeed<'_, S, N> {
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
}

struct KeyDe<'l, D, N> {
    de: D,
    lookup: &'l mut N,
}

impl<'de, D: Deserializer<'de>, N: Note> Deserializer<'de> for KeyDe<'_, D, N> {
    type Error = D::Error;
    forward_deserializer!(@wrapper self, visitor => KeyVisitor { v: visitor, lookup: self.lookup });
}

struct KeyVisitor<'l, V, N> {
    v: V,
    lookup: &'l mut N,
}

macro_rules! key_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, x: $ty) -> Result<V::Value, E> {
            self.v.$method(x)
        }
    )*};
}

impl<'de, V: Visitor<'de>, N: Note> Visitor<'de> for KeyVisitor<'_, V, N> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        self.lookup.note(s);
        self.v.visit_str(s)
    }
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        self.lookup.note(s);
        self.v.visit_borrowed_str(s)
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        self.lookup.note(&s);
        self.v.visit_string(s)
    }
    key_visit! {
        visit_bool(bool); visit_i64(i64); visit_u64(u64); visit_i128(i128); visit_u128(u128);
        visit_f64(f64); visit_char(char); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_some(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.v.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.v.visit_map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(KeyEnum {
            data,
            lookup: self.lookup,
        })
    }
}

/// An enum read from a key (a map keyed by a unit enum): its variant name is the key.
struct KeyEnum<'l, A, N> {
    data: A,
    lookup: &'l mut N,
}

impl<'de, A: de::EnumAccess<'de>, N: Note> de::EnumAccess<'de> for KeyEnum<'_, A, N> {
    type Error = A::Error;
    type Variant = A::Variant;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.data.variant_seed(KeySeed {
            seed,
            lookup: self.lookup,
        })
    }
}

struct GuidedMap<'g, A> {
    map: A,
    cx: &'g Cx<'g>,
    /// The object's node (`None`: anything goes).
    info: Option<&'g Info>,
    /// The properties of a plain object (empty for a union or anything-goes object), so that
    /// `props.get(found)` both tells a known key and finds its node.
    props: &'g [Prop],
    union: Option<&'g Union>,
    /// The union branch the tag named.
    branch: Cell<Option<usize>>,
    lookup: Lookup<'g>,
    /// Properties seen (bits over the first 64 of the object's or union's names) once the
    /// keys left schema order (before, `lookup` knows them), and which union properties were
    /// `null`.
    seen: u64,
    nulls: u64,
    /// `seen` has been filled in from `lookup` (the keys left schema order).
    tracking: bool,
    /// Required properties of a plain object seen beyond the first 64.
    required_beyond: usize,
}

impl<'de, 'g, A: MapAccess<'de>> GuidedMap<'g, A> {
    #[inline(always)]
    fn new(map: A, cx: &'g Cx<'g>, info: Option<&'g Info>, union: Option<&'g Union>) -> Self {
        let (names, props): (&[Box<str>], &[Prop]) = match (union, info) {
            (Some(u), _) => (&u.names, &[]),
            (None, Some(i)) => (&i.names, &i.props),
            (None, None) => (&[], &[]),
        };
        GuidedMap {
            map,
            cx,
            info,
            props,
            union,
            branch: Cell::new(None),
            lookup: Lookup {
                names,
                next: 0,
                found: OPAQUE,
                ordered: names.len() <= 64,
                ordered_upto: 0,
                others: None,
                again: false,
            },
            seen: 0,
            nulls: 0,
            tracking: false,
            required_beyond: 0,
        }
    }

    /// The properties seen so far (bits over the first 64 names).
    #[inline(always)]
    fn seen(&self) -> u64 {
        if self.lookup.ordered {
            low_bits(self.lookup.next)
        } else {
            self.seen
        }
    }

    #[inline(always)]
    fn finish(&self) -> Result<(), A::Error> {
        if let Some(u) = self.union {
            return self.finish_union(u);
        }
        if let Some(i) = self.info {
            let seen = self.seen();
            if seen & i.required_mask != i.required_mask
                || self.required_beyond < i.required_beyond
                || i.required_undefined
                || (i.exactly_one && seen.count_ones() != 1)
            {
                return Err(fail("a required property is missing"));
            }
        }
        Ok(())
    }

    #[inline(never)]
    fn finish_union(&self, u: &Union) -> Result<(), A::Error> {
        let Some(b) = self.branch.get() else {
            return Err(fail("the tag is missing"));
        };
        let present = self.seen() & !self.nulls;
        if present & !u.allowed[b] != 0 || u.required[b] & !present != 0 {
            return Err(fail("properties do not match the variant"));
        }
        Ok(())
    }

    /// Notes the key just read once keys have left schema order: a duplicate is an error.
    #[inline(never)]
    fn track(&mut self) -> Result<(), A::Error> {
        if std::mem::take(&mut self.lookup.again) {
            return Err(fail("a key written twice"));
        }
        if !self.tracking {
            self.tracking = true;
            self.seen = low_bits(self.lookup.ordered_upto);
        }
        let i = self.lookup.found;
        if i < self.lookup.names.len() {
            if i < 64 {
                let bit = 1u64 << i;
                if self.seen & bit != 0 {
                    return Err(fail("duplicate property"));
                }
                self.seen |= bit;
            } else if self.props.get(i).is_some_and(|p| p.required) {
                self.required_beyond += 1;
            }
        }
        Ok(())
    }

    fn guide(&self, mode: Mode<'g>) -> Guide<'g> {
        Guide { cx: self.cx, mode }
    }

    /// The value of a key that names no property of a plain object: a union's property, an
    /// unknown or opaque key, or any key of an anything-goes object.
    #[inline(never)]
    fn other_value<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let found = self.lookup.found;
        if let Some(u) = self.union {
            return self.union_value(u, found, seed);
        }
        let Some(info) = self.info else {
            let g = self.guide(Mode::Free);
            return self.map.next_value_seed(GuidedSeed { seed, g });
        };
        if found == OPAQUE && !info.props.is_empty() {
            // The key was not read as a string, so which property it names is not known.
            return Err(fail("needs the slow path"));
        }
        let g = match info.additional {
            Additional::Allowed => self.guide(Mode::Free),
            Additional::Forbidden => self.guide(Mode::NullOnly),
            Additional::Schema(id) => self.cx.guide(id, false),
        };
        self.map.next_value_seed(GuidedSeed { seed, g })
    }
}

impl<'de, 'g, A: MapAccess<'de>> MapAccess<'de> for GuidedMap<'g, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.lookup.found = OPAQUE;
        let key = self.map.next_key_seed(KeySeed {
            seed,
            lookup: &mut self.lookup,
        })?;
        if key.is_none() {
            self.finish()?;
            return Ok(None);
        }
        if !self.lookup.ordered {
            self.track()?;
        }
        Ok(key)
    }

    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.props.get(self.lookup.found) {
            Some(p) => {
                let g = self.cx.guide(p.node, p.null_absent);
                self.map.next_value_seed(GuidedSeed { seed, g })
            }
            None => self.other_value(seed),
        }
    }

    #[inline(always)]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>, A::Error> {
        self.next_key_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V, A::Error> {
        self.next_value_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'de, 'g, A: MapAccess<'de>> GuidedMap<'g, A> {
    /// The value of a property of a tagged union of objects.
    fn union_value<S: DeserializeSeed<'de>>(
        &mut self,
        u: &'g Union,
        found: usize,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        let i = match found {
            OPAQUE => return Err(fail("needs the slow path")),
            UNKNOWN => {
                let g = self.guide(Mode::NullOnly);
                return self.map.next_value_seed(GuidedSeed { seed, g });
            }
            i => i,
        };
        if i == u.tag_index {
            let capture = Capture {
                union: u,
                branch: &self.branch,
            };
            let g = Guide {
                cx: self.cx,
                mode: Mode::Capture(&capture),
            };
            return self.map.next_value_seed(GuidedSeed { seed, g });
        }
        let g = match self.branch.get() {
            Some(b) => match u.by_branch[b][i] {
                Some(id) => self.cx.guide(id, true),
                None => self.guide(Mode::NullOnly),
            },
            None => match u.keys[i] {
                Some(id) => self.cx.guide(id, true),
                // The branch is not known yet and the branches disagree on this property.
                None => return Err(fail("needs the slow path")),
            },
        };
        let null_probe = Cell::new(false);
        let value = self.map.next_value_seed(NullProbe {
            seed: GuidedSeed { seed, g },
            was_null: &null_probe,
        })?;
        if null_probe.get() {
            self.nulls |= 1u64 << i;
        }
        Ok(value)
    }
}

/// Notes whether the value was `null`, so a `null` union property counts as absent.
struct NullProbe<'p, S> {
    seed: S,
    was_null: &'p Cell<bool>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NullProbe<'_, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(ProbeDe {
            de: d,
            was_null: self.was_null,
        })
    }
}

struct ProbeDe<'p, D> {
    de: D,
    was_null: &'p Cell<bool>,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ProbeDe<'_, D> {
    type Error = D::Error;
    forward_deserializer!(@wrapper self, visitor => ProbeVisitor { v: visitor, was_null: self.was_null });
}

struct ProbeVisitor<'p, V> {
    v: V,
    was_null: &'p Cell<bool>,
}

macro_rules! probe_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, x: $ty) -> Result<V::Value, E> {
            self.v.$method(x)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ProbeVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    probe_visit! {
        visit_bool(bool); visit_i64(i64); visit_u64(u64); visit_i128(i128); visit_u128(u128);
        visit_f64(f64); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.was_null.set(true);
        self.v.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.was_null.set(true);
        self.v.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_some(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.v.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.v.visit_map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(data)
    }
}

#[cfg(test)]
mod tests {
    use super::fast_path;
    use crate::AgentSchema;
    use serde::Deserialize;

    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    enum Shape {
        Circle {
            #[schema(minimum = 0)]
            r: f64,
            label: Option<String>,
        },
        Square {
            side: u32,
            label: Option<String>,
        },
    }

    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    struct Doc {
        #[schema(max_length = 5, pattern = "^[a-z]+$")]
        name: String,
        #[schema(max_items = 2)]
        shapes: Vec<Shape>,
        note: Option<String>,
        #[serde(default)]
        tags: Vec<String>,
    }

    fn fast(text: &str) -> bool {
        fast_path::<Doc>(Doc::type_cache().plan(Doc::schema_type()), text).is_some()
    }

    #[test]
    fn valid_input_takes_the_fast_path() {
        assert!(fast(
            r#"{"name":"ab","shapes":[{"kind":"circle","r":1.5},{"side":2,"kind":"square","label":null}]}"#
        ));
        assert!(fast(
            r#"{"name":"ab","shapes":[],"note":null,"tags":["x"]}"#
        ));
        // null for a property of the other variant reads as absent (OpenAI strict writes these)
        assert!(fast(
            r#"{"name":"ab","shapes":[{"kind":"square","side":1,"r":null}]}"#
        ));
    }

    #[derive(AgentSchema, Deserialize, Debug)]
    #[allow(dead_code)] // only parsed
    struct Word {
        #[schema(min_length = 2, max_length = 3)]
        w: String,
    }

    /// Lengths count characters, not bytes, on either side of the byte-length shortcut.
    #[test]
    fn lengths_count_characters() {
        let fast = |w: &str| {
            let text = serde_json::json!({ "w": w }).to_string();
            fast_path::<Word>(Word::type_cache().plan(Word::schema_type()), &text).is_some()
        };
        for ok in ["ab", "abc", "éé", "ééé", "日本語", "😀😀😀", "a😀"] {
            assert!(fast(ok), "{ok}");
        }
        for bad in ["a", "abcd", "é", "éééé", "😀", "日本語日", "😀😀😀😀"] {
            assert!(!fast(bad), "{bad}");
        }
    }

    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    enum Step {
        Stop,
        Say(#[schema(max_length = 3)] String),
        Move(i32, i32),
        Search { query: String, limit: Option<u8> },
    }

    /// An externally tagged enum takes the fast path in both its forms, and its payloads are
    /// checked.
    #[test]
    fn externally_tagged_enums() {
        let fast = |t: &str| {
            fast_path::<Vec<Step>>(
                Vec::<Step>::type_cache().plan(Vec::<Step>::schema_type()),
                t,
            )
        };
        assert_eq!(
            fast(r#"["Stop",{"Say":"hi"},{"Move":[1,-2]},{"Search":{"query":"q","limit":null}}]"#),
            Some(vec![
                Step::Stop,
                Step::Say("hi".into()),
                Step::Move(1, -2),
                Step::Search {
                    query: "q".into(),
                    limit: None
                },
            ])
        );
        // A unit variant's name is told from an object's key by what follows it in the text
        // (whitespace included); an escaped name is left to the slow path.
        assert_eq!(
            fast("[ \"Stop\" ,\n\"Stop\"\t]"),
            Some(vec![Step::Stop, Step::Stop])
        );
        assert_eq!(fast(r#"["St\u006fp"]"#), None);
        for bad in [
            r#"["Say"]"#,
            r#"[{"Stop":null}]"#,
            r#"[{"Say":"long"}]"#,
            r#"[{"Say":"a","Stop":null}]"#,
            r#"[{"Move":[1]}]"#,
            r#"[{"Move":[1,2,3]}]"#,
            r#"[{"Search":{"query":"q","extra":1}}]"#,
            r#"[{}]"#,
            r#"[{"Stop":1}]"#,
            r#"[{"Stop" :null}]"#,
            r#"[{"Stop"
:null}]"#,
            r#"[{"Say":"a"}, {"Stop"	: null}]"#,
            r#"[{"Stop":{}}]"#,
            r#"["Move"]"#,
            r#"["Fly"]"#,
            r#"[{"Fly":1}]"#,
            r#"[{"Move":{"0":1,"1":2}}]"#,
            r#"[{"Search":["q",1]}]"#,
            r#"[1]"#,
            r#"[null]"#,
        ] {
            assert!(fast(bad).is_none(), "{bad}");
        }
    }

    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    struct Ints {
        #[schema(minimum = -5, maximum = 10)]
        a: i64,
        b: u64,
        #[schema(minimum = 3)]
        c: i128,
        #[schema(exclusive_maximum = 4)]
        d: i32,
    }

    /// Integer bounds checked by two comparisons agree with the bounds as written: at each end,
    /// one past it, and across the `i64` / `u64` boundary.
    #[test]
    fn integer_bounds() {
        let fast = |t: &str| fast_path::<Ints>(Ints::type_cache().plan(Ints::schema_type()), t);
        let ints = |a, b, c, d| Ints { a, b, c, d };
        let text =
            |a: &str, b: &str, c: &str, d: &str| format!(r#"{{"a":{a},"b":{b},"c":{c},"d":{d}}}"#);
        for (a, b, c, d, want) in [
            ("-5", "0", "3", "3", Some(ints(-5, 0, 3, 3))),
            (
                "10",
                "18446744073709551615",
                "9223372036854775808",
                "-2147483648",
                Some(ints(10, u64::MAX, 9_223_372_036_854_775_808, i32::MIN)),
            ),
            ("-6", "0", "3", "3", None),
            ("11", "0", "3", "3", None),
            ("10", "0", "2", "3", None),
            ("10", "0", "3", "4", None),
            ("10", "-1", "3", "3", None),
            ("1.0", "0", "3", "3", None),
        ] {
            assert_eq!(fast(&text(a, b, c, d)), want, "{a} {b} {c} {d}");
        }
    }

    /// The word-at-a-time key comparison agrees with plain equality at every length.
    #[test]
    fn same_key_is_byte_equality() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..base.len() {
            let a = &base[..n];
            assert!(super::same_key(a, a));
            for at in 0..n {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!super::same_key(a, &b), "{n} {at}");
            }
            assert!(!super::same_key(a, &base[..n + 1]));
        }
    }

    /// Keys in any order, escaped keys, and an unknown key given `null` in a closed object.
    #[test]
    fn keys_in_any_form() {
        assert!(fast(r#"{"shapes":[],"name":"ab"}"#));
        assert!(fast(r#"{"n\u0061me":"ab","shapes":[]}"#));
        assert!(fast(r#"{"name":"ab","gone":null,"shapes":[]}"#));
        assert!(!fast(r#"{"name":"ab","name":"cd","shapes":[]}"#));
        assert!(!fast(r#"{"name":"ab","gone":1,"shapes":[]}"#));
    }

    /// While keys come in schema order the seen set is implied; once they leave it, every key
    /// is noted, those read in order before included.
    #[test]
    fn keys_leaving_schema_order() {
        // in order, then a duplicate of an earlier one
        assert!(!fast(r#"{"name":"ab","shapes":[],"name":"cd"}"#));
        // out of order, then a duplicate found in the "next" slot
        assert!(!fast(r#"{"shapes":[],"name":"ab","shapes":[]}"#));
        // an unknown key first, then the properties in order
        assert!(fast(r#"{"gone":null,"name":"ab","shapes":[]}"#));
        assert!(!fast(r#"{"gone":null,"name":"ab","shapes":[],"name":"x"}"#));
        // a skipped optional property, then one after it, then the skipped one
        assert!(fast(r#"{"name":"ab","shapes":[],"tags":[],"note":"n"}"#));
        assert!(!fast(
            r#"{"name":"ab","shapes":[],"tags":[],"note":"n","tags":[]}"#
        ));
        // a required property missing, in order and out of it
        assert!(!fast(r#"{"name":"ab"}"#));
        assert!(!fast(r#"{"note":null,"name":"ab"}"#));
        assert!(!fast(r#"{"name":"ab","note":null,"tags":[]}"#));
        // every property, in order
        assert!(fast(r#"{"name":"ab","shapes":[],"note":null,"tags":[]}"#));
    }

    #[test]
    fn every_violation_is_caught() {
        for bad in [
            r#"{"name":"abcdef","shapes":[]}"#,
            r#"{"name":"AB","shapes":[]}"#,
            r#"{"name":"ab","shapes":[{"kind":"circle","r":1},{"kind":"circle","r":1},{"kind":"circle","r":1}]}"#,
            r#"{"name":"ab","shapes":[{"kind":"circle","r":-1}]}"#,
            r#"{"name":"ab","shapes":[{"kind":"circle","r":1,"side":2}]}"#,
            r#"{"name":"ab","shapes":[{"kind":"hexagon"}]}"#,
            r#"{"name":"ab","shapes":[{"r":1}]}"#,
            r#"{"name":"ab","shapes":[],"extra":1}"#,
            r#"{"name":"ab","shapes":[{"kind":"square","side":-1}]}"#,
            r#"{"name":null,"shapes":[]}"#,
        ] {
            assert!(!fast(bad), "{bad}");
            assert!(Doc::from_json(bad).is_err(), "{bad}");
        }
    }
}
