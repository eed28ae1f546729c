//! [`BodyStream`]: a provider's HTTP body, as an async stream of chunks, read into typed partial
//! values (feature `futures`). The only dependency it adds is `futures-core` (the `Stream`
//! trait); any executor drives it.

use super::{Api, EventStream, Finished};
use crate::{AgentSchema, ParseError};
use futures_core::Stream as AsyncStream;
use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

/// One item of a [`BodyStream`].
#[derive(Debug)]
pub enum BodyEvent<T: AgentSchema, A: AgentSchema = T> {
    /// The reply's typed partial value, after a chunk that changed it.
    Text(T::Partial),
    /// A tool call's typed partial value, after a chunk that started the call or added to its
    /// arguments.
    Tool {
        /// The call's index (see [`ToolCall::index`](super::ToolCall::index)).
        index: usize,
        /// The call's id, once an event gave it.
        id: Option<String>,
        /// The tool's name, once an event named it.
        name: Option<String>,
        /// The arguments' partial value (for a tool set, the variant the name tags).
        partial: A::Partial,
    },
    /// The body ended: the text's value, each call's, and the [`Reply`](crate::provider::Reply),
    /// as [`EventStream::finish`] gives them (a stream that ended before the provider's finish
    /// is [`ParseError::Truncated`]). The last item.
    Done(Box<Finished<T, A>>),
}

/// The error that ends a [`BodyStream`]; its [`source`](std::error::Error::source) is the
/// body's error, or the read error's own source.
#[derive(Debug)]
pub enum BodyError<E> {
    /// The body's stream failed (a network error): its error, as it gave it.
    Body(E),
    /// The body was read as an error: the provider's error event
    /// ([`ParseError::Provider`]), a malformed body, or a reply value that no continuation
    /// can make valid (see [`EventStream::push_body`]).
    Read(ParseError),
}

impl<E: std::fmt::Display> std::fmt::Display for BodyError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyError::Body(_) => f.write_str("the response body failed"),
            BodyError::Read(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for BodyError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BodyError::Body(e) => Some(e),
            BodyError::Read(e) => e.source(),
        }
    }
}

/// A provider's HTTP body, as an async stream of chunks (what
/// `reqwest::Response::bytes_stream()` gives), read into typed partial values and, at the
/// body's end, what the whole reply adds up to.
///
/// It is [`EventStream::push_body`] driven by the body: each chunk is pushed as it arrives,
/// and what the chunk changed is given as items: the reply's typed partial when it changed
/// ([`BodyEvent::Text`]), a tool call's typed partial when the call started or its arguments
/// grew ([`BodyEvent::Tool`]). The body's end gives [`BodyEvent::Done`] with
/// [`EventStream::finish`]'s reading; the first error (the body's own, or the body read as an
/// error) is the last item instead, its source kept.
///
/// `S` is any `Stream<Item = Result<B, E>>` with `B: AsRef<[u8]>` that is [`Unpin`] (a stream
/// that is not can be passed as `Box::pin(s)`). Items are `Result<BodyEvent<T, A>,
/// BodyError<E>>`; [`events`](Self::events) shows the whole [`EventStream`] between items
/// (reasoning, usage, the calls' arguments so far).
///
/// With `reqwest` (feature `stream`):
/// `let mut s = BodyStream::<_, Answer>::new(Api::Anthropic, resp.bytes_stream());`, then
/// `while let Some(item) = s.next().await { ... }`. Here a canned body, split into chunks:
///
/// ```
/// use futures::{executor::block_on, stream, StreamExt};
/// use schema_core::stream::provider::{Api, BodyError, BodyEvent, BodyStream};
/// use schema_core::AgentSchema;
///
/// #[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
/// struct Note {
///     title: String,
///     words: Vec<String>,
/// }
///
/// let body = concat!(
///     "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\\\"title\\\": \\\"Gr\"}}]}\n\n",
///     "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"eetings\\\", \\\"words\\\": [\\\"hi\\\"\"}}]}\n\n",
///     "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\", \\\"hello\\\"]}\"},\"finish_reason\":\"stop\"}]}\n\n",
///     "data: [DONE]\n\n",
/// );
/// // What `bytes_stream()` gives: chunks cut anywhere, each a `Result`.
/// let chunks = body.as_bytes().chunks(50).map(Ok::<_, std::io::Error>);
/// let mut s = BodyStream::<_, Note>::new(Api::OpenAiChat, stream::iter(chunks));
/// block_on(async {
///     let mut titles = Vec::new();
///     while let Some(item) = s.next().await {
///         match item.unwrap() {
///             BodyEvent::Text(partial) => titles.extend(partial.title),
///             BodyEvent::Tool { .. } => unreachable!("no tool calls here"),
///             BodyEvent::Done(end) => {
///                 assert_eq!(end.value.unwrap().words, ["hi", "hello"]);
///                 assert_eq!(end.reply.raw_finish.as_deref(), Some("stop"));
///             }
///         }
///     }
///     // The title as it streamed in.
///     assert_eq!(titles.first().map(String::as_str), Some("Gr"));
///     assert_eq!(titles.last().map(String::as_str), Some("Greetings"));
/// });
///
/// // A network error ends the stream, as the body's own error.
/// let failing = stream::iter([
///     Ok(&body.as_bytes()[..60]),
///     Err(std::io::Error::other("connection reset")),
/// ]);
/// let mut s = BodyStream::<_, Note>::new(Api::OpenAiChat, failing);
/// block_on(async {
///     let mut last = None;
///     while let Some(item) = s.next().await {
///         last = Some(item);
///     }
///     let Some(Err(BodyError::Body(e))) = last else {
///         panic!("{last:?}")
///     };
///     assert_eq!(e.to_string(), "connection reset");
///     let e = BodyError::<std::io::Error>::Body(e);
///     assert_eq!(std::error::Error::source(&e).unwrap().to_string(), "connection reset");
/// });
/// ```
pub struct BodyStream<S, T: AgentSchema, A: AgentSchema = T> {
    body: S,
    /// The stream being read; `None` once the last item was given.
    events: Option<EventStream<T, A>>,
    /// Items found and not yet given.
    pending: VecDeque<Result<BodyEvent<T, A>, ParseError>>,
    /// The text's partial as last given.
    shown: T::Partial,
    /// Each call's arguments' length as last given.
    shown_args: Vec<usize>,
}

// The body is the only field ever pinned (through `Pin::new`, which needs it `Unpin`).
impl<S: Unpin, T: AgentSchema, A: AgentSchema> Unpin for BodyStream<S, T, A> {}

impl<S, T: AgentSchema, A: AgentSchema> BodyStream<S, T, A> {
    /// Reads `body`, the HTTP body of a streamed reply of `api`.
    pub fn new(api: Api, body: S) -> Self {
        Self::with_events(EventStream::new(api), body)
    }

    /// Reads `body` into `events` (for instance with its text stream set to
    /// [`watch`](crate::stream::Stream::watch) an array).
    pub fn with_events(events: EventStream<T, A>, body: S) -> Self {
        BodyStream {
            body,
            shown: events.text.partial().clone(),
            events: Some(events),
            pending: VecDeque::new(),
            shown_args: Vec::new(),
        }
    }

    /// The provider stream as read so far; `None` after the last item.
    pub fn events(&self) -> Option<&EventStream<T, A>> {
        self.events.as_ref()
    }

    /// Queues what the last chunk changed: the text's partial, each call started or grown.
    fn note(&mut self) {
        let Some(events) = &self.events else {
            return;
        };
        let partial = events.text.partial();
        if *partial != self.shown {
            self.shown = partial.clone();
            self.pending.push_back(Ok(BodyEvent::Text(partial.clone())));
        }
        for (k, call) in events.tools().iter().enumerate() {
            let len = call.arguments().len();
            match self.shown_args.get_mut(k) {
                Some(shown) if *shown == len => continue,
                Some(shown) => *shown = len,
                None => self.shown_args.push(len),
            }
            self.pending.push_back(Ok(BodyEvent::Tool {
                index: call.index,
                id: call.id.clone(),
                name: call.name.clone(),
                partial: call.stream.partial().clone(),
            }));
        }
    }
}

impl<S, B, E, T, A> AsyncStream for BodyStream<S, T, A>
where
    S: AsyncStream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    T: AgentSchema + serde::de::DeserializeOwned,
    A: AgentSchema + serde::de::DeserializeOwned,
{
    type Item = Result<BodyEvent<T, A>, BodyError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(item) = this.pending.pop_front() {
                return Poll::Ready(Some(item.map_err(BodyError::Read)));
            }
            let Some(events) = this.events.as_mut() else {
                return Poll::Ready(None);
            };
            match Pin::new(&mut this.body).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => {
                    let read = events.push_body(chunk.as_ref());
                    this.note();
                    if let Err(e) = read {
                        this.pending.push_back(Err(e));
                        this.events = None;
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.events = None;
                    return Poll::Ready(Some(Err(BodyError::Body(e))));
                }
                Poll::Ready(None) => {
                    if let Some(events) = this.events.take() {
                        this.pending
                            .push_back(Ok(BodyEvent::Done(Box::new(events.finish()))));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::ProviderError;
    use futures::{executor::block_on, stream, StreamExt};

    #[derive(crate::AgentSchema, serde::Deserialize, Debug, PartialEq)]
    struct Weather {
        city: String,
        days: u8,
    }

    /// An Anthropic reply with text and a tool call, then (when `error`) an overloaded error.
    fn body(error: bool) -> String {
        let mut b = String::new();
        let mut event = |json: &str| b.push_str(&format!("event: x\ndata: {json}\n\n"));
        event(
            r#"{"type": "message_start", "message": {"usage": {"input_tokens": 9, "output_tokens": 1}}}"#,
        );
        event(
            r#"{"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}"#,
        );
        for piece in [r#"{\"city\": \"Os"#, r#"lo\", \"days\""#, r#": 3}"#] {
            event(&format!(
                r#"{{"type": "content_block_delta", "index": 0, "delta": {{"type": "text_delta", "text": "{piece}"}}}}"#
            ));
        }
        event(r#"{"type": "ping"}"#);
        if error {
            event(
                r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#,
            );
        }
        event(
            r#"{"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_7", "name": "weather", "input": {}}}"#,
        );
        for piece in [r#"{\"city\": \"Ber"#, r#"gen\", \"days\": 2}"#] {
            event(&format!(
                r#"{{"type": "content_block_delta", "index": 1, "delta": {{"type": "input_json_delta", "partial_json": "{piece}"}}}}"#
            ));
        }
        event(
            r#"{"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}}"#,
        );
        event(r#"{"type": "message_stop"}"#);
        b
    }

    type Item = Result<BodyEvent<Weather>, BodyError<std::io::Error>>;

    fn items(body: &str, n: usize) -> Vec<Item> {
        let chunks = body
            .as_bytes()
            .chunks(n)
            .map(|c| Ok::<_, std::io::Error>(c.to_vec()));
        block_on(BodyStream::<_, Weather>::new(Api::Anthropic, stream::iter(chunks)).collect())
    }

    /// The items are the partials as they grew, each once, then `Done` with what `push_body`
    /// and `finish` read from the same body.
    #[test]
    fn items_follow_the_body_and_end_with_its_reading() {
        let body = body(false);
        let mut whole = EventStream::<Weather>::new(Api::Anthropic);
        whole.push_body(body.as_bytes()).unwrap();
        let want = whole.finish();
        for n in [1, 2, 7, 64, body.len()] {
            let items = items(&body, n);
            let (mut texts, mut calls) = (Vec::new(), Vec::new());
            let mut done = None;
            for item in items {
                match item.unwrap() {
                    BodyEvent::Text(p) => texts.push(p),
                    BodyEvent::Tool {
                        index,
                        id,
                        name,
                        partial,
                    } => calls.push((index, id, name, partial)),
                    BodyEvent::Done(end) => done = Some(end),
                }
            }
            let end = done.unwrap_or_else(|| panic!("{n}: no Done"));
            assert_eq!(end.value.as_ref().unwrap(), want.value.as_ref().unwrap());
            assert_eq!(end.reply, want.reply, "{n}");
            assert_eq!(end.tools.len(), 1, "{n}");
            assert_eq!(end.tools[0].value.as_ref().unwrap().city, "Bergen");
            // Each text item differs from the one before; the last is the whole value.
            assert!(texts.windows(2).all(|w| w[0] != w[1]), "{n}: {texts:?}");
            let last = texts.last().unwrap();
            assert_eq!((last.city.as_deref(), last.days), (Some("Oslo"), Some(3)));
            // The city as each event's text grew it.
            let cities: Vec<_> = texts.iter().filter_map(|p| p.city.as_deref()).collect();
            if n < 64 {
                assert_eq!(cities[..2], ["Os", "Oslo"], "{n}: {cities:?}");
            }
            // The call, as it started and grew: its id and name from the start.
            let (index, id, name, partial) = calls.last().unwrap();
            assert_eq!(
                (*index, id.as_deref(), name.as_deref()),
                (1, Some("toolu_7"), Some("weather"))
            );
            assert_eq!(partial.days, Some(2));
            assert!(calls.iter().all(|c| c.1.as_deref() == Some("toolu_7")));
        }
    }

    /// An error event is the last item, as `ParseError::Provider` with the provider's message;
    /// what came before it was given.
    #[test]
    fn an_error_event_is_the_last_item() {
        let body = body(true);
        for n in [1, 5, body.len()] {
            let mut items = items(&body, n);
            let last = items.pop().unwrap();
            let Err(BodyError::Read(ParseError::Provider(ProviderError::Api { message, .. }))) =
                &last
            else {
                panic!("{n}: {last:?}")
            };
            assert_eq!(message, "Overloaded");
            let Some(Ok(BodyEvent::Text(p))) = items.last() else {
                panic!("{n}: {items:?}")
            };
            assert_eq!(p.days, Some(3));
            assert!(items.iter().all(|i| matches!(i, Ok(BodyEvent::Text(_)))));
        }
    }

    /// A body that fails (the network) ends with its error as the source; one that stops
    /// before the provider's finish ends with `Done` and a truncated value.
    #[test]
    fn a_failing_or_cut_body() {
        let body = body(false);
        let cut = body.find("\"message_delta\"").unwrap();
        let failing = stream::iter([
            Ok(body.as_bytes()[..cut].to_vec()),
            Err(std::io::Error::other("reset")),
            Ok(body.as_bytes()[cut..].to_vec()),
        ]);
        let items: Vec<Item> =
            block_on(BodyStream::<_, Weather>::new(Api::Anthropic, failing).collect());
        let Some(Err(e @ BodyError::Body(_))) = items.last() else {
            panic!("{items:?}")
        };
        assert_eq!(std::error::Error::source(e).unwrap().to_string(), "reset");
        assert!(!items.iter().any(|i| matches!(i, Ok(BodyEvent::Done(_)))));

        let short = stream::iter([Ok::<_, std::io::Error>(&body.as_bytes()[..cut])]);
        let mut s = BodyStream::<_, Weather>::new(Api::Anthropic, short);
        let items: Vec<_> = block_on((&mut s).collect::<Vec<_>>());
        let Some(Ok(BodyEvent::Done(end))) = items.last() else {
            panic!("{items:?}")
        };
        assert!(matches!(end.value, Err(ParseError::Truncated { .. })));
        assert!(s.events().is_none());
        assert!(block_on(s.next()).is_none());
    }
}
