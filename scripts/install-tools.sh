#!/usr/bin/env bash
# Installs every tool Lock Lab's build and tests need, into .tools/ (git-ignored).
# Idempotent: each step is skipped when the right version is already there, so only
# the first run on a fresh machine pays (~5 min, mostly compiling Trunk and wasm-bindgen).
# Nothing is downloaded from GitHub: crates.io, npm, Debian and rustup only (see docs/TOOLCHAIN.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools/bin"

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132.0.0
TERSER_VERSION=5.51.4

log() { printf '[install-tools] %s\n' "$*" >&2; }

# Compiled tools are also kept in a per-machine cache outside the checkout, keyed by version,
# so another clone on the same machine (CI's fresh clone, a second worktree) copies them in
# seconds instead of compiling Trunk again. A fresh machine has no cache and builds them.
cache="${LOCKLAB_TOOL_CACHE:-$HOME/.cache/locklab-tools}"

# from_cache NAME VERSION: copies a cached binary into .tools/bin; true when it did.
from_cache() {
  local src="$cache/$1-$2"
  [ -x "$src" ] || return 1
  cp "$src" "$tools/bin/$1" && log "$1 $2 taken from $cache"
}

# to_cache NAME VERSION: remembers a freshly built binary for the next clone.
to_cache() {
  mkdir -p "$cache" && cp "$tools/bin/$1" "$cache/$1-$2.tmp" && mv "$cache/$1-$2.tmp" "$cache/$1-$2" || true
}

want_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  # The standard library's source: the release wasm rebuilds std lean (scripts/env.sh).
  if [ ! -d "$(rustc --print sysroot)/lib/rustlib/src/rust/library/std" ]; then
    log "adding rust component rust-src"
    rustup component add rust-src || log "rust-src unavailable: the release wasm will be built without the lean flags"
  fi
}

# install_unoptimised ARGS...: `cargo install ARGS` into .tools/, unoptimised and without debug
# info. Trunk and wasm-bindgen are tools, not the product: Trunk only orchestrates (cargo,
# wasm-bindgen and wasm-opt do the work, as programs of their own), and wasm-bindgen at
# opt-level 0 takes ~1 s longer per wasm it processes (0.4 → 1.3 s on the release wasm, 1.5 →
# 3.9 s on a debug test wasm), while compiling them optimised cost far more on a fresh machine:
# Trunk ~10 min of CPU at opt-level 1 against 5.2 at 0; wasm-bindgen-cli 4.0 min of CPU at its
# release profile against 1.5 at 0 (measured 2026-12-07 on 2 cores). The dist/ Trunk builds is
# the same file for file, but for the order in which its minifier declares index.html's inline
# scripts' constants (same code, same length; compared with the opt-level 1 build on 2026-12-07).
install_unoptimised() {
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
    CARGO_PROFILE_RELEASE_DEBUG=0 \
    cargo install "$@" --root "$tools"
}

want_trunk() {
  if [ -x "$tools/bin/trunk" ] && "$tools/bin/trunk" --version | grep -q "$TRUNK_VERSION"; then
    [ -x "$cache/trunk-$TRUNK_VERSION" ] || to_cache trunk "$TRUNK_VERSION"
    return
  fi
  if from_cache trunk "$TRUNK_VERSION"; then return; fi
  # Without its network features (update check, TLS: Trunk.toml sets offline).
  log "building trunk $TRUNK_VERSION (~3 min on 2 cores)"
  install_unoptimised --locked trunk --version "$TRUNK_VERSION" --no-default-features
  to_cache trunk "$TRUNK_VERSION"
}

want_wasm_bindgen() {
  local b all=(wasm-bindgen wasm-bindgen-test-runner wasm2es6js)
  if [ -x "$tools/bin/wasm-bindgen" ] && "$tools/bin/wasm-bindgen" --version | grep -q "$WASM_BINDGEN_VERSION"; then
    for b in "${all[@]}"; do [ -x "$cache/$b-$WASM_BINDGEN_VERSION" ] || to_cache "$b" "$WASM_BINDGEN_VERSION"; done
    return
  fi
  for b in "${all[@]}"; do from_cache "$b" "$WASM_BINDGEN_VERSION" || break; done
  if "$tools/bin/wasm-bindgen" --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION" \
    && [ -x "$tools/bin/wasm-bindgen-test-runner" ]; then return; fi
  log "building wasm-bindgen-cli $WASM_BINDGEN_VERSION (~1 min on 2 cores)"
  # Not --locked: the locked webpki-roots version is missing from the registry mirror.
  install_unoptimised wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  for b in "${all[@]}"; do to_cache "$b" "$WASM_BINDGEN_VERSION"; done
}

want_wasm_opt() {
  if "$tools/binaryen/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then return; fi
  log "installing binaryen $BINARYEN_VERSION (wasm-opt) from npm"
  mkdir -p "$tools/binaryen"
  npm install --silent --no-audit --no-fund --prefix "$tools/binaryen" "binaryen@$BINARYEN_VERSION"
}

# terser minifies the wasm-bindgen JS glue in release builds (scripts/post-build.mjs): Trunk's
# own minifier gives up on ES modules' `export default` and leaves the glue as written.
want_terser() {
  if [ "$(node -p "require('$tools/terser/node_modules/terser/package.json').version" 2>/dev/null)" = "$TERSER_VERSION" ]; then return; fi
  log "installing terser $TERSER_VERSION (the JS glue's minifier) from npm"
  mkdir -p "$tools/terser"
  npm install --silent --no-audit --no-fund --prefix "$tools/terser" "terser@$TERSER_VERSION"
}

# The Debian packages the tests need, in one apt-get call (one `apt-get update`), as root (CI,
# these machines) or through sudo (a developer's account):
#  - chromium + chromium-driver: Playwright's and wasm-bindgen-test's browser (Playwright's
#    own browser download is not reachable from these machines);
#  - firefox-esr: the second engine of the smoke walk (tests/e2e/firefox-smoke.mjs, driven by
#    puppeteer-core over WebDriver BiDi);
#  - the real servers of the fidelity suite (real/, locklab-real): redis-server, postgresql,
#    etcd-server, and zookeeper with default-jre-headless (`servers` installs only these).
want_debian_packages() {
  local need=()
  if [ "${1:-}" != servers ]; then
    [ -x /usr/bin/chromium ] || need+=(chromium)
    [ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
    [ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
  fi
  [ -x /usr/bin/redis-server ] || need+=(redis-server)
  [ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql)
  [ -x /usr/bin/etcd ] || need+=(etcd-server)
  [ -f /usr/share/java/zookeeper.jar ] || need+=(zookeeper)
  [ -x /usr/bin/java ] || need+=(default-jre-headless)
  [ "${#need[@]}" -gt 0 ] || return 0
  log "installing Debian ${need[*]}"
  local as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # A package that installed without its program must not pass for installed.
  local p
  for p in /usr/bin/redis-server /usr/lib/postgresql/15/bin/postgres /usr/lib/postgresql/15/bin/initdb /usr/bin/etcd /usr/share/java/zookeeper.jar /usr/bin/java; do
    [ -e "$p" ] || { log "$p is missing after apt-get install"; return 1; }
  done
}

want_e2e_packages() {
  local e2e="$root/tests/e2e"
  # Reinstall when the lockfile pins another version than the one installed, of any package.
  if node -e "
    const lock = require('$e2e/package-lock.json').packages;
    const stale = ['@playwright/test', '@axe-core/playwright', 'axe-core', 'puppeteer-core'].filter((p) => {
      try { return require('$e2e/node_modules/' + p + '/package.json').version !== lock['node_modules/' + p].version; }
      catch { return true; }
    });
    process.exit(stale.length ? 1 : 0);"; then return; fi
  log "installing the e2e packages: Playwright test runner, axe-core, puppeteer-core (no browser download)"
  (cd "$e2e" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 npm ci --silent --no-audit --no-fund)
}

build_tools() { want_wasm_target; want_wasm_opt; want_terser; want_wasm_bindgen; want_trunk; }

case "${1:-all}" in
  build) build_tools ;;
  all)
    # On a fresh machine the browsers' download (~150 MB) and cargo compiling Trunk and
    # wasm-bindgen (~7 min of CPU) do not wait for each other: apt runs alongside.
    want_debian_packages &
    apt_job=$!
    build_tools
    want_e2e_packages
    wait "$apt_job" || { log "installing the Debian packages failed"; exit 1; }
    ;;
  servers) want_debian_packages servers ;;
  *) log "usage: install-tools.sh [build|all|servers]"; exit 2 ;;
esac
