//! Normalisation of one schema object before it is converted: annotations dropped, `allOf`
//! merged, `nullable` and type arrays as a nullable flag or an `anyOf`, `oneOf` as `anyOf`, unions
//! of `required` clauses as a note, unions of documented constants as one `enum`.

use super::*;

impl Conv<'_> {
    /// Normalises one schema object before conversion: annotations dropped, `allOf` merged,
    /// `nullable` / type arrays / `oneOf` / clause and `const` unions rewritten.
    #[inline(never)]
    pub(super) fn prepare<'v>(
        &mut self,
        mut m: Cow<'v, Map<String, Value>>,
        at: &str,
        depth: usize,
    ) -> Result<Prepared<'v>, ConvertError> {
        self.strip_annotations(&mut m, at);
        self.model_rewrites(at, false);
        // (the depth bounds the reference walk's `allOf` merge, `input.rs`)
        #[cfg(not(test))]
        let _ = depth;
        if m.fhas("allOf") && !self.reads_input() {
            return Err(self.conflict(at, "an `allOf` the lowering did not merge"));
        }
        #[cfg(test)]
        if m.fhas("allOf") {
            match self.input_all_of(m, at, depth)? {
                Ok(merged) => m = merged,
                Err(reference) => return Ok(reference),
            }
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
        let type_array = m.fget("type").is_some_and(Value::is_array);
        if type_array && !self.reads_input() {
            return Err(internal(at, "a type array the lowering did not split"));
        }
        if type_array {
            #[cfg(test)]
            self.input_type_array(&mut m, at, &mut nullable)?;
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
        if null_in_enum && !self.reads_input() {
            // (the lowering writes every such `null` as the flag)
            let what = "an enum with `null` the lowering did not make nullable";
            return Err(internal(at, what));
        }
        #[cfg(test)]
        if null_in_enum {
            self.input_null_in_enum(&mut m, at, &mut nullable);
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
                return Ok(Prepared::Schema(m, nullable, notes, Some("oneOf")));
            }
        }
        if was_one_of {
            let m = m.to_mut();
            let one = m.remove("oneOf").unwrap_or_default();
            match m.get_mut("anyOf") {
                // (a union of `required` clauses: the note below, read as any union)
                None if !self.reads_input() && !clause_union(&one) => {
                    // (the lowering writes every `oneOf` union the walk can take as `anyOf`)
                    let what = "a `oneOf` union the lowering did not write as `anyOf`";
                    return Err(internal(at, what));
                }
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
            } else if let Some(consts) = (branches.iter())
                .map(const_branch)
                .collect::<Option<Vec<_>>>()
                .filter(|_| !self.plain_union(at))
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
            #[cfg(test)]
            ONE_OF_UNIONS.with(|c| c.set(c.get() + 1));
            self.change(at, ChangeKind::OneOfToAnyOf);
        } else if m.fhas("anyOf") {
            self.model_rewrite(at, ChangeKind::OneOfToAnyOf);
        }
        Ok(Prepared::Schema(m, nullable, notes, None))
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

/// Whether `v` is a union's branches that are all `required` clauses (a note in the dialect's
/// words, whichever the union's keyword).
fn clause_union(v: &Value) -> bool {
    matches!(v, Value::Array(b) if b.iter().all(|b| required_clause(b).is_some()))
}
