//! A Pike VM over `regex-automata`'s Thompson NFA, answering only "is there a match": each byte
//! of the string is read once, and at each position each state of the automaton is visited at
//! most once, so the work is at most (states + 1) times (bytes + 1), whatever the pattern.
//!
//! `regex-automata` has its own Pike VM; this one exists so that the work can be counted (the
//! `steps` out-parameter) and stops at the first match, and because it needs no capture slots.

use regex_automata::nfa::thompson::{self, State, NFA};
use regex_automata::util::primitives::StateID;
use regex_automata::util::syntax;

/// A compiled pattern (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct PikeVm {
    nfa: NFA,
    /// The pattern can only match from the start of the string: one thread set, started once.
    anchored: bool,
}

/// A set of NFA states with insertion order, cleared in constant time. `sparse` may hold
/// anything: an entry counts only when `dense` points back at it.
#[derive(Default)]
struct SparseSet {
    dense: Vec<StateID>,
    sparse: Vec<u32>,
}

impl SparseSet {
    /// Empties the set and makes room for states below `capacity`.
    fn reset(&mut self, capacity: usize) {
        self.dense.clear();
        if self.sparse.len() < capacity {
            self.sparse.resize(capacity, 0);
        }
    }

    /// Inserts `id`; whether it was new.
    fn insert(&mut self, id: StateID) -> bool {
        let i = self.sparse[id.as_usize()] as usize;
        if i < self.dense.len() && self.dense[i] == id {
            return false;
        }
        self.sparse[id.as_usize()] = self.dense.len() as u32;
        self.dense.push(id);
        true
    }
}

/// The two thread sets and the closure stack of one search, kept per thread so that a check
/// allocates nothing once the buffers have grown to the largest automaton seen.
#[derive(Default)]
struct Scratch {
    cur: SparseSet,
    next: SparseSet,
    stack: Vec<StateID>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl PikeVm {
    /// Compiles `pattern` (`regex-syntax` syntax, Unicode, matching valid UTF-8 only); an
    /// automaton over `size_limit` bytes is an error.
    pub(crate) fn new(pattern: &str, size_limit: usize) -> Result<PikeVm, String> {
        let nfa = NFA::compiler()
            .syntax(
                syntax::Config::new()
                    .unicode(true)
                    .utf8(true)
                    .nest_limit(1024),
            )
            .configure(
                thompson::Config::new()
                    .which_captures(thompson::WhichCaptures::None)
                    .nfa_size_limit(Some(size_limit)),
            )
            .build(pattern)
            .map_err(|e| match e.size_limit() {
                Some(limit) => format!("its automaton would exceed {} MiB", limit >> 20),
                None => format!("the regex engine refuses it: {e}"),
            })?;
        let anchored = nfa.is_always_start_anchored();
        Ok(PikeVm { nfa, anchored })
    }

    /// Whether the pattern matches anywhere in `hay`; adds the work done to `steps`.
    pub(crate) fn is_match(&self, hay: &str, steps: &mut u64) -> bool {
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => self.search(hay, steps, &mut scratch),
            // Only re-entered if a caller checks a pattern while another check runs on this
            // thread, which nothing does; fresh buffers keep it correct all the same.
            Err(_) => self.search(hay, steps, &mut Scratch::default()),
        })
    }

    fn search(&self, hay: &str, steps: &mut u64, scratch: &mut Scratch) -> bool {
        let hay = hay.as_bytes();
        let n = self.nfa.states().len();
        let Scratch { cur, next, stack } = scratch;
        cur.reset(n);
        next.reset(n);
        stack.clear();
        let start = if self.anchored {
            self.nfa.start_anchored()
        } else {
            self.nfa.start_unanchored()
        };
        if self.closure(start, hay, 0, cur, stack, steps) {
            return true;
        }
        for at in 0..hay.len() {
            if cur.dense.is_empty() {
                return false;
            }
            *steps += 1;
            for k in 0..cur.dense.len() {
                let id = cur.dense[k];
                *steps += 1;
                let to = match self.nfa.state(id) {
                    State::ByteRange { trans } => trans.matches(hay, at).then_some(trans.next),
                    State::Sparse(t) => t.matches(hay, at),
                    State::Dense(t) => t.matches(hay, at),
                    _ => None,
                };
                if let Some(to) = to {
                    if self.closure(to, hay, at + 1, next, stack, steps) {
                        return true;
                    }
                }
            }
            std::mem::swap(cur, next);
            next.dense.clear();
        }
        false
    }

    /// Adds `from` and the states reachable from it without reading a byte (at `at`) to
    /// `set`; whether a match state is among them.
    fn closure(
        &self,
        from: StateID,
        hay: &[u8],
        at: usize,
        set: &mut SparseSet,
        stack: &mut Vec<StateID>,
        steps: &mut u64,
    ) -> bool {
        stack.push(from);
        while let Some(id) = stack.pop() {
            if !set.insert(id) {
                continue;
            }
            *steps += 1;
            match self.nfa.state(id) {
                State::Match { .. } => {
                    stack.clear();
                    return true;
                }
                State::Look { look, next } => {
                    if self.nfa.look_matcher().matches(*look, hay, at) {
                        stack.push(*next);
                    }
                }
                State::Union { alternates } => stack.extend(alternates.iter().rev()),
                State::BinaryUnion { alt1, alt2 } => {
                    stack.push(*alt2);
                    stack.push(*alt1);
                }
                State::Capture { next, .. } => stack.push(*next),
                State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Fail => {}
            }
        }
        false
    }
}
