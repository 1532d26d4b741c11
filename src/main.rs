//! Browser entry: Trunk builds this binary for wasm32 and it mounts the app. Natively it is
//! an empty program, so `cargo build` and `cargo test` work without a browser toolchain.

#[cfg(target_arch = "wasm32")]
fn main() {
    locklab::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
