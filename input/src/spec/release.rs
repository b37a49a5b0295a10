//! The Kubernetes release a scenario follows, and the rules that depend on it.

use super::*;
use serde::{Deserialize, Serialize};

/// A Kubernetes minor release (`1.<minor>`) the model can follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Release {
    pub minor: u8,
}

impl Release {
    /// The oldest release the model follows: 1.22, the first whose EndpointSlice controller
    /// publishes terminating endpoints with `serving` and `terminating` by default
    /// (KEP-1672, beta 1.22) and whose kubelet gives a force-deleted pod its
    /// `terminationGracePeriodSeconds` (`calculateEffectiveGracePeriod` since 1.22, PR #124063's
    /// release note). Before it the model would be wrong on both.
    pub const OLDEST: Release = Release { minor: 22 };
    /// The newest release the model follows, and the default: the code behind
    /// `docs/sources.md` was read between 1.32 and 1.35.
    pub const NEWEST: Release = Release { minor: 35 };

    /// Reads `1.33` or `v1.33`; a release outside [`Release::OLDEST`]..=[`Release::NEWEST`]
    /// is an error that says which ones the model follows.
    pub fn parse(text: &str) -> Result<Release, String> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let range = format!("{}, …, {}", Release::OLDEST, Release::NEWEST);
        let bad = || format!("`{text}` is not a Kubernetes minor release such as `1.33`");
        let (major, minor) = t.split_once('.').ok_or_else(bad)?;
        if major != "1" || minor.contains('.') {
            return Err(if major == "1" && minor.split('.').count() == 2 {
                format!(
                    "`{text}`: give a minor release such as `1.33` (patch releases are not told apart)"
                )
            } else {
                bad()
            });
        }
        let minor: u8 = minor.parse().map_err(|_| bad())?;
        let r = Release { minor };
        if r < Release::OLDEST || r > Release::NEWEST {
            return Err(format!(
                "Kubernetes {r} is not supported: the model follows {range}"
            ));
        }
        Ok(r)
    }

    /// This release is `1.<minor>` or newer.
    pub fn at_least(self, minor: u8) -> bool {
        self.minor >= minor
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl Serialize for Release {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Release {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Release::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for Release {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Release::parse(s)
    }
}

impl Scenario {
    /// The release the scenario follows: `cluster.kubernetesVersion`, else
    /// [`Release::NEWEST`].
    pub fn release(&self) -> Result<Release, String> {
        self.checked_release().map_err(|e| e.to_string())
    }

    /// [`Scenario::release`], its error typed for validation.
    pub(super) fn checked_release(&self) -> Result<Release, Invalid> {
        match &self.cluster.kubernetes_version {
            None => Ok(Release::NEWEST),
            Some(v) => Release::parse(v).map_err(|e| {
                Invalid::new(Object::Part(Part::Cluster), "cluster.kubernetesVersion", e)
            }),
        }
    }

    /// Expectations bounded by release: for a property, at most one applies to each
    /// release, and one applies to every release if any is bounded.
    pub(super) fn validate_expectations(&self) -> Result<(), Invalid> {
        for e in &self.expect {
            if let (Some(f), Some(b)) = (e.from, e.before) {
                if f >= b {
                    return Err(Invalid::new(
                        Object::Expectation(e.property.clone()),
                        "",
                        format!("from {f} before {b} is no release at all"),
                    ));
                }
            }
        }
        for e in &self.expect {
            let same: Vec<&Expectation> = self
                .expect
                .iter()
                .filter(|x| x.property == e.property)
                .collect();
            let bounded = same.iter().any(|x| x.from.is_some() || x.before.is_some());
            for minor in Release::OLDEST.minor..=Release::NEWEST.minor {
                let r = Release { minor };
                let n = same.iter().filter(|x| x.applies_to(r)).count();
                if n > 1 {
                    return Err(Invalid::new(
                        Object::Expectation(e.property.clone()),
                        "",
                        format!("{n} expectations apply to Kubernetes {r}"),
                    ));
                }
                if bounded && n == 0 {
                    return Err(Invalid::new(
                        Object::Expectation(e.property.clone()),
                        "",
                        format!("no expectation applies to Kubernetes {r} (give `from` and `before` that cover every release)"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A StatefulSet's `minReadySeconds` needs gate `StatefulSetMinReadySeconds` (alpha, off, in
/// 1.22; beta, on by default, from 1.23; GA in 1.25). At 1.22 the API server drops the field
/// (`pkg/registry/apps/statefulset/strategy.go` `dropStatefulSetDisabledFields`), so the
/// controller would wait only for Running and Ready: a scenario that asks for it there is
/// refused with the release it needs, as a sidecar is.
pub fn validate_statefulset_min_ready(w: &Workload, release: Release) -> Result<(), Invalid> {
    if let Workload::StatefulSet { spec, .. } = w {
        if spec.min_ready_seconds > 0 && !release.at_least(23) {
            return Err(Invalid::new(
                Object::Workload(w.name().into()),
                "spec.minReadySeconds",
                format!("a StatefulSet's minReadySeconds needs Kubernetes 1.23 or later (feature gate StatefulSetMinReadySeconds); the scenario follows {release}, whose API server drops the field"),
            ));
        }
    }
    Ok(())
}

/// Sidecar containers (init containers with `restartPolicy: Always`): the release must have
/// gate `SidecarContainers` on (beta, on by default, from 1.29; KEP-753). At 1.28 the gate is
/// off and the API server drops the field (`pkg/api/pod/util.go` `dropDisabledPodFields`),
/// and before 1.28 the field does not exist; either way the container would run as a regular
/// init container, which is not what the scenario asks for, so it is refused with the
/// release it needs. A postStart hook on a sidecar is not modelled.
/// `docs/sources.md#sidecar-containers`.
pub fn validate_sidecars(w: &Workload, t: &PodSpec, release: Release) -> Result<(), Invalid> {
    let base = pod_spec_path(w);
    for (i, c) in t.init_containers.iter().enumerate() {
        if !c.is_sidecar() {
            continue;
        }
        let here = format!("{base}.initContainers[{i}]");
        let at = |field: &str, detail: String| {
            Invalid::new(
                Object::Workload(w.name().into()),
                format!("{here}.{field}"),
                detail,
            )
        };
        if !release.at_least(29) {
            return Err(at(
                "restartPolicy",
                format!("a sidecar container needs Kubernetes 1.29 or later (feature gate SidecarContainers); the scenario follows {release}, whose API server drops the field"),
            ));
        }
        if c.lifecycle.as_ref().is_some_and(|l| l.post_start.is_some()) {
            return Err(at(
                "lifecycle.postStart",
                "a postStart hook on a sidecar container is not modelled".into(),
            ));
        }
    }
    Ok(())
}
