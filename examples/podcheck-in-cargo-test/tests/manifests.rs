//! The manifests in `deploy/`, checked by podcheck as part of `cargo test`.

use podcheck::{Check, Cluster, Kind, Plan, PropertyDef, State};

/// The folder of the manifests, wherever `cargo test` runs from.
fn deploy() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy")
}

/// A pod deleted and a rollout restart lose no request: no finding (Kubernetes' own
/// behaviour, such as a replacement running beside a pod still stopping, is no finding).
#[test]
fn the_manifests_are_clean_under_a_pod_delete_and_a_rollout() {
    let report = Check::manifests(deploy())
        .expect("deploy/ exists")
        .plan(Plan::DeletePod)
        .plan(Plan::Rollout)
        .run()
        .expect("the manifests are read");
    assert_eq!(report.applications().len(), 1);
    assert_eq!(report.scenarios().len(), 2, "{:?}", report.scenarios());
    report.assert_clean();
}

/// Ours: at least one pod of web is Ready in every state (the Service always has an
/// endpoint).
fn a_web_pod_is_ready(_: &Cluster, s: &State) -> bool {
    s.api.pods.iter().any(|p| p.status.ready)
}

fn always_one_ready() -> PropertyDef {
    PropertyDef {
        name: "a_web_pod_is_always_ready",
        kind: Kind::Always(a_web_pod_is_ready),
        sentence: "Some pod of web is Ready in every state.",
        source: "our availability target",
        layer: "api",
        premise: None,
    }
}

/// A property of our own, checked beside the catalogue: with two replicas and a readiness
/// probe, a pod delete leaves one Ready pod...
#[test]
fn our_own_property_holds_under_a_pod_delete() {
    Check::manifests(deploy())
        .expect("deploy/ exists")
        .plan(Plan::DeletePod)
        .property(always_one_ready())
        .run()
        .expect("checked")
        .assert_clean();
}

/// deploy/'s manifests as one text, with `podcheck.dev/plans` (delete-pod and rollout) taken
/// out, so that every plan may run.
fn every_plan() -> String {
    let web = std::fs::read_to_string(deploy().join("web.yaml")).unwrap();
    let service = std::fs::read_to_string(deploy().join("service.yaml")).unwrap();
    let all = web.replace("    podcheck.dev/plans: delete-pod,rollout\n", "");
    assert_ne!(all, web, "the annotation was taken out");
    format!("{all}\n---\n{service}")
}

/// [`every_plan`], with both replicas pinned to one node (a `nodeSelector` on
/// `kubernetes.io/hostname`, as a team with a single node for the service might write).
fn on_one_node() -> String {
    let all = every_plan();
    let pinned = all.replace(
        "      terminationGracePeriodSeconds: 10\n",
        "      terminationGracePeriodSeconds: 10\n      nodeSelector: {kubernetes.io/hostname: node-1}\n",
    );
    assert_ne!(pinned, all, "the nodeSelector was added");
    pinned
}

/// ... and under a power-off: kube-scheduler's default scoring (its system default topology
/// spread) puts the two replicas on the two nodes, so one stays Ready ...
#[test]
fn our_own_property_holds_under_a_power_off_of_spread_replicas() {
    let report = Check::text("web-every-plan.yaml", &every_plan())
        .plan(Plan::PowerOff)
        .property(always_one_ready())
        .run()
        .expect("checked");
    assert!(report.incomplete().is_empty());
    assert!(
        !report
            .findings()
            .iter()
            .any(|f| f.property == "a_web_pod_is_always_ready"),
        "{:?}",
        report.findings()
    );
}

/// ... but not when both replicas are pinned to the node that powers off: the shortest
/// trace shows how.
#[test]
fn our_own_property_is_a_finding_under_a_power_off_of_one_node() {
    let report = Check::text("web-one-node.yaml", &on_one_node())
        .plan(Plan::PowerOff)
        .property(always_one_ready())
        .run()
        .expect("checked");
    let ours: Vec<_> = report
        .findings()
        .iter()
        .filter(|f| f.property == "a_web_pod_is_always_ready")
        .collect();
    assert_eq!(ours.len(), 1, "{:?}", report.findings());
    assert!(
        ours[0].trace.contains("counterexample"),
        "{}",
        ours[0].trace
    );
    assert!(ours[0].trace.contains("powers off"), "{}", ours[0].trace);
}

/// deploy/'s manifests, the Deployment without its preStop hook, as one text.
fn without_prestop() -> String {
    let web = std::fs::read_to_string(deploy().join("web.yaml")).unwrap();
    let service = std::fs::read_to_string(deploy().join("service.yaml")).unwrap();
    let unsafe_web = web.replace(
        "        lifecycle:\n          preStop:\n            sleep: {seconds: 5}\n",
        "",
    );
    assert_ne!(unsafe_web, web, "the preStop hook was removed");
    format!("{unsafe_web}\n---\n{service}")
}

/// The same Deployment without its preStop sleep: a deleted pod stops serving while the
/// kube-proxies still route to it, a finding with its shortest trace.
#[test]
fn without_the_prestop_sleep_a_pod_delete_loses_requests() {
    let report = Check::text("web-without-prestop.yaml", &without_prestop())
        .plan(Plan::DeletePod)
        .run()
        .expect("checked");
    let f = report
        .findings()
        .iter()
        .find(|f| f.property == "no_request_to_stopped_container")
        .unwrap_or_else(|| panic!("no finding: {:?}", report.findings()));
    assert_eq!(f.scenario, "web-without-prestop.yaml: delete-pod web");
    assert!(f.trace.contains("kubectl: delete pod"), "{}", f.trace);
    println!("{}", f.trace);
}

/// The report's fixes: the preStop sleep the finding above needs, found and checked again
/// under the same plan before it is given, as a diff of the manifests.
#[test]
fn the_report_gives_the_verified_fix_of_the_missing_prestop() {
    let report = Check::text("web-without-prestop.yaml", &without_prestop())
        .plan(Plan::DeletePod)
        .run()
        .expect("checked");
    let fixes = report.fixes().expect("the fixes are found");
    assert!(fixes.complete);
    let fix = fixes
        .fixes
        .iter()
        .find(|f| f.finding == "no_request_to_stopped_container about web container app")
        .unwrap_or_else(|| panic!("no fix of the missing preStop: {fixes:#?}"));
    // The Service says the kube-proxies lag at most a second: a sleep of 2 s is the
    // shortest podcheck tries, and its re-check passes.
    assert!(fix.what.starts_with("preStop sleep 2 s"), "{}", fix.what);
    assert!(fix.recheck.complete && fix.recheck.remaining.is_empty());
    assert_eq!(fix.diffs.len(), 1);
    assert!(
        fix.diffs[0].diff.contains("+        lifecycle:")
            && fix.diffs[0]
                .diff
                .contains("+            sleep: {seconds: 2}"),
        "{}",
        fix.diffs[0].diff
    );
    assert!(fixes.unfixed.is_empty(), "{:?}", fixes.unfixed);
}

#[test]
#[should_panic(
    expected = "finding in web-without-prestop.yaml: delete-pod web: no_request_to_stopped_container"
)]
fn assert_clean_panics_with_the_finding_and_its_trace() {
    Check::text("web-without-prestop.yaml", &without_prestop())
        .plan(Plan::DeletePod)
        .run()
        .expect("checked")
        .assert_clean();
}

/// A manifest podcheck cannot take is an error naming the file, line and field.
#[test]
fn bad_input_is_an_error_naming_file_line_and_field() {
    let web = std::fs::read_to_string(deploy().join("web.yaml")).unwrap();
    let bad = web.replace("replicas: 2", "replicas: 7");
    let e = Check::text("web.yaml", &bad)
        .plan(Plan::DeletePod)
        .run()
        .expect_err("7 replicas is more than the model holds");
    let line = bad.lines().position(|l| l.contains("replicas: 7")).unwrap() + 1;
    assert!(
        e.to_string().starts_with(&format!(
            "web.yaml:{line}:3: Deployment/web: spec.replicas: "
        )),
        "{e}"
    );
    // A property of ours with a catalogue property's name is refused, not shadowed.
    let mut clash = always_one_ready();
    clash.name = "no_request_to_stopped_container";
    let e = Check::manifests(deploy())
        .unwrap()
        .plan(Plan::DeletePod)
        .property(clash)
        .run()
        .expect_err("a name of the catalogue");
    assert!(
        e.to_string().contains("is a property of the catalogue"),
        "{e}"
    );
}

/// Plan scenarios checked side by side (`jobs`) give the same report as one at a time: the
/// same scenarios, findings and warnings, in the same order.
#[test]
fn jobs_do_not_change_the_report() {
    let run = |jobs: usize| {
        Check::text("web-one-node.yaml", &on_one_node())
            .plan(Plan::DeletePod)
            .plan(Plan::Crash)
            .plan(Plan::PowerOff)
            .property(always_one_ready())
            .jobs(jobs)
            .run()
            .expect("checked")
    };
    let one = run(1);
    assert_eq!(one.scenarios().len(), 3, "{:?}", one.scenarios());
    assert!(!one.findings().is_empty(), "the power-off finding");
    let two = run(2);
    assert_eq!(one.scenarios(), two.scenarios());
    // Everything else it holds, findings with their traces included.
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
}
