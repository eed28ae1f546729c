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
//!
//! Views are cheap per request: choosing variants and replacing descriptions only records what
//! to do, and rendering a dialect then edits the type's cached schema for that dialect (about
//! 15 µs for seed 000's agent step under OpenAI), falling back to converting the narrowed schema
//! wherever an edit could give a different result.

use crate::convert::{self, ConvertError, ConvertErrorKind, SmallMap, TsOptions};
use crate::model::Type;
use crate::parse::{self, ParseError};
use crate::validate::{ValidationErrors, Validator};
use crate::{AgentSchema, Dialect, TypeCache};
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
    // The type whose schema this is (its cached dialect outputs feed the fast path).
    ty: &'static Type,
    cache: &'static TypeCache,
    // Shared with the type's cache until an eager narrowing copies it.
    presentation: Arc<Value>,
    // Variant and description narrowings not applied to `presentation` yet: a dialect rendering
    // applies them to the type's cached output for that dialect instead (see `fast_render`).
    pending: Vec<Lazy>,
    // True while `presentation` is still the type's own schema (no eager narrowing so far).
    fast: bool,
    // The tags kept so far at each path, to catch chained narrowings that leave nothing.
    kept: Vec<(Vec<String>, Vec<String>)>,
    // `presentation` with `pending` applied, built on first use.
    merged: OnceLock<Result<Value, ConvertError>>,
    // The type's schema with flattened tagged enums kept as alternatives, narrowed like
    // `presentation` (the dialects that keep unions are converted from it); `None` where it is
    // `presentation` itself.
    alternatives: Option<Arc<Value>>,
    // `alternatives` with `pending` applied, built on first use.
    merged_alternatives: OnceLock<Result<Value, ConvertError>>,
    // The precise schema is narrowed lazily: only a view that validates or parses pays for it.
    base: Arc<Value>,
    ops: Vec<Arc<PreciseOp>>,
    precise: OnceLock<Result<Value, String>>,
    validator: OnceLock<Result<Validator, ConvertError>>,
    _type: PhantomData<fn() -> T>,
}

/// A narrowing kept aside until the view is rendered.
#[derive(Clone, Debug)]
enum Lazy {
    /// Keep only the variants tagged `tags` of the tagged enum at `segs`; `dropped` are the
    /// properties only the other variants have.
    Keep {
        segs: Vec<String>,
        tag: String,
        tags: Vec<String>,
        dropped: Vec<String>,
    },
    /// Replace the description of the values at `segs` (`hits` of them, whose description was
    /// `old` when they all had the same one; `alt_same`: the values at `segs` in the
    /// alternatives form had that description too).
    Describe {
        segs: Vec<String>,
        text: String,
        old: Option<String>,
        hits: usize,
        alt_same: bool,
    },
}

/// A narrowing replayed on the precise schema when it is first needed.
type PreciseOp = dyn Fn(&mut Value) -> Result<(), String> + Send + Sync;

impl<T> Clone for View<T> {
    fn clone(&self) -> Self {
        View {
            ty: self.ty,
            cache: self.cache,
            presentation: self.presentation.clone(),
            pending: self.pending.clone(),
            fast: self.fast,
            kept: self.kept.clone(),
            merged: self.merged.clone(),
            alternatives: self.alternatives.clone(),
            merged_alternatives: self.merged_alternatives.clone(),
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
            .field("pending", &self.pending)
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
        let cache = T::type_cache();
        let presentation = cache
            .schema(ty, Dialect::JsonSchema)
            .clone()
            .unwrap_or_else(|e| Arc::new(error_schema(&e)));
        let alternatives = match cache.alternatives(ty) {
            Ok(a) if Arc::ptr_eq(a, &presentation) => None,
            Ok(a) => Some(a.clone()),
            Err(e) => Some(Arc::new(error_schema(e))),
        };
        let base = cache
            .precise(ty)
            .clone()
            .unwrap_or_else(|e| Arc::new(error_schema(&e)));
        View {
            ty,
            cache,
            presentation,
            pending: Vec::new(),
            fast: true,
            kept: Vec::new(),
            merged: OnceLock::new(),
            alternatives,
            merged_alternatives: OnceLock::new(),
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
    crate::obj::obj(&mut [
        ("not", Value::Object(serde_json::Map::new())),
        ("description", e.to_string().into()),
    ])
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
    // One pass over the keys (schema objects have a handful; hashing each lookup costs more).
    let mut hits = 0;
    for (k, v) in m.iter_mut() {
        match (k.as_str(), v) {
            ("properties", Value::Object(props)) => {
                if let Some(p) = props.fget_mut(first) {
                    hits += visit(p, rest, f)?;
                }
            }
            ("items", items) => hits += visit(items, segs, f)?,
            ("anyOf" | "oneOf", Value::Array(branches)) => {
                for b in branches {
                    hits += visit(b, segs, f)?;
                }
            }
            _ => {}
        }
    }
    Ok(hits)
}

/// Whether `s` is an array schema: an enum (or tagged enum) at a path that reaches an array is
/// narrowed in the array's elements (`tags: Vec<Status>` is narrowed at `tags`).
fn is_array(s: &Value) -> bool {
    matches!(s, Value::Object(m) if m.contains_key("items") && !m.contains_key("anyOf") && !m.contains_key("enum"))
}

/// The schema of the elements of an array schema (of nested arrays too), or `s` itself.
fn element(s: &Value) -> &Value {
    if is_array(s) {
        element(&s["items"])
    } else {
        s
    }
}

/// [`element`], mutable.
fn element_mut(s: &mut Value) -> &mut Value {
    if is_array(s) {
        // `is_array` checked that `items` is there: indexing does not insert.
        element_mut(&mut s["items"])
    } else {
        s
    }
}

/// The name of the property whose `const` tells the branches of a union apart.
fn tag_ref(branches: &[Value]) -> Option<&str> {
    let first = branches.first()?.fget("properties")?.as_object()?;
    first
        .iter()
        .find(|(name, _)| branches.iter().all(|b| branch_tag(b, name).is_some()))
        .map(|(n, _)| n.as_str())
}

fn branch_tag<'a>(branch: &'a Value, tag: &str) -> Option<&'a str> {
    branch
        .fget("properties")?
        .fget(tag)?
        .fget("const")?
        .as_str()
}

impl<T> View<T> {
    fn edit(
        mut self,
        path: &str,
        what: &str,
        f: impl Fn(&mut Value) -> Result<(), String> + Send + Sync + 'static,
    ) -> Result<Self, NarrowError> {
        self.flush().map_err(|r| err(path, r))?;
        let segs = segments(path);
        let hits = visit(Arc::make_mut(&mut self.presentation), &segs, &mut |v| f(v))
            .map_err(|r| err(path, r))?;
        if hits == 0 {
            return Err(err(path, format!("no {what} at this path")));
        }
        if let Some(a) = &mut self.alternatives {
            visit(Arc::make_mut(a), &segs, &mut |v| f(v)).map_err(|r| err(path, r))?;
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

    /// Applies the pending narrowings to `presentation` (before an eager narrowing edits it).
    fn flush(&mut self) -> Result<(), String> {
        self.fast = false;
        self.forget_merged();
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let p = Arc::make_mut(&mut self.presentation);
        for op in &pending {
            apply_lazy(p, op)?;
        }
        if let Some(a) = &mut self.alternatives {
            let a = Arc::make_mut(a);
            for op in &pending {
                apply_lazy(a, op)?;
            }
        }
        Ok(())
    }

    /// Drops the schemas built with the pending narrowings applied (the narrowings changed).
    fn forget_merged(&mut self) {
        self.merged = OnceLock::new();
        self.merged_alternatives = OnceLock::new();
    }

    /// The schema `dialect` is converted from, before the pending narrowings: the alternatives
    /// form where the dialect keeps unions and the type's differs, else the presentation.
    fn source(&self, dialect: Dialect) -> &Value {
        match &self.alternatives {
            Some(a)
                if crate::render::Form::for_dialect(dialect)
                    == crate::render::Form::Alternatives =>
            {
                a
            }
            _ => &self.presentation,
        }
    }

    /// [`View::source`] with the pending narrowings applied, borrowed.
    fn source_value(&self, dialect: Dialect) -> Result<&Value, ConvertError> {
        let (base, merged) = match &self.alternatives {
            Some(a)
                if crate::render::Form::for_dialect(dialect)
                    == crate::render::Form::Alternatives =>
            {
                (a, &self.merged_alternatives)
            }
            _ => return self.presentation_value(),
        };
        if self.pending.is_empty() {
            return Ok(base);
        }
        merged
            .get_or_init(|| {
                let mut v = (**base).clone();
                for op in &self.pending {
                    apply_lazy(&mut v, op)
                        .map_err(|r| ConvertError::new("", ConvertErrorKind::Unsupported(r)))?;
                }
                Ok(v)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The narrowed schema in the JSON Schema dialect, borrowed.
    fn presentation_value(&self) -> Result<&Value, ConvertError> {
        if self.pending.is_empty() {
            return Ok(&self.presentation);
        }
        self.merged
            .get_or_init(|| {
                let mut v = (*self.presentation).clone();
                for op in &self.pending {
                    apply_lazy(&mut v, op)
                        .map_err(|r| ConvertError::new("", ConvertErrorKind::Unsupported(r)))?;
                }
                Ok(v)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Replaces the description of the value at `path` (seed 000 puts the current question there).
    pub fn describe(mut self, path: &str, description: &str) -> Result<Self, NarrowError> {
        let segs = segments(path);
        let owned_segs: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
        // Where the description goes, the pending narrowings taken into account.
        let (hits, mut old) =
            described(&self.presentation, &segs, &self.pending).map_err(|r| err(path, r))?;
        if hits == 0 {
            return Err(err(path, "no value at this path"));
        }
        let alt_same = match &self.alternatives {
            Some(a) => described(a, &segs, &self.pending).is_ok_and(|(_, alt_old)| alt_old == old),
            None => true,
        };
        // A description set earlier at the same path (and not applied yet) is the current one.
        if let Some(Lazy::Describe { text, .. }) = self
            .pending
            .iter()
            .rev()
            .find(|op| matches!(op, Lazy::Describe { segs, .. } if *segs == owned_segs))
        {
            old = Some(text.clone());
        }
        let text = description.to_string();
        self.pending.push(Lazy::Describe {
            segs: owned_segs.clone(),
            text: text.clone(),
            old,
            hits,
            alt_same,
        });
        self.forget_merged();
        self.push_op(move |v| {
            let segs: Vec<&str> = owned_segs.iter().map(String::as_str).collect();
            visit(v, &segs, &mut |s| {
                set_description(s, &text);
                Ok(())
            })
            .map(|_| ())
        });
        Ok(self)
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

    /// Keeps only these values of the string enum at `path` (at an array: of its elements).
    pub fn keep_values(self, path: &str, values: &[&str]) -> Result<Self, NarrowError> {
        if values.is_empty() {
            return Err(err(
                path,
                "keeping no value leaves an empty enum: no reply could be valid",
            ));
        }
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        self.edit(path, "string enum", move |s| {
            let Value::Object(m) = element_mut(s) else {
                return Ok(());
            };
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
    /// root, or the struct a tagged enum is flattened into; at an array: of its elements).
    pub fn keep_variants(mut self, path: &str, tags: &[&str]) -> Result<Self, NarrowError> {
        if tags.is_empty() {
            return Err(err(path, "keeping no variant leaves no valid reply"));
        }
        let segs = segments(path);
        // The precise schema says which properties belong to which variant (read, not copied).
        let base = self.base.clone();
        let mut kept_props: Vec<&str> = Vec::new();
        let mut all_props: Vec<&str> = Vec::new();
        let mut tag_name: Option<&str> = None;
        let hits = visit_ref(&base, &segs, &[], &mut |s| {
            let Some(Value::Array(branches)) = element(s).fget("anyOf") else {
                return Err("the value here is not a tagged enum".into());
            };
            let tag = tag_ref(branches).ok_or("the value here is not a tagged enum")?;
            let mut known: Vec<&str> = Vec::with_capacity(branches.len());
            known.extend(branches.iter().filter_map(|b| branch_tag(b, tag)));
            kept_props.reserve(branches.len() * 2);
            all_props.reserve(branches.len() * 4);
            for t in tags {
                if !known.contains(t) {
                    return Err(format!(
                        "no variant is tagged {t:?} (tags: {})",
                        known.join(", ")
                    ));
                }
            }
            for (b, t) in branches.iter().zip(&known) {
                let keep = tags.contains(t);
                if let Some(Value::Object(p)) = b.fget("properties") {
                    for k in p.keys() {
                        if keep && !kept_props.contains(&k.as_str()) {
                            kept_props.push(k);
                        }
                        if !all_props.contains(&k.as_str()) {
                            all_props.push(k);
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
        let tag = tag_name.unwrap_or_default().to_string();
        let dropped: Vec<String> = all_props
            .iter()
            .filter(|p| !kept_props.contains(p))
            .map(|p| p.to_string())
            .collect();
        let owned_segs: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
        let owned_tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
        // Chained narrowings of the same enum keep what both keep.
        match self.kept.iter_mut().find(|(s, _)| *s == owned_segs) {
            Some((_, before)) => {
                before.retain(|t| owned_tags.contains(t));
                if before.is_empty() {
                    return Err(err(
                        path,
                        "no variant is left (an earlier narrowing removed these)",
                    ));
                }
            }
            None => self.kept.push((owned_segs.clone(), owned_tags.clone())),
        }
        self.pending.push(Lazy::Keep {
            segs: owned_segs.clone(),
            tag: tag.clone(),
            tags: owned_tags.clone(),
            dropped,
        });
        self.forget_merged();
        self.push_op(move |v| {
            let segs: Vec<&str> = owned_segs.iter().map(String::as_str).collect();
            visit(v, &segs, &mut |s| {
                if let Some(Value::Array(branches)) = element_mut(s).get_mut("anyOf") {
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
        v.pending.clear();
        v.fast = false;
        v.merged = OnceLock::new();
        v.alternatives = None;
        v.merged_alternatives = OnceLock::new();
        Ok(v)
    }

    /// The narrowed schema in `dialect`.
    pub fn json_schema(&self, dialect: Dialect) -> Result<Value, ConvertError> {
        if dialect != Dialect::JsonSchema && self.fast {
            if self.pending.is_empty() {
                return self
                    .cache
                    .schema(self.ty, dialect)
                    .as_ref()
                    .map(|v| (**v).clone())
                    .map_err(Clone::clone);
            }
            if let Some(v) = self.fast_render(dialect) {
                return Ok(v);
            }
        }
        self.json_schema_converted(dialect)
    }

    /// The narrowed schema in `dialect`, always converted from the narrowed JSON Schema (never
    /// from the type's cached output for the dialect). [`View::json_schema`] returns the same
    /// value faster; this is the reference it is tested against.
    pub(crate) fn json_schema_converted(&self, dialect: Dialect) -> Result<Value, ConvertError> {
        match dialect {
            Dialect::JsonSchema => Ok(self.presentation_value()?.clone()),
            d => convert::to_dialect(self.source_value(d)?, d),
        }
    }

    /// Whether [`View::json_schema`] renders `dialect` from the type's cached output (for tests
    /// and benchmarks).
    pub(crate) fn renders_fast(&self, dialect: Dialect) -> bool {
        dialect != Dialect::JsonSchema
            && self.fast
            && (self.pending.is_empty() || self.fast_render(dialect).is_some())
    }

    /// The narrowed schema in `dialect`, made from the type's cached output for the dialect:
    /// the dropped variants' properties removed, the tag's enum and the note that replaced the
    /// variants' `required` clauses rewritten, descriptions replaced. `None` where that could
    /// differ from converting the narrowed schema (then the caller converts).
    fn fast_render(&self, dialect: Dialect) -> Option<Value> {
        let full: &Value = self.cache.schema(self.ty, dialect).as_ref().ok()?;
        if full.get("$defs").is_some() {
            return None;
        }
        // (a type over the per-request budgets got a plan chosen for all its variants: a
        // narrowed schema gets its own, or none)
        let limits = dialect.rules().limits;
        if let (Some(o), Some(u)) = (limits.optional_properties, limits.unions) {
            let source = self.cache.source(self.ty, dialect).as_ref().ok()?;
            if crate::convert::rewrite::budget::over(source, o, u) {
                return None;
            }
        }
        let mut groups: Vec<Group<'_>> = Vec::new();
        for op in &self.pending {
            if let Lazy::Keep {
                segs,
                tag,
                tags,
                dropped,
            } = op
            {
                match groups.iter_mut().find(|g| g.segs == segs.as_slice()) {
                    Some(g) => {
                        if g.tag != tag {
                            return None;
                        }
                        g.kept.retain(|k| tags.iter().any(|t| t == k));
                        for d in dropped {
                            if !g.dropped.contains(&d.as_str()) {
                                g.dropped.push(d);
                            }
                        }
                    }
                    None => groups.push(Group {
                        segs,
                        tag,
                        kept: tags.iter().map(String::as_str).collect(),
                        dropped: dropped.iter().map(String::as_str).collect(),
                    }),
                }
            }
        }
        // The root is copied without the properties a root narrowing drops (copying them only
        // to drop them is most of the cost).
        let mut out = match full {
            Value::Object(m) if groups.iter().any(|g| g.segs.is_empty()) => {
                let dropped = |name: &str| {
                    groups
                        .iter()
                        .any(|g| g.segs.is_empty() && g.dropped.contains(&name))
                };
                let mut copy = serde_json::Map::with_capacity(m.len());
                for (k, v) in m {
                    let v = match v {
                        Value::Object(props) if k == "properties" => Value::Object(
                            props
                                .iter()
                                .filter(|(name, _)| !dropped(name))
                                .map(|(name, p)| (name.clone(), p.clone()))
                                .collect(),
                        ),
                        v => v.clone(),
                    };
                    copy.insert(k.clone(), v);
                }
                Value::Object(copy)
            }
            v => v.clone(),
        };
        for g in &groups {
            narrow_output(&mut out, self.source(dialect), dialect, g)?;
        }
        let from_alternatives = !std::ptr::eq(self.source(dialect), &*self.presentation);
        for op in &self.pending {
            if let Lazy::Describe {
                segs,
                text,
                old,
                hits,
                alt_same,
            } = op
            {
                let hits = if from_alternatives {
                    // The branches the variant narrowings keep hold the path once each.
                    if !alt_same {
                        return None;
                    }
                    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
                    let mut n = 0;
                    visit_ref(self.source(dialect), &segs, &self.pending, &mut |_| {
                        n += 1;
                        Ok(())
                    })
                    .ok()?;
                    n
                } else {
                    *hits
                };
                if hits == 0 {
                    return None;
                }
                describe_output(&mut out, segs, old.as_deref()?, text, hits)?;
            }
        }
        Some(out)
    }

    /// The narrowed schema as TypeScript text.
    pub fn typescript(&self) -> Result<String, ConvertError> {
        self.typescript_with(&TsOptions::default())
    }

    /// The narrowed schema as TypeScript text, with options.
    pub fn typescript_with(&self, options: &TsOptions) -> Result<String, ConvertError> {
        convert::to_typescript(self.presentation_value()?, options)
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

    /// A [`Stream`](crate::stream::Stream) that reads the type from a reply arriving in chunks
    /// under the view's narrowed rules: it stops early on what the view forbids (a dropped
    /// variant's tag, a narrowed bound), and its `finish` is the view's
    /// [`from_llm`](View::from_llm).
    #[cfg(feature = "stream")]
    pub fn stream(&self) -> crate::stream::Stream<T>
    where
        T: AgentSchema,
    {
        let validator = self
            .precise_value()
            .ok()
            .and_then(|p| Validator::new(p).ok())
            .map(Arc::new);
        crate::stream::Stream::for_view(self.clone(), validator)
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
        parse::checked(self.ty, validator, value)
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
        if tag_ref(branches) == Some(tag) {
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

/// How many values the data path reaches in `schema` (the `pending` narrowings taken into
/// account), and their description when they all have the same one.
fn described(
    schema: &Value,
    segs: &[&str],
    pending: &[Lazy],
) -> Result<(usize, Option<String>), String> {
    let mut hits = 0;
    let mut first: Option<Option<&str>> = None;
    let mut same = true;
    visit_ref(schema, segs, pending, &mut |s| {
        hits += 1;
        let d = s.fget("description").and_then(Value::as_str);
        match first {
            None => first = Some(d),
            Some(f) => same &= f == d,
        }
        Ok(())
    })?;
    let old = if same {
        first.flatten().map(str::to_string)
    } else {
        None
    };
    Ok((hits, old))
}

fn set_description(s: &mut Value, text: &str) {
    if let Value::Object(m) = s {
        m.insert("description".into(), text.into());
    }
}

/// Applies a pending narrowing to a JSON Schema (the type's presentation schema).
fn apply_lazy(schema: &mut Value, op: &Lazy) -> Result<(), String> {
    match op {
        Lazy::Keep {
            segs,
            tag,
            tags,
            dropped,
        } => {
            let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
            let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
            let mut emptied = false;
            visit(schema, &segs, &mut |s| {
                emptied |= !narrow_presentation(element_mut(s), tag, &tags, dropped);
                Ok(())
            })?;
            if emptied {
                return Err("no variant is left (an earlier narrowing removed these)".into());
            }
        }
        Lazy::Describe { segs, text, .. } => {
            let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
            visit(schema, &segs, &mut |s| {
                set_description(s, text);
                Ok(())
            })?;
        }
    }
    Ok(())
}

/// [`visit`] without changing anything, on the schema as `pending` narrowings would leave it:
/// the properties and union branches they drop are not followed (`&[]`: the schema as it is).
fn visit_ref<'v>(
    schema: &'v Value,
    segs: &[&str],
    pending: &[Lazy],
    f: &mut dyn FnMut(&'v Value) -> Result<(), String>,
) -> Result<usize, String> {
    visit_ref_from(schema, segs, 0, pending, f)
}

/// [`visit_ref`] with the first `done` segments of the path already followed.
fn visit_ref_from<'v>(
    schema: &'v Value,
    segs: &[&str],
    done: usize,
    pending: &[Lazy],
    f: &mut dyn FnMut(&'v Value) -> Result<(), String>,
) -> Result<usize, String> {
    let Some(first) = segs.get(done) else {
        f(schema)?;
        return Ok(1);
    };
    let Value::Object(m) = schema else {
        return Ok(0);
    };
    let here = &segs[..done];
    let keeps = || {
        pending.iter().filter_map(move |op| match op {
            Lazy::Keep {
                segs: at,
                tag,
                tags,
                dropped,
            } if at.iter().map(String::as_str).eq(here.iter().copied()) => {
                Some((tag, tags, dropped))
            }
            _ => None,
        })
    };
    let mut hits = 0;
    for (k, v) in m {
        match (k.as_str(), v) {
            ("properties", Value::Object(props)) => {
                let dropped = keeps().any(|(_, _, dropped)| dropped.iter().any(|d| d == first));
                if let (false, Some(p)) = (dropped, props.fget(first)) {
                    hits += visit_ref_from(p, segs, done + 1, pending, f)?;
                }
            }
            ("items", items) => hits += visit_ref_from(items, segs, done, pending, f)?,
            ("anyOf" | "oneOf", Value::Array(branches)) => {
                for b in branches {
                    let gone = keeps().any(|(tag, tags, _)| {
                        branch_tag(b, tag).is_some_and(|t| !tags.iter().any(|k| k == t))
                    });
                    if !gone {
                        hits += visit_ref_from(b, segs, done, pending, f)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(hits)
}

/// The variant narrowings of one tagged enum, combined.
struct Group<'a> {
    segs: &'a [String],
    tag: &'a str,
    kept: Vec<&'a str>,
    dropped: Vec<&'a str>,
}

/// Narrows the converted schema `out` where `presentation` (the type's schema the converter
/// read) has the tagged enum of `g`. `None` where the result could differ from converting the
/// narrowed schema.
fn narrow_output(out: &mut Value, presentation: &Value, d: Dialect, g: &Group<'_>) -> Option<()> {
    let segs: Vec<&str> = g.segs.iter().map(String::as_str).collect();
    let mut nodes = Vec::new();
    visit_ref(presentation, &segs, &[], &mut |s| {
        nodes.push(s);
        Ok(())
    })
    .ok()?;
    let [Value::Object(p)] = nodes[..] else {
        return None;
    };
    let mut done = None;
    let mut count = 0;
    visit(out, &segs, &mut |o| {
        count += 1;
        done = narrow_output_node(o, p, d, g);
        Ok(())
    })
    .ok()?;
    if count != 1 {
        return None;
    }
    done
}

fn narrow_output_node(
    out: &mut Value,
    p: &serde_json::Map<String, Value>,
    d: Dialect,
    g: &Group<'_>,
) -> Option<()> {
    let Value::Object(o) = out else { return None };
    let kept = |t: &str| g.kept.contains(&t);
    if let Some(Value::Array(pb)) = p.fget("anyOf") {
        // A union of tagged objects (not at the root): it stays a union; its branches go.
        if tag_ref(pb) != Some(g.tag) {
            return None;
        }
        let Some(Value::Array(ob)) = o.fget_mut("anyOf") else {
            return None;
        };
        let tagged = ob.iter().filter(|b| branch_tag(b, g.tag).is_some()).count();
        let left = ob
            .iter()
            .filter(|b| branch_tag(b, g.tag).is_some_and(kept))
            .count();
        // One branch left: the narrowed schema is that object, which converts differently.
        if tagged != pb.len() || left < 2 {
            return None;
        }
        ob.retain(|b| branch_tag(b, g.tag).is_none_or(kept));
        return Some(());
    }
    // One object: the tag an enum beside every variant's properties.
    let ptag = p.fget("properties")?.fget(g.tag)?;
    // Documented tags (a `oneOf` of consts) become notes in the description: convert instead.
    ptag.fget("enum")?;
    {
        let props = o.fget_mut("properties")?.as_object_mut()?;
        let t = props.fget_mut(g.tag)?.as_object_mut()?;
        if t.contains_key("anyOf") || t.contains_key("oneOf") {
            return None;
        }
        let Some(Value::Array(e)) = t.fget_mut("enum") else {
            return None;
        };
        e.retain(|x| x.as_str().is_some_and(kept));
        if e.is_empty() {
            return None;
        }
        for name in &g.dropped {
            props.shift_remove(*name);
        }
    }
    for key in ["required", "propertyOrdering"] {
        if let Some(Value::Array(names)) = o.fget_mut(key) {
            names.retain(|n| !n.as_str().is_some_and(|n| g.dropped.contains(&n)));
        }
    }
    // The note that replaced the variants' `required` clauses.
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(clauses)) = p.fget(key) else {
            continue;
        };
        let before: Vec<Vec<&str>> = clauses
            .iter()
            .map(convert::required_names)
            .collect::<Option<_>>()?;
        let after: Vec<Vec<&str>> = before
            .iter()
            .filter(|c| !c.iter().any(|n| g.dropped.contains(n)))
            .cloned()
            .collect();
        if after.len() == before.len() {
            continue;
        }
        let old = convert::clause_note(d, &before);
        let new = (!after.is_empty()).then(|| convert::clause_note(d, &after));
        let Some(Value::String(desc)) = o.fget_mut("description") else {
            return None;
        };
        replace_part(desc, &old, new.as_deref())?;
        if desc.is_empty() {
            o.shift_remove("description");
        }
    }
    Some(())
}

/// Replaces (or removes) `old`, one of the parts a converted description is made of (parts are
/// separated by blank lines).
fn replace_part(desc: &mut String, old: &str, new: Option<&str>) -> Option<()> {
    // The note is usually the last part: a comparison, not a search.
    let at = if desc.ends_with(old) {
        desc.len() - old.len()
    } else {
        desc.rfind(old)?
    };
    let end = at + old.len();
    let starts = at == 0 || desc[..at].ends_with("\n\n");
    let ends = end == desc.len() || desc[end..].starts_with("\n\n");
    if !starts || !ends {
        return None;
    }
    match new {
        Some(n) => desc.replace_range(at..end, n),
        None if at >= 2 => desc.replace_range(at - 2..end, ""),
        None if end < desc.len() => desc.replace_range(at..end + 2, ""),
        None => desc.clear(),
    }
    Some(())
}

/// Replaces the description `old` by `text` at the values of the converted schema at `segs`,
/// keeping what the converter appended to it. `None` where that could differ from converting.
fn describe_output(
    out: &mut Value,
    segs: &[String],
    old: &str,
    text: &str,
    hits: usize,
) -> Option<()> {
    if old.is_empty() || text.is_empty() {
        return None;
    }
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    let mut ok = true;
    let mut count = 0;
    visit(out, &segs, &mut |o| {
        count += 1;
        match o.fget_mut("description") {
            Some(Value::String(d))
                if d.starts_with(old)
                    && (d.len() == old.len() || d[old.len()..].starts_with("\n\n")) =>
            {
                d.replace_range(..old.len(), text);
            }
            _ => ok = false,
        }
        Ok(())
    })
    .ok()?;
    (ok && count == hits).then_some(())
}
