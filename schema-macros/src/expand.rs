//! Code generation: the static model of the type and the `AgentSchema` impl that returns it.
//! Reads only the checked `ast` model, never raw attributes.

use crate::ast::{Container, Data, Field, Style, Variant};
use crate::attr::{LitValue, Meta, Num};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;

pub(crate) fn krate(c: Option<&Container>) -> TokenStream {
    c.and_then(|c| c.schema.krate.as_ref())
        .map_or_else(|| quote!(::schema_core), |p| p.value.to_token_stream())
}

/// The impl header shared by the real impl and the stand-in one.
fn impl_header(ident: &syn::Ident, generics: &syn::Generics) -> TokenStream {
    let mut generics = generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    {
        let wc = generics.make_where_clause();
        for p in params {
            wc.predicates.push(syn::parse_quote!(#p: _sc::AgentSchema));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics _sc::AgentSchema for #ident #ty_generics #where_clause
    }
}

fn wrap(krate: &TokenStream, body: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        const _: () = {
            use #krate as _sc;
            #body
        };
    }
}

/// A stand-in impl, so that a failed derive shows only its real errors and not a cascade of
/// "`AgentSchema` is not implemented" at every use.
pub(crate) fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let header = impl_header(&input.ident, &input.generics);
    let partial = if cfg!(feature = "stream") {
        quote!(
            type Partial = _sc::stream::Leaf<Self>;
        )
    } else {
        TokenStream::new()
    };
    wrap(
        krate,
        &quote! {
            #header {
                #partial
                fn schema_type() -> &'static _sc::model::Type {
                    ::core::unimplemented!("the derive reported errors")
                }
            }
        },
    )
}

pub(crate) fn expand(c: &Container) -> TokenStream {
    let header = impl_header(c.ident, c.generics);
    let kind = kind(c);
    let cache = type_cache(c.generics);
    let map_key = map_key(c);
    let schema_name = c.schema.name.as_ref().map(|n| {
        let n = &n.value;
        quote!(fn schema_name() -> &'static str { #n })
    });
    // The tool methods and the typed partial value call schema-core's `tools` and `stream`
    // modules: generated only under the features that build them (schema-core's features of
    // the same names turn these on).
    let tools = if cfg!(feature = "tools") {
        crate::tools::expand(c)
    } else {
        TokenStream::new()
    };
    let krate = krate(Some(c));
    let (assoc, items) = if cfg!(feature = "stream") {
        let partial = crate::partial::partial(c, &krate);
        (partial.assoc, partial.items)
    } else {
        (TokenStream::new(), TokenStream::new())
    };
    let is_object = is_object(c);
    let asserts = object_content_asserts(c);
    // A generic type checks in the model's `const` block (evaluated per instantiation); any
    // other type in a free `const` item, evaluated even by `cargo check`.
    let generic =
        c.generics.type_params().next().is_some() || c.generics.const_params().next().is_some();
    let (inline_asserts, free_asserts) = if generic {
        (quote!(#(#asserts;)*), TokenStream::new())
    } else {
        (TokenStream::new(), quote!(#(const _: () = #asserts;)*))
    };
    let body = wrap(
        &krate,
        &quote! {
            #header {
                #assoc
                const IS_OBJECT: bool = #is_object;
                fn schema_type() -> &'static _sc::model::Type {
                    const { #inline_asserts &_sc::model::Type { kind: #kind } }
                }
                #cache
                #schema_name
            }
            #free_asserts
            #map_key
            #tools
        },
    );
    quote!(#items #body)
}

/// `AgentSchema::IS_OBJECT`: whether serde writes the type as an object an internally tagged
/// enum can merge its tag into (what the renderer accepts as flattened content).
fn is_object(c: &Container) -> TokenStream {
    match &c.data {
        Data::Struct(_) => quote!(true),
        Data::Newtype(f) => {
            if f.meta.schema_with.is_some() {
                // A hand-written model: nothing known at compile time.
                return quote!(false);
            }
            let ty = f.meta.with.as_ref().map_or(f.ty, |w| &w.value);
            let trait_path = quote!(_sc::AgentSchema);
            quote!(<#ty as #trait_path>::IS_OBJECT)
        }
        Data::Tuple(_) | Data::Unit => quote!(false),
        Data::Enum(variants) => {
            let live = || variants.iter().filter(|v| !v.serde.skip);
            let yes = if c.serde.untagged.is_some() || c.serde.content_name.is_some() {
                false
            } else if c.serde.tag.is_some() {
                true
            } else {
                // Externally tagged: `{"Variant": ...}` merges only when no variant is a bare
                // string (a unit variant) or untagged content.
                live().all(|v| !matches!(v.style, Style::Unit) && v.serde.untagged.is_none())
            };
            quote!(#yes)
        }
    }
}

/// For each internally tagged newtype variant whose content the macro cannot see (a user's
/// type), a `const` assertion that the content is an object (`AgentSchema::IS_OBJECT`), on the
/// variant's span: serde would fail on anything else at run time.
fn object_content_asserts(c: &Container) -> Vec<TokenStream> {
    let Data::Enum(variants) = &c.data else {
        return Vec::new();
    };
    if c.serde.tag.is_none() || c.serde.content_name.is_some() || c.serde.untagged.is_some() {
        return Vec::new();
    }
    variants
        .iter()
        .filter(|v| !v.serde.skip && v.serde.untagged.is_none())
        .filter_map(|v| {
            let Style::Newtype(f) = &v.style else {
                return None;
            };
            // Other shapes are refused by name in `check.rs`; a map is checked here for its
            // key (serde cannot read integer keys from the content it buffers).
            if f.meta.schema_with.is_some()
                || !matches!(
                    crate::check::field_shape(f),
                    crate::check::Shape::Unknown | crate::check::Shape::Map
                )
            {
                return None;
            }
            let ty = f.meta.with.as_ref().map_or(f.ty, |w| &w.value);
            let shown = ty.to_token_stream().to_string().replace(' ', "");
            // `assert!` reads its message as a format string.
            let message = format!(
                "the content of the internally tagged newtype variant `{0}` is `{shown}`, which serde does not read as an object (a struct with named fields, a map with string keys or an internally tagged enum): serde fails on it at run time. Wrap it in a struct variant (`{0} {{ value: ... }}`), or use an adjacently tagged enum (#[serde(tag = \"...\", content = \"...\")])",
                v.ident
            )
            .replace('{', "{{")
            .replace('}', "}}");
            let trait_path = quote!(_sc::AgentSchema);
            Some(quote_spanned!(v.ident.span()=>
                ::core::assert!(<#ty as #trait_path>::IS_OBJECT, #message)
            ))
        })
        .collect()
}

/// The type's own cache slots, for a type without type or const parameters. A `static` in a
/// generic impl would be shared by every instantiation, so generic types keep the trait's
/// default (a global map keyed by their model).
fn type_cache(generics: &syn::Generics) -> TokenStream {
    if generics.type_params().next().is_some() || generics.const_params().next().is_some() {
        return TokenStream::new();
    }
    quote! {
        fn type_cache() -> &'static _sc::TypeCache {
            static CACHE: _sc::TypeCache = _sc::TypeCache::new();
            &CACHE
        }
    }
}

/// `MapKey` for the types serde writes as a string: unit-only enums and newtypes of a key.
fn map_key(c: &Container) -> TokenStream {
    let mut string_key = TokenStream::new();
    let bound = match &c.data {
        Data::Enum(vs)
            if c.serde.tag.is_none()
                && c.serde.untagged.is_none()
                && vs
                    .iter()
                    .all(|v| matches!(v.style, Style::Unit) && v.serde.untagged.is_none()) =>
        {
            None
        }
        Data::Newtype(f) => {
            let ty = f.ty;
            string_key = quote!(const STRING_KEY: bool = <#ty as _sc::MapKey>::STRING_KEY;);
            Some(f.ty)
        }
        _ => return TokenStream::new(),
    };
    let mut generics = c.generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    {
        let wc = generics.make_where_clause();
        for p in params {
            wc.predicates.push(syn::parse_quote!(#p: _sc::AgentSchema));
        }
        if let Some(ty) = bound {
            // The binder keeps a bound on a concrete type (`struct W(Point)`) from being a
            // "trivially false" bound, which rustc rejects: the impl then simply does not apply.
            wc.predicates
                .push(syn::parse_quote!(for<'__schema_key> #ty: _sc::MapKey));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let ident = c.ident;
    quote! {
        #[automatically_derived]
        impl #impl_generics _sc::MapKey for #ident #ty_generics #where_clause {
            #string_key
            fn key_type() -> &'static _sc::model::Type {
                <Self as _sc::AgentSchema>::schema_type()
            }
        }
    }
}

fn kind(c: &Container) -> TokenStream {
    let name = c.ident.to_string();
    let meta = meta_tokens(&c.schema.meta);
    let open = c.schema.open.is_some();
    match &c.data {
        Data::Struct(fields) => {
            let fields = fields.iter().filter(|f| !f.serde.skip).map(field_tokens);
            quote! {
                _sc::model::Kind::Struct(&_sc::model::Struct {
                    id: ::core::any::type_name::<Self>,
                    name: #name,
                    meta: #meta,
                    fields: &[#(#fields),*],
                    open: #open,
                })
            }
        }
        Data::Newtype(f) => {
            let merged = c.schema.meta.clone().or(&f.meta);
            let meta = meta_tokens(&merged);
            let ty = field_type_fn(f);
            quote! {
                _sc::model::Kind::Newtype(&_sc::model::Newtype {
                    id: ::core::any::type_name::<Self>,
                    name: #name,
                    inner: #ty,
                    meta: #meta,
                })
            }
        }
        Data::Tuple(fields) => {
            let tys = fields.iter().map(|f| f.ty);
            let ty = type_fn(&syn::parse_quote!((#(#tys,)*)));
            quote! {
                _sc::model::Kind::Newtype(&_sc::model::Newtype {
                    id: ::core::any::type_name::<Self>,
                    name: #name,
                    inner: #ty,
                    meta: #meta,
                })
            }
        }
        Data::Unit => quote! {
            _sc::model::Kind::Newtype(&_sc::model::Newtype {
                id: ::core::any::type_name::<Self>,
                name: #name,
                inner: <() as _sc::AgentSchema>::schema_type,
                meta: #meta,
            })
        },
        Data::Enum(variants) => {
            let all_unit = variants
                .iter()
                .filter(|v| !v.serde.skip)
                .all(|v| matches!(v.style, Style::Unit) && v.serde.untagged.is_none());
            let repr = match (&c.serde.tag, &c.serde.content_name) {
                _ if c.serde.untagged.is_some() => quote!(_sc::model::Repr::Untagged),
                (Some(tag), Some(content)) => {
                    quote!(_sc::model::Repr::Adjacent { tag: #tag, content: #content })
                }
                (Some(tag), None) => quote!(_sc::model::Repr::Internal { tag: #tag }),
                (None, _) if all_unit => quote!(_sc::model::Repr::Unit),
                (None, _) => quote!(_sc::model::Repr::External),
            };
            let internal = c.serde.tag.is_some() && c.serde.content_name.is_none();
            let variants = variants
                .iter()
                .filter(|v| !v.serde.skip)
                .map(|v| variant_tokens(v, internal));
            let one_object = c.schema.one_object.is_some();
            let tag_description = opt_str(c.schema.tag_description.as_ref().map(|s| &s.value));
            quote! {
                _sc::model::Kind::Enum(&_sc::model::Enum {
                    id: ::core::any::type_name::<Self>,
                    name: #name,
                    meta: #meta,
                    repr: #repr,
                    variants: &[#(#variants),*],
                    one_object: #one_object,
                    tag_description: #tag_description,
                    open: #open,
                })
            }
        }
    }
}

/// `<Ty as AgentSchema>::schema_type`, spanned so that a missing impl is reported on the field's
/// type. The trait path keeps the macro's own span: with the user's span, rustc would lint it
/// as an unnecessary qualification wherever the user imported `AgentSchema`.
fn type_fn(ty: &syn::Type) -> TokenStream {
    let trait_path = quote!(_sc::AgentSchema);
    quote_spanned!(ty.span()=> <#ty as #trait_path>::schema_type)
}

/// The field's type function: its own type's, or the one `with` / `schema_with` names.
fn field_type_fn(f: &Field) -> TokenStream {
    if let Some(path) = &f.meta.schema_with {
        let p = &path.value;
        return quote_spanned!(path.value.span()=> #p as _sc::model::TypeFn);
    }
    match &f.meta.with {
        Some(with) => type_fn(&with.value),
        None => type_fn(f.ty),
    }
}

fn field_tokens(f: &Field) -> TokenStream {
    let name = &f.name;
    let rust_name = &f.rust_name;
    let ty = field_type_fn(f);
    let meta = meta_tokens(&f.meta);
    let default = f.serde.default;
    let flatten = f.serde.flatten;
    quote! {
        _sc::model::Field {
            name: #name,
            rust_name: #rust_name,
            ty: #ty,
            meta: #meta,
            default: #default,
            flatten: #flatten,
        }
    }
}

fn variant_tokens(v: &Variant, internal: bool) -> TokenStream {
    let name = &v.name;
    let rust_name = v.ident.to_string();
    let meta = meta_tokens(&v.meta);
    let untagged = v.serde.untagged.is_some();
    let (style, fields): (TokenStream, Vec<TokenStream>) = match &v.style {
        Style::Unit => (quote!(Unit), Vec::new()),
        Style::Struct(fields) => (
            quote!(Struct),
            fields
                .iter()
                .filter(|f| !f.serde.skip)
                .map(field_tokens)
                .collect(),
        ),
        Style::Tuple(fields) => (quote!(Tuple), fields.iter().map(field_tokens).collect()),
        Style::Newtype(f) => {
            let ty = field_type_fn(f);
            // Internally tagged: the content is merged into the variant's object.
            let meta = if internal && !untagged {
                quote!(_sc::model::Meta::EMPTY)
            } else {
                meta_tokens(&f.meta)
            };
            (
                quote!(Newtype),
                vec![quote! {
                    _sc::model::Field {
                        name: "",
                        rust_name: "0",
                        ty: #ty,
                        meta: #meta,
                        default: false,
                        flatten: true,
                    }
                }],
            )
        }
    };
    quote! {
        _sc::model::Variant {
            name: #name,
            rust_name: #rust_name,
            meta: #meta,
            fields: &[#(#fields),*],
            style: _sc::model::VariantStyle::#style,
            untagged: #untagged,
        }
    }
}

fn opt_str(s: Option<&String>) -> TokenStream {
    s.map_or_else(
        || quote!(::core::option::Option::None),
        |s| quote!(::core::option::Option::Some(#s)),
    )
}

fn num_tokens(n: Num) -> TokenStream {
    match n {
        Num::Int(i) => {
            let lit = proc_macro2::Literal::i128_suffixed(i);
            quote!(_sc::model::Num::Int(#lit))
        }
        Num::Float(f) => {
            let lit = proc_macro2::Literal::f64_suffixed(f);
            quote!(_sc::model::Num::Float(#lit))
        }
    }
}

fn lit_tokens(l: &LitValue) -> TokenStream {
    match l {
        LitValue::Str(s) => quote!(_sc::model::Lit::Str(#s)),
        LitValue::Num(n) => {
            let n = num_tokens(*n);
            quote!(_sc::model::Lit::Num(#n))
        }
        LitValue::Bool(b) => quote!(_sc::model::Lit::Bool(#b)),
    }
}

fn meta_tokens(m: &Meta) -> TokenStream {
    let mut parts = Vec::new();
    let some = |t: TokenStream| quote!(::core::option::Option::Some(#t));
    if let Some(d) = &m.description {
        let v = &d.value;
        let t = some(quote!(#v));
        parts.push(quote!(description: #t));
    }
    if let Some(d) = &m.title {
        let v = &d.value;
        let t = some(quote!(#v));
        parts.push(quote!(title: #t));
    }
    for (key, v) in [
        ("min_length", &m.min_length),
        ("max_length", &m.max_length),
        ("min_items", &m.min_items),
        ("max_items", &m.max_items),
    ] {
        if let Some(v) = v {
            let key = syn::Ident::new(key, proc_macro2::Span::call_site());
            let lit = proc_macro2::Literal::u64_suffixed(v.value);
            let t = some(quote!(#lit));
            parts.push(quote!(#key: #t));
        }
    }
    for (key, v) in [("pattern", &m.pattern), ("format", &m.format)] {
        if let Some(v) = v {
            let key = syn::Ident::new(key, proc_macro2::Span::call_site());
            let s = &v.value;
            let t = some(quote!(#s));
            parts.push(quote!(#key: #t));
        }
    }
    for (key, v) in [
        ("minimum", &m.minimum),
        ("maximum", &m.maximum),
        ("exclusive_minimum", &m.exclusive_minimum),
        ("exclusive_maximum", &m.exclusive_maximum),
        ("multiple_of", &m.multiple_of),
    ] {
        if let Some(v) = v {
            let key = syn::Ident::new(key, proc_macro2::Span::call_site());
            let t = some(num_tokens(v.value));
            parts.push(quote!(#key: #t));
        }
    }
    if let Some(u) = &m.unique_items {
        let b = u.value;
        parts.push(quote!(unique_items: #b));
    }
    if let Some(c) = &m.const_value {
        let t = some(lit_tokens(&c.value));
        parts.push(quote!(const_value: #t));
    }
    if !m.examples.is_empty() {
        let ex = m.examples.iter().map(lit_tokens);
        parts.push(quote!(examples: &[#(#ex),*]));
    }
    if let Some(e) = &m.entries {
        let b = e.value;
        parts.push(quote!(entries: #b));
    }
    if let Some(items) = &m.items {
        let inner = meta_tokens(&items.value);
        let t = some(quote!(&#inner));
        parts.push(quote!(items: #t));
    }
    if parts.is_empty() {
        return quote!(_sc::model::Meta::EMPTY);
    }
    quote!(_sc::model::Meta { #(#parts,)* .._sc::model::Meta::EMPTY })
}
