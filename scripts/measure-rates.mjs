#!/usr/bin/env node
// Issue 37, item 3: the rates the docs quote (docs/CLI.md "locklab rate"), as `locklab rate
// --json` prints them: the Jepsen-style etcd run (2 s leases, a pause every 5 s) fencing off and
// on, its rate against the TTL, and Redis's against the p99 of its clients' GC pauses; and how
// long 1,000 runs take on one thread and on every core. The rates are the code's (the same on
// any machine and thread count); the times are this machine's.
//
//   node scripts/measure-rates.mjs [--record]   # --record: docs/measured/rates.json
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordMeasured, recording, round } from './bench/measured.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
execFileSync('cargo', ['build', '--quiet', '--bin', 'locklab'], { cwd: root, stdio: 'inherit' });
const locklab = (...args) => execFileSync(path.join(root, 'target/debug/locklab'), args, { cwd: root, encoding: 'utf8' });
const JEPSEN = 'tests/scenarios/jepsen-etcd-pauses.json';
const GC = 'tests/scenarios/redis-gc-pauses.json';

/** A proportion's cell as the pages print it: percentages to 0.1. */
const cell = (c) => ({ hits: c.hits, percent: round(c.rate * 100, 1), low: round(c.interval_95[0] * 100, 1), high: round(c.interval_95[1] * 100, 1) });
const row = (r) => ({ runs: r.runs, lost_updates: cell(r.lost_updates), two_believers: cell(r.two_believers) });
const rate = (...args) => JSON.parse(locklab('rate', ...args, '--json'));
/** A sweep's rows keyed by the setting's value. */
const sweep = (...args) => Object.fromEntries(rate(...args).rows.map((r) => [String(r.value), row(r)]));

const timed = (threads) => {
  const start = process.hrtime.bigint();
  locklab('rate', JEPSEN, '--runs', '1000', '--threads', String(threads));
  return round(Number(process.hrtime.bigint() - start) / 1e9, 2);
};

const figures = {
  jepsen: row(rate(JEPSEN, '--runs', '1000').rows[0]),
  jepsen_fencing_on: row(rate(JEPSEN, '--runs', '1000', '--fencing', 'on').rows[0]),
  jepsen_by_ttl_ms: sweep(JEPSEN, '--runs', '1000', '--sweep', 'ttl_ms=2000..10000', '--steps', '5'),
  redis_gc_by_pause_p99_ms: sweep(GC, '--runs', '1000', '--sweep', 'pause_p99_ms=1000..20000', '--steps', '5'),
  jepsen_1000_runs_s: { one_thread: timed(1), every_core: timed(Number(execFileSync('nproc', { encoding: 'utf8' }).trim())) },
};

console.log(JSON.stringify(figures, null, 2));
if (recording) recordMeasured('rates', figures);
