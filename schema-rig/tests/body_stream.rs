//! `stream::provider::BodyStream` (schema-core's feature `futures`) over what
//! `reqwest::Response::bytes_stream()` gives: an OpenAI Chat stream from the local server
//! (server-sent events, no network) read into typed partials, then the whole reading, as
//! `push_body` reads the same body.

#[allow(dead_code)]
mod common;

use common::{bounded, stream_chunks, tool_call_chunks, CityD, Reply, Server};
use futures::StreamExt;
use schema_core::provider::Finish;
use schema_core::stream::provider::{Api, BodyEvent, BodyStream, EventStream};

#[tokio::test]
async fn a_reqwest_body_streams_typed_partials_then_the_reply() {
    bounded(async {
        let text = r#"{"city": "Lyon", "population": 522000, "country": "France", "landmarks": ["Fourvière", "Vieux Lyon"]}"#;
        let mut events = stream_chunks(text, 7);
        let calls = tool_call_chunks(&[("call_1", "lookup", r#"{"city": "Lyon"}"#)], 5);
        // The calls' chunks before the finish chunk the text's list ends with.
        let finish = events.pop().unwrap();
        events.extend(calls.into_iter().filter(|c| !c.contains("finish_reason\":\"")));
        events.push(finish);
        let server = Server::start(vec![Reply::Sse(events.clone())]).await;
        let url = format!("{}/chat/completions", server.base_url);
        let resp = reqwest::Client::new()
            .post(url)
            .body("{}")
            .send()
            .await
            .unwrap();
        let mut s = BodyStream::<_, CityD>::new(Api::OpenAiChat, resp.bytes_stream());
        let (mut cities, mut calls, mut end) = (Vec::new(), Vec::new(), None);
        while let Some(item) = s.next().await {
            match item.unwrap() {
                BodyEvent::Text(p) => cities.push(p.city),
                BodyEvent::Tool { id, name, .. } => calls.push((id, name)),
                BodyEvent::Done(e) => end = Some(e),
            }
        }
        let end = end.expect("the last item is Done");
        // The same body through `push_body`, in one piece.
        let mut body = String::new();
        for e in &events {
            body.push_str(&format!("data: {e}\n\n"));
        }
        body.push_str("data: [DONE]\n\n");
        let mut whole = EventStream::<CityD>::new(Api::OpenAiChat);
        whole.push_body(body.as_bytes()).unwrap();
        let want = whole.finish();
        assert_eq!(end.reply, want.reply);
        let city = end.value.unwrap();
        assert_eq!(city, want.value.unwrap());
        assert_eq!(city.landmarks, ["Fourvière", "Vieux Lyon"]);
        assert_eq!(end.reply.finish, Finish::Stop);
        assert_eq!(end.reply.usage.total_tokens, Some(85));
        assert_eq!(end.tools[0].id, "call_1");
        // The city's partial as it grew, last the whole name.
        assert_eq!(cities.last(), Some(&Some("Lyon".to_string())));
        assert!(calls
            .iter()
            .all(|(id, name)| id.as_deref() == Some("call_1") && name.as_deref() == Some("lookup")));
        assert!(!calls.is_empty());
    })
    .await
}
