//! [`AgentSchema`] for the standard types a field can have.

use crate::model::{Kind, Type};
#[cfg(feature = "stream")]
use crate::stream::Leaf;
use crate::AgentSchema;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

macro_rules! leaf {
    ($kind:expr => $($t:ty),*) => {$(
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]            type Partial = Option<$t>;
            fn schema_type() -> &'static Type {
                const { &Type { kind: $kind } }
            }
        }
    )*};
}

leaf!(Kind::Boolean => bool);
leaf!(Kind::Number => f32, f64);
leaf!(Kind::String => String);
leaf!(Kind::Char => char);

impl AgentSchema for str {
    #[cfg(feature = "stream")]
    type Partial = Option<String>;
    fn schema_type() -> &'static Type {
        const { &Type { kind: Kind::String } }
    }
}

impl AgentSchema for serde_json::Value {
    #[cfg(feature = "stream")]
    type Partial = Leaf<serde_json::Value>;
    fn schema_type() -> &'static Type {
        const { &Type { kind: Kind::Any } }
    }
}

impl AgentSchema for serde_json::Map<String, serde_json::Value> {
    #[cfg(feature = "stream")]
    type Partial = Leaf<serde_json::Map<String, serde_json::Value>>;
    const IS_OBJECT: bool = true;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::Map(<serde_json::Value as AgentSchema>::schema_type),
            }
        }
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]            type Partial = Option<$t>;
            fn schema_type() -> &'static Type {
                // Bounds wider than JSON's exact-integer range (2^53) are not worth stating.
                const LIMIT: i128 = 1 << 53;
                const MIN: Option<i128> = if (<$t>::MIN as i128) > -LIMIT { Some(<$t>::MIN as i128) } else { None };
                const MAX: Option<i128> = if (<$t>::MAX as i128) < LIMIT { Some(<$t>::MAX as i128) } else { None };
                const { &Type { kind: Kind::Integer { min: MIN, max: MAX } } }
            }
        }
    )*};
}

integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! wrapper {
    ($($t:ident),*) => {$(
        impl<T: AgentSchema + ?Sized> AgentSchema for $t<T> {
            #[cfg(feature = "stream")]            type Partial = Option<Box<T::Partial>>;
            const IS_OBJECT: bool = T::IS_OBJECT;
            fn schema_type() -> &'static Type {
                T::schema_type()
            }
        }
    )*};
}

use std::rc::Rc;
use std::sync::Arc;
wrapper!(Box, Rc, Arc);

impl<T: AgentSchema + ?Sized> AgentSchema for &T {
    #[cfg(feature = "stream")]
    type Partial = T::Partial;
    const IS_OBJECT: bool = T::IS_OBJECT;
    fn schema_type() -> &'static Type {
        T::schema_type()
    }
}

impl<T: AgentSchema + ToOwned + ?Sized> AgentSchema for std::borrow::Cow<'_, T> {
    #[cfg(feature = "stream")]
    type Partial = T::Partial;
    const IS_OBJECT: bool = T::IS_OBJECT;
    fn schema_type() -> &'static Type {
        T::schema_type()
    }
}

impl<T: AgentSchema> AgentSchema for Option<T> {
    #[cfg(feature = "stream")]
    type Partial = T::Partial;
    const IS_OBJECT: bool = T::IS_OBJECT;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::Option(T::schema_type),
            }
        }
    }
}

macro_rules! seq {
    (@partial Array $t:ident) => { Option<Vec<<$t as AgentSchema>::Partial>> };
    (@partial Set $t:ident) => { Leaf<BTreeSet<$t>> };
    ($kind:ident => $($t:ident),*) => {$(
        impl<T: AgentSchema> AgentSchema for $t<T> {
            #[cfg(feature = "stream")]            type Partial = seq!(@partial $kind T);
            fn schema_type() -> &'static Type {
                const { &Type { kind: Kind::$kind(T::schema_type) } }
            }
        }
    )*};
}

seq!(Array => Vec, VecDeque);
seq!(Set => BTreeSet);

impl<T: AgentSchema, S> AgentSchema for HashSet<T, S> {
    #[cfg(feature = "stream")]
    type Partial = Leaf<HashSet<T, S>>;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::Set(T::schema_type),
            }
        }
    }
}

impl<T: AgentSchema> AgentSchema for [T] {
    #[cfg(feature = "stream")]
    type Partial = Option<Vec<T::Partial>>;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::Array(T::schema_type),
            }
        }
    }
}

/// `[T; N]`: an array of exactly `N` items (`minItems` = `maxItems` = `N`). serde reads arrays
/// of up to 32 elements.
impl<T: AgentSchema, const N: usize> AgentSchema for [T; N] {
    #[cfg(feature = "stream")]
    type Partial = Option<Vec<T::Partial>>;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::Newtype(&crate::model::Newtype {
                    id: std::any::type_name::<[T; N]>,
                    name: "Array",
                    inner: <[T]>::schema_type,
                    meta: crate::model::Meta {
                        min_items: Some(N as u64),
                        max_items: Some(N as u64),
                        ..crate::model::Meta::EMPTY
                    },
                }),
            }
        }
    }
}

/// Keys a JSON object can have: strings, and types serde writes as strings (integers, `char`,
/// unit-only enums and string newtypes; `#[derive(AgentSchema)]` implements it for the last two).
pub trait MapKey {
    /// Whether serde reads the key from a string it buffered: `false` for integers, which serde
    /// reads only straight from JSON text, not inside an internally tagged enum or a
    /// `#[serde(flatten)]` field. A map with such keys is not usable there
    /// ([`AgentSchema::IS_OBJECT`] is `false` for it).
    const STRING_KEY: bool = true;

    /// The model of the key: which strings are keys. A plain string by default.
    fn key_type() -> &'static Type {
        <String as AgentSchema>::schema_type()
    }
}
impl MapKey for String {}
impl MapKey for str {}
impl MapKey for &str {}
impl MapKey for std::borrow::Cow<'_, str> {}
impl MapKey for Box<str> {}
impl MapKey for Arc<str> {}

macro_rules! key_as_itself {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            fn key_type() -> &'static Type {
                <$t as AgentSchema>::schema_type()
            }
        }
    )*};
}
key_as_itself!(char);

macro_rules! integer_key {
    ($($t:ty),*) => {$(
        impl MapKey for $t {
            const STRING_KEY: bool = false;
            fn key_type() -> &'static Type {
                <$t as AgentSchema>::schema_type()
            }
        }
    )*};
}
integer_key!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

impl<K: MapKey, V: AgentSchema, S> AgentSchema for HashMap<K, V, S> {
    #[cfg(feature = "stream")]
    type Partial = crate::stream::MapPartial<V::Partial>;
    const IS_OBJECT: bool = K::STRING_KEY;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::KeyedMap {
                    key: K::key_type,
                    value: V::schema_type,
                },
            }
        }
    }
}

impl<K: MapKey, V: AgentSchema> AgentSchema for BTreeMap<K, V> {
    #[cfg(feature = "stream")]
    type Partial = crate::stream::MapPartial<V::Partial>;
    const IS_OBJECT: bool = K::STRING_KEY;
    fn schema_type() -> &'static Type {
        const {
            &Type {
                kind: Kind::KeyedMap {
                    key: K::key_type,
                    value: V::schema_type,
                },
            }
        }
    }
}

/// `()`: serde writes `null`.
impl AgentSchema for () {
    #[cfg(feature = "stream")]
    type Partial = crate::stream::Leaf<Self>;
    fn schema_type() -> &'static Type {
        const { &Type { kind: Kind::Unit } }
    }
}

macro_rules! tuple {
    ($($name:ident)+) => {
        /// A tuple: an array of exactly these items, in this order.
        impl<$($name: AgentSchema),+> AgentSchema for ($($name,)+) {
            #[cfg(feature = "stream")]            type Partial = crate::stream::Leaf<Self>;
            fn schema_type() -> &'static Type {
                const { &Type { kind: Kind::Tuple(&[$($name::schema_type),+]) } }
            }
        }
    };
}
tuple!(A);
tuple!(A B);
tuple!(A B C);
tuple!(A B C D);
tuple!(A B C D E);
tuple!(A B C D E F);
tuple!(A B C D E F G);
tuple!(A B C D E F G H);
tuple!(A B C D E F G H I);
tuple!(A B C D E F G H I J);
tuple!(A B C D E F G H I J K);
tuple!(A B C D E F G H I J K L);

// Foreign types: `std` here, each other crate behind the cargo feature of its name.
/// A string with a `format` or a `pattern`, named for recursion checks and `$defs`.
macro_rules! string_like {
    ($($t:ty => $name:literal, $($key:ident: $value:literal),+;)*) => {$(
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]            type Partial = crate::stream::Leaf<Self>;
            fn schema_type() -> &'static Type {
                const {
                    &Type {
                        kind: Kind::Newtype(&crate::model::Newtype {
                            id: std::any::type_name::<$t>,
                            name: $name,
                            inner: <String as AgentSchema>::schema_type,
                            meta: crate::model::Meta {
                                $($key: Some($value),)+
                                ..crate::model::Meta::EMPTY
                            },
                        }),
                    }
                }
            }
        }
    )*};
}

#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "jiff")]
mod jiff;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
mod std_types;
#[cfg(feature = "time")]
mod time;
#[cfg(feature = "url")]
mod url;
#[cfg(feature = "uuid")]
mod uuid;
