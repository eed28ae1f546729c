//! `retry_async`: the previous attempt's reply and feedback reach the next call, the loop stops
//! at the first valid reply, at the caller's error, at a refusal, and after `max_attempts`;
//! futures that are pending before they are ready are awaited (a hand-rolled executor).

use schema_core::provider::Provider;
use schema_core::retry::{retry_async, Answer, Attempt, Retried, RetryError, RetryOptions};
use schema_core::{AgentSchema, ParseError};
use schema_suite::canned::block_on;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

#[derive(AgentSchema, serde::Deserialize, Debug, PartialEq)]
struct Score {
    #[schema(maximum = 10)]
    score: u8,
}

/// A future pending once (it wakes itself) before it gives `value`.
struct Later<T>(Option<T>, bool);

impl<T: Unpin> Future for Later<T> {
    type Output = T;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if !self.1 {
            self.1 = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        Poll::Ready(self.0.take().expect("polled after ready"))
    }
}

fn later<T>(value: T) -> Later<T> {
    Later(Some(value), false)
}

#[test]
fn feedback_reaches_the_next_attempt() {
    let seen: RefCell<Vec<Option<Attempt>>> = RefCell::new(Vec::new());
    let replies = RefCell::new(vec![r#"{"score": 12}"#, r#"{"score": 9}"#].into_iter());
    let got: Retried<Score> = block_on(retry_async(&RetryOptions::new(), |previous| {
        seen.borrow_mut().push(previous);
        let reply = replies.borrow_mut().next().unwrap().to_string();
        async move { later(Ok::<_, std::io::Error>(reply)).await }
    }))
    .unwrap();
    assert_eq!((got.value, got.attempts), (Score { score: 9 }, 2));
    let seen = seen.into_inner();
    assert_eq!(seen.len(), 2);
    assert!(seen[0].is_none());
    let first = seen[1].as_ref().unwrap();
    assert_eq!(first.number, 1);
    assert_eq!(first.reply, r#"{"score": 12}"#);
    assert!(first
        .feedback
        .contains("/score: expected a number <= 10, found 12"));
    assert_eq!(got.errors, std::slice::from_ref(&first.error));
}

#[test]
fn the_callers_error_ends_the_loop() {
    let calls = RefCell::new(0);
    let got = block_on(retry_async::<Score, _, _, _, _>(
        &RetryOptions::new(),
        |_| {
            *calls.borrow_mut() += 1;
            let n = *calls.borrow();
            async move {
                if n == 1 {
                    Ok(String::from("not json at all"))
                } else {
                    Err("connection reset")
                }
            }
        },
    ));
    match got {
        Err(RetryError::Ask { error, attempts }) => {
            assert_eq!(error, "connection reset");
            assert_eq!(attempts.len(), 1);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(*calls.borrow(), 2);
}

#[test]
fn max_attempts_bounds_the_calls() {
    let calls = RefCell::new(0);
    let got = block_on(retry_async::<Score, std::io::Error, _, _, _>(
        &RetryOptions::new().max_attempts(3),
        |_| {
            *calls.borrow_mut() += 1;
            async { Ok(r#"{"score": 11}"#) }
        },
    ));
    assert_eq!(got.unwrap_err().attempts().len(), 3);
    assert_eq!(*calls.borrow(), 3);
}

#[test]
fn a_refusal_in_a_response_body_stops_at_once() {
    let body = serde_json::json!({"content": [], "stop_reason": "refusal",
        "stop_details": {"type": "refusal", "explanation": "Not allowed."}});
    let calls = RefCell::new(0);
    let got = block_on(retry_async::<Score, std::io::Error, _, _, _>(
        &RetryOptions::new(),
        |_| {
            *calls.borrow_mut() += 1;
            let answer = Answer::from_response(Provider::Anthropic, &body);
            async move { Ok(answer) }
        },
    ));
    assert_eq!(
        got.unwrap_err().last(),
        Some(&ParseError::Refusal {
            text: "Not allowed.".into()
        })
    );
    assert_eq!(*calls.borrow(), 1);
}
