//! Counterexamples and witnesses as data ([`Trace`]), replayed through the model before they
//! are shown, and their renderings: a text timeline ([`text`]), JSON (the `Trace` itself),
//! the Informal Trace Format ([`itf`]), a Mermaid sequence diagram ([`mermaid`]) and the state
//! graph in DOT ([`dot`]).

pub mod dot;
pub mod events;
pub mod itf;
pub mod mermaid;
pub mod text;
mod trace;

pub use text::render_text;
pub use trace::*;

/// The readable facts of a state and their diff live in the model, which the Explorer
/// shares.
pub mod snapshot {
    pub use podcheck_model::facts::*;
}
