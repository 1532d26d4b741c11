//! The embeds' player (`ui::player`): Trunk builds this binary for wasm32 beside the app, and
//! an embed's page starts it instead of the app (docs/EMBED.md). Natively it is an empty
//! program, as `src/main.rs` is.

#[cfg(target_arch = "wasm32")]
fn main() {
    locklab::ui::player::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
