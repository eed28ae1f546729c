//! ECMA-262 patterns rewritten into the syntax of the engines that run them.
//!
//! The pattern is read by `schema-pattern` (the reader the derive's compile-time check uses too,
//! so the two accept the same patterns; its crate docs say exactly which form of ECMA-262 is
//! read: the `u` flag's grammar plus Annex B's identity escapes of characters other than ASCII
//! letters and digits). This module writes the tree it returns in `regex-syntax` syntax with
//! ECMA-262's meaning spelled out: `\d`, `\w` and `\b` are ASCII, `\s` is ECMA-262's white space
//! and line terminators, `.` excludes line terminators (`\n`, `\r`, U+2028, U+2029), `$` matches
//! only at the end, group names are replaced by numbers, and a lone surrogate (no JSON string
//! holds one) matches nothing. A pattern with a backreference or a lookaround (or a multiline
//! `^`/`$`, which needs lookarounds) is marked as needing backtracking and written in
//! `fancy-regex` syntax instead.

use schema_pattern::{
    Alternative, ClassEscape, ClassEscapeKind, ClassItem, GroupKind, Modifiers, Node, Property,
};
use std::fmt::Write;

/// A pattern rewritten for an engine.
#[cfg_attr(not(feature = "pattern"), allow(dead_code))]
pub(crate) struct Translated {
    /// The pattern in `regex-syntax` (or, when `backtracking`, `fancy-regex`) syntax.
    pub regex: String,
    /// Whether the pattern has a backreference or a lookaround.
    pub backtracking: bool,
}

/// The pattern rewritten, or why (and where) it is not a valid ECMA-262 regular expression.
pub(crate) fn translate(pattern: &str) -> Result<Translated, String> {
    let tree = schema_pattern::parse(pattern).map_err(|e| e.in_pattern(pattern))?;
    let mut w = Writer {
        src: pattern,
        out: String::with_capacity(pattern.len() * 2),
        backtracking: tree.has_backreference || tree.has_lookaround || tree.has_multiline_modifier,
    };
    w.disjunction(&tree.alternatives, Flags::default());
    Ok(Translated {
        regex: w.out,
        backtracking: w.backtracking,
    })
}

/// ECMA-262's line terminators, as class items.
const LINE_TERMINATORS: &str = r"\n\r\x{2028}\x{2029}";
/// ECMA-262's `\s`: white space and line terminators, as class items.
const SPACE: &str = r"\t\n\x0B\x0C\r\x20\xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
/// A class no character is in.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
/// A class every character is in.
const ANYTHING: &str = r"[\x{0}-\x{10FFFF}]";

/// The modifiers in force (`(?s:..)`, `(?m:..)`); `i` is left to the engine.
#[derive(Clone, Copy, Default)]
struct Flags {
    dot_all: bool,
    multiline: bool,
}

impl Flags {
    /// The flags inside a group that sets `set` and clears `clear`.
    fn with(self, set: Modifiers, clear: Modifiers) -> Flags {
        let apply = |old: bool, set: bool, clear: bool| (old || set) && !clear;
        Flags {
            dot_all: apply(self.dot_all, set.dot_all, clear.dot_all),
            multiline: apply(self.multiline, set.multiline, clear.multiline),
        }
    }
}

struct Writer<'a> {
    /// The pattern as written (quantifiers are copied from it).
    src: &'a str,
    out: String,
    backtracking: bool,
}

impl Writer<'_> {
    fn disjunction(&mut self, alternatives: &[Alternative], flags: Flags) {
        for (k, alternative) in alternatives.iter().enumerate() {
            if k > 0 {
                self.out.push('|');
            }
            for term in alternative {
                self.node(&term.node, flags);
                if let Some(q) = &term.quantifier {
                    self.out.push_str(&self.src[q.span.clone()]);
                }
            }
        }
    }

    fn node(&mut self, node: &Node, flags: Flags) {
        match node {
            Node::Start if flags.multiline => {
                self.out.push_str(r"(?:^|(?<=[\n\r\x{2028}\x{2029}]))")
            }
            Node::Start => self.out.push('^'),
            Node::End if flags.multiline => self.out.push_str(r"(?:$|(?=[\n\r\x{2028}\x{2029}]))"),
            Node::End => self.out.push('$'),
            Node::WordBoundary { negated } => self.word_boundary(!negated),
            Node::Dot if flags.dot_all => self.out.push_str(ANYTHING),
            Node::Dot => {
                self.out.push_str("[^");
                self.out.push_str(LINE_TERMINATORS);
                self.out.push(']');
            }
            Node::Char(c) => {
                // A lone surrogate matches nothing.
                if !push_char(&mut self.out, *c) {
                    self.out.push_str(NOTHING);
                }
            }
            Node::Escape(e) => push_class_escape(&mut self.out, *e),
            Node::Property(p) => push_property(&mut self.out, p),
            Node::Class(class) => {
                let mut items = String::new();
                for item in &class.items {
                    match item {
                        ClassItem::Char(c) => {
                            push_char(&mut items, *c);
                        }
                        ClassItem::Range(a, b) => {
                            push_range(&mut items, *a, *b);
                        }
                        ClassItem::Escape(e) => push_class_escape(&mut items, *e),
                        ClassItem::Property(p) => push_property(&mut items, p),
                    }
                }
                match (items.is_empty(), class.negated) {
                    (true, false) => self.out.push_str(NOTHING),
                    (true, true) => self.out.push_str(ANYTHING),
                    (false, negated) => {
                        self.out.push_str(if negated { "[^" } else { "[" });
                        self.out.push_str(&items);
                        self.out.push(']');
                    }
                }
            }
            Node::Group(group) => {
                let mut inner = flags;
                self.out.push_str(match &group.kind {
                    GroupKind::Capture { .. } => "(",
                    GroupKind::NonCapturing => "(?:",
                    GroupKind::Lookahead { negated: false } => "(?=",
                    GroupKind::Lookahead { negated: true } => "(?!",
                    GroupKind::Lookbehind { negated: false } => "(?<=",
                    GroupKind::Lookbehind { negated: true } => "(?<!",
                    GroupKind::Modifiers { set, clear } => {
                        // `s` and `m` are applied here; `i` is written for the engine.
                        inner = flags.with(*set, *clear);
                        match (set.ignore_case, clear.ignore_case) {
                            (true, _) => "(?i:",
                            (_, true) => "(?-i:",
                            _ => "(?:",
                        }
                    }
                });
                self.disjunction(&group.alternatives, inner);
                self.out.push(')');
            }
            Node::Backreference(groups) => {
                // Whichever of the groups took part in the match.
                self.out.push_str("(?:");
                for (k, g) in groups.iter().enumerate() {
                    if k > 0 {
                        self.out.push('|');
                    }
                    let _ = write!(self.out, "\\{g}");
                }
                self.out.push(')');
            }
        }
    }

    /// `\b` (or `\B`): ECMA-262's word characters are ASCII.
    fn word_boundary(&mut self, boundary: bool) {
        self.out.push_str(match (self.backtracking, boundary) {
            (false, true) => r"(?:(?-u:\b))",
            (false, false) => r"(?:(?-u:\B))",
            // `fancy-regex` has no ASCII-only `\b`: spelled with lookarounds.
            (true, true) => {
                r"(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))"
            }
            (true, false) => {
                r"(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))"
            }
        });
    }
}

/// Writes code point `c` as a literal (inside or outside a class); a surrogate writes nothing
/// and returns `false`.
fn push_char(out: &mut String, c: u32) -> bool {
    if (0xD800..=0xDFFF).contains(&c) {
        return false;
    }
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => out.push(ch),
        _ => {
            let _ = write!(out, "\\x{{{c:X}}}");
        }
    }
    true
}

/// Writes the class items of the range `a..=b`, less the surrogates.
fn push_range(out: &mut String, a: u32, b: u32) {
    for (lo, hi) in [(a, b.min(0xD7FF)), (a.max(0xE000), b)] {
        if lo <= hi {
            push_char(out, lo);
            if hi > lo {
                out.push('-');
                push_char(out, hi);
            }
        }
    }
}

/// `\d`, `\D`, `\s`, `\S`, `\w`, `\W` as a class (inside or outside a class).
fn push_class_escape(out: &mut String, e: ClassEscape) {
    let items = match e.kind {
        ClassEscapeKind::Digit => DIGIT,
        ClassEscapeKind::Space => SPACE,
        ClassEscapeKind::Word => WORD,
    };
    let not = if e.negated { "^" } else { "" };
    let _ = write!(out, "[{not}{items}]");
}

/// `\p{..}` as the engine's `\p{..}` (inside or outside a class). Surrogates (`Cs`) are in no
/// JSON string, so `\p{Cs}` matches nothing.
fn push_property(out: &mut String, p: &Property) {
    let general_category = matches!(p.name.as_deref(), None | Some("gc" | "General_Category"));
    if general_category && matches!(p.value.as_str(), "Cs" | "Surrogate") {
        out.push_str(if p.negated { ANYTHING } else { NOTHING });
        return;
    }
    let letter = if p.negated { 'P' } else { 'p' };
    match &p.name {
        Some(name) => write!(out, "\\{letter}{{{name}={}}}", p.value),
        None => write!(out, "\\{letter}{{{}}}", p.value),
    }
    .unwrap_or(());
}
