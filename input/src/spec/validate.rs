//! A scenario's validation: what serde cannot check (references between fields, the sizes
//! the model holds), and the API server's validation of the fields the model reads.

use super::*;
use podcheck_k8s::RestartPolicy;

/// `IsDNS1123Subdomain` (`k8s.io/apimachinery/pkg/util/validation`), as object and node
/// names must be: why `name` is not one, or None. The names also go into traces, DOT and
/// Mermaid pictures and the Explorer.
pub fn dns1123_subdomain(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("Required value: a name must not be empty".into());
    }
    if name.len() > 253 {
        return Some("must be no more than 253 characters".into());
    }
    if name
        .split('.')
        .any(|part| dns1123_label_chars(part).is_some())
    {
        return Some("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character".into());
    }
    None
}

/// `IsDNS1123Label`, as container names must be: why `name` is not one, or None.
pub fn dns1123_label(name: &str) -> Option<String> {
    if name.len() > 63 {
        return Some("must be no more than 63 characters".into());
    }
    dns1123_label_chars(name)
}

fn dns1123_label_chars(name: &str) -> Option<String> {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let fine = !name.is_empty()
        && name.chars().all(|c| ok(c) || c == '-')
        && name.starts_with(ok)
        && name.ends_with(ok);
    (!fine).then(|| "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character".into())
}

fn resource_in_range(
    object: &Object,
    at: &str,
    r: &podcheck_k8s::Resources,
) -> Result<(), Invalid> {
    for (field, v) in [("cpuMilli", r.cpu_milli), ("memoryMi", r.memory_mi)] {
        if v > MAX_RESOURCE {
            return Err(Invalid::new(
                object.clone(),
                format!("{at}.{field}"),
                format!("{v} is larger than the model takes ({MAX_RESOURCE}: the sums over a node's pods must fit 64 bits)"),
            ));
        }
    }
    for (name, &v) in &r.scalar {
        if v > MAX_SCALAR {
            return Err(Invalid::new(
                object.clone(),
                format!("{at}.scalar[{name}]"),
                format!("{v} is larger than the model takes ({MAX_SCALAR})"),
            ));
        }
        if name.is_empty() || matches!(name.as_str(), "cpu" | "memory") {
            return Err(Invalid::new(
                object.clone(),
                format!("{at}.scalar[{name}]"),
                "Invalid value: a scalar resource is one other than cpu and memory (cpuMilli, memoryMi)",
            ));
        }
    }
    Ok(())
}

impl Scenario {
    /// The limits of the state's small integers and bit sets, checked where a scenario enters
    /// so that none of them can wrap.
    fn validate_limits(&self) -> Result<(), Invalid> {
        if self.workloads.len() > MAX_WORKLOADS {
            return Err(Invalid::new(
                Object::Part(Part::Workloads),
                "workloads",
                format!(
                    "{} workloads, the model holds at most {MAX_WORKLOADS}",
                    self.workloads.len()
                ),
            ));
        }
        if self.faults.len() > MAX_FAULTS {
            return Err(Invalid::new(
                Object::Part(Part::Faults),
                "faults",
                format!(
                    "{} faults, the model holds at most {MAX_FAULTS}",
                    self.faults.len()
                ),
            ));
        }
        let mut images = std::collections::BTreeSet::new();
        let seconds = |object: &Object, field: String, v: u16| {
            if v > MAX_SECONDS {
                Err(Invalid::new(
                    object.clone(),
                    field,
                    format!("{v} s is longer than the model's limit of {MAX_SECONDS} s"),
                ))
            } else {
                Ok(())
            }
        };
        let cluster = Object::Part(Part::Cluster);
        seconds(
            &cluster,
            "cluster.proxyLagSeconds".into(),
            self.cluster.proxy_lag_seconds,
        )?;
        if let Some(g) = self.cluster.node_monitor_grace_period_seconds {
            seconds(&cluster, "cluster.nodeMonitorGracePeriodSeconds".into(), g)?;
        }
        for n in &self.cluster.nodes {
            let node = Object::Node(n.name.clone());
            for (part, res) in [
                ("allocatable", &n.allocatable),
                ("usedByOtherPods", &n.used_by_other_pods),
            ] {
                resource_in_range(&node, part, res)?;
            }
            let total = n.shutdown_grace_period_seconds;
            let critical = n.shutdown_grace_period_critical_pods_seconds;
            seconds(&node, "shutdownGracePeriodSeconds".into(), total)?;
            // `ValidateKubeletConfiguration` (pkg/kubelet/apis/config/validation).
            if critical > total {
                return Err(Invalid::new(
                    node,
                    "",
                    format!(
                        "invalid configuration: shutdownGracePeriodCriticalPods {critical}s must be <= shutdownGracePeriod {total}s"
                    ),
                ));
            }
        }
        for w in &self.workloads {
            let t = w.template();
            let name = w.name();
            let workload = Object::Workload(name.to_string());
            if let Workload::StatefulSet { spec, .. } = w {
                seconds(
                    &workload,
                    "spec.minReadySeconds".into(),
                    spec.min_ready_seconds,
                )?;
            }
            if let Workload::Deployment { spec, .. } = w {
                seconds(
                    &workload,
                    "spec.minReadySeconds".into(),
                    spec.min_ready_seconds,
                )?;
                seconds(
                    &workload,
                    "spec.progressDeadlineSeconds".into(),
                    spec.progress_deadline_seconds,
                )?;
            }
            for (field, n) in [
                ("initContainers", t.init_containers.len()),
                ("containers", t.containers.len()),
            ] {
                if n > MAX_CONTAINERS {
                    return Err(Invalid::new(
                        workload,
                        "",
                        format!("{n} {field}, the model holds at most {MAX_CONTAINERS}"),
                    ));
                }
            }
            seconds(
                &workload,
                "terminationGracePeriodSeconds".into(),
                t.termination_grace_period_seconds,
            )?;
            for c in t.init_containers.iter().chain(&t.containers) {
                images.insert(c.image.as_str());
                let container = Object::Container {
                    workload: name.to_string(),
                    container: c.name.clone(),
                };
                let at = |f: &str, detail: String| Invalid::new(container.clone(), f, detail);
                let seconds = |f: &str, v: u16| seconds(&container, f.to_string(), v);
                let r = &c.resources;
                for (part, res) in [("requests", &r.requests), ("limits", &r.limits)] {
                    resource_in_range(&container, &format!("resources.{part}"), res)?;
                }
                // `ValidateResourceRequirements` (`pkg/apis/core/validation/validation.go`):
                // a request above its limit is refused (0 here: no limit).
                for (res, what, unit, req, lim) in [
                    (
                        "cpuMilli",
                        "cpu",
                        "millicores",
                        r.requests.cpu_milli,
                        r.limits.cpu_milli,
                    ),
                    (
                        "memoryMi",
                        "memory",
                        "MiB",
                        r.requests.memory_mi,
                        r.limits.memory_mi,
                    ),
                ] {
                    if lim > 0 && req > lim {
                        return Err(at(
                            &format!("resources.requests.{res}"),
                            format!("Invalid value: {req} {unit}: must be less than or equal to {what} limit of {lim} {unit}"),
                        ));
                    }
                }
                seconds("app.bootSeconds", c.app.boot_seconds)?;
                seconds("app.postStartSeconds", c.app.post_start_seconds)?;
                for (kind, p) in [
                    ("startupProbe", &c.startup_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("livenessProbe", &c.liveness_probe),
                ] {
                    if let Some(p) = p {
                        seconds(
                            &format!("{kind}.initialDelaySeconds"),
                            p.initial_delay_seconds,
                        )?;
                        seconds(&format!("{kind}.periodSeconds"), p.period_seconds)?;
                        seconds(&format!("{kind}.timeoutSeconds"), p.timeout_seconds)?;
                        if let Some(g) = p.termination_grace_period_seconds {
                            seconds(&format!("{kind}.terminationGracePeriodSeconds"), g)?;
                        }
                        if p.period_seconds == 0 {
                            return Err(at(
                                &format!("{kind}.periodSeconds"),
                                "Invalid value: 0: must be greater than or equal to 1".into(),
                            ));
                        }
                    }
                }
                if let Some(l) = &c.lifecycle {
                    if let Some(ps) = &l.pre_stop {
                        seconds("lifecycle.preStop.sleep.seconds", ps.sleep.seconds)?;
                    }
                    if let Some(s) = l.post_start.as_ref().and_then(|p| p.sleep.as_ref()) {
                        seconds("lifecycle.postStart.sleep.seconds", s.seconds)?;
                    }
                }
            }
        }
        let claims = self.claims().len();
        if claims > MAX_CLAIMS {
            return Err(Invalid::new(
                Object::Part(Part::PersistentVolumeClaims),
                "persistentVolumeClaims",
                format!("the scenario's pods use {claims} claims (volumeClaimTemplates count once per ordinal); the model holds at most {MAX_CLAIMS}"),
            ));
        }
        for f in &self.faults {
            if let Fault::SetPodImage { image, .. } = f {
                images.insert(image.as_str());
            }
        }
        if images.len() > MAX_IMAGES {
            return Err(Invalid::new(
                Object::Scenario,
                "",
                format!(
                    "the scenario's containers name {} distinct images; the model holds at most {MAX_IMAGES}",
                    images.len()
                ),
            ));
        }
        for f in &self.faults {
            if let Fault::DependencyOutage { seconds: s } = f {
                seconds(
                    &Object::Part(Part::Faults),
                    "faults: dependencyOutage.seconds".into(),
                    *s,
                )?;
            }
            f.delete_grace()
                .map_err(|e| Invalid::said(Object::Part(Part::Faults), e))?;
        }
        Ok(())
    }

    /// Checks what serde cannot: references between fields, and sizes the model can hold.
    pub fn validate(&self) -> Result<(), Invalid> {
        if self.name.trim().is_empty() {
            return Err(Invalid::new(
                Object::Scenario,
                "name",
                "Required value: a scenario needs a name",
            ));
        }
        let release = self.checked_release()?;
        self.validate_expectations()?;
        if self.cluster.nodes.is_empty() || self.cluster.nodes.len() > 5 {
            return Err(Invalid::sentence(
                Object::Part(Part::Cluster),
                "cluster.nodes",
                "must list 1 to 5 nodes",
            ));
        }
        if self.workloads.is_empty() {
            return Err(Invalid::sentence(
                Object::Part(Part::Workloads),
                "workloads",
                "must not be empty",
            ));
        }
        let mut node_names = std::collections::BTreeSet::new();
        for n in &self.cluster.nodes {
            let nodes =
                |detail: String| Invalid::new(Object::Part(Part::Cluster), "cluster.nodes", detail);
            if let Some(why) = dns1123_subdomain(&n.name) {
                return Err(nodes(format!("node name `{}`: {why}", n.name)));
            }
            if !node_names.insert(n.name.as_str()) {
                return Err(nodes(format!("two nodes are named `{}`", n.name)));
            }
        }
        for w in &self.workloads {
            let workload = || Object::Workload(w.name().to_string());
            if let Some(why) = dns1123_subdomain(w.name()) {
                return Err(Invalid::new(workload(), "metadata.name", why));
            }
            let t = w.template();
            for c in t.init_containers.iter().chain(&t.containers) {
                if let Some(why) = dns1123_label(&c.name) {
                    return Err(Invalid::new(
                        workload(),
                        "",
                        format!("container name `{}`: {why}", c.name),
                    ));
                }
                if c.image.trim().is_empty() {
                    return Err(Invalid::new(
                        Object::Container {
                            workload: w.name().to_string(),
                            container: c.name.clone(),
                        },
                        "image",
                        "Required value",
                    ));
                }
            }
        }
        self.validate_limits()?;
        let mut names = std::collections::BTreeSet::new();
        for w in &self.workloads {
            let workload = || Object::Workload(w.name().to_string());
            if !names.insert(w.name()) {
                return Err(Invalid::said(
                    Object::Part(Part::Workloads),
                    format!("two workloads are named `{}`", w.name()),
                ));
            }
            let t = w.template();
            if t.containers.is_empty() {
                return Err(Invalid::sentence(workload(), "", "has no containers"));
            }
            if let Some(r) = w.replicas() {
                if r == 0 || r > 5 {
                    return Err(Invalid::new(workload(), "", "replicas must be 1 to 5"));
                }
            }
            let controller_owned = matches!(
                w,
                Workload::Deployment { .. } | Workload::StatefulSet { .. }
            );
            if controller_owned && t.restart_policy != RestartPolicy::Always {
                return Err(Invalid::new(
                    workload(),
                    "",
                    format!("a {}'s pods must use restartPolicy Always", w.kind()),
                ));
            }
            validate_pod_spec(w, t)?;
            validate_sidecars(w, t, release)?;
            validate_statefulset_min_ready(w, release)?;
            if let Workload::Job { spec, .. } = w {
                validate_job_spec(w.name(), spec, release)?;
            }
            if let Workload::Deployment { spec, .. } = w {
                validate_deployment_spec(w.name(), spec)?;
            }
            if let Workload::StatefulSet { spec, .. } = w {
                validate_statefulset_update_strategy(w.name(), spec)?;
            }
            for c in t.init_containers.iter().chain(&t.containers) {
                for (kind, p) in [
                    ("startupProbe", &c.startup_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("livenessProbe", &c.liveness_probe),
                ] {
                    if let Some(p) = p {
                        if p.period_seconds == 0
                            || p.failure_threshold == 0
                            || p.success_threshold == 0
                        {
                            return Err(Invalid::new(
                                Object::Container {
                                    workload: w.name().to_string(),
                                    container: c.name.clone(),
                                },
                                "",
                                format!("{kind} needs periodSeconds, failureThreshold and successThreshold ≥ 1"),
                            ));
                        }
                    }
                }
            }
        }
        let mut claim_names = std::collections::BTreeSet::new();
        for c in &self.persistent_volume_claims {
            let claims = || Object::Part(Part::PersistentVolumeClaims);
            if !claim_names.insert(c.metadata.name.as_str()) {
                return Err(Invalid::new(
                    claims(),
                    "persistentVolumeClaims",
                    format!("two claims are named `{}`", c.metadata.name),
                ));
            }
            c.access_modes("persistentVolumeClaims")
                .map_err(|e| Invalid::said(claims(), e))?;
        }
        for w in &self.workloads {
            if let Workload::StatefulSet { spec, .. } = w {
                let mut seen = std::collections::BTreeSet::new();
                let what = "volumeClaimTemplates";
                let at = |detail: String| {
                    Invalid::new(Object::Workload(w.name().to_string()), "", detail)
                };
                for c in &spec.volume_claim_templates {
                    if !seen.insert(c.metadata.name.as_str()) {
                        return Err(at(format!(
                            "{what}: two templates are named `{}`",
                            c.metadata.name
                        )));
                    }
                    if spec
                        .template
                        .spec
                        .volumes
                        .iter()
                        .any(|v| v.name == c.metadata.name)
                    {
                        return Err(at(format!(
                            "{what}: `{}` is also the name of a volume of the pod template",
                            c.metadata.name
                        )));
                    }
                    c.access_modes(what).map_err(at)?;
                }
            }
        }
        let known = |n: &str| self.workloads.iter().any(|w| w.name() == n);
        let known_node = |n: &str| self.cluster.nodes.iter().any(|x| x.name == n);
        for w in &self.workloads {
            if let Workload::StaticPod { node, .. } = w {
                if !known_node(node) {
                    return Err(Invalid::said(
                        Object::Scenario,
                        format!("static pod `{}` names unknown node `{node}`", w.name()),
                    ));
                }
            }
            if let Some(node) = &w.template().node_name {
                if !known_node(node) {
                    return Err(Invalid::new(
                        Object::Workload(w.name().to_string()),
                        "",
                        format!("nodeName names unknown node `{node}`"),
                    ));
                }
            }
        }
        let mut step_faults = std::collections::BTreeSet::new();
        for f in &self.faults {
            let Fault::StepFails {
                workload,
                step,
                hangs,
                container,
                ..
            } = f
            else {
                continue;
            };
            let Some(w) = self.workloads.iter().find(|w| w.name() == workload) else {
                return Err(Invalid::said(
                    Object::Part(Part::Faults),
                    format!("fault names unknown workload `{workload}`"),
                ));
            };
            if !step_faults.insert((workload.as_str(), *step)) {
                return Err(Invalid::said(
                    Object::Part(Part::Faults),
                    format!(
                        "two stepFails faults for workload `{workload}` and step {}",
                        step.name()
                    ),
                ));
            }
            if *hangs && !step.can_hang() {
                return Err(Invalid::said(Object::Part(Part::Faults), format!(
                    "stepFails {}: `hangs` is modelled only for mountVolume, postStartHook and unmountVolume",
                    step.name()
                )));
            }
            let t = w.template();
            let templates = match w {
                Workload::StatefulSet { spec, .. } => !spec.volume_claim_templates.is_empty(),
                _ => false,
            };
            let needs = match step {
                FailingStep::MountVolume | FailingStep::UnmountVolume
                    if t.volumes.is_empty() && !templates =>
                {
                    Some("volume")
                }
                FailingStep::AttachVolume
                    if !templates
                        && !t
                            .volumes
                            .iter()
                            .any(|v| v.persistent_volume_claim.is_some()) =>
                {
                    Some("persistentVolumeClaim volume")
                }
                _ => None,
            };
            if let Some(what) = needs {
                return Err(Invalid::said(
                    Object::Part(Part::Faults),
                    format!(
                        "stepFails {}: workload `{workload}` has no {what}",
                        step.name()
                    ),
                ));
            }
            if let Some(c) = container {
                if !t.containers.iter().any(|x| &x.name == c) {
                    return Err(Invalid::said(
                        Object::Part(Part::Faults),
                        format!(
                            "stepFails {}: workload `{workload}` has no container `{c}`",
                            step.name()
                        ),
                    ));
                }
            }
            if *step == FailingStep::PostStartHook
                && !t.containers.iter().any(|c| {
                    c.lifecycle.as_ref().is_some_and(|l| l.post_start.is_some())
                        && container.as_ref().is_none_or(|n| n == &c.name)
                })
            {
                return Err(Invalid::said(Object::Part(Part::Faults), format!(
                    "stepFails postStartHook: workload `{workload}` has no container with a postStart hook"
                )));
            }
        }
        if let Some(svc) = &self.service {
            for n in &svc.selects {
                if !known(n) {
                    return Err(Invalid::said(
                        Object::Part(Part::Service),
                        format!("service selects unknown workload `{n}`"),
                    ));
                }
            }
            if svc.headless && svc.clients {
                return Err(Invalid::said(Object::Part(Part::Service), "service: a headless Service is not handled by kube-proxy, and the model's clients send their requests through kube-proxy: set `clients: false` (clients of a headless Service reach the pods by DNS, which the model does not hold)"));
            }
        }
        for f in &self.faults {
            match f {
                Fault::DeletePod { workload, .. }
                | Fault::ForceDeletePod { workload, .. }
                | Fault::Deadlock { workload }
                | Fault::Crash { workload }
                | Fault::RolloutRestart { workload }
                    if !known(workload) =>
                {
                    return Err(Invalid::said(
                        Object::Part(Part::Faults),
                        format!("fault names unknown workload `{workload}`"),
                    ));
                }
                Fault::RolloutRestart { workload }
                    if !self.workloads.iter().any(|w| {
                        w.name() == workload
                            && matches!(
                                w,
                                Workload::Deployment { .. } | Workload::StatefulSet { .. }
                            )
                    }) =>
                {
                    return Err(Invalid::said(Object::Scenario, format!(
                        "rolloutRestart: workload `{workload}` is not a Deployment or StatefulSet (the model rolls out those only)"
                    )));
                }
                Fault::Scale { workload, .. } if !known(workload) => {
                    return Err(Invalid::said(
                        Object::Part(Part::Faults),
                        format!("fault names unknown workload `{workload}`"),
                    ));
                }
                Fault::SetPodImage { workload, .. } if !known(workload) => {
                    return Err(Invalid::said(
                        Object::Part(Part::Faults),
                        format!("fault names unknown workload `{workload}`"),
                    ));
                }
                Fault::SetPodImage {
                    workload,
                    container,
                    image,
                } => {
                    let Some(w) = self.workloads.iter().find(|w| w.name() == workload) else {
                        return Err(Invalid::said(
                            Object::Part(Part::Faults),
                            format!("fault names unknown workload `{workload}`"),
                        ));
                    };
                    let Some(c) = w
                        .template()
                        .containers
                        .iter()
                        .find(|c| &c.name == container)
                    else {
                        return Err(Invalid::said(Object::Scenario, format!(
                            "setPodImage `{workload}`: container `{container}` is not a regular container of its pod template (the model changes regular containers only)"
                        )));
                    };
                    if image.is_empty() {
                        return Err(Invalid::said(Object::Scenario, format!(
                            "setPodImage `{workload}`: image: Required value (spec.containers[*].image)"
                        )));
                    }
                    if &c.image == image {
                        return Err(Invalid::said(Object::Scenario, format!(
                            "setPodImage `{workload}`: container `{container}` already runs `{image}`: the spec would not change"
                        )));
                    }
                }
                Fault::Scale { workload, .. }
                    if !self.workloads.iter().any(|w| {
                        w.name() == workload && matches!(w, Workload::Deployment { .. })
                    }) =>
                {
                    return Err(Invalid::said(Object::Scenario, format!(
                        "scale: workload `{workload}` is not a Deployment (the model scales Deployments only)"
                    )));
                }
                Fault::Scale { workload, replicas } if *replicas > 5 => {
                    return Err(Invalid::said(
                        Object::Scenario,
                        format!("scale `{workload}`: replicas {replicas}: the model holds 0 to 5"),
                    ));
                }
                Fault::Scale { workload, .. }
                    if self.faults.iter().any(
                        |g| matches!(g, Fault::RolloutRestart { workload: r } if r == workload),
                    ) =>
                {
                    return Err(Invalid::said(Object::Scenario, format!(
                        "scale `{workload}`: the Deployment also has a rolloutRestart; the model does not scale a Deployment during a rollout (proportional scaling is not modelled)"
                    )));
                }
                Fault::Scale { workload, .. }
                    if self
                        .faults
                        .iter()
                        .filter(|g| matches!(g, Fault::Scale { workload: r, .. } if r == workload))
                        .count()
                        > 1 =>
                {
                    return Err(Invalid::said(Object::Scenario, format!(
                        "scale `{workload}`: one scale per Deployment (the model does not scale during a scale-down's rollout of pods)"
                    )));
                }
                f if f
                    .node()
                    .is_some_and(|node| !self.cluster.nodes.iter().any(|n| n.name == node)) =>
                {
                    return Err(Invalid::said(
                        Object::Part(Part::Faults),
                        format!(
                            "fault names unknown node `{}`",
                            f.node().unwrap_or_default()
                        ),
                    ));
                }
                // `NewManager`: with no shutdown grace period the kubelet takes no inhibitor
                // lock, and a shutdown is immediate for its pods.
                Fault::NodeShutdown { node }
                    if self
                        .cluster
                        .nodes
                        .iter()
                        .any(|n| &n.name == node && n.shutdown_grace_period_seconds == 0) =>
                {
                    return Err(Invalid::said(Object::Scenario, format!(
                        "nodeShutdown: node `{node}` has no shutdownGracePeriodSeconds, so its kubelet would not delay the shutdown (graceful node shutdown is off); set it, or use powerOff for a node that dies at once"
                    )));
                }
                _ => {}
            }
        }
        for c in self
            .workloads
            .iter()
            .flat_map(|w| w.template().containers.iter())
        {
            if let Some(ps) = c.lifecycle.as_ref().and_then(|l| l.post_start.as_ref()) {
                if ps.exec.is_some() == ps.sleep.is_some() {
                    return Err(Invalid::said(
                        Object::Scenario,
                        format!(
                            "container `{}`: postStart needs exactly one of exec and sleep",
                            c.name
                        ),
                    ));
                }
            }
        }
        self.validate_budgets_and_drains()
    }

    /// Budgets: names, selected workloads, one of minAvailable and maxUnavailable (as
    /// `ValidatePodDisruptionBudgetSpec`); drains, cordons and uncordons: known nodes.
    fn validate_budgets_and_drains(&self) -> Result<(), Invalid> {
        let known = |n: &str| self.workloads.iter().any(|w| w.name() == n);
        let mut names = std::collections::BTreeSet::new();
        if self.pod_disruption_budgets.len() > MAX_BUDGETS {
            return Err(Invalid::new(
                Object::Part(Part::PodDisruptionBudgets),
                "podDisruptionBudgets",
                format!(
                    "{} budgets, the model holds at most {MAX_BUDGETS}",
                    self.pod_disruption_budgets.len()
                ),
            ));
        }
        for b in &self.pod_disruption_budgets {
            let what = format!("podDisruptionBudgets `{}`", b.metadata.name);
            if !names.insert(b.metadata.name.as_str()) {
                return Err(Invalid::said(
                    Object::Budget(b.metadata.name.clone()),
                    format!(
                        "podDisruptionBudgets: two budgets are named `{}`",
                        b.metadata.name
                    ),
                ));
            }
            if b.spec.selects.is_empty() {
                return Err(Invalid::said(
                    Object::Budget(b.metadata.name.clone()),
                    format!("{what}: spec.selects must name a workload"),
                ));
            }
            for n in &b.spec.selects {
                if !known(n) {
                    return Err(Invalid::said(
                        Object::Budget(b.metadata.name.clone()),
                        format!("{what}: spec.selects names unknown workload `{n}`"),
                    ));
                }
            }
            match (&b.spec.min_available, &b.spec.max_unavailable) {
                (Some(_), Some(_)) => {
                    return Err(Invalid::said(
                        Object::Budget(b.metadata.name.clone()),
                        format!("{what}: spec: minAvailable and maxUnavailable cannot be both set"),
                    ))
                }
                (None, None) => {
                    return Err(Invalid::said(
                        Object::Budget(b.metadata.name.clone()),
                        format!("{what}: spec: give one of minAvailable and maxUnavailable"),
                    ))
                }
                (Some(v), None) => {
                    v.amount(&format!("{what}: spec.minAvailable"))
                        .map_err(|e| Invalid::said(Object::Budget(b.metadata.name.clone()), e))?;
                }
                (None, Some(v)) => {
                    v.amount(&format!("{what}: spec.maxUnavailable"))
                        .map_err(|e| Invalid::said(Object::Budget(b.metadata.name.clone()), e))?;
                }
            }
        }
        Ok(())
    }
}

/// What the API server's validation of a Deployment (`pkg/apis/apps/validation/validation.go`
/// `ValidateDeploymentSpec`, `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`)
/// refuses among the fields the model reads, with its message and field path:
///
/// - `rollingUpdate` under `type: Recreate` (Forbidden);
/// - `maxSurge` or `maxUnavailable` that is a negative integer, or a string that is not a
///   percentage (`ValidatePositiveIntOrPercent`, `IsValidPercent`);
/// - both zero after defaulting (`may not be 0 when `maxSurge` is 0`: a percentage counts
///   by its number, so `0%` is zero too);
/// - `maxUnavailable` over 100% (`IsNotMoreThan100Percent`);
/// - `progressDeadlineSeconds` not greater than `minReadySeconds`.
///
/// `docs/sources.md#deployment-rolling-update`.
pub fn validate_deployment_spec(name: &str, spec: &DeploymentSpec) -> Result<(), Invalid> {
    let at = |path: &str, what: String| Invalid::new(Object::Workload(name.into()), path, what);
    let strategy = &spec.strategy;
    if strategy.kind == StrategyType::Recreate && strategy.rolling_update.is_some() {
        return Err(at(
            "spec.strategy.rollingUpdate",
            "Forbidden: may not be specified when strategy `type` is 'Recreate'".into(),
        ));
    }
    if let Some((surge, unavailable)) = strategy.rolling() {
        let base = "spec.strategy.rollingUpdate";
        let mut values = [0i64; 2];
        for (i, (field, v)) in [("maxUnavailable", &unavailable), ("maxSurge", &surge)]
            .into_iter()
            .enumerate()
        {
            let path = format!("{base}.{field}");
            values[i] = match v {
                IntOrString::Int(n) if *n < 0 => {
                    return Err(at(
                        &path,
                        format!("Invalid value: {n}: must be greater than or equal to 0"),
                    ));
                }
                IntOrString::Int(n) => *n,
                IntOrString::String(text) => match percent(text) {
                    Some(p) => p,
                    None => {
                        return Err(at(
                            &path,
                            format!(
                                "Invalid value: {v}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
                            ),
                        ));
                    }
                },
            };
        }
        if values == [0, 0] {
            return Err(at(
                &format!("{base}.maxUnavailable"),
                format!("Invalid value: {unavailable}: may not be 0 when `maxSurge` is 0"),
            ));
        }
        if matches!(&unavailable, IntOrString::String(_)) && values[0] > 100 {
            return Err(at(
                &format!("{base}.maxUnavailable"),
                format!("Invalid value: {unavailable}: must not be greater than 100%"),
            ));
        }
    }
    if spec.progress_deadline_seconds <= spec.min_ready_seconds {
        return Err(at(
            "spec.progressDeadlineSeconds",
            format!(
                "Invalid value: {}: must be greater than minReadySeconds",
                spec.progress_deadline_seconds
            ),
        ));
    }
    Ok(())
}

/// What the API server's validation of a StatefulSet's `updateStrategy`
/// (`pkg/apis/apps/validation/validation.go` `ValidateStatefulSetUpdateStrategy`) refuses:
///
/// - `rollingUpdate` under `type: OnDelete` (only allowed for `RollingUpdate`);
/// - `maxUnavailable` that is a negative integer or a string that is not a percentage
///   (`ValidatePositiveIntOrPercent`), that is 0 (or `0%`), or over 100%
///   (`IsNotMoreThan100Percent`).
///
/// A negative `partition` cannot be written in the scenario (it is a count of 0 to 255) and
/// is refused by the manifest reader. `docs/sources.md#statefulset-rolling-update`.
pub fn validate_statefulset_update_strategy(
    name: &str,
    spec: &super::StatefulSetSpec,
) -> Result<(), Invalid> {
    use super::StatefulSetStrategyType;
    let at = |path: &str, what: String| Invalid::new(Object::Workload(name.into()), path, what);
    let strategy = &spec.update_strategy;
    let Some(ru) = &strategy.rolling_update else {
        return Ok(());
    };
    if strategy.kind == StatefulSetStrategyType::OnDelete {
        return Err(at(
            "spec.updateStrategy.rollingUpdate",
            "Invalid value: only allowed for updateStrategy 'RollingUpdate'".into(),
        ));
    }
    let Some(v) = &ru.max_unavailable else {
        return Ok(());
    };
    let path = "spec.updateStrategy.rollingUpdate.maxUnavailable";
    let n = match v {
        IntOrString::Int(n) if *n < 0 => {
            return Err(at(
                path,
                format!("Invalid value: {n}: must be greater than or equal to 0"),
            ));
        }
        IntOrString::Int(n) => *n,
        IntOrString::String(text) => match percent(text) {
            Some(p) if p > 100 => {
                return Err(at(
                    path,
                    format!("Invalid value: {v}: must not be greater than 100%"),
                ));
            }
            Some(p) => p,
            None => {
                return Err(at(
                    path,
                    format!(
                        "Invalid value: {v}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
                    ),
                ));
            }
        },
    };
    if n == 0 {
        return Err(at(path, format!("Invalid value: {v}: must not be 0")));
    }
    Ok(())
}

/// Where a workload's pod spec is, in the API's field paths.
pub(super) fn pod_spec_path(w: &Workload) -> &'static str {
    match w {
        Workload::Pod { .. } | Workload::StaticPod { .. } => "spec",
        _ => "spec.template.spec",
    }
}

/// What the API server's validation (`pkg/apis/core/validation/validation.go`) refuses among
/// the pod spec fields the model reads, with its message and field path, as `kubectl apply`
/// prints them (`<path>: Invalid value: <value>: <detail>`):
///
/// - a container name given twice in the pod (`validateContainers`, `validateInitContainers`:
///   `Duplicate value`);
/// - a `sleep` lifecycle handler longer than `terminationGracePeriodSeconds`
///   (`validateSleepAction`; zero seconds is allowed since PodLifecycleSleepActionAllowZero,
///   KEP-4818, beta in 1.33);
/// - a liveness or startup probe with `successThreshold` other than 1
///   (`validateLivenessProbe`, `validateStartupProbe`: "must be 1");
/// - a readiness probe with `terminationGracePeriodSeconds` (`validateReadinessProbe`: "must
///   not be set for readinessProbes"), and a probe's `terminationGracePeriodSeconds` of 0
///   (`validateProbe`: "must be greater than 0").
/// - a container `restartPolicy` on a regular container (`validateContainers`: "may not be
///   set for non-init containers"), or other than `Always` on an init container
///   (`validateInitContainers`: `Unsupported value`); docs/sources.md#sidecar-containers.
pub fn validate_pod_spec(w: &Workload, t: &PodSpec) -> Result<(), Invalid> {
    let at =
        |path: String, what: String| Invalid::new(Object::Workload(w.name().into()), path, what);
    let base = pod_spec_path(w);
    let grace = t.termination_grace_period_seconds;
    if let Some(terms) = &t.required_node_affinity {
        let here = format!("{base}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
        if terms.is_empty() {
            return Err(at(
                here,
                "Required value: must have at least one node selector term".into(),
            ));
        }
        for (i, term) in terms.iter().enumerate() {
            for (list, reqs, fields) in [
                ("matchExpressions", &term.match_expressions, false),
                ("matchFields", &term.match_fields, true),
            ] {
                for (j, r) in reqs.iter().enumerate() {
                    r.validate(fields)
                        .map_err(|e| at(format!("{here}[{i}].{list}[{j}]"), e))?;
                }
            }
        }
    }
    for (i, tol) in t.tolerations.iter().enumerate() {
        let Some(secs) = tol.toleration_seconds else {
            continue;
        };
        let here = format!("{base}.tolerations[{i}]");
        // `ValidateTolerations` (`pkg/apis/core/validation/validation.go`): tolerationSeconds
        // only goes with the NoExecute effect.
        if tol.effect != Some(podcheck_k8s::TaintEffect::NoExecute) {
            return Err(at(
                format!("{here}.effect"),
                "Invalid value: effect must be 'NoExecute' when `tolerationSeconds` is set".into(),
            ));
        }
        // Zero and negative values evict at once (`getMinTolerationTime`); a larger one must
        // fit the clock, or the taint's age would stop short of it and the pod would be
        // tolerated for ever.
        if secs > MAX_SECONDS as i64 {
            return Err(at(
                format!("{here}.tolerationSeconds"),
                format!(
                    "tolerationSeconds must be at most {MAX_SECONDS} (the model's clock holds durations up to that many seconds), not {secs}"
                ),
            ));
        }
    }
    let mut names = std::collections::BTreeSet::new();
    for (list, ctrs) in [
        ("initContainers", &t.init_containers),
        ("containers", &t.containers),
    ] {
        for (i, c) in ctrs.iter().enumerate() {
            let here = format!("{base}.{list}[{i}]");
            if !names.insert(c.name.as_str()) {
                return Err(at(
                    format!("{here}.name"),
                    format!("Duplicate value: \"{}\"", c.name),
                ));
            }
            // A process's exit status is 8 bits (`exit(256)` is a status of 0, a success): a
            // code outside 0–255 is one no container can report.
            let codes = [
                ("app.exitCode", Some(c.app.exit_code)),
                (
                    "app.onSigterm.exit",
                    match c.app.on_sigterm {
                        OnSigterm::Exit(code) | OnSigterm::ExitAfter { code, .. } => Some(code),
                        OnSigterm::Ignore => None,
                    },
                ),
            ];
            for (field, code) in codes {
                if let Some(code) = code.filter(|c| !(0..=255).contains(c)) {
                    return Err(at(
                        format!("{here}.{field}"),
                        format!("an exit code must be 0 to 255 (a process's exit status is 8 bits), not {code}"),
                    ));
                }
            }
            let sleeps = c.lifecycle.as_ref().map(|l| {
                [
                    ("preStop", l.pre_stop.as_ref().map(|p| p.sleep.seconds)),
                    (
                        "postStart",
                        l.post_start
                            .as_ref()
                            .and_then(|p| p.sleep.as_ref())
                            .map(|s| s.seconds),
                    ),
                ]
            });
            for (hook, secs) in sleeps.into_iter().flatten() {
                if let Some(secs) = secs.filter(|s| *s > grace) {
                    return Err(at(
                        format!("{here}.lifecycle.{hook}.sleep.seconds"),
                        format!(
                            "Invalid value: {secs}: must be non-negative and less than terminationGracePeriodSeconds ({grace})"
                        ),
                    ));
                }
            }
            if let Some(g) = c
                .readiness_probe
                .as_ref()
                .and_then(|p| p.termination_grace_period_seconds)
            {
                return Err(at(
                    format!("{here}.readinessProbe.terminationGracePeriodSeconds"),
                    format!("Invalid value: {g}: must not be set for readinessProbes"),
                ));
            }
            if list == "initContainers" && !c.is_sidecar() {
                // validateInitContainers: "These fields are disallowed for init containers."
                for (field, set) in [
                    ("lifecycle", c.lifecycle.is_some()),
                    ("livenessProbe", c.liveness_probe.is_some()),
                    ("readinessProbe", c.readiness_probe.is_some()),
                    ("startupProbe", c.startup_probe.is_some()),
                ] {
                    if set {
                        return Err(at(
                            format!("{here}.{field}"),
                            "Forbidden: may not be set for init containers without restartPolicy=Always".into(),
                        ));
                    }
                }
            }
            match (list, c.restart_policy) {
                (_, None) | ("initContainers", Some(RestartPolicy::Always)) => {}
                ("initContainers", Some(other)) => {
                    return Err(at(
                        format!("{here}.restartPolicy"),
                        format!(
                            "Unsupported value: \"{}\": supported values: \"Always\"",
                            restart_policy_name(other)
                        ),
                    ));
                }
                (_, Some(_)) => {
                    return Err(at(
                        format!("{here}.restartPolicy"),
                        "Forbidden: may not be set for non-init containers".into(),
                    ));
                }
            }
            for (kind, p) in [
                ("livenessProbe", &c.liveness_probe),
                ("startupProbe", &c.startup_probe),
            ] {
                if let Some(0) = p.as_ref().and_then(|p| p.termination_grace_period_seconds) {
                    return Err(at(
                        format!("{here}.{kind}.terminationGracePeriodSeconds"),
                        "Invalid value: 0: must be greater than 0".into(),
                    ));
                }
                if let Some(p) = p.as_ref().filter(|p| p.success_threshold != 1) {
                    return Err(at(
                        format!("{here}.{kind}.successThreshold"),
                        format!("Invalid value: {}: must be 1", p.success_threshold),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The spelling of a restart policy in a manifest.
fn restart_policy_name(p: RestartPolicy) -> &'static str {
    match p {
        RestartPolicy::Always => "Always",
        RestartPolicy::OnFailure => "OnFailure",
        RestartPolicy::Never => "Never",
    }
}

/// What the API server's Job validation (`pkg/apis/batch/validation/validation.go`
/// `validateJobSpec`, `validatePodFailurePolicy`, `validateSuccessPolicy`) refuses among the
/// fields the model reads, with its message and field path; the fields whose feature gate is
/// off in the chosen release; and the sizes the model holds.
pub fn validate_job_spec(name: &str, j: &JobSpec, release: Release) -> Result<(), Invalid> {
    let at = |path: &str, what: String| {
        Invalid::new(Object::Workload(name.into()), format!("spec.{path}"), what)
    };
    // The releases where the gates turned on by default, as `ByRelease::of` has them.
    let since = |minor| release.at_least(minor);
    let gate = |field: &str, on: bool, gate: &str, since: &str| {
        if on {
            Ok(())
        } else {
            Err(at(
                field,
                format!(
                    "needs Kubernetes {since} or later (feature gate {gate}); the scenario follows {release}, whose API server drops the field"
                ),
            ))
        }
    };
    if j.pod_failure_policy.is_some() {
        gate("podFailurePolicy", since(26), "JobPodFailurePolicy", "1.26")?;
    }
    if j.pod_replacement_policy.is_some() {
        gate(
            "podReplacementPolicy",
            since(29),
            "JobPodReplacementPolicy",
            "1.29",
        )?;
    }
    if j.backoff_limit_per_index.is_some() || j.max_failed_indexes.is_some() {
        gate(
            "backoffLimitPerIndex",
            since(29),
            "JobBackoffLimitPerIndex",
            "1.29",
        )?;
    }
    if j.success_policy.is_some() {
        gate("successPolicy", since(31), "JobSuccessPolicy", "1.31")?;
    }
    if let Some(p) = j.parallelism {
        if p == 0 || p > MAX_JOB_PARALLELISM {
            return Err(at(
                "parallelism",
                format!("{p}: the model holds 1 to {MAX_JOB_PARALLELISM}"),
            ));
        }
    }
    if let Some(c) = j.completions {
        if c == 0 || c > MAX_JOB_COMPLETIONS {
            return Err(at(
                "completions",
                format!("{c}: the model holds 1 to {MAX_JOB_COMPLETIONS}"),
            ));
        }
    }
    let restart = j.template.spec.restart_policy;
    if restart == RestartPolicy::Always {
        return Err(at(
            "template.spec.restartPolicy",
            "Required value: valid values: \"OnFailure\", \"Never\"".into(),
        ));
    }
    if let Some(m) = j.max_failed_indexes {
        if j.backoff_limit_per_index.is_none() {
            return Err(at(
                "backoffLimitPerIndex",
                "Required value: when maxFailedIndexes is specified".into(),
            ));
        }
        if j.completions.is_some_and(|c| m > c) {
            return Err(at(
                "maxFailedIndexes",
                format!("Invalid value: {m}: must be less than or equal to completions"),
            ));
        }
    }
    if j.indexed() {
        if j.completions.is_none() {
            return Err(at(
                "completions",
                "Required value: when completion mode is Indexed".into(),
            ));
        }
    } else {
        if let Some(b) = j.backoff_limit_per_index {
            return Err(at(
                "backoffLimitPerIndex",
                format!("Invalid value: {b}: requires indexed completion mode"),
            ));
        }
        if let Some(m) = j.max_failed_indexes {
            return Err(at(
                "maxFailedIndexes",
                format!("Invalid value: {m}: requires indexed completion mode"),
            ));
        }
        if j.success_policy.is_some() {
            return Err(at(
                "successPolicy",
                "Invalid value: requires indexed completion mode".into(),
            ));
        }
    }
    if let Some(p) = &j.pod_failure_policy {
        if p.rules.len() > 20 {
            return Err(at(
                "podFailurePolicy.rules",
                format!("Too many: {}: must have at most 20 items", p.rules.len()),
            ));
        }
        let names: Vec<&str> = j
            .template
            .spec
            .containers
            .iter()
            .chain(&j.template.spec.init_containers)
            .map(|c| c.name.as_str())
            .collect();
        for (i, r) in p.rules.iter().enumerate() {
            let rule = format!("podFailurePolicy.rules[{i}]");
            if r.action == PodFailurePolicyActionSpec::FailIndex
                && j.backoff_limit_per_index.is_none()
            {
                return Err(at(
                    &format!("{rule}.action"),
                    "Invalid value: \"FailIndex\": requires the backoffLimitPerIndex to be set"
                        .into(),
                ));
            }
            match (&r.on_exit_codes, r.on_pod_conditions.is_empty()) {
                (Some(_), false) => {
                    return Err(at(
                        &rule,
                        "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported".into(),
                    ))
                }
                (None, true) => {
                    return Err(at(
                        &rule,
                        "Invalid value: specifying one of OnExitCodes and OnPodConditions is required".into(),
                    ))
                }
                _ => {}
            }
            if r.on_pod_conditions.len() > 20 {
                return Err(at(
                    &format!("{rule}.onPodConditions"),
                    format!(
                        "Too many: {}: must have at most 20 items",
                        r.on_pod_conditions.len()
                    ),
                ));
            }
            if let Some(e) = &r.on_exit_codes {
                let here = format!("{rule}.onExitCodes");
                if let Some(c) = &e.container_name {
                    if !names.contains(&c.as_str()) {
                        return Err(at(
                            &format!("{here}.containerName"),
                            format!("Invalid value: \"{c}\": must be one of the container or initContainer names in the pod template"),
                        ));
                    }
                }
                if e.values.is_empty() {
                    return Err(at(
                        &format!("{here}.values"),
                        "Invalid value: []: at least one value is required".into(),
                    ));
                }
                if e.values.len() > 255 {
                    return Err(at(
                        &format!("{here}.values"),
                        format!("Too many: {}: must have at most 255 items", e.values.len()),
                    ));
                }
                for (k, v) in e.values.iter().enumerate() {
                    if e.operator == podcheck_k8s::ExitCodesOperator::In && *v == 0 {
                        return Err(at(
                            &format!("{here}.values[{k}]"),
                            "Invalid value: 0: must not be 0 for the In operator".into(),
                        ));
                    }
                    if e.values[..k].contains(v) {
                        return Err(at(
                            &format!("{here}.values[{k}]"),
                            format!("Duplicate value: {v}"),
                        ));
                    }
                }
                if e.values.windows(2).any(|w| w[0] > w[1]) {
                    return Err(at(
                        &format!("{here}.values"),
                        format!("Invalid value: {:?}: must be ordered", e.values),
                    ));
                }
            }
        }
        if restart != RestartPolicy::Never {
            return Err(at(
                "template.spec.restartPolicy",
                "Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified".into(),
            ));
        }
        if j.pod_replacement_policy == Some(PodReplacementPolicy::TerminatingOrFailed) {
            return Err(at(
                "podReplacementPolicy",
                "Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"".into(),
            ));
        }
    }
    if let Some(p) = &j.success_policy {
        let completions = j.completions.unwrap_or(0);
        if p.rules.is_empty() {
            return Err(at(
                "successPolicy.rules",
                "Required value: at least one rules must be specified when the successPolicy is specified".into(),
            ));
        }
        if p.rules.len() > 20 {
            return Err(at(
                "successPolicy.rules",
                format!("Too many: {}: must have at most 20 items", p.rules.len()),
            ));
        }
        for (i, r) in p.rules.iter().enumerate() {
            let rule = format!("successPolicy.rules[{i}]");
            if r.succeeded_count.is_none() && r.succeeded_indexes.is_none() {
                return Err(at(
                    &rule,
                    "Required value: at least one of succeededCount or succeededIndexes must be specified".into(),
                ));
            }
            let mut total = completions as u32;
            if let Some(idx) = &r.succeeded_indexes {
                let set = podcheck_k8s::parse_indexes(idx, completions).map_err(|e| {
                    at(
                        &format!("{rule}.succeededIndexes"),
                        format!("Invalid value: \"{idx}\": error parsing succeededIndexes: {e}"),
                    )
                })?;
                total = set.count_ones();
            }
            if let Some(c) = r.succeeded_count {
                if c > completions {
                    return Err(at(
                        &format!("{rule}.succeededCount"),
                        format!("Invalid value: {c}: must be less than or equal to {completions} (the number of specified completions)"),
                    ));
                }
                if r.succeeded_indexes.is_some() && c as u32 > total {
                    return Err(at(
                        &format!("{rule}.succeededCount"),
                        format!("Invalid value: {c}: must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)"),
                    ));
                }
            }
        }
    }
    Ok(())
}
