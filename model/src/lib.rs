//! podcheck's model of the Kubernetes pod lifecycle, as a Stateright [`stateright::Model`].
//!
//! Two layers are kept apart: the API objects ([`state::Api`]) and the runtime truth on each
//! node and in the data plane ([`state::Node`], [`state::Proxy`]). Each Kubernetes component is
//! a module that reads and writes only what the real one watches; [`cluster`] composes them.
//! The upstream decision logic lives in [`k8s`] as pure functions, tested against the rows of
//! Kubernetes' own unit tests, and the components call those same functions.

pub mod apiserver;
pub mod catalogue;
pub mod cluster;
pub mod controllers;
pub mod events;
pub mod explore_view;
pub mod facts;
pub mod faults;
pub mod k8s;
pub mod kubelet;
pub mod nodes;
pub mod proxy;
pub mod render;
pub mod scheduler;
pub mod spec;
pub mod state;
pub mod time;

pub use cluster::{Action, Actor, Cluster, PropertyFn};
pub use spec::{Scenario, Verdict};
pub use state::State;
