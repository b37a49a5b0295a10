//! Fresh temporary folders for the files a test writes.

use std::ops::Deref;
use std::path::Path;

/// A fresh, empty folder under the system's temporary folder, named `podcheck-TAG-…`, removed
/// with all it holds when dropped (also when its test panics). It derefs to its [`Path`].
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("podcheck-{tag}-"))
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot create a temporary folder for {tag}: {e}"));
        TempDir(dir)
    }

    /// Writes `text` into `name` (a path in this folder; the folders on the way are made) and
    /// returns its path as a string, as a command line takes it.
    pub fn write(&self, name: &str, text: &str) -> String {
        let path = self.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {parent:?}: {e}"));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {path:?}: {e}"));
        path_str(&path)
    }
}

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

fn path_str(p: &Path) -> String {
    p.to_str().expect("temp path is UTF-8").to_string()
}
