//! Standard library types beyond the basic ones, each as serde writes it: addresses and paths as
//! strings (with their `format`), `NonZero*` as integers without zero, `Duration` and
//! `SystemTime` as the objects serde's impls write.

use crate::model::{Enum, Field, Kind, Meta, Repr, Struct, Type, Variant, VariantStyle};
use crate::AgentSchema;

string_like! {
    std::net::Ipv4Addr => "Ipv4Addr", format: "ipv4";
    std::net::Ipv6Addr => "Ipv6Addr", format: "ipv6";
}

/// The field of a newtype variant of type `$ty`.
macro_rules! content {
    ($ty:expr) => {
        Field {
            name: "",
            rust_name: "0",
            ty: $ty,
            meta: Meta::EMPTY,
            default: false,
            flatten: true,
        }
    };
}

/// An untagged union of newtype variants: the value is any one of these types.
macro_rules! one_of {
    ($t:ty => $name:literal { $($variant:literal: $ty:expr),+ }) => {
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]            type Partial = crate::stream::Leaf<Self>;
            fn schema_type() -> &'static Type {
                const {
                    &Type {
                        kind: Kind::Enum(&Enum {
                            id: std::any::type_name::<$t>,
                            name: $name,
                            meta: Meta::EMPTY,
                            repr: Repr::Untagged,
                            variants: &[$(Variant {
                                name: $variant,
                                rust_name: $variant,
                                meta: Meta::EMPTY,
                                fields: &[content!($ty)],
                                style: VariantStyle::Newtype,
                                untagged: true,
                            }),+],
                            one_object: false,
                            tag_description: None,
                            open: false,
                        }),
                    }
                }
            }
        }
    };
}

one_of!(std::net::IpAddr => "IpAddr" {
    "V4": <std::net::Ipv4Addr as AgentSchema>::schema_type,
    "V6": <std::net::Ipv6Addr as AgentSchema>::schema_type
});

/// Paths: serde writes them as strings (and refuses paths that are not valid UTF-8).
impl AgentSchema for std::path::PathBuf {
    #[cfg(feature = "stream")]
    type Partial = crate::stream::Leaf<Self>;
    fn schema_type() -> &'static Type {
        <String as AgentSchema>::schema_type()
    }
}

impl AgentSchema for std::path::Path {
    #[cfg(feature = "stream")]
    type Partial = crate::stream::Leaf<std::path::PathBuf>;
    fn schema_type() -> &'static Type {
        <String as AgentSchema>::schema_type()
    }
}

/// An integer type with these bounds.
macro_rules! range {
    ($min:expr, $max:expr) => {
        || {
            const {
                &Type {
                    kind: Kind::Integer {
                        min: $min,
                        max: $max,
                    },
                }
            }
        }
    };
}

/// `NonZero` unsigned integers: at least 1.
macro_rules! non_zero_unsigned {
    ($($t:ty => $int:ty),*) => {$(
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]            type Partial = crate::stream::Leaf<Self>;
            fn schema_type() -> &'static Type {
                const LIMIT: i128 = 1 << 53;
                const MAX: Option<i128> =
                    if (<$int>::MAX as i128) < LIMIT { Some(<$int>::MAX as i128) } else { None };
                const { &Type { kind: Kind::Integer { min: Some(1), max: MAX } } }
            }
        }
    )*};
}

non_zero_unsigned!(
    std::num::NonZeroU8 => u8, std::num::NonZeroU16 => u16, std::num::NonZeroU32 => u32,
    std::num::NonZeroU64 => u64, std::num::NonZeroU128 => u128, std::num::NonZeroUsize => usize
);

/// `NonZero` signed integers: negative or positive, an untagged union of the two ranges.
macro_rules! non_zero_signed {
    ($($t:ty => $int:ty, $name:literal;)*) => {$(
        one_of!($t => $name {
            "Negative": range!(
                if (<$int>::MIN as i128) > -(1 << 53) { Some(<$int>::MIN as i128) } else { None },
                Some(-1)
            ),
            "Positive": range!(
                Some(1),
                if (<$int>::MAX as i128) < (1 << 53) { Some(<$int>::MAX as i128) } else { None }
            )
        });
    )*};
}

non_zero_signed! {
    std::num::NonZeroI8 => i8, "NonZeroI8";
    std::num::NonZeroI16 => i16, "NonZeroI16";
    std::num::NonZeroI32 => i32, "NonZeroI32";
    std::num::NonZeroI64 => i64, "NonZeroI64";
    std::num::NonZeroI128 => i128, "NonZeroI128";
    std::num::NonZeroIsize => isize, "NonZeroIsize";
}

/// A closed object of two required fields.
macro_rules! pair_struct {
    ($t:ty => $name:literal { $a:literal: $ta:ty, $b:literal: $tb:ty }) => {
        impl AgentSchema for $t {
            #[cfg(feature = "stream")]
            type Partial = crate::stream::Leaf<Self>;
            fn schema_type() -> &'static Type {
                const {
                    &Type {
                        kind: Kind::Struct(&Struct {
                            id: std::any::type_name::<$t>,
                            name: $name,
                            meta: Meta::EMPTY,
                            fields: &[
                                Field {
                                    name: $a,
                                    rust_name: $a,
                                    ty: <$ta as AgentSchema>::schema_type,
                                    meta: Meta::EMPTY,
                                    default: false,
                                    flatten: false,
                                },
                                Field {
                                    name: $b,
                                    rust_name: $b,
                                    ty: <$tb as AgentSchema>::schema_type,
                                    meta: Meta::EMPTY,
                                    default: false,
                                    flatten: false,
                                },
                            ],
                            open: false,
                        }),
                    }
                }
            }
        }
    };
}

pair_struct!(std::time::Duration => "Duration" { "secs": u64, "nanos": u32 });
pair_struct!(std::time::SystemTime => "SystemTime" {
    "secs_since_epoch": u64, "nanos_since_epoch": u32
});
