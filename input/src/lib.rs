//! podcheck's input language: what a user gives the model, read into a [`spec::Scenario`].
//!
//! Modules import in one direction, from the bottom up:
//!
//! 1. [`files`]: the text of the files and of stdin, and the applications of the paths a
//!    user gives (folders walked); [`spec`]: the scenario schema, its validation and the
//!    release rules;
//! 2. [`catalogue`]: the built-in scenarios; [`manifest`]: users' Kubernetes manifests read
//!    into a scenario;
//! 3. [`cone`]: the workloads that can influence a plan scenario's verdicts; [`plan`]: the
//!    fault plans a manifest's scenario is checked under.
//!
//! The upstream Kubernetes logic it names (restart policies, taints, …) is `podcheck-k8s`;
//! the model (`podcheck-model`) sits above, and is the only one that runs a scenario.

pub mod catalogue;
pub mod cone;
pub mod files;
pub mod manifest;
pub mod plan;
pub mod spec;

pub use spec::{Scenario, Verdict};
