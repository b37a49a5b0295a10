//! The canonical form of interchangeable pods (`podcheck_model::symmetry`): a state with its
//! pods renamed and reordered has the same representative and the same class key, the
//! representative holds what the state holds, and states with one class key are one class.

use podcheck_input::catalogue;
use podcheck_input::spec::{Fault, Workload};
use podcheck_model::state::State;
use podcheck_model::symmetry::interchangeable_pods;
use podcheck_model::Cluster;
use stateright::Model;

/// Every state reachable within a few steps of `name` at `nodes` × `replicas`.
fn states(name: &str, nodes: u8, replicas: u8, steps: usize) -> (Cluster, Vec<State>) {
    let mut sc = catalogue::find(name).unwrap();
    sc.resize(Some(nodes), Some(replicas)).unwrap();
    let m = Cluster::new(sc, Vec::new());
    let mut all = m.init_states();
    let mut frontier = all.clone();
    for _ in 0..steps {
        let mut next = Vec::new();
        for s in &frontier {
            let mut acts = Vec::new();
            m.actions(s, &mut acts);
            for a in acts {
                if let Some(t) = m.next_state(s, a) {
                    next.push(t);
                }
            }
        }
        all.extend(next.iter().cloned());
        frontier = next;
    }
    (m, all)
}

/// `s` with the pods' uids and suffixes renamed by `f` and the API's pods reversed: a
/// state of the same class.
fn shuffled(s: &State, f: impl Fn(u16) -> u16, g: impl Fn(u8) -> u8) -> State {
    let mut t = s.clone();
    for p in t.api.pods.iter_mut() {
        p.uid = f(p.uid);
        p.suffix = g(p.suffix);
    }
    t.api.pods.reverse();
    for n in 0..t.nodes.len() {
        for r in t.nodes[n].pods.iter_mut() {
            r.uid = f(r.uid);
            r.suffix = g(r.suffix);
        }
        t.nodes[n].pods.reverse();
    }
    for e in t.api.endpoints.iter_mut() {
        e.uid = f(e.uid);
    }
    t.api.endpoints.sort();
    for i in 0..t.proxies.len() {
        for r in t.proxies[i].routes.iter_mut() {
            r.0 = f(r.0);
        }
        t.proxies[i].routes.sort();
    }
    t
}

#[test]
fn a_state_with_its_pods_renamed_has_the_same_representative() {
    let (m, all) = states("termination-race", 1, 3, 9);
    let sym = &m.symmetry;
    assert_eq!(sym.pod_workloads(), &[0]);
    let mut merged = 0;
    for s in &all {
        let rep = sym.representative(s);
        // Swap uids 1 and 3 and suffixes 1 and 3, and shift uids by 10: still the class.
        let swap = |u: u16| match u {
            1 => 3,
            3 => 1,
            u => u,
        };
        let swap8 = |x: u8| match x {
            1 => 3,
            3 => 1,
            x => x,
        };
        for t in [shuffled(s, swap, swap8), shuffled(s, |u| u + 10, |x| x + 5)] {
            assert_eq!(sym.representative(&t), rep);
            assert!(sym.same_class(&t, s));
        }
        if rep != *s {
            merged += 1;
        }
    }
    assert!(merged > 0, "no state was renumbered");
}

#[test]
fn the_representative_keeps_what_the_pods_hold() {
    let (m, all) = states("termination-race", 1, 2, 8);
    let sym = &m.symmetry;
    // The representative's pods hold what the state's hold, up to their identity.
    let phases = |s: &State| {
        let mut v: Vec<String> = s
            .api
            .pods
            .iter()
            .map(|p| format!("{:?}{:?}{}", p.status.phase, p.deletion, p.status.ready))
            .collect();
        v.sort();
        v
    };
    for (s, r) in all.iter().zip(all.iter().map(|s| sym.representative(s))) {
        assert_eq!(phases(s), phases(&r));
    }
}

#[test]
fn pods_are_not_interchangeable_where_the_model_tells_them_apart() {
    for s in catalogue::builtin() {
        let tells_apart = s
            .workloads
            .iter()
            .any(|w| !matches!(w, Workload::Deployment { .. }));
        if tells_apart {
            assert!(interchangeable_pods(&s).is_empty(), "{}", s.name);
        }
    }
}

#[test]
fn a_scale_down_does_not_tell_pods_apart_up_to_ten_replicas() {
    // The ReplicaSet's scale-down offers every choice among the pods tied at its cut.
    for name in ["scale-down", "rolling-update", "recreate"] {
        let mut s = catalogue::find(name).unwrap();
        assert!(s
            .faults
            .iter()
            .any(|f| matches!(f, Fault::Scale { .. } | Fault::RolloutRestart { .. })));
        assert_eq!(interchangeable_pods(&s), vec![0], "{name}");
        assert!(podcheck_model::symmetry::scaled_pods(&s), "{name}");
        // Past 10 replicas a tie could hold more pods than the choices offered.
        s.workloads[0].set_replicas(11);
        assert!(interchangeable_pods(&s).is_empty(), "{name}");
    }
}

#[test]
fn a_drain_does_not_tell_pods_apart() {
    // kubectl drain evicts each pod on its own and waits for each by name: its list is a set.
    let s = catalogue::find("drain-respects-budget").unwrap();
    assert!(s.faults.iter().any(|f| matches!(f, Fault::Drain { .. })));
    assert_eq!(interchangeable_pods(&s), vec![0]);
}

#[test]
fn a_state_with_its_pods_renamed_has_the_same_class_key() {
    let (m, all) = states("termination-race", 1, 3, 9);
    let sym = &m.symmetry;
    let key = sym.class_key().expect("the pods are interchangeable");
    let mut renamed = 0;
    for s in &all {
        let k = key(s);
        let swap = |u: u16| match u {
            1 => 2,
            2 => 1,
            u => u,
        };
        let swap8 = |x: u8| match x {
            1 => 2,
            2 => 1,
            x => x,
        };
        for t in [shuffled(s, swap, swap8), shuffled(s, |u| u + 7, |x| x + 3)] {
            assert_eq!(key(&t), k);
            renamed += usize::from(t != *s);
        }
    }
    assert!(renamed > 0, "no state was renamed");
}

#[test]
fn states_with_one_class_key_are_one_class_and_one_class_has_one_key() {
    // With interchangeable nodes too: the kept state orders the nodes, the key the pods.
    for (name, nodes, replicas, steps) in [
        ("termination-race", 1, 3, 9),
        ("deployment-partition", 3, 2, 10),
    ] {
        let (m, all) = states(name, nodes, replicas, steps);
        let sym = &m.symmetry;
        let key = sym.class_key().expect("the pods are interchangeable");
        let mut by_key: std::collections::HashMap<u64, Vec<State>> = Default::default();
        let mut by_rep: std::collections::HashMap<State, u64> = Default::default();
        for s in &all {
            let kept = sym.canonical(s.clone());
            let k = key(&kept);
            // Sound: one key, one class.
            let members = by_key.entry(k).or_default();
            if let Some(first) = members.first() {
                assert!(sym.same_class(first, &kept), "{name}: one key, two classes");
            }
            if members.len() < 4 {
                members.push(kept.clone());
            }
            // One class (one canonical form), one key.
            let rep = sym.representative(s);
            if let Some(k0) = by_rep.insert(rep, k) {
                assert_eq!(k0, k, "{name}: one class, two keys");
            }
        }
        let merged = by_key.values().filter(|v| v.len() > 1).count();
        assert!(merged > 0, "{name}: no two states shared a key");
    }
}

#[test]
fn interchangeable_kube_proxies_swapped_are_one_class() {
    // node-1 is cut off by name: until its partition has healed, its kube-proxy is not
    // interchangeable with the others; those of node-2 and node-3 are, apart from their
    // nodes.
    let (m, all) = states("statefulset-partition-clusterip", 3, 2, 12);
    let sym = &m.symmetry;
    assert_eq!(sym.proxy_classes().len(), 1);
    assert_eq!(sym.proxy_classes()[0].len(), 3);
    let (a, b) = (1, 2);
    let mut differ = 0;
    let mut told_apart = 0;
    for s in &all {
        if s.proxies[a] == s.proxies[b] {
            continue;
        }
        differ += 1;
        let mut t = s.clone();
        t.proxies.swap(a, b);
        assert_eq!(
            sym.representative(s),
            sym.representative(&t),
            "swapped proxies, two representatives"
        );
        assert!(sym.same_class(s, &t) && sym.same_class(&t, s));
        // The proxy of the node a fault will cut off is not interchangeable with the others.
        let mut u = s.clone();
        u.proxies.swap(0, a);
        if u.proxies[0] != s.proxies[0] && s.env.healed == 0 {
            assert!(
                !sym.same_class(s, &u),
                "node-1's proxy moved before its partition"
            );
            told_apart += 1;
        }
    }
    assert!(differ > 0, "no state had two interchangeable proxies apart");
    assert!(told_apart > 0, "node-1's proxy was never told apart");
}

#[test]
fn interchangeable_kube_proxies_with_interchangeable_pods_are_one_class() {
    // deployment-partition-traffic: the pods of web are renumbered, and the kube-proxies of
    // the nodes no fault names are interchangeable too.
    let (m, all) = states("deployment-partition-traffic", 3, 2, 12);
    let sym = &m.symmetry;
    assert!(!sym.pod_workloads().is_empty() && !sym.proxy_classes().is_empty());
    let key = sym.class_key().expect("the pods are interchangeable");
    let (a, b) = (1, 2);
    let mut differ = 0;
    for s in &all {
        if s.proxies[a] == s.proxies[b] {
            continue;
        }
        differ += 1;
        let mut t = s.clone();
        t.proxies.swap(a, b);
        assert!(sym.same_class(s, &t) && sym.same_class(&t, s));
        assert_eq!(
            key(&sym.canonical(s.clone())),
            key(&sym.canonical(t.clone())),
            "swapped proxies, two class keys"
        );
    }
    assert!(differ > 0, "no state had two interchangeable proxies apart");
}

#[test]
fn a_scale_down_offers_each_of_the_tied_pods() {
    // scale-down: web-1 and web-3 share node-1, web-2 is alone on node-2. Scaled to 2 replicas,
    // the ReplicaSet deletes one of the two co-located pods, which tie on every step of the
    // ranking the model keeps: each is a step of its own, the higher uid first.
    use podcheck_model::controllers::Action as C;
    use podcheck_model::Action;
    let (m, all) = states("scale-down", 2, 3, 3);
    let deleted = |s: &State, t: &State| -> Vec<u16> {
        t.api
            .pods
            .iter()
            .filter(|p| p.deletion.is_some() && s.pod(p.uid).is_some_and(|q| q.deletion.is_none()))
            .map(|p| p.uid)
            .collect()
    };
    let mut seen = 0;
    for s in &all {
        let mut acts = Vec::new();
        m.actions(s, &mut acts);
        let picks: Vec<(u32, Vec<u16>)> = acts
            .into_iter()
            .filter_map(|a| match a {
                Action::Controller(C::ReplicaSetSync { pick, .. }) if pick != 0 => {
                    let t = m.next_state(s, a).expect("an offered pick is enabled");
                    Some((pick, deleted(s, &t)))
                }
                _ => None,
            })
            .collect();
        if picks.is_empty() {
            continue;
        }
        seen += 1;
        assert_eq!(
            picks.iter().map(|p| p.0).collect::<Vec<_>>(),
            vec![1, 2],
            "one pod of two tied"
        );
        let (a, b) = (&picks[0].1, &picks[1].1);
        assert!(a.len() == 1 && b.len() == 1 && a != b, "{picks:?}");
        assert!(a[0] > b[0], "the higher uid first: {picks:?}");
        // A pick that is not offered is not enabled.
        let other = Action::Controller(C::ReplicaSetSync {
            workload: 0,
            revision: 0,
            pick: 3,
        });
        assert!(m.next_state(s, other).is_none());
    }
    assert!(seen > 0, "no state of scale-down has the tie");
}
