//! ECMA-262 patterns read and rewritten into the syntax of the engines that run them.
//!
//! The form read is ECMA-262's with the `u` flag (Unicode mode: code points, `\u{..}`, `\p{..}`,
//! a strict grammar), widened by Annex B's identity escapes of characters that are neither ASCII
//! letters nor digits (`\:`, `\-`, `\_`, `\%`, `\@`, `\<`, `\>`, ... match the character itself),
//! which schemas written for engines without the `u` flag use. Annex B's escapes of letters
//! (`\a` read as `a`) stay errors: other engines give several of them other meanings.
//!
//! The output is `regex-syntax` syntax with ECMA-262's meaning spelled out: `\d`, `\w` and `\b`
//! are ASCII, `\s` is ECMA-262's white space and line terminators, `.` excludes line
//! terminators (`\n`, `\r`, U+2028, U+2029), `$` matches only at the end, group names are
//! replaced by numbers, and a lone surrogate (no JSON string holds one) matches nothing. A
//! pattern with a backreference or a lookaround (or a multiline `^`/`$`) is marked as needing
//! backtracking and written in `fancy-regex` syntax instead.
//!
//! The grammar and its errors are those of the derive's compile-time check
//! (`schema-macros/src/pattern.rs`): the `pattern_syntax` test in `crosscheck/` holds the two to
//! accepting the same patterns. Time is linear in the pattern's length, except that a named
//! group records its nesting path and is compared with the earlier groups of the same name.

use super::names::{is_id_continue, is_id_start, BINARY, GENERAL_CATEGORY, SCRIPT};
use std::collections::HashMap;

/// A pattern rewritten for an engine.
#[cfg_attr(not(feature = "pattern"), allow(dead_code))]
pub(crate) struct Translated {
    /// The pattern in `regex-syntax` (or, when `backtracking`, `fancy-regex`) syntax.
    pub regex: String,
    /// Whether the pattern has a backreference or a lookaround.
    pub backtracking: bool,
}

/// The pattern rewritten, or why it is not a valid ECMA-262 regular expression.
pub(crate) fn translate(pattern: &str) -> Result<Translated, &'static str> {
    let s: Vec<char> = pattern.chars().collect();
    let names = group_names(&s)?;
    let mut p = Parser {
        s: &s,
        i: 0,
        depth: 0,
        groups: 0,
        groups_max: names.groups,
        names: names.names,
        loops: 0,
        out: String::with_capacity(pattern.len() * 2),
        backtracking: names.backtracking,
        flags: vec![Flags::default()],
    };
    p.disjunction()?;
    match p.peek() {
        None => Ok(Translated {
            regex: p.out,
            backtracking: p.backtracking,
        }),
        Some(')') => Err("unbalanced parenthesis"),
        Some(_) => Err("unexpected character"),
    }
}

const MAX_DEPTH: u32 = 256;
const MAX_GROUPS: u32 = 65_535;
const MAX_LOOPS: u32 = 65_535;

type R<T> = Result<T, &'static str>;

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

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    depth: u32,
    groups: u32,
    /// Capture groups in the whole pattern (a backreference may point forward).
    groups_max: u32,
    /// Every group name in the whole pattern, with the numbers of its groups.
    names: HashMap<String, Vec<u32>>,
    loops: u32,
    out: String,
    backtracking: bool,
    flags: Vec<Flags>,
}

/// A class atom: one code point (usable as a range end) or a class (`\d`, `\p{..}`) as items.
enum Atom {
    Char(u32),
    Class(String),
}

/// The result of the first pass: capture groups counted and named groups collected.
struct Names {
    groups: u32,
    names: HashMap<String, Vec<u32>>,
    /// A backreference, lookaround or multiline modifier appears.
    backtracking: bool,
}

/// The first pass: counts the capture groups and collects their names (a backreference may
/// come before its group), rejects a name used twice where both groups can take part in one
/// match (the same alternative at every common nesting level), and notes whether the pattern
/// needs backtracking.
fn group_names(s: &[char]) -> R<Names> {
    let mut c = Cursor { s, i: 0 };
    let mut groups = 0u32;
    let mut backtracking = false;
    // The alternative index at each nesting level, outermost first.
    let mut alts: Vec<usize> = vec![0];
    // Each name with the alternatives leading to each group of that name.
    let mut found: HashMap<String, Vec<Vec<usize>>> = HashMap::new();
    let mut numbers: HashMap<String, Vec<u32>> = HashMap::new();
    while let Some(ch) = c.next() {
        match ch {
            '\\' => {
                if matches!(c.next(), Some('1'..='9' | 'k')) {
                    backtracking = true;
                }
            }
            '[' => {
                while let Some(ch) = c.next() {
                    match ch {
                        '\\' => {
                            c.next();
                        }
                        ']' => break,
                        _ => {}
                    }
                }
            }
            '(' => {
                let (capturing, name) = if c.eat('?') {
                    if matches!(c.peek(), Some('=' | '!'))
                        || (c.peek() == Some('<') && matches!(c.s.get(c.i + 1), Some('=' | '!')))
                    {
                        backtracking = true;
                    }
                    let mut j = c.i;
                    while let Some(m) = c.s.get(j).filter(|m| matches!(m, 'i' | 'm' | 's' | '-')) {
                        backtracking |= *m == 'm';
                        j += 1;
                    }
                    let name = c.group_name();
                    (name.is_some(), name)
                } else {
                    (true, None)
                };
                if capturing {
                    groups = (groups + 1).min(MAX_GROUPS);
                }
                if let Some(name) = name {
                    let paths = found.entry(name.clone()).or_default();
                    for path in paths.iter() {
                        let n = path.len().min(alts.len());
                        if path[..n] == alts[..n] {
                            return Err("a group name is used twice in one alternative");
                        }
                    }
                    paths.push(alts.clone());
                    numbers.entry(name).or_default().push(groups);
                }
                alts.push(0);
            }
            ')' if alts.len() > 1 => {
                alts.pop();
            }
            '|' => {
                if let Some(a) = alts.last_mut() {
                    *a += 1;
                }
            }
            _ => {}
        }
    }
    Ok(Names {
        groups,
        names: numbers,
        backtracking,
    })
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
            use std::fmt::Write;
            let _ = write!(out, "\\x{{{c:X}}}");
        }
    }
    true
}

/// Writes the class items of the range `a..=b`, less the surrogates; whether any remain.
fn push_range(out: &mut String, a: u32, b: u32) -> bool {
    let mut any = false;
    for (lo, hi) in [(a, b.min(0xD7FF)), (a.max(0xE000), b)] {
        if lo <= hi {
            push_char(out, lo);
            if hi > lo {
                out.push('-');
                push_char(out, hi);
            }
            any = true;
        }
    }
    any
}

/// A position in the pattern.
struct Cursor<'a> {
    s: &'a [char],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let mut j = self.i;
        for c in s.chars() {
            if self.s.get(j) != Some(&c) {
                return false;
            }
            j += 1;
        }
        self.i = j;
        true
    }

    /// `n` characters as a string, or `None` (nothing consumed) at the end of the pattern.
    fn take(&mut self, n: usize) -> Option<String> {
        let t = self.s.get(self.i..self.i + n)?;
        self.i += n;
        Some(t.iter().collect())
    }

    /// After `\u`: `XXXX`, `{X..}` or a surrogate pair `XXXX\uXXXX`; `None` (nothing consumed)
    /// when it is none of these. Hex digits are read as `from_str_radix` reads them.
    fn unicode_escape(&mut self) -> Option<u32> {
        let start = self.i;
        if self.eat('{') {
            let len = self.s[self.i..].iter().position(|&c| c == '}');
            let Some(len) = len else {
                self.i = start;
                return None;
            };
            let digits: String = self.s[self.i..self.i + len].iter().collect();
            self.i += len + 1;
            return match u32::from_str_radix(&digits, 16) {
                Ok(u) if u <= 0x10_FFFF => Some(u),
                _ => {
                    self.i = start;
                    None
                }
            };
        }
        let Some(Ok(u)) = self.take(4).map(|h| u16::from_str_radix(&h, 16)) else {
            self.i = start;
            return None;
        };
        if !(0xD800..=0xDBFF).contains(&u) || !self.eat_str("\\u") {
            return Some(u32::from(u));
        }
        // A high surrogate and `\u`: a low surrogate makes a pair; otherwise the engine keeps
        // the high surrogate alone and goes on after the `\u`.
        let after = self.i;
        let low = self.take(4).and_then(|h| u16::from_str_radix(&h, 16).ok());
        match low.and_then(|l| char::decode_utf16([u, l]).next()?.ok()) {
            Some(c) => Some(u32::from(c)),
            None => {
                self.i = after;
                Some(u32::from(u))
            }
        }
    }

    /// `<name>` (after `(?` or `\k`): the name, or `None` with only the `<` consumed.
    fn group_name(&mut self) -> Option<String> {
        if !self.eat('<') {
            return None;
        }
        let start = self.i;
        let name = self.group_name_rest();
        if name.is_none() {
            self.i = start;
        }
        name
    }

    fn group_name_rest(&mut self) -> Option<String> {
        let mut name = String::new();
        let first = self.name_char()?;
        if !(is_id_start(first) || first == '$' || first == '_') {
            return None;
        }
        name.push(first);
        loop {
            let c = self.name_char()?;
            if c == '>' {
                return Some(name);
            }
            if !(is_id_continue(c) || matches!(c, '$' | '_' | '\u{200C}' | '\u{200D}')) {
                return None;
            }
            name.push(c);
        }
    }

    /// One character of a group name, `\u` escapes decoded.
    fn name_char(&mut self) -> Option<char> {
        let c = self.next()?;
        if c == '\\' && self.eat('u') {
            return self.unicode_escape().and_then(char::from_u32);
        }
        Some(c)
    }
}

impl Parser<'_> {
    fn cursor(&self) -> Cursor<'_> {
        Cursor {
            s: self.s,
            i: self.i,
        }
    }

    /// Runs `f` on a cursor at the current position and moves to where it stopped.
    fn with_cursor<T>(&mut self, f: impl FnOnce(&mut Cursor<'_>) -> T) -> T {
        let mut c = self.cursor();
        let out = f(&mut c);
        self.i = c.i;
        out
    }

    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.s.get(self.i + n).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        self.with_cursor(|cur| cur.eat(c))
    }

    fn eat_str(&mut self, s: &str) -> bool {
        self.with_cursor(|cur| cur.eat_str(s))
    }

    fn flags(&self) -> Flags {
        self.flags.last().copied().unwrap_or_default()
    }

    fn disjunction(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("groups nested more than 256 deep");
        }
        self.alternative()?;
        while self.eat('|') {
            self.out.push('|');
            self.alternative()?;
        }
        self.depth -= 1;
        Ok(())
    }

    fn alternative(&mut self) -> R<()> {
        while let Some(c) = self.peek() {
            let mut quantifiable = true;
            match c {
                ')' | '|' => break,
                '^' | '$' => {
                    self.i += 1;
                    quantifiable = false;
                    let multiline = self.flags().multiline;
                    self.out.push_str(match (c, multiline) {
                        ('^', false) => "^",
                        ('$', false) => "$",
                        ('^', true) => r"(?:^|(?<=[\n\r\x{2028}\x{2029}]))",
                        _ => r"(?:$|(?=[\n\r\x{2028}\x{2029}]))",
                    });
                }
                '\\' => {
                    self.i += 1;
                    match self.peek() {
                        None => return Err("incomplete escape at the end"),
                        // A quantified `\b` is an error in the standard, not in the engine.
                        Some(b @ ('b' | 'B')) => {
                            self.i += 1;
                            self.word_boundary(b == 'b');
                        }
                        Some(_) => self.atom_escape()?,
                    }
                }
                '.' => {
                    self.i += 1;
                    if self.flags().dot_all {
                        self.out.push_str(ANYTHING);
                    } else {
                        self.out.push_str("[^");
                        self.out.push_str(LINE_TERMINATORS);
                        self.out.push(']');
                    }
                }
                '(' => quantifiable = self.group()?,
                '[' => self.class()?,
                '*' | '+' | '?' | ']' | '{' | '}' => {
                    return Err(
                        "a quantifier or bracket with nothing to apply to (escape it with `\\`)",
                    )
                }
                _ => {
                    self.i += 1;
                    self.literal(u32::from(c));
                }
            }
            self.quantifier(quantifiable)?;
        }
        Ok(())
    }

    /// A literal code point as an atom (a lone surrogate matches nothing).
    fn literal(&mut self, c: u32) {
        if !push_char(&mut self.out, c) {
            self.out.push_str(NOTHING);
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

    /// A quantifier after an atom, if any.
    fn quantifier(&mut self, quantifiable: bool) -> R<()> {
        let start = self.i;
        let (min, max) = match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.i += 1;
                (usize::from(c == '+'), (c == '?').then_some(1))
            }
            Some('{') => match self.braced() {
                Some(q) => q,
                None => return Err("`{` that is not a quantifier `{n}`, `{n,}` or `{n,m}`"),
            },
            _ => return Ok(()),
        };
        self.eat('?');
        if !quantifiable {
            return Err("a quantifier after an assertion");
        }
        if max.is_some_and(|max| min > max) {
            return Err("a quantifier `{n,m}` with n > m");
        }
        if self.loops >= MAX_LOOPS {
            return Err("more than 65,535 quantifiers");
        }
        self.loops += 1;
        self.out.extend(&self.s[start..self.i]);
        Ok(())
    }

    /// `{n}`, `{n,}` or `{n,m}` (consumed, through the `}`), or `None` with nothing consumed.
    fn braced(&mut self) -> Option<(usize, Option<usize>)> {
        let start = self.i;
        self.i += 1;
        let q = (|| {
            let min = self.decimal()?;
            let max = if self.eat(',') {
                self.decimal()
            } else {
                Some(min)
            };
            self.eat('}').then_some((min, max))
        })();
        if q.is_none() {
            self.i = start;
        }
        q
    }

    /// ASCII digits, saturating; `None` when there is none.
    fn decimal(&mut self) -> Option<usize> {
        let start = self.i;
        let mut n: usize = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d as usize);
            self.i += 1;
        }
        (self.i > start).then_some(n)
    }

    /// A group at `(`; whether a quantifier may follow it.
    fn group(&mut self) -> R<bool> {
        let mut quantifiable = true;
        let mut flags = self.flags();
        if let Some(a) = ["(?=", "(?!", "(?<=", "(?<!"]
            .iter()
            .find(|a| self.eat_str(a))
        {
            // A lookaround: quantifying it is an error with the `u` flag.
            quantifiable = false;
            self.out.push_str(a);
        } else if self.eat_str("(?:") {
            self.out.push_str("(?:");
        } else if self.peek_at(1) == Some('?') && self.peek_at(2).is_some_and(|c| c != '<') {
            flags = self.modifiers(flags)?;
        } else {
            self.i += 1;
            if self.groups >= MAX_GROUPS {
                return Err("more than 65,535 capture groups");
            }
            self.groups += 1;
            if self.eat('?') && self.with_cursor(|c| c.group_name()).is_none() {
                return Err("`(?` not followed by `:`, `=`, `!`, `<=`, `<!`, `<name>` or modifiers `i`, `m`, `s`");
            }
            self.out.push('(');
        }
        self.flags.push(flags);
        self.disjunction()?;
        self.flags.pop();
        if !self.eat(')') {
            return Err("unbalanced parenthesis");
        }
        self.out.push(')');
        Ok(quantifiable)
    }

    /// `(?ims-ims:` (at the `(`), through the `:`: the flags inside. `i` is written for the
    /// engine, `s` and `m` are applied here.
    fn modifiers(&mut self, mut flags: Flags) -> R<Flags> {
        self.i += 2;
        let mut seen = [false; 3];
        let mut hyphen = false;
        let mut any = false;
        let mut case: Option<bool> = None;
        loop {
            match self.next() {
                Some(c @ ('i' | 'm' | 's')) => {
                    let k = usize::from(c == 'm') + 2 * usize::from(c == 's');
                    if std::mem::replace(&mut seen[k], true) {
                        return Err("a modifier given twice in a group `(?..:`");
                    }
                    match c {
                        'i' => case = Some(!hyphen),
                        'm' => flags.multiline = !hyphen,
                        _ => flags.dot_all = !hyphen,
                    }
                    any = true;
                }
                Some('-') if !hyphen => hyphen = true,
                Some(':') if any => {
                    self.out.push_str(match case {
                        Some(true) => "(?i:",
                        Some(false) => "(?-i:",
                        None => "(?:",
                    });
                    return Ok(flags);
                }
                _ => return Err("`(?` not followed by `:`, `=`, `!`, `<=`, `<!`, `<name>` or modifiers `i`, `m`, `s`"),
            }
        }
    }

    /// After `\` in an atom (not `\b`, `\B`).
    fn atom_escape(&mut self) -> R<()> {
        match self.peek() {
            Some(c @ ('d' | 'D' | 's' | 'S' | 'w' | 'W')) => {
                self.i += 1;
                self.out.push_str(&class_escape(c));
                Ok(())
            }
            Some(c @ ('p' | 'P')) => {
                self.i += 1;
                let start = self.i;
                self.property()?;
                let class = self.property_class(c, start);
                self.out.push_str(&class);
                Ok(())
            }
            Some('1'..='9') => {
                let n = self.decimal().unwrap_or(0);
                if n <= self.groups_max as usize {
                    self.backreference(&[n as u32]);
                    Ok(())
                } else {
                    Err("a backreference `\\n` to a group the pattern does not have")
                }
            }
            Some('k') => {
                self.i += 1;
                let Some(name) = self.with_cursor(|c| c.group_name()) else {
                    return Err("`\\k` not followed by `<name>`");
                };
                match self.names.get(&name).cloned() {
                    Some(groups) => {
                        self.backreference(&groups);
                        Ok(())
                    }
                    None => Err("a backreference `\\k<name>` to a group the pattern does not have"),
                }
            }
            _ => {
                let c = self.char_escape()?;
                self.literal(c);
                Ok(())
            }
        }
    }

    /// A backreference to whichever of `groups` took part in the match.
    fn backreference(&mut self, groups: &[u32]) {
        use std::fmt::Write;
        self.out.push_str("(?:");
        for (k, g) in groups.iter().enumerate() {
            if k > 0 {
                self.out.push('|');
            }
            let _ = write!(self.out, "\\{g}");
        }
        self.out.push(')');
    }

    /// A character escape after `\` (one character at least remains): its code point.
    fn char_escape(&mut self) -> R<u32> {
        const BAD: &str = "an escape `\\` of a letter or digit that ECMA-262 does not define";
        let Some(c) = self.next() else {
            return Err(BAD);
        };
        Ok(match c {
            'f' => 0xC,
            'n' => 0xA,
            'r' => 0xD,
            't' => 0x9,
            'v' => 0xB,
            'c' => match self.next() {
                Some(l) if l.is_ascii_alphabetic() => u32::from(l) % 32,
                _ => return Err("`\\c` not followed by an ASCII letter"),
            },
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => 0,
            'x' => {
                let hi = self.next().and_then(|c| c.to_digit(16));
                let lo = self.next().and_then(|c| c.to_digit(16));
                match (hi, lo) {
                    (Some(h), Some(l)) => h * 16 + l,
                    _ => return Err("`\\x` not followed by two hex digits"),
                }
            }
            'u' => match self.with_cursor(|c| c.unicode_escape()) {
                Some(u) => u,
                None => return Err("`\\u` not followed by four hex digits or `{hex}`"),
            },
            // Syntax characters and `/` (ECMA-262 with the `u` flag), and Annex B's identity
            // escapes of every other character that is not an ASCII letter or digit.
            c if !c.is_ascii_alphanumeric() => u32::from(c),
            _ => return Err(BAD),
        })
    }

    /// A class `[...]` at the `[`.
    fn class(&mut self) -> R<()> {
        self.i += 1;
        let negated = self.eat('^');
        let mut items = String::new();
        loop {
            match self.peek() {
                None => return Err("unbalanced bracket `[`"),
                Some(']') => {
                    self.i += 1;
                    break;
                }
                Some(_) => {}
            }
            let first = self.class_atom()?;
            if !self.eat('-') {
                push_atom(&mut items, first);
                continue;
            }
            if matches!(self.peek(), None | Some(']')) {
                push_atom(&mut items, first);
                push_char(&mut items, u32::from('-'));
                continue;
            }
            match (first, self.class_atom()?) {
                (Atom::Char(a), Atom::Char(b)) if a > b => {
                    return Err("a class range whose start comes after its end")
                }
                (Atom::Char(a), Atom::Char(b)) => {
                    push_range(&mut items, a, b);
                }
                _ => {
                    return Err(
                        "a range in a class with a class escape (`\\d`, `\\p{..}`) as an end",
                    )
                }
            }
        }
        match (items.is_empty(), negated) {
            (true, false) => self.out.push_str(NOTHING),
            (true, true) => self.out.push_str(ANYTHING),
            (false, _) => {
                self.out.push_str(if negated { "[^" } else { "[" });
                self.out.push_str(&items);
                self.out.push(']');
            }
        }
        Ok(())
    }

    /// One class atom (not at `]` or the end).
    fn class_atom(&mut self) -> R<Atom> {
        let Some(c) = self.next() else {
            return Err("unbalanced bracket `[`");
        };
        if c != '\\' {
            return Ok(Atom::Char(u32::from(c)));
        }
        match self.peek() {
            None => Err("incomplete escape at the end"),
            Some('b') => {
                self.i += 1;
                Ok(Atom::Char(8))
            }
            Some('-') => {
                self.i += 1;
                Ok(Atom::Char(u32::from('-')))
            }
            Some(c @ ('d' | 'D' | 's' | 'S' | 'w' | 'W')) => {
                self.i += 1;
                Ok(Atom::Class(class_escape(c)))
            }
            Some(c @ ('p' | 'P')) => {
                self.i += 1;
                let start = self.i;
                self.property()?;
                Ok(Atom::Class(self.property_class(c, start)))
            }
            Some(_) => self.char_escape().map(Atom::Char),
        }
    }

    /// The class of the property `\p{..}` (`c` is `p` or `P`) read from `start` to here.
    /// Surrogates (`Cs`) are in no JSON string, so `\p{Cs}` matches nothing.
    fn property_class(&self, c: char, start: usize) -> String {
        let text: String = self.s[start..self.i].iter().collect();
        let value = text.trim_matches(|c| c == '{' || c == '}');
        if matches!(
            value,
            "Cs" | "Surrogate"
                | "gc=Cs"
                | "gc=Surrogate"
                | "General_Category=Cs"
                | "General_Category=Surrogate"
        ) {
            return (if c == 'p' { NOTHING } else { ANYTHING }).to_string();
        }
        format!("\\{c}{text}")
    }

    /// `{Name}` or `{Name=Value}` after `\p` / `\P`.
    fn property(&mut self) -> R<()> {
        const BAD: &str = "an unknown Unicode property in `\\p{..}` (names are case-sensitive: `L`, `Letter`, `Lu`, `sc=Latin`, `Script_Extensions=Greek`, `Alphabetic`, ...)";
        if !self.eat('{') {
            return Err("`\\p` not followed by `{`");
        }
        let start = self.i;
        let mut name: Option<&'static [&'static str]> = None;
        let mut value_start = start;
        while let Some(c) = self.next() {
            match c {
                '}' => {
                    let value: String = self.s[value_start..self.i - 1].iter().collect();
                    let known = match name {
                        Some(list) => list.binary_search(&value.as_str()).is_ok(),
                        None => {
                            BINARY.binary_search(&value.as_str()).is_ok()
                                || GENERAL_CATEGORY.binary_search(&value.as_str()).is_ok()
                        }
                    };
                    return if known { Ok(()) } else { Err(BAD) };
                }
                '=' if name.is_none() => {
                    let n: String = self.s[start..self.i - 1].iter().collect();
                    name = Some(match n.as_str() {
                        "General_Category" | "gc" => GENERAL_CATEGORY,
                        "Script" | "sc" | "Script_Extensions" | "scx" => SCRIPT,
                        _ => return Err(BAD),
                    });
                    value_start = self.i;
                }
                c if c.is_ascii_alphanumeric() || c == '_' => {}
                _ => return Err(BAD),
            }
        }
        Err(BAD)
    }
}

/// `\d`, `\D`, `\s`, `\S`, `\w`, `\W` as a class.
fn class_escape(c: char) -> String {
    let items = match c.to_ascii_lowercase() {
        'd' => DIGIT,
        's' => SPACE,
        _ => WORD,
    };
    let not = if c.is_ascii_uppercase() { "^" } else { "" };
    format!("[{not}{items}]")
}

/// Writes a class atom as class items.
fn push_atom(items: &mut String, atom: Atom) {
    match atom {
        Atom::Char(c) => {
            push_char(items, c);
        }
        Atom::Class(class) => items.push_str(&class),
    }
}
