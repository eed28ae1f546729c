//! Array keywords: `prefixItems`, `items`, `contains` with its bounds, `minItems`,
//! `maxItems`, `uniqueItems` and `unevaluatedItems`.

use super::*;

impl Ctx<'_> {
    pub(super) fn array(
        &mut self,
        n: &Node,
        a: &[Value],
        path: &mut String,
        depth: usize,
        mut ann: Option<&mut Ann>,
    ) -> bool {
        let len = a.len() as u64;
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
        if let Some(min) = n.min_items.filter(|&m| len < m) {
            check!(self.fail(
                path,
                "minItems",
                || format!("at least {min} item{}", plural(min as usize)),
                || format!("{len} item{}", plural(len as usize)),
            ));
        }
        if let Some(max) = n.max_items.filter(|&m| len > m) {
            check!(self.fail(
                path,
                "maxItems",
                || format!("at most {max} item{}", plural(max as usize)),
                || format!("{len} item{}", plural(len as usize)),
            ));
        }
        let base = path.len();
        for (i, item) in a.iter().enumerate() {
            let node = n.prefix_items.get(i).copied().or(n.items);
            if let Some(node) = node {
                if let Some(ann) = ann.as_deref_mut() {
                    ann.item(i, a.len());
                }
                path.push('/');
                path.push_str(&i.to_string());
                let ok = self.eval(node, item, path, depth + 1, None);
                path.truncate(base);
                check!(ok);
            }
        }
        if let Some(c) = n.contains {
            let mut count = 0u64;
            for (i, item) in a.iter().enumerate() {
                path.push('/');
                path.push_str(&i.to_string());
                let ok = self.quiet(c, item, path, depth + 1, None);
                path.truncate(base);
                if ok {
                    count += 1;
                    if let Some(ann) = ann.as_deref_mut() {
                        ann.item(i, a.len());
                    }
                }
            }
            let min = n.min_contains.unwrap_or(1);
            if count < min {
                check!(self.fail(
                    path,
                    if n.min_contains.is_some() {
                        "minContains"
                    } else {
                        "contains"
                    },
                    || format!(
                        "at least {min} item{} matching the `contains` schema",
                        plural(min as usize)
                    ),
                    || format!("{count}"),
                ));
            }
            if let Some(max) = n.max_contains.filter(|&m| count > m) {
                check!(self.fail(
                    path,
                    "maxContains",
                    || format!(
                        "at most {max} item{} matching the `contains` schema",
                        plural(max as usize)
                    ),
                    || format!("{count}"),
                ));
            }
        }
        if n.unique_items {
            let mut seen = HashSet::new();
            for (i, item) in a.iter().enumerate() {
                let mut key = String::new();
                canonical(item, &mut key);
                if !seen.insert(key) {
                    path.push('/');
                    path.push_str(&i.to_string());
                    let ok = self.fail(
                        path,
                        "uniqueItems",
                        || "unique items".into(),
                        || format!("a repeat of an earlier item: {}", preview(item)),
                    );
                    path.truncate(base);
                    check!(ok);
                }
            }
        }
        valid
    }

    pub(super) fn unevaluated_items(
        &mut self,
        u: NodeId,
        a: &[Value],
        path: &mut String,
        depth: usize,
        ann: Option<&mut Ann>,
    ) -> bool {
        let Some(ann) = ann else { return true };
        let base = path.len();
        let mut valid = true;
        for (i, item) in a.iter().enumerate() {
            if ann.has_item(i) {
                continue;
            }
            path.push('/');
            path.push_str(&i.to_string());
            let ok = self.eval(u, item, path, depth + 1, None);
            path.truncate(base);
            if !ok {
                valid = false;
                if !self.collect || self.full() {
                    return false;
                }
            }
        }
        if valid {
            ann.all_items = true;
        }
        valid
    }
}
