//! The walk over the model: the input normalized (`schema::normalize`),
//! written back as one canonical JSON (`schema::lower`), and that JSON walked, every pointer of
//! an error or a change mapped back to the input through the lowering's side table, and the
//! rewrites the normalizer and the lowering did themselves (`$ref` inlined, `allOf` merged,
//! type array split, `oneOf` read as `anyOf`, keywords copied into a union's branches) reported
//! where the walk over the input would report them, when the walk reaches the schema they were done in.

use super::*;
use crate::convert::schema::{
    lower, normalize, Lowered, NO_VALUE, OBJECT_ONLY, TOO_MANY_COPIES, UNMERGED_PARTS,
};

/// A rewrite the normalizer or the lowering did: the input pointer the walk reports it at,
/// and what it was.
type Rewrite = (String, ChangeKind);

/// What the walk of a lowered document needs to name places of the input.
pub(crate) struct FromModel<'l> {
    /// The input.
    input: &'l Value,
    /// Lowered schema pointer -> the input pointer it was read from.
    origins: HashMap<&'l str, &'l str>,
    /// Lowered schema pointer -> the rewrites done in it (where the input reports each, and
    /// what), and how many of them come before the schema's annotations are dropped (a
    /// `$ref` inlined with its siblings, which the walk reports before it walks the target).
    rewrites: HashMap<String, (Vec<Rewrite>, usize)>,
    /// Lowered schema pointer of a merged schema -> keyword -> the input pointer of the schema
    /// that wrote the keyword (an `allOf` part, a `$ref`'s target or the `$ref` itself).
    keywords: HashMap<String, HashMap<String, String>>,
    /// See [`FromModel::ref_made`].
    refs_made: HashSet<String>,
    /// See [`FromModel::left_out`].
    left_out: HashMap<String, LeftOut>,
}

/// Keywords of the input the model left out of one lowered schema, having no effect there.
#[derive(Default)]
pub(super) struct LeftOut {
    /// The input pointer of a `$ref`'s target the walk over the input merged the `$ref`'s
    /// siblings with (as an `allOf`), where the lowered schema is the `$ref` alone.
    pub merged_at: Option<String>,
    /// Each keyword left out: where the input writes it, and its name.
    pub drops: Vec<(String, String)>,
}

impl<'l> FromModel<'l> {
    /// The input pointer of the lowered pointer `p`: the side table's entry for the longest
    /// prefix of `p` that is a lowered schema, the rest of `p` kept.
    pub(super) fn input(&self, p: &str) -> String {
        let mut cut = p.len();
        loop {
            if let Some(at) = self.origins.get(&p[..cut]) {
                return format!("{at}{}", &p[cut..]);
            }
            match p[..cut].rfind('/') {
                Some(i) => cut = i,
                None => return p.to_string(),
            }
        }
    }

    /// The input pointer a change found at the lowered pointer `at` is reported at: a merged
    /// schema's keyword where it was written, anything else where its schema was read from.
    pub(super) fn input_of_change(&self, at: &str, kind: &ChangeKind) -> String {
        if let ChangeKind::MovedToDescription { keyword } | ChangeKind::Dropped { keyword } = kind {
            if let Some(from) = self.keywords.get(at).and_then(|k| k.get(keyword)) {
                return from.clone();
            }
        }
        self.input(at)
    }

    /// The input pointer `p` of an error cut to the place of the input it is in: a schema the
    /// lowering moved (merged into another, copied into a union's branches) can name a place
    /// below its new one that the input does not have; the nearest that it has is named
    /// instead. (A change is reported where the walk names it: the root pass of a dialect that
    /// merges a root union into one object names each property of that object, say.)
    fn existing(&self, mut p: String) -> String {
        let mut cut = false;
        while !p.is_empty() && pointer::get(self.input, &p).is_none() {
            p.truncate(p.rfind('/').unwrap_or(0));
            cut = true;
        }
        // (a schema's place, not the keyword holding a list or a map of schemas)
        let holder = |p: &str| {
            let last = &p[p.rfind('/').map_or(0, |i| i + 1)..];
            matches!(
                last,
                "properties"
                    | "patternProperties"
                    | "$defs"
                    | "definitions"
                    | "anyOf"
                    | "oneOf"
                    | "allOf"
                    | "prefixItems"
                    | "dependentSchemas"
            ) || (last == "items" && pointer::get(self.input, p).is_some_and(Value::is_array))
        };
        if cut && !p.is_empty() && holder(&p) {
            p.truncate(p.rfind('/').unwrap_or(0));
        }
        p
    }

    /// Whether the lowered schema at `at` has a `$ref` the input does not have there (an
    /// `allOf` of one reference written as the reference: the model reports the inlining at
    /// the part).
    pub(super) fn ref_made(&self, at: &str) -> bool {
        self.refs_made.contains(at)
    }

    /// The keywords of the lowered schema at `at` that the input writes and the model left out,
    /// having no effect there (object keywords beside a shape no object fits:
    /// `schema::Kind::allows_no_object`, say beside a `$ref` to a string). The walk over the
    /// input merged them and dropped them, and reported both; the walk of the lowered
    /// document reports them as it would ([`Conv::left_out_dropped`]), so nothing is left out
    /// without a word.
    pub(super) fn left_out(&self, at: &str) -> Option<&LeftOut> {
        self.left_out.get(at)
    }

    /// An error of the walk over the lowered document, its pointer mapped to the input's (a
    /// `false` merged from an `allOf` part named at that part).
    fn error(&self, input: &Value, mut e: ConvertError) -> ConvertError {
        e.pointer = self.existing(self.input(&e.pointer));
        if let ConvertErrorKind::Unsupported(m) = &e.kind {
            if m.starts_with("the `false` schema") {
                let mut at = e.pointer.clone();
                while let Some(Value::Object(node)) = pointer::get(input, &at) {
                    let Some(Value::Array(parts)) = node.fget("allOf") else {
                        break;
                    };
                    let Some(i) = parts.iter().position(is_false) else {
                        break;
                    };
                    at = pointer::push_index(&pointer::push(&at, "allOf"), i);
                }
                e.pointer = at;
            }
        }
        e
    }

    /// The rewrites done in the lowered schema at `at`: those reported before its annotations
    /// are dropped, and the others.
    pub(super) fn rewrites_at(&self, at: &str) -> (&[Rewrite], &[Rewrite]) {
        match self.rewrites.get(at) {
            Some((list, early)) => list.split_at(*early),
            None => (&[], &[]),
        }
    }

    /// Reads the side table of `lowered` against its `input`.
    fn new(input: &'l Value, lowered: &'l Lowered<'l>) -> FromModel<'l> {
        let mut m = FromModel {
            input,
            origins: HashMap::with_capacity(lowered.origins.len()),
            rewrites: HashMap::new(),
            keywords: HashMap::new(),
            refs_made: HashSet::new(),
            left_out: HashMap::new(),
        };
        for (out, at) in &lowered.origins {
            m.origins.insert(out.as_str(), at);
            let Some(Value::Object(inp)) = pointer::get(input, at) else {
                continue;
            };
            let Some(low) = pointer::get(&lowered.json, out) else {
                continue;
            };
            let mut done = forbidden_left_out(inp, at, low);
            // (only a schema with one of these keywords can have been rewritten)
            let rewritable = ["$ref", "allOf", "oneOf", "enum", "type", "additionalItems"];
            if !rewritable.iter().any(|k| inp.fhas(k)) {
                if !done.is_empty() {
                    m.rewrites.insert(out.clone(), (done, 0));
                }
                continue;
            }
            let mut early = 0;
            let mut origins = HashMap::new();
            if let Some(Value::String(r)) = inp.fget("$ref") {
                if !low.fhas("$ref") {
                    done.push((at.to_string(), ChangeKind::RefInlined));
                    early = 1;
                    let target = r.strip_prefix('#').and_then(pointer::percent_decode);
                    for k in inp.keys().filter(|k| *k != "$ref") {
                        origins.insert(k.clone(), at.to_string());
                    }
                    if let Some(target) = target {
                        // (the walk merges a `$ref` and its siblings as an `allOf` at the
                        // target, but the root's: `root.rs`)
                        if !at.is_empty() && inp.keys().any(|k| k != "$ref" && !is_meta(k)) {
                            done.push((target.clone(), ChangeKind::AllOfMerged));
                        }
                        // (a union target: the walk then copies the keywords beside it into
                        // its branches, where the normalizer merged them; `nullable` alone is
                        // reported as the flag's rewrite)
                        let copied = |k: &String| {
                            !["$ref", "nullable", "definitions", "$defs"].contains(&k.as_str())
                                && !is_meta(k)
                        };
                        if inp.keys().any(copied)
                            && pointer::get(input, &target).is_some_and(is_union)
                        {
                            done.push((target.clone(), ChangeKind::DistributedIntoBranches));
                        }
                        if let Some(Value::Object(t)) = pointer::get(input, &target) {
                            for k in t.keys() {
                                origins.entry(k.clone()).or_insert_with(|| target.clone());
                            }
                        }
                    }
                }
            }
            if let Some(left) = left_out(inp, at, low) {
                m.left_out.insert(out.clone(), left);
            }
            if low.fhas("$ref") && !inp.fhas("$ref") {
                m.refs_made.insert(out.clone());
            }
            if let Some(Value::Array(parts)) = inp.fget("allOf") {
                if !low.fhas("allOf") {
                    let mut from = HashMap::new();
                    for (i, part) in parts.iter().enumerate() {
                        let bat = pointer::push_index(&pointer::push(at, "allOf"), i);
                        let Value::Object(part) = part else { continue };
                        for k in part.keys().filter(|k| *k != "$ref") {
                            from.entry(k.clone()).or_insert_with(|| bat.clone());
                        }
                        if let Some(Value::String(r)) = part.fget("$ref") {
                            done.push((bat.clone(), ChangeKind::RefInlined));
                            let target = r.strip_prefix('#').and_then(pointer::percent_decode);
                            if let Some(Value::Object(t)) =
                                target.as_deref().and_then(|t| pointer::get(input, t))
                            {
                                for k in t.keys() {
                                    from.entry(k.clone())
                                        .or_insert_with(|| target.clone().unwrap_or_default());
                                }
                            }
                        }
                    }
                    // (a part's `$ref` inlined as the merge meets it, then the merge)
                    done.push((at.to_string(), ChangeKind::AllOfMerged));
                    // (a union part, or a part's union target, beside keywords: the walk copies
                    // them into its branches after the merge)
                    let union_part = parts.iter().any(|part| {
                        is_union(part)
                            || part
                                .fget("$ref")
                                .and_then(Value::as_str)
                                .and_then(|r| r.strip_prefix('#'))
                                .and_then(pointer::percent_decode)
                                .and_then(|t| pointer::get(input, &t))
                                .is_some_and(is_union)
                    });
                    let beside = inp.keys().any(|k| {
                        !["allOf", "nullable", "definitions", "$defs"].contains(&k.as_str())
                            && !is_meta(k)
                    });
                    if union_part && beside {
                        done.push((at.to_string(), ChangeKind::DistributedIntoBranches));
                    }
                    from.retain(|k, _| !inp.contains_key(k));
                    for (k, v) in from {
                        origins.entry(k).or_insert(v);
                    }
                }
            }
            // (a type array beside a `$ref` or an `allOf` that the merge left one type of is no
            // split: the walk's merge of the input intersects the types and reports none)
            let merged = inp.fhas("$ref") || inp.fhas("allOf");
            if inp.fget("type").is_some_and(Value::is_array)
                && !low.fget("type").is_some_and(Value::is_array)
                && (low.fhas("anyOf") || !merged)
            {
                done.push((at.to_string(), ChangeKind::TypeArraySplit));
            }
            let nulls = |e: Option<&Value>| matches!(e, Some(Value::Array(e)) if e.len() > 1 && e.contains(&Value::Null));
            if nulls(inp.fget("enum")) && !nulls(low.fget("enum")) {
                done.push((at.to_string(), ChangeKind::TypeArraySplit));
            }
            if inp.fhas("oneOf") && !low.fhas("oneOf") && low.fhas("anyOf") {
                done.push((at.to_string(), ChangeKind::OneOfToAnyOf));
            }
            // (a keyword the model keeps no value for where it has no effect)
            if !low.fhas("additionalItems") {
                let parts = match inp.fget("allOf") {
                    Some(Value::Array(parts)) => parts.as_slice(),
                    _ => &[],
                };
                let own = inp.fhas("additionalItems").then(|| at.to_string());
                let in_parts = parts
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.fhas("additionalItems"));
                let in_parts =
                    in_parts.map(|(i, _)| pointer::push_index(&pointer::push(at, "allOf"), i));
                for place in own.into_iter().chain(in_parts) {
                    let keyword = "additionalItems".to_string();
                    done.push((place, ChangeKind::Dropped { keyword }));
                }
            }
            if !done.is_empty() {
                m.rewrites.insert(out.clone(), (done, early));
            }
            if !origins.is_empty() {
                m.keywords.insert(out.clone(), origins);
            }
        }
        for (out, keys) in &lowered.distributed {
            let at = m.input(out);
            // (a keyword merged into the branches is reported where it was written, beside the
            // union, unless the branch had its own)
            let branches = pointer::get(&lowered.json, out).and_then(|u| u.fget("anyOf"));
            for (j, _) in branches
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let bat = pointer::push_index(&pointer::push(out, "anyOf"), j);
                let own = pointer::get(input, &m.input(&bat)).and_then(Value::as_object);
                // (a keyword the union's schema merged in from elsewhere: from there)
                let from: Vec<(String, String)> = keys
                    .iter()
                    .filter(|k| !own.is_some_and(|o| o.contains_key(*k)))
                    .map(|k| {
                        let there = m.keywords.get(out).and_then(|o| o.get(k));
                        (k.clone(), there.unwrap_or(&at).clone())
                    })
                    .collect();
                let origins = m.keywords.entry(bat).or_default();
                for (k, from) in from {
                    origins.entry(k).or_insert(from);
                }
            }
            m.rewrites
                .entry(out.clone())
                .or_default()
                .0
                .push((at, ChangeKind::DistributedIntoBranches));
        }
        m
    }
}

/// [`to_dialect_with`] through the model: the input checks, [`normalize()`], [`lower()`], the
/// walk on the lowered document (see the module docs). A schema the model cannot write back
/// is an error naming its pointer and the reason (none of the fixtures, the MCP corpus or the
/// JSON Schema Test Suite but the two corrections: `schema/lower_tests.rs`).
pub(crate) fn convert_via_model(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    let out = convert_once(schema, dialect, options, record);
    let rules = table::rules(dialect);
    if !rules.keeps_defs || options.keeps_shared(rules) {
        return out;
    }
    // (where the engine compiles a `$ref` once, shared definitions whose copies blow the
    // output up, to more than 4 times the input's values, stay shared)
    let blown_up = match &out {
        Ok(c) => {
            let n = crate::vocab::values_in(&c.schema);
            n > 1024 && n > 4 * crate::vocab::values_in(schema)
        }
        Err(e) => {
            matches!(e.kind, ConvertErrorKind::LimitExceeded { limit, .. } if limit == "schema nodes after inlining")
        }
    };
    if !blown_up {
        return out;
    }
    let kept = DialectOptions {
        defs_kept_for_size: true,
        ..options.clone()
    };
    let kept = convert_once(schema, dialect, &kept, record);
    if kept.is_ok() {
        kept
    } else {
        out
    }
}

/// Drafts 4 to 7 ignore the keywords beside a `$ref`: where `schema` has such keywords,
/// `convert` of the schema without them, each reported as dropped; `None` where it has none.
pub(crate) fn ref_siblings_dropped(
    schema: &Value,
    record: bool,
    convert: impl FnOnce(&Value) -> Result<Converted, ConvertError>,
) -> Option<Result<Converted, ConvertError>> {
    let (own, dropped) = crate::vocab::without_ref_siblings(schema)?;
    Some(convert(&own).map(|mut c| {
        if record {
            let ignored = dropped.into_iter().map(|(pointer, keyword)| Change {
                pointer,
                kind: ChangeKind::Dropped { keyword },
            });
            c.changes.splice(0..0, ignored);
        }
        c
    }))
}

/// One conversion through the model with `options` as given.
fn convert_once(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    if let Some(done) = input_checks(schema, dialect)? {
        return Ok(done);
    }
    if let Some(done) = ref_siblings_dropped(schema, record, |own| {
        convert_once(own, dialect, options, record)
    }) {
        return done;
    }
    let doc = normalize(schema).map_err(|mut e| {
        // (a reference that resolves to nothing: named at its schema, as the walk names it)
        if matches!(e.kind, ConvertErrorKind::UnresolvableRef(_)) {
            if let Some(at) = e.pointer.strip_suffix("/$ref") {
                e.pointer.truncate(at.len());
            }
        }
        e
    })?;
    // (a definition more than one `$ref` names, kept as a definition: the walk decides)
    let keep_shared = options.keeps_shared(table::rules(dialect));
    let lowered = lower(&doc, schema, keep_shared).map_err(|u| {
        let msg = match u.why {
            // (a schema no value satisfies: an error, not an unsatisfiable schema)
            NO_VALUE => {
                let types = pointer::get(schema, &u.at).and_then(|s| s.fget("type"));
                let types = types.map(Value::to_string).unwrap_or_default();
                format!(
                    "no value of the `enum` or `const` is of the `type` {types} beside it: no value satisfies the schema"
                )
            }
            // (two parts' schemas of one place that do not merge: an error, not one of them)
            TOO_MANY_COPIES => TOO_MANY_COPIES.to_string(),
            UNMERGED_PARTS => "the `allOf` parts give this place schemas that do not merge into one (no value fits both, or one is a union, a `not` or recursive)".into(),
            why => format!("the converter cannot write this schema for a dialect: {why}"),
        };
        ConvertError::new(&u.at, ConvertErrorKind::Unsupported(msg))
    })?;
    // (a cycle of references with no property or item in between describes no value: the
    // input's, as the walk over the input named it, even where the model leaves the cycle out
    // of the lowered document, a union branch narrowed away, say; only a document with a
    // recursive definition can have one)
    if doc.defs.iter().any(|d| d.recursive) {
        refs::scan(schema)?;
    }
    // (the side table read only for a report, or to name an error's place)
    let model = record.then(|| FromModel::new(schema, &lowered));
    run(
        &lowered.json,
        dialect,
        options,
        record,
        model.as_ref(),
        Some(&lowered),
    )
    .map_err(|e| match &model {
        Some(model) => model.error(schema, e),
        None => FromModel::new(schema, &lowered).error(schema, e),
    })
    .map_err(|e| match e.kind {
        // (the walk does not read every form a moved definition's references take: refused
        // as before the move, by its rule, not as an internal error)
        ConvertErrorKind::Unsupported(m) if lowered.moved && m.starts_with("internal:") => {
            ConvertError::new(
                e.pointer,
                ConvertErrorKind::Unsupported(
                    "the converter cannot write this schema for a dialect: a reference to a place the lowering merged away".into(),
                ),
            )
        }
        _ => e,
    })
}

/// The object keywords the input schema `inp` at `at` (or one of its `allOf` parts) writes and
/// its lowered schema `low` (no `allOf`; a union's branches looked into) does not have: the model left them out,
/// having no effect beside a shape no object fits. With the `$ref` target the walk over the
/// input merged a `$ref`'s siblings with, where `low` is that `$ref` alone.
fn left_out(inp: &Map<String, Value>, at: &str, low: &Value) -> Option<LeftOut> {
    if low.fhas("allOf") || low.fhas("oneOf") {
        return None;
    }
    // (a union the model merged the keywords beside into: left out where no branch has it)
    let branches = match low.fget("anyOf") {
        Some(Value::Array(b)) => b.as_slice(),
        Some(_) => return None,
        None => &[],
    };
    // (`items` and `prefixItems` beside a shape no array fits: left out as vacuous too)
    let vacuous = |k: &str| OBJECT_ONLY.contains(&k) || k == "items" || k == "prefixItems";
    let gone = |k: &String| vacuous(k) && !low.fhas(k) && !branches.iter().any(|b| b.fhas(k));
    let mut left = LeftOut::default();
    for k in inp.keys().filter(|k| gone(k)) {
        left.drops.push((at.to_string(), k.clone()));
    }
    if let Some(Value::Array(parts)) = inp.fget("allOf") {
        for (i, part) in parts.iter().enumerate() {
            let Value::Object(part) = part else { continue };
            for k in part.keys().filter(|k| gone(k) && !inp.contains_key(*k)) {
                if !left.drops.iter().any(|(_, d)| d == k) {
                    let place = pointer::push_index(&pointer::push(at, "allOf"), i);
                    left.drops.push((place, k.clone()));
                }
            }
        }
    }
    if left.drops.is_empty() {
        return None;
    }
    // (the siblings of a `$ref` the lowered schema writes alone: the walk over the input
    // merged them with the target as an `allOf`, but the root's: `root.rs`)
    let alone = low
        .as_object()
        .is_some_and(|l| l.keys().all(|k| k == "$ref" || is_meta(k)));
    if let (Some(Value::String(r)), true, false) = (inp.fget("$ref"), alone, at.is_empty()) {
        left.merged_at = r.strip_prefix('#').and_then(pointer::percent_decode);
    }
    Some(left)
}

/// The properties of the input schema `inp` at `at` that its lowered schema `low` leaves out
/// of its `properties`: those no value fits (`false`, an `allOf` with a `false` part), which
/// must be absent (`schema::lower`), each reported at its place.
fn forbidden_left_out(inp: &Map<String, Value>, at: &str, low: &Value) -> Vec<Rewrite> {
    let (Some(Value::Object(props)), Some(Value::Object(kept))) =
        (inp.fget("properties"), low.fget("properties"))
    else {
        return Vec::new();
    };
    let at = pointer::push(at, "properties");
    let left_out = ChangeKind::ForbiddenPropertyLeftOut;
    (props.keys())
        .filter(|name| !kept.contains_key(*name))
        .map(|name| (pointer::push(&at, name), left_out.clone()))
        .collect()
}

/// Whether `v` is a schema with a union (`anyOf` or `oneOf`).
fn is_union(v: &Value) -> bool {
    v.fhas("anyOf") || v.fhas("oneOf")
}

/// Whether `v` is the `false` schema.
fn is_false(v: &Value) -> bool {
    *v == Value::Bool(false)
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
