//! One wording of every action: the text trace, JSON, ITF, Mermaid, DOT and the Explorer all
//! name actors and actions through this module, so they cannot drift apart.

use podcheck_model::controllers::{self, node_lifecycle, Controller};
use podcheck_model::kubelet::{self, Step};
use podcheck_model::spec::Fault;
use podcheck_model::state::*;
use podcheck_model::{faults, proxy, scheduler, Action, Actor, Context};

/// Who acts, typed: the model's [`Actor`], except that an unfair fault is split by who
/// really does it (an operator's `kubectl`, the network, or the environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Who {
    /// An operator, with `kubectl`.
    Kubectl,
    /// A component, the network, a client or the environment.
    Actor(Actor),
}

/// Who takes the action.
pub fn who(m: &Context, a: &Action) -> Who {
    match a {
        Action::Fault(faults::Action::Fault { index, .. }) => {
            match fault_by(m.scenario.faults.get(*index as usize)) {
                FaultBy::Kubectl => Who::Kubectl,
                FaultBy::Network => Who::Actor(Actor::Network),
                FaultBy::Environment => Who::Actor(Actor::Environment),
            }
        }
        _ => Who::Actor(a.actor()),
    }
}

/// The name of who acts.
pub fn who_name(m: &Context, w: Who) -> String {
    match w {
        Who::Kubectl => "kubectl".into(),
        Who::Actor(a) => actor(m, a),
    }
}

/// Who acts, as a reader calls it: `kubelet@node-1`, `scheduler`, `kubectl`, `network`,
/// `client`, `clock`, … (the name of [`who`]). Every rendering names actors with this.
pub fn actor_name(m: &Context, a: &Action) -> String {
    who_name(m, who(m, a))
}

/// The name of an actor.
pub fn actor(m: &Context, a: Actor) -> String {
    match a {
        Actor::Clock => "clock".into(),
        Actor::Scheduler => "scheduler".into(),
        Actor::Kubelet(n) => format!("kubelet@{}", m.node_name(n)),
        Actor::Controller(c) => controller(c).into(),
        Actor::KubeProxy(n) => format!("kube-proxy@{}", m.node_name(n)),
        Actor::Network => "network".into(),
        Actor::Client => "client".into(),
        Actor::Environment => "environment".into(),
    }
}

/// The name of the ReplicaSet of a Deployment's template revision: `<deployment>-<hash>`
/// upstream, `<deployment>-rev<N>` here, with the revision number the
/// `deployment.kubernetes.io/revision` annotation gives it (1 for the scenario's template).
pub fn replica_set(m: &Context, workload: u8, revision: u8) -> String {
    format!("{}-rev{}", m.workload(workload).name(), revision + 1)
}

/// A controller's name, as kube-controller-manager logs it.
pub fn controller(c: Controller) -> &'static str {
    match c {
        Controller::ReplicaSet => "replicaset-controller",
        Controller::Job => "job-controller",
        Controller::StatefulSet => "statefulset-controller",
        Controller::EndpointSlice => "endpointslice-controller",
        Controller::NodeLifecycle => "node-lifecycle-controller",
        Controller::TaintEviction => "taint-eviction-controller",
        Controller::PodGc => "pod-garbage-collector",
        Controller::AttachDetach => "attachdetach-controller",
        Controller::Deployment => "deployment-controller",
    }
}

/// Who carries out a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultBy {
    Kubectl,
    Network,
    Environment,
}

/// Who carries out a fault of the scenario.
pub fn fault_by(f: Option<&Fault>) -> FaultBy {
    match f {
        Some(
            Fault::DeletePod { .. }
            | Fault::ForceDeletePod { .. }
            | Fault::DeleteNode { .. }
            | Fault::OutOfServiceTaint { .. }
            | Fault::RolloutRestart { .. },
        ) => FaultBy::Kubectl,
        Some(Fault::Partition { .. } | Fault::ControlPlanePartition {}) => FaultBy::Network,
        _ => FaultBy::Environment,
    }
}

/// The name of who carries out a fault of the scenario.
pub fn fault_actor(f: Option<&Fault>) -> &'static str {
    match fault_by(f) {
        FaultBy::Kubectl => "kubectl",
        FaultBy::Network => "network",
        FaultBy::Environment => "environment",
    }
}

/// The action in Kubernetes words, with its actor: `kubelet@node-1: start container app of
/// web-1`; the clock's steps read `time passes N s`.
pub fn describe(m: &Context, state: &State, action: &Action) -> String {
    match action {
        Action::Tick(_) => what(m, state, action),
        _ => format!("{}: {}", actor_name(m, action), what(m, state, action)),
    }
}

/// What the action does, without its actor.
pub fn what(m: &Context, state: &State, action: &Action) -> String {
    let name = |uid: u16| m.uid_name(state, uid);
    match *action {
        Action::Tick(d) => format!("time passes {d} s"),
        Action::Controller(c) => match c {
            controllers::Action::ReplicaSetSync { workload, revision } => {
                let d = state.api.workloads[workload as usize].deployment.as_ref();
                let want = controllers::replicaset::rs_replicas(state, workload, revision);
                let active = controllers::replicaset::active_of(state, workload, revision).count();
                let name = m.workload(workload).name();
                if d.is_none_or(|d| d.template == 0) && revision == 0 {
                    format!("create pods for Deployment {name}")
                } else if want.is_some_and(|w| w as usize > active) {
                    format!(
                        "create pods for ReplicaSet {}",
                        replica_set(m, workload, revision)
                    )
                } else {
                    format!(
                        "delete pods of ReplicaSet {}",
                        replica_set(m, workload, revision)
                    )
                }
            }
            controllers::Action::DeploymentSync { workload } => {
                format!("sync Deployment {}", m.workload(workload).name())
            }
            controllers::Action::JobSync { workload } => {
                format!("sync Job {}", m.workload(workload).name())
            }
            controllers::Action::StatefulSetSync { workload } => {
                format!("sync StatefulSet {}", m.workload(workload).name())
            }
            controllers::Action::NodeLifecycle { node, step } => {
                let n = m.node_name(node);
                match step {
                    node_lifecycle::Step::MarkUnknown => format!(
                        "{n} Ready=Unknown (Kubelet stopped posting node status), its pods Ready=False"
                    ),
                    node_lifecycle::Step::Taint => format!(
                        "taint {n} node.kubernetes.io/unreachable:NoSchedule,NoExecute"
                    ),
                    node_lifecycle::Step::Untaint => {
                        format!("remove the unreachable taints of {n}")
                    }
                }
            }
            controllers::Action::TaintEviction { uid } => format!(
                "delete pod {} (DeletionByTaintManager, graceful)",
                name(uid)
            ),
            controllers::Action::PodGc { uid } => {
                format!("mark {} Failed and force-delete it", name(uid))
            }
            controllers::Action::AttachVolume { claim, node } => {
                let fails = podcheck_model::derived::dsw_pods(m, state, claim, node).any(|p| {
                    m.step_failure(p.workload, podcheck_model::spec::FailingStep::AttachVolume)
                        .is_some()
                });
                format!(
                    "attach the volume of claim {} to {}{}",
                    m.claims[claim as usize].name,
                    m.node_name(node),
                    if fails { " (fails)" } else { "" }
                )
            }
            controllers::Action::MultiAttach { claim, node } => format!(
                "Multi-Attach error: the volume of claim {} is attached to another node, not to {}",
                m.claims[claim as usize].name,
                m.node_name(node)
            ),
            controllers::Action::DetachVolume { claim, node } => {
                use podcheck_model::derived::DetachWhy;
                let why = state
                    .api
                    .attached
                    .iter()
                    .find(|a| a.claim == claim && a.node == node)
                    .and_then(|a| podcheck_model::derived::detach_why(m, state, a));
                format!(
                    "detach the volume of claim {} from {}{}",
                    m.claims[claim as usize].name,
                    m.node_name(node),
                    match why {
                        Some(DetachWhy::Timeout) => {
                            " (force detach: still mounted, maxWaitForUnmountDuration 6m0s expired on an unhealthy node)"
                        }
                        Some(DetachWhy::OutOfService) => {
                            " (force detach: still mounted, the node has the out-of-service taint)"
                        }
                        _ => "",
                    }
                )
            }
            controllers::Action::EndpointSliceSync => "update EndpointSlice".into(),
        },
        Action::Kubelet(k) => match k {
            kubelet::Action::NodeStatus { .. } => "post node status Ready=True".into(),
            kubelet::Action::Evict { uid, .. } => format!("evict {} (memory pressure)", name(uid)),
            kubelet::Action::Sync { uid, step, .. } => {
                format!("{} {}", kubelet_step(m, state, uid, step), name(uid))
            }
            kubelet::Action::Probe {
                node,
                uid,
                ctr,
                kind,
            } => {
                let c = state
                    .rt(node, uid)
                    .map(|rt| m.container(rt.workload, false, ctr as usize).name.clone())
                    .unwrap_or_default();
                format!("{} probe {}/{}", kind.name(), name(uid), c)
            }
            kubelet::Action::StatusUpdate { uid, .. } => format!("status update {}", name(uid)),
            kubelet::Action::RemoveObject { uid, .. } => {
                format!("delete finished pod object {}", name(uid))
            }
        },
        Action::Scheduler(scheduler::Action::Schedule { uid, node: Some(n) }) => {
            format!("bind {} to {}", name(uid), m.node_name(n))
        }
        Action::Scheduler(scheduler::Action::Schedule { uid, node: None }) => {
            format!("{} Unschedulable", name(uid))
        }
        Action::KubeProxy(proxy::Action::Sync { .. }) => "apply EndpointSlice".into(),
        Action::Client(proxy::Request {
            via,
            uid: Some(uid),
        }) => format!(
            "request via kube-proxy@{} to {}",
            m.node_name(via),
            name(uid)
        ),
        Action::Client(proxy::Request { via, uid: None }) => format!(
            "request via kube-proxy@{}, which has no endpoint",
            m.node_name(via)
        ),
        Action::Fault(faults::Action::Heal { index }) => heal(m, index),
        Action::Fault(faults::Action::Fault { index, target }) => fault(m, state, index, target),
    }
}

/// The action in a few words, without the state: for the Explorer's action list and the
/// edges of a state graph, where no state is at hand to name a pod by.
pub fn short(m: &Context, action: &Action) -> String {
    let pod = |uid: u16| format!("pod {uid}");
    match *action {
        Action::Tick(d) => format!("+{d}s"),
        Action::Kubelet(kubelet::Action::Sync { step, uid, .. }) => {
            format!("{} {}", step_name(step), pod(uid))
        }
        Action::Kubelet(kubelet::Action::Probe { kind, uid, .. }) => {
            format!("{} probe {}", kind.name(), pod(uid))
        }
        Action::Fault(faults::Action::Fault { index, .. }) => {
            let f = m.scenario.faults.get(index as usize);
            format!("{}: {}", fault_actor(f), fault_kind(f))
        }
        _ => {
            let a = actor(m, action.actor());
            match action.pod() {
                Some(uid) => format!("{a} {}", pod(uid)),
                None => a,
            }
        }
    }
}

/// A fault's kind, in the catalogue's words.
fn fault_kind(f: Option<&Fault>) -> &'static str {
    match f {
        Some(Fault::DeletePod { .. }) => "delete pod",
        Some(Fault::ForceDeletePod { .. }) => "force delete pod",
        Some(Fault::Partition { .. }) => "partition",
        Some(Fault::ControlPlanePartition {}) => "control-plane partition",
        Some(Fault::DeleteNode { .. }) => "delete node",
        Some(Fault::OutOfServiceTaint { .. }) => "out-of-service taint",
        Some(Fault::MemoryPressure { .. }) => "memory pressure",
        Some(Fault::DependencyOutage { .. }) => "dependency outage",
        Some(Fault::Deadlock { .. }) => "deadlock",
        Some(Fault::StepFails { .. }) => "step fails",
        Some(Fault::RolloutRestart { .. }) => "rollout restart",
        None => "fault",
    }
}

/// A pod-worker step's name.
pub fn step_name(step: Step) -> &'static str {
    match step {
        Step::Admit => "admit",
        Step::Reject => "reject",
        Step::MountVolumes => "mount volumes",
        Step::CreateSandbox => "create sandbox",
        Step::PullImage { .. } => "pull image",
        Step::ImagePullBackOff { .. } => "ImagePullBackOff",
        Step::CrashLoopBackOff { .. } => "CrashLoopBackOff",
        Step::Start { .. } => "start",
        Step::KillPod => "kill pod",
        Step::Cleanup => "cleanup",
        Step::KillOrphan => "kill orphan",
        Step::Forget => "forget",
        Step::PostStartDone { .. } => "postStart done",
        Step::CreateMirror => "create mirror",
        Step::DeleteMirror => "delete mirror",
    }
}

/// A pod-worker step in words (followed by the pod's name).
pub fn kubelet_step(m: &Context, state: &State, uid: u16, step: Step) -> String {
    let cname = |init: bool, ctr: u8| -> String {
        state
            .pod(uid)
            .or_else(|| {
                state
                    .nodes
                    .iter()
                    .find_map(|n| n.static_pods.iter().find(|p| p.uid == uid).map(|p| &**p))
            })
            .map(|p| {
                let t = m.workload(p.workload).template();
                let list = if init {
                    &t.init_containers
                } else {
                    &t.containers
                };
                list[ctr as usize].name.clone()
            })
            .unwrap_or_default()
    };
    match step {
        Step::Admit => "admit".into(),
        Step::Reject => "reject (admission)".into(),
        Step::MountVolumes => "mount volumes of".into(),
        Step::CreateSandbox => "RunPodSandbox + CNI ADD (pod IP) for".into(),
        Step::PullImage { init, ctr } => format!("pull image of {}", cname(init, ctr)),
        Step::ImagePullBackOff { init, ctr } => {
            format!("back-off pulling image of {}", cname(init, ctr))
        }
        Step::CrashLoopBackOff { init, ctr } => {
            format!("back-off restarting {}", cname(init, ctr))
        }
        Step::Start { init, ctr } => format!(
            "start {}container {}",
            if init { "init " } else { "" },
            cname(init, ctr)
        ),
        Step::KillPod => "kill (preStop, SIGTERM) containers of".into(),
        Step::Cleanup => "tear down sandbox and network of".into(),
        Step::KillOrphan => "kill (SIGTERM) containers of force-deleted".into(),
        Step::Forget => "forget".into(),
        Step::PostStartDone { ctr } => {
            format!("postStart hook of {} returned in", cname(false, ctr))
        }
        Step::CreateMirror => "create the mirror pod of static pod".into(),
        Step::DeleteMirror => "delete (grace 0) the deleted mirror pod of static pod".into(),
    }
}

/// A `stepFails` condition in words.
pub fn condition_words(f: &Fault) -> String {
    match f {
        Fault::StepFails {
            workload,
            step,
            hangs,
            ..
        } => format!(
            "{} {} for the pods of {workload}",
            step.name(),
            if *hangs { "hangs" } else { "fails" }
        ),
        _ => String::new(),
    }
}

/// The heal in words.
fn heal(m: &Context, index: u8) -> String {
    match m.scenario.faults.get(index as usize) {
        Some(Fault::Partition { node, .. }) => {
            format!("the partition of {node} heals")
        }
        _ => format!("heal #{index}"),
    }
}

/// The fault in words.
fn fault(m: &Context, s: &State, index: u8, target: Option<u16>) -> String {
    let name = |t: Option<u16>| t.map(|u| m.uid_name(s, u)).unwrap_or_default();
    match m.scenario.faults.get(index as usize) {
        Some(Fault::DeletePod { .. }) => format!("delete pod {}", name(target)),
        Some(Fault::Partition { node, .. }) => {
            format!("{node} is cut off from the API server (its containers keep running)")
        }
        Some(Fault::ControlPlanePartition {}) => {
            "the API server is unreachable from every node (containers keep running)".into()
        }
        Some(Fault::DeleteNode { node }) => format!("delete node {node}"),
        Some(Fault::OutOfServiceTaint { node }) => {
            format!("taint node {node} node.kubernetes.io/out-of-service=nodeshutdown:NoExecute")
        }
        Some(Fault::MemoryPressure { node }) => {
            format!("the programs on {node} grow to their memory use")
        }
        Some(Fault::ForceDeletePod { .. }) => {
            format!("delete pod {} --grace-period=0 --force", name(target))
        }
        Some(Fault::DependencyOutage { seconds }) => {
            format!("the dependency goes down for {seconds} s")
        }
        Some(Fault::Deadlock { .. }) => {
            format!("the program in {} deadlocks", name(target))
        }
        Some(f @ Fault::StepFails { .. }) => condition_words(f),
        Some(Fault::RolloutRestart { workload }) => {
            format!("rollout restart deployment/{workload} (the pod template changes)")
        }
        None => format!("fault #{index}"),
    }
}
