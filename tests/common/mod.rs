//! What the root tests share: running the `podcheck` binary and reading what it prints
//! ([`bin`]), fresh temporary folders ([`dir::TempDir`]), the YAML more than one test reads
//! ([`yaml`]), looking things up in the JSON the binary prints ([`json`]), and the model's
//! canonical run ([`run`]), the property tests' seed ([`seed`]), a property's trace replayed
//! and rendered ([`trace`]), and two runs that must judge alike ([`judged`]).
//!
//! A test file takes it with `mod common;`. Each test file is a crate of its own and uses only
//! part of this module: what one leaves unused is not dead code in another.
#![allow(dead_code)]

pub mod bin;
pub mod dir;
pub mod json;
pub mod judged;
pub mod run;
pub mod seed;
pub mod trace;
pub mod yaml;
