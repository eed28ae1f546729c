//! What the flow tests share: a local OpenAI-compatible server (it listens on 127.0.0.1, a port
//! the system picks, answers each request with the next recorded body of its list, keeps every
//! request body for the test to read, and stops when the test drops it; no network), the
//! `AgentSchema` form of the tests' city, a time bound, and the line count of a marked flow.

use schema_core::AgentSchema;
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The tests' city as a type deriving this library's `AgentSchema`, for the plain-HTTP flows.
#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
pub struct CityD {
    pub city: String,
    pub population: u64,
    pub country: Option<String>,
    #[schema(max_items = 3)]
    pub landmarks: Vec<String>,
}

/// Every test is bounded in time: the server and the client under test stop with it.
pub async fn bounded<F: std::future::Future>(f: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(60), f)
        .await
        .expect("the test took more than 60 s")
}

/// The lines of user code between `// flow:{tag}:begin` and `// flow:{tag}:end` in `src` (a
/// test file's own text), blank lines not counted: the count the README gives for each flow.
pub fn lines_between(src: &str, tag: &str) -> usize {
    let begin = format!("// flow:{tag}:begin\n");
    let end = format!("// flow:{tag}:end");
    let start = src.find(&begin).expect("the begin marker") + begin.len();
    let stop = src.find(&end).expect("the end marker");
    src[start..stop]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count()
}

/// One recorded answer.
pub enum Reply {
    /// A JSON body (`application/json`).
    Json(&'static str),
    /// A server-sent event stream: each text sent as one `data:` event, then `data: [DONE]`.
    Sse(Vec<String>),
}

pub struct Server {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(replies: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            let mut replies = replies.into_iter();
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                let reply = replies.next();
                // A connection that says nothing for 10 s is dropped, so the server never
                // waits forever.
                let _ = tokio::time::timeout(
                    Duration::from_secs(10),
                    answer(socket, reply, Arc::clone(&seen)),
                )
                .await;
            }
        });
        Server {
            base_url,
            requests,
            task,
        }
    }

    /// The request bodies received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn answer(mut socket: TcpStream, reply: Option<Reply>, seen: Arc<Mutex<Vec<Value>>>) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let (head_end, length) = loop {
        let Ok(n) = socket.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            break (i + 4, length);
        }
    };
    while buf.len() < head_end + length {
        let Ok(n) = socket.read(&mut chunk).await else {
            return;
        };
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = &buf[head_end..buf.len().min(head_end + length)];
    seen.lock()
        .unwrap()
        .push(serde_json::from_slice(body).unwrap_or(Value::Null));
    let response = match reply {
        Some(Reply::Json(body)) => format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        ),
        Some(Reply::Sse(events)) => {
            let mut body = String::new();
            for e in events {
                body.push_str("data: ");
                body.push_str(&e);
                body.push_str("\n\n");
            }
            body.push_str("data: [DONE]\n\n");
            format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            )
        }
        None => {
            let body = r#"{"error": {"message": "no more recorded replies", "type": "test"}}"#;
            format!(
                "HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            )
        }
    };
    let _ = socket.write_all(response.as_bytes()).await;
    let _ = socket.shutdown().await;
}

/// One chunk of an OpenAI chat completion stream.
fn chunk(delta: Value, finish: Option<&str>) -> String {
    let mut c = serde_json::json!({
        "id": "chatcmpl-stream-1",
        "object": "chat.completion.chunk",
        "created": 1764300000,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}]
    });
    if finish.is_some() {
        c["usage"] =
            serde_json::json!({"prompt_tokens": 61, "completion_tokens": 24, "total_tokens": 85});
    }
    c.to_string()
}

/// `text` cut into pieces of `size` bytes (at character boundaries).
fn pieces(text: &str, size: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}

/// The chunks of an OpenAI chat completion stream whose content is `text` cut into pieces of
/// `size` bytes (at character boundaries).
pub fn stream_chunks(text: &str, size: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (i, piece) in pieces(text, size).into_iter().enumerate() {
        let mut delta = serde_json::json!({"content": piece});
        if i == 0 {
            delta["role"] = "assistant".into();
        }
        out.push(chunk(delta, None));
    }
    out.push(chunk(serde_json::json!({}), Some("stop")));
    out
}

/// The chunks of an OpenAI chat completion stream of tool calls `(id, name, arguments)`, one
/// after the other, each call's arguments cut into pieces of `size` bytes.
pub fn tool_call_chunks(calls: &[(&str, &str, &str)], size: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        let mut delta = serde_json::json!({"tool_calls": [{"index": index, "id": id, "type": "function",
            "function": {"name": name, "arguments": ""}}]});
        if index == 0 {
            delta["role"] = "assistant".into();
        }
        out.push(chunk(delta, None));
        for piece in pieces(arguments, size) {
            let delta = serde_json::json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]});
            out.push(chunk(delta, None));
        }
    }
    out.push(chunk(serde_json::json!({}), Some("tool_calls")));
    out
}
