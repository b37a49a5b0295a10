//! The subcommands of the command line, a file each, over the `podcheck` library; the flags
//! in [`args`], what they share in [`common`].

/// Prints a line to stdout; a closed pipe (`podcheck … | head`) ends the program quietly.
macro_rules! say {
    ($($arg:tt)*) => { $crate::cli::common::say(format_args!($($arg)*)) };
}

pub mod args;
pub mod bench;
pub mod check;
pub mod common;
pub mod explore;
pub mod fix;
pub mod list;
pub mod manifests;
pub mod merge;
pub mod sarif;
pub mod simulate;
pub mod trace;
