//! Reading the input: the text of a file or of stdin (at most [`MAX_INPUT_BYTES`], UTF-8),
//! and the applications of the paths given with `-f` (folders walked, files and stdin).
//! Self-contained: it uses the standard library alone, and its errors are sentences.

use std::io::Read;
use std::path::{Path, PathBuf};

/// One application: manifest files checked together, as one cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// The folder's path, or the files' names.
    pub name: String,
    /// `(file name, text)` of each file.
    pub sources: Vec<(String, String)>,
}

/// The most podcheck reads from one file or from stdin: 16 MiB. Manifests and catalogues are
/// far smaller; the limit stops an endless input (`/dev/zero`, `yes | podcheck check -f -`)
/// from growing the process until the machine runs out of memory.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The text of `reader`, named `name` in messages: at most [`MAX_INPUT_BYTES`] (checked while
/// reading, so an endless input stops there), and UTF-8.
pub fn read_text(reader: impl Read, name: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "{name}: larger than {} MiB, the most podcheck reads from one file or from stdin (is it the input you meant?)",
            MAX_INPUT_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{name}: not UTF-8 text (byte {} is not part of a UTF-8 character)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The text of the file at `path`, as [`read_text`] reads it.
pub fn read_text_file(path: &Path) -> Result<String, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    read_text(file, &name)
}

fn is_manifest_name(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
}

fn read_file(path: &Path) -> Result<(String, String), String> {
    Ok((path.display().to_string(), read_text_file(path)?))
}

/// What walking the `-f` folders has seen so far: the folders read, by canonical path, with
/// the `-f` path each was read under; the notes; and how many folders were passed over as read
/// already and how many links to folders were not followed.
#[derive(Default)]
struct Walk {
    visited: std::collections::HashMap<PathBuf, String>,
    notes: Vec<String>,
    repeats: usize,
    links: usize,
}

/// Every folder under `dir` (itself included) that directly holds manifest files, with them,
/// sorted by path. Hidden folders under it (`.git`, `.github`: their YAML is not Kubernetes
/// objects) are passed over; name one with `-f` to read it. A symbolic link to a folder is not
/// followed (a note says so: name it with `-f` to read it), and a folder already read (under
/// another `-f`) is not read again (a note says so): no folder is read twice, and a link
/// cannot lead the walk round in a loop. A `.yaml`, `.yml` or `.json` name that is not a file
/// that can be read (a link to nothing, a socket) is an error.
fn folders(
    dir: &Path,
    given: &str,
    out: &mut Vec<(PathBuf, Vec<PathBuf>)>,
    walk: &mut Walk,
) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", dir.display());
    let canonical = std::fs::canonicalize(dir).map_err(cannot)?;
    if let Some(first) = walk.visited.get(&canonical) {
        walk.notes.push(format!(
            "{}: already read under -f {first}: each application is checked once",
            dir.display()
        ));
        walk.repeats += 1;
        return Ok(());
    }
    walk.visited.insert(canonical, given.to_string());
    let mut paths = Vec::new();
    for e in std::fs::read_dir(dir).map_err(cannot)? {
        paths.push(e.map_err(cannot)?.path());
    }
    paths.sort();
    let mut files = Vec::new();
    let mut subfolders = Vec::new();
    for p in paths {
        let link = std::fs::symlink_metadata(&p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))?
            .file_type()
            .is_symlink();
        match std::fs::metadata(&p) {
            Ok(m) if m.is_dir() => {
                let hidden = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                if hidden {
                    continue;
                }
                if link {
                    walk.notes.push(format!(
                        "{}: a symbolic link to a folder, not followed (name it with -f to read it)",
                        p.display()
                    ));
                    walk.links += 1;
                    continue;
                }
                subfolders.push(p);
            }
            Ok(m) if is_manifest_name(&p) => {
                if !m.is_file() {
                    return Err(format!(
                        "{}: not a file that can be read as manifests (a device, a pipe or a socket)",
                        p.display()
                    ));
                }
                files.push(p);
            }
            Err(e) if is_manifest_name(&p) => {
                let what = match std::fs::read_link(&p) {
                    Ok(to) if link => format!(
                        "a symbolic link to {}, which cannot be read: {e}",
                        to.display()
                    ),
                    _ => format!("cannot be read: {e}"),
                };
                return Err(format!("{}: {what}", p.display()));
            }
            _ => {}
        }
    }
    if !files.is_empty() {
        out.push((dir.to_path_buf(), files));
    }
    for p in subfolders {
        folders(&p, given, out, walk)?;
    }
    Ok(())
}

/// The applications of the `-f` paths, with notes on what was passed over or dropped on
/// the way (a link to a folder not followed, a folder or a file given twice).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applications {
    pub apps: Vec<Application>,
    /// One sentence each, naming the path.
    pub notes: Vec<String>,
}

/// The applications of the paths given with `-f`: each folder (the one named, or one under
/// it) that directly holds `.yaml`, `.yml` or `.json` files is one application, its files
/// together, named by its path; the files named directly and stdin (`-`) together make one
/// more, after the folders' ones. A folder or file is read once, however often it is given
/// (also as a folder under one given): a repeat is dropped with a note. Each file and stdin
/// is read up to [`MAX_INPUT_BYTES`].
pub fn applications(paths: &[String]) -> Result<Applications, String> {
    let mut apps = Vec::new();
    let mut walk = Walk::default();
    let mut loose: Vec<(String, String)> = Vec::new();
    let mut loose_seen: Vec<PathBuf> = Vec::new();
    for p in paths {
        if p == "-" {
            if loose.iter().any(|(n, _)| n == "-") {
                walk.notes
                    .push("-: stdin is given twice with -f: it is read once".to_string());
                continue;
            }
            let text = read_text(std::io::stdin().lock(), "stdin (-f -)")?;
            loose.push(("-".to_string(), text));
            continue;
        }
        let path = Path::new(p);
        if path.is_dir() {
            let mut found = Vec::new();
            let (repeats, links) = (walk.repeats, walk.links);
            folders(path, p, &mut found, &mut walk)?;
            if found.is_empty() && walk.repeats == repeats {
                let unfollowed = if walk.links > links {
                    " (links to folders under it are not followed: name them with -f)"
                } else {
                    ""
                };
                return Err(format!(
                    "{p}: no .yaml, .yml or .json file in the folder or under it{unfollowed}"
                ));
            }
            for (dir, files) in found {
                let sources = files
                    .iter()
                    .map(|f| read_file(f))
                    .collect::<Result<_, _>>()?;
                apps.push(Application {
                    name: dir.display().to_string().trim_end_matches('/').to_string(),
                    sources,
                });
            }
        } else {
            if let Ok(c) = std::fs::canonicalize(path) {
                if loose_seen.contains(&c) {
                    walk.notes
                        .push(format!("{p}: given twice with -f: it is read once"));
                    continue;
                }
                loose_seen.push(c);
            }
            loose.push(read_file(path)?);
        }
    }
    // A file named with -f that a folder given with -f holds already is part of that
    // folder's application: read once, there.
    loose.retain(|(name, _)| {
        if name == "-" || !is_manifest_name(Path::new(name)) {
            return true;
        }
        let folder = std::fs::canonicalize(name)
            .ok()
            .and_then(|c| c.parent().map(Path::to_path_buf))
            .and_then(|dir| walk.visited.get(&dir).cloned());
        match folder {
            Some(given) => {
                walk.notes.push(format!(
                    "{name}: already read with the folder given as -f {given}: each file is checked once, in its folder's application"
                ));
                false
            }
            None => true,
        }
    });
    if !loose.is_empty() {
        let names: Vec<&str> = loose.iter().map(|(n, _)| n.as_str()).collect();
        apps.push(Application {
            name: names.join(", "),
            sources: loose,
        });
    }
    Ok(Applications {
        apps,
        notes: walk.notes,
    })
}
