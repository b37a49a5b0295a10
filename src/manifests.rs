//! `podcheck check -f PATH|-`: reads the files, folders and stdin the user names, hands their
//! text to `podcheck_model::manifest`, and prints what it made of them on stderr (warnings,
//! ignored objects, assumed defaults, and with `--verbose` the fields the model does not
//! read), so that stdout keeps the report alone.

use crate::BadInput;
use podcheck_model::manifest;
use podcheck_model::spec::Scenario;
use std::io::Read;
use std::path::Path;

/// The sources of the paths: a file, every `.yaml`/`.yml`/`.json` file of a folder (sorted,
/// recursively), or `-` for stdin.
fn sources(paths: &[String]) -> Result<Vec<(String, String)>, BadInput> {
    let mut out = Vec::new();
    for p in paths {
        if p == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| BadInput(format!("cannot read stdin: {e}")))?;
            out.push(("-".to_string(), text));
            continue;
        }
        let path = Path::new(p);
        if path.is_dir() {
            let mut files = Vec::new();
            folder(path, &mut files)?;
            if files.is_empty() {
                return Err(BadInput(format!(
                    "{p}: no .yaml, .yml or .json file in the folder"
                )));
            }
            for f in files {
                out.push(read(&f)?);
            }
        } else {
            out.push(read(path)?);
        }
    }
    Ok(out)
}

fn read(path: &Path) -> Result<(String, String), BadInput> {
    let name = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| BadInput(format!("cannot read {name}: {e}")))?;
    Ok((name, text))
}

fn folder(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<(), BadInput> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| BadInput(format!("cannot read {}: {e}", dir.display())))?;
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            folder(&p, out)?;
        } else if p
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            out.push(p);
        }
    }
    Ok(())
}

/// The scenario of the manifests, with what the reader made of them on stderr.
pub fn load(paths: &[String], verbose: bool) -> Result<Scenario, BadInput> {
    let sources = sources(paths)?;
    for (name, text) in &sources {
        if manifest::looks_like_scenarios(text) {
            return Err(BadInput(format!(
                "{name}: this is a podcheck scenario list, not Kubernetes manifests: check it with podcheck check --catalogue {name}"
            )));
        }
    }
    let r = manifest::read(&sources).map_err(BadInput)?;
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    for i in &r.ignored {
        eprintln!("ignored: {i}");
    }
    if !r.assumed.is_empty() {
        eprintln!(
            "assumed (say otherwise with annotations {}…; see README):",
            manifest::PREFIX
        );
        for a in &r.assumed {
            eprintln!("  {a}");
        }
    }
    if verbose {
        if r.unused.is_empty() {
            eprintln!("note: every field given is one the model reads");
        } else {
            eprintln!("note: fields accepted but not read by the model:");
            for u in &r.unused {
                eprintln!("  {u}");
            }
        }
    }
    podcheck_properties::check::selected(&r.scenario).map_err(BadInput)?;
    Ok(r.scenario)
}
