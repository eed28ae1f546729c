//! The provider rule table (DESIGN.md) as a checker, shared by `dialects.rs` and `providers.rs`.
#![allow(dead_code)]

use schema_core::Dialect;
use serde_json::{json, Value};

pub fn allowed_keys(d: Dialect) -> Vec<&'static str> {
    let mut k = vec![
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "enum",
        "description",
        "title",
        "$ref",
        "$defs",
    ];
    k.extend(match d {
        Dialect::OpenAi => &[
            "const",
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
        ][..],
        Dialect::Anthropic => &["const", "pattern", "format", "minItems"][..],
        Dialect::Gemini => &[
            "format",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "prefixItems",
            "propertyOrdering",
        ][..],
        Dialect::LmStudio => &[
            "const",
            "pattern",
            "format",
            "minLength",
            "maxLength",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
            "prefixItems",
            "patternProperties",
        ][..],
        _ => &[][..],
    });
    k
}

pub fn formats(d: Dialect) -> &'static [&'static str] {
    match d {
        Dialect::OpenAi => &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
        ],
        Dialect::Anthropic => &[
            "date-time",
            "time",
            "date",
            "duration",
            "email",
            "hostname",
            "ipv4",
            "ipv6",
            "uuid",
            "uri",
        ],
        Dialect::Gemini => &["date-time", "date", "time"],
        _ => &["date", "time", "date-time", "uuid"],
    }
}

pub fn simple_pattern(p: &str) -> bool {
    !(p.contains("(?=")
        || p.contains("(?!")
        || p.contains("(?<")
        || p.contains("\\b")
        || p.contains("\\B")
        || (1..=9).any(|i| p.contains(&format!("\\{i}"))))
}

struct Checker<'a> {
    d: Dialect,
    root: &'a Value,
    errors: Vec<String>,
    properties: usize,
    enum_values: usize,
    optional: usize,
    unions: usize,
}

/// Every violation of the provider table for `d` in `schema`.
pub fn check_rules(schema: &Value, d: Dialect) -> Vec<String> {
    let mut c = Checker {
        d,
        root: schema,
        errors: Vec::new(),
        properties: 0,
        enum_values: 0,
        optional: 0,
        unions: 0,
    };
    // root: an object, no union (llama.cpp / LM Studio: or an `anyOf` of closed objects)
    let object = |s: &Value| s.get("type") == Some(&json!("object"));
    let union_of_closed_objects = d == Dialect::LmStudio
        && schema.as_object().is_some_and(|m| {
            m.keys()
                .all(|k| matches!(k.as_str(), "anyOf" | "description" | "title"))
        })
        && schema["anyOf"].as_array().is_some_and(|b| {
            b.iter()
                .all(|b| object(b) && b["additionalProperties"] == json!(false))
        });
    // (only where the provider needs an object root: Gemini and llama.cpp take any root)
    if d.rules().root_object {
        if !object(schema) && !union_of_closed_objects {
            c.errors.push("root: not an object".into());
        }
        for k in ["anyOf", "oneOf", "allOf"] {
            if schema.get(k).is_some() && !union_of_closed_objects {
                c.errors.push(format!("root: `{k}`"));
            }
        }
    }
    c.node(schema, "", 0);
    if let Some(Value::Object(defs)) = schema.get("$defs") {
        for (n, s) in defs {
            c.node(s, &format!("/$defs/{n}"), 0);
            if d == Dialect::LmStudio
                && s.as_object()
                    .is_some_and(|m| m.len() == 1 && m.contains_key("$ref"))
            {
                c.errors.push(format!("/$defs/{n}: chained $ref"));
            }
        }
    }
    match d {
        Dialect::OpenAi => {
            if c.properties > 5000 {
                c.errors.push("more than 5000 properties".into())
            }
            if c.enum_values > 1000 {
                c.errors.push("more than 1000 enum values".into())
            }
        }
        Dialect::Anthropic => {
            if c.optional > 24 {
                c.errors.push("more than 24 optional properties".into())
            }
            if c.unions > 16 {
                c.errors.push("more than 16 unions".into())
            }
            if c.recursive() {
                c.errors.push("recursion".into())
            }
        }
        _ => {}
    }
    c.errors
}

impl Checker<'_> {
    fn recursive(&self) -> bool {
        fn refs(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r.clone())
                    }
                    m.iter()
                        .filter(|(k, _)| *k != "$defs")
                        .for_each(|(_, c)| refs(c, out));
                }
                Value::Array(a) => a.iter().for_each(|c| refs(c, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        refs(self.root, &mut all);
        if all.iter().any(|r| r == "#") {
            return true;
        }
        // a def reaching itself
        let defs = self
            .root
            .get("$defs")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        for start in defs.keys() {
            let mut stack = vec![start.clone()];
            let mut seen = std::collections::HashSet::new();
            while let Some(n) = stack.pop() {
                let mut out = Vec::new();
                refs(&defs[&n], &mut out);
                for r in out {
                    let t = r.trim_start_matches("#/$defs/").to_string();
                    if &t == start {
                        return true;
                    }
                    if seen.insert(t.clone()) && defs.contains_key(&t) {
                        stack.push(t)
                    }
                }
            }
        }
        false
    }

    fn err(&mut self, at: &str, msg: impl Into<String>) {
        self.errors.push(format!("{at}: {}", msg.into()));
    }

    fn node(&mut self, v: &Value, at: &str, objects: usize) {
        let d = self.d;
        let Some(m) = v.as_object() else {
            self.err(at, "not a schema object");
            return;
        };
        let allowed = allowed_keys(d);
        for k in m.keys() {
            if !allowed.contains(&k.as_str()) {
                self.err(at, format!("keyword `{k}` not in the {d} subset"));
            }
        }
        if at.is_empty() {
        } else if m.contains_key("$defs") {
            self.err(at, "nested $defs")
        }
        if let Some(r) = m.get("$ref") {
            if m.len() > 1 {
                self.err(at, "keyword beside $ref")
            }
            let r = r.as_str().unwrap_or_default();
            let ok = r == "#"
                || r.strip_prefix('#')
                    .and_then(|p| self.root.pointer(p))
                    .is_some();
            if !ok {
                self.err(at, format!("dangling $ref {r}"))
            }
            if d == Dialect::Anthropic && r == "#" {
                self.err(at, "recursion")
            }
            return;
        }
        let ty = m.get("type").and_then(Value::as_str);
        if m.contains_key("anyOf") {
            self.unions += 1;
            if d == Dialect::LmStudio && m.contains_key("properties") {
                self.err(at, "properties beside anyOf");
            }
            for (i, b) in m["anyOf"].as_array().into_iter().flatten().enumerate() {
                self.node(b, &format!("{at}/anyOf/{i}"), objects);
            }
        } else if ty.is_none() && d == Dialect::OpenAi {
            self.err(at, "schema without a type");
        }
        if let Some(Value::Array(e)) = m.get("enum") {
            self.enum_values += e.len();
        }
        if let Some(Value::String(f)) = m.get("format") {
            if !formats(d).contains(&f.as_str()) {
                self.err(at, format!("format {f}"))
            }
        }
        if let Some(Value::String(p)) = m.get("pattern") {
            if d == Dialect::Anthropic && !simple_pattern(p) {
                self.err(at, "complex pattern")
            }
        }
        if d == Dialect::LmStudio {
            for k in ["minLength", "maxLength"] {
                if m.get(k).and_then(Value::as_u64).is_some_and(|n| n > 1000) {
                    self.err(at, format!("huge {k}"))
                }
            }
            if ty != Some("integer") {
                for k in [
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ] {
                    if m.contains_key(k) {
                        self.err(at, format!("{k} on a non-integer"))
                    }
                }
            }
        }
        if d == Dialect::Anthropic {
            if let Some(n) = m.get("minItems").and_then(Value::as_u64) {
                if n > 1 {
                    self.err(at, "minItems above 1")
                }
            }
        }
        let objects = objects + usize::from(ty == Some("object"));
        if d == Dialect::OpenAi && objects > 10 {
            self.err(at, "nesting deeper than 10")
        }
        if ty == Some("object") {
            let props = m
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let required: Vec<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            self.properties += props.len();
            self.optional += props
                .keys()
                .filter(|k| !required.contains(&k.as_str()))
                .count();
            if matches!(d, Dialect::OpenAi | Dialect::Anthropic)
                && m.get("additionalProperties") != Some(&json!(false))
            {
                self.err(at, "object not closed");
            }
            if d == Dialect::OpenAi {
                let names: Vec<&str> = props.keys().map(String::as_str).collect();
                if names != required {
                    self.err(
                        at,
                        format!("required {required:?} is not every property {names:?}"),
                    )
                }
            }
            if d == Dialect::Gemini && !props.is_empty() {
                let names: Vec<Value> = props.keys().cloned().map(Value::String).collect();
                if m.get("propertyOrdering") != Some(&Value::Array(names)) {
                    self.err(at, "propertyOrdering")
                }
            }
            for (n, s) in &props {
                self.node(s, &format!("{at}/properties/{n}"), objects);
            }
            if let Some(a @ Value::Object(_)) = m.get("additionalProperties") {
                self.node(a, &format!("{at}/additionalProperties"), objects);
            }
        }
        if let Some(items) = m.get("items").filter(|i| i.is_object()) {
            self.node(items, &format!("{at}/items"), objects);
        }
        if let Some(Value::Array(p)) = m.get("prefixItems") {
            for (i, s) in p.iter().enumerate() {
                self.node(s, &format!("{at}/prefixItems/{i}"), objects);
            }
        }
    }
}

/// Constraint keywords of the input that must survive: kept as keywords, or as `@tags`.
pub const CONSTRAINTS: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
];

pub fn collect_keys(v: &Value, out: &mut Vec<String>, descriptions: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                if k == "properties" || k == "$defs" || k == "definitions" {
                    out.push(k.clone());
                    if let Value::Object(ps) = c {
                        ps.values().for_each(|s| collect_keys(s, out, descriptions));
                    }
                    continue;
                }
                out.push(k.clone());
                if k == "description" {
                    if let Value::String(s) = c {
                        descriptions.push_str(s);
                        descriptions.push('\n');
                    }
                }
                collect_keys(c, out, descriptions);
            }
        }
        Value::Array(a) => a.iter().for_each(|c| collect_keys(c, out, descriptions)),
        _ => {}
    }
}

/// Every constraint keyword of `input` is in `output` as a keyword or as an `@keyword` tag.
pub fn check_constraints_kept(input: &Value, output: &Value) -> Vec<String> {
    let (mut ik, mut od, mut ok) = (Vec::new(), String::new(), Vec::new());
    collect_keys(input, &mut ik, &mut String::new());
    collect_keys(output, &mut ok, &mut od);
    CONSTRAINTS
        .iter()
        .filter(|k| ik.iter().any(|x| x == *k))
        .filter(|k| !ok.iter().any(|x| x == *k) && !od.contains(&format!("@{k} ")))
        .map(|k| format!("constraint `{k}` lost"))
        .collect()
}
