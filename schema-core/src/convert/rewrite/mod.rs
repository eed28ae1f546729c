//! The rewrites that change the shape of values, and the read-back plan that undoes them.
//!
//! [`convert`] runs before the model: the target's rule table selects the rewrites
//! (`shapes.rs`: a map as entries, a tuple as a positional object, any value as JSON text;
//! `root.rs`: a non-object root wrapped in an object), each recorded once at its input pointer
//! ([`ChangeKind::MapAsEntries`], ...), each adding its inverse to the [`ReadBack`] plan. The
//! rewritten document then goes through the model and the dialect walk like any input, and
//! every pointer of their errors and changes is mapped back to the input's.
//!
//! Over a provider's per-request budget (`budget.rs`) or its limits on the whole schema
//! (`limits.rs`: OpenAI's nesting depth and enum values), the conversion is tried again with a
//! plan: what goes without a grammar, which enums move into descriptions, each reported.
//!
//! A root is wrapped only where the dialect walk says the root is not an object
//! ([`ConvertErrorKind::RootNotObject`]): the walk, not this module, knows what a `$ref` or a
//! union at the root becomes, so such a schema is converted twice (once to learn it, once
//! wrapped).

mod anchors;
pub(crate) mod budget;
mod guard;
mod limits;
mod readback;
mod root;
mod shapes;
mod unroll;

use super::dialect::check_json_depth;
use super::dialect::{model, table, Change, ChangeKind, Converted, DialectOptions};
use super::{ConvertError, ConvertErrorKind};
use crate::Dialect;
pub use readback::ReadBack;
use serde_json::Value;
use shapes::{Shapes, Wanted};

/// The name of the property a non-object root is wrapped in, unless
/// [`DialectOptions::root_key`] names another.
pub const DEFAULT_ROOT_KEY: &str = "value";

/// How many levels of a recursive type are written out where the dialect refuses recursion,
/// unless [`DialectOptions::recursion_depth`] says otherwise.
pub const DEFAULT_RECURSION_DEPTH: usize = 3;

/// How many times a schema over the optional-property budget is converted again with more
/// optional properties made nullable.
const BUDGET_TRIES: usize = 4;

/// Converts `schema` into `dialect`: the shape rewrites, then the model and the dialect walk;
/// over the optional-property budget, again with the budget plan (`budget.rs`).
pub(crate) fn convert(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    check_json_depth(schema)?;
    let result = convert_pointers(schema, dialect, options, record);
    // (a reference by plain name, `#node`: written as its JSON pointer, converted again)
    if let Err(ConvertError {
        kind: ConvertErrorKind::UnresolvableRef(r),
        ..
    }) = &result
    {
        if !r.starts_with("#/") {
            if let Some(resolved) = anchors::resolved(schema) {
                return convert_pointers(&resolved, dialect, options, record);
            }
        }
    }
    result
}

/// [`convert`] of a document whose references are JSON pointers.
fn convert_pointers(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
) -> Result<Converted, ConvertError> {
    if dialect == Dialect::JsonSchema {
        return model::convert_via_model(schema, dialect, options, record);
    }
    // (drafts 4 to 7 ignore the keywords beside a `$ref`: left out, each reported, before the
    // shape rewrites, which would take such a `$ref` for a merge and leave its target as it is)
    if let Some(done) =
        model::ref_siblings_dropped(schema, record, |own| convert(own, dialect, options, record))
    {
        return done;
    }
    // (recursion unrolled only where the dialect walk refuses it, so that its other errors,
    // a cycle with no object in between, say, stay the input's; and before the budget plan,
    // which then counts what the dialect walk counts)
    let rules = table::rules(dialect);
    let mut result = convert_once(schema, dialect, options, record, Budget::default());
    let refused = matches!(
        &result,
        Err(ConvertError {
            kind: ConvertErrorKind::RecursionNotAllowed(_),
            ..
        })
    );
    let unrolled = (refused && !rules.recursion && options.recursion_depth > 0)
        .then(|| unroll::unroll(schema, options.recursion_depth))
        .flatten();
    let (schema, unroll_moves, unrolled_at) = match unrolled {
        Some(u) => (std::borrow::Cow::Owned(u.doc), u.moves, u.unrolled),
        None => (std::borrow::Cow::Borrowed(schema), Vec::new(), Vec::new()),
    };
    let schema = schema.as_ref();
    let plain = Budget {
        unroll: Moves(unroll_moves),
        unrolled: unrolled_at,
        ..Budget::default()
    };
    if !plain.unrolled.is_empty() {
        result = convert_once(schema, dialect, options, record, plain.clone());
    }
    let limits = table::rules(dialect).limits;
    for attempt in 0..BUDGET_TRIES {
        match &result {
            Err(ConvertError {
                kind: ConvertErrorKind::LimitExceeded { limit, .. },
                ..
            }) if limit.starts_with("optional properties") || limit.starts_with("unions") => {}
            _ => break,
        }
        let Some(plan) = budget::plan(
            schema,
            limits.optional_properties.unwrap_or(usize::MAX),
            limits.unions.unwrap_or(usize::MAX),
            attempt as u32,
        ) else {
            break;
        };
        let budget = Budget {
            moves: Moves(plan.moves),
            made_nullable: plan.nullable.into_iter().collect(),
            free: plan.free,
            ..plain.clone()
        };
        // (a plan that does not fit keeps the first error: the input's own)
        if let ok @ Ok(_) = convert_once(&plan.doc, dialect, options, record, budget) {
            result = ok;
        }
    }
    // (over a limit on the whole schema: the limits plan, tighter on each try while the
    // output is still over; a plan that does not fit keeps the input's error)
    let (mut depth, mut enums) = (None, None);
    let mut last = result.as_ref().err().map(|e| e.kind.clone());
    for _ in 0..BUDGET_TRIES {
        let Some(ConvertErrorKind::LimitExceeded { limit, .. }) = &last else {
            break;
        };
        match (*limit, limits.object_depth, limits.enum_values) {
            ("object nesting depth", Some(max), _) => {
                depth = Some(depth.map_or(max, |d: usize| d.saturating_sub(1)));
            }
            ("enum values", _, Some(max)) => {
                enums = Some(enums.map_or(max, |n: usize| n * 3 / 4));
            }
            _ => break,
        }
        // (none: the input's count fits where the output's does not; tighter on the next try)
        let Some(plan) = limits::plan(schema, depth, enums) else {
            continue;
        };
        let budget = Budget {
            moves: Moves(plan.moves),
            free: plan.free,
            described: plan.enums,
            ..plain.clone()
        };
        match convert_once(&plan.doc, dialect, options, record, budget) {
            ok @ Ok(_) => return ok,
            Err(e) => last = Some(e.kind),
        }
    }
    result
}

/// The budget plan's part of one conversion, and the unrolling's.
#[derive(Default, Clone)]
struct Budget {
    /// Where it moved schemas (below the `anyOf` of a property made nullable).
    moves: Moves,
    made_nullable: std::collections::HashSet<(String, String)>,
    /// Properties written without a grammar (their schema's pointer).
    free: Vec<String>,
    /// Schemas whose `enum` moved into the description (the limits plan).
    described: Vec<String>,
    /// Where the unrolling of recursion moved schemas, and the definitions it unrolled.
    unroll: Moves,
    unrolled: Vec<String>,
}

/// One conversion of `schema` (the input, or the input with the budget plan applied).
fn convert_once(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
    budget: Budget,
) -> Result<Converted, ConvertError> {
    let rules = table::rules(dialect);
    let want = Wanted {
        maps: rules.closed_objects && !options.close_maps && options.map_entries,
        tuples: !rules.tuples && options.tuple_objects,
        text: rules.typed_only && options.json_text,
        nulls: rules.all_required,
    };
    // (first the light freeze; where that conversion fails, the full one)
    let light = convert_shaped(schema, dialect, options, record, want, &budget, false);
    match light {
        Ok(c) => Ok(c),
        Err(e) if matches!(e.kind, ConvertErrorKind::LimitExceeded { .. }) => Err(e),
        Err(e) => convert_shaped(schema, dialect, options, record, want, &budget, true).or(Err(e)),
    }
}

/// [`convert_once`] with the shape rewrites frozen below merged places by the light or the
/// `full` rule.
fn convert_shaped(
    schema: &Value,
    dialect: Dialect,
    options: &DialectOptions,
    record: bool,
    want: Wanted,
    budget: &Budget,
    full: bool,
) -> Result<Converted, ConvertError> {
    let rules = table::rules(dialect);
    let (unroll_moves, unrolled_at) = (Moves(budget.unroll.0.clone()), budget.unrolled.clone());
    let budget_moves = Moves(budget.moves.0.clone());
    let free = budget.free.clone();
    let described = budget.described.clone();
    let mut planned: Vec<String> = (budget.made_nullable.iter())
        .map(|(at, name)| super::pointer::push_all(at, &["properties", name]))
        .collect();
    planned.sort();
    let mut shapes = Shapes::new(schema, want, budget.made_nullable.clone(), full);
    let (shaped, root_step) = shapes.run()?;
    let shaped = shaped.as_ref().unwrap_or(schema);
    let mut plan = ReadBack {
        steps: std::mem::take(&mut shapes.steps),
        root: root_step,
        wrap: None,
    };
    // (the stages in the order they undo: the shapes, the budget plan, the unrolling)
    let moves = [
        Moves(std::mem::take(&mut shapes.moves)),
        budget_moves,
        unroll_moves,
    ];
    let mut changes = std::mem::take(&mut shapes.changes);
    let first = model::convert_via_model(shaped, dialect, options, record);
    let (mut converted, wrapped_at) = match first {
        Err(e)
            if rules.root_object
                && e.kind == ConvertErrorKind::RootNotObject
                && e.pointer.is_empty() =>
        {
            let key = options.root_key.as_deref().unwrap_or(DEFAULT_ROOT_KEY);
            let wrapped = root::wrap(shaped, key);
            let at = super::pointer::push("/properties", key);
            plan.wrap = Some(key.to_string());
            changes.push(Change {
                pointer: String::new(),
                kind: ChangeKind::RootWrapped {
                    key: key.to_string(),
                },
            });
            let c = model::convert_via_model(&wrapped, dialect, options, record)
                .map_err(|e| Moves::error(&moves, e, Some(&at)))?;
            (c, Some(at))
        }
        other => (other.map_err(|e| Moves::error(&moves, e, None))?, None),
    };
    if record {
        for c in &mut changes {
            c.pointer = Moves::input(&moves[1..], &c.pointer, None);
        }
        changes.extend(unrolled_at.into_iter().map(|at| Change {
            pointer: at,
            kind: ChangeKind::RecursionUnrolled {
                depth: options.recursion_depth,
            },
        }));
        for c in &mut converted.changes {
            c.pointer = Moves::input(&moves, &c.pointer, wrapped_at.as_deref());
        }
        if !planned.is_empty() || !free.is_empty() {
            changes.push(Change {
                pointer: String::new(),
                kind: ChangeKind::BudgetPlan {
                    nullable: planned.len(),
                    free: free.len(),
                },
            });
            changes.extend(free.into_iter().map(|at| Change {
                pointer: Moves::input(&moves[1..], &at, None),
                kind: ChangeKind::WithoutGrammar,
            }));
            changes.extend(planned.into_iter().map(|at| Change {
                pointer: moves[2].input_of(&at, None),
                kind: ChangeKind::MadeNullable,
            }));
        }
        changes.extend(described.into_iter().map(|at| Change {
            pointer: Moves::input(&moves[1..], &at, None),
            kind: ChangeKind::MovedToDescription {
                keyword: "enum".into(),
            },
        }));
        changes.append(&mut converted.changes);
        converted.changes = changes;
    }
    converted.plan = plan;
    Ok(converted)
}

/// Where the rewrites moved schemas: (pointer in the rewritten document, input pointer).
#[derive(Default, Clone)]
struct Moves(Vec<(String, String)>);

impl Moves {
    /// The input pointer of `at`, a pointer into the rewritten (and perhaps wrapped at
    /// `wrapped`) document: its longest moved prefix replaced by the input's.
    fn input_of(&self, at: &str, wrapped: Option<&str>) -> String {
        let at = match wrapped.and_then(|w| strip(at, w)) {
            Some(rest) => rest,
            None => at,
        };
        let best = (self.0.iter())
            .filter_map(|(out, inp)| strip(at, out).map(|rest| (out.len(), inp, rest)))
            .max_by_key(|(n, _, _)| *n);
        match best {
            Some((_, inp, rest)) => format!("{inp}{rest}"),
            None => at.to_string(),
        }
    }

    /// `at` through each stage of moves, the last rewrite's first.
    fn input(stages: &[Moves], at: &str, wrapped: Option<&str>) -> String {
        let mut at = stages[0].input_of(at, wrapped);
        for s in &stages[1..] {
            at = s.input_of(&at, None);
        }
        at
    }

    fn error(stages: &[Moves], mut e: ConvertError, wrapped: Option<&str>) -> ConvertError {
        e.pointer = Moves::input(stages, &e.pointer, wrapped);
        e
    }
}

/// `at` below `prefix` (token-wise): the rest, with its leading `/`.
fn strip<'a>(at: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = at.strip_prefix(prefix)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

#[cfg(test)]
mod tests;
