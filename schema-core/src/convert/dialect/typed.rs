//! A schema of one type: each keyword kept, tagged into the description, or dropped, as the
//! dialect's table says; array items converted.

use super::*;

impl Conv<'_> {
    /// A schema of one type (or none): keywords kept, tagged or dropped per the dialect.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn typed(
        &mut self,
        m: &Map<String, Value>,
        skip: Option<&str>,
        at: &str,
        cx: Cx,
        depth: usize,
        notes: &mut Vec<String>,
    ) -> Result<Value, ConvertError> {
        let ty: Option<&str> = match m.fget("type") {
            Some(Value::String(t)) => Some(t.as_str()),
            _ => infer_type(m),
        };
        if let Some(t) = ty {
            if !matches!(
                t,
                "string" | "number" | "integer" | "boolean" | "object" | "array" | "null"
            ) {
                return Err(malformed(
                    &pointer::push(at, "type"),
                    format!("unknown type {t:?}"),
                ));
            }
        }
        let Some(ty) = ty else {
            if self.rules.typed_only {
                return Err(unsupported(
                    at,
                    "a schema without a type (any value) cannot be expressed: OpenAI strict needs a `type` on every schema".into(),
                ));
            }
            // Any value: keep the annotations.
            let mut out = Map::new();
            let mut tags = Vec::new();
            for (k, v) in m.iter().filter(|(k, _)| Some(k.as_str()) != skip) {
                match k.as_str() {
                    "title" | "description" => {
                        out.insert(k.clone(), v.clone());
                    }
                    "default" => {
                        tags.push(tag_line(k, v));
                        self.change(at, ChangeKind::MovedToDescription { keyword: k.clone() });
                    }
                    // values of several types (one type would have typed the schema): kept, as
                    // any value may stand here (before, dropped); an empty one allows no value
                    "enum" => {
                        check_enum(v, at)?;
                        out.insert(k.clone(), v.clone());
                    }
                    _ => self.change(at, ChangeKind::Dropped { keyword: k.clone() }),
                }
            }
            apply_notes(&mut out, notes, &tags);
            return Ok(Value::Object(out));
        };
        if ty == "object" && self.rules.closed_objects {
            if let Some(values) = object_values(m) {
                return Ok(self.values_as_schemas(m, values, at, notes));
            }
        }
        let mut out = Map::with_capacity(m.len() + 2);
        // A type read from the keywords alone (`properties` without `type`) is not the input's:
        // a value of another type passes those keywords. It is written only where the dialect
        // needs one (a type on every schema, an object at the root), and then reported.
        let implied = !m.fhas("type") && !m.fhas("enum") && !m.fhas("const");
        if !implied {
            out.insert("type".into(), Value::String(ty.to_string()));
        } else if self.rules.typed_only || (at.is_empty() && self.rules.root_object) {
            out.insert("type".into(), Value::String(ty.to_string()));
            self.change(
                at,
                ChangeKind::Added {
                    keyword: "type".into(),
                },
            );
        }
        let mut tags: Vec<String> = Vec::new();
        let mut object_seen = false;
        // Lengths beside a `pattern` or `format` (xgrammar drops them there).
        let kcx = Cx {
            constrained: ty == "string" && (m.fhas("pattern") || m.fhas("format")),
            ..cx
        };
        for (k, v) in m.iter().filter(|(k, _)| Some(k.as_str()) != skip) {
            match k.as_str() {
                // draft 4's `additionalItems` is the rest of an `items` array only (as the
                // model reads it); beside a list's `items` or `prefixItems` it has no effect
                "additionalItems" if !m.fget("items").is_some_and(Value::is_array) => {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                }
                "items" | "prefixItems" | "additionalItems" if applies_to(k, ty) => {
                    self.items(k, v, &mut out, at, depth)?;
                }
                "properties" | "required" | "additionalProperties" | "patternProperties"
                    if applies_to(k, ty) =>
                {
                    if !object_seen {
                        object_seen = true;
                        self.object(m, &mut out, at, cx, depth, notes)?;
                    }
                }
                _ => self.keyword(k, v, ty, &mut out, &mut tags, at, kcx)?,
            }
        }
        if ty == "object" && !object_seen {
            self.object(m, &mut out, at, cx, depth, notes)?;
        }
        if ty == "array" && !out.fhas("items") && !out.fhas("prefixItems") && self.rules.typed_only
        {
            return Err(unsupported(
                at,
                "an array without `items` (items of any type) cannot be expressed: OpenAI strict needs a schema for the items".into(),
            ));
        }
        apply_notes(&mut out, notes, &tags);
        Ok(Value::Object(out))
    }

    /// An `enum` or `const` of objects where the dialect closes every object: a closed object
    /// without properties would allow none of the values, so each value is written as the
    /// schema of exactly that value (its properties required, each of its own value), and
    /// several as their `anyOf`. The title and description stay; the other keywords beside
    /// the values are dropped, as the values fix the whole object.
    fn values_as_schemas(
        &mut self,
        m: &Map<String, Value>,
        values: Vec<&Value>,
        at: &str,
        notes: &mut Vec<String>,
    ) -> Value {
        let mut out = Map::new();
        for (k, v) in m {
            match k.as_str() {
                "title" | "description" if v.is_string() => {
                    out.insert(k.clone(), v.clone());
                }
                "type" | "enum" | "const" => {}
                _ => self.change(at, ChangeKind::Dropped { keyword: k.clone() }),
            }
        }
        self.change(at, ChangeKind::ValuesAsSchemas);
        let mut schemas: Vec<Value> = values.into_iter().map(value_schema).collect();
        if schemas.len() == 1 {
            if let Some(Value::Object(one)) = schemas.pop() {
                out.extend(one);
            }
        } else {
            out.insert("anyOf".into(), Value::Array(schemas));
        }
        apply_notes(&mut out, notes, &[]);
        Value::Object(out)
    }

    /// `items` / `prefixItems` / `additionalItems` (recursion: kept out of the big keyword frame).
    #[inline(never)]
    pub(super) fn items(
        &mut self,
        k: &String,
        v: &Value,
        out: &mut Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<(), ConvertError> {
        let d = self.dialect;
        let kat = pointer::push(at, k);

        let tuple = k == "prefixItems" || v.is_array();
        if tuple && !self.rules.tuples {
            return Err(unsupported(
                &kat,
                format!("a tuple (`{k}` with positional schemas) cannot be expressed in {d}"),
            ));
        }
        let icx = Cx {
            in_items: true,
            escape: true,
            constrained: false,
        };
        match v {
            Value::Array(list) => {
                let mut items = Vec::new();
                for (i, s) in list.iter().enumerate() {
                    items.push(self.node(
                        s,
                        &pointer::push(&kat, &i.to_string()),
                        icx,
                        depth + 1,
                    )?);
                }
                let key = if k == "additionalItems" {
                    "items"
                } else {
                    "prefixItems"
                };
                out.insert(key.into(), Value::Array(items));
            }
            Value::Bool(false) => {
                // (no item after the tuple: 2020-12's `items: false`; an `additionalItems` of
                // the output would be ignored)
                let key = if k == "additionalItems" { "items" } else { k };
                out.insert(key.into(), v.clone());
            }
            s => {
                let key = if k == "additionalItems" {
                    "items"
                } else {
                    k.as_str()
                };
                let item = self.node(s, &kat, icx, depth + 1)?;
                out.insert(key.into(), item);
            }
        }
        Ok(())
    }

    /// One keyword of a typed schema that holds no subschema: kept, tagged or dropped.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn keyword(
        &mut self,
        k: &String,
        v: &Value,
        ty: &str,
        out: &mut Map<String, Value>,
        tags: &mut Vec<String>,
        at: &str,
        cx: Cx,
    ) -> Result<(), ConvertError> {
        let integer = ty == "integer";
        let kat = || pointer::push(at, k);
        let mut tag =
            |this: &mut Self, out: &mut Map<String, Value>, k: &str, v: &Value, action: Action| {
                match action {
                    Action::Keep => {
                        out.insert(k.to_string(), v.clone());
                    }
                    Action::Tag => {
                        tags.push(tag_line(k, v));
                        this.change(
                            at,
                            ChangeKind::MovedToDescription {
                                keyword: k.to_string(),
                            },
                        );
                    }
                }
            };
        match k.as_str() {
            "type" => {}
            "title" | "description" => {
                if !v.is_string() {
                    return Err(malformed(&kat(), format!("`{k}` must be a string")));
                }
                out.insert(k.clone(), v.clone());
            }
            "default" => tag(self, out, k, v, Action::Tag),
            // Written again from the properties by the object pass.
            "propertyOrdering" if self.rules.property_ordering && ty == "object" => {}
            "enum" => {
                check_enum(v, at)?;
                out.insert(k.clone(), v.clone());
            }
            "const" => {
                if self.rules.const_kept {
                    out.insert(k.clone(), v.clone());
                } else {
                    out.insert("enum".into(), json!([v]));
                    self.change(at, ChangeKind::ConstToEnum);
                }
            }
            _ if !applies_to(k, ty) => {
                // Another type's keyword, or one no dialect here expresses.
                if ty != "null"
                    && !is_typed_keyword(k)
                    && matches!(k.as_str(), "not" | "if" | "then" | "else" | "dependencies")
                {
                    tag(self, out, k, v, Action::Tag);
                } else {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                }
            }
            "minLength" | "maxLength" => {
                if !v.is_u64() {
                    return Err(malformed(
                        &kat(),
                        format!("`{k}` must be a non-negative integer"),
                    ));
                }
                tag(self, out, k, v, self.rules.length(v, cx.constrained));
            }
            "pattern" => {
                let p = v
                    .as_str()
                    .ok_or_else(|| malformed(&kat(), "`pattern` must be a string".into()))?;
                tag(self, out, k, v, self.rules.pattern(p, cx.in_items));
            }
            "format" => {
                let f = v
                    .as_str()
                    .ok_or_else(|| malformed(&kat(), "`format` must be a string".into()))?;
                if ty != "string" || table::is_numeric_format(f) {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else if self.rules.formats.contains(&f) {
                    out.insert(k.clone(), v.clone());
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                if !v.is_number() {
                    // Draft 4's boolean exclusive bounds: keep the meaning for the model.
                    tag(self, out, k, v, Action::Tag);
                    return Ok(());
                }
                tag(self, out, k, v, self.rules.numeric(k, v, integer));
            }
            "minItems" => {
                let n = v.as_u64();
                if n.is_none() {
                    return Err(malformed(
                        &kat(),
                        "`minItems` must be a non-negative integer".into(),
                    ));
                }
                let action = self.rules.min_items(n);
                if action == Action::Tag {
                    // Anthropic: keep "not empty", say the rest.
                    out.insert(k.clone(), json!(1));
                }
                tag(self, out, k, v, action);
            }
            "maxItems" => {
                if !v.is_u64() {
                    return Err(malformed(
                        &kat(),
                        "`maxItems` must be a non-negative integer".into(),
                    ));
                }
                tag(self, out, k, v, self.rules.max_items());
            }
            "uniqueItems" | "contains" | "minContains" | "maxContains" | "unevaluatedItems" => {
                if v.is_object() {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            "minProperties" | "maxProperties" | "dependentRequired" | "propertyNames" => {
                if v.is_object() && k == "propertyNames" {
                    self.change(at, ChangeKind::Dropped { keyword: k.clone() });
                } else {
                    tag(self, out, k, v, Action::Tag);
                }
            }
            _ => self.change(at, ChangeKind::Dropped { keyword: k.clone() }),
        }
        Ok(())
    }
}

/// The object values of the `enum` or `const` of `m` (an object schema: values of other types
/// cannot pass its `type`), if it has any.
fn object_values(m: &Map<String, Value>) -> Option<Vec<&Value>> {
    let values = match (m.fget("enum"), m.fget("const")) {
        (Some(Value::Array(e)), _) => e.as_slice(),
        (None, Some(c)) => std::slice::from_ref(c),
        _ => return None,
    };
    let objects: Vec<&Value> = values.iter().filter(|v| v.is_object()).collect();
    (!objects.is_empty()).then_some(objects)
}

/// The schema of the one value `v`, every object in it closed with its properties required.
/// An array's items are the union of its elements' schemas (its order and length are the
/// validator's to check).
fn value_schema(v: &Value) -> Value {
    match v {
        Value::Null => json!({"type": "null"}),
        Value::Object(o) => {
            let props: Map<String, Value> = o
                .iter()
                .map(|(k, v)| (k.clone(), value_schema(v)))
                .collect();
            let required: Vec<Value> = o.keys().cloned().map(Value::String).collect();
            json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
        }
        Value::Array(a) => {
            let mut seen = HashSet::new();
            let mut items: Vec<Value> = Vec::new();
            for s in a.iter().map(value_schema) {
                // equal elements written once
                if seen.insert(s.to_string()) {
                    items.push(s);
                }
            }
            let items = match items.len() {
                0 => json!({"type": "null"}),
                1 => items.pop().unwrap_or_default(),
                _ => json!({ "anyOf": items }),
            };
            json!({"type": "array", "items": items})
        }
        scalar => json!({"type": type_of_value(scalar), "enum": [scalar]}),
    }
}

/// An `enum` (of the schema at `at`) must be a list of at least one value: an empty one allows
/// no value, which no dialect can express.
fn check_enum(v: &Value, at: &str) -> Result<(), ConvertError> {
    match v {
        Value::Array(e) if !e.is_empty() => Ok(()),
        Value::Array(_) => Err(malformed(
            &pointer::push(at, "enum"),
            "`enum` must not be empty".into(),
        )),
        _ => Err(malformed(
            &pointer::push(at, "enum"),
            "`enum` must be an array".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::convert::{to_dialect, to_typescript, ConvertErrorKind};
    use crate::Dialect;
    use serde_json::json;

    /// Draft 4's `additionalItems` is the rest of an `items` array, written as 2020-12's
    /// `items`; beside a list's `items` it has no effect. Before, a closed draft 4 tuple kept
    /// `additionalItems: false`, which 2020-12 ignores (the output accepted `["a", 1]`), and an
    /// `additionalItems` schema beside a list's `items` replaced the items' schema (the output
    /// asked for numbers where the input asks for strings).
    #[test]
    fn additional_items_is_the_rest_of_an_items_array_only() {
        let closed =
            json!({"type": "array", "items": [{"type": "string"}], "additionalItems": false});
        let list = json!({"type": "array", "items": {"type": "string"}, "additionalItems": {"type": "number"}});
        for d in [Dialect::Llguidance, Dialect::Xgrammar, Dialect::LlamaCpp] {
            let out =
                to_dialect(&json!({"type": "object", "properties": {"t": closed}}), d).unwrap();
            assert_eq!(
                out["properties"]["t"],
                json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
                "{d}"
            );
            let out = to_dialect(&json!({"type": "object", "properties": {"l": list}}), d).unwrap();
            assert_eq!(
                out["properties"]["l"],
                json!({"type": "array", "items": {"type": "string"}}),
                "{d}"
            );
        }
    }

    /// The dialects that take a schema without a type (any value).
    fn untyped_ok() -> impl Iterator<Item = Dialect> {
        Dialect::EVERY
            .into_iter()
            .filter(|d| *d != Dialect::JsonSchema && !d.rules().typed_only)
    }

    /// An `enum` of values of several types stays where a schema may go without a type: before,
    /// it was dropped (with a report), and the output accepted any value. The TypeScript text
    /// of the output says what the input's says.
    #[test]
    fn mixed_type_enum_is_kept_where_untyped_schemas_are_allowed() {
        let schema = json!({"type": "object", "properties": {"k": {"enum": ["a", 1, {"b": 2}]}}, "required": ["k"]});
        for d in untyped_ok() {
            let c = crate::convert::to_dialect_report(&schema, d).unwrap();
            assert_eq!(
                c.schema["properties"]["k"],
                json!({"enum": ["a", 1, {"b": 2}]}),
                "{d}"
            );
            assert!(
                c.changes.iter().all(|c| c.pointer != "/properties/k"),
                "{d} {:?}",
                c.changes
            );
            let ts = |v| to_typescript(v, &Default::default()).unwrap();
            assert_eq!(ts(&c.schema), ts(&schema), "{d}");
        }
        // (OpenAI strict needs a type on every schema: still an error)
        assert!(to_dialect(&schema, Dialect::OpenAi).is_err());
    }

    /// An empty `enum` allows no value: an error at the keyword in every dialect, typed or not
    /// (before, an untyped one became `{}`, any value).
    #[test]
    fn empty_enum_is_an_error() {
        for k in [json!({"enum": []}), json!({"type": "string", "enum": []})] {
            let schema = json!({"type": "object", "properties": {"k": k}});
            for d in untyped_ok() {
                let e = to_dialect(&schema, d).unwrap_err();
                assert_eq!(e.pointer, "/properties/k/enum", "{d} {schema}");
                assert!(matches!(e.kind, ConvertErrorKind::Malformed(_)), "{d}");
            }
        }
    }

    /// `additionalItems` without an `items` list has no effect: the schema is not an array
    /// for it (before, the dialects wrote `{"type": "array"}` where the model, and the
    /// TypeScript text, read any value).
    #[test]
    fn additional_items_alone_does_not_make_an_array() {
        let schema = json!({"type": "object", "properties": {"k": {"additionalItems": {"type": "string"}}}, "required": ["k"]});
        for d in untyped_ok() {
            let out = to_dialect(&schema, d).unwrap();
            assert_eq!(out["properties"]["k"], json!({}), "{d}");
        }
        let ts = to_typescript(&schema, &Default::default()).unwrap();
        assert_eq!(ts, "{k: unknown}");
        // with an `items` list it is the tuple's rest, as before
        let tuple = json!({"items": [{"type": "string"}], "additionalItems": false});
        let out = to_dialect(
            &json!({"type": "object", "properties": {"t": tuple}}),
            Dialect::Xgrammar,
        )
        .unwrap();
        // (no `type` written: the input has none, and a value of another type passes it)
        assert_eq!(
            out["properties"]["t"]["prefixItems"],
            json!([{"type": "string"}])
        );
        assert_eq!(out["properties"]["t"]["items"], json!(false));
    }
}
