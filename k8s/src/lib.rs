//! Pure "upstream Kubernetes logic": functions ported from kubernetes/kubernetes and checked
//! against rows of its own unit tests. Each function names the upstream file and function it
//! ports; `docs/sources.md` describes the behaviour. The model calls these functions; it does
//! not re-derive the rules.

pub mod backoff;
pub mod conditions;
pub mod convert;
pub mod delete;
pub mod deployment;
pub mod endpoints;
pub mod images;
pub mod jobs;
pub mod nodelifecycle;
pub mod phase;
pub mod printer;
pub mod restart;
pub mod scheduling;
pub mod types;

pub use backoff::*;
pub use conditions::*;
pub use convert::*;
pub use delete::*;
pub use endpoints::*;
pub use images::*;
pub use jobs::*;
pub use nodelifecycle::*;
pub use phase::*;
pub use printer::*;
pub use restart::*;
pub use scheduling::*;
pub use types::*;
