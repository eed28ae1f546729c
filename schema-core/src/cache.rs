//! What a type computes once and keeps: its schema per dialect, its precise schema, its compiled
//! validator and the fast path's plan.
//!
//! `#[derive(AgentSchema)]` gives every non-generic type a `static` [`TypeCache`] of its own, so
//! after the first call each of these is one atomic load away: no lock, no hash lookup on the
//! parse path. A `static` inside a generic impl would be shared by every instantiation
//! (`Page<A>` and `Page<B>` would get each other's schema), so generic types and the standard
//! impls (`Vec<T>`, `Option<T>`, ...) find their slots in one global map instead, keyed by the
//! address of their static model.

use crate::convert::{self, ConvertError};
use crate::model::Type;
use crate::validate::{guided::Plan, Validator};
use crate::{render, Dialect};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

type Cached = Result<Arc<Value>, ConvertError>;

/// The slots in which one type keeps what it computed once: its schema per dialect, its precise
/// schema, its compiled validator and the fast path's plan.
///
/// `#[derive(AgentSchema)]` gives every non-generic type a `static` of its own, so that after
/// the first call each of these is one atomic load away: no lock and no hash lookup on the parse
/// path. Generic types and the standard impls use [`TypeCache::shared`] instead.
///
/// A hand-written [`AgentSchema`](crate::AgentSchema) impl of a non-generic type may return a
/// `static` of its own from [`type_cache`](crate::AgentSchema::type_cache):
///
/// ```
/// use schema_core::{model, AgentSchema, TypeCache};
/// struct Celsius(f64);
/// impl AgentSchema for Celsius {
///     type Partial = schema_core::stream::Leaf<Self>;
///     fn schema_type() -> &'static model::Type {
///         <f64 as AgentSchema>::schema_type()
///     }
///     fn type_cache() -> &'static TypeCache {
///         static CACHE: TypeCache = TypeCache::new();
///         &CACHE
///     }
/// }
/// assert_eq!(Celsius::json_schema(schema_core::Dialect::JsonSchema)["type"], "number");
/// ```
pub struct TypeCache {
    schemas: [OnceLock<Cached>; Dialect::EVERY.len()],
    precise: OnceLock<Cached>,
    alternatives: OnceLock<Cached>,
    validator: OnceLock<Result<Arc<Validator>, ConvertError>>,
    plan: OnceLock<Option<Plan>>,
}

impl Default for TypeCache {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for TypeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self.schemas.iter().filter(|s| s.get().is_some()).count();
        f.debug_struct("TypeCache")
            .field("dialects_rendered", &filled)
            .field("validator", &self.validator.get().is_some())
            .finish()
    }
}

impl TypeCache {
    /// Empty slots, filled on first use.
    pub const fn new() -> Self {
        TypeCache {
            schemas: [const { OnceLock::new() }; Dialect::EVERY.len()],
            precise: OnceLock::new(),
            alternatives: OnceLock::new(),
            validator: OnceLock::new(),
            plan: OnceLock::new(),
        }
    }

    /// The slots of a type without slots of its own (a generic type, a standard impl): one
    /// global map, keyed by the address of the type's static model, looked up under a lock.
    pub fn shared(ty: &'static Type) -> &'static TypeCache {
        static MAP: OnceLock<Mutex<HashMap<usize, &'static TypeCache>>> = OnceLock::new();
        let key = ty as *const Type as usize;
        let mut map = MAP
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // One small allocation per type for the life of the program, like a `static`.
        map.entry(key)
            .or_insert_with(|| Box::leak(Box::new(TypeCache::new())))
    }

    /// The schema of `ty` in `dialect`, rendered on first use.
    pub(crate) fn schema(&'static self, ty: &'static Type, dialect: Dialect) -> &'static Cached {
        self.schemas[dialect.index()].get_or_init(|| match dialect {
            Dialect::JsonSchema => render::render(ty, render::Form::Presentation).map(Arc::new),
            d => {
                // (a value of any type stays an error where a type is needed: the parser of a
                // derived type would read JSON text as a string)
                let derived = convert::DialectOptions::default().json_text(false);
                let reshape = render::Reshape::for_dialect(d, &derived);
                if reshape != render::Reshape::default() {
                    // Maps marked `#[schema(entries)]` are written as entries here.
                    let full =
                        render::render_reshaped(ty, render::Form::Presentation, false, reshape)?;
                    return convert::to_dialect_quiet(&full, d, &derived).map(Arc::new);
                }
                let full = self.source(ty, d).as_ref().map_err(Clone::clone)?;
                convert::to_dialect_quiet(full, d, &derived).map(Arc::new)
            }
        })
    }

    /// The full schema `dialect` is converted from ([`render::Form::for_dialect`]): the
    /// `Dialect::JsonSchema` output, or its form with flattened tagged enums kept as
    /// alternatives, which shares the same `Arc` when it does not differ.
    pub(crate) fn source(&'static self, ty: &'static Type, dialect: Dialect) -> &'static Cached {
        if render::Form::for_dialect(dialect) == render::Form::Alternatives {
            self.alternatives(ty)
        } else {
            self.schema(ty, Dialect::JsonSchema)
        }
    }

    /// The full schema in [`render::Form::Alternatives`], rendered on first use: the same `Arc`
    /// as the `Dialect::JsonSchema` output when the two do not differ.
    pub(crate) fn alternatives(&'static self, ty: &'static Type) -> &'static Cached {
        let presentation = self.schema(ty, Dialect::JsonSchema);
        self.alternatives.get_or_init(|| {
            let p = presentation.as_ref().map_err(Clone::clone)?;
            let alt = render::render(ty, render::Form::Alternatives)?;
            Ok(if alt == **p { p.clone() } else { Arc::new(alt) })
        })
    }

    /// The precise schema of `ty` (what the validator enforces), rendered on first use.
    pub(crate) fn precise(&'static self, ty: &'static Type) -> &'static Cached {
        self.precise
            .get_or_init(|| render::render(ty, render::Form::Precise).map(Arc::new))
    }

    /// The validator of the precise schema of `ty`, compiled on first use.
    pub(crate) fn validator(
        &'static self,
        ty: &'static Type,
    ) -> &'static Result<Arc<Validator>, ConvertError> {
        self.validator.get_or_init(|| {
            let schema = self.precise(ty).as_ref().map_err(Clone::clone)?;
            Validator::new(schema).map(Arc::new)
        })
    }

    /// The fast path's plan for `ty`, or `None` when its schema needs the slow path.
    #[inline]
    pub(crate) fn plan(&'static self, ty: &'static Type) -> Option<&'static Plan> {
        match self.plan.get() {
            Some(plan) => plan.as_ref(),
            None => self.plan_init(ty),
        }
    }

    #[cold]
    fn plan_init(&'static self, ty: &'static Type) -> Option<&'static Plan> {
        self.plan
            .get_or_init(|| {
                self.validator(ty)
                    .as_ref()
                    .ok()
                    .and_then(|v| Plan::new(v.clone()))
            })
            .as_ref()
    }
}
