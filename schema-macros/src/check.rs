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
    Integer { min: i128, max: i128 },
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
    let int = |min: i128, max: i128| Shape::Integer { min, max };
    match name.as_str() {
        "Option" | "Box" | "Rc" | "Arc" | "Cow" if args.len() == 1 => shape(args[0]),
        "String" | "str" | "char" => Shape::String,
        "bool" => Shape::Bool,
        "f32" | "f64" => Shape::Float,
        "i8" => int(i8::MIN as i128, i8::MAX as i128),
        "i16" => int(i16::MIN as i128, i16::MAX as i128),
        "i32" => int(i32::MIN as i128, i32::MAX as i128),
        "i64" | "isize" => int(i64::MIN as i128, i64::MAX as i128),
        "i128" => int(i128::MIN, i128::MAX),
        "u8" => int(0, u8::MAX as i128),
        "u16" => int(0, u16::MAX as i128),
        "u32" => int(0, u32::MAX as i128),
        "u64" | "usize" => int(0, u64::MAX as i128),
        "u128" => int(0, i128::MAX),
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
                check_field(cx, f, c);
            }
        }
        Data::Newtype(f) => {
            check_field(cx, f, c);
            check_meta(cx, &c.schema.meta, &shape(f.ty));
        }
        Data::Enum(variants) => {
            for v in variants.iter().filter(|v| !v.serde.skip) {
                match &v.style {
                    Style::Struct(fields) => fields.iter().for_each(|f| check_field(cx, f, c)),
                    Style::Newtype(f) => check_field(cx, f, c),
                    Style::Unit | Style::Tuple => {}
                }
            }
        }
    }
}

fn check_container(cx: &Ctxt, c: &Container) {
    let s = &c.schema;
    let is_enum = matches!(c.data, Data::Enum(_));
    if !matches!(c.data, Data::Newtype(_)) {
        for (key, span) in s
            .meta
            .string_keys()
            .into_iter()
            .chain(s.meta.number_keys())
            .chain(s.meta.array_keys())
        {
            cx.error_at(
                span,
                format!("`{key}` constrains a value: put it on a field, or on a newtype struct"),
            );
        }
        if let Some(cv) = &s.meta.const_value {
            cx.error_at(cv.span, "`const` constrains a value: put it on a field");
        }
    }
    if let (Some(span), Data::Newtype(_)) = (s.open, &c.data) {
        cx.error_at(span, "`open` applies to structs with named fields and enums");
    }
    if let Data::Enum(variants) = &c.data {
        let live: Vec<_> = variants.iter().filter(|v| !v.serde.skip).collect();
        let tagged = c.serde.tag.is_some();
        if let Some(span) = c.serde.untagged {
            cx.error_at(
                span,
                "untagged enums are not supported: supported are unit-only enums (a string enum) and internally tagged enums, #[serde(tag = \"...\")]",
            );
        } else if let Some(span) = c.serde.content {
            cx.error_at(
                span,
                "adjacently tagged enums (`tag` + `content`) are not supported: supported are unit-only enums (a string enum) and internally tagged enums, #[serde(tag = \"...\")] without `content`",
            );
        } else {
            for v in &live {
                match &v.style {
                    Style::Tuple => cx.error(
                        &v.original.fields,
                        "tuple variants are not supported: use named fields, or one field holding a struct",
                    ),
                    Style::Struct(_) | Style::Newtype(_) if !tagged => cx.error(
                        v.ident,
                        "externally tagged enums with data are not supported: add #[serde(tag = \"...\")] to the enum (internally tagged), or make every variant a unit variant (a string enum)",
                    ),
                    _ => {}
                }
            }
        }
        if live.is_empty() {
            cx.error(c.ident, "an enum with no variants has no value to describe");
        }
        let mut seen: Vec<&str> = Vec::new();
        for v in &live {
            if seen.contains(&v.name.as_str()) {
                cx.error(v.ident, format!("two variants are named `{}` on the wire", v.name));
            }
            seen.push(&v.name);
        }
        if let Some(span) = s.one_object {
            if !tagged {
                cx.error_at(span, "`one_object` needs an internally tagged enum: add #[serde(tag = \"...\")]");
            }
        }
        if let Some(td) = &s.tag_description {
            if !tagged {
                cx.error_at(td.span, "`tag_description` needs an internally tagged enum: add #[serde(tag = \"...\")]");
            }
        }
    } else {
        if let Some(span) = s.one_object {
            cx.error_at(span, "`one_object` applies to internally tagged enums");
        }
        if let Some(td) = &s.tag_description {
            cx.error_at(td.span, "`tag_description` applies to internally tagged enums");
        }
    }
    if let (Some(d), false) = (&s.dialect, is_enum) {
        let _ = d;
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
        Data::Struct(f) => f.iter().collect(),
        Data::Newtype(f) => vec![f],
        Data::Enum(vs) => vs
            .iter()
            .flat_map(|v| match &v.style {
                Style::Struct(f) => f.iter().collect::<Vec<_>>(),
                Style::Newtype(f) => vec![f],
                _ => Vec::new(),
            })
            .collect(),
    };
    match d.value.as_str() {
        "openai" => {
            if let Some(span) = c.schema.open {
                cx.error_at(span, "OpenAI strict mode requires `additionalProperties: false` on every object, so `open` cannot be used with dialect = \"openai\"");
            }
            for f in fields.iter().filter(|f| !f.serde.skip) {
                if mentions(f.ty, &["HashMap", "BTreeMap", "Map"]) && !f.serde.flatten {
                    cx.error(
                        f.ty,
                        "OpenAI strict mode requires `additionalProperties: false` on every object, so a map cannot be expressed (dialect = \"openai\"); use a Vec of key/value structs",
                    );
                } else if f.serde.flatten && mentions(f.ty, &["HashMap", "BTreeMap", "Map"]) {
                    cx.error(f.ty, "OpenAI strict mode cannot express a flattened map (dialect = \"openai\")");
                }
            }
        }
        "anthropic" => {
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

fn check_field(cx: &Ctxt, f: &Field, _c: &Container) {
    if f.serde.skip {
        return;
    }
    if f.serde.flatten && f.meta.has_value_constraints() {
        cx.error(
            &f.original.ty,
            "a #[serde(flatten)] field has no value of its own to constrain",
        );
    }
    check_meta(cx, &f.meta, &shape(f.ty));
}

fn check_meta(cx: &Ctxt, m: &Meta, shape: &Shape) {
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
                format!("`{key}` applies to strings, but this field is {}{hint}", shape.describe()),
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
                format!("`{key}` applies to numbers, but this field is {}{hint}", shape.describe()),
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
                format!("`{key}` applies to arrays (Vec, sets), but this field is {}{hint}", shape.describe()),
            );
        }
    }
    pair_u64(cx, &m.min_length, &m.max_length, "min_length", "max_length");
    pair_u64(cx, &m.min_items, &m.max_items, "min_items", "max_items");
    if let (Some(lo), Some(hi)) = (&m.minimum, &m.maximum) {
        if lo.value.as_f64() > hi.value.as_f64() {
            cx.error_at(hi.span, format!("`minimum` ({}) is greater than `maximum` ({}): no value fits", show(lo.value), show(hi.value)));
        }
    }
    let lower = m.minimum.as_ref().or(m.exclusive_minimum.as_ref());
    let upper = m.maximum.as_ref().or(m.exclusive_maximum.as_ref());
    if let (Some(lo), Some(hi)) = (lower, upper) {
        let exclusive = m.exclusive_minimum.is_some() || m.exclusive_maximum.is_some();
        if exclusive && lo.value.as_f64() >= hi.value.as_f64() {
            cx.error_at(hi.span, format!("the lower bound ({}) is not below the exclusive upper bound ({}): no value fits", show(lo.value), show(hi.value)));
        }
    }
    if let Some(mo) = &m.multiple_of {
        if mo.value.as_f64() <= 0.0 {
            cx.error_at(mo.span, "`multiple_of` must be greater than 0");
        }
    }
    if let Shape::Integer { min, max } = shape {
        for (key, v, is_min) in [
            ("minimum", &m.minimum, true),
            ("exclusive_minimum", &m.exclusive_minimum, true),
            ("maximum", &m.maximum, false),
            ("exclusive_maximum", &m.exclusive_maximum, false),
        ] {
            if let Some(v) = v {
                let x = v.value.as_f64();
                let widens = if is_min { x < *min as f64 - 1.0 || (key == "minimum" && x < *min as f64) } else { x > *max as f64 + 1.0 || (key == "maximum" && x > *max as f64) };
                if widens {
                    let bound = if is_min { *min } else { *max };
                    cx.error_at(v.span, format!("`{key} = {}` is outside what the field's integer type holds ({bound}); the type's own bound already applies", show(v.value)));
                }
            }
        }
    }
    if let Some(p) = &m.pattern {
        if let Err(e) = regex::Regex::new(&p.value) {
            let first = e.to_string();
            let detail = first.lines().last().unwrap_or("").trim().to_string();
            cx.error_at(p.span, format!("invalid `pattern` {:?}: {detail}", p.value));
        }
    }
    if let Some(f) = &m.format {
        if !FORMATS.contains(&f.value.as_str()) {
            let mut msg = format!("unknown `format` {:?}", f.value);
            if let Some(s) = did_you_mean(&f.value, FORMATS) {
                msg.push_str(&format!("; did you mean {s:?}?"));
            } else {
                msg.push_str(&format!("; known formats: {}", FORMATS.join(", ")));
            }
            cx.error_at(f.span, msg);
        }
    }
    if let Some(cv) = &m.const_value {
        let fits = match (&cv.value, shape) {
            (_, Shape::Unknown) => true,
            (LitValue::Str(_), Shape::String) => true,
            (LitValue::Bool(_), Shape::Bool) => true,
            (LitValue::Num(Num::Int(_)), Shape::Integer { .. } | Shape::Float) => true,
            (LitValue::Num(Num::Float(_)), Shape::Float) => true,
            _ => false,
        };
        if !fits {
            cx.error_at(cv.span, format!("this `const` does not fit the field, which is {}", shape.describe()));
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

fn show(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => f.to_string(),
    }
}

fn pair_u64(
    cx: &Ctxt,
    lo: &Option<crate::attr::Spanned<u64>>,
    hi: &Option<crate::attr::Spanned<u64>>,
    lo_key: &str,
    hi_key: &str,
) {
    if let (Some(lo), Some(hi)) = (lo, hi) {
        if lo.value > hi.value {
            cx.error_at(
                hi.span,
                format!("`{lo_key}` ({}) is greater than `{hi_key}` ({}): no value fits", lo.value, hi.value),
            );
        }
    }
}
