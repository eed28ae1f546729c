//! A dialect as data: which keywords it keeps, which become description tags, its structural
//! rules and its limits ([`DialectRules`]). One file per target in `targets/` holds its table and
//! says where the rules come from; the converter passes read only these tables, never the
//! dialect's name.

use crate::Dialect;
use serde_json::Value;

/// What a target does with a keyword the converter cannot make it enforce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unknown {
    /// The request is refused (OpenAI, Anthropic, Gemini, llguidance).
    Error,
    /// The keyword is ignored with a warning (xgrammar).
    Warning,
    /// The keyword is ignored without a word (llama.cpp's converter).
    Ignored,
    /// Not a target: plain JSON Schema keeps everything.
    NotApplicable,
}

/// Which `minLength` / `maxLength` a target enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lengths {
    /// Every length is kept.
    Kept,
    /// Lengths up to this count are kept, larger ones tagged (a grammar repeats a rule that
    /// many times).
    KeptUpTo(u64),
    /// Kept unless the string also has a `pattern` or a `format` (xgrammar then drops the
    /// lengths: they are tagged).
    KeptWithoutPatternOrFormat,
    /// Lengths up to this count are kept, unless the string also has a `pattern` or a
    /// `format` (both rules at once: llama.cpp).
    KeptUpToWithoutPatternOrFormat(u64),
    /// Every length is tagged.
    Tagged,
}

/// Which `pattern`s a target enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Patterns {
    /// Every pattern is kept.
    Kept,
    /// Patterns without lookaround, backreferences or word boundaries are kept.
    SimpleOnly,
    /// Patterns kept by `SimpleOnly` that are also anchored at both ends (`^...$`) are kept:
    /// llama.cpp's converter turns only those into grammar rules, and for any other pattern it
    /// logs a line and lets the model write any string.
    AnchoredSimple,
    /// Every pattern is tagged.
    Tagged,
}

/// Which numeric bounds a target enforces, for one of `integer` / `number`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Bounds {
    /// `minimum`, `maximum`, the exclusive bounds and `multipleOf`.
    All,
    /// `minimum`, `maximum`, the exclusive bounds; `multipleOf` tagged.
    NoMultipleOf,
    /// `minimum` and `maximum` only.
    Plain,
    /// None: every bound tagged.
    None,
}

/// Which `minItems` a target enforces (`maxItems`: the `max_items` field of [`DialectRules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MinItems {
    /// Every value.
    Kept,
    /// Only 0 and 1; a larger value is kept as 1 and tagged (Anthropic).
    ZeroOrOne,
}

/// Where a target's union at the root (and a flattened tagged enum) ends up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RootUnion {
    /// Kept as it is (plain JSON Schema).
    Kept,
    /// A root union of tagged objects becomes one object with the tag as an `enum` (the
    /// provider APIs accept only an object at the root).
    OneObject,
    /// Kept as an `anyOf` of closed variant objects: a grammar then allows exactly one
    /// variant's properties. Only `#[schema(one_object)]` asks for the one-object form.
    AnyOf,
}

/// Provider limits checked on a converted schema (`None`: not checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Total object properties.
    pub properties: Option<usize>,
    /// Levels of object nesting (the root object is level 1).
    pub object_depth: Option<usize>,
    /// Total enum values.
    pub enum_values: Option<usize>,
    /// Total characters of property names, enum values and const values.
    pub chars: Option<usize>,
    /// Optional properties (Anthropic: per request).
    pub optional_properties: Option<usize>,
    /// Unions (`anyOf`) (Anthropic: per request).
    pub unions: Option<usize>,
}

impl Limits {
    /// No limit checked.
    pub const NONE: Limits = Limits {
        properties: None,
        object_depth: None,
        enum_values: None,
        chars: None,
        optional_properties: None,
        unions: None,
    };

    /// Whether any limit is checked.
    pub fn any(&self) -> bool {
        *self != Limits::NONE
    }
}

/// The rule table of one dialect: everything the converter needs to know about a target.
///
/// Read it with [`Dialect::rules`]; the README's dialect table is tested against these values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DialectRules {
    /// Where the rules come from (documentation, source file, tracker issue).
    pub source: &'static str,
    /// What the target does with a keyword it does not support.
    pub unknown_keywords: Unknown,
    /// The string `format`s the target enforces; other formats are tagged.
    pub formats: &'static [&'static str],
    /// `minLength` / `maxLength`.
    pub lengths: Lengths,
    /// `pattern`.
    pub patterns: Patterns,
    /// Whether a kept `pattern` may stay inside array items.
    pub patterns_in_items: bool,
    /// Bounds on integers.
    pub integer_bounds: Bounds,
    /// Bounds on numbers.
    pub number_bounds: Bounds,
    /// `minItems`.
    pub min_items: MinItems,
    /// Whether `maxItems` is kept.
    pub max_items: bool,
    /// Whether `const` is kept (else it becomes a one-value `enum`).
    pub const_kept: bool,
    /// Whether `patternProperties` is kept (else dropped and reported).
    pub pattern_properties: bool,
    /// Whether kept `patternProperties` must be ones llguidance compiles, else they are
    /// dropped (reported): simple patterns (those llguidance compiles as they are), several
    /// only when provably disjoint, and no `$ref` kept in the schemas of a named property and
    /// a pattern it may match (llguidance intersects those, and cannot while the `$ref`'s
    /// cycle is compiled).
    pub pattern_properties_compiled: bool,
    /// Whether tuples (`prefixItems`) can be expressed.
    pub tuples: bool,
    /// Whether the root must be an object.
    pub root_object: bool,
    /// What becomes of a union at the root.
    pub root_union: RootUnion,
    /// Whether every object is closed with `additionalProperties: false` (and a map is an error).
    pub closed_objects: bool,
    /// Whether every property is required (optional ones become nullable).
    pub all_required: bool,
    /// Whether every schema needs a `type` (no "any value"), and every array its `items`.
    pub typed_only: bool,
    /// Whether `$ref` recursion is allowed.
    pub recursion: bool,
    /// Whether a recursive type must reach itself through an optional property, an array or a
    /// union (Gemini).
    pub cycles_need_exit: bool,
    /// Whether shared non-recursive types may stay in `$defs` with
    /// [`DialectOptions::keep_defs`](crate::convert::DialectOptions::keep_defs).
    pub shared_defs: bool,
    /// Whether a kept `$ref` may carry a `description` / `title` (on a one-branch `anyOf`).
    pub ref_descriptions: bool,
    /// Whether objects get `propertyOrdering` (Gemini).
    pub property_ordering: bool,
    /// Limits checked on the converted schema.
    pub limits: Limits,
    /// The largest magnitude of a numeric bound the target compiles, if it has one: a bound
    /// beyond it is tagged (llguidance builds integer and number ranges as regular
    /// expressions in 64-bit arithmetic and fails beyond 2^62).
    pub bound_magnitude: Option<u64>,
    /// Whether shared non-recursive types stay in `$defs` where inlining them would make the
    /// output more than four times the input's size, even without
    /// [`DialectOptions::keep_defs`](crate::convert::DialectOptions::keep_defs): the engines
    /// that compile a `$ref` once (llguidance, xgrammar, llama.cpp, whose `shared_defs` is
    /// off), where inlining definitions that each use the next twice grows as `2^n`.
    pub keeps_defs: bool,
}

/// What to do with a constraint keyword in a dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    /// The dialect enforces it: keep it.
    Keep,
    /// The dialect cannot carry it: move it into `description` as `@keyword value`.
    Tag,
}

impl Action {
    fn from(keep: bool) -> Action {
        if keep {
            Action::Keep
        } else {
            Action::Tag
        }
    }
}

impl DialectRules {
    /// `minLength` / `maxLength` on a string that has a `pattern` or `format` (`constrained`).
    pub(crate) fn length(&self, value: &Value, constrained: bool) -> Action {
        Action::from(match self.lengths {
            Lengths::Kept => true,
            Lengths::KeptUpTo(max) => value.as_u64().is_some_and(|n| n <= max),
            Lengths::KeptWithoutPatternOrFormat => !constrained,
            Lengths::KeptUpToWithoutPatternOrFormat(max) => {
                !constrained && value.as_u64().is_some_and(|n| n <= max)
            }
            Lengths::Tagged => false,
        })
    }

    /// `pattern`, given whether it sits inside array items.
    pub(crate) fn pattern(&self, pattern: &str, in_items: bool) -> Action {
        if in_items && !self.patterns_in_items {
            return Action::Tag;
        }
        Action::from(match self.patterns {
            Patterns::Kept => true,
            Patterns::SimpleOnly => is_simple_pattern(pattern),
            Patterns::AnchoredSimple => is_anchored(pattern) && is_simple_pattern(pattern),
            Patterns::Tagged => false,
        })
    }

    /// A numeric keyword (`minimum`, `exclusiveMaximum`, `multipleOf`, ...) of value `v`.
    pub(crate) fn numeric(&self, keyword: &str, v: &serde_json::Value, integer: bool) -> Action {
        if let (Some(max), Some(x)) = (self.bound_magnitude, v.as_f64()) {
            if keyword != "multipleOf" && x.abs() > max as f64 {
                return Action::Tag;
            }
        }
        let bounds = if integer {
            self.integer_bounds
        } else {
            self.number_bounds
        };
        Action::from(match bounds {
            Bounds::All => true,
            Bounds::NoMultipleOf => keyword != "multipleOf",
            Bounds::Plain => matches!(keyword, "minimum" | "maximum"),
            Bounds::None => false,
        })
    }

    /// `minItems`.
    pub(crate) fn min_items(&self, n: Option<u64>) -> Action {
        Action::from(match self.min_items {
            MinItems::Kept => true,
            MinItems::ZeroOrOne => n.is_some_and(|n| n <= 1),
        })
    }

    /// `maxItems`.
    pub(crate) fn max_items(&self) -> Action {
        Action::from(self.max_items)
    }
}

/// The table of `d`.
pub(crate) fn rules(d: Dialect) -> &'static DialectRules {
    use super::targets::*;
    match d {
        Dialect::JsonSchema => &jsonschema::RULES,
        Dialect::OpenAi => &openai::RULES,
        Dialect::Anthropic => &anthropic::RULES,
        Dialect::Gemini => &gemini::RULES,
        Dialect::LmStudio | Dialect::LlamaCpp => &llamacpp::RULES,
        Dialect::Ollama => &ollama::RULES,
        Dialect::Llguidance => &llguidance::RULES,
        Dialect::Xgrammar => &xgrammar::RULES,
        Dialect::Vllm => &vllm::RULES,
    }
}

/// Formats that only describe a number's machine width (`format: "double"` on every `f64`
/// breaks llama.cpp grammars): dropped everywhere.
pub(crate) fn is_numeric_format(f: &str) -> bool {
    matches!(
        f,
        "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "float"
            | "double"
            | "decimal"
    )
}

/// Anthropic's "simple" patterns: no lookaround, no backreferences, no word boundaries.
pub(crate) fn is_simple_pattern(p: &str) -> bool {
    if ["(?=", "(?!", "(?<=", "(?<!", "\\k<"]
        .iter()
        .any(|s| p.contains(s))
    {
        return false;
    }
    let bytes = p.as_bytes();
    let mut i = 0;
    let mut class = false;
    // (groups open at `i`: an anchor beside `|` inside a group is not at the pattern's ends)
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                // word boundaries (`\<` and `\>` too: ECMA-262 identity escapes, word
                // boundaries in the engines' syntax) and backreferences
                let next = bytes.get(i + 1).copied().unwrap_or(b' ');
                if matches!(next, b'b' | b'B' | b'<' | b'>')
                    || next.is_ascii_digit() && next != b'0'
                {
                    return false;
                }
                i += 2;
                continue;
            }
            b'[' if !class => class = true,
            b']' if class => class = false,
            b'(' if !class => depth += 1,
            b')' if !class => depth = depth.saturating_sub(1),
            // an anchor inside the pattern (`/^a$/`, `(,|$){3}`): an assertion the engines do
            // not compile; at the ends of the pattern or of an alternative it is the usual
            // anchoring
            b'^' if !class => {
                let before = bytes[..i].iter().rev().find(|&&b| b != b'(');
                if !(before.is_none() || before == Some(&b'|') && depth == 0) {
                    return false;
                }
            }
            b'$' if !class => {
                let after = bytes[i + 1..].iter().find(|&&b| b != b')');
                if !(after.is_none() || after == Some(&b'|') && depth == 0) {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// The literal text every match of `p` starts with, if `p` is one alternative anchored at its
/// start (`^abc` gives `abc`, `^ab*` gives `a`), and whether that text is the whole match
/// (`^abc$`). `None` when no such text is known (`.*`, `a|b`, an empty literal).
pub(crate) fn anchored_literal(p: &str) -> Option<(String, bool)> {
    use schema_pattern::Node;
    let parsed = schema_pattern::parse(p).ok()?;
    let [terms] = parsed.alternatives.as_slice() else {
        return None;
    };
    let (first, rest) = terms.split_first()?;
    if first.node != Node::Start {
        return None;
    }
    let mut text = String::new();
    for (i, t) in rest.iter().enumerate() {
        match (&t.node, &t.quantifier) {
            (Node::Char(c), None) => match char::from_u32(*c) {
                Some(c) => text.push(c),
                None => break,
            },
            (Node::End, None) if i + 1 == rest.len() => {
                return (!text.is_empty()).then_some((text, true));
            }
            // (`ab*`: the `a` is certain, the `b` is not)
            _ => break,
        }
    }
    (!text.is_empty()).then_some((text, false))
}

/// `patternProperties` keys llguidance compiles together: each simple, and, when there are
/// several, their [`anchored_literal`]s sorted with none a prefix of the next (so no name
/// matches two: llguidance refuses patterns that are not disjoint). `None` when it cannot be
/// shown; else each key's literal start, in the keys' order.
pub(crate) fn disjoint_pattern_keys<'k>(
    keys: impl Iterator<Item = &'k str>,
) -> Option<Vec<Option<(String, bool)>>> {
    let mut literals = Vec::new();
    for k in keys {
        if !is_simple_pattern(k) {
            return None;
        }
        literals.push(anchored_literal(k));
    }
    if literals.len() > 1 {
        let mut sorted: Vec<&str> = Vec::with_capacity(literals.len());
        for l in &literals {
            sorted.push(l.as_ref()?.0.as_str());
        }
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[1].starts_with(w[0])) {
            return None;
        }
    }
    Some(literals)
}

/// Whether a property `name` may match a pattern whose literal start is `literal`
/// ([`anchored_literal`]): false only where that is certain.
pub(crate) fn may_match(name: &str, literal: Option<&(String, bool)>) -> bool {
    match literal {
        None => true,
        Some((text, true)) => name == text,
        Some((text, false)) => name.starts_with(text.as_str()),
    }
}

/// Whether a pattern starts with `^` and ends with an unescaped `$`.
pub(crate) fn is_anchored(p: &str) -> bool {
    let Some(body) = p.strip_prefix('^').and_then(|b| b.strip_suffix('$')) else {
        return false;
    };
    // `\\$` ends with an escaped backslash, `\$` with a literal dollar
    body.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchored_patterns() {
        assert!(is_anchored("^[a-z]+$"));
        assert!(is_anchored("^$"));
        assert!(is_anchored("^a\\\\$"));
        assert!(!is_anchored("^a\\$"));
        assert!(!is_anchored("^https?://[^/?#\\s]+"));
        assert!(!is_anchored("[a-z]+$"));
        assert!(!is_anchored("$"));
        assert!(!is_anchored(""));
    }

    #[test]
    fn simple_patterns() {
        assert!(is_simple_pattern("^[a-z]+\\d{2}$"));
        assert!(is_simple_pattern("a\\\\b"));
        assert!(!is_simple_pattern("^(?!x)"));
        assert!(!is_simple_pattern("\\bword"));
        assert!(!is_simple_pattern("(a)\\1"));
        assert!(!is_simple_pattern("^.+\\<.+@.+\\..+\\>$"));
        assert!(!is_simple_pattern("^([^,]+(,|$)){3,}$"));
        assert!(!is_simple_pattern("/^[0-9]{4}$/"));
        assert!(is_simple_pattern("^(a|b)(,|$)"));
        assert!(is_simple_pattern("^a$|^b$"));
        assert!(is_simple_pattern("^[^a$]+$"));
        assert!(is_simple_pattern("((^a))"));
        assert!(!is_simple_pattern(
            "^(\\/?((\\.{2})|([a-z0-9\\-]*))($|\\/))*$"
        ));
    }

    #[test]
    fn anchored_literals() {
        let lit = |p| anchored_literal(p);
        assert_eq!(lit("^x-"), Some(("x-".into(), false)));
        assert_eq!(lit("^MD5$"), Some(("MD5".into(), true)));
        assert_eq!(lit("^ab*"), Some(("a".into(), false)));
        assert_eq!(lit("^\\.x"), Some((".x".into(), false)));
        assert_eq!(lit("^[a-z]+$"), None);
        assert_eq!(lit("^a|^b"), None);
        assert_eq!(lit("github"), None);
        assert_eq!(lit(".*"), None);
        assert_eq!(lit("^(?!x)"), None);
    }

    #[test]
    fn disjoint_keys() {
        let keys = |k: &[&str]| disjoint_pattern_keys(k.iter().copied()).is_some();
        assert!(keys(&[".*"]));
        assert!(keys(&["^x-", "^y-", "^MD5$"]));
        assert!(!keys(&["^x-", "^x-a"]));
        assert!(!keys(&["a", "b"]));
        assert!(!keys(&[".*", "^MD5$"]));
        assert!(!keys(&["^(?!@@)[a-z]+$"]));
        assert!(!keys(&["^x", "^y", "^xy"]));
    }

    #[test]
    fn names_that_may_match() {
        let x = ("x-".to_string(), false);
        let md5 = ("MD5".to_string(), true);
        assert!(may_match("x-a", Some(&x)));
        assert!(!may_match("child", Some(&x)));
        assert!(may_match("MD5", Some(&md5)));
        assert!(!may_match("MD5x", Some(&md5)));
        assert!(may_match("anything", None));
    }

    #[test]
    fn every_dialect_has_a_sourced_table() {
        for d in Dialect::EVERY {
            let r = rules(d);
            assert!(!r.source.is_empty(), "{d}");
            assert!(!r.closed_objects || r.root_object, "{d}");
        }
        assert_eq!(rules(Dialect::LmStudio), rules(Dialect::LlamaCpp));
    }
}
