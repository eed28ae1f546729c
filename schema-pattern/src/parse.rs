//! The parser: a first pass that counts capture groups and collects their names (a
//! backreference may come before its group), then a recursive descent that builds the tree.

use crate::names::{is_id_continue, is_id_start, BINARY, GENERAL_CATEGORY, SCRIPT};
use crate::{
    Alternative, Class, ClassEscape, ClassEscapeKind, ClassItem, Error, Group, GroupKind,
    Modifiers, Node, Pattern, Property, Quantifier, Term,
};
use std::collections::HashMap;

/// Reads `pattern` as an ECMA-262 regular expression (the form the crate docs describe).
pub fn parse(pattern: &str) -> Result<Pattern, Error> {
    let s: Vec<char> = pattern.chars().collect();
    let offsets: Vec<usize> = pattern
        .char_indices()
        .map(|(i, _)| i)
        .chain([pattern.len()])
        .collect();
    let at = |i: usize| offsets[i.min(s.len())];
    let names = group_names(&s).map_err(|(message, i)| Error {
        message,
        offset: at(i),
    })?;
    let mut p = Parser {
        s: &s,
        offsets: &offsets,
        i: 0,
        depth: 0,
        groups: 0,
        groups_max: names.groups,
        names: names.names,
        loops: 0,
        has_backreference: false,
        has_lookaround: false,
        has_multiline_modifier: false,
    };
    let alternatives = p.disjunction().and_then(|alts| match p.peek() {
        None => Ok(alts),
        Some(')') => Err("unbalanced parenthesis"),
        Some(_) => Err("unexpected character"),
    });
    match alternatives {
        Ok(alternatives) => Ok(Pattern {
            alternatives,
            capture_groups: p.groups,
            has_backreference: p.has_backreference,
            has_lookaround: p.has_lookaround,
            has_multiline_modifier: p.has_multiline_modifier,
        }),
        Err(message) => Err(Error {
            message,
            offset: at(p.i),
        }),
    }
}

const MAX_DEPTH: u32 = 256;
const MAX_GROUPS: u32 = 65_535;
const MAX_LOOPS: u32 = 65_535;

/// The message of `(?` followed by nothing the grammar knows.
const BAD_GROUP: &str =
    "`(?` not followed by `:`, `=`, `!`, `<=`, `<!`, `<name>` or modifiers `i`, `m`, `s`";

type R<T> = Result<T, &'static str>;

struct Parser<'a> {
    s: &'a [char],
    /// The byte offset of each character, and the pattern's length last.
    offsets: &'a [usize],
    i: usize,
    depth: u32,
    groups: u32,
    /// Capture groups in the whole pattern (a backreference may point forward).
    groups_max: u32,
    /// Every group name in the whole pattern, with the numbers of its groups.
    names: HashMap<String, Vec<u32>>,
    loops: u32,
    has_backreference: bool,
    has_lookaround: bool,
    has_multiline_modifier: bool,
}

/// The result of the first pass: capture groups counted and named groups collected.
struct Names {
    groups: u32,
    names: HashMap<String, Vec<u32>>,
}

/// The first pass: counts the capture groups and collects their names with their numbers,
/// and rejects a name used twice where both groups can take part in one match (the same
/// alternative at every common nesting level). An error comes with the character index where
/// it was found.
fn group_names(s: &[char]) -> Result<Names, (&'static str, usize)> {
    let mut c = Cursor { s, i: 0 };
    let mut groups = 0u32;
    // The alternative index at each nesting level, outermost first.
    let mut alts: Vec<usize> = vec![0];
    // Each name with the alternatives leading to each group of that name.
    let mut found: HashMap<String, Vec<Vec<usize>>> = HashMap::new();
    let mut numbers: HashMap<String, Vec<u32>> = HashMap::new();
    while let Some(ch) = c.next() {
        match ch {
            '\\' => {
                c.next();
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
                            return Err(("a group name is used twice in one alternative", c.i));
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
    })
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
    /// Runs `f` on a cursor at the current position and moves to where it stopped.
    fn with_cursor<T>(&mut self, f: impl FnOnce(&mut Cursor<'_>) -> T) -> T {
        let mut c = Cursor {
            s: self.s,
            i: self.i,
        };
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

    fn disjunction(&mut self) -> R<Vec<Alternative>> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("groups nested more than 256 deep");
        }
        let mut alternatives = vec![self.alternative()?];
        while self.eat('|') {
            alternatives.push(self.alternative()?);
        }
        self.depth -= 1;
        Ok(alternatives)
    }

    fn alternative(&mut self) -> R<Alternative> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            let mut quantifiable = true;
            let node =
                match c {
                    ')' | '|' => break,
                    '^' | '$' => {
                        self.i += 1;
                        quantifiable = false;
                        if c == '^' {
                            Node::Start
                        } else {
                            Node::End
                        }
                    }
                    '\\' => {
                        self.i += 1;
                        match self.peek() {
                            None => return Err("incomplete escape at the end"),
                            // A quantified `\b` is an error in the standard, not in the engine.
                            Some(b @ ('b' | 'B')) => {
                                self.i += 1;
                                Node::WordBoundary { negated: b == 'B' }
                            }
                            Some(_) => self.atom_escape()?,
                        }
                    }
                    '.' => {
                        self.i += 1;
                        Node::Dot
                    }
                    '(' => {
                        let (group, q) = self.group()?;
                        quantifiable = q;
                        Node::Group(Box::new(group))
                    }
                    '[' => Node::Class(self.class()?),
                    '*' | '+' | '?' | ']' | '{' | '}' => return Err(
                        "a quantifier or bracket with nothing to apply to (escape it with `\\`)",
                    ),
                    _ => {
                        self.i += 1;
                        Node::Char(u32::from(c))
                    }
                };
            let quantifier = self.quantifier(quantifiable)?;
            terms.push(Term { node, quantifier });
        }
        Ok(terms)
    }

    /// A quantifier after an atom, if any.
    fn quantifier(&mut self, quantifiable: bool) -> R<Option<Quantifier>> {
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
            _ => return Ok(None),
        };
        let lazy = self.eat('?');
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
        Ok(Some(Quantifier {
            min,
            max,
            lazy,
            span: self.offsets[start]..self.offsets[self.i],
        }))
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

    /// A group at `(`, and whether a quantifier may follow it.
    fn group(&mut self) -> R<(Group, bool)> {
        let lookarounds = [
            ("(?=", GroupKind::Lookahead { negated: false }),
            ("(?!", GroupKind::Lookahead { negated: true }),
            ("(?<=", GroupKind::Lookbehind { negated: false }),
            ("(?<!", GroupKind::Lookbehind { negated: true }),
        ];
        let mut quantifiable = true;
        let kind = if let Some((_, kind)) = lookarounds.into_iter().find(|(a, _)| self.eat_str(a)) {
            // Quantifying a lookaround is an error with the `u` flag.
            quantifiable = false;
            self.has_lookaround = true;
            kind
        } else if self.eat_str("(?:") {
            GroupKind::NonCapturing
        } else if self.peek_at(1) == Some('?') && self.peek_at(2).is_some_and(|c| c != '<') {
            self.modifiers()?
        } else {
            self.i += 1;
            if self.groups >= MAX_GROUPS {
                return Err("more than 65,535 capture groups");
            }
            self.groups += 1;
            let name = if self.eat('?') {
                match self.with_cursor(|c| c.group_name()) {
                    Some(name) => Some(name),
                    None => return Err(BAD_GROUP),
                }
            } else {
                None
            };
            GroupKind::Capture {
                index: self.groups,
                name,
            }
        };
        let alternatives = self.disjunction()?;
        if !self.eat(')') {
            return Err("unbalanced parenthesis");
        }
        Ok((Group { kind, alternatives }, quantifiable))
    }

    /// `(?ims-ims:` (at the `(`), through the `:`.
    fn modifiers(&mut self) -> R<GroupKind> {
        self.i += 2;
        let mut set = Modifiers::default();
        let mut clear = Modifiers::default();
        let mut hyphen = false;
        loop {
            match self.next() {
                Some(c @ ('i' | 'm' | 's')) => {
                    if *modifier(&mut set, c) || *modifier(&mut clear, c) {
                        return Err("a modifier given twice in a group `(?..:`");
                    }
                    *modifier(if hyphen { &mut clear } else { &mut set }, c) = true;
                    self.has_multiline_modifier |= c == 'm';
                }
                Some('-') if !hyphen => hyphen = true,
                Some(':') if set != Modifiers::default() || clear != Modifiers::default() => {
                    return Ok(GroupKind::Modifiers { set, clear })
                }
                _ => return Err(BAD_GROUP),
            }
        }
    }

    /// After `\` in an atom (not `\b`, `\B`).
    fn atom_escape(&mut self) -> R<Node> {
        match self.peek() {
            Some(c @ ('d' | 'D' | 's' | 'S' | 'w' | 'W')) => {
                self.i += 1;
                Ok(Node::Escape(class_escape(c)))
            }
            Some(c @ ('p' | 'P')) => {
                self.i += 1;
                self.property(c == 'P').map(Node::Property)
            }
            Some('1'..='9') => {
                let n = self.decimal().unwrap_or(0);
                if n <= self.groups_max as usize {
                    self.has_backreference = true;
                    // `n` is at most `groups_max`, a `u32`.
                    Ok(Node::Backreference(vec![n as u32]))
                } else {
                    Err("a backreference `\\n` to a group the pattern does not have")
                }
            }
            Some('k') => {
                self.i += 1;
                let Some(name) = self.with_cursor(|c| c.group_name()) else {
                    return Err("`\\k` not followed by `<name>`");
                };
                match self.names.get(&name) {
                    Some(groups) => {
                        self.has_backreference = true;
                        Ok(Node::Backreference(groups.clone()))
                    }
                    None => Err("a backreference `\\k<name>` to a group the pattern does not have"),
                }
            }
            _ => self.char_escape().map(Node::Char),
        }
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
    fn class(&mut self) -> R<Class> {
        self.i += 1;
        let negated = self.eat('^');
        let mut items = Vec::new();
        loop {
            match self.peek() {
                None => return Err("unbalanced bracket `[`"),
                Some(']') => {
                    self.i += 1;
                    return Ok(Class { negated, items });
                }
                Some(_) => {}
            }
            let first = self.class_atom()?;
            if !self.eat('-') {
                items.push(first);
                continue;
            }
            if matches!(self.peek(), None | Some(']')) {
                items.push(first);
                items.push(ClassItem::Char(u32::from('-')));
                continue;
            }
            match (first, self.class_atom()?) {
                (ClassItem::Char(a), ClassItem::Char(b)) if a > b => {
                    return Err("a class range whose start comes after its end")
                }
                (ClassItem::Char(a), ClassItem::Char(b)) => items.push(ClassItem::Range(a, b)),
                _ => {
                    return Err(
                        "a range in a class with a class escape (`\\d`, `\\p{..}`) as an end",
                    )
                }
            }
        }
    }

    /// One class atom (not at `]` or the end): a character, a class escape or a property.
    fn class_atom(&mut self) -> R<ClassItem> {
        let Some(c) = self.next() else {
            return Err("unbalanced bracket `[`");
        };
        if c != '\\' {
            return Ok(ClassItem::Char(u32::from(c)));
        }
        match self.peek() {
            None => Err("incomplete escape at the end"),
            Some('b') => {
                self.i += 1;
                Ok(ClassItem::Char(8))
            }
            Some('-') => {
                self.i += 1;
                Ok(ClassItem::Char(u32::from('-')))
            }
            Some(c @ ('d' | 'D' | 's' | 'S' | 'w' | 'W')) => {
                self.i += 1;
                Ok(ClassItem::Escape(class_escape(c)))
            }
            Some(c @ ('p' | 'P')) => {
                self.i += 1;
                self.property(c == 'P').map(ClassItem::Property)
            }
            Some(_) => self.char_escape().map(ClassItem::Char),
        }
    }

    /// `{Name}` or `{Name=Value}` after `\p` / `\P`.
    fn property(&mut self, negated: bool) -> R<Property> {
        const BAD: &str = "an unknown Unicode property in `\\p{..}` (names are case-sensitive: `L`, `Letter`, `Lu`, `sc=Latin`, `Script_Extensions=Greek`, `Alphabetic`, ...)";
        if !self.eat('{') {
            return Err("`\\p` not followed by `{`");
        }
        let start = self.i;
        let mut name: Option<(String, &'static [&'static str])> = None;
        let mut value_start = start;
        while let Some(c) = self.next() {
            match c {
                '}' => {
                    let value: String = self.s[value_start..self.i - 1].iter().collect();
                    let known = match &name {
                        Some((_, list)) => list.binary_search(&value.as_str()).is_ok(),
                        None => {
                            BINARY.binary_search(&value.as_str()).is_ok()
                                || GENERAL_CATEGORY.binary_search(&value.as_str()).is_ok()
                        }
                    };
                    if !known {
                        return Err(BAD);
                    }
                    return Ok(Property {
                        negated,
                        name: name.map(|(n, _)| n),
                        value,
                    });
                }
                '=' if name.is_none() => {
                    let n: String = self.s[start..self.i - 1].iter().collect();
                    let list = match n.as_str() {
                        "General_Category" | "gc" => GENERAL_CATEGORY,
                        "Script" | "sc" | "Script_Extensions" | "scx" => SCRIPT,
                        _ => return Err(BAD),
                    };
                    name = Some((n, list));
                    value_start = self.i;
                }
                c if c.is_ascii_alphanumeric() || c == '_' => {}
                _ => return Err(BAD),
            }
        }
        Err(BAD)
    }
}

/// The field of `m` for the modifier letter `c` (`i`, `m` or `s`).
fn modifier(m: &mut Modifiers, c: char) -> &mut bool {
    match c {
        'i' => &mut m.ignore_case,
        'm' => &mut m.multiline,
        _ => &mut m.dot_all,
    }
}

/// `\d`, `\D`, `\s`, `\S`, `\w` or `\W` (`c` is the letter).
fn class_escape(c: char) -> ClassEscape {
    ClassEscape {
        kind: match c.to_ascii_lowercase() {
            'd' => ClassEscapeKind::Digit,
            's' => ClassEscapeKind::Space,
            _ => ClassEscapeKind::Word,
        },
        negated: c.is_ascii_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::{ClassEscape, ClassEscapeKind, ClassItem, GroupKind, Modifiers, Node, Quantifier};

    fn only_node(p: &str) -> Node {
        let mut tree = parse(p).unwrap();
        assert_eq!(tree.alternatives.len(), 1, "{p}");
        assert_eq!(tree.alternatives[0].len(), 1, "{p}");
        tree.alternatives[0].remove(0).node
    }

    #[test]
    fn errors_say_where_the_reader_stopped_in_bytes() {
        let at = |p: &str| parse(p).map(drop).unwrap_err().offset;
        assert_eq!(at("ab(c"), 4);
        assert_eq!(at("^[A-Z]{2"), 6);
        // `é` is two bytes: the stray `+` after `é*` is at byte 3.
        assert_eq!(at("é*+"), 3);
        // Found by the first pass (group names), at the end of the second name.
        assert_eq!(at("(?<a>x)(?<a>y)"), 12);
        assert_eq!(at("*"), 0);
    }

    #[test]
    fn the_message_names_the_last_characters_read() {
        let said = |p: &str| parse(p).map(drop).unwrap_err().in_pattern(p);
        assert_eq!(
            said("*"),
            "a quantifier or bracket with nothing to apply to (escape it with `\\`), at the start"
        );
        assert_eq!(
            said("[z-a]"),
            "a class range whose start comes after its end, after \"[z-a\""
        );
        assert_eq!(
            said("abcdefghijklmnopqrstuvwxyz("),
            "unbalanced parenthesis, after \"…hijklmnopqrstuvwxyz(\""
        );
    }

    #[test]
    fn classes_keep_items_in_order() {
        let Node::Class(c) = only_node(r"[^a-c\d-]") else {
            panic!("not a class")
        };
        let digit = ClassEscape {
            kind: ClassEscapeKind::Digit,
            negated: false,
        };
        assert!(c.negated);
        assert_eq!(
            c.items,
            [
                ClassItem::Range(0x61, 0x63),
                ClassItem::Escape(digit),
                ClassItem::Char(0x2D),
            ]
        );
    }

    #[test]
    fn groups_modifiers_and_backreferences() {
        let Node::Group(g) = only_node("(?i-s:x)") else {
            panic!("not a group")
        };
        let set = Modifiers {
            ignore_case: true,
            ..Modifiers::default()
        };
        let clear = Modifiers {
            dot_all: true,
            ..Modifiers::default()
        };
        assert_eq!(g.kind, GroupKind::Modifiers { set, clear });

        let tree = parse(r"(?<a>x)|(?<a>y)\k<a>").unwrap();
        assert!(tree.has_backreference && !tree.has_lookaround && !tree.has_multiline_modifier);
        assert_eq!(tree.capture_groups, 2);
        assert_eq!(
            tree.alternatives[1][1].node,
            Node::Backreference(vec![1, 2])
        );

        assert!(parse("(?<!a)b").unwrap().has_lookaround);
        assert!(parse("(?-m:^)").unwrap().has_multiline_modifier);
    }

    #[test]
    fn quantifiers_keep_their_text() {
        let tree = parse("ab{2,3}?").unwrap();
        let q = tree.alternatives[0][1].quantifier.clone();
        let expected = Quantifier {
            min: 2,
            max: Some(3),
            lazy: true,
            span: 2..8,
        };
        assert_eq!(q, Some(expected));
    }
}
