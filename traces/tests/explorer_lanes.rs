//! The Explorer's picture lights up the box of whoever took the last step. The lanes come from
//! an exhaustive match over the components and the controllers (`explorer::view::lanes`):
//! every controller lights up kube-controller-manager, which runs them all (the Deployment,
//! disruption and EndpointSlice controllers did not, when the box listed seven of the ten).

use podcheck_input::catalogue;
use podcheck_model::controllers::{self, node_lifecycle, Controller};
use podcheck_model::state::NodeId;
use podcheck_model::{Action, Cluster, State};
use podcheck_properties::check;
use podcheck_traces::explorer::view::{lanes, svg, Lane};
use stateright::Model;
use std::collections::{HashSet, VecDeque};

fn model(scenario: &str) -> Cluster {
    check::model(&catalogue::find(scenario).unwrap(), &[], false)
}

/// The first step (breadth first) whose action `wanted` accepts: the state it is taken in, the
/// action and the state after.
fn first_step(m: &Cluster, wanted: impl Fn(&Action) -> bool) -> (State, Action, State) {
    let init = m.init_states().remove(0);
    let mut seen = HashSet::from([init.clone()]);
    let mut queue = VecDeque::from([init]);
    let mut actions = Vec::new();
    while let Some(s) = queue.pop_front() {
        assert!(seen.len() < 20_000, "{}: no such step", m.scenario.name);
        m.actions(&s, &mut actions);
        for a in actions.drain(..) {
            let Some(n) = m.next_state(&s, a) else {
                continue;
            };
            if wanted(&a) {
                return (s, a, n);
            }
            if seen.insert(n.clone()) {
                queue.push_back(n);
            }
        }
    }
    panic!("{}: no such step", m.scenario.name)
}

/// Whether the picture after the step highlights the box titled `title` (its frame is drawn
/// just before its title).
fn lit(m: &Cluster, (before, a, after): &(State, Action, State), title: &str) -> bool {
    let picture = svg(m, Some((before, a)), after, 0, 1);
    let lines: Vec<&str> = picture.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("<text") && l.contains(&format!(">{title}</text>")))
        .unwrap_or_else(|| panic!("no box titled {title}:\n{picture}"));
    let frame = lines[at - 1];
    assert!(frame.starts_with("<rect"), "{frame}");
    frame.contains(r##"stroke="#ff9800""##)
}

#[test]
fn every_controller_lights_up_the_controller_manager() {
    let m = model("healthy");
    let every_step = [
        controllers::Action::ReplicaSetSync {
            workload: 0,
            revision: 0,
            pick: 0,
        },
        controllers::Action::JobSync { workload: 0 },
        controllers::Action::StatefulSetSync { workload: 0 },
        controllers::Action::EndpointSliceSync,
        controllers::Action::AttachVolume {
            claim: 0,
            node: NodeId(0),
        },
        controllers::Action::MultiAttach {
            claim: 0,
            node: NodeId(0),
        },
        controllers::Action::DetachVolume {
            claim: 0,
            node: NodeId(0),
        },
        controllers::Action::NodeLifecycle {
            node: NodeId(0),
            step: node_lifecycle::Step::Taint,
        },
        controllers::Action::TaintEviction { uid: 0 },
        controllers::Action::PodGc { uid: 0 },
        controllers::Action::DisruptionSync { pdb: 0 },
        controllers::Action::DeploymentSync { workload: 0 },
    ];
    let mut covered = HashSet::new();
    for a in every_step {
        covered.insert(a.controller());
        let lit = lanes(&m, &Action::Controller(a));
        let want = match a.controller() {
            Controller::EndpointSlice => vec![Lane::ControllerManager, Lane::EndpointSlice],
            _ => vec![Lane::ControllerManager],
        };
        assert_eq!(lit, want, "{a:?}");
    }
    assert_eq!(covered.len(), 10, "a step of every controller: {covered:?}");
}

/// In the picture: the three controllers the box left out light it up now, one it listed
/// still does, and a step of another component does not.
#[test]
fn the_picture_highlights_the_controller_manager_for_every_controller() {
    let cm = "controller-manager";
    for (scenario, controller) in [
        ("rolling-update", Controller::Deployment),
        ("drain-respects-budget", Controller::Disruption),
        ("healthy", Controller::EndpointSlice),
        ("healthy", Controller::ReplicaSet),
    ] {
        let m = model(scenario);
        let step = first_step(
            &m,
            |a| matches!(a, Action::Controller(c) if c.controller() == controller),
        );
        assert!(lit(&m, &step, cm), "{scenario}: {controller:?}");
        assert!(
            !lit(&m, &step, "kube-scheduler"),
            "{scenario}: {controller:?}"
        );
        assert_eq!(
            lit(&m, &step, "EndpointSlice"),
            controller == Controller::EndpointSlice,
            "{scenario}: {controller:?}"
        );
    }
    let m = model("healthy");
    let bind = first_step(&m, |a| matches!(a, Action::Scheduler(_)));
    assert!(lit(&m, &bind, "kube-scheduler"));
    assert!(!lit(&m, &bind, cm));
}
