//! Reading `#[schema(...)]`, the serde attributes that change the wire format, and doc comments.
//!
//! Simple checks (a value of the wrong kind, an unknown or duplicate key) happen here, while
//! parsing; rules that need the field's type or several attributes live in `check.rs`.

use crate::case::{RenameRule, RULE_NAMES};
use crate::ctxt::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Expr, Lit, Token};

/// Where an attribute stands; decides which keys are allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Position {
    Container,
    Field,
    Variant,
    Items,
}

const VALUE_KEYS: &[&str] = &[
    "description",
    "title",
    "max_length",
    "min_length",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusive_minimum",
    "exclusive_maximum",
    "multiple_of",
    "min_items",
    "max_items",
    "unique_items",
    "const",
    "example",
    "items",
];
const CONTAINER_ONLY: &[&str] = &["open", "one_object", "tag_description", "dialect", "crate"];
const VARIANT_KEYS: &[&str] = &["description", "title"];

fn allowed_keys(pos: Position) -> Vec<&'static str> {
    match pos {
        Position::Container => VALUE_KEYS.iter().chain(CONTAINER_ONLY).copied().collect(),
        Position::Field | Position::Items => VALUE_KEYS.to_vec(),
        Position::Variant => VARIANT_KEYS.to_vec(),
    }
}

/// The formats the validator knows; others are rejected at compile time.
pub(crate) const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// A value together with the span of the key that set it.
#[derive(Clone)]
pub(crate) struct Spanned<T> {
    pub span: Span,
    pub value: T,
}

/// A number written in an attribute.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// A literal written in an attribute (`const`, `example`).
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum LitValue {
    Str(String),
    Num(Num),
    Bool(bool),
}

/// Annotations of one value (field, newtype, array items).
#[derive(Default, Clone)]
pub(crate) struct Meta {
    pub description: Option<Spanned<String>>,
    pub title: Option<Spanned<String>>,
    pub min_length: Option<Spanned<u64>>,
    pub max_length: Option<Spanned<u64>>,
    pub pattern: Option<Spanned<String>>,
    pub format: Option<Spanned<String>>,
    pub minimum: Option<Spanned<Num>>,
    pub maximum: Option<Spanned<Num>>,
    pub exclusive_minimum: Option<Spanned<Num>>,
    pub exclusive_maximum: Option<Spanned<Num>>,
    pub multiple_of: Option<Spanned<Num>>,
    pub min_items: Option<Spanned<u64>>,
    pub max_items: Option<Spanned<u64>>,
    pub unique_items: Option<Spanned<bool>>,
    pub const_value: Option<Spanned<LitValue>>,
    pub examples: Vec<LitValue>,
    pub items: Option<Spanned<Box<Meta>>>,
}

impl Meta {
    /// Keys that only make sense on strings, with their spans.
    pub(crate) fn string_keys(&self) -> Vec<(&'static str, Span)> {
        let mut v = Vec::new();
        if let Some(s) = &self.min_length {
            v.push(("min_length", s.span));
        }
        if let Some(s) = &self.max_length {
            v.push(("max_length", s.span));
        }
        if let Some(s) = &self.pattern {
            v.push(("pattern", s.span));
        }
        if let Some(s) = &self.format {
            v.push(("format", s.span));
        }
        v
    }

    /// Keys that only make sense on numbers.
    pub(crate) fn number_keys(&self) -> Vec<(&'static str, Span)> {
        let mut v = Vec::new();
        for (k, s) in [
            ("minimum", &self.minimum),
            ("maximum", &self.maximum),
            ("exclusive_minimum", &self.exclusive_minimum),
            ("exclusive_maximum", &self.exclusive_maximum),
            ("multiple_of", &self.multiple_of),
        ] {
            if let Some(s) = s {
                v.push((k, s.span));
            }
        }
        v
    }

    /// Keys that only make sense on arrays.
    pub(crate) fn array_keys(&self) -> Vec<(&'static str, Span)> {
        let mut v = Vec::new();
        if let Some(s) = &self.min_items {
            v.push(("min_items", s.span));
        }
        if let Some(s) = &self.max_items {
            v.push(("max_items", s.span));
        }
        if let Some(s) = &self.unique_items {
            v.push(("unique_items", s.span));
        }
        if let Some(s) = &self.items {
            v.push(("items", s.span));
        }
        v
    }

    pub(crate) fn has_value_constraints(&self) -> bool {
        !self.string_keys().is_empty()
            || !self.number_keys().is_empty()
            || !self.array_keys().is_empty()
            || self.const_value.is_some()
    }
}

/// `#[schema(...)]` keys of a container beyond its [`Meta`].
#[derive(Default)]
pub(crate) struct ContainerSchema {
    pub meta: Meta,
    pub open: Option<Span>,
    pub one_object: Option<Span>,
    pub tag_description: Option<Spanned<String>>,
    pub dialect: Option<Spanned<String>>,
    pub krate: Option<syn::Path>,
}

/// The serde attributes that change the wire format.
#[derive(Default)]
pub(crate) struct Serde {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub tag: Option<String>,
    pub content: Option<Span>,
    pub untagged: Option<Span>,
    pub transparent: bool,
    pub default: bool,
    pub skip: bool,
    pub flatten: bool,
}

/// The doc comment of an item: lines joined, soft line breaks folded into spaces, paragraphs kept.
pub(crate) fn doc_comment(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(syn::ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                let line = s.value();
                let line = line.strip_prefix(' ').unwrap_or(&line).trim_end().to_string();
                lines.push(line);
            }
        }
    }
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line.trim());
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    if paragraphs.is_empty() {
        None
    } else {
        Some(paragraphs.join("\n\n"))
    }
}

/// Reads every `#[schema(...)]` attribute of a field, variant or the items of a field.
pub(crate) fn schema_meta(cx: &Ctxt, attrs: &[syn::Attribute], pos: Position) -> Meta {
    let mut container = ContainerSchema::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("schema")) {
        if let Err(e) = attr.parse_nested_meta(|m| parse_key(cx, m, pos, &mut container)) {
            cx.syn_error(e);
        }
    }
    container.meta
}

/// Reads every `#[schema(...)]` attribute of a container.
pub(crate) fn container_schema(cx: &Ctxt, attrs: &[syn::Attribute]) -> ContainerSchema {
    let mut container = ContainerSchema::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("schema")) {
        if let Err(e) =
            attr.parse_nested_meta(|m| parse_key(cx, m, Position::Container, &mut container))
        {
            cx.syn_error(e);
        }
    }
    container
}

fn set<T>(cx: &Ctxt, slot: &mut Option<Spanned<T>>, key: &str, span: Span, value: T) {
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{key}` in #[schema]"));
    } else {
        *slot = Some(Spanned { span, value });
    }
}

fn set_flag(cx: &Ctxt, slot: &mut Option<Span>, key: &str, span: Span) {
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{key}` in #[schema]"));
    } else {
        *slot = Some(span);
    }
}

fn parse_key(
    cx: &Ctxt,
    m: ParseNestedMeta,
    pos: Position,
    c: &mut ContainerSchema,
) -> syn::Result<()> {
    let Some(ident) = m.path.get_ident().map(|i| i.to_string()) else {
        cx.error(&m.path, "expected a key such as `description` or `max_length`");
        return skip_value(&m);
    };
    let key = ident.trim_start_matches("r#").to_string();
    let span = m.path.span();
    let allowed = allowed_keys(pos);
    if !allowed.contains(&key.as_str()) {
        let mut msg = format!("unknown #[schema] key `{key}`");
        if let Some(s) = did_you_mean(&key, &allowed) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        } else if VALUE_KEYS.contains(&key.as_str()) || CONTAINER_ONLY.contains(&key.as_str()) {
            msg.push_str(match pos {
                Position::Variant => "; a variant takes only `description` and `title`",
                _ => "; it is a container attribute (on the struct or enum)",
            });
        } else {
            msg.push_str(&format!("; expected one of: {}", allowed.join(", ")));
        }
        cx.error_at(span, msg);
        return skip_value(&m);
    }
    let meta = &mut c.meta;
    match key.as_str() {
        "description" => {
            let v = string_value(cx, &m, &key)?;
            if let Some(v) = v {
                set(cx, &mut meta.description, &key, span, v);
            }
        }
        "title" => {
            if let Some(v) = string_value(cx, &m, &key)? {
                set(cx, &mut meta.title, &key, span, v);
            }
        }
        "pattern" => {
            if let Some(v) = string_value(cx, &m, &key)? {
                set(cx, &mut meta.pattern, &key, span, v);
            }
        }
        "format" => {
            if let Some(v) = string_value(cx, &m, &key)? {
                set(cx, &mut meta.format, &key, span, v);
            }
        }
        "min_length" | "max_length" | "min_items" | "max_items" => {
            if let Some(v) = uint_value(cx, &m, &key)? {
                let slot = match key.as_str() {
                    "min_length" => &mut meta.min_length,
                    "max_length" => &mut meta.max_length,
                    "min_items" => &mut meta.min_items,
                    _ => &mut meta.max_items,
                };
                set(cx, slot, &key, span, v);
            }
        }
        "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum" | "multiple_of" => {
            if let Some(v) = num_value(cx, &m, &key)? {
                let slot = match key.as_str() {
                    "minimum" => &mut meta.minimum,
                    "maximum" => &mut meta.maximum,
                    "exclusive_minimum" => &mut meta.exclusive_minimum,
                    "exclusive_maximum" => &mut meta.exclusive_maximum,
                    _ => &mut meta.multiple_of,
                };
                set(cx, slot, &key, span, v);
            }
        }
        "unique_items" => {
            let v = if m.input.peek(Token![=]) {
                match expr_value(&m)? {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Bool(b), ..
                    }) => Some(b.value),
                    other => {
                        cx.error(&other, "expected `true` or `false` for `unique_items`");
                        None
                    }
                }
            } else {
                Some(true)
            };
            if let Some(v) = v {
                set(cx, &mut meta.unique_items, &key, span, v);
            }
        }
        "const" => {
            let e = expr_value(&m)?;
            match literal(&e) {
                Some(l) => set(cx, &mut meta.const_value, &key, span, l),
                None => cx.error(
                    &e,
                    "`const` takes a literal: a string, a number or a boolean",
                ),
            }
        }
        "example" => {
            let e = expr_value(&m)?;
            match literal(&e) {
                Some(l) => meta.examples.push(l),
                None => cx.error(
                    &e,
                    "`example` takes a literal: a string, a number or a boolean",
                ),
            }
        }
        "items" => {
            let mut inner = ContainerSchema::default();
            if m.input.peek(syn::token::Paren) {
                m.parse_nested_meta(|n| parse_key(cx, n, Position::Items, &mut inner))?;
            } else {
                cx.error_at(span, "`items` takes a list: `items(max_length = 30)`");
                skip_value(&m)?;
            }
            set(cx, &mut meta.items, &key, span, Box::new(inner.meta));
        }
        "open" => {
            no_value(cx, &m, &key)?;
            set_flag(cx, &mut c.open, &key, span);
        }
        "one_object" => {
            no_value(cx, &m, &key)?;
            set_flag(cx, &mut c.one_object, &key, span);
        }
        "tag_description" => {
            if let Some(v) = string_value(cx, &m, &key)? {
                set(cx, &mut c.tag_description, &key, span, v);
            }
        }
        "dialect" => {
            if let Some(v) = string_value(cx, &m, &key)? {
                const DIALECTS: &[&str] = &["jsonschema", "openai", "anthropic", "gemini", "lmstudio"];
                if !DIALECTS.contains(&v.as_str()) {
                    let mut msg = format!("unknown dialect `{v}`; expected one of: {}", DIALECTS.join(", "));
                    if let Some(s) = did_you_mean(&v, DIALECTS) {
                        msg = format!("unknown dialect `{v}`; did you mean `{s}`?");
                    }
                    cx.error_at(span, msg);
                } else {
                    set(cx, &mut c.dialect, &key, span, v);
                }
            }
        }
        "crate" => {
            let e = expr_value(&m)?;
            match &e {
                Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(s), ..
                }) => match s.parse::<syn::Path>() {
                    Ok(p) => c.krate = Some(p),
                    Err(_) => cx.error(s, "expected a path such as \"::schema_core\""),
                },
                other => cx.error(other, "expected a string path such as \"::schema_core\""),
            }
        }
        _ => unreachable!("every allowed key is handled"),
    }
    Ok(())
}

fn expr_value(m: &ParseNestedMeta) -> syn::Result<Expr> {
    m.value()?.parse::<Expr>()
}

fn no_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if m.input.peek(Token![=]) || m.input.peek(syn::token::Paren) {
        cx.error(&m.path, format!("`{key}` takes no value: write `#[schema({key})]`"));
        skip_value(m)?;
    }
    Ok(())
}

fn skip_value(m: &ParseNestedMeta) -> syn::Result<()> {
    if m.input.peek(Token![=]) {
        m.value()?.parse::<Expr>()?;
    } else if m.input.peek(syn::token::Paren) {
        let _content;
        syn::parenthesized!(_content in m.input);
        let _: proc_macro2::TokenStream = _content.parse()?;
    }
    Ok(())
}

fn kind_of(e: &Expr) -> &'static str {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(_) => "a string",
            Lit::Int(_) => "an integer",
            Lit::Float(_) => "a float",
            Lit::Bool(_) => "a boolean",
            _ => "a literal",
        },
        Expr::Unary(_) => "a negative number",
        Expr::Path(_) => "a path",
        _ => "an expression",
    }
}

fn string_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Option<String>> {
    if !m.input.peek(Token![=]) {
        cx.error(&m.path, format!("`{key}` needs a value: `{key} = \"...\"`"));
        skip_value(m)?;
        return Ok(None);
    }
    let e = expr_value(m)?;
    match &e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(s.value())),
        other => {
            cx.error(
                other,
                format!("expected a string for `{key}`, found {}", kind_of(other)),
            );
            Ok(None)
        }
    }
}

fn uint_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Option<u64>> {
    if !m.input.peek(Token![=]) {
        cx.error(&m.path, format!("`{key}` needs a value: `{key} = 10`"));
        skip_value(m)?;
        return Ok(None);
    }
    let e = expr_value(m)?;
    match &e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => match i.base10_parse::<u64>() {
            Ok(v) => Ok(Some(v)),
            Err(_) => {
                cx.error(i, format!("`{key}` must fit in a u64"));
                Ok(None)
            }
        },
        other => {
            cx.error(
                other,
                format!(
                    "expected a non-negative integer for `{key}`, found {}",
                    kind_of(other)
                ),
            );
            Ok(None)
        }
    }
}

fn number(e: &Expr) -> Option<Num> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(Num::Int),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Float(f), ..
        }) => f.base10_parse::<f64>().ok().filter(|f| f.is_finite()).map(Num::Float),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match number(expr)? {
            Num::Int(i) => Some(Num::Int(-i)),
            Num::Float(f) => Some(Num::Float(-f)),
        },
        Expr::Group(g) => number(&g.expr),
        Expr::Paren(p) => number(&p.expr),
        _ => None,
    }
}

fn num_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Option<Num>> {
    if !m.input.peek(Token![=]) {
        cx.error(&m.path, format!("`{key}` needs a value: `{key} = 0`"));
        skip_value(m)?;
        return Ok(None);
    }
    let e = expr_value(m)?;
    match number(&e) {
        Some(n) => Ok(Some(n)),
        None => {
            cx.error(
                &e,
                format!("expected a number for `{key}`, found {}", kind_of(&e)),
            );
            Ok(None)
        }
    }
}

fn literal(e: &Expr) -> Option<LitValue> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(LitValue::Str(s.value())),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Bool(b), ..
        }) => Some(LitValue::Bool(b.value)),
        other => number(other).map(LitValue::Num),
    }
}

/// The closest candidate by edit distance, if it is close enough to be a typo.
pub(crate) fn did_you_mean<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (distance(word, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Reads the serde attributes of an item. serde reports malformed ones itself, so anything
/// unreadable here is skipped quietly.
pub(crate) fn serde_attrs(cx: &Ctxt, attrs: &[syn::Attribute]) -> Serde {
    let mut s = Serde::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|m| {
            let key = m
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            match key.as_str() {
                "rename" => s.rename = deserialize_name(&m)?,
                "rename_all" | "rename_all_fields" => {
                    let span = m.path.span();
                    if let Some(rule) = deserialize_name(&m)? {
                        match RenameRule::from_str(&rule) {
                            Some(r) if key == "rename_all" => s.rename_all = Some(r),
                            Some(r) => s.rename_all_fields = Some(r),
                            None => cx.error_at(
                                span,
                                format!(
                                    "unknown rename rule `{rule}`; expected one of: {}",
                                    RULE_NAMES.join(", ")
                                ),
                            ),
                        }
                    }
                }
                "tag" => {
                    if let Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(v), ..
                    }) = expr_value(&m)?
                    {
                        s.tag = Some(v.value());
                    }
                }
                "content" => {
                    s.content = Some(m.path.span());
                    skip_value(&m)?;
                }
                "untagged" => s.untagged = Some(m.path.span()),
                "transparent" => s.transparent = true,
                "default" => {
                    s.default = true;
                    skip_value(&m)?;
                }
                "skip" | "skip_deserializing" => s.skip = true,
                "flatten" => s.flatten = true,
                _ => skip_value(&m)?,
            }
            Ok(())
        });
    }
    s
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name on input, which is what a model writes.
fn deserialize_name(m: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if m.input.peek(Token![=]) {
        if let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(v), ..
        }) = expr_value(m)?
        {
            return Ok(Some(v.value()));
        }
        return Ok(None);
    }
    let mut out = None;
    m.parse_nested_meta(|n| {
        let is_de = n.path.is_ident("deserialize");
        if let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(v), ..
        }) = expr_value(&n)?
        {
            if is_de {
                out = Some(v.value());
            }
        }
        Ok(())
    })?;
    Ok(out)
}

impl Meta {
    /// Each key from `self`, or else from `other`.
    pub(crate) fn or(mut self, other: &Meta) -> Meta {
        macro_rules! fill {
            ($($f:ident),*) => {$( if self.$f.is_none() { self.$f = other.$f.clone(); } )*};
        }
        fill!(
            description, title, min_length, max_length, pattern, format, minimum, maximum,
            exclusive_minimum, exclusive_maximum, multiple_of, min_items, max_items, unique_items,
            const_value, items
        );
        if self.examples.is_empty() {
            self.examples = other.examples.clone();
        }
        self
    }
}
