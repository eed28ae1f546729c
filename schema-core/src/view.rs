//! Schemas narrowed at run time: one source for the schema sent to the model and the validator
//! that checks its reply.
//!
//! An agent often allows only some actions at a given step, or sets a list's length from a run-time
//! number (seed 000's `getAgentSchema(allowReflect, ...)` and `getResearchPlanSchema(teamSize)`).
//! A [`View`] starts from a derived type, is narrowed, and is then used like the type itself:
//! rendered in every dialect, as TypeScript text, and used to validate and parse replies, so a
//! reply that picks a forbidden action is rejected even though the full type would accept it.
//!
//! Narrowing only ever restricts: a bound that would widen the type's own bound is an error.

use crate::convert::{self, ConvertError, TsOptions};
use crate::parse::{self, ParseError};
use crate::validate::{ValidationErrors, Validator};
use crate::{AgentSchema, Dialect};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

/// Why a narrowing could not be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NarrowError {
    /// The path given to the narrowing (`""` is the root).
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for NarrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "cannot narrow {path}: {}", self.reason)
    }
}

impl std::error::Error for NarrowError {}

fn err(path: &str, reason: impl Into<String>) -> NarrowError {
    NarrowError {
        path: path.to_string(),
        reason: reason.into(),
    }
}

/// A derived type's schema, narrowed at run time. Cheap to build per request; clone or cache it.
///
/// ```
/// use schema_core::{view::View, AgentSchema, Dialect};
/// use serde::Deserialize;
///
/// #[derive(AgentSchema, Deserialize, Debug)]
/// #[serde(tag = "action", rename_all = "lowercase")]
/// enum Step {
///     Search { query: String },
///     Answer { answer: String },
/// }
///
/// // At this step the agent may only answer.
/// let view = View::<Step>::new().keep_variants("", &["answer"]).unwrap();
/// assert_eq!(view.json_schema(Dialect::JsonSchema).unwrap()["properties"]["action"]["const"], "answer");
/// assert!(view.from_json(r#"{"action": "answer", "answer": "42"}"#).is_ok());
/// // Valid for the full type, rejected by the view:
/// assert!(view.from_json(r#"{"action": "search", "query": "rust"}"#).is_err());
/// ```
pub struct View<T> {
    // Shared with the type's cache until the first narrowing copies it.
    presentation: Arc<Value>,
    // The precise schema is narrowed lazily: only a view that validates or parses pays for it.
    base: Arc<Value>,
    ops: Vec<Arc<PreciseOp>>,
    precise: OnceLock<Result<Value, String>>,
    validator: OnceLock<Result<Validator, ConvertError>>,
    _type: PhantomData<fn() -> T>,
}

/// A narrowing replayed on the precise schema when it is first needed.
type PreciseOp = dyn Fn(&mut Value) -> Result<(), String> + Send + Sync;

impl<T> Clone for View<T> {
    fn clone(&self) -> Self {
        View {
            presentation: self.presentation.clone(),
            base: self.base.clone(),
            ops: self.ops.clone(),
            precise: OnceLock::new(),
            validator: OnceLock::new(),
            _type: PhantomData,
        }
    }
}

impl<T> fmt::Debug for View<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("schema", &self.presentation)
            .finish()
    }
}

impl<T: AgentSchema> Default for View<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: AgentSchema> View<T> {
    /// The type's full schema, not narrowed yet.
    pub fn new() -> Self {
        let ty = T::schema_type();
        let presentation = crate::schema_of(ty, Dialect::JsonSchema)
            .unwrap_or_else(|e| Arc::new(error_schema(&e)));
        let base = crate::precise_of(ty).unwrap_or_else(|e| Arc::new(error_schema(&e)));
        View {
            presentation,
            base,
            ops: Vec::new(),
            precise: OnceLock::new(),
            validator: OnceLock::new(),
            _type: PhantomData,
        }
    }
}

/// A schema that accepts nothing, standing for a type whose schema could not be rendered (the
/// error surfaces when the view is rendered or used).
fn error_schema(e: &ConvertError) -> Value {
    serde_json::json!({"not": {}, "description": e.to_string()})
}

/// Splits `/a/b`, `a/b` or `a.b` into property names; `""` and `/` are the root.
fn segments(path: &str) -> Vec<&str> {
    path.split(['/', '.']).filter(|s| !s.is_empty()).collect()
}

/// Applies `f` to every schema the data path reaches: object properties by name, through array
/// `items`, `anyOf` / `oneOf` branches and `$ref`-free nesting. Returns how many were reached.
fn visit(
    schema: &mut Value,
    segs: &[&str],
    f: &mut dyn FnMut(&mut Value) -> Result<(), String>,
) -> Result<usize, String> {
    let Some((first, rest)) = segs.split_first() else {
        f(schema)?;
        return Ok(1);
    };
    let Value::Object(m) = schema else {
        return Ok(0);
    };
    let mut hits = 0;
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        if let Some(p) = props.get_mut(*first) {
            hits += visit(p, rest, f)?;
        }
    }
    if let Some(items) = m.get_mut("items") {
        hits += visit(items, segs, f)?;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.get_mut(key) {
            for b in branches {
                hits += visit(b, segs, f)?;
            }
        }
    }
    Ok(hits)
}

/// [`visit`] without changing anything.
fn visit_ref(
    schema: &Value,
    segs: &[&str],
    f: &mut dyn FnMut(&Value) -> Result<(), String>,
) -> Result<usize, String> {
    let Some((first, rest)) = segs.split_first() else {
        f(schema)?;
        return Ok(1);
    };
    let Value::Object(m) = schema else {
        return Ok(0);
    };
    let mut hits = 0;
    if let Some(p) = m.get("properties").and_then(|p| p.get(*first)) {
        hits += visit_ref(p, rest, f)?;
    }
    if let Some(items) = m.get("items") {
        hits += visit_ref(items, segs, f)?;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = m.get(key) {
            for b in branches {
                hits += visit_ref(b, segs, f)?;
            }
        }
    }
    Ok(hits)
}

/// The name of the property whose `const` tells the branches of a union apart.
fn tag_of(branches: &[Value]) -> Option<String> {
    let first = branches.first()?.get("properties")?.as_object()?;
    first
        .iter()
        .find(|(name, _)| {
            branches.iter().all(|b| {
                b.get("properties")
                    .and_then(|p| p.get(name.as_str()))
                    .and_then(|p| p.get("const"))
                    .is_some_and(Value::is_string)
            })
        })
        .map(|(n, _)| n.clone())
}

fn branch_tag<'a>(branch: &'a Value, tag: &str) -> Option<&'a str> {
    branch.get("properties")?.get(tag)?.get("const")?.as_str()
}

impl<T> View<T> {
    fn edit(
        mut self,
        path: &str,
        what: &str,
        f: impl Fn(&mut Value) -> Result<(), String> + Send + Sync + 'static,
    ) -> Result<Self, NarrowError> {
        let segs = segments(path);
        let hits = visit(Arc::make_mut(&mut self.presentation), &segs, &mut |v| f(v))
            .map_err(|r| err(path, r))?;
        if hits == 0 {
            return Err(err(path, format!("no {what} at this path")));
        }
        let owned: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
        self.push_op(move |v| {
            let segs: Vec<&str> = owned.iter().map(String::as_str).collect();
            visit(v, &segs, &mut |x| f(x)).map(|_| ())
        });
        Ok(self)
    }

    fn push_op(&mut self, op: impl Fn(&mut Value) -> Result<(), String> + Send + Sync + 'static) {
        self.ops.push(Arc::new(op));
        self.precise = OnceLock::new();
        self.validator = OnceLock::new();
    }

    /// Replaces the description of the value at `path` (seed 000 puts the current question there).
    pub fn describe(self, path: &str, description: &str) -> Result<Self, NarrowError> {
        let description = description.to_string();
        self.edit(path, "value", move |s| {
            if let Value::Object(m) = s {
                m.insert("description".into(), description.clone().into());
            }
            Ok(())
        })
    }

    /// Sets or tightens the item-count bounds of the array at `path`.
    pub fn items(
        self,
        path: &str,
        min: Option<u64>,
        max: Option<u64>,
    ) -> Result<Self, NarrowError> {
        self.bounds(
            path,
            "array",
            "minItems",
            "maxItems",
            min.map(Value::from),
            max.map(Value::from),
        )
    }

    /// Sets or tightens the length bounds (in characters) of the string at `path`.
    pub fn length(
        self,
        path: &str,
        min: Option<u64>,
        max: Option<u64>,
    ) -> Result<Self, NarrowError> {
        self.bounds(
            path,
            "string",
            "minLength",
            "maxLength",
            min.map(Value::from),
            max.map(Value::from),
        )
    }

    /// Sets or tightens the numeric bounds of the number at `path`.
    pub fn range(
        self,
        path: &str,
        min: Option<f64>,
        max: Option<f64>,
    ) -> Result<Self, NarrowError> {
        let num = |f: f64| {
            if f.fract() == 0.0 && f.abs() < 9.0e15 {
                Value::from(f as i64)
            } else {
                Value::from(f)
            }
        };
        if min.is_some_and(|f| !f.is_finite()) || max.is_some_and(|f| !f.is_finite()) {
            return Err(err(path, "bounds must be finite numbers"));
        }
        self.bounds(
            path,
            "number",
            "minimum",
            "maximum",
            min.map(num),
            max.map(num),
        )
    }

    fn bounds(
        self,
        path: &str,
        kind: &str,
        min_key: &'static str,
        max_key: &'static str,
        min: Option<Value>,
        max: Option<Value>,
    ) -> Result<Self, NarrowError> {
        let f = |v: &Option<Value>| v.as_ref().and_then(Value::as_f64);
        if let (Some(lo), Some(hi)) = (f(&min), f(&max)) {
            if lo > hi {
                return Err(err(
                    path,
                    format!("{min_key} {lo} is greater than {max_key} {hi}: no value fits"),
                ));
            }
        }
        let kind_name = kind.to_string();
        self.edit(path, kind, move |s| {
            let kind = kind_name.as_str();
            let type_ok = match s.get("type").and_then(Value::as_str) {
                Some(t) => t == kind || (kind == "number" && t == "integer"),
                None => false,
            };
            if !type_ok {
                return Err(format!("the value here is not a {kind}"));
            }
            let Value::Object(m) = s else { return Ok(()) };
            if let Some(lo) = &min {
                if let Some(old) = m.get(min_key).and_then(Value::as_f64) {
                    if lo.as_f64().unwrap_or(f64::MIN) < old {
                        return Err(format!(
                            "{min_key} {lo} would widen the type's own {min_key} {old}"
                        ));
                    }
                }
                if let Some(old) = m.get(max_key).and_then(Value::as_f64) {
                    if lo.as_f64().unwrap_or(f64::MIN) > old && max.is_none() {
                        return Err(format!(
                            "{min_key} {lo} is above the type's {max_key} {old}: no value fits"
                        ));
                    }
                }
                m.insert(min_key.into(), lo.clone());
            }
            if let Some(hi) = &max {
                if let Some(old) = m.get(max_key).and_then(Value::as_f64) {
                    if hi.as_f64().unwrap_or(f64::MAX) > old {
                        return Err(format!(
                            "{max_key} {hi} would widen the type's own {max_key} {old}"
                        ));
                    }
                }
                if let Some(old) = m.get(min_key).and_then(Value::as_f64) {
                    if hi.as_f64().unwrap_or(f64::MAX) < old {
                        return Err(format!(
                            "{max_key} {hi} is below {min_key} {old}: no value fits"
                        ));
                    }
                }
                m.insert(max_key.into(), hi.clone());
            }
            Ok(())
        })
    }

    /// Keeps only these values of the string enum at `path`.
    pub fn keep_values(self, path: &str, values: &[&str]) -> Result<Self, NarrowError> {
        if values.is_empty() {
            return Err(err(
                path,
                "keeping no value leaves an empty enum: no reply could be valid",
            ));
        }
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        self.edit(path, "string enum", move |s| {
            let Value::Object(m) = s else { return Ok(()) };
            if let Some(Value::Array(e)) = m.get_mut("enum") {
                for v in &values {
                    if !e.iter().any(|x| x.as_str() == Some(v)) {
                        return Err(format!("{v:?} is not one of the enum's values"));
                    }
                }
                e.retain(|x| x.as_str().is_some_and(|s| values.iter().any(|v| v == s)));
                return Ok(());
            }
            if let Some(Value::Array(branches)) = m.get_mut("oneOf") {
                if branches.iter().all(|b| b.get("const").is_some()) {
                    for v in &values {
                        if !branches.iter().any(|b| b["const"].as_str() == Some(v)) {
                            return Err(format!("{v:?} is not one of the enum's values"));
                        }
                    }
                    branches.retain(|b| {
                        b["const"]
                            .as_str()
                            .is_some_and(|s| values.iter().any(|v| v == s))
                    });
                    return Ok(());
                }
            }
            Err("the value here is not a string enum".into())
        })
    }

    /// Keeps only the variants with these tag values of the tagged enum at `path` (`""` for the
    /// root, or the struct a tagged enum is flattened into).
    pub fn keep_variants(mut self, path: &str, tags: &[&str]) -> Result<Self, NarrowError> {
        if tags.is_empty() {
            return Err(err(path, "keeping no variant leaves no valid reply"));
        }
        let segs = segments(path);
        // The precise schema says which properties belong to which variant (read, not copied).
        let mut kept_props: Vec<String> = Vec::new();
        let mut all_props: Vec<String> = Vec::new();
        let mut tag_name = None;
        let hits = visit_ref(&self.base, &segs, &mut |s| {
            let Some(Value::Array(branches)) = s.get("anyOf") else {
                return Err("the value here is not a tagged enum".into());
            };
            let tag = tag_of(branches).ok_or("the value here is not a tagged enum")?;
            for t in tags {
                if !branches.iter().any(|b| branch_tag(b, &tag) == Some(t)) {
                    let known: Vec<&str> = branches
                        .iter()
                        .filter_map(|b| branch_tag(b, &tag))
                        .collect();
                    return Err(format!(
                        "no variant is tagged {t:?} (tags: {})",
                        known.join(", ")
                    ));
                }
            }
            for b in branches {
                let keep = branch_tag(b, &tag).is_some_and(|t| tags.contains(&t));
                if let Some(Value::Object(p)) = b.get("properties") {
                    for k in p.keys() {
                        if keep && !kept_props.contains(k) {
                            kept_props.push(k.clone());
                        }
                        if !all_props.contains(k) {
                            all_props.push(k.clone());
                        }
                    }
                }
            }
            tag_name = Some(tag);
            Ok(())
        })
        .map_err(|r| err(path, r))?;
        if hits == 0 {
            return Err(err(path, "no tagged enum at this path"));
        }
        let tag = tag_name.unwrap_or_default();
        let dropped: Vec<String> = all_props
            .into_iter()
            .filter(|p| !kept_props.contains(p))
            .collect();
        let mut emptied = false;
        visit(Arc::make_mut(&mut self.presentation), &segs, &mut |s| {
            emptied |= !narrow_presentation(s, &tag, tags, &dropped);
            Ok(())
        })
        .map_err(|r| err(path, r))?;
        if emptied {
            return Err(err(
                path,
                "no variant is left (an earlier narrowing removed these)",
            ));
        }
        let owned_segs: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
        let owned_tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
        self.push_op(move |v| {
            let segs: Vec<&str> = owned_segs.iter().map(String::as_str).collect();
            visit(v, &segs, &mut |s| {
                if let Some(Value::Array(branches)) = s.get_mut("anyOf") {
                    // A single branch stays an `anyOf`, so errors still name the tag first.
                    branches.retain(|b| {
                        branch_tag(b, &tag).is_some_and(|t| owned_tags.iter().any(|k| k == t))
                    });
                }
                Ok(())
            })
            .map(|_| ())
        });
        Ok(self)
    }

    /// Keeps one variant of the tagged enum at the root, as its own schema (seed 000's
    /// `getEvaluatorSchema(evalType)`).
    pub fn variant(self, tag: &str) -> Result<Self, NarrowError> {
        let mut v = self.keep_variants("", &[tag])?;
        // The one-object form of a single variant is that variant's exact object.
        let precise = v.validation_schema();
        let mut only = precise["anyOf"][0].clone();
        if let (Some(d), Value::Object(m)) = (precise.get("description"), &mut only) {
            m.entry("description").or_insert(d.clone());
        }
        v.presentation = Arc::new(only);
        Ok(v)
    }

    /// The narrowed schema in `dialect`.
    pub fn json_schema(&self, dialect: Dialect) -> Result<Value, ConvertError> {
        match dialect {
            Dialect::JsonSchema => Ok((*self.presentation).clone()),
            d => convert::to_dialect(&self.presentation, d),
        }
    }

    /// The narrowed schema as TypeScript text.
    pub fn typescript(&self) -> Result<String, ConvertError> {
        self.typescript_with(&TsOptions::default())
    }

    /// The narrowed schema as TypeScript text, with options.
    pub fn typescript_with(&self, options: &TsOptions) -> Result<String, ConvertError> {
        convert::to_typescript(&self.presentation, options)
    }

    /// The precise schema the view validates against (computed on first use).
    pub fn validation_schema(&self) -> &Value {
        match self.precise_value() {
            Ok(v) => v,
            Err(_) => &self.base,
        }
    }

    fn precise_value(&self) -> Result<&Value, ParseError> {
        if self.ops.is_empty() {
            return Ok(&self.base);
        }
        self.precise
            .get_or_init(|| {
                let mut v = (*self.base).clone();
                for op in &self.ops {
                    op(&mut v)?;
                }
                Ok(v)
            })
            .as_ref()
            .map_err(|e| ParseError::Schema(e.clone()))
    }

    fn validator(&self) -> Result<&Validator, ParseError> {
        let precise = self.precise_value()?;
        self.validator
            .get_or_init(|| Validator::new(precise))
            .as_ref()
            .map_err(|e| ParseError::Schema(e.to_string()))
    }

    /// Checks a value against the narrowed rules.
    pub fn validate(&self, value: &Value) -> Result<(), ValidationErrors> {
        match self.validator() {
            Ok(v) => v.validate(value),
            Err(e) => Err(parse::single(
                "",
                "schema",
                "a schema that can be compiled",
                &e.to_string(),
            )),
        }
    }
}

impl<T: DeserializeOwned> View<T> {
    /// Strict JSON text to a value of the type, with the narrowed rules enforced.
    pub fn from_json(&self, text: &str) -> Result<T, ParseError> {
        let value: Value = parse::parse_text(text)?;
        self.from_value(value)
    }

    /// A parsed JSON value to a value of the type, with the narrowed rules enforced.
    pub fn from_value(&self, value: Value) -> Result<T, ParseError> {
        let validator = self.validator()?;
        parse::checked(validator, value)
    }

    /// A raw model reply to a value of the type, with the narrowed rules enforced.
    pub fn from_llm(&self, text: &str) -> Result<T, ParseError> {
        let found = parse::extract(text, &parse::ParseOptions::default())?;
        self.from_json(&found.json)
    }
}

/// Removes what the dropped variants contributed to a one-object (or `anyOf`) rendering.
fn narrow_presentation(s: &mut Value, tag: &str, tags: &[&str], dropped: &[String]) -> bool {
    let Value::Object(m) = s else { return true };
    if let Some(Value::Array(branches)) = m.get_mut("anyOf") {
        if tag_of(branches).as_deref() == Some(tag) {
            branches.retain(|b| branch_tag(b, tag).is_some_and(|t| tags.contains(&t)));
            if branches.is_empty() {
                return false;
            }
            if branches.len() == 1 {
                let only = branches.remove(0);
                m.remove("anyOf");
                if let Value::Object(o) = only {
                    for (k, v) in o {
                        m.entry(k).or_insert(v);
                    }
                }
            }
            return true;
        }
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for d in dropped {
            props.shift_remove(d);
        }
        if let Some(Value::Object(t)) = props.get_mut(tag) {
            if let Some(Value::Array(e)) = t.get_mut("enum") {
                e.retain(|x| x.as_str().is_some_and(|s| tags.contains(&s)));
                if e.is_empty() {
                    return false;
                }
            }
            if let Some(Value::Array(b)) = t.get_mut("oneOf") {
                b.retain(|x| x["const"].as_str().is_some_and(|s| tags.contains(&s)));
                if b.is_empty() {
                    return false;
                }
            }
        }
    }
    if let Some(Value::Array(req)) = m.get_mut("required") {
        req.retain(|r| !r.as_str().is_some_and(|r| dropped.iter().any(|d| d == r)));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(clauses)) = m.get_mut(key) {
            clauses.retain(|c| {
                c.get("required").and_then(Value::as_array).is_none_or(|r| {
                    !r.iter()
                        .any(|n| n.as_str().is_some_and(|n| dropped.iter().any(|d| d == n)))
                })
            });
            if clauses.is_empty() {
                m.remove(key);
            }
        }
    }
    true
}
