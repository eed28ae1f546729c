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
        macro_rules! check {
            ($ok:expr) => {
                if !$ok {
                    valid = false;
                    if !self.collect || self.full() {
                        return false;
                    }
                }
            };
        }
        if let Some(min) = n.min_properties.filter(|&m| len < m) {
            check!(self.fail(
                path,
                "minProperties",
                || format!("at least {min} properties"),
                || format!("{len}"),
            ));
        }
        if let Some(max) = n.max_properties.filter(|&m| len > m) {
            check!(self.fail(
                path,
                "maxProperties",
                || format!("at most {max} properties"),
                || format!("{len}"),
            ));
        }
        let applies =
            !n.properties.is_empty() || !n.pattern_properties.is_empty() || n.additional_written;
        if applies || self.null_as_absent {
            for (i, (key, value)) in o.iter().enumerate() {
                if self.null_as_absent && value.is_null() && !n.required.contains(key) {
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
                if let Some(node) = n.property(key) {
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
                    match n.additional {
                        Additional::Allowed => matched = n.additional_written,
                        Additional::Forbidden => {
                            ok = false;
                            let names: Vec<&str> =
                                n.properties.iter().map(|(k, _)| k.as_str()).collect();
                            let p = path.clone();
                            self.fail(
                                &p,
                                "additionalProperties",
                                || {
                                    let allowed = if names.is_empty() {
                                        "no properties".to_string()
                                    } else if names.len() > 12 {
                                        format!(
                                            "allowed: {}, … ({} properties)",
                                            names[..12].join(", "),
                                            names.len()
                                        )
                                    } else {
                                        format!("allowed: {}", names.join(", "))
                                    };
                                    format!("no property {key:?} ({allowed})")
                                },
                                || preview(value),
                            );
                        }
                        Additional::Schema(node) => {
                            matched = true;
                            ok &= self.eval(node, value, path, depth + 1, None)
                        }
                    }
                }
                path.truncate(base);
                if matched {
                    if let Some(ann) = ann.as_deref_mut() {
                        ann.prop(i, o.len());
                    }
                }
                check!(ok);
            }
        }
        for name in &n.required {
            if !o.contains_key(name) {
                push_token(path, name);
                let p = path.clone();
                path.truncate(base);
                check!(self.fail(
                    &p,
                    "required",
                    || n.property(name)
                        .map(|p| describe(self.nodes, p))
                        .filter(|d| !d.is_empty())
                        .map(|d| format!("required property ({d})"))
                        .unwrap_or_else(|| "required property".to_string()),
                    || "nothing".into(),
                ));
            }
        }
        for (name, deps) in &n.dependent_required {
            if !o.contains_key(name) {
                continue;
            }
            for dep in deps {
                if !o.contains_key(dep) {
                    push_token(path, dep);
                    let p = path.clone();
                    path.truncate(base);
                    check!(self.fail(
                        &p,
                        "dependentRequired",
                        || format!("required property (because {name:?} is present)"),
                        || "nothing".into(),
                    ));
                }
            }
        }
        for (name, dep) in &n.dependent_schemas {
            if o.contains_key(name) {
                check!(self.eval(*dep, v, path, depth + 1, ann.as_deref_mut()));
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
