//! Tools: definitions for each provider, and checked, typed tool calls.
//!
//! Two ways in:
//! - at compile time, `#[derive(AgentSchema)]` with `#[schema(tools)]` on an internally tagged
//!   enum makes each variant a tool and generates `T::tool_definitions(provider)`,
//!   `T::mcp_tools()`, `T::from_tool_call(name, arguments)` and
//!   `T::tool_calls_from_response(provider, body)` (they call the functions of this module);
//! - at run time (an MCP gateway, seed 003), a [`ToolSet`] built from `(name, description,
//!   input_schema)` triples or an MCP `tools/list` result gives the definitions for each
//!   provider, the compressed TypeScript text of a tool ([`ToolSet::inspect`]) and the check
//!   of a call's arguments ([`ToolSet::check_call`]) with seed 003's `exec` answer on failure.
//!
//! Provider limits are checked per request, across every tool: Anthropic's 24 optional
//! parameters and 16 unions (`anyOf`), OpenAI's 128 tools.

use crate::convert::{
    to_dialect_with, to_typescript, Change, ConvertError, ConvertErrorKind, DialectOptions,
    TsOptions,
};
use crate::model::{Kind, Repr, Type};
use crate::obj::obj;
use crate::provider::{is_valid_tool_name, read_response, Finish, Provider};
use crate::validate::{ValidationErrors, Validator};
use crate::{Dialect, ParseError};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::fmt;

/// Anthropic: optional parameters across all strict tools and the output format of a request
/// (the Anthropic dialect table's limit).
pub const ANTHROPIC_MAX_OPTIONAL: usize = crate::convert::dialect::targets::anthropic::MAX_OPTIONAL;
/// Anthropic: unions (`anyOf`) across all strict tools and the output format of a request (the
/// Anthropic dialect table's limit).
pub const ANTHROPIC_MAX_UNIONS: usize = crate::convert::dialect::targets::anthropic::MAX_UNIONS;
/// OpenAI: tools in one request.
pub const OPENAI_MAX_TOOLS: usize = 128;

/// One tool's definition in the wire form of `provider` (for Gemini: one entry of
/// `functionDeclarations`). `schema` is already in the provider's dialect.
fn wire(provider: Provider, name: &str, description: Option<&str>, schema: Value) -> Value {
    let description = description.unwrap_or("");
    match provider {
        Provider::OpenAiChat | Provider::LmStudio => obj(&mut [
            ("type", "function".into()),
            (
                "function",
                obj(&mut [
                    ("name", name.into()),
                    ("description", description.into()),
                    ("parameters", schema),
                    ("strict", true.into()),
                ]),
            ),
        ]),
        // Ollama has no strict flag: its grammar always constrains the arguments.
        Provider::Ollama => obj(&mut [
            ("type", "function".into()),
            (
                "function",
                obj(&mut [
                    ("name", name.into()),
                    ("description", description.into()),
                    ("parameters", schema),
                ]),
            ),
        ]),
        Provider::OpenAiResponses => obj(&mut [
            ("type", "function".into()),
            ("name", name.into()),
            ("description", description.into()),
            ("parameters", schema),
            ("strict", true.into()),
        ]),
        Provider::Anthropic => obj(&mut [
            ("name", name.into()),
            ("description", description.into()),
            ("input_schema", schema),
            ("strict", true.into()),
        ]),
        Provider::Gemini => obj(&mut [
            ("name", name.into()),
            ("description", description.into()),
            ("parametersJsonSchema", schema),
        ]),
    }
}

/// The `tools` array of a request from the per-tool entries of [`wire`].
fn wrap_tools(provider: Provider, entries: Vec<Value>) -> Value {
    match provider {
        Provider::Gemini if entries.is_empty() => Value::Array(Vec::new()),
        Provider::Gemini => Value::Array(vec![obj(&mut [(
            "functionDeclarations",
            Value::Array(entries),
        )])]),
        _ => Value::Array(entries),
    }
}

/// The JSON pointer segment of a tool, for errors: `/tools/<name>`.
fn tool_pointer(name: &str, inner: &str) -> String {
    format!(
        "/tools/{}{inner}",
        name.replace('~', "~0").replace('/', "~1")
    )
}

/// Optional properties and unions in a converted schema, as Anthropic counts them.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    optional: usize,
    unions: usize,
}

fn count(v: &Value, c: &mut Counts, depth: usize) {
    let Value::Object(m) = v else { return };
    if depth > crate::convert::MAX_DEPTH * 4 {
        return;
    }
    if m.contains_key("anyOf") {
        c.unions += 1;
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        let required: &[Value] = m
            .get("required")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice);
        // (the required names looked up by hash: a list scan per property was quadratic)
        let required: std::collections::HashSet<&str> =
            required.iter().filter_map(Value::as_str).collect();
        c.optional += props
            .keys()
            .filter(|k| !required.contains(k.as_str()))
            .count();
    }
    for (k, child) in m {
        match (k.as_str(), child) {
            ("properties" | "$defs" | "definitions" | "patternProperties", Value::Object(ps)) => {
                ps.values().for_each(|s| count(s, c, depth + 1));
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(a)) => {
                a.iter().for_each(|s| count(s, c, depth + 1));
            }
            ("items" | "additionalProperties" | "not" | "contains" | "if" | "then" | "else", s) => {
                count(s, c, depth + 1);
            }
            _ => {}
        }
    }
}

/// Checks adding a tool of `add` counts to `total` against the per-request limits of
/// `provider`; on success `total` includes it.
fn add_counts(
    provider: Provider,
    total: &mut Counts,
    add: Counts,
    tools_so_far: usize,
    name: &str,
) -> Result<(), ConvertError> {
    let limit = |limit, max, found| {
        Err(ConvertError::new(
            tool_pointer(name, ""),
            ConvertErrorKind::LimitExceeded { limit, max, found },
        ))
    };
    if let Some(max) = provider.max_tools() {
        if tools_so_far + 1 > max {
            return limit("tools, per request", max, tools_so_far + 1);
        }
    }
    if provider == Provider::Anthropic {
        let optional = total.optional + add.optional;
        if optional > ANTHROPIC_MAX_OPTIONAL {
            return limit(
                "optional parameters, per request",
                ANTHROPIC_MAX_OPTIONAL,
                optional,
            );
        }
        let unions = total.unions + add.unions;
        if unions > ANTHROPIC_MAX_UNIONS {
            return limit("unions (anyOf), per request", ANTHROPIC_MAX_UNIONS, unions);
        }
    }
    total.optional += add.optional;
    total.unions += add.unions;
    Ok(())
}

/// The optional properties and unions of a converted schema, as Anthropic counts them per
/// request; for adding the output format's share to a tools check.
///
/// ```
/// let s = serde_json::json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}});
/// assert_eq!(schema_core::tools::request_counts(&s), (1, 1));
/// ```
pub fn request_counts(schema: &Value) -> (usize, usize) {
    let mut c = Counts::default();
    count(schema, &mut c, 0);
    (c.optional, c.unions)
}

/// Whether `provider` accepts `name` as a tool name: OpenAI and Anthropic
/// `^[a-zA-Z0-9_-]{1,64}$`; Gemini also dots and colons, starting with a letter or `_`; LM Studio
/// and Ollama (no documented rule) the Gemini characters.
fn check_name(provider: Provider, name: &str) -> Result<(), ConvertError> {
    let (ok, rule) = match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses | Provider::Anthropic => {
            (is_valid_tool_name(name), "^[a-zA-Z0-9_-]{1,64}$")
        }
        _ => {
            let chars = !name.is_empty()
                && name.len() <= crate::provider::MAX_NAME_LEN
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-.:".contains(&b));
            let first = name
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
            if provider == Provider::Gemini {
                (chars && first, "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")
            } else {
                (chars, "^[a-zA-Z0-9_.:-]{1,64}$")
            }
        }
    };
    if ok {
        Ok(())
    } else {
        Err(ConvertError::new(
            tool_pointer(name, ""),
            ConvertErrorKind::Unsupported(format!("tool name {name:?} does not match {rule}")),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Derived tool sets (`#[schema(tools)]`).

pub(crate) fn tool_enum(ty: &'static Type) -> Result<&'static crate::model::Enum, ConvertError> {
    match &ty.kind {
        Kind::Enum(e) if matches!(e.repr, Repr::Internal { .. }) => Ok(e),
        _ => Err(ConvertError::new(
            "",
            ConvertErrorKind::Unsupported(
                "a tool set is an internally tagged enum (`#[schema(tools)]`)".into(),
            ),
        )),
    }
}

/// One tool of a derived set: name, description, parameters (full JSON Schema).
type DerivedTool = (&'static str, Option<&'static str>, Value);

/// The parameters schema (full JSON Schema) of each tool of a derived tool set.
fn derived_tools(
    ty: &'static Type,
    reshape: crate::render::Reshape,
) -> Result<Vec<DerivedTool>, ConvertError> {
    let e = tool_enum(ty)?;
    let mut out = Vec::with_capacity(e.variants.len());
    for (i, v) in e.variants.iter().enumerate() {
        let schema = crate::render::render_variant(ty, i, reshape)
            .unwrap_or_else(|| Err(ConvertError::new("", ConvertErrorKind::RootNotObject)))
            .map_err(|err| ConvertError::new(tool_pointer(v.name, &err.pointer), err.kind))?;
        out.push((v.name, v.meta.description, schema));
    }
    Ok(out)
}

/// `T::tool_definitions(provider)` of a `#[schema(tools)]` enum: the `tools` array, every tool
/// converted to the provider's dialect, the per-request limits checked across the tools.
pub(crate) fn derived_definitions(
    ty: &'static Type,
    provider: Provider,
) -> Result<Value, ConvertError> {
    let mut entries = Vec::new();
    let mut total = Counts::default();
    // Maps marked `#[schema(entries)]` are entries where the dialect cannot express a map.
    let reshape =
        crate::render::Reshape::for_dialect(provider.dialect(), &DialectOptions::default());
    for (name, description, schema) in derived_tools(ty, reshape)? {
        check_name(provider, name)?;
        let converted = convert_tool(name, &schema, provider.dialect())?;
        let mut c = Counts::default();
        count(&converted, &mut c, 0);
        add_counts(provider, &mut total, c, entries.len(), name)?;
        entries.push(wire(provider, name, description, converted));
    }
    Ok(wrap_tools(provider, entries))
}

/// `T::mcp_tools()`: the `tools` of an MCP `tools/list` result (`{name, description,
/// inputSchema}`, full JSON Schema).
pub(crate) fn derived_mcp_tools(ty: &'static Type) -> Result<Value, ConvertError> {
    let tools = derived_tools(ty, crate::render::Reshape::default())?
        .into_iter()
        .map(|(name, description, schema)| {
            obj(&mut [
                ("name", name.into()),
                ("description", description.unwrap_or("").into()),
                ("inputSchema", schema),
            ])
        })
        .collect();
    Ok(Value::Array(tools))
}

fn convert_tool(name: &str, schema: &Value, dialect: Dialect) -> Result<Value, ConvertError> {
    to_dialect_with(schema, dialect, &DialectOptions::default())
        .map(|c| c.schema)
        .map_err(|e| ConvertError::new(tool_pointer(name, &e.pointer), e.kind))
}

/// `T::from_tool_call(name, arguments)`: the variant named `name` read from the arguments' JSON
/// text, with the validation and feedback of `from_json`.
pub(crate) fn derived_from_call<T: DeserializeOwned>(
    ty: &'static Type,
    name: &str,
    arguments: &str,
) -> Result<T, ParseError> {
    let e = tool_enum(ty).map_err(|e| ParseError::Schema(e.to_string()))?;
    let Repr::Internal { tag } = e.repr else {
        return Err(ParseError::Schema("not a tool set".into()));
    };
    if !e.variants.iter().any(|v| v.name == name) {
        return Err(ParseError::UnknownTool {
            name: name.into(),
            known: e.variants.iter().map(|v| v.name.to_string()).collect(),
        });
    }
    let text = if arguments.trim().is_empty() {
        "{}"
    } else {
        arguments
    };
    let args = crate::parse::parse_text(text)?;
    let Value::Object(args) = args else {
        return Err(ParseError::Invalid {
            errors: crate::parse::single(
                "",
                "type",
                "an object of arguments",
                crate::convert::kind_of(&args),
            ),
            value: args,
        });
    };
    let mut obj = Map::with_capacity(args.len() + 1);
    obj.insert(tag.into(), name.into());
    for (k, v) in args {
        if k != tag {
            obj.insert(k, v);
        }
    }
    match crate::parse::from_value(crate::TypeCache::shared(ty), ty, Value::Object(obj)) {
        Ok(v) => Ok(v),
        Err(ParseError::Invalid { errors, mut value }) => {
            // Show the model its own arguments, without the tag it never wrote.
            if let Value::Object(m) = &mut value {
                m.shift_remove(tag);
            }
            Err(ParseError::Invalid { errors, value })
        }
        Err(other) => Err(other),
    }
}

/// `T::tool_calls_from_response(provider, body)`: every tool call of the response, typed, with
/// its call id.
pub(crate) fn derived_calls_from_response<T: DeserializeOwned>(
    ty: &'static Type,
    provider: Provider,
    body: &Value,
) -> Result<Vec<(String, T)>, ParseError> {
    let reply = read_response(provider, body).map_err(ParseError::Provider)?;
    if let Some(text) = reply.refusal {
        return Err(ParseError::Refusal { text });
    }
    if matches!(reply.finish, Finish::Length | Finish::Cut) {
        return Err(crate::provider::truncated(provider, &reply.finish, 0));
    }
    reply
        .tool_calls
        .into_iter()
        .map(|c| derived_from_call(ty, &c.name, &c.arguments).map(|v| (c.id, v)))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Run-time tool sets.

/// One tool of a [`ToolSet`].
#[derive(Debug)]
struct Entry {
    name: String,
    description: Option<String>,
    input_schema: Value,
    validator: Result<Validator, ConvertError>,
}

/// Tools known at run time (an MCP server's `tools/list`, a plugin registry), with their
/// definitions for each provider and the check of a call's arguments (seed 003).
///
/// ```
/// use schema_core::{provider::Provider, tools::ToolSet};
/// use serde_json::json;
/// let set = ToolSet::from_mcp_list(&json!({"tools": [{
///     "name": "read_file",
///     "description": "Read a file",
///     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
/// }]}))
/// .unwrap();
/// let defs = set.definitions(Provider::Anthropic);
/// assert_eq!(defs.tools[0]["input_schema"]["required"], json!(["path"]));
/// assert_eq!(set.inspect("read_file").unwrap(), "{path: string}");
/// let err = set.check_call("read_file", &json!({"path": 3})).unwrap_err();
/// assert_eq!(err.feedback()["tool_schema"], "{path: string}");
/// ```
#[derive(Debug, Default)]
pub struct ToolSet {
    tools: Vec<Entry>,
    /// Name -> index of the first tool of that name.
    index: HashMap<String, usize>,
}

/// The definitions of a [`ToolSet`] for one provider.
#[derive(Debug, Clone, PartialEq)]
pub struct Definitions {
    /// The value of the request's `tools` key (for Gemini: one `functionDeclarations` entry).
    pub tools: Value,
    /// The conversion report of each tool sent, in order.
    pub reports: Vec<ToolReport>,
    /// The tools left out, with why: a schema the dialect cannot express, a name the provider
    /// does not accept, or a per-request limit the tool would cross.
    pub left_out: Vec<(String, ConvertError)>,
}

/// What converting one tool's schema changed.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReport {
    /// The tool's name.
    pub name: String,
    /// Every change the conversion made.
    pub changes: Vec<Change>,
}

/// Why a tool call was refused by [`ToolSet::check_call`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallError {
    /// The tool called.
    pub tool: String,
    /// What is wrong.
    pub kind: ToolCallErrorKind,
    /// The tool's compressed TypeScript text (for the answer to the model), when known.
    pub tool_schema: Option<String>,
}

/// The kinds of [`ToolCallError`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ToolCallErrorKind {
    /// No tool has that name.
    UnknownTool {
        /// The names there are.
        known: Vec<String>,
    },
    /// The arguments do not match the tool's input schema: every error with its path.
    Invalid(ValidationErrors),
    /// The tool's own input schema could not be compiled.
    Schema(ConvertError),
}

impl ToolCallError {
    /// The error as text: every error with its path, one a line.
    pub fn message(&self) -> String {
        match &self.kind {
            ToolCallErrorKind::UnknownTool { known } => format!(
                "no tool named `{}`; the tools are: {}",
                self.tool,
                known.join(", ")
            ),
            ToolCallErrorKind::Invalid(errors) => format!(
                "invalid arguments for `{}`:\n{}",
                self.tool,
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            ToolCallErrorKind::Schema(e) => {
                format!("the input schema of `{}` is unusable: {e}", self.tool)
            }
        }
    }

    /// Seed 003's `exec` answer to a failed argument check, to return to the model as the tool's
    /// result: `{"error": <every error with its path>, "tool_schema": <the compressed schema>}`.
    pub fn feedback(&self) -> Value {
        let mut m = Map::new();
        m.insert("error".into(), self.message().into());
        if let Some(ts) = &self.tool_schema {
            m.insert("tool_schema".into(), ts.clone().into());
        }
        Value::Object(m)
    }
}

impl fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for ToolCallError {}

impl ToolSet {
    /// A tool set from `(name, description, input_schema)` triples. A schema that cannot be
    /// compiled is kept: it is reported by [`definitions`](Self::definitions) and
    /// [`check_call`](Self::check_call).
    pub fn new<N, D, I>(tools: I) -> Self
    where
        N: Into<String>,
        D: Into<String>,
        I: IntoIterator<Item = (N, Option<D>, Value)>,
    {
        let mut set = ToolSet::default();
        for (name, description, schema) in tools {
            set.add(name, description, schema);
        }
        set
    }

    /// Adds a tool.
    pub fn add(
        &mut self,
        name: impl Into<String>,
        description: Option<impl Into<String>>,
        input_schema: Value,
    ) {
        let validator = Validator::new(&input_schema);
        let name = name.into();
        self.index.entry(name.clone()).or_insert(self.tools.len());
        self.tools.push(Entry {
            name,
            description: description.map(Into::into),
            input_schema,
            validator,
        });
    }

    /// A tool set from an MCP `tools/list` result: `{"tools": [{name, description,
    /// inputSchema}]}`, the JSON-RPC response around it (`{"result": {"tools": ...}}`), or the
    /// bare array.
    pub fn from_mcp_list(list: &Value) -> Result<Self, ConvertError> {
        let tools = list
            .get("result")
            .unwrap_or(list)
            .get("tools")
            .or(Some(list).filter(|l| l.is_array()))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                ConvertError::new(
                    "",
                    ConvertErrorKind::Malformed("expected a `tools` array".into()),
                )
            })?;
        let mut set = ToolSet::default();
        for (i, t) in tools.iter().enumerate() {
            let name = t.get("name").and_then(Value::as_str).ok_or_else(|| {
                ConvertError::new(
                    format!("/tools/{i}/name"),
                    ConvertErrorKind::Malformed("a tool without a string `name`".into()),
                )
            })?;
            let description = t.get("description").and_then(Value::as_str);
            let schema = t
                .get("inputSchema")
                .or_else(|| t.get("input_schema"))
                .cloned()
                .unwrap_or_else(|| {
                    obj(&mut [
                        ("type", "object".into()),
                        ("properties", Value::Object(Map::new())),
                    ])
                });
            set.add(name, description, schema);
        }
        Ok(set)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether the set has no tool.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tools' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name.as_str()).collect()
    }

    /// A tool's input schema as given.
    pub fn input_schema(&self, name: &str) -> Option<&Value> {
        self.find(name).map(|t| &t.input_schema)
    }

    /// A tool's description as given (`None` for an unknown name or a tool without one).
    ///
    /// ```
    /// use schema_core::tools::ToolSet;
    /// let list = serde_json::json!({"tools": [{"name": "read_file", "description": "Reads a file.",
    ///     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]});
    /// let set = ToolSet::from_mcp_list(&list).unwrap();
    /// assert_eq!(set.description("read_file"), Some("Reads a file."));
    /// assert_eq!(set.input_schema("read_file").unwrap()["properties"]["path"]["type"], "string");
    /// assert_eq!(set.description("write_file"), None);
    /// ```
    pub fn description(&self, name: &str) -> Option<&str> {
        self.find(name).and_then(|t| t.description.as_deref())
    }

    fn find(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).and_then(|&i| self.tools.get(i))
    }

    /// The tools for `provider`: each converted to its dialect, with the conversion report. A
    /// tool the dialect cannot express, whose name the provider does not accept, or that would
    /// cross a per-request limit is left out and listed in
    /// [`Definitions::left_out`], never sent broken.
    pub fn definitions(&self, provider: Provider) -> Definitions {
        let mut entries = Vec::new();
        let mut reports = Vec::new();
        let mut left_out = Vec::new();
        let mut total = Counts::default();
        for t in &self.tools {
            let converted = check_name(provider, &t.name).and_then(|()| {
                to_dialect_with(
                    &t.input_schema,
                    provider.dialect(),
                    &DialectOptions::default(),
                )
                .map_err(|e| ConvertError::new(tool_pointer(&t.name, &e.pointer), e.kind))
            });
            let checked = converted.and_then(|c| {
                let mut n = Counts::default();
                count(&c.schema, &mut n, 0);
                add_counts(provider, &mut total, n, entries.len(), &t.name).map(|()| c)
            });
            match checked {
                Ok(c) => {
                    entries.push(wire(provider, &t.name, t.description.as_deref(), c.schema));
                    reports.push(ToolReport {
                        name: t.name.clone(),
                        changes: c.changes,
                    });
                }
                Err(e) => left_out.push((t.name.clone(), e)),
            }
        }
        Definitions {
            tools: wrap_tools(provider, entries),
            reports,
            left_out,
        }
    }

    /// The tools as an MCP `tools/list` result's `tools` array (schemas as given).
    pub fn mcp_tools(&self) -> Value {
        Value::Array(
            self.tools
                .iter()
                .map(|t| {
                    obj(&mut [
                        ("name", t.name.as_str().into()),
                        ("description", t.description.as_deref().unwrap_or("").into()),
                        ("inputSchema", t.input_schema.clone()),
                    ])
                })
                .collect(),
        )
    }

    /// A tool's compressed TypeScript text (seed 003's `inspect`), or `None` for an unknown
    /// name or a schema that cannot be rendered.
    pub fn inspect(&self, name: &str) -> Option<String> {
        self.inspect_with(name, &TsOptions::default())
    }

    /// [`inspect`](Self::inspect) with TypeScript options.
    pub fn inspect_with(&self, name: &str, options: &TsOptions) -> Option<String> {
        self.find(name)
            .and_then(|t| to_typescript(&t.input_schema, options).ok())
    }

    /// Checks a call's arguments against the tool's input schema: every error with its path;
    /// [`ToolCallError::feedback`] is the answer to send back to the model.
    ///
    /// A `null` for a property the schema does not accept `null` for is read as absent: OpenAI
    /// strict mode makes every optional parameter required and nullable, so its models write
    /// `null` for "not given" (as `from_json` reads them).
    pub fn check_call(&self, name: &str, arguments: &Value) -> Result<(), ToolCallError> {
        let Some(t) = self.find(name) else {
            return Err(ToolCallError {
                tool: name.into(),
                kind: ToolCallErrorKind::UnknownTool {
                    known: self.tools.iter().map(|t| t.name.clone()).collect(),
                },
                tool_schema: None,
            });
        };
        let error = |kind| ToolCallError {
            tool: name.into(),
            kind,
            tool_schema: self.inspect(name),
        };
        match &t.validator {
            Err(e) => Err(error(ToolCallErrorKind::Schema(e.clone()))),
            Ok(v) => v
                .validate_parsed(arguments)
                .map_err(|errors| error(ToolCallErrorKind::Invalid(errors))),
        }
    }

    /// [`check_call`](Self::check_call) for arguments as JSON text (as OpenAI sends them); text
    /// that is not JSON is an error at the root. Arguments written in the shape the provider's
    /// form of the schema asks for (a map as `{key, value}` entries, a tuple as `{_0, _1}`,
    /// a value of any type as JSON text) are read back into the tool's own shape
    /// ([`Converted::read_back`](crate::convert::Converted::read_back)). Returns the arguments
    /// to pass to the tool:
    /// when the call holds `null`s read as absent, without its `null` properties (if the schema
    /// accepts that; else as written).
    pub fn check_call_text(&self, name: &str, arguments: &str) -> Result<Value, ToolCallError> {
        let text = if arguments.trim().is_empty() {
            "{}"
        } else {
            arguments
        };
        let value: Value = serde_json::from_str(text).map_err(|e| ToolCallError {
            tool: name.into(),
            kind: ToolCallErrorKind::Invalid(crate::parse::single(
                "",
                "json",
                "JSON arguments",
                &e.to_string(),
            )),
            tool_schema: self.inspect(name),
        })?;
        let value = match self.check_call(name, &value) {
            Ok(()) => value,
            Err(e) => self.read_back_call(name, &value).ok_or(e)?,
        };
        let strict_ok = |v: &Value| {
            self.find(name)
                .and_then(|t| t.validator.as_ref().ok())
                .is_some_and(|val| val.is_valid(v))
        };
        if strict_ok(&value) {
            return Ok(value);
        }
        let mut stripped = value.clone();
        strip_null_properties(&mut stripped, 0);
        Ok(if strict_ok(&stripped) {
            stripped
        } else {
            value
        })
    }
}

impl ToolSet {
    /// Arguments written in the shape of a provider's form of the tool's schema (a map as
    /// entries, a tuple as a positional object, JSON text: `Converted::read_back`) read back
    /// into the tool's own shape, where that value is valid. Only on the slow path: a call
    /// valid as written never gets here.
    fn read_back_call(&self, name: &str, arguments: &Value) -> Option<Value> {
        let t = self.find(name)?;
        let validator = t.validator.as_ref().ok()?;
        [Dialect::OpenAi, Dialect::Anthropic]
            .into_iter()
            .find_map(|d| {
                let c = to_dialect_with(&t.input_schema, d, &DialectOptions::default()).ok()?;
                if c.plan.is_identity() {
                    return None;
                }
                let v = c.read_back(arguments).ok()?;
                validator.is_valid(&v).then_some(v)
            })
    }
}

/// Removes every object property whose value is `null`, at any depth.
fn strip_null_properties(v: &mut Value, depth: usize) {
    if depth > crate::parse::MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut()
                .for_each(|x| strip_null_properties(x, depth + 1));
        }
        Value::Array(a) => a
            .iter_mut()
            .for_each(|x| strip_null_properties(x, depth + 1)),
        _ => {}
    }
}

/// The tool parameter schemas of a request body's `tools`, by name, in `provider`'s form.
fn request_tools(provider: Provider, body: &Value) -> Vec<(String, &Value)> {
    let empty: &[Value] = &[];
    let tools = body
        .get("tools")
        .and_then(Value::as_array)
        .map_or(empty, Vec::as_slice);
    let mut out = Vec::new();
    for t in tools {
        let found = match provider {
            Provider::Gemini => {
                for d in t
                    .get("functionDeclarations")
                    .and_then(Value::as_array)
                    .map_or(empty, Vec::as_slice)
                {
                    let name = d.get("name").and_then(Value::as_str).unwrap_or("");
                    let schema = d
                        .get("parametersJsonSchema")
                        .or_else(|| d.get("parameters"));
                    out.extend(schema.map(|s| (name.to_string(), s)));
                }
                None
            }
            Provider::OpenAiChat | Provider::LmStudio | Provider::Ollama => t
                .get("function")
                .map(|f| (f.get("name"), f.get("parameters"))),
            Provider::OpenAiResponses => Some((t.get("name"), t.get("parameters"))),
            Provider::Anthropic => Some((t.get("name"), t.get("input_schema"))),
        };
        if let Some((name, Some(schema))) = found {
            let name = name.and_then(Value::as_str).unwrap_or("");
            out.push((name.to_string(), schema));
        }
    }
    out
}

/// Checks the per-request limits of a whole request body (its `tools` and its structured-output
/// part together, as [`output_format`](crate::provider::output_format) and the tool definitions
/// write them): Anthropic's 24 optional parameters and 16 unions, OpenAI's 128 tools. The error
/// names the tool (`/tools/<name>`) or the output format that crosses a limit.
///
/// ```
/// use schema_core::{provider::{merge_into, output_format, Provider}, tools::check_request, AgentSchema};
/// #[derive(AgentSchema)]
/// struct Note {
///     text: Option<String>,
/// }
/// let mut body = serde_json::json!({"model": "claude-sonnet-4-5", "messages": []});
/// merge_into(&mut body, output_format::<Note>(Provider::Anthropic).unwrap());
/// assert!(check_request(Provider::Anthropic, &body).is_ok());
/// ```
pub fn check_request(provider: Provider, body: &Value) -> Result<(), ConvertError> {
    let mut total = Counts::default();
    let tools = request_tools(provider, body);
    for (i, (name, schema)) in tools.iter().enumerate() {
        let mut c = Counts::default();
        count(schema, &mut c, 0);
        add_counts(provider, &mut total, c, i, name)?;
    }
    let format = match provider {
        Provider::Anthropic => body.pointer("/output_config/format/schema"),
        _ => None,
    };
    if let Some(schema) = format {
        let mut c = Counts::default();
        count(schema, &mut c, 0);
        add_counts(provider, &mut total, c, 0, "")
            .map_err(|e| ConvertError::new("/output_config/format/schema", e.kind))?;
    }
    Ok(())
}
