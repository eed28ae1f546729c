//! Object keywords: `properties`, `patternProperties`, `additionalProperties`, `required`,
//! `dependentRequired`, `dependentSchemas`, `propertyNames`, `minProperties`, `maxProperties` and
//! `unevaluatedProperties`.

use super::*;

impl Ctx<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn object(
        &mut self,
        n: &Node,
        v: &Value,
        o: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let base = path.len();
        let len = o.len() as u64;
        let mut valid = true;
        if let Err(b) = rules::min_properties(n, len) {
            check!(self, valid, self.broken_of(path, &b));
        }
        if let Err(b) = rules::max_properties(n, len) {
            check!(self, valid, self.broken_of(path, &b));
        }
        let applies =
            !n.properties.is_empty() || !n.pattern_properties.is_empty() || n.additional_written;
        if applies || self.null_as_absent {
            for (i, (key, value)) in o.iter().enumerate() {
                if self.null_as_absent && value.is_null() && !rules::is_required(n, key) {
                    let accepts_null = n
                        .property(key)
                        .is_some_and(|p| self.quiet(p, value, path, depth + 1, None));
                    if !accepts_null {
                        if let Some(ann) = ann.as_deref_mut() {
                            ann.prop(i, o.len());
                        }
                        continue;
                    }
                }
                if !applies {
                    continue;
                }
                push_token(path, key);
                let mut matched = false;
                let mut ok = true;
                if let Some(node) = rules::property(n, key) {
                    matched = true;
                    ok &= self.eval(node, value, path, depth + 1, None);
                }
                for (re, node) in &n.pattern_properties {
                    if !(ok || self.collect) {
                        break;
                    }
                    match re.matches_counting(key, &mut self.steps) {
                        Ok(true) => {
                            matched = true;
                            ok &= self.eval(*node, value, path, depth + 1, None);
                        }
                        Ok(false) => {}
                        // Neither a match nor not one: the property cannot be checked.
                        Err(e) => {
                            matched = true;
                            ok = false;
                            self.fail(
                                path,
                                "patternProperties",
                                || "a property name the patterns can be checked on".into(),
                                || format!("{key:?} ({e})"),
                            );
                        }
                    }
                }
                if !matched {
                    match rules::additional(n, key) {
                        Ok(None) => matched = n.additional_written,
                        Ok(Some(node)) => {
                            matched = true;
                            ok &= self.eval(node, value, path, depth + 1, None)
                        }
                        Err(b) => {
                            ok = false;
                            let p = path.clone();
                            self.broken(&p, &b, value);
                        }
                    }
                }
                path.truncate(base);
                if matched {
                    if let Some(ann) = ann.as_deref_mut() {
                        ann.prop(i, o.len());
                    }
                }
                check!(self, valid, ok);
            }
        }
        let missing = rules::missing_required(self.nodes, n, |_, name| o.contains_key(name))
            .chain(rules::missing_dependent(n, |name| o.contains_key(name)));
        for (name, b) in missing {
            push_token(path, name);
            let p = path.clone();
            path.truncate(base);
            check!(self, valid, self.broken_of(&p, &b));
        }
        for (name, dep) in &n.dependent_schemas {
            if o.contains_key(name) {
                check!(
                    self,
                    valid,
                    self.eval(*dep, v, path, depth + 1, ann.as_deref_mut())
                );
            }
        }
        if let Some(pn) = n.property_names {
            self.no_memo += 1;
            for key in o.keys() {
                let k = Value::String(key.clone());
                push_token(path, key);
                let ok = self.eval(pn, &k, path, depth + 1, None);
                path.truncate(base);
                if !ok {
                    valid = false;
                    if !self.collect || self.full() {
                        self.no_memo -= 1;
                        return false;
                    }
                }
            }
            self.no_memo -= 1;
        }
        valid
    }

    pub(super) fn unevaluated_props(
        &mut self,
        u: NodeId,
        o: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        let Some(ann) = ann else { return true };
        let base = path.len();
        let mut valid = true;
        for (i, (key, value)) in o.iter().enumerate() {
            if ann.has_prop(i) {
                continue;
            }
            push_token(path, key);
            let ok = self.eval(u, value, path, depth + 1, None);
            path.truncate(base);
            if !ok {
                valid = false;
                if !self.collect || self.full() {
                    return false;
                }
            }
        }
        if valid {
            ann.all_props = true;
        }
        valid
    }
}
