//! One wording of every action: the text trace, JSON, ITF, Mermaid, DOT and the Explorer all
//! name actors and actions through this module, so they cannot drift apart.

use podcheck_input::spec::Fault;
use podcheck_model::controllers::{self, node_lifecycle, Controller};
use podcheck_model::kubelet::{self, Step};
use podcheck_model::state::*;
use podcheck_model::{drain, faults, proxy, scheduler, Action, Actor, Context};

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
        // The drain client is `kubectl` too.
        Action::Drain(_) => Who::Kubectl,
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
        Actor::Drain(_) => "kubectl".into(),
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
        Controller::Disruption => "disruption-controller",
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
            | Fault::Cordon { .. }
            | Fault::Uncordon { .. }
            | Fault::Drain { .. }
            | Fault::RolloutRestart { .. }
            | Fault::Scale { .. }
            | Fault::SetPodImage { .. },
        ) => FaultBy::Kubectl,
        Some(Fault::KubeletRestart { .. }) => FaultBy::Environment,
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

/// The step in Kubernetes words, with its actor: `kubelet@node-1: start container app of
/// web-1`; the clock's steps read `time passes N s`. `state` is the state the action is taken
/// in and `after` the state it leads to.
pub fn describe(m: &Context, state: &State, action: &Action, after: &State) -> String {
    match action {
        Action::Tick(_) => what(m, state, action, after),
        _ => format!(
            "{}: {}",
            actor_name(m, action),
            what(m, state, action, after)
        ),
    }
}

/// What the step does, without its actor: read from the state before (`state`) and the state
/// after (`after`); nothing here changes a state.
pub fn what(m: &Context, state: &State, action: &Action, after: &State) -> String {
    let name = |uid: u16| m.uid_name(state, uid);
    match *action {
        Action::Tick(d) => format!("time passes {d} s"),
        Action::Controller(c) => match c {
            controllers::Action::ReplicaSetSync {
                workload, revision, ..
            } => {
                let d = state.api.workloads[workload as usize].deployment.as_ref();
                let want = controllers::replicaset::rs_replicas(state, workload, revision);
                let active = controllers::replicaset::active_of(state, workload, revision).count();
                let name = m.workload(workload).name();
                let grows = want.is_some_and(|w| w as usize > active);
                if d.is_none_or(|d| d.template == 0) && revision == 0 {
                    if grows {
                        format!("create pods for Deployment {name}")
                    } else {
                        format!("delete pods of Deployment {name}")
                    }
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
                let set = m.workload(workload).name();
                // From the StatefulSet's first template change on, what the sync did to
                // which revision.
                let Some(revs) = after.api.workloads[workload as usize].statefulset else {
                    return format!("sync StatefulSet {set}");
                };
                let rev = |r: u8| format!("revision {}", r + 1);
                let mut did = Vec::new();
                for p in after.api.pods.iter() {
                    if p.workload == workload && state.pod(p.uid).is_none() {
                        did.push(format!("create {} at {}", m.pod_name(p), rev(p.revision)));
                    }
                }
                for p in state.api.pods.iter() {
                    let deleted = p.workload == workload
                        && p.deletion.is_none()
                        && after.pod(p.uid).is_none_or(|q| q.deletion.is_some());
                    if !deleted {
                        continue;
                    }
                    did.push(if p.revision != revs.update && !p.status.phase.is_terminal() {
                        format!(
                            "delete {} for update ({} → {})",
                            m.pod_name(p),
                            rev(p.revision),
                            rev(revs.update)
                        )
                    } else {
                        format!("delete {}", m.pod_name(p))
                    });
                }
                let before = state.api.workloads[workload as usize].statefulset;
                if before.is_some_and(|b| b.current != revs.current) {
                    did.push(format!(
                        "currentRevision {} (rolling update complete)",
                        rev(revs.current)
                    ));
                }
                if did.is_empty() {
                    format!("sync StatefulSet {set}")
                } else {
                    format!("sync StatefulSet {set}: {}", did.join(", "))
                }
            }
            controllers::Action::NodeLifecycle { node, step } => {
                let n = m.node_name(node);
                match step {
                    node_lifecycle::Step::MarkUnknown => format!(
                        "{n} Ready=Unknown (Kubelet stopped posting node status), its pods Ready=False"
                    ),
                    node_lifecycle::Step::MarkNotReady => {
                        let obj = &after.api.nodes[node.index()];
                        if obj.not_ready_taint {
                            format!(
                                "{n} Ready=False: its pods Ready=False, taint it node.kubernetes.io/not-ready:NoSchedule,NoExecute"
                            )
                        } else if podcheck_model::derived::full_disruption(m, after) {
                            format!(
                                "{n} Ready=False: its pods Ready=False; no node is Ready, so no taint (master disruption mode)"
                            )
                        } else {
                            format!(
                                "{n} Ready=False: its pods Ready=False; no taint while the zone is partially disrupted (tainting rate 0 up to 50 nodes)"
                            )
                        }
                    }
                    node_lifecycle::Step::TaintNotReady => format!(
                        "taint {n} node.kubernetes.io/not-ready:NoSchedule,NoExecute"
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
                    m.step_failure(p.workload, podcheck_input::spec::FailingStep::AttachVolume)
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
            controllers::Action::DisruptionSync { pdb } => disruption_sync(m, state, pdb),
        },
        Action::Kubelet(k) => match k {
            kubelet::Action::NodeStatus { node } => {
                if state.nodes[node.index()].shutdown.is_some() {
                    "post node status Ready=False (KubeletNotReady: node is shutting down)".into()
                } else {
                    "post node status Ready=True".into()
                }
            }
            kubelet::Action::Shutdown { node } => shutdown_step(m, state, node),
            kubelet::Action::Start { .. } => {
                "start again: the running containers are kept; the probe results were in memory only, and each pod gets its probe workers in its first sync".into()
            }
            kubelet::Action::Evict { uid, .. } => format!("evict {} (memory pressure)", name(uid)),
            kubelet::Action::Sync { uid, step, .. } => {
                format!("{} {}", kubelet_step(m, state, uid, step), name(uid))
            }
            kubelet::Action::Probe {
                node,
                uid,
                init,
                ctr,
                kind,
            } => {
                let c = state
                    .rt(node, uid)
                    .map(|rt| m.container(rt.workload, init, ctr as usize).name.clone())
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
        Action::Drain(a) => drain_step(m, state, a, after),
    }
}

/// The disruption controller's status write, with the status it writes.
fn disruption_sync(m: &Context, state: &State, pdb: u8) -> String {
    let st = controllers::disruption::desired_status(m, state, pdb as usize);
    format!(
        "update PodDisruptionBudget {} status: currentHealthy {}, desiredHealthy {}, expectedPods {}, disruptionsAllowed {}",
        m.scenario.pod_disruption_budgets[pdb as usize].metadata.name,
        st.current_healthy,
        st.desired_healthy,
        st.expected_pods,
        st.disruptions_allowed
    )
}

/// What the API server answered a drain's eviction, as the step shows it: from the state before
/// and the run's record of the pod after (`drain::apply`: accepted, the run waits for the pod
/// to go; 429, the run asks again in 5 s; 404 or 500, the run drops the pod).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Evicted,
    /// 429 about the pod's budget; `processing`: its status is not yet observed.
    TooManyRequests {
        budget: u8,
        processing: bool,
    },
    NotFound,
    MultipleBudgets,
}

/// The answer to the eviction of `uid` by the drain of fault `fault`, from the states before
/// and after the step.
fn eviction_answer(m: &Context, before: &State, after: &State, fault: u8, uid: u16) -> Answer {
    let Some(pod) = before.pod(uid) else {
        return Answer::NotFound;
    };
    let step = after
        .env
        .drains
        .iter()
        .find(|d| d.fault == fault)
        .and_then(|d| d.pods.iter().find(|p| p.uid == uid))
        .map(|p| p.step);
    match step {
        Some(DrainStep::Deleting) => Answer::Evicted,
        Some(DrainStep::Request { .. }) => {
            // A 429 is about the pod's one budget: while its status is not observed, "still
            // being processed"; else it allows no disruption.
            let budget = m.budgets[pod.workload as usize]
                .first()
                .copied()
                .unwrap_or(0);
            let processing = before
                .api
                .pdbs
                .get(budget as usize)
                .is_some_and(|st| !st.observed);
            Answer::TooManyRequests { budget, processing }
        }
        None => Answer::MultipleBudgets,
    }
}

/// A step of a `kubectl drain` run, with what the API server answered (`drain.go`,
/// `eviction.go`, and `kubectl drain`'s own output lines), read from the states before and
/// after it.
fn drain_step(m: &Context, state: &State, a: drain::Action, after: &State) -> String {
    let fault = m.scenario.faults.get(a.fault() as usize);
    let (node, disable_eviction, force, emptydir) = match fault {
        Some(Fault::Drain {
            node,
            disable_eviction,
            force,
            delete_emptydir_data,
        }) => (
            node.as_str(),
            *disable_eviction,
            *force,
            *delete_emptydir_data,
        ),
        _ => ("", false, false, false),
    };
    let run = state.env.drains.iter().find(|d| d.fault == a.fault());
    // The pod by the name the run listed it with (its object may be gone).
    let name = |uid: u16| {
        run.and_then(|d| d.pods.iter().find(|p| p.uid == uid))
            .map(|p| m.name_of(p.workload, p.suffix))
            .unwrap_or_else(|| m.uid_name(state, uid))
    };
    // Whether this step ends the run: no other pod is left.
    let last = |uid: u16| run.is_some_and(|d| d.pods.iter().all(|p| p.uid == uid));
    let drained = |uid: u16| {
        if last(uid) && !run.is_some_and(|d| d.failed) {
            format!("; node/{node} drained")
        } else {
            String::new()
        }
    };
    match a {
        drain::Action::Cordon { .. } => {
            let n = run.map_or(NodeId(0), |d| d.node);
            let cordon = if state.api.nodes[n.index()].unschedulable {
                format!("node/{node} already cordoned")
            } else {
                format!("node/{node} cordoned")
            };
            let refused: Vec<String> = drain::listed(state, n)
                .filter_map(|p| {
                    drain::refusal(m, p, force, emptydir).map(|r| format!("{}: {r}", m.pod_name(p)))
                })
                .collect();
            let pods: Vec<String> = drain::listed(state, n).map(|p| m.pod_name(p)).collect();
            if !refused.is_empty() {
                format!(
                    "{cordon}; error: unable to drain node \"{node}\": cannot delete {}",
                    refused.join(", ")
                )
            } else if pods.is_empty() {
                format!("{cordon}; no pods to evict; node/{node} drained")
            } else {
                format!("{cordon}; pods to evict: {}", pods.join(", "))
            }
        }
        drain::Action::Evict { uid, .. } if disable_eviction => {
            // The plain DELETE removed the object at once (an unscheduled or finished pod), or
            // only set its deletionTimestamp.
            let gone = state.pod(uid).is_some() && after.pod(uid).is_none();
            format!(
                "delete pod {} (--disable-eviction: no budget is checked){}",
                name(uid),
                if gone { drained(uid) } else { String::new() }
            )
        }
        drain::Action::Evict { uid, fault } => {
            let before = state.pod(uid).and_then(|p| {
                m.budgets[p.workload as usize]
                    .first()
                    .map(|b| (*b, state.api.pdbs[*b as usize].clone()))
            });
            let budget = |b: u8| &m.scenario.pod_disruption_budgets[b as usize].metadata.name;
            match eviction_answer(m, state, after, fault, uid) {
                Answer::Evicted => {
                    let condition = if m.by_release.pod_disruption_conditions {
                        ", DisruptionTarget=True reason EvictionByEvictionAPI"
                    } else {
                        ""
                    };
                    let spent = match before {
                        Some((b, st)) if after.api.pdbs[b as usize] != st => format!(
                            ", budget {} disruptionsAllowed {} -> {}",
                            budget(b),
                            st.disruptions_allowed,
                            after.api.pdbs[b as usize].disruptions_allowed
                        ),
                        _ => String::new(),
                    };
                    let gone = if after.pod(uid).is_none() { drained(uid) } else { String::new() };
                    format!(
                        "evict pod {}: evicted (graceful delete{condition}{spent}){gone}",
                        name(uid)
                    )
                }
                Answer::TooManyRequests { budget: b, processing } => {
                    let cause = if processing {
                        format!("The disruption budget {} is still being processed by the server.", budget(b))
                    } else {
                        let st = &state.api.pdbs[b as usize];
                        format!(
                            "The disruption budget {} needs {} healthy pods and has {} currently",
                            budget(b),
                            st.desired_healthy,
                            st.current_healthy
                        )
                    };
                    format!(
                        "evict pod {}: 429 Cannot evict pod as it would violate the pod's disruption budget. ({cause}); will retry after 5s",
                        name(uid)
                    )
                }
                Answer::NotFound => format!("evict pod {}: not found{}", name(uid), drained(uid)),
                Answer::MultipleBudgets => format!(
                    "evict pod {}: 500 This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                    name(uid)
                ),
            }
        }
        drain::Action::Gone { uid, .. } => {
            let verb = if disable_eviction {
                "deleted"
            } else {
                "evicted"
            };
            let end = if last(uid) {
                if run.is_some_and(|d| d.failed) {
                    format!("; error: unable to drain node \"{node}\"")
                } else {
                    format!("; node/{node} drained")
                }
            } else {
                String::new()
            };
            format!("pod/{} {verb}{end}", name(uid))
        }
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

/// The node shutdown manager's next step, from the state before it.
fn shutdown_step(m: &Context, state: &State, node: NodeId) -> String {
    let n = m.node_name(node);
    match kubelet::shutdown::next_group(m, state, node) {
        Some(g) => format!(
            "shutdown manager of {n}: kill the {} pods (grace {} s)",
            if g == 0 { "regular" } else { "critical" },
            kubelet::shutdown::group_grace(m, node, g)
        ),
        None => format!("shutdown manager of {n}: release the inhibitor lock; {n} powers off"),
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
        Some(Fault::Crash { .. }) => "crash",
        Some(Fault::KubeletRestart { .. }) => "kubelet restart",
        Some(Fault::PowerOff { .. }) => "power-off",
        Some(Fault::NodeShutdown { .. }) => "node shutdown",
        Some(Fault::StepFails { .. }) => "step fails",
        Some(Fault::Cordon { .. }) => "cordon",
        Some(Fault::Uncordon { .. }) => "uncordon",
        Some(Fault::Drain { .. }) => "drain",
        Some(Fault::RolloutRestart { .. }) => "rollout restart",
        Some(Fault::Scale { .. }) => "scale",
        Some(Fault::SetPodImage { .. }) => "set image",
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
        Step::NeverPull { .. } => "ErrImageNeverPull",
        Step::CrashLoopBackOff { .. } => "CrashLoopBackOff",
        Step::Start { .. } => "start",
        Step::RestartChanged { .. } => "kill changed container",
        Step::KillPod => "kill pod",
        Step::Cleanup => "cleanup",
        Step::KillOrphan => "kill orphan",
        Step::Forget => "forget",
        Step::SidecarTurn { .. } => "sidecar's turn",
        Step::PostStartDone { .. } => "postStart done",
        Step::AddProbeWorkers => "add probe workers",
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
    let sidecar = |ctr: u8| {
        state
            .nodes
            .iter()
            .find_map(|n| n.pods.iter().find(|r| r.uid == uid))
            .and_then(|r| {
                m.workload(r.workload)
                    .template()
                    .init_containers
                    .get(ctr as usize)
            })
            .is_some_and(|c| c.is_sidecar())
    };
    match step {
        Step::Admit => "admit".into(),
        Step::Reject => "reject (admission)".into(),
        Step::MountVolumes => "mount volumes of".into(),
        Step::CreateSandbox => "RunPodSandbox + CNI ADD (pod IP) for".into(),
        Step::PullImage { init, ctr } => format!("pull image of {}", cname(init, ctr)),
        Step::NeverPull { init, ctr } => {
            format!(
                "find no image for {} (imagePullPolicy Never) in",
                cname(init, ctr)
            )
        }
        Step::ImagePullBackOff { init, ctr } => {
            format!("back-off pulling image of {}", cname(init, ctr))
        }
        Step::CrashLoopBackOff { init, ctr } => {
            format!("back-off restarting {}", cname(init, ctr))
        }
        Step::RestartChanged { ctr } => format!(
            "kill {} (its definition changed; it will be restarted) in",
            cname(false, ctr)
        ),
        Step::Start { init, ctr } => format!(
            "start {}container {}",
            match (init, sidecar(ctr)) {
                (true, true) => "sidecar ",
                (true, false) => "init ",
                _ => "",
            },
            cname(init, ctr)
        ),
        Step::SidecarTurn { ctr } => format!(
            "send SIGTERM to sidecar {} (its turn: the main containers and later sidecars have stopped) of",
            cname(true, ctr)
        ),
        Step::KillPod => "kill (preStop, SIGTERM) containers of".into(),
        Step::Cleanup => "tear down sandbox and network of".into(),
        Step::KillOrphan => "kill (SIGTERM) containers of force-deleted".into(),
        Step::Forget => "forget".into(),
        Step::PostStartDone { ctr } => {
            format!("postStart hook of {} returned in", cname(false, ctr))
        }
        Step::AddProbeWorkers => {
            "create new probe workers (readiness Failure, liveness Success, startup Unknown) for"
                .into()
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
        Some(Fault::DeletePod {
            grace_period_seconds,
            force,
            ..
        }) => {
            let mut flags = String::new();
            if *grace_period_seconds >= 0 {
                flags += &format!(" --grace-period={grace_period_seconds}");
            }
            if *force {
                flags += " --force";
            }
            format!("delete pod {}{flags}", name(target))
        }
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
        Some(Fault::Crash { workload }) => {
            let c = m
                .scenario
                .workloads
                .iter()
                .find(|w| w.name() == workload)
                .and_then(|w| w.template().containers.first())
                .map_or("", |c| c.name.as_str());
            format!(
                "the program in container {c} of {} crashes (exit code 1)",
                name(target)
            )
        }
        Some(Fault::KubeletRestart { node }) => {
            format!("systemctl restart kubelet on {node} (the containers keep running)")
        }
        Some(Fault::PowerOff { node }) => {
            format!("{node} powers off: its containers are gone, its kubelet and kube-proxy stop")
        }
        Some(Fault::NodeShutdown { node }) => {
            format!("systemctl poweroff on {node}: the kubelet's inhibitor lock delays it")
        }
        Some(f @ Fault::StepFails { .. }) => condition_words(f),
        Some(Fault::Cordon { node }) => format!("cordon {node}"),
        Some(Fault::Uncordon { node }) => format!("uncordon {node}"),
        Some(Fault::Drain {
            node,
            disable_eviction,
            force,
            delete_emptydir_data,
        }) => {
            let mut flags = String::new();
            for (on, flag) in [
                (*disable_eviction, " --disable-eviction"),
                (*force, " --force"),
                (*delete_emptydir_data, " --delete-emptydir-data"),
            ] {
                if on {
                    flags.push_str(flag);
                }
            }
            format!("drain {node}{flags}")
        }
        Some(Fault::RolloutRestart { workload }) => {
            let kind = match m.scenario.workloads.iter().find(|w| w.name() == workload) {
                Some(podcheck_input::spec::Workload::StatefulSet { .. }) => "statefulset",
                _ => "deployment",
            };
            format!("rollout restart {kind}/{workload} (the pod template changes)")
        }
        Some(Fault::Scale { workload, replicas }) => {
            format!("scale deployment/{workload} --replicas={replicas}")
        }
        Some(Fault::SetPodImage {
            container, image, ..
        }) => format!("set image pod/{} {container}={image}", name(target)),
        None => format!("fault #{index}"),
    }
}

/// A Job condition's reason, as the Job controller spells it.
pub fn job_reason(r: JobReason) -> &'static str {
    match r {
        JobReason::BackoffLimitExceeded => "BackoffLimitExceeded",
        JobReason::DeadlineExceeded => "DeadlineExceeded",
        JobReason::PodFailurePolicy => "PodFailurePolicy",
        JobReason::MaxFailedIndexesExceeded => "MaxFailedIndexesExceeded",
        JobReason::FailedIndexes => "FailedIndexes",
        JobReason::CompletionsReached => "CompletionsReached",
        JobReason::SuccessPolicy => "SuccessPolicy",
    }
}

/// A Job condition's message, as the Job controller writes it (`job_controller.go`); a
/// FailJob verdict carries the podFailurePolicy's own message.
pub fn job_message(j: &JobStatus, r: JobReason) -> String {
    match r {
        JobReason::BackoffLimitExceeded => "Job has reached the specified backoff limit".into(),
        JobReason::DeadlineExceeded => "Job was active longer than specified deadline".into(),
        JobReason::PodFailurePolicy => j.message.clone(),
        JobReason::MaxFailedIndexesExceeded => {
            "Job has exceeded the specified maximal number of failed indexes".into()
        }
        JobReason::FailedIndexes => "Job has failed indexes".into(),
        JobReason::CompletionsReached => "Reached expected number of succeeded pods".into(),
        JobReason::SuccessPolicy => "Matched rules at index 0".into(),
    }
}

/// A Job's status in a few words: its conditions and counters, as `kubectl get job -o yaml`
/// would show them.
pub fn job_words(j: &JobStatus) -> String {
    let mut v = match (j.condition, j.target) {
        (Some(JobCondition::Complete(r)), _) => format!("Complete ({})", job_reason(r)),
        (Some(JobCondition::Failed(r)), _) => format!("Failed ({})", job_reason(r)),
        (None, Some(JobTarget::Failure(r))) => format!("FailureTarget ({})", job_reason(r)),
        (None, Some(JobTarget::Success(r))) => format!("SuccessCriteriaMet ({})", job_reason(r)),
        (None, None) => "active".into(),
    };
    v.push_str(&format!(", active={}, ready={}", j.active, j.ready));
    if let Some(t) = j.terminating {
        v.push_str(&format!(", terminating={t}"));
    }
    v.push_str(&format!(", succeeded={}, failed={}", j.succeeded, j.failed));
    if j.completed_indexes != 0 {
        v.push_str(&format!(
            ", completedIndexes={}",
            podcheck_model::k8s::format_indexes(j.completed_indexes)
        ));
    }
    if j.failed_indexes != 0 {
        v.push_str(&format!(
            ", failedIndexes={}",
            podcheck_model::k8s::format_indexes(j.failed_indexes)
        ));
    }
    v
}
