//! The events a provider sends most, read straight from their bytes: one pass over the JSON,
//! no `Value`, and no allocation (escaped text is decoded into one buffer the stream keeps).
//!
//! A body is mostly envelopes around small pieces of text: an OpenAI Chat chunk carries ~160
//! bytes of ids, names and nulls around a delta of a few tokens. Building a `Value` for each
//! costs many times what pushing the delta into the typed stream costs, so the hot events (a
//! piece of text, reasoning, refusal or tool call arguments, a Chat finish, Gemini text parts
//! with their usage, Ollama content, the quiet events between them) are read here: [`hot`]
//! checks the whole event is JSON (strings' escapes and UTF-8, numbers, nesting) and takes the
//! few fields the full reading would take.
//!
//! Consecutive events repeat most of their envelope byte for byte (an OpenAI Chat chunk opens
//! with the same id, object, creation time and model each time). The members the reading
//! passes over without taking a value are remembered as runs per object ([`Memo`]); a run the
//! event repeats exactly is stepped over with one comparison, since the same bytes in the same
//! object read the same.
//!
//! Anything else is left to the full reading: [`hot`] returns `None` for an event it does not
//! know entirely (an error, a tool call's start, a finish that needs the whole response, a
//! field of a shape the full reading treats in its own way, a key written with escapes, JSON
//! it cannot read), and the caller parses a `Value`. What [`Hot::apply`] gives the sink is, call
//! for call, what `read_event` gives it for the same event.

use super::{Api, Sink};
use crate::ParseError;

/// How deep a skipped value may nest here (deeper ones go to the full reading, which has its
/// own limit).
const MAX_DEPTH: u32 = 64;

/// Where a string's text is: borrowed from the event, or decoded into the scratch buffer.
#[derive(Clone, Copy)]
enum Piece<'a> {
    Raw(&'a str),
    Decoded(usize, usize),
}

impl<'a> Piece<'a> {
    fn get<'s>(self, scratch: &'s str) -> &'s str
    where
        'a: 's,
    {
        match self {
            Piece::Raw(s) => s,
            Piece::Decoded(a, b) => scratch.get(a..b).unwrap_or_default(),
        }
    }

    fn is_empty(self) -> bool {
        match self {
            Piece::Raw(s) => s.is_empty(),
            Piece::Decoded(a, b) => a == b,
        }
    }
}

/// A tool call's piece: the provider's index (`None`: a new call), id, name, arguments.
#[derive(Clone, Copy)]
struct CallPiece<'a> {
    at: Option<usize>,
    id: Option<Piece<'a>>,
    name: Option<Piece<'a>>,
    args: Piece<'a>,
}

/// The most text parts one Gemini event is read with here.
const PARTS: usize = 4;

/// What a hot event says, in the order `read_event` gives it to the sink.
#[derive(Default)]
pub(super) struct Hot<'a> {
    usage: Option<[Option<u64>; 3]>,
    reasoning: Option<Piece<'a>>,
    refusal: Option<Piece<'a>>,
    call: Option<CallPiece<'a>>,
    /// Gemini's parts: text, or reasoning when `true`.
    parts: [Option<(bool, Piece<'a>)>; PARTS],
    text: Option<Piece<'a>>,
    finish: Option<Piece<'a>>,
}

impl Hot<'_> {
    /// Gives the event to `sink`, its decoded strings read from `scratch`.
    pub(super) fn apply(&self, scratch: &str, sink: &mut impl Sink) -> Result<(), ParseError> {
        if let Some([i, o, t]) = self.usage {
            sink.usage(i, o, t);
        }
        if let Some(r) = self.reasoning {
            sink.reasoning(r.get(scratch));
        }
        if let Some(r) = self.refusal {
            sink.refusal(r.get(scratch));
        }
        if let Some(c) = self.call {
            sink.call(
                c.at,
                c.id.map(|p| p.get(scratch)),
                c.name.map(|p| p.get(scratch)),
                c.args.get(scratch),
            );
        }
        for &(thought, p) in self.parts.iter().flatten() {
            if thought {
                sink.reasoning(p.get(scratch));
            } else {
                sink.text(p.get(scratch))?;
            }
        }
        if let Some(t) = self.text {
            sink.text(t.get(scratch))?;
        }
        if let Some(r) = self.finish {
            sink.finish(None, Some(r.get(scratch)));
        }
        Ok(())
    }
}

/// Reads `bytes` as one hot event of `api` into `hot` (empty), from its first byte: where the
/// JSON ends (whitespace after it taken). `newlines`: whether `\r` and `\n` may stand for
/// whitespace (not inside a body's line, where they end the line). Decoded strings go into
/// `scratch`.
/// Runs of members seen in earlier events are passed over by `memo` (see [`Memo`]).
pub(super) fn hot<'a>(
    api: Api,
    bytes: &'a [u8],
    newlines: bool,
    scratch: &mut String,
    memo: &mut Memo,
    hot: &mut Hot<'a>,
) -> Option<usize> {
    let mut s = Scan {
        b: bytes,
        i: 0,
        newlines,
        scratch,
        memo,
        passed: usize::MAX,
    };
    match api {
        Api::OpenAiChat | Api::Ollama => s.chat_or_ollama(hot)?,
        Api::OpenAiResponses => s.responses(hot)?,
        Api::Anthropic => s.anthropic(hot)?,
        Api::Gemini => s.gemini(hot)?,
    }
    s.ws();
    Some(s.i)
}

/// A reader over one event's bytes.
struct Scan<'a, 's> {
    b: &'a [u8],
    i: usize,
    newlines: bool,
    scratch: &'s mut String,
    memo: &'s mut Memo,
    /// Where the value of the last member passed over ([`Scan::pass`]) started.
    passed: usize,
}

/// The objects whose runs of passed members are remembered, one slot each (a slot is one
/// reading of one object: the same bytes mean the same there, and nothing elsewhere).
#[derive(Clone, Copy)]
enum Slot {
    /// The top level of an OpenAI Chat chunk or an Ollama line.
    ChatTop,
    /// A Chat choice.
    ChatChoice,
    /// The top level of a Responses event.
    Responses,
    /// The top level of a Gemini event.
    GeminiTop,
    /// A Gemini candidate.
    GeminiCandidate,
    /// A Gemini candidate's content.
    GeminiContent,
}

const SLOTS: usize = 6;

/// The most runs a slot remembers.
const RUNS: usize = 3;

/// The shortest run worth remembering.
const MIN_RUN: usize = 8;

/// The longest run remembered (an envelope's ids and names fit): each member's start is
/// compared with at most [`RUNS`] runs of at most this length, so the comparisons stay linear
/// in the event's size whatever the event holds.
const MAX_RUN: usize = 256;

/// Runs of members that an object's reading passes over (no value taken: ids, model names,
/// timestamps), remembered byte for byte from earlier events of the stream. Consecutive
/// events repeat them (an OpenAI Chat chunk opens with the same id, object, creation time and
/// model each time), and a run that is byte for byte one already checked, in the same slot,
/// reads the same: it is stepped over with one comparison instead of read again.
///
/// A run is whole members from a key to the next key (the `,` and blank space included) or
/// to the object's `}`; only members read by [`Scan::pass`] are in one.
#[derive(Default)]
pub(super) struct Memo {
    runs: [Vec<Vec<u8>>; SLOTS],
}

/// One byte repeated in each of a word's eight.
const fn splat(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

/// The high bit of each byte of `v` that is zero (the lowest one exact; above it, any).
const fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(splat(1)) & !v & splat(0x80)
}

impl<'a> Scan<'a, '_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' => {}
                b'\r' | b'\n' if self.newlines => {}
                _ => return,
            }
            self.i += 1;
        }
    }

    #[inline]
    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }

    fn word(&mut self, w: &[u8]) -> Option<()> {
        let end = self.i + w.len();
        (self.b.get(self.i..end)? == w).then(|| self.i = end)
    }

    /// A string's raw bytes (between the quotes), checked: escapes, UTF-8, no control
    /// characters. Returns them and whether they hold an escape.
    #[inline(always)]
    fn raw_string(&mut self) -> Option<(&'a [u8], bool)> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.i;
        let (mut escaped, mut high) = (false, 0u64);
        loop {
            // Eight bytes at a time up to the first quote, backslash or control character.
            while let Some(w) = self.b.get(self.i..self.i + 8) {
                let x = u64::from_le_bytes(w.try_into().ok()?);
                high |= x;
                let hit = zero_bytes(x ^ splat(b'"'))
                    | zero_bytes(x ^ splat(b'\\'))
                    | (x.wrapping_sub(splat(0x20)) & !x & splat(0x80));
                if hit != 0 {
                    self.i += (hit.trailing_zeros() / 8) as usize;
                    break;
                }
                self.i += 8;
            }
            let c = self.peek()?;
            high |= u64::from(c);
            match c {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                0..=0x1f => return None,
                _ => self.i += 1,
            }
        }
        let raw = &self.b[start..self.i];
        self.i += 1;
        if high & splat(0x80) != 0 {
            std::str::from_utf8(raw).ok()?;
        }
        Some((raw, escaped))
    }

    /// Checks one escape (at its backslash) and steps past it.
    fn escape(&mut self) -> Option<()> {
        self.i += 1;
        match self.peek()? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
            b'u' => {
                self.i += 1;
                let u = self.hex4()?;
                if (0xDC00..0xE000).contains(&u) {
                    return None;
                }
                if (0xD800..0xDC00).contains(&u) {
                    self.word(b"\\u")?;
                    if !(0xDC00..0xE000).contains(&self.hex4()?) {
                        return None;
                    }
                }
            }
            _ => return None,
        }
        Some(())
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = std::str::from_utf8(self.b.get(self.i..self.i + 4)?).ok()?;
        if !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(h, 16).ok()
    }

    /// A string's text: borrowed when it has no escape, else decoded into the scratch buffer.
    #[inline]
    fn string(&mut self) -> Option<Piece<'a>> {
        let (raw, escaped) = self.raw_string()?;
        let raw = std::str::from_utf8(raw).ok()?;
        if !escaped {
            return Some(Piece::Raw(raw));
        }
        let start = self.scratch.len();
        let mut rest = raw;
        while let Some(k) = rest.bytes().position(|b| b == b'\\') {
            self.scratch.push_str(&rest[..k]);
            let e = &rest[k + 1..];
            let (c, used) = match e.as_bytes().first()? {
                b'"' => ('"', 1),
                b'\\' => ('\\', 1),
                b'/' => ('/', 1),
                b'b' => ('\u{8}', 1),
                b'f' => ('\u{c}', 1),
                b'n' => ('\n', 1),
                b'r' => ('\r', 1),
                b't' => ('\t', 1),
                _ => {
                    let hi = u32::from_str_radix(e.get(1..5)?, 16).ok()?;
                    if (0xD800..0xDC00).contains(&hi) {
                        let lo = u32::from_str_radix(e.get(7..11)?, 16).ok()?;
                        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.checked_sub(0xDC00)?);
                        (char::from_u32(c)?, 11)
                    } else {
                        (char::from_u32(hi)?, 5)
                    }
                }
            };
            self.scratch.push(c);
            rest = &e[used..];
        }
        self.scratch.push_str(rest);
        Some(Piece::Decoded(start, self.scratch.len()))
    }

    /// A string's text, or `None` for `null`.
    fn string_or_null(&mut self) -> Option<Option<Piece<'a>>> {
        if self.peek() == Some(b'n') {
            self.word(b"null")?;
            return Some(None);
        }
        self.string().map(Some)
    }

    /// A string without escapes (a name compared with known ones).
    #[inline]
    fn name(&mut self) -> Option<&'a [u8]> {
        match self.raw_string()? {
            (raw, false) => Some(raw),
            _ => None,
        }
    }

    /// Whether the value is `null` (then taken; otherwise left).
    #[inline]
    fn null(&mut self) -> bool {
        self.word(b"null").is_some()
    }

    fn boolean(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.word(b"true").map(|()| true),
            b'f' => self.word(b"false").map(|()| false),
            _ => None,
        }
    }

    /// Steps past a run of ASCII digits; whether there was one.
    #[inline]
    fn digits(&mut self) -> bool {
        let from = self.i;
        while self.peek().is_some_and(|d| d.is_ascii_digit()) {
            self.i += 1;
        }
        self.i > from
    }

    /// A number, checked and passed over (its value not computed).
    #[inline]
    fn skip_number(&mut self) -> Option<()> {
        let _ = self.eat(b'-');
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.eat(b'.') {
            self.digits().then_some(())?;
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            self.digits().then_some(())?;
        }
        Some(())
    }

    /// An index or count: a plain integer of at most 19 digits (so it fits a `u64`); anything
    /// else (a sign, a fraction, an exponent, a leading zero, more digits) is for the full
    /// reading, whose own rules for other numbers are not repeated here.
    #[inline]
    fn count(&mut self) -> Option<u64> {
        let from = self.i;
        let mut value = 0u64;
        while let Some(d) = self.peek().filter(u8::is_ascii_digit) {
            if self.i - from == 19 {
                return None;
            }
            value = value * 10 + u64::from(d - b'0');
            self.i += 1;
        }
        let plain = match self.i - from {
            0 => false,
            1 => true,
            _ => self.b[from] != b'0',
        };
        (plain && !matches!(self.peek(), Some(b'.' | b'e' | b'E'))).then_some(value)
    }

    /// Any value, checked and passed over.
    fn skip(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.object(|s, _| s.skip(depth + 1)),
            b'[' => self.array(|s, _| s.skip(depth + 1)),
            b'"' => self.raw_string().map(drop),
            b't' | b'f' => self.boolean().map(drop),
            b'n' => self.word(b"null"),
            _ => self.skip_number(),
        }
    }

    /// An object, each member's value read by `member` (given the key).
    #[inline]
    fn object(&mut self, mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        self.ws();
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.name()?;
            self.ws();
            if !self.eat(b':') {
                return None;
            }
            self.ws();
            member(self, key)?;
            self.ws();
            if self.eat(b'}') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
            self.ws();
        }
    }

    /// An object as [`object`](Self::object) reads it, with the runs of members passed over
    /// remembered in `slot` and stepped over when they come again (see [`Memo`]).
    #[inline]
    fn object_in(
        &mut self,
        slot: Slot,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        self.ws();
        if self.eat(b'}') {
            return Some(());
        }
        // Where the run of members passed over so far started.
        let mut run = None;
        loop {
            if let Some(len) = self.known_run(slot) {
                self.i += len;
                if self.b[self.i - 1] == b'}' {
                    return Some(());
                }
                run = None;
                continue;
            }
            let at = self.i;
            let key = self.name()?;
            self.ws();
            if !self.eat(b':') {
                return None;
            }
            self.ws();
            let value = self.i;
            member(self, key)?;
            if self.passed == value {
                run.get_or_insert(at);
            } else if let Some(from) = run.take() {
                self.remember(slot, from, at);
            }
            self.ws();
            if self.eat(b'}') {
                if let Some(from) = run {
                    self.remember(slot, from, self.i);
                }
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
            self.ws();
        }
    }

    /// The length of a remembered run of `slot` that the bytes go on with, if one does.
    #[inline]
    fn known_run(&self, slot: Slot) -> Option<usize> {
        let rest = &self.b[self.i..];
        let head = rest.get(..MIN_RUN)?;
        self.memo.runs[slot as usize]
            .iter()
            .find(|r| r[..MIN_RUN] == *head && rest.starts_with(r))
            .map(Vec::len)
    }

    /// Remembers the run `from..to` in `slot` (the newest in place of the last when full).
    fn remember(&mut self, slot: Slot, from: usize, to: usize) {
        // Only runs without line breaks, which read the same whether or not a line break may
        // stand for blank space.
        if !(MIN_RUN..=MAX_RUN).contains(&(to - from)) || self.newlines {
            return;
        }
        let runs = &mut self.memo.runs[slot as usize];
        // A run that changes from event to event (a sequence number) takes the last place
        // each time, its buffer reused.
        let mut run = if runs.len() == RUNS {
            runs.pop().unwrap_or_default()
        } else {
            Vec::new()
        };
        run.clear();
        run.extend_from_slice(&self.b[from..to]);
        runs.push(run);
    }

    /// A member's value passed over (checked, nothing taken): such members make the runs
    /// [`object_in`](Self::object_in) remembers.
    #[inline]
    fn pass(&mut self, depth: u32) -> Option<()> {
        let at = self.i;
        self.skip(depth)?;
        self.passed = at;
        Some(())
    }

    /// An array, each item read by `item` (given its position).
    #[inline]
    fn array(&mut self, mut item: impl FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        if !self.eat(b'[') {
            return None;
        }
        self.ws();
        if self.eat(b']') {
            return Some(());
        }
        let mut k = 0;
        loop {
            item(self, k)?;
            k += 1;
            self.ws();
            if self.eat(b']') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
            self.ws();
        }
    }

    /// An `error` member: only `null` (no error) is read here.
    fn no_error(&mut self) -> Option<()> {
        self.null().then_some(())
    }

    /// OpenAI Chat chunks (`choices[0].delta`), or Ollama's native lines when there is no
    /// `choices`.
    fn chat_or_ollama(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let (mut text, mut thinking) = (None, None);
        let mut seen = 0;
        self.object_in(Slot::ChatTop, |s, key| match key {
            b"choices" => {
                once(&mut seen, 1)?;
                s.array(|s, k| match k {
                    0 => s.chat_choice(hot),
                    _ => s.skip(1),
                })
            }
            b"message" => {
                once(&mut seen, 2)?;
                s.ollama_message(&mut text, &mut thinking)
            }
            b"usage" => s.null().then_some(()),
            b"done" => (!s.boolean()?).then_some(()),
            b"error" => s.no_error(),
            _ => s.pass(1),
        })?;
        // As the full reading: a chunk with `choices` is Chat's, any other line Ollama's.
        if seen & 1 == 0 {
            hot.text = text.filter(|p: &Piece<'_>| !p.is_empty());
            hot.reasoning = thinking;
        }
        Some(())
    }

    fn chat_choice(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let mut seen = 0;
        self.object_in(Slot::ChatChoice, |s, key| match key {
            b"delta" => {
                once(&mut seen, 1)?;
                s.chat_delta(hot)
            }
            b"finish_reason" => {
                hot.finish = s.string_or_null()?;
                Some(())
            }
            _ => s.pass(2),
        })
    }

    fn chat_delta(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let mut seen = 0;
        if self.null() {
            return Some(());
        }
        self.object(|s, key| match key {
            b"content" => {
                hot.text = s.string_or_null()?;
                Some(())
            }
            b"refusal" => {
                hot.refusal = s.string_or_null()?;
                Some(())
            }
            b"tool_calls" => {
                once(&mut seen, 1)?;
                if s.null() {
                    return Some(());
                }
                // One call a chunk (the common case); more are for the full reading.
                s.array(|s, k| if k == 0 { s.chat_call(hot) } else { None })
            }
            // Reasoning (`reasoning_content`, else `reasoning`) is for the full reading.
            b"reasoning_content" | b"reasoning" => s.null().then_some(()),
            _ => s.skip(3),
        })
    }

    fn chat_call(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let mut call = CallPiece {
            at: Some(0),
            id: None,
            name: None,
            args: Piece::Raw(""),
        };
        let mut seen = 0;
        self.object(|s, key| match key {
            b"index" => {
                call.at = Some(usize::try_from(s.count()?).ok()?);
                Some(())
            }
            b"id" => {
                call.id = s.string_or_null()?;
                Some(())
            }
            b"function" => {
                once(&mut seen, 1)?;
                s.object(|s, key| match key {
                    b"name" => {
                        call.name = s.string_or_null()?;
                        Some(())
                    }
                    b"arguments" => {
                        call.args = s.string_or_null()?.unwrap_or(Piece::Raw(""));
                        Some(())
                    }
                    _ => s.skip(4),
                })
            }
            _ => s.skip(3),
        })?;
        hot.call = Some(call);
        Some(())
    }

    fn ollama_message(
        &mut self,
        text: &mut Option<Piece<'a>>,
        thinking: &mut Option<Piece<'a>>,
    ) -> Option<()> {
        self.object(|s, key| match key {
            b"content" => {
                *text = s.string_or_null()?;
                Some(())
            }
            b"thinking" => {
                *thinking = s.string_or_null()?;
                Some(())
            }
            b"tool_calls" => s.null().then_some(()),
            _ => s.skip(2),
        })
    }

    /// OpenAI Responses: the delta events.
    fn responses(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let (mut kind, mut delta, mut at) = (None, None, 0);
        self.object_in(Slot::Responses, |s, key| match key {
            b"type" => {
                kind = Some(s.name()?);
                Some(())
            }
            b"delta" => {
                delta = Some(s.string()?);
                Some(())
            }
            b"output_index" => {
                at = usize::try_from(s.count()?).ok()?;
                Some(())
            }
            b"error" => s.no_error(),
            _ => s.pass(1),
        })?;
        let delta = delta.unwrap_or(Piece::Raw(""));
        match kind? {
            b"response.output_text.delta" => hot.text = Some(delta),
            b"response.refusal.delta" => hot.refusal = Some(delta),
            b"response.reasoning_summary_text.delta" | b"response.reasoning_text.delta" => {
                hot.reasoning = Some(delta);
            }
            b"response.function_call_arguments.delta" => {
                hot.call = Some(CallPiece {
                    at: Some(at),
                    id: None,
                    name: None,
                    args: delta,
                });
            }
            b"error"
            | b"response.failed"
            | b"response.output_item.added"
            | b"response.completed"
            | b"response.incomplete" => return None,
            _ => {}
        }
        Some(())
    }

    /// Anthropic Messages: `content_block_delta`, `ping`, `content_block_stop`.
    fn anthropic(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let (mut kind, mut at) = (None, 0);
        let (mut delta_kind, mut text, mut thinking, mut json) = (None, None, None, None);
        let mut seen = 0;
        self.object(|s, key| match key {
            b"type" => {
                kind = Some(s.name()?);
                Some(())
            }
            b"index" => {
                at = usize::try_from(s.count()?).ok()?;
                Some(())
            }
            b"delta" => {
                once(&mut seen, 1)?;
                s.object(|s, key| match key {
                    b"type" => {
                        delta_kind = Some(s.name()?);
                        Some(())
                    }
                    b"text" => {
                        text = Some(s.string()?);
                        Some(())
                    }
                    b"thinking" => {
                        thinking = Some(s.string()?);
                        Some(())
                    }
                    b"partial_json" => {
                        json = Some(s.string()?);
                        Some(())
                    }
                    _ => s.skip(2),
                })
            }
            b"error" => s.no_error(),
            _ => s.skip(1),
        })?;
        let or_empty = |p: Option<Piece<'a>>| p.unwrap_or(Piece::Raw(""));
        match kind? {
            b"content_block_delta" => match delta_kind {
                Some(b"text_delta") => hot.text = Some(or_empty(text)),
                Some(b"thinking_delta") => hot.reasoning = Some(or_empty(thinking)),
                Some(b"input_json_delta") => {
                    hot.call = Some(CallPiece {
                        at: Some(at),
                        id: None,
                        name: None,
                        args: or_empty(json),
                    });
                }
                _ => {}
            },
            b"ping" | b"content_block_stop" => {}
            _ => return None,
        }
        Some(())
    }

    /// Gemini: text parts (reasoning when marked `thought`), `finishReason`, `usageMetadata`.
    fn gemini(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let mut seen = 0;
        self.object_in(Slot::GeminiTop, |s, key| match key {
            b"candidates" => {
                once(&mut seen, 1)?;
                s.array(|s, k| match k {
                    0 => s.gemini_candidate(hot),
                    _ => s.skip(1),
                })
            }
            b"usageMetadata" => {
                let mut u = [None; 3];
                s.object(|s, key| {
                    let slot = match key {
                        b"promptTokenCount" => 0,
                        b"candidatesTokenCount" => 1,
                        b"totalTokenCount" => 2,
                        _ => return s.skip(2),
                    };
                    u[slot] = Some(s.count()?);
                    Some(())
                })?;
                if let [Some(a), Some(b), None] = u {
                    u[2] = a.checked_add(b);
                }
                hot.usage = Some(u);
                Some(())
            }
            b"error" => s.no_error(),
            b"promptFeedback" => None,
            _ => s.pass(1),
        })
    }

    fn gemini_candidate(&mut self, hot: &mut Hot<'a>) -> Option<()> {
        let (mut seen, mut parts) = (0, 0);
        self.object_in(Slot::GeminiCandidate, |s, key| match key {
            b"content" => {
                once(&mut seen, 1)?;
                s.object_in(Slot::GeminiContent, |s, key| match key {
                    b"parts" => {
                        once(&mut parts, 1)?;
                        s.array(|s, k| {
                            let (mut text, mut thought) = (None, false);
                            s.object(|s, key| match key {
                                b"text" => {
                                    text = Some(s.string()?);
                                    Some(())
                                }
                                b"thought" => {
                                    thought = s.boolean()?;
                                    Some(())
                                }
                                b"functionCall" => None,
                                _ => s.skip(4),
                            })?;
                            *hot.parts.get_mut(k)? = text.map(|t| (thought, t));
                            Some(())
                        })
                    }
                    _ => s.pass(3),
                })
            }
            b"finishReason" => {
                hot.finish = s.string_or_null()?;
                Some(())
            }
            _ => s.pass(2),
        })
    }
}

/// Marks `bit` in `seen`; `None` if it was already (a key written twice, whose last value the
/// full reading keeps whole: left to it).
fn once(seen: &mut u8, bit: u8) -> Option<()> {
    (*seen & bit == 0).then(|| *seen |= bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `event` as a Chat chunk with `memo`; whether the scan read it, and where it ended.
    fn read(event: &str, memo: &mut Memo) -> Option<usize> {
        let mut scratch = String::new();
        let mut out = Hot::default();
        hot(
            Api::OpenAiChat,
            event.as_bytes(),
            false,
            &mut scratch,
            memo,
            &mut out,
        )
    }

    /// The members passed over are remembered as one run, taken ones never; a run longer than
    /// `MAX_RUN` is not remembered, so each member's start costs a bounded comparison.
    #[test]
    fn runs_are_the_passed_members_and_bounded() {
        let chunk = |id: &str| {
            format!(
                r#"{{"id":"{id}","object":"chat.completion.chunk","choices":[{{"index":0,"delta":{{"content":"a"}}}}]}}"#
            )
        };
        let mut memo = Memo::default();
        let event = chunk("chatcmpl-1");
        assert_eq!(read(&event, &mut memo), Some(event.len()));
        let top = &memo.runs[Slot::ChatTop as usize];
        assert_eq!(
            top.iter().map(|r| r.as_slice()).collect::<Vec<_>>(),
            [&br#""id":"chatcmpl-1","object":"chat.completion.chunk","#[..]]
        );
        // `"index":0,` (a choice's member passed over) is a run of the choice's slot.
        assert_eq!(
            memo.runs[Slot::ChatChoice as usize],
            [br#""index":0,"#.to_vec()]
        );
        // Read again: the run is stepped over, and nothing new is remembered.
        assert_eq!(read(&event, &mut memo), Some(event.len()));
        assert_eq!(memo.runs[Slot::ChatTop as usize].len(), 1);

        let long = chunk(&"x".repeat(MAX_RUN));
        let mut memo = Memo::default();
        assert_eq!(read(&long, &mut memo), Some(long.len()));
        assert!(memo.runs[Slot::ChatTop as usize].is_empty());
    }
}
