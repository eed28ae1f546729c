//! `anyOf` and `oneOf`: the branches tried (each result memoised per location), a tagged union
//! sent straight to the branch its tag names, and the errors of the closest branch.

use super::*;

impl Ctx<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn union(
        &mut self,
        branches: &[NodeId],
        disc: Option<&Discriminator>,
        exactly_one: bool,
        v: &Value,
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let keyword = if exactly_one { "oneOf" } else { "anyOf" };
        // Branches that each require a tag property pinned to a different string: an object
        // can only match the branch its tag names, so only that one is evaluated.
        if let (Some(d), Value::Object(o)) = (disc, v) {
            if d.branches.len() == branches.len() {
                let tags = || {
                    let t: Vec<Value> = d
                        .branches
                        .iter()
                        .map(|(t, _)| Value::from(t.as_str()))
                        .collect();
                    list_values(&t)
                };
                let base = path.len();
                match o.get(&d.property) {
                    None => {
                        push_token(path, &d.property);
                        let p = path.clone();
                        path.truncate(base);
                        self.fail(
                            &p,
                            "required",
                            || format!("required property (one of {})", tags()),
                            || "nothing".into(),
                        );
                        return false;
                    }
                    Some(tag) => {
                        match d
                            .branches
                            .iter()
                            .find(|(t, _)| Some(t.as_str()) == tag.as_str())
                        {
                            Some((t, b)) => {
                                let first = self.errors.len();
                                let ok = self.eval(*b, v, path, depth + 1, ann);
                                self.name_the_tag(first, base, &d.property, t);
                                return ok;
                            }
                            None => {
                                push_token(path, &d.property);
                                let p = path.clone();
                                path.truncate(base);
                                self.fail(
                                    &p,
                                    keyword,
                                    || format!("one of {}", tags()),
                                    || preview(tag),
                                );
                                return false;
                            }
                        }
                    }
                }
            }
        }
        let mut passing = Vec::new();
        for (i, &b) in branches.iter().enumerate() {
            let ok = match ann.as_deref_mut() {
                Some(parent) => {
                    let mut a = Ann::default();
                    let ok = self.quiet(b, v, path, depth + 1, Some(&mut a));
                    if ok {
                        parent.merge(&a);
                    }
                    ok
                }
                None => self.quiet(b, v, path, depth + 1, None),
            };
            if ok {
                passing.push(i);
                if (!exactly_one && ann.is_none()) || passing.len() > 1 && exactly_one {
                    break;
                }
            }
        }
        if passing.len() == 1 || (!passing.is_empty() && !exactly_one) {
            return true;
        }
        if !self.collect {
            return false;
        }
        if passing.len() > 1 {
            let which: Vec<String> = passing.iter().map(|i| i.to_string()).collect();
            self.fail(
                path,
                keyword,
                || "a value matching exactly one alternative".into(),
                || format!("a value matching alternatives {}", which.join(" and ")),
            );
            return false;
        }
        // No branch passes: report the errors of the one branch the value was evidently meant for.
        let results: Vec<Rc<Vec<ValidationError>>> = branches
            .iter()
            .map(|&b| self.errors_of(b, v, path, depth + 1))
            .collect();
        let fits: Vec<usize> = (0..results.len())
            .filter(|&i| {
                !results[i]
                    .iter()
                    .any(|e| e.keyword == "type" && e.path == *path)
            })
            .collect();
        let best = match fits.len() {
            1 => Some(fits[0]),
            0 => None,
            _ => {
                let min = fits.iter().map(|&i| results[i].len()).min().unwrap_or(0);
                let with_min: Vec<usize> = fits
                    .iter()
                    .copied()
                    .filter(|&i| results[i].len() == min)
                    .collect();
                (with_min.len() == 1).then(|| with_min[0])
            }
        };
        match best {
            Some(i) if !results[i].is_empty() => {
                for e in results[i].iter() {
                    if self.full() {
                        self.truncated = true;
                        break;
                    }
                    self.errors.push(e.clone());
                }
            }
            _ => {
                // A documented string enum (`oneOf` of `const`s) reads like any other enum.
                let consts: Option<Vec<Value>> = branches
                    .iter()
                    .map(|&b| self.nodes[deref(self.nodes, b)].const_value.clone())
                    .collect();
                if let Some(values) = consts {
                    self.fail(
                        path,
                        "enum",
                        || format!("one of {}", list_values(&values)),
                        || preview(v),
                    );
                    return false;
                }
                let options: Vec<String> =
                    branches.iter().map(|&b| describe(self.nodes, b)).collect();
                let expected = if options.iter().all(|o| !o.is_empty()) {
                    format!(
                        "{}{}",
                        if exactly_one { "exactly one of: " } else { "" },
                        options.join(" | ")
                    )
                } else {
                    format!(
                        "a value matching {} of the {} alternatives",
                        if exactly_one { "exactly one" } else { "one" },
                        branches.len()
                    )
                };
                self.fail(path, keyword, || expected, || preview(v));
            }
        }
        false
    }

    /// The one-object form of a tagged union lets a model write any payload property, or
    /// `null` for it: the errors of the branch the tag chose say that the tag needs them.
    pub(super) fn name_the_tag(&mut self, first: usize, base: usize, tag: &str, value: &str) {
        for e in &mut self.errors[first..] {
            let direct = e.path.len() > base + 1 && !e.path[base + 1..].contains('/');
            if direct && (e.keyword == "required" || e.found == "null") {
                e.expected = format!("{} (needed when {tag:?} is {value:?})", e.expected);
            }
        }
    }
}
