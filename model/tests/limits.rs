//! Every limit of the state is checked where a scenario enters: a scenario the model cannot
//! hold is refused with the field and the limit, never silently wrapped.

use podcheck_input::spec::{parse_scenarios, MAX_IMAGES, MAX_SECONDS};
use podcheck_model::{Cluster, Context};

/// A bare pod whose init containers each use an image of their own.
fn pod_with_images(images: usize) -> String {
    let mut init = String::new();
    for i in 1..images {
        init.push_str(&format!(
            "              - {{name: init-{i}, image: \"img-{i}:1\", app: {{exitAfterSeconds: 1, exitCode: 0}}}}\n"
        ));
    }
    format!(
        "- name: many-images
  description: one pod, one image per container
  source: this test
  workloads:
    - kind: Pod
      metadata: {{name: p}}
      spec:
        initContainers:
{init}        containers:
          - {{name: app, image: \"img-0:1\"}}
"
    )
}

#[test]
fn thirty_two_images_fit_and_each_has_its_own_bit() {
    let list = parse_scenarios(&pod_with_images(MAX_IMAGES), "limits.yaml").expect("valid");
    let ctx = Context::new(list[0].clone());
    assert_eq!(ctx.images.len(), MAX_IMAGES);
    let bits: std::collections::BTreeSet<usize> =
        ctx.images.iter().map(|i| ctx.image_index(i)).collect();
    assert_eq!(bits.len(), MAX_IMAGES, "two images share a bit");
    assert!(bits.iter().all(|b| *b < 32));
    // The model builds and starts from it.
    let m = Cluster::new(list[0].clone(), vec![]);
    assert_eq!(m.initial_state().api.pods.len(), 1);
}

#[test]
fn thirty_three_images_are_refused() {
    let err = parse_scenarios(&pod_with_images(MAX_IMAGES + 1), "limits.yaml")
        .expect_err("33 images cannot be held");
    assert!(err.contains("limits.yaml"), "{err}");
    assert!(
        err.contains("33 distinct images") && err.contains("at most 32"),
        "{err}"
    );
}

#[test]
fn durations_past_the_clock_are_refused() {
    let yaml = format!(
        "- name: long-grace
  description: a grace period the clock cannot count
  source: this test
  workloads:
    - kind: Pod
      metadata: {{name: p}}
      spec:
        terminationGracePeriodSeconds: {}
        containers:
          - {{name: app, image: \"img:1\"}}
",
        MAX_SECONDS as u32 + 1
    );
    let err = parse_scenarios(&yaml, "limits.yaml").expect_err("too long");
    assert!(
        err.contains("terminationGracePeriodSeconds") && err.contains(&MAX_SECONDS.to_string()),
        "{err}"
    );
    // At the limit it is accepted.
    let ok = yaml.replace(
        &(MAX_SECONDS as u32 + 1).to_string(),
        &MAX_SECONDS.to_string(),
    );
    parse_scenarios(&ok, "limits.yaml").expect("at the limit");
}

#[test]
fn too_many_faults_are_refused() {
    let mut yaml = pod_with_images(2);
    yaml.push_str("  faults:\n");
    for _ in 0..33 {
        yaml.push_str("    - {deletePod: {workload: p}}\n");
    }
    let err = parse_scenarios(&yaml, "limits.yaml").expect_err("33 faults");
    assert!(
        err.contains("33 faults") && err.contains("at most 32"),
        "{err}"
    );
}

/// A scenario that does not validate is refused at the line of the field the error is about
/// (here the faults, whose list begins on the line after `faults:`), or of its name.
#[test]
fn a_refused_scenario_names_its_line() {
    let mut yaml = pod_with_images(2);
    yaml.push_str("  faults:\n");
    let faults = yaml.lines().count() + 1;
    for _ in 0..33 {
        yaml.push_str("    - {deletePod: {workload: p}}\n");
    }
    let err = parse_scenarios(&yaml, "limits.yaml").expect_err("33 faults");
    assert!(
        err.starts_with(&format!("limits.yaml:{faults}: scenario `")),
        "{err}"
    );
    // A list written in flow style begins on the line of its key.
    let mut yaml = pod_with_images(2);
    let faults = yaml.lines().count() + 1;
    yaml.push_str("  faults: [{deletePod: {workload: q}}]\n");
    let err = parse_scenarios(&yaml, "limits.yaml").expect_err("unknown workload");
    assert!(
        err.starts_with(&format!("limits.yaml:{faults}: scenario `"))
            && err.contains("unknown workload `q`"),
        "{err}"
    );
}

/// `two stepFails faults …` is about the faults, `two workloads …` about the workloads: the
/// line is the one of the field the second word names.
#[test]
fn a_refused_pair_names_the_line_of_its_field() {
    let mut yaml = pod_with_images(2);
    let faults = yaml.lines().count() + 1;
    yaml.push_str(
        "  faults: [{stepFails: {workload: p, step: createContainer}}, {stepFails: {workload: p, step: createContainer}}]\n",
    );
    let err = parse_scenarios(&yaml, "limits.yaml").expect_err("two stepFails");
    assert!(
        err.starts_with(&format!("limits.yaml:{faults}: scenario `"))
            && err.contains("two stepFails"),
        "{err}"
    );
}
