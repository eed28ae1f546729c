//! A JSON Schema document compiled into an arena of nodes: references resolved to node ids (so
//! recursive schemas are finite), the draft's keywords read per `$schema`, regexes built once.

use super::resolve::{self, Draft, Index, Place};
use crate::convert::pointer;
use crate::convert::{ConvertError, ConvertErrorKind};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

pub(crate) type NodeId = usize;

pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOL: u8 = 2;
pub(crate) const T_INT: u8 = 4;
pub(crate) const T_NUM: u8 = 8;
pub(crate) const T_STR: u8 = 16;
pub(crate) const T_ARR: u8 = 32;
pub(crate) const T_OBJ: u8 = 64;

/// How far the compiler follows nested schemas before giving up (protects the stack).
const MAX_SCHEMA_DEPTH: usize = 256;

/// Stack the compiler and the validator may use below their entry point: nesting that needs
/// more is an error, not a stack overflow (a spawned thread has 2 MiB by default; debug builds
/// need several KiB per level).
pub(crate) const STACK_BUDGET: usize = 1 << 20;

/// An address on the current stack, to measure how much of it recursion has used.
pub(crate) fn stack_mark() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Compilation options (see [`super::ValidatorBuilder`]).
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub assert_formats: bool,
    pub openapi_nullable: bool,
    pub default_draft: Draft,
    pub backtrack_limit: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            assert_formats: true,
            openapi_nullable: false,
            default_draft: Draft::Draft2020_12,
            backtrack_limit: super::pattern::DEFAULT_BACKTRACK_LIMIT,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub(crate) enum Additional {
    #[default]
    Allowed,
    Forbidden,
    Schema(NodeId),
}

/// `anyOf`/`oneOf` whose branches are objects told apart by a `const` tag property.
#[derive(Debug, Clone)]
pub(crate) struct Discriminator {
    pub property: String,
    pub branches: Vec<(String, NodeId)>,
}

pub(crate) use super::pattern::Pattern;

/// A `$dynamicRef` (2020-12) or `$recursiveRef` (2019-09) whose target depends on the dynamic
/// scope.
#[derive(Debug, Clone)]
pub(crate) struct DynamicRef {
    /// The statically resolved target, used when no resource in scope overrides it.
    pub fallback: NodeId,
    /// The anchor name (`$dynamicAnchor`); empty for `$recursiveRef`.
    pub name: String,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    pub falsy: bool,
    pub types: u8,
    pub enum_values: Option<Vec<Value>>,
    pub const_value: Option<Value>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(String, Pattern)>,
    pub format: Option<String>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,
    /// Items after `prefix_items` (`items` in 2020-12, `additionalItems` beside an array `items`).
    pub items: Option<NodeId>,
    pub prefix_items: Vec<NodeId>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub contains: Option<NodeId>,
    pub min_contains: Option<u64>,
    pub max_contains: Option<u64>,
    pub properties: Vec<(String, NodeId)>,
    pub prop_index: HashMap<String, usize>,
    pub required: Vec<String>,
    pub additional: Additional,
    /// `additionalProperties` is written (as `true` it still evaluates the other properties,
    /// which `unevaluatedProperties` sees).
    pub additional_written: bool,
    /// Draft 4: `integer` excludes numbers written with a fraction part (`1.0`).
    pub strict_integer: bool,
    /// Draft 7 content assertions: the string is base64 (`contentEncoding`), and its text (after
    /// decoding) is JSON (`contentMediaType: application/json`).
    pub content_base64: bool,
    pub content_json: bool,
    pub pattern_properties: Vec<(Pattern, NodeId)>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub property_names: Option<NodeId>,
    pub dependent_required: Vec<(String, Vec<String>)>,
    pub dependent_schemas: Vec<(String, NodeId)>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub all_of: Vec<NodeId>,
    pub not: Option<NodeId>,
    pub if_: Option<NodeId>,
    pub then_: Option<NodeId>,
    pub else_: Option<NodeId>,
    pub unevaluated_items: Option<NodeId>,
    pub unevaluated_properties: Option<NodeId>,
    pub reference: Option<NodeId>,
    pub dynamic_ref: Option<DynamicRef>,
    /// The discriminator of `any_of` (read by the fast path too).
    pub discriminator: Option<Discriminator>,
    pub one_of_discriminator: Option<Discriminator>,
    /// The node is a `$ref` and nothing else.
    pub only_ref: bool,
    /// The schema resource the node belongs to (index into `Compiled::resources`).
    pub res: usize,
}

impl Node {
    pub(crate) fn property(&self, name: &str) -> Option<NodeId> {
        self.prop_index.get(name).map(|&i| self.properties[i].1)
    }

    /// Keywords the one-pass fast path does not follow (it then leaves the schema to this
    /// validator).
    pub(crate) fn needs_full_validator(&self) -> bool {
        self.contains.is_some()
            || self.content_base64
            || self.content_json
            || self.property_names.is_some()
            || !self.dependent_required.is_empty()
            || !self.dependent_schemas.is_empty()
            || self.if_.is_some()
            || self.unevaluated_items.is_some()
            || self.unevaluated_properties.is_some()
            || self.dynamic_ref.is_some()
            || self.one_of_discriminator.is_some()
            || (self.reference.is_some() && !self.only_ref)
    }

    fn is_only_ref(&self) -> bool {
        self.reference.is_some()
            && !self.falsy
            && self.types == 0
            && self.enum_values.is_none()
            && self.const_value.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
            && self.pattern.is_none()
            && self.format.is_none()
            && !self.content_base64
            && !self.content_json
            && self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.multiple_of.is_none()
            && self.items.is_none()
            && self.prefix_items.is_empty()
            && self.min_items.is_none()
            && self.max_items.is_none()
            && !self.unique_items
            && self.contains.is_none()
            && self.properties.is_empty()
            && self.required.is_empty()
            && matches!(self.additional, Additional::Allowed)
            && self.pattern_properties.is_empty()
            && self.min_properties.is_none()
            && self.max_properties.is_none()
            && self.property_names.is_none()
            && self.dependent_required.is_empty()
            && self.dependent_schemas.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
            && self.all_of.is_empty()
            && self.not.is_none()
            && self.if_.is_none()
            && self.unevaluated_items.is_none()
            && self.unevaluated_properties.is_none()
            && self.dynamic_ref.is_none()
    }
}

/// A schema resource (a document or a subschema with `$id`): what the dynamic scope needs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Resource {
    /// `$dynamicAnchor` name -> node.
    pub dynamic: Vec<(String, NodeId)>,
    /// The resource root when it declares `$recursiveAnchor: true` (2019-09).
    pub recursive_anchor: Option<NodeId>,
}

pub(crate) struct Compiled {
    pub nodes: Vec<Node>,
    pub root: NodeId,
    pub resources: Vec<Resource>,
    /// Some `$dynamicRef`/`$recursiveRef` depends on the dynamic scope.
    pub dynamic: bool,
    /// Work done to compile (nodes plus enum values), for the scaling tests.
    pub steps: u64,
}

/// Compiles `schema`, resolving references among `documents` (URI, schema) too.
pub(crate) fn compile(
    schema: &Value,
    documents: &[(String, Value)],
    opts: &Options,
) -> Result<Compiled, ConvertError> {
    let vocab = |uri: &str| vocabulary_of(documents, uri).ok().flatten();
    let mut index = Index::default();
    let root_draft = match schema.get("$schema").and_then(Value::as_str) {
        Some(s) => Draft::from_uri(s)
            .or_else(|| vocab(s).map(|v| v.draft))
            .unwrap_or(opts.default_draft),
        None => opts.default_draft,
    };
    for (uri, doc) in documents {
        let d = doc
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(Draft::from_uri)
            .unwrap_or(root_draft);
        index.add_document(uri, doc, d, &vocab);
    }
    index.add_document(resolve::DEFAULT_BASE, schema, root_draft, &vocab);
    let mut c = Compiler {
        index,
        documents,
        nodes: Vec::new(),
        memo: HashMap::new(),
        resources: Vec::new(),
        res_ids: HashMap::new(),
        opts: opts.clone(),
        dynamic: false,
        steps: 0,
        root_draft,
        stack_base: stack_mark(),
        pending: Vec::new(),
    };
    let place = Place {
        base: resolve::DEFAULT_BASE.to_string(),
        draft: root_draft,
        validation: true,
        format_assertion: false,
    };
    let root = c.node(schema, &place, "", 0)?;
    while let Some((id, target, fallback, ptr)) = c.pending.pop() {
        c.fill(id, target, &fallback, &ptr, 0)?;
    }
    let mut compiled = Compiled {
        nodes: c.nodes,
        root,
        resources: c.resources,
        dynamic: c.dynamic,
        steps: c.steps,
    };
    find_discriminators(&mut compiled);
    Ok(compiled)
}

const VOCAB_2020: &[&str] = &[
    "core",
    "applicator",
    "unevaluated",
    "validation",
    "meta-data",
    "format-annotation",
    "format-assertion",
    "content",
];
const VOCAB_2019: &[&str] = &[
    "core",
    "applicator",
    "validation",
    "meta-data",
    "format",
    "content",
];

/// For a custom meta-schema supplied as a document: its draft and whether the validation
/// vocabulary is on. `Err` names a required vocabulary this validator does not know.
fn vocabulary_of(
    documents: &[(String, Value)],
    uri: &str,
) -> Result<Option<resolve::Vocab>, String> {
    let (uri, _) = resolve::split_fragment(uri);
    let Some((_, doc)) = documents
        .iter()
        .find(|(u, _)| resolve::split_fragment(u).0 == uri)
    else {
        return Ok(None);
    };
    let draft = doc
        .get("$schema")
        .and_then(Value::as_str)
        .and_then(Draft::from_uri)
        .unwrap_or(Draft::Draft2020_12);
    let Some(Value::Object(vocab)) = doc.get("$vocabulary") else {
        return Ok(Some(resolve::Vocab {
            draft,
            validation: true,
            format_assertion: false,
        }));
    };
    let mut validation = false;
    let mut format_assertion = false;
    for (v, required) in vocab {
        let known = [
            ("https://json-schema.org/draft/2020-12/vocab/", VOCAB_2020),
            ("https://json-schema.org/draft/2019-09/vocab/", VOCAB_2019),
        ]
        .iter()
        .any(|(prefix, names)| v.strip_prefix(prefix).is_some_and(|n| names.contains(&n)));
        if v.ends_with("/vocab/validation") && known {
            validation = true;
        }
        if v.ends_with("/vocab/format-assertion") && known {
            format_assertion = true;
        }
        if !known && required == &Value::Bool(true) {
            return Err(v.clone());
        }
    }
    Ok(Some(resolve::Vocab {
        draft,
        validation,
        format_assertion,
    }))
}

struct Compiler<'a> {
    index: Index<'a>,
    documents: &'a [(String, Value)],
    nodes: Vec<Node>,
    memo: HashMap<*const Value, NodeId>,
    resources: Vec<Resource>,
    res_ids: HashMap<String, usize>,
    opts: Options,
    dynamic: bool,
    steps: u64,
    root_draft: Draft,
    stack_base: usize,
    /// Reference targets reserved but not compiled yet.
    pending: Vec<(NodeId, &'a Value, Place, String)>,
}

fn malformed(ptr: &str, msg: impl Into<String>) -> ConvertError {
    ConvertError::new(ptr, ConvertErrorKind::Malformed(msg.into()))
}

fn as_u64(v: &Value, ptr: &str, key: &str) -> Result<u64, ConvertError> {
    v.as_u64()
        .or_else(|| {
            v.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        })
        .ok_or_else(|| {
            malformed(
                &pointer::push(ptr, key),
                format!("`{key}` must be a non-negative integer"),
            )
        })
}

fn as_number(v: &Value, ptr: &str, key: &str) -> Result<Number, ConvertError> {
    match v {
        Value::Number(n) => Ok(n.clone()),
        _ => Err(malformed(
            &pointer::push(ptr, key),
            format!("`{key}` must be a number"),
        )),
    }
}

fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => T_NULL,
        "boolean" => T_BOOL,
        "integer" => T_INT,
        "number" => T_NUM | T_INT,
        "string" => T_STR,
        "array" => T_ARR,
        "object" => T_OBJ,
        _ => return None,
    })
}

fn strings(v: &Value, p: &str, key: &str) -> Result<Vec<String>, ConvertError> {
    let err = || malformed(p, format!("`{key}` must be an array of strings"));
    let Value::Array(a) = v else {
        return Err(err());
    };
    a.iter()
        .map(|r| r.as_str().map(str::to_string).ok_or_else(err))
        .collect()
}

fn pattern(src: &str, p: &str, limit: usize) -> Result<Pattern, ConvertError> {
    Pattern::with_limit(src, limit).map_err(|e| {
        malformed(
            p,
            format!("pattern {src:?} does not compile as an ECMA-262 regular expression: {e}"),
        )
    })
}

impl<'a> Compiler<'a> {
    fn res_id(&mut self, base: &str) -> usize {
        if let Some(&r) = self.res_ids.get(base) {
            return r;
        }
        self.resources.push(Resource::default());
        self.res_ids
            .insert(base.to_string(), self.resources.len() - 1);
        self.resources.len() - 1
    }

    fn node(
        &mut self,
        schema: &'a Value,
        fallback: &Place,
        ptr: &str,
        depth: usize,
    ) -> Result<NodeId, ConvertError> {
        if depth > MAX_SCHEMA_DEPTH || self.stack_base.abs_diff(stack_mark()) > STACK_BUDGET {
            return Err(ConvertError::new(
                ptr,
                ConvertErrorKind::TooDeep(depth.min(MAX_SCHEMA_DEPTH)),
            ));
        }
        let key = schema as *const Value;
        if let Some(&id) = self.memo.get(&key) {
            return Ok(id);
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.memo.insert(key, id);
        self.fill(id, schema, fallback, ptr, depth)?;
        Ok(id)
    }

    /// The node for `schema`, compiled after the current one: references are followed by a
    /// work list, not by recursion, so a long chain of `$ref`s needs no stack.
    fn deferred(&mut self, schema: &'a Value, fallback: &Place, ptr: &str) -> NodeId {
        let key = schema as *const Value;
        if let Some(&id) = self.memo.get(&key) {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.memo.insert(key, id);
        self.pending
            .push((id, schema, fallback.clone(), ptr.to_string()));
        id
    }

    fn fill(
        &mut self,
        id: NodeId,
        schema: &'a Value,
        fallback: &Place,
        ptr: &str,
        depth: usize,
    ) -> Result<(), ConvertError> {
        let key = schema as *const Value;
        self.steps += 1;
        let place = match self.index.places.get(&key) {
            Some(p) => p.clone(),
            None => {
                // Reached by a JSON pointer into a place the index did not walk (an unknown
                // keyword): index it now, with the surrounding resource's base.
                self.index
                    .add_document(&fallback.base, schema, fallback.draft, &|_| None);
                self.index
                    .places
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| fallback.clone())
            }
        };
        let res = self.res_id(&place.base);
        // The node is built in place: a `Node` is large, and this frame stays on the stack
        // while nested schemas compile.
        match schema {
            Value::Bool(b) => self.nodes[id].falsy = !b,
            Value::Object(m) => self.object(m, &place, ptr, depth, id)?,
            _ => return Err(malformed(ptr, "a schema must be an object or a boolean")),
        }
        let node = &mut self.nodes[id];
        node.res = res;
        node.only_ref = node.is_only_ref();
        Ok(())
    }

    fn list(
        &mut self,
        v: &'a Value,
        place: &Place,
        ptr: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<NodeId>, ConvertError> {
        let p = pointer::push(ptr, key);
        let Value::Array(items) = v else {
            return Err(malformed(
                &p,
                format!("`{key}` must be an array of schemas"),
            ));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, s) in items.iter().enumerate() {
            out.push(self.node(s, place, &pointer::push(&p, &i.to_string()), depth + 1)?);
        }
        Ok(out)
    }

    fn map(
        &mut self,
        v: &'a Value,
        place: &Place,
        ptr: &str,
        key: &str,
        depth: usize,
    ) -> Result<Vec<(String, NodeId)>, ConvertError> {
        let p = pointer::push(ptr, key);
        let Value::Object(m) = v else {
            return Err(malformed(&p, format!("`{key}` must be an object")));
        };
        m.iter()
            .map(|(k, s)| {
                Ok((
                    k.clone(),
                    self.node(s, place, &pointer::push(&p, k), depth + 1)?,
                ))
            })
            .collect()
    }

    /// Makes sure the resource `uri` (no fragment) is indexed: a supplied document, or an
    /// embedded meta-schema.
    fn load(&mut self, uri: &str) {
        if self.index.resources.contains_key(uri) {
            return;
        }
        if let Some((u, doc)) = resolve::meta_schema(uri) {
            let draft = Draft::from_uri(u).unwrap_or(if u.contains("2019-09") {
                Draft::Draft2019_09
            } else {
                Draft::Draft2020_12
            });
            self.index.add_document(u, doc, draft, &|_| None);
        }
    }

    /// The schema a reference points to, and where it sits.
    fn target(
        &mut self,
        base: &str,
        reference: &str,
        ptr: &str,
        keyword: &str,
    ) -> Result<(&'a Value, Place, String), ConvertError> {
        let abs = resolve::join(base, reference);
        let (res, frag) = resolve::split_fragment(&abs);
        let (res, frag) = (res.to_string(), frag.to_string());
        self.load(&res);
        let unresolvable = || {
            ConvertError::new(
                pointer::push(ptr, keyword),
                ConvertErrorKind::UnresolvableRef(reference.to_string()),
            )
        };
        let target: &'a Value = if frag.is_empty() || frag.starts_with('/') {
            let doc = *self.index.resources.get(&res).ok_or_else(unresolvable)?;
            resolve::pointer(doc, &frag).ok_or_else(unresolvable)?
        } else {
            *self.index.anchors.get(&abs).ok_or_else(unresolvable)?
        };
        let fallback = self
            .index
            .resources
            .get(&res)
            .and_then(|d| self.index.places.get(&(*d as *const Value)))
            .cloned()
            .unwrap_or(Place {
                base: res.clone(),
                draft: self.root_draft,
                validation: true,
                format_assertion: false,
            });
        Ok((target, fallback, frag))
    }

    fn reference(
        &mut self,
        base: &str,
        reference: &str,
        ptr: &str,
        keyword: &str,
        depth: usize,
    ) -> Result<NodeId, ConvertError> {
        let _ = depth;
        let (target, place, _) = self.target(base, reference, ptr, keyword)?;
        Ok(self.deferred(target, &place, reference))
    }

    fn dynamic_reference(
        &mut self,
        place: &Place,
        reference: &str,
        ptr: &str,
        depth: usize,
    ) -> Result<(NodeId, Option<DynamicRef>), ConvertError> {
        let fallback = self.reference(&place.base, reference, ptr, "$dynamicRef", depth)?;
        let abs = resolve::join(&place.base, reference);
        let (res, name) = resolve::split_fragment(&abs);
        let is_dynamic = !name.is_empty()
            && !name.starts_with('/')
            && self
                .index
                .dynamic_anchors
                .get(res)
                .is_some_and(|names| names.iter().any(|n| n == name));
        if !is_dynamic {
            return Ok((fallback, None));
        }
        self.dynamic = true;
        let owners: Vec<String> = self
            .index
            .dynamic_anchors
            .iter()
            .filter(|(_, names)| names.iter().any(|n| n == name))
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in owners {
            let anchor = format!("{uri}#{name}");
            let Some(&target) = self.index.anchors.get(&anchor) else {
                continue;
            };
            let p = self
                .index
                .places
                .get(&(target as *const Value))
                .cloned()
                .unwrap_or_else(|| place.clone());
            let id = self.deferred(target, &p, &anchor);
            let r = self.res_id(&uri);
            self.resources[r].dynamic.push((name.to_string(), id));
        }
        Ok((
            fallback,
            Some(DynamicRef {
                fallback,
                name: name.to_string(),
            }),
        ))
    }

    fn recursive_reference(
        &mut self,
        place: &Place,
        reference: &str,
        ptr: &str,
        _depth: usize,
    ) -> Result<(NodeId, Option<DynamicRef>), ConvertError> {
        let (target, tplace, _) = self.target(&place.base, reference, ptr, "$recursiveRef")?;
        let fallback = self.deferred(target, &tplace, reference);
        if target.get("$recursiveAnchor") != Some(&Value::Bool(true)) {
            return Ok((fallback, None));
        }
        self.dynamic = true;
        let owners: Vec<(String, &'a Value)> = self
            .index
            .resources
            .iter()
            .filter(|(_, v)| v.get("$recursiveAnchor") == Some(&Value::Bool(true)))
            .map(|(u, v)| (u.clone(), *v))
            .collect();
        for (uri, v) in owners {
            let p = self
                .index
                .places
                .get(&(v as *const Value))
                .cloned()
                .unwrap_or_else(|| place.clone());
            let id = self.deferred(v, &p, &uri);
            let r = self.res_id(&uri);
            self.resources[r].recursive_anchor = Some(id);
        }
        Ok((
            fallback,
            Some(DynamicRef {
                fallback,
                name: String::new(),
            }),
        ))
    }

    /// Keywords that hold no subschema. Kept out of `object`, whose frame stays on the stack
    /// while nested schemas compile: `Ok(false)` when `key` is not one of them.
    #[inline(never)]
    fn scalar_keyword(
        &mut self,
        n: &mut Node,
        key: &str,
        v: &'a Value,
        place: &Place,
        ptr: &str,
        flags: &mut (bool, bool),
    ) -> Result<bool, ConvertError> {
        let p = || pointer::push(ptr, key);
        let d = place.draft;
        match key {
            "type" => {
                let names: Vec<&str> = match v {
                    Value::String(s) => vec![s.as_str()],
                    Value::Array(a) => a
                        .iter()
                        .map(|t| {
                            t.as_str()
                                .ok_or_else(|| malformed(&p(), "`type` entries must be strings"))
                        })
                        .collect::<Result<_, _>>()?,
                    _ => {
                        return Err(malformed(
                            &p(),
                            "`type` must be a string or an array of strings",
                        ))
                    }
                };
                n.strict_integer = d == Draft::Draft4;
                for name in names {
                    n.types |= type_bit(name)
                        .ok_or_else(|| malformed(&p(), format!("unknown type {name:?}")))?;
                }
            }
            "enum" => match v {
                Value::Array(a) => {
                    self.steps += a.len() as u64;
                    n.enum_values = Some(a.clone())
                }
                _ => return Err(malformed(&p(), "`enum` must be an array")),
            },
            "const" if d >= Draft::Draft6 => n.const_value = Some(v.clone()),
            "minLength" => n.min_length = Some(as_u64(v, ptr, key)?),
            "maxLength" => n.max_length = Some(as_u64(v, ptr, key)?),
            "pattern" => {
                let src = v
                    .as_str()
                    .ok_or_else(|| malformed(&p(), "`pattern` must be a string"))?;
                n.pattern = Some((
                    src.to_string(),
                    pattern(src, &p(), self.opts.backtrack_limit)?,
                ));
            }
            "format" => {
                let f = v
                    .as_str()
                    .ok_or_else(|| malformed(&p(), "`format` must be a string"))?;
                if self.opts.assert_formats || place.format_assertion {
                    n.format = Some(f.to_string());
                }
            }
            "minimum" => n.minimum = Some(as_number(v, ptr, key)?),
            "maximum" => n.maximum = Some(as_number(v, ptr, key)?),
            "exclusiveMinimum" if d == Draft::Draft4 => {
                flags.0 = v.as_bool().ok_or_else(|| {
                    malformed(&p(), "`exclusiveMinimum` must be a boolean in draft 4")
                })?
            }
            "exclusiveMaximum" if d == Draft::Draft4 => {
                flags.1 = v.as_bool().ok_or_else(|| {
                    malformed(&p(), "`exclusiveMaximum` must be a boolean in draft 4")
                })?
            }
            "exclusiveMinimum" => n.exclusive_minimum = Some(as_number(v, ptr, key)?),
            "exclusiveMaximum" => n.exclusive_maximum = Some(as_number(v, ptr, key)?),
            "multipleOf" => {
                let num = as_number(v, ptr, key)?;
                if num.as_f64().is_none_or(|f| f <= 0.0) {
                    return Err(malformed(&p(), "`multipleOf` must be greater than 0"));
                }
                n.multiple_of = Some(num);
            }
            "minItems" => n.min_items = Some(as_u64(v, ptr, key)?),
            "maxItems" => n.max_items = Some(as_u64(v, ptr, key)?),
            "uniqueItems" => {
                n.unique_items = v
                    .as_bool()
                    .ok_or_else(|| malformed(&p(), "`uniqueItems` must be a boolean"))?
            }
            "minContains" if d >= Draft::Draft2019_09 => {
                n.min_contains = Some(as_u64(v, ptr, key)?)
            }
            "maxContains" if d >= Draft::Draft2019_09 => {
                n.max_contains = Some(as_u64(v, ptr, key)?)
            }
            "required" => {
                if d == Draft::Draft4 && v.as_array().is_some_and(Vec::is_empty) {
                    return Ok(true);
                }
                n.required = strings(v, &p(), key)?
            }
            "minProperties" => n.min_properties = Some(as_u64(v, ptr, key)?),
            "maxProperties" => n.max_properties = Some(as_u64(v, ptr, key)?),
            "dependentRequired" if d >= Draft::Draft2019_09 => {
                let Value::Object(deps) = v else {
                    return Err(malformed(&p(), "`dependentRequired` must be an object"));
                };
                for (name, req) in deps {
                    let list = strings(req, &pointer::push(&p(), name), key)?;
                    n.dependent_required.push((name.clone(), list));
                }
            }
            "nullable" if self.opts.openapi_nullable && !v.is_boolean() => {
                return Err(malformed(&p(), "`nullable` must be a boolean"));
            }

            // Draft 7 lets a validator assert these; 2019-09 and later make them annotations.
            "contentEncoding" if d == Draft::Draft7 => {
                n.content_base64 = v.as_str().is_some_and(|e| e.eq_ignore_ascii_case("base64"))
            }
            "contentMediaType" if d == Draft::Draft7 => {
                n.content_json = v.as_str() == Some("application/json")
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn object(
        &mut self,
        m: &'a Map<String, Value>,
        place: &Place,
        ptr: &str,
        depth: usize,
        id: NodeId,
    ) -> Result<(), ConvertError> {
        let mut n = Node::default();
        let d = place.draft;
        if let Some(s) = m.get("$schema").and_then(Value::as_str) {
            if Draft::from_uri(s).is_none() {
                match vocabulary_of(self.documents, s) {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        return Err(ConvertError::new(
                            pointer::push(ptr, "$schema"),
                            ConvertErrorKind::Unsupported(format!(
                                "`$schema` {s:?} is not a supported draft (2020-12, 2019-09, 7, 6, 4) \
                                 nor a meta-schema supplied with `with_document`"
                            )),
                        ))
                    }
                    Err(v) => {
                        return Err(ConvertError::new(
                            pointer::push(ptr, "$schema"),
                            ConvertErrorKind::Unsupported(format!(
                                "the meta-schema requires the vocabulary {v:?}, which this validator does not implement"
                            )),
                        ))
                    }
                }
            }
        }
        if d <= Draft::Draft7 {
            if let Some(r) = m.get("$ref") {
                // Draft 4-7: `$ref` replaces every keyword beside it.
                let r = r.as_str().ok_or_else(|| {
                    malformed(&pointer::push(ptr, "$ref"), "`$ref` must be a string")
                })?;
                n.reference = Some(self.reference(&place.base, r, ptr, "$ref", depth)?);
                self.nodes[id] = n;
                return Ok(());
            }
        }
        let validation = place.validation;
        // Draft 4's boolean `exclusiveMinimum` / `exclusiveMaximum`.
        let mut flags = (false, false);
        for (key, v) in m {
            let p = || pointer::push(ptr, key);
            let k = key.as_str();
            if !validation
                && matches!(
                    k,
                    "type"
                        | "enum"
                        | "const"
                        | "minLength"
                        | "maxLength"
                        | "pattern"
                        | "minimum"
                        | "maximum"
                        | "exclusiveMinimum"
                        | "exclusiveMaximum"
                        | "multipleOf"
                        | "minItems"
                        | "maxItems"
                        | "uniqueItems"
                        | "minContains"
                        | "maxContains"
                        | "required"
                        | "minProperties"
                        | "maxProperties"
                        | "dependentRequired"
                )
            {
                continue;
            }
            if self.scalar_keyword(&mut n, key, v, place, ptr, &mut flags)? {
                continue;
            }
            match k {
                "items" => match v {
                    // The tuple form (drafts 4 to 2019-09; accepted in 2020-12 input too).
                    Value::Array(_) => n.prefix_items = self.list(v, place, ptr, key, depth)?,
                    _ => n.items = Some(self.node(v, place, &p(), depth + 1)?),
                },
                "additionalItems" if m.get("items").is_some_and(Value::is_array) => {
                    n.items = Some(self.node(v, place, &p(), depth + 1)?);
                }
                "prefixItems" if d >= Draft::Draft2020_12 => {
                    n.prefix_items = self.list(v, place, ptr, key, depth)?
                }
                "contains" if d >= Draft::Draft6 => {
                    n.contains = Some(self.node(v, place, &p(), depth + 1)?)
                }
                "properties" => {
                    for (name, id) in self.map(v, place, ptr, key, depth)? {
                        n.prop_index.insert(name.clone(), n.properties.len());
                        n.properties.push((name, id));
                    }
                }
                "additionalProperties" => {
                    n.additional_written = true;
                    n.additional = match v {
                        Value::Bool(true) => Additional::Allowed,
                        Value::Bool(false) => Additional::Forbidden,
                        _ => Additional::Schema(self.node(v, place, &p(), depth + 1)?),
                    }
                }
                "patternProperties" => {
                    let Value::Object(pp) = v else {
                        return Err(malformed(&p(), "`patternProperties` must be an object"));
                    };
                    for (src, s) in pp {
                        let re =
                            pattern(src, &pointer::push(&p(), src), self.opts.backtrack_limit)?;
                        let id = self.node(s, place, &pointer::push(&p(), src), depth + 1)?;
                        n.pattern_properties.push((re, id));
                    }
                }
                "propertyNames" if d >= Draft::Draft6 => {
                    n.property_names = Some(self.node(v, place, &p(), depth + 1)?)
                }
                "dependentSchemas" if d >= Draft::Draft2019_09 => {
                    n.dependent_schemas = self.map(v, place, ptr, key, depth)?
                }
                "dependencies" => {
                    // Drafts 4-7; also read in later drafts for compatibility, as the suite's
                    // optional `dependencies-compatibility` tests expect.
                    let Value::Object(deps) = v else {
                        return Err(malformed(&p(), "`dependencies` must be an object"));
                    };
                    for (name, dep) in deps {
                        let q = pointer::push(&p(), name);
                        if dep.is_array() {
                            let list = strings(dep, &q, key)?;
                            n.dependent_required.push((name.clone(), list));
                        } else {
                            let id = self.node(dep, place, &q, depth + 1)?;
                            n.dependent_schemas.push((name.clone(), id));
                        }
                    }
                }
                "anyOf" => n.any_of = self.list(v, place, ptr, key, depth)?,
                "oneOf" => n.one_of = self.list(v, place, ptr, key, depth)?,
                "allOf" => n.all_of = self.list(v, place, ptr, key, depth)?,
                "not" => n.not = Some(self.node(v, place, &p(), depth + 1)?),
                "if" if d >= Draft::Draft7 => {
                    n.if_ = Some(self.node(v, place, &p(), depth + 1)?);
                    if let Some(t) = m.get("then") {
                        n.then_ =
                            Some(self.node(t, place, &pointer::push(ptr, "then"), depth + 1)?);
                    }
                    if let Some(e) = m.get("else") {
                        n.else_ =
                            Some(self.node(e, place, &pointer::push(ptr, "else"), depth + 1)?);
                    }
                }
                "unevaluatedItems" if d >= Draft::Draft2019_09 => {
                    n.unevaluated_items = Some(self.node(v, place, &p(), depth + 1)?)
                }
                "unevaluatedProperties" if d >= Draft::Draft2019_09 => {
                    n.unevaluated_properties = Some(self.node(v, place, &p(), depth + 1)?)
                }
                "$ref" => {
                    let r = v
                        .as_str()
                        .ok_or_else(|| malformed(&p(), "`$ref` must be a string"))?;
                    n.reference = Some(self.reference(&place.base, r, ptr, key, depth)?);
                }
                "$dynamicRef" if d >= Draft::Draft2020_12 => {
                    let r = v
                        .as_str()
                        .ok_or_else(|| malformed(&p(), "`$dynamicRef` must be a string"))?;
                    let (fallback, dynamic) = self.dynamic_reference(place, r, ptr, depth)?;
                    match dynamic {
                        Some(dr) => n.dynamic_ref = Some(dr),
                        None => n.all_of.push(fallback),
                    }
                }
                "$recursiveRef" if d == Draft::Draft2019_09 => {
                    let r = v
                        .as_str()
                        .ok_or_else(|| malformed(&p(), "`$recursiveRef` must be a string"))?;
                    let (fallback, dynamic) = self.recursive_reference(place, r, ptr, depth)?;
                    match dynamic {
                        Some(dr) => n.dynamic_ref = Some(dr),
                        None => n.all_of.push(fallback),
                    }
                }
                // Everything else is core bookkeeping (`$id`, `$defs`, ...), an annotation
                // (`title`, `default`, `contentMediaType`, ...), a keyword of another draft, or
                // an unknown keyword: none of them asserts anything (JSON Schema 2020-12 §6.5).
                _ => {}
            }
        }
        if flags.0 {
            n.exclusive_minimum = n.minimum.take();
        }
        if flags.1 {
            n.exclusive_maximum = n.maximum.take();
        }
        if self.opts.openapi_nullable && m.get("nullable") == Some(&Value::Bool(true)) {
            if n.types != 0 {
                n.types |= T_NULL;
            }
            if let Some(e) = &mut n.enum_values {
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
            }
        }
        self.nodes[id] = n;
        Ok(())
    }
}

/// Follows pure `$ref` nodes to the node that holds the keywords.
pub(crate) fn deref(nodes: &[Node], mut id: NodeId) -> NodeId {
    for _ in 0..64 {
        let n = &nodes[id];
        match n.reference {
            Some(r) if n.only_ref => id = r,
            _ => return id,
        }
    }
    id
}

/// The single string a property is pinned to by `const` or a one-value `enum`.
fn pinned(node: &Node) -> Option<String> {
    if let Some(Value::String(s)) = &node.const_value {
        return Some(s.clone());
    }
    match node.enum_values.as_deref() {
        Some([Value::String(s)]) => Some(s.clone()),
        _ => None,
    }
}

/// A property every branch requires and pins to a different string: at most one branch can
/// accept an object, the one its tag names.
fn discriminator_of(nodes: &[Node], branches: &[NodeId]) -> Option<Discriminator> {
    let resolved: Vec<NodeId> = branches.iter().map(|&b| deref(nodes, b)).collect();
    let first = &nodes[*resolved.first()?];
    let candidates: Vec<String> = first
        .properties
        .iter()
        .filter(|(name, _)| first.required.contains(name))
        .map(|(name, _)| name.clone())
        .collect();
    'names: for name in candidates {
        let mut out: Vec<(String, NodeId)> = Vec::new();
        for (&b, &r) in branches.iter().zip(&resolved) {
            let node = &nodes[r];
            if !node.required.contains(&name) || node.falsy {
                continue 'names;
            }
            let Some(prop) = node.property(&name) else {
                continue 'names;
            };
            let Some(tag) = pinned(&nodes[deref(nodes, prop)]) else {
                continue 'names;
            };
            if out.iter().any(|(t, _)| *t == tag) {
                continue 'names;
            }
            out.push((tag, b));
        }
        return Some(Discriminator {
            property: name,
            branches: out,
        });
    }
    None
}

fn find_discriminators(c: &mut Compiled) {
    for i in 0..c.nodes.len() {
        if !c.nodes[i].any_of.is_empty() {
            c.nodes[i].discriminator = discriminator_of(&c.nodes, &c.nodes[i].any_of.clone());
        }
        if !c.nodes[i].one_of.is_empty() {
            c.nodes[i].one_of_discriminator =
                discriminator_of(&c.nodes, &c.nodes[i].one_of.clone());
        }
    }
}
