//! The fast path: deserializing straight into the typed value while checking the schema.
//!
//! A wrapper around serde_json's deserializer walks the compiled schema in step with the value:
//! every string, number, array and object that reaches the type's `Deserialize` impl is checked
//! on the way (types, lengths, bounds, `enum`/`const`, unknown and missing properties, the exact
//! variant of a tagged enum). The first violation aborts; the caller then takes the slow path,
//! which parses a `Value` and collects every error. Valid input therefore costs one pass, close
//! to plain `serde_json::from_str::<T>`.
//!
//! Schemas with keywords that cannot be checked in one pass (`allOf`, `not`, `uniqueItems`,
//! `patternProperties`, unions that are neither nullable nor tagged) have no plan and always take
//! the slow path.

use super::check::{cmp_num, is_multiple, type_names};
use super::compile::{
    deref, Additional, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use super::{format, Validator};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};
use serde_json::{Number, Value};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

/// `Some(value)` when `text` deserializes into `T` and meets every constraint; `None` sends the
/// caller down the slow path, which collects every error.
pub(crate) fn fast_path<T: DeserializeOwned>(plan: Option<&Plan>, text: &str) -> Option<T> {
    let plan = plan?;
    let mut de = serde_json::Deserializer::from_str(text);
    let guide = plan.guide(plan.root, false);
    let value = T::deserialize(Guided {
        de: &mut de,
        g: guide,
    })
    .ok()?;
    de.end().ok()?;
    Some(value)
}

/// What the fast path knows about one node, beyond the node itself.
#[derive(Clone, Default)]
struct Info {
    /// The node after pure `$ref`s and `anyOf [X, null]` are looked through.
    target: NodeId,
    /// `null` is accepted here (`anyOf [X, null]`, or `null` in `type`).
    nullable: bool,
    /// String values allowed by `oneOf` of `const`s (a documented string enum).
    consts: Option<Vec<String>>,
    /// Index into `Plan::unions` for a tagged union of objects.
    union: Option<usize>,
    /// The properties of an object node: name, node, required. A linear scan beats hashing for
    /// the handful of properties a model's object has.
    props: Vec<(Box<str>, NodeId, bool)>,
}

/// A tagged union of closed objects, keyed the same across branches where possible.
struct Union {
    /// Index of the tag in `keys`.
    tag_index: usize,
    /// Tag value -> branch index.
    branches: Vec<(String, NodeId)>,
    /// Every property name of every branch; the node when it is the same in all branches.
    keys: Vec<(String, Option<NodeId>)>,
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
        if !n.all_of.is_empty()
            || n.not.is_some()
            || !n.prefix_items.is_empty()
            || n.unique_items
            || !n.pattern_properties.is_empty()
            || n.property_names.is_some()
            || n.min_properties.is_some()
            || n.max_properties.is_some()
            || n.falsy
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
        nullable |= n.types & T_NULL != 0;
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
        let props = n
            .properties
            .iter()
            .map(|(k, id)| (k.as_str().into(), *id, n.required.contains(k)))
            .collect();
        Some(Info {
            target,
            nullable,
            consts,
            union,
            props,
        })
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
            keys,
            allowed,
            required,
        });
        Some(unions.len() - 1)
    }

    fn guide(&self, id: NodeId, optional: bool) -> Guide<'_> {
        let info = &self.info[id];
        Guide {
            plan: self,
            node: Some(info.target),
            info: Some(info),
            optional,
            null_only: false,
            capture: None,
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

/// Where the walk is: the node the current value must match.
#[derive(Clone, Copy)]
struct Guide<'g> {
    plan: &'g Plan,
    /// `None`: anything goes (no checks).
    node: Option<NodeId>,
    info: Option<&'g Info>,
    /// The value is an optional property: `null` reads as absent.
    optional: bool,
    /// The property is unknown here: only `null` (read as absent) is accepted.
    null_only: bool,
    /// The value is a union's tag: record which branch it names.
    capture: Option<(&'g Union, &'g Cell<Option<usize>>)>,
}

impl<'g> Guide<'g> {
    fn node(&self) -> Option<&'g Node> {
        self.node.map(|id| &self.plan.nodes()[id])
    }

    fn allows(&self, bits: u8) -> bool {
        if self.null_only {
            return false;
        }
        match self.node() {
            None => true,
            Some(n) => n.types == 0 || n.types & bits != 0,
        }
    }

    fn child(&self, id: NodeId, optional: bool) -> Guide<'g> {
        self.plan.guide(id, optional)
    }

    fn free(&self) -> Guide<'g> {
        Guide {
            node: None,
            info: None,
            optional: false,
            null_only: false,
            capture: None,
            ..*self
        }
    }

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

    fn check_str(&self, s: &str) -> bool {
        if let Some((u, cell)) = self.capture {
            match u.branches.iter().position(|(t, _)| t == s) {
                Some(i) => cell.set(Some(i)),
                None => return false,
            }
            return true;
        }
        if !self.allows(T_STR) {
            return false;
        }
        let Some(n) = self.node() else { return true };
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
        if let Some(consts) = self.info.and_then(|i| i.consts.as_ref()) {
            if !consts.iter().any(|c| c == s) {
                return false;
            }
        }
        if n.min_length.is_some() || n.max_length.is_some() {
            let within = |len: u64| {
                n.min_length.is_none_or(|m| len >= m) && n.max_length.is_none_or(|m| len <= m)
            };
            // A string has between a quarter of its byte length and its byte length in
            // characters: when both ends are within bounds, counting is not needed.
            let bytes = s.len() as u64;
            let quick = within(bytes.div_ceil(4)) && within(bytes);
            if !quick && !within(s.chars().count() as u64) {
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

    fn check_num(&self, num: Number) -> bool {
        let integral =
            num.is_i64() || num.is_u64() || num.as_f64().is_some_and(|f| f.fract() == 0.0);
        let bits = if integral { T_INT | T_NUM } else { T_NUM };
        if !self.allows(bits) {
            return false;
        }
        let Some(n) = self.node() else { return true };
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
        if n.const_value.is_some() || n.enum_values.is_some() {
            return self.check_scalar(&Value::Number(num));
        }
        true
    }

    fn check_null(&self) -> bool {
        if self.null_only || self.optional || self.node.is_none() {
            return true;
        }
        self.info.is_some_and(|i| i.nullable)
            || self
                .node()
                .is_some_and(|n| n.types == 0 && n.const_value.is_none() && n.enum_values.is_none())
    }
}

fn reject<E: de::Error>(g: &Guide<'_>, what: &str) -> E {
    let expected = g.node().map(|n| type_names(n.types)).unwrap_or_default();
    E::custom(format_args!("schema: {what} (expected {expected})"))
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
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        if self.g.node.is_none() && !self.g.null_only && self.g.capture.is_none() {
            return self.seed.deserialize(d);
        }
        self.seed.deserialize(Guided { de: d, g: self.g })
    }
}

/// Every `Deserializer` method but `deserialize_ignored_any` and `is_human_readable`, forwarded
/// to `self.de` with the visitor wrapped by the given expression.
macro_rules! forward_deserializer {
    ($self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_any; deserialize_bool; deserialize_i8; deserialize_i16; deserialize_i32;
            deserialize_i64; deserialize_i128; deserialize_u8; deserialize_u16; deserialize_u32;
            deserialize_u64; deserialize_u128; deserialize_f32; deserialize_f64; deserialize_char;
            deserialize_str; deserialize_string; deserialize_bytes; deserialize_byte_buf;
            deserialize_option; deserialize_unit; deserialize_seq; deserialize_map;
            deserialize_identifier;
            deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str);
            deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_struct(name: &'static str, fields: &'static [&'static str]);
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        }
    };
    (@methods $self_:ident, $visitor:ident => $wrap:expr; $($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {$(
        fn $method<V: Visitor<'de>>($self_, $($($arg: $ty,)*)? $visitor: V) -> Result<V::Value, D::Error> {
            $self_.de.$method($($($arg,)*)? $wrap)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guided<'_, D> {
    type Error = D::Error;
    forward_deserializer!(self, visitor => GuidedVisitor { v: visitor, g: self.g });
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

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<V::Value, E> {
        if !self.g.allows(T_BOOL) || !self.g.check_scalar(&Value::Bool(b)) {
            return Err(reject(&self.g, "boolean"));
        }
        self.v.visit_bool(b)
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        if !self.g.check_num(n.into()) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i64(n)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        if !self.g.check_num(n.into()) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u64(n)
    }
    fn visit_i128<E: de::Error>(self, n: i128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_num(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i128(n)
    }
    fn visit_u128<E: de::Error>(self, n: u128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_num(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u128(n)
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<V::Value, E> {
        if !Number::from_f64(n).is_some_and(|num| self.g.check_num(num)) {
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
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_str(s)
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_borrowed_str(s)
    }
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
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        if self.g.null_only {
            return Err(reject(&self.g, "a value where only null is read as absent"));
        }
        self.v.visit_some(Guided { de: d, g: self.g })
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(Guided { de: d, g: self.g })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if !self.g.allows(T_ARR) || self.g.capture.is_some() {
            return Err(reject(&self.g, "array"));
        }
        let items = match self.g.node().and_then(|n| n.items) {
            Some(i) => self.g.child(i, false),
            None => self.g.free(),
        };
        let (min, max) = self
            .g
            .node()
            .map(|n| (n.min_items, n.max_items))
            .unwrap_or_default();
        self.v.visit_seq(GuidedSeq {
            seq,
            items,
            count: 0,
            min,
            max,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        if !self.g.allows(T_OBJ) || self.g.capture.is_some() {
            return Err(reject(&self.g, "object"));
        }
        let union = self
            .g
            .info
            .and_then(|i| i.union)
            .map(|u| &self.g.plan.unions[u]);
        let branch = Cell::new(None);
        self.v.visit_map(GuidedMap {
            map,
            g: self.g,
            union,
            branch: &branch,
            key: None,
            seen: 0,
            nulls: 0,
            required_seen: 0,
        })
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(GuidedEnum { data, g: self.g })
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
    items: Guide<'g>,
    count: u64,
    min: Option<u64>,
    max: Option<u64>,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for GuidedSeq<'_, A> {
    type Error = A::Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        match self.seq.next_element_seed(GuidedSeed {
            seed,
            g: self.items,
        })? {
            Some(v) => {
                self.count += 1;
                if self.max.is_some_and(|m| self.count > m) {
                    return Err(de::Error::custom("schema: too many items"));
                }
                Ok(Some(v))
            }
            None => {
                if self.min.is_some_and(|m| self.count < m) {
                    return Err(de::Error::custom("schema: too few items"));
                }
                Ok(None)
            }
        }
    }
    fn size_hint(&self) -> Option<usize> {
        self.seq.size_hint()
    }
}

/// A JSON object key, borrowed from the input when it has no escapes.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key::Borrowed(s))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key::Owned(s.to_string()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key::Owned(s))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }
}

struct GuidedMap<'g, 'c, A> {
    map: A,
    g: Guide<'g>,
    union: Option<&'g Union>,
    branch: &'c Cell<Option<usize>>,
    /// The guide of the value that follows the last key.
    key: Option<(usize, bool)>,
    /// Union keys seen (bits over `Union::keys`), and which of them were `null`.
    seen: u64,
    nulls: u64,
    /// Required properties of a plain object seen so far.
    required_seen: usize,
}

impl<'de, 'g, 'c, A: MapAccess<'de>> GuidedMap<'g, 'c, A>
where
    'g: 'c,
{
    fn finish(&self) -> Result<(), A::Error> {
        if let Some(u) = self.union {
            let Some(b) = self.branch.get() else {
                return Err(de::Error::custom("schema: the tag is missing"));
            };
            let present = self.seen & !self.nulls;
            if present & !u.allowed[b] != 0 || u.required[b] & !present != 0 {
                return Err(de::Error::custom(
                    "schema: properties do not match the variant",
                ));
            }
            return Ok(());
        }
        if let Some(n) = self.g.node() {
            if self.required_seen < n.required.len() {
                return Err(de::Error::custom("schema: a required property is missing"));
            }
        }
        Ok(())
    }
}

impl<'de, 'g, 'c, A: MapAccess<'de>> MapAccess<'de> for GuidedMap<'g, 'c, A>
where
    'g: 'c,
{
    type Error = A::Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        let Some(key) = self.map.next_key::<Key<'de>>()? else {
            self.finish()?;
            return Ok(None);
        };
        let name = key.as_str();
        self.key = None;
        if let Some(u) = self.union {
            if let Some(i) = u.keys.iter().position(|(k, _)| k == name) {
                let bit = 1u64 << i;
                if self.seen & bit != 0 {
                    return Err(de::Error::custom("schema: duplicate property"));
                }
                self.seen |= bit;
                self.key = Some((i, true));
            }
        } else if let Some(n) = self.g.node() {
            let _ = n;
            if let Some(info) = self.g.info {
                if let Some(idx) = info.props.iter().position(|(k, _, _)| **k == *name) {
                    let required = info.props[idx].2;
                    if required {
                        self.required_seen += 1;
                    }
                    self.key = Some((idx, required));
                }
            }
        }
        let out = match key {
            Key::Borrowed(s) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::<A::Error>::new(s))
            }
            Key::Owned(s) => seed.deserialize(s.into_deserializer()),
        }?;
        Ok(Some(out))
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let g = self.g;
        let unknown = Guide {
            node: None,
            info: None,
            optional: false,
            null_only: true,
            capture: None,
            ..g
        };
        let child = match (self.union, self.key) {
            (Some(u), Some((i, _))) => {
                if i == u.tag_index {
                    return self.capture_tag(u, seed);
                }
                match self.branch.get() {
                    Some(b) => match u.by_branch[b][i] {
                        Some(id) => g.child(id, true),
                        None => unknown,
                    },
                    None => match u.keys[i].1 {
                        Some(id) => g.child(id, true),
                        // The branch is not known yet and the branches disagree on this property.
                        None => return Err(de::Error::custom("schema: needs the slow path")),
                    },
                }
            }
            (Some(_), None) => unknown,
            (None, Some((idx, required))) => match g.info {
                Some(info) => g.child(info.props[idx].1, !required),
                None => g.free(),
            },
            (None, None) => match g.node().map(|n| &n.additional) {
                None | Some(Additional::Allowed) => g.free(),
                Some(Additional::Forbidden) => unknown,
                Some(Additional::Schema(id)) => g.child(*id, false),
            },
        };
        let is_union_key = self.union.is_some() && self.key.is_some();
        if !is_union_key {
            return self.map.next_value_seed(GuidedSeed { seed, g: child });
        }
        let null_probe = Cell::new(false);
        let value = self.map.next_value_seed(NullProbe {
            seed: GuidedSeed { seed, g: child },
            was_null: &null_probe,
        })?;
        if is_union_key && null_probe.get() {
            if let Some((i, _)) = self.key {
                self.nulls |= 1u64 << i;
            }
        }
        Ok(value)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'de, 'g, 'c, A: MapAccess<'de>> GuidedMap<'g, 'c, A>
where
    'g: 'c,
{
    fn capture_tag<S: DeserializeSeed<'de>>(
        &mut self,
        u: &'g Union,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        let base: Guide<'c> = self.g;
        let g = Guide {
            node: None,
            info: None,
            optional: false,
            null_only: false,
            capture: Some((u, self.branch)),
            ..base
        };
        self.map.next_value_seed(GuidedSeed { seed, g })
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
    forward_deserializer!(self, visitor => ProbeVisitor { v: visitor, was_null: self.was_null });
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.de.deserialize_ignored_any(ProbeVisitor {
            v: visitor,
            was_null: self.was_null,
        })
    }
    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
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
