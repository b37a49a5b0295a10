//! The property catalogue: each property with its English sentence, its source, and what
//! judges it ([`Kind`]). Safety properties (`always`, `step`) are checked in every scenario;
//! witnesses (`sometimes`) and liveness properties (`leads_to`) where a scenario lists them.

use podcheck_input::spec::{Fault, Workload};
use podcheck_model::k8s::{ContainerState, Phase};
use podcheck_model::state::*;
use podcheck_model::{controllers, derived, drain, kubectl as render, kubelet, proxy};
use podcheck_model::{Action, Cluster};
use serde::Serialize;

/// A condition on one state. Plain `fn`s: parameters are read through the model.
pub type StateFn = fn(&Cluster, &State) -> bool;

/// A condition on one transition: the state, the action taken in it, and the next state.
pub type StepFn = fn(&Cluster, &State, &Action, &State) -> bool;

/// A number of seconds read from the scenario (a deadline built from its settings and the
/// upstream defaults).
pub type SecondsFn = fn(&Cluster) -> u64;

/// What a property says, with the conditions that judge it.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Safety: the condition holds in every reachable state. A counterexample is a shortest
    /// run to a state where it does not.
    Always(StateFn),
    /// A witness: the condition holds in some reachable state, reached by a shortest run.
    Sometimes(StateFn),
    /// `P ~> Q` under weak fairness: from every reachable state where `p` holds, every fair
    /// run reaches a state where `q` holds (see [`crate::liveness`]). A counterexample is a
    /// lasso.
    LeadsTo { p: StateFn, q: StateFn },
    /// Safety over transitions: the condition holds on every transition (state, action, next
    /// state) of every reachable state. A counterexample is a shortest run whose last step
    /// breaks it. The search asks the condition only about the transitions `on` keeps.
    Step { condition: StepFn, on: Steps },
    /// `P ~> Q within T s` under weak fairness: from every reachable state where `p` holds,
    /// every fair run reaches a state where `q` holds before more than `seconds` of model
    /// time have passed (see [`crate::timing`]). A counterexample is a run from a `P` state
    /// along which the deadline passes without `Q`, or a lasso that never reaches `Q`.
    Within {
        p: StateFn,
        q: StateFn,
        seconds: SecondsFn,
    },
}

/// A condition on an action alone.
pub type ActionFn = fn(&Action) -> bool;

/// The transitions a `step` property judges.
#[derive(Clone, Copy, Debug)]
pub enum Steps {
    /// Every transition.
    Every,
    /// Only the transitions whose action this keeps: on every other transition the condition
    /// holds whatever the states, so the search does not ask it there. A filter that leaves
    /// out a transition the condition could fail on hides a violation;
    /// `properties/tests/judged_steps.rs` checks the catalogue's filters on the states of
    /// every built-in scenario.
    Only(ActionFn),
}

impl Steps {
    /// Whether a transition by this action is judged.
    pub fn judges(self, a: &Action) -> bool {
        match self {
            Steps::Every => true,
            Steps::Only(on) => on(a),
        }
    }
}

impl Kind {
    /// The kind's name in reports: `always`, `sometimes`, `leads_to`, `step`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Always(_) => "always",
            Kind::Sometimes(_) => "sometimes",
            Kind::LeadsTo { .. } => "leads_to",
            Kind::Step { .. } => "step",
            Kind::Within { .. } => "within",
        }
    }

    /// A witness kind: `holds` comes with a trace, `violated` without.
    pub fn is_witness(self) -> bool {
        matches!(self, Kind::Sometimes(_))
    }

    /// Checked in every scenario, whether the scenario lists it or not.
    pub fn is_safety(self) -> bool {
        matches!(self, Kind::Always(_) | Kind::Step { .. })
    }

    pub fn is_always(self) -> bool {
        matches!(self, Kind::Always(_))
    }

    pub fn is_sometimes(self) -> bool {
        matches!(self, Kind::Sometimes(_))
    }

    pub fn is_leads_to(self) -> bool {
        matches!(self, Kind::LeadsTo { .. })
    }

    pub fn is_step(self) -> bool {
        matches!(self, Kind::Step { .. })
    }

    pub fn is_within(self) -> bool {
        matches!(self, Kind::Within { .. })
    }

    /// `P` and `Q` of a `leads_to` or `within` property.
    pub fn premise_and_goal(self) -> Option<(StateFn, StateFn)> {
        match self {
            Kind::LeadsTo { p, q } | Kind::Within { p, q, .. } => Some((p, q)),
            _ => None,
        }
    }
}

impl std::fmt::Debug for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One property: the catalogue's, or one of your own (see [`crate::check_with`]).
#[derive(Clone, Copy)]
pub struct PropertyDef {
    pub name: &'static str,
    /// What it says, with its conditions.
    pub kind: Kind,
    /// What it says, in English.
    pub sentence: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// Which layer it is about.
    pub layer: &'static str,
    /// For a safety property: the situation it is about. A complete run in which no reachable
    /// state has it judged nothing, and says so ([`crate::vacuity`]). It must hold wherever the
    /// property can be broken (in the state, or for a `step`, in the state before or after the
    /// step), or a run could break the property without ever having it;
    /// `properties/tests/premises.rs` checks the catalogue's on data. `None`: not judged for
    /// vacuity.
    pub premise: Option<Premise>,
}

/// The situation a safety property is about: a condition, and its sentence.
#[derive(Clone, Copy)]
pub struct Premise {
    /// The situation, read from the state: from the history variables the property reads too
    /// where the situation itself has passed by the time the property can break (a Job's
    /// failed runs, once its pods are gone).
    pub condition: StateFn,
    /// What it says, as "no reachable state has …" ends: "a pod of a Job".
    pub sentence: &'static str,
}

impl std::fmt::Debug for PropertyDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PropertyDef")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish()
    }
}

/// Every property podcheck knows, safety properties first.
pub fn all() -> Vec<PropertyDef> {
    vec![
        PropertyDef {
            name: "terminal_phase_is_final",
            kind: Kind::Step {
                condition: terminal_phase_is_final,
                on: Steps::Only(may_change_a_phase),
            },
            sentence: "A pod whose phase became Succeeded or Failed never gets another phase.",
            source: "kubelet_pods.go generateAPIPodStatus: a terminal phase is never left; docs/sources.md#kubelet-status-merge",
            layer: "api",
            premise: Some(Premise {
                condition: some_pod_terminal,
                sentence: "a pod that is Succeeded or Failed",
            }),
        },
        PropertyDef {
            name: "terminal_only_when_stopped",
            kind: Kind::Always(terminal_only_when_stopped),
            sentence: "No pod is Succeeded or Failed in the API while a container of it still runs on its node.",
            source: "status_manager.go mergePodStatus: the kubelet writes a terminal phase only once the pod worker can have no running container (podWorkers.CouldHaveRunningContainers); docs/sources.md#kubelet-terminal-phase-only-after-the-containers-stop",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: some_pod_terminal,
                sentence: "a pod that is Succeeded or Failed",
            }),
        },
        PropertyDef {
            name: "pending_until_first_start",
            kind: Kind::Always(pending_until_first_start),
            sentence: "A pod is Pending until one of its containers has started: it is never Running or Succeeded before.",
            source: "kubelet_pods.go getPhase: Pending until a container has run; docs/sources.md#kubelet-pod-phase",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "ready_implies_containers_ready",
            kind: Kind::Always(ready_implies_containers_ready),
            sentence: "A pod with Ready=True has ContainersReady=True and every container ready.",
            source: "status/generate.go GeneratePodReadyCondition, GenerateContainersReadyCondition; docs/sources.md#kubelet-pod-conditions",
            layer: "api",
            premise: Some(Premise {
                condition: some_pod_ready,
                sentence: "a Ready pod",
            }),
        },
        PropertyDef {
            name: "no_start_after_deletion",
            kind: Kind::Step {
                condition: no_start_after_deletion,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Sync { .. }))),
            },
            sentence: "No container of a pod is started or restarted by a kubelet that has seen the pod's deletionTimestamp (a partitioned kubelet cannot see it).",
            source: "container/helpers.go ShouldContainerBeRestarted: false once the pod is being deleted; docs/sources.md#kubelet-restart-decision",
            layer: "runtime",
            premise: Some(Premise {
                condition: some_pod_deleted,
                sentence: "a pod being deleted",
            }),
        },
        PropertyDef {
            name: "backoff_bounded",
            kind: Kind::Always(backoff_bounded),
            sentence: "No crash or image-pull back-off delay ever exceeds 300 s.",
            source: "kubelet.go MaxContainerBackOff, MaxImageBackOff (300 s); docs/sources.md#kubelet-crash-back-off",
            layer: "runtime",
            premise: Some(Premise {
                condition: container_in_back_off,
                sentence: "a container in a crash or image-pull back-off",
            }),
        },
        PropertyDef {
            name: "endpoint_ready_implies_serving_not_terminating",
            kind: Kind::Always(endpoint_ready_implies_serving_not_terminating),
            sentence: "An EndpointSlice endpoint with ready=true is serving and not terminating (without publishNotReadyAddresses).",
            source: "endpointslice podToEndpoint: ready = serving and not terminating; docs/sources.md#endpointslice-conditions",
            layer: "api",
            premise: Some(Premise {
                condition: some_endpoint,
                sentence: "a pod listed in the EndpointSlice",
            }),
        },
        PropertyDef {
            name: "no_terminal_or_ipless_endpoints",
            kind: Kind::Always(no_terminal_or_ipless_endpoints),
            sentence: "Once the EndpointSlice controller has synced, the slice lists no pod that is Succeeded or Failed, has no IP, or no longer exists.",
            source: "endpointslice ShouldPodBeInEndpoints: no terminal or IP-less pods; docs/sources.md#endpointslice-conditions",
            layer: "api",
            premise: Some(Premise {
                condition: some_endpoint,
                sentence: "a pod listed in the EndpointSlice",
            }),
        },
        PropertyDef {
            name: "no_request_to_stopped_container",
            kind: Kind::Step {
                condition: no_request_to_stopped_container,
                on: Steps::Only(|a| matches!(a, Action::Client(_))),
            },
            sentence: "No client request is routed by a kube-proxy to a pod whose container has stopped.",
            source: "a request refused by a stopped pod that a lagging kube-proxy still routes to (kubernetes#43576); docs/sources.md#kube-proxy-routing-lags-the-endpointslice",
            layer: "data plane + runtime",
            premise: Some(Premise {
                condition: request_to_a_route,
                sentence: "a kube-proxy that routes to a pod and clients that send it requests",
            }),
        },
        PropertyDef {
            name: "no_restart_while_healthy",
            kind: Kind::Step {
                condition: no_restart_while_healthy,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Probe { .. }))),
            },
            sentence: "The kubelet's liveness and startup probes never kill a container whose program is healthy (booting or serving, not deadlocked).",
            source: "kuberuntime_manager.go computePodActions kills on liveness and startup failure only; docs/sources.md#kubelet-probe-failure-kills-the-container",
            layer: "runtime",
            premise: Some(Premise {
                condition: probed_container_runs,
                sentence: "a running container with a liveness or startup probe",
            }),
        },
        PropertyDef {
            name: "graceful_stop_within_grace",
            kind: Kind::Step {
                condition: graceful_stop_within_grace,
                on: Steps::Only(|a| matches!(a, Action::Tick(_))),
            },
            sentence: "Every container stopped because its pod was deleted exits within the grace period after SIGTERM, without SIGKILL.",
            source: "kuberuntime_container.go killContainer: SIGTERM, SIGKILL when the grace period ends; docs/sources.md#kubelet-termination-and-grace-period",
            layer: "runtime",
            premise: Some(Premise {
                condition: pod_deleted_or_stopping_for_deletion,
                sentence: "a pod being deleted",
            }),
        },
        PropertyDef {
            name: "job_fails_only_after_backoff_limit_plus_one_failures",
            kind: Kind::Always(job_fails_only_after_limit_plus_one),
            sentence: "A Job fails with BackoffLimitExceeded only after more than backoffLimit of its container runs have failed.",
            source: "job_controller.go exceedsBackoffLimit (failed > backoffLimit), pastBackoffLimitOnFailure; docs/sources.md#job-backofflimit",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: job_pod_or_failed_run,
                sentence: "a pod of a Job",
            }),
        },
        PropertyDef {
            name: "statefulset_at_most_one",
            kind: Kind::Always(statefulset_at_most_one),
            sentence: "At no time do two nodes run containers of the same StatefulSet identity (the same pod name).",
            source: "StatefulSet at-most-one identity: stateful_set_control.go processReplica, PR #35235; docs 'Force Delete StatefulSet Pods'; docs/sources.md#statefulset-one-pod-per-identity",
            layer: "runtime",
            premise: Some(Premise {
                condition: statefulset_pod_runs,
                sentence: "a running container of a StatefulSet pod",
            }),
        },
        PropertyDef {
            name: "deployment_at_most_replicas_running",
            kind: Kind::Always(deployment_at_most_replicas_running),
            sentence: "At no time do more pods of a Deployment have running containers than its replicas (after a kubectl scale, the larger of the two counts).",
            source: "controller_utils.go IsPodActive: terminating pods are not counted (kubernetes#95498); docs/sources.md#replicaset-active-pods",
            layer: "runtime",
            premise: Some(Premise {
                condition: deployment_pod_runs,
                sentence: "a running container of a Deployment pod",
            }),
        },
        PropertyDef {
            name: "unreachable_pods_leave_endpoints",
            kind: Kind::Always(unreachable_pods_leave_endpoints),
            sentence: "Once the EndpointSlice controller has synced, no pod is listed ready on a node that is marked Unknown and still cannot reach the API server.",
            source: "node_lifecycle_controller.go MarkPodsNotReady, then endpointslice podToEndpoint; docs/sources.md#node-lifecycle-pods-not-ready-and-unreachable-taints",
            layer: "api",
            premise: Some(Premise {
                condition: some_node_unknown,
                sentence: "a node marked Unknown",
            }),
        },
        PropertyDef {
            name: "terminating_until_kubelet_confirms",
            kind: Kind::Step {
                condition: terminating_until_kubelet_confirms,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::RemoveObject { .. }))),
            },
            sentence: "The object of a gracefully deleted pod on an unreachable node is never removed except by a force delete or PodGC.",
            source: "status_manager.go canBeDeleted: only the kubelet finishes a graceful delete; docs/sources.md#pods-stay-terminating-on-a-lost-node",
            layer: "api",
            premise: Some(Premise {
                condition: deleted_on_unknown_or_cut_off_node,
                sentence: "a pod being deleted on a node marked Unknown",
            }),
        },
        PropertyDef {
            name: "no_eviction_in_full_disruption",
            kind: Kind::Step {
                condition: no_eviction_in_full_disruption,
                on: Steps::Only(|a| matches!(a, Action::Controller(controllers::Action::TaintEviction { .. }))),
            },
            sentence: "Taint eviction deletes no pod while every node is not Ready (master disruption mode).",
            source: "node_lifecycle_controller.go master disruption mode; taint_eviction.go; docs/sources.md#node-lifecycle-full-disruption",
            layer: "api",
            premise: Some(Premise {
                condition: all_nodes_not_ready,
                sentence: "every node not Ready at once",
            }),
        },
        PropertyDef {
            name: "eviction_respects_qos_order",
            kind: Kind::Step {
                condition: eviction_respects_qos_order,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Evict { .. }))),
            },
            sentence: "Node-pressure eviction never evicts a pod while a pod of a lower QoS class (BestEffort < Burstable < Guaranteed) still runs on the node.",
            source: "the QoS order is a common belief; eviction/helpers.go ranks by usage over request, then priority (kubernetes#78561); docs/sources.md#kubelet-node-pressure-eviction",
            layer: "runtime",
            premise: Some(Premise {
                condition: node_under_memory_pressure,
                sentence: "a node under memory pressure",
            }),
        },
        PropertyDef {
            name: "stuck_pod_has_event",
            kind: Kind::Always(stuck_pod_has_event),
            sentence: "A pod that stays stuck longer than a minute (ContainerCreating, or deleted with nothing left running, on a kubelet that reaches the API server) has an event naming the failing step.",
            source: "every failing kubelet step records its diagnostic; docs 'Debug Pods'; docs/sources.md#kubelet-volumes-sandbox-and-containers",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: pod_stuck_over_a_minute,
                sentence: "a pod stuck for longer than a minute",
            }),
        },
        PropertyDef {
            name: "no_ip_no_endpoint",
            kind: Kind::Always(no_ip_no_endpoint),
            sentence: "A pod without an IP is never listed in the EndpointSlice.",
            source: "endpointslice ShouldPodBeInEndpoints: a pod without an IP is not listed; docs/sources.md#endpointslice-conditions",
            layer: "api",
            premise: Some(Premise {
                condition: some_endpoint,
                sentence: "a pod listed in the EndpointSlice",
            }),
        },
        PropertyDef {
            name: "not_running_before_poststart",
            kind: Kind::Step {
                condition: not_running_before_poststart,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::StatusUpdate { .. }))),
            },
            sentence: "The kubelet never writes a status that shows a container Running while its postStart hook is still running.",
            source: "Kubernetes docs, Container Lifecycle Hooks (the container cannot reach a running state until the hook completes); kuberuntime_container.go startContainer; docs/sources.md#kubelet-poststart-hook",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: post_start_hook_runs,
                sentence: "a container whose postStart hook runs",
            }),
        },
        PropertyDef {
            name: "static_pod_survives_mirror_delete",
            kind: Kind::Always(static_pod_survives_mirror_delete),
            sentence: "The kubelet never terminates a static pod whose manifest is on the node, whatever happens to its mirror pod.",
            source: "kubelet.go tryReconcileMirrorPods, HandlePodRemoves; docs 'Create static Pods'; docs/sources.md#kubelet-static-and-mirror-pods",
            layer: "runtime",
            premise: Some(Premise {
                condition: static_pod_runs,
                sentence: "a static pod on a node",
            }),
        },
        PropertyDef {
            name: "force_delete_cleans_runtime",
            kind: Kind::Always(force_delete_cleans_runtime),
            sentence: "Once a pod's object is gone from the API, no container of that pod still runs on any node.",
            source: "strategy.go CheckGracefulDelete: a force delete does not wait for the kubelet; docs 'Force Delete StatefulSet Pods'; docs/sources.md#api-server-force-delete",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: record_of_a_gone_pod,
                sentence: "a runtime record of a pod whose object is gone",
            }),
        },
        PropertyDef {
            name: "pod_becomes_ready",
            kind: Kind::Sometimes(pod_becomes_ready),
            sentence: "Some pod becomes Ready.",
            source: "status/generate.go GeneratePodReadyCondition; docs/sources.md#kubelet-pod-conditions",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "endpoint_becomes_ready",
            kind: Kind::Sometimes(endpoint_becomes_ready),
            sentence: "Some pod is listed ready in the EndpointSlice and, unless the Service is headless, every kube-proxy routes to it.",
            source: "endpointslice podToEndpoint, then kube-proxy; docs/sources.md#endpointslice-conditions",
            layer: "api + data plane",
            premise: None,
        },
        PropertyDef {
            name: "pod_unschedulable",
            kind: Kind::Sometimes(pod_unschedulable),
            sentence: "Some pod waits with PodScheduled=False, reason Unschedulable.",
            source: "noderesources/fit.go fitsRequest: PodScheduled=False, Unschedulable; docs/sources.md#scheduler-resource-fit-and-scoring",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_image_pull_backoff",
            kind: Kind::Sometimes(status_image_pull_backoff),
            sentence: "kubectl shows some pod as ImagePullBackOff.",
            source: "images/image_manager.go EnsureImageExists; docs/sources.md#kubelet-image-pull-back-off",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_crash_loop_while_running",
            kind: Kind::Sometimes(status_crash_loop_while_running),
            sentence: "kubectl shows some pod as CrashLoopBackOff while its phase is Running.",
            source: "kuberuntime_manager.go doBackOff; printers.go printPod; docs/sources.md#kubelet-crash-back-off",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_oom_killed",
            kind: Kind::Sometimes(status_oom_killed),
            sentence: "Some container status shows a termination with reason OOMKilled and exit code 137.",
            source: "kubelet_pods.go convertToAPIContainerStatuses: Terminated, OOMKilled, 137; docs/sources.md#kubelet-container-statuses",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "endpoint_not_ready_while_running",
            kind: Kind::Sometimes(endpoint_not_ready_while_running),
            sentence: "After a fault of the scenario has begun, some pod is listed not ready in the EndpointSlice while its container runs.",
            source: "prober/worker.go doProbe; endpointslice podToEndpoint; docs/sources.md#kubelet-probe-worker",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "ready_again_after_outage",
            kind: Kind::Sometimes(ready_again_after_outage),
            sentence: "After a dependency outage has ended, some pod is Ready again.",
            source: "prober/worker.go doProbe: readiness passes again; docs/sources.md#kubelet-probe-worker",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "container_restarted",
            kind: Kind::Sometimes(container_restarted),
            sentence: "Some container has a restartCount of at least 1.",
            source: "kuberuntime_manager.go computePodActions: restart after an exit or a liveness kill; docs/sources.md#kubelet-probe-failure-kills-the-container",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "deleted_pod_ends_succeeded",
            kind: Kind::Sometimes(deleted_pod_ends_succeeded),
            sentence: "Some deleted pod reaches phase Succeeded before its object is removed.",
            source: "since 1.27 (PR #115331) a deleted pod whose containers exit 0 ends Succeeded; docs/sources.md#kubelet-terminal-phase-of-a-deleted-pod",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "deleted_pod_ends_failed",
            kind: Kind::Sometimes(deleted_pod_ends_failed),
            sentence: "Some deleted pod reaches phase Failed before its object is removed.",
            source: "since 1.27 (PR #115331) a deleted pod with a non-zero exit ends Failed; docs/sources.md#kubelet-terminal-phase-of-a-deleted-pod",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "job_failed",
            kind: Kind::Sometimes(job_failed),
            sentence: "Some Job is Failed with reason BackoffLimitExceeded.",
            source: "job_controller.go: reason BackoffLimitExceeded; docs/sources.md#job-backofflimit",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "job_completes",
            kind: Kind::Sometimes(job_completes),
            sentence: "Some Job is Complete.",
            source: "job_controller.go: succeeded pods reach completions and none is active; docs/sources.md#job-backofflimit",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "node_ready_unknown",
            kind: Kind::Sometimes(node_ready_unknown),
            sentence: "Some node's Ready condition becomes Unknown.",
            source: "node_lifecycle_controller.go tryUpdateNodeHealth; docs/sources.md#node-lifecycle-unknown-after-the-grace-period",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "all_nodes_unknown",
            kind: Kind::Sometimes(all_nodes_unknown),
            sentence: "Every node's Ready condition is Unknown at once.",
            source: "node_lifecycle_controller.go tryUpdateNodeHealth, zone states; docs/sources.md#node-lifecycle-full-disruption",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "pod_terminating_on_unreachable_node",
            kind: Kind::Sometimes(pod_terminating_on_unreachable_node),
            sentence: "kubectl shows a pod Terminating on a node that cannot reach the API server, while its containers still run.",
            source: "printers.go printPod shows Terminating; only the kubelet finishes the delete (kubernetes#72226); docs/sources.md#pods-stay-terminating-on-a-lost-node",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "pod_evicted",
            kind: Kind::Sometimes(pod_evicted),
            sentence: "Some pod has status reason Evicted.",
            source: "pkg/kubelet/eviction eviction_manager.go: phase Failed, reason Evicted; docs/sources.md#kubelet-node-pressure-eviction",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "stuck_container_creating",
            kind: Kind::Sometimes(stuck_container_creating),
            sentence: "Some pod shows ContainerCreating for longer than a minute.",
            source: "a pod stuck in ContainerCreating; docs 'Debug Pods'; docs/sources.md#kubelet-volumes-sandbox-and-containers",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "stuck_terminating",
            kind: Kind::Sometimes(stuck_terminating),
            sentence: "Some deleted pod's object stays in the API for longer than a minute after its containers stopped.",
            source: "a pod stuck in Terminating; kubelet.go SyncTerminatingPod, SyncTerminatedPod; docs/sources.md#kubelet-volumes-sandbox-and-containers",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "status_create_container_config_error",
            kind: Kind::Sometimes(status_create_container_config_error),
            sentence: "kubectl shows some pod as CreateContainerConfigError.",
            source: "kuberuntime_container.go startContainer, ErrCreateContainerConfig; docs/sources.md#kubelet-volumes-sandbox-and-containers",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_create_container_error",
            kind: Kind::Sometimes(status_create_container_error),
            sentence: "kubectl shows some pod as CreateContainerError.",
            source: "kuberuntime_container.go startContainer, ErrCreateContainer; docs/sources.md#kubelet-volumes-sandbox-and-containers",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "poststart_hook_failed",
            kind: Kind::Sometimes(poststart_hook_failed),
            sentence: "Some pod records FailedPostStartHook and its container waits (PostStartHookError or CrashLoopBackOff) to be started again.",
            source: "kuberuntime_container.go startContainer (FailedPostStartHook, killContainer, ErrPostStartHook); docs/sources.md#kubelet-poststart-hook",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_outofcpu",
            kind: Kind::Sometimes(status_outofcpu),
            sentence: "kubectl shows some pod as OutOfcpu while its phase is Failed.",
            source: "lifecycle/predicate.go Admit, kubelet.go rejectPod; printers.go printPod; docs/sources.md#kubelet-admission",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "leftovers_after_force_delete",
            kind: Kind::Sometimes(leftovers_after_force_delete),
            sentence: "Some pod's object is gone while its node still holds its sandbox or volumes, with nothing running.",
            source: "a force delete leaves the node's leftovers; kubelet_volumes.go cleanupOrphanedPodDirs; docs/sources.md#api-server-force-delete",
            layer: "runtime",
            premise: None,
        },
        PropertyDef {
            name: "mirror_pod_recreated",
            kind: Kind::Sometimes(mirror_pod_recreated),
            sentence: "A deleted mirror pod is back in the API while its static pod runs.",
            source: "kubelet.go tryReconcileMirrorPods; docs/sources.md#kubelet-static-and-mirror-pods",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "ready_leads_to_endpoint",
            kind: Kind::LeadsTo {
                p: some_ready_pod_unrouted,
                q: no_ready_pod_unrouted,
            },
            sentence: "A pod that is Ready is eventually listed ready in the EndpointSlice and, unless the Service is headless, routed to by every kube-proxy (or stops being Ready).",
            source: "endpointslice podToEndpoint; docs/sources.md#endpointslice-conditions",
            layer: "api + data plane",
            premise: None,
        },
        PropertyDef {
            name: "deleted_leads_to_gone",
            kind: Kind::LeadsTo {
                p: some_pod_deleting,
                q: no_pod_deleting,
            },
            sentence: "Every pod with a deletionTimestamp is eventually removed from the API.",
            source: "status_manager.go canBeDeleted; docs/sources.md#pods-stay-terminating-on-a-lost-node",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "scheduled_leads_to_running",
            kind: Kind::LeadsTo {
                p: some_bound_pod_not_started,
                q: no_bound_pod_not_started,
            },
            sentence: "A pod bound to a node whose images can be pulled eventually has a container started (or is deleted).",
            source: "the kubelet starts what is bound to it: kuberuntime_manager.go computePodActions, SyncPod; docs/sources.md#kubelet-pod-actions",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "replicas_converge",
            kind: Kind::LeadsTo {
                p: replicas_short,
                q: replicas_all_ready,
            },
            sentence: "Whenever a Deployment has fewer active pods than replicas, it eventually has them all Running and Ready (once faults stop).",
            source: "controller_utils.go IsPodActive, replica_set.go manageReplicas; docs/sources.md#replicaset-active-pods",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "surplus_replicas_removed",
            kind: Kind::LeadsTo {
                p: replicas_surplus,
                q: replicas_exact_and_ready,
            },
            sentence: "Whenever a Deployment has more active pods than replicas (after a kubectl scale down), it eventually has exactly its replicas, all Running and Ready (once faults stop).",
            source: "replica_set.go manageReplicas, getPodsToDelete; docs/sources.md#replicaset-scale-down-order",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "recovered_dependency_leads_to_ready",
            kind: Kind::LeadsTo {
                p: outage_over_pod_unready,
                q: all_pods_ready,
            },
            sentence: "After a dependency outage has ended, every pod eventually is Ready again.",
            source: "prober/worker.go doProbe, after the crash back-off; docs/sources.md#kubelet-crash-back-off",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_error_failed_pod",
            kind: Kind::Sometimes(status_error_failed_pod),
            sentence: "kubectl shows some pod as Error while its phase is Failed.",
            source: "kubelet_pods.go getPhase (Failed); printers.go printPod (Error); docs/sources.md#kubectl-status-column",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "cut_off_node_unknown_within_grace",
            kind: Kind::Within {
                p: node_cut_off_unmarked,
                q: no_node_cut_off_unmarked,
                seconds: grace_plus_monitor_period,
            },
            sentence: "A node cut off from the API server is marked Unknown within node-monitor-grace-period plus one node monitor period (5 s) of the cut.",
            source: "node_lifecycle_controller.go tryUpdateNodeHealth (Unknown once now > probeTimestamp + grace), run every --node-monitor-period (5 s); docs/sources.md#node-lifecycle-unknown-after-the-grace-period",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "cut_off_pod_unrouted_within",
            kind: Kind::Within {
                p: pod_on_cut_off_node_routed,
                q: no_pod_on_cut_off_node_routed,
                seconds: grace_monitor_and_proxy_lag,
            },
            sentence: "Within node-monitor-grace-period plus one monitor period (5 s) plus the proxy lag of a node being cut off, no kube-proxy on a reachable node routes to a pod on it.",
            source: "node_lifecycle_controller.go MarkPodsNotReady, endpointslice podToEndpoint (ready=false), then kube-proxy; docs/sources.md#node-lifecycle-pods-not-ready-and-unreachable-taints",
            layer: "api + data plane",
            premise: None,
        },
        PropertyDef {
            name: "cut_off_pod_replaced_within",
            kind: Kind::Within {
                p: deployment_short_while_cut_off,
                q: deployment_not_short_or_healed,
                seconds: grace_monitor_and_toleration,
            },
            sentence: "Within node-monitor-grace-period plus one monitor period (5 s) plus 300 s (the default tolerationSeconds for node.kubernetes.io/unreachable) of a node being cut off, every Deployment again has a running container in as many pods on reachable nodes as it has replicas (or the node is back).",
            source: "DefaultTolerationSeconds admission (300 s), taint_eviction.go, replica_set.go manageReplicas; docs/sources.md#node-failure",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "pod_on_unknown_node_deleted_within",
            kind: Kind::Within {
                p: pod_on_unknown_node_not_deleted,
                q: no_pod_on_unknown_node_not_deleted,
                seconds: toleration_plus_monitor_period,
            },
            sentence: "Every pod on a node marked Unknown is deleted (gets a deletionTimestamp) within 300 s plus one monitor period (5 s), or its node is back.",
            source: "DefaultTolerationSeconds admission (300 s), taint_eviction.go; none in master disruption mode (node_lifecycle_controller.go); docs/sources.md#node-lifecycle-full-disruption",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "deleted_pod_gone_within_grace",
            kind: Kind::Within {
                p: pod_deleting_on_reachable_node,
                q: no_pod_deleting_on_reachable_node,
                seconds: longest_grace,
            },
            sentence: "A pod deleted on a node that reaches the API server is gone from the API within its terminationGracePeriodSeconds.",
            source: "kuberuntime_container.go killContainer (SIGKILL when the grace period ends), status_manager.go canBeDeleted; docs/sources.md#kubelet-termination-and-grace-period",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "deleted_pod_gone_within_a_second_of_sigterm",
            kind: Kind::Within {
                p: deleted_pod_past_sigterm,
                q: no_pod_deleting,
                seconds: a_second_after_shutdown,
            },
            sentence: "A deleted pod whose containers have been sent SIGTERM (or have stopped) is gone from the API within a second.",
            source: "a program that handles SIGTERM exits at once; a shell as PID 1 ignores it and waits for SIGKILL (kubernetes#127188); docs/sources.md#kubelet-termination-and-grace-period",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "recovered_dependency_ready_within_probe_period",
            kind: Kind::Within {
                p: outage_over_pod_unready,
                q: all_pods_ready,
                seconds: readiness_period_times_success,
            },
            sentence: "After a dependency outage has ended, every pod is Ready again within one readiness period times successThreshold.",
            source: "prober/worker.go doProbe (readiness passes at the next probe), but a container in crash back-off waits up to 300 s (kubelet.go MaxContainerBackOff); docs/sources.md#kubelet-crash-back-off",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "ready_pod_routed_within_proxy_lag",
            kind: Kind::Within {
                p: some_ready_pod_unrouted,
                q: no_ready_pod_unrouted,
                seconds: proxy_lag,
            },
            sentence: "A pod that is Ready is listed ready in the EndpointSlice and, unless the Service is headless, routed to by every kube-proxy within the proxy lag (or stops being Ready).",
            source: "endpointslice podToEndpoint, then kube-proxy's own delay (kubernetes#43576); docs/sources.md#kube-proxy-routing-lags-the-endpointslice",
            layer: "api + data plane",
            premise: None,
        },
        PropertyDef {
            name: "deleted_pod_unrouted_before_sigterm",
            kind: Kind::Within {
                p: deleted_pod_routed,
                q: no_deleted_pod_routed,
                seconds: shortest_prestop_sleep,
            },
            sentence: "A deleted pod (or one whose object is gone) leaves every kube-proxy on a reachable node within its preStop sleep (or the shorter grace period of its delete), that is before its containers get SIGTERM.",
            source: "a preStop sleep holds SIGTERM back while kube-proxies catch up (kubernetes#43576, KEP-3960); docs/sources.md#kube-proxy-routing-lags-the-endpointslice",
            layer: "api + data plane + runtime",
            premise: None,
        },
        PropertyDef {
            name: "rwo_volume_attached_to_one_node",
            kind: Kind::Always(rwo_volume_attached_to_one_node),
            sentence: "No volume that may be attached to one node only (access modes ReadWriteOnce or ReadWriteOncePod, without ReadWriteMany or ReadOnlyMany) is attached to two nodes at once, in the attach/detach controller's actual state of the world (its VolumeAttachments).",
            source: "reconciler.go attachDesiredVolumes: a volume that IsMultiAttachAllowed refuses is not attached while GetNodesForAttachedVolume lists another node (reportMultiAttachError); docs/sources.md#attach-detach-access-modes-and-multi-attach",
            layer: "api",
            premise: Some(Premise {
                condition: single_node_volume_attached,
                sentence: "an attached ReadWriteOnce volume",
            }),
        },
        PropertyDef {
            name: "rwo_volume_mounted_on_one_node",
            kind: Kind::Always(rwo_volume_mounted_on_one_node),
            sentence: "No volume that may be attached to one node only (access modes ReadWriteOnce or ReadWriteOncePod, without ReadWriteMany or ReadOnlyMany) is mounted on two nodes at once.",
            source: "reconciler.go reconcile: a force detach (maxWaitForUnmountDuration on an unhealthy node, or the out-of-service taint) does not wait for the unmount, so the volume can be attached and mounted elsewhere while the old node still has it mounted (KEP-2268; PR #120344); docs/sources.md#attach-detach-detach-and-force-detach",
            layer: "runtime",
            premise: Some(Premise {
                condition: single_node_volume_attached,
                sentence: "an attached ReadWriteOnce volume",
            }),
        },
        PropertyDef {
            name: "multi_attach_error_reported",
            kind: Kind::Sometimes(multi_attach_error_reported),
            sentence: "Some pod gets FailedAttachVolume \"Multi-Attach error\": its volume is attached to another node.",
            source: "reconciler.go reportMultiAttachError; docs/sources.md#attach-detach-access-modes-and-multi-attach",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "no_request_finds_no_endpoints",
            kind: Kind::Step {
                condition: no_request_finds_no_endpoints,
                on: Steps::Only(|a| matches!(a, Action::Client(_))),
            },
            sentence: "No client request reaches a kube-proxy that has routed to the Service before and now has no endpoint for it (kube-proxy rejects it: the Service has no endpoints).",
            source: "kube-proxy rejects traffic to a Service with no usable endpoint (pkg/proxy/iptables syncProxyRules; pkg/proxy/topology.go CategorizeEndpoints, KEP-1669); docs/sources.md#kube-proxy-terminating-endpoints",
            layer: "data plane",
            premise: Some(Premise {
                condition: request_to_a_route_or_served,
                sentence: "a kube-proxy that routes to a pod and clients that send it requests",
            }),
        },
        PropertyDef {
            name: "job_running_pods_within_parallelism",
            kind: Kind::Always(job_running_pods_within_parallelism),
            sentence: "No more of a Job's pods run containers at once than its parallelism.",
            source: "with podReplacementPolicy TerminatingOrFailed the Job controller replaces a pod as soon as it is deleted, while its containers still run; Failed waits for the phase (job_controller.go manageJob, onlyReplaceFailedPods; KEP-3939); docs/sources.md#job-conditions-and-counters",
            layer: "runtime",
            premise: Some(Premise {
                condition: job_pod_exists,
                sentence: "a pod of a Job",
            }),
        },
        PropertyDef {
            name: "job_terminal_after_pods_terminated",
            kind: Kind::Always(job_terminal_after_pods_terminated),
            sentence: "A Job is marked Failed or Complete only once none of its pods is still terminating.",
            source: "from 1.29 the Job controller writes FailureTarget or SuccessCriteriaMet first and the terminal condition once status.terminating is 0 (job_controller.go delayTerminalCondition, KEP-3939); before, at once; docs/sources.md#job-conditions-and-counters",
            layer: "api",
            premise: Some(Premise {
                condition: job_pod_exists,
                sentence: "a pod of a Job",
            }),
        },
        PropertyDef {
            name: "job_disrupted_pods_not_counted_as_failures",
            kind: Kind::Always(job_disrupted_pods_not_counted_as_failures),
            sentence: "A Job pod that Kubernetes disrupted (condition DisruptionTarget: an eviction, a taint, a preemption) is never counted in the Job's status.failed.",
            source: "a disrupted pod counts as failed unless a podFailurePolicy rule ignores DisruptionTarget (job_controller.go isPodFailed; pod_failure_policy.go matchPodFailurePolicy; KEP-3329); docs/sources.md#job-pod-failure-policy",
            layer: "api",
            premise: Some(Premise {
                condition: job_pod_disrupted_or_counted,
                sentence: "a Job pod with DisruptionTarget",
            }),
        },
        PropertyDef {
            name: "job_one_pod_per_index",
            kind: Kind::Always(job_one_pod_per_index),
            sentence: "No two active pods of an Indexed Job have the same completion index.",
            source: "new pods take the lowest pending indexes, and duplicates are removed (job_controller.go manageJob, activePodsForRemoval); docs/sources.md#job-conditions-and-counters",
            layer: "api",
            premise: Some(Premise {
                condition: indexed_job_pod_exists,
                sentence: "a pod of an Indexed Job",
            }),
        },
        PropertyDef {
            name: "job_deadline_exceeded",
            kind: Kind::Sometimes(job_deadline_exceeded),
            sentence: "Some Job is Failed with reason DeadlineExceeded: it was active longer than activeDeadlineSeconds.",
            source: "job_controller.go pastActiveDeadline: \"Job was active longer than specified deadline\"; docs/sources.md#job-conditions-and-counters",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "job_failed_by_pod_failure_policy",
            kind: Kind::Sometimes(job_failed_by_pod_failure_policy),
            sentence: "Some Job is Failed with reason PodFailurePolicy: a FailJob rule matched a failed pod.",
            source: "pod_failure_policy.go matchPodFailurePolicy: FailJob; docs/sources.md#job-pod-failure-policy",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "job_failure_target_before_failed",
            kind: Kind::Sometimes(job_failure_target_pending),
            sentence: "Some Job has FailureTarget=True while it is not yet Failed: a pod is still terminating.",
            source: "from 1.29 (job_controller.go delayTerminalCondition, KEP-3939); docs/sources.md#job-conditions-and-counters",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "healthy_pod_stays_ready",
            kind: Kind::Step {
                condition: healthy_pod_stays_ready,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::StatusUpdate { .. }))),
            },
            sentence: "No kubelet reports a Ready pod not Ready while its containers keep running and answer their readiness probes.",
            source: "a restarted kubelet's new readiness workers start from Failure, so a healthy pod is reported not Ready until its first probe succeeds (prober/worker.go newWorker; kubernetes#78733, #113646, #100277); docs/sources.md#kubelet-restart",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: some_pod_ready,
                sentence: "a Ready pod",
            }),
        },
        PropertyDef {
            name: "job_failed_indexes",
            kind: Kind::Sometimes(job_failed_indexes),
            sentence: "Some Indexed Job is Failed with reason FailedIndexes: every index finished, and some failed more often than backoffLimitPerIndex allows.",
            source: "job_controller.go syncJob: \"Job has failed indexes\" (KEP-3850); docs/sources.md#job-conditions-and-counters",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "eviction_respects_budget",
            kind: Kind::Step {
                condition: eviction_respects_budget,
                on: Steps::Only(|a| matches!(a, Action::Drain(drain::Action::Evict { .. }))),
            },
            sentence: "No eviction the Eviction API allows takes a Ready pod from a PodDisruptionBudget whose healthy pods, counted on the pods as they are at that moment, then fall below its desiredHealthy.",
            source: "eviction.go checkAndDecrement allows an eviction only while the budget's stored status has disruptionsAllowed > 0, and records the pod in disruptedPods; the stored status is the disruption controller's last count (disruption.go updatePdbStatus), so the guarantee is only as fresh as that count; docs/sources.md#eviction-api",
            layer: "api",
            premise: Some(Premise {
                condition: drain_started,
                sentence: "a kubectl drain under way",
            }),
        },
        PropertyDef {
            name: "drain_completes",
            kind: Kind::LeadsTo {
                p: drain_not_done,
                q: drains_done,
            },
            sentence: "Every kubectl drain that has started eventually ends with its node drained: every pod it listed is gone.",
            source: "drain.go evictPods retries a 429 every 5 s (EvictErrorRetryDelay) with no end under the default --timeout 0, and waitForDelete waits for each pod; a budget that is never met refuses every eviction (eviction.go checkAndDecrement); docs/sources.md#kubectl-drain",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "drain_breaks_budget",
            kind: Kind::Sometimes(drain_breaks_budget),
            sentence: "After a kubectl drain has started, some PodDisruptionBudget has fewer healthy pods (Ready, not being deleted) than its desiredHealthy.",
            source: "--disable-eviction deletes the pods with a plain DELETE, which no budget checks (drain.go DeleteOrEvictPods); docs/sources.md#kubectl-drain",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "unready_pod_evicted_only_within_budget",
            kind: Kind::Step {
                condition: unready_pod_evicted_only_within_budget,
                on: Steps::Only(|a| matches!(a, Action::Drain(drain::Action::Evict { .. }))),
            },
            sentence: "No eviction the Eviction API allows takes a pod that is not Ready while its PodDisruptionBudget's stored status has fewer healthy pods than desiredHealthy.",
            source: "eviction.go Create: an unready pod is deleted without the budget only while currentHealthy >= desiredHealthy > 0 (IfHealthyBudget, the default), else judged by checkAndDecrement; from 1.27 unhealthyPodEvictionPolicy AlwaysAllow deletes it regardless (KEP-3017); docs/sources.md#eviction-api-unhealthy-pod-eviction-policy",
            layer: "api",
            premise: Some(Premise {
                condition: drain_started,
                sentence: "a kubectl drain under way",
            }),
        },
        PropertyDef {
            name: "rollout_running_within_surge",
            kind: Kind::Always(rollout_running_within_surge),
            sentence: "From a Deployment's template change on, no more of its pods have a running container than replicas + maxSurge.",
            source: "the surge is counted over the ReplicaSets' spec.replicas, which leave out terminating pods (deployment_util.go NewRSNewReplicas; controller_utils.go IsPodActive; kubernetes#95498); docs/sources.md#deployment-rolling-update",
            layer: "runtime",
            premise: Some(Premise {
                condition: template_changed,
                sentence: "a Deployment whose template has changed",
            }),
        },
        PropertyDef {
            name: "rollout_serving_endpoints_within_unavailable",
            kind: Kind::Always(rollout_serving_endpoints_within_unavailable),
            sentence: "From a RollingUpdate Deployment's template change on, the Service's EndpointSlice lists at least replicas − maxUnavailable of its pods as ready whose program still serves (running, answering, SIGTERM not yet sent).",
            source: "the rollout keeps MinAvailable = replicas − maxUnavailable pods available (rolling.go reconcileOldReplicaSets; deployment_util.go MinAvailable), but the slice and the proxies learn of a deleted pod after it may have stopped (kubernetes#43576); docs/sources.md#deployment-rolling-update",
            layer: "data plane",
            premise: Some(Premise {
                condition: template_changed,
                sentence: "a Deployment whose template has changed",
            }),
        },
        PropertyDef {
            name: "rollout_completes",
            kind: Kind::LeadsTo {
                p: rollout_started,
                q: rollout_complete,
            },
            sentence: "Once a Deployment's or StatefulSet's template has changed, it eventually has every replica updated and available and no old pod active (DeploymentComplete); a StatefulSet, every ordinal's pod Running and Ready, at the update revision from the partition up.",
            source: "deployment_util.go DeploymentComplete; rolling.go rolloutRolling, recreate.go rolloutRecreate; for a StatefulSet, stateful_set_control.go updateStatefulSet and what kubectl rollout status statefulset waits for (rollout_status.go StatefulSetStatusViewer); docs/sources.md#deployment-rolling-update, docs/sources.md#deployment-recreate, docs/sources.md#statefulset-rolling-update",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "recreate_revisions_never_overlap",
            kind: Kind::Always(recreate_revisions_never_overlap),
            sentence: "With strategy Recreate, pods of two template revisions of one Deployment never have running containers at the same time.",
            source: "recreate.go rolloutRecreate waits while oldPodsRunning (a pod of an old ReplicaSet in a phase other than Failed or Succeeded); docs/sources.md#deployment-recreate",
            layer: "runtime",
            premise: Some(Premise {
                condition: recreate_template_changed,
                sentence: "a Recreate Deployment whose template has changed",
            }),
        },
        PropertyDef {
            name: "ready_only_after_readiness_success",
            kind: Kind::Step {
                condition: ready_only_after_readiness_success,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::StatusUpdate { .. }))),
            },
            sentence: "A kubelet turns a pod Ready only when the readiness probe of each of its containers that has one last succeeded.",
            source: "UpdatePodStatus takes ready = !exists when a container has no readiness result and no worker, and a restarted kubelet's first SyncPod generates the status before probeManager.AddPod creates the workers, so an unready pod is reported Ready (prober_manager.go UpdatePodStatus; kubelet.go SyncPod; kubernetes#135795); docs/sources.md#kubelet-restart",
            layer: "api + runtime",
            premise: Some(Premise {
                condition: some_pod_ready,
                sentence: "a Ready pod",
            }),
        },
        PropertyDef {
            name: "shutdown_stops_pods_before_power_off",
            kind: Kind::Step {
                condition: shutdown_stops_pods_before_power_off,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Shutdown { .. }))),
            },
            sentence: "A node that shuts down gracefully powers off only once its kubelet has stopped every container on it.",
            source: "the node shutdown manager releases its inhibitor lock only after every priority group was killed or ran out of its grace period (nodeshutdown_manager_linux.go processShutdownEvent); docs/sources.md#graceful-node-shutdown",
            layer: "runtime",
            premise: Some(Premise {
                condition: node_shutting_down,
                sentence: "a node shutting down gracefully",
            }),
        },
        PropertyDef {
            name: "shutdown_critical_pods_stop_last",
            kind: Kind::Step {
                condition: shutdown_critical_pods_stop_last,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Shutdown { .. }))),
            },
            sentence: "During a graceful node shutdown, the kubelet begins stopping critical pods (priority 2000000000 or more) only once no container of a regular pod runs on the node.",
            source: "pods are killed in priority groups, lowest first, each group waited for up to its grace period (nodeshutdown_manager_linux.go processShutdownEvent, groupByPriority); docs/sources.md#graceful-node-shutdown",
            layer: "runtime",
            premise: Some(Premise {
                condition: node_shutting_down,
                sentence: "a node shutting down gracefully",
            }),
        },
        PropertyDef {
            name: "pod_rejected_node_shutdown",
            kind: Kind::Sometimes(pod_rejected_node_shutdown),
            sentence: "Some pod is rejected by its kubelet because the node is shutting down (reason NodeShutdown).",
            source: "the shutdown manager's admit handler refuses every pod while the node shuts down; the scheduler can bind a pod to the node until it is tainted not-ready (nodeshutdown_manager_linux.go Admit; kubelet.go rejectPod); docs/sources.md#graceful-node-shutdown",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "status_err_image_never_pull",
            kind: Kind::Sometimes(status_err_image_never_pull),
            sentence: "kubectl shows some pod as ErrImageNeverPull.",
            source: "image_manager.go EnsureImageExists: imagePullPolicy Never and no image on the node; docs/sources.md#kubelet-image-pull-policy",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "deadlock_killed_within_failure_threshold_periods",
            kind: Kind::Within {
                p: deadlocked_not_stopping,
                q: no_deadlocked_not_stopping,
                seconds: liveness_failure_threshold_periods,
            },
            sentence: "A deadlocked container is being killed by its liveness probe within failureThreshold × periodSeconds of the deadlock (the reckoning the probe documentation uses for its startup-probe example, 30 × 10 = 300 s).",
            source: "prober/worker.go doProbe counts failureThreshold failures one period apart, but prober.go runProbe knows a probe that gets no answer failed only after timeoutSeconds; docs/sources.md#kubelet-probe-timeout",
            layer: "runtime",
            premise: None,
        },
        PropertyDef {
            name: "probe_kill_within_probe_grace",
            kind: Kind::Within {
                p: probe_kill_in_progress,
                q: no_probe_kill_in_progress,
                seconds: probe_kill_grace,
            },
            sentence: "A container killed for a failed liveness or startup probe has stopped within that probe's terminationGracePeriodSeconds (the pod's when the probe sets none; 2 s more when a preStop hook used the grace up).",
            source: "kuberuntime_container.go setTerminationGracePeriod and killContainer (gate ProbeTerminationGracePeriod, on by default from 1.25); docs/sources.md#kubelet-probe-termination-grace-period",
            layer: "runtime",
            premise: None,
        },
        PropertyDef {
            name: "sidecar_outlives_main_containers",
            kind: Kind::Step {
                condition: sidecar_outlives_main_containers,
                // A sidecar stops on its node: only the kubelet, the clock and the faults
                // change what runs there.
                on: Steps::Only(|a| matches!(a, Action::Kubelet(_) | Action::Tick(_) | Action::Fault(_))),
            },
            sentence: "While the kubelet terminates a pod, none of its sidecar containers stops while a regular container or a later sidecar of the pod still runs.",
            source: "kuberuntime_termination_order.go newTerminationOrdering, waitForTurn: each sidecar waits for every main container and the next sidecar; docs/sources.md#sidecar-containers",
            layer: "runtime",
            premise: Some(Premise {
                condition: sidecar_pod_terminating,
                sentence: "a pod with a sidecar being terminated",
            }),
        },
        PropertyDef {
            name: "containers_start_after_sidecars_started",
            kind: Kind::Step {
                condition: containers_start_after_sidecars_started,
                on: Steps::Only(|a| matches!(a, Action::Kubelet(kubelet::Action::Sync { step: kubelet::Step::Start { init: false, .. }, .. }))),
            },
            sentence: "A pod's regular containers are first started only once every sidecar has started: it runs and its startup probe, if it has one, has succeeded, unless it has run before and is being restarted.",
            source: "kuberuntime_container.go computeInitContainerActions: a running sidecar is initialized without a startup probe or once it succeeds; docs/sources.md#sidecar-containers",
            layer: "runtime",
            premise: Some(Premise {
                condition: sidecar_pod_on_node,
                sentence: "a pod with a sidecar on a node",
            }),
        },
        PropertyDef {
            name: "sidecar_job_completes",
            kind: Kind::LeadsTo {
                p: sidecar_job_not_complete,
                q: sidecar_jobs_complete,
            },
            sentence: "Every Job whose pods have a sidecar container is eventually Complete.",
            source: "kuberuntime_manager.go computePodActions kills the pod once no regular container runs or is to start, sidecars included; kubelet_pods.go getPhase decides the phase on the regular containers; docs/sources.md#sidecar-containers",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "container_restarted_by_spec_change",
            kind: Kind::Sometimes(container_restarted_by_spec_change),
            sentence: "After kubectl set image on a running pod, the same pod object (same uid) runs a new instance of the container with the new image: its status shows it Running and Ready, restartCount 1, and the killed instance as its last state.",
            source: "a pod's container images are mutable (validation.go ValidatePodUpdate); computePodActions kills a running container whose spec hash changed and starts it again (kuberuntime_manager.go containerChanged); docs/sources.md#kubelet-container-spec-change",
            layer: "api + runtime",
            premise: None,
        },
        PropertyDef {
            name: "pod_unready_during_spec_change",
            kind: Kind::Sometimes(pod_unready_during_spec_change),
            sentence: "After kubectl set image on a running pod, and before its new container is Ready, the pod is not Ready and not being deleted.",
            source: "killContainer stops the old instance; the new one starts with readiness Failure until its probe succeeds (kuberuntime_container.go killContainer; prober/worker.go); docs/sources.md#kubelet-container-spec-change",
            layer: "api",
            premise: None,
        },
        PropertyDef {
            name: "spec_change_restart_completes",
            kind: Kind::LeadsTo {
                p: spec_change_pending,
                q: no_spec_change_pending,
            },
            sentence: "Every running pod whose container image was set in place eventually runs that container with the new image.",
            source: "computePodActions puts the changed container in both ContainersToKill and ContainersToStart, whatever the restart policy (kuberuntime_manager.go); docs/sources.md#kubelet-container-spec-change",
            layer: "runtime",
            premise: None,
        },
        PropertyDef {
            name: "sidecar_restarted_under_never",
            kind: Kind::Sometimes(sidecar_restarted_under_never),
            sentence: "A sidecar container of a pod with restartPolicy Never is restarted after it exited.",
            source: "kuberuntime_container.go computeInitContainerActions starts an exited sidecar again whatever the pod's restartPolicy; docs/sources.md#sidecar-containers",
            layer: "runtime",
            premise: None,
        },
    ]
}

fn status_err_image_never_pull(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| printed_status(m, p) == "ErrImageNeverPull")
}

/// Some running container is deadlocked and no kill of it has begun.
fn deadlocked_not_stopping(_: &Cluster, s: &State) -> bool {
    s.nodes.iter().any(|n| {
        n.pods.iter().any(|rt| {
            rt.ctrs
                .iter()
                .any(|c| matches!(&c.run, Run::Running(p) if p.deadlocked && p.stop.is_none()))
        })
    })
}

fn no_deadlocked_not_stopping(m: &Cluster, s: &State) -> bool {
    !deadlocked_not_stopping(m, s)
}

/// The longest liveness failureThreshold × periodSeconds of the scenario's containers.
fn liveness_failure_threshold_periods(m: &Cluster) -> u64 {
    m.scenario
        .workloads
        .iter()
        .flat_map(|w| &w.template().containers)
        .filter_map(|c| c.liveness_probe.as_ref())
        .map(|p| p.failure_threshold as u64 * p.period_seconds as u64)
        .max()
        .unwrap_or(0)
}

/// Some container is being killed for a failed liveness or startup probe.
fn probe_kill_in_progress(_: &Cluster, s: &State) -> bool {
    s.nodes.iter().any(|n| {
        n.pods.iter().any(|rt| {
            rt.ctrs.iter().any(|c| {
                matches!(&c.run, Run::Running(p) if p.stop.is_some_and(|st| matches!(st.why, StopWhy::LivenessProbe | StopWhy::StartupProbe)))
            })
        })
    })
}

fn no_probe_kill_in_progress(m: &Cluster, s: &State) -> bool {
    !probe_kill_in_progress(m, s)
}

/// The longest grace a probe's kill is meant to get, as the user wrote it: the liveness or
/// startup probe's terminationGracePeriodSeconds, else the pod's; with a preStop hook, 2 s
/// more (killContainer gives SIGTERM at least 2 s after the hook).
fn probe_kill_grace(m: &Cluster) -> u64 {
    m.scenario
        .workloads
        .iter()
        .flat_map(|w| {
            let t = w.template();
            t.containers.iter().flat_map(move |c| {
                let prestop = c.lifecycle.as_ref().is_some_and(|l| l.pre_stop.is_some());
                [&c.liveness_probe, &c.startup_probe]
                    .into_iter()
                    .flatten()
                    .map(move |p| {
                        let g = p
                            .termination_grace_period_seconds
                            .unwrap_or(t.termination_grace_period_seconds)
                            as u64;
                        if prestop {
                            g + 2
                        } else {
                            g.max(2)
                        }
                    })
            })
        })
        .max()
        .unwrap_or(0)
}

/// Judged on every step: of each pod the kubelet is terminating, a sidecar that runs before
/// the step and not after it leaves no regular container and no later sidecar running after
/// the step. (A sidecar whose own program exits then breaks it too: nothing restarts it.)
fn sidecar_outlives_main_containers(m: &Cluster, s: &State, _: &Action, n: &State) -> bool {
    // Without a sidecar in any template, no step stops one.
    if !any_sidecar(m) {
        return true;
    }
    let running = |c: &Ctr| matches!(c.run, Run::Running(_));
    s.nodes.iter().enumerate().all(|(node, kn)| {
        // A node the step left alone stopped no sidecar.
        if Shared::ptr_eq(kn, &n.nodes[node]) {
            return true;
        }
        kn.pods.iter().filter(|rt| rt.terminating).all(|rt| {
            let Some(after) = n.rt(NodeId::new(node), rt.uid) else {
                return true;
            };
            let spec = m.workload(rt.workload).template();
            (0..rt.init.len()).all(|i| {
                let stopped = spec.init_containers[i].is_sidecar()
                    && running(&rt.init[i])
                    && !running(&after.init[i]);
                !stopped
                    || !(after.ctrs.iter().any(running)
                        || after.init[i + 1..]
                            .iter()
                            .zip(&spec.init_containers[i + 1..])
                            .any(|(c, cs)| cs.is_sidecar() && running(c)))
            })
        })
    })
}

/// Judged on each start of a regular container of a pod none of whose regular containers has
/// been created before: every sidecar of the pod runs and has started, or has run before (it
/// has exited, or restarted since). A sidecar initialized once holds nothing back when it
/// restarts later: the pod counts as initialized once the last init container is
/// (`computeInitContainerActions`).
fn containers_start_after_sidecars_started(m: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Sync {
        node,
        uid,
        step: kubelet::Step::Start { init: false, .. },
    }) = *a
    else {
        return true;
    };
    let Some(rt) = s.rt(node, uid) else {
        return true;
    };
    if rt.ctrs.iter().any(|c| !matches!(c.run, Run::None)) {
        return true;
    }
    let spec = m.workload(rt.workload).template();
    rt.init.iter().zip(&spec.init_containers).all(|(c, cs)| {
        let started = matches!(c.run, Run::Running(_))
            && (cs.startup_probe.is_none()
                || c.probes[ProbeKind::Startup as usize]
                    .is_some_and(|w| w.result == ProbeResult::Success));
        let ran_before = matches!(c.run, Run::Exited(_)) || c.restart_count >= 1;
        !cs.is_sidecar() || started || ran_before
    })
}

/// The Jobs whose pod template has a sidecar container, with their status.
fn sidecar_jobs<'a>(m: &'a Cluster, s: &'a State) -> impl Iterator<Item = &'a JobStatus> + 'a {
    jobs(m, s)
        .filter(|(_, spec, _)| {
            spec.template
                .spec
                .init_containers
                .iter()
                .any(|c| c.is_sidecar())
        })
        .map(|(_, _, j)| j)
}

fn sidecar_job_not_complete(m: &Cluster, s: &State) -> bool {
    sidecar_jobs(m, s).any(|j| !matches!(j.condition, Some(JobCondition::Complete(_))))
}

fn sidecar_jobs_complete(m: &Cluster, s: &State) -> bool {
    !sidecar_job_not_complete(m, s)
}

fn sidecar_restarted_under_never(m: &Cluster, s: &State) -> bool {
    s.nodes.iter().flat_map(|n| n.pods.iter()).any(|rt| {
        let spec = m.workload(rt.workload).template();
        spec.restart_policy == podcheck_model::k8s::RestartPolicy::Never
            && rt
                .init
                .iter()
                .zip(&spec.init_containers)
                .any(|(c, cs)| cs.is_sidecar() && c.restart_count >= 1)
    })
}

/// The Deployments whose template has changed (a rollout has begun), with their index.
fn deployments_rolled<'a>(
    m: &'a Cluster,
    s: &'a State,
) -> impl Iterator<Item = (u8, &'a podcheck_input::spec::DeploymentSpec)> + 'a {
    m.scenario
        .workloads
        .iter()
        .enumerate()
        .filter_map(move |(w, wl)| match wl {
            Workload::Deployment { spec, .. }
                if s.api.workloads[w]
                    .deployment
                    .as_ref()
                    .is_some_and(|d| d.template > 0) =>
            {
                Some((w as u8, spec))
            }
            _ => None,
        })
}

fn rollout_running_within_surge(m: &Cluster, s: &State) -> bool {
    deployments_rolled(m, s).all(|(w, spec)| {
        let surge = controllers::deployment::bounds(spec).max_surge;
        let running = rt_pods(s)
            .filter(|(_, p)| p.workload == w && p.any_running())
            .count() as i64;
        running <= i64::from(spec.replicas) + surge
    })
}

/// The program of the pod serves: a container runs and answers, and SIGTERM has not been
/// sent (a preStop hook may be running).
fn serves(rt: &PodRt) -> bool {
    rt.ctrs.iter().any(|c| {
        matches!(&c.run, Run::Running(p) if p.answers()
            && p.stop.is_none_or(|st| st.prestop_left.is_some()))
    })
}

fn rollout_serving_endpoints_within_unavailable(m: &Cluster, s: &State) -> bool {
    let Some(svc) = &m.scenario.service else {
        return true;
    };
    deployments_rolled(m, s).all(|(w, spec)| {
        if spec.strategy.rolling().is_none()
            || !svc.selects.iter().any(|n| n == m.workload(w).name())
        {
            return true;
        }
        let min = controllers::deployment::bounds(spec).min_available(i64::from(spec.replicas));
        let serving = s
            .api
            .endpoints
            .iter()
            .filter(|e| e.conditions.ready)
            .filter(|e| {
                s.rt(e.node, e.uid)
                    .is_some_and(|rt| rt.workload == w && serves(rt))
            })
            .count() as i64;
        serving >= min
    })
}

/// The StatefulSets whose template has changed (a rollout has begun), with their index.
fn statefulsets_rolled<'a>(
    m: &'a Cluster,
    s: &'a State,
) -> impl Iterator<Item = (u8, &'a podcheck_input::spec::StatefulSetSpec)> + 'a {
    m.scenario
        .workloads
        .iter()
        .enumerate()
        .filter_map(move |(w, wl)| match wl {
            Workload::StatefulSet { spec, .. }
                if s.api.workloads[w]
                    .statefulset
                    .is_some_and(|st| st.update > 0) =>
            {
                Some((w as u8, spec))
            }
            _ => None,
        })
}

fn rollout_started(m: &Cluster, s: &State) -> bool {
    (deployments_rolled(m, s).next().is_some() || statefulsets_rolled(m, s).next().is_some())
        && !rollout_complete(m, s)
}

fn rollout_complete(m: &Cluster, s: &State) -> bool {
    deployments_rolled(m, s).all(|(w, spec)| {
        let template = s.api.workloads[w as usize]
            .deployment
            .as_ref()
            .map_or(0, |d| d.template);
        let c = controllers::deployment::counts(spec, s, w, template);
        controllers::deployment::complete(spec, c)
    }) && statefulsets_rolled(m, s)
        .all(|(w, spec)| controllers::statefulset::rollout_complete(spec, s, w))
}

fn recreate_revisions_never_overlap(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().all(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return true;
        };
        if spec.strategy.rolling().is_some() {
            return true;
        }
        let mut running = rt_pods(s)
            .filter(|(_, p)| p.workload as usize == w && p.any_running())
            .map(|(_, p)| p.revision);
        let Some(first) = running.next() else {
            return true;
        };
        running.all(|r| r == first)
    })
}

/// Budget `b`'s healthy pods and desiredHealthy, as the disruption controller would count
/// them in `s` (`countHealthyPods`, `getExpectedPodCount`; `disruptedPods` taken as the
/// stored status has it), if it can count them.
fn live_budget(m: &Cluster, s: &State, b: usize) -> Option<(u32, u32)> {
    let (_, desired) = controllers::disruption::expected_and_desired(m, s, b)?;
    let disrupted: Vec<u16> = s.api.pdbs[b]
        .disrupted_pods
        .iter()
        .copied()
        .filter(|uid| s.pod(*uid).is_some_and(|p| p.deletion.is_none()))
        .collect();
    Some((
        controllers::disruption::count_healthy(m, s, b, &disrupted),
        desired,
    ))
}

/// The pod a drain's step asks the Eviction API to evict (not a `--disable-eviction` delete).
fn evicted_pod<'a>(m: &Cluster, s: &'a State, a: &Action) -> Option<&'a Pod> {
    let Action::Drain(drain::Action::Evict { fault, uid }) = *a else {
        return None;
    };
    let plain_delete = matches!(
        m.scenario.faults.get(fault as usize),
        Some(Fault::Drain {
            disable_eviction: true,
            ..
        })
    );
    if plain_delete {
        return None;
    }
    s.pod(uid)
}

/// Judged on each eviction a drain sends through the Eviction API: if it takes a Ready pod
/// that was not being deleted, every budget over that pod still has at least desiredHealthy
/// healthy pods afterwards, counted on the pods of the next state. Upstream judges the
/// eviction on the budget's stored status instead, so this holds only while that status is
/// current: a pod that turns unready between the controller's last sync and the eviction
/// can make it fail.
fn eviction_respects_budget(m: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Some(pod) = evicted_pod(m, s, a) else {
        return true;
    };
    let taken = pod.status.ready
        && pod.deletion.is_none()
        && n.pod(pod.uid).is_none_or(|p| p.deletion.is_some());
    if !taken {
        return true;
    }
    m.budgets[pod.workload as usize]
        .iter()
        .all(|&b| live_budget(m, n, b as usize).is_none_or(|(healthy, desired)| healthy >= desired))
}

/// Judged on each eviction a drain sends through the Eviction API: a pod that was not Ready
/// and is deleted by it had no budget whose stored status (before the step) was below
/// desiredHealthy.
fn unready_pod_evicted_only_within_budget(m: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Some(pod) = evicted_pod(m, s, a) else {
        return true;
    };
    let taken = !pod.status.ready
        && pod.deletion.is_none()
        && n.pod(pod.uid).is_none_or(|p| p.deletion.is_some());
    !taken
        || m.budgets[pod.workload as usize].iter().all(|&b| {
            let st = &s.api.pdbs[b as usize];
            st.current_healthy >= st.desired_healthy
        })
}

/// Some drain run has started and not ended with its node drained.
fn drain_not_done(_: &Cluster, s: &State) -> bool {
    s.env.drains.iter().any(|d| !d.drained())
}

fn drains_done(m: &Cluster, s: &State) -> bool {
    !drain_not_done(m, s)
}

/// A drain has started and some budget is below its desiredHealthy, counted on the pods.
fn drain_breaks_budget(m: &Cluster, s: &State) -> bool {
    !s.env.drains.is_empty()
        && (0..m.scenario.pod_disruption_budgets.len())
            .any(|b| live_budget(m, s, b).is_some_and(|(healthy, desired)| healthy < desired))
}

fn jobs<'a>(
    m: &'a Cluster,
    s: &'a State,
) -> impl Iterator<Item = (u8, &'a podcheck_input::spec::JobSpec, &'a JobStatus)> + 'a {
    s.api.workloads.iter().enumerate().filter_map(|(i, w)| {
        let job = w.job.as_ref()?;
        match &m.scenario.workloads[i] {
            Workload::Job { spec, .. } => Some((i as u8, spec, job)),
            _ => None,
        }
    })
}

fn job_running_pods_within_parallelism(m: &Cluster, s: &State) -> bool {
    jobs(m, s).all(|(w, spec, _)| {
        let running = rt_pods(s)
            .filter(|(_, rt)| rt.workload == w)
            .filter(|(_, rt)| {
                rt.init
                    .iter()
                    .chain(&rt.ctrs)
                    .any(|c| matches!(c.run, Run::Running(_)))
            })
            .count();
        running <= spec.parallelism() as usize
    })
}

fn job_terminal_after_pods_terminated(m: &Cluster, s: &State) -> bool {
    jobs(m, s).all(|(w, _, job)| {
        job.condition.is_none()
            || !s
                .api
                .pods
                .iter()
                .any(|p| p.workload == w && p.deletion.is_some() && !p.status.phase.is_terminal())
    })
}

fn job_disrupted_pods_not_counted_as_failures(m: &Cluster, s: &State) -> bool {
    jobs(m, s).all(|(_, _, job)| job.failed_disrupted == 0)
}

fn job_one_pod_per_index(m: &Cluster, s: &State) -> bool {
    jobs(m, s).all(|(w, _, _)| {
        let mut seen = 0u16;
        s.api
            .pods
            .iter()
            .filter(|p| p.workload == w && derived::is_active(p))
            .filter_map(|p| p.job_index)
            .all(|i| {
                let fresh = seen & (1 << i) == 0;
                seen |= 1 << i;
                fresh
            })
    })
}

fn job_deadline_exceeded(m: &Cluster, s: &State) -> bool {
    jobs(m, s)
        .any(|(_, _, j)| j.condition == Some(JobCondition::Failed(JobReason::DeadlineExceeded)))
}

fn job_failed_by_pod_failure_policy(m: &Cluster, s: &State) -> bool {
    jobs(m, s)
        .any(|(_, _, j)| j.condition == Some(JobCondition::Failed(JobReason::PodFailurePolicy)))
}

fn job_failure_target_pending(m: &Cluster, s: &State) -> bool {
    jobs(m, s)
        .any(|(_, _, j)| j.condition.is_none() && matches!(j.target, Some(JobTarget::Failure(_))))
}

/// The claims whose volumes may be attached to one node only (`IsMultiAttachAllowed` false:
/// ReadWriteOnce or ReadWriteOncePod, with neither ReadWriteMany nor ReadOnlyMany).
/// The claims whose volume the attach/detach controller attaches to one node only (a volume
/// without an attacher is never attached: each node mounts its own).
fn single_node_claims(m: &Cluster) -> impl Iterator<Item = u8> + '_ {
    m.claims
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.multi_attach && c.attachable)
        .map(|(i, _)| i as u8)
}

fn rwo_volume_attached_to_one_node(m: &Cluster, s: &State) -> bool {
    single_node_claims(m).all(|c| s.api.attached.iter().filter(|a| a.claim == c).count() <= 1)
}

fn rwo_volume_mounted_on_one_node(m: &Cluster, s: &State) -> bool {
    single_node_claims(m).all(|c| {
        (0..s.nodes.len() as u8)
            .filter(|&n| derived::mounted_claims(m, s, NodeId(n)) & (1 << c) != 0)
            .count()
            <= 1
    })
}

fn multi_attach_error_reported(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.events.read().multi_attach != 0)
}

// The premises of the safety properties: the situation each is about (see `Premise`).

fn some_pod_terminal(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.phase.is_terminal())
}

fn some_pod_deleted(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.deletion.is_some())
}

/// A pod being deleted: its object has a deletionTimestamp, or a container of it is being
/// stopped for its deletion. A force delete (grace 0) removes the object at once, without a
/// deletionTimestamp, and the kubelet then kills what still runs of the pod as a pod being
/// deleted (`CheckGracefulDelete`; `HandlePodRemoves`, `calculateEffectiveGracePeriod`;
/// docs/sources.md#api-server-force-delete,
/// docs/sources.md#kubelet-force-deleted-pods-are-killed-with-1-s): the object alone would
/// miss the pod whose stop `graceful_stop_within_grace` judges.
fn pod_deleted_or_stopping_for_deletion(m: &Cluster, s: &State) -> bool {
    some_pod_deleted(m, s)
        || ctrs(s).any(|c| {
            matches!(&c.run, Run::Running(p) if p.stop.is_some_and(|st| st.why == StopWhy::Deletion))
        })
}

fn some_pod_ready(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.ready)
}

fn some_endpoint(_: &Cluster, s: &State) -> bool {
    !s.api.endpoints.is_empty()
}

fn some_route(_: &Cluster, s: &State) -> bool {
    s.proxies.iter().any(|p| !p.routes.is_empty())
}

/// The situation of a property judged on client requests: a kube-proxy routes to a pod, and
/// the scenario's clients send requests (`service.clients`). Without clients no request is
/// ever judged, however many routes the proxies hold.
fn request_to_a_route(m: &Cluster, s: &State) -> bool {
    m.scenario.service.as_ref().is_some_and(|svc| svc.clients) && some_route(m, s)
}

/// [`request_to_a_route`], or a kube-proxy that has routed to the Service before (the history
/// variable [`Proxy::served`] that `no_request_finds_no_endpoints` reads): that property
/// breaks where the proxy no longer routes anywhere.
fn request_to_a_route_or_served(m: &Cluster, s: &State) -> bool {
    m.scenario.service.as_ref().is_some_and(|svc| svc.clients)
        && (some_route(m, s) || s.proxies.iter().any(|p| p.served))
}

fn workload_pod_runs(m: &Cluster, s: &State, kind: fn(&Workload) -> bool) -> bool {
    // Every pod is of a workload of the scenario: with none of the kind, none runs (asked
    // first: the premise is judged in every state until it holds).
    m.scenario.workloads.iter().any(kind)
        && rt_pods(s).any(|(_, p)| kind(m.workload(p.workload)) && p.any_running())
}

fn container_in_back_off(_: &Cluster, s: &State) -> bool {
    ctrs(s).any(|c| c.crash_bo.is_some() || c.pull_bo.is_some() || c.waiting.is_some())
}

/// Whether some container of some workload's template (init containers included) has
/// `has`: a running container can have it only then.
fn any_template_container(m: &Cluster, has: fn(&podcheck_input::spec::Container) -> bool) -> bool {
    m.scenario.workloads.iter().any(|w| {
        let t = w.template();
        t.init_containers.iter().chain(&t.containers).any(has)
    })
}

fn probed_container_runs(m: &Cluster, s: &State) -> bool {
    // Asked first: judged in every state until it holds.
    any_template_container(m, |c| {
        c.liveness_probe.is_some() || c.startup_probe.is_some()
    }) && ctrs(s).any(|c| {
        matches!(c.run, Run::Running(_))
            && (c.probes[ProbeKind::Liveness as usize].is_some()
                || c.probes[ProbeKind::Startup as usize].is_some())
    })
}

fn node_under_memory_pressure(m: &Cluster, s: &State) -> bool {
    (0..s.nodes.len()).any(|n| {
        s.nodes[n].memory_hog
            && kubelet::eviction_manager::under_memory_pressure(m, s, NodeId::new(n))
    })
}

fn pod_stuck_over_a_minute(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.ghost.stuck_for >= STUCK_CAP && derived::stuck_now(m, s, p))
}

fn post_start_hook_runs(m: &Cluster, s: &State) -> bool {
    any_template_container(m, |c| {
        c.lifecycle.as_ref().is_some_and(|l| l.post_start.is_some())
    }) && ctrs(s).any(|c| matches!(&c.run, Run::Running(p) if p.post_start.is_some()))
}

fn record_of_a_gone_pod(_: &Cluster, s: &State) -> bool {
    rt_pods(s).any(|(n, rt)| {
        !rt.static_pod
            && s.pod(rt.uid).is_none()
            && !s.nodes[n].static_pods.iter().any(|p| p.uid == rt.uid)
    })
}

fn statefulset_pod_runs(m: &Cluster, s: &State) -> bool {
    workload_pod_runs(m, s, |w| matches!(w, Workload::StatefulSet { .. }))
}

fn deployment_pod_runs(m: &Cluster, s: &State) -> bool {
    workload_pod_runs(m, s, |w| matches!(w, Workload::Deployment { .. }))
}

fn some_node_unknown(_: &Cluster, s: &State) -> bool {
    s.api.nodes.iter().any(|n| n.unknown)
}

/// A pod being deleted on a node that cannot reach the API server: one the node lifecycle
/// controller has marked Unknown, or one cut off that it has not marked yet (until
/// node-monitor-grace-period has passed; docs/sources.md#node-lifecycle-unknown-after-the-grace-period).
/// `terminating_until_kubelet_confirms` judges the kubelet of a node cut off, whether marked
/// or not (docs/sources.md#pods-stay-terminating-on-a-lost-node).
fn deleted_on_unknown_or_cut_off_node(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.deletion.is_some()
            && p.node
                .is_some_and(|n| s.api.nodes[n.index()].unknown || s.nodes[n.index()].partitioned)
    })
}

fn all_nodes_not_ready(m: &Cluster, s: &State) -> bool {
    derived::full_disruption(m, s)
}

fn static_pod_runs(_: &Cluster, s: &State) -> bool {
    s.nodes.iter().any(|n| !n.static_pods.is_empty())
}

fn single_node_volume_attached(m: &Cluster, s: &State) -> bool {
    single_node_claims(m).any(|c| s.api.attached.iter().any(|a| a.claim == c))
}

/// Whether the scenario has a Job (a pod can be a Job's only then).
fn any_job(m: &Cluster) -> bool {
    m.scenario
        .workloads
        .iter()
        .any(|w| matches!(w, Workload::Job { .. }))
}

/// A pod of a Job: its object, or what runs of it on a node (a force-deleted pod's containers
/// go on running after the object is gone).
fn job_pod_exists(m: &Cluster, s: &State) -> bool {
    let of_job = |w: u8| matches!(m.workload(w), Workload::Job { .. });
    any_job(m)
        && (s.api.pods.iter().any(|p| of_job(p.workload))
            || rt_pods(s).any(|(_, rt)| of_job(rt.workload)))
}

/// [`job_pod_exists`], or a Job that has counted failed runs of its pods or failed for them
/// (the history `job_fails_only_after_backoff_limit_plus_one_failures` reads): once a Job has
/// failed, its pods may be gone.
fn job_pod_or_failed_run(m: &Cluster, s: &State) -> bool {
    job_pod_exists(m, s)
        || jobs(m, s).any(|(_, _, j)| {
            j.failed_runs > 0 || j.failure() == Some(JobReason::BackoffLimitExceeded)
        })
}

/// A Job pod with DisruptionTarget, or a Job that has counted one among its failed pods (the
/// history `job_disrupted_pods_not_counted_as_failures` reads): the pod may be gone by then.
fn job_pod_disrupted_or_counted(m: &Cluster, s: &State) -> bool {
    any_job(m)
        && (s
            .api
            .pods
            .iter()
            .any(|p| p.disruption_target && matches!(m.workload(p.workload), Workload::Job { .. }))
            || jobs(m, s).any(|(_, _, j)| j.failed_disrupted > 0))
}

fn indexed_job_pod_exists(m: &Cluster, s: &State) -> bool {
    any_job(m) && s.api.pods.iter().any(|p| p.job_index.is_some())
}

fn drain_started(_: &Cluster, s: &State) -> bool {
    !s.env.drains.is_empty()
}

fn template_changed(m: &Cluster, s: &State) -> bool {
    deployments_rolled(m, s).next().is_some()
}

fn recreate_template_changed(m: &Cluster, s: &State) -> bool {
    deployments_rolled(m, s).any(|(_, spec)| spec.strategy.rolling().is_none())
}

fn node_shutting_down(_: &Cluster, s: &State) -> bool {
    s.nodes.iter().any(|n| n.shutdown.is_some())
}

fn has_sidecar(m: &Cluster, rt: &PodRt) -> bool {
    m.workload(rt.workload)
        .template()
        .init_containers
        .iter()
        .any(|c| c.is_sidecar())
}

/// Whether some workload's template has a sidecar (a pod of the scenario can have one only
/// then).
fn any_sidecar(m: &Cluster) -> bool {
    m.scenario
        .workloads
        .iter()
        .any(|w| w.template().init_containers.iter().any(|c| c.is_sidecar()))
}

fn sidecar_pod_terminating(m: &Cluster, s: &State) -> bool {
    any_sidecar(m) && rt_pods(s).any(|(_, rt)| rt.terminating && has_sidecar(m, rt))
}

fn sidecar_pod_on_node(m: &Cluster, s: &State) -> bool {
    any_sidecar(m) && rt_pods(s).any(|(_, rt)| has_sidecar(m, rt))
}

/// A property by name.
pub fn find(name: &str) -> Option<PropertyDef> {
    all().into_iter().find(|p| p.name == name)
}

/// The actions that can change a pod object's phase: not a kube-proxy's, a client request, the
/// EndpointSlice controller's (it writes the slice alone), a probe, the node status, nor the
/// pod worker's steps (but a rejection).
fn may_change_a_phase(a: &Action) -> bool {
    !matches!(
        a,
        Action::KubeProxy(_)
            | Action::Client(_)
            | Action::Controller(controllers::Action::EndpointSliceSync)
            | Action::Kubelet(kubelet::Action::Probe { .. } | kubelet::Action::NodeStatus { .. })
    ) && !matches!(
        a,
        Action::Kubelet(kubelet::Action::Sync { step, .. }) if *step != kubelet::Step::Reject
    )
}

fn ctrs(s: &State) -> impl Iterator<Item = &Ctr> {
    s.nodes
        .iter()
        .flat_map(|n| n.pods.iter())
        .flat_map(|p| p.init.iter().chain(&p.ctrs))
}

/// Judged on every step: a pod object whose phase is terminal before the step has the same
/// phase after it, if it still exists.
fn terminal_phase_is_final(_: &Cluster, s: &State, _: &Action, n: &State) -> bool {
    s.api
        .pods
        .iter()
        .filter(|p| p.status.phase.is_terminal())
        .all(|p| {
            n.pod(p.uid)
                .is_none_or(|q| q.status.phase == p.status.phase)
        })
}

/// Runtime truth against the API: every pod object in a terminal phase has no running
/// container on its node (a mirror pod's are its static pod's).
fn terminal_only_when_stopped(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().all(|p| {
        let Some(n) = p.node.filter(|_| p.status.phase.is_terminal()) else {
            return true;
        };
        s.rt(n, p.mirror_of.unwrap_or(p.uid))
            .is_none_or(|rt| !rt.any_running())
    })
}

fn pending_until_first_start(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().all(|p| {
        !matches!(p.status.phase, Phase::Running | Phase::Succeeded) || p.ghost.ever_started
    })
}

fn ready_implies_containers_ready(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().all(|p| {
        !p.status.ready || (p.status.containers_ready && p.status.statuses.iter().all(|c| c.ready))
    })
}

/// Judged on the kubelet's steps: none starts a container (a slot not running before the
/// step runs after it) of a pod whose deletionTimestamp that kubelet has seen (it reaches the
/// API server).
fn no_start_after_deletion(_: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Sync { node, uid, .. }) = *a else {
        return true;
    };
    let seen = s.kpod(node, uid).is_some_and(|p| p.deletion.is_some())
        && !s.nodes[node.index()].partitioned;
    if !seen {
        return true;
    }
    let (Some(before), Some(after)) = (s.rt(node, uid), n.rt(node, uid)) else {
        return true;
    };
    let running = |c: &Ctr| matches!(c.run, Run::Running(_));
    fn slots(rt: &PodRt) -> impl Iterator<Item = &Ctr> {
        rt.init.iter().chain(&rt.ctrs)
    }
    let started = slots(before)
        .zip(slots(after))
        .any(|(was, is)| !running(was) && running(is));
    !started
}

fn backoff_bounded(_: &Cluster, s: &State) -> bool {
    ctrs(s).all(|c| {
        c.crash_bo.is_none_or(|b| b.backoff <= 300)
            && c.pull_bo.is_none_or(|b| b.backoff <= 300)
            && c.waiting.is_none_or(|w| w.left() <= 300)
    })
}

fn endpoint_ready_implies_serving_not_terminating(m: &Cluster, s: &State) -> bool {
    let publish = m
        .scenario
        .service
        .as_ref()
        .is_some_and(|svc| svc.publish_not_ready_addresses);
    publish
        || s.api
            .endpoints
            .iter()
            .all(|e| !e.conditions.ready || (e.conditions.serving && !e.conditions.terminating))
}

fn no_terminal_or_ipless_endpoints(m: &Cluster, s: &State) -> bool {
    // The slice is a derived object written after the pods change: judge it once the
    // controller has caught up (asked last: the slice is most often fine as it is).
    s.api.endpoints.iter().all(|e| {
        s.pod(e.uid)
            .is_some_and(|p| !p.status.phase.is_terminal() && p.status.pod_ip)
    }) || !m.endpoints_synced(s)
}

/// Judged on each client request: the proxy routes it to a pod on a node, and a container of
/// that pod runs there.
fn no_request_to_stopped_container(_: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Client(proxy::Request {
        via,
        uid: Some(uid),
    }) = *a
    else {
        return true;
    };
    let Some(&(_, node)) = s.proxies[via.index()].routes.iter().find(|r| r.0 == uid) else {
        return true;
    };
    s.rt(node, uid)
        .is_some_and(|rt| rt.ctrs.iter().any(|c| matches!(c.run, Run::Running(_))))
}

/// Judged on each client request through a kube-proxy that has routed to the Service before
/// (the history variable [`Proxy::served`]; startup is not judged): that proxy has an endpoint
/// for the Service.
fn no_request_finds_no_endpoints(_: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Client(proxy::Request { via, uid }) = *a else {
        return true;
    };
    !s.proxies[via.index()].served || !proxy::no_endpoints(s, via, uid)
}

/// Judged on each probe run: it does not put a liveness or startup worker on hold (what the
/// kubelet does when it kills the container for the probe) while the program is healthy.
fn no_restart_while_healthy(_: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Probe {
        node,
        uid,
        init,
        ctr,
        kind,
    }) = *a
    else {
        return true;
    };
    if kind == ProbeKind::Readiness {
        return true;
    }
    let slot = |st: &'_ State| -> Option<Ctr> {
        let rt = st.rt(node, uid)?;
        let list = if init { &rt.init } else { &rt.ctrs };
        list.get(ctr as usize).cloned()
    };
    let held = |c: &Ctr| c.probes[kind as usize].is_some_and(|w| w.on_hold);
    let (Some(before), Some(after)) = (slot(s), slot(n)) else {
        return true;
    };
    let (held_before, held_after) = (held(&before), held(&after));
    let healthy = matches!(&before.run, Run::Running(p) if p.healthy());
    !(healthy && !held_before && held_after)
}

/// Judged on each passage of time: no container stopped for its pod's deletion gets SIGKILL
/// (its grace after SIGTERM runs out before it exits on its own or by OOM).
fn graceful_stop_within_grace(_: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Tick(d) = *a else {
        return true;
    };
    ctrs(s).all(|c| {
        let Run::Running(p) = &c.run else {
            return true;
        };
        let Some(st) = p.stop else {
            return true;
        };
        let exits = p.exit_left.is_some_and(|t| t <= d) || p.oom_left.is_some_and(|t| t <= d);
        // A sidecar waiting for its turn gets SIGTERM, not SIGKILL, when its wait runs out.
        let sigkill = st.prestop_left.is_none() && !st.awaits_turn && st.kill_left <= d && !exits;
        !(st.why == StopWhy::Deletion && sigkill)
    })
}

fn job_fails_only_after_limit_plus_one(m: &Cluster, s: &State) -> bool {
    s.api.workloads.iter().enumerate().all(|(i, w)| {
        let Some(job) = &w.job else { return true };
        let podcheck_input::spec::Workload::Job { spec, .. } = &m.scenario.workloads[i] else {
            return true;
        };
        job.failure() != Some(JobReason::BackoffLimitExceeded)
            || job.failed_runs as u32 > spec.backoff_limit()
    })
}

fn rt_pods(s: &State) -> impl Iterator<Item = (usize, &PodRt)> {
    s.nodes
        .iter()
        .enumerate()
        .flat_map(|(n, node)| node.pods.iter().map(move |p| (n, &**p)))
}

fn statefulset_at_most_one(m: &Cluster, s: &State) -> bool {
    // One pass over the runtime records: the first node found running each identity
    // (workload, ordinal) of a StatefulSet; another node running it breaks the property.
    let mut first: smallvec::SmallVec<[((u8, u8), usize); 8]> = smallvec::SmallVec::new();
    rt_pods(s).all(|(n, p)| {
        let Workload::StatefulSet { spec, .. } = m.workload(p.workload) else {
            return true;
        };
        if p.suffix >= spec.replicas || !p.any_running() {
            return true;
        }
        let id = (p.workload, p.suffix);
        match first.iter().find(|(i, _)| *i == id) {
            Some(&(_, on)) => on == n,
            None => {
                first.push((id, n));
                true
            }
        }
    })
}

fn deployment_at_most_replicas_running(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().all(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return true;
        };
        // After a `kubectl scale`, the larger of the replicas before and after it.
        let now = derived::desired_replicas(m, s, w as u8).unwrap_or(spec.replicas);
        rt_pods(s)
            .filter(|(_, p)| p.workload as usize == w && p.any_running())
            .count()
            <= spec.replicas.max(now) as usize
    })
}

fn unreachable_pods_leave_endpoints(m: &Cluster, s: &State) -> bool {
    // Judged once the EndpointSlice controller has caught up (asked last: most often no
    // endpoint is on an unreachable node, and the answer does not matter).
    s.api.endpoints.iter().all(|e| {
        let n = e.node.index();
        !(e.conditions.ready && s.api.nodes[n].unknown && s.nodes[n].partitioned)
    }) || !m.endpoints_synced(s)
}

/// Judged on the kubelet's removal of a finished pod's object: the kubelet reaches the API
/// server.
fn terminating_until_kubelet_confirms(_: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    !matches!(*a, Action::Kubelet(kubelet::Action::RemoveObject { node, .. })
        if s.nodes[node.index()].partitioned)
}

/// Judged on each taint eviction: not every (live) node is not Ready.
fn no_eviction_in_full_disruption(m: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    !matches!(
        a,
        Action::Controller(controllers::Action::TaintEviction { .. })
    ) || !derived::full_disruption(m, s)
}

/// Judged on each node-pressure eviction: no other pod of a lower QoS class, not evicted,
/// still runs on the node.
fn eviction_respects_qos_order(m: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Evict { node, uid }) = *a else {
        return true;
    };
    let Some(victim) = s.rt(node, uid) else {
        return true;
    };
    let mine = derived::qos(m, victim.workload);
    !s.nodes[node.index()].pods.iter().any(|rt| {
        rt.uid != uid && !rt.evicted && rt.any_running() && derived::qos(m, rt.workload) < mine
    })
}

fn node_ready_unknown(_: &Cluster, s: &State) -> bool {
    s.api.nodes.iter().any(|n| n.unknown)
}

fn all_nodes_unknown(_: &Cluster, s: &State) -> bool {
    s.api.nodes.iter().all(|n| n.unknown)
}

/// kubectl prints `Terminating` for a pod with a deletionTimestamp whose phase is not terminal
/// (printPod; `Unknown` instead for status reason `NodeLost`, which no component of the model
/// writes): read from the pod's fields, not from the printed table.
fn pod_terminating_on_unreachable_node(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.node.is_some_and(|n| {
            s.nodes[n.index()].partitioned && s.rt(n, p.uid).is_some_and(|rt| rt.any_running())
        }) && p.deletion.is_some()
            && !p.status.phase.is_terminal()
    })
}

fn pod_evicted(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.reason == "Evicted")
}

/// Listed ready in the slice, and routed to by every kube-proxy that handles the Service
/// (none does for a headless one: `proxy::proxied`).
fn routed(m: &Cluster, s: &State, uid: u16) -> bool {
    s.api
        .endpoints
        .iter()
        .any(|e| e.uid == uid && e.conditions.ready)
        && (!proxy::proxied(&m.ctx)
            || s.proxies
                .iter()
                .all(|p| p.routes.iter().any(|r| r.0 == uid)))
}

fn some_ready_pod_unrouted(m: &Cluster, s: &State) -> bool {
    m.scenario.service.is_some()
        && s.api
            .pods
            .iter()
            .any(|p| p.status.ready && p.deletion.is_none() && !routed(m, s, p.uid))
}

fn no_ready_pod_unrouted(m: &Cluster, s: &State) -> bool {
    !some_ready_pod_unrouted(m, s)
}

fn some_pod_deleting(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.deletion.is_some())
}

fn no_pod_deleting(m: &Cluster, s: &State) -> bool {
    !some_pod_deleting(m, s)
}

fn some_bound_pod_not_started(m: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        let pullable = m
            .workload(p.workload)
            .template()
            .containers
            .iter()
            .chain(&m.workload(p.workload).template().init_containers)
            .all(|c| !c.app.image_pull_fails);
        p.node.is_some()
            && pullable
            && p.deletion.is_none()
            && !p.status.phase.is_terminal()
            && !p.ghost.ever_started
    })
}

fn no_bound_pod_not_started(m: &Cluster, s: &State) -> bool {
    !some_bound_pod_not_started(m, s)
}

fn replicas_short(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().any(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return false;
        };
        s.api
            .pods
            .iter()
            .filter(|p| p.workload as usize == w && derived::is_active(p))
            .count()
            < derived::desired_replicas(m, s, w as u8).unwrap_or(spec.replicas) as usize
    })
}

fn replicas_all_ready(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().all(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return true;
        };
        s.api
            .pods
            .iter()
            .filter(|p| p.workload as usize == w && derived::is_active(p) && p.status.ready)
            .count()
            >= derived::desired_replicas(m, s, w as u8).unwrap_or(spec.replicas) as usize
    })
}

/// Active pods of Deployment `w` in `s`, and its replicas (after a `kubectl scale`, the new
/// count).
fn active_and_desired(
    m: &Cluster,
    s: &State,
    w: usize,
    spec: &podcheck_input::spec::DeploymentSpec,
) -> (usize, usize) {
    let active = s
        .api
        .pods
        .iter()
        .filter(|p| p.workload as usize == w && derived::is_active(p))
        .count();
    let desired = derived::desired_replicas(m, s, w as u8).unwrap_or(spec.replicas) as usize;
    (active, desired)
}

fn replicas_surplus(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().any(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return false;
        };
        let (active, desired) = active_and_desired(m, s, w, spec);
        active > desired
    })
}

fn replicas_exact_and_ready(m: &Cluster, s: &State) -> bool {
    m.scenario.workloads.iter().enumerate().all(|(w, wl)| {
        let Workload::Deployment { spec, .. } = wl else {
            return true;
        };
        let (active, desired) = active_and_desired(m, s, w, spec);
        active == desired && replicas_all_ready(m, s)
    })
}

fn outage_over_pod_unready(m: &Cluster, s: &State) -> bool {
    let over =
        m.scenario.faults.iter().enumerate().any(|(i, f)| {
            matches!(f, Fault::DependencyOutage { .. }) && s.env.fired & (1 << i) != 0
        }) && !s.env.dependency_down;
    over && !all_pods_ready(m, s)
}

fn all_pods_ready(_: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .filter(|p| p.deletion.is_none() && !p.status.phase.is_terminal())
        .all(|p| p.status.ready)
}

fn pod_becomes_ready(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.ready)
}

fn endpoint_becomes_ready(m: &Cluster, s: &State) -> bool {
    s.api.endpoints.iter().any(|e| routed(m, s, e.uid))
}

fn pod_unschedulable(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.unschedulable.is_some())
}

fn printed_status(m: &Cluster, p: &Pod) -> String {
    render::print(m, p).status
}

fn status_image_pull_backoff(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| printed_status(m, p) == "ImagePullBackOff")
}

fn status_crash_loop_while_running(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.status.phase == Phase::Running && printed_status(m, p) == "CrashLoopBackOff")
}

fn status_oom_killed(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.status.statuses.iter().any(|c| {
            let now = matches!(&c.state, ContainerState::Terminated(t) if t.reason == "OOMKilled" && t.exit_code == 137);
            let last = c
                .last_state
                .as_ref()
                .is_some_and(|t| t.reason == "OOMKilled" && t.exit_code == 137);
            now || last
        })
    })
}

/// After a fault: a pod that is merely still booting proves nothing about the fault.
fn endpoint_not_ready_while_running(_: &Cluster, s: &State) -> bool {
    s.env.fired != 0
        && s.api.endpoints.iter().any(|e| {
            !e.conditions.ready
                && !e.conditions.terminating
                && s.rt(e.node, e.uid)
                    .is_some_and(|rt| rt.ctrs.iter().any(|c| matches!(c.run, Run::Running(_))))
        })
}

fn ready_again_after_outage(m: &Cluster, s: &State) -> bool {
    let outage_over =
        m.scenario.faults.iter().enumerate().any(|(i, f)| {
            matches!(f, Fault::DependencyOutage { .. }) && s.env.fired & (1 << i) != 0
        }) && !s.env.dependency_down;
    outage_over && s.api.pods.iter().any(|p| p.status.ready)
}

fn container_restarted(_: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.status.statuses.iter().any(|c| c.restart_count >= 1))
}

fn deleted_pod_ends_succeeded(_: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.deletion.is_some() && p.status.phase == Phase::Succeeded)
}

fn deleted_pod_ends_failed(_: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.deletion.is_some() && p.status.phase == Phase::Failed)
}

fn job_failed(_: &Cluster, s: &State) -> bool {
    s.api.workloads.iter().any(|w| {
        w.job.as_ref().is_some_and(|j| {
            j.condition == Some(JobCondition::Failed(JobReason::BackoffLimitExceeded))
        })
    })
}

fn job_completes(_: &Cluster, s: &State) -> bool {
    s.api.workloads.iter().any(|w| {
        w.job
            .as_ref()
            .is_some_and(|j| matches!(j.condition, Some(JobCondition::Complete(_))))
    })
}

fn status_error_failed_pod(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.status.phase == Phase::Failed && printed_status(m, p) == "Error")
}

fn stuck_pod_has_event(m: &Cluster, s: &State) -> bool {
    s.api.pods.iter().all(|p| {
        p.ghost.stuck_for < STUCK_CAP
            || !derived::stuck_now(m, s, p)
            || derived::has_step_failure_event(p)
    })
}

fn no_ip_no_endpoint(_: &Cluster, s: &State) -> bool {
    s.api
        .endpoints
        .iter()
        .all(|e| s.pod(e.uid).is_none_or(|p| p.status.pod_ip))
}

/// Judged when the kubelet writes a status: an API status written earlier, for an instance
/// that has since exited, may still say Running while the next instance runs its hook; that
/// is a stale report, not a report of this instance.
fn not_running_before_poststart(_: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::StatusUpdate { node, uid }) = *a else {
        return true;
    };
    let (Some(written), Some(rt)) = (n.kpod(node, uid), s.rt(node, uid)) else {
        return true;
    };
    !written.status.statuses.iter().zip(&rt.ctrs).any(|(st, c)| {
        matches!(st.state, ContainerState::Running)
            && matches!(&c.run, Run::Running(p) if p.post_start.is_some())
    })
}

fn static_pod_survives_mirror_delete(_: &Cluster, s: &State) -> bool {
    s.nodes
        .iter()
        .flat_map(|n| &n.pods)
        .all(|rt| !rt.static_pod || !rt.terminating)
}

fn force_delete_cleans_runtime(_: &Cluster, s: &State) -> bool {
    rt_pods(s).all(|(n, rt)| {
        rt.static_pod
            || s.pod(rt.uid).is_some()
            || !rt.any_running()
            || s.nodes[n].static_pods.iter().any(|p| p.uid == rt.uid)
    })
}

fn stuck_container_creating(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.ghost.stuck_for >= STUCK_CAP && printed_status(m, p) == "ContainerCreating")
}

fn stuck_terminating(m: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.deletion.is_some() && p.ghost.stuck_for >= STUCK_CAP && derived::stuck_now(m, s, p)
    })
}

fn status_create_container_config_error(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| printed_status(m, p) == "CreateContainerConfigError")
}

fn status_create_container_error(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| printed_status(m, p) == "CreateContainerError")
}

fn poststart_hook_failed(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        let recorded = p.events.read().post_start_failed;
        let waiting = p.status.statuses.iter().any(|c| {
            matches!(&c.state, ContainerState::Waiting { reason, .. }
                if reason == "PostStartHookError" || reason == "CrashLoopBackOff")
        });
        recorded && waiting
    })
}

fn status_outofcpu(m: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.status.phase == Phase::Failed && printed_status(m, p) == "OutOfcpu")
}

fn leftovers_after_force_delete(_: &Cluster, s: &State) -> bool {
    rt_pods(s).any(|(n, rt)| {
        !rt.static_pod
            && !s.nodes[n].partitioned
            && s.pod(rt.uid).is_none()
            && !rt.any_running()
            && (rt.volumes || rt.sandbox)
            && rt.terminating
    })
}

fn mirror_pod_recreated(_: &Cluster, s: &State) -> bool {
    s.env.mirror_deleted
        && s.nodes.iter().flat_map(|n| &n.pods).any(|rt| {
            rt.static_pod
                && rt.any_running()
                && s.mirror(rt.uid).is_some_and(|p| p.deletion.is_none())
        })
}

/// `--node-monitor-period`, the node lifecycle controller's pass (kube-controller-manager
/// default 5 s). The model marks a node Unknown at the first whole second past the grace
/// period, so it is never later than this.
const NODE_MONITOR_PERIOD: u64 = 5;

/// `tolerationSeconds` of the `node.kubernetes.io/unreachable` and `not-ready` tolerations
/// the DefaultTolerationSeconds admission plugin adds (300 s).
const DEFAULT_TOLERATION_SECONDS: u64 = 300;

fn grace_plus_monitor_period(m: &Cluster) -> u64 {
    m.node_monitor_grace as u64 + NODE_MONITOR_PERIOD
}

fn grace_monitor_and_proxy_lag(m: &Cluster) -> u64 {
    grace_plus_monitor_period(m) + m.scenario.cluster.proxy_lag_seconds as u64
}

fn grace_monitor_and_toleration(m: &Cluster) -> u64 {
    grace_plus_monitor_period(m) + DEFAULT_TOLERATION_SECONDS
}

fn toleration_plus_monitor_period(_: &Cluster) -> u64 {
    DEFAULT_TOLERATION_SECONDS + NODE_MONITOR_PERIOD
}

/// A second after the longest shutdown a program of the scenario takes after SIGTERM
/// (`podcheck.dev/stop-seconds`; 0 for one that exits at once).
fn a_second_after_shutdown(m: &Cluster) -> u64 {
    1 + m
        .scenario
        .workloads
        .iter()
        .flat_map(|w| w.template().containers.iter())
        .filter_map(|c| c.app.on_sigterm.stop_seconds())
        .map(u64::from)
        .max()
        .unwrap_or(0)
}

fn proxy_lag(m: &Cluster) -> u64 {
    m.scenario.cluster.proxy_lag_seconds as u64
}

/// The longest terminationGracePeriodSeconds of the scenario's pod templates.
fn longest_grace(m: &Cluster) -> u64 {
    m.scenario
        .workloads
        .iter()
        .map(|w| w.template().termination_grace_period_seconds as u64)
        .max()
        .unwrap_or(0)
}

/// The longest readiness periodSeconds × successThreshold of the scenario's containers.
fn readiness_period_times_success(m: &Cluster) -> u64 {
    m.scenario
        .workloads
        .iter()
        .flat_map(|w| &w.template().containers)
        .filter_map(|c| c.readiness_probe.as_ref())
        .map(|p| p.period_seconds as u64 * p.success_threshold as u64)
        .max()
        .unwrap_or(0)
}

/// The shortest preStop sleep of the scenario's containers (0 when one has none).
fn shortest_prestop_sleep(m: &Cluster) -> u64 {
    m.scenario
        .workloads
        .iter()
        .flat_map(|w| {
            // A `kubectl delete --grace-period` shorter than the sleep ends the hook sooner:
            // SIGTERM comes when the grace runs out (kuberuntime_container.go killContainer;
            // docs/sources.md#kubectl-delete-grace-period).
            let grace = m
                .scenario
                .faults
                .iter()
                .filter(|f| matches!(f, Fault::DeletePod { workload, .. } if workload == w.name()))
                .filter_map(|f| f.delete_grace().ok().flatten())
                .map(|g| g.max(1) as u64)
                .min()
                .unwrap_or(u64::MAX);
            w.template().containers.iter().map(move |c| {
                c.lifecycle
                    .as_ref()
                    .and_then(|l| l.pre_stop.as_ref())
                    .map_or(0, |p| (p.sleep.seconds as u64).min(grace))
            })
        })
        .min()
        .unwrap_or(0)
}

fn node_cut_off_unmarked(_: &Cluster, s: &State) -> bool {
    s.nodes
        .iter()
        .zip(s.api.nodes.iter())
        .any(|(n, o)| n.partitioned && !o.unknown && !o.deleted)
}

fn no_node_cut_off_unmarked(m: &Cluster, s: &State) -> bool {
    !node_cut_off_unmarked(m, s)
}

/// A kube-proxy on a reachable node routes to a pod on a node that is cut off.
fn pod_on_cut_off_node_routed(_: &Cluster, s: &State) -> bool {
    s.proxies.iter().enumerate().any(|(i, px)| {
        !s.nodes[i].partitioned
            && px
                .routes
                .iter()
                .any(|&(_, node)| s.nodes[node.index()].partitioned)
    })
}

fn no_pod_on_cut_off_node_routed(m: &Cluster, s: &State) -> bool {
    !pod_on_cut_off_node_routed(m, s)
}

/// Some node is cut off, and some Deployment has fewer pods with a running container on
/// reachable nodes than replicas.
fn deployment_short_while_cut_off(m: &Cluster, s: &State) -> bool {
    s.nodes.iter().any(|n| n.partitioned)
        && m.scenario.workloads.iter().enumerate().any(|(w, wl)| {
            let Workload::Deployment { spec, .. } = wl else {
                return false;
            };
            rt_pods(s)
                .filter(|(n, p)| {
                    !s.nodes[*n].partitioned && p.workload as usize == w && p.any_running()
                })
                .count()
                < derived::desired_replicas(m, s, w as u8).unwrap_or(spec.replicas) as usize
        })
}

fn deployment_not_short_or_healed(m: &Cluster, s: &State) -> bool {
    !deployment_short_while_cut_off(m, s)
}

fn pod_on_unknown_node_not_deleted(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.deletion.is_none()
            && !p.status.phase.is_terminal()
            && p.node.is_some_and(|n| s.api.nodes[n.index()].unknown)
    })
}

fn no_pod_on_unknown_node_not_deleted(m: &Cluster, s: &State) -> bool {
    !pod_on_unknown_node_not_deleted(m, s)
}

fn pod_deleting_on_reachable_node(_: &Cluster, s: &State) -> bool {
    s.api
        .pods
        .iter()
        .any(|p| p.deletion.is_some() && p.node.is_none_or(|n| !s.nodes[n.index()].partitioned))
}

fn no_pod_deleting_on_reachable_node(m: &Cluster, s: &State) -> bool {
    !pod_deleting_on_reachable_node(m, s)
}

/// A deleted pod's object exists, its kubelet is terminating it, and its containers are past
/// preStop: each has been sent SIGTERM or has stopped.
fn deleted_pod_past_sigterm(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| {
        p.deletion.is_some()
            && p.node.is_some_and(|n| {
                s.rt(n, p.uid).is_some_and(|rt| {
                    rt.terminating
                        && rt.ctrs.iter().all(|c| match &c.run {
                            Run::Running(proc) => proc.stop.is_some_and(|st| {
                                st.why == StopWhy::Deletion && st.prestop_left.is_none()
                            }),
                            _ => true,
                        })
                })
            })
    })
}

/// A kube-proxy on a reachable node routes to a pod that has a deletionTimestamp, or whose
/// object is gone.
fn deleted_pod_routed(_: &Cluster, s: &State) -> bool {
    s.proxies.iter().enumerate().any(|(i, px)| {
        !s.nodes[i].partitioned
            && px
                .routes
                .iter()
                .any(|&(uid, _)| s.pod(uid).is_none_or(|p| p.deletion.is_some()))
    })
}

fn no_deleted_pod_routed(m: &Cluster, s: &State) -> bool {
    !deleted_pod_routed(m, s)
}

fn job_failed_indexes(m: &Cluster, s: &State) -> bool {
    jobs(m, s).any(|(_, _, j)| j.condition == Some(JobCondition::Failed(JobReason::FailedIndexes)))
}

/// Judged on each status the kubelet writes: a pod Ready before is still Ready after unless
/// one of its containers stopped, is stopping, or does not answer its readiness probe.
fn healthy_pod_stays_ready(m: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::StatusUpdate { node, uid }) = *a else {
        return true;
    };
    let ready = |st: &State| st.pod(uid).is_some_and(|p| p.status.ready);
    if !ready(s) || ready(n) {
        return true;
    }
    let Some(rt) = s.rt(node, uid) else {
        return true;
    };
    let spec = m.workload(rt.workload).template();
    // Sidecars count as the regular containers do (they take part in ContainersReady).
    let sidecars = rt
        .init
        .iter()
        .zip(&spec.init_containers)
        .filter(|(_, cs)| cs.is_sidecar());
    let healthy = !rt.terminating
        && rt
            .ctrs
            .iter()
            .zip(&spec.containers)
            .chain(sidecars)
            .all(|(c, cs)| {
                let down = cs
                    .readiness_probe
                    .as_ref()
                    .is_some_and(|p| p.checks_dependency && s.env.dependency_down);
                matches!(&c.run, Run::Running(p) if p.answers() && p.stop.is_none()) && !down
            });
    !healthy
}

/// A graceful shutdown's last step (the machine powers off) finds no container running on the
/// node.
fn shutdown_stops_pods_before_power_off(_: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Shutdown { node }) = *a else {
        return true;
    };
    let i = node.index();
    if s.nodes[i].powered_off || !n.nodes[i].powered_off {
        return true;
    }
    s.nodes[i].pods.iter().all(|rt| !rt.any_running())
}

/// The shutdown step that starts the critical group finds no regular pod's container running.
fn shutdown_critical_pods_stop_last(m: &Cluster, s: &State, a: &Action, _: &State) -> bool {
    let Action::Kubelet(kubelet::Action::Shutdown { node }) = *a else {
        return true;
    };
    if kubelet::shutdown::next_group(m, s, node) != Some(1) {
        return true;
    }
    s.nodes[node.index()]
        .pods
        .iter()
        .filter(|rt| kubelet::shutdown::group_of(m, rt.workload) == 0)
        .all(|rt| !rt.any_running())
}

fn pod_rejected_node_shutdown(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.reason == "NodeShutdown")
}

/// Judged on each status update that turns a pod Ready: every running container (or sidecar)
/// with a readiness probe has a worker whose result is Success.
fn ready_only_after_readiness_success(m: &Cluster, s: &State, a: &Action, n: &State) -> bool {
    let Action::Kubelet(kubelet::Action::StatusUpdate { node, uid }) = *a else {
        return true;
    };
    let ready = |st: &State| st.pod(uid).is_some_and(|p| p.status.ready);
    if ready(s) || !ready(n) {
        return true;
    }
    let Some(rt) = s.rt(node, uid) else {
        return true;
    };
    let spec = m.workload(rt.workload).template();
    let ctrs = rt
        .init
        .iter()
        .zip(&spec.init_containers)
        .chain(rt.ctrs.iter().zip(&spec.containers));
    ctrs.filter(|(c, cs)| cs.readiness_probe.is_some() && matches!(c.run, Run::Running(_)))
        .all(|(c, _)| {
            c.probes[ProbeKind::Readiness as usize]
                .is_some_and(|w| w.result == ProbeResult::Success)
        })
}

/// The API pods whose container image a `setPodImage` set in place, with that container's
/// index in the template, and the pod's runtime record on its node (if any).
fn image_set_pods<'a>(
    m: &'a Cluster,
    s: &'a State,
) -> impl Iterator<Item = (&'a Pod, usize, Option<&'a PodRt>)> + 'a {
    s.api.pods.iter().filter_map(move |p| {
        let f = m.scenario.faults.get(p.image_set? as usize)?;
        let Fault::SetPodImage { container, .. } = f else {
            return None;
        };
        let i = m
            .workload(p.workload)
            .template()
            .containers
            .iter()
            .position(|c| &c.name == container)?;
        Some((&**p, i, p.node.and_then(|n| s.rt(n, p.uid))))
    })
}

fn container_restarted_by_spec_change(m: &Cluster, s: &State) -> bool {
    image_set_pods(m, s).any(|(p, i, rt)| {
        let name = &m.workload(p.workload).template().containers[i].name;
        let new_instance = rt.is_some_and(|rt| {
            let c = &rt.ctrs[i];
            c.patched && matches!(c.run, Run::Running(_))
        });
        new_instance
            && p.status.statuses.iter().any(|cs| {
                &cs.name == name
                    && cs.state == ContainerState::Running
                    && cs.ready
                    && cs.restart_count == 1
                    && cs.last_state.is_some()
            })
    })
}

/// The image was set on a pod that ran (the fault needs its container running), and now the
/// pod is not Ready: its new container is not Ready yet.
fn pod_unready_during_spec_change(m: &Cluster, s: &State) -> bool {
    image_set_pods(m, s).any(|(p, _, rt)| rt.is_some() && !p.status.ready && p.deletion.is_none())
}

/// Some pod's image was set in place, it is not being deleted, and its kubelet does not yet
/// run the container with the new image.
fn spec_change_pending(m: &Cluster, s: &State) -> bool {
    image_set_pods(m, s).any(|(p, i, rt)| {
        p.deletion.is_none()
            && rt.is_some_and(|rt| {
                let c = &rt.ctrs[i];
                let new_instance_runs = c.patched && matches!(c.run, Run::Running(_));
                !rt.terminating && !new_instance_runs
            })
    })
}

fn no_spec_change_pending(m: &Cluster, s: &State) -> bool {
    !spec_change_pending(m, s)
}
