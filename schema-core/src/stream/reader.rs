//! The incremental reader: finds the JSON in a streaming model reply and tokenizes it as it
//! arrives, byte by byte.
//!
//! It chooses the value exactly as `from_llm` does, reading the reply through the same text
//! layer ([`crate::llm::ReasoningScan`], [`crate::llm::FenceScan`]): after the reasoning block,
//! the object or array the answer opens with once it holds a string; else the first JSON fence
//! that holds an object or array; else the first object or array in the prose that holds a
//! string. A value is *certain* when no continuation of the text can make `from_llm` choose
//! another one: a value the answer opens with, from its first string on, and a fence's value.
//! A value in prose is never certain (a later fence, or a `</think>` that turns everything before
//! it into reasoning, may replace it): it is read and shown all the same, and the sink is told
//! ([`Sink::set_certain`]) so that it holds back what it finds wrong instead of failing. When a
//! later value replaces the one read, the sink starts again ([`Sink::restart`]).

use super::partial::{Route, Seg, ValueKind};
use crate::llm::{self, FenceScan, FenceStep, ReasoningScan, MAX_FENCES, MAX_UNCLOSED_TRIES};
use crate::ParseError;
use std::cell::Cell;

/// The deepest nesting followed (as `from_llm`, which reads up to 127 levels).
const MAX_DEPTH: usize = 127;

/// Receives the reader's events, each with the path of the value it concerns.
///
/// A string's text goes two ways: to [`text`](Sink::text) at the end of every chunk, for a
/// string whose `begin` asked for it (a check that must see each character as it comes: a
/// `maxLength`, an enum prefix), and to [`grow`](Sink::grow) for the partial value, which is
/// lazy: its first text at once (to learn whether the partial shows it), then only when the
/// string closes or the caller asks for the partial ([`Reader::take_pending`]). So a string written
/// in a thousand one-byte chunks costs the partial two updates, not a thousand.
pub(crate) trait Sink {
    /// A value starts; for a string, returns whether [`text`](Sink::text) should follow it.
    fn begin(&mut self, path: &[Seg], kind: ValueKind) -> Result<bool, ParseError>;
    /// `frag` is the newly decoded text, `so_far` the whole string decoded so far.
    fn text(&mut self, path: &[Seg], frag: &str, so_far: &str) -> Result<(), ParseError>;
    /// At the end of the first chunk that reads into the string at `path`: whether the
    /// partial shows the string's text (asked with an empty text; the text itself comes at the
    /// string's close or when the caller asks for the partial), or `None` if the sink did not
    /// ask (it is asked again at the end of the next chunk that adds to the string).
    fn grow(&mut self, path: &[Seg]) -> Option<bool>;
    /// The route of the value at `path` as the partial is now ([`PartialValue::route_at`]).
    ///
    /// [`PartialValue::route_at`]: super::PartialValue::route_at
    fn route_at(&mut self, path: &[Seg]) -> Option<Route>;
    /// Instead of [`grow`](Sink::grow), for a string whose route says it shows its text: keeps
    /// the string's `Begin` back (it reaches the partial with the string's later events, see
    /// [`Reader::take_begin_due`]); whether there was one to keep back.
    fn defer_begin(&mut self) -> bool;
    /// Gives back a `Begin` kept back by [`defer_begin`](Sink::defer_begin): it goes with the
    /// `done` that follows.
    fn resume_begin(&mut self, kind: ValueKind);
    /// A property name is complete; `path` is the object's, `at` the offset of the key's
    /// closing quote.
    fn key(&mut self, path: &[Seg], key: &str, at: usize) -> Result<(), ParseError>;
    /// A value is complete: its place (`node`, whose JSON pointer [`Reader::pointer`] writes
    /// while the node is kept: until the next [`Reader::compact`]), its JSON text and, for a
    /// string, its decoded text and the end of it the partial was not given yet (`unsent`:
    /// what [`grow`](Sink::grow) would have been given). `noop`: the partial need not be
    /// given the `Done` (a container whose route says so).
    fn done(
        &mut self,
        path: &[Seg],
        node: u32,
        raw: &str,
        string: Option<&str>,
        unsent: &str,
        noop: bool,
    ) -> Result<(), ParseError>;
    /// Whether the value read from now on is certainly the reply's answer (see the module
    /// docs): until it is, a failed check is held back; once it is, one held back is returned.
    fn set_certain(&mut self, certain: bool) -> Result<(), ParseError>;
    /// The reader leaves the value it was reading for another one: everything the sink built
    /// from it (the partial, the checks, anything held back) starts again.
    fn restart(&mut self);
}

struct Quiet;

impl Sink for Quiet {
    fn begin(&mut self, _: &[Seg], _: ValueKind) -> Result<bool, ParseError> {
        Ok(false)
    }
    fn text(&mut self, _: &[Seg], _: &str, _: &str) -> Result<(), ParseError> {
        Ok(())
    }
    fn grow(&mut self, _: &[Seg]) -> Option<bool> {
        Some(false)
    }
    fn route_at(&mut self, _: &[Seg]) -> Option<Route> {
        None
    }
    fn defer_begin(&mut self) -> bool {
        false
    }
    fn resume_begin(&mut self, _: ValueKind) {}
    fn key(&mut self, _: &[Seg], _: &str, _: usize) -> Result<(), ParseError> {
        Ok(())
    }
    fn done(
        &mut self,
        _: &[Seg],
        _: u32,
        _: &str,
        _: Option<&str>,
        _: &str,
        _: bool,
    ) -> Result<(), ParseError> {
        Ok(())
    }
    fn set_certain(&mut self, _: bool) -> Result<(), ParseError> {
        Ok(())
    }
    fn restart(&mut self) {}
}

/// Where the reader is in the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// In the reasoning block (or before anything but whitespace): where the answer starts is
    /// not known yet.
    Reasoning,
    /// At the start of the answer, before anything but whitespace.
    Start,
    /// In prose, looking for a `{` or `[`.
    Prose,
    /// Reading the value that starts at `start`; `committed` once it is known to be the value
    /// to show (events are delivered only then).
    Json { start: usize, committed: bool },
    /// The value is complete; the rest of the reply is ignored unless a fence replaces a value
    /// that was not certain.
    After,
    /// No value in prose is looked for any more (too many tries, or the one taken is broken);
    /// a fence may still bring the answer.
    Idle,
    /// The certain value is broken (or nests too deep): nothing more is read; `finish` reports
    /// it.
    Broken,
}

/// Which of the reply's values is read ([`Reader::candidate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cand {
    /// The object or array the answer opens with.
    Lead,
    /// The first JSON fence's.
    Fenced,
    /// One in the prose.
    Prose,
}

/// The JSON fence being looked at, while fences may still bring the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fence {
    /// None open, or one that is not JSON.
    None,
    /// A JSON fence whose body starts here, before its first byte that is not whitespace.
    Await(usize),
    /// A JSON fence whose body starts here with no object or array: the answer only if the
    /// whole body is a JSON value, known at its close.
    Scalar(usize),
}

/// The reader's state between chunks.
pub(crate) struct Reader {
    pub(crate) mode: Mode,
    pos: usize,
    tries: usize,
    tok: Tok,
    /// What [`run_due`](Reader::run_due) found for the next chunk: the text's length before
    /// it, its length, the end of its plain start (`NO_RUN` when not asked).
    run: (usize, usize, usize),
    /// The reasoning block, read by the text layer.
    reasoning: ReasoningScan,
    /// Whether a lone `</think>` may still end a reasoning block (the answer is read from the
    /// reply's start meanwhile).
    lone: bool,
    /// The fences of the answer, read by the text layer while one may still bring the answer.
    fences: Option<FenceScan>,
    json_fences: usize,
    fence: Fence,
    /// The value being read (or last read), and where it starts.
    cand: Cand,
    cand_start: usize,
    /// For the value the answer opens with: whether a string was read in it (it is then the
    /// answer whatever follows).
    lead_won: bool,
}

/// [`Reader::run`] when [`Reader::run_due`] was not asked for the next chunk.
const NO_RUN: (usize, usize, usize) = (usize::MAX, 0, 0);

impl Reader {
    pub(crate) fn new() -> Reader {
        Reader {
            mode: Mode::Reasoning,
            pos: 0,
            tries: 0,
            tok: Tok::default(),
            run: NO_RUN,
            reasoning: ReasoningScan::new(0),
            lone: false,
            fences: None,
            json_fences: 0,
            fence: Fence::None,
            cand: Cand::Prose,
            cand_start: 0,
            lead_won: false,
        }
    }

    /// The value the partial shows: which candidate, where it starts, and whether it is
    /// certainly the one `from_llm` reads.
    pub(crate) fn candidate(&self) -> Option<(Cand, usize, bool)> {
        match self.mode {
            Mode::Json {
                committed: true, ..
            }
            | Mode::After
            | Mode::Broken => Some((self.cand, self.cand_start, self.certain())),
            Mode::Prose | Mode::Idle if self.cand == Cand::Lead => {
                // A value without strings the answer opened with: shown until another replaces it.
                Some((self.cand, self.cand_start, false))
            }
            _ => None,
        }
    }

    /// Whether the value being read is certainly the one `from_llm` reads.
    fn certain(&self) -> bool {
        !self.lone
            && match self.cand {
                Cand::Lead => self.lead_won,
                Cand::Fenced => true,
                Cand::Prose => false,
            }
    }

    /// Whether the top-level value the partial shows is complete (a value without strings the
    /// answer opened with included, though another may still replace it).
    pub(crate) fn finished(&self) -> bool {
        match self.mode {
            Mode::After => true,
            Mode::Prose
            | Mode::Idle
            | Mode::Json {
                committed: false, ..
            } => self.cand == Cand::Lead,
            _ => false,
        }
    }

    /// The text of the string being read that the partial has not been given yet, with the
    /// string's path: marks it given. If it is the string's first text, the caller tells
    /// [`shown`](Reader::shown) whether the partial changed.
    pub(crate) fn take_pending<'a>(&'a self, text: &'a str) -> Option<(&'a [Seg], &'a str, bool)> {
        if !matches!(
            self.mode,
            Mode::Json {
                committed: true,
                ..
            }
        ) {
            return None;
        }
        let t = &self.tok;
        match t.lex {
            Lex::Str { key: false, .. } if t.sent.get() < t.decoded_len(self.pos) => {
                let so_far = t.so_far(text, self.pos);
                let first = !t.known.get();
                let frag = so_far.get(t.sent.get()..).unwrap_or_default();
                t.sent.set(so_far.len());
                Some((&t.path[..t.depth], frag, first))
            }
            _ => None,
        }
    }

    /// The fast path of a chunk that only continues the string being read (plain characters,
    /// no quote, escape or control character; the string's first text already given to the
    /// partial; no check following its characters): appends it to the string without entering
    /// the tokenizer. `text` is the whole text, of which the last `n` bytes are the chunk.
    /// Returns whether the partial shows the string (it then changed), or `None` when the chunk
    /// needs the tokenizer.
    #[inline]
    pub(crate) fn extend_string(&mut self, text: &str, n: usize) -> Option<bool> {
        let t = &mut self.tok;
        t.pre = 0;
        if !t.plain || self.pos + n != text.len() {
            return None;
        }
        let new = &text.as_bytes()[self.pos..];
        match *new {
            [b] if b >= 0x20 && b != b'"' && b != b'\\' => {
                if t.owned {
                    t.buf.push(char::from(b));
                }
            }
            _ => {
                // The plain start of the chunk is taken here; the tokenizer goes on from the
                // first byte that needs it (never scanning the start again).
                // What `run_due` found for this chunk, if it was asked (used once).
                let run = std::mem::replace(&mut self.run, NO_RUN);
                let end = if run.0 == self.pos && run.1 == n {
                    run.2
                } else {
                    plain_run_end(new, 0)
                };
                if t.owned {
                    t.buf.push_str(&text[self.pos..self.pos + end]);
                }
                self.pos += end;
                if end < new.len() {
                    t.pre = end;
                    return None;
                }
            }
        }
        self.pos = text.len();
        Some(t.visible.get())
    }

    /// Whether a chunk still to be appended to `text` (`len` bytes so far) only continues the
    /// string being read in place (plain characters, no quote, escape or control character):
    /// [`take_run`](Reader::take_run) then takes it, once appended, if the string's first
    /// text was given (see [`first_text_due`](Reader::first_text_due)). Else, when the
    /// chunk starts so, how much of it does is kept for [`extend_string`](Reader::extend_string),
    /// so that the chunk is not scanned twice.
    #[inline]
    pub(crate) fn run_due(&mut self, len: usize, chunk: &[u8]) -> bool {
        if !self.tok.plain || self.pos != len {
            return false;
        }
        let end = plain_run_end(chunk, 0);
        self.run = (len, chunk.len(), end);
        end == chunk.len()
    }

    /// Takes a chunk all of which [`run_due`](Reader::run_due) found plain, now at the end of
    /// `text`: whether the partial shows the string (it then changed).
    #[inline]
    pub(crate) fn take_run(&mut self, text: &str, n: usize) -> bool {
        self.run = NO_RUN;
        let t = &mut self.tok;
        t.pre = 0;
        if t.owned {
            t.buf.push_str(&text[self.pos..self.pos + n]);
        }
        self.pos = text.len();
        t.visible.get()
    }

    /// Appends the JSON pointer of `node` (given to [`Sink::done`] since the last
    /// [`compact`](Reader::compact)) to `out`; `text` is the text the reader was given.
    pub(crate) fn pointer(&self, node: u32, text: &str, out: &mut String) {
        let t = &self.tok;
        let mut chain = Vec::new();
        let mut at = node;
        while let Some(n) = t.nodes.get(at as usize) {
            chain.push(n.step);
            at = n.parent;
        }
        for step in chain.iter().rev() {
            match *step {
                Step::Key(a, b) => {
                    crate::validate::check::push_token(out, text.get(a..b).unwrap_or_default())
                }
                Step::Esc(a, b) => crate::validate::check::push_token(
                    out,
                    t.esc_keys.get(a..b).unwrap_or_default(),
                ),
                Step::Index(i) => push_index(out, i),
            }
        }
    }

    /// Forgets the nodes of the values completed so far (their pointers are no longer asked
    /// for), keeping those of the path, once they outnumber the path's well: the nodes kept
    /// stay few, at an amortized constant cost per node.
    #[inline]
    pub(crate) fn compact(&mut self) {
        let t = &self.tok;
        if t.nodes.len() >= 2 * t.ids.len() + 64 {
            self.compact_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn compact_now(&mut self) {
        let t = &mut self.tok;
        // In place: the path's nodes are in increasing order, so the k-th is read before
        // anything is written at or past its place.
        let mut esc_keys = String::new();
        for k in 0..t.ids.len() {
            let id = t.ids[k] as usize;
            let mut step = t.nodes[id.min(t.nodes.len() - 1)].step;
            if let Step::Esc(a, b) = step {
                let start = esc_keys.len();
                esc_keys.push_str(t.esc_keys.get(a..b).unwrap_or_default());
                step = Step::Esc(start, esc_keys.len());
            }
            let parent = match k {
                0 => ROOT,
                k => (k - 1) as u32,
            };
            t.nodes[k] = Node { parent, step };
            t.ids[k] = k as u32;
        }
        t.nodes.truncate(t.ids.len());
        if !t.esc_keys.is_empty() {
            t.esc_keys = esc_keys;
        }
    }

    /// The path of the value being read.
    pub(crate) fn path(&self) -> &[Seg] {
        &self.tok.path[..self.tok.depth]
    }

    /// Whether a chunk of plain string bytes (no quote, backslash, control or non-ASCII byte)
    /// can be taken by [`skip_plain`](Reader::skip_plain) alone, the text being `len` bytes
    /// long: the reader is at the end of the text inside a string or key without escapes, and
    /// nothing follows the string's characters (no check; whether the partial shows the string
    /// is known).
    /// `Some(visible)`: whether such bytes change the partial (a key's never do).
    pub(crate) fn quick(&self, len: usize) -> Option<bool> {
        let t = &self.tok;
        if self.pos != len
            || t.owned
            || t.high.is_some()
            || !matches!(
                self.mode,
                Mode::Json {
                    committed: true,
                    ..
                }
            )
        {
            return None;
        }
        match t.lex {
            Lex::Str {
                key: true,
                esc: Esc::No,
                ..
            } => Some(false),
            Lex::Str {
                key: false,
                esc: Esc::No,
                ..
            } if t.plain && t.known.get() => Some(t.visible.get()),
            _ => None,
        }
    }

    /// As [`quick`](Reader::quick), for a string whose characters a check follows (`live`): a
    /// one-byte chunk of a plain byte is then taken by a check of the string's new text
    /// ([`live_text`](Reader::live_text)) and [`skip_live`](Reader::skip_live).
    /// `Some(visible)`: whether such bytes change the partial.
    pub(crate) fn quick_live(&self, len: usize) -> Option<bool> {
        let t = &self.tok;
        let ok = self.pos == len
            && !t.owned
            && t.high.is_none()
            && t.live
            && t.known.get()
            && matches!(
                self.mode,
                Mode::Json {
                    committed: true,
                    ..
                }
            )
            && matches!(
                t.lex,
                Lex::Str {
                    key: false,
                    esc: Esc::No,
                    ..
                }
            );
        ok.then(|| t.visible.get())
    }

    /// While [`quick_live`](Reader::quick_live) holds, with one plain byte appended to `text`:
    /// the string's path, its text not checked yet, and its whole text so far.
    #[inline]
    pub(crate) fn live_text<'a>(&'a self, text: &'a str) -> (&'a [Seg], &'a str, &'a str) {
        let t = &self.tok;
        let so_far = t.so_far(text, text.len());
        (
            &t.path[..t.depth],
            so_far.get(t.checked..).unwrap_or_default(),
            so_far,
        )
    }

    /// Takes the plain byte [`live_text`](Reader::live_text) showed, once checked.
    pub(crate) fn skip_live(&mut self) {
        self.pos += 1;
        // The string's text is the text itself (not `owned`): it is all checked.
        self.tok.checked = self.pos.saturating_sub(self.tok.s_start);
    }

    /// Whether a string or a key is being read (where [`quiet_byte`](Reader::quiet_byte)
    /// takes nothing: a one-byte chunk there that the short paths did not take gives an
    /// event, or needs the tokenizer).
    #[inline]
    pub(crate) fn in_string(&self) -> bool {
        matches!(self.tok.lex, Lex::Str { .. })
    }

    /// Takes the one-byte chunk `b` (not yet appended to the text, which is `len` bytes long)
    /// if it gives no event: whitespace between tokens, a `:` after a key, a `,` after a
    /// value, the `"` that opens a key, a byte that continues a number, a letter that
    /// continues (does not end) `true`, `false` or `null`. `false` leaves everything as it was.
    pub(crate) fn quiet_byte(&mut self, b: u8, len: usize) -> bool {
        if self.pos != len
            || !matches!(
                self.mode,
                Mode::Json {
                    committed: true,
                    ..
                }
            )
        {
            return false;
        }
        let t = &mut self.tok;
        match t.lex {
            Lex::None if b.is_ascii_whitespace() => {}
            Lex::None => {
                let Some(top) = t.stack.last_mut() else {
                    return false;
                };
                match (top.obj, top.st, b) {
                    (true, St::Colon, b':') => top.st = St::Value,
                    (_, St::After, b',') => {
                        top.comma();
                    }
                    (true, St::First | St::Key, b'"') => {
                        t.start_string(len + 1);
                        t.lex = Lex::Str {
                            key: true,
                            start: len,
                            esc: Esc::No,
                        };
                    }
                    _ => return false,
                }
            }
            Lex::Num { start, st } => match num_next(st, b) {
                Some(next) => t.lex = Lex::Num { start, st: next },
                None => return false,
            },
            Lex::Lit { word, i, start } if i + 1 < word.len() && word[i] == b => {
                t.lex = Lex::Lit {
                    word,
                    i: i + 1,
                    start,
                };
            }
            _ => return false,
        }
        self.pos += 1;
        true
    }

    /// Takes one plain byte appended to the text while [`quick`](Reader::quick) holds.
    #[inline]
    pub(crate) fn skip_plain(&mut self) {
        self.pos += 1;
    }

    /// Whether the string being read had its `Begin` kept back from the partial (see
    /// [`Sink::defer_begin`]): the caller gives it with the text [`take_pending`] returns. Marks
    /// it given.
    ///
    /// [`take_pending`]: Reader::take_pending
    pub(crate) fn take_begin_due(&self) -> bool {
        self.tok.begin_due.replace(false)
    }

    /// Whether the partial was not given any text of the string being read yet (after
    /// [`extend_string`](Reader::extend_string): its `Some` is then not known, and the caller
    /// gives the text with [`take_pending`](Reader::take_pending)).
    #[inline]
    pub(crate) fn first_text_due(&self) -> bool {
        !self.tok.known.get()
    }

    /// Whether the partial showed the first text of the string being read, given to it by
    /// [`take_pending`](Reader::take_pending).
    pub(crate) fn shown(&self, visible: bool) {
        self.tok.visible.set(visible);
        self.tok.known.set(true);
    }

    /// Whether the string being read has text the partial was not given yet.
    pub(crate) fn has_pending(&self) -> bool {
        let t = &self.tok;
        matches!(
            self.mode,
            Mode::Json {
                committed: true,
                ..
            }
        ) && matches!(t.lex, Lex::Str { key: false, .. })
            && t.sent.get() < t.decoded_len(self.pos)
    }

    /// Whether the last [`feed`](Reader::feed) grew a string the partial shows but was not
    /// given yet (see [`Sink`]).
    pub(crate) fn grew_unseen(&self) -> bool {
        self.tok.grew_unseen
    }

    /// Reads what `text` holds beyond what was read before.
    pub(crate) fn feed<S: Sink>(&mut self, text: &str, sink: &mut S) -> Result<(), ParseError> {
        self.tok.grew_unseen = false;
        let pre = std::mem::take(&mut self.tok.pre);
        if let Lex::Str { key: false, .. } = self.tok.lex {
            self.tok.mark = self.tok.decoded_len(self.pos) - pre;
        }
        if self.mode == Mode::Reasoning || self.lone {
            self.settle_reasoning(text, sink);
        }
        loop {
            self.read(text, sink)?;
            // Once the value is settled no fence is followed (the common case: one check).
            if self.fences.is_none() || !self.scan_fences(text, sink)? {
                return Ok(());
            }
        }
    }

    /// Follows the reasoning block: where the answer starts, once the text layer knows (or
    /// tentatively, while only a lone `</think>` could still end a block).
    #[inline(never)]
    fn settle_reasoning<S: Sink>(&mut self, text: &str, sink: &mut S) {
        match self.reasoning.advance(text, false) {
            Some(r) => {
                let from = r.as_ref().map_or(0, |r| r.span.end);
                if self.lone {
                    self.lone = false;
                    if r.is_some() {
                        // Everything before the `</think>` was reasoning.
                        sink.restart();
                        self.begin_answer(from);
                    }
                } else {
                    self.begin_answer(from);
                }
            }
            None => {
                if let (Mode::Reasoning, Some(lead)) = (self.mode, self.reasoning.tentative()) {
                    self.lone = true;
                    self.begin_answer(lead);
                }
            }
        }
    }

    /// The answer starts at `from`.
    fn begin_answer(&mut self, from: usize) {
        self.pos = from;
        self.tok = Tok::default();
        self.mode = Mode::Start;
        self.tries = 0;
        self.fences = Some(FenceScan::new(from));
        self.json_fences = 0;
        self.fence = Fence::None;
        self.cand = Cand::Prose;
        self.cand_start = from;
        self.lead_won = false;
    }

    /// Reads the answer up to the end of `text` (inlined into `feed`, its one caller: the
    /// tokenizer's loop within it, as one function).
    #[inline(always)]
    fn read<S: Sink>(&mut self, text: &str, sink: &mut S) -> Result<(), ParseError> {
        let bytes = text.as_bytes();
        loop {
            // The value being read (where every chunk of a reply past its start goes): each of
            // its outcomes returns or changes the mode, so it needs no progress guard.
            if let Mode::Json { start, committed } = self.mode {
                // The first `"` of the value the answer opens with, while it has none: if the
                // value goes on past it, it is the answer whatever follows.
                let quote = match committed && self.cand == Cand::Lead && !self.lead_won {
                    true => bytes[self.pos..].iter().position(|&b| b == b'"'),
                    false => None,
                };
                let quote = quote.map(|k| self.pos + k);
                let out = if committed {
                    self.tok.run(text, &mut self.pos, sink, true)?
                } else {
                    self.tok.run(text, &mut self.pos, &mut Quiet, false)?
                };
                if quote.is_some_and(|q| self.pos > q) {
                    // What was held back since the quote is returned now, by the push that
                    // brought it (the partial may show the rest of that chunk).
                    self.lead_won = true;
                    self.fences = None;
                    sink.set_certain(self.certain())?;
                }
                match out {
                    Outcome::More => return Ok(()),
                    Outcome::Finished if self.cand == Cand::Lead && !self.lead_won => {
                        // Without a string, it may be a citation (`[1]`): a fence or a value in
                        // the prose after it is preferred; it stays shown until one comes.
                        self.mode = Mode::Prose;
                    }
                    Outcome::Finished => {
                        self.mode = if committed { Mode::After } else { Mode::Prose };
                    }
                    Outcome::Commit => {
                        // A value in prose with a string: shown from its start, in place of
                        // anything shown before.
                        sink.restart();
                        self.cand = Cand::Prose;
                        self.cand_start = start;
                        self.start_json(start, true);
                        sink.set_certain(false)?;
                    }
                    Outcome::Syntax if !committed => {
                        self.pos = start + 1;
                        self.mode = Mode::Prose;
                    }
                    Outcome::Syntax if self.certain() => self.mode = Mode::Broken,
                    Outcome::Syntax if self.cand == Cand::Lead => {
                        let head = floor(text, (start + 64).min(text.len())).max(start + 1);
                        if llm::looks_like_json(&text[start..head], false) {
                            // `from_llm` reports this value's error, whatever follows.
                            self.mode = Mode::Broken;
                            self.fences = None;
                        } else {
                            // Prose that opens with a bracket (`{curly}`).
                            sink.restart();
                            self.cand = Cand::Prose;
                            self.pos = start + 1;
                            self.mode = Mode::Prose;
                        }
                    }
                    // A value in prose that is broken: `from_llm` reports it unless a fence
                    // brings the answer.
                    Outcome::Syntax => self.mode = Mode::Idle,
                }
                continue;
            }
            let before = (self.mode, self.pos);
            match self.mode {
                Mode::Reasoning | Mode::After | Mode::Idle | Mode::Broken => return Ok(()),
                Mode::Start => {
                    let rest = &text[self.pos..];
                    let trimmed = rest.trim_start();
                    if trimmed.is_empty() {
                        return Ok(());
                    }
                    self.pos += rest.len() - trimmed.len();
                    match bytes[self.pos] {
                        b'{' | b'[' => {
                            self.cand = Cand::Lead;
                            self.cand_start = self.pos;
                            self.lead_won = false;
                            self.start_json(self.pos, true);
                            sink.set_certain(false)?;
                        }
                        _ => self.mode = Mode::Prose,
                    }
                }
                Mode::Prose => {
                    match bytes[self.pos..]
                        .iter()
                        .position(|&b| b == b'{' || b == b'[')
                    {
                        None => {
                            self.pos = bytes.len();
                            return Ok(());
                        }
                        Some(k) => self.pos += k,
                    }
                    self.tries += 1;
                    if self.tries > MAX_UNCLOSED_TRIES {
                        self.mode = Mode::Idle;
                    } else {
                        self.start_json(self.pos, false);
                    }
                }
                // Taken before the match (every outcome returns or changes the mode).
                Mode::Json { .. } => {}
            }
            if before == (self.mode, self.pos) {
                // Every arm either consumes, changes mode or returns: this is a guard only.
                return Ok(());
            }
        }
    }

    /// Follows the fences of the answer: a JSON fence that holds an object or array brings
    /// the answer (unless the answer opened with one that holds a string), in place of a value
    /// in prose. Returns whether the reader now reads a fence's value.
    #[inline(never)]
    fn scan_fences<S: Sink>(&mut self, text: &str, sink: &mut S) -> Result<bool, ParseError> {
        let Some(fences) = self.fences.as_mut() else {
            return Ok(false);
        };
        if self.mode == Mode::Broken || self.lead_won {
            self.fences = None;
            return Ok(false);
        }
        loop {
            if let Fence::Await(body) = self.fence {
                let rest = &text[body..];
                let trimmed = rest.trim_start();
                if trimmed.is_empty() {
                    return Ok(false);
                }
                let first = body + rest.len() - trimmed.len();
                if !matches!(text.as_bytes()[first], b'{' | b'[') {
                    self.fence = Fence::Scalar(body);
                } else if self.cand == Cand::Lead && matches!(self.mode, Mode::Json { .. }) {
                    // Not while the value the answer opens with may still be the answer
                    // (it cannot: a fence outside its strings breaks it).
                    return Ok(false);
                } else {
                    self.fences = None;
                    self.fence = Fence::None;
                    sink.restart();
                    self.cand = Cand::Fenced;
                    self.cand_start = first;
                    self.start_json(first, true);
                    sink.set_certain(self.certain())?;
                    return Ok(true);
                }
            }
            match fences.step(text, false) {
                FenceStep::Opened { json, body } => {
                    self.fence = Fence::None;
                    if json {
                        self.json_fences += 1;
                        if self.json_fences > MAX_FENCES {
                            self.fences = None;
                            return Ok(false);
                        }
                        self.fence = Fence::Await(body);
                    }
                }
                FenceStep::Closed { end } => {
                    if let Fence::Scalar(body) = self.fence {
                        if llm::is_json_value(text[body..end].trim()) {
                            // The answer is this scalar: nothing to stream.
                            self.fences = None;
                            self.fence = Fence::None;
                            sink.restart();
                            self.mode = Mode::Idle;
                            return Ok(false);
                        }
                    }
                    self.fence = Fence::None;
                }
                FenceStep::Pending => return Ok(false),
                FenceStep::End => {
                    self.fences = None;
                    return Ok(false);
                }
            }
        }
    }

    fn start_json(&mut self, at: usize, committed: bool) {
        self.pos = at;
        self.tok = Tok::default();
        self.mode = Mode::Json {
            start: at,
            committed,
        };
    }
}

/// `at`, or the start of the character it falls inside.
fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

enum Outcome {
    More,
    Finished,
    Commit,
    Syntax,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    /// Right after `{` or `[`.
    First,
    /// An object's key is expected (after a `,`).
    Key,
    /// After a key.
    Colon,
    /// A value is expected (after `:`, or `,` in an array).
    Value,
    /// After a value.
    After,
}

struct Ctr {
    obj: bool,
    st: St,
    start: usize,
    index: usize,
    /// The container's [`Route`], once worked out.
    route: Slot,
}

/// A container's route: worked out when a child needs it ([`Tok::route_of_top`]).
#[derive(Clone, Copy)]
enum Slot {
    Lazy,
    Known(Option<Route>),
}

impl Ctr {
    /// A `,` after a value: an object's next key, or an array's next item.
    #[inline(always)]
    fn comma(&mut self) {
        if self.obj {
            self.st = St::Key;
        } else {
            self.st = St::Value;
            self.index += 1;
        }
    }
}

#[derive(Clone, Copy)]
enum Esc {
    No,
    Backslash,
    Hex { n: u8, code: u32 },
}

#[derive(Clone, Copy)]
enum Lex {
    None,
    Str {
        key: bool,
        start: usize,
        esc: Esc,
    },
    Num {
        start: usize,
        st: u8,
    },
    Lit {
        word: &'static [u8],
        i: usize,
        start: usize,
    },
}

struct Tok {
    stack: Vec<Ctr>,
    /// The path of the value being read is `path[..depth]`; the steps past it are kept for
    /// reuse (a key's string is overwritten in place by the next key at that depth).
    path: Vec<Seg>,
    depth: usize,
    /// The steps of `path` as nodes, each with its parent (a key by its byte range): a
    /// completed value is named by its node, and its JSON pointer written only when asked
    /// for ([`Reader::pointer`]). `ids` are the nodes of `path`; `nodes` keeps those of the
    /// values completed since the last [`Reader::compact`] too. An escaped key's decoded
    /// text is kept in `esc_keys`.
    nodes: Vec<Node>,
    ids: Vec<u32>,
    esc_keys: String,
    /// Key strings popped off `path`, reused for the next keys.
    spare: Vec<String>,
    lex: Lex,
    /// The decoded text of the string (or key) being read, once it has an escape (`owned`);
    /// until then the decoded text is the text itself, from `s_start` on, and is not copied.
    buf: String,
    owned: bool,
    s_start: usize,
    /// How much of `buf` the partial was given (a `Cell`: the stream's `partial(&self)` gives
    /// the rest).
    sent: Cell<usize>,
    /// How much of `buf` the sink's `text` saw, and whether it follows this string.
    checked: usize,
    live: bool,
    /// Whether the partial shows this string's text (learned from its first `grow`), and
    /// whether that is known yet.
    visible: Cell<bool>,
    known: Cell<bool>,
    /// Whether this string's `Begin` was kept back from the partial ([`Sink::defer_begin`]).
    begin_due: Cell<bool>,
    /// `buf`'s length when this feed (or this string) started.
    mark: usize,
    grew_unseen: bool,
    /// Whether the input ended inside a string that the next chunk may simply continue (see
    /// [`Reader::extend_string`]).
    plain: bool,
    /// How many bytes of this chunk [`Reader::extend_string`] took before the tokenizer took
    /// over.
    pre: usize,
    high: Option<u32>,
    started: bool,
}

impl Default for Tok {
    fn default() -> Self {
        Tok {
            stack: Vec::new(),
            path: Vec::new(),
            depth: 0,
            nodes: Vec::new(),
            ids: Vec::new(),
            esc_keys: String::new(),
            spare: Vec::new(),
            lex: Lex::None,
            buf: String::new(),
            owned: false,
            s_start: 0,
            sent: Cell::new(0),
            checked: 0,
            live: false,
            visible: Cell::new(false),
            known: Cell::new(false),
            begin_due: Cell::new(false),
            mark: 0,
            grew_unseen: false,
            plain: false,
            pre: 0,
            high: None,
            started: false,
        }
    }
}

/// The node of the top-level value (it has no step).
pub(crate) const ROOT: u32 = u32::MAX;

/// A step of a path, kept cheaply (see [`Tok::nodes`]).
#[derive(Clone, Copy)]
enum Step {
    /// A key without escapes, by its byte range in the text.
    Key(usize, usize),
    /// A key with escapes, by its byte range in [`Tok::esc_keys`].
    Esc(usize, usize),
    /// An array index.
    Index(usize),
}

/// A path step and the node of its parent ([`ROOT`] for the top-level value).
#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    step: Step,
}

/// Appends `/` and the decimal digits of `i` (no formatting machinery: this runs per item).
fn push_index(out: &mut String, mut i: usize) {
    let mut digits = [0u8; 20];
    let mut n = digits.len();
    loop {
        n -= 1;
        digits[n] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    out.push('/');
    for &d in &digits[n..] {
        out.push(d as char);
    }
}

/// The end of the run of plain string bytes from `i` (up to a `"`, a `\\` or a control
/// character), eight bytes at a time.
#[inline]
fn plain_run_end(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(word) = bytes.get(i..i + 8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let w = u64::from_le_bytes(w);
        let quote = w ^ (ONES * u64::from(b'"'));
        let backslash = w ^ (ONES * u64::from(b'\\'));
        // A byte is flagged when it is zero (after the xor) or below 0x20; the lowest flag is
        // exact (borrows only run upwards).
        let found = (quote.wrapping_sub(ONES) & !quote
            | backslash.wrapping_sub(ONES) & !backslash
            | w.wrapping_sub(ONES * 0x20) & !w)
            & HIGH;
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && !STOPS[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

/// The bytes that end a run of plain string bytes: `"`, `\\` and the control characters (one
/// load a byte in [`plain_run_end`]'s tail, where three comparisons were).
static STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Number grammar states that may end the number.
fn num_final(st: u8) -> bool {
    matches!(st, 2 | 3 | 5 | 8)
}

/// The next state of the number grammar on byte `b`, or `None` if `b` cannot continue it.
fn num_next(st: u8, b: u8) -> Option<u8> {
    Some(match (st, b) {
        (0, b'-') => 1,
        (0 | 1, b'0') => 2,
        (0 | 1, b'1'..=b'9') => 3,
        (3, b'0'..=b'9') => 3,
        (2 | 3, b'.') => 4,
        (4 | 5, b'0'..=b'9') => 5,
        (2 | 3 | 5, b'e' | b'E') => 6,
        (6, b'+' | b'-') => 7,
        (6..=8, b'0'..=b'9') => 8,
        _ => return None,
    })
}

impl Tok {
    /// The decoded text of the string being read, which ends at `end` in `text`.
    #[inline]
    fn so_far<'a>(&'a self, text: &'a str, end: usize) -> &'a str {
        if self.owned {
            &self.buf
        } else {
            text.get(self.s_start..end).unwrap_or_default()
        }
    }

    /// The length of [`so_far`](Tok::so_far).
    #[inline]
    fn decoded_len(&self, end: usize) -> usize {
        if self.owned {
            self.buf.len()
        } else {
            end.saturating_sub(self.s_start)
        }
    }

    /// Starts a string (or key) whose text starts at `at`.
    #[inline]
    fn start_string(&mut self, at: usize) {
        self.owned = false;
        self.s_start = at;
    }

    /// Pushes the key that ends at `end` in `text` onto the path.
    #[inline]
    fn push_key(&mut self, text: &str, end: usize) {
        let key = if self.owned {
            &self.buf
        } else {
            text.get(self.s_start..end).unwrap_or_default()
        };
        let step = if self.owned {
            let start = self.esc_keys.len();
            self.esc_keys.push_str(key);
            Step::Esc(start, self.esc_keys.len())
        } else {
            Step::Key(self.s_start, end)
        };
        match self.path.get_mut(self.depth) {
            // The key string last used at this depth, overwritten.
            Some(Seg::Key(k)) => {
                k.clear();
                k.push_str(key);
            }
            slot => {
                let mut k = self.spare.pop().unwrap_or_default();
                k.push_str(key);
                match slot {
                    Some(seg) => *seg = Seg::Key(k),
                    None => self.path.push(Seg::Key(k)),
                }
            }
        }
        self.depth += 1;
        self.push_node(step);
    }

    fn push_index(&mut self, i: usize) {
        match self.path.get_mut(self.depth) {
            Some(seg) => {
                if let Seg::Key(k) = std::mem::replace(seg, Seg::Index(i)) {
                    self.spare.push(k);
                }
            }
            None => self.path.push(Seg::Index(i)),
        }
        self.depth += 1;
        self.push_node(Step::Index(i));
    }

    #[inline]
    fn push_node(&mut self, step: Step) {
        let parent = self.node();
        self.ids.push(self.nodes.len() as u32);
        self.nodes.push(Node { parent, step });
    }

    /// The node of the value being read.
    #[inline]
    fn node(&self) -> u32 {
        self.ids.last().copied().unwrap_or(ROOT)
    }

    fn pop_seg(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.ids.pop();
    }

    /// At the end of the input inside a string: its new text to the sink's live check, and to
    /// the partial if it is the string's first text.
    fn chunk_end<S: Sink>(&mut self, text: &str, sink: &mut S) -> Result<(), ParseError> {
        let so_far = self.so_far(text, text.len());
        let len = so_far.len();
        let checked = self.checked;
        if self.live && checked < len {
            sink.text(&self.path[..self.depth], &so_far[checked..], so_far)?;
        }
        let mut grew_unseen = false;
        if !self.known.get() {
            // The string's first chunk end, even with no text yet (a chunk that ends at its
            // opening quote): whether the partial shows its text is learned now, so that
            // the chunks that only continue it need not ask. It is asked with an empty text:
            // the text itself reaches the partial later, in one piece (when the string
            // closes, or when the caller asks for the partial), so a string read over several
            // chunks is allocated once.
            // A string with text whose route says it shows: known without asking the partial
            // (its `Begin` goes with its later events).
            let shows = len > 0
                && matches!(self.string_route(sink), Some(r) if r.shows_text)
                && sink.defer_begin();
            let visible = if shows {
                self.begin_due.set(true);
                Some(true)
            } else {
                sink.grow(&self.path[..self.depth])
            };
            if let Some(visible) = visible {
                self.visible.set(visible);
                self.known.set(true);
                grew_unseen = visible && len > self.sent.get();
            }
        } else if len > self.mark {
            grew_unseen = self.visible.get();
        }
        if self.live {
            self.checked = len;
        }
        self.grew_unseen |= grew_unseen;
        Ok(())
    }

    /// The route of the container being read (its path is `path`), worked out from its
    /// parent's when it began, else from the partial now.
    fn route_of_top<S: Sink>(&mut self, sink: &mut S) -> Option<Route> {
        // The containers' paths are the path's prefixes, the top's one step per container
        // below it.
        let depth = self.stack.len().checked_sub(1)?;
        let top = self.stack.last_mut()?;
        match top.route {
            Slot::Known(r) => r,
            Slot::Lazy => {
                let r = sink.route_at(self.path.get(..depth.min(self.depth)).unwrap_or_default());
                top.route = Slot::Known(r);
                r
            }
        }
    }

    /// The route of the string (or container) starting at the end of `path`, from its
    /// container's.
    fn string_route<S: Sink>(&mut self, sink: &mut S) -> Option<Route> {
        let parent = self.route_of_top(sink)?;
        (parent.child)(self.path[..self.depth].last()?)
    }

    /// A high surrogate not followed by a low one is written as U+FFFD (inlined: the check
    /// runs at every string's close).
    #[inline]
    fn flush_high(&mut self) {
        if self.high.is_some() {
            self.flush_high_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn flush_high_now(&mut self) {
        if self.high.take().is_some() {
            self.buf.push('\u{FFFD}');
        }
    }

    /// Reads from `*pos` to the end of `text`.
    fn run<S: Sink>(
        &mut self,
        text: &str,
        pos: &mut usize,
        sink: &mut S,
        deliver: bool,
    ) -> Result<Outcome, ParseError> {
        let bytes = text.as_bytes();
        let mut i = *pos;
        self.plain = false;
        let out = loop {
            if i >= bytes.len() {
                if let Lex::Str {
                    key: false, esc, ..
                } = self.lex
                {
                    self.chunk_end(text, sink)?;
                    self.plain =
                        deliver && matches!(esc, Esc::No) && !self.live && self.high.is_none();
                }
                break Outcome::More;
            }
            let b = bytes[i];
            match self.lex {
                Lex::Str { key, start, esc } => match esc {
                    Esc::No => {
                        let run_end = plain_run_end(bytes, i);
                        if run_end > i {
                            if self.owned {
                                self.flush_high();
                                if run_end == i + 1 {
                                    self.buf.push(char::from(b));
                                } else {
                                    self.buf.push_str(&text[i..run_end]);
                                }
                            }
                            i = run_end;
                            continue;
                        }
                        match b {
                            b'"' => {
                                self.flush_high();
                                let end = i;
                                i += 1;
                                self.lex = Lex::None;
                                if key {
                                    sink.key(
                                        &self.path[..self.depth],
                                        self.so_far(text, end),
                                        end,
                                    )?;
                                    self.push_key(text, end);
                                    if let Some(top) = self.stack.last_mut() {
                                        top.st = St::Colon;
                                    }
                                } else {
                                    let so_far = self.so_far(text, end);
                                    let len = so_far.len();
                                    if self.live && self.checked < len {
                                        sink.text(
                                            &self.path[..self.depth],
                                            &so_far[self.checked..],
                                            so_far,
                                        )?;
                                    }
                                    let sent = self.sent.replace(len).min(len);
                                    if self.begin_due.replace(false) {
                                        sink.resume_begin(ValueKind::String);
                                    }
                                    sink.done(
                                        &self.path[..self.depth],
                                        self.node(),
                                        &text[start..i],
                                        Some(so_far),
                                        &so_far[sent..],
                                        false,
                                    )?;
                                    if self.value_done(i, sink)? {
                                        break Outcome::Finished;
                                    }
                                }
                                if !deliver {
                                    break Outcome::Commit;
                                }
                            }
                            b'\\' => {
                                if !self.owned {
                                    // The first escape: the text so far is copied, and the
                                    // decoded text goes on in `buf`.
                                    self.buf.clear();
                                    self.buf.push_str(&text[self.s_start..i]);
                                    self.owned = true;
                                }
                                i += 1;
                                self.lex = Lex::Str {
                                    key,
                                    start,
                                    esc: Esc::Backslash,
                                };
                            }
                            _ => break Outcome::Syntax,
                        }
                    }
                    Esc::Backslash => {
                        let c = match b {
                            b'"' => Some('"'),
                            b'\\' => Some('\\'),
                            b'/' => Some('/'),
                            b'b' => Some('\u{8}'),
                            b'f' => Some('\u{c}'),
                            b'n' => Some('\n'),
                            b'r' => Some('\r'),
                            b't' => Some('\t'),
                            b'u' => None,
                            _ => break Outcome::Syntax,
                        };
                        i += 1;
                        let esc = match c {
                            Some(c) => {
                                self.flush_high();
                                self.buf.push(c);
                                Esc::No
                            }
                            None => Esc::Hex { n: 0, code: 0 },
                        };
                        self.lex = Lex::Str { key, start, esc };
                    }
                    Esc::Hex { n, code } => {
                        let Some(d) = (b as char).to_digit(16) else {
                            break Outcome::Syntax;
                        };
                        i += 1;
                        let code = code * 16 + d;
                        if n < 3 {
                            self.lex = Lex::Str {
                                key,
                                start,
                                esc: Esc::Hex { n: n + 1, code },
                            };
                            continue;
                        }
                        match (self.high.take(), code) {
                            (None, 0xD800..=0xDBFF) => self.high = Some(code),
                            (Some(h), 0xDC00..=0xDFFF) => {
                                let c = 0x10000 + ((h - 0xD800) << 10) + (code - 0xDC00);
                                self.buf.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                            }
                            (Some(_), 0xD800..=0xDBFF) => {
                                self.buf.push('\u{FFFD}');
                                self.high = Some(code);
                            }
                            (h, c) => {
                                if h.is_some() {
                                    self.buf.push('\u{FFFD}');
                                }
                                self.buf.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                            }
                        }
                        self.lex = Lex::Str {
                            key,
                            start,
                            esc: Esc::No,
                        };
                    }
                },
                Lex::Num { start, st } => match num_next(st, b) {
                    Some(next) => {
                        self.lex = Lex::Num { start, st: next };
                        i += 1;
                    }
                    None if num_final(st) => {
                        self.lex = Lex::None;
                        if self.scalar_done(text, start, i, sink)? {
                            break Outcome::Finished;
                        }
                    }
                    None => break Outcome::Syntax,
                },
                Lex::Lit { word, i: k, start } => {
                    if word.get(k) != Some(&b) {
                        break Outcome::Syntax;
                    }
                    i += 1;
                    if k + 1 == word.len() {
                        self.lex = Lex::None;
                        if self.scalar_done(text, start, i, sink)? {
                            break Outcome::Finished;
                        }
                    } else {
                        self.lex = Lex::Lit {
                            word,
                            i: k + 1,
                            start,
                        };
                    }
                }
                Lex::None => {
                    if b.is_ascii_whitespace() {
                        i += 1;
                        continue;
                    }
                    let Some(top) = self.stack.last_mut() else {
                        if self.started {
                            break Outcome::Finished;
                        }
                        self.started = true;
                        match self.begin_value(b, i, sink)? {
                            true => {
                                i += 1;
                                continue;
                            }
                            false => break Outcome::Syntax,
                        }
                    };
                    match (top.obj, top.st, b) {
                        (true, St::First | St::Key, b'"') => {
                            i += 1;
                            self.start_string(i);
                            self.lex = Lex::Str {
                                key: true,
                                start: i - 1,
                                esc: Esc::No,
                            };
                        }
                        (true, St::Colon, b':') => {
                            top.st = St::Value;
                            i += 1;
                        }
                        (_, St::After, b',') => {
                            top.comma();
                            i += 1;
                        }
                        (true, St::First | St::After, b'}')
                        | (false, St::First | St::After, b']') => {
                            i += 1;
                            let start = top.start;
                            let noop = matches!(top.route, Slot::Known(Some(r)) if r.done_noop);
                            self.stack.pop();
                            let raw = &text[start..i];
                            sink.done(&self.path[..self.depth], self.node(), raw, None, "", noop)?;
                            if self.value_done(i, sink)? {
                                break Outcome::Finished;
                            }
                        }
                        (true, St::Value, _) | (false, St::First | St::Value, _) => {
                            if !top.obj {
                                let index = top.index;
                                self.push_index(index);
                            }
                            if self.stack.len() >= MAX_DEPTH && matches!(b, b'{' | b'[') {
                                break Outcome::Syntax;
                            }
                            if !self.begin_value(b, i, sink)? {
                                break Outcome::Syntax;
                            }
                            i += 1;
                        }
                        _ => break Outcome::Syntax,
                    }
                }
            }
        };
        *pos = i;
        Ok(out)
    }

    /// Starts the value whose first byte is `b`; `false` if no value starts with it (inlined
    /// into the tokenizer's loop, with the sink's and the checker's `begin`: one function's
    /// register saves per value).
    #[inline(always)]
    fn begin_value<S: Sink>(&mut self, b: u8, i: usize, sink: &mut S) -> Result<bool, ParseError> {
        let kind = match b {
            b'{' => ValueKind::Object,
            b'[' => ValueKind::Array,
            b'"' => ValueKind::String,
            b'-' | b'0'..=b'9' => ValueKind::Number,
            b't' | b'f' => ValueKind::Bool,
            b'n' => ValueKind::Null,
            _ => return Ok(false),
        };
        let live = sink.begin(&self.path[..self.depth], kind)?;
        match kind {
            ValueKind::Object | ValueKind::Array => {
                if let Some(top) = self.stack.last_mut() {
                    top.st = St::After;
                }
                // Worked out from the parent's (which is worked out now if it was not).
                let route = match self.stack.is_empty() {
                    true => Slot::Lazy,
                    false => match self.route_of_top(sink) {
                        Some(parent) => Slot::Known(
                            self.path[..self.depth]
                                .last()
                                .and_then(|s| (parent.child)(s)),
                        ),
                        None => Slot::Lazy,
                    },
                };
                self.stack.push(Ctr {
                    obj: kind == ValueKind::Object,
                    st: St::First,
                    start: i,
                    index: 0,
                    route,
                });
            }
            ValueKind::String => {
                self.start_string(i + 1);
                self.sent.set(0);
                self.checked = 0;
                self.mark = 0;
                self.live = live;
                self.visible.set(false);
                self.known.set(false);
                self.begin_due.set(false);
                self.lex = Lex::Str {
                    key: false,
                    start: i,
                    esc: Esc::No,
                };
            }
            ValueKind::Number => {
                self.lex = Lex::Num {
                    start: i,
                    st: num_next(0, b).unwrap_or(0),
                }
            }
            ValueKind::Bool | ValueKind::Null => {
                let word: &'static [u8] = match b {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.lex = Lex::Lit {
                    word,
                    i: 1,
                    start: i,
                };
            }
        }
        Ok(true)
    }

    /// A number or a literal read from `start` ends at `end`: gives the sink its `Done`, then
    /// [`value_done`](Self::value_done).
    #[inline]
    fn scalar_done<S: Sink>(
        &mut self,
        text: &str,
        start: usize,
        end: usize,
        sink: &mut S,
    ) -> Result<bool, ParseError> {
        sink.done(
            &self.path[..self.depth],
            self.node(),
            &text[start..end],
            None,
            "",
            false,
        )?;
        self.value_done(end, sink)
    }

    /// After a value completes: pops its path step; `true` when it was the top-level value.
    fn value_done<S: Sink>(&mut self, _end: usize, _sink: &mut S) -> Result<bool, ParseError> {
        match self.stack.last_mut() {
            None => Ok(true),
            Some(top) => {
                top.st = St::After;
                self.pop_seg();
                Ok(false)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain_run_end;

    #[test]
    fn plain_runs_end_at_the_first_special_byte() {
        // Every position of each special byte, behind plain ASCII and non-ASCII bytes.
        for special in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
            for at in 0..20 {
                for filler in [b'a', 0x7f, 0xc3, 0x20, b'!', b'#', b']'] {
                    let mut bytes = vec![filler; 24];
                    bytes[at] = special;
                    assert_eq!(plain_run_end(&bytes, 0), at, "{special} at {at}");
                    assert_eq!(plain_run_end(&bytes, at.min(3)), at);
                }
            }
        }
        // Every length, start and position of a special byte (a special byte before the start
        // must not count), against a byte-by-byte scan.
        let naive = |b: &[u8], i: usize| {
            (i..b.len())
                .find(|&k| matches!(b[k], b'"' | b'\\' | 0..=0x1f))
                .unwrap_or(b.len())
        };
        for len in 0..20 {
            for at in 0..=len {
                for before in [None, Some(0usize), Some(1)] {
                    let mut bytes = vec![b'x'; len];
                    if at < len {
                        bytes[at] = b'"';
                    }
                    if let Some(k) = before.filter(|&k| k < len) {
                        bytes[k] = b'\\';
                    }
                    for start in 0..=len {
                        assert_eq!(
                            plain_run_end(&bytes, start),
                            naive(&bytes, start),
                            "{bytes:?} from {start}"
                        );
                    }
                }
            }
        }
        assert_eq!(plain_run_end(b"abcdefghijkl", 0), 12);
        assert_eq!(plain_run_end(b"abc", 3), 3);
        // Special bytes right before the start, followed by the bytes a borrow from them
        // could flag falsely (one above a special byte), at every start and length: the
        // end of the text is scanned as its last eight bytes.
        let alphabet = [b'"', b'#', b'\\', b']', 0x1f, 0x20, 0x00, 0x01, b'a', 0xc3];
        for len in 8..20 {
            for seed in 0..200usize {
                let bytes: Vec<u8> = (0..len)
                    .map(|k| alphabet[(seed * 7 + k * k * 3 + seed / 3 * k) % alphabet.len()])
                    .collect();
                for start in 0..=len {
                    assert_eq!(
                        plain_run_end(&bytes, start),
                        naive(&bytes, start),
                        "{bytes:?} from {start}"
                    );
                }
            }
        }
    }
}
