//! podcheck's property catalogue ([`catalogue`]) and the checking that judges it ([`check`]):
//! one exploration of a scenario's state graph ([`explore`]) decides every property, with
//! liveness under weak fairness ([`liveness`]) and Stateright as the independent
//! cross-check ([`cross_check`]). A long check reports its progress and stops early, without
//! losing what it decided, at Ctrl-C or a memory bound ([`progress`]); random-walk (swarm)
//! checking spreads runs over many machines ([`simulate`]).

pub mod catalogue;
pub mod check;
pub mod cross_check;
pub mod drawing;
pub mod explore;
pub mod findings;
pub mod liveness;
pub mod progress;
pub mod result;
pub mod simulate;
pub mod timing;
pub mod vacuity;

pub use catalogue::{ActionFn, Kind, Premise, PropertyDef, StateFn, StepFn, Steps};
pub use check::{check, check_with, CheckOptions, EarlierRun, ScenarioResult};
pub use explore::{replay, Run};
pub use result::{LassoPath, PropertyResult, Timing, WorstTime};
