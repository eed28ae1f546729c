//! Rules that need more than one attribute, or the field's type as written.
//!
//! The macro sees syntax only: a field typed `u32` is known to be a number, one typed `MyAlias`
//! is not known at all, and then the rule is left to run time.

use crate::ast::{Container, Data, Field, Style};
use crate::attr::{did_you_mean, LitValue, Meta, Num, FORMATS};
use crate::ctxt::Ctxt;

/// What the macro can tell about a type from its syntax.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    String,
    Integer {
        name: &'static str,
        min: i128,
        max: i128,
    },
    Float,
    Bool,
    Array(Box<Shape>),
    Map,
    Unknown,
}

impl Shape {
    fn describe(&self) -> &'static str {
        match self {
            Shape::String => "a string",
            Shape::Integer { .. } => "an integer",
            Shape::Float => "a number",
            Shape::Bool => "a boolean",
            Shape::Array(_) => "an array",
            Shape::Map => "a map",
            Shape::Unknown => "a value",
        }
    }
}

fn last_segment(ty: &syn::Type) -> Option<&syn::PathSegment> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

fn type_args(seg: &syn::PathSegment) -> Vec<&syn::Type> {
    match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The shape of a field's value: `Option`, `Box` and friends are looked through.
pub(crate) fn shape(ty: &syn::Type) -> Shape {
    match ty {
        syn::Type::Reference(r) => return shape(&r.elem),
        syn::Type::Paren(p) => return shape(&p.elem),
        syn::Type::Group(g) => return shape(&g.elem),
        syn::Type::Slice(s) => return Shape::Array(Box::new(shape(&s.elem))),
        syn::Type::Array(a) => return Shape::Array(Box::new(shape(&a.elem))),
        _ => {}
    }
    let Some(seg) = last_segment(ty) else {
        return Shape::Unknown;
    };
    let args = type_args(seg);
    let name = seg.ident.to_string();
    let int = |name, min: i128, max: i128| Shape::Integer { name, min, max };
    match name.as_str() {
        "Option" | "Box" | "Rc" | "Arc" | "Cow" if args.len() == 1 => shape(args[0]),
        "String" | "str" | "char" => Shape::String,
        "bool" => Shape::Bool,
        "f32" | "f64" => Shape::Float,
        "i8" => int("i8", i128::from(i8::MIN), i128::from(i8::MAX)),
        "i16" => int("i16", i128::from(i16::MIN), i128::from(i16::MAX)),
        "i32" => int("i32", i128::from(i32::MIN), i128::from(i32::MAX)),
        "i64" => int("i64", i128::from(i64::MIN), i128::from(i64::MAX)),
        "isize" => int("isize", i128::from(i64::MIN), i128::from(i64::MAX)),
        "i128" => int("i128", i128::MIN, i128::MAX),
        "u8" => int("u8", 0, i128::from(u8::MAX)),
        "u16" => int("u16", 0, i128::from(u16::MAX)),
        "u32" => int("u32", 0, i128::from(u32::MAX)),
        "u64" => int("u64", 0, i128::from(u64::MAX)),
        "usize" => int("usize", 0, i128::from(u64::MAX)),
        "u128" => int("u128", 0, i128::MAX),
        "Vec" | "VecDeque" | "HashSet" | "BTreeSet" if args.len() == 1 => {
            Shape::Array(Box::new(shape(args[0])))
        }
        "HashMap" | "BTreeMap" | "Map" => Shape::Map,
        _ => Shape::Unknown,
    }
}

pub(crate) fn check(cx: &Ctxt, c: &Container) {
    check_container(cx, c);
    match &c.data {
        Data::Struct(fields) => {
            for f in fields {
                check_field(cx, f);
            }
        }
        Data::Newtype(f) => {
            check_field(cx, f);
            check_meta(cx, &c.schema.meta, &field_shape(f));
        }
        Data::Tuple(fields) => {
            for f in fields {
                check_field(cx, f);
            }
        }
        Data::Unit => {}
        Data::Enum(variants) => {
            let internal = c.serde.tag.is_some() && c.serde.content.is_none();
            for v in variants.iter().filter(|v| !v.serde.skip) {
                match &v.style {
                    Style::Struct(fields) | Style::Tuple(fields) => {
                        fields.iter().for_each(|f| check_field(cx, f));
                    }
                    Style::Newtype(f) => {
                        check_field(cx, f);
                        if internal && v.serde.untagged.is_none() {
                            newtype_variant_meta(cx, f);
                            internal_newtype_content(cx, v, f);
                        }
                    }
                    Style::Unit => {}
                }
            }
        }
    }
}

/// The field of a newtype variant is flattened into the variant's object, so it has no value of
/// its own to annotate.
fn newtype_variant_meta(cx: &Ctxt, f: &Field) {
    for attr in f
        .original
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("schema"))
    {
        cx.error(
            attr,
            "the field of a newtype variant is merged into the variant's object and has no value of its own to annotate; annotate the variant, or the fields of the inner struct",
        );
    }
}

/// serde writes an internally tagged newtype variant by adding the tag to its content's object;
/// content that is not an object (a string, a number, a sequence) fails at run time.
fn internal_newtype_content(cx: &Ctxt, v: &crate::ast::Variant, f: &Field) {
    let s = field_shape(f);
    if !matches!(s, Shape::Unknown | Shape::Map) {
        cx.error(
            v.ident,
            format!(
                "an internally tagged newtype variant needs content that is an object, but this one is {}: serde fails on it at run time. Wrap it in a struct variant (`{} {{ value: ... }}`), or use an adjacently tagged enum (#[serde(tag = \"...\", content = \"...\")])",
                s.describe(),
                v.ident
            ),
        );
    }
}

/// The shape of a field's value, as `with` / `schema_with` leave it.
pub(crate) fn field_shape(f: &Field) -> Shape {
    match (&f.meta.with, &f.meta.schema_with) {
        (_, Some(_)) => Shape::Unknown,
        (Some(w), None) => shape(&w.value),
        (None, None) => shape(f.ty),
    }
}

fn check_container(cx: &Ctxt, c: &Container) {
    let s = &c.schema;
    if !matches!(c.data, Data::Newtype(_)) {
        for (key, span) in s.meta.value_keys() {
            cx.error_at(
                span,
                format!("`{key}` constrains a value: put it on a field, or on a newtype struct"),
            );
        }
    }
    if let (Some(span), Data::Newtype(_)) = (s.open, &c.data) {
        cx.error_at(
            span,
            "`open` applies to structs with named fields and enums",
        );
    }
    if let Data::Enum(variants) = &c.data {
        let live: Vec<_> = variants.iter().filter(|v| !v.serde.skip).collect();
        let tagged = c.serde.tag.is_some();
        let internal = tagged && c.serde.content.is_none();
        if internal {
            for v in &live {
                if let Style::Tuple(_) = &v.style {
                    if v.serde.untagged.is_none() {
                        cx.error(
                            &v.original.fields,
                            "an internally tagged enum cannot have tuple variants (serde refuses them): use named fields, or an adjacently tagged enum (#[serde(tag = \"...\", content = \"...\")])",
                        );
                    }
                }
            }
        }
        if live.is_empty() {
            cx.error(c.ident, "an enum with no variants has no value to describe");
        }
        let mut seen: Vec<&str> = Vec::new();
        for v in &live {
            if seen.contains(&v.name.as_str()) {
                cx.error(
                    v.ident,
                    format!("two variants are named `{}` on the wire", v.name),
                );
            }
            seen.push(&v.name);
        }
        if let Some(span) = s.one_object {
            if !internal || live.iter().any(|v| v.serde.untagged.is_some()) {
                cx.error_at(
                    span,
                    "`one_object` needs an internally tagged enum without untagged variants: add #[serde(tag = \"...\")]",
                );
            }
        }
        if let Some(td) = &s.tag_description {
            if !internal {
                cx.error_at(td.span, "`tag_description` needs an internally tagged enum: add #[serde(tag = \"...\")]");
            }
        }
    } else {
        if let Some(span) = s.one_object {
            cx.error_at(
                span,
                "`one_object` applies only to internally tagged enums, not to structs",
            );
        }
        if let Some(td) = &s.tag_description {
            cx.error_at(
                td.span,
                "`tag_description` applies only to internally tagged enums, not to structs",
            );
        }
    }
    if let Data::Struct(fields) = &c.data {
        let mut seen: Vec<&str> = Vec::new();
        for f in fields.iter().filter(|f| !f.serde.skip && !f.serde.flatten) {
            if seen.contains(&f.name.as_str()) {
                cx.error(
                    &f.original.ident,
                    format!("two fields are named `{}` on the wire", f.name),
                );
            }
            seen.push(&f.name);
        }
    }
    check_dialect(cx, c);
}

/// `#[schema(dialect = "...")]`: what syntax alone shows the dialect cannot express.
fn check_dialect(cx: &Ctxt, c: &Container) {
    let Some(d) = &c.schema.dialect else {
        return;
    };
    let fields: Vec<&Field> = match &c.data {
        Data::Struct(f) | Data::Tuple(f) => f.iter().collect(),
        Data::Newtype(f) => vec![&**f],
        Data::Unit => Vec::new(),
        Data::Enum(vs) => vs
            .iter()
            .flat_map(|v| match &v.style {
                Style::Struct(f) | Style::Tuple(f) => f.iter().collect::<Vec<_>>(),
                Style::Newtype(f) => vec![&**f],
                _ => Vec::new(),
            })
            .collect(),
    };
    match d.value.as_str() {
        "openai" => {
            if let Some(span) = c.schema.open {
                cx.error_at(span, "OpenAI strict mode requires `additionalProperties: false` on every object, so `open` cannot be used with dialect = \"openai\"");
            }
            strict_tuples(cx, &fields, "OpenAI strict mode", "openai");
            for f in fields.iter().filter(|f| !f.serde.skip) {
                let on = |m: &crate::attr::Meta| m.entries.as_ref().is_some_and(|e| e.value);
                let entries =
                    on(&f.meta) || f.meta.items.as_ref().is_some_and(|items| on(&items.value));
                if !entries && mentions(f.ty, &["HashMap", "BTreeMap", "Map"]) {
                    cx.error(
                        f.ty,
                        "OpenAI strict mode requires `additionalProperties: false` on every object, so a map cannot be expressed (dialect = \"openai\"); mark the field `#[schema(entries)]` (`items(entries)` on a sequence of maps) to write it as an array of {key, value} objects, or use a Vec of key/value structs",
                    );
                }
            }
        }
        "anthropic" => {
            strict_tuples(cx, &fields, "Anthropic", "anthropic");
            let own = c.ident.to_string();
            for f in fields.iter().filter(|f| !f.serde.skip) {
                if mentions(f.ty, &[own.as_str(), "Self"]) {
                    cx.error(
                        f.ty,
                        format!("Anthropic does not accept recursive schemas, and `{own}` contains itself here (dialect = \"anthropic\")"),
                    );
                }
            }
        }
        _ => {}
    }
}

/// A tuple (`prefixItems`) in a field of a container pinned to a dialect that refuses tuples.
fn strict_tuples(cx: &Ctxt, fields: &[&Field], who: &str, dialect: &str) {
    for f in fields.iter().filter(|f| !f.serde.skip) {
        if let Some(tuple) = find_tuple(f.ty) {
            cx.error(
                tuple,
                format!("{who} refuses tuples (a JSON array of mixed items, `prefixItems`), so this field cannot be expressed (dialect = \"{dialect}\"); use a struct with named fields"),
            );
        }
    }
}

/// The first tuple type (including `()`) in a type as written.
fn find_tuple(ty: &syn::Type) -> Option<&syn::TypeTuple> {
    match ty {
        syn::Type::Tuple(t) => Some(t),
        syn::Type::Path(p) => p
            .path
            .segments
            .iter()
            .flat_map(type_args)
            .find_map(find_tuple),
        syn::Type::Reference(r) => find_tuple(&r.elem),
        syn::Type::Slice(s) => find_tuple(&s.elem),
        syn::Type::Array(a) => find_tuple(&a.elem),
        syn::Type::Paren(p) => find_tuple(&p.elem),
        syn::Type::Group(g) => find_tuple(&g.elem),
        _ => None,
    }
}

/// Whether a type mentions one of these names anywhere in its path.
fn mentions(ty: &syn::Type, names: &[&str]) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.segments.iter().any(|s| {
            names.contains(&s.ident.to_string().as_str())
                || type_args(s).into_iter().any(|t| mentions(t, names))
        }),
        syn::Type::Reference(r) => mentions(&r.elem, names),
        syn::Type::Slice(s) => mentions(&s.elem, names),
        syn::Type::Array(a) => mentions(&a.elem, names),
        syn::Type::Paren(p) => mentions(&p.elem, names),
        syn::Type::Group(g) => mentions(&g.elem, names),
        _ => false,
    }
}

fn check_field(cx: &Ctxt, f: &Field) {
    if f.serde.skip {
        return;
    }
    if let (Some(_), Some(sw)) = (&f.meta.with, &f.meta.schema_with) {
        cx.error_at(
            sw.span,
            "`with` and `schema_with` both name the field's schema: keep one",
        );
    }
    if f.serde.flatten {
        for (key, span) in f.meta.value_keys() {
            cx.error_at(
                span,
                format!("`{key}` cannot constrain a #[serde(flatten)] field: its properties are merged into the parent object, so it has no value of its own"),
            );
        }
    }
    check_meta(cx, &f.meta, &field_shape(f));
}

fn check_meta(cx: &Ctxt, m: &Meta, shape: &Shape) {
    check_placement(cx, m, shape);
    check_bounds(cx, m, shape);
    if let Some(p) = &m.pattern {
        if let Some(msg) = pattern_error(&p.value, PatternFeatures::ENABLED) {
            cx.error(&p.value_tokens, msg);
        }
    }
    if let Some(f) = &m.format {
        if !FORMATS.contains(&f.value.as_str()) {
            let msg = match did_you_mean(&f.value, FORMATS) {
                Some(s) => format!("unknown `format` {:?}; did you mean {s:?}?", f.value),
                None => format!(
                    "unknown `format` {:?}; known formats: {}",
                    f.value,
                    FORMATS.join(", ")
                ),
            };
            cx.error(&f.value_tokens, msg);
        }
    }
    if let Some(cv) = &m.const_value {
        let fits = matches!(
            (&cv.value, shape),
            (_, Shape::Unknown)
                | (LitValue::Str(_), Shape::String)
                | (LitValue::Bool(_), Shape::Bool)
                | (
                    LitValue::Num(Num::Int(_)),
                    Shape::Integer { .. } | Shape::Float
                )
                | (LitValue::Num(Num::Float(_)), Shape::Float)
        );
        if !fits {
            cx.error(
                &cv.value_tokens,
                format!(
                    "`const` is {}, but this field is {}",
                    lit_kind(&cv.value),
                    shape.describe()
                ),
            );
        }
    }
    if let Some(items) = &m.items {
        let inner = match shape {
            Shape::Array(inner) => (**inner).clone(),
            _ => Shape::Unknown,
        };
        check_meta(cx, &items.value, &inner);
    }
}

/// Which of schema-core's pattern features the build has (schema-core sets the schema-macros
/// features of the same names).
#[derive(Debug, Clone, Copy)]
struct PatternFeatures {
    /// `pattern`: the linear engine, for every pattern without backtracking.
    pattern: bool,
    /// `lookaround`: the backtracking engine, for backreferences, lookarounds and the multiline
    /// modifier.
    lookaround: bool,
}

impl PatternFeatures {
    /// The features of this build.
    const ENABLED: Self = Self {
        pattern: cfg!(feature = "pattern"),
        lookaround: cfg!(feature = "lookaround"),
    };
}

/// Why a `#[schema(pattern = ...)]` value cannot be used in a build with `features`, if it
/// cannot: it is not a valid ECMA-262 pattern, or the engine that would run it is not built (the
/// validator would otherwise fail on the type's first `validate` or `from_json`). The reader is
/// the validator's, so the macro and the validator agree on which patterns need backtracking.
fn pattern_error(value: &str, features: PatternFeatures) -> Option<String> {
    let tree = match schema_pattern::parse(value) {
        Ok(tree) => tree,
        Err(e) => return Some(format!("invalid `pattern` {value:?}: {} (checked as an ECMA-262 regular expression with the `u` flag, as the validator runs it)", e.in_pattern(value))),
    };
    if !features.pattern {
        return Some("`pattern` needs schema-core's feature `pattern` (on by default), which builds the regular expression engines that check it".into());
    }
    let needs = [
        (tree.has_backreference, "a backreference"),
        (tree.has_lookaround, "a lookaround"),
        (tree.has_multiline_modifier, "a multiline modifier (`m`)"),
    ];
    let found: Vec<&str> = needs.iter().filter(|n| n.0).map(|n| n.1).collect();
    if found.is_empty() || features.lookaround {
        return None;
    }
    Some(format!(
        "`pattern` {value:?} has {}, which needs schema-core's feature `lookaround` (off by default), which builds the backtracking engine that checks it; turn the feature on or write the pattern without it",
        found.join(" and ")
    ))
}

fn lit_kind(l: &LitValue) -> &'static str {
    match l {
        LitValue::Str(_) => "a string",
        LitValue::Num(Num::Int(_)) => "an integer",
        LitValue::Num(Num::Float(_)) => "a float",
        LitValue::Bool(_) => "a boolean",
    }
}

/// String keys on strings, number keys on numbers, array keys on arrays, when the field's type
/// is one the macro can read.
fn check_placement(cx: &Ctxt, m: &Meta, shape: &Shape) {
    let known = !matches!(shape, Shape::Unknown);
    if known && !matches!(shape, Shape::String) {
        for (key, span) in m.string_keys() {
            let hint = match (key, shape) {
                ("max_length", Shape::Array(_)) => "; for the number of items use `max_items`, for each item `items(max_length = ..)`",
                ("min_length", Shape::Array(_)) => "; for the number of items use `min_items`, for each item `items(min_length = ..)`",
                ("max_length", Shape::Integer { .. } | Shape::Float) => "; did you mean `maximum`?",
                ("min_length", Shape::Integer { .. } | Shape::Float) => "; did you mean `minimum`?",
                (_, Shape::Array(_)) => "; to constrain each item use `items(...)`",
                _ => "",
            };
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to strings, but this field is {}{hint}",
                    shape.describe()
                ),
            );
        }
    }
    if known && !matches!(shape, Shape::Map) {
        for (key, span) in m.map_keys() {
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to maps (`HashMap`, `BTreeMap`, `serde_json::Map`), but this field is {}",
                    shape.describe()
                ),
            );
        }
    }
    let numeric = matches!(shape, Shape::Integer { .. } | Shape::Float);
    if known && !numeric {
        for (key, span) in m.number_keys() {
            let hint = match (key, shape) {
                ("minimum", Shape::String) => "; did you mean `min_length`?",
                ("maximum", Shape::String) => "; did you mean `max_length`?",
                ("minimum", Shape::Array(_)) => "; did you mean `min_items`?",
                ("maximum", Shape::Array(_)) => "; did you mean `max_items`?",
                (_, Shape::Array(_)) => "; to constrain each item use `items(...)`",
                _ => "",
            };
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to numbers, but this field is {}{hint}",
                    shape.describe()
                ),
            );
        }
    }
    if known && !matches!(shape, Shape::Array(_)) {
        for (key, span) in m.array_keys() {
            let hint = match (key, shape) {
                ("max_items", Shape::String) => "; did you mean `max_length`?",
                ("min_items", Shape::String) => "; did you mean `min_length`?",
                _ => "",
            };
            cx.error_at(
                span,
                format!(
                    "`{key}` applies to arrays (Vec, sets), but this field is {}{hint}",
                    shape.describe()
                ),
            );
        }
    }
}

fn show(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => f.to_string(),
    }
}

/// Bounds that leave no value, and integer bounds beyond what the field's type holds.
fn check_bounds(cx: &Ctxt, m: &Meta, shape: &Shape) {
    for (lo_key, lo, hi_key, hi) in [
        ("min_length", &m.min_length, "max_length", &m.max_length),
        ("min_items", &m.min_items, "max_items", &m.max_items),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo.value > hi.value {
                cx.error_at(
                    hi.span,
                    format!(
                        "`{lo_key}` ({}) is greater than `{hi_key}` ({}): no value fits",
                        lo.value, hi.value
                    ),
                );
            }
        }
    }
    let lower = [
        ("minimum", &m.minimum, false),
        ("exclusive_minimum", &m.exclusive_minimum, true),
    ];
    let upper = [
        ("maximum", &m.maximum, false),
        ("exclusive_maximum", &m.exclusive_maximum, true),
    ];
    for (lo_key, lo, lo_exclusive) in lower {
        for (hi_key, hi, hi_exclusive) in upper {
            let (Some(lo), Some(hi)) = (lo, hi) else {
                continue;
            };
            let (a, b) = (lo.value.as_f64(), hi.value.as_f64());
            let empty = if lo_exclusive || hi_exclusive {
                a >= b
            } else {
                a > b
            };
            if empty {
                let relation = if a > b { "greater than" } else { "equal to" };
                cx.error_at(
                    hi.span,
                    format!(
                        "`{lo_key}` ({}) is {relation} `{hi_key}` ({}): no value fits",
                        show(lo.value),
                        show(hi.value)
                    ),
                );
            }
        }
    }
    if let Some(mo) = &m.multiple_of {
        if mo.value.as_f64() <= 0.0 {
            cx.error(&mo.value_tokens, "`multiple_of` must be greater than 0");
        }
    }
    if let Shape::Integer { name, min, max } = *shape {
        // An exclusive bound one past the type's own admits every value of the type, so it is
        // allowed (`exclusive_minimum = -1` on a `u8`); a bound further out is a mistake.
        for (key, bound, limit, is_lower) in [
            ("minimum", &m.minimum, min, true),
            (
                "exclusive_minimum",
                &m.exclusive_minimum,
                min.saturating_sub(1),
                true,
            ),
            ("maximum", &m.maximum, max, false),
            (
                "exclusive_maximum",
                &m.exclusive_maximum,
                max.saturating_add(1),
                false,
            ),
        ] {
            let Some(b) = bound else { continue };
            let x = b.value.as_f64();
            let limit = Num::Int(limit).as_f64();
            let outside = if is_lower { x < limit } else { x > limit };
            if outside {
                cx.error(
                    &b.value_tokens,
                    format!(
                        "`{key} = {}` is outside the range of `{name}` ({min}..={max}); remove it, or use a wider integer type",
                        show(b.value)
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{pattern_error, PatternFeatures};

    const ALL: PatternFeatures = PatternFeatures {
        pattern: true,
        lookaround: true,
    };
    const LINEAR: PatternFeatures = PatternFeatures {
        pattern: true,
        lookaround: false,
    };
    const NONE: PatternFeatures = PatternFeatures {
        pattern: false,
        lookaround: false,
    };

    #[test]
    fn backtracking_patterns_need_lookaround() {
        for (pattern, what) in [
            (r"^(a)\1$", "a backreference"),
            (r"(?<x>a)\k<x>", "a backreference"),
            ("(?<=x)y", "a lookaround"),
            ("a(?!b)", "a lookaround"),
            ("(?m:^a$)", "a multiline modifier"),
            ("(?-m:^a)", "a multiline modifier"),
        ] {
            let msg = pattern_error(pattern, LINEAR).expect(pattern);
            assert!(msg.contains(what), "{pattern}: {msg}");
            assert!(msg.contains("feature `lookaround`"), "{pattern}: {msg}");
            assert_eq!(pattern_error(pattern, ALL), None, "{pattern}");
        }
        let both = pattern_error(r"(a)(?=b)\1", LINEAR).unwrap();
        assert!(both.contains("a backreference and a lookaround"), "{both}");
    }

    #[test]
    fn linear_patterns_need_only_pattern() {
        // `^`/`$` without `m`, a word boundary, a named group, an `i` modifier: no backtracking.
        for pattern in ["^[A-Z]{2}$", r"\bcat\b", "(?<x>a)b", "(?i:ab)", "a|b*"] {
            assert_eq!(pattern_error(pattern, LINEAR), None, "{pattern}");
            let msg = pattern_error(pattern, NONE).expect(pattern);
            assert!(msg.contains("feature `pattern`"), "{pattern}: {msg}");
        }
    }

    #[test]
    fn invalid_patterns_are_invalid_whatever_the_features() {
        for features in [ALL, LINEAR, NONE] {
            let msg = pattern_error("^[A-Z]{2", features).unwrap();
            assert!(msg.starts_with("invalid `pattern`"), "{msg}");
            // A backreference to a group that does not exist is invalid with the `u` flag.
            let msg = pattern_error(r"(a)\2", features).unwrap();
            assert!(msg.starts_with("invalid `pattern`"), "{msg}");
        }
    }
}
