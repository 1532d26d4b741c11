# Sourced by the other scripts: puts the project's own tools (.tools/, see install-tools.sh)
# first on PATH, so Trunk finds wasm-bindgen 0.2.130 and wasm-opt (binaryen 132) there and
# never tries to download them.
root="${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export PATH="$root/.tools/bin:$root/.tools/binaryen/node_modules/.bin:$PATH"
# Trunk.toml builds with `offline = true` (cargo --offline): fetch the crates first.
fetch_crates() { (cd "$root" && cargo fetch --quiet); }

# The release wasm, built lean: the standard library is rebuilt with the app (cargo's
# build-std) so that a panic aborts on the spot (-Cpanic=immediate-abort: no panic messages,
# no formatting machinery kept for them), file/line strings and Debug formatting are left
# out. -20 KB of the gzip transfer size (issue 4's 170 KB budget). These flags are
# unstable rustc options; RUSTC_BOOTSTRAP=1 lets the machine's stable 1.95 accept them for
# this one build only (tests and native builds never see them). The probe falls back to the
# plain release build when the compiler or its `rust-src` component does not take them, so
# the app still builds, only larger.
LEAN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none"
lean_wasm_env() {
  local sysroot
  sysroot="$(rustc --print sysroot)"
  # Trunk builds offline, so the standard library's own dependencies (dlmalloc, compiler
  # builtins...) are fetched first, like the app's (fetch_crates).
  if [ -d "$sysroot/lib/rustlib/src/rust/library/std" ] \
    && RUSTC_BOOTSTRAP=1 rustc $LEAN_RUSTFLAGS --target wasm32-unknown-unknown --print cfg >/dev/null 2>&1 \
    && RUSTC_BOOTSTRAP=1 cargo fetch --quiet --manifest-path "$sysroot/lib/rustlib/src/rust/library/Cargo.toml"; then
    export RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD="std,panic_abort"
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$LEAN_RUSTFLAGS"
  else
    echo "[lean wasm] rust-src or the unstable size flags are unavailable: plain release build (larger)" >&2
  fi
}
# trunk build --release with the lean flags, in a subshell so they reach nothing else.
release_build() { (lean_wasm_env && trunk build --release "$@"); }
# The bare-Yew floor page (scripts/bench/floor/, a counter) built exactly like the app, into
# target/floor-dist/: the like-for-like reference of bench-bundle.sh --floor and bench-load.sh.
floor_build() { (cd "$root/scripts/bench/floor" && CARGO_TARGET_DIR="$root/target/floor" release_build "$@"); }
