//! The object keywords: properties in order, `required`, closing, optional properties made
//! nullable, `patternProperties`, `propertyOrdering`.

use super::*;

impl Conv<'_> {
    /// The object keywords: properties converted in order, `required`, closing, nullable
    /// optional properties, `propertyOrdering`.
    pub(super) fn object(
        &mut self,
        m: &Map<String, Value>,
        out: &mut Map<String, Value>,
        at: &str,
        cx: Cx,
        depth: usize,
        notes: &mut Vec<String>,
    ) -> Result<(), ConvertError> {
        let d = self.dialect;
        let empty = Map::new();
        let props = match m.fget("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "properties"),
                    "`properties` must be an object".into(),
                ))
            }
        };
        let mut required = Names::default();
        match m.fget("required") {
            None => {}
            Some(Value::Array(r)) => {
                for name in r {
                    let name = name.as_str().ok_or_else(|| {
                        malformed(
                            &pointer::push(at, "required"),
                            "`required` must list property names".into(),
                        )
                    })?;
                    if !props.contains_key(name) {
                        // A name with no schema: the strict dialects reject it.
                        self.change(
                            at,
                            ChangeKind::Dropped {
                                keyword: format!("required/{name}"),
                            },
                        );
                        continue;
                    }
                    required.insert(name);
                }
            }
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "required"),
                    "`required` must be an array".into(),
                ))
            }
        }
        let pat = m
            .fget("patternProperties")
            .filter(|p| p.as_object().is_some_and(|p| !p.is_empty()));
        let additional = m.fget("additionalProperties");
        // What extra keys the input allows: none, any, or values of a schema.
        let is_map = match additional {
            Some(Value::Bool(false)) => pat.is_some(),
            Some(Value::Object(a)) => !a.is_empty() || props.is_empty() || pat.is_some(),
            Some(Value::Bool(true)) => props.is_empty() || pat.is_some(),
            // `"properties": {}` declared and nothing else: a tool without arguments, not a map;
            // so is a bare `{"type": "object"}` at the root (an MCP tool without arguments).
            None => (props.is_empty() && !m.fhas("properties") && !at.is_empty()) || pat.is_some(),
            Some(_) => {
                return Err(malformed(
                    &pointer::push(at, "additionalProperties"),
                    "`additionalProperties` must be a schema".into(),
                ))
            }
        };
        let mut out_props = Map::with_capacity(props.len());
        // (whether each property's schema keeps a `$ref`: see `kept_patterns`)
        let mut with_ref: Vec<bool> = Vec::with_capacity(props.len());
        for (name, schema) in props {
            let refs = self.refs_kept;
            let pat_at = pointer::push_all(at, &["properties", name]);
            let pcx = Cx {
                escape: cx.escape || !required.contains(name),
                ..cx
            };
            let mut converted = self.node(schema, &pat_at, pcx, depth + 1)?;
            if !required.contains(name) && self.rules.all_required {
                converted = self.nullable(converted);
                self.change(&pat_at, ChangeKind::MadeNullable);
            }
            with_ref.push(self.refs_kept > refs);
            out_props.insert(name.clone(), converted);
        }
        let required: Vec<&str> = if self.rules.all_required {
            props.keys().map(String::as_str).collect()
        } else {
            required.list
        };
        let names: Vec<Value> = if self.rules.property_ordering {
            out_props.keys().cloned().map(Value::String).collect()
        } else {
            Vec::new()
        };
        if m.fhas("properties") || self.rules.closed_objects {
            out.insert("properties".into(), Value::Object(out_props));
        }
        if !required.is_empty() {
            out.insert(
                "required".into(),
                Value::Array(
                    required
                        .into_iter()
                        .map(|n| Value::String(n.to_string()))
                        .collect(),
                ),
            );
        }
        if self.rules.closed_objects {
            if is_map {
                if !self.options.close_maps {
                    return Err(unsupported(
                        at,
                        format!(
                            "an object with arbitrary keys (a map) cannot be expressed: {d} requires `additionalProperties: false` on every object"
                        ),
                    ));
                }
                self.change(at, ChangeKind::MapClosed);
                notes.push("(Free-form object: no extra keys can be written here.)".into());
            } else if additional != Some(&Value::Bool(false)) {
                self.change(at, ChangeKind::Closed);
            }
            out.insert("additionalProperties".into(), false.into());
        } else {
            let kept = match pat {
                Some(Value::Object(pp)) if self.rules.pattern_properties => {
                    self.kept_patterns(pp, props, &with_ref, at, cx, depth)?
                }
                _ => None,
            };
            // Without its `patternProperties`, `additionalProperties` would also apply to the
            // keys the patterns admit: left out too, so that no value the input accepts is
            // refused.
            let pat_dropped = pat.is_some() && kept.is_none();
            match additional {
                Some(_) if pat_dropped => self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "additionalProperties".into(),
                    },
                ),
                Some(av @ Value::Object(a)) if !a.is_empty() => {
                    let a = self.node(
                        av,
                        &pointer::push(at, "additionalProperties"),
                        cx,
                        depth + 1,
                    )?;
                    out.insert("additionalProperties".into(), a);
                }
                Some(v) => {
                    out.insert(
                        "additionalProperties".into(),
                        if v == &json!({}) {
                            Value::Bool(true)
                        } else {
                            v.clone()
                        },
                    );
                }
                None => {}
            }
            if let Some(outp) = kept {
                out.insert("patternProperties".into(), Value::Object(outp));
            } else if pat.is_some() {
                self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "patternProperties".into(),
                    },
                );
            }
        }
        if self.rules.property_ordering && !names.is_empty() {
            // Reported unless the input already had this very ordering (a second pass).
            if !matches!(m.fget("propertyOrdering"), Some(Value::Array(given)) if *given == names) {
                self.change(
                    at,
                    ChangeKind::Added {
                        keyword: "propertyOrdering".into(),
                    },
                );
            }
            out.insert("propertyOrdering".into(), Value::Array(names));
        }
        Ok(())
    }
}

impl Conv<'_> {
    /// The `patternProperties` `pp` of the object at `at` converted, or `None` where the
    /// dialect drops them: always without `pattern_properties`, and, where its outputs must
    /// compile in llguidance (`pattern_properties_compiled`), when the keys are not
    /// [`table::disjoint_pattern_keys`] or a named property that may match a key keeps a
    /// `$ref` in its schema or that key's (`with_ref`: whether each property's does).
    fn kept_patterns(
        &mut self,
        pp: &Map<String, Value>,
        props: &Map<String, Value>,
        with_ref: &[bool],
        at: &str,
        cx: Cx,
        depth: usize,
    ) -> Result<Option<Map<String, Value>>, ConvertError> {
        let literals = if self.rules.pattern_properties_compiled {
            match table::disjoint_pattern_keys(pp.keys().map(String::as_str)) {
                Some(l) => l,
                None => return Ok(None),
            }
        } else {
            Vec::new()
        };
        let mut outp = Map::new();
        let mut pattern_refs = Vec::new();
        for (re, s) in pp {
            // (keys matching the pattern forbidden: written as it is, what engines compile)
            if *s == Value::Bool(false) {
                outp.insert(re.clone(), Value::Bool(false));
                pattern_refs.push(false);
                continue;
            }
            let pat_at = pointer::push(&pointer::push(at, "patternProperties"), re);
            let refs = self.refs_kept;
            outp.insert(re.clone(), self.node(s, &pat_at, cx, depth + 1)?);
            pattern_refs.push(self.refs_kept > refs);
        }
        if !self.rules.pattern_properties_compiled {
            return Ok(Some(outp));
        }
        // (a named property a pattern may match, where either schema keeps a `$ref`: the keys
        // are disjoint, so at most one literal start is a prefix of a name, found by search)
        let mut sorted: Vec<(&str, usize)> = (literals.iter().enumerate())
            .filter_map(|(i, l)| l.as_ref().map(|l| (l.0.as_str(), i)))
            .collect();
        sorted.sort_unstable();
        let unanchored: Vec<usize> = (0..literals.len())
            .filter(|i| literals[*i].is_none())
            .collect();
        let clash = props.keys().zip(with_ref).any(|(name, &name_ref)| {
            let at_or_before = sorted.partition_point(|(l, _)| *l <= name.as_str());
            let prefixed = at_or_before
                .checked_sub(1)
                .map(|j| sorted[j].1)
                .filter(|&i| table::may_match(name, literals[i].as_ref()));
            prefixed
                .into_iter()
                .chain(unanchored.iter().copied())
                .any(|i| name_ref || pattern_refs[i])
        });
        Ok((!clash).then_some(outp))
    }
}

/// Names in order without repeats, looked up by hash once there are many (an object of 20,000
/// properties took 0.7 s when each was looked up in the list).
#[derive(Default)]
pub(super) struct Names<'a> {
    /// The names, in order.
    pub list: Vec<&'a str>,
    /// The same names, filled once the list is longer than [`SMALL`](crate::convert::SMALL).
    set: HashSet<&'a str>,
}

impl<'a> Names<'a> {
    /// Whether `name` is in the list.
    pub fn contains(&self, name: &str) -> bool {
        if self.set.is_empty() {
            super::compared(self.list.len());
            self.list.contains(&name)
        } else {
            self.set.contains(name)
        }
    }

    /// Adds `name` unless it is there already.
    pub fn insert(&mut self, name: &'a str) {
        if self.contains(name) {
            return;
        }
        self.list.push(name);
        if !self.set.is_empty() {
            self.set.insert(name);
        } else if self.list.len() > crate::convert::SMALL {
            self.set.extend(self.list.iter().copied());
        }
    }
}
