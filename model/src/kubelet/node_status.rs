//! The kubelet's node status: it posts Ready=True once it reaches the API server again.
//!
//! Sources: `docs/sources.md#kubelet-node-lease-and-status`.

use super::*;

/// The kubelet posts Ready=True again.
pub fn post(s: &mut State, node: u8) -> Option<()> {
    s.api.nodes[node as usize].unknown = false;
    Some(())
}
