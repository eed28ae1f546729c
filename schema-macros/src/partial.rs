//! Code generation of `T::Partial`: the value while it streams in (see `schema_core::stream`).
//! A struct gets `FooPartial` with the same fields, each its type's partial; an internally,
//! adjacently or externally tagged enum gets `FooPartial` with an `Undecided` state until its
//! tag (or, externally tagged, its variant's key) is complete, then the variant's partial; a
//! string enum and an untagged enum use `Leaf<Self>`; a newtype uses its inner type's partial.
//! Each generated partial implements `Debug`, `Clone` and `PartialEq` (which `PartialValue`
//! asks for), written field by field so that a generic type's parameters need none of them.

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
        Data::Enum(_) if enum_shape(c).is_none() => Partial {
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
            let apply = dispatch(&fields, &access, Mode::One, krate);
            let apply_each = dispatch(&fields, &access, Mode::Each, krate);
            let begin_text = dispatch(&fields, &access, Mode::BeginText, krate);
            let route_at = dispatch(&fields, &access, Mode::RouteAt, krate);
            let route = static_route(&fields, krate);
            let json = object_json(&fields, &access, None, krate);
            let ids: Vec<syn::Ident> = fields.iter().map(|f| field_ident(f)).collect();
            let traits = struct_traits(&name, &ids, has_generics, &bounded);
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
                        // Not inlined: a struct's partial holds its fields' partials by value,
                        // so an inlined `default` would copy each nested one into its parent's,
                        // code that grows with the square of the nesting depth in release.
                        #[inline(never)]
                        fn default() -> Self {
                            #name { #(#defaults)* #marker_default }
                        }
                    }

                    #traits

                    #[automatically_derived]
                    impl #b_impl #krate::stream::PartialValue for #name #ty_generics #b_where {
                        fn apply(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            event: &#krate::stream::Event<'_>,
                        ) -> bool {
                            #apply
                        }

                        fn apply_each(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            events: &[#krate::stream::Event<'_>],
                        ) -> bool {
                            #apply_each
                        }

                        fn apply_begin_text(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            kind: #krate::stream::ValueKind,
                            text: &str,
                        ) -> (bool, bool) {
                            #begin_text
                        }

                        fn route() -> ::core::option::Option<#krate::stream::Route> {
                            #route
                        }

                        fn route_at(
                            &self,
                            path: &[#krate::stream::Seg],
                        ) -> ::core::option::Option<#krate::stream::Route> {
                            if path.is_empty() {
                                return <Self as #krate::stream::PartialValue>::route();
                            }
                            #route_at
                        }

                        fn to_json(&self) -> ::core::option::Option<#krate::__private::Value> {
                            #json
                        }
                    }
                },
            }
        }
        Data::Enum(variants) => {
            let shape = enum_shape(c).unwrap_or(Shape::External);
            let tag = c.serde.tag.clone().unwrap_or_default();
            let content = c.serde.content_name.clone().unwrap_or_default();
            let leaf_tuples = !matches!(shape, Shape::Internal);
            let variants: Vec<&Variant> = variants.iter().filter(|v| !v.serde.skip).collect();
            let decls = variants
                .iter()
                .map(|v| variant_decl(v, vis, leaf_tuples, krate));
            let marker = has_generics
                .then(|| quote!(#[doc(hidden)] __Marker(#marker_ty, ::core::convert::Infallible),));
            let enum_traits = enum_traits(&name, &variants, leaf_tuples, has_generics, &bounded);
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
                    Style::Tuple(_) if leaf_tuples => {
                        quote!(#wire => #name::#vid(::core::default::Default::default()),)
                    }
                    Style::Unit | Style::Tuple(_) => quote!(#wire => #name::#vid,),
                }
            });
            let starts: Vec<TokenStream> = starts.collect();
            let arms_for = |mode: Mode| -> Vec<TokenStream> {
                let none = mode.unchanged();
                variants.iter().map(|v| {
                let vid = v.ident;
                let wire = &v.name;
                // Externally tagged: the key that decided the variant must be this one's.
                let guard = matches!(shape, Shape::External)
                    .then(|| quote!(if key0 != #wire { return #none; }));
                match &v.style {
                    Style::Struct(fields) => {
                        let fields: Vec<&Field> = fields.iter().filter(|f| !f.serde.skip).collect();
                        let ids: Vec<syn::Ident> = fields.iter().map(|f| field_ident(f)).collect();
                        let binds: Vec<syn::Ident> = (0..ids.len())
                            .map(|i| format_ident!("__field{}", i))
                            .collect();
                        let access: Vec<TokenStream> =
                            binds.iter().map(|i| quote!((*#i))).collect();
                        let body = dispatch(&fields, &access, mode, krate);
                        quote!(#name::#vid { #(#ids: #binds,)* } => { #guard #body })
                    }
                    Style::Newtype(_) | Style::Tuple(_) if mode == Mode::Each && (leaf_tuples || matches!(v.style, Style::Newtype(_))) => {
                        quote!(#name::#vid(inner) => { #guard inner.apply_each(path, events) })
                    }
                    Style::Newtype(_) | Style::Tuple(_) if mode == Mode::BeginText && (leaf_tuples || matches!(v.style, Style::Newtype(_))) => {
                        quote!(#name::#vid(inner) => { #guard inner.apply_begin_text(path, kind, text) })
                    }
                    Style::Unit | Style::Tuple(_) if mode == Mode::BeginText => quote!(#name::#vid => #none,),
                    Style::Newtype(_) | Style::Tuple(_) if mode == Mode::RouteAt && (leaf_tuples || matches!(v.style, Style::Newtype(_))) => {
                        quote!(#name::#vid(inner) => { #guard inner.route_at(path) })
                    }
                    Style::Unit | Style::Tuple(_) if mode == Mode::RouteAt => quote!(#name::#vid => #none,),
                    Style::Newtype(_) => {
                        quote!(#name::#vid(inner) => { #guard inner.apply(path, event) })
                    }
                    Style::Tuple(_) if leaf_tuples => {
                        quote!(#name::#vid(inner) => { #guard inner.apply(path, event) })
                    }
                    Style::Unit | Style::Tuple(_) => quote!(#name::#vid => false,),
                }
            }).collect()
            };
            let arms = arms_for(Mode::One);
            let arms_each = arms_for(Mode::Each);
            let arms_begin_text = arms_for(Mode::BeginText);
            let arms_route_at = arms_for(Mode::RouteAt);
            let marker_none =
                has_generics.then(|| quote!(#name::__Marker(..) => ::core::option::Option::None,));
            let marker_pair = has_generics.then(|| quote!(#name::__Marker(..) => (false, false),));
            let jsons = variants.iter().map(|v| {
                let vid = v.ident;
                let wire = &v.name;
                let tag_entry = quote!((#tag, ::core::option::Option::Some(#krate::__private::Value::from(#wire))));
                if !matches!(shape, Shape::Internal) {
                    return variant_json(&shape, v, &name, &tag_entry, &content, krate);
                }
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
                        #name::#vid(inner) => #krate::__private::object_json(&[#tag_entry], &[inner.to_json()]),
                    },
                    Style::Unit | Style::Tuple(_) => quote! {
                        #name::#vid => #krate::__private::object_json(&[#tag_entry], &[]),
                    },
                }
            });
            let undecided_doc = match shape {
                Shape::External => "The variant's key is not complete yet.".to_string(),
                _ => format!("The tag `{tag}` is not complete yet."),
            };
            let apply = match shape {
                Shape::Internal => quote! {
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
                },
                Shape::Adjacent => quote! {
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
                    // Once decided, only the content property's events concern the variant.
                    let ::core::option::Option::Some((#krate::stream::Seg::Key(key0), path)) = path.split_first() else {
                        return false;
                    };
                    if key0 != #content {
                        return false;
                    }
                    match self {
                        #name::Undecided(_) => false,
                        #(#arms)*
                        #marker_arm
                    }
                },
                Shape::External => {
                    let units: Vec<TokenStream> = variants
                        .iter()
                        .filter(|v| matches!(v.style, Style::Unit))
                        .map(|v| {
                            let vid = v.ident;
                            let wire = &v.name;
                            quote!(#wire => #name::#vid,)
                        })
                        .collect();
                    // A unit variant is written as its name: shown once complete.
                    let unit = (!units.is_empty()).then(|| {
                        quote! {
                            if let #name::Undecided(_) = self {
                                if let ::core::option::Option::Some(tag) = #krate::__private::done_string(event) {
                                    *self = match tag.as_str() {
                                        #(#units)*
                                        _ => return false,
                                    };
                                    return true;
                                }
                            }
                        }
                    });
                    quote! {
                        if path.is_empty() {
                            #unit
                            return false;
                        }
                        let full = path;
                        let ::core::option::Option::Some((#krate::stream::Seg::Key(key0), path)) = path.split_first() else {
                            return false;
                        };
                        if let #name::Undecided(_) = self {
                            // The variant's key is complete once its value starts.
                            *self = match key0.as_str() {
                                #(#starts)*
                                _ => return false,
                            };
                            let _ = self.apply(full, event);
                            return true;
                        }
                        let _ = &path;
                        match self {
                            #name::Undecided(_) => false,
                            #(#arms)*
                            #marker_arm
                        }
                    }
                }
            };
            // `apply_each`: while undecided, the events one by one (one of them may decide the
            // variant); once decided, the variant's field is found once.
            let each_one_by_one = quote! {
                let mut changed = false;
                for event in events {
                    changed |= self.apply(path, event);
                }
                changed
            };
            let apply_each = decided_dispatch(
                &shape,
                &name,
                krate,
                &content,
                &each_one_by_one,
                &arms_each,
                &marker_arm,
                &quote!(false),
            );
            // `apply_begin_text`: while undecided, the two events one by one (through `apply`);
            // once decided, the variant's field is found once.
            let pair_one_by_one =
                quote!(#krate::__private::begin_text_one_by_one(self, path, kind, text));
            let begin_text = decided_dispatch(
                &shape,
                &name,
                krate,
                &content,
                &pair_one_by_one,
                &arms_begin_text,
                &marker_pair,
                &quote!((false, false)),
            );
            // `route_at`: nothing known while undecided; once decided (for good), the variant's
            // field's.
            let none = quote!(::core::option::Option::None);
            let route_at = decided_dispatch(
                &shape,
                &name,
                krate,
                &content,
                &none,
                &arms_route_at,
                &marker_none,
                &none,
            );
            Partial {
                assoc: quote!(type Partial = #name #ty_generics;),
                items: quote! {
                    #[doc = #doc]
                    #[allow(non_snake_case, clippy::large_enum_variant)]
                    #vis enum #name #b_impl #b_where {
                        #[doc = #undecided_doc]
                        Undecided(#krate::__private::Pending),
                        #(#decls)*
                        #marker
                    }

                    #[automatically_derived]
                    impl #b_impl ::core::default::Default for #name #ty_generics #b_where {
                        fn default() -> Self {
                            #name::Undecided(::core::default::Default::default())
                        }
                    }

                    #enum_traits

                    #[automatically_derived]
                    impl #b_impl #krate::stream::PartialValue for #name #ty_generics #b_where {
                        fn apply(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            event: &#krate::stream::Event<'_>,
                        ) -> bool {
                            use #krate::stream::PartialValue as _;
                            #apply
                        }

                        fn apply_each(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            events: &[#krate::stream::Event<'_>],
                        ) -> bool {
                            use #krate::stream::PartialValue as _;
                            #apply_each
                        }

                        fn apply_begin_text(
                            &mut self,
                            path: &[#krate::stream::Seg],
                            kind: #krate::stream::ValueKind,
                            text: &str,
                        ) -> (bool, bool) {
                            use #krate::stream::PartialValue as _;
                            #begin_text
                        }

                        fn route_at(
                            &self,
                            path: &[#krate::stream::Seg],
                        ) -> ::core::option::Option<#krate::stream::Route> {
                            use #krate::stream::PartialValue as _;
                            #route_at
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

/// How an enum's variant is named on the wire, for the enums whose partial grows.
enum Shape {
    /// `{"tag": "A", ...fields}`
    Internal,
    /// `{"tag": "A", "content": ...}`
    Adjacent,
    /// `{"A": ...}`, or `"A"` for a unit variant.
    External,
}

/// The shape of an enum whose partial is undecided until its tag (or key) is complete, then
/// grows as the variant's partial; `None` for the enums shown only once complete: untagged
/// ones (no tag says which variant), string enums (all unit variants, externally tagged), and
/// internally tagged ones with a tuple variant.
fn enum_shape(c: &Container) -> Option<Shape> {
    let Data::Enum(variants) = &c.data else {
        return None;
    };
    if c.serde.untagged.is_some() || variants.iter().any(|v| v.serde.untagged.is_some()) {
        return None;
    }
    match (
        &c.serde.tag,
        c.serde.content.is_some() || c.serde.content_name.is_some(),
    ) {
        (Some(_), true) => Some(Shape::Adjacent),
        (Some(_), false) => (!variants.iter().any(|v| matches!(v.style, Style::Tuple(_))))
            .then_some(Shape::Internal),
        (None, _) => (!variants
            .iter()
            .filter(|v| !v.serde.skip)
            .all(|v| matches!(v.style, Style::Unit)))
        .then_some(Shape::External),
    }
}

/// The `to_json` arm of one variant of an adjacently or externally tagged enum.
fn variant_json(
    shape: &Shape,
    v: &Variant,
    name: &syn::Ident,
    tag_entry: &TokenStream,
    content: &str,
    krate: &TokenStream,
) -> TokenStream {
    let vid = v.ident;
    let wire = &v.name;
    let (pattern, inner) = match &v.style {
        Style::Struct(fields) => {
            let fields: Vec<&Field> = fields.iter().filter(|f| !f.serde.skip).collect();
            let ids: Vec<syn::Ident> = fields.iter().map(|f| field_ident(f)).collect();
            let binds: Vec<syn::Ident> = (0..ids.len())
                .map(|i| format_ident!("__field{}", i))
                .collect();
            let access: Vec<TokenStream> = binds.iter().map(|i| quote!((*#i))).collect();
            let body = object_json(&fields, &access, None, krate);
            (
                quote!(#name::#vid { #(#ids: #binds,)* }),
                quote!(::core::option::Option::Some(#body.unwrap_or_else(|| {
                    #krate::__private::Value::Object(::core::default::Default::default())
                }))),
            )
        }
        Style::Newtype(_) | Style::Tuple(_) => (
            quote!(#name::#vid(inner)),
            quote!(#krate::stream::PartialValue::to_json(inner)),
        ),
        Style::Unit => (quote!(#name::#vid), quote!(::core::option::Option::None)),
    };
    match shape {
        Shape::External if matches!(v.style, Style::Unit) => quote! {
            #pattern => ::core::option::Option::Some(#krate::__private::Value::from(#wire)),
        },
        Shape::External => quote! {
            #pattern => #krate::__private::object_json(
                &[(#wire, ::core::option::Option::Some(
                    (#inner).unwrap_or(#krate::__private::Value::Null),
                ))],
                &[],
            ),
        },
        _ => quote! {
            #pattern => #krate::__private::object_json(&[#tag_entry, (#content, #inner)], &[]),
        },
    }
}

/// The body of a tagged enum partial's `apply_each` or `apply_begin_text`: while the variant is
/// undecided (or, externally tagged, for the enum's own path), `one_by_one`; once decided, the
/// variant's field found under the tag's key (`content` for adjacent tagging) through `arms`,
/// `no` where the path is not the variant's.
#[allow(clippy::too_many_arguments)]
fn decided_dispatch(
    shape: &Shape,
    name: &syn::Ident,
    krate: &TokenStream,
    content: &str,
    one_by_one: &TokenStream,
    arms: &[TokenStream],
    marker: &Option<TokenStream>,
    no: &TokenStream,
) -> TokenStream {
    let arms = quote! {
        match self {
            #name::Undecided(_) => #no,
            #(#arms)*
            #marker
        }
    };
    let split = quote! {
        let ::core::option::Option::Some((#krate::stream::Seg::Key(key0), path)) = path.split_first() else {
            return #no;
        };
    };
    match shape {
        Shape::Internal => quote! {
            if let #name::Undecided(_) = self { #one_by_one } else { #arms }
        },
        Shape::Adjacent => quote! {
            if let #name::Undecided(_) = self {
                #one_by_one
            } else {
                #split
                if key0 != #content {
                    return #no;
                }
                #arms
            }
        },
        Shape::External => quote! {
            if path.is_empty() || matches!(self, #name::Undecided(_)) {
                #one_by_one
            } else {
                #split
                let _ = &path;
                #arms
            }
        },
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

fn variant_decl(
    v: &Variant,
    vis: &syn::Visibility,
    leaf_tuples: bool,
    krate: &TokenStream,
) -> TokenStream {
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
        // A tuple variant's content is shown once complete.
        Style::Tuple(_) if leaf_tuples => {
            quote!(#[doc = #doc] #vid(#krate::stream::Leaf<#krate::__private::Value>),)
        }
        Style::Unit | Style::Tuple(_) => quote!(#[doc = #doc] #vid,),
    }
}

/// `Debug`, `Clone` and `PartialEq` of a derived struct partial, field by field: no bound on
/// the type's own parameters (the fields are partials, which have all three).
fn struct_traits(
    name: &syn::Ident,
    ids: &[syn::Ident],
    has_generics: bool,
    bounded: &syn::Generics,
) -> TokenStream {
    let (b_impl, ty_generics, b_where) = bounded.split_for_impl();
    let marker = has_generics.then(|| quote!(__marker: ::core::marker::PhantomData,));
    let shown = name.to_string();
    let names = ids.iter().map(|i| i.to_string());
    quote! {
        #[automatically_derived]
        impl #b_impl ::core::clone::Clone for #name #ty_generics #b_where {
            fn clone(&self) -> Self {
                #name { #(#ids: ::core::clone::Clone::clone(&self.#ids),)* #marker }
            }
        }

        #[automatically_derived]
        impl #b_impl ::core::fmt::Debug for #name #ty_generics #b_where {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#shown)
                    #(.field(#names, &self.#ids))*
                    .finish()
            }
        }

        #[automatically_derived]
        impl #b_impl ::core::cmp::PartialEq for #name #ty_generics #b_where {
            fn eq(&self, other: &Self) -> bool {
                true #(&& self.#ids == other.#ids)*
            }
        }
    }
}

/// `Debug`, `Clone` and `PartialEq` of a derived enum partial, variant by variant (as
/// [`struct_traits`]).
fn enum_traits(
    name: &syn::Ident,
    variants: &[&Variant],
    leaf_tuples: bool,
    has_generics: bool,
    bounded: &syn::Generics,
) -> TokenStream {
    let (b_impl, ty_generics, b_where) = bounded.split_for_impl();
    let mut clones = Vec::new();
    let mut debugs = Vec::new();
    let mut eqs = Vec::new();
    for v in variants {
        let vid = v.ident;
        let shown = vid.to_string();
        match &v.style {
            Style::Struct(fields) => {
                let ids: Vec<syn::Ident> = fields
                    .iter()
                    .filter(|f| !f.serde.skip)
                    .map(field_ident)
                    .collect();
                let names = ids.iter().map(|i| i.to_string());
                let left: Vec<syn::Ident> = ids.iter().map(|i| format_ident!("l_{}", i)).collect();
                let right: Vec<syn::Ident> = ids.iter().map(|i| format_ident!("r_{}", i)).collect();
                clones.push(quote!(#name::#vid { #(#ids),* } => #name::#vid { #(#ids: ::core::clone::Clone::clone(#ids)),* },));
                debugs.push(quote!(#name::#vid { #(#ids),* } => f.debug_struct(#shown) #(.field(#names, #ids))* .finish(),));
                eqs.push(quote!((#name::#vid { #(#ids: #left),* }, #name::#vid { #(#ids: #right),* }) => true #(&& #left == #right)*,));
            }
            Style::Newtype(_) | Style::Tuple(_)
                if matches!(v.style, Style::Newtype(_)) || leaf_tuples =>
            {
                clones.push(quote!(#name::#vid(x) => #name::#vid(::core::clone::Clone::clone(x)),));
                debugs.push(quote!(#name::#vid(x) => f.debug_tuple(#shown).field(x).finish(),));
                eqs.push(quote!((#name::#vid(l), #name::#vid(r)) => l == r,));
            }
            Style::Unit | Style::Tuple(_) | Style::Newtype(_) => {
                clones.push(quote!(#name::#vid => #name::#vid,));
                debugs.push(quote!(#name::#vid => f.write_str(#shown),));
                eqs.push(quote!((#name::#vid, #name::#vid) => true,));
            }
        }
    }
    let marker = has_generics.then(|| quote!(#name::__Marker(_, never) => match *never {},));
    quote! {
        #[automatically_derived]
        impl #b_impl ::core::clone::Clone for #name #ty_generics #b_where {
            fn clone(&self) -> Self {
                match self {
                    #name::Undecided(p) => #name::Undecided(::core::clone::Clone::clone(p)),
                    #(#clones)*
                    #marker
                }
            }
        }

        #[automatically_derived]
        impl #b_impl ::core::fmt::Debug for #name #ty_generics #b_where {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    #name::Undecided(p) => f.debug_tuple("Undecided").field(p).finish(),
                    #(#debugs)*
                    #marker
                }
            }
        }

        #[automatically_derived]
        impl #b_impl ::core::cmp::PartialEq for #name #ty_generics #b_where {
            fn eq(&self, other: &Self) -> bool {
                #[allow(unreachable_patterns)]
                match (self, other) {
                    (#name::Undecided(l), #name::Undecided(r)) => l == r,
                    #(#eqs)*
                    _ => false,
                }
            }
        }
    }
}

/// Which `PartialValue` method a generated body is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `apply`: one event.
    One,
    /// `apply_each`: several events at one path.
    Each,
    /// `apply_begin_text`: a `Begin` and a `Text` at one path, with the text's own answer.
    BeginText,
    /// `route_at`: the route of the value at a path, as the partial is now.
    RouteAt,
}

impl Mode {
    /// The method's answer when nothing changed.
    fn unchanged(self) -> TokenStream {
        match self {
            Mode::BeginText => quote!((false, false)),
            Mode::RouteAt => quote!(::core::option::Option::None),
            _ => quote!(false),
        }
    }
}

/// The body of `apply` for an object with these fields (`access[i]` reaches field `i`).
///
/// With [`Mode::Each`], the body of `apply_each`, and with [`Mode::BeginText`], that of
/// `apply_begin_text`: the field is found once and given all the events.
fn dispatch(
    fields: &[&Field],
    access: &[TokenStream],
    mode: Mode,
    krate: &TokenStream,
) -> TokenStream {
    let mut named = Vec::new();
    let mut flat = Vec::new();
    for (f, a) in fields.iter().zip(access) {
        if f.serde.flatten {
            if mode == Mode::RouteAt {
                // Which flattened field takes a key is not known here.
                continue;
            }
            flat.push(match mode {
                Mode::One => {
                    quote!(changed |= #krate::stream::PartialValue::apply(&mut #a, path, event);)
                }
                Mode::Each => quote!(changed |= #krate::stream::PartialValue::apply_each(&mut #a, path, events);),
                Mode::BeginText => quote! {
                    let (c, t) = #krate::stream::PartialValue::apply_begin_text(&mut #a, path, kind, text);
                    changed.0 |= c;
                    changed.1 |= t;
                },
                Mode::RouteAt => quote!(),
            });
        } else {
            let wire = &f.name;
            let call = match (f.meta.stream_done.is_some(), mode) {
                (true, Mode::One) => quote!(#krate::__private::apply_done(&mut #a, rest, event)),
                (true, Mode::Each) => quote! {
                    events.iter().fold(false, |c, e| #krate::__private::apply_done(&mut #a, rest, e) | c)
                },
                // A field shown once complete takes neither a `Begin` nor a `Text`.
                (true, Mode::BeginText) => quote!((false, false)),
                // ... and its `Done` always matters.
                (true, Mode::RouteAt) => quote!(::core::option::Option::None),
                (false, Mode::RouteAt) => {
                    quote!(#krate::stream::PartialValue::route_at(&#a, rest))
                }
                (false, Mode::One) => {
                    quote!(#krate::stream::PartialValue::apply(&mut #a, rest, event))
                }
                (false, Mode::Each) => {
                    quote!(#krate::stream::PartialValue::apply_each(&mut #a, rest, events))
                }
                (false, Mode::BeginText) => quote! {
                    #krate::stream::PartialValue::apply_begin_text(&mut #a, rest, kind, text)
                },
            };
            named.push(quote!(#wire => #call,));
        }
    }
    let none = mode.unchanged();
    quote! {
        let ::core::option::Option::Some((#krate::stream::Seg::Key(key), rest)) = path.split_first() else {
            return #none;
        };
        let _ = rest;
        match key.as_str() {
            #(#named)*
            _ => {
                let mut changed = #none;
                #(#flat)*
                changed
            }
        }
    }
}

/// The body of a struct partial's `route()`: a derived struct ignores a `Begin` and a `Done` at
/// its own path, and gives a property's events to the field's partial (a field shown once
/// complete, or a key no field has, has no route).
fn static_route(fields: &[&Field], krate: &TokenStream) -> TokenStream {
    let named = fields
        .iter()
        .filter(|f| !f.serde.flatten && f.meta.stream_done.is_none())
        .map(|f| {
            let wire = &f.name;
            let p = field_projection(f, krate);
            quote!(#wire => <#p as #krate::stream::PartialValue>::route(),)
        });
    quote! {
        ::core::option::Option::Some(#krate::stream::Route {
            child: |seg| {
                let #krate::stream::Seg::Key(key) = seg else {
                    return ::core::option::Option::None;
                };
                match key.as_str() {
                    #(#named)*
                    _ => ::core::option::Option::None,
                }
            },
            shows_text: false,
            done_noop: true,
        })
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
    quote!(#krate::__private::object_json(&[#(#named),*], &[#(#flat),*]))
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
