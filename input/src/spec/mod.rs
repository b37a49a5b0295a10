//! Scenarios as data: the workloads (shaped like the Kubernetes objects they stand for, with
//! their field names), the cluster, the application's behaviour, the faults that may happen,
//! and the verdict each property is expected to get.
//!
//! The built-in catalogue is `input/scenarios/catalogue.yaml`; users' own files use the same
//! shape.
//!
//! - [`schema`]: the types and their serde;
//! - [`validate`]: what serde cannot check, and the API server's validation of the fields
//!   the model reads;
//! - [`release`]: the Kubernetes release a scenario follows, and the rules that depend on it;
//! - [`invalid`]: what validation refuses, typed (object, field path, detail);
//! - [`limits`]: the sizes the model's state can hold;
//! - [`parse`]: a file of scenarios read, validated and its errors given their line;
//! - [`placement`]: whether some node can take a workload's pods at all.

pub mod invalid;
pub mod limits;
pub mod parse;
pub mod placement;
pub mod release;
pub mod schema;
pub mod validate;

pub use invalid::{Invalid, Object, Part};
pub use limits::*;
pub use parse::*;
pub use release::*;
pub use schema::*;
pub use validate::*;
