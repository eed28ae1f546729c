//! Typed partial values: the trait every `T::Partial` implements, and its impls for the
//! standard types.

use serde_json::{Map, Value};
use std::fmt;
use std::marker::PhantomData;
use std::sync::OnceLock;

/// One step of a path into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// An object property.
    Key(String),
    /// An array index.
    Index(usize),
}

/// The kind of a JSON value, known from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// `{`
    Object,
    /// `[`
    Array,
    /// `"`
    String,
    /// `-` or a digit.
    Number,
    /// `t` or `f`.
    Bool,
    /// `n`
    Null,
}

/// What the incremental reader tells a partial value about the value at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event<'a> {
    /// A value of this kind starts.
    Begin(ValueKind),
    /// More decoded text of a string (its escapes resolved).
    Text(&'a str),
    /// The value is complete; its JSON text.
    Done(&'a str),
}

/// What every value of a partial type does with the events below it, whatever it holds: the
/// answer of [`PartialValue::route`], which the stream follows along the path it reads so that
/// it can skip a walk from the root whose outcome the type decides (a growing string's first
/// chunk, a container's close).
#[derive(Clone, Copy)]
pub struct Route {
    /// The route of the value at a child step (a property, an item); `None` where what the
    /// partial does depends on what it holds (an enum's variant), or is not known.
    pub child: fn(&Seg) -> Option<Route>,
    /// Whether a string here shows its text as it grows: its `Begin` and any non-empty `Text`
    /// change the partial (`Option<String>`).
    pub shows_text: bool,
    /// Whether `Done` here changes nothing once the value's `Begin` was applied (derived
    /// structs, `Vec`s, maps), so the stream need not give it.
    pub done_noop: bool,
}

impl fmt::Debug for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Route")
            .field("shows_text", &self.shows_text)
            .field("done_noop", &self.done_noop)
            .finish_non_exhaustive()
    }
}

/// The route of a child that has none: the steps below a string.
fn no_child(_: &Seg) -> Option<Route> {
    None
}

/// A value that grows while its JSON streams in: `T::Partial` of every [`AgentSchema`] type.
///
/// The reader calls [`apply`](PartialValue::apply) with each event and the path of the value it
/// concerns, relative to this value. Implementations follow the rules of the table in
/// [the module docs](crate::stream): a snapshot never shrinks and a complete value never changes.
///
/// Every partial can be printed, kept and compared (`Debug`, `Clone`, `PartialEq`): a caller
/// shows `{:?}` of a snapshot, clones the last one it showed, and compares the next with it.
///
/// [`AgentSchema`]: crate::AgentSchema
pub trait PartialValue: Default + fmt::Debug + Clone + PartialEq {
    /// Applies one event at `path` (relative to this value); returns whether the partial changed.
    ///
    /// An empty `Text` (which the reader sends, after the string's `Begin`, when a chunk ends
    /// at a string's opening quote) must be answered as a non-empty one would be: whether the
    /// partial shows the string's text. It adds no text.
    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool;

    /// Applies several events at the same `path`, in order; returns whether the partial changed.
    ///
    /// The reader sends the events of a value read within one chunk together (a string's
    /// `Begin`, `Text` and `Done`), so that a partial finds the value once. The result must be
    /// that of [`apply`](PartialValue::apply) called with each event in turn, which is what
    /// the default does; the derived partials, `Vec`s, boxes and maps find the child once and
    /// pass the events down.
    fn apply_each(&mut self, path: &[Seg], events: &[Event<'_>]) -> bool {
        let mut changed = false;
        for event in events {
            changed |= self.apply(path, event);
        }
        changed
    }

    /// Applies `Begin(kind)` and then `Text(text)` at the same `path` (a string that starts
    /// in a chunk and goes on in the next); returns whether the partial changed, and whether
    /// the text changed it (whether the partial shows the string's text as it grows).
    ///
    /// The result must be that of [`apply`](PartialValue::apply) called with each event in
    /// turn, which is what the default does; the derived partials, `Vec`s, boxes and maps
    /// find the child once and pass both events down. `text` may be empty (a chunk that ends
    /// right after the string's opening quote): the first answer is then the `Begin`'s alone,
    /// and the second whether the string's text will show, which is what `apply` answers for
    /// an empty `Text` (as it would for a non-empty one).
    fn apply_begin_text(&mut self, path: &[Seg], kind: ValueKind, text: &str) -> (bool, bool) {
        begin_text_one_by_one(self, path, kind, text)
    }

    /// What every value of this type does with the events below it, whatever it holds (see
    /// [`Route`]); `None` (the default) when that depends on what it holds or is not known.
    ///
    /// A type that returns a route promises what the route says: the stream then skips the
    /// walks whose outcome it knows (it gives a string's `Begin` together with its later
    /// events, and no `Done` to a container whose route says it changes nothing).
    fn route() -> Option<Route> {
        None
    }

    /// The route of the value at `path` (relative to this value) as this partial is now: the
    /// answer for a path below an enum whose variant is decided (which never changes after);
    /// `None` where it is not known. The default follows [`route`](PartialValue::route) down
    /// the path; the derived enums override it.
    fn route_at(&self, path: &[Seg]) -> Option<Route> {
        follow(Self::route()?, path)
    }

    /// The partial as JSON, for display or a UI: `None` while nothing is shown.
    fn to_json(&self) -> Option<Value>;
}

/// [`PartialValue::apply_begin_text`] through [`apply`](PartialValue::apply), one event at
/// a time (its default, and what the derive uses while an enum is undecided).
#[inline(never)]
pub fn begin_text_one_by_one<P: PartialValue>(
    partial: &mut P,
    path: &[Seg],
    kind: ValueKind,
    text: &str,
) -> (bool, bool) {
    let begun = partial.apply(path, &Event::Begin(kind));
    let shown = partial.apply(path, &Event::Text(text));
    // An empty text changes nothing: it only asks whether text shows.
    (begun | (shown && !text.is_empty()), shown)
}

/// [`PartialValue::apply_each`] through [`apply`](PartialValue::apply), one event at a time
/// (out of line: the fallback of the impls' common cases).
#[inline(never)]
fn apply_one_by_one<P: PartialValue>(partial: &mut P, path: &[Seg], events: &[Event<'_>]) -> bool {
    events.iter().fold(false, |c, e| partial.apply(path, e) | c)
}

/// Follows `route` down `path` (used by the derive for a field whose value is not there yet).
pub(crate) fn follow(mut route: Route, path: &[Seg]) -> Option<Route> {
    for seg in path {
        route = (route.child)(seg)?;
    }
    Some(route)
}

/// The partial of a value shown only once complete, kept as its JSON value: maps, sets,
/// `serde_json::Value`, string enums, and any type that implements [`AgentSchema`] by hand
/// (`type Partial = Leaf<Self>;`).
///
/// [`AgentSchema`]: crate::AgentSchema
pub struct Leaf<T> {
    /// A complete short string without escapes (a string enum's value), kept in place: its
    /// `Value` (an allocation) is made only when [`json`](Leaf::json) asks for it.
    short: Option<Short>,
    /// The complete value otherwise (boxed: a `Value` is large, and a partial holding many
    /// leaves, in a `Vec` of structs, moves them all as the `Vec` grows).
    json: OnceLock<Box<Value>>,
    _type: PhantomData<fn() -> T>,
}

/// The bytes of a short string, in place.
#[derive(Clone, Copy)]
struct Short {
    len: u8,
    bytes: [u8; SHORT_MAX],
}

/// The longest string a [`Leaf`] keeps in place.
const SHORT_MAX: usize = 15;

impl Short {
    /// The text of `raw`, a JSON string without escapes of at most [`SHORT_MAX`] bytes (a
    /// string enum's value), checked and copied in one pass; `None` for anything else.
    fn plain(raw: &str) -> Option<Short> {
        let inner = raw.as_bytes().strip_prefix(b"\"")?.strip_suffix(b"\"")?;
        let len = u8::try_from(inner.len())
            .ok()
            .filter(|&n| usize::from(n) <= SHORT_MAX)?;
        let mut bytes = [0; SHORT_MAX];
        for (d, &c) in bytes.iter_mut().zip(inner) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                return None;
            }
            *d = c;
        }
        Some(Short { len, bytes })
    }

    fn as_str(&self) -> &str {
        // Built from a `&str` cut at its end: always valid.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl<T> Default for Leaf<T> {
    fn default() -> Self {
        Leaf {
            short: None,
            json: OnceLock::new(),
            _type: PhantomData,
        }
    }
}

impl<T> Clone for Leaf<T> {
    fn clone(&self) -> Self {
        Leaf {
            short: self.short,
            json: self.json.clone(),
            _type: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Leaf<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Leaf").field(&self.json()).finish()
    }
}

impl<T> PartialEq for Leaf<T> {
    fn eq(&self, other: &Self) -> bool {
        self.json() == other.json()
    }
}

impl<T> Leaf<T> {
    /// The complete value as JSON, once it is complete.
    pub fn json(&self) -> Option<&Value> {
        match (self.json.get(), &self.short) {
            (Some(v), _) => Some(v),
            (None, Some(s)) => Some(
                self.json
                    .get_or_init(|| Box::new(Value::String(s.as_str().to_owned()))),
            ),
            (None, None) => None,
        }
    }

    /// Whether the value is complete.
    pub fn is_done(&self) -> bool {
        self.short.is_some() || self.json.get().is_some()
    }

    /// The complete value, deserialized, once it is complete.
    pub fn get(&self) -> Option<T>
    where
        T: serde::de::DeserializeOwned,
    {
        self.json()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }
}

impl<T> PartialValue for Leaf<T> {
    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        match (path, event) {
            // A string enum's value: no escape to decode, no parser needed, and no
            // allocation while it is short.
            ([], Event::Done(raw)) if !self.is_done() => match Short::plain(raw) {
                Some(short) => {
                    self.short = Some(short);
                    true
                }
                None => self.apply_done(raw),
            },
            _ => false,
        }
    }

    fn to_json(&self) -> Option<Value> {
        self.json().cloned()
    }
}

impl<T> Leaf<T> {
    /// A complete value that is not a short plain string, kept as its `Value` (out of line:
    /// a string enum's value takes the short path).
    #[inline(never)]
    fn apply_done(&mut self, raw: &str) -> bool {
        match plain_string(raw) {
            Some(s) => {
                self.json = OnceLock::from(Box::new(Value::String(s.to_owned())));
                true
            }
            None => match serde_json::from_str::<Value>(raw) {
                Ok(v) if !v.is_null() => {
                    self.json = OnceLock::from(Box::new(v));
                    true
                }
                _ => false,
            },
        }
    }
}

/// The text of a JSON string without escapes (`"abc"` → `abc`); `None` for anything else.
fn plain_string(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20)).then_some(inner)
}

/// A scalar shown only once complete (`bool`, numbers, `char`): `Option<T>`.
macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl PartialValue for Option<$t> {
            fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
                match (path, event) {
                    ([], Event::Done(raw)) if self.is_none() => {
                        *self = serde_json::from_str(raw).ok();
                        self.is_some()
                    }
                    _ => false,
                }
            }

            fn to_json(&self) -> Option<Value> {
                self.as_ref().and_then(|v| serde_json::to_value(v).ok())
            }
        }
    )*};
}

scalar!(bool, char, f32, f64, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// A string grows: `Some` from its opening quote, longer with each chunk.
impl PartialValue for Option<String> {
    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        if !path.is_empty() {
            return false;
        }
        match event {
            Event::Begin(ValueKind::String) if self.is_none() => {
                *self = Some(String::new());
                true
            }
            // An empty text asks whether text shows (it does): see `apply_begin_text`.
            Event::Text("") => {
                self.get_or_insert_with(String::new);
                true
            }
            Event::Text(t) => {
                let s = self.get_or_insert_with(String::new);
                if s.capacity() == 0 {
                    // The first text of a string that goes on in a later chunk: room for more
                    // than it, so that the rest rarely moves it.
                    s.reserve(t.len().max(32) * 4);
                }
                s.push_str(t);
                true
            }
            Event::Done(raw) if self.is_none() => {
                // Only reached when the caller skipped the growing events (`stream = "done"`).
                *self = serde_json::from_str(raw).ok();
                self.is_some()
            }
            _ => false,
        }
    }

    fn route() -> Option<Route> {
        Some(Route {
            child: no_child,
            shows_text: true,
            done_noop: true,
        })
    }

    fn apply_each(&mut self, path: &[Seg], events: &[Event<'_>]) -> bool {
        match (path, events) {
            // A string read whole within one chunk: its text in one exact allocation.
            ([], [Event::Begin(ValueKind::String), Event::Text(t), Event::Done(_)])
                if self.is_none() && !t.is_empty() =>
            {
                *self = Some((*t).to_owned());
                true
            }
            // The rest of a string that started in an earlier chunk, and its close: appended
            // (in one exact allocation when it had no text yet).
            ([], [Event::Text(t), Event::Done(_)]) if self.is_some() && !t.is_empty() => {
                match self {
                    Some(s) if s.capacity() == 0 => *s = (*t).to_owned(),
                    Some(s) => s.push_str(t),
                    None => {}
                }
                true
            }
            _ => apply_one_by_one(self, path, events),
        }
    }

    /// As `apply` with the `Begin` and then the `Text` (what the default does), in one call:
    /// a string's first chunk.
    fn apply_begin_text(&mut self, path: &[Seg], kind: ValueKind, text: &str) -> (bool, bool) {
        if !path.is_empty() {
            return (false, false);
        }
        let begun = kind == ValueKind::String && self.is_none();
        let s = self.get_or_insert_with(String::new);
        if !text.is_empty() {
            if s.capacity() == 0 {
                // As `apply`'s first text: room for more than it.
                s.reserve(text.len().max(32) * 4);
            }
            s.push_str(text);
        }
        (begun || !text.is_empty(), true)
    }

    fn to_json(&self) -> Option<Value> {
        self.clone().map(Value::String)
    }
}

/// An array exposes its finished items and the one in progress.
impl<P: PartialValue> PartialValue for Option<Vec<P>> {
    fn route() -> Option<Route> {
        Some(Route {
            child: |seg| match seg {
                Seg::Index(_) => P::route(),
                Seg::Key(_) => None,
            },
            shows_text: false,
            done_noop: true,
        })
    }

    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        match path {
            [] => match event {
                Event::Begin(ValueKind::Array) if self.is_none() => {
                    *self = Some(Vec::new());
                    true
                }
                Event::Done(raw) if self.is_none() && raw.trim_start().starts_with('[') => {
                    let mut fresh = Self::default();
                    super::replay(raw, &mut fresh);
                    *self = fresh;
                    self.is_some()
                }
                _ => false,
            },
            [Seg::Index(i), rest @ ..] => {
                let (item, grew) = item_at(self.get_or_insert_with(Vec::new), *i);
                match item {
                    Some(item) => item.apply(rest, event) | grew,
                    None => grew,
                }
            }
            _ => false,
        }
    }

    fn apply_each(&mut self, path: &[Seg], events: &[Event<'_>]) -> bool {
        match path {
            [Seg::Index(i), rest @ ..] => {
                let (item, grew) = item_at(self.get_or_insert_with(Vec::new), *i);
                match item {
                    Some(item) => item.apply_each(rest, events) | grew,
                    None => grew,
                }
            }
            _ => apply_one_by_one(self, path, events),
        }
    }

    fn apply_begin_text(&mut self, path: &[Seg], kind: ValueKind, text: &str) -> (bool, bool) {
        match path {
            [Seg::Index(i), rest @ ..] => {
                let (item, grew) = item_at(self.get_or_insert_with(Vec::new), *i);
                match item {
                    Some(item) => {
                        let (changed, shown) = item.apply_begin_text(rest, kind, text);
                        (changed | grew, shown)
                    }
                    None => (grew, false),
                }
            }
            _ => begin_text_one_by_one(self, path, kind, text),
        }
    }

    fn to_json(&self) -> Option<Value> {
        self.as_ref().map(|items| {
            Value::Array(
                items
                    .iter()
                    .map(|p| p.to_json().unwrap_or(Value::Null))
                    .collect(),
            )
        })
    }
}

/// A boxed value (`Box`, `Rc`, `Arc`): boxed again, so recursive types stay finite.
impl<P: PartialValue> PartialValue for Option<Box<P>> {
    fn route() -> Option<Route> {
        P::route()
    }

    fn route_at(&self, path: &[Seg]) -> Option<Route> {
        match self {
            Some(p) => p.route_at(path),
            None => P::route().and_then(|r| follow(r, path)),
        }
    }

    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        if let ([], Event::Done(raw)) = (path, event) {
            if self.is_none() && raw.trim() != "null" {
                let mut fresh = P::default();
                super::replay(raw, &mut fresh);
                *self = Some(Box::new(fresh));
                return true;
            }
        }
        if matches!((path, event), ([], Event::Begin(ValueKind::Null))) {
            return false;
        }
        self.get_or_insert_with(Box::default).apply(path, event)
    }

    fn apply_each(&mut self, path: &[Seg], events: &[Event<'_>]) -> bool {
        if path.is_empty() {
            return apply_one_by_one(self, path, events);
        }
        self.get_or_insert_with(Box::default)
            .apply_each(path, events)
    }

    fn apply_begin_text(&mut self, path: &[Seg], kind: ValueKind, text: &str) -> (bool, bool) {
        if path.is_empty() {
            return begin_text_one_by_one(self, path, kind, text);
        }
        self.get_or_insert_with(Box::default)
            .apply_begin_text(path, kind, text)
    }

    fn to_json(&self) -> Option<Value> {
        self.as_ref().and_then(|p| p.to_json())
    }
}

/// The partial of a map (`HashMap`, `BTreeMap`): its entries in the order the model writes
/// them, each from the first byte of its value, the one in progress growing. An entry's value
/// follows its own rules (a string grows, a number appears once complete); in
/// [`to_json`](PartialValue::to_json) an entry whose value is not shown yet is `null`.
pub struct MapPartial<P> {
    entries: Option<Vec<(String, P)>>,
}

impl<P> Default for MapPartial<P> {
    fn default() -> Self {
        MapPartial { entries: None }
    }
}

impl<P: fmt::Debug> fmt::Debug for MapPartial<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MapPartial").field(&self.entries).finish()
    }
}

impl<P: Clone> Clone for MapPartial<P> {
    fn clone(&self) -> Self {
        MapPartial {
            entries: self.entries.clone(),
        }
    }
}

impl<P: PartialEq> PartialEq for MapPartial<P> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<P> MapPartial<P> {
    /// Whether the map has started (its `{` was read).
    pub fn is_started(&self) -> bool {
        self.entries.is_some()
    }

    /// The entries so far, in the order the model wrote them.
    pub fn entries(&self) -> &[(String, P)] {
        self.entries.as_deref().unwrap_or_default()
    }

    /// The partial value of the entry `key`, once its value has started.
    pub fn get(&self, key: &str) -> Option<&P> {
        self.entries()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, p)| p)
    }
}

impl<P: PartialValue> PartialValue for MapPartial<P> {
    fn route() -> Option<Route> {
        Some(Route {
            child: |seg| match seg {
                Seg::Key(_) => P::route(),
                Seg::Index(_) => None,
            },
            shows_text: false,
            done_noop: true,
        })
    }

    fn apply(&mut self, path: &[Seg], event: &Event<'_>) -> bool {
        match path {
            [] => match event {
                Event::Begin(ValueKind::Object) if self.entries.is_none() => {
                    self.entries = Some(Vec::new());
                    true
                }
                Event::Done(raw) if self.entries.is_none() && raw.trim_start().starts_with('{') => {
                    let mut fresh = Self::default();
                    super::replay(raw, &mut fresh);
                    *self = fresh;
                    self.entries.is_some()
                }
                _ => false,
            },
            [Seg::Key(k), rest @ ..] => {
                let entries = self.entries.get_or_insert_with(Vec::new);
                match entry_index(entries, k) {
                    Some(i) => entries[i].1.apply(rest, event),
                    None => {
                        let mut p = P::default();
                        p.apply(rest, event);
                        entries.push((k.clone(), p));
                        true
                    }
                }
            }
            _ => false,
        }
    }

    fn apply_each(&mut self, path: &[Seg], events: &[Event<'_>]) -> bool {
        let [Seg::Key(k), rest @ ..] = path else {
            return apply_one_by_one(self, path, events);
        };
        let entries = self.entries.get_or_insert_with(Vec::new);
        match entry_index(entries, k) {
            Some(i) => entries[i].1.apply_each(rest, events),
            None => {
                let mut p = P::default();
                p.apply_each(rest, events);
                entries.push((k.clone(), p));
                true
            }
        }
    }

    fn apply_begin_text(&mut self, path: &[Seg], kind: ValueKind, text: &str) -> (bool, bool) {
        let [Seg::Key(k), rest @ ..] = path else {
            return begin_text_one_by_one(self, path, kind, text);
        };
        let entries = self.entries.get_or_insert_with(Vec::new);
        match entry_index(entries, k) {
            Some(i) => entries[i].1.apply_begin_text(rest, kind, text),
            None => {
                let mut p = P::default();
                let (_, shown) = p.apply_begin_text(rest, kind, text);
                entries.push((k.clone(), p));
                (true, shown)
            }
        }
    }

    fn to_json(&self) -> Option<Value> {
        self.entries.as_ref().map(|entries| {
            Value::Object(
                entries
                    .iter()
                    .map(|(k, p)| (k.clone(), p.to_json().unwrap_or(Value::Null)))
                    .collect(),
            )
        })
    }
}

/// Builds the JSON object of a struct's partial from its fields' partials (used by the
/// derive): `None` while no field is shown.
pub fn object_json(fields: &[(&str, Option<Value>)], flattened: &[Option<Value>]) -> Option<Value> {
    let mut map = Map::new();
    for (name, v) in fields {
        if let Some(v) = v {
            map.insert((*name).to_string(), v.clone());
        }
    }
    for v in flattened.iter().flatten() {
        if let Value::Object(o) = v {
            for (k, v) in o {
                map.insert(k.clone(), v.clone());
            }
        }
    }
    (!map.is_empty()).then_some(Value::Object(map))
}

/// The string a complete value is, if it is one (used by the derive: an externally tagged
/// enum's unit variant is written as its name).
pub fn done_string(event: &Event<'_>) -> Option<String> {
    match event {
        Event::Done(raw) => serde_json::from_str(raw).ok(),
        _ => None,
    }
}

/// Applies an event to a field marked `#[schema(stream = "done")]`: the field stays absent
/// until its value is complete, then shows it whole (used by the derive).
pub fn apply_done<P: PartialValue>(field: &mut P, path: &[Seg], event: &Event<'_>) -> bool {
    match (path, event) {
        ([], Event::Done(raw)) => {
            let mut fresh = P::default();
            super::replay(raw, &mut fresh);
            *field = fresh;
            true
        }
        _ => false,
    }
}

/// The events an internally tagged enum's partial saw before its tag was complete, replayed
/// once the variant is known (used by the derive).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pending {
    events: Vec<(Vec<Seg>, OwnedEvent)>,
}

#[derive(Debug, Clone, PartialEq)]
enum OwnedEvent {
    Begin(ValueKind),
    Text(String),
    Done(String),
}

impl Pending {
    /// Records an event; returns the tag once the `tag` property's value is complete.
    pub fn observe(&mut self, tag: &str, path: &[Seg], event: &Event<'_>) -> Option<String> {
        if let ([Seg::Key(k)], Event::Done(raw)) = (path, event) {
            if k == tag {
                return serde_json::from_str::<String>(raw).ok();
            }
        }
        if path.is_empty() {
            return None;
        }
        let owned = match event {
            Event::Begin(k) => OwnedEvent::Begin(*k),
            Event::Text(t) => OwnedEvent::Text((*t).to_string()),
            Event::Done(r) => OwnedEvent::Done((*r).to_string()),
        };
        self.events.push((path.to_vec(), owned));
        None
    }

    /// Replays the recorded events into the decided variant's `apply`.
    pub fn replay(self, mut apply: impl FnMut(&[Seg], &Event<'_>) -> bool) {
        for (path, e) in &self.events {
            let ev = match e {
                OwnedEvent::Begin(k) => Event::Begin(*k),
                OwnedEvent::Text(t) => Event::Text(t),
                OwnedEvent::Done(r) => Event::Done(r),
            };
            apply(path, &ev);
        }
    }
}

/// The item at index `i`, a new one when `i` is the next index (and whether it is new); `None`
/// past that.
#[inline]
fn item_at<P: Default>(items: &mut Vec<P>, i: usize) -> (Option<&mut P>, bool) {
    let grew = i == items.len();
    if grew {
        push_default(items);
    }
    (items.get_mut(i), grew)
}

/// A new item, once per item (out of line: an item's events mostly reach an item that is
/// there, and the walk through the `Vec` stays small).
#[inline(never)]
fn push_default<P: Default>(items: &mut Vec<P>) {
    items.push(P::default());
}

/// The index of the entry for key `k`: the entry in progress is the last one, and a key written
/// twice updates its entry.
fn entry_index<P>(entries: &[(String, P)], k: &str) -> Option<usize> {
    match entries.last() {
        Some((last, _)) if last == k => Some(entries.len() - 1),
        _ => entries.iter().position(|(e, _)| e == k),
    }
}
