//! Reading pinned versions out of `Cargo.lock`, so a tool is installed at exactly the version of
//! the library it must match (wasm-bindgen-cli refuses to process a module made by another
//! wasm-bindgen version).

use std::fmt;

/// Why a version could not be read from the lock file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockError {
    /// No `[[package]]` of that name.
    Missing { package: String },
    /// Several versions are locked, so the one to match is ambiguous.
    Ambiguous {
        package: String,
        versions: Vec<String>,
    },
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { package } => write!(f, "Cargo.lock has no package `{package}`"),
            Self::Ambiguous { package, versions } => write!(
                f,
                "Cargo.lock holds several versions of `{package}` ({}); pin one in Cargo.toml",
                versions.join(", ")
            ),
        }
    }
}

impl std::error::Error for LockError {}

/// The single version of `package` recorded in the text of a `Cargo.lock`.
pub fn locked_version(lock: &str, package: &str) -> Result<String, LockError> {
    let mut versions = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            block.lines().find_map(|line| {
                let (k, v) = line.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_owned())
            })
        };
        if field("name").as_deref() == Some(package)
            && let Some(version) = field("version")
        {
            versions.push(version);
        }
    }
    match versions.len() {
        0 => Err(LockError::Missing {
            package: package.to_owned(),
        }),
        1 => Ok(versions.remove(0)),
        _ => Err(LockError::Ambiguous {
            package: package.to_owned(),
            versions,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "wasm-bindgen-macro",
]

[[package]]
name = "wasm-bindgen-macro"
version = "0.2.131"

[[package]]
name = "syn"
version = "1.0.109"

[[package]]
name = "syn"
version = "2.0.100"
"#;

    #[test]
    fn finds_the_exact_package_not_a_prefix() {
        assert_eq!(locked_version(LOCK, "wasm-bindgen"), Ok("0.2.130".into()));
        assert_eq!(
            locked_version(LOCK, "wasm-bindgen-macro"),
            Ok("0.2.131".into())
        );
    }

    #[test]
    fn reports_missing_and_ambiguous_packages() {
        assert_eq!(
            locked_version(LOCK, "trunk"),
            Err(LockError::Missing {
                package: "trunk".into()
            })
        );
        assert_eq!(
            locked_version(LOCK, "syn"),
            Err(LockError::Ambiguous {
                package: "syn".into(),
                versions: vec!["1.0.109".into(), "2.0.100".into()]
            })
        );
    }

    #[test]
    fn reads_the_real_lock_file() {
        let lock = include_str!("../../Cargo.lock");
        let version = locked_version(lock, "wasm-bindgen").expect("wasm-bindgen is locked");
        assert!(version.starts_with("0.2."), "{version}");
    }
}

#[cfg(test)]
mod trunk_config {
    use super::*;

    /// trunk runs offline, so it must be told exactly the wasm-bindgen version xtask installs.
    #[test]
    fn trunk_pins_the_locked_wasm_bindgen() {
        let trunk = include_str!("../../Trunk.toml");
        let pinned = trunk
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("wasm_bindgen")
                    .map(|rest| rest.to_owned())
            })
            .expect("Trunk.toml pins wasm_bindgen");
        let pinned = pinned
            .trim()
            .trim_start_matches('=')
            .trim()
            .trim_matches('"');
        let locked = locked_version(include_str!("../../Cargo.lock"), "wasm-bindgen").unwrap();
        assert_eq!(
            pinned, locked,
            "Trunk.toml [tools] wasm_bindgen vs Cargo.lock"
        );
    }
}
