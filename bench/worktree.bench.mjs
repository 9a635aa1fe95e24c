// A run's own worktree (src/runs/run-worktree.ts) and `runs prune` (src/runs/prune-runs.ts):
// (a) what a new run pays for its worktree on a repository of 100,000 files (with the user's
//     hash cache of them) — the plan, the ignored-directory check, `git worktree add` with
//     hooks off, the cache copied in — against `git worktree add -b BRANCH DIR HEAD` alone on
//     the same repository; target ≤ 1.2×. Pairs alternate which goes first, so both share this
//     machine's load; the figures are medians over the pairs. Removal is not timed.
// (b) `runs prune` over 1,000 runs (8 steps each, their run directories; 50 of them with a real
//     worktree and branch) — `--dry-run`, then the prune that removes all but the newest 20 —
//     beside `node -e 0`, and the prune beside `rm -rf` of a copy of the same run directories (what
//     deleting their files costs this disk).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { assertWorktreeIgnored, createWorktree, normaTransaction, planWorktree } from "../dist/internal.js";
import { ensureRepo } from "./lib/gen-repo.mjs";
import { fmt, git, nodeFloor, ratio, report, timeCommand } from "./lib/measure.mjs";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.cjs");
const N = Number(process.env.NR_BENCH_FILES ?? 100_000);
const PAIRS = Number(process.env.BENCH_WORKTREE_PAIRS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

// (a)
const keep = process.env.NR_BENCH_REPO;
const root = keep ?? join(mkdtempSync(join(tmpdir(), "nr-bench-worktree-")), "repo");
const ours = [];
const alone = [];
let cacheKb = 0;
try {
  ensureRepo(root, N);
  git(root, ["checkout", "-q", "main"]);
  mkdirSync(join(root, ".norma"), { recursive: true });
  writeFileSync(join(root, ".norma/.gitignore"), "*\n");
  // The user's hash cache of every file (what a run copies into its worktree).
  execFileSync(process.execPath, [CLI, "mark-reconciled", "--all"], { cwd: root, stdio: "ignore" });
  cacheKb = Math.round(
    Number(
      execFileSync("du", ["-k", join(root, ".notarai/.cache/notarai.db")])
        .toString()
        .split("\t")[0],
    ),
  );
  const head = git(root, ["rev-parse", "HEAD"]).trim();
  const runOnce = (i) => {
    const t0 = now();
    const wt = planWorktree(root, `20260101-000000-${String(i).padStart(6, "0")}`, ".norma/worktrees", head);
    assertWorktreeIgnored(root, wt);
    createWorktree(root, wt);
    return { ms: now() - t0, dir: join(root, wt.dir), branch: wt.branch };
  };
  const gitOnce = (i) => {
    const dir = join(root, ".norma/plain", String(i));
    const branch = `plain/${i}`;
    const t0 = now();
    git(root, ["worktree", "add", "--quiet", "-b", branch, "--", dir, "HEAD"]);
    return { ms: now() - t0, dir, branch };
  };
  const drop = (w) => {
    git(root, ["worktree", "remove", "--force", "--force", "--", w.dir]);
    git(root, ["branch", "-D", "-q", w.branch]);
  };
  drop(runOnce(999_999)); // warm: the page cache, the modules
  for (let i = 0; i < PAIRS; i++) {
    const pair = i % 2 === 0 ? [runOnce(i), gitOnce(i)] : [gitOnce(i), runOnce(i)].reverse();
    ours.push(pair[0].ms);
    alone.push(pair[1].ms);
    for (const w of pair) drop(w);
  }
} finally {
  if (keep === undefined) rmSync(dirname(root), { recursive: true, force: true });
}
const oursMs = median(ours);
const aloneMs = median(alone);
const pairRatios = ours.map((o, i) => o / alone[i]);

// (b)
const RUNS = 1000;
const WITH_WORKTREE = 50;
const STEPS = 8;
const big = mkdtempSync(join(tmpdir(), "nr-bench-prune-"));
const fixture = () => {
  rmSync(big, { recursive: true, force: true });
  mkdirSync(big, { recursive: true });
  git(big, ["init", "-q", "-b", "main"]);
  for (let i = 0; i < 10; i++) writeFileSync(join(big, `f${i}.txt`), `file ${i}\n`);
  mkdirSync(join(big, ".norma"), { recursive: true });
  writeFileSync(join(big, ".norma/.gitignore"), "*\n");
  git(big, ["add", "-A"]);
  git(big, ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "base"]);
  return git(big, ["rev-parse", "HEAD"]).trim();
};
const roles = ["plan", "do", "check", "act"];
const build = async () => {
  const base = fixture();
  const ids = [];
  await normaTransaction(big, (tx) => {
    for (let r = 0; r < RUNS; r++) {
      const t = new Date(Date.UTC(2025, 0, 1) + r * 3_600_000).toISOString();
      const id = `${t.slice(0, 10).replace(/-/g, "")}-${t.slice(11, 19).replace(/:/g, "")}-${r.toString(16).padStart(6, "0")}`;
      ids.push(id);
      const dir = `.norma/runs/${id}`;
      tx.insertRun({
        run_id: id,
        created_at: t,
        goal: "bench",
        status: r % 3 === 0 ? "stopped" : "passed",
        iteration: 2,
        current_step_index: STEPS,
        verdict: "PASS",
        run_dir: dir,
      });
      if (r < WITH_WORKTREE) tx.setKv(id, "worktree", { dir: `.norma/worktrees/${id}`, branch: `noma-reconcile/run/${id}`, base, ready: true });
      for (let s = 1; s <= STEPS; s++) {
        const stepDir = `${dir}/steps/${String(s).padStart(3, "0")}-${roles[(s - 1) % 4]}`;
        tx.insertStep({
          run_id: id,
          step_index: s,
          role: roles[(s - 1) % 4],
          iteration: 1,
          status: "ok",
          step_dir: stepDir,
          started_at: t,
          ended_at: t,
          summary: "done",
        });
        mkdirSync(join(big, stepDir), { recursive: true });
        writeFileSync(join(big, stepDir, "output.json"), "{}\n");
      }
      for (let e = 0; e < 20; e++) tx.event(id, "step_committed", `step ${e} committed: ok`, { step_index: e }, t);
    }
  });
  for (const id of ids.slice(0, WITH_WORKTREE))
    git(big, ["worktree", "add", "--quiet", "-b", `noma-reconcile/run/${id}`, "--", `.norma/worktrees/${id}`, base]);
};
await build();
const dry = timeCommand(process.execPath, [CLI, "runs", "prune", "--keep-last", "20", "--keep-days", "0", "--dry-run"], { cwd: big, runs: 5 });
const pruneMs = [];
const rmMs = [];
const floorDir = mkdtempSync(join(tmpdir(), "nr-bench-rm-"));
for (let i = 0; i < 3; i++) {
  if (i > 0) await build();
  // The floor of removing the run directories: `rm -rf` of a copy of them (the copy not timed).
  execFileSync("cp", ["-a", join(big, ".norma/runs"), join(floorDir, "runs")]);
  const r0 = now();
  execFileSync("rm", ["-rf", join(floorDir, "runs")]);
  rmMs.push(now() - r0);
  const t0 = now();
  const out = execFileSync(process.execPath, [CLI, "runs", "prune", "--keep-last", "20", "--keep-days", "0", "--format", "json"], { cwd: big }).toString();
  pruneMs.push(now() - t0);
  const removed = JSON.parse(out).result.removed;
  if (removed !== RUNS - 20) throw new Error(`runs prune removed ${removed} runs, not ${RUNS - 20}`);
}
const floor = nodeFloor(9);
rmSync(big, { recursive: true, force: true });
rmSync(floorDir, { recursive: true, force: true });
const prune = median(pruneMs);
const rmFloor = median(rmMs);

report(`a run's worktree (${N.toLocaleString("en")} files, ${cacheKb} KB hash cache; ${PAIRS} pairs) and runs prune (${RUNS} runs)`, [
  ["figure", "time", "floor", "floor time", "× floor", "target"],
  [
    "(a) a run's worktree: plan, ignore check, worktree add, cache copy",
    fmt(oursMs),
    "git worktree add -b alone",
    fmt(aloneMs),
    ratio(oursMs, aloneMs),
    "≤ 1.20×",
  ],
  ["(a) ratio per pair (min–max)", `${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}×`, "", "", "", ""],
  [`(b) runs prune --dry-run (${RUNS} runs, ${WITH_WORKTREE} worktrees)`, fmt(dry), "node -e 0", fmt(floor), ratio(dry, floor), "report"],
  [
    `(b) runs prune --keep-last 20 (removes ${RUNS - 20} runs, ${WITH_WORKTREE} worktrees and branches)`,
    fmt(prune),
    "node -e 0",
    fmt(floor),
    ratio(prune, floor),
    "report",
  ],
  [
    `(b) the same prune against removing its run directories`,
    fmt(prune),
    `rm -rf of a copy of the ${RUNS} run directories`,
    fmt(rmFloor),
    ratio(prune, rmFloor),
    "report",
  ],
  ["(b) per run removed", fmt(prune / (RUNS - 20)), "", "", "", ""],
]);
