//! The plan: what each node needs checked, worked out once per type ([`Info`] per node, the
//! tagged unions, externally tagged enums and tuples the guide follows), and which schemas get
//! no plan.

use super::*;

/// A `type` bit no JSON value has: the node accepts nothing (the schema `false`).
pub(super) const T_NOTHING: u8 = 0x80;

/// [`Info::fast`] bits: a value of this kind is accepted with no check beyond one bit test (a
/// string also within the byte bounds [`Info::min_bytes`] ..= [`Info::max_len`]).
pub(super) const F_BOOL: u8 = 1;
pub(super) const F_STR: u8 = 2;
pub(super) const F_INT: u8 = 4;
pub(super) const F_NUM: u8 = 8;

/// One property of an object node.
pub(super) struct Prop {
    pub(super) node: NodeId,
    pub(super) required: bool,
    /// A `null` value reads as absent (the property is optional).
    pub(super) null_absent: bool,
}

/// What the fast path knows about one node, computed once: the node after pure `$ref`s and
/// `anyOf [X, null]` are looked through, and which of its checks can apply to each kind of value.
#[derive(Default)]
pub(super) struct Info {
    /// The node after pure `$ref`s and `anyOf [X, null]` are looked through.
    pub(super) target: NodeId,
    /// The node's `type` bits (0: any type).
    pub(super) types: u8,
    /// `null` is accepted here (`anyOf [X, null]`, `null` in `type`, or no type at all).
    pub(super) null_ok: bool,
    /// `const` or `enum` is written: scalars are compared against them.
    pub(super) scalar_check: bool,
    /// A string is checked beyond its type and length: `const`, `enum`, a `oneOf` of string
    /// `const`s, `pattern` or `format`.
    pub(super) str_check: bool,
    /// `minLength` / `maxLength`, in characters (`0` / `u64::MAX` when absent).
    pub(super) len_check: bool,
    pub(super) min_len: u64,
    pub(super) max_len: u64,
    /// `4 * min_len`: a string of at least this many bytes has at least `min_len` characters
    /// (as one of at most `max_len` bytes has at most `max_len`), so counting is not needed.
    pub(super) min_bytes: u64,
    /// `F_*` bits: the kinds of scalar this node accepts with no further check.
    pub(super) fast: u8,
    /// A number is checked beyond its type: bounds, `multipleOf`, `const`, `enum`.
    pub(super) num_check: bool,
    /// When the only number checks are a `minimum` / `maximum` that are `i64`s (the bounds the
    /// derive writes for Rust's integer types, `u64` ones included): those bounds, absent ones as
    /// `i128::MIN` / `MAX`, so that an integer is checked by two comparisons.
    pub(super) int_range: Option<(i128, i128)>,
    /// The bounds an integer must be within when that is all there is to check on one (no
    /// bounds: `i128::MIN` / `MAX`); `None` when an integer has other checks or is not taken.
    pub(super) int_bounds: Option<(i128, i128)>,
    /// String values allowed by `oneOf` of `const`s (a documented string enum).
    pub(super) consts: Option<Vec<String>>,
    /// Index into `Plan::unions` for a tagged union of objects.
    pub(super) union: Option<usize>,
    /// The property names of an object node, in schema order (a linear scan beats hashing for
    /// the handful of properties a model's object has), and what each one is.
    pub(super) names: Vec<Box<str>>,
    pub(super) props: Vec<Prop>,
    /// Bits over the first 64 properties that are required; how many required properties come
    /// after those; whether `required` names a property the node does not define (such an
    /// object is left to the slow path).
    pub(super) required_mask: u64,
    pub(super) required_beyond: usize,
    pub(super) required_undefined: bool,
    /// What a property outside `properties` must be.
    pub(super) additional: Additional,
    /// Exactly one of `props` must be present (an externally tagged enum's object form).
    pub(super) exactly_one: bool,
    /// An externally tagged enum: unit variants are the strings in `consts`, the others are
    /// `{"Variant": payload}` objects whose one property is in `props`.
    pub(super) external: bool,
    /// An externally tagged enum's variants, in schema order: each name, and its payload's node
    /// (`None` for a unit variant).
    pub(super) variants: Vec<(Box<str>, Option<NodeId>)>,
    /// The items of an array node (`prefix` first, one per position, then `items`), and its
    /// bounds (`0` / `u64::MAX` when absent).
    pub(super) prefix: Vec<NodeId>,
    pub(super) items: Option<NodeId>,
    pub(super) min_items: u64,
    pub(super) max_items: u64,
}

impl Info {
    /// Fills in [`Info::fast`] and [`Info::min_bytes`] from the other fields.
    pub(super) fn with_fast_bits(mut self) -> Info {
        let takes = |bits: u8| rules::type_admits(self.types, bits);
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
pub(super) struct Union {
    /// Index of the tag in `keys`.
    pub(super) tag_index: usize,
    /// Tag value -> branch index.
    pub(super) branches: Vec<(String, NodeId)>,
    /// Every property name of every branch (the same order as `keys`).
    pub(super) names: Vec<Box<str>>,
    /// Per key: the node when it is the same in all branches.
    pub(super) keys: Vec<Option<NodeId>>,
    /// Per branch: which keys it has, and which it requires (bit masks over `keys`).
    pub(super) allowed: Vec<u64>,
    pub(super) required: Vec<u64>,
    /// Per branch, per key: the branch's node for that property.
    pub(super) by_branch: Vec<Vec<Option<NodeId>>>,
}

/// What the fast path knows about a type's compiled schema, computed once per type.
pub(crate) struct Plan {
    pub(super) validator: Arc<Validator>,
    pub(super) root: NodeId,
    pub(super) info: Vec<Info>,
    pub(super) unions: Vec<Union>,
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

    pub(super) fn nodes(&self) -> &[Node] {
        &self.validator.compiled().nodes
    }

    /// `None` when the node cannot be checked in one pass.
    pub(super) fn info_of(nodes: &[Node], id: NodeId, unions: &mut Vec<Union>) -> Option<Info> {
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
                let required = rules::is_required(n, k);
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
    pub(super) fn external_of(nodes: &[Node], target: NodeId, null_ok: bool) -> Option<Info> {
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

    pub(super) fn union_of(
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

/// Structural equality of two compiled nodes (descriptions are not compiled, so they do not count).
pub(super) fn same(nodes: &[Node], a: NodeId, b: NodeId, depth: usize) -> bool {
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
