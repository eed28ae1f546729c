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
    wrap(
        krate,
        &quote! {
            #header {
                type Partial = _sc::stream::Leaf<Self>;
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
    let krate = krate(Some(c));
    let partial = crate::partial::partial(c, &krate);
    let (assoc, items) = (partial.assoc, partial.items);
    let body = wrap(
        &krate,
        &quote! {
            #header {
                #assoc
                fn schema_type() -> &'static _sc::model::Type {
                    const { &_sc::model::Type { kind: #kind } }
                }
            }
        },
    );
    quote!(#items #body)
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
            let ty = type_fn(f.ty);
            quote! {
                _sc::model::Kind::Newtype(&_sc::model::Newtype {
                    id: ::core::any::type_name::<Self>,
                    name: #name,
                    inner: #ty,
                    meta: #meta,
                })
            }
        }
        Data::Enum(variants) => {
            let repr = c.serde.tag.as_ref().map_or_else(
                || quote!(_sc::model::Repr::Unit),
                |tag| quote!(_sc::model::Repr::Internal { tag: #tag }),
            );
            let variants = variants
                .iter()
                .filter(|v| !v.serde.skip)
                .map(variant_tokens);
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

fn field_tokens(f: &Field) -> TokenStream {
    let name = &f.name;
    let rust_name = &f.rust_name;
    let ty = type_fn(f.ty);
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

fn variant_tokens(v: &Variant) -> TokenStream {
    let name = &v.name;
    let rust_name = v.ident.to_string();
    let meta = meta_tokens(&v.meta);
    let fields: Vec<TokenStream> = match &v.style {
        Style::Unit | Style::Tuple => Vec::new(),
        Style::Struct(fields) => fields
            .iter()
            .filter(|f| !f.serde.skip)
            .map(field_tokens)
            .collect(),
        Style::Newtype(f) => {
            let ty = type_fn(f.ty);
            vec![quote! {
                _sc::model::Field {
                    name: "",
                    rust_name: "0",
                    ty: #ty,
                    meta: _sc::model::Meta::EMPTY,
                    default: false,
                    flatten: true,
                }
            }]
        }
    };
    quote! {
        _sc::model::Variant {
            name: #name,
            rust_name: #rust_name,
            meta: #meta,
            fields: &[#(#fields),*],
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
