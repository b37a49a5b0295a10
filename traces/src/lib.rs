//! Counterexamples and witnesses as data ([`Trace`]), replayed through the model before they
//! are shown, and their renderings: a text timeline ([`text`]), JSON (the `Trace` itself),
//! the Informal Trace Format ([`itf`]), a Mermaid sequence diagram ([`mermaid`]) and the state
//! graph in DOT ([`dot`]); the wording they share ([`words`], [`events`], [`facts`],
//! [`kubectl`]) and the Stateright Explorer's view of the model ([`explorer`]).

pub mod dot;
pub mod events;
pub mod explorer;
pub mod facts;
pub mod itf;
pub mod kubectl;
pub mod mermaid;
pub mod render;
pub mod text;
mod trace;
pub mod words;

pub use render::{render, render_trace, shown_trace, TraceFormat};
pub use text::render_text;
pub use trace::*;
