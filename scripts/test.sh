#!/usr/bin/env bash
# Runs every Lock Lab test, from a fresh machine of this kind on up:
#   tools (install-tools.sh all) → cargo fmt --check → cargo clippy -D warnings (native and
#   wasm32) → native cargo test → wasm-bindgen-test in
#   headless Chromium → trunk build --release → each wasm's size against its ceiling
#   (bench-bundle.sh --check) → Playwright against the release build → a smoke
#   walk in Firefox ESR (puppeteer-core) against the same build → the fidelity suite on real
#   Redis, PostgreSQL, etcd and ZooKeeper (real/, locklab-real).
# Each suite runs even when an earlier one failed (except what needs the release build).
# The last line counts suites: "N passed, N failed".
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh

passed=0
failed=0
skipped=0
summary=()
# The keys of suites that failed, for why_failed.
failures=()
# Each suite's key and seconds, for target/test-times.json (see finish).
times=()
started=$SECONDS

section() { printf '\n==================== %s ====================\n' "$*"; }

# suite KEY NAME COMMAND...: runs one suite under a header and records its outcome and time
# (KEY names it in target/test-times.json).
# Each suite's output is also kept in target/suite-logs/KEY.log, so that a failure's own lines
# (which test, which assertion) can be repeated at the very end (see why_failed): CI's record
# keeps only the last lines of a run, and a bare "FAIL end-to-end tests" there named nothing.
suite() {
  local key=$1 name=$2 t0=$SECONDS log="target/suite-logs/$1.log"
  shift 2
  section "$name"
  mkdir -p target/suite-logs
  if "$@" > >(tee "$log") 2>&1; then
    wait $!
    passed=$((passed + 1))
    summary+=("PASS  $name ($((SECONDS - t0)) s)")
    times+=("\"$key\": $((SECONDS - t0))")
    return 0
  else
    wait $!
    failed=$((failed + 1))
    summary+=("FAIL  $name ($((SECONDS - t0)) s)")
    failures+=("$key")
    return 1
  fi
}
# Playwright's tests that failed once and passed on their retry (playwright.config.ts): named
# at the end so they get fixed, not forgotten.
flaky_tests() {
  local log=target/suite-logs/playwright_s.log
  [ -f "$log" ] && grep -q -E '^ +[0-9]+ flaky' "$log" || return 0
  echo "flaky in Playwright (failed once, passed on retry; fix them, see docs/TESTING.md):"
  sed -e 's/\x1b\[[0-9;]*m//g' "$log" | awk '/^ +[0-9]+ flaky/{f=1; next} /^ +[0-9]+ (passed|failed|skipped)/{f=0} f' \
    | head -n 6 | sed 's/^/  /'
}
# The lines of a failed suite's log that say what failed: Playwright's ✘ lines and its closing
# list, cargo's failing test names and panics, compiler errors. At most 8 per suite, without
# terminal colours.
why_failed() {
  local key
  for key in "${failures[@]}"; do
    echo "why $key failed (target/suite-logs/$key.log):"
    sed -e 's/\x1b\[[0-9;]*m//g' "target/suite-logs/$key.log" \
      | grep -E '›|^---- |panicked at|^error(\[|:)|FAILED|FAIL |Error:|not ok' \
      | grep -v -E '✓|^test result: ok|^\s+at ' | awk '!seen[$0]++' | tail -n 8 | sed 's/^/  /'
  done
}
skip() {
  section "$1"
  echo "skipped: $2"
  skipped=$((skipped + 1))
  summary+=("SKIP  $1 ($2)")
}
fail_unrun() {
  section "$1"
  echo "not run: $2"
  failed=$((failed + 1))
  summary+=("FAIL  $1 (not run: $2)")
}
# The run's figures as data: target/test-times.json (git-ignored), which docs/TESTING.md's
# figures are copied from (`cp target/test-times.json docs/measured/ci.json` after a fresh
# clone's run; tests/docs_links.rs holds the page to the file). Suites that failed have no time.
write_times() {
  mkdir -p target
  local figures="\"total_s\": $((SECONDS - started))" t
  for t in "${times[@]}"; do figures+=", $t"; done
  printf '{\n  "measured_on": "%s",\n  "commit": "%s",\n  "machine": "%s cores",\n  "passed": %d,\n  "failed": %d,\n  "figures": {%s}\n}\n' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$(nproc)" \
    "$passed" "$failed" "$figures" >target/test-times.json
}
finish() {
  write_times
  section "summary ($((SECONDS - started)) s)"
  printf '%s\n' "${summary[@]}"
  local line="$passed passed, $failed failed"
  [ "$skipped" -gt 0 ] && line+=", $skipped skipped"
  echo
  echo "$line"
  why_failed
  flaky_tests
  [ "$failed" -eq 0 ]
  exit
}

install_tools() { bash scripts/install-tools.sh all && fetch_crates; }
# The room's server (room/, `locklab room`) is a workspace member of its own: its protocol tests
# and its quick load test (500 phones on loopback, a few seconds) run here too, on the test
# profile's build of its crates that the CLI's tests have just made.
native_tests() { cargo test --all-targets && cargo test -p locklab-room; }
# Every tests/web*.rs is a browser test target (the others are native-only).
web_targets=()
for f in tests/web*.rs; do [ -f "$f" ] && web_targets+=(--test "$(basename "$f" .rs)"); done
# The wasm tests are built unoptimised and without debug info: Cargo.toml's test profile
# (opt-level 2) is there for the native property suite, and in wasm it only made the compile
# several times slower (300-700 s) for tests that run in seconds either way.
wasm_tests() {
  CARGO_PROFILE_TEST_OPT_LEVEL=0 CARGO_PROFILE_TEST_DEBUG=0 \
    CHROMEDRIVER=/usr/bin/chromedriver \
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --target wasm32-unknown-unknown "${web_targets[@]}"
}
# Lint, every warning an error: natively the whole workspace and every target; in wasm32 what
# only builds there (the UI in the lib and bins, the browser tests tests/web*.rs; the native
# test files need rayon and the CLI's crates, which the wasm build does not have).
clippy_native() { cargo clippy --workspace --all-targets -- -D warnings; }
clippy_wasm() { cargo clippy -p locklab --target wasm32-unknown-unknown --lib --bins "${web_targets[@]}" -- -D warnings; }
lint() { clippy_native && clippy_wasm; }
release_dist() { rm -rf dist && release_build && ls -l dist; }
e2e_tests() { (cd tests/e2e && ./node_modules/.bin/playwright test); }
firefox_smoke() { node tests/e2e/firefox-smoke.mjs; }
# The model against real servers (real/cases/suite.txt): the servers come from apt (a package
# that fails to install fails this suite), the harness's own tests run first, then every case
# with fencing off and on. The measured table goes to target/fidelity/ (docs/FIDELITY.md is a
# copy a person commits). The harness's tests build in the dev profile, the one its binary is
# built in: in the test profile (opt-level 2, for the native property suite) its tokio, postgres
# and redis crates compiled a second time, optimised, for 13 tests that run in 0.1 s (about
# 200 s of the suite's 305 s on 2 cores, 2026-12-07).
fidelity_suite() {
  bash scripts/install-tools.sh servers \
    && cargo test -p locklab-real --profile dev \
    && cargo build -p locklab-real \
    && mkdir -p target/fidelity \
    && target/debug/locklab-real suite real/cases/suite.txt --markdown target/fidelity/FIDELITY.md
}

if ! suite install_s "install tools (.tools/, apt chromium firefox-esr redis-server postgresql etcd-server zookeeper, npm ci)" install_tools; then
  echo "Cannot test without the tools; stopping here."
  finish
fi
suite fmt_s "cargo fmt --check" cargo fmt --all -- --check
suite clippy_s "cargo clippy -D warnings (native --workspace --all-targets, wasm32 lib, bins and tests/web*.rs)" lint
suite native_s "native tests (cargo test --all-targets)" native_tests
if [ "${#web_targets[@]}" -gt 0 ]; then
  suite wasm_s "component tests in headless Chromium (wasm-bindgen-test)" wasm_tests
else
  skip "component tests in headless Chromium (wasm-bindgen-test)" "no tests/web*.rs yet"
fi
if suite release_s "release build (trunk build --release, lean wasm)" release_dist; then
  # Each wasm's size against its ceiling (issue 38: the embeds' player), on the build just made.
  suite bundle_s "bundle budgets (scripts/bench-bundle.sh --check: each wasm raw, gzip, brotli)" bash scripts/bench-bundle.sh --check
  suite playwright_s "end-to-end tests (Playwright, release build, Chromium)" e2e_tests
  suite firefox_s "smoke walk in Firefox ESR (puppeteer-core, release build)" firefox_smoke
else
  fail_unrun "bundle budgets (scripts/bench-bundle.sh --check: each wasm raw, gzip, brotli)" "the release build failed"
  fail_unrun "end-to-end tests (Playwright, release build, Chromium)" "the release build failed"
  fail_unrun "smoke walk in Firefox ESR (puppeteer-core, release build)" "the release build failed"
fi
suite fidelity_s "fidelity suite (real Redis, PostgreSQL, etcd and ZooKeeper against the model)" fidelity_suite
finish
