//! A JSON Schema document compiled into an arena of nodes, `$ref`s resolved to node ids (so
//! recursive schemas are finite), regexes built once.

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

#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    pub falsy: bool,
    pub types: u8,
    pub enum_values: Option<Vec<Value>>,
    pub const_value: Option<Value>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<(String, regex::Regex)>,
    pub format: Option<String>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,
    pub items: Option<NodeId>,
    pub prefix_items: Vec<NodeId>,
    pub min_items: Option<u64>,
    pub max_items: Option<u64>,
    pub unique_items: bool,
    pub properties: Vec<(String, NodeId)>,
    pub prop_index: HashMap<String, usize>,
    pub required: Vec<String>,
    pub additional: Additional,
    pub pattern_properties: Vec<(regex::Regex, NodeId)>,
    /// `propertyNames`: the schema every key of an object meets (keyed maps).
    pub property_names: Option<NodeId>,
    pub min_properties: Option<u64>,
    pub max_properties: Option<u64>,
    pub any_of: Vec<NodeId>,
    pub one_of: Vec<NodeId>,
    pub all_of: Vec<NodeId>,
    pub not: Option<NodeId>,
    pub reference: Option<NodeId>,
    pub discriminator: Option<Discriminator>,
}

impl Node {
    pub(crate) fn property(&self, name: &str) -> Option<NodeId> {
        self.prop_index.get(name).map(|&i| self.properties[i].1)
    }
}

pub(crate) struct Compiled {
    pub nodes: Vec<Node>,
    pub root: NodeId,
}

pub(crate) fn compile(schema: &Value) -> Result<Compiled, ConvertError> {
    let mut c = Compiler {
        root: schema,
        nodes: Vec::new(),
        refs: HashMap::new(),
    };
    let root = c.node(schema, "", 0)?;
    let mut compiled = Compiled {
        nodes: c.nodes,
        root,
    };
    find_discriminators(&mut compiled);
    Ok(compiled)
}

struct Compiler<'a> {
    root: &'a Value,
    nodes: Vec<Node>,
    refs: HashMap<String, NodeId>,
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

impl<'a> Compiler<'a> {
    fn node(&mut self, schema: &'a Value, ptr: &str, depth: usize) -> Result<NodeId, ConvertError> {
        if depth > MAX_SCHEMA_DEPTH {
            return Err(ConvertError::new(
                ptr,
                ConvertErrorKind::TooDeep(MAX_SCHEMA_DEPTH),
            ));
        }
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        let node = match schema {
            Value::Bool(true) => Node::default(),
            Value::Bool(false) => Node {
                falsy: true,
                ..Node::default()
            },
            Value::Object(m) => self.object(m, ptr, depth)?,
            _ => return Err(malformed(ptr, "a schema must be an object or a boolean")),
        };
        self.nodes[id] = node;
        Ok(id)
    }

    fn list(
        &mut self,
        v: &'a Value,
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
        items
            .iter()
            .enumerate()
            .map(|(i, s)| self.node(s, &pointer::push(&p, &i.to_string()), depth + 1))
            .collect()
    }

    fn reference(&mut self, r: &str, ptr: &str, depth: usize) -> Result<NodeId, ConvertError> {
        if let Some(&id) = self.refs.get(r) {
            return Ok(id);
        }
        let target = pointer::resolve(self.root, r).ok_or_else(|| {
            ConvertError::new(
                pointer::push(ptr, "$ref"),
                ConvertErrorKind::UnresolvableRef(r.to_string()),
            )
        })?;
        // Reserve the id before compiling the target, so recursion finds it.
        let id = self.nodes.len();
        self.nodes.push(Node::default());
        self.refs.insert(r.to_string(), id);
        let inner = self.node(target, r.trim_start_matches('#'), depth + 1)?;
        self.nodes[id] = Node {
            reference: Some(inner),
            ..Node::default()
        };
        Ok(id)
    }

    fn object(
        &mut self,
        m: &'a Map<String, Value>,
        ptr: &str,
        depth: usize,
    ) -> Result<Node, ConvertError> {
        let mut n = Node::default();
        for (key, v) in m {
            let p = || pointer::push(ptr, key);
            match key.as_str() {
                "type" => {
                    let names: Vec<&str> = match v {
                        Value::String(s) => vec![s.as_str()],
                        Value::Array(a) => a
                            .iter()
                            .map(|t| {
                                t.as_str().ok_or_else(|| {
                                    malformed(&p(), "`type` entries must be strings")
                                })
                            })
                            .collect::<Result<_, _>>()?,
                        _ => {
                            return Err(malformed(
                                &p(),
                                "`type` must be a string or an array of strings",
                            ))
                        }
                    };
                    for name in names {
                        n.types |= type_bit(name)
                            .ok_or_else(|| malformed(&p(), format!("unknown type {name:?}")))?;
                    }
                }
                "nullable" if v == &Value::Bool(true) => {
                    // OpenAPI 3.0: applied after the loop, once `type` is known.
                }
                "enum" => match v {
                    Value::Array(a) => n.enum_values = Some(a.clone()),
                    _ => return Err(malformed(&p(), "`enum` must be an array")),
                },
                "const" => n.const_value = Some(v.clone()),
                "minLength" => n.min_length = Some(as_u64(v, ptr, key)?),
                "maxLength" => n.max_length = Some(as_u64(v, ptr, key)?),
                "pattern" => {
                    let src = v
                        .as_str()
                        .ok_or_else(|| malformed(&p(), "`pattern` must be a string"))?;
                    let re = regex::Regex::new(src).map_err(|e| {
                        malformed(
                            &p(),
                            format!(
                                "`pattern` {src:?} is not supported by the regex engine: {}",
                                e.to_string().lines().last().unwrap_or("").trim()
                            ),
                        )
                    })?;
                    n.pattern = Some((src.to_string(), re));
                }
                "format" => {
                    n.format = Some(
                        v.as_str()
                            .ok_or_else(|| malformed(&p(), "`format` must be a string"))?
                            .to_string(),
                    )
                }
                "minimum" => n.minimum = Some(as_number(v, ptr, key)?),
                "maximum" => n.maximum = Some(as_number(v, ptr, key)?),
                "exclusiveMinimum" => n.exclusive_minimum = Some(as_number(v, ptr, key)?),
                "exclusiveMaximum" => n.exclusive_maximum = Some(as_number(v, ptr, key)?),
                "multipleOf" => {
                    let num = as_number(v, ptr, key)?;
                    if num.as_f64().is_none_or(|f| f <= 0.0) {
                        return Err(malformed(&p(), "`multipleOf` must be greater than 0"));
                    }
                    n.multiple_of = Some(num);
                }
                "items" => match v {
                    // Draft 4-7 tuple form.
                    Value::Array(_) => n.prefix_items = self.list(v, ptr, key, depth)?,
                    _ => n.items = Some(self.node(v, &p(), depth + 1)?),
                },
                "prefixItems" => n.prefix_items = self.list(v, ptr, key, depth)?,
                "minItems" => n.min_items = Some(as_u64(v, ptr, key)?),
                "maxItems" => n.max_items = Some(as_u64(v, ptr, key)?),
                "uniqueItems" => n.unique_items = v.as_bool().unwrap_or(false),
                "properties" => {
                    let Value::Object(props) = v else {
                        return Err(malformed(&p(), "`properties` must be an object"));
                    };
                    for (name, s) in props {
                        let id = self.node(s, &pointer::push(&p(), name), depth + 1)?;
                        n.prop_index.insert(name.clone(), n.properties.len());
                        n.properties.push((name.clone(), id));
                    }
                }
                "required" => {
                    let Value::Array(a) = v else {
                        return Err(malformed(&p(), "`required` must be an array of strings"));
                    };
                    n.required = a
                        .iter()
                        .map(|r| {
                            r.as_str().map(str::to_string).ok_or_else(|| {
                                malformed(&p(), "`required` must be an array of strings")
                            })
                        })
                        .collect::<Result<_, _>>()?;
                }
                "additionalProperties" => {
                    n.additional = match v {
                        Value::Bool(true) => Additional::Allowed,
                        Value::Bool(false) => Additional::Forbidden,
                        _ => Additional::Schema(self.node(v, &p(), depth + 1)?),
                    }
                }
                "patternProperties" => {
                    let Value::Object(pp) = v else {
                        return Err(malformed(&p(), "`patternProperties` must be an object"));
                    };
                    for (src, s) in pp {
                        let re = regex::Regex::new(src).map_err(|_| {
                            malformed(
                                &p(),
                                format!("pattern {src:?} is not supported by the regex engine"),
                            )
                        })?;
                        let id = self.node(s, &pointer::push(&p(), src), depth + 1)?;
                        n.pattern_properties.push((re, id));
                    }
                }
                "propertyNames" => n.property_names = Some(self.node(v, &p(), depth + 1)?),
                "minProperties" => n.min_properties = Some(as_u64(v, ptr, key)?),
                "maxProperties" => n.max_properties = Some(as_u64(v, ptr, key)?),
                "anyOf" => n.any_of = self.list(v, ptr, key, depth)?,
                "oneOf" => n.one_of = self.list(v, ptr, key, depth)?,
                "allOf" => n.all_of = self.list(v, ptr, key, depth)?,
                "not" => n.not = Some(self.node(v, &p(), depth + 1)?),
                "$ref" => {
                    let r = v
                        .as_str()
                        .ok_or_else(|| malformed(&p(), "`$ref` must be a string"))?;
                    n.reference = Some(self.reference(r, ptr, depth)?);
                }
                _ => {}
            }
        }
        if m.get("nullable") == Some(&Value::Bool(true)) && n.types != 0 {
            n.types |= T_NULL;
            if let Some(e) = &mut n.enum_values {
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
            }
        }
        Ok(n)
    }
}

/// Follows pure `$ref` nodes to the node that holds the keywords.
pub(crate) fn deref(nodes: &[Node], mut id: NodeId) -> NodeId {
    for _ in 0..64 {
        let n = &nodes[id];
        match n.reference {
            Some(r)
                if n.types == 0
                    && n.properties.is_empty()
                    && n.any_of.is_empty()
                    && n.one_of.is_empty()
                    && n.all_of.is_empty()
                    && n.const_value.is_none()
                    && n.enum_values.is_none() =>
            {
                id = r
            }
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

fn find_discriminators(c: &mut Compiled) {
    for i in 0..c.nodes.len() {
        let branches = if !c.nodes[i].any_of.is_empty() {
            c.nodes[i].any_of.clone()
        } else {
            c.nodes[i].one_of.clone()
        };
        if branches.is_empty() {
            continue;
        }
        let resolved: Vec<NodeId> = branches.iter().map(|&b| deref(&c.nodes, b)).collect();
        let first = &c.nodes[resolved[0]];
        let candidates: Vec<String> = first
            .properties
            .iter()
            .filter(|(name, _)| first.required.contains(name))
            .map(|(name, _)| name.clone())
            .collect();
        'names: for name in candidates {
            let mut out = Vec::new();
            for (&b, &r) in branches.iter().zip(&resolved) {
                let node = &c.nodes[r];
                if !node.required.contains(&name) {
                    continue 'names;
                }
                let Some(prop) = node.property(&name) else {
                    continue 'names;
                };
                let Some(tag) = pinned(&c.nodes[deref(&c.nodes, prop)]) else {
                    continue 'names;
                };
                if out.iter().any(|(t, _)| *t == tag) {
                    continue 'names;
                }
                out.push((tag, b));
            }
            c.nodes[i].discriminator = Some(Discriminator {
                property: name,
                branches: out,
            });
            break;
        }
    }
}
