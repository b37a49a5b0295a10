//! The API server's validation of the pod spec fields the model reads: what a cluster
//! refuses is refused here, with the API server's field path and message
//! (`pkg/apis/core/validation/validation.go`).

use podcheck_input::spec::parse_scenarios;

/// A one-Deployment scenario whose container has `extra` (YAML flow-mapping entries) and
/// whose pod spec has `pod` entries.
fn deployment(pod: &str, extra: &str) -> String {
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
            {pod}
            containers:
              - {{name: app, image: \"web:1\"{extra}}}
"
    )
}

fn error(yaml: &str) -> String {
    parse_scenarios(yaml, "v.yaml").expect_err("refused")
}

#[test]
fn a_prestop_sleep_longer_than_the_grace_period_is_refused() {
    let e = error(&deployment(
        "terminationGracePeriodSeconds: 30",
        ", lifecycle: {preStop: {sleep: {seconds: 40}}}",
    ));
    assert!(
        e.contains("workload `web`: spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds: Invalid value: 40: must be non-negative and less than terminationGracePeriodSeconds (30)"),
        "{e}"
    );
    // Equal to the grace period, or zero, is allowed (validateSleepAction: seconds > grace).
    for secs in [30, 0] {
        let ok = deployment(
            "terminationGracePeriodSeconds: 30",
            &format!(", lifecycle: {{preStop: {{sleep: {{seconds: {secs}}}}}}}"),
        );
        assert!(parse_scenarios(&ok, "v.yaml").is_ok(), "{secs}");
    }
}

#[test]
fn a_poststart_sleep_longer_than_the_grace_period_is_refused() {
    let e = error(&deployment(
        "terminationGracePeriodSeconds: 5",
        ", lifecycle: {postStart: {sleep: {seconds: 6}}}",
    ));
    assert!(
        e.contains("spec.template.spec.containers[0].lifecycle.postStart.sleep.seconds: Invalid value: 6: must be non-negative and less than terminationGracePeriodSeconds (5)"),
        "{e}"
    );
}

#[test]
fn liveness_and_startup_probes_need_success_threshold_one() {
    for kind in ["livenessProbe", "startupProbe"] {
        let e = error(&deployment(
            "terminationGracePeriodSeconds: 30",
            &format!(", {kind}: {{successThreshold: 2}}"),
        ));
        assert!(
            e.contains(&format!(
                "spec.template.spec.containers[0].{kind}.successThreshold: Invalid value: 2: must be 1"
            )),
            "{e}"
        );
    }
    // A readiness probe may ask for more.
    let ok = deployment(
        "terminationGracePeriodSeconds: 30",
        ", readinessProbe: {successThreshold: 2}",
    );
    assert!(parse_scenarios(&ok, "v.yaml").is_ok());
}

#[test]
fn a_container_name_given_twice_is_refused() {
    let yaml = deployment(
        "initContainers: [{name: app, image: \"init:1\", app: {exitAfterSeconds: 1, exitCode: 0}}]",
        "",
    );
    let e = error(&yaml);
    assert!(
        e.contains(
            "workload `web`: spec.template.spec.containers[0].name: Duplicate value: \"app\""
        ),
        "{e}"
    );
}

/// A one-Job scenario with `spec` (YAML lines at the Job spec's indentation) at `release`.
fn job(spec: &str, restart: &str, release: &str) -> String {
    format!(
        "- name: v
  description: validation
  source: this test
  cluster:
    nodes: [{{name: node-1, allocatable: {{cpuMilli: 4000, memoryMi: 4096}}}}]
    kubernetesVersion: \"{release}\"
  workloads:
    - kind: Job
      metadata: {{name: batch}}
      spec:
{spec}
        template:
          spec:
            restartPolicy: {restart}
            containers:
              - {{name: work, image: \"batch:1\"}}
"
    )
}

/// A one-Deployment scenario with `strategy` (a YAML flow mapping) on 3 replicas.
fn with_strategy(strategy: &str) -> String {
    deployment("", "").replace(
        "        replicas: 1\n",
        &format!("        replicas: 3\n        strategy: {strategy}\n"),
    )
}

#[test]
fn job_fields_are_validated_as_the_api_server_does() {
    let cases = [
        (
            "        podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}",
            "OnFailure",
            "spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified",
        ),
        (
            "        podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [0, 1]}}]}",
            "Never",
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
        ),
        (
            "        podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [3, 1]}}]}",
            "Never",
            "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3, 1]: must be ordered",
        ),
        (
            "        podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {containerName: other, operator: In, values: [1]}}]}",
            "Never",
            "spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: \"other\": must be one of the container or initContainer names in the pod template",
        ),
        (
            "        podFailurePolicy: {rules: [{action: Count}]}",
            "Never",
            "spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required",
        ),
        (
            "        podFailurePolicy: {rules: [{action: FailIndex, onExitCodes: {operator: In, values: [1]}}]}",
            "Never",
            "spec.podFailurePolicy.rules[0].action: Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set",
        ),
        (
            "        podReplacementPolicy: TerminatingOrFailed\n        podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}",
            "Never",
            "spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"",
        ),
        (
            "        backoffLimitPerIndex: 1",
            "Never",
            "spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode",
        ),
        (
            "        completionMode: Indexed",
            "Never",
            "spec.completions: Required value: when completion mode is Indexed",
        ),
        (
            "        completionMode: Indexed\n        completions: 2\n        successPolicy: {rules: [{succeededIndexes: \"0-2\"}]}",
            "Never",
            "spec.successPolicy.rules[0].succeededIndexes: Invalid value: \"0-2\": error parsing succeededIndexes: too large index: 2, must be less than completions: 2",
        ),
        (
            "        completionMode: Indexed\n        completions: 2\n        successPolicy: {rules: [{succeededCount: 3}]}",
            "Never",
            "spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of specified completions)",
        ),
        (
            "        parallelism: 9",
            "Never",
            "spec.parallelism: 9: the model holds 1 to 5",
        ),
        (
            "        backoffLimit: 1",
            "Always",
            "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"",
        ),
    ];
    for (spec, restart, want) in cases {
        let e = error(&job(spec, restart, "1.35"));
        assert!(
            e.contains(&format!("workload `batch`: {want}")),
            "{spec}\n{e}"
        );
    }
}

#[test]
fn a_job_field_younger_than_the_release_is_refused_not_dropped() {
    let spec = "        podReplacementPolicy: Failed";
    let e = error(&job(spec, "Never", "1.28"));
    assert!(
        e.contains("spec.podReplacementPolicy: needs Kubernetes 1.29 or later (feature gate JobPodReplacementPolicy)"),
        "{e}"
    );
    assert!(parse_scenarios(&job(spec, "Never", "1.29"), "v.yaml").is_ok());
    let pfp = "        podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}";
    assert!(error(&job(pfp, "Never", "1.25")).contains("needs Kubernetes 1.26"));
    assert!(parse_scenarios(&job(pfp, "Never", "1.26"), "v.yaml").is_ok());
}

#[test]
fn a_rolling_update_with_no_surge_and_no_unavailability_is_refused() {
    let e = error(&with_strategy(
        "{rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}",
    ));
    assert!(
        e.contains("workload `web`: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"),
        "{e}"
    );
    // A percentage that rounds down to 0 is allowed: the controller then takes
    // maxUnavailable 1 (ResolveFenceposts).
    assert!(parse_scenarios(
        &with_strategy("{rollingUpdate: {maxSurge: 0, maxUnavailable: \"20%\"}}"),
        "v.yaml"
    )
    .is_ok());
}

#[test]
fn a_string_that_is_not_a_percentage_is_refused() {
    for bad in ["\"25\"", "\"%\"", "\"2.5%\"", "abc"] {
        let e = error(&with_strategy(&format!(
            "{{rollingUpdate: {{maxSurge: {bad}}}}}"
        )));
        assert!(
            e.contains("spec.strategy.rollingUpdate.maxSurge: Invalid value: ")
                && e.contains(
                    "a valid percent string must be a numeric string followed by an ending '%'"
                ),
            "{bad}: {e}"
        );
    }
}

/// Container `restartPolicy`: only `Always`, and only on an init container, which makes it a
/// sidecar (`validateContainers`, `validateInitContainers`; KEP-753).
#[test]
fn container_restart_policy_is_validated_as_the_api_server_does() {
    let e = error(&deployment("", ", restartPolicy: Always"));
    assert!(
        e.contains("workload `web`: spec.template.spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"),
        "{e}"
    );
    let init = |fields: &str| {
        deployment(
            &format!("initContainers: [{{name: log, image: \"log:1\"{fields}}}]"),
            "",
        )
    };
    for policy in ["Never", "OnFailure"] {
        let e = error(&init(&format!(", restartPolicy: {policy}")));
        assert!(
            e.contains(&format!(
                "spec.template.spec.initContainers[0].restartPolicy: Unsupported value: \"{policy}\": supported values: \"Always\""
            )),
            "{e}"
        );
    }
    // A sidecar may have probes and a preStop; a regular init container may not.
    let sidecar = init(
        ", restartPolicy: Always, startupProbe: {periodSeconds: 1}, readinessProbe: {periodSeconds: 5}, lifecycle: {preStop: {sleep: {seconds: 1}}}",
    );
    assert!(parse_scenarios(&sidecar, "v.yaml").is_ok());
    for (field, yaml) in [
        ("startupProbe", ", startupProbe: {periodSeconds: 1}"),
        ("readinessProbe", ", readinessProbe: {periodSeconds: 1}"),
        ("livenessProbe", ", livenessProbe: {periodSeconds: 1}"),
        ("lifecycle", ", lifecycle: {preStop: {sleep: {seconds: 1}}}"),
    ] {
        let e = error(&init(yaml));
        assert!(
            e.contains(&format!(
                "spec.template.spec.initContainers[0].{field}: Forbidden: may not be set for init containers without restartPolicy=Always"
            )),
            "{e}"
        );
    }
    // A postStart hook on a sidecar is not modelled, and says so.
    let e = error(&init(
        ", restartPolicy: Always, lifecycle: {postStart: {sleep: {seconds: 1}}}",
    ));
    assert!(
        e.contains("initContainers[0].lifecycle.postStart: a postStart hook on a sidecar container is not modelled"),
        "{e}"
    );
}

/// Before 1.29 the API server drops a sidecar's `restartPolicy` (gate `SidecarContainers`
/// off at 1.28, `dropDisabledPodFields`; no such field before): the scenario is refused with
/// the release it needs, at every release below 1.29, and accepted from 1.29.
#[test]
fn sidecars_need_kubernetes_1_29() {
    let at = |release: &str| {
        deployment(
            "initContainers: [{name: log, image: \"log:1\", restartPolicy: Always}]",
            "",
        )
        .replace(
            "  workloads:\n",
            &format!("  cluster:\n    nodes: [{{name: node-1, allocatable: {{cpuMilli: 4000, memoryMi: 4096}}}}]\n    kubernetesVersion: \"{release}\"\n  workloads:\n"),
        )
    };
    for release in ["1.22", "1.27", "1.28"] {
        let e = error(&at(release));
        assert!(
            e.contains(&format!("workload `web`: spec.template.spec.initContainers[0].restartPolicy: a sidecar container needs Kubernetes 1.29 or later (feature gate SidecarContainers); the scenario follows {release}, whose API server drops the field")),
            "{e}"
        );
    }
    for release in ["1.29", "1.33", "1.35"] {
        assert!(parse_scenarios(&at(release), "v.yaml").is_ok(), "{release}");
    }
}

#[test]
fn toleration_seconds_go_with_no_execute_and_fit_the_clock() {
    // `ValidateTolerations`: tolerationSeconds only with the NoExecute effect.
    let e = error(&deployment(
        "tolerations: [{key: k, operator: Exists, effect: NoSchedule, tolerationSeconds: 10}]",
        "",
    ));
    assert!(
        e.contains("spec.template.spec.tolerations[0].effect: Invalid value: effect must be 'NoExecute' when `tolerationSeconds` is set"),
        "{e}"
    );
    // Longer than the clock holds: refused, not tolerated for ever.
    let e = error(&deployment(
        "tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 40000}]",
        "",
    ));
    assert!(
        e.contains("spec.template.spec.tolerations[0].tolerationSeconds: tolerationSeconds must be at most 32767"),
        "{e}"
    );
    // An hour and more is kept as written (it was once cut at 3600 s without a word).
    for secs in [-5, 0, 4000, 32767] {
        let ok = deployment(
            &format!("tolerations: [{{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: {secs}}}]"),
            "",
        );
        assert!(parse_scenarios(&ok, "v.yaml").is_ok(), "{secs}");
    }
}

#[test]
fn exit_codes_are_eight_bits() {
    for (extra, field) in [
        (
            ", app: {exitAfterSeconds: 5, exitCode: 256}",
            "app.exitCode",
        ),
        (", app: {exitCode: -1}", "app.exitCode"),
        (", app: {onSigterm: {exit: 300}}", "app.onSigterm.exit"),
    ] {
        let e = error(&deployment("", extra));
        assert!(
            e.contains(&format!(
                "spec.template.spec.containers[0].{field}: an exit code must be 0 to 255"
            )),
            "{extra}: {e}"
        );
    }
    let ok = deployment("", ", app: {exitAfterSeconds: 5, exitCode: 255}");
    assert!(parse_scenarios(&ok, "v.yaml").is_ok());
}

#[test]
fn a_request_above_its_limit_is_refused() {
    // `ValidateResourceRequirements`.
    let e = error(&deployment(
        "",
        ", resources: {requests: {memoryMi: 128}, limits: {memoryMi: 64}}",
    ));
    assert!(
        e.contains("resources.requests.memoryMi: Invalid value: 128 MiB: must be less than or equal to memory limit of 64 MiB"),
        "{e}"
    );
    // No limit (0) bounds nothing.
    let ok = deployment("", ", resources: {requests: {cpuMilli: 500}}");
    assert!(parse_scenarios(&ok, "v.yaml").is_ok());
}

#[test]
fn resources_are_bounded_where_they_enter() {
    // Sums over a node's pods are 64 bits: a request near 2^64 would wrap and place a pod on
    // a full node.
    let e = error(&deployment(
        "",
        ", resources: {requests: {cpuMilli: 9223372036854775808}}",
    ));
    assert!(
        e.contains(
            "resources.requests.cpuMilli: 9223372036854775808 is larger than the model takes"
        ),
        "{e}"
    );
    let node = "- name: v
  description: validation
  source: this test
  cluster:
    nodes: [{name: node-1, allocatable: {cpuMilli: 18446744073709551615, memoryMi: 8192}}]
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec: {replicas: 1, template: {spec: {containers: [{name: app, image: \"web:1\"}]}}}
";
    let e = error(node);
    assert!(
        e.contains("node `node-1`: allocatable.cpuMilli: 18446744073709551615 is larger than the model takes"),
        "{e}"
    );
}

#[test]
fn names_are_dns_names_and_nodes_are_named_once() {
    let e = error(&deployment("", "").replace("name: web", "name: \"We b<x>\""));
    assert!(
        e.contains("metadata.name: a lowercase RFC 1123 subdomain"),
        "{e}"
    );
    let e = error(&deployment("", "").replace("name: app", "name: Bad_Name"));
    assert!(
        e.contains("container name `Bad_Name`: a lowercase RFC 1123 label"),
        "{e}"
    );
    let e = error(&deployment("", "").replace("image: \"web:1\"", "image: \"\""));
    assert!(e.contains("image: Required value"), "{e}");
    let two = deployment("", "").replace(
        "  workloads:",
        "  cluster:\n    nodes: [{name: n1, allocatable: {cpuMilli: 1000, memoryMi: 1024}}, {name: n1, allocatable: {cpuMilli: 1000, memoryMi: 1024}}]\n  workloads:",
    );
    let e = error(&two);
    assert!(e.contains("cluster.nodes: two nodes are named `n1`"), "{e}");
}

#[test]
fn a_probe_period_of_zero_is_named_as_such() {
    let e = error(&deployment("", ", readinessProbe: {periodSeconds: 0}"));
    assert!(
        e.contains(
            "readinessProbe.periodSeconds: Invalid value: 0: must be greater than or equal to 1"
        ),
        "{e}"
    );
}

#[test]
fn resizing_names_new_nodes_apart_and_says_which_it_left_out() {
    let yaml = "- name: v
  description: validation
  source: this test
  cluster:
    nodes:
      - {name: node-1, allocatable: {cpuMilli: 1000, memoryMi: 1024}}
      - {name: node-3, allocatable: {cpuMilli: 1000, memoryMi: 1024}}
  workloads:
    - kind: Deployment
      metadata: {name: web}
      spec: {replicas: 1, template: {spec: {containers: [{name: app, image: \"web:1\"}]}}}
  faults:
    - partition: {node: node-3}
";
    let mut s = parse_scenarios(yaml, "v.yaml").unwrap().remove(0);
    let mut three = s.clone();
    three.resize(Some(3), None).unwrap();
    let names: Vec<&str> = three
        .cluster
        .nodes
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(names, ["node-1", "node-3", "node-4"]);
    let e = s.resize(Some(1), None).unwrap_err();
    assert!(e.contains("(--nodes 1 leaves out `node-3`)"), "{e}");
}
