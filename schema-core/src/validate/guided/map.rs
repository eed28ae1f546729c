//! Objects: each property checked against its node, required and unknown properties, tagged
//! unions told apart by their tag, and `null` read as absent where the type allows.

use super::*;

pub(super) struct GuidedMap<'g, A> {
    pub(super) map: A,
    pub(super) cx: &'g Cx<'g>,
    /// The object's node (`None`: anything goes).
    pub(super) info: Option<&'g Info>,
    /// The properties of a plain object (empty for a union or anything-goes object), so that
    /// `props.get(found)` both tells a known key and finds its node.
    pub(super) props: &'g [Prop],
    pub(super) union: Option<&'g Union>,
    /// The union branch the tag named.
    pub(super) branch: Cell<Option<usize>>,
    pub(super) lookup: Lookup<'g>,
    /// Properties seen (bits over the first 64 of the object's or union's names) once the
    /// keys left schema order (before, `lookup` knows them), and which union properties were
    /// `null`.
    pub(super) seen: u64,
    pub(super) nulls: u64,
    /// `seen` has been filled in from `lookup` (the keys left schema order).
    pub(super) tracking: bool,
    /// Required properties of a plain object seen beyond the first 64.
    pub(super) required_beyond: usize,
}

impl<'de, 'g, A: MapAccess<'de>> GuidedMap<'g, A> {
    #[inline(always)]
    pub(super) fn new(
        map: A,
        cx: &'g Cx<'g>,
        info: Option<&'g Info>,
        union: Option<&'g Union>,
    ) -> Self {
        let (names, props): (&[Box<str>], &[Prop]) = match (union, info) {
            (Some(u), _) => (&u.names, &[]),
            (None, Some(i)) => (&i.names, &i.props),
            (None, None) => (&[], &[]),
        };
        GuidedMap {
            map,
            cx,
            info,
            props,
            union,
            branch: Cell::new(None),
            lookup: Lookup {
                names,
                next: 0,
                found: OPAQUE,
                ordered: names.len() <= 64,
                ordered_upto: 0,
                others: None,
                again: false,
            },
            seen: 0,
            nulls: 0,
            tracking: false,
            required_beyond: 0,
        }
    }

    /// The properties seen so far (bits over the first 64 names).
    #[inline(always)]
    pub(super) fn seen(&self) -> u64 {
        if self.lookup.ordered {
            low_bits(self.lookup.next)
        } else {
            self.seen
        }
    }

    #[inline(always)]
    pub(super) fn finish(&self) -> Result<(), A::Error> {
        if let Some(u) = self.union {
            return self.finish_union(u);
        }
        if let Some(i) = self.info {
            let seen = self.seen();
            if seen & i.required_mask != i.required_mask
                || self.required_beyond < i.required_beyond
                || i.required_undefined
                || (i.exactly_one && seen.count_ones() != 1)
            {
                return Err(fail("a required property is missing"));
            }
        }
        Ok(())
    }

    #[inline(never)]
    pub(super) fn finish_union(&self, u: &Union) -> Result<(), A::Error> {
        let Some(b) = self.branch.get() else {
            return Err(fail("the tag is missing"));
        };
        let present = self.seen() & !self.nulls;
        if present & !u.allowed[b] != 0 || u.required[b] & !present != 0 {
            return Err(fail("properties do not match the variant"));
        }
        Ok(())
    }

    /// Notes the key just read once keys have left schema order: a duplicate is an error.
    #[inline(never)]
    pub(super) fn track(&mut self) -> Result<(), A::Error> {
        if std::mem::take(&mut self.lookup.again) {
            return Err(fail("a key written twice"));
        }
        if !self.tracking {
            self.tracking = true;
            self.seen = low_bits(self.lookup.ordered_upto);
        }
        let i = self.lookup.found;
        if i < self.lookup.names.len() {
            if i < 64 {
                let bit = 1u64 << i;
                if self.seen & bit != 0 {
                    return Err(fail("duplicate property"));
                }
                self.seen |= bit;
            } else if self.props.get(i).is_some_and(|p| p.required) {
                self.required_beyond += 1;
            }
        }
        Ok(())
    }

    pub(super) fn guide(&self, mode: Mode<'g>) -> Guide<'g> {
        Guide { cx: self.cx, mode }
    }

    /// The value of a key that names no property of a plain object: a union's property, an
    /// unknown or opaque key, or any key of an anything-goes object.
    #[inline(never)]
    pub(super) fn other_value<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        let found = self.lookup.found;
        if let Some(u) = self.union {
            return self.union_value(u, found, seed);
        }
        let Some(info) = self.info else {
            let g = self.guide(Mode::Free);
            return self.map.next_value_seed(GuidedSeed { seed, g });
        };
        if found == OPAQUE && !info.props.is_empty() {
            // The key was not read as a string, so which property it names is not known.
            return Err(fail("needs the slow path"));
        }
        let g = match info.additional {
            Additional::Allowed => self.guide(Mode::Free),
            Additional::Forbidden => self.guide(Mode::NullOnly),
            Additional::Schema(id) => self.cx.guide(id, false),
        };
        self.map.next_value_seed(GuidedSeed { seed, g })
    }
}

impl<'de, 'g, A: MapAccess<'de>> MapAccess<'de> for GuidedMap<'g, A> {
    type Error = A::Error;

    #[inline(always)]
    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.lookup.found = OPAQUE;
        let key = self.map.next_key_seed(KeySeed {
            seed,
            lookup: &mut self.lookup,
        })?;
        if key.is_none() {
            self.finish()?;
            return Ok(None);
        }
        if !self.lookup.ordered {
            self.track()?;
        }
        Ok(key)
    }

    #[inline(always)]
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        match self.props.get(self.lookup.found) {
            Some(p) => {
                let g = self.cx.guide(p.node, p.null_absent);
                self.map.next_value_seed(GuidedSeed { seed, g })
            }
            None => self.other_value(seed),
        }
    }

    #[inline(always)]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>, A::Error> {
        self.next_key_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V, A::Error> {
        self.next_value_seed(std::marker::PhantomData)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'de, 'g, A: MapAccess<'de>> GuidedMap<'g, A> {
    /// The value of a property of a tagged union of objects.
    pub(super) fn union_value<S: DeserializeSeed<'de>>(
        &mut self,
        u: &'g Union,
        found: usize,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        let i = match found {
            OPAQUE => return Err(fail("needs the slow path")),
            UNKNOWN => {
                let g = self.guide(Mode::NullOnly);
                return self.map.next_value_seed(GuidedSeed { seed, g });
            }
            i => i,
        };
        if i == u.tag_index {
            let capture = Capture {
                union: u,
                branch: &self.branch,
            };
            let g = Guide {
                cx: self.cx,
                mode: Mode::Capture(&capture),
            };
            return self.map.next_value_seed(GuidedSeed { seed, g });
        }
        let g = match self.branch.get() {
            Some(b) => match u.by_branch[b][i] {
                Some(id) => self.cx.guide(id, true),
                None => self.guide(Mode::NullOnly),
            },
            None => match u.keys[i] {
                Some(id) => self.cx.guide(id, true),
                // The branch is not known yet and the branches disagree on this property.
                None => return Err(fail("needs the slow path")),
            },
        };
        let null_probe = Cell::new(false);
        let value = self.map.next_value_seed(NullProbe {
            seed: GuidedSeed { seed, g },
            was_null: &null_probe,
        })?;
        if null_probe.get() {
            self.nulls |= 1u64 << i;
        }
        Ok(value)
    }
}

/// Notes whether the value was `null`, so a `null` union property counts as absent.
pub(super) struct NullProbe<'p, S> {
    pub(super) seed: S,
    pub(super) was_null: &'p Cell<bool>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NullProbe<'_, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(ProbeDe {
            de: d,
            was_null: self.was_null,
        })
    }
}

pub(super) struct ProbeDe<'p, D> {
    pub(super) de: D,
    pub(super) was_null: &'p Cell<bool>,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ProbeDe<'_, D> {
    type Error = D::Error;
    forward_deserializer!(@wrapper self, visitor => ProbeVisitor { v: visitor, was_null: self.was_null });
}

pub(super) struct ProbeVisitor<'p, V> {
    pub(super) v: V,
    pub(super) was_null: &'p Cell<bool>,
}

macro_rules! probe_visit {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: de::Error>(self, x: $ty) -> Result<V::Value, E> {
            self.v.$method(x)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ProbeVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.v.expecting(f)
    }
    probe_visit! {
        visit_bool(bool); visit_i64(i64); visit_u64(u64); visit_i128(i128); visit_u128(u128);
        visit_f64(f64); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.was_null.set(true);
        self.v.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.was_null.set(true);
        self.v.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_some(d)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.v.visit_newtype_struct(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.v.visit_seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.v.visit_map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.v.visit_enum(data)
    }
}
