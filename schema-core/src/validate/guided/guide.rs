//! The guide: where in the plan the value being read is ([`Guide`], [`Mode`]), and the checks of
//! scalars against it, each a bit test in the common case and the shared rules otherwise.

use super::*;

/// One call's walk: the plan, and the text being read.
pub(super) struct Cx<'g> {
    /// `plan.info`, one load nearer.
    pub(super) info: &'g [Info],
    pub(super) plan: &'g Plan,
    /// The whole text: a string the deserializer borrows from it can be placed in it (see
    /// [`VariantLookup`]).
    pub(super) text: &'g [u8],
}

impl<'g> Cx<'g> {
    #[inline]
    pub(super) fn guide(&'g self, id: NodeId, optional: bool) -> Guide<'g> {
        Guide {
            cx: self,
            mode: Mode::Node(&self.info[id], optional),
        }
    }
}

/// Where the walk is: what the current value must be.
#[derive(Clone, Copy)]
pub(super) struct Guide<'g> {
    pub(super) cx: &'g Cx<'g>,
    pub(super) mode: Mode<'g>,
}

#[derive(Clone, Copy)]
pub(super) enum Mode<'g> {
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
pub(super) struct Capture<'g> {
    pub(super) union: &'g Union,
    pub(super) branch: &'g Cell<Option<usize>>,
}

impl<'g> Guide<'g> {
    pub(super) fn node(&self) -> Option<&'g Node> {
        match self.mode {
            Mode::Node(i, _) => Some(&self.cx.plan.nodes()[i.target]),
            _ => None,
        }
    }

    /// `const` and `enum` (only called when one of them is written).
    #[cold]
    pub(super) fn check_scalar(&self, v: &Value) -> bool {
        let Some(n) = self.node() else { return true };
        rules::const_value(n, v).is_ok() && rules::enum_values(n, v, &mut 0).is_ok()
    }

    #[inline(always)]
    pub(super) fn check_bool(&self, b: bool) -> bool {
        if let Mode::Node(i, _) = self.mode {
            if i.fast & F_BOOL != 0 {
                return true;
            }
        }
        self.check_bool_more(b)
    }

    /// A boolean the node does not take with one bit test.
    #[inline(never)]
    pub(super) fn check_bool_more(&self, b: bool) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                rules::type_admits(i.types, T_BOOL)
                    && (!i.scalar_check || self.check_scalar(&Value::Bool(b)))
            }
            Mode::NullOnly => false,
            Mode::Free | Mode::Capture(..) => true,
        }
    }

    #[inline(always)]
    pub(super) fn check_str(&self, s: &str) -> bool {
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
    pub(super) fn check_str_node(&self, s: &str) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                if !rules::type_admits(i.types, T_STR) {
                    return false;
                }
                if i.len_check {
                    // A string has between a quarter of its byte length and its byte length
                    // in characters: when both ends are within bounds, counting is not needed.
                    let bytes = s.len() as u64;
                    if (bytes > i.max_len || bytes.div_ceil(4) < i.min_len)
                        && !rules::length_within(&self.cx.plan.nodes()[i.target], s)
                    {
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
    pub(super) fn check_str_other(&self, s: &str) -> bool {
        match self.mode {
            Mode::Capture(c) => match rules::tag_index(&c.union.branches, s) {
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
    pub(super) fn check_str_more(&self, i: &Info, s: &str) -> bool {
        let n = &self.cx.plan.nodes()[i.target];
        rules::string_in_const_enum(n, s)
            && i.consts.as_ref().is_none_or(|c| c.iter().any(|c| c == s))
            && rules::string_matches(n, s)
    }

    /// A number; `integral` says whether it has no fraction part (JSON Schema's `integer`).
    #[inline(always)]
    pub(super) fn check_num(&self, integral: bool, num: impl FnOnce() -> Option<Number>) -> bool {
        if let Mode::Node(i, _) = self.mode {
            if i.fast & if integral { F_INT } else { F_NUM } != 0 {
                return true;
            }
        }
        self.check_num_node(integral, num)
    }

    /// An integer as serde_json reads it (`visit_i64` / `visit_u64`).
    #[inline]
    pub(super) fn check_int(&self, n: i128) -> bool {
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
    pub(super) fn check_num_node(
        &self,
        integral: bool,
        num: impl FnOnce() -> Option<Number>,
    ) -> bool {
        match self.mode {
            Mode::Node(i, _) => {
                let bits = if integral { T_INT | T_NUM } else { T_NUM };
                if !rules::type_admits(i.types, bits) {
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
    pub(super) fn check_num_more(&self, i: &Info, num: Number) -> bool {
        let n = &self.cx.plan.nodes()[i.target];
        if !rules::number_within(n, &num) {
            return false;
        }
        if i.scalar_check {
            return self.check_scalar(&Value::Number(num));
        }
        true
    }

    /// A number that arrives as something other than an `i64`/`u64`/`f64` (`i128`, `u128`).
    pub(super) fn check_number(&self, num: Number) -> bool {
        let integral =
            num.is_i64() || num.is_u64() || num.as_f64().is_some_and(|f| f.fract() == 0.0);
        self.check_num(integral, || Some(num))
    }

    #[inline]
    pub(super) fn check_null(&self) -> bool {
        match self.mode {
            Mode::Node(i, optional) => optional || i.null_ok,
            Mode::NullOnly | Mode::Free | Mode::Capture(..) => true,
        }
    }
}

/// [`Info::int_range`] of a node: `Some` when its only number checks are integer bounds (an
/// `i64` or a `u64`) and it takes integers.
pub(super) fn int_range(n: &Node, scalar_check: bool) -> Option<(i128, i128)> {
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

#[cold]
pub(super) fn reject<E: de::Error>(g: &Guide<'_>, what: &str) -> E {
    let expected = match g.mode {
        Mode::Node(i, _) => type_names(i.types),
        _ => String::new(),
    };
    E::custom(format_args!("schema: {what} (expected {expected})"))
}

#[cold]
pub(super) fn fail<E: de::Error>(what: &str) -> E {
    E::custom(format_args!("schema: {what}"))
}
