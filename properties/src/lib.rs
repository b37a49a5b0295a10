//! podcheck's property catalogue ([`catalogue`]) and the checking that judges it ([`check`]).

pub mod catalogue;
pub mod check;
pub mod liveness;

pub use catalogue::{Kind, PropertyDef};
pub use check::{check, CheckOptions, PropertyResult, ScenarioResult};
