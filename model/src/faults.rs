//! Faults and operator actions. Each fault of a scenario happens at most once, at any moment
//! it is enabled, or never; none of them is fair.

use crate::apiserver;
use crate::cluster::{Action, Cluster};
use crate::spec::Fault;
use crate::state::*;

fn fired(s: &State, i: usize) -> bool {
    s.env.fired & (1 << i) != 0
}

fn workload_index(m: &Cluster, name: &str) -> Option<u8> {
    m.scenario
        .workloads
        .iter()
        .position(|w| w.name() == name)
        .map(|i| i as u8)
}

/// Enabled faults.
pub fn actions(m: &Cluster, s: &State, out: &mut Vec<Action>) {
    for (i, f) in m.scenario.faults.iter().enumerate() {
        if fired(s, i) {
            continue;
        }
        let index = i as u8;
        match f {
            // `kubectl delete pod` of a Ready pod of the workload.
            Fault::DeletePod { workload } => {
                let w = workload_index(m, workload);
                for p in &s.api.pods {
                    if Some(p.workload) == w && p.status.ready && p.deletion.is_none() {
                        out.push(Action::Fault {
                            index,
                            target: Some(p.uid),
                        });
                    }
                }
            }
            // A force delete of any bound pod of the workload.
            Fault::ForceDeletePod { workload } => {
                let w = workload_index(m, workload);
                for p in &s.api.pods {
                    if Some(p.workload) == w && p.node.is_some() {
                        out.push(Action::Fault {
                            index,
                            target: Some(p.uid),
                        });
                    }
                }
            }
            // The dependency fails while some pod is serving (Demo 6, S8).
            Fault::DependencyOutage { .. } => {
                if s.api.pods.iter().any(|p| p.status.ready) {
                    out.push(Action::Fault {
                        index,
                        target: None,
                    });
                }
            }
            // A program that is up deadlocks (Demo 7).
            Fault::Deadlock { workload } => {
                let w = workload_index(m, workload);
                for node in &s.nodes {
                    for rt in &node.pods {
                        if Some(rt.workload) != w {
                            continue;
                        }
                        let up = rt
                            .ctrs
                            .iter()
                            .any(|c| matches!(&c.run, Run::Running(p) if p.answers() && p.stop.is_none()));
                        if up {
                            out.push(Action::Fault {
                                index,
                                target: Some(rt.uid),
                            });
                        }
                    }
                }
            }
        }
    }
}

/// Applies fault `index`.
pub fn apply(m: &Cluster, s: &mut State, index: u8, target: Option<u16>) -> Option<()> {
    let f = m.scenario.faults.get(index as usize)?;
    if fired(s, index as usize) {
        return None;
    }
    s.env.fired |= 1 << index;
    match f {
        Fault::DeletePod { .. } => apiserver::delete_pod(m, s, target?, None),
        Fault::ForceDeletePod { .. } => {
            let uid = target?;
            s.pod(uid)?;
            s.api.pods.retain(|p| p.uid != uid);
            Some(())
        }
        Fault::DependencyOutage { seconds } => {
            s.env.dependency_down = true;
            s.env.outage_left = Some(*seconds);
            Some(())
        }
        Fault::Deadlock { .. } => {
            let uid = target?;
            let (n, _) = s.rt_any(uid)?;
            let rt = s.rt_mut(n, uid)?;
            for c in &mut rt.ctrs {
                if let Run::Running(p) = &mut c.run {
                    p.deadlocked = true;
                }
            }
            Some(())
        }
    }
}

/// The fault in words.
pub fn describe(m: &Cluster, s: &State, index: u8, target: Option<u16>) -> String {
    let name = |t: Option<u16>| t.map(|u| m.uid_name(s, u)).unwrap_or_default();
    match m.scenario.faults.get(index as usize) {
        Some(Fault::DeletePod { .. }) => format!("kubectl: delete pod {}", name(target)),
        Some(Fault::ForceDeletePod { .. }) => format!(
            "kubectl: delete pod {} --grace-period=0 --force",
            name(target)
        ),
        Some(Fault::DependencyOutage { seconds }) => {
            format!("environment: the dependency goes down for {seconds} s")
        }
        Some(Fault::Deadlock { .. }) => {
            format!("environment: the program in {} deadlocks", name(target))
        }
        None => format!("fault #{index}"),
    }
}
