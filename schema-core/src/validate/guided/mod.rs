//! The fast path: deserializing straight into the typed value while checking the schema.
//!
//! A wrapper around serde_json's deserializer walks the compiled schema in step with the value:
//! every string, number, array and object that reaches the type's `Deserialize` impl is checked
//! on the way (types, lengths, bounds, `enum`/`const`, unknown and missing properties, the exact
//! variant of a tagged enum). The first violation aborts; the caller then takes the slow path,
//! which parses a `Value` and collects every error. Valid input therefore costs one pass, close
//! to plain `serde_json::from_str::<T>`.
//!
//! What each node needs is worked out once per type ([`Plan`]): which checks a string, number or
//! boolean has (none, for most), the properties of an object with a bit per required one, the
//! item node and bounds of an array. An object key goes to the type's own field visitor through
//! a wrapping seed that notes which property it names on the way (the next property in schema
//! order is tried first, since a model writes them in that order), so the key is read once.
//!
//! Unions it follows: `anyOf [X, null]`, tagged unions of objects (a `const` tag property), and
//! serde's externally tagged enums (unit variants as strings, the others as one-member objects,
//! read as serde_json reads them with the payload checked). Tuples (`prefixItems`) are followed
//! item by item. Schemas with keywords that cannot be checked in one pass (`allOf`, `not`,
//! `uniqueItems`, `patternProperties`, `propertyNames`, untagged unions) have no plan and
//! always take the slow path.
//!
//! The parts: [`plan`] works out what each node needs, [`guide`] holds the position in the plan
//! and checks scalars (asking `validate/rules` where a bit test does not decide), and the
//! serde adapters each have a file: [`deserializer`] (the wrapping deserializer and the checking
//! visitor), [`seq`] (arrays), [`map`] (objects), [`keys`] (object keys noted on their way to the
//! field visitor) and [`external`] (externally tagged enums).

/// Every `Deserializer` method but `deserialize_ignored_any` and `is_human_readable`, forwarded
/// to `self.de` with the visitor wrapped by the given expression.
macro_rules! forward_deserializer {
    // A whole wrapper: every method, an ignored value included, and `is_human_readable`.
    (@wrapper $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!($self_, $visitor => $wrap);
        forward_deserializer! { @methods $self_, $visitor => $wrap; deserialize_ignored_any; }
        fn is_human_readable(&self) -> bool {
            self.de.is_human_readable()
        }
    };
    ($self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!(@but_enum $self_, $visitor => $wrap);
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        }
    };
    (@but_enum $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer!(@but_enum_ints $self_, $visitor => $wrap);
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
            deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
        }
    };
    // All but `deserialize_enum` and the integer methods up to 64 bits.
    (@but_enum_ints $self_:ident, $visitor:ident => $wrap:expr) => {
        forward_deserializer! {
            @methods $self_, $visitor => $wrap;
            deserialize_any; deserialize_bool; deserialize_i128; deserialize_u128;
            deserialize_f32; deserialize_f64; deserialize_char;
            deserialize_str; deserialize_string; deserialize_bytes; deserialize_byte_buf;
            deserialize_option; deserialize_unit; deserialize_seq; deserialize_map;
            deserialize_identifier;
            deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str);
            deserialize_tuple(len: usize);
            deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        }
    };
    (@methods $self_:ident, $visitor:ident => $wrap:expr; $($method:ident $(($($arg:ident: $ty:ty),*))?;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>($self_, $($($arg: $ty,)*)? $visitor: V) -> Result<V::Value, D::Error> {
            $self_.de.$method($($($arg,)*)? $wrap)
        }
    )*};
}

mod deserializer;
mod external;
mod guide;
mod keys;
mod map;
mod plan;
mod seq;
#[cfg(test)]
mod tests;

use deserializer::*;
use external::*;
use guide::*;
use keys::*;
use map::*;
use seq::*;

pub(crate) use plan::Plan;
use plan::*;

use super::check::type_names;
use super::compile::{
    deref, Additional, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use super::{rules, Validator};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Number, Value};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

/// `Some(value)` when `text` deserializes into `T` and meets every constraint; `None` sends the
/// caller down the slow path, which collects every error.
#[inline]
pub(crate) fn fast_path<T: DeserializeOwned>(plan: Option<&Plan>, text: &str) -> Option<T> {
    let plan = plan?;
    let mut de = serde_json::Deserializer::from_str(text);
    let cx = Cx {
        info: &plan.info,
        plan,
        text: text.as_bytes(),
    };
    let guide = cx.guide(plan.root, false);
    let value = T::deserialize(Guided {
        de: &mut de,
        g: guide,
    })
    .ok()?;
    de.end().ok()?;
    Some(value)
}
