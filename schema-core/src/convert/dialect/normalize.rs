//! Normalisation of one schema object of a lowered document before it is converted:
//! annotations dropped, `nullable` read as the flag, unions of `required` clauses as a note,
//! unions of documented constants as one `enum`; what the lowering should have written
//! otherwise (an `allOf`, a type array, a `oneOf` union, an enum with `null`) an internal error.

use super::*;

impl Conv<'_> {
    /// Normalises one schema object before conversion (see the module docs).
    #[inline(never)]
    pub(super) fn prepare<'v>(
        &mut self,
        mut m: Cow<'v, Map<String, Value>>,
        at: &str,
    ) -> Result<Prepared<'v>, ConvertError> {
        self.strip_annotations(&mut m, at);
        self.model_rewrites(at, false);
        if let Some(parts) = m.fget("allOf") {
            // (the lowering merges every `allOf` the dialect can take: one left has a part no
            // value satisfies, or is a place the lowering failed)
            let Value::Array(parts) = parts else {
                return Err(malformed(at, "`allOf` must be an array".into()));
            };
            let at_false = parts.iter().position(|p| *p == Value::Bool(false));
            return Err(match at_false {
                Some(i) => unsupported(
                    &pointer::push_index(&pointer::push(at, "allOf"), i),
                    "the `false` schema (no value allowed) cannot be expressed".into(),
                ),
                None => internal(at, "an `allOf` the lowering did not merge"),
            });
        }
        let mut notes: Vec<String> = Vec::new();
        let mut nullable = false;
        let found = match m.fget("nullable") {
            Some(_) => m.to_mut().remove("nullable"),
            None => None,
        };
        match found {
            Some(Value::Bool(true)) => {
                nullable = true;
                self.change(at, ChangeKind::TypeArraySplit);
            }
            Some(Value::Bool(false)) | None => {}
            Some(_) => return Err(malformed(at, "`nullable` must be a boolean".into())),
        }
        // Type arrays.
        if let Some(Value::Array(types)) = m.fget("type").filter(|t| t.is_array()).cloned() {
            let mut names = Vec::new();
            for t in &types {
                match t.as_str() {
                    Some(
                        s @ ("string" | "number" | "integer" | "boolean" | "object" | "array"
                        | "null"),
                    ) => {
                        if !names.contains(&s) {
                            names.push(s)
                        }
                    }
                    _ => {
                        return Err(malformed(
                            &pointer::push(at, "type"),
                            format!("unknown type {t}"),
                        ))
                    }
                }
            }
            let _ = names;
            return Err(internal(at, "a type array the lowering did not split"));
        } else if let Some(t) = m.fget("type") {
            if !t.is_string() {
                return Err(malformed(
                    &pointer::push(at, "type"),
                    "`type` must be a string or an array".into(),
                ));
            }
        }
        // `null` inside an enum: a nullable enum.
        let null_in_enum = matches!(m.fget("enum"), Some(Value::Array(e)) if e.len() > 1 && e.contains(&Value::Null));
        if null_in_enum {
            return Err(internal(
                at,
                "an enum with `null` the lowering did not make nullable",
            ));
        }
        // `oneOf` -> `anyOf`.
        let was_one_of = m.fhas("oneOf");
        // A union of `required` clauses as the last keyword of a borrowed schema (seed 000 §9):
        // skipped in place of removing it, which would copy the whole schema.
        if was_one_of && matches!(m, Cow::Borrowed(_)) && !m.fhas("anyOf") {
            let clauses = match m.iter().next_back() {
                Some((k, Value::Array(b))) if k == "oneOf" && !b.is_empty() => b
                    .iter()
                    .map(required_clause)
                    .collect::<Option<Vec<Vec<String>>>>(),
                _ => None,
            };
            if let Some(clauses) = clauses {
                self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "oneOf".into(),
                    },
                );
                notes.push(self.clause_note(&clauses));
                return Ok((m, nullable, notes, Some("oneOf")));
            }
        }
        if was_one_of {
            let m = m.to_mut();
            let one = m.remove("oneOf").unwrap_or_default();
            match m.get_mut("anyOf") {
                None => {
                    m.insert("anyOf".into(), one);
                }
                Some(_) => {
                    return Err(unsupported(
                        at,
                        "`anyOf` and `oneOf` on the same schema cannot be expressed as one union"
                            .into(),
                    ))
                }
            }
        }
        if let Some(any) = m.fget("anyOf") {
            let Value::Array(branches) = any else {
                return Err(malformed(at, "`anyOf` / `oneOf` must be an array".into()));
            };
            if branches.is_empty() {
                return Err(malformed(at, "empty `anyOf` / `oneOf`".into()));
            }
            // A union of `{"required": [...]}` clauses (which property must be present): no
            // dialect keeps it beside `properties`; it becomes a note.
            let clauses: Option<Vec<Vec<String>>> = branches.iter().map(required_clause).collect();
            if let Some(clauses) = clauses {
                m.to_mut().remove("anyOf");
                self.change(
                    at,
                    ChangeKind::Dropped {
                        keyword: "oneOf".into(),
                    },
                );
                notes.push(self.clause_note(&clauses));
            } else if let Some(consts) = branches
                .iter()
                .map(const_branch)
                .collect::<Option<Vec<_>>>()
            {
                // A union of documented constants: one `enum`, the docs in the description.
                let m = m.to_mut();
                m.remove("anyOf");
                self.change(at, ChangeKind::ConstToEnum);
                let ty = consts
                    .iter()
                    .map(|(c, _)| type_of_value(c))
                    .collect::<Option<Vec<_>>>();
                if let Some(ty) = ty {
                    if ty.iter().all(|t| *t == ty[0]) && !m.fhas("type") {
                        m.insert("type".into(), ty[0].into());
                    }
                }
                let docs: Vec<String> = consts
                    .iter()
                    .filter_map(|(c, d)| d.as_ref().map(|d| format!("- {}: {}", tag_text(c), d)))
                    .collect();
                if !docs.is_empty() {
                    notes.push(docs.join("\n"));
                }
                m.insert(
                    "enum".into(),
                    Value::Array(consts.into_iter().map(|(c, _)| c).collect()),
                );
            }
        }
        if was_one_of && m.fhas("anyOf") {
            return Err(internal(
                at,
                "a `oneOf` union the lowering did not write as `anyOf`",
            ));
        } else if m.fhas("anyOf") {
            self.model_rewrite(at, ChangeKind::OneOfToAnyOf);
        }
        Ok((m, nullable, notes, None))
    }

    /// The note that replaces a union of `required` clauses.
    pub(super) fn clause_note(&self, clauses: &[Vec<String>]) -> String {
        clause_note(self.dialect, clauses)
    }

    /// Removes annotation keywords (reported as dropped).
    pub(super) fn strip_annotations(&mut self, m: &mut Cow<'_, Map<String, Value>>, at: &str) {
        let strip = |k: &String| {
            ANNOTATIONS.contains(&k.as_str())
                || k.starts_with("x-")
                || *k == "$defs"
                || *k == "definitions"
        };
        if !m.keys().any(strip) && m.fget("default") != Some(&Value::Null) {
            return;
        }
        let m = m.to_mut();
        let keys: Vec<String> = m
            .keys()
            .filter(|k| {
                ANNOTATIONS.contains(&k.as_str())
                    || k.starts_with("x-")
                    || *k == "$defs"
                    || *k == "definitions"
            })
            .cloned()
            .collect();
        for k in keys {
            m.remove(&k);
            if k != "$defs" && k != "definitions" {
                self.change(at, ChangeKind::Dropped { keyword: k });
            }
        }
        if m.fget("default") == Some(&Value::Null) {
            m.remove("default");
            self.change(
                at,
                ChangeKind::Dropped {
                    keyword: "default".into(),
                },
            );
        }
    }
}
