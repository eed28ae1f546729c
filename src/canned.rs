//! A canned model server on 127.0.0.1 for the examples: it answers each POST with the next of
//! a list of response bodies, so the examples run the real request/response loop without a
//! network or a model. Also a minimal HTTP client and `block_on`, standing in for `reqwest`
//! and an async runtime (std only: the root package has no heavy dependency).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::JoinHandle;

/// A server answering POSTs with canned bodies, in order; it records each request body.
pub struct Server {
    /// `http://127.0.0.1:<port>/v1/chat/completions`.
    pub url: String,
    handle: JoinHandle<Vec<String>>,
}

impl Server {
    /// Starts a server that answers one request per body in `bodies`, then stops.
    pub fn start(bodies: Vec<String>) -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}/v1/chat/completions", listener.local_addr()?);
        let handle = std::thread::spawn(move || {
            let mut seen = Vec::new();
            for body in bodies {
                let Ok((stream, _)) = listener.accept() else {
                    break;
                };
                match answer(stream, &body) {
                    Ok(request) => seen.push(request),
                    Err(_) => break,
                }
            }
            seen
        });
        Ok(Server { url, handle })
    }

    /// Waits for the server to answer all its bodies; the request bodies it read, in order.
    pub fn requests(self) -> Vec<String> {
        self.handle.join().unwrap_or_default()
    }
}

/// Reads one request and answers it with `body`; the request's body.
fn answer(stream: TcpStream, body: &str) -> std::io::Result<String> {
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut request = vec![0; length];
    reader.read_exact(&mut request)?;
    let mut stream = reader.into_inner();
    write!(
        stream,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )?;
    Ok(String::from_utf8_lossy(&request).into_owned())
}

/// POSTs `body` as JSON to `url` (`http://host:port/path`) and returns the response body:
/// what `client.post(url).json(&body).send()?.text()` does with `reqwest`, for this server.
pub fn post(url: &str, body: &str) -> std::io::Result<String> {
    let rest = url.strip_prefix("http://").unwrap_or(url);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = TcpStream::connect(host)?;
    write!(
        stream,
        "POST /{path} HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    match response.split_once("\r\n\r\n") {
        Some((_, body)) => Ok(body.to_string()),
        None => Err(std::io::Error::other("no HTTP body")),
    }
}

/// Runs a future to completion on this thread (what `#[tokio::main]` does for an app).
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

/// An OpenAI Chat Completions response body whose message content is `content`.
pub fn chat_response(content: &str) -> String {
    serde_json::json!({
        "id": "chatcmpl-canned",
        "object": "chat.completion",
        "model": "gpt-4.1-mini",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}
    })
    .to_string()
}
