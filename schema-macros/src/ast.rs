//! The derive input as a typed model: names resolved with serde's renames, attributes parsed.

use crate::attr::{self, unraw, ContainerSchema, Meta, Position, Serde};
use crate::case::RenameRule;
use crate::ctxt::Ctxt;

pub(crate) struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub vis: &'a syn::Visibility,
    pub generics: &'a syn::Generics,
    pub schema: ContainerSchema,
    pub serde: Serde,
    pub data: Data<'a>,
}

pub(crate) enum Data<'a> {
    Struct(Vec<Field<'a>>),
    /// A one-field tuple struct or a `#[serde(transparent)]` struct.
    Newtype(Box<Field<'a>>),
    /// A tuple struct of several fields: an array of exactly these items.
    Tuple(Vec<Field<'a>>),
    /// A unit struct: serde writes `null`.
    Unit,
    Enum(Vec<Variant<'a>>),
}

pub(crate) struct Field<'a> {
    pub rust_name: String,
    /// The JSON property name.
    pub name: String,
    pub ty: &'a syn::Type,
    pub meta: Meta,
    pub serde: Serde,
    pub original: &'a syn::Field,
}

pub(crate) enum Style<'a> {
    Unit,
    Struct(Vec<Field<'a>>),
    /// A one-field tuple variant.
    Newtype(Box<Field<'a>>),
    /// A tuple variant of several fields: its content is an array.
    Tuple(Vec<Field<'a>>),
}

pub(crate) struct Variant<'a> {
    pub ident: &'a syn::Ident,
    /// The tag value on the wire.
    pub name: String,
    pub meta: Meta,
    pub serde: Serde,
    pub style: Style<'a>,
    pub original: &'a syn::Variant,
}

impl<'a> Container<'a> {
    /// `None` when the input is a union (reported on `cx`).
    pub(crate) fn from_syn(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Self> {
        let schema = attr::container_schema(cx, &input.attrs);
        let serde = attr::serde_attrs(cx, &input.attrs);
        let data = match &input.data {
            syn::Data::Struct(s) => match &s.fields {
                syn::Fields::Named(named) => {
                    let fields = fields(cx, named.named.iter(), serde.rename_all, serde.default);
                    if serde.transparent {
                        let mut live: Vec<_> =
                            fields.into_iter().filter(|f| !f.serde.skip).collect();
                        if live.len() != 1 {
                            cx.error(
                                input.ident.clone(),
                                "#[serde(transparent)] needs exactly one field that is not skipped",
                            );
                            return None;
                        }
                        Data::Newtype(Box::new(live.remove(0)))
                    } else {
                        Data::Struct(fields)
                    }
                }
                syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                    let mut f = fields(cx, unnamed.unnamed.iter(), None, false);
                    Data::Newtype(Box::new(f.remove(0)))
                }
                syn::Fields::Unnamed(unnamed) => {
                    Data::Tuple(fields(cx, unnamed.unnamed.iter(), None, false))
                }
                syn::Fields::Unit => Data::Unit,
            },
            syn::Data::Enum(e) => {
                Data::Enum(e.variants.iter().map(|v| variant(cx, v, &serde)).collect())
            }
            syn::Data::Union(u) => {
                cx.error(
                    u.union_token,
                    "#[derive(AgentSchema)] does not support unions: serde cannot read them and no JSON Schema describes them; use a struct or an enum",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            schema,
            serde,
            data,
        })
    }
}

fn fields<'a>(
    cx: &Ctxt,
    iter: impl Iterator<Item = &'a syn::Field>,
    rule: Option<RenameRule>,
    container_default: bool,
) -> Vec<Field<'a>> {
    iter.enumerate()
        .map(|(i, f)| {
            let mut serde = attr::serde_attrs(cx, &f.attrs);
            serde.default |= container_default;
            let rust_name = f.ident.as_ref().map_or_else(|| i.to_string(), unraw);
            let name = match (&serde.rename, rule) {
                (Some(r), _) => r.clone(),
                (None, Some(rule)) => rule.apply_to_field(&rust_name),
                (None, None) => rust_name.clone(),
            };
            let mut meta = attr::schema_meta(cx, &f.attrs, Position::Field);
            if meta.description.is_none() {
                if let Some(doc) = attr::doc_comment(&f.attrs) {
                    meta.description = Some(attr::Spanned::implicit(doc));
                }
            }
            Field {
                rust_name,
                name,
                ty: &f.ty,
                meta,
                serde,
                original: f,
            }
        })
        .collect()
}

fn variant<'a>(cx: &Ctxt, v: &'a syn::Variant, container: &Serde) -> Variant<'a> {
    let serde = attr::serde_attrs(cx, &v.attrs);
    let rust_name = unraw(&v.ident);
    let name = match (&serde.rename, container.rename_all) {
        (Some(r), _) => r.clone(),
        (None, Some(rule)) => rule.apply_to_variant(&rust_name),
        (None, None) => rust_name,
    };
    let mut meta = attr::schema_meta(cx, &v.attrs, Position::Variant);
    if meta.description.is_none() {
        if let Some(doc) = attr::doc_comment(&v.attrs) {
            meta.description = Some(attr::Spanned::implicit(doc));
        }
    }
    let field_rule = serde.rename_all.or(container.rename_all_fields);
    let style = match &v.fields {
        syn::Fields::Unit => Style::Unit,
        syn::Fields::Named(n) => Style::Struct(fields(cx, n.named.iter(), field_rule, false)),
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype(Box::new(
            fields(cx, u.unnamed.iter(), None, false).remove(0),
        )),
        syn::Fields::Unnamed(u) => Style::Tuple(fields(cx, u.unnamed.iter(), None, false)),
    };
    Variant {
        ident: &v.ident,
        name,
        meta,
        serde,
        style,
        original: v,
    }
}
