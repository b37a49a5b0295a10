//! What validation refuses, typed: the object it is about, the field path within it and the
//! detail, so that a reader of the scenario's source (a scenario file, users' manifests)
//! points at the object and the field without reading the message back. [`Invalid`]'s
//! `Display` is the message as the user reads it.

use std::fmt;

/// A top-level field of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Cluster,
    Workloads,
    Service,
    Faults,
    PersistentVolumeClaims,
    PodDisruptionBudgets,
    Expect,
}

/// What an error of validation is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Object {
    /// The scenario as a whole, or something its messages name by no part of it (a fault
    /// named by its kind, a container by its name alone): a file points at the scenario.
    Scenario,
    /// One of the scenario's top-level fields.
    Part(Part),
    /// A node of `cluster.nodes`, by name.
    Node(String),
    /// A workload, by name.
    Workload(String),
    /// A container (init or regular) of a workload's pod template.
    Container { workload: String, container: String },
    /// A PodDisruptionBudget, by name.
    Budget(String),
    /// The expectations of a property, by the property's name.
    Expectation(String),
    /// A fault, as the message names it (`stepFails mountVolume`).
    Fault(String),
}

impl Object {
    /// The words that name the object at the head of a message (none for the scenario and
    /// its parts, whose messages start with the field's path).
    fn prefix(&self) -> String {
        match self {
            Object::Scenario | Object::Part(_) => String::new(),
            Object::Node(n) => format!("node `{n}`"),
            Object::Workload(w) => format!("workload `{w}`"),
            Object::Container {
                workload,
                container,
            } => format!("workload `{workload}` container `{container}`"),
            Object::Budget(b) => format!("podDisruptionBudgets `{b}`"),
            Object::Expectation(p) => format!("expect `{p}`"),
            Object::Fault(f) => f.clone(),
        }
    }

    /// The top-level field of the scenario the object is in (None: the scenario itself).
    pub fn part(&self) -> Option<Part> {
        match self {
            Object::Scenario => None,
            Object::Part(p) => Some(*p),
            Object::Node(_) => Some(Part::Cluster),
            Object::Workload(_) | Object::Container { .. } => Some(Part::Workloads),
            Object::Budget(_) => Some(Part::PodDisruptionBudgets),
            Object::Expectation(_) => Some(Part::Expect),
            Object::Fault(_) => Some(Part::Faults),
        }
    }
}

/// How a message puts the object, the field and the detail together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Form {
    /// `<object>: <field>: <detail>`, each part there only if not empty.
    Path,
    /// `<object> <field> <detail>`, a sentence (`workload `web` has no containers`).
    Sentence,
    /// The detail is the whole message (one that names its object in its own words).
    Whole,
}

/// An error of a scenario's validation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Invalid {
    /// What the error is about.
    pub object: Object,
    /// The field path within the object, in the scenario's words (`spec.minReadySeconds`,
    /// `resources.requests.cpuMilli`, `cluster.proxyLagSeconds` from the scenario's top);
    /// empty when the message names none.
    pub field: String,
    /// What is wrong (with [`Invalid::said`], the whole message).
    pub detail: String,
    form: Form,
}

impl Invalid {
    /// `<object>: <field>: <detail>`.
    pub fn new(object: Object, field: impl Into<String>, detail: impl Into<String>) -> Invalid {
        Invalid {
            object,
            field: field.into(),
            detail: detail.into(),
            form: Form::Path,
        }
    }

    /// `<object> <field> <detail>`, as one sentence.
    pub fn sentence(
        object: Object,
        field: impl Into<String>,
        detail: impl Into<String>,
    ) -> Invalid {
        Invalid {
            object,
            field: field.into(),
            detail: detail.into(),
            form: Form::Sentence,
        }
    }

    /// A message that names its object in its own words, about `object`.
    pub fn said(object: Object, message: impl Into<String>) -> Invalid {
        Invalid {
            object,
            field: String::new(),
            detail: message.into(),
            form: Form::Whole,
        }
    }

    /// The message after the words that name the object: the field and the detail (the
    /// whole message for one in its own words).
    pub fn after_object(&self) -> String {
        match self.form {
            Form::Path => join([self.field.as_str(), self.detail.as_str()], ": "),
            Form::Sentence => join([self.field.as_str(), self.detail.as_str()], " "),
            Form::Whole => self.detail.clone(),
        }
    }
}

fn join<const N: usize>(parts: [&str; N], sep: &str) -> String {
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(sep)
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = self.object.prefix();
        let text = match self.form {
            Form::Path => join([prefix.as_str(), &self.field, &self.detail], ": "),
            Form::Sentence => join([prefix.as_str(), &self.field, &self.detail], " "),
            Form::Whole => self.detail.clone(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for Invalid {}

impl From<Invalid> for String {
    fn from(e: Invalid) -> String {
        e.to_string()
    }
}
