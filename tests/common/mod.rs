//! What the root tests share: running the `podcheck` binary and reading what it prints
//! ([`bin`]), fresh temporary folders ([`dir::TempDir`]), the YAML more than one test reads
//! ([`yaml`]), and looking things up in the JSON the binary prints ([`json`]).
//!
//! A test file takes it with `mod common;`. Each test file is a crate of its own and uses only
//! part of this module: what one leaves unused is not dead code in another.
#![allow(dead_code)]

pub mod bin;
pub mod dir;
pub mod json;
pub mod yaml;
