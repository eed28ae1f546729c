//! `null` read as absent, the way serde needs it.
//!
//! Strict dialects (OpenAI, Anthropic) make every property required and the optional ones
//! nullable, so a model writes `null` for "no value". The validator reads such a `null` as
//! absent; serde reads a `null` as absent only for an `Option`. A non-`Option` field with
//! `#[serde(default)]` would hand `null` to the field's own `Deserialize` (`Vec` says "invalid
//! type: null, expected a sequence"). This pass removes those members, guided by the type's
//! model, so the field takes its default exactly as an `Option` takes `None`.

use crate::model::{Field, Kind, Repr, Type};
use serde_json::{Map, Value};

/// Deeper than any value `serde_json` parses (128 levels); a hand-built `Value` deeper than this
/// is left as it is below this depth.
const MAX_DEPTH: usize = 256;

/// Removes, at every level of `v` that `ty` describes, the `null` members that mean "absent":
/// those of a defaulted field whose type does not read `null` itself, and those naming a
/// property the object does not have.
pub(super) fn drop_absent_nulls(ty: &'static Type, v: &mut Value) {
    walk(ty, v, 0);
}

fn walk(ty: &'static Type, v: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match (&ty.kind, v) {
        (Kind::Option(inner), v) => walk(inner(), v, depth + 1),
        (Kind::Newtype(n), v) => walk((n.inner)(), v, depth + 1),
        (Kind::Array(item) | Kind::Set(item), Value::Array(items)) => {
            for x in items {
                walk(item(), x, depth + 1);
            }
        }
        // A `null` value the value type does not read is absent to the validator (an enum-keyed
        // map under OpenAI strict has a nullable property per key): so it is to serde.
        (Kind::Map(item) | Kind::KeyedMap { value: item, .. }, Value::Object(o)) => {
            let item = item();
            if !reads_null(item) {
                o.retain(|_, x| !x.is_null());
            }
            for x in o.values_mut() {
                walk(item, x, depth + 1);
            }
        }
        (Kind::Struct(s), Value::Object(o)) => object(&[s.fields], None, o, depth),
        (Kind::Enum(e), Value::Object(o)) => {
            match e.repr {
                Repr::Internal { tag } => {
                    if let Some(fields) = variant_fields(e, tag, o) {
                        object(&[fields], Some(tag), o, depth);
                    }
                }
                // `{"Variant": {...}}`: the payload object of a struct variant.
                Repr::External if o.len() == 1 => {
                    if let Some((name, Value::Object(payload))) = o.iter_mut().next() {
                        if let Some(v) = struct_variant(e, name) {
                            object(&[v], None, payload, depth + 1);
                        }
                    }
                }
                // `{"tag": "Variant", "content": {...}}`.
                Repr::Adjacent { tag, content } => {
                    let name = o.get(tag).and_then(Value::as_str).map(str::to_owned);
                    if let (Some(name), Some(Value::Object(payload))) = (name, o.get_mut(content)) {
                        if let Some(v) = struct_variant(e, &name) {
                            object(&[v], None, payload, depth + 1);
                        }
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The fields of the struct variant named `name`.
fn struct_variant(e: &'static crate::model::Enum, name: &str) -> Option<&'static [Field]> {
    e.variants
        .iter()
        .find(|v| v.name == name && v.style == crate::model::VariantStyle::Struct)
        .map(|v| v.fields)
}

/// The fields of the variant that `o`'s tag names.
fn variant_fields(
    e: &'static crate::model::Enum,
    tag: &str,
    o: &Map<String, Value>,
) -> Option<&'static [Field]> {
    let name = o.get(tag)?.as_str()?;
    e.variants.iter().find(|v| v.name == name).map(|v| v.fields)
}

/// The properties of one JSON object: its fields, with flattened structs and tagged enums
/// merged in.
#[derive(Default)]
struct Shape {
    fields: Vec<&'static Field>,
    tags: Vec<&'static str>,
    /// A flattened map or `Value` takes every other property.
    open: bool,
}

fn collect(fields: &'static [Field], o: &Map<String, Value>, shape: &mut Shape, depth: usize) {
    if depth > MAX_DEPTH {
        shape.open = true;
        return;
    }
    for f in fields {
        if !f.flatten {
            shape.fields.push(f);
            continue;
        }
        let mut ty = (f.ty)();
        loop {
            match &ty.kind {
                Kind::Option(inner) => ty = inner(),
                Kind::Newtype(n) => ty = (n.inner)(),
                _ => break,
            }
        }
        match &ty.kind {
            Kind::Struct(s) => collect(s.fields, o, shape, depth + 1),
            Kind::Enum(e) => match e.repr {
                Repr::Internal { tag } => {
                    shape.tags.push(tag);
                    match variant_fields(e, tag, o) {
                        Some(fields) => collect(fields, o, shape, depth + 1),
                        None => shape.open = true,
                    }
                }
                // Other representations flattened into an object: their properties are not
                // known here, so nulls among them are left for the validator to judge.
                Repr::Unit | Repr::External | Repr::Adjacent { .. } | Repr::Untagged => {
                    shape.open = true;
                }
            },
            _ => shape.open = true,
        }
    }
}

fn object(
    field_sets: &[&'static [Field]],
    tag: Option<&'static str>,
    o: &mut Map<String, Value>,
    depth: usize,
) {
    let mut shape = Shape::default();
    shape.tags.extend(tag);
    for fields in field_sets {
        collect(fields, o, &mut shape, depth + 1);
    }
    o.retain(|key, value| {
        let field = shape.fields.iter().find(|f| f.name == key);
        if !value.is_null() {
            if let Some(f) = field {
                walk((f.ty)(), value, depth + 1);
            }
            return true;
        }
        match field {
            Some(f) => !f.default || reads_null((f.ty)()),
            None => shape.open || shape.tags.contains(&key.as_str()),
        }
    });
}

/// Whether the type's own `Deserialize` accepts `null`.
fn reads_null(ty: &'static Type) -> bool {
    let mut ty = ty;
    for _ in 0..MAX_DEPTH {
        match &ty.kind {
            Kind::Option(_) | Kind::Any => return true,
            Kind::Newtype(n) => ty = (n.inner)(),
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::AgentSchema;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(AgentSchema, Deserialize, Debug, PartialEq)]
    struct Job {
        name: String,
        #[serde(default)]
        notes: Vec<String>,
        #[serde(default)]
        max_retries: u32,
        #[serde(default)]
        extra: serde_json::Value,
        label: Option<String>,
    }

    #[test]
    fn null_for_a_defaulted_field_reads_as_its_default() {
        let mut v = json!({"name": "a", "notes": null, "max_retries": null, "extra": null,
            "label": null, "gone": null});
        super::drop_absent_nulls(Job::schema_type(), &mut v);
        // `extra` and `label` read null themselves; `name` is kept as is.
        assert_eq!(v, json!({"name": "a", "extra": null, "label": null}));
    }
}
