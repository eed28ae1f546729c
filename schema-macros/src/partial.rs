//! Code generation of `T::Partial`: the value while it streams in (see `schema_core::stream`).
//! A struct gets `FooPartial` with the same fields, each its type's partial; an internally
//! tagged enum gets `FooPartial` with an `Undecided` state until its tag is complete; a string
//! enum uses `Leaf<Self>`; a newtype uses its inner type's partial.

use crate::ast::{Container, Data, Field, Style, Variant};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

/// The `type Partial = ...;` item of the impl, and the items defined beside the impl.
pub(crate) struct Partial {
    pub assoc: TokenStream,
    pub items: TokenStream,
}

pub(crate) fn partial(c: &Container, krate: &TokenStream) -> Partial {
    let ident = c.ident;
    let (_, ty_generics, _) = c.generics.split_for_impl();
    let name = format_ident!("{}Partial", ident, span = proc_macro2::Span::call_site());
    let vis = &c.vis;
    let has_generics = !c.generics.params.is_empty();
    let marker_ty = quote!(::core::marker::PhantomData<fn() -> #ident #ty_generics>);
    let doc = format!(
        "The value of [`{ident}`] while it streams in: see the rules in `schema_core::stream`."
    );
    let bounded = bounded_generics(c.generics, krate);
    let (b_impl, _, b_where) = bounded.split_for_impl();
    match &c.data {
        Data::Newtype(f) => Partial {
            assoc: {
                let p = field_projection(f, krate);
                quote!(type Partial = #p;)
            },
            items: quote!(),
        },
        // Shown only once complete: string enums, and the representations whose variant is not
        // named by a tag that comes first (external, adjacent, untagged), tuples and unit structs.
        Data::Tuple(_) | Data::Unit => Partial {
            assoc: quote!(type Partial = #krate::stream::Leaf<Self>;),
            items: quote!(),
        },
        Data::Enum(_) if !streams_by_tag(c) => Partial {
            assoc: quote!(type Partial = #krate::stream::Leaf<Self>;),
            items: quote!(),
        },
        Data::Struct(fields) => {
            let fields: Vec<&Field> = fields.iter().filter(|f| !f.serde.skip).collect();
            let decls = fields.iter().map(|f| field_decl(f, vis, krate));
            let marker = has_generics.then(|| quote!(#[doc(hidden)] pub __marker: #marker_ty,));
            let defaults = fields.iter().map(|f| {
                let id = field_ident(f);
                quote!(#id: ::core::default::Default::default(),)
            });
            let marker_default =
                has_generics.then(|| quote!(__marker: ::core::marker::PhantomData,));
            let access: Vec<TokenStream> = fields
                .iter()
                .map(|f| {
                    let id = field_ident(f);
                    quote!(self.#id)
                })
                .collect();
            let apply = dispatch(&fields, &access, krate);
            let json = object_json(&fields, &access, None, krate);
            Partial {
                assoc: quote!(type Partial = #name #ty_generics;),
                items: quote! {
                    #[doc = #doc]
                    #[allow(non_snake_case)]
                    #vis struct #name #b_impl #b_where {
                        #(#decls)*
                        #marker
                    }

                    #[automatically_derived]
                    impl #b_impl ::core::default::Default for #name #ty_generics #b_where {
                        fn default() -> Self {
                            #name { #(#defaults)* #marker_default }
                        }
                    }

                    #[automatically_derived]
                    impl #b_impl #krate::stream::PartialValue for #name #ty_generics #b_where {
                        fn apply(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            event: &#krate::stream::Event<'_>,
                        ) -> bool {
                            #apply
                        }

                        fn to_json(&self) -> ::core::option::Option<#krate::__private::Value> {
                            #json
                        }
                    }
                },
            }
        }
        Data::Enum(variants) => {
            let tag = c.serde.tag.clone().unwrap_or_default();
            let variants: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip).collect();
            let decls = variants.iter().map(|v| variant_decl(v, vis, krate));
            let marker = has_generics
                .then(|| quote!(#[doc(hidden)] __Marker(#marker_ty, ::core::convert::Infallible),));
            let marker_arm = has_generics.then(|| quote!(#name::__Marker(..) => false,));
            let marker_json = has_generics.then(|| quote!(#name::__Marker(..) => None,));
            let starts = variants.iter().map(|v| {
                let wire = &v.name;
                let vid = v.ident;
                match &v.style {
                    Style::Struct(fields) => {
                        let defaults = fields.iter().filter(|f| !f.serde.skip).map(|f| {
                            let id = field_ident(f);
                            quote!(#id: ::core::default::Default::default(),)
                        });
                        quote!(#wire => #name::#vid { #(#defaults)* },)
                    }
                    Style::Newtype(_) => {
                        quote!(#wire => #name::#vid(::core::default::Default::default()),)
                    }
                    Style::Unit | Style::Tuple(_) => quote!(#wire => #name::#vid,),
                }
            });
            let arms = variants.iter().map(|v| {
                let vid = v.ident;
                match &v.style {
                    Style::Struct(fields) => {
                        let fields: Vec<&Field> = fields.iter().filter(|f| !f.serde.skip).collect();
                        let ids: Vec<syn::Ident> = fields.iter().map(|f| field_ident(f)).collect();
                        let binds: Vec<syn::Ident> = (0..ids.len())
                            .map(|i| format_ident!("__field{}", i))
                            .collect();
                        let access: Vec<TokenStream> =
                            binds.iter().map(|i| quote!((*#i))).collect();
                        let body = dispatch(&fields, &access, krate);
                        quote!(#name::#vid { #(#ids: #binds,)* } => { #body })
                    }
                    Style::Newtype(_) => quote!(#name::#vid(inner) => inner.apply(path, event),),
                    Style::Unit | Style::Tuple(_) => quote!(#name::#vid => false,),
                }
            });
            let jsons = variants.iter().map(|v| {
                let vid = v.ident;
                let wire = &v.name;
                let tag_entry = quote!((#tag, ::core::option::Option::Some(#krate::__private::Value::from(#wire))));
                match &v.style {
                    Style::Struct(fields) => {
                        let fields: Vec<&Field> = fields.iter().filter(|f| !f.serde.skip).collect();
                        let ids: Vec<syn::Ident> = fields.iter().map(|f| field_ident(f)).collect();
                        let binds: Vec<syn::Ident> =
                            (0..ids.len()).map(|i| format_ident!("__field{}", i)).collect();
                        let access: Vec<TokenStream> = binds.iter().map(|i| quote!((*#i))).collect();
                        let body = object_json(&fields, &access, Some(&tag_entry), krate);
                        quote!(#name::#vid { #(#ids: #binds,)* } => { #body })
                    }
                    Style::Newtype(_) => quote! {
                        #name::#vid(inner) => #krate::stream::object_json(&[#tag_entry], &[inner.to_json()]),
                    },
                    Style::Unit | Style::Tuple(_) => quote! {
                        #name::#vid => #krate::stream::object_json(&[#tag_entry], &[]),
                    },
                }
            });
            let undecided_doc = format!("The tag `{tag}` is not complete yet.");
            Partial {
                assoc: quote!(type Partial = #name #ty_generics;),
                items: quote! {
                    #[doc = #doc]
                    #[allow(non_snake_case, clippy::large_enum_variant)]
                    #vis enum #name #b_impl #b_where {
                        #[doc = #undecided_doc]
                        Undecided(#krate::stream::Pending),
                        #(#decls)*
                        #marker
                    }

                    #[automatically_derived]
                    impl #b_impl ::core::default::Default for #name #ty_generics #b_where {
                        fn default() -> Self {
                            #name::Undecided(::core::default::Default::default())
                        }
                    }

                    #[automatically_derived]
                    impl #b_impl #krate::stream::PartialValue for #name #ty_generics #b_where {
                        fn apply(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            event: &#krate::stream::Event<'_>,
                        ) -> bool {
                            use #krate::stream::PartialValue as _;
                            if let #name::Undecided(pending) = self {
                                let ::core::option::Option::Some(tag) = pending.observe(#tag, path, event) else {
                                    return false;
                                };
                                let pending = ::core::mem::take(pending);
                                *self = match tag.as_str() {
                                    #(#starts)*
                                    _ => return false,
                                };
                                pending.replay(|p, e| self.apply(p, e));
                                return true;
                            }
                            match self {
                                #name::Undecided(_) => false,
                                #(#arms)*
                                #marker_arm
                            }
                        }

                        fn to_json(&self) -> ::core::option::Option<#krate::__private::Value> {
                            use #krate::stream::PartialValue as _;
                            match self {
                                #name::Undecided(_) => ::core::option::Option::None,
                                #(#jsons)*
                                #marker_json
                            }
                        }
                    }
                },
            }
        }
    }
}

/// The generics with `T: AgentSchema` on every type parameter (the partial's fields name
/// `<T as AgentSchema>::Partial`).
/// Whether the type is an internally tagged enum whose variants all carry the tag (the form
/// whose partial is undecided until the tag completes, then grows as the variant's fields do).
fn streams_by_tag(c: &Container) -> bool {
    match &c.data {
        Data::Enum(variants) => {
            c.serde.tag.is_some()
                && c.serde.content.is_none()
                && c.serde.untagged.is_none()
                && variants
                    .iter()
                    .all(|v| v.serde.untagged.is_none() && !matches!(v.style, Style::Tuple(_)))
        }
        _ => false,
    }
}

fn bounded_generics(generics: &syn::Generics, krate: &TokenStream) -> syn::Generics {
    let mut g = generics.clone();
    let params: Vec<syn::Ident> = g.type_params().map(|t| t.ident.clone()).collect();
    let wc = g.make_where_clause();
    for p in params {
        wc.predicates
            .push(syn::parse_quote!(#p: #krate::AgentSchema));
    }
    g
}

fn field_ident(f: &Field) -> syn::Ident {
    f.original
        .ident
        .clone()
        .unwrap_or_else(|| format_ident!("field_{}", f.rust_name))
}

fn field_decl(f: &Field, vis: &syn::Visibility, krate: &TokenStream) -> TokenStream {
    let id = field_ident(f);
    let doc = format!(
        "`{}` so far{}.",
        f.name,
        if f.meta.stream_done.is_some() {
            " (shown once complete)"
        } else {
            ""
        }
    );
    let p = field_projection(f, krate);
    quote!(#[doc = #doc] #vis #id: #p,)
}

fn variant_decl(v: &Variant, vis: &syn::Visibility, krate: &TokenStream) -> TokenStream {
    let _ = vis;
    let vid = v.ident;
    let doc = format!("The variant `{}`.", v.name);
    match &v.style {
        Style::Struct(fields) => {
            let decls = fields.iter().filter(|f| !f.serde.skip).map(|f| {
                let id = field_ident(f);
                let doc = format!("`{}` so far.", f.name);
                let p = field_projection(f, krate);
                quote!(#[doc = #doc] #id: #p,)
            });
            quote!(#[doc = #doc] #vid { #(#decls)* },)
        }
        Style::Newtype(f) => {
            let p = field_projection(f, krate);
            quote!(#[doc = #doc] #vid(#p),)
        }
        Style::Unit | Style::Tuple(_) => quote!(#[doc = #doc] #vid,),
    }
}

/// The body of `apply` for an object with these fields (`access[i]` reaches field `i`).
fn dispatch(fields: &[&Field], access: &[TokenStream], krate: &TokenStream) -> TokenStream {
    let mut named = Vec::new();
    let mut flat = Vec::new();
    for (f, a) in fields.iter().zip(access) {
        if f.serde.flatten {
            flat.push(
                quote!(changed |= #krate::stream::PartialValue::apply(&mut #a, path, event);),
            );
        } else {
            let wire = &f.name;
            let call = if f.meta.stream_done.is_some() {
                quote!(#krate::stream::apply_done(&mut #a, rest, event))
            } else {
                quote!(#krate::stream::PartialValue::apply(&mut #a, rest, event))
            };
            named.push(quote!(#wire => #call,));
        }
    }
    quote! {
        let ::core::option::Option::Some((#krate::stream::Seg::Key(key), rest)) = path.split_first() else {
            return false;
        };
        let _ = rest;
        match key.as_str() {
            #(#named)*
            _ => {
                let mut changed = false;
                #(#flat)*
                changed
            }
        }
    }
}

fn object_json(
    fields: &[&Field],
    access: &[TokenStream],
    tag: Option<&TokenStream>,
    krate: &TokenStream,
) -> TokenStream {
    let mut named: Vec<TokenStream> = tag.into_iter().cloned().collect();
    let mut flat = Vec::new();
    for (f, a) in fields.iter().zip(access) {
        if f.serde.flatten {
            flat.push(quote!(#krate::stream::PartialValue::to_json(&#a)));
        } else {
            let wire = &f.name;
            named.push(quote!((#wire, #krate::stream::PartialValue::to_json(&#a))));
        }
    }
    quote!(#krate::stream::object_json(&[#(#named),*], &[#(#flat),*]))
}

/// The partial of a field: its type's, or, with `#[schema(with = "Type")]`, `Type`'s (the same
/// wire form); with `schema_with` (a hand-written model, no type to ask) a value shown once
/// complete.
fn field_projection(f: &Field, krate: &TokenStream) -> TokenStream {
    if let Some(with) = &f.meta.with {
        return projection(&with.value, krate);
    }
    if f.meta.schema_with.is_some() {
        return quote!(#krate::stream::Leaf<#krate::__private::Value>);
    }
    projection(f.ty, krate)
}

/// `<Ty as AgentSchema>::Partial`, spanned so that a missing impl is reported on the field's type.
fn projection(ty: &syn::Type, krate: &TokenStream) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as #krate::AgentSchema>::Partial)
}
