//! `cargo xtask serve | test`: install what is missing, then build/serve or run every test.
fn main() -> anyhow::Result<()> {
    anyhow::bail!("xtask is not built yet")
}
