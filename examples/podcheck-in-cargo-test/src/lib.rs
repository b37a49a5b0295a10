//! An example of podcheck in a project's own `cargo test`: the manifests in `deploy/` are
//! checked by `tests/manifests.rs`. This crate has no code of its own.
