//! serde's externally tagged enums: unit variants as strings, the others as one-member objects
//! whose variant name is looked up in the plan and whose payload is checked.

use super::*;

/// An externally tagged enum, read by serde_json's own `deserialize_enum` (a unit variant's
/// name, or an object whose one member is the variant and its payload): the variant's name picks
/// the payload's schema as the type's own seed reads it.
pub(super) struct ExternalVisitor<'g, V> {
    pub(super) v: V,
    pub(super) cx: &'g Cx<'g>,
    pub(super) info: &'g Info,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ExternalVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(ExternalEnum {
            data,
            cx: self.cx,
            info: self.info,
        })
    }
}

/// What the name of an externally tagged enum's variant turned out to be.
#[derive(Clone, Copy)]
pub(super) enum Found {
    /// A name the schema does not list, a unit variant's name as an object's key (the schema
    /// writes unit variants as strings only), or a unit variant's name not read from the text
    /// itself (escaped: where it stands is not known here).
    Unknown,
    /// A unit variant's name, as a string value.
    Unit,
    /// The name of a variant with a payload: the payload's node.
    Payload(NodeId),
}

/// Finds which variant a name read by the type's own seed is (see [`Found`]).
pub(super) struct VariantLookup<'g> {
    pub(super) info: &'g Info,
    pub(super) text: &'g [u8],
    pub(super) found: Found,
}

impl Note for VariantLookup<'_> {
    #[inline]
    fn note(&mut self, s: &str) {
        let Some(v) = self
            .info
            .variants
            .iter()
            .find(|(name, _)| same_key(name.as_bytes(), s.as_bytes()))
        else {
            return;
        };
        self.found = match v.1 {
            Some(id) => Found::Payload(id),
            None if followed_by_colon(self.text, s) == Some(false) => Found::Unit,
            None => Found::Unknown,
        };
    }
}

/// Whether `s`, a string serde_json borrowed from `text`, is an object's key there (followed by
/// `:`) rather than a value; `None` when `s` is not a slice of `text` (an escaped string, which
/// serde_json unescapes into a buffer of its own).
#[inline]
pub(super) fn followed_by_colon(text: &[u8], s: &str) -> Option<bool> {
    // Addresses only: a string before `text` wraps around to an offset past its end.
    let start = (s.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    if start > text.len() {
        return None;
    }
    let mut at = start + s.len();
    if text.get(at) != Some(&b'"') {
        return None;
    }
    at += 1;
    while let Some(&b) = text.get(at) {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => at += 1,
            b':' => return Some(true),
            _ => return Some(false),
        }
    }
    Some(false)
}

/// serde_json's enum access, with the variant's name noted as the type's seed reads it.
pub(super) struct ExternalEnum<'g, A> {
    pub(super) data: A,
    pub(super) cx: &'g Cx<'g>,
    pub(super) info: &'g Info,
}

impl<'de, 'g, A: de::EnumAccess<'de>> de::EnumAccess<'de> for ExternalEnum<'g, A> {
    type Error = A::Error;
    type Variant = ExternalVariant<'g, A::Variant>;
    #[inline]
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Self::Variant), A::Error> {
        let mut lookup = VariantLookup {
            info: self.info,
            text: self.cx.text,
            found: Found::Unknown,
        };
        let (key, variant) = self.data.variant_seed(KeySeed {
            seed,
            lookup: &mut lookup,
        })?;
        Ok((
            key,
            ExternalVariant {
                variant,
                cx: self.cx,
                found: lookup.found,
            },
        ))
    }
}

/// serde_json's variant access, the payload checked against its variant's schema. A unit
/// variant is taken only as a string, a payload only for a variant the schema gives one (serde_json
/// itself rejects a payload variant written as a string, and an object of more than one member).
pub(super) struct ExternalVariant<'g, A> {
    pub(super) variant: A,
    pub(super) cx: &'g Cx<'g>,
    pub(super) found: Found,
}

impl<'g, A> ExternalVariant<'g, A> {
    #[inline]
    pub(super) fn payload<E: de::Error>(&self) -> Result<Guide<'g>, E> {
        match self.found {
            Found::Payload(id) => Ok(self.cx.guide(id, false)),
            _ => Err(fail("an enum object names a variant with a payload")),
        }
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for ExternalVariant<'_, A> {
    type Error = A::Error;
    #[inline]
    fn unit_variant(self) -> Result<(), A::Error> {
        match self.found {
            Found::Unit => self.variant.unit_variant(),
            _ => Err(fail("a unit variant is a string")),
        }
    }
    #[inline]
    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, A::Error> {
        let g = self.payload()?;
        self.variant.newtype_variant_seed(GuidedSeed { seed, g })
    }
    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let g = self.payload()?;
        self.variant
            .tuple_variant(len, GuidedVisitor { v: visitor, g })
    }
    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let g = self.payload()?;
        self.variant
            .struct_variant(fields, GuidedVisitor { v: visitor, g })
    }
}

pub(super) struct GuidedEnum<'g, A> {
    pub(super) data: A,
    pub(super) g: Guide<'g>,
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for GuidedEnum<'_, A> {
    type Error = A::Error;
    type Variant = A::Variant;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.data.variant_seed(GuidedSeed { seed, g: self.g })
    }
}
