//! Compile-time diagnostics of `#[derive(AgentSchema)]`: every file in `tests/ui/` must fail with
//! exactly the errors in its `.stderr`; every file in `tests/ui/pass/` must build and run.
//!
//! The `.stderr` files are pinned to the toolchain in use; regenerate with
//! `TRYBUILD=overwrite cargo test --test ui` and read every changed file before committing.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
