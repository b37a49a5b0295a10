//! Image pull policies: the default a container gets from its image reference, and what each
//! policy makes the kubelet's image manager do (`docs/sources.md#kubelet-image-pull-policy`).

use serde::{Deserialize, Serialize};

/// `imagePullPolicy` (`core/v1` `PullPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PullPolicy {
    /// Pull on every container start, whether or not the image is on the node.
    Always,
    /// Pull only if the node has no image of that reference.
    IfNotPresent,
    /// Never pull: a missing image is `ErrImageNeverPull`.
    Never,
}

/// The tag and the digest of an image reference, as `ParseImageName`
/// (`pkg/util/parsers/parsers.go`) reads them: the digest follows `@`; the tag follows the
/// last `:` after the last `/` (a `:` before it is a registry's port). No tag and no digest
/// reads as the tag `latest`.
pub fn tag_and_digest(image: &str) -> (Option<&str>, Option<&str>) {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    let tag = last.rsplit_once(':').map(|(_, t)| t);
    match (tag, digest) {
        (None, None) => (Some("latest"), None),
        other => other,
    }
}

/// `SetDefaults_Container` (`pkg/apis/core/v1/defaults.go`): an unset `imagePullPolicy` is
/// `Always` when the tag is `latest` (or the reference has neither tag nor digest), else
/// `IfNotPresent` (a digest without a tag included).
pub fn default_pull_policy(image: &str) -> PullPolicy {
    match tag_and_digest(image) {
        (Some("latest"), _) => PullPolicy::Always,
        _ => PullPolicy::IfNotPresent,
    }
}

/// What `EnsureImageExists` (`pkg/kubelet/images/image_manager.go`, `imagePullPrecheck`,
/// `shouldPullImage`) does for a container start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageAction {
    /// Pull it (`Pulling`, then `Pulled` or `Failed`).
    Pull,
    /// Use the image on the node: `Pulled` "Container image … already present on machine".
    AlreadyPresent,
    /// `ErrImageNeverPull`: the image is missing and the policy forbids a pull.
    NeverPull,
}

/// The image manager's choice for `policy` when the image is (`present`) or is not on the
/// node.
pub fn image_action(policy: PullPolicy, present: bool) -> ImageAction {
    match (policy, present) {
        (PullPolicy::Always, _) | (PullPolicy::IfNotPresent, false) => ImageAction::Pull,
        (PullPolicy::Never, false) => ImageAction::NeverPull,
        (_, true) => ImageAction::AlreadyPresent,
    }
}
