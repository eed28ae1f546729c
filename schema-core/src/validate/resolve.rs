//! References: RFC 3986 URI resolution, the index of schema resources (`$id`, `$anchor`,
//! `$dynamicAnchor`, draft 4-7 `id` / `$id: "#name"`), JSON pointers in fragments, and the
//! meta-schemas of every supported draft, embedded so no reference ever needs the network.

use crate::keyed::Keyed;
use serde_json::Value;
use std::sync::OnceLock;

/// The base URI of a schema without `$id` (hierarchical, so relative references resolve).
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// A JSON Schema draft: selects which keywords exist and how some of them behave. A schema's
/// `$schema` selects it; [`ValidatorBuilder::default_draft`](super::ValidatorBuilder::default_draft)
/// sets it for schemas without one (2020-12 unless set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    /// Draft 4 (`id`, boolean `exclusiveMinimum`/`exclusiveMaximum`).
    Draft4,
    /// Draft 6 (`const`, `contains`, `propertyNames`).
    Draft6,
    /// Draft 7 (`if`/`then`/`else`).
    Draft7,
    /// Draft 2019-09 (`$anchor`, `$recursiveRef`, `unevaluated*`, `dependentSchemas`, ...).
    Draft2019_09,
    /// Draft 2020-12 (`prefixItems`, `$dynamicRef`): the default.
    Draft2020_12,
}

impl Draft {
    /// The draft a `$schema` URI names, if it is one of the official meta-schemas.
    pub(crate) fn from_uri(uri: &str) -> Option<Draft> {
        let u = uri.trim_end_matches('#');
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))?;
        Some(match u {
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft2019_09,
            // `v1` is the suite's name for the next release, a superset of 2020-12.
            "json-schema.org/draft/2020-12/schema"
            | "json-schema.org/schema"
            | "json-schema.org/v1" => Draft::Draft2020_12,
            _ => return None,
        })
    }
}

/// The parts of a URI reference (RFC 3986 appendix B).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (rest, fragment) = match s.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (s, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let mut scheme = None;
    let mut rest = rest;
    if let Some(i) = rest.find(':') {
        let cand = &rest[..i];
        let mut b = cand.bytes();
        if b.next().is_some_and(|c| c.is_ascii_alphabetic())
            && b.all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.')
        {
            scheme = Some(cand);
            rest = &rest[i + 1..];
        }
    }
    let mut authority = None;
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        authority = Some(&after[..end]);
        rest = &after[end..];
    }
    Parts {
        scheme,
        authority,
        path: rest,
        query,
        fragment,
    }
}

fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segs: Vec<&str> = path.split('/').collect();
    let n = segs.len();
    for (i, seg) in segs.iter().enumerate() {
        let last = i + 1 == n;
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > usize::from(absolute) {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    let joined = out.join("/");
    if absolute && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Resolves `reference` against `base` (RFC 3986 §5.2.2).
pub(crate) fn join(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                let merged = if r.path.starts_with('/') {
                    r.path.to_string()
                } else if b.authority.is_some() && b.path.is_empty() {
                    format!("/{}", r.path)
                } else {
                    match b.path.rfind('/') {
                        Some(i) => format!("{}{}", &b.path[..=i], r.path),
                        None => r.path.to_string(),
                    }
                };
                path = remove_dot_segments(&merged);
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment.filter(|f| !f.is_empty()) {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Splits an absolute URI into the resource (no fragment) and the fragment (may be empty).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.split_once('#') {
        Some((a, f)) => (a, f),
        None => (uri, ""),
    }
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Follows a JSON pointer fragment (percent-encoded, `~0`/`~1` escaped) inside `doc`.
pub(crate) fn pointer<'a>(doc: &'a Value, fragment: &str) -> Option<&'a Value> {
    let decoded = percent_decode(fragment);
    if decoded.is_empty() {
        return Some(doc);
    }
    let rest = decoded.strip_prefix('/')?;
    let mut cur = doc;
    for token in rest.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        cur = match cur {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => {
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                a.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

const META: &[(&str, &str)] = &[
    (
        "http://json-schema.org/draft-04/schema",
        include_str!("meta/draft4.json"),
    ),
    (
        "http://json-schema.org/draft-06/schema",
        include_str!("meta/draft6.json"),
    ),
    (
        "http://json-schema.org/draft-07/schema",
        include_str!("meta/draft7.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/schema",
        include_str!("meta/draft2019-09/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/core",
        include_str!("meta/draft2019-09/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/applicator",
        include_str!("meta/draft2019-09/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/validation",
        include_str!("meta/draft2019-09/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        include_str!("meta/draft2019-09/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/format",
        include_str!("meta/draft2019-09/meta/format.json"),
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/content",
        include_str!("meta/draft2019-09/meta/content.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/schema",
        include_str!("meta/draft2020-12/schema.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("meta/draft2020-12/meta/core.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("meta/draft2020-12/meta/applicator.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("meta/draft2020-12/meta/unevaluated.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("meta/draft2020-12/meta/validation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("meta/draft2020-12/meta/meta-data.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("meta/draft2020-12/meta/format-annotation.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("meta/draft2020-12/meta/format-assertion.json"),
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("meta/draft2020-12/meta/content.json"),
    ),
];

/// An embedded meta-schema by its URI (no fragment), parsed once per process.
pub(crate) fn meta_schema(uri: &str) -> Option<(&'static str, &'static Value)> {
    static PARSED: OnceLock<Vec<Value>> = OnceLock::new();
    let i = META.iter().position(|(u, _)| *u == uri)?;
    let all = PARSED.get_or_init(|| {
        META.iter()
            .map(|(_, text)| serde_json::from_str(text).unwrap_or(Value::Bool(false)))
            .collect()
    });
    Some((META[i].0, &all[i]))
}

/// Where a subschema sits: its base URI and its draft.
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub base: String,
    pub draft: Draft,
    /// The vocabulary keywords of validation apply (false under a custom meta-schema without
    /// the validation vocabulary).
    pub validation: bool,
    /// A custom meta-schema enables the format-assertion vocabulary.
    pub format_assertion: bool,
}

/// What a custom meta-schema says about the schemas that name it.
pub(crate) struct Vocab {
    pub draft: Draft,
    pub validation: bool,
    pub format_assertion: bool,
}

/// Every schema resource and anchor reachable in the known documents.
#[derive(Default)]
pub(crate) struct Index<'a> {
    /// Resource URI (no fragment) -> its root schema.
    pub resources: Keyed<String, &'a Value>,
    /// `uri#name` -> the schema that declares the anchor.
    pub anchors: Keyed<String, &'a Value>,
    /// Resource URI -> its `$dynamicAnchor` names.
    pub dynamic_anchors: Keyed<String, Vec<String>>,
    /// Address of every indexed subschema -> its place.
    pub places: Keyed<*const Value, Place>,
    /// Documents whose subschemas were walked (by root address).
    walked: Keyed<*const Value, ()>,
}

/// Deeper than the compiler follows (it stops at 256 levels).
const MAX_WALK_DEPTH: usize = 300;

/// Keywords whose value is one schema.
const SINGLE: &[&str] = &[
    "additionalItems",
    "additionalProperties",
    "contains",
    "not",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
/// Keywords whose value is an array of schemas.
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value is an object of schemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

impl<'a> Index<'a> {
    /// Indexes the document `doc` retrieved from `uri`, with `draft` unless it says otherwise.
    pub(crate) fn add_document(
        &mut self,
        uri: &str,
        doc: &'a Value,
        draft: Draft,
        vocab: &dyn Fn(&str) -> Option<Vocab>,
    ) {
        if self.walked.insert(doc as *const Value, ()).is_some() {
            return;
        }
        let (uri, _) = split_fragment(uri);
        self.resources.get_or_insert_with(uri.to_string(), || doc);
        let place = Place {
            base: uri.to_string(),
            draft,
            validation: true,
            format_assertion: false,
        };
        self.walk(doc, place, true, vocab, 0);
    }

    fn walk(
        &mut self,
        v: &'a Value,
        mut place: Place,
        root: bool,
        vocab: &dyn Fn(&str) -> Option<Vocab>,
        depth: usize,
    ) {
        if depth > MAX_WALK_DEPTH {
            // The compiler reports nesting this deep as an error.
            return;
        }
        let Value::Object(m) = v else {
            self.places.insert(v as *const Value, place);
            return;
        };
        if let Some(s) = m.get("$schema").and_then(Value::as_str) {
            let may_switch = root || m.contains_key(id_key(place.draft)) || m.contains_key("$id");
            if may_switch {
                if let Some(d) = Draft::from_uri(s) {
                    place.draft = d;
                    place.validation = true;
                    place.format_assertion = false;
                } else if let Some(v) = vocab(s) {
                    place.draft = v.draft;
                    place.validation = v.validation;
                    place.format_assertion = v.format_assertion;
                }
            }
        }
        let draft = place.draft;
        let has_ref = m.contains_key("$ref");
        let legacy_ref = draft <= Draft::Draft7 && has_ref;
        if !legacy_ref {
            if let Some(id) = m.get(id_key(draft)).and_then(Value::as_str) {
                if let Some(name) = id.strip_prefix('#') {
                    if draft <= Draft::Draft7 && !name.is_empty() {
                        self.anchors.insert(format!("{}#{name}", place.base), v);
                    }
                } else {
                    let resolved = join(&place.base, id);
                    let (res, frag) = split_fragment(&resolved);
                    place.base = res.to_string();
                    self.resources.get_or_insert_with(res.to_string(), || v);
                    if draft <= Draft::Draft7 && !frag.is_empty() && !frag.starts_with('/') {
                        self.anchors.insert(resolved.clone(), v);
                    }
                }
            }
        }
        if draft >= Draft::Draft2019_09 {
            if let Some(a) = m.get("$anchor").and_then(Value::as_str) {
                self.anchors.insert(format!("{}#{a}", place.base), v);
            }
        }
        if draft >= Draft::Draft2020_12 {
            if let Some(a) = m.get("$dynamicAnchor").and_then(Value::as_str) {
                self.anchors
                    .get_or_insert_with(format!("{}#{a}", place.base), || v);
                self.dynamic_anchors
                    .get_or_insert_with(place.base.clone(), Vec::new)
                    .push(a.to_string());
            }
        }
        self.places.insert(v as *const Value, place.clone());
        if legacy_ref {
            // Draft 4-7: keywords beside `$ref` are ignored, but `definitions` can still be
            // reached by a JSON pointer.
            if let Some(Value::Object(defs)) = m.get("definitions") {
                for s in defs.values() {
                    self.walk(s, place.clone(), false, vocab, depth + 1);
                }
            }
            return;
        }
        for (k, s) in m {
            let k = k.as_str();
            if SINGLE.contains(&k) {
                self.walk(s, place.clone(), false, vocab, depth + 1);
            } else if LIST.contains(&k) {
                if let Value::Array(a) = s {
                    for x in a {
                        self.walk(x, place.clone(), false, vocab, depth + 1);
                    }
                }
            } else if MAP.contains(&k) {
                if let Value::Object(o) = s {
                    for x in o.values() {
                        if x.is_object() || x.is_boolean() {
                            self.walk(x, place.clone(), false, vocab, depth + 1);
                        }
                    }
                }
            } else if k == "items" {
                match s {
                    Value::Array(a) => {
                        for x in a {
                            self.walk(x, place.clone(), false, vocab, depth + 1);
                        }
                    }
                    _ => self.walk(s, place.clone(), false, vocab, depth + 1),
                }
            }
        }
    }
}

/// The identifier keyword of a draft.
pub(crate) fn id_key(draft: Draft) -> &'static str {
    if draft == Draft::Draft4 {
        "id"
    } else {
        "$id"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
        ] {
            assert_eq!(join(base, r), want, "{r}");
        }
        assert_eq!(
            join("urn:uuid:deadbeef-1234", "#/$defs/a"),
            "urn:uuid:deadbeef-1234#/$defs/a"
        );
        assert_eq!(join(DEFAULT_BASE, "foo.json"), "json-schema:///foo.json");
    }

    #[test]
    fn pointers() {
        let doc = serde_json::json!({"a/b": {"c~d": [1, {"e%f": 2}]}});
        assert_eq!(
            pointer(&doc, "/a~1b/c~0d/1/e%25f"),
            Some(&serde_json::json!(2))
        );
        assert_eq!(pointer(&doc, "/a~1b/c~0d/01"), None);
    }
}
