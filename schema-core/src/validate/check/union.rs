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
                let base = path.len();
                let tag = o.get(&d.property);
                let chosen = rules::tag_required(d, tag.is_some())
                    .and_then(|()| rules::tag_branch(d, exactly_one, tag.and_then(Value::as_str)));
                match (chosen, tag) {
                    (Ok(b), Some(tag)) => {
                        let first = self.errors.len();
                        let ok = self.eval(b, v, path, depth + 1, ann);
                        let t = tag.as_str().unwrap_or_default();
                        self.name_the_tag(first, base, &d.property, t);
                        return ok;
                    }
                    (chosen, tag) => {
                        push_token(path, &d.property);
                        let p = path.clone();
                        path.truncate(base);
                        if let Err(b) = chosen {
                            match tag {
                                Some(tag) => self.broken(&p, &b, tag),
                                None => self.broken_of(&p, &b),
                            };
                        }
                        return false;
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
        match rules::branch_count(exactly_one, &passing) {
            Ok(()) => return true,
            Err(_) if !self.collect => return false,
            Err(Some(b)) => {
                self.broken_of(path, &b);
                return false;
            }
            // No branch passes: reported below.
            Err(None) => {}
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
