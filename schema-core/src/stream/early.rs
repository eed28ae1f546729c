//! Early stop: checks each part of the streaming value against the compiled validator schema
//! as soon as it is known, and reports the first violation that no continuation can repair.
//!
//! What each keyword means, and how its error reads, is asked of `validate/rules` (the
//! partial forms for a value still arriving: `max_length_so_far`, `max_items_so_far`,
//! `const_enum_so_far`, `tag_so_far`); this file decides when a rule can be judged: which node
//! a value is checked against as it starts, which keys an object has seen, and which complete
//! scalars need the checker's full verdict.

use super::partial::{Seg, ValueKind};
use crate::validate::check::{self, push_token};
use crate::validate::compile::{
    deref, Additional, Compiled, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use crate::validate::rules::{self, Broken, Objects};
use crate::validate::{ValidationError, ValidationErrors, Validator};
use crate::ParseError;
use serde_json::Value;
use std::sync::Arc;

/// The schema node a value is checked against.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// Not checked (no schema, or a union this checker does not decide).
    Free,
    /// Checked against this node.
    Node(NodeId),
    /// An object of a discriminated union whose tag has not been read yet.
    Union(NodeId),
    /// The tag value of an undecided union (the union node).
    Tag(NodeId),
    /// A property of an undecided union: invalid only if invalid for every variant that has it
    /// (an index into `Checker::multis`).
    Multi(usize),
    /// The value of a property the object does not have: `null` reads as absent (as in
    /// `from_json`), anything else is an error at its first byte.
    Banned,
}

/// Why [`Checker::key`] refuses a key.
pub(crate) enum Refusal {
    /// The object has the key already (the caller knows where it is, for the syntax error
    /// `from_llm` reports: [`crate::llm::duplicate_key`]).
    Twice,
    /// No continuation is valid.
    Invalid(ParseError),
}

impl From<ParseError> for Refusal {
    fn from(e: ParseError) -> Self {
        Refusal::Invalid(e)
    }
}

struct Frame {
    target: Target,
    kind: ValueKind,
    /// Keys seen, for objects of an undecided union (checked again once the tag decides), and
    /// for the required properties past the 64th.
    seen: Vec<String>,
    /// Of the keys in `seen` (the first 64) of an undecided union's object, those whose value
    /// is `null`.
    seen_null: u64,
    /// The keys of an object, to find one written twice: the first 64 of its node's properties
    /// as bits, the others by name (kept out of line: most objects have none).
    props: u64,
    others: Option<Box<Others>>,
    /// The required properties seen (bit `i` for `required[i]`), for objects.
    req: u64,
    /// The target of the value after the last key.
    child: Target,
    /// Items of an array so far.
    count: u64,
    /// For objects: the index in `properties` and in `required` just past the last key's (a
    /// reply writes its keys in the schema's order: the next key is tried there first).
    next_prop: usize,
    next_req: usize,
}

impl Frame {
    /// Notes the object's key `key`, its node's property `index` if it is one: whether it was
    /// seen before.
    #[inline(always)]
    fn twice(&mut self, index: Option<usize>, key: &str) -> bool {
        if let Some(i) = index.filter(|&i| i < 64) {
            let bit = 1u64 << i;
            let seen = self.props & bit != 0;
            self.props |= bit;
            return seen;
        }
        self.twice_by_name(key)
    }

    #[inline(never)]
    fn twice_by_name(&mut self, key: &str) -> bool {
        let o = self.others.get_or_insert_with(Box::default);
        if let Some(set) = o.set.as_mut() {
            return !set.insert(key.into());
        }
        if o.few.iter().any(|k| &**k == key) {
            return true;
        }
        o.few.push(key.into());
        if o.few.len() > 16 {
            o.set = Some(o.few.drain(..).collect());
        }
        false
    }

    /// Notes that `key`, the object's `required[i]`, was seen: a bit for the first 64 required
    /// properties, the name for the rest; the next key's place in `required` is tried after it.
    #[inline(always)]
    fn note_required(&mut self, i: usize, key: &str) {
        self.next_req = i + 1;
        if i < 64 {
            self.req |= 1 << i;
        } else {
            self.seen.push(key.to_string());
        }
    }
}

/// The keys of an object that are not among the first 64 of its node's properties: in a list
/// while they are few, then in a set.
#[derive(Default)]
struct Others {
    few: Vec<Box<str>>,
    set: Option<std::collections::HashSet<Box<str>>>,
}

/// The scalar being read (a scalar has no children: one at a time, kept out of the frames).
struct Scalar {
    target: Target,
    /// Characters of a string so far.
    chars: u64,
    /// The index of the `enum` value the string's text was last found to begin (tried first
    /// as it grows: `rules::const_enum_so_far`).
    hint: usize,
    /// Whether its end needs no check whatever the value (worked out at its start, from the
    /// node's [`static_needs`]): [`Checker::done`] then returns at once.
    quiet: bool,
}

pub(crate) struct Checker {
    validator: Arc<Validator>,
    /// The objects and arrays being read, outermost first.
    frames: Vec<Frame>,
    scalar: Option<Scalar>,
    multis: Vec<Vec<NodeId>>,
    /// [`resolve`](Checker::resolve)'s answers that depend on the node and the kind alone,
    /// at `node * KINDS + kind`: 0 not known yet, 1 [`Target::Free`], `n + 2`
    /// [`Target::Node`]`(n)`.
    memo: Vec<usize>,
    /// [`needs_check`]'s answers that depend on the node alone ([`static_needs`]), at the
    /// node's index: 0 not known yet.
    needs: Vec<u8>,
    /// For each node, the index in its `required` of each of its properties ([`NOT_REQUIRED`]
    /// if none, [`SEARCH`] if `required` names a property twice), built on first use.
    req_of: Vec<Vec<u32>>,
}

/// A property that `required` does not name (see `Checker::req_of`).
const NOT_REQUIRED: u32 = u32::MAX;
/// A property whose place in `required` is searched for (see `Checker::req_of`).
const SEARCH: u32 = u32::MAX - 1;

/// The index in `n.required` of each of `n`'s properties, as `Checker::req_of` keeps it.
fn required_of(n: &Node) -> Vec<u32> {
    let dup = n
        .required
        .iter()
        .enumerate()
        .any(|(i, r)| n.required[..i].contains(r));
    n.properties
        .iter()
        .map(|(k, _)| match n.required.iter().position(|r| r == k) {
            _ if dup => SEARCH,
            Some(i) => u32::try_from(i).unwrap_or(SEARCH).min(SEARCH),
            None => NOT_REQUIRED,
        })
        .collect()
}

/// The number of [`ValueKind`]s.
const KINDS: usize = 6;

fn bits(kind: ValueKind) -> u8 {
    match kind {
        ValueKind::Object => T_OBJ,
        ValueKind::Array => T_ARR,
        ValueKind::String => T_STR,
        ValueKind::Number => T_INT | T_NUM,
        ValueKind::Bool => T_BOOL,
        ValueKind::Null => T_NULL,
    }
}

fn kind_name(kind: ValueKind) -> &'static str {
    match kind {
        ValueKind::Object => "an object",
        ValueKind::Array => "an array",
        ValueKind::String => "a string",
        ValueKind::Number => "a number",
        ValueKind::Bool => "a boolean",
        ValueKind::Null => "null",
    }
}

pub(crate) fn pointer(path: &[Seg]) -> String {
    let mut out = String::new();
    write_pointer(&mut out, path);
    out
}

/// Appends the JSON pointer of `path` to `out`.
pub(crate) fn write_pointer(out: &mut String, path: &[Seg]) {
    use std::fmt::Write;
    for s in path {
        match s {
            Seg::Key(k) => push_token(out, k),
            Seg::Index(i) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
}

/// The keyword rule `b` failed at `path`; `found` says what was found there.
#[cold]
fn broken(path: &[Seg], b: &Broken<'_>, found: impl FnOnce() -> String) -> ParseError {
    invalid(pointer(path), b.keyword(), b.expected(), b.found(found))
}

fn invalid(path: String, keyword: &'static str, expected: String, found: String) -> ParseError {
    ParseError::Invalid {
        errors: ValidationErrors::from_vec(
            vec![ValidationError {
                path,
                keyword,
                expected,
                found,
            }],
            false,
        ),
        value: Value::Null,
    }
}

fn first(errors: ValidationErrors) -> Result<(), ParseError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ParseError::Invalid {
            errors,
            value: Value::Null,
        })
    }
}

/// Whether a complete scalar needs the full check at `n` (most values need none beyond what the
/// stream already checked: their type at the first byte, their length as they grew).
fn needs_check(n: &Node, raw: &str, string: Option<&str>) -> bool {
    if n.reference.is_some()
        || !n.any_of.is_empty()
        || !n.one_of.is_empty()
        || !n.all_of.is_empty()
        || n.not.is_some()
    {
        return true;
    }
    match string {
        Some(s) => {
            n.pattern.is_some()
                || n.format.is_some()
                || n.min_length.is_some()
                || !rules::string_in_const_enum(n, s)
        }
        None => {
            n.const_value.is_some()
                || n.enum_values.is_some()
                || n.minimum.is_some()
                || n.maximum.is_some()
                || n.exclusive_minimum.is_some()
                || n.exclusive_maximum.is_some()
                || n.multiple_of.is_some()
                || (n.types & T_NUM == 0 && raw.contains(['.', 'e', 'E']))
        }
    }
}

/// [`static_needs`] flags: known, any value needs the check, a string does, a string does
/// unless it is one of the `const` / `enum` values, any other value does, a number does if it
/// has a fraction or an exponent.
const NEEDS_KNOWN: u8 = 1;
const NEEDS_ALWAYS: u8 = 2;
const NEEDS_STR: u8 = 4;
const NEEDS_STR_ENUM: u8 = 8;
const NEEDS_OTHER: u8 = 16;
const NEEDS_INT: u8 = 32;

/// What [`needs_check`] asks of the node alone, as flags.
fn static_needs(n: &Node) -> u8 {
    let mut f = NEEDS_KNOWN;
    if n.reference.is_some()
        || !n.any_of.is_empty()
        || !n.one_of.is_empty()
        || !n.all_of.is_empty()
        || n.not.is_some()
    {
        f |= NEEDS_ALWAYS;
    }
    if n.pattern.is_some() || n.format.is_some() || n.min_length.is_some() {
        f |= NEEDS_STR;
    }
    if n.const_value.is_some() || n.enum_values.is_some() {
        f |= NEEDS_STR_ENUM | NEEDS_OTHER;
    }
    if n.minimum.is_some()
        || n.maximum.is_some()
        || n.exclusive_minimum.is_some()
        || n.exclusive_maximum.is_some()
        || n.multiple_of.is_some()
    {
        f |= NEEDS_OTHER;
    }
    if n.types & T_NUM == 0 {
        f |= NEEDS_INT;
    }
    f
}

/// [`needs_check`] at node `id`, with the node's own part worked out once (kept in `known`).
fn needs_check_known(
    known: &mut [u8],
    nodes: &[Node],
    id: NodeId,
    raw: &str,
    string: Option<&str>,
) -> bool {
    let (Some(slot), Some(n)) = (known.get_mut(id), nodes.get(id)) else {
        return true;
    };
    if *slot == 0 {
        *slot = static_needs(n);
    }
    let f = *slot;
    if f & NEEDS_ALWAYS != 0 {
        return true;
    }
    match string {
        Some(s) => {
            f & NEEDS_STR != 0
                || f & NEEDS_STR_ENUM != 0
                    && match (&n.const_value, &n.enum_values) {
                        (Some(c), _) => c.as_str() != Some(s),
                        (None, Some(e)) => !e.iter().any(|v| v.as_str() == Some(s)),
                        _ => false,
                    }
        }
        None => f & NEEDS_OTHER != 0 || (f & NEEDS_INT != 0 && raw.contains(['.', 'e', 'E'])),
    }
}

/// Runs the full check of a complete scalar at node `id`; the pointer is built only on error.
fn full_check(
    c: &Compiled,
    id: NodeId,
    raw: &str,
    string: Option<&str>,
    path: &[Seg],
) -> Result<(), ValidationErrors> {
    let value = match string {
        Some(s) => Value::String(s.to_string()),
        None => match serde_json::from_str(raw) {
            Ok(v) => v,
            Err(_) => return Ok(()),
        },
    };
    let errors = check::run_at(c, id, &value, "");
    if errors.is_empty() {
        return Ok(());
    }
    let base = pointer(path);
    let list = errors
        .iter()
        .map(|e| ValidationError {
            path: format!("{base}{}", e.path),
            ..e.clone()
        })
        .collect();
    Err(ValidationErrors::from_vec(list, errors.truncated()))
}

impl Checker {
    pub(crate) fn new(validator: Arc<Validator>) -> Checker {
        let memo = vec![0; validator.compiled().nodes.len() * KINDS];
        let needs = vec![0; validator.compiled().nodes.len()];
        Checker {
            validator,
            frames: Vec::new(),
            scalar: None,
            multis: Vec::new(),
            memo,
            needs,
            req_of: Vec::new(),
        }
    }

    /// Starts again on another value (what was learned of the schema is kept).
    pub(crate) fn reset(&mut self) {
        self.frames.clear();
        self.scalar = None;
        self.multis.clear();
    }

    fn compiled(&self) -> &Compiled {
        self.validator.compiled()
    }

    /// The node a value of `kind` is checked against, starting from `id`: unions are followed
    /// when only one branch can take the kind.
    #[inline]
    fn resolve(&mut self, id: NodeId, kind: ValueKind, path: &[Seg]) -> Result<Target, ParseError> {
        let slot = id * KINDS + kind as usize;
        match self.memo.get(slot) {
            Some(1) => Ok(Target::Free),
            Some(&n) if n > 1 => Ok(Target::Node(n - 2)),
            _ => self.resolve_memo(id, kind, path, slot),
        }
    }

    /// [`resolve`](Checker::resolve) of a node and kind not in the memo yet: worked out and
    /// kept.
    #[inline(never)]
    fn resolve_memo(
        &mut self,
        id: NodeId,
        kind: ValueKind,
        path: &[Seg],
        slot: usize,
    ) -> Result<Target, ParseError> {
        let target = self.resolve_new(id, kind, path)?;
        if let Some(m) = self.memo.get_mut(slot) {
            match target {
                Target::Free => *m = 1,
                Target::Node(n) => *m = n + 2,
                // A union's answer records candidates in `multis`: worked out each time.
                _ => {}
            }
        }
        Ok(target)
    }

    /// [`resolve`](Checker::resolve) without the memo.
    fn resolve_new(
        &mut self,
        id: NodeId,
        kind: ValueKind,
        path: &[Seg],
    ) -> Result<Target, ParseError> {
        let nodes = &self.validator.compiled().nodes;
        let mut id = deref(nodes, id);
        for _ in 0..64 {
            let n = &nodes[id];
            if let Err(b) = rules::falsy(n) {
                return Err(broken(path, &b, || kind_name(kind).into()));
            }
            // A map written as `{key, value}` entries and a tuple written as a positional
            // object (`#[schema(entries)]`, `DialectOptions::tuple_objects`) are read back by
            // `from_json` (`parse/reshape.rs`): not judged while streaming.
            let entries = kind == ValueKind::Array
                && n.types & T_OBJ != 0
                && n.required.is_empty()
                && (matches!(n.additional, Additional::Schema(_)) || !n.properties.is_empty());
            let positional =
                kind == ValueKind::Object && n.types & T_ARR != 0 && !n.prefix_items.is_empty();
            if entries || positional {
                return Ok(Target::Free);
            }
            if let Err(b) = rules::type_of(n, bits(kind)) {
                return Err(broken(path, &b, || kind_name(kind).into()));
            }
            if n.reference.is_some() || !n.all_of.is_empty() || n.not.is_some() {
                return Ok(Target::Free);
            }
            let branches = if n.any_of.is_empty() {
                &n.one_of
            } else {
                &n.any_of
            };
            if branches.is_empty() {
                return Ok(Target::Node(id));
            }
            if n.discriminator.is_some() && kind == ValueKind::Object {
                return Ok(Target::Union(id));
            }
            if !n.properties.is_empty() || n.types != 0 && kind == ValueKind::Object {
                return Ok(Target::Free);
            }
            let fitting: Vec<NodeId> = branches
                .iter()
                .map(|&b| deref(nodes, b))
                .filter(|&b| rules::type_admits(nodes[b].types, bits(kind)))
                .collect();
            match fitting.as_slice() {
                [] => {
                    return Err(invalid(
                        pointer(path),
                        if n.any_of.is_empty() {
                            "oneOf"
                        } else {
                            "anyOf"
                        },
                        check::describe(nodes, id),
                        kind_name(kind).into(),
                    ))
                }
                [one] => id = *one,
                _ if matches!(kind, ValueKind::Object | ValueKind::Array) => {
                    return Ok(Target::Free)
                }
                // A scalar is invalid only if every branch that takes its kind refuses it.
                _ => {
                    self.multis.push(fitting);
                    return Ok(Target::Multi(self.multis.len() - 1));
                }
            }
        }
        Ok(Target::Free)
    }

    /// A value starts; for a string, returns whether its text must be checked as it grows
    /// (a `maxLength`, an enum value or tag prefix).
    #[inline]
    pub(crate) fn begin(&mut self, path: &[Seg], kind: ValueKind) -> Result<bool, ParseError> {
        let target = match self.frames.last_mut() {
            None => Target::Node(self.validator.compiled().root),
            Some(parent) if parent.kind == ValueKind::Object => {
                let t = parent.child;
                if kind == ValueKind::Null && matches!(parent.target, Target::Union(_)) {
                    if let Some(i) = parent.seen.len().checked_sub(1).filter(|&i| i < 64) {
                        parent.seen_null |= 1 << i;
                    }
                }
                if t == Target::Banned {
                    if kind != ValueKind::Null {
                        let target = parent.target;
                        if matches!(target, Target::Union(_)) {
                            // Which error `from_json` reports depends on the tag: this key's
                            // once the tag comes (see `tag_done`), the missing tag's if it
                            // never does.
                            return self.begin_free(kind);
                        }
                        return Err(self.unknown(target, path));
                    }
                    return self.begin_free(kind);
                }
                if kind == ValueKind::Null {
                    // `from_json` reads a `null` optional property as absent.
                    if let (Target::Node(p), Some(Seg::Key(k))) = (parent.target, path.last()) {
                        if !rules::is_required(&self.compiled().nodes[p], k) {
                            return self.begin_free(kind);
                        }
                    }
                }
                t
            }
            Some(parent) => {
                let index = match path.last() {
                    Some(Seg::Index(i)) => *i,
                    _ => 0,
                };
                parent.count = index as u64 + 1;
                match parent.target {
                    Target::Node(p) => {
                        let n = &self.validator.compiled().nodes[p];
                        if let Some(max) = n.max_items {
                            if let Err(b) = rules::max_items_so_far(max, parent.count) {
                                let array = &path[..path.len().saturating_sub(1)];
                                return Err(broken(array, &b, String::new));
                            }
                        }
                        match rules::item_node(n, index) {
                            Some(c) => Target::Node(c),
                            None => Target::Free,
                        }
                    }
                    _ => Target::Free,
                }
            }
        };
        let target = match target {
            Target::Node(id) => self.resolve(id, kind, path)?,
            Target::Multi(m) => self.begin_multi(m, kind, path)?,
            Target::Tag(_) if kind != ValueKind::String => {
                return Err(invalid(
                    pointer(path),
                    "anyOf",
                    "a string tag".into(),
                    kind_name(kind).into(),
                ))
            }
            other => other,
        };
        let live = kind == ValueKind::String
            && match target {
                Target::Node(id) => {
                    let n = &self.compiled().nodes[id];
                    n.max_length.is_some() || n.const_value.is_some() || n.enum_values.is_some()
                }
                Target::Multi(_) | Target::Tag(_) => true,
                Target::Free | Target::Union(_) | Target::Banned => false,
            };
        if matches!(kind, ValueKind::Object | ValueKind::Array) {
            self.frames.push(Frame::new(target, kind));
        } else {
            let quiet = self.quiet_done(target, kind);
            self.scalar = Some(Scalar {
                target,
                chars: 0,
                hint: 0,
                quiet,
            });
        }
        Ok(live)
    }

    /// A value that is not checked.
    fn begin_free(&mut self, kind: ValueKind) -> Result<bool, ParseError> {
        if matches!(kind, ValueKind::Object | ValueKind::Array) {
            self.frames.push(Frame::new(Target::Free, kind));
        } else {
            self.scalar = Some(Scalar {
                target: Target::Free,
                chars: 0,
                hint: 0,
                quiet: true,
            });
        }
        Ok(false)
    }

    /// Whether a scalar of `kind` checked against `target` needs no check at its end,
    /// whatever it turns out to be: [`scalar_done`](Checker::scalar_done) would do nothing
    /// (no node, or a node whose [`static_needs`] rule out [`needs_check_known`] for the kind).
    #[inline]
    fn quiet_done(&mut self, target: Target, kind: ValueKind) -> bool {
        let Target::Node(id) = target else {
            return target == Target::Free;
        };
        let (Some(slot), Some(n)) = (
            self.needs.get_mut(id),
            self.validator.compiled().nodes.get(id),
        ) else {
            return false;
        };
        if *slot == 0 {
            *slot = static_needs(n);
        }
        let busy = match kind {
            ValueKind::String => NEEDS_ALWAYS | NEEDS_STR | NEEDS_STR_ENUM,
            _ => NEEDS_ALWAYS | NEEDS_OTHER | NEEDS_INT,
        };
        *slot & busy == 0
    }

    /// The target of a value that starts where several union branches' properties may be
    /// (out of line: rare).
    #[inline(never)]
    fn begin_multi(
        &mut self,
        m: usize,
        kind: ValueKind,
        path: &[Seg],
    ) -> Result<Target, ParseError> {
        let mut fits = Vec::new();
        let mut first_err = None;
        let mut free = false;
        for id in self.multis[m].clone() {
            match self.resolve(id, kind, path) {
                Ok(Target::Node(n)) => fits.push(n),
                Ok(Target::Multi(k)) => fits.extend(self.multis[k].clone()),
                Ok(_) => free = true,
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
        if fits.is_empty() && !free {
            if let Some(e) = first_err {
                return Err(e);
            }
        }
        let scalar = !matches!(kind, ValueKind::Object | ValueKind::Array);
        if free || !scalar || fits.is_empty() {
            Ok(Target::Free)
        } else {
            self.multis.push(fits);
            Ok(Target::Multi(self.multis.len() - 1))
        }
    }

    pub(crate) fn text(
        &mut self,
        path: &[Seg],
        frag: &str,
        so_far: &str,
    ) -> Result<(), ParseError> {
        let Some(frame) = self.scalar.as_mut() else {
            return Ok(());
        };
        let nodes = &self.validator.compiled().nodes;
        match frame.target {
            Target::Node(id) => {
                let n = &nodes[id];
                if let Some(max) = n.max_length {
                    frame.chars += frag.chars().count() as u64;
                    if let Err(b) = rules::max_length_so_far(max, frame.chars) {
                        return Err(broken(path, &b, String::new));
                    }
                }
                if let Err(b) = rules::const_enum_so_far(n, so_far, &mut frame.hint) {
                    return Err(broken(path, &b, || format!("{so_far:?}…")));
                }
            }
            Target::Multi(m) => {
                let cands = &self.multis[m];
                frame.chars += frag.chars().count() as u64;
                let maxes: Option<Vec<u64>> = cands.iter().map(|&c| nodes[c].max_length).collect();
                if let Some(max) = maxes.and_then(|m| m.into_iter().max()) {
                    if let Err(b) = rules::max_length_so_far(max, frame.chars) {
                        return Err(broken(path, &b, String::new));
                    }
                }
                let may_become = |c: NodeId| rules::const_enum_so_far(&nodes[c], so_far, &mut 0);
                if !cands.iter().any(|&c| may_become(c).is_ok()) {
                    return Err(invalid(
                        pointer(path),
                        "enum",
                        "an allowed value".into(),
                        format!("{so_far:?}…"),
                    ));
                }
            }
            Target::Tag(u) => {
                if let Some(d) = &nodes[u].discriminator {
                    let one_of = nodes[u].any_of.is_empty();
                    if let Err(b) = rules::tag_so_far(d, one_of, so_far) {
                        return Err(broken(path, &b, || format!("{so_far:?}…")));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A property name is complete (in the innermost object being read).
    #[inline]
    pub(crate) fn key(&mut self, key: &str) -> Result<(), Refusal> {
        // The common case: the key the schema has next, whose place in `required` the node's
        // table has (built by `key_any` at the node's first key).
        if let Some(frame) = self.frames.last_mut() {
            if let Target::Node(id) = frame.target {
                let nodes = &self.validator.compiled().nodes;
                let at = frame.next_prop;
                let next = nodes.get(id).and_then(|n| n.properties.get(at));
                let r = self.req_of.get(id).and_then(|t| t.get(at)).copied();
                if let (Some((k, c)), Some(r)) = (next, r) {
                    if r != SEARCH && same_key(k, key) {
                        if frame.twice(Some(at), key) {
                            return Err(Refusal::Twice);
                        }
                        frame.next_prop += 1;
                        if r != NOT_REQUIRED {
                            frame.note_required(r as usize, key);
                        }
                        frame.child = Target::Node(*c);
                        return Ok(());
                    }
                }
            }
        }
        self.key_any(key)
    }

    /// [`key`](Checker::key) past its common case.
    #[inline(never)]
    fn key_any(&mut self, key: &str) -> Result<(), Refusal> {
        let nodes = &self.validator.compiled().nodes;
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        let index = match frame.target {
            Target::Node(id) => nodes[id].properties.iter().position(|(k, _)| k == key),
            _ => None,
        };
        let twice = match frame.target {
            // Checked against `seen`, which holds them until the tag decides.
            Target::Union(_) => frame.seen.iter().any(|k| k == key),
            _ => frame.twice(index, key),
        };
        if twice {
            return Err(Refusal::Twice);
        }
        let mut union = false;
        frame.child = match frame.target {
            Target::Node(id) => 'node: {
                let n = &nodes[id];
                // The key the schema has next (a reply writes its keys in the schema's order):
                // its place in `required` is looked up, not searched for.
                if let Some((k, c)) = n.properties.get(frame.next_prop) {
                    if k == key {
                        if self.req_of.len() <= id {
                            self.req_of.resize_with(nodes.len().max(id + 1), Vec::new);
                        }
                        let table = &mut self.req_of[id];
                        if table.is_empty() {
                            *table = required_of(n);
                        }
                        let r = table.get(frame.next_prop).copied().unwrap_or(SEARCH);
                        if r != SEARCH {
                            frame.next_prop += 1;
                            if r != NOT_REQUIRED {
                                frame.note_required(r as usize, key);
                            }
                            break 'node Target::Node(*c);
                        }
                    }
                }
                let req = match n.required.get(frame.next_req) {
                    Some(r) if r == key => Some(frame.next_req),
                    _ => n.required.iter().position(|r| r == key),
                };
                if let Some(i) = req {
                    frame.note_required(i, key);
                }
                let prop = match n.properties.get(frame.next_prop) {
                    Some((k, c)) if k == key => {
                        frame.next_prop += 1;
                        Some(*c)
                    }
                    _ => rules::property(n, key),
                };
                match prop {
                    Some(c) => Target::Node(c),
                    None if n
                        .pattern_properties
                        .iter()
                        .any(|(re, _)| re.matches(key) != Ok(false)) =>
                    {
                        Target::Free
                    }
                    // A forbidden property's error waits for its value (a `null` reads as
                    // absent): [`Checker::unknown`].
                    None => match rules::additional(n, key) {
                        Err(_) => Target::Banned,
                        Ok(Some(c)) => Target::Node(c),
                        Ok(None) => Target::Free,
                    },
                }
            }
            Target::Union(u) => {
                union = true;
                let n = &nodes[u];
                let d = n.discriminator.as_ref();
                if d.is_some_and(|d| d.property == key) {
                    Target::Tag(u)
                } else {
                    let branches = d.map(|d| d.branches.as_slice()).unwrap_or(&[]);
                    let fits = branches.iter().any(|(_, b)| {
                        let b = &nodes[deref(nodes, *b)];
                        b.property(key).is_some()
                            || !matches!(b.additional, Additional::Forbidden)
                            || !b.pattern_properties.is_empty()
                    });
                    if !fits {
                        frame.seen.push(key.to_string());
                        frame.child = Target::Banned;
                        return Ok(());
                    }
                    let mut cands = Vec::new();
                    let mut open = false;
                    for (_, b) in branches {
                        let b = &nodes[deref(nodes, *b)];
                        match (b.property(key), &b.additional) {
                            (Some(c), _) => cands.push(c),
                            (None, Additional::Forbidden) if b.pattern_properties.is_empty() => {}
                            _ => open = true,
                        }
                    }
                    if open || cands.is_empty() {
                        Target::Free
                    } else {
                        self.multis.push(cands);
                        Target::Multi(self.multis.len() - 1)
                    }
                }
            }
            _ => Target::Free,
        };
        if union {
            frame.seen.push(key.to_string());
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn done(
        &mut self,
        path: &[Seg],
        raw: &str,
        string: Option<&str>,
    ) -> Result<(), ParseError> {
        if let Some(s) = self.scalar.take() {
            if s.quiet {
                return Ok(());
            }
            return self.scalar_done(s.target, path, raw, string);
        }
        // An object or an array.
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        let nodes = &self.validator.compiled().nodes;
        match (frame.target, frame.kind) {
            (Target::Node(id), ValueKind::Object) => {
                let n = &nodes[id];
                let mut missing = rules::missing_required(nodes, n, |i, r| {
                    if i < 64 {
                        frame.req & (1 << i) != 0
                    } else {
                        frame.seen.iter().any(|k| k == r)
                    }
                });
                if let Some((name, b)) = missing.next() {
                    let mut p = pointer(path);
                    push_token(&mut p, name);
                    return Err(invalid(p, b.keyword(), b.expected(), b.found(String::new)));
                }
            }
            (Target::Union(u), ValueKind::Object) => {
                if let Some(d) = &nodes[u].discriminator {
                    // The object ended before its tag.
                    if let Err(b) = rules::tag_required(d, false) {
                        let mut p = pointer(path);
                        push_token(&mut p, &d.property);
                        return Err(invalid(p, b.keyword(), b.expected(), b.found(String::new)));
                    }
                }
            }
            (Target::Node(id), ValueKind::Array) => {
                if let Err(b) = rules::min_items(&nodes[id], frame.count) {
                    return Err(broken(path, &b, String::new));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A scalar is complete: its tag decides its union, or its full check runs if its node
    /// needs one.
    fn scalar_done(
        &mut self,
        target: Target,
        path: &[Seg],
        raw: &str,
        string: Option<&str>,
    ) -> Result<(), ParseError> {
        if let Target::Tag(u) = target {
            return self.tag_done(u, path, string);
        }
        let c = self.validator.compiled();
        let nodes = &c.nodes;
        match target {
            Target::Multi(m) => {
                let mut first_err = None;
                for &id in &self.multis[m] {
                    if !needs_check(&nodes[id], raw, string) {
                        return Ok(());
                    }
                    match full_check(c, id, raw, string, path) {
                        Ok(()) => return Ok(()),
                        Err(e) => {
                            first_err.get_or_insert(e);
                        }
                    }
                }
                if let Some(errors) = first_err {
                    first(errors)?;
                }
            }
            Target::Node(id) if needs_check_known(&mut self.needs, nodes, id, raw, string) => {
                if let Err(errors) = full_check(c, id, raw, string, path) {
                    first(errors)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A union's tag is complete: the object is checked against the variant it names from
    /// now on, and the keys read before the tag are checked against it.
    fn tag_done(
        &mut self,
        u: NodeId,
        path: &[Seg],
        string: Option<&str>,
    ) -> Result<(), ParseError> {
        let validator = self.validator.clone();
        let nodes = &validator.compiled().nodes;
        let Some(tag) = string else { return Ok(()) };
        let Some(d) = &nodes[u].discriminator else {
            return Ok(());
        };
        let one_of = nodes[u].any_of.is_empty();
        let branch = match rules::tag_branch(d, one_of, Some(tag)) {
            Ok(b) => b,
            Err(b) => return Err(broken(path, &b, || format!("{tag:?}"))),
        };
        let obj_path = &path[..path.len().saturating_sub(1)];
        let target = self.resolve(branch, ValueKind::Object, obj_path)?;
        if let Some(parent) = self.frames.last_mut() {
            parent.target = target;
            let seen = std::mem::take(&mut parent.seen);
            let nulls = std::mem::take(&mut parent.seen_null);
            // Keys read before the tag are checked against the variant now: one it does not
            // have is an error unless its value was `null`.
            for (i, k) in seen.iter().enumerate() {
                match self.key(k) {
                    Ok(()) => {}
                    Err(Refusal::Invalid(e)) => return Err(e),
                    // Each was checked against the others as it came.
                    Err(Refusal::Twice) => {}
                }
                let banned = self
                    .frames
                    .last()
                    .is_some_and(|f| f.child == Target::Banned);
                if banned && (i >= 64 || nulls & (1 << i) == 0) {
                    let mut key_path = obj_path.to_vec();
                    key_path.push(Seg::Key(k.clone()));
                    return Err(self.unknown(target, &key_path));
                }
            }
        }
        Ok(())
    }

    /// The error for a value of the property at the end of `path`, which an object checked
    /// against `target` does not have.
    #[cold]
    fn unknown(&self, target: Target, path: &[Seg]) -> ParseError {
        let nodes = &self.validator.compiled().nodes;
        let objects = match target {
            Target::Node(id) => Objects::One(&nodes[id]),
            Target::Union(u) => {
                let d = nodes[u].discriminator.as_ref();
                Objects::Branches(nodes, d.map_or(&[], |d| &d.branches))
            }
            // Only an object's or a union's target refuses a property.
            _ => Objects::Branches(nodes, &[]),
        };
        let key = match path.last() {
            Some(Seg::Key(k)) => k.as_str(),
            _ => "",
        };
        let b = Broken::Additional { key, objects };
        broken(path, &b, || "a value".into())
    }
}

impl Frame {
    fn new(target: Target, kind: ValueKind) -> Frame {
        Frame {
            target,
            kind,
            seen: Vec::new(),
            seen_null: 0,
            props: 0,
            others: None,
            req: 0,
            child: Target::Free,
            count: 0,
            next_prop: 0,
            next_req: 0,
        }
    }
}

/// `a == b` for property names, without a call for the short ones (the common case of
/// [`Checker::key`], once per key): two overlapping words a side.
#[inline(always)]
fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word8 = |s: &[u8], at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    };
    let word4 = |s: &[u8], at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    };
    match n {
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        4..=7 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::same_key;

    #[test]
    fn same_key_is_string_equality() {
        // Every length up to 20, equal and differing at each byte (and in length).
        for n in 0..20usize {
            let a: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            assert!(same_key(&a, &a.clone()), "{a}");
            for at in 0..n {
                let mut b = a.clone().into_bytes();
                b[at] = b'#';
                let b = String::from_utf8(b).unwrap();
                assert!(!same_key(&a, &b), "{a} {b}");
            }
            assert!(!same_key(&a, &format!("{a}x")));
            assert!(!same_key(&format!("x{a}"), &a));
        }
        assert!(same_key("é", "é"));
        assert!(!same_key("éa", "ée"));
    }
}
