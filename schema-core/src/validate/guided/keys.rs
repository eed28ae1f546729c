//! Object keys: a wrapping seed notes which property a key names on its way to the type's own
//! field visitor, so the key is read once.

use super::*;

/// [`Lookup::found`] when the key named no property of the object (or union).
pub(super) const UNKNOWN: usize = usize::MAX - 1;
/// [`Lookup::found`] when the key was not read as a string (an integer or enum key): its name
/// is not known here.
pub(super) const OPAQUE: usize = usize::MAX;

/// Finds which property a key names, trying the one after the last first (a model writes
/// properties in schema order).
pub(super) struct Lookup<'g> {
    pub(super) names: &'g [Box<str>],
    pub(super) next: usize,
    /// What the last key named: the index of the property in `names`, [`UNKNOWN`] or
    /// [`OPAQUE`].
    pub(super) found: usize,
    /// Every key so far named the property after the previous one, starting from the first
    /// (and there are at most 64): the properties seen are exactly the first `next`, none
    /// twice, so the map need not note each one.
    pub(super) ordered: bool,
    /// How many properties had been seen in order when `ordered` was cleared.
    pub(super) ordered_upto: usize,
    /// The hashes of the keys read that name no property, to find one written twice (which
    /// `from_llm` rejects: the slow path, which compares the keys themselves, reports it), and
    /// whether the last key's hash was seen before.
    pub(super) others: Option<Box<KeyHashes>>,
    pub(super) again: bool,
}

/// The hashes of an object's keys that name no property (boxed in [`Lookup`], which most
/// objects use without one).
#[derive(Default)]
pub(super) struct KeyHashes(std::collections::HashSet<u64>);

/// Learns which name a key (or an enum's variant) is as the type's own seed reads it.
pub(super) trait Note {
    /// The name just read, when it was read as a string.
    fn note(&mut self, s: &str);
}

impl Note for Lookup<'_> {
    #[inline(always)]
    fn note(&mut self, s: &str) {
        if let Some(k) = self.names.get(self.next) {
            if same_key(k.as_bytes(), s.as_bytes()) {
                self.found = self.next;
                self.next += 1;
                return;
            }
        }
        self.scan(s);
    }
}

impl Lookup<'_> {
    /// The key is not the next property in schema order: look at all of them.
    #[inline(never)]
    pub(super) fn scan(&mut self, s: &str) {
        if self.ordered {
            self.ordered = false;
            self.ordered_upto = self.next;
        }
        self.found = match self
            .names
            .iter()
            .position(|k| same_key(k.as_bytes(), s.as_bytes()))
        {
            Some(i) => {
                self.next = i + 1;
                i
            }
            None => {
                let others = self.others.get_or_insert_with(Default::default);
                // FNV-1a: a collision only sends the text down the slow path.
                let hash = s.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
                self.again = !others.0.insert(hash);
                UNKNOWN
            }
        };
    }
}

/// The first `n` bits.
pub(super) fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Byte equality without a call to `memcmp` for the short keys of a model's objects: eight
/// bytes at a time, the last (overlapping) word closing the comparison.
#[inline(always)]
pub(super) fn same_key(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n >= 8 {
        let word =
            |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
        let mut at = 0;
        while at + 8 < n {
            if word(a, at) != word(b, at) {
                return false;
            }
            at += 8;
        }
        return word(a, n - 8) == word(b, n - 8);
    }
    if n >= 4 {
        let word =
            |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
        return word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4);
    }
    // One to three bytes: the first, middle and last cover them all.
    n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1])
}

/// Hands an object key to the type's own seed, noting on the way which property it names.
pub(super) struct KeySeed<'l, S, N> {
    pub(super) seed: S,
    pub(super) lookup: &'l mut N,
}

impl<'de, S: DeserializeSeed<'de>, N: Note> DeserializeSeed<'de> for KeySeed<'_, S, N> {
    type Value = S::Value;
    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
}

pub(super) struct KeyDe<'l, D, N> {
    pub(super) de: D,
    pub(super) lookup: &'l mut N,
}

impl<'de, D: Deserializer<'de>, N: Note> Deserializer<'de> for KeyDe<'_, D, N> {
    type Error = D::Error;
    forward_deserializer!(@wrapper self, visitor => KeyVisitor { v: visitor, lookup: self.lookup });
}

pub(super) struct KeyVisitor<'l, V, N> {
    pub(super) v: V,
    pub(super) lookup: &'l mut N,
}

macro_rules! key_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, x: $ty) -> Result<V::Value, E> {
            self.v.$method(x)
        }
    )*};
}

impl<'de, V: Visitor<'de>, N: Note> Visitor<'de> for KeyVisitor<'_, V, N> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    #[inline]
    fn visit_str<E: de::Error>(self, s: &str) -> Result<V::Value, E> {
        self.lookup.note(s);
        self.v.visit_str(s)
    }
    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<V::Value, E> {
        self.lookup.note(s);
        self.v.visit_borrowed_str(s)
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<V::Value, E> {
        self.lookup.note(&s);
        self.v.visit_string(s)
    }
    key_visit! {
        visit_bool(bool); visit_i64(i64); visit_u64(u64); visit_i128(i128); visit_u128(u128);
        visit_f64(f64); visit_char(char); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.v.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_some(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(KeyDe {
            de: d,
            lookup: self.lookup,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.v.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.v.visit_map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(KeyEnum {
            data,
            lookup: self.lookup,
        })
    }
}

/// An enum read from a key (a map keyed by a unit enum): its variant name is the key.
pub(super) struct KeyEnum<'l, A, N> {
    pub(super) data: A,
    pub(super) lookup: &'l mut N,
}

impl<'de, A: de::EnumAccess<'de>, N: Note> de::EnumAccess<'de> for KeyEnum<'_, A, N> {
    type Error = A::Error;
    type Variant = A::Variant;
    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, A::Variant), A::Error> {
        self.data.variant_seed(KeySeed {
            seed,
            lookup: self.lookup,
        })
    }
}
