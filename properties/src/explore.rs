//! One exploration: a deterministic breadth-first search over any Stateright [`Model`] that
//! builds the reachable state graph once, compactly, and judges state and step predicates as
//! it goes; on one thread or several, with the same result ([`explore`]), and optionally of
//! the quotient by a symmetry ([`explore_with`], [`realize`]).
//!
//! # What the graph keeps
//!
//! Full states are **not** kept. Per state: its 64-bit fingerprint (the same hash Stateright's
//! checkers use, so unique-state counts agree with theirs), its breadth-first parent and the
//! action from it, and where its out-edges start. Per edge: the target state and the action
//! (interned: each distinct action is stored once, with the actor that takes it), and the
//! visited table of fingerprints and numbers side by side. That is about 40 bytes per state
//! and 8 per edge (with a [`Reduction`], states are numbered by their class, and a second
//! table maps the kept states' own fingerprints: 16 bytes more per state).
//! The frontier of the search holds full states
//! while it is open, as every breadth-first checker does.
//!
//! A state is rebuilt by replaying actions from the initial state ([`replay`]), which checks
//! every step against the model: the action must be enabled and must lead to the recorded
//! state (by fingerprint, for a path of the graph).
//!
//! # Order
//!
//! States are numbered in discovery order: the model's initial states, then breadth first,
//! each state's successors in the model's action order. So the numbering, the parents, the
//! edges and every "first" finding are the same on every run, and the first state (or
//! transition) found in that order is at the least depth: its path is a shortest one.
//!
//! # Probes
//!
//! Predicates are evaluated while the full state is at hand ([`Probe`]): a state predicate
//! once per state as the state is discovered, a step predicate once per transition (every
//! enabled action of every expanded state, also those that lead to a known state).
//!
//! # Bounds
//!
//! Successors outside [`Model::within_boundary`] are dropped, and `next_state` returning
//! `None` means "not enabled", as in Stateright's checkers. With `max_states` the search
//! stops when a new state would exceed the bound; the graph is then [`Graph::is_complete`]
//! `false`, and the states from the one being expanded on are *unexpanded* (the one being
//! expanded keeps the edges it got, each a real model edge).
//!
//! The other bounds of [`crate::progress`] (Ctrl-C, a memory bound) are the same kind of
//! stop: the search ends before it expands its next state, the graph is incomplete, and
//! [`Graph::stopped`] says which bound it was.

use crate::progress::{Bound, Phase, Progress, Stop};
use stateright::Model;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hash, Hasher};

/// A state's number in the graph (discovery order).
pub type StateId = u32;
/// An edge's number in the graph (the out-edges of each state are contiguous, in action order).
pub type EdgeId = u32;
/// A distinct action's number in the graph.
pub type ActionId = u32;

/// The fingerprint of a state: the hash Stateright 0.31 uses (ahash with its fixed keys), so
/// that two states Stateright counts as one are one here too.
pub fn fingerprint<T: Hash>(value: &T) -> u64 {
    // Stateright's `stable` keys (src/lib.rs of stateright 0.31).
    const KEY1: u64 = 123_456_789_987_654_321;
    const KEY2: u64 = 98_765_432_123_456_789;
    // Spelled out as Stateright does (`stable::hasher`, `value.hash`, `finish`), not through
    // `hash_one`, which a hasher may specialize.
    #[allow(clippy::manual_hash_one)]
    {
        let mut h = ahash::RandomState::with_seeds(KEY1, KEY2, 0, 0).build_hasher();
        value.hash(&mut h);
        h.finish()
    }
}

/// A predicate on a state.
pub type StatePredicate<'a, S> = Box<dyn Fn(&S) -> bool + Sync + 'a>;

/// A predicate on a transition: state, action, next state.
pub type StepPredicate<'a, S, A> = Box<dyn Fn(&S, &A, &S) -> bool + Sync + 'a>;

/// A predicate on an action alone: which transitions a step probe looks at.
pub type ActionFilter<'a, A> = Box<dyn Fn(&A) -> bool + Sync + 'a>;

/// An open state probe of the search: its index, its predicate, and whether it is an
/// [`Probe::EveryState`].
type OpenState<'p, 'a, S> = (usize, &'p (dyn Fn(&S) -> bool + Sync + 'a), bool);

/// An open step probe of the search: its index and its predicate.
type OpenStep<'p, 'a, S, A> = (usize, StepRef<'p, 'a, S, A>);
/// A step predicate, borrowed.
type StepRef<'p, 'a, S, A> = &'p (dyn Fn(&S, &A, &S) -> bool + Sync + 'a);
/// An open step probe with the bit its filter has in the action masks ([`judged_mask`]).
type JudgedStep<'p, 'a, S, A> = (usize, StepRef<'p, 'a, S, A>, u64);

/// A step probe's filter, borrowed ([`Probe::FirstStepOf`]); `None`: it looks at every
/// transition.
type FilterRef<'p, 'a, A> = Option<&'p (dyn Fn(&A) -> bool + Sync + 'a)>;

/// The step probes' filters ([`Probe::FirstStepOf`]), by probe index; `None` for every other
/// probe (a [`Probe::FirstStep`] looks at every transition).
fn step_filters<'p, 'a, S, A>(probes: &'p [Probe<'a, S, A>]) -> Vec<FilterRef<'p, 'a, A>> {
    probes
        .iter()
        .map(|p| match p {
            Probe::FirstStepOf(f, _) => Some(&**f),
            _ => None,
        })
        .collect()
}

/// Every action's mask has it: the bit of the step probes that look at every action.
const EVERY_ACTION: u64 = 1 << 63;

/// The bit of each probe in an action's mask ([`judged_mask`]), by probe index: the first 63
/// filtered step probes have one of their own; every other probe has [`EVERY_ACTION`].
fn filter_bits<A>(filters: &[FilterRef<'_, '_, A>]) -> Vec<u64> {
    let mut next = 0;
    filters
        .iter()
        .map(|f| {
            if f.is_some() && next < 63 {
                next += 1;
                1 << (next - 1)
            } else {
                EVERY_ACTION
            }
        })
        .collect()
}

/// The probes that look at an action: the bits ([`filter_bits`]) of the filtered probes whose
/// filter takes it, and [`EVERY_ACTION`].
fn judged_mask<A>(filters: &[FilterRef<'_, '_, A>], bits: &[u64], a: &A) -> u64 {
    filters
        .iter()
        .zip(bits)
        .fold(EVERY_ACTION, |mask, (f, bit)| match f {
            Some(f) if *bit != EVERY_ACTION && f(a) => mask | bit,
            _ => mask,
        })
}

/// A predicate evaluated during the exploration.
pub enum Probe<'a, S, A> {
    /// The first state, in discovery order, where it holds.
    FirstState(StatePredicate<'a, S>),
    /// Its value in every state.
    EveryState(StatePredicate<'a, S>),
    /// The first transition (state, action, next state), in discovery order, where it holds.
    FirstStep(StepPredicate<'a, S, A>),
    /// The same, for a predicate that holds on every transition whose action the filter
    /// rejects: those transitions are not asked (the one-thread search asks the filter once
    /// per distinct action, the chunked search once per transition).
    FirstStepOf(ActionFilter<'a, A>, StepPredicate<'a, S, A>),
}

/// What a [`Probe`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// [`Probe::FirstState`]: the state, if any.
    State(Option<StateId>),
    /// [`Probe::EveryState`]: the value in each state.
    Bits(BitSet),
    /// [`Probe::FirstStep`]: the state the transition leaves and its action, if any.
    Step(Option<(StateId, ActionId)>),
}

/// A fixed-size set of state numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    pub fn push(&mut self, b: bool) {
        if self.len & 63 == 0 {
            self.words.push(0);
        }
        if b {
            self.words[self.len / 64] |= 1 << (self.len % 64);
        }
        self.len += 1;
    }
    /// No number is in the set.
    pub fn is_empty_set(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }
    /// Whether `i` is in the set (false past the end).
    pub fn get(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] & (1 << (i % 64)) != 0
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// One edge: where it goes and which (interned) action it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EdgeRec {
    target: StateId,
    action: ActionId,
}

const NONE: u32 = u32::MAX;

/// The explored graph of a model. `A` is the action type, `K` the fair-actor key (`None`: the
/// unfair environment).
pub struct Graph<A, K> {
    fps: Vec<u64>,
    /// fingerprint → state number (the table stores both, so that a lookup touches one
    /// place in memory).
    index: hashbrown::HashTable<(u64, StateId)>,
    /// With a [`Reduction`], the numbers are the classes' ([`Reduction::class`]), and this is
    /// the kept states' own fingerprints → state number.
    raw_index: Option<hashbrown::HashTable<(u64, StateId)>>,
    /// With a [`Reduction`]: the own fingerprints of states found that were mapped to
    /// another state of their class, → that state's number, for the breadth-first level
    /// being expanded and the one before ([`Graph::remember`]). Only a shortcut: mapping
    /// such a state again gives the same number (the mapping is a function of the state), so
    /// the graph is the same with or without it.
    mapped: [hashbrown::HashTable<(u64, StateId)>; 2],
    /// The level [`Graph::mapped`] was last turned over at.
    level: usize,
    /// Per state: the breadth-first parent (`NONE` for an initial state) and its action.
    parent: Vec<StateId>,
    parent_action: Vec<ActionId>,
    /// Per state `i`: its out-edges are `edges[edge_start[i]..edge_start[i + 1]]`.
    edge_start: Vec<EdgeId>,
    edges: Vec<EdgeRec>,
    /// The distinct actions, and per action the (interned) actor that takes it.
    actions: Vec<A>,
    actor_of: Vec<u16>,
    /// The distinct actors, sorted (`None` first).
    actors: Vec<Option<K>>,
    /// The initial states: number, and index in the model's `init_states`.
    inits: Vec<(StateId, usize)>,
    /// States `0..expanded` have all their successors in the graph.
    expanded: usize,
    complete: bool,
    generated: usize,
    /// Of the `generated` successors, those a diamond named ([`Commute`]).
    diamonds: usize,
    /// Successors taken as the state they leave ([`Stays`]), not made.
    loops: usize,
    stop: Option<Stop>,
}

impl<A, K> std::fmt::Debug for Graph<A, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("states", &self.fps.len())
            .field("edges", &self.edges.len())
            .field("complete", &self.complete)
            .finish()
    }
}

/// Options of an exploration.
#[derive(Clone, Debug, Default)]
pub struct ExploreOptions {
    /// Stop before the graph would hold more than this many distinct states.
    pub max_states: Option<usize>,
    /// Print a progress line on stderr, under this name, for runs longer than a second.
    pub progress: Option<String>,
    /// Threads that expand states (0 or 1: the calling thread alone). The graph, its
    /// numbering and every finding are the same for any number (see [`explore`]).
    pub threads: usize,
}

/// Explores `model` breadth-first into a [`Graph`], evaluating the probes. `actor` names the
/// fair actor that takes an action, or `None` for the unfair environment.
///
/// With [`ExploreOptions::threads`] above one, the frontier is taken in chunks: the chunk's
/// states are expanded (actions, successors, fingerprints, step predicates) on all threads,
/// then one thread numbers the successors in exactly the order a single thread would meet
/// them, then the new states' predicates are evaluated on all threads and recorded in
/// number order. Nothing a thread computes depends on another's timing, so the graph and the
/// findings are identical to a one-thread run.
pub fn explore<M, K>(
    model: &M,
    actor: impl Fn(&M::Action) -> Option<K>,
    probes: &[Probe<'_, M::State, M::Action>],
    opts: &ExploreOptions,
) -> (Graph<M::Action, K>, Vec<Finding>)
where
    M: Model + Sync,
    M::State: Hash + Send + Sync,
    M::Action: Hash + Eq + Clone + Send + Sync,
    K: Ord + Copy + Send + Sync,
{
    let mut progress = Progress::new(opts.progress.clone(), None);
    explore_with::<M, K, ()>(model, actor, probes, opts, &mut progress, None, None, None)
}

/// How [`explore_with`] reduces the graph by a symmetry: what tells the classes apart. The
/// graph keeps, of each class, the first state of it found, as found.
pub struct Reduction<'a, S> {
    /// The class's number of a state: equal numbers, the same class (up to a 64-bit
    /// collision, as for fingerprints). Two states of one class may have different numbers
    /// (a representative that is not unique per class): the graph then keeps the class
    /// twice, which reduces less and is never wrong.
    pub class: &'a (dyn Fn(&S) -> u64 + Sync),
}

// By hand: a derive would ask `S: Copy`.
impl<S> Clone for Reduction<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Reduction<'_, S> {}

/// Which actions commute, so that the search need not make a successor it can name
/// ([`explore_with`]): an action's footprint in a state, and whether two footprints are
/// independent. Independent means: in a state where both actions are enabled, each stays
/// enabled after the other, and the two orders lead to the same state.
///
/// # Diamonds
///
/// Let state `u` be, exactly, the successor of its breadth-first parent `p` by action `b`,
/// and let action `a` be enabled at `u`. If `a` and `b` are independent in `p`, then `a` was
/// enabled at `p`, and `u`'s successor by `a` is the successor by `b` of `p`'s successor by
/// `a`. Where the graph has that state `s` (an edge of `p` by `a`, whose target is exactly
/// that successor) and has expanded it already, its edge by `b` names `u`'s successor by
/// `a`: the search takes that edge without making the successor, fingerprinting it and
/// asking the visited table about it. It is the edge, to the state, that making it would
/// give: the graph, its numbering and every finding are the same with or without
/// diamonds (tests compare them on every built-in scenario). A step probe that judges the
/// action still sees the real transition: there, the diamond is taken only where the target
/// is exactly the successor and is still in the frontier, whose state it then reads.
///
/// "Exactly" matters with a [`Reduction`]: the state the graph keeps of a class may be
/// another one than the successor found, and then its own successors are not those of the
/// state found. The search knows, for each edge, whether its target as kept is exactly the
/// source's successor (its own fingerprint is the kept state's).
///
/// The footprint of `b` in `p` is taken when `u` is found (`p` is at hand then); that of `a`
/// in `u`, which is its footprint in `p` where `b` does not write what `a` reads (a
/// footprint depends on the state only through what it reads). Nothing is reduced: every
/// state and every edge is in the graph; what is saved is the work of making the
/// successors that close diamonds, most of the duplicates where independent steps
/// interleave.
pub struct Commute<'a, S, A, F> {
    pub footprint: &'a (dyn Fn(&S, &A) -> F + Sync),
    pub independent: &'a (dyn Fn(&F, &F) -> bool + Sync),
}

// By hand: a derive would ask `S: Copy`.
impl<S, A, F> Clone for Commute<'_, S, A, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S, A, F> Copy for Commute<'_, S, A, F> {}

/// The actions that lead back to the state they leave, wherever they are enabled: the search
/// takes such an action's edge to the state being expanded without making the successor,
/// fingerprinting it and asking the visited table about it.
///
/// The model declares them (for the cluster, [`podcheck_model::Cluster::leaves_state_as_is`],
/// whose footprint writes nothing). A state the graph keeps is kept as found, so the state
/// being expanded is exactly the successor, and the edge is the one making the successor
/// would give: the graph, its numbering and every finding are the same either way (tests
/// compare them on every built-in scenario and every plan scenario of the example
/// manifests). A step probe that judges such an action sees the state being expanded as the
/// successor: equal to it, as the state's identity goes.
pub type Stays<'a, A> = &'a (dyn Fn(&A) -> bool + Sync);

/// [`explore`], in the `exploring` phase of `progress`: its line on stderr, and its stops
/// (Ctrl-C, the memory bound) before the next state is expanded. `opts.progress` is not read
/// (`progress` has the name).
///
/// With a [`Reduction`], it explores the quotient: every state found (an initial one or a
/// successor) is numbered by its class ([`Reduction::class`]), so the graph has one state per
/// class, and the state it keeps of a class is the first one found, as found (not a representative
/// made of it: a state kept as found is exactly its breadth-first parent's successor, which a
/// diamond needs). A successor whose own fingerprint is that of a state the graph keeps is that
/// state: it is taken as it is, without numbering it by its class (most successors are states found
/// before, and that costs more than the rest of a step). The chunked search decides it as one
/// thread would, so the graph is the same for any number of threads. Step predicates see the real
/// transition (from a kept state, by one of its actions, to the successor as made). A path of this
/// graph is a run of the model only up to the classes: [`realize`] turns it into a real one.
#[allow(clippy::too_many_arguments)]
pub fn explore_with<M, K, F>(
    model: &M,
    actor: impl Fn(&M::Action) -> Option<K>,
    probes: &[Probe<'_, M::State, M::Action>],
    opts: &ExploreOptions,
    progress: &mut Progress,
    reduction: Option<Reduction<'_, M::State>>,
    commute: Option<Commute<'_, M::State, M::Action, F>>,
    stays: Option<Stays<'_, M::Action>>,
) -> (Graph<M::Action, K>, Vec<Finding>)
where
    M: Model + Sync,
    M::State: Hash + Send + Sync,
    M::Action: Hash + Eq + Clone + Send + Sync,
    K: Ord + Copy + Send + Sync,
{
    // The state a state found is, if the graph knows without mapping it: by its own
    // fingerprint `fp`, among the states it keeps (with a reduction, also among those mapped
    // lately).
    //
    // With it, whether the state the graph keeps is this very state ("exact"): its own
    // fingerprint is the kept state's, not one mapped to it lately.
    let ask = |g: &Graph<M::Action, K>, fp: u64| -> Option<(StateId, bool)> {
        match reduction {
            None => g.lookup(fp).map(|v| (v, true)),
            Some(_) => g
                .lookup_kept(fp)
                .map(|v| (v, true))
                .or_else(|| g.lookup_mapped(fp).map(|v| (v, false))),
        }
    };
    // Where a state found goes: the state the graph keeps of it (already, or to be added),
    // its number, and the kept state's own fingerprint.
    //
    // `fp` is the state's own fingerprint, and `found` what `ask` answered for it, if it has
    // been asked: the graph only grows, so a state it knew it still knows, and only an
    // unknown one is asked again.
    let place = |g: &Graph<M::Action, K>,
                 s: M::State,
                 fp: u64,
                 found: Option<(StateId, bool)>|
     -> Placed<M::State> {
        let found = || found.or_else(|| ask(g, fp));
        match reduction {
            None => Placed {
                known: found().map(|(v, _)| v),
                state: s,
                number: fp,
                kept: fp,
                mapped: None,
                exact: true,
            },
            Some(r) => {
                if let Some((v, exact)) = found() {
                    return Placed {
                        known: Some(v),
                        state: s,
                        number: g.fps[v as usize],
                        kept: fp,
                        mapped: None,
                        exact,
                    };
                }
                let number = (r.class)(&s);
                let known = g.lookup(number);
                Placed {
                    known,
                    state: s,
                    number,
                    kept: fp,
                    mapped: Some(fp),
                    // Not where the graph keeps another state of the class.
                    exact: known.is_none(),
                }
            }
        }
    };
    let limit = opts.max_states.unwrap_or(usize::MAX).min(NONE as usize - 1);
    let mut g = Graph {
        fps: Vec::new(),
        index: hashbrown::HashTable::new(),
        raw_index: reduction.is_some().then(hashbrown::HashTable::new),
        mapped: Default::default(),
        level: 0,
        parent: Vec::new(),
        parent_action: Vec::new(),
        edge_start: vec![0],
        edges: Vec::new(),
        actions: Vec::new(),
        actor_of: Vec::new(),
        actors: Vec::new(),
        inits: Vec::new(),
        expanded: 0,
        complete: true,
        generated: 0,
        diamonds: 0,
        loops: 0,
        stop: None,
    };
    progress.phase(Phase::Exploring, None, None);
    let mut findings: Vec<Finding> = probes
        .iter()
        .map(|p| match p {
            Probe::FirstState(_) => Finding::State(None),
            Probe::EveryState(_) => Finding::Bits(BitSet::default()),
            Probe::FirstStep(_) | Probe::FirstStepOf(..) => Finding::Step(None),
        })
        .collect();
    // The probes still open: every state probe that has not found its state, every
    // `EveryState`, and every step probe that has not found its step, each with its
    // predicate at hand. A probe leaves its list once it has found what it looks for, so the
    // search loop visits only those it must.
    let open_states = |findings: &[Finding]| -> Vec<OpenState<'_, '_, M::State>> {
        probes
            .iter()
            .zip(findings)
            .enumerate()
            .filter_map(|(i, p)| match p {
                (Probe::FirstState(c), Finding::State(None)) => Some((i, &**c, false)),
                (Probe::EveryState(c), _) => Some((i, &**c, true)),
                _ => None,
            })
            .collect()
    };
    let open_steps = |findings: &[Finding]| -> Vec<OpenStep<'_, '_, M::State, M::Action>> {
        probes
            .iter()
            .zip(findings)
            .enumerate()
            .filter_map(|(i, p)| match p {
                (Probe::FirstStep(c) | Probe::FirstStepOf(_, c), Finding::Step(None)) => {
                    Some((i, &**c))
                }
                _ => None,
            })
            .collect()
    };
    let mut open_state_probes = open_states(&findings);
    let observe = |findings: &mut Vec<Finding>,
                   open: &mut Vec<OpenState<'_, '_, M::State>>,
                   id: StateId,
                   s: &M::State| {
        let mut closed = false;
        for &(i, c, every) in open.iter() {
            let holds = c(s);
            match &mut findings[i] {
                Finding::Bits(bits) if every => bits.push(holds),
                Finding::State(found @ None) if holds => {
                    *found = Some(id);
                    closed = true;
                }
                _ => {}
            }
        }
        if closed {
            open.retain(|&(i, _, every)| every || matches!(findings[i], Finding::State(None)));
        }
    };
    let mut action_ids: HashMap<M::Action, ActionId, ahash::RandomState> =
        HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4));
    let mut actor_ids: Vec<Option<K>> = Vec::new();
    let mut queue: VecDeque<M::State> = VecDeque::new();

    // An initial state is always mapped: the graph keeps none of its class yet, or one
    // that is not it.
    let place_init = |g: &Graph<M::Action, K>, s: M::State| -> Placed<M::State> {
        match reduction {
            None => {
                let fp = fingerprint(&s);
                place(g, s, fp, None)
            }
            Some(r) => {
                let number = (r.class)(&s);
                let known = g.lookup(number);
                let kept = fingerprint(&s);
                Placed {
                    known,
                    state: s,
                    number,
                    kept,
                    mapped: None,
                    exact: false,
                }
            }
        }
    };
    for (i, s) in model.init_states().into_iter().enumerate() {
        if !model.within_boundary(&s) {
            continue;
        }
        g.generated += 1;
        let Placed {
            known,
            state: s,
            number,
            kept,
            ..
        } = place_init(&g, s);
        if known.is_some() {
            continue;
        }
        if g.fps.len() >= limit {
            g.complete = false;
            g.stop = Some(progress.stop_at(Bound::MaxStates, g.fps.len()));
            break;
        }
        let id = g.add(number, kept, NONE, NONE);
        g.inits.push((id, i));
        observe(&mut findings, &mut open_state_probes, id, &s);
        queue.push_back(s);
    }

    let mut actions = Vec::new();
    // The breadth-first level being expanded.
    let mut level = Level {
        depth: 0,
        end: g.fps.len(),
    };
    if opts.threads > 1 {
        let mut interner = Interner {
            action_ids: &mut action_ids,
            actor_ids: &mut actor_ids,
            actor: &actor,
        };
        explore_chunks(
            model,
            probes,
            opts,
            reduction,
            stays,
            limit,
            &mut g,
            &mut findings,
            &mut interner,
            &mut queue,
            progress,
            &mut level,
        );
    }
    // What the chunked search left open.
    open_state_probes.retain(|&(i, _, every)| every || matches!(findings[i], Finding::State(None)));
    // Per action number, the step probes that look at it ([`judged_mask`]); each open step
    // probe with its bit.
    let filters = step_filters(probes);
    let bits = filter_bits(&filters);
    let mut masks: Vec<u64> = Vec::new();
    let mut open_step_probes: Vec<_> = open_steps(&findings)
        .into_iter()
        .map(|(i, c)| (i, c, bits[i]))
        .collect();
    let mut successors: Vec<Successor<M::State, M::Action>> = Vec::new();
    // Diamonds ([`Commute`]), on one thread: each state of the frontier with the footprint
    // the action that found it had in its parent, where the state is exactly the parent's
    // successor by it; whether each edge's target is exactly the source's successor by its
    // action; and the parent's edges that may close a diamond (action and target).
    let commute = commute.filter(|_| opts.threads <= 1);
    let mut found_by: VecDeque<Option<F>> = queue.iter().map(|_| None).collect();
    let mut exact_edges = BitSet::default();
    let mut sides: Vec<(ActionId, StateId, bool)> = Vec::new();
    'bfs: while g.complete {
        if queue.is_empty() {
            break;
        }
        let u = g.expanded as StateId;
        let depth = level.enter(u as usize, g.fps.len());
        if depth != g.level {
            g.next_level(depth);
        }
        if u & 1023 == 0 {
            progress.set_headroom(headroom(&queue, g.index.capacity()));
            progress.set_graph_size(g.fps.len(), g.edges.len());
        }
        if let Some(stop) = progress.tick(g.fps.len(), Some(depth)) {
            g.complete = false;
            g.stop = Some(stop);
            break;
        }
        let Some(state) = queue.pop_front() else {
            break;
        };
        let by = found_by.pop_front().flatten();
        // The parent's other edges, to states expanded already, each exactly the parent's
        // successor by its action.
        sides.clear();
        let (p, b) = (g.parent[u as usize], g.parent_action[u as usize]);
        if by.is_some() && p != NONE {
            // Each such state's edge by `b`, if it has one: the diamond's far corner, read
            // here for all of them in a row, before the actions, so that the processor
            // waits for their memory at once.
            sides.extend(
                g.out_edges(p)
                    .filter(|&(e, t, _)| t < u && exact_edges.get(e as usize))
                    .filter_map(|(_, t, a)| {
                        g.out_edges(t)
                            .find(|&(_, _, x)| x == b)
                            .map(|(e, v, _)| (a, v, exact_edges.get(e as usize)))
                    }),
            );
        }
        model.actions(&state, &mut actions);
        // The successors first, each with its fingerprint; then the graph is asked about
        // them one after the other, with nothing in between, so that the processor can wait
        // for the visited table's memory for several at once; then each is taken in action
        // order, as one by one.
        for a in actions.drain(..) {
            let seen = action_ids.get(&a).copied();
            // An action that leads back to this state ([`Stays`]): its edge is to this state,
            // kept exactly as it is, and it is not made.
            let same = stays.is_some_and(|f| f(&a));
            // A diamond closed: the successor is a state the graph has, without making it.
            // Where a step probe judges the action and cannot read the target (kept exactly
            // and still in the frontier), the successor is made for the probe, and the
            // diamond still names it: it is neither fingerprinted nor looked up.
            let mut named = None;
            if let (false, Some(c), Some(by), Some(t)) = (same, commute, &by, seen) {
                let closed = sides
                    .iter()
                    .find(|&&(x, ..)| x == t)
                    .map(|&(_, v, exact)| (v, exact))
                    .filter(|_| (c.independent)(by, &(c.footprint)(&state, &a)));
                if let Some((v, exact)) = closed {
                    let judged = masks
                        .get(t as usize)
                        .is_none_or(|m| open_step_probes.iter().any(|&(_, _, bit)| m & bit != 0));
                    if !judged || (exact && v > u) {
                        successors.push(Successor {
                            action: a,
                            aid: t,
                            next: None,
                            fp: 0,
                            found: Some((v, exact)),
                            same: false,
                        });
                        continue;
                    }
                    named = Some((v, exact));
                }
            }
            let next = match same {
                true => None,
                false => match model.next_state(&state, a.clone()) {
                    Some(next) if model.within_boundary(&next) => Some(next),
                    _ => continue,
                },
            };
            // A named successor's fingerprint is not needed: the graph has it.
            let fp = match (&next, named) {
                (Some(next), None) => fingerprint(next),
                _ => 0,
            };
            let aid = match seen {
                Some(aid) => aid,
                None => Interner {
                    action_ids: &mut action_ids,
                    actor_ids: &mut actor_ids,
                    actor: &actor,
                }
                .intern(&mut g, &a),
            };
            while masks.len() <= aid as usize {
                masks.push(judged_mask(
                    &filters,
                    &bits,
                    g.action(masks.len() as ActionId),
                ));
            }
            successors.push(Successor {
                action: a,
                aid,
                next,
                fp,
                found: if same { Some((u, true)) } else { named },
                same,
            });
        }
        for s in successors.iter_mut() {
            if s.found.is_none() {
                s.found = ask(&g, s.fp);
            }
        }
        for Successor {
            action: a,
            aid,
            next,
            fp,
            found,
            same,
        } in successors.drain(..)
        {
            g.generated += 1;
            let mask = masks[aid as usize];
            let judge =
                |next: &M::State,
                 findings: &mut Vec<Finding>,
                 open: &mut Vec<JudgedStep<'_, '_, M::State, M::Action>>| {
                    let mut closed = false;
                    for &(i, c, bit) in open.iter() {
                        if mask & bit != 0 && c(&state, &a, next) {
                            if let Finding::Step(found @ None) = &mut findings[i] {
                                *found = Some((u, aid));
                                closed = true;
                            }
                        }
                    }
                    if closed {
                        open.retain(|&(i, ..)| matches!(findings[i], Finding::Step(None)));
                    }
                };
            let Some(next) = next else {
                let (v, exact) = found.expect("a diamond names its target");
                if same {
                    // Back to this state ([`Stays`]): it is the successor.
                    g.loops += 1;
                    judge(&state, &mut findings, &mut open_step_probes);
                } else {
                    // Closed by a diamond: the target is known, and where a step probe
                    // judges the action, it is exactly the successor, still in the
                    // frontier.
                    g.diamonds += 1;
                    if open_step_probes.iter().any(|&(_, _, bit)| mask & bit != 0) {
                        judge(
                            &queue[(v - u - 1) as usize],
                            &mut findings,
                            &mut open_step_probes,
                        );
                    }
                }
                exact_edges.push(exact);
                if !g.push_edge(v, aid, progress) {
                    break 'bfs;
                }
                continue;
            };
            judge(&next, &mut findings, &mut open_step_probes);
            let Placed {
                known,
                state: next,
                number,
                kept,
                mapped,
                exact,
            } = place(&g, next, fp, found);
            let v = match known {
                Some(v) => v,
                None if g.fps.len() >= limit => {
                    g.complete = false;
                    g.stop = Some(progress.stop_at(Bound::MaxStates, g.fps.len()));
                    break 'bfs;
                }
                None => {
                    let v = g.add(number, kept, u, aid);
                    observe(&mut findings, &mut open_state_probes, v, &next);
                    found_by
                        .push_back(commute.filter(|_| exact).map(|c| (c.footprint)(&state, &a)));
                    queue.push_back(next);
                    v
                }
            };
            if let Some(own) = mapped {
                g.remember(own, v, known.is_none() && kept == own);
            }
            exact_edges.push(exact);
            if !g.push_edge(v, aid, progress) {
                break 'bfs;
            }
        }
        g.edge_start.push(g.edges.len() as EdgeId);
        g.expanded += 1;
    }
    // The state being expanded when the bound hit keeps the edges it got; the states after
    // it have none.
    while g.edge_start.len() <= g.fps.len() {
        g.edge_start.push(g.edges.len() as EdgeId);
    }
    // Actors sorted, `None` first, so that enabled sets come out sorted.
    let mut order: Vec<usize> = (0..actor_ids.len()).collect();
    order.sort_by(|a, b| actor_ids[*a].cmp(&actor_ids[*b]));
    let mut rank = vec![0u16; actor_ids.len()];
    for (r, i) in order.iter().enumerate() {
        rank[*i] = r as u16;
    }
    for k in &mut g.actor_of {
        *k = rank[*k as usize];
    }
    g.actors = order.iter().map(|i| actor_ids[*i]).collect();
    g.mapped = Default::default();
    g.index.shrink_to_fit(|(f, _)| *f);
    if let Some(t) = &mut g.raw_index {
        t.shrink_to_fit(|(f, _)| *f);
    }
    g.fps.shrink_to_fit();
    g.parent.shrink_to_fit();
    g.parent_action.shrink_to_fit();
    g.edges.shrink_to_fit();
    g.edge_start.shrink_to_fit();
    (g, findings)
}

/// The edges into each state ([`Graph::in_edges`]): two tables, not a list per state.
pub struct InEdges {
    /// The edges into state `v` are `edges[start[v]..start[v + 1]]`.
    start: Vec<u32>,
    /// (the state it leaves, the edge).
    edges: Vec<(StateId, EdgeId)>,
}

impl InEdges {
    /// The edges into `v`, each with the state it leaves, in edge order.
    pub fn of(&self, v: StateId) -> &[(StateId, EdgeId)] {
        &self.edges[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

/// A successor of the state being expanded.
struct Successor<S, A> {
    action: A,
    /// Its number in the graph.
    aid: ActionId,
    /// The state; `None` where a diamond closed ([`Commute`]) and no step probe needs it:
    /// `found` is then its target.
    next: Option<S>,
    /// Its own fingerprint (0 where a diamond named it).
    fp: u64,
    /// The state the graph keeps of it, and whether that is this very state: what a
    /// diamond named, or what the graph answered when asked before it was taken.
    found: Option<(StateId, bool)>,
    /// The action leads back to the state being expanded ([`Stays`]): `found` is that state.
    same: bool,
}

/// Where a state found goes in the graph (see [`explore_with`]).
struct Placed<S> {
    /// The state the graph keeps of its class, if it has one.
    known: Option<StateId>,
    /// The state to keep if it is new.
    state: S,
    /// Its number: the class's key, or its fingerprint.
    number: u64,
    /// The kept state's own fingerprint (for a new state).
    kept: u64,
    /// The state's own fingerprint, if it was numbered by its class ([`Reduction::class`]).
    mapped: Option<u64>,
    /// The state the graph keeps (or will keep) of its class is this very state.
    exact: bool,
}

/// The breadth-first level being expanded: states `end..` are on the next one.
struct Level {
    depth: usize,
    end: usize,
}

impl Level {
    /// The level of state `u`, about to be expanded, with `states` states numbered so far.
    fn enter(&mut self, u: usize, states: usize) -> usize {
        if u == self.end && u != 0 {
            self.depth += 1;
            self.end = states;
        }
        self.depth
    }
}

/// What a table of the search may take at once when it grows (for the memory bound): the
/// frontier's buffer doubles (and copies up to half of itself), the index rehashes into a
/// table twice its size.
fn headroom<S>(queue: &VecDeque<S>, index_capacity: usize) -> u64 {
    let frontier = queue.capacity() * std::mem::size_of::<S>() / 2;
    let index = index_capacity * 2 * std::mem::size_of::<(u64, StateId)>();
    frontier.max(index) as u64
}

/// Action and actor numbering, shared by the one-thread and the chunked search.
struct Interner<'i, A, K, F> {
    action_ids: &'i mut HashMap<A, ActionId, ahash::RandomState>,
    actor_ids: &'i mut Vec<Option<K>>,
    actor: &'i F,
}

impl<A: Hash + Eq + Clone, K: Copy + PartialEq, F: Fn(&A) -> Option<K>> Interner<'_, A, K, F> {
    fn intern(&mut self, g: &mut Graph<A, K>, a: &A) -> ActionId {
        if let Some(id) = self.action_ids.get(a) {
            return *id;
        }
        let id = g.actions.len() as ActionId;
        let k = (self.actor)(a);
        let kid = match self.actor_ids.iter().position(|x| *x == k) {
            Some(p) => p,
            None => {
                self.actor_ids.push(k);
                self.actor_ids.len() - 1
            }
        };
        g.actions.push(a.clone());
        g.actor_of.push(kid as u16);
        self.action_ids.insert(a.clone(), id);
        id
    }
}

/// One successor, as a thread computed it: the action, its own fingerprint, the state if the
/// graph did not know it before the chunk, and the step predicates (by probe index) that hold
/// on the transition.
struct Succ<S, A> {
    action: A,
    /// The successor's own fingerprint (before any [`Reduction`] maps it).
    own: u64,
    slot: Slot<S>,
    steps: Vec<u16>,
}

/// What a successor is, as far as the threads can tell (the graph's numbering, in the order
/// one thread meets the successors, decides the rest), with the state where it is still
/// needed. Passes (2) and (3) of [`explore_chunks`] rewrite it in place.
enum Slot<S> {
    /// The state the graph had before the chunk, found by the successor's own fingerprint:
    /// the successor was dropped on the thread that made it.
    Known(StateId),
    /// The state being expanded, which the action leads back to ([`Stays`]): not made.
    Same(StateId),
    /// A successor the graph did not have before the chunk, as made.
    New(S),
    /// A successor the graph did not have before the chunk whose own fingerprint an earlier
    /// successor of the chunk had (by its index in the chunk's successors): it is that one's
    /// state. Its own state is dropped in pass (3).
    Repeat(usize, Option<S>),
    /// The first of its own fingerprint in the chunk: the state, and its number (its class's,
    /// with a [`Reduction`]).
    First { state: S, number: u64 },
}

/// States expanded per chunk and thread.
const CHUNK_PER_THREAD: usize = 512;

/// The chunked multi-threaded search (see [`explore`]); leaves `queue` empty unless the bound
/// was reached, and `g` exactly as the one-thread loop would.
///
/// A chunk goes through four passes. (1) On all threads: each state's actions, successors, step
/// predicates and own fingerprints; a successor the graph already has (by its own fingerprint) is
/// dropped where it was made. (2) On one thread: of the successors left, those whose own
/// fingerprint an earlier successor of the chunk had are marked as repeats. (3) On all threads: the
/// first of each own fingerprint is numbered by its class ([`Reduction::class`]) and the repeats
/// are dropped, so a state is numbered at most once per chunk (the number is a function of the
/// state: a repeat's is its first's). (4) On one thread: the numbering, in the order one thread
/// meets the successors, looking each up in the graph as it grows, as the one-thread loop does.
/// Every pass computes functions of the states alone, so the graph is the same for any number of
/// threads.
#[allow(clippy::too_many_arguments)]
fn explore_chunks<M, K, F>(
    model: &M,
    probes: &[Probe<'_, M::State, M::Action>],
    opts: &ExploreOptions,
    reduction: Option<Reduction<'_, M::State>>,
    stays: Option<Stays<'_, M::Action>>,
    limit: usize,
    g: &mut Graph<M::Action, K>,
    findings: &mut [Finding],
    interner: &mut Interner<'_, M::Action, K, F>,
    queue: &mut VecDeque<M::State>,
    progress: &mut Progress,
    level: &mut Level,
) where
    M: Model + Sync,
    M::State: Hash + Send + Sync,
    M::Action: Hash + Eq + Clone + Send + Sync,
    K: Ord + Copy + Send + Sync,
    F: Fn(&M::Action) -> Option<K>,
{
    use rayon::prelude::*;
    let filters = step_filters(probes);
    let Ok(pool) = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads)
        .build()
    else {
        // No threads to be had: the one-thread loop goes on from here.
        return;
    };
    let chunk_len = CHUNK_PER_THREAD * opts.threads;
    'bfs: while g.complete && !queue.is_empty() {
        progress.set_headroom(headroom(queue, g.index.capacity()));
        progress.set_graph_size(g.fps.len(), g.edges.len());
        let n = chunk_len.min(queue.len());
        let chunk: Vec<M::State> = queue.drain(..n).collect();
        // The step predicates still undecided: a later transition cannot be the first.
        let open_steps: Vec<OpenStep<'_, '_, M::State, M::Action>> = probes
            .iter()
            .zip(findings.iter())
            .enumerate()
            .filter_map(|(i, p)| match p {
                (Probe::FirstStep(c) | Probe::FirstStepOf(_, c), Finding::Step(None)) => {
                    Some((i, &**c))
                }
                _ => None,
            })
            .collect();
        // (1) Expand.
        let known: &Graph<M::Action, K> = g;
        // The chunk's states are the next to be expanded, in order.
        let first = g.expanded as StateId;
        let mut expanded: Vec<Vec<Succ<M::State, M::Action>>> = pool.install(|| {
            chunk
                .into_par_iter()
                .enumerate()
                .map(|(k, state)| {
                    let mut actions = Vec::new();
                    model.actions(&state, &mut actions);
                    let mut succs = Vec::with_capacity(actions.len());
                    for a in actions {
                        // Back to this state ([`Stays`]), which the graph has.
                        if stays.is_some_and(|f| f(&a)) {
                            let steps = open_steps
                                .iter()
                                .filter(|&&(i, c)| {
                                    filters[i].is_none_or(|f| f(&a)) && c(&state, &a, &state)
                                })
                                .map(|&(i, _)| i as u16)
                                .collect();
                            succs.push(Succ {
                                action: a,
                                own: 0,
                                slot: Slot::Same(first + k as StateId),
                                steps,
                            });
                            continue;
                        }
                        let Some(next) = model.next_state(&state, a.clone()) else {
                            continue;
                        };
                        if !model.within_boundary(&next) {
                            continue;
                        }
                        let mut steps = Vec::new();
                        for &(i, c) in &open_steps {
                            if filters[i].is_none_or(|f| f(&a)) && c(&state, &a, &next) {
                                steps.push(i as u16);
                            }
                        }
                        // As the one-thread loop (`place`) first looks a successor up.
                        let own = fingerprint(&next);
                        let slot = match known.lookup_found(own) {
                            Some(v) => Slot::Known(v),
                            None => Slot::New(next),
                        };
                        succs.push(Succ {
                            action: a,
                            own,
                            slot,
                            steps,
                        });
                    }
                    succs
                })
                .collect()
        });
        // (2) Repeats of an own fingerprint within the chunk.
        let mut first_of: HashMap<u64, usize, ahash::RandomState> =
            HashMap::with_hasher(ahash::RandomState::with_seeds(5, 6, 7, 8));
        let mut index = 0usize;
        for succ in expanded.iter_mut().flatten() {
            if matches!(succ.slot, Slot::New(_)) {
                match first_of.entry(succ.own) {
                    std::collections::hash_map::Entry::Occupied(e) => {
                        let j = *e.get();
                        if let Slot::New(next) = std::mem::replace(&mut succ.slot, Slot::Known(0)) {
                            succ.slot = Slot::Repeat(j, Some(next));
                        }
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(index);
                    }
                }
            }
            index += 1;
        }
        drop(first_of);
        // (3) Number the first of each own fingerprint by its class; drop the repeats.
        let resolve = |next: M::State, own: u64| match reduction {
            None => Slot::First {
                state: next,
                number: own,
            },
            Some(r) => Slot::First {
                number: (r.class)(&next),
                state: next,
            },
        };
        pool.install(|| {
            expanded.par_iter_mut().for_each(|succs| {
                for succ in succs.iter_mut() {
                    match &mut succ.slot {
                        Slot::Repeat(_, next) => drop(next.take()),
                        Slot::New(_) => {
                            if let Slot::New(next) =
                                std::mem::replace(&mut succ.slot, Slot::Known(0))
                            {
                                succ.slot = resolve(next, succ.own);
                            }
                        }
                        Slot::Known(_) | Slot::Same(_) | Slot::First { .. } => {}
                    }
                }
            })
        });
        // (4) Numbering, in the order one thread meets the successors.
        let mut ids: Vec<StateId> = Vec::with_capacity(index);
        let mut fresh: Vec<(StateId, M::State)> = Vec::new();
        let mut waste: Vec<M::State> = Vec::new();
        let mut stopped = false;
        'merge: for succs in expanded.iter_mut() {
            let u = g.expanded as StateId;
            let depth = level.enter(u as usize, g.fps.len());
            if depth != g.level {
                g.next_level(depth);
            }
            if let Some(stop) = progress.tick(g.fps.len(), Some(depth)) {
                g.complete = false;
                g.stop = Some(stop);
                stopped = true;
                break 'merge;
            }
            for succ in succs.iter_mut() {
                g.generated += 1;
                let aid = interner.intern(g, &succ.action);
                for &i in &succ.steps {
                    if let Finding::Step(found @ None) = &mut findings[i as usize] {
                        *found = Some((u, aid));
                    }
                }
                let (state, number) = match std::mem::replace(&mut succ.slot, Slot::Known(0)) {
                    Slot::Known(v) => (Err(v), 0),
                    Slot::Same(v) => {
                        debug_assert_eq!(v, u);
                        g.loops += 1;
                        (Err(v), 0)
                    }
                    Slot::Repeat(j, _) => (Err(ids[j]), 0),
                    Slot::First { state, number } => (Ok(state), number),
                    // Pass (3) numbers every successor it leaves as made; should one be left,
                    // it is numbered here, as the one-thread loop would.
                    Slot::New(state) => match reduction {
                        None => (Ok(state), succ.own),
                        Some(r) => {
                            let number = (r.class)(&state);
                            (Ok(state), number)
                        }
                    },
                };
                // `Err`: the successor's number is known.
                let v = match state {
                    Err(v) => v,
                    Ok(state) => {
                        // As the one-thread loop looks it up: by its own fingerprint, then by
                        // its number.
                        match g.lookup_found(succ.own).or_else(|| g.lookup(number)) {
                            Some(v) => {
                                waste.push(state);
                                if reduction.is_some() {
                                    g.remember(succ.own, v, false);
                                }
                                v
                            }
                            None if g.fps.len() >= limit => {
                                g.complete = false;
                                g.stop = Some(progress.stop_at(Bound::MaxStates, g.fps.len()));
                                stopped = true;
                                break 'merge;
                            }
                            None => {
                                // Kept as found: its own fingerprint finds it.
                                let v = g.add(number, succ.own, u, aid);
                                fresh.push((v, state));
                                v
                            }
                        }
                    }
                };
                ids.push(v);
                if !g.push_edge(v, aid, progress) {
                    stopped = true;
                    break 'merge;
                }
            }
            g.edge_start.push(g.edges.len() as EdgeId);
            g.expanded += 1;
        }
        // What a stop left unnumbered, and the mapped states the graph had: dropped on all
        // threads.
        pool.install(|| rayon::join(|| drop(expanded), || waste.into_par_iter().for_each(drop)));
        // The new states' predicates, recorded in number order.
        let open_states: Vec<usize> = probes
            .iter()
            .zip(findings.iter())
            .enumerate()
            .filter(|(_, (p, f))| {
                matches!(
                    (p, f),
                    (Probe::FirstState(_), Finding::State(None)) | (Probe::EveryState(_), _)
                )
            })
            .map(|(i, _)| i)
            .collect();
        if !open_states.is_empty() {
            let values: Vec<Vec<bool>> = pool.install(|| {
                fresh
                    .par_iter()
                    .map(|(_, s)| {
                        open_states
                            .iter()
                            .map(|i| match &probes[*i] {
                                Probe::FirstState(c) | Probe::EveryState(c) => c(s),
                                Probe::FirstStep(_) | Probe::FirstStepOf(..) => false,
                            })
                            .collect()
                    })
                    .collect()
            });
            for ((id, _), vals) in fresh.iter().zip(values) {
                for (i, b) in open_states.iter().zip(vals) {
                    match &mut findings[*i] {
                        Finding::State(found @ None) if b => *found = Some(*id),
                        Finding::Bits(bits) => bits.push(b),
                        _ => {}
                    }
                }
            }
        }
        if stopped {
            break 'bfs;
        }
        queue.extend(fresh.into_iter().map(|(_, s)| s));
    }
}

impl<A, K> Graph<A, K> {
    /// Adds an edge of the state being expanded; false (and the graph incomplete) when the
    /// edge table is full.
    fn push_edge(&mut self, target: StateId, action: ActionId, progress: &mut Progress) -> bool {
        self.edges.push(EdgeRec { target, action });
        if self.edges.len() >= NONE as usize {
            self.complete = false;
            self.stop = Some(progress.stop_at(Bound::Capacity, self.fps.len()));
            return false;
        }
        true
    }

    fn lookup(&self, fp: u64) -> Option<StateId> {
        self.index.find(fp, |(f, _)| *f == fp).map(|(_, i)| *i)
    }

    /// The state the graph keeps whose own fingerprint is `fp`.
    fn lookup_kept(&self, fp: u64) -> Option<StateId> {
        match &self.raw_index {
            Some(t) => t.find(fp, |(f, _)| *f == fp).map(|(_, i)| *i),
            None => self.lookup(fp),
        }
    }

    /// The state a successor whose own fingerprint is `fp` is, if the graph knows without
    /// mapping it: a state it keeps, or a state mapped lately ([`Graph::remember`]).
    fn lookup_found(&self, fp: u64) -> Option<StateId> {
        self.lookup_kept(fp).or_else(|| self.lookup_mapped(fp))
    }

    /// A state mapped lately whose own fingerprint is `fp` ([`Graph::remember`]): the state
    /// the graph keeps of its class.
    fn lookup_mapped(&self, fp: u64) -> Option<StateId> {
        self.mapped
            .iter()
            .find_map(|t| t.find(fp, |(f, _)| *f == fp).map(|(_, i)| *i))
    }

    /// A state whose own fingerprint is `own` was mapped to state `v` (`kept`: which keeps
    /// it as it is, so [`Graph::lookup_kept`] finds it without this).
    fn remember(&mut self, own: u64, v: StateId, kept: bool) {
        if kept {
            return;
        }
        let t = &mut self.mapped[0];
        if t.find(own, |(f, _)| *f == own).is_none() {
            t.insert_unique(own, (own, v), |(f, _)| *f);
        }
    }

    /// Level `depth` of the breadth-first search is being expanded: what was remembered
    /// before the level before is forgotten.
    fn next_level(&mut self, depth: usize) {
        self.level = depth;
        self.mapped.swap(0, 1);
        self.mapped[0].clear();
    }

    /// A new state: its number (`fp`) and, with a [`Reduction`], its own fingerprint
    /// (`kept`).
    fn add(&mut self, fp: u64, kept: u64, parent: StateId, action: ActionId) -> StateId {
        let id = self.fps.len() as StateId;
        self.fps.push(fp);
        self.parent.push(parent);
        self.parent_action.push(action);
        self.index.insert_unique(fp, (fp, id), |(f, _)| *f);
        if let Some(t) = &mut self.raw_index {
            t.insert_unique(kept, (kept, id), |(f, _)| *f);
        }
        id
    }

    /// Number of distinct states.
    pub fn state_count(&self) -> usize {
        self.fps.len()
    }

    /// Of the successors generated, the number a diamond named without making them
    /// ([`Commute`]).
    pub fn diamond_count(&self) -> usize {
        self.diamonds
    }

    /// Of the successors generated, the number taken as the state they leave without making
    /// them ([`Stays`]).
    pub fn loop_count(&self) -> usize {
        self.loops
    }

    /// Number of edges (one per enabled action of each expanded state).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Number of states generated: initial states and successors (within the boundary),
    /// repeats included.
    pub fn generated_count(&self) -> usize {
        self.generated
    }

    /// Whether every reachable state (within the boundary) was explored.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The bound that stopped the exploration, if one did.
    pub fn stopped(&self) -> Option<Stop> {
        self.stop
    }

    /// Bytes held by the graph's own tables (not the states' frontier during the search).
    pub fn heap_bytes(&self) -> usize {
        self.fps.capacity() * 8
            + self.index.capacity() * (16 + 1)
            + self
                .raw_index
                .as_ref()
                .map_or(0, |t| t.capacity() * (16 + 1))
            + self.parent.capacity() * 4
            + self.parent_action.capacity() * 4
            + self.edge_start.capacity() * 4
            + self.edges.capacity() * 8
            + self.actions.capacity() * std::mem::size_of::<A>()
            + self.actor_of.capacity() * 2
    }

    /// The initial states' numbers, in the model's order, without repeats.
    pub fn init_states(&self) -> impl Iterator<Item = StateId> + '_ {
        self.inits.iter().map(|(id, _)| *id)
    }

    /// Whether the state is an initial one.
    pub fn is_init(&self, n: StateId) -> bool {
        self.parent[n as usize] == NONE
    }

    /// The state's fingerprint.
    pub fn fingerprint(&self, n: StateId) -> u64 {
        self.fps[n as usize]
    }

    /// The number of a state, if it was reached.
    pub fn node<S: Hash>(&self, state: &S) -> Option<StateId> {
        self.lookup(fingerprint(state))
    }

    /// Whether all successors of the state are in the graph (always, for a complete graph).
    pub fn is_expanded(&self, n: StateId) -> bool {
        (n as usize) < self.expanded
    }

    /// An expanded state without any successor.
    pub fn is_terminal(&self, n: StateId) -> bool {
        self.is_expanded(n) && self.out_range(n).is_empty()
    }

    fn out_range(&self, n: StateId) -> std::ops::Range<usize> {
        self.edge_start[n as usize] as usize..self.edge_start[n as usize + 1] as usize
    }

    /// The state's out-edges as (edge, target, action), in the model's action order.
    pub fn out_edges(&self, n: StateId) -> impl Iterator<Item = (EdgeId, StateId, ActionId)> + '_ {
        self.out_range(n).map(move |e| {
            let r = self.edges[e];
            (e as EdgeId, r.target, r.action)
        })
    }

    /// The target of the state's `i`-th out-edge.
    pub fn nth_successor(&self, n: StateId, i: usize) -> Option<StateId> {
        let r = self.out_range(n);
        (i < r.len()).then(|| self.edges[r.start + i].target)
    }

    /// An edge's source, target and action. O(log states).
    /// The edges into each state, of those `keep(from, to)` accepts, each with the state it
    /// leaves, in edge order ([`InEdges`]).
    pub fn in_edges(&self, keep: impl Fn(StateId, StateId) -> bool) -> InEdges {
        let n = self.fps.len();
        let mut start = vec![0u32; n + 1];
        for u in 0..n as StateId {
            for (_, t, _) in self.out_edges(u) {
                if keep(u, t) {
                    start[t as usize + 1] += 1;
                }
            }
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut cursor = start.clone();
        let mut edges = vec![(0, 0); start[n] as usize];
        for u in 0..n as StateId {
            for (e, t, _) in self.out_edges(u) {
                if keep(u, t) {
                    let c = &mut cursor[t as usize];
                    edges[*c as usize] = (u, e);
                    *c += 1;
                }
            }
        }
        InEdges { start, edges }
    }

    pub fn edge(&self, e: EdgeId) -> (StateId, StateId, ActionId) {
        let src = self.edge_start.partition_point(|s| *s <= e) - 1;
        let r = self.edges[e as usize];
        (src as StateId, r.target, r.action)
    }

    /// An edge's target.
    pub fn target(&self, e: EdgeId) -> StateId {
        self.edges[e as usize].target
    }

    /// An edge's action number.
    pub fn edge_action(&self, e: EdgeId) -> ActionId {
        self.edges[e as usize].action
    }

    /// The action of an action number.
    pub fn action(&self, a: ActionId) -> &A {
        &self.actions[a as usize]
    }

    /// The actor that takes an action (`None`: the environment).
    pub fn actor(&self, a: ActionId) -> Option<K>
    where
        K: Copy,
    {
        self.actors[self.actor_of[a as usize] as usize]
    }

    /// The actor of an edge.
    pub fn edge_actor(&self, e: EdgeId) -> Option<K>
    where
        K: Copy,
    {
        self.actor(self.edges[e as usize].action)
    }

    /// The actors enabled in the state (of its out-edges): sorted, no repeats, `None` (the
    /// environment) first. Empty for an unexpanded state.
    pub fn enabled(&self, n: StateId) -> Vec<Option<K>>
    where
        K: Copy,
    {
        if !self.is_expanded(n) {
            return Vec::new();
        }
        let mut ranks: Vec<u16> = self
            .out_range(n)
            .map(|e| self.actor_of[self.edges[e].action as usize])
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        ranks.into_iter().map(|r| self.actors[r as usize]).collect()
    }

    /// The fair actors enabled in the state, sorted.
    pub fn fair_enabled(&self, n: StateId) -> Vec<K>
    where
        K: Copy,
    {
        self.enabled(n).into_iter().flatten().collect()
    }

    /// The breadth-first parent: the state and action by which `n` was first reached.
    pub fn parent(&self, n: StateId) -> Option<(StateId, &A)> {
        let p = self.parent[n as usize];
        (p != NONE).then(|| (p, &self.actions[self.parent_action[n as usize] as usize]))
    }

    /// Length of the shortest path from an initial state. O(depth).
    pub fn depth(&self, n: StateId) -> usize {
        let mut d = 0;
        let mut cur = n;
        while self.parent[cur as usize] != NONE {
            cur = self.parent[cur as usize];
            d += 1;
        }
        d
    }

    /// Every state's depth, in one pass (parents are numbered before their children).
    pub fn depths(&self) -> Vec<u32> {
        let mut d = vec![0u32; self.fps.len()];
        for i in 0..d.len() {
            let p = self.parent[i];
            if p != NONE {
                d[i] = d[p as usize] + 1;
            }
        }
        d
    }

    /// The shortest path from an initial state to `n`: its states (first an initial one, last
    /// `n`) and the action numbers between them.
    pub fn path_to(&self, n: StateId) -> (Vec<StateId>, Vec<ActionId>) {
        let mut nodes = vec![n];
        let mut actions = Vec::new();
        let mut cur = n;
        while self.parent[cur as usize] != NONE {
            actions.push(self.parent_action[cur as usize]);
            cur = self.parent[cur as usize];
            nodes.push(cur);
        }
        nodes.reverse();
        actions.reverse();
        (nodes, actions)
    }

    /// The position of an initial state in the model's `init_states`.
    pub fn init_index(&self, n: StateId) -> Option<usize> {
        self.inits.iter().find(|(id, _)| *id == n).map(|(_, i)| *i)
    }

    /// The run from an initial state to `n` along the breadth-first tree (a shortest path).
    pub fn run_to(&self, n: StateId) -> Run<A>
    where
        A: Clone,
    {
        let (nodes, actions) = self.path_to(n);
        Run {
            init: self.init_index(nodes[0]).unwrap_or(0),
            actions: actions.iter().map(|a| self.action(*a).clone()).collect(),
        }
    }

    /// Replays a path of the graph (states and the action numbers between them) through the
    /// model and returns its states: each action must be enabled and lead to the recorded
    /// state.
    pub fn replay<M>(
        &self,
        model: &M,
        nodes: &[StateId],
        actions: &[ActionId],
    ) -> Result<Vec<M::State>, String>
    where
        M: Model<Action = A>,
        M::State: Hash,
        A: Clone + PartialEq + std::fmt::Debug,
    {
        if nodes.len() != actions.len() + 1 {
            return Err(format!(
                "{} states for {} actions",
                nodes.len(),
                actions.len()
            ));
        }
        let init = self
            .init_index(nodes[0])
            .ok_or("the path does not start in an initial state")?;
        let acts: Vec<A> = actions.iter().map(|a| self.action(*a).clone()).collect();
        replay(model, init, &acts, |i, s| {
            fingerprint(s) == self.fps[nodes[i] as usize]
        })
    }

    /// Every state, rebuilt in number order by applying each state's parent action to its
    /// parent (for small graphs: this holds all states at once).
    pub fn rebuild_states<M>(&self, model: &M) -> Result<Vec<M::State>, String>
    where
        M: Model<Action = A>,
        M::State: Hash + Clone,
        A: Clone,
    {
        let inits = model.init_states();
        let mut out: Vec<M::State> = Vec::with_capacity(self.fps.len());
        for i in 0..self.fps.len() {
            let s = match self.parent(i as StateId) {
                None => {
                    let k = self
                        .init_index(i as StateId)
                        .ok_or("unknown initial state")?;
                    inits[k].clone()
                }
                Some((p, a)) => model
                    .next_state(&out[p as usize], a.clone())
                    .ok_or_else(|| format!("state {i}: its parent action is not enabled"))?,
            };
            if fingerprint(&s) != self.fps[i] {
                return Err(format!("state {i}: rebuilt, it is another state"));
            }
            out.push(s);
        }
        Ok(out)
    }

    /// The states within `radius` steps (forward or backward) of `nodes`, sorted, and the
    /// edges among them: a trace's neighbourhood, for rendering. With a radius of
    /// `usize::MAX` it is the whole graph.
    pub fn neighbourhood(&self, nodes: &[StateId], radius: usize) -> (Vec<StateId>, Vec<EdgeId>) {
        let n = self.fps.len();
        let mut dist = vec![usize::MAX; n];
        let mut queue = VecDeque::new();
        for v in nodes {
            if (*v as usize) < n && dist[*v as usize] == usize::MAX {
                dist[*v as usize] = 0;
                queue.push_back(*v);
            }
        }
        // Predecessors are needed for the backward direction.
        let preds = self.in_edges(|_, _| true);
        while let Some(v) = queue.pop_front() {
            let d = dist[v as usize];
            if d >= radius {
                continue;
            }
            let next = self.out_edges(v).map(|(_, t, _)| t);
            for w in next.chain(preds.of(v).iter().map(|(u, _)| *u)) {
                if dist[w as usize] == usize::MAX {
                    dist[w as usize] = d + 1;
                    queue.push_back(w);
                }
            }
        }
        let states: Vec<StateId> = (0..n as StateId)
            .filter(|v| dist[*v as usize] != usize::MAX)
            .collect();
        let edges = states
            .iter()
            .flat_map(|u| self.out_edges(*u))
            .filter(|(_, t, _)| dist[*t as usize] != usize::MAX)
            .map(|(e, _, _)| e)
            .collect();
        (states, edges)
    }

    /// The edge from `from` to `to` labelled `action`, if the graph has it.
    pub fn find_edge(&self, from: StateId, to: StateId, action: ActionId) -> Option<EdgeId> {
        self.out_edges(from)
            .find(|(_, t, a)| *t == to && *a == action)
            .map(|(e, _, _)| e)
    }

    /// The number of an action, if the graph has seen it.
    pub fn action_id(&self, a: &A) -> Option<ActionId>
    where
        A: PartialEq,
    {
        self.actions
            .iter()
            .position(|x| x == a)
            .map(|i| i as ActionId)
    }
}

/// A finite run of a model as data: the initial state (its index in `init_states`) and the
/// actions taken from it. Its states are rebuilt by [`replay`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Run<A> {
    pub init: usize,
    pub actions: Vec<A>,
}

impl<A: Clone + PartialEq + std::fmt::Debug> Run<A> {
    /// The run's states, replayed through the model (first the initial state).
    pub fn states<M: Model<Action = A>>(&self, model: &M) -> Result<Vec<M::State>, String> {
        replay(model, self.init, &self.actions, |_, _| true)
    }
}

/// Replays `actions` from initial state number `init` of the model and returns the states,
/// first the initial one. Every step is checked: the action must be among the model's
/// `actions` in the state it is taken from, `next_state` must give a state within the
/// boundary, and `recorded(i, state)` must accept state `i` (the caller's record of it: a
/// fingerprint, or a stored state). The error names the first step that fails.
pub fn replay<M: Model>(
    model: &M,
    init: usize,
    actions: &[M::Action],
    mut recorded: impl FnMut(usize, &M::State) -> bool,
) -> Result<Vec<M::State>, String>
where
    M::Action: Clone + PartialEq + std::fmt::Debug,
{
    let first = model
        .init_states()
        .into_iter()
        .nth(init)
        .ok_or_else(|| format!("the model has no initial state {init}"))?;
    if !model.within_boundary(&first) {
        return Err("the initial state is outside the boundary".into());
    }
    if !recorded(0, &first) {
        return Err("the initial state is not the recorded one".into());
    }
    let mut states = vec![first];
    let mut enabled = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        let s = &states[i];
        enabled.clear();
        model.actions(s, &mut enabled);
        if !enabled.contains(a) {
            return Err(format!("step {}: `{a:?}` is not enabled", i + 1));
        }
        let next = model
            .next_state(s, a.clone())
            .ok_or_else(|| format!("step {}: `{a:?}` does not apply", i + 1))?;
        if !model.within_boundary(&next) {
            return Err(format!(
                "step {}: `{a:?}` leaves the model's boundary",
                i + 1
            ));
        }
        if !recorded(i + 1, &next) {
            return Err(format!(
                "step {}: `{a:?}` does not lead to the recorded state",
                i + 1
            ));
        }
        states.push(next);
    }
    Ok(states)
}

/// A path of a quotient graph ([`explore_with`] with a [`Reduction`]) made a real run: from
/// the model's initial state, each step takes the first enabled action (in the model's
/// order) whose successor is in the class (`same_class`) of the successor the graph's action
/// has from the state the graph keeps, and, on the last step, for which `last` holds. The
/// states the graph keeps along the path are rebuilt from their breadth-first paths, mapped
/// as the exploration mapped them, and each is checked against the graph's number of it; so
/// is every edge of the path. `actions` may have one more action than `nodes` has steps: a
/// last transition that leaves the path's final state (a step property's). Returns the real
/// run and its states.
#[allow(clippy::type_complexity)]
pub fn realize<M, K>(
    model: &M,
    graph: &Graph<M::Action, K>,
    reduction: Reduction<'_, M::State>,
    same_class: &dyn Fn(&M::State, &M::State) -> bool,
    nodes: &[StateId],
    actions: &[ActionId],
    last: Option<&dyn Fn(&M::State, &M::Action, &M::State) -> bool>,
) -> Result<(Run<M::Action>, Vec<M::State>), String>
where
    M: Model,
    M::State: Hash + Clone,
    M::Action: Clone + PartialEq + std::fmt::Debug,
{
    if nodes.is_empty() || actions.len() + 1 < nodes.len() || actions.len() > nodes.len() {
        return Err("a path of the graph has a state more than it has actions".into());
    }
    let init = graph
        .init_index(nodes[0])
        .ok_or("the path does not start in an initial state")?;
    let init_state = |n: StateId| -> Result<M::State, String> {
        let i = graph
            .init_index(n)
            .ok_or("a breadth-first path does not start in an initial state")?;
        model
            .init_states()
            .into_iter()
            .nth(i)
            .ok_or_else(|| "the model has no such initial state".to_string())
    };
    // The kept states rebuilt so far.
    let mut kept: HashMap<StateId, M::State> = HashMap::new();
    let mut kept_state = |n: StateId| -> Result<M::State, String> {
        if let Some(s) = kept.get(&n) {
            return Ok(s.clone());
        }
        let (path, steps) = graph.path_to(n);
        // From the deepest state of the path rebuilt before, else from its initial state
        // (an initial state is mapped, as every state its breadth-first parent found: each
        // was new then).
        let from = path.iter().rposition(|v| kept.contains_key(v));
        let (mut x, start) = match from {
            Some(j) => (kept[&path[j]].clone(), j),
            None => {
                let x = init_state(path[0])?;
                let number = (reduction.class)(&x);
                if number != graph.fingerprint(path[0]) {
                    return Err("the initial state is not the recorded one".into());
                }
                kept.insert(path[0], x.clone());
                (x, 0)
            }
        };
        for j in start..steps.len() {
            let a = graph.action(steps[j]).clone();
            let next = model
                .next_state(&x, a.clone())
                .ok_or_else(|| format!("the graph's `{a:?}` does not apply to its state"))?;
            let number = (reduction.class)(&next);
            if number != graph.fingerprint(path[j + 1]) {
                return Err(format!(
                    "`{a:?}` does not lead to the state the graph keeps"
                ));
            }
            kept.insert(path[j + 1], next.clone());
            x = next;
        }
        Ok(x)
    };
    let first = init_state(nodes[0])?;
    let mut states = vec![first];
    let mut real_actions = Vec::new();
    let mut enabled = Vec::new();
    for (i, aid) in actions.iter().enumerate() {
        let a = graph.action(*aid).clone();
        let quotient = kept_state(nodes[i]).map_err(|e| format!("step {}: {e}", i + 1))?;
        let target = model
            .next_state(&quotient, a.clone())
            .ok_or_else(|| format!("step {}: `{a:?}` does not apply", i + 1))?;
        // The edge leads where the graph says, as the exploration placed it.
        if let Some(n) = nodes.get(i + 1) {
            let arrives = graph.lookup_kept(fingerprint(&target)) == Some(*n)
                || (reduction.class)(&target) == graph.fingerprint(*n);
            if !arrives {
                return Err(format!("step {}: not the recorded state", i + 1));
            }
        }
        let is_last = i + 1 == actions.len();
        let r = states.last().expect("a run has a state");
        enabled.clear();
        model.actions(r, &mut enabled);
        let step = enabled.iter().find_map(|b| {
            let next = model.next_state(r, b.clone())?;
            (model.within_boundary(&next)
                && same_class(&next, &target)
                && (!is_last || last.is_none_or(|l| l(r, b, &next))))
            .then(|| (b.clone(), next))
        });
        let (b, next) = step.ok_or_else(|| {
            format!(
                "step {}: no action leads where `{a:?}` leads in the quotient",
                i + 1
            )
        })?;
        real_actions.push(b);
        states.push(next);
    }
    Ok((
        Run {
            init,
            actions: real_actions,
        },
        states,
    ))
}
