//! Maps written as entries and tuples written as objects, read back into serde's form.
//!
//! The dialects that cannot express a map or a tuple (OpenAI strict, Anthropic) get, on request,
//! a map as an array of `{"key": .., "value": ..}` objects (`#[schema(entries)]`,
//! `DialectOptions::map_entries`) and a tuple as an object with the properties `_0`, `_1`, ...
//! (`DialectOptions::tuple_objects`). serde writes neither form: a map is always an object and a
//! tuple always an array. This pass, guided by the type's model, rewrites each such value where
//! the model has a map or a tuple, so the validator and serde then read serde's form. A key
//! written twice, or an entry that is not a `{key, value}` object, is an error with its path.
//!
//! Where the model has a map, an array can only be entries (serde never writes an array there);
//! where it has a tuple, an object can only be the positional form. So the pass never changes a
//! value serde would read.

use crate::keyed::Keyed;
use crate::model::{Enum, Field, Kind, Repr, Type, VariantStyle};
use crate::validate::ValidationError;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Deeper than any value `serde_json` parses (128 levels).
const MAX_DEPTH: usize = 256;

/// What the pass did.
#[derive(Default)]
pub(super) struct Outcome {
    /// Whether any value was rewritten.
    pub(super) changed: bool,
    /// Entries that could not be read back (not a `{key, value}` object, a key written twice).
    pub(super) errors: Vec<ValidationError>,
    /// For each rewritten value (its pointer in the rewritten value): each child's token there
    /// and the tokens of the same child as written (`key` -> `3/value`, `1` -> `_1`).
    renames: Keyed<String, Vec<(String, String)>>,
}

impl Outcome {
    /// A pointer into the rewritten value as a pointer into the value as written, so errors
    /// name what the model wrote.
    pub(super) fn written_path(&self, path: &str) -> String {
        if self.renames.is_empty() || path.is_empty() {
            return path.to_string();
        }
        let mut shaped = String::new();
        let mut written = String::new();
        for token in path[1..].split('/') {
            let renamed = self
                .renames
                .get(&shaped)
                .and_then(|r| r.iter().find(|(t, _)| t == token))
                .map(|(_, w)| w.as_str());
            written.push('/');
            written.push_str(renamed.unwrap_or(token));
            shaped.push('/');
            shaped.push_str(token);
        }
        written
    }
}

/// Rewrites, at every level of `v` that `ty` describes, entries into maps and positional objects
/// into tuples.
pub(super) fn reshape(ty: &'static Type, v: &mut Value) -> Outcome {
    let mut out = Outcome::default();
    let mut path = String::new();
    walk(ty, v, &mut path, 0, &mut out);
    out
}

fn escaped(token: &str) -> String {
    let mut s = String::new();
    push(&mut s, token);
    s.split_off(1)
}

fn push(path: &mut String, token: &str) -> usize {
    let len = path.len();
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
    len
}

fn walk(ty: &'static Type, v: &mut Value, path: &mut String, depth: usize, out: &mut Outcome) {
    if depth > MAX_DEPTH {
        return;
    }
    match (&ty.kind, v) {
        (Kind::Option(inner), v) => walk(inner(), v, path, depth + 1, out),
        (Kind::Newtype(n), v) => walk((n.inner)(), v, path, depth + 1, out),
        (Kind::Array(item) | Kind::Set(item), Value::Array(items)) => {
            for (i, x) in items.iter_mut().enumerate() {
                let len = push(path, &i.to_string());
                walk(item(), x, path, depth + 1, out);
                path.truncate(len);
            }
        }
        (Kind::Map(value) | Kind::KeyedMap { value, .. }, v) => map(value(), v, path, depth, out),
        (Kind::Tuple(items), v) => tuple(items.iter().map(|t| t()), v, path, depth, out),
        (Kind::Struct(s), Value::Object(o)) => object(s.fields, o, path, depth, out),
        (Kind::Enum(e), v) => enumeration(e, v, path, depth, out),
        _ => {}
    }
}

/// A map: entries read back into an object, then each value walked.
fn map(value: &'static Type, v: &mut Value, path: &mut String, depth: usize, out: &mut Outcome) {
    if let Value::Array(items) = v {
        let mut o = Map::with_capacity(items.len());
        let mut first: HashMap<String, usize> = HashMap::with_capacity(items.len());
        let before = out.errors.len();
        let mut renames = Vec::with_capacity(items.len());
        for (i, entry) in std::mem::take(items).into_iter().enumerate() {
            let Some((key, val)) = entry_parts(entry) else {
                let len = push(path, &i.to_string());
                out.errors.push(ValidationError {
                    path: path.clone(),
                    keyword: "entries",
                    expected: "an object with exactly the properties `key` (a string) and `value`"
                        .into(),
                    found: "something else".into(),
                });
                path.truncate(len);
                continue;
            };
            if let Some(j) = first.get(&key) {
                let len = push(path, &i.to_string());
                push(path, "key");
                out.errors.push(ValidationError {
                    path: path.clone(),
                    keyword: "entries",
                    expected: "each key at most once".into(),
                    found: format!("{key:?} again (first in entry {j})"),
                });
                path.truncate(len);
                continue;
            }
            first.insert(key.clone(), i);
            renames.push((escaped(&key), format!("{i}/value")));
            o.insert(key, val);
        }
        out.changed = true;
        out.renames.insert(path.clone(), renames);
        *v = Value::Object(o);
        if out.errors.len() > before {
            return;
        }
    }
    if let Value::Object(o) = v {
        for (k, x) in o.iter_mut() {
            let len = push(path, k);
            walk(value, x, path, depth + 1, out);
            path.truncate(len);
        }
    }
}

/// `{"key": "<string>", "value": ..}` and nothing else.
fn entry_parts(entry: Value) -> Option<(String, Value)> {
    let Value::Object(mut o) = entry else {
        return None;
    };
    if o.len() != 2 {
        return None;
    }
    let value = o.remove("value")?;
    match o.remove("key")? {
        Value::String(k) => Some((k, value)),
        _ => None,
    }
}

/// A tuple: `{"_0": .., "_1": ..}` read back into an array, then each item walked.
fn tuple(
    items: impl ExactSizeIterator<Item = &'static Type>,
    v: &mut Value,
    path: &mut String,
    depth: usize,
    out: &mut Outcome,
) {
    let n = items.len();
    if let Value::Object(o) = v {
        if let Some(array) = positional(o, n) {
            *v = Value::Array(array);
            out.changed = true;
            let renames = (0..n).map(|i| (i.to_string(), format!("_{i}"))).collect();
            out.renames.insert(path.clone(), renames);
        }
    }
    if let Value::Array(values) = v {
        for (i, (ty, x)) in items.zip(values.iter_mut()).enumerate() {
            let len = push(path, &i.to_string());
            walk(ty, x, path, depth + 1, out);
            path.truncate(len);
        }
    }
}

/// The items of an object whose properties are exactly `_0` .. `_{n-1}`, in order.
fn positional(o: &mut Map<String, Value>, n: usize) -> Option<Vec<Value>> {
    if o.len() != n || (0..n).any(|i| !o.contains_key(&format!("_{i}"))) {
        return None;
    }
    Some(
        (0..n)
            .map(|i| o.remove(&format!("_{i}")).unwrap_or(Value::Null))
            .collect(),
    )
}

/// The members of one object, with flattened structs and internally tagged enums merged in.
fn object(
    fields: &'static [Field],
    o: &mut Map<String, Value>,
    path: &mut String,
    depth: usize,
    out: &mut Outcome,
) {
    let mut all: Vec<&'static Field> = Vec::new();
    collect(fields, o, &mut all, depth);
    for (k, x) in o.iter_mut() {
        if let Some(f) = all.iter().find(|f| f.name == k) {
            let len = push(path, k);
            walk((f.ty)(), x, path, depth + 1, out);
            path.truncate(len);
        }
    }
}

fn collect(
    fields: &'static [Field],
    o: &Map<String, Value>,
    all: &mut Vec<&'static Field>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for f in fields {
        if !f.flatten {
            all.push(f);
            continue;
        }
        let mut ty = (f.ty)();
        while let Kind::Option(inner) = &ty.kind {
            ty = inner();
        }
        while let Kind::Newtype(n) = &ty.kind {
            ty = (n.inner)();
        }
        match &ty.kind {
            Kind::Struct(s) => collect(s.fields, o, all, depth + 1),
            Kind::Enum(e) => {
                if let Repr::Internal { tag } = e.repr {
                    let name = o.get(tag).and_then(Value::as_str);
                    if let Some(v) = e.variants.iter().find(|v| Some(v.name) == name) {
                        collect(v.fields, o, all, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

fn enumeration(
    e: &'static Enum,
    v: &mut Value,
    path: &mut String,
    depth: usize,
    out: &mut Outcome,
) {
    match e.repr {
        Repr::Internal { .. } => {
            if let Value::Object(o) = v {
                // The variant's fields are the object's, beside the tag.
                let fields: &'static [Field] = e
                    .variants
                    .iter()
                    .find(|var| {
                        let Repr::Internal { tag } = e.repr else {
                            return false;
                        };
                        !var.untagged && o.get(tag).and_then(Value::as_str) == Some(var.name)
                    })
                    .map_or(&[], |var| var.fields);
                object(fields, o, path, depth + 1, out);
            }
        }
        Repr::External => {
            if let Value::Object(o) = v {
                if o.len() == 1 {
                    if let Some((name, content)) = o.iter_mut().next() {
                        if let Some(var) = e.variants.iter().find(|var| var.name == name) {
                            let len = push(path, name);
                            content_of(var, content, path, depth, out);
                            path.truncate(len);
                        }
                    }
                }
            }
        }
        Repr::Adjacent { tag, content } => {
            if let Value::Object(o) = v {
                let name = o.get(tag).and_then(Value::as_str).map(str::to_owned);
                let var = e
                    .variants
                    .iter()
                    .find(|var| Some(var.name) == name.as_deref());
                if let (Some(var), Some(c)) = (var, o.get_mut(content)) {
                    let len = push(path, content);
                    content_of(var, c, path, depth, out);
                    path.truncate(len);
                }
            }
        }
        Repr::Untagged | Repr::Unit => {}
    }
    // Untagged variants (and untagged enums): a positional object of a tuple variant is the
    // only form read back, when exactly one tuple variant has that many fields.
    if let Value::Object(o) = v {
        let mut candidates = e.variants.iter().filter(|var| {
            (var.untagged || e.repr == Repr::Untagged)
                && var.style == VariantStyle::Tuple
                && var.fields.len() == o.len()
        });
        if let (Some(var), None) = (candidates.next(), candidates.next()) {
            content_of(var, v, path, depth, out);
        }
    }
}

/// The content of one variant.
fn content_of(
    var: &'static crate::model::Variant,
    content: &mut Value,
    path: &mut String,
    depth: usize,
    out: &mut Outcome,
) {
    match var.style {
        VariantStyle::Unit => {}
        VariantStyle::Newtype => {
            if let Some(f) = var.fields.first() {
                walk((f.ty)(), content, path, depth + 1, out);
            }
        }
        VariantStyle::Tuple => tuple(
            var.fields.iter().map(|f| (f.ty)()),
            content,
            path,
            depth + 1,
            out,
        ),
        VariantStyle::Struct => {
            if let Value::Object(o) = content {
                object(var.fields, o, path, depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::reshape;
    use crate::AgentSchema;
    use serde_json::json;
    use std::collections::{BTreeMap, HashMap};

    #[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
    struct Inner {
        pair: (u8, String),
    }

    #[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
    struct Outer {
        #[schema(entries)]
        scores: HashMap<String, Inner>,
        by_id: BTreeMap<u32, bool>,
        list: Vec<(bool, char)>,
    }

    #[test]
    fn entries_and_positional_objects_become_serde_form() {
        let mut v = json!({
            "scores": [{"key": "a", "value": {"pair": {"_0": 1, "_1": "x"}}}],
            "by_id": [{"key": "7", "value": true}],
            "list": [{"_0": true, "_1": "c"}, [false, "d"]],
        });
        let out = reshape(Outer::schema_type(), &mut v);
        assert!(out.changed && out.errors.is_empty());
        assert_eq!(
            v,
            json!({"scores": {"a": {"pair": [1, "x"]}}, "by_id": {"7": true},
                "list": [[true, "c"], [false, "d"]]})
        );
        // serde's own form is left as it is.
        let mut same = v.clone();
        assert!(!reshape(Outer::schema_type(), &mut same).changed);
        assert_eq!(same, v);
    }

    #[test]
    fn a_key_written_twice_and_a_bad_entry_are_errors_with_paths() {
        let mut v = json!({
            "scores": [
                {"key": "a", "value": {"pair": [1, "x"]}},
                {"key": "a", "value": {"pair": [2, "y"]}},
                {"key": 3, "value": {"pair": [2, "y"]}},
            ],
            "by_id": {}, "list": [],
        });
        let out = reshape(Outer::schema_type(), &mut v);
        let paths: Vec<&str> = out.errors.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["/scores/1/key", "/scores/2"]);
    }

    #[test]
    fn paths_into_the_rewritten_value_name_what_was_written() {
        let mut v = json!({
            "scores": [{"key": "a/b", "value": {"pair": {"_0": 1, "_1": "x"}}}],
            "by_id": {}, "list": [],
        });
        let out = reshape(Outer::schema_type(), &mut v);
        assert_eq!(
            out.written_path("/scores/a~1b/pair/1"),
            "/scores/0/value/pair/_1"
        );
        assert_eq!(out.written_path("/by_id"), "/by_id");
        assert_eq!(out.written_path(""), "");
    }

    #[test]
    fn positional_objects_need_exactly_the_positions() {
        let mut v = json!({"pair": {"_0": 1, "_2": "x"}});
        assert!(!reshape(Inner::schema_type(), &mut v).changed);
        let mut v = json!({"pair": {"_0": 1, "_1": "x", "_2": 0}});
        assert!(!reshape(Inner::schema_type(), &mut v).changed);
    }
}
