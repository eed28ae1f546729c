//! The intermediate form between the model and the text: a tree of TypeScript types (`Ty`), each
//! node with its description and constraint notes, and the two combinators that keep it small
//! (`union` flattens and drops duplicates in linear time, `inter` flattens and drops `unknown`).

use std::collections::HashMap;

#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) ty: Ty,
    pub(super) desc: Option<String>,
    pub(super) notes: Vec<String>,
}

thread_local! {
    /// How many `Node` comparisons this thread has made (tests check the work grows linearly).
    pub(super) static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        COMPARISONS.with(|c| c.set(c.get() + 1));
        self.ty == other.ty && self.desc == other.desc && self.notes == other.notes
    }
}

impl Eq for Node {}

impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.ty.hash(h);
        self.desc.hash(h);
        self.notes.hash(h);
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Ty {
    /// `string`, `number`, `boolean`, `null`, `unknown`, `never`.
    Kw(&'static str),
    /// A literal type, already written (`"a"`, `1`, `true`).
    Lit(String),
    Array(Box<Node>),
    Tuple(Vec<Node>, Option<Box<Node>>),
    Object(Obj),
    Union(Vec<Node>),
    Inter(Vec<Node>),
    Named(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Obj {
    pub(super) props: Vec<Prop>,
    /// Required names without a property schema (`name: unknown`).
    pub(super) required: Vec<String>,
    pub(super) extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Extra {
    /// `additionalProperties` absent or `true`.
    Open,
    /// `additionalProperties: false`.
    Closed,
    /// A schema for the other properties.
    Schema(Box<Node>),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Prop {
    pub(super) name: String,
    pub(super) optional: bool,
    pub(super) node: Node,
}

/// Members without duplicates, in first-seen order: each new member is hashed once and compared
/// only with the members of equal hash, so adding `n` members takes linear time.
#[derive(Default)]
struct Distinct {
    items: Vec<Node>,
    by_hash: HashMap<u64, Vec<usize>>,
}

impl Distinct {
    fn push(&mut self, n: Node) {
        use std::hash::BuildHasher;
        let slot = self
            .by_hash
            .entry(HashState::default().hash_one(&n))
            .or_default();
        if slot.iter().all(|&i| self.items[i] != n) {
            slot.push(self.items.len());
            self.items.push(n);
        }
    }
}

/// A fixed hash state: the text must not depend on a random seed (it does not: equal hashes are
/// compared, and order is first-seen), and a fixed state is cheaper to build.
type HashState = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

impl Node {
    pub(super) fn of(ty: Ty) -> Node {
        Node {
            ty,
            desc: None,
            notes: Vec::new(),
        }
    }
    pub(super) fn bare(&self) -> bool {
        self.desc.is_none() && self.notes.is_empty()
    }
}

pub(super) fn members_of(n: &Node) -> Vec<&Node> {
    match &n.ty {
        Ty::Union(ms) if n.bare() => ms.iter().collect(),
        _ => vec![n],
    }
}

/// A union of members, flattening bare nested unions and dropping duplicates (in linear time:
/// a 100,000-value enum is one hash per value); one member is itself, none is `never`.
pub(super) fn union(members: Vec<Node>) -> Node {
    let mut out = Distinct::default();
    for m in members {
        match m.ty {
            Ty::Union(inner) if m.desc.is_none() && m.notes.is_empty() => {
                for i in inner {
                    out.push(i);
                }
            }
            _ => out.push(m),
        }
    }
    let mut out = out.items;
    match out.len() {
        0 => Node::of(Ty::Kw("never")),
        1 => out.pop().unwrap_or_else(|| Node::of(Ty::Kw("never"))),
        _ => Node::of(Ty::Union(out)),
    }
}

/// An intersection, flattening bare nested intersections and dropping bare `unknown`.
pub(super) fn inter(members: Vec<Node>) -> Node {
    let mut out: Vec<Node> = Vec::new();
    for m in members {
        match m.ty {
            Ty::Inter(inner) if m.bare() => out.extend(inner),
            Ty::Kw("unknown") if m.bare() => {}
            _ => out.push(m),
        }
    }
    match out.len() {
        0 => Node::of(Ty::Kw("unknown")),
        1 => out.pop().unwrap_or_else(|| Node::of(Ty::Kw("unknown"))),
        _ => Node::of(Ty::Inter(out)),
    }
}
