// Shared timing helpers for the benchmarks. Figures are medians of several runs; every
// figure is printed beside a floor measured in the same run, and the ratio between them.
import { execFileSync, spawnSync } from "node:child_process";

function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Median wall time (ms) of `fn` over `runs` runs after `warmup` runs. */
export function time(fn, { runs = 7, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

/**
 * `fn` timed against `node -e 0` in pairs: before each timed run of `fn`, one `node -e 0`.
 * This machine's speed drifts by a third within a minute; a pair is measured within a
 * fraction of a second, so the ratio of a pair holds when the figures alone do not.
 * Returns the median time of `fn`, the median `node -e 0`, and `speedup(refMs)`: the median
 * over pairs of how many times faster `fn` is than a reference that took `refMs` where
 * `node -e 0` took GUIDE_NODE_MS.
 */
export function timePaired(fn, { runs = 9, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const pairs = [];
  for (let i = 0; i < runs; i++) {
    const node = timeCommand(process.execPath, ["-e", "0"], { runs: 1, warmup: 0 });
    pairs.push({ node, ms: time(fn, { runs: 1, warmup: 0 }) });
  }
  return {
    ms: median(pairs.map((p) => p.ms)),
    nodeMs: median(pairs.map((p) => p.node)),
    speedup: (refMs) => median(pairs.map((p) => (refMs * p.node) / GUIDE_NODE_MS / p.ms)),
  };
}

/** Median wall time (ms) of running a command to completion. */
export function timeCommand(cmd, args, { cwd, runs = 7, warmup = 2, input, env } = {}) {
  return time(
    () => {
      const r = spawnSync(cmd, args, { cwd, input, env: env ?? process.env, stdio: ["pipe", "ignore", "ignore"] });
      if (r.error) throw r.error;
    },
    { runs, warmup },
  );
}

/** Time of `node -e 0`: the start-up floor. */
export function nodeFloor(runs = 9) {
  return timeCommand(process.execPath, ["-e", "0"], { runs });
}

export function fmt(ms) {
  return `${ms.toFixed(1)} ms`;
}

/** Print a table of rows: [label, value, floorLabel, floorValue, ratio, target]. */
export function report(title, rows) {
  console.log(title);
  const widths = [0, 0, 0, 0, 0, 0];
  const cells = rows.map((r) => r.map((c) => String(c ?? "")));
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i], c.length)));
  for (const r of cells) console.log(`  ${r.map((c, i) => c.padEnd(widths[i])).join("  ")}`);
}

export function ratio(a, b) {
  return `${(a / b).toFixed(2)}×`;
}

export function git(cwd, args, input) {
  return execFileSync("git", args, { cwd, input, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 30 }).toString();
}

/** `node -e 0` on the machines the performance guide's reference figures were taken on (ms). */
export const GUIDE_NODE_MS = 90;

/**
 * How much slower (> 1) or faster this machine is than the guide's, from `node -e 0` measured
 * now: reference times quoted in the guide are multiplied by it before comparing, so a slow
 * or busy run is not mistaken for a slow implementation (nor a fast machine for a fast one).
 */
export function machineScale(runs = 9) {
  const nodeMs = nodeFloor(runs);
  return { nodeMs, scale: nodeMs / GUIDE_NODE_MS };
}

/**
 * Commands timed round-robin: each round runs every command once (after its optional
 * `before()`, not timed), so a figure and its floor share the machine's load of that moment.
 * Returns, per command, the median wall time and the samples (one per round, in round order),
 * for ratios taken round by round (`pairedRatio`).
 */
export function roundRobin(commands, { rounds = 11, warmup = 2, cpu = false } = {}) {
  const samples = commands.map(() => []);
  const cpuSamples = commands.map(() => []);
  for (let r = 0; r < rounds + warmup; r++) {
    for (let i = 0; i < commands.length; i++) {
      const c = commands[i];
      c.before?.();
      globalThis.gc?.();
      const t0 = process.hrtime.bigint();
      const res = spawnSync(c.cmd, c.args, { cwd: c.cwd, env: c.env ?? process.env, input: c.input, stdio: ["pipe", "ignore", "pipe"], maxBuffer: 1 << 30 });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.error) throw res.error;
      if (c.okStatus !== undefined && !c.okStatus.includes(res.status)) throw new Error(`${c.label}: exit ${res.status}: ${String(res.stderr).slice(0, 500)}`);
      if (r >= warmup) samples[i].push(ms);
      if (cpu) {
        // The same command once more, right after, for its CPU time.
        c.before?.();
        const used = cpuTime(c);
        if (r >= warmup) cpuSamples[i].push(used);
      }
    }
  }
  return samples.map((s, i) => ({ ms: median(s), samples: s, ...(cpu ? { cpu: { ms: median(cpuSamples[i]), samples: cpuSamples[i] } } : {}) }));
}

/**
 * CPU time (user + system, every thread, ms) of running a command to completion: what the
 * kernel accounts to a child (getrusage of the children), read with bash's `times` builtin,
 * which prints it to the millisecond. Node has no call for a child's resource usage.
 */
export function cpuTime(c) {
  const script = '"$@" >/dev/null 2>&1; s=$?; times; exit $s';
  const res = spawnSync("bash", ["-c", script, "bash", c.cmd, ...c.args], { cwd: c.cwd, env: c.env ?? process.env, input: c.input, encoding: "utf8" });
  if (res.error) throw res.error;
  if (c.okStatus !== undefined && !c.okStatus.includes(res.status)) throw new Error(`${c.label}: exit ${res.status}`);
  // Two lines: the shell's own times, then its children's ("0m0.204s 0m0.032s").
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/.exec(res.stdout.trim().split("\n").pop() ?? "");
  if (m === null) throw new Error(`bash times: unexpected output ${JSON.stringify(res.stdout)}`);
  return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
}

/** The median over rounds of a[r] / b[r] (a ratio that holds while the machine's speed drifts). */
export function pairedRatio(a, b) {
  return median(a.samples.map((x, r) => x / b.samples[r]));
}

/** Minimum and maximum of a list. */
export function range(xs) {
  return [Math.min(...xs), Math.max(...xs)];
}
