//! The operator's inputs the model reads as kubectl and the API server read them: the grace
//! period `kubectl delete` sends for its flags, the pull policy a container's image reference
//! gives it, and the probe fields the API server refuses
//! (`docs/sources.md#kubectl-delete-grace-period`, `docs/sources.md#kubelet-image-pull-policy`,
//! `docs/sources.md#kubelet-probe-termination-grace-period`).

use podcheck_input::spec::parse_scenarios;
use podcheck_model::k8s::{
    default_pull_policy, delete_grace_period, image_action, tag_and_digest, ImageAction, PullPolicy,
};

/// A row: `--grace-period`, `--force`, and what kubectl sends (or its error).
type DeleteRow = (i64, bool, Result<Option<i64>, &'static str>);

/// `kubectl delete --grace-period=<g> [--force]` (delete.go `Validate`, `Complete`).
#[test]
fn kubectl_delete_turns_its_flags_into_the_request_grace() {
    let rows: [DeleteRow; 8] = [
        (-1, false, Ok(None)),
        (-5, false, Ok(None)),
        (0, false, Ok(Some(1))),
        (1, false, Ok(Some(1))),
        (7, false, Ok(Some(7))),
        (-1, true, Ok(Some(0))),
        (0, true, Ok(Some(0))),
        (
            3,
            true,
            Err("--force and --grace-period greater than 0 cannot be specified together"),
        ),
    ];
    for (grace, force, want) in rows {
        let got = delete_grace_period(grace, force);
        assert_eq!(got, want.map_err(String::from), "{grace} {force}");
    }
}

/// `SetDefaults_Container` with `ParseImageName`'s reading of the tag.
#[test]
fn the_pull_policy_defaults_from_the_tag() {
    for (image, want) in [
        ("web", PullPolicy::Always),
        ("web:latest", PullPolicy::Always),
        ("registry.local:5000/team/web", PullPolicy::Always),
        ("registry.local:5000/team/web:latest", PullPolicy::Always),
        ("web:1.0", PullPolicy::IfNotPresent),
        ("registry.local:5000/web:1.0", PullPolicy::IfNotPresent),
        ("web@sha256:abc", PullPolicy::IfNotPresent),
        ("web:latest@sha256:abc", PullPolicy::Always),
    ] {
        assert_eq!(default_pull_policy(image), want, "{image}");
    }
    assert_eq!(
        tag_and_digest("registry.local:5000/web"),
        (Some("latest"), None)
    );
}

/// `EnsureImageExists`: which policy pulls, uses the image, or refuses.
#[test]
fn each_policy_pulls_or_not() {
    use ImageAction::*;
    for (policy, present, want) in [
        (PullPolicy::Always, true, Pull),
        (PullPolicy::Always, false, Pull),
        (PullPolicy::IfNotPresent, true, AlreadyPresent),
        (PullPolicy::IfNotPresent, false, Pull),
        (PullPolicy::Never, true, AlreadyPresent),
        (PullPolicy::Never, false, NeverPull),
    ] {
        assert_eq!(image_action(policy, present), want, "{policy:?} {present}");
    }
}

fn scenario(container_extra: &str, fault: &str) -> String {
    format!(
        "- name: v
  description: validation
  source: this test
  workloads:
    - kind: Deployment
      metadata: {{name: web}}
      spec:
        replicas: 1
        template:
          spec:
            containers:
              - {{name: app, image: \"web:1\"{container_extra}}}
  faults: [{fault}]
"
    )
}

fn error(yaml: &str) -> String {
    parse_scenarios(yaml, "v.yaml").expect_err("refused")
}

#[test]
fn delete_flags_kubectl_refuses_are_refused() {
    let e = error(&scenario(
        "",
        "{deletePod: {workload: web, gracePeriodSeconds: 5, force: true}}",
    ));
    assert!(
        e.contains("faults: deletePod `web`: gracePeriodSeconds 5 with force: --force and --grace-period greater than 0 cannot be specified together"),
        "{e}"
    );
    let e = error(&scenario(
        "",
        "{deletePod: {workload: web, gracePeriodSeconds: 40000}}",
    ));
    assert!(
        e.contains(
            "faults: deletePod `web`: gracePeriodSeconds: 40000 s is longer than the model's limit"
        ),
        "{e}"
    );
    for ok in [
        "{deletePod: {workload: web, gracePeriodSeconds: 0}}",
        "{deletePod: {workload: web, force: true}}",
        "{deletePod: {workload: web, gracePeriodSeconds: 0, force: true}}",
    ] {
        assert!(parse_scenarios(&scenario("", ok), "v.yaml").is_ok(), "{ok}");
    }
}

#[test]
fn probe_fields_the_api_server_refuses_are_refused() {
    let e = error(&scenario(
        ", readinessProbe: {terminationGracePeriodSeconds: 5}",
        "{deadlock: {workload: web}}",
    ));
    assert!(
        e.contains("spec.template.spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes"),
        "{e}"
    );
    let e = error(&scenario(
        ", livenessProbe: {terminationGracePeriodSeconds: 0}",
        "{deadlock: {workload: web}}",
    ));
    assert!(
        e.contains("spec.template.spec.containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0"),
        "{e}"
    );
    // A timeout longer than the period is the API server's to take, and the model's.
    assert!(parse_scenarios(
        &scenario(
            ", livenessProbe: {periodSeconds: 5, timeoutSeconds: 6}",
            "{deadlock: {workload: web}}",
        ),
        "v.yaml"
    )
    .is_ok());
    // A model limit, said as one.
    let e = error(&scenario(
        &format!(
            ", livenessProbe: {{periodSeconds: 5, timeoutSeconds: {}}}",
            podcheck_input::spec::MAX_SECONDS + 1
        ),
        "{deadlock: {workload: web}}",
    ));
    assert!(
        e.contains(&format!(
            "livenessProbe.timeoutSeconds: {} s is longer than the model's limit of {} s",
            podcheck_input::spec::MAX_SECONDS + 1,
            podcheck_input::spec::MAX_SECONDS
        )),
        "{e}"
    );
    let e = error(&scenario(
        ", imagePullPolicy: Sometimes",
        "{deadlock: {workload: web}}",
    ));
    assert!(e.contains("Sometimes"), "{e}");
}

#[test]
fn scales_the_model_does_not_hold_are_refused() {
    let e = error(&scenario("", "{scale: {workload: web, replicas: 6}}"));
    assert!(
        e.contains("scale `web`: replicas 6: the model holds 0 to 5"),
        "{e}"
    );
    let e = error(&scenario(
        "",
        "{scale: {workload: web, replicas: 2}}, {rolloutRestart: {workload: web}}",
    ));
    assert!(
        e.contains("the model does not scale a Deployment during a rollout"),
        "{e}"
    );
    let e = error(&scenario("", "{scale: {workload: db, replicas: 2}}"));
    assert!(e.contains("fault names unknown workload `db`"), "{e}");
    for ok in [
        "{scale: {workload: web, replicas: 0}}",
        "{scale: {workload: web, replicas: 3}}",
    ] {
        assert!(parse_scenarios(&scenario("", ok), "v.yaml").is_ok(), "{ok}");
    }
}
