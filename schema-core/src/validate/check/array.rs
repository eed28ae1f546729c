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
        if let Err(b) = rules::min_items(n, len) {
            check!(self, valid, self.broken_of(path, &b));
        }
        if let Err(b) = rules::max_items(n, len) {
            check!(self, valid, self.broken_of(path, &b));
        }
        let base = path.len();
        for (i, item) in a.iter().enumerate() {
            if let Some(node) = rules::item_node(n, i) {
                if let Some(ann) = ann.as_deref_mut() {
                    ann.item(i, a.len());
                }
                path.push('/');
                path.push_str(&i.to_string());
                let ok = self.eval(node, item, path, depth + 1, None);
                path.truncate(base);
                check!(self, valid, ok);
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
            if let Err(b) = rules::contains_count(n, count) {
                check!(self, valid, self.broken_of(path, &b));
            }
        }
        for i in rules::repeated_items(n, a) {
            path.push('/');
            path.push_str(&i.to_string());
            let ok = self.broken(path, &rules::Broken::UniqueItems, &a[i]);
            path.truncate(base);
            check!(self, valid, ok);
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
