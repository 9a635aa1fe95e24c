// Cold hashing of a 20,000-file tree (~1 KB files under nested directories, the generated
// repository of the reconciliation benches at 20k files): what `changed` does when nothing is
// cached — every file read, its BLAKE3 digest and its git blob id computed (currentHashes with
// empty caches) — against the floors measured in the same rounds:
//   `b3sum --num-threads 1` over the same files (one process fed by xargs)   target: ≤ 1.5×
//   reading the bytes (readFileSync of every file, in-process)              (information)
// Every round runs each figure once (round-robin; ratios taken round by round), so a figure and
// its floor share the machine's load. The files are in the page cache (a warm-up round reads them):
// "cold" is the cache of hashes, not the disk.
// Then the same as a new user meets it, whole process (issue 38): `noma-reconcile changed --spec` with no
// cache (node's start, git's listing, every file read and hashed, the memo written to the cache DB)
// against `xargs -0 b3sum --num-threads 1` over the same files, round-robin (target ≤ 1.5×).
// b3sum is the Debian package `b3sum` (`apt-get install b3sum`); without it its rows print n/a.
// NR_BENCH_REPO=<dir> reuses/keeps the repository; NR_BENCH_HASH_FILES=<n> changes its size.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { currentHashes, listRepoFiles, readWorktreeStatus } from "../dist/internal.js";
import { fmt, pairedRatio, report, roundRobin } from "./lib/measure.mjs";
import { ensureRepo, SPEC } from "./lib/gen-repo.mjs";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.cjs");
const BASE_CLI = process.env.NR_BENCH_BASE_CLI;

const N = Number(process.env.NR_BENCH_HASH_FILES ?? 20_000);
const ROUNDS = Number(process.env.NR_BENCH_ROUNDS ?? 9);
const keep = process.env.NR_BENCH_REPO;
const root = keep ?? join(mkdtempSync(join(tmpdir(), "nr-bench-hashing-")), "repo");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

try {
  ensureRepo(root, N);
  const files = listRepoFiles(root).filter((f) => f.startsWith("src/"));
  const bytes = files.reduce((n, f) => n + readFileSync(join(root, f)).length, 0);
  const st = readWorktreeStatus(root);
  const list = Buffer.from(files.map((f) => `${f}\0`).join(""));
  const hasB3sum = spawnSync("b3sum", ["--num-threads", "1", "--no-names"], { input: "" }).status === 0;
  if (!hasB3sum) process.stderr.write("b3sum not found on PATH (apt-get install b3sum): its rows print n/a\n");

  const ours = [];
  const b3 = [];
  const read = [];
  let hashed = 0;
  for (let r = 0; r < ROUNDS + 1; r++) {
    globalThis.gc?.();
    let t0 = process.hrtime.bigint();
    const got = await currentHashes(root, files, st, { blobHashes: new Map(), statHashes: new Map() });
    const a = ms(t0);
    hashed = got.filesRead;
    let b = NaN;
    if (hasB3sum) {
      t0 = process.hrtime.bigint();
      const res = spawnSync("xargs", ["-0", "b3sum", "--num-threads", "1"], { cwd: root, input: list, stdio: ["pipe", "ignore", "pipe"], maxBuffer: 1 << 28 });
      b = ms(t0);
      if (res.status !== 0) throw new Error(`b3sum: exit ${res.status}: ${String(res.stderr).slice(0, 300)}`);
    }
    globalThis.gc?.();
    t0 = process.hrtime.bigint();
    for (const f of files) readFileSync(join(root, f));
    const c = ms(t0);
    if (r === 0) continue; // warm-up: page cache, code
    ours.push(a);
    b3.push(b);
    read.push(c);
  }
  const byRound = (xs, ys) => median(xs.map((x, i) => x / ys[i]));
  console.log(`tree: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${hashed} files read and hashed per run; ${ROUNDS} rounds, medians\n`);
  report("cold hashing (read + BLAKE3 + git blob id, nothing cached)", [
    ["figure", "time", "floor", "floor time", "× floor (round by round)", "target"],
    [
      "currentHashes, empty caches",
      fmt(median(ours)),
      "b3sum --num-threads 1",
      hasB3sum ? fmt(median(b3)) : "n/a",
      hasB3sum ? `${byRound(ours, b3).toFixed(2)}×` : "",
      "≤ 1.5×",
    ],
    ["", "", "reading the bytes", fmt(median(read)), `${byRound(ours, read).toFixed(2)}×`, ""],
  ]);

  // Whole process: a cold `changed` (the cache removed before each run, not timed) against b3sum, in the same rounds.
  const cache = join(root, ".notarai/.cache");
  const cold = (cli) => ({
    label: "cold changed",
    cmd: process.execPath,
    args: [cli, "changed", "--spec", SPEC],
    cwd: root,
    okStatus: [0],
    before: () => rmSync(cache, { recursive: true, force: true }),
  });
  const commands = [cold(CLI)];
  if (hasB3sum) commands.push({ label: "b3sum", cmd: "xargs", args: ["-0", "b3sum", "--num-threads", "1"], cwd: root, input: list, okStatus: [0] });
  commands.push({ label: "node -e 0", cmd: process.execPath, args: ["-e", "0"] });
  if (BASE_CLI !== undefined) commands.push(cold(BASE_CLI));
  const t = roundRobin(commands, { rounds: Math.max(5, Math.ceil(ROUNDS / 2)), warmup: 1 });
  const whole = t[0];
  const b3w = hasB3sum ? t[1] : null;
  const nodeW = t[hasB3sum ? 2 : 1];
  const baseW = BASE_CLI !== undefined ? t[t.length - 1] : null;
  const rows = [
    ["figure (one process each)", "time", "floor", "floor time", "× floor (round by round)", "target"],
    [
      "cold `changed --spec` (hash all, write the memo)",
      fmt(whole.ms),
      "xargs -0 b3sum --num-threads 1",
      b3w === null ? "n/a" : fmt(b3w.ms),
      b3w === null ? "" : `${pairedRatio(whole, b3w).toFixed(2)}×`,
      "≤ 1.5×",
    ],
    ["", "", "node -e 0", fmt(nodeW.ms), `${pairedRatio(whole, nodeW).toFixed(2)}×`, ""],
  ];
  if (baseW !== null)
    rows.push([
      `  the same, ${BASE_CLI}`,
      fmt(baseW.ms),
      "xargs -0 b3sum --num-threads 1",
      b3w === null ? "n/a" : fmt(b3w.ms),
      b3w === null ? "" : `${pairedRatio(baseW, b3w).toFixed(2)}×`,
      "",
    ]);
  console.log(
    `\nload average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} at the end`,
  );
  report("cold hashing, whole process", rows);
  rmSync(cache, { recursive: true, force: true });
} finally {
  if (keep === undefined) rmSync(dirname(root), { recursive: true, force: true });
}
