//! The model of a type rendered as full JSON Schema 2020-12.
//!
//! Three forms come out of the same walk:
//! - [`Form::Presentation`] is what `json_schema(Dialect::JsonSchema)` returns and what the
//!   provider dialects are converted from: `#[schema(one_object)]` enums and flattened enums
//!   become one object.
//! - [`Form::Alternatives`] is what the dialects that keep unions (`RootUnion::AnyOf`: llama.cpp,
//!   LM Studio, Ollama and the grammar engines) are converted from: as the presentation, except
//!   that a flattened internally tagged enum stays alternatives, one closed object per variant
//!   (the struct's own fields in each), unless the enum asks for `#[schema(one_object)]`.
//! - [`Form::Precise`] describes exactly what the Rust type accepts (each variant of a tagged enum
//!   as its own closed object); the validator is compiled from it.

use crate::convert::{ConvertError, ConvertErrorKind};
use crate::keyed::Keyed;
use crate::model::{Enum, Field, Kind, Meta, Repr, Struct, Type, Variant, VariantStyle};
use crate::obj::{obj, put};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Which of the three renderings to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// The schema shown to models (one-object enums merged).
    Presentation,
    /// The schema the validator checks (every variant exact).
    Precise,
    /// The presentation with flattened tagged enums kept as alternatives (one closed object per
    /// variant) unless they are `#[schema(one_object)]`: what the dialects whose table keeps
    /// unions are converted from.
    Alternatives,
}

impl Form {
    /// The form a dialect is converted from: [`Form::Alternatives`] where the dialect's table
    /// keeps unions as `anyOf` of closed objects, else [`Form::Presentation`].
    pub(crate) fn for_dialect(d: crate::Dialect) -> Form {
        if d.rules().root_union == crate::convert::RootUnion::AnyOf {
            Form::Alternatives
        } else {
            Form::Presentation
        }
    }
}

/// What the dialects that cannot express a map or a tuple get instead (presentation form only;
/// the validator and `Dialect::JsonSchema` always see serde's form).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reshape {
    /// Maps marked `#[schema(entries)]` become arrays of `{key, value}` objects.
    pub(crate) marked_entries: bool,
    /// Every map that is not a closed object (an enum-keyed map is one) becomes an array of
    /// `{key, value}` objects.
    pub(crate) all_entries: bool,
    /// Tuples become objects with the properties `_0`, `_1`, ...
    pub(crate) tuple_objects: bool,
}

impl Reshape {
    /// What `dialect` needs, with the per-call options.
    pub(crate) fn for_dialect(
        dialect: crate::Dialect,
        _options: &crate::convert::DialectOptions,
    ) -> Self {
        let rules = dialect.rules();
        let maps = rules.closed_objects && dialect != crate::Dialect::JsonSchema;
        Reshape {
            marked_entries: maps,
            // (every other map and every tuple: the converter's shape rewrites, the same
            // form for derived and run-time schemas)
            all_entries: false,
            tuple_objects: false,
        }
    }
}

/// The most alternatives a precise rendering of flattened enums may multiply out to.
const MAX_ALTERNATIVES: usize = 256;

/// Renders `ty` as a JSON Schema document: non-recursive types inline, recursion through `$defs`.
pub(crate) fn render(ty: &'static Type, form: Form) -> Result<Value, ConvertError> {
    render_with(ty, form, false)
}

/// As [`render`]; with `shared`, a named type used in more than one place also goes to `$defs`
/// (one definition, a `$ref` per use) to keep a large schema small.
pub(crate) fn render_with(
    ty: &'static Type,
    form: Form,
    shared: bool,
) -> Result<Value, ConvertError> {
    render_reshaped(ty, form, shared, Reshape::default())
}

/// As [`render_with`], with maps and tuples reshaped for a dialect that cannot express them.
pub(crate) fn render_reshaped(
    ty: &'static Type,
    form: Form,
    shared: bool,
    reshape: Reshape,
) -> Result<Value, ConvertError> {
    let mut recursive = find_recursive(ty);
    if shared {
        recursive.extend(shared_types(ty));
    }
    let mut r = Renderer {
        form,
        reshape,
        recursive,
        root_id: type_id(ty),
        def_names: Keyed::new(),
        defs: Map::new(),
        pending: Vec::new(),
    };
    let root = r.schema(ty, &Meta::EMPTY, true)?;
    r.finish(root)
}

/// The fields of variant `index` of the enum `ty` rendered as one root object schema
/// (presentation form, without the tag): the parameters of the tool the variant stands for.
/// `None` when `ty` is not an enum or has no such variant.
#[cfg(feature = "tools")]
pub(crate) fn render_variant(
    ty: &'static Type,
    index: usize,
    reshape: Reshape,
) -> Option<Result<Value, ConvertError>> {
    let Kind::Enum(e) = &ty.kind else {
        return None;
    };
    let v = e.variants.get(index)?;
    let mut r = Renderer {
        form: Form::Presentation,
        reshape,
        recursive: find_recursive(ty),
        // The root is the variant's object, not the enum: a reference back to the enum goes
        // through `$defs`.
        root_id: None,
        def_names: Keyed::new(),
        defs: Map::new(),
        pending: Vec::new(),
    };
    if let Some(id) = type_id(ty) {
        r.recursive.insert(id);
    }
    Some(
        r.objects(v.fields, e.open)
            .and_then(|alts| r.finish(alternatives(alts, &Meta::EMPTY))),
    )
}

impl Renderer {
    /// Renders the pending `$defs` and attaches them to `root`.
    fn finish(mut self, mut root: Value) -> Result<Value, ConvertError> {
        let r = &mut self;
        while let Some((name, def_ty)) = r.pending.pop() {
            let body = r.schema(def_ty, &Meta::EMPTY, true)?;
            r.defs.insert(name, body);
        }
        if !r.defs.is_empty() {
            if let Value::Object(map) = &mut root {
                let mut sorted = Map::new();
                let mut names: Vec<_> = r.defs.keys().cloned().collect();
                // Unstable: equal names are identical, and it instantiates far less sorting code
                // than the stable sort.
                names.sort_unstable();
                for n in names {
                    let v = r.defs.remove(&n).unwrap_or(Value::Null);
                    sorted.insert(n, v);
                }
                put(map, "$defs", Value::Object(sorted));
            }
        }
        Ok(root)
    }
}

/// The identity of a named type (struct, enum, newtype), used to detect recursion.
fn type_id(ty: &Type) -> Option<&'static str> {
    match &ty.kind {
        Kind::Struct(s) => Some((s.id)()),
        Kind::Enum(e) => Some((e.id)()),
        Kind::Newtype(n) => Some((n.id)()),
        _ => None,
    }
}

fn type_name(ty: &Type) -> &'static str {
    match &ty.kind {
        Kind::Struct(s) => s.name,
        Kind::Enum(e) => e.name,
        Kind::Newtype(n) => n.name,
        _ => "T",
    }
}

/// The named types through which a cycle closes: each becomes a `$ref`.
fn find_recursive(root: &'static Type) -> HashSet<&'static str> {
    fn children(ty: &'static Type, out: &mut Vec<&'static Type>) {
        match &ty.kind {
            Kind::Option(t) | Kind::Array(t) | Kind::Set(t) | Kind::Map(t) => out.push(t()),
            Kind::KeyedMap { key, value } => out.extend([key(), value()]),
            Kind::Tuple(items) => out.extend(items.iter().map(|t| t())),
            Kind::Newtype(n) => out.push((n.inner)()),
            Kind::Struct(s) => out.extend(s.fields.iter().map(|f| (f.ty)())),
            Kind::Enum(e) => {
                for v in e.variants {
                    out.extend(v.fields.iter().map(|f| (f.ty)()));
                }
            }
            _ => {}
        }
    }
    // Iterative DFS (a deep model must not overflow the stack).
    let mut recursive = HashSet::new();
    let mut done: HashSet<&'static str> = HashSet::new();
    let mut on_stack: HashSet<&'static str> = HashSet::new();
    let mut stack: Vec<(&'static Type, Vec<&'static Type>, bool)> = Vec::new();
    let mut first = Vec::new();
    children(root, &mut first);
    if let Some(id) = type_id(root) {
        on_stack.insert(id);
    }
    stack.push((root, first, true));
    while let Some((ty, kids, _)) = stack.last_mut() {
        let ty = *ty;
        if let Some(child) = kids.pop() {
            match type_id(child) {
                Some(id) if on_stack.contains(id) => {
                    recursive.insert(id);
                }
                Some(id) if done.contains(id) => {}
                id => {
                    if let Some(id) = id {
                        on_stack.insert(id);
                    }
                    let mut grand = Vec::new();
                    children(child, &mut grand);
                    stack.push((child, grand, true));
                }
            }
        } else {
            if let Some(id) = type_id(ty) {
                on_stack.remove(id);
                done.insert(id);
            }
            stack.pop();
        }
    }
    recursive
}

/// The named types referenced from more than one place (each type's fields counted once).
fn shared_types(root: &'static Type) -> HashSet<&'static str> {
    let mut uses: HashMap<&'static str, usize> = HashMap::new();
    let mut seen: HashSet<&'static str> = HashSet::new();
    let mut todo = vec![root];
    if let Some(id) = type_id(root) {
        seen.insert(id);
    }
    while let Some(ty) = todo.pop() {
        let mut kids: Vec<&'static Type> = Vec::new();
        let mut push = |t: &'static Type| kids.push(t);
        match &ty.kind {
            Kind::Option(t) | Kind::Array(t) | Kind::Set(t) | Kind::Map(t) => push(t()),
            Kind::KeyedMap { key, value } => {
                push(key());
                push(value());
            }
            Kind::Tuple(items) => items.iter().for_each(|t| push(t())),
            Kind::Newtype(n) => push((n.inner)()),
            Kind::Struct(s) => s.fields.iter().for_each(|f| push((f.ty)())),
            Kind::Enum(e) => e
                .variants
                .iter()
                .flat_map(|v| v.fields)
                .for_each(|f| push((f.ty)())),
            _ => {}
        }
        for k in kids {
            match type_id(k) {
                Some(id) => {
                    *uses.entry(id).or_default() += 1;
                    if seen.insert(id) {
                        todo.push(k);
                    }
                }
                // Unnamed wrappers (Option, Vec, maps) are walked through.
                None => todo.push(k),
            }
        }
    }
    uses.into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(id, _)| id)
        .collect()
}

struct Renderer {
    form: Form,
    reshape: Reshape,
    recursive: HashSet<&'static str>,
    root_id: Option<&'static str>,
    def_names: Keyed<&'static str, String>,
    defs: Map<String, Value>,
    pending: Vec<(String, &'static Type)>,
}

/// An object under construction: properties in order, which are required, how it is closed,
/// and the `oneOf` / `anyOf` of `required` clauses of merged tagged enums.
#[derive(Default, Clone)]
struct Obj {
    props: Vec<(String, Value)>,
    required: Vec<String>,
    additional: Option<Value>,
    open: bool,
    clauses: Vec<Value>,
    description: Option<&'static str>,
    /// `propertyNames` of a flattened map whose keys are not plain strings.
    property_names: Option<Value>,
}

impl Obj {
    fn add(&mut self, name: &str, schema: Value, required: bool) {
        match self.props.iter_mut().find(|(n, _)| n == name) {
            Some((_, existing)) => {
                if *existing != schema {
                    let mut alts = match existing.get("anyOf") {
                        Some(Value::Array(a))
                            if existing.as_object().is_some_and(|o| o.len() == 1) =>
                        {
                            a.clone()
                        }
                        _ => vec![existing.clone()],
                    };
                    if !alts.contains(&schema) {
                        alts.push(schema);
                    }
                    *existing = obj(&mut [("anyOf", Value::Array(alts))]);
                }
            }
            None => self.props.push((name.to_string(), schema)),
        }
        if required && !self.required.iter().any(|r| r == name) {
            self.required.push(name.to_string());
        }
    }

    fn merge(&mut self, other: Obj, required: bool) {
        for (n, s) in other.props {
            let req = required && other.required.contains(&n);
            self.add(&n, s, req);
        }
        if other.open {
            self.open = true;
        }
        if other.additional.is_some() {
            self.additional = other.additional;
        }
        if other.property_names.is_some() {
            self.property_names = other.property_names;
        }
        self.clauses.extend(other.clauses);
    }

    fn into_value(self, meta: &Meta) -> Value {
        let mut m = Map::new();
        put(&mut m, "type", "object".into());
        if let Some(t) = meta.title {
            put(&mut m, "title", t.into());
        }
        if let Some(d) = meta.description.or(self.description) {
            put(&mut m, "description", d.into());
        }
        let declared: Vec<Value> = self.props.iter().map(|(n, _)| n.as_str().into()).collect();
        let props: Map<String, Value> = self.props.into_iter().collect();
        put(&mut m, "properties", Value::Object(props));
        if !self.required.is_empty() {
            m.insert(
                "required".into(),
                Value::Array(self.required.into_iter().map(Value::String).collect()),
            );
        }
        match self.additional {
            Some(schema) => {
                put(&mut m, "additionalProperties", schema);
            }
            None if !self.open => {
                put(&mut m, "additionalProperties", false.into());
            }
            None => {}
        }
        if let Some(names) = self.property_names {
            // `propertyNames` applies to every property: the declared ones (a tag beside a
            // flattened map) are allowed by name.
            let names = if declared.is_empty() {
                names
            } else {
                obj(&mut [(
                    "anyOf",
                    Value::Array(vec![obj(&mut [("enum", Value::from(declared))]), names]),
                )])
            };
            put(&mut m, "propertyNames", names);
        }
        match self.clauses.len() {
            0 => {}
            1 => {
                if let Value::Object(c) = self.clauses.into_iter().next().unwrap_or_default() {
                    m.extend(c);
                }
            }
            _ => {
                put(&mut m, "allOf", Value::Array(self.clauses));
            }
        }
        Value::Object(m)
    }
}

impl Renderer {
    /// The schema of a value of type `ty` annotated with `meta`.
    fn schema(&mut self, ty: &'static Type, meta: &Meta, top: bool) -> Result<Value, ConvertError> {
        if !top {
            if let Some(id) = type_id(ty) {
                if Some(id) == self.root_id {
                    return Ok(with_meta(obj(&mut [("$ref", "#".into())]), meta));
                }
                if self.recursive.contains(id) {
                    let name = self.def_name(id, ty);
                    return Ok(with_meta(
                        obj(&mut [("$ref", format!("#/$defs/{name}").into())]),
                        meta,
                    ));
                }
            }
        }
        let base = match &ty.kind {
            Kind::Boolean => obj(&mut [("type", "boolean".into())]),
            Kind::Integer { min, max } => {
                let mut m = Map::new();
                put(&mut m, "type", "integer".into());
                if let Some(min) = min {
                    put(&mut m, "minimum", crate::model::Num::Int(*min).to_json());
                }
                if let Some(max) = max {
                    put(&mut m, "maximum", crate::model::Num::Int(*max).to_json());
                }
                Value::Object(m)
            }
            Kind::Number => obj(&mut [("type", "number".into())]),
            Kind::String => obj(&mut [("type", "string".into())]),
            Kind::Char => obj(&mut [
                ("type", "string".into()),
                ("minLength", 1.into()),
                ("maxLength", 1.into()),
            ]),
            Kind::Any => Value::Object(Map::new()),
            Kind::Option(inner) => {
                let inner = self.schema(inner(), &Meta::EMPTY, false)?;
                obj(&mut [(
                    "anyOf",
                    Value::Array(vec![inner, obj(&mut [("type", "null".into())])]),
                )])
            }
            Kind::Array(item) => {
                let items = self.schema(item(), meta.items.unwrap_or(&Meta::EMPTY), false)?;
                obj(&mut [("type", "array".into()), ("items", items)])
            }
            Kind::Set(item) => {
                let items = self.schema(item(), meta.items.unwrap_or(&Meta::EMPTY), false)?;
                obj(&mut [
                    ("type", "array".into()),
                    ("items", items),
                    ("uniqueItems", true.into()),
                ])
            }
            Kind::Map(value) if self.entries(meta, false) => {
                let v = self.map_value(value())?;
                entries(obj(&mut [("type", "string".into())]), v)
            }
            Kind::Map(value) => {
                let v = self.map_value(value())?;
                obj(&mut [("type", "object".into()), ("additionalProperties", v)])
            }
            Kind::KeyedMap { key, value } => self.keyed_map(key(), value(), meta)?,
            Kind::Tuple(items) => self.tuple(items.iter().map(|t| (t(), &Meta::EMPTY)))?,
            Kind::Unit => obj(&mut [("type", "null".into())]),
            Kind::Newtype(n) => {
                // `#[schema(entries)]` on a field of a map newtype reaches the map.
                let own = Meta {
                    entries: n.meta.entries || meta.entries,
                    ..n.meta
                };
                let inner = self.schema((n.inner)(), &own, false)?;
                return Ok(with_meta(inner, meta));
            }
            Kind::Struct(s) => self.structure(s)?,
            Kind::Enum(e) => self.enumeration(e)?,
        };
        Ok(with_meta(base, meta))
    }

    /// Whether a map annotated with `meta` is written as entries here (`closed`: the map is an
    /// enum-keyed closed object, which every dialect expresses: entries only when marked).
    fn entries(&self, meta: &Meta, closed: bool) -> bool {
        (self.reshape.marked_entries && meta.entries) || (self.reshape.all_entries && !closed)
    }

    fn map_value(&mut self, value: &'static Type) -> Result<Value, ConvertError> {
        Ok(match value.kind {
            Kind::Any => Value::Bool(true),
            _ => self.schema(value, &Meta::EMPTY, false)?,
        })
    }

    fn def_name(&mut self, id: &'static str, ty: &'static Type) -> String {
        if let Some(n) = self.def_names.get(id) {
            return n.clone();
        }
        let base = type_name(ty);
        let mut name = base.to_string();
        let mut i = 2;
        while self.def_names.values().any(|n| *n == name) {
            name = format!("{base}{i}");
            i += 1;
        }
        self.def_names.insert(id, name.clone());
        self.pending.push((name.clone(), ty));
        name
    }

    /// The schema of one field's value: an `Option` field is absent-or-T, so its schema is T's.
    fn field_schema(&mut self, f: &Field) -> Result<Value, ConvertError> {
        let ty = (f.ty)();
        let ty = match ty.kind {
            Kind::Option(inner) => inner(),
            _ => ty,
        };
        self.schema(ty, &f.meta, false)
    }

    /// The alternatives of an object with these fields: one unless a flattened enum is rendered
    /// precisely.
    fn objects(&mut self, fields: &[Field], open: bool) -> Result<Vec<Obj>, ConvertError> {
        let mut alts = vec![Obj {
            open,
            ..Obj::default()
        }];
        for f in fields {
            if !f.flatten {
                let s = self.field_schema(f)?;
                let req = f.required();
                for o in &mut alts {
                    o.add(f.name, s.clone(), req);
                }
                continue;
            }
            let (inner, optional) = match (f.ty)().kind {
                Kind::Option(t) => (t(), true),
                _ => ((f.ty)(), false),
            };
            let parts = self.flattened(inner, f)?;
            if parts.len() * alts.len() > MAX_ALTERNATIVES {
                return Err(ConvertError::new(
                    "",
                    ConvertErrorKind::LimitExceeded {
                        limit: "flattened enum alternatives",
                        max: MAX_ALTERNATIVES,
                        found: parts.len() * alts.len(),
                    },
                ));
            }
            let mut next = Vec::with_capacity(alts.len() * parts.len());
            for a in &alts {
                for p in &parts {
                    let mut o = a.clone();
                    if self.form == Form::Alternatives && o.description.is_none() {
                        // A variant's description describes the alternative it stands for.
                        o.description = p.description;
                    }
                    o.merge(p.clone(), !optional);
                    next.push(o);
                }
            }
            alts = next;
        }
        Ok(alts)
    }

    /// What a `#[serde(flatten)]` field contributes.
    fn flattened(&mut self, ty: &'static Type, f: &Field) -> Result<Vec<Obj>, ConvertError> {
        match &ty.kind {
            Kind::Struct(s) => self.objects(s.fields, s.open),
            Kind::Newtype(n) => self.flattened((n.inner)(), f),
            Kind::KeyedMap { key, .. } if integer_key(key()) => Err(ConvertError::new(
                format!("/properties/{}", f.name),
                ConvertErrorKind::Unsupported(format!(
                    "field `{}` is a map with integer keys, merged into its parent object (`#[serde(flatten)]` or an internally tagged newtype variant): serde cannot read integer keys there",
                    f.rust_name
                )),
            )),
            Kind::KeyedMap { key, value } => {
                let additional = self.map_value(value())?;
                match self.key_names(key(), &additional)? {
                    KeyNames::Enum(o) => Ok(vec![o]),
                    KeyNames::Strings(names) => Ok(vec![Obj {
                        additional: Some(additional),
                        property_names: names,
                        open: true,
                        ..Obj::default()
                    }]),
                }
            }
            Kind::Map(v) => {
                let additional = self.map_value(v())?;
                Ok(vec![Obj {
                    additional: Some(additional),
                    open: true,
                    ..Obj::default()
                }])
            }
            Kind::Enum(e) if matches!(e.repr, Repr::Internal { .. }) => match self.form {
                Form::Precise => self.variant_objects(e),
                Form::Alternatives if !e.one_object => self.flattened_alternatives(e, f),
                Form::Presentation | Form::Alternatives => {
                    let mut o = self.one_object(e)?;
                    if let (Some(d), Some((_, tag))) = (f.meta.description, o.props.first_mut()) {
                        if e.tag_description.is_none() {
                            if let Value::Object(m) = tag {
                                put(m, "description", d.into());
                            }
                        }
                    }
                    Ok(vec![o])
                }
            },
            // serde flattens an externally tagged enum's data variants as one property each.
            Kind::Enum(e)
                if e.repr == Repr::External
                    && e.variants
                        .iter()
                        .all(|v| v.style != VariantStyle::Unit && !v.untagged) =>
            {
                let mut out = Vec::new();
                for v in e.variants {
                    let mut o = Obj {
                        open: true,
                        ..Obj::default()
                    };
                    if let Some(c) = self.content(e, v)? {
                        o.add(v.name, c, true);
                    }
                    out.push(o);
                }
                Ok(out)
            }
            _ => Err(ConvertError::new(
                format!("/properties/{}", f.name),
                ConvertErrorKind::Unsupported(format!(
                    "field `{}` is `#[serde(flatten)]` but its type is not a struct, map, internally tagged enum or externally tagged enum with data in every variant",
                    f.rust_name
                )),
            )),
        }
    }

    fn structure(&mut self, s: &'static Struct) -> Result<Value, ConvertError> {
        let alts = self.objects(s.fields, s.open)?;
        Ok(alternatives(alts, &s.meta))
    }

    fn enumeration(&mut self, e: &'static Enum) -> Result<Value, ConvertError> {
        match e.repr {
            Repr::Unit => Ok(string_enum(e.variants, &e.meta, None)),
            Repr::Internal { .. } if e.variants.iter().any(|v| v.untagged) => {
                let mut branches: Vec<Value> = self
                    .variant_objects(e)?
                    .into_iter()
                    .map(|o| o.into_value(&Meta::EMPTY))
                    .collect();
                for v in e.variants.iter().filter(|v| v.untagged) {
                    branches.push(self.untagged_branch(e, v)?);
                }
                Ok(union(branches, &e.meta))
            }
            Repr::External | Repr::Adjacent { .. } | Repr::Untagged => self.tagged_union(e),
            Repr::Internal { .. } => {
                if e.one_object && self.form != Form::Precise {
                    let o = self.one_object(e)?;
                    Ok(o.into_value(&e.meta))
                } else {
                    let alts = self.variant_objects(e)?;
                    Ok(alternatives(alts, &e.meta))
                }
            }
        }
    }

    /// Each variant as its own object, its tag a `const`.
    fn variant_objects(&mut self, e: &'static Enum) -> Result<Vec<Obj>, ConvertError> {
        let Repr::Internal { tag } = e.repr else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for v in e.variants.iter().filter(|v| !v.untagged) {
            let mut tag_schema = Map::new();
            put(&mut tag_schema, "type", "string".into());
            put(&mut tag_schema, "const", v.name.into());
            let mut base = Obj {
                open: e.open,
                description: v.meta.description,
                ..Obj::default()
            };
            base.add(tag, Value::Object(tag_schema), true);
            for alt in self.objects(v.fields, e.open)? {
                let mut o = base.clone();
                o.merge(alt, true);
                out.push(o);
            }
        }
        Ok(out)
    }

    /// A flattened internally tagged enum in [`Form::Alternatives`]: one closed object per
    /// variant, its tag a `const` described as the one-object form describes the tag (the enum's
    /// tag description, else the flattened field's).
    fn flattened_alternatives(
        &mut self,
        e: &'static Enum,
        f: &Field,
    ) -> Result<Vec<Obj>, ConvertError> {
        let mut out = self.variant_objects(e)?;
        if let (Some(d), Repr::Internal { tag }) =
            (e.tag_description.or(f.meta.description), e.repr)
        {
            for o in &mut out {
                if let Some((_, Value::Object(m))) = o.props.iter_mut().find(|(n, _)| n == tag) {
                    put(m, "description", d.into());
                }
            }
        }
        Ok(out)
    }

    /// All variants merged into one object (seed 004's universal response, seed 000's agent step).
    fn one_object(&mut self, e: &'static Enum) -> Result<Obj, ConvertError> {
        let Repr::Internal { tag } = e.repr else {
            return Ok(Obj::default());
        };
        let mut per_variant: Vec<Obj> = Vec::new();
        for v in e.variants {
            // A variant with a flattened enum of its own is merged too (presentation form).
            let mut alts = self.objects(v.fields, e.open)?;
            let first = alts.drain(..).reduce(|mut a, b| {
                a.merge(b, false);
                a
            });
            per_variant.push(first.unwrap_or_default());
        }
        let mut out = Obj {
            open: e.open,
            ..Obj::default()
        };
        let tag_schema = string_enum(e.variants, &Meta::EMPTY, e.tag_description);
        out.add(tag, tag_schema, true);
        let common: Vec<String> = per_variant
            .first()
            .map(|first| {
                first
                    .required
                    .iter()
                    .filter(|n| per_variant.iter().all(|o| o.required.contains(n)))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let mut specific: Vec<Vec<String>> = Vec::new();
        let mut fields: Vec<Vec<String>> = Vec::new();
        for o in &per_variant {
            specific.push(
                o.required
                    .iter()
                    .filter(|n| !common.contains(n))
                    .cloned()
                    .collect(),
            );
            fields.push(o.props.iter().map(|(n, _)| n.clone()).collect());
        }
        for o in per_variant {
            let mut o = o;
            o.required.retain(|n| common.contains(n));
            let clauses = std::mem::take(&mut o.clauses);
            out.merge(o, true);
            out.clauses.extend(clauses);
        }
        if !specific.is_empty() && specific.iter().all(|s| !s.is_empty()) {
            let exclusive = specific.iter().enumerate().all(|(b, sb)| {
                fields
                    .iter()
                    .enumerate()
                    .all(|(a, fa)| a == b || !sb.iter().all(|n| fa.contains(n)))
            });
            let list: Vec<Value> = specific
                .into_iter()
                .map(|s| obj(&mut [("required", Value::from(s))]))
                .collect();
            let key = if exclusive { "oneOf" } else { "anyOf" };
            let mut clause = Map::new();
            clause.insert(key.into(), Value::Array(list));
            out.clauses.push(Value::Object(clause));
        }
        Ok(out)
    }
}

// serde's enum representations other than internally tagged, tuples, and maps with typed keys.
impl Renderer {
    /// An externally tagged, adjacently tagged or untagged enum (and untagged variants): an
    /// `anyOf` of one branch per variant, in declaration order; externally tagged unit variants
    /// without a description share one string `enum` branch.
    fn tagged_union(&mut self, e: &'static Enum) -> Result<Value, ConvertError> {
        let mut branches: Vec<Value> = Vec::new();
        let mut units: Option<usize> = None;
        for v in e.variants {
            if v.untagged || e.repr == Repr::Untagged {
                branches.push(self.untagged_branch(e, v)?);
                continue;
            }
            let branch = match e.repr {
                Repr::Adjacent { tag, content } => {
                    let mut o = Obj {
                        open: e.open,
                        description: v.meta.description,
                        ..Obj::default()
                    };
                    o.add(
                        tag,
                        obj(&mut [("type", "string".into()), ("const", v.name.into())]),
                        true,
                    );
                    if let Some(c) = self.content(e, v)? {
                        o.add(content, c, true);
                    }
                    o.into_value(&Meta::EMPTY)
                }
                _ => match self.content(e, v)? {
                    None if v.meta.description.is_none() && v.meta.title.is_none() => {
                        match units {
                            Some(i) => {
                                if let Some(Value::Array(list)) = branches[i].get_mut("enum") {
                                    list.push(v.name.into());
                                }
                            }
                            None => {
                                units = Some(branches.len());
                                branches.push(obj(&mut [
                                    ("type", "string".into()),
                                    ("enum", Value::Array(vec![v.name.into()])),
                                ]));
                            }
                        }
                        continue;
                    }
                    None => with_title(
                        obj(&mut [("type", "string".into()), ("const", v.name.into())]),
                        v,
                    ),
                    Some(c) => {
                        let mut o = Obj {
                            description: v.meta.description,
                            ..Obj::default()
                        };
                        o.add(v.name, c, true);
                        o.into_value(&Meta::EMPTY)
                    }
                },
            };
            branches.push(branch);
        }
        Ok(union(branches, &e.meta))
    }

    /// An untagged variant: its content alone (`null` for a unit variant).
    fn untagged_branch(&mut self, e: &'static Enum, v: &Variant) -> Result<Value, ConvertError> {
        let c = self
            .content(e, v)?
            .unwrap_or_else(|| obj(&mut [("type", "null".into())]));
        Ok(with_title(c, v))
    }

    /// The content of a variant: `None` for a unit variant.
    fn content(&mut self, e: &'static Enum, v: &Variant) -> Result<Option<Value>, ConvertError> {
        Ok(match v.style {
            VariantStyle::Unit => None,
            VariantStyle::Newtype => match v.fields.first() {
                Some(f) => Some(self.schema((f.ty)(), &f.meta, false)?),
                None => None,
            },
            VariantStyle::Tuple => Some(self.tuple(v.fields.iter().map(|f| ((f.ty)(), &f.meta)))?),
            VariantStyle::Struct => {
                let alts = self.objects(v.fields, e.open)?;
                Some(alternatives(alts, &Meta::EMPTY))
            }
        })
    }

    /// A tuple: `prefixItems`, no further item, exactly as many items.
    fn tuple<'m>(
        &mut self,
        items: impl Iterator<Item = (&'static Type, &'m Meta)>,
    ) -> Result<Value, ConvertError> {
        let mut prefix = Vec::new();
        for (ty, meta) in items {
            prefix.push(self.schema(ty, meta, false)?);
        }
        let n = prefix.len();
        if self.reshape.tuple_objects {
            let mut o = Obj::default();
            for (i, item) in prefix.into_iter().enumerate() {
                o.add(&format!("_{i}"), item, true);
            }
            return Ok(o.into_value(&Meta::EMPTY));
        }
        Ok(obj(&mut [
            ("type", "array".into()),
            ("prefixItems", Value::Array(prefix)),
            ("items", false.into()),
            ("minItems", n.into()),
            ("maxItems", n.into()),
        ]))
    }

    /// A map whose keys serde writes as strings: the key type says which strings are keys.
    fn keyed_map(
        &mut self,
        key: &'static Type,
        value: &'static Type,
        meta: &Meta,
    ) -> Result<Value, ConvertError> {
        let v = self.map_value(value)?;
        let names = match self.key_names(key, &v)? {
            KeyNames::Enum(o) if self.entries(meta, true) => {
                let names: Vec<Value> = o.props.iter().map(|(n, _)| n.as_str().into()).collect();
                return Ok(entries(
                    obj(&mut [("type", "string".into()), ("enum", Value::Array(names))]),
                    v,
                ));
            }
            KeyNames::Enum(o) => return Ok(o.into_value(&Meta::EMPTY)),
            KeyNames::Strings(names) => names,
        };
        if self.entries(meta, false) {
            let mut key = Map::new();
            put(&mut key, "type", "string".into());
            if let Some(Value::Object(names)) = names {
                key.extend(names);
            }
            return Ok(entries(Value::Object(key), v));
        }
        let mut m = Map::new();
        put(&mut m, "type", "object".into());
        put(&mut m, "additionalProperties", v);
        if let Some(names) = names {
            put(&mut m, "propertyNames", names);
        }
        Ok(Value::Object(m))
    }
}

/// Which strings are keys of a map: a closed object of one optional property per variant for a
/// unit-only enum key, else a `propertyNames` schema (`None`: any string).
enum KeyNames {
    Enum(Obj),
    Strings(Option<Value>),
}

impl Renderer {
    /// The keys a map with keys of type `key` and values `value` may have.
    fn key_names(&mut self, key: &'static Type, value: &Value) -> Result<KeyNames, ConvertError> {
        let mut key_schema = None;
        let mut key = key;
        while let Kind::Newtype(n) = &key.kind {
            if !n.meta.is_empty() && key_schema.is_none() {
                key_schema = Some(with_meta(Value::Object(Map::new()), &n.meta));
            }
            key = (n.inner)();
        }
        Ok(KeyNames::Strings(match &key.kind {
            Kind::String => key_schema,
            Kind::Char => Some(obj(&mut [("minLength", 1.into()), ("maxLength", 1.into())])),
            Kind::Integer { min, .. } => Some(obj(&mut [(
                "pattern",
                if min.is_some_and(|m| m >= 0) {
                    "^(0|[1-9][0-9]*)$"
                } else {
                    "^-?(0|[1-9][0-9]*)$"
                }
                .into(),
            )])),
            Kind::Enum(e)
                if e.variants
                    .iter()
                    .all(|v| v.style == VariantStyle::Unit && !v.untagged)
                    && matches!(e.repr, Repr::Unit | Repr::External) =>
            {
                let mut o = Obj::default();
                for variant in e.variants {
                    o.add(variant.name, value.clone(), false);
                }
                return Ok(KeyNames::Enum(o));
            }
            _ => {
                return Err(ConvertError::new(
                    "",
                    ConvertErrorKind::Unsupported(format!(
                        "a map key must be written as a string; `{}` is not",
                        type_name(key)
                    )),
                ))
            }
        }))
    }
}

/// Whether a map key type is an integer (seen through newtypes).
fn integer_key(mut key: &'static Type) -> bool {
    while let Kind::Newtype(n) = &key.kind {
        key = (n.inner)();
    }
    matches!(key.kind, Kind::Integer { .. })
}

/// A map written as an array of `{"key": .., "value": ..}` objects (what `from_json` reads
/// back into the map; a key written twice is an error there).
fn entries(mut key: Value, value: Value) -> Value {
    if let Value::Object(k) = &mut key {
        put(k, "description", "Each key at most once.".into());
    }
    let items = obj(&mut [
        ("type", "object".into()),
        ("properties", obj(&mut [("key", key), ("value", value)])),
        ("required", Value::Array(vec!["key".into(), "value".into()])),
        ("additionalProperties", false.into()),
    ]);
    obj(&mut [("type", "array".into()), ("items", items)])
}

/// A variant's description and title on the schema of its branch.
fn with_title(mut schema: Value, v: &Variant) -> Value {
    if let Value::Object(m) = &mut schema {
        if let Some(t) = v.meta.title {
            put(m, "title", t.into());
        }
        if let Some(d) = v.meta.description {
            put(m, "description", d.into());
        }
    }
    schema
}

/// One branch as it is, or `anyOf` of several, with the container's description and title.
fn union(mut branches: Vec<Value>, meta: &Meta) -> Value {
    if branches.len() == 1 {
        let mut one = branches.remove(0);
        if let Value::Object(m) = &mut one {
            if let Some(t) = meta.title {
                put(m, "title", t.into());
            }
            if let Some(d) = meta.description {
                put(m, "description", d.into());
            }
        }
        return one;
    }
    let mut m = Map::new();
    if let Some(t) = meta.title {
        put(&mut m, "title", t.into());
    }
    if let Some(d) = meta.description {
        put(&mut m, "description", d.into());
    }
    put(&mut m, "anyOf", Value::Array(branches));
    Value::Object(m)
}

/// One object, or `anyOf` of several, with the container's description and title on top.
fn alternatives(mut alts: Vec<Obj>, meta: &Meta) -> Value {
    if alts.len() == 1 {
        return alts.remove(0).into_value(meta);
    }
    let mut m = Map::new();
    if let Some(t) = meta.title {
        put(&mut m, "title", t.into());
    }
    if let Some(d) = meta.description {
        put(&mut m, "description", d.into());
    }
    m.insert(
        "anyOf".into(),
        Value::Array(
            alts.into_iter()
                .map(|o| o.into_value(&Meta::EMPTY))
                .collect(),
        ),
    );
    Value::Object(m)
}

/// A string enum: `enum` of names, or `oneOf` of `const`s when any variant has a description,
/// so no description is lost.
fn string_enum(variants: &[Variant], meta: &Meta, description: Option<&'static str>) -> Value {
    let mut m = Map::new();
    put(&mut m, "type", "string".into());
    if let Some(t) = meta.title {
        put(&mut m, "title", t.into());
    }
    if let Some(d) = meta.description.or(description) {
        put(&mut m, "description", d.into());
    }
    let documented = variants
        .iter()
        .any(|v| v.meta.description.is_some() || v.meta.title.is_some());
    if documented {
        let one_of = variants
            .iter()
            .map(|v| {
                let mut c = Map::new();
                put(&mut c, "const", v.name.into());
                if let Some(t) = v.meta.title {
                    put(&mut c, "title", t.into());
                }
                if let Some(d) = v.meta.description {
                    put(&mut c, "description", d.into());
                }
                Value::Object(c)
            })
            .collect();
        put(&mut m, "oneOf", Value::Array(one_of));
    } else {
        m.insert(
            "enum".into(),
            Value::Array(variants.iter().map(|v| Value::from(v.name)).collect()),
        );
    }
    Value::Object(m)
}

/// Applies a field's (or newtype's) annotations to the schema of its value.
pub(crate) fn with_meta(mut schema: Value, meta: &Meta) -> Value {
    if meta.is_empty() {
        return schema;
    }
    let Value::Object(m) = &mut schema else {
        return schema;
    };
    if let Some(t) = meta.title {
        put(m, "title", t.into());
    }
    if let Some(d) = meta.description {
        put(m, "description", d.into());
    }
    if let Some(c) = meta.const_value {
        put(m, "const", c.to_json());
    }
    let mut put_some = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            put(m, k, v);
        }
    };
    put_some("minLength", meta.min_length.map(Value::from));
    put_some("maxLength", meta.max_length.map(Value::from));
    put_some("pattern", meta.pattern.map(Value::from));
    put_some("format", meta.format.map(Value::from));
    put_some(
        "exclusiveMinimum",
        meta.exclusive_minimum.map(|n| n.to_json()),
    );
    put_some(
        "exclusiveMaximum",
        meta.exclusive_maximum.map(|n| n.to_json()),
    );
    put_some("multipleOf", meta.multiple_of.map(|n| n.to_json()));
    put_some("minItems", meta.min_items.map(Value::from));
    put_some("maxItems", meta.max_items.map(Value::from));
    if meta.unique_items {
        put(m, "uniqueItems", true.into());
    }
    // A bound written on the field replaces the type's own bound only where it is tighter.
    if let Some(min) = meta.minimum {
        let tighter = match m.get("minimum").and_then(Value::as_f64) {
            Some(existing) => min.as_f64() >= existing,
            None => true,
        };
        if tighter {
            put(m, "minimum", min.to_json());
        }
    }
    if let Some(max) = meta.maximum {
        let tighter = match m.get("maximum").and_then(Value::as_f64) {
            Some(existing) => max.as_f64() <= existing,
            None => true,
        };
        if tighter {
            put(m, "maximum", max.to_json());
        }
    }
    if !meta.examples.is_empty() {
        m.insert(
            "examples".into(),
            Value::Array(meta.examples.iter().map(|l| l.to_json()).collect()),
        );
    }
    schema
}
