//! The seed types, written as natural Rust, shared by the examples, tests and benchmarks.
//!
//! Each type here reproduces one schema of the specification seeds (`tests/fixtures/`).

pub mod seed000;
pub mod seed002;
pub mod seed004;
pub mod tools;
