//! The kubelet's node status: it posts Ready=True once it reaches the API server again.

use super::*;

/// The kubelet posts Ready=True again.
pub fn post(s: &mut State, node: u8) -> Option<()> {
    s.api.nodes[node as usize].unknown = false;
    Some(())
}
