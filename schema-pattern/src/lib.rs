//! The reader of ECMA-262 regular expressions (JSON Schema's `pattern` keyword) that
//! `schema-core`'s validator and `schema-macros`' compile-time check of
//! `#[schema(pattern = ...)]` share, so that the two accept exactly the same patterns.
//!
//! This crate is an implementation detail of `schema-core` and `schema-macros`: its interface
//! follows their needs and may change in any release. Depend on `schema-core`.
//!
//! - [`parse()`] reads a pattern into a [`Pattern`]: a syntax tree ([`Node`]s in [`Alternative`]s)
//!   with the features that decide which engine can run it (backreferences, lookarounds, the
//!   multiline modifier), or an [`Error`] saying why and where the pattern is not valid.
//! - The derive only asks whether [`parse()`] succeeds, so the proc-macro builds no regex engine.
//! - The validator walks the tree and writes it in the syntax of the engine it chooses, giving
//!   each node its ECMA-262 meaning (`\d` and `\w` ASCII, `.` without line terminators, ...).
//! - [`names`] holds the group-name characters and the Unicode property names `\p{..}` accepts.
//!
//! # The form read
//!
//! ECMA-262's grammar with the `u` flag (Unicode mode: code points, `\u{..}`, `\p{..}`, strict
//! escapes), widened by Annex B's identity escapes of characters that are neither ASCII letters
//! nor digits (`\:`, `\-`, `\_`, `\%`, `\@`, `\<`, `\>`, ... stand for the character itself),
//! which schemas written for engines without the `u` flag use. Annex B's escapes of letters
//! (`\a` read as `a`) stay errors: other engines give several of them other meanings. Modifier
//! groups `(?ims-ims:..)` are read. Beyond the standard, as the engines behind the validator
//! take them: a quantified `\b` is accepted, `\u{+41}` reads as `\u{41}`, a high surrogate escape
//! followed by `\u` and no low surrogate keeps the high one, and a group name may repeat in
//! different alternatives. Limits: 256 nested groups, 65,535 capture groups and 65,535
//! quantifiers.
//!
//! Time is linear in the pattern's length, except that a named group records its nesting path
//! and is compared with the earlier groups of the same name.
//!
//! ```
//! use schema_pattern::{parse, GroupKind, Node};
//!
//! let p = parse(r"^(?<year>\d{4})-\k<year>$").unwrap();
//! assert!(p.has_backreference && !p.has_lookaround);
//! let first = &p.alternatives[0][1].node;
//! assert!(matches!(first, Node::Group(g) if matches!(g.kind, GroupKind::Capture { index: 1, .. })));
//!
//! let e = parse("a{3,2}").unwrap_err();
//! assert_eq!(e.message, "a quantifier `{n,m}` with n > m");
//! assert_eq!(e.in_pattern("a{3,2}"), r#"a quantifier `{n,m}` with n > m, after "a{3,2}""#);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod names;
mod parse;

use std::fmt;
use std::ops::Range;

pub use parse::parse;

/// A valid pattern: its alternatives and the features that decide how it can be run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The top-level alternatives (`a|b`), at least one (an empty pattern is one empty
    /// alternative).
    pub alternatives: Vec<Alternative>,
    /// How many capture groups the pattern has.
    pub capture_groups: u32,
    /// A backreference (`\1`, `\k<name>`) appears.
    pub has_backreference: bool,
    /// A lookahead or lookbehind (`(?=..)`, `(?!..)`, `(?<=..)`, `(?<!..)`) appears.
    pub has_lookaround: bool,
    /// A modifier group sets or clears `m` (`(?m:..)`, `(?-m:..)`), so `^` and `$` may match at
    /// line terminators.
    pub has_multiline_modifier: bool,
}

/// A sequence of terms, matched one after another.
pub type Alternative = Vec<Term>;

/// A node and the quantifier after it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// What is matched.
    pub node: Node,
    /// How many times (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`); never on `^`, `$` or a lookaround.
    pub quantifier: Option<Quantifier>,
}

/// One atom or assertion of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `^`.
    Start,
    /// `$`.
    End,
    /// `\b`, or `\B` when `negated`.
    WordBoundary {
        /// `\B`.
        negated: bool,
    },
    /// `.`.
    Dot,
    /// A code point, written or escaped; may be a lone surrogate (`\uD800`).
    Char(u32),
    /// `\d`, `\s`, `\w` or their negations.
    Escape(ClassEscape),
    /// `\p{..}` or `\P{..}`.
    Property(Property),
    /// `[...]`.
    Class(Class),
    /// `(...)` of any kind.
    Group(Box<Group>),
    /// `\n` or `\k<name>`: the capture groups it may refer to (one for `\n`; every group of that
    /// name for `\k<name>`, of which at most one takes part in a match), numbered from 1.
    Backreference(Vec<u32>),
}

/// `\d`, `\s`, `\w` (ECMA-262's meanings: ASCII digits, white space and line terminators, ASCII
/// word characters), or `\D`, `\S`, `\W` when `negated`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassEscape {
    /// Which class.
    pub kind: ClassEscapeKind,
    /// The upper-case form: every character not in the class.
    pub negated: bool,
}

/// The class a [`ClassEscape`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassEscapeKind {
    /// `\d`: `0-9`.
    Digit,
    /// `\s`: ECMA-262's white space and line terminators.
    Space,
    /// `\w`: `0-9A-Za-z_`.
    Word,
}

/// `\p{value}`, `\p{name=value}` or the `\P` forms; names and values are among those of
/// [`names`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    /// `\P`: every character without the property.
    pub negated: bool,
    /// The property's name as written (`gc`, `General_Category`, `sc`, `Script`, `scx`,
    /// `Script_Extensions`), or `None` for a binary property or a general category alone.
    pub name: Option<String>,
    /// The value as written (`Lu`, `Latin`, `Alphabetic`, ...).
    pub value: String,
}

/// `[...]` or `[^...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// `[^...]`: every character not matched by the items.
    pub negated: bool,
    /// The items in order; empty for `[]` (matches nothing) and `[^]` (matches anything).
    pub items: Vec<ClassItem>,
}

/// One item of a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClassItem {
    /// A code point; may be a lone surrogate. A `-` that starts no range is one too.
    Char(u32),
    /// `a-z`: both ends included, the start no greater than the end.
    Range(u32, u32),
    /// `\d`, `\s`, `\w` or their negations.
    Escape(ClassEscape),
    /// `\p{..}` or `\P{..}`.
    Property(Property),
}

/// A parenthesised part of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// What kind of group.
    pub kind: GroupKind,
    /// The alternatives inside, at least one.
    pub alternatives: Vec<Alternative>,
}

/// The kinds of group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupKind {
    /// `(...)` or `(?<name>...)`.
    Capture {
        /// Its number, counting opening parentheses of capture groups from 1.
        index: u32,
        /// The name of `(?<name>...)`, escapes decoded.
        name: Option<String>,
    },
    /// `(?:...)`.
    NonCapturing,
    /// `(?=...)`, or `(?!...)` when `negated`.
    Lookahead {
        /// `(?!...)`.
        negated: bool,
    },
    /// `(?<=...)`, or `(?<!...)` when `negated`.
    Lookbehind {
        /// `(?<!...)`.
        negated: bool,
    },
    /// `(?ims-ims:...)`: modifiers set (before the `-`) and cleared (after it) inside.
    Modifiers {
        /// The modifiers set.
        set: Modifiers,
        /// The modifiers cleared.
        clear: Modifiers,
    },
}

/// A set of the modifiers a group may set or clear; a modifier is never both set and cleared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// `i`: case-insensitive.
    pub ignore_case: bool,
    /// `m`: `^` and `$` also match at line terminators.
    pub multiline: bool,
    /// `s`: `.` also matches line terminators.
    pub dot_all: bool,
}

/// A quantifier: `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each possibly followed by `?` (lazy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quantifier {
    /// The fewest repetitions (saturating at `usize::MAX` for absurd numbers).
    pub min: usize,
    /// The most repetitions, or `None` for no bound.
    pub max: Option<usize>,
    /// Followed by `?`: as few repetitions as possible first.
    pub lazy: bool,
    /// Where the quantifier stands in the pattern, in bytes (its text as written).
    pub span: Range<usize>,
}

/// Why a pattern is not a valid ECMA-262 regular expression in the form this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error {
    /// What is wrong, in a phrase (no position).
    pub message: &'static str,
    /// Where the reader stopped, in bytes from the pattern's start (at most its length): the
    /// mistake is there or just before it.
    pub offset: usize,
}

impl Error {
    /// The message with where the reader stopped in `pattern` (the pattern given to [`parse()`]):
    /// `a class range whose start comes after its end, after "[z-a"` (the last 20 characters
    /// read at most), or `..., at the start`.
    pub fn in_pattern(&self, pattern: &str) -> String {
        let read = pattern.get(..self.offset).unwrap_or(pattern);
        match read.char_indices().rev().nth(19) {
            _ if read.is_empty() => format!("{}, at the start", self.message),
            Some((i, _)) => format!("{}, after \"…{}\"", self.message, &read[i..]),
            None => format!("{}, after {read:?}", self.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for Error {}
