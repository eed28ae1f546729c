//! Reading `#[schema(...)]`, the serde attributes that change the wire format, and doc comments.
//!
//! Simple checks (a value of the wrong kind, an unknown or duplicate key) happen here, while
//! parsing; rules that need the field's type or several attributes live in `check.rs`.

use crate::case::{RenameRule, RULE_NAMES};
use crate::ctxt::Ctxt;
use proc_macro2::{Span, TokenStream};
use quote::ToTokens as _;
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
    "entries",
];
const CONTAINER_ONLY: &[&str] = &[
    "open",
    "one_object",
    "tag_description",
    "dialect",
    "crate",
    "name",
    "tools",
];
const VARIANT_KEYS: &[&str] = &["description", "title"];
const FIELD_ONLY: &[&str] = &["with", "schema_with"];

fn allowed_keys(pos: Position) -> Vec<&'static str> {
    match pos {
        Position::Container => VALUE_KEYS.iter().chain(CONTAINER_ONLY).copied().collect(),
        Position::Field => VALUE_KEYS.iter().chain(FIELD_ONLY).copied().collect(),
        Position::Items => VALUE_KEYS.to_vec(),
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

/// A value with the spans of the key that set it and of the value itself: an error about where a
/// key stands points at the key, an error about what it says points at the value.
#[derive(Clone)]
pub(crate) struct Spanned<T> {
    pub span: Span,
    /// The value's tokens, so an error can underline all of `-0.5`, not just its `-`.
    pub value_tokens: TokenStream,
    pub value: T,
}

impl<T> Spanned<T> {
    /// A value that no attribute wrote (a doc comment, a default).
    pub(crate) fn implicit(value: T) -> Self {
        Spanned {
            span: Span::call_site(),
            value_tokens: TokenStream::new(),
            value,
        }
    }
}

/// A number written in an attribute.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    /// Bounds are only compared, and no useful bound is near 2^53, so the precision loss of
    /// a very large integer does not matter.
    #[allow(clippy::cast_precision_loss)]
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
    /// `entries`: a map written as an array of `{key, value}` objects in strict dialects.
    pub entries: Option<Spanned<bool>>,
    /// `with = "Type"`: the field's schema is `Type`'s.
    pub with: Option<Spanned<syn::Type>>,
    /// `schema_with = "path::to::fn"`: the field's model is what the function returns.
    pub schema_with: Option<Spanned<syn::Path>>,
    /// `#[schema(stream = "done")]` on a field: its partial appears only once complete.
    pub stream_done: Option<Span>,
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

    /// Keys that only make sense on maps.
    pub(crate) fn map_keys(&self) -> Vec<(&'static str, Span)> {
        self.entries
            .as_ref()
            .map(|s| ("entries", s.span))
            .into_iter()
            .collect()
    }

    /// Every key that constrains the value (not description, title, example).
    pub(crate) fn value_keys(&self) -> Vec<(&'static str, Span)> {
        let mut v = self.string_keys();
        v.extend(self.number_keys());
        v.extend(self.array_keys());
        v.extend(self.map_keys());
        v.extend(self.const_value.as_ref().map(|c| ("const", c.span)));
        v
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
    pub krate: Option<Spanned<syn::Path>>,
    /// `name = "..."`: the schema name sent to providers.
    pub name: Option<Spanned<String>>,
    /// `tools`: the enum is a tool set (each variant a tool).
    pub tools: Option<Span>,
}

/// The serde attributes that change the wire format (serde's own flags, hence the bools).
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct Serde {
    pub rename: Option<String>,
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub tag: Option<String>,
    pub content: Option<Span>,
    /// The name of the content property of an adjacently tagged enum.
    pub content_name: Option<String>,
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
                let line = line
                    .strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_string();
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
        if let Err(e) = attr.parse_nested_meta(|m| parse_key(cx, &m, pos, &mut container)) {
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
            attr.parse_nested_meta(|m| parse_key(cx, &m, Position::Container, &mut container))
        {
            cx.syn_error(e);
        }
    }
    container
}

/// A key's value and the tokens it was written as.
type Val<T> = Option<(T, TokenStream)>;

fn set<T>(cx: &Ctxt, slot: &mut Option<Spanned<T>>, key: &str, span: Span, v: Val<T>) {
    let Some((value, value_tokens)) = v else {
        return;
    };
    if slot.is_some() {
        cx.error_at(
            span,
            format!("duplicate #[schema] key `{key}`: it is already set for this item"),
        );
    } else {
        *slot = Some(Spanned {
            span,
            value_tokens,
            value,
        });
    }
}

fn set_flag(cx: &Ctxt, slot: &mut Option<Span>, key: &str, span: Span) {
    if slot.is_some() {
        cx.error_at(
            span,
            format!("duplicate #[schema] key `{key}`: it is already set for this item"),
        );
    } else {
        *slot = Some(span);
    }
}

fn unknown_key(cx: &Ctxt, key: &str, span: Span, pos: Position, allowed: &[&str]) {
    let msg = if pos == Position::Variant && VALUE_KEYS.contains(&key) {
        format!("`{key}` cannot be put on a variant, which takes only `description` and `title`; constrain the variant's fields instead")
    } else if CONTAINER_ONLY.contains(&key) {
        format!("`{key}` is a container attribute: put it on the struct or enum")
    } else if let Some(s) = did_you_mean(key, allowed) {
        format!("unknown #[schema] key `{key}`; did you mean `{s}`?")
    } else {
        format!(
            "unknown #[schema] key `{key}`; expected one of: {}",
            allowed.join(", ")
        )
    };
    cx.error_at(span, msg);
}

fn parse_key(
    cx: &Ctxt,
    m: &ParseNestedMeta,
    pos: Position,
    c: &mut ContainerSchema,
) -> syn::Result<()> {
    let Some(ident) = m.path.get_ident() else {
        cx.error(
            &m.path,
            "expected a key such as `description` or `max_length`",
        );
        return skip_value(m);
    };
    let key = unraw(ident);
    let key = key.as_str();
    let span = m.path.span();
    if key == "stream" && pos == Position::Field {
        if let Some((v, at)) = string_value(cx, m, key)? {
            if v == "done" {
                set_flag(cx, &mut c.meta.stream_done, key, span);
            } else {
                cx.error(
                    &at,
                    "`stream` takes \"done\": the field's partial value appears only once complete",
                );
            }
        }
        return Ok(());
    }
    let allowed = allowed_keys(pos);
    if !allowed.contains(&key) {
        unknown_key(cx, key, span, pos, &allowed);
        return skip_value(m);
    }
    let meta = &mut c.meta;
    match key {
        "description" => set(
            cx,
            &mut meta.description,
            key,
            span,
            string_value(cx, m, key)?,
        ),
        "title" => set(cx, &mut meta.title, key, span, string_value(cx, m, key)?),
        "pattern" => set(cx, &mut meta.pattern, key, span, string_value(cx, m, key)?),
        "format" => set(cx, &mut meta.format, key, span, string_value(cx, m, key)?),
        "min_length" => set(cx, &mut meta.min_length, key, span, uint_value(cx, m, key)?),
        "max_length" => set(cx, &mut meta.max_length, key, span, uint_value(cx, m, key)?),
        "min_items" => set(cx, &mut meta.min_items, key, span, uint_value(cx, m, key)?),
        "max_items" => set(cx, &mut meta.max_items, key, span, uint_value(cx, m, key)?),
        "minimum" => set(cx, &mut meta.minimum, key, span, num_value(cx, m, key)?),
        "maximum" => set(cx, &mut meta.maximum, key, span, num_value(cx, m, key)?),
        "exclusive_minimum" => set(
            cx,
            &mut meta.exclusive_minimum,
            key,
            span,
            num_value(cx, m, key)?,
        ),
        "exclusive_maximum" => set(
            cx,
            &mut meta.exclusive_maximum,
            key,
            span,
            num_value(cx, m, key)?,
        ),
        "multiple_of" => set(cx, &mut meta.multiple_of, key, span, num_value(cx, m, key)?),
        "unique_items" => set(
            cx,
            &mut meta.unique_items,
            key,
            span,
            bool_value(cx, m, key)?,
        ),
        "entries" => set(cx, &mut meta.entries, key, span, bool_value(cx, m, key)?),
        "const" => set(
            cx,
            &mut meta.const_value,
            key,
            span,
            literal_value(cx, m, key)?,
        ),
        "example" => {
            if let Some((l, _)) = literal_value(cx, m, key)? {
                meta.examples.push(l);
            }
        }
        "items" => {
            if m.input.peek(syn::token::Paren) {
                let mut inner = ContainerSchema::default();
                m.parse_nested_meta(|n| parse_key(cx, &n, Position::Items, &mut inner))?;
                set(
                    cx,
                    &mut meta.items,
                    key,
                    span,
                    Some((Box::new(inner.meta), m.path.to_token_stream())),
                );
            } else {
                cx.error_at(span, "`items` takes a list: `items(max_length = 30)`");
                skip_value(m)?;
            }
        }
        "with" => {
            let v = string_value(cx, m, key)?.and_then(|(v, at)| {
                let ty = parse_at::<syn::Type>(&v, &at);
                if ty.is_none() {
                    cx.error(&at, "expected a type such as \"String\" or \"my::Wrapper\"");
                }
                ty.map(|t| (t, at))
            });
            set(cx, &mut meta.with, key, span, v);
        }
        "schema_with" => {
            let v = string_value(cx, m, key)?.and_then(|(v, at)| {
                let path = parse_at::<syn::Path>(&v, &at);
                if path.is_none() {
                    cx.error(&at, "expected a path to a function such as \"my::schema\"");
                }
                path.map(|p| (p, at))
            });
            set(cx, &mut meta.schema_with, key, span, v);
        }
        _ => parse_container_key(cx, m, key, span, c)?,
    }
    Ok(())
}

/// The keys only a container takes (already known to be allowed here).
fn parse_container_key(
    cx: &Ctxt,
    m: &ParseNestedMeta,
    key: &str,
    span: Span,
    c: &mut ContainerSchema,
) -> syn::Result<()> {
    match key {
        "open" => {
            no_value(cx, m, key)?;
            set_flag(cx, &mut c.open, key, span);
        }
        "one_object" => {
            no_value(cx, m, key)?;
            set_flag(cx, &mut c.one_object, key, span);
        }
        "tag_description" => set(
            cx,
            &mut c.tag_description,
            key,
            span,
            string_value(cx, m, key)?,
        ),
        "name" => set(cx, &mut c.name, key, span, string_value(cx, m, key)?),
        "tools" => {
            no_value(cx, m, key)?;
            set_flag(cx, &mut c.tools, key, span);
        }
        "dialect" => {
            let v = string_value(cx, m, key)?.filter(|(v, at)| known_dialect(cx, v, at));
            set(cx, &mut c.dialect, key, span, v);
        }
        "crate" => {
            let v = string_value(cx, m, key)?.and_then(|(v, at)| {
                let path = syn::parse_str(&v).ok();
                if path.is_none() {
                    cx.error(&at, "expected a path such as \"::schema_core\"");
                }
                path.map(|p| (p, at))
            });
            set(cx, &mut c.krate, key, span, v);
        }
        _ => unreachable!("every allowed key is handled"),
    }
    Ok(())
}

const DIALECTS: &[&str] = &[
    "jsonschema",
    "openai",
    "anthropic",
    "gemini",
    "lmstudio",
    "llguidance",
    "xgrammar",
    "llamacpp",
    "ollama",
    "vllm",
];

fn known_dialect(cx: &Ctxt, v: &str, at: &TokenStream) -> bool {
    if DIALECTS.contains(&v) {
        return true;
    }
    let msg = match did_you_mean(v, DIALECTS) {
        Some(s) => format!("unknown dialect `{v}`; did you mean `{s}`?"),
        None => format!(
            "unknown dialect `{v}`; expected one of: {}",
            DIALECTS.join(", ")
        ),
    };
    cx.error(at, msg);
    false
}

pub(crate) fn unraw(ident: &syn::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn no_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<()> {
    if m.input.peek(Token![=]) || m.input.peek(syn::token::Paren) {
        cx.error(
            &m.path,
            format!("`{key}` takes no value: write `#[schema({key})]`"),
        );
        skip_value(m)?;
    }
    Ok(())
}

fn skip_value(m: &ParseNestedMeta) -> syn::Result<()> {
    if m.input.peek(Token![=]) {
        any_expr(m.value()?)?;
    } else if m.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in m.input);
        content.parse::<proc_macro2::TokenStream>()?;
    }
    Ok(())
}

/// The expression up to the next top-level `,`. syn is built without its `full` feature (compile
/// cost), so it parses literals, paths, unary and binary operators but not arrays, blocks or
/// closures: those are kept as `Expr::Verbatim`, so that a wrong value is reported as "found an
/// expression" on its own span, as any other unusable value is, rather than as a syn parse error.
fn any_expr(input: syn::parse::ParseStream) -> syn::Result<Expr> {
    let fork = input.fork();
    if let Ok(e) = fork.parse::<Expr>() {
        if fork.is_empty() || fork.peek(Token![,]) {
            syn::parse::discouraged::Speculative::advance_to(input, &fork);
            return Ok(e);
        }
    }
    let mut tokens = TokenStream::new();
    while !input.is_empty() && !input.peek(Token![,]) {
        tokens.extend([input.parse::<proc_macro2::TokenTree>()?]);
    }
    if tokens.is_empty() {
        return Err(input.error("expected an expression"));
    }
    Ok(Expr::Verbatim(tokens))
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

/// The expression after `key =`, or an error on the key when `= value` is missing.
fn expr_value(
    cx: &Ctxt,
    m: &ParseNestedMeta,
    key: &str,
    example: &str,
) -> syn::Result<Option<Expr>> {
    if !m.input.peek(Token![=]) {
        cx.error(
            &m.path,
            format!("`{key}` needs a value: `{key} = {example}`"),
        );
        skip_value(m)?;
        return Ok(None);
    }
    Ok(Some(any_expr(m.value()?)?))
}

/// Reads `key = <expr>` and converts the expression with `read`; reports `expected` if it fails.
fn typed_value<T>(
    cx: &Ctxt,
    m: &ParseNestedMeta,
    key: &str,
    (expected, example): (&str, &str),
    read: impl FnOnce(&Expr) -> Option<T>,
) -> syn::Result<Val<T>> {
    let Some(e) = expr_value(cx, m, key, example)? else {
        return Ok(None);
    };
    let value = read(&e);
    if value.is_none() {
        cx.error(
            &e,
            format!("expected {expected} for `{key}`, found {}", kind_of(&e)),
        );
    }
    Ok(value.map(|v| (v, e.to_token_stream())))
}

/// Parses the text of a string literal as Rust syntax, every token spanned at the literal, so
/// that an error about the named type or function points at the attribute.
fn parse_at<T: syn::parse::Parse>(text: &str, at: &TokenStream) -> Option<T> {
    let span = at
        .clone()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span());
    let tokens: TokenStream = syn::parse_str(text).ok()?;
    syn::parse2(respan(tokens, span)).ok()
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut ng = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                ng.set_span(span);
                t = proc_macro2::TokenTree::Group(ng);
            } else {
                t.set_span(span);
            }
            t
        })
        .collect()
}

fn string_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Val<String>> {
    typed_value(cx, m, key, ("a string", "\"...\""), |e| match e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => None,
    })
}

fn uint_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Val<u64>> {
    typed_value(
        cx,
        m,
        key,
        ("a non-negative integer (u64)", "10"),
        |e| match e {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(i), ..
            }) => i.base10_parse::<u64>().ok(),
            _ => None,
        },
    )
}

fn num_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Val<Num>> {
    typed_value(cx, m, key, ("a number", "0"), number)
}

/// `unique_items` (or `entries`) alone means `unique_items = true`.
fn bool_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Val<bool>> {
    if !m.input.peek(Token![=]) {
        no_value(cx, m, key)?;
        return Ok(Some((true, m.path.to_token_stream())));
    }
    typed_value(cx, m, key, ("`true` or `false`", "true"), |e| match e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Bool(b), ..
        }) => Some(b.value),
        _ => None,
    })
}

fn literal_value(cx: &Ctxt, m: &ParseNestedMeta, key: &str) -> syn::Result<Val<LitValue>> {
    typed_value(
        cx,
        m,
        key,
        ("a literal (a string, a number or a boolean)", "\"...\""),
        literal,
    )
}

fn number(e: &Expr) -> Option<Num> {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i128>().ok().map(Num::Int),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Float(f), ..
        }) => f
            .base10_parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Num::Float),
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
                .map(ToString::to_string)
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
                    }) = serde_value(&m)?
                    {
                        s.tag = Some(v.value());
                    }
                }
                "content" => {
                    s.content = Some(m.path.span());
                    if let Expr::Lit(syn::ExprLit {
                        lit: Lit::Str(v), ..
                    }) = serde_value(&m)?
                    {
                        s.content_name = Some(v.value());
                    }
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

fn serde_value(m: &ParseNestedMeta) -> syn::Result<Expr> {
    m.value()?.parse()
}

/// `rename = "x"` or `rename(deserialize = "x")`: the name on input, which is what a model writes.
fn deserialize_name(m: &ParseNestedMeta) -> syn::Result<Option<String>> {
    if m.input.peek(Token![=]) {
        if let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(v), ..
        }) = serde_value(m)?
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
        }) = serde_value(&n)?
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
            description,
            title,
            min_length,
            max_length,
            pattern,
            format,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_items,
            max_items,
            unique_items,
            const_value,
            items,
            entries
        );
        if self.examples.is_empty() {
            self.examples.clone_from(&other.examples);
        }
        self
    }
}
