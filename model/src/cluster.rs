//! The components composed into one Stateright [`Model`].
//!
//! Every component acts only on what it watches. Component actions take no time and are
//! *urgent*: the clock ([`crate::time`]) advances only when no component has anything to do,
//! and then jumps straight to the next deadline. The order in which enabled components act is
//! left open, so the checker explores every interleaving — that is where the races live.
//! Faults, operator actions and client requests are the environment: they may happen at any
//! moment, or never.

use crate::k8s::{ContainerSpecView, Gates};
use crate::spec::{FailingStep, Fault, Scenario, Start, Workload};
use crate::state::*;
use crate::{controllers, faults, kubelet, nodes, proxy, scheduler, time};
use stateright::{Expectation, Model, Property};

/// A property as the model carries it: Stateright wants plain `fn` conditions, so parameters
/// are read through the model.
#[derive(Clone)]
pub struct PropertyFn {
    pub name: &'static str,
    pub expectation: Expectation,
    pub condition: fn(&Cluster, &State) -> bool,
}

impl std::fmt::Debug for PropertyFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({:?})", self.name, self.expectation)
    }
}

/// The model of one scenario.
#[derive(Clone, Debug)]
pub struct Cluster {
    pub scenario: Scenario,
    /// Distinct images named by the scenario's containers (bit i of [`Node::images`]).
    pub images: Vec<String>,
    /// Per workload: init container and container spec views for the upstream functions.
    pub views: Vec<(Vec<ContainerSpecView>, Vec<ContainerSpecView>)>,
    pub gates: Gates,
    /// The properties `properties()` returns.
    pub properties: Vec<PropertyFn>,
    /// The scenario has node faults: node health (leases, NLC, taints) is modelled.
    pub node_health: bool,
    /// Taint ages saturate here: one past the longest toleration that matters.
    pub taint_age_cap: Secs,
    /// The state exploration starts from.
    pub start: State,
    /// Per workload: the kubelet steps that fail for its pods (`stepFails` faults).
    pub failures: Vec<Vec<(FailingStep, StepFailure)>>,
}

/// A failing step of a workload's pods, resolved.
#[derive(Clone, Debug)]
pub struct StepFailure {
    pub hangs: bool,
    pub message: Option<String>,
    /// For container steps: the container (init, index).
    pub container: Option<(bool, usize)>,
}

/// Everything that can happen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Time passes until the next deadline.
    Tick(Secs),
    /// ReplicaSet controller: create the missing pods of a Deployment (F 85).
    ReplicaSetSync { workload: u8 },
    /// Job controller: count, decide, create or delete (F 93–97).
    JobSync { workload: u8 },
    /// StatefulSet controller: create the missing identities, delete finished ones
    /// (F 87–91).
    StatefulSetSync { workload: u8 },
    /// Node lifecycle controller (F 99–101).
    NodeLifecycle {
        node: u8,
        step: crate::nodes::NlcStep,
    },
    /// The kubelet posts its node status (Ready=True) once it reaches the API server again.
    KubeletNodeStatus { node: u8 },
    /// Taint eviction deletes a pod whose toleration ran out (F 102).
    TaintEviction { uid: u16 },
    /// PodGC force-deletes a pod (F 103).
    PodGc { uid: u16 },
    /// The kubelet's eviction manager evicts a pod under memory pressure (F 111, 112).
    Evict { node: u8, uid: u16 },
    /// Scheduler: bind to a node, or record Unschedulable (`node` None).
    Schedule { uid: u16, node: Option<u8> },
    /// Kubelet pod worker: the next step of SyncPod / SyncTerminatingPod / SyncTerminatedPod.
    Kubelet {
        node: u8,
        uid: u16,
        step: kubelet::Step,
    },
    /// Kubelet prober: one probe run.
    Probe {
        node: u8,
        uid: u16,
        ctr: u8,
        kind: ProbeKind,
    },
    /// Kubelet status manager: write the pod status it computed to the API.
    StatusUpdate { node: u8, uid: u16 },
    /// Kubelet status manager: delete the finished pod's object (grace 0, F 70).
    RemoveObject { node: u8, uid: u16 },
    /// Attach/detach controller: try to attach the pod's volume again (it fails: the
    /// `attachVolume` fault).
    AttachVolume { uid: u16 },
    /// EndpointSlice controller: write the slice (F 82, 83).
    EndpointSliceSync,
    /// kube-proxy on a node applies the current EndpointSlice.
    ProxySync { node: u8 },
    /// A client request through a node's kube-proxy to a pod it routes to.
    Request { via: u8, uid: u16 },
    /// A fault or operator action of the scenario.
    Fault { index: u8, target: Option<u16> },
    /// The partition of fault `index` heals.
    Heal { index: u8 },
}

/// Who takes an action. Components are weakly fair: one that stays enabled eventually acts.
/// The environment (faults, operator actions, client requests) is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Actor {
    Clock,
    Scheduler,
    Kubelet(u8),
    ReplicaSetController,
    JobController,
    StatefulSetController,
    EndpointSliceController,
    NodeLifecycleController,
    TaintEvictionController,
    PodGcController,
    AttachDetachController,
    KubeProxy(u8),
    /// A partition that the scenario says heals (`heals: true`) heals eventually: the
    /// network is weakly fair. Faults are not.
    Network,
    Environment,
}

impl Actor {
    /// Whether weak fairness applies to this actor.
    pub fn is_fair(self) -> bool {
        self != Actor::Environment
    }

    /// The actor in Kubernetes words, with node names.
    pub fn name(self, m: &Cluster) -> String {
        match self {
            Actor::Clock => "clock".into(),
            Actor::Scheduler => "scheduler".into(),
            Actor::Kubelet(n) => format!("kubelet@{}", m.node_name(n)),
            Actor::ReplicaSetController => "replicaset-controller".into(),
            Actor::JobController => "job-controller".into(),
            Actor::StatefulSetController => "statefulset-controller".into(),
            Actor::NodeLifecycleController => "node-lifecycle-controller".into(),
            Actor::TaintEvictionController => "taint-eviction-controller".into(),
            Actor::PodGcController => "pod-garbage-collector".into(),
            Actor::AttachDetachController => "attachdetach-controller".into(),
            Actor::EndpointSliceController => "endpointslice-controller".into(),
            Actor::KubeProxy(n) => format!("kube-proxy@{}", m.node_name(n)),
            Actor::Network => "network".into(),
            Actor::Environment => "environment".into(),
        }
    }
}

impl Action {
    /// The actor that takes this action.
    pub fn actor(&self) -> Actor {
        match *self {
            Action::Tick(_) => Actor::Clock,
            Action::ReplicaSetSync { .. } => Actor::ReplicaSetController,
            Action::JobSync { .. } => Actor::JobController,
            Action::StatefulSetSync { .. } => Actor::StatefulSetController,
            Action::NodeLifecycle { .. } => Actor::NodeLifecycleController,
            Action::TaintEviction { .. } => Actor::TaintEvictionController,
            Action::PodGc { .. } => Actor::PodGcController,
            Action::AttachVolume { .. } => Actor::AttachDetachController,
            Action::KubeletNodeStatus { node } | Action::Evict { node, .. } => Actor::Kubelet(node),
            Action::Schedule { .. } => Actor::Scheduler,
            Action::Kubelet { node, .. }
            | Action::Probe { node, .. }
            | Action::StatusUpdate { node, .. }
            | Action::RemoveObject { node, .. } => Actor::Kubelet(node),
            Action::EndpointSliceSync => Actor::EndpointSliceController,
            Action::ProxySync { node } => Actor::KubeProxy(node),
            Action::Heal { .. } => Actor::Network,
            Action::Request { .. } | Action::Fault { .. } => Actor::Environment,
        }
    }
}

impl Cluster {
    /// Builds the model of a scenario with the given properties.
    pub fn new(scenario: Scenario, properties: Vec<PropertyFn>) -> Self {
        let mut images: Vec<String> = Vec::new();
        let mut views = Vec::new();
        for w in &scenario.workloads {
            let t = w.template();
            for c in t.init_containers.iter().chain(&t.containers) {
                if !images.contains(&c.image) {
                    images.push(c.image.clone());
                }
            }
            let view = |c: &crate::spec::Container| ContainerSpecView::new(&c.name);
            views.push((
                t.init_containers.iter().map(view).collect(),
                t.containers.iter().map(view).collect(),
            ));
        }
        let node_health = scenario.faults.iter().any(|f| {
            matches!(
                f,
                Fault::Partition { .. }
                    | Fault::ControlPlanePartition {}
                    | Fault::DeleteNode { .. }
                    | Fault::OutOfServiceTaint { .. }
                    | Fault::MemoryPressure { .. }
            )
        });
        let taint_age_cap = scenario
            .workloads
            .iter()
            .flat_map(|w| crate::nodes::tolerations(w.template()))
            .filter_map(|t| t.toleration_seconds)
            .max()
            .unwrap_or(0)
            .clamp(0, 3600) as Secs
            + 1;
        let failures = scenario
            .workloads
            .iter()
            .map(|w| {
                let t = w.template();
                scenario
                    .faults
                    .iter()
                    .filter_map(|f| match f {
                        Fault::StepFails {
                            workload,
                            step,
                            hangs,
                            message,
                            container,
                        } if workload == w.name() => {
                            let by_name =
                                |n: &String| t.containers.iter().position(|c| &c.name == n);
                            let ctr = match step {
                                FailingStep::CreateContainerConfig
                                | FailingStep::CreateContainer => {
                                    Some(container.as_ref().and_then(by_name).unwrap_or(0))
                                }
                                FailingStep::PostStartHook => {
                                    container.as_ref().and_then(by_name).or_else(|| {
                                        t.containers.iter().position(|c| {
                                            c.lifecycle
                                                .as_ref()
                                                .is_some_and(|l| l.post_start.is_some())
                                        })
                                    })
                                }
                                _ => None,
                            };
                            Some((
                                *step,
                                StepFailure {
                                    hangs: *hangs,
                                    message: message.clone(),
                                    container: ctr.map(|i| (false, i)),
                                },
                            ))
                        }
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut m = Cluster {
            failures,
            scenario,
            images,
            views,
            gates: Gates::default(),
            properties,
            node_health,
            taint_age_cap,
            start: State {
                api: Api {
                    pods: Vec::new(),
                    endpoints: Vec::new(),
                    workloads: Vec::new(),
                    nodes: Vec::new(),
                    attach_retry: Vec::new(),
                },
                nodes: Vec::new(),
                proxies: Vec::new(),
                env: Env::default(),
                journal: Default::default(),
            },
        };
        m.start = m.empty_state();
        if m.scenario.cluster.start == Start::Settled {
            m.start = m.settle(m.start.clone());
        }
        m
    }

    /// The canonical startup (`start: settled`): from `s`, take the first enabled component
    /// action, or let time pass, until every Deployment and StatefulSet has all its pods
    /// Ready, every bare pod is Ready, and no component has work left.
    pub fn settle(&self, mut s: State) -> State {
        for _ in 0..10_000 {
            let mut acts = Vec::new();
            self.urgent_actions(&s, &mut acts);
            if acts.is_empty() {
                if self.settled(&s) {
                    break;
                }
                match time::next_deadline(self, &s) {
                    Some(d) => acts.push(Action::Tick(d)),
                    None => break,
                }
            }
            match self.apply(&s, &acts[0]) {
                Some(n) => s = n,
                None => break,
            }
        }
        s
    }

    fn settled(&self, s: &State) -> bool {
        let ready = |w: u8| {
            s.api
                .pods
                .iter()
                .filter(|p| p.workload == w && p.status.ready)
                .count()
        };
        let proxies_synced = s.proxies.iter().all(|p| p.lag_left.is_none());
        proxies_synced
            && self
                .scenario
                .workloads
                .iter()
                .enumerate()
                .all(|(i, w)| match w {
                    Workload::Deployment { spec, .. } => ready(i as u8) >= spec.replicas as usize,
                    Workload::StatefulSet { spec, .. } => ready(i as u8) >= spec.replicas as usize,
                    Workload::Pod { .. } => ready(i as u8) >= 1,
                    Workload::Job { .. } | Workload::StaticPod { .. } => true,
                })
    }

    pub fn workload(&self, w: u8) -> &Workload {
        &self.scenario.workloads[w as usize]
    }

    pub fn pod_name(&self, pod: &Pod) -> String {
        self.name_of(pod.workload, pod.suffix)
    }

    /// The failure of `step` for workload `w`'s pods, if the scenario has one.
    pub fn step_failure(&self, w: u8, step: FailingStep) -> Option<&StepFailure> {
        self.failures
            .get(w as usize)?
            .iter()
            .find(|(s, _)| *s == step)
            .map(|(_, f)| f)
    }

    /// The container a failing container step applies to.
    pub fn failing_container(&self, w: u8, step: FailingStep) -> Option<(bool, usize)> {
        self.step_failure(w, step)?.container
    }

    /// `<workload>-<suffix>`, the bare pod's own name, or a static pod's `<name>-<node>`.
    pub fn name_of(&self, workload: u8, suffix: u8) -> String {
        match self.workload(workload) {
            Workload::Pod { metadata, .. } => metadata.name.clone(),
            Workload::StaticPod { metadata, node, .. } => format!("{}-{node}", metadata.name),
            w => format!("{}-{}", w.name(), suffix),
        }
    }

    pub fn node_name(&self, n: u8) -> &str {
        &self.scenario.cluster.nodes[n as usize].name
    }

    pub fn image_index(&self, image: &str) -> usize {
        self.images.iter().position(|i| i == image).unwrap_or(0)
    }

    /// A runtime pod's containers with their specs: init containers first, in spec order.
    pub fn containers<'a>(
        &'a self,
        rt: &'a PodRt,
    ) -> impl Iterator<Item = (&'a Ctr, &'a crate::spec::Container)> {
        let spec = self.workload(rt.workload).template();
        rt.init
            .iter()
            .zip(&spec.init_containers)
            .chain(rt.ctrs.iter().zip(&spec.containers))
    }

    /// The name of the pod a runtime record belongs to (kept after its object is gone).
    pub fn rt_name(&self, rt: &PodRt) -> String {
        self.name_of(rt.workload, rt.suffix)
    }

    /// The pod's name, or `uid N` for one that no longer exists.
    pub fn uid_name(&self, state: &State, uid: u16) -> String {
        state
            .pod(uid)
            .map(|p| self.pod_name(p))
            .or_else(|| state.rt_any(uid).map(|(_, rt)| self.rt_name(rt)))
            .unwrap_or_else(|| format!("pod uid {uid}"))
    }

    /// The state exploration starts from: the empty cluster, or the settled one.
    pub fn initial_state(&self) -> State {
        self.start.clone()
    }

    /// The empty cluster: bare pods created, nothing else yet; images as the scenario says;
    /// proxies in sync.
    pub fn empty_state(&self) -> State {
        let nodes = self
            .scenario
            .cluster
            .nodes
            .iter()
            .map(|n| Node {
                partitioned: false,
                lease_age: 0,
                memory_hog: false,
                eviction_wait: 0,
                static_pods: Vec::new(),
                pods: Vec::new(),
                images: n
                    .images
                    .iter()
                    .filter(|i| self.images.contains(i))
                    .fold(0u32, |acc, i| acc | (1 << self.image_index(i))),
            })
            .collect();
        let workloads = self
            .scenario
            .workloads
            .iter()
            .map(|w| WorkloadStatus {
                job: match w {
                    Workload::Job { .. } => Some(JobStatus::default()),
                    _ => None,
                },
            })
            .collect();
        let mut s = State {
            api: Api {
                pods: Vec::new(),
                endpoints: Vec::new(),
                workloads,
                nodes: vec![NodeObj::default(); self.scenario.cluster.nodes.len()],
                attach_retry: Vec::new(),
            },
            nodes,
            proxies: vec![Proxy::default(); self.scenario.cluster.nodes.len()],
            env: Env::default(),
            journal: Default::default(),
        };
        // Bare pods exist from the start (`kubectl apply`).
        for (i, w) in self.scenario.workloads.iter().enumerate() {
            if let Workload::Pod { .. } = w {
                crate::apiserver::create_pod_named(self, &mut s, i as u8, 0);
            }
        }
        // Static pods: the kubelet reads its manifest directory when it starts (the file
        // source needs no API server) and admits them before anything from the API.
        for (i, w) in self.scenario.workloads.iter().enumerate() {
            if let Workload::StaticPod { node, .. } = w {
                let n = self
                    .scenario
                    .cluster
                    .nodes
                    .iter()
                    .position(|x| &x.name == node)
                    .unwrap_or(0);
                let uid = crate::apiserver::create_pod_named(self, &mut s, i as u8, n as u8);
                if let Some(pos) = s.api.pods.iter().position(|p| p.uid == uid) {
                    let mut pod = s.api.pods.remove(pos);
                    pod.node = Some(n as u8);
                    let mut rt = kubelet::new_rt(self, &pod);
                    rt.static_pod = true;
                    s.nodes[n].static_pods.push(pod);
                    s.nodes[n].pods.push(rt);
                }
            }
        }
        s
    }

    /// Component actions that are enabled now (they take no time).
    ///
    /// PodGC's terminated-pod collection goes first whenever the threshold is exceeded: the
    /// real one runs every 20 s (F 19), so a pile-up can overshoot the threshold in a real
    /// cluster, while here it never exceeds it by more than one pod. Without this, pods that
    /// are created and fail in zero model time would pile up without bound.
    pub fn urgent_actions(&self, state: &State, out: &mut Vec<Action>) {
        if let Some(uid) = controllers::terminated_gc_victim(self, state) {
            out.push(Action::PodGc { uid });
            return;
        }
        controllers::actions(self, state, out);
        nodes::actions(self, state, out);
        scheduler::actions(self, state, out);
        kubelet::actions(self, state, out);
        proxy::urgent_actions(self, state, out);
    }

    /// Applies an action; None if it is not enabled (never for actions from `actions`).
    pub fn apply(&self, state: &State, action: &Action) -> Option<State> {
        let mut s = state.clone();
        s.journal.0.clear();
        match *action {
            Action::Tick(d) => time::tick(self, &mut s, d),
            Action::ReplicaSetSync { workload } => {
                controllers::replicaset_sync(self, &mut s, workload)
            }
            Action::JobSync { workload } => controllers::job_sync(self, &mut s, workload),
            Action::StatefulSetSync { workload } => {
                controllers::statefulset_sync(self, &mut s, workload)
            }
            Action::NodeLifecycle { node, step } => nodes::nlc(self, &mut s, node, step),
            Action::KubeletNodeStatus { node } => nodes::kubelet_node_status(&mut s, node),
            Action::TaintEviction { uid } => nodes::taint_eviction(self, &mut s, uid),
            Action::PodGc { uid } => nodes::pod_gc(&mut s, uid),
            Action::Evict { node, uid } => nodes::evict(self, &mut s, node, uid),
            Action::Heal { index } => faults::heal(self, &mut s, index),
            Action::Schedule { uid, node } => scheduler::schedule(self, &mut s, uid, node),
            Action::Kubelet { node, uid, step } => kubelet::step(self, &mut s, node, uid, step),
            Action::Probe {
                node,
                uid,
                ctr,
                kind,
            } => kubelet::probe(self, &mut s, node, uid, ctr as usize, kind),
            Action::StatusUpdate { node, uid } => kubelet::status_update(self, &mut s, node, uid),
            Action::RemoveObject { node, uid } => kubelet::remove_object(self, &mut s, node, uid),
            Action::AttachVolume { uid } => controllers::attach_volume(&mut s, uid),
            Action::EndpointSliceSync => controllers::endpointslice_sync(self, &mut s),
            Action::ProxySync { node } => proxy::sync(self, &mut s, node),
            Action::Request { via, uid } => proxy::request(self, &mut s, via, uid),
            Action::Fault { index, target } => faults::apply(self, &mut s, index, target),
        }?;
        proxy::observe(self, &mut s);
        Some(s)
    }

    /// The action in Kubernetes words.
    pub fn describe(&self, state: &State, action: &Action) -> String {
        let name = |uid: u16| self.uid_name(state, uid);
        match *action {
            Action::Tick(d) => format!("time passes {d} s"),
            Action::ReplicaSetSync { workload } => format!(
                "replicaset-controller: create pods for Deployment {}",
                self.workload(workload).name()
            ),
            Action::JobSync { workload } => {
                format!(
                    "job-controller: sync Job {}",
                    self.workload(workload).name()
                )
            }
            Action::StatefulSetSync { workload } => format!(
                "statefulset-controller: sync StatefulSet {}",
                self.workload(workload).name()
            ),
            Action::NodeLifecycle { node, step } => {
                let n = self.node_name(node);
                match step {
                    nodes::NlcStep::MarkUnknown => format!(
                        "node-lifecycle-controller: {n} Ready=Unknown (Kubelet stopped posting node status), its pods Ready=False"
                    ),
                    nodes::NlcStep::Taint => format!(
                        "node-lifecycle-controller: taint {n} node.kubernetes.io/unreachable:NoSchedule,NoExecute"
                    ),
                    nodes::NlcStep::Untaint => format!(
                        "node-lifecycle-controller: remove the unreachable taints of {n}"
                    ),
                }
            }
            Action::KubeletNodeStatus { node } => format!(
                "kubelet@{}: post node status Ready=True",
                self.node_name(node)
            ),
            Action::TaintEviction { uid } => format!(
                "taint-eviction-controller: delete pod {} (DeletionByTaintManager, graceful)",
                name(uid)
            ),
            Action::PodGc { uid } => format!(
                "pod-garbage-collector: mark {} Failed and force-delete it",
                name(uid)
            ),
            Action::Evict { node, uid } => format!(
                "kubelet@{}: evict {} (memory pressure)",
                self.node_name(node),
                name(uid)
            ),
            Action::Heal { index } => faults::describe_heal(self, index),
            Action::Schedule { uid, node: Some(n) } => {
                format!("scheduler: bind {} to {}", name(uid), self.node_name(n))
            }
            Action::Schedule { uid, node: None } => {
                format!("scheduler: {} Unschedulable", name(uid))
            }
            Action::Kubelet { node, uid, step } => format!(
                "kubelet@{}: {} {}",
                self.node_name(node),
                kubelet::describe_step(self, state, uid, step),
                name(uid)
            ),
            Action::Probe {
                node,
                uid,
                ctr,
                kind,
            } => {
                let c = state
                    .rt(node, uid)
                    .map(|rt| {
                        self.workload(rt.workload).template().containers[ctr as usize]
                            .name
                            .clone()
                    })
                    .unwrap_or_default();
                format!(
                    "kubelet@{}: {} probe {}/{}",
                    self.node_name(node),
                    kind.name(),
                    name(uid),
                    c
                )
            }
            Action::StatusUpdate { node, uid } => format!(
                "kubelet@{}: status update {}",
                self.node_name(node),
                name(uid)
            ),
            Action::RemoveObject { node, uid } => format!(
                "kubelet@{}: delete finished pod object {}",
                self.node_name(node),
                name(uid)
            ),
            Action::AttachVolume { uid } => format!(
                "attachdetach-controller: attach the volume of {} (fails)",
                name(uid)
            ),
            Action::EndpointSliceSync => "endpointslice-controller: update EndpointSlice".into(),
            Action::ProxySync { node } => {
                format!("kube-proxy@{}: apply EndpointSlice", self.node_name(node))
            }
            Action::Request { via, uid } => format!(
                "client: request via kube-proxy@{} to {}",
                self.node_name(via),
                name(uid)
            ),
            Action::Fault { index, target } => faults::describe(self, state, index, target),
        }
    }
}

impl Model for Cluster {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        vec![self.initial_state()]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Action>) {
        self.urgent_actions(state, actions);
        if actions.is_empty() {
            if let Some(d) = time::next_deadline(self, state) {
                actions.push(Action::Tick(d));
            }
        }
        proxy::environment_actions(self, state, actions);
        faults::actions(self, state, actions);
    }

    fn next_state(&self, state: &State, action: Action) -> Option<State> {
        self.apply(state, &action)
    }

    fn format_action(&self, action: &Action) -> String {
        crate::explore_view::action_words(self, action)
    }

    fn format_step(&self, last_state: &State, action: Action) -> Option<String> {
        crate::explore_view::step_text(self, last_state, &action)
    }

    fn as_svg(&self, path: stateright::Path<State, Action>) -> Option<String> {
        crate::explore_view::path_svg(self, &path.into_vec())
    }

    fn properties(&self) -> Vec<Property<Self>> {
        self.properties
            .iter()
            .map(|p| Property {
                expectation: p.expectation.clone(),
                name: p.name,
                condition: p.condition,
            })
            .collect()
    }
}
