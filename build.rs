//! Tells the program which Cargo profile built it, for `podcheck bench`'s line on where its
//! figures come from: the name of the profile's directory under `target/` (`release`, `tests`,
//! `debug`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // OUT_DIR is `<target>/<profile>/build/<package>-<hash>/out`.
    let out = std::env::var("OUT_DIR").unwrap_or_default();
    let profile = std::path::Path::new(&out)
        .ancestors()
        .nth(3)
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("unknown")
        .to_string();
    println!("cargo:rustc-env=PODCHECK_PROFILE={profile}");
}
