//! podcheck's model of the Kubernetes pod lifecycle, as a Stateright [`stateright::Model`].
//!
//! Two layers are kept apart: the API objects ([`state::Api`]) and the runtime truth on each
//! node and in the data plane ([`state::Node`], [`state::Proxy`]). Each Kubernetes component is
//! a module that reads and writes only what the real one watches; [`cluster`] composes them.
//! The upstream decision logic lives in [`k8s`] as pure functions, tested against the rows of
//! Kubernetes' own unit tests, and the components call those same functions.
//!
//! Modules import in one direction, from the bottom up:
//!
//! 1. below the model, its own crates: the scenario (`podcheck-input`: schema, validation,
//!    the built-in catalogue, users' manifests, the fault plans) and [`k8s`] (`podcheck-k8s`:
//!    upstream logic, pure);
//! 2. the state: [`state`], with [`events`] (the event kinds a pod records);
//! 3. below the components: [`context`] (per-scenario constants), [`apiserver`] (the object
//!    store's write semantics), [`derived`] (facts several components read), [`runtime`] (the
//!    container runtime and the programs), [`kubectl`] (what `kubectl get pods` computes);
//! 4. the components, none of which imports another: [`kubelet`], [`controllers`],
//!    [`scheduler`], [`proxy`] (kube-proxy and clients), [`faults`], [`drain`] (`kubectl
//!    drain`), [`time`] (the clock);
//! 5. [`cluster`]: their composition into one Stateright model; [`symmetry`]: which nodes
//!    are interchangeable, and a representative of a state up to swapping them.
//!
//! Nothing here renders: wording, traces and pictures live in `podcheck-traces`.

pub mod apiserver;
pub mod cluster;
pub mod context;
pub mod controllers;
pub mod derived;
pub mod drain;
pub mod faults;
pub mod footprint;
pub mod kubectl;
pub mod kubelet;
pub mod proxy;
pub mod runtime;
pub mod scheduler;
pub mod state;
pub mod symmetry;
pub mod time;

/// The upstream decision logic, in its own crate; `crate::k8s::…` names it here.
pub use podcheck_k8s as k8s;

pub use cluster::{Action, Actor, Cluster, PropertyFn, Unsettled};
pub use context::Context;
pub use podcheck_input::spec::{Scenario, Verdict};
pub use state::events;
pub use state::State;
