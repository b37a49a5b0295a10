//! The components composed into one Stateright [`Model`], and nothing else.
//!
//! Every component acts only on what it watches. Component actions take no time and are
//! *urgent*: the clock ([`crate::time`]) advances only when no component has anything to do,
//! and then jumps straight to the next deadline. The order in which enabled components act is
//! left open, so the checker explores every interleaving — that is where the races live.
//! Faults, operator actions and client requests are the environment: they may happen at any
//! moment, or never.
//!
//! The layers run one way: the scenario ([`podcheck_input::spec`]) → the state ([`crate::state`]) →
//! the per-scenario [`Context`], the API server's write semantics ([`crate::apiserver`]),
//! facts several components read ([`crate::derived`]) and the container runtime
//! ([`crate::runtime`]) → the components (each its own module; none imports another) → this
//! composition. Wording and pictures live outside the model, in the renderings.

use crate::context::{Context, Memo};
use crate::derived::Disruption;
use crate::state::*;
use crate::symmetry::Symmetry;
use crate::{apiserver, controllers, drain, faults, kubelet, proxy, scheduler, time};
use podcheck_input::spec::{Scenario, Start, Workload};
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

/// The model of one scenario: its [`Context`] (which it dereferences to) and the state
/// exploration starts from.
#[derive(Clone, Debug)]
pub struct Cluster {
    pub ctx: Context,
    /// The properties `properties()` returns.
    pub properties: Vec<PropertyFn>,
    /// The state exploration starts from.
    pub start: State,
    /// The controllers' enabled actions ([`controllers::actions`]) read the API objects
    /// alone: kept by the API's content hash.
    controller_memo: Memo<u64, ControllerMemo>,
    /// The scenario's interchangeable nodes.
    pub symmetry: Symmetry,
}

impl std::ops::Deref for Cluster {
    type Target = Context;
    fn deref(&self) -> &Context {
        &self.ctx
    }
}

/// What the controllers would do in a state, a function of the API objects alone.
#[derive(Clone, Debug)]
struct ControllerMemo {
    /// PodGC's terminated-pod collection, which goes first and alone.
    gc_victim: Option<u16>,
    /// The controllers' enabled actions ([`controllers::actions`]).
    actions: Vec<controllers::Action>,
    /// The scheduler's enabled actions ([`scheduler::actions`]): it too reads the API
    /// objects alone.
    schedule: Vec<scheduler::Action>,
    /// Per node, in node order, what the control plane would do to it and its pods from the
    /// API objects alone: PodGC's collection on a deleted node
    /// ([`controllers::deleted_node_actions`]), else [`controllers::node_api_actions`]. Empty
    /// where node health is not modelled.
    nodes: Vec<(NodeId, controllers::Action)>,
}

/// Everything that can happen: one step of one component, the clock, a client or a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Time passes until the next deadline.
    Tick(Secs),
    Scheduler(scheduler::Action),
    Kubelet(kubelet::Action),
    Controller(controllers::Action),
    KubeProxy(proxy::Action),
    /// A client request through a node's kube-proxy.
    Client(proxy::Request),
    /// A fault or operator action of the scenario, or a partition that heals.
    Fault(faults::Action),
    /// A step of a `kubectl drain` run.
    Drain(drain::Action),
}

impl From<scheduler::Action> for Action {
    fn from(a: scheduler::Action) -> Self {
        Action::Scheduler(a)
    }
}
impl From<kubelet::Action> for Action {
    fn from(a: kubelet::Action) -> Self {
        Action::Kubelet(a)
    }
}
impl From<controllers::Action> for Action {
    fn from(a: controllers::Action) -> Self {
        Action::Controller(a)
    }
}
impl From<proxy::Action> for Action {
    fn from(a: proxy::Action) -> Self {
        Action::KubeProxy(a)
    }
}
impl From<proxy::Request> for Action {
    fn from(a: proxy::Request) -> Self {
        Action::Client(a)
    }
}
impl From<drain::Action> for Action {
    fn from(a: drain::Action) -> Self {
        Action::Drain(a)
    }
}
impl From<faults::Action> for Action {
    fn from(a: faults::Action) -> Self {
        Action::Fault(a)
    }
}

/// Who takes an action. Components are weakly fair: one that stays enabled eventually acts.
/// Clients, faults and operator actions are not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Actor {
    Clock,
    Scheduler,
    Kubelet(NodeId),
    Controller(controllers::Controller),
    KubeProxy(NodeId),
    /// A partition that the scenario says heals (`heals: true`) heals eventually: the
    /// network is weakly fair. Faults are not.
    Network,
    /// A client sending requests through a Service.
    Client,
    /// A `kubectl drain` run (of the scenario's fault with this index): once the operator
    /// has started it, it keeps going.
    Drain(u8),
    /// A fault or an operator's action (`kubectl`).
    Environment,
}

impl Actor {
    /// Whether weak fairness applies to this actor.
    pub fn is_fair(self) -> bool {
        !matches!(self, Actor::Environment | Actor::Client)
    }
}

impl Action {
    /// The actor that takes this action.
    pub fn actor(&self) -> Actor {
        match *self {
            Action::Tick(_) => Actor::Clock,
            Action::Scheduler(_) => Actor::Scheduler,
            Action::Kubelet(a) => Actor::Kubelet(a.node()),
            Action::Controller(a) => Actor::Controller(a.controller()),
            Action::KubeProxy(proxy::Action::Sync { node }) => Actor::KubeProxy(node),
            Action::Client(_) => Actor::Client,
            Action::Fault(faults::Action::Heal { .. }) => Actor::Network,
            Action::Fault(faults::Action::Fault { .. }) => Actor::Environment,
            Action::Drain(a) => Actor::Drain(a.fault()),
        }
    }

    /// The pod the action is about, if it is about one pod.
    pub fn pod(&self) -> Option<u16> {
        match *self {
            Action::Scheduler(scheduler::Action::Schedule { uid, .. }) => Some(uid),
            Action::Kubelet(a) => a.pod(),
            Action::Controller(a) => a.pod(),
            Action::Client(r) => r.uid,
            Action::Fault(faults::Action::Fault { target, .. }) => target,
            Action::Drain(a) => a.pod(),
            _ => None,
        }
    }
}

/// What keeps a cluster state from being settled ([`Cluster::unsettled_start`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsettled {
    /// A workload (by index) has fewer Ready pods than it wants.
    NotReady {
        workload: u8,
        ready: usize,
        wanted: usize,
    },
    /// Some kube-proxy has not yet applied the EndpointSlice.
    ProxiesBehind,
}

impl Cluster {
    /// Builds the model of a scenario with the given properties.
    pub fn new(scenario: Scenario, properties: Vec<PropertyFn>) -> Self {
        let ctx = Context::new(scenario);
        let mut m = Cluster {
            ctx,
            properties,
            start: State::default(),
            controller_memo: Memo::default(),
            symmetry: Symmetry::default(),
        };
        m.symmetry = Symmetry::of(&m.scenario);
        m.ctx.deferred_gone = drain::gone_deferrable(&m.scenario);
        m.start = m.empty_state();
        if m.scenario.cluster.start == Start::Settled {
            m.start = m.settle(m.start.clone());
        }
        m
    }

    /// The model with a pod's events counted in a state's identity only by what is read of
    /// them (`on`, the default), or whole ([`crate::events::Events`]): the start state is
    /// made again with the pods' events so.
    pub fn with_events_as_read(mut self, on: bool) -> Self {
        if self.ctx.events_as_read != on {
            self.ctx.events_as_read = on;
            self.start = self.empty_state();
            if self.scenario.cluster.start == Start::Settled {
                self.start = self.settle(self.start.clone());
            }
        }
        self
    }

    /// The canonical startup (`start: settled`): from `s`, take the first enabled component
    /// action, or let time pass, until every Deployment and StatefulSet has all its pods
    /// Ready, every bare pod is Ready, every program of their pods that will answer has
    /// booted ([`Cluster::booting`]), and no component has work left.
    pub fn settle(&self, mut s: State) -> State {
        for _ in 0..10_000 {
            let mut acts = Vec::new();
            self.urgent_actions(&s, &mut acts);
            if acts.is_empty() {
                if self.settled(&s) && !self.booting(&s) {
                    break;
                }
                match time::next_deadline(&self.ctx, &s) {
                    Some(d) => acts.push(Action::Tick(d)),
                    None => break,
                }
            }
            let act = self.settle_bind(&s, acts[0]);
            match self.apply(&s, &act) {
                Some(n) => s = n,
                None => break,
            }
        }
        s
    }

    /// The startup's binding of a pod that [`Scenario::settle_placement`] places: to its node,
    /// where the scheduler's filter lets it run. The cone of influence gives the placement
    /// of the whole application's settled cluster, whose left-out pods' requests the cone
    /// holds from the start, when not all of them were there yet as the pod was scheduled
    /// (`podcheck_input::cone`). Any other step as it is.
    fn settle_bind(&self, s: &State, act: Action) -> Action {
        let Action::Scheduler(scheduler::Action::Schedule { uid, node: Some(_) }) = act else {
            return act;
        };
        let Some(pod) = s.pod(uid) else {
            return act;
        };
        let name = self.scenario.workloads[pod.workload as usize].name();
        let Some(at) = self
            .scenario
            .settle_placement
            .iter()
            .find(|p| p.workload == name && p.suffix == pod.suffix)
            .and_then(|p| {
                self.scenario
                    .cluster
                    .nodes
                    .iter()
                    .position(|n| n.name == p.node)
            })
        else {
            return act;
        };
        if !scheduler::filter(&self.ctx, s, pod)[at].is_empty() {
            return act;
        }
        Action::Scheduler(scheduler::Action::Schedule {
            uid,
            node: Some(NodeId::new(at)),
        })
    }

    /// Whether a program of a pod the settled start waits for (a Deployment's, a
    /// StatefulSet's, a bare pod's) is still booting though it will answer: running, not
    /// deadlocked, not being stopped, and not set to exit or outgrow its memory limit before
    /// it has booted. A container without a readiness probe is Ready as soon as it runs
    /// (`prober_manager.go` `UpdatePodStatus`), while its program may not answer yet: the
    /// settled start waits for it, so that no run from it begins with a Ready pod that does
    /// not serve.
    fn booting(&self, s: &State) -> bool {
        s.nodes.iter().flat_map(|n| n.pods.iter()).any(|rt| {
            matches!(
                self.scenario.workloads.get(rt.workload as usize),
                Some(
                    Workload::Deployment { .. }
                        | Workload::StatefulSet { .. }
                        | Workload::Pod { .. }
                )
            ) && !rt.terminating
                && rt.init.iter().chain(&rt.ctrs).any(|c| match &c.run {
                    Run::Running(p) => {
                        p.boot_left > 0
                            && !p.deadlocked
                            && p.stop.is_none()
                            && p.exit_left.is_none_or(|t| t > p.boot_left)
                            && p.oom_left.is_none_or(|t| t > p.boot_left)
                    }
                    _ => false,
                })
        })
    }

    fn settled(&self, s: &State) -> bool {
        self.unsettled_in(s).is_empty()
    }

    /// What keeps `s` from being settled: each workload with fewer Ready pods than it wants,
    /// and whether some kube-proxy has not yet applied the EndpointSlice.
    fn unsettled_in(&self, s: &State) -> Vec<Unsettled> {
        let ready = |w: u8| {
            s.api
                .pods
                .iter()
                .filter(|p| p.workload == w && p.status.ready)
                .count()
        };
        let mut out: Vec<Unsettled> = self
            .scenario
            .workloads
            .iter()
            .enumerate()
            .filter_map(|(i, w)| {
                let wanted = match w {
                    Workload::Deployment { spec, .. } => spec.replicas as usize,
                    Workload::StatefulSet { spec, .. } => spec.replicas as usize,
                    Workload::Pod { .. } => 1,
                    Workload::Job { .. } | Workload::StaticPod { .. } => 0,
                };
                let ready = ready(i as u8);
                (ready < wanted).then_some(Unsettled::NotReady {
                    workload: i as u8,
                    ready,
                    wanted,
                })
            })
            .collect();
        if s.proxies.iter().any(|p| p.lag_left.is_some()) {
            out.push(Unsettled::ProxiesBehind);
        }
        out
    }

    /// With `start: settled`, what the canonical startup ([`Cluster::settle`]) could not
    /// reach: empty when the start is settled, or when the scenario starts empty. A start
    /// that never settled is not the cluster the scenario means to check.
    pub fn unsettled_start(&self) -> Vec<Unsettled> {
        if self.scenario.cluster.start != Start::Settled {
            return Vec::new();
        }
        self.unsettled_in(&self.start)
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
                kubelet_down: false,
                powered_off: false,
                shutdown: None,
                eviction_wait: 0,
                static_pods: Vec::new(),
                pods: Vec::new(),
                images: n
                    .images
                    .iter()
                    .filter(|i| self.images.contains(i))
                    .fold(0u32, |acc, i| acc | (1 << self.image_index(i))),
            })
            .map(Shared::new)
            .collect::<Vec<_>>()
            .into();
        let workloads = self
            .scenario
            .workloads
            .iter()
            .map(|w| WorkloadStatus {
                job: match w {
                    Workload::Job { .. } => Some(JobStatus {
                        terminating: self.by_release.job_pod_replacement_policy.then_some(0),
                        ..JobStatus::default()
                    }),
                    _ => None,
                },
                deployment: match w {
                    Workload::Deployment { spec, .. } => Some(DeploymentStatus {
                        replicas: spec.replicas,
                        template: 0,
                        replica_sets: [Some(spec.replicas), None],
                        progressing: None,
                    }),
                    _ => None,
                },
                // Written at the StatefulSet's first template change.
                statefulset: None,
            })
            .collect::<Vec<_>>()
            .into();
        let mut s = State {
            api: Api {
                pods: Vec::new(),
                endpoints: Vec::new().into(),
                workloads,
                nodes: vec![NodeObj::default(); self.scenario.cluster.nodes.len()].into(),
                attach_retry: Vec::new().into(),
                attached: Vec::new().into(),
                pdbs: vec![PdbStatus::default(); self.scenario.pod_disruption_budgets.len()].into(),
            }
            .into(),
            nodes,
            proxies: vec![Proxy::default(); self.scenario.cluster.nodes.len()].into(),
            env: Env::default(),
            journal: Default::default(),
        };
        // Bare pods exist from the start (`kubectl apply`).
        for (i, w) in self.scenario.workloads.iter().enumerate() {
            if let Workload::Pod { .. } = w {
                apiserver::create_pod_named(&self.ctx, &mut s, i as u8, 0);
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
                let uid = apiserver::create_pod_named(&self.ctx, &mut s, i as u8, n as u8);
                if let Some(pos) = s.api.pods.iter().position(|p| p.uid == uid) {
                    let mut pod = s.api.pods.remove(pos).into_inner();
                    pod.node = Some(NodeId::new(n));
                    let mut rt = kubelet::new_rt(&self.ctx, &pod);
                    rt.static_pod = true;
                    s.nodes[n].static_pods.push(pod.into());
                    s.nodes[n].pods.push(rt.into());
                }
            }
        }
        s
    }

    /// Component actions that are enabled now (they take no time).
    ///
    /// PodGC's terminated-pod collection goes first whenever the threshold is exceeded: the
    /// real one runs every 20 s, so a pile-up can overshoot the threshold in a real cluster,
    /// while here it never exceeds it by more than one pod. Without this, pods that are
    /// created and fail in zero model time would pile up without bound.
    pub fn urgent_actions(&self, state: &State, out: &mut Vec<Action>) {
        let ctx = &self.ctx;
        let start = out.len();
        let mut schedule = smallvec::SmallVec::<[scheduler::Action; 4]>::new();
        let mut node_actions = smallvec::SmallVec::<[(NodeId, controllers::Action); 4]>::new();
        let first = self.read_controller_memo(state, |m| match m.gc_victim {
            Some(uid) => {
                out.push(controllers::Action::PodGc { uid }.into());
                true
            }
            None => {
                out.extend(m.actions.iter().copied().map(Action::Controller));
                schedule.extend(m.schedule.iter().copied());
                node_actions.extend(m.nodes.iter().copied());
                false
            }
        });
        if first {
            return;
        }
        if ctx.node_health {
            let mut from_api = node_actions.iter().peekable();
            let mut api_part = |node: NodeId, out: &mut Vec<Action>| {
                while let Some((_, a)) = from_api.next_if(|(n, _)| *n == node) {
                    out.push(Action::Controller(*a));
                }
            };
            for (n, obj) in state.api.nodes.iter().enumerate() {
                let node = NodeId::new(n);
                if obj.deleted {
                    api_part(node, out);
                    continue;
                }
                kubelet::node_status_actions(state, node, out);
                controllers::node_lease_actions(ctx, state, node, out);
                api_part(node, out);
                kubelet::eviction_manager::actions(ctx, state, node, out);
                kubelet::shutdown::actions(ctx, state, node, out);
            }
        }
        out.extend(schedule.into_iter().map(Action::Scheduler));
        kubelet::actions(ctx, state, out);
        proxy::urgent_actions(state, out);
        drain::actions(ctx, state, out, ctx.deferred_gone);
        // Deferred, a drain's observations that pods are gone wait until nothing else is
        // enabled at this instant, and come one at a time (`drain::gone_deferrable`).
        if ctx.deferred_gone && out.len() == start {
            out.extend(drain::first_gone(state).map(Action::Drain));
        }
    }

    /// The controllers' enabled actions ([`controllers::actions`]), kept by the API's
    /// content hash: they read the API objects alone.
    pub fn controller_actions(&self, state: &State) -> Vec<controllers::Action> {
        self.read_controller_memo(state, |m| m.actions.clone())
    }

    fn read_controller_memo<R>(&self, state: &State, read: impl FnOnce(&ControllerMemo) -> R) -> R {
        self.controller_memo.read(
            state.api.content_hash(),
            || {
                let mut actions = Vec::new();
                controllers::actions(&self.ctx, state, &mut actions);
                let mut schedule = Vec::new();
                scheduler::actions(&self.ctx, state, &mut schedule);
                let mut nodes = Vec::new();
                if self.ctx.node_health {
                    let disruption = Disruption::of(&self.ctx, state);
                    let mut part = Vec::new();
                    for (n, obj) in state.api.nodes.iter().enumerate() {
                        let node = NodeId::new(n);
                        if obj.deleted {
                            controllers::deleted_node_actions(state, node, &mut part);
                        } else {
                            controllers::node_api_actions(
                                &self.ctx,
                                state,
                                node,
                                &disruption,
                                &mut part,
                            );
                        }
                        nodes.extend(part.drain(..).map(|a| (node, a)));
                    }
                }
                ControllerMemo {
                    gc_victim: controllers::terminated_gc_victim(&self.ctx, state),
                    actions,
                    schedule,
                    nodes,
                }
            },
            read,
        )
    }

    /// The class of an actor under [`Cluster::symmetry`] and how many actors it has: the
    /// kubelets of interchangeable nodes form one class, the kube-proxies of interchangeable
    /// proxies (or else of interchangeable nodes) one class; every other actor is a class of
    /// its own.
    pub fn symmetry_class(&self, actor: Actor) -> (Actor, usize) {
        let of = |n: NodeId| {
            self.symmetry
                .classes()
                .iter()
                .find(|c| c.contains(&n))
                .map_or((n, 1), |c| (c[0], c.len()))
        };
        match actor {
            Actor::Kubelet(n) => {
                let (first, len) = of(n);
                (Actor::Kubelet(first), len)
            }
            Actor::KubeProxy(n) => {
                let (first, len) = self.symmetry.proxy_class(n);
                (Actor::KubeProxy(first), len)
            }
            other => (other, 1),
        }
    }

    /// The EndpointSlice controller has nothing to write: the slice is what the pods say it
    /// should be (or there is no Service).
    pub fn endpoints_synced(&self, state: &State) -> bool {
        !self.read_controller_memo(state, |m| {
            m.actions.contains(&controllers::Action::EndpointSliceSync)
        })
    }

    /// Whether `action`, wherever it is enabled, leads back to exactly the state it leaves
    /// (as the state's identity goes: the journal of the step is not part of it), so that a
    /// search can take the step without making its successor.
    ///
    /// A client's request: it changes nothing ([`proxy::request`]: the properties judge the
    /// step itself), and its footprint writes no part ([`crate::footprint`], whose test
    /// fails on any step that changes a part its footprint does not declare). The watches
    /// [`apply`](Self::apply) runs after every step (the kube-proxies' pending updates, the
    /// Node objects' volumes in use, the attach/detach controller's and the Deployment
    /// controller's marks) compute what follows from the state; every state of a search
    /// is an initial state or came out of `apply`, so they are already at what they would
    /// write, and a step that changes nothing leaves them there. `model/tests/stays.rs`
    /// checks it on the states of every built-in scenario.
    pub fn leaves_state_as_is(action: &Action) -> bool {
        matches!(action, Action::Client(_))
    }

    /// Applies an action; None if it is not enabled (never for actions from `actions`).
    pub fn apply(&self, state: &State, action: &Action) -> Option<State> {
        let ctx = &self.ctx;
        // The journal is the step's own: the new state starts with an empty one (not a copy
        // of the last step's, cleared).
        let mut s = State {
            api: state.api.clone(),
            nodes: state.nodes.clone(),
            proxies: state.proxies.clone(),
            env: state.env.clone(),
            journal: Default::default(),
        };
        match *action {
            Action::Tick(d) => time::tick(ctx, &mut s, d),
            Action::Scheduler(scheduler::Action::Schedule { uid, node }) => {
                scheduler::schedule(ctx, &mut s, uid, node)
            }
            Action::Kubelet(a) => kubelet::apply(ctx, &mut s, a),
            Action::Controller(a) => controllers::apply(ctx, &mut s, a),
            Action::KubeProxy(proxy::Action::Sync { node }) => proxy::sync(ctx, &mut s, node),
            Action::Client(proxy::Request { via, uid }) => proxy::request(ctx, &mut s, via, uid),
            Action::Fault(faults::Action::Fault { index, target }) => {
                faults::apply(ctx, &mut s, index, target)
            }
            Action::Fault(faults::Action::Heal { index }) => faults::heal(ctx, &mut s, index),
            Action::Drain(a) => drain::apply(ctx, &mut s, a),
        }?;
        proxy::observe_after(ctx, state, &mut s);
        kubelet::node_status::report_volumes_in_use(ctx, &mut s);
        controllers::attachdetach::observe(ctx, &mut s);
        controllers::deployment::observe(ctx, &mut s);
        Some(s)
    }
}

impl Model for Cluster {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        vec![self.initial_state()]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Action>) {
        // The state to expand was made long ago; its parts are far from the processor.
        std::hint::black_box(fetch(state));
        self.urgent_actions(state, actions);
        if actions.is_empty() {
            if let Some(d) = time::next_deadline(&self.ctx, state) {
                actions.push(Action::Tick(d));
            }
        }
        proxy::environment_actions(&self.ctx, state, actions);
        faults::actions(&self.ctx, state, actions);
    }

    fn next_state(&self, state: &State, action: Action) -> Option<State> {
        self.apply(state, &action)
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

/// Reads a word of each part of `s` that the actions read, with no read waiting on another
/// of its level: the processor then fetches the parts from memory side by side, instead of
/// one after the other as the actions come to them (5–10 % of the search's time on
/// `statefulset-partition-clusterip` at 3 nodes × 2 replicas). The sum means nothing.
fn fetch(s: &State) -> u64 {
    let mut sum = s.api.endpoints.len() as u64;
    sum = sum.wrapping_add(s.api.workloads.len() as u64);
    for p in s.api.pods.iter() {
        sum = sum.wrapping_add(p.node.map_or(0, NodeId::index) as u64);
        sum = sum.wrapping_add(p.status.phase as u64);
        sum = sum.wrapping_add(p.events.len() as u64);
    }
    for o in s.api.nodes.iter() {
        sum = sum.wrapping_add(o.unknown as u64);
    }
    for n in s.nodes.iter() {
        sum = sum.wrapping_add(n.partitioned as u64);
        for r in n.pods.iter() {
            sum = sum.wrapping_add(r.uid as u64);
            for c in r.ctrs.iter().chain(r.init.iter()) {
                sum = sum.wrapping_add(c.restart_count as u64);
            }
        }
        for p in n.static_pods.iter() {
            sum = sum.wrapping_add(p.status.phase as u64);
        }
    }
    for p in s.proxies.iter() {
        sum = sum.wrapping_add(p.lag_left.unwrap_or(0) as u64);
    }
    sum
}

/// Where the settled cluster of `s` places each workload's first pod (lowest suffix, then
/// uid): the name of its node, per workload in order, None where no pod of the workload is
/// placed. The node plans of `podcheck_input::plan` act on that node.
pub fn first_pod_nodes(s: &Scenario) -> Vec<Option<String>> {
    let m = Cluster::new(s.clone(), Vec::new());
    (0..s.workloads.len())
        .map(|w| {
            m.start
                .api
                .pods
                .iter()
                .filter(|p| p.workload as usize == w && p.node.is_some())
                .min_by_key(|p| (p.suffix, p.uid))
                .and_then(|p| p.node)
                .map(|n| s.cluster.nodes[n.index()].name.clone())
        })
        .collect()
}

/// Every pod object of the settled cluster of `s`, per workload in order, each workload's
/// pods by lowest suffix, then uid: its node's name (None while unbound) and whether it is
/// Ready. The cone of influence of `podcheck_input::cone` reads it; the first bound pod of
/// each workload is [`first_pod_nodes`]'s.
pub fn pod_places(s: &Scenario) -> Vec<Vec<podcheck_input::cone::PodPlace>> {
    let m = Cluster::new(s.clone(), Vec::new());
    (0..s.workloads.len())
        .map(|w| {
            let mut pods: Vec<_> = m
                .start
                .api
                .pods
                .iter()
                .filter(|p| p.workload as usize == w)
                .collect();
            pods.sort_by_key(|p| (p.suffix, p.uid));
            pods.iter()
                .map(|p| podcheck_input::cone::PodPlace {
                    suffix: p.suffix,
                    node: p.node.map(|n| s.cluster.nodes[n.index()].name.clone()),
                    ready: p.status.ready,
                    done: p.status.phase.is_terminal(),
                })
                .collect()
        })
        .collect()
}
