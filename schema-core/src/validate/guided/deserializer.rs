//! The checking deserializer: [`Guided`] wraps serde_json's deserializer, [`GuidedVisitor`]
//! checks each scalar, sequence and map on its way to the type's own visitor.

use super::*;

/// A deserializer that checks each value against the schema on its way to the visitor.
pub(super) struct Guided<'g, D> {
    pub(super) de: D,
    pub(super) g: Guide<'g>,
}

pub(super) struct GuidedSeed<'g, S> {
    pub(super) seed: S,
    pub(super) g: Guide<'g>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for GuidedSeed<'_, S> {
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        // A value without a schema is still guided: its objects' keys are checked for one
        // written twice.
        self.seed.deserialize(Guided { de: d, g: self.g })
    }
}

/// `Deserializer` methods for integers of up to 64 bits: when the node's only check on an integer
/// is a pair of bounds (or none), the type's own visitor is wrapped in [`Bounded`] alone, so that
/// serde_json's number parsing is not driven through the checking visitor.
macro_rules! guided_ints {
    ($($method:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            if let Mode::Node(i, _) = self.g.mode {
                if let Some((lo, hi)) = i.int_bounds {
                    return self.de.$method(Bounded { v: visitor, lo, hi });
                }
            }
            self.de.$method(GuidedVisitor { v: visitor, g: self.g })
        }
    )*};
}

/// A visitor that takes an integer (`visit_i64` / `visit_u64`) within `lo..=hi` and hands it on
/// unchanged, and nothing else: any other value, a float included, is an error (left to the slow
/// path).
pub(super) struct Bounded<V> {
    pub(super) v: V,
    pub(super) lo: i128,
    pub(super) hi: i128,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Bounded<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        if self.lo <= i128::from(n) && i128::from(n) <= self.hi {
            self.v.visit_i64(n)
        } else {
            Err(fail("an integer out of bounds"))
        }
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        if self.lo <= i128::from(n) && i128::from(n) <= self.hi {
            self.v.visit_u64(n)
        } else {
            Err(fail("an integer out of bounds"))
        }
    }
}

impl<'de, D: Deserializer<'de>> Guided<'_, D> {
    /// `deserialize_enum` for any enum but an externally tagged one the plan knows (kept out of
    /// line, so that the common case's frame stays small).
    #[inline(never)]
    pub(super) fn other_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.de.deserialize_enum(
            name,
            variants,
            GuidedVisitor {
                v: visitor,
                g: self.g,
            },
        )
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Guided<'_, D> {
    type Error = D::Error;
    forward_deserializer!(@but_enum_ints self, visitor => GuidedVisitor { v: visitor, g: self.g });
    guided_ints! {
        deserialize_i8; deserialize_i16; deserialize_i32; deserialize_i64;
        deserialize_u8; deserialize_u16; deserialize_u32; deserialize_u64;
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        if let Mode::Node(info, _) = self.g.mode {
            if info.external {
                // Read as serde_json reads an enum (a string, or an object of one member),
                // with the variant's payload checked on the way.
                return self.de.deserialize_enum(
                    name,
                    variants,
                    ExternalVisitor {
                        v: visitor,
                        cx: self.g.cx,
                        info,
                    },
                );
            }
        }
        self.other_enum(name, variants, visitor)
    }
    /// An ignored value is still checked (serde_json would skip it without a word).
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.de.deserialize_any(GuidedVisitor {
            v: visitor,
            g: self.g,
        })
    }
    fn is_human_readable(&self) -> bool {
        self.de.is_human_readable()
    }
}

pub(super) struct GuidedVisitor<'g, V> {
    pub(super) v: V,
    pub(super) g: Guide<'g>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for GuidedVisitor<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }

    #[inline]
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<V::Value, E> {
        if !self.g.check_bool(b) {
            return Err(reject(&self.g, "boolean"));
        }
        self.v.visit_bool(b)
    }
    #[inline]
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        if !self.g.check_int(i128::from(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i64(n)
    }
    #[inline]
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        if !self.g.check_int(i128::from(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u64(n)
    }
    fn visit_i128<E: de::Error>(self, n: i128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_number(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_i128(n)
    }
    fn visit_u128<E: de::Error>(self, n: u128) -> Result<V::Value, E> {
        if !Number::from_f64(n as f64).is_some_and(|num| self.g.check_number(num)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_u128(n)
    }
    #[inline]
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<V::Value, E> {
        if !n.is_finite() || !self.g.check_num(n.fract() == 0.0, || Number::from_f64(n)) {
            return Err(reject(&self.g, "number"));
        }
        self.v.visit_f64(n)
    }
    fn visit_char<E: de::Error>(self, c: char) -> Result<V::Value, E> {
        if !self.g.check_str(c.encode_utf8(&mut [0; 4])) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_char(c)
    }
    #[inline]
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_str(s)
    }
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        if !self.g.check_str(s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_borrowed_str(s)
    }
    #[inline]
    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        if !self.g.check_str(&s) {
            return Err(reject(&self.g, "string"));
        }
        self.v.visit_string(s)
    }
    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<V::Value, E> {
        self.v.visit_bytes(b)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<V::Value, E> {
        self.v.visit_borrowed_bytes(b)
    }
    fn visit_byte_buf<E: de::Error>(self, b: Vec<u8>) -> Result<V::Value, E> {
        self.v.visit_byte_buf(b)
    }
    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_none()
    }
    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if !self.g.check_null() {
            return Err(reject(&self.g, "null"));
        }
        self.v.visit_unit()
    }
    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        match self.g.mode {
            Mode::NullOnly => Err(reject(&self.g, "a value where only null is read as absent")),
            Mode::Free => self.v.visit_some(d),
            _ => self.v.visit_some(Guided { de: d, g: self.g }),
        }
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(Guided { de: d, g: self.g })
    }
    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let (items, prefix, min, max): (_, &[NodeId], _, _) = match self.g.mode {
            Mode::Node(i, _) => {
                if !rules::type_admits(i.types, T_ARR) {
                    return Err(reject(&self.g, "array"));
                }
                let items = i.items.map(|id| &self.g.cx.info[id]);
                (items, &i.prefix, i.min_items, i.max_items)
            }
            Mode::Free => (None, &[], 0, u64::MAX),
            Mode::NullOnly | Mode::Capture(..) => return Err(reject(&self.g, "array")),
        };
        self.v.visit_seq(GuidedSeq {
            seq,
            cx: self.g.cx,
            items,
            prefix,
            count: 0,
            min,
            max,
        })
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let (info, union) = match self.g.mode {
            Mode::Node(i, _) => {
                if !rules::type_admits(i.types, T_OBJ) {
                    return Err(reject(&self.g, "object"));
                }
                (Some(i), i.union.map(|u| &self.g.cx.plan.unions[u]))
            }
            Mode::Free => (None, None),
            Mode::NullOnly | Mode::Capture(..) => return Err(reject(&self.g, "object")),
        };
        self.v
            .visit_map(GuidedMap::new(map, self.g.cx, info, union))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(GuidedEnum { data, g: self.g })
    }
}
