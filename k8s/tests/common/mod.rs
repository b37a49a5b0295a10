//! Helpers shared by the conformance tests of `podcheck_k8s`, one test file per module of
//! `k8s/src/`. The rows of those tests are cases of Kubernetes' own unit tests; each table
//! names its upstream file and test function ([`Upstream`]) and each row its case.

// Each test file uses a part of these helpers.
#![allow(dead_code)]

use podcheck_k8s::*;
use proptest::prelude::*;

/// Where a table of rows comes from: an upstream Kubernetes file and its test function (or,
/// for a table derived from source rather than from a test, the function it reads).
#[derive(Clone, Copy, Debug)]
pub struct Upstream {
    pub file: &'static str,
    pub test: &'static str,
}

impl Upstream {
    /// `file test "case"`, the label a failing row reports.
    pub fn case(&self, name: &str) -> String {
        format!("{} {} {name:?}", self.file, self.test)
    }
}

pub fn terminated(exit_code: i32) -> Terminated {
    Terminated {
        exit_code,
        ..Terminated::default()
    }
}

/// One container status written the short way, after the state helpers of upstream
/// `pkg/kubelet/kubelet_pods_test.go`:
///
/// | token | upstream helper | state |
/// |---|---|---|
/// | `—` | (none) | no status entry for the container |
/// | `R` | `runningState` | Running, `Started` unset |
/// | `Rs` | `startedState` | Running, `Started = true` |
/// | `T<n>` | `succeededState` / `stoppedState` (0), `failedState` (-1), `failedStateWithExitCode(n)` | Terminated with exit code n |
/// | `W` | `waitingState` | Waiting with no reason, no last termination |
/// | `W+L<n>` | `waitingStateWithLastTermination` (0), `waitingStateWithNonZeroTermination` (-1) | Waiting, last termination exit n |
/// | `W+RAC` | `waitingStateWithRestartingAllContainers` | Waiting{RestartingAllContainers}, last termination {RestartingAllContainers, 137} |
pub fn status(name: &str, tok: &str) -> Option<ContainerStatus> {
    let mut s = ContainerStatus {
        name: name.to_string(),
        ..ContainerStatus::default()
    };
    match tok {
        "—" | "-" => return None,
        "R" => s.state = ContainerState::Running,
        "Rs" => {
            s.state = ContainerState::Running;
            s.started = Some(true);
        }
        "W" => {
            s.state = ContainerState::Waiting {
                reason: String::new(),
            }
        }
        "W+RAC" => {
            s.state = ContainerState::Waiting {
                reason: "RestartingAllContainers".to_string(),
            };
            s.last_state = Some(Terminated {
                exit_code: 137,
                reason: "RestartingAllContainers".to_string(),
                ..Terminated::default()
            });
        }
        t if t.starts_with("W+L") => {
            s.state = ContainerState::Waiting {
                reason: String::new(),
            };
            s.last_state = Some(terminated(t[3..].parse().expect("exit code")));
        }
        t if t.starts_with('T') => {
            s.state = ContainerState::Terminated(terminated(t[1..].parse().expect("exit code")));
        }
        other => panic!("unknown token {other:?}"),
    }
    Some(s)
}

pub fn statuses(named: &[(&str, &str)]) -> Vec<ContainerStatus> {
    named.iter().filter_map(|(n, t)| status(n, t)).collect()
}

pub fn spec(name: &str, rp: Option<RestartPolicy>) -> ContainerSpecView {
    ContainerSpecView {
        restart_policy: rp,
        ..ContainerSpecView::new(name)
    }
}

pub fn sidecar(name: &str) -> ContainerSpecView {
    spec(name, Some(RestartPolicy::Always))
}

pub const OFF: Gates = Gates {
    container_restart_rules: false,
    restart_all_containers_on_container_exits: false,
};
pub const RULES: Gates = Gates {
    container_restart_rules: true,
    restart_all_containers_on_container_exits: false,
};
/// The gates TestPodPhaseWithRestartAllContainers turns on: ContainerRestartRules and
/// RestartAllContainersOnContainerExits (the third, NodeDeclaredFeatures, changes nothing
/// `get_phase` reads).
pub const RAC: Gates = Gates {
    container_restart_rules: true,
    restart_all_containers_on_container_exits: true,
};

pub fn c(type_: &str, status: ConditionStatus, reason: &str) -> Condition {
    Condition {
        type_: type_.to_string(),
        status,
        reason: reason.to_string(),
    }
}

pub fn ready(mut s: ContainerStatus) -> ContainerStatus {
    s.ready = true;
    s
}

pub fn rp_strategy() -> impl Strategy<Value = RestartPolicy> {
    prop_oneof![
        Just(RestartPolicy::Always),
        Just(RestartPolicy::OnFailure),
        Just(RestartPolicy::Never)
    ]
}
