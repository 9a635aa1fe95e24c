// `diff --spec <spec> --base main` on a generated repository of 100,000 ~1 KB files (one spec
// governing all of them, a feature branch changing 200 files, 10 more edited in the work tree),
// whole process, against `git status --porcelain` on the same repository: target ≤ 2×.
// Every round runs each command once (round-robin; ratios taken round by round), so a figure and
// its floor share the machine's load. The hash cache is warm (one diff ran before the rounds;
// the cold case is the same plus hashing 210 files).
// Also `affected --base main` (the same two passes of git, no diff) for information.
// NR_BENCH_REPO=<dir> reuses/keeps the repository; NR_BENCH_FILES=<n> changes its size.
// NR_BENCH_RECONCILED=1: every governed file marked reconciled first (a 100,000-file cache, as a
// team that reconciles has it; issue 38's shape) instead of the 210 changed files' memo only.
// NR_BENCH_BASE_CLI=<another build's dist/cli.cjs> times that build's diff in the same rounds.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listRepoFiles, markReconciled } from "../dist/internal.js";
import { fmt, git, pairedRatio, report, roundRobin } from "./lib/measure.mjs";
import { fileText } from "./lib/gen-file-text.mjs";
import { ensureRepo, pathOf, SPEC } from "./lib/gen-repo.mjs";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.cjs");
const N = Number(process.env.NR_BENCH_FILES ?? 100_000);
const ROUNDS = Number(process.env.NR_BENCH_ROUNDS ?? 9);
const keep = process.env.NR_BENCH_REPO;
const root = keep ?? join(mkdtempSync(join(tmpdir(), "nr-bench-diff-")), "repo");
try {
  ensureRepo(root, N);
  git(root, ["checkout", "-q", "feature"]);
  git(root, ["checkout", "-q", "--", "."]);
  git(root, ["clean", "-qfdx", "--", "src"]);
  rmSync(join(root, ".notarai/.cache"), { recursive: true, force: true });
  const reconciled = process.env.NR_BENCH_RECONCILED === "1";
  if (reconciled) await markReconciled(root, { files: listRepoFiles(root).filter((f) => f.startsWith("src/")) });
  for (let i = 0; i < 10; i++) writeFileSync(join(root, pathOf((i * 7919) % N)), `${fileText(i)}edited\n`);
  const diffArgs = [CLI, "diff", "--spec", SPEC, "--base", "main", "--format", "json"];
  const first = JSON.parse(execNode(diffArgs));
  const commands = [
    { label: "git status --porcelain", cmd: "git", args: ["status", "--porcelain"], cwd: root, okStatus: [0] },
    { label: "diff", cmd: process.execPath, args: diffArgs, cwd: root, okStatus: [0] },
    { label: "affected", cmd: process.execPath, args: [CLI, "affected", "--base", "main"], cwd: root, okStatus: [0] },
    { label: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
  ];
  const baseCli = process.env.NR_BENCH_BASE_CLI;
  if (baseCli !== undefined) commands.push({ label: "diff (base)", cmd: process.execPath, args: [baseCli, ...diffArgs.slice(1)], cwd: root, okStatus: [0] });
  const t = roundRobin(commands, { rounds: ROUNDS, warmup: 1 });
  const [status, diff, affected, node, baseDiff] = t;
  console.log(
    `repository: ${N} files, a 200-file branch and 10 files edited${reconciled ? ", every file reconciled before" : ""}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        " ",
      )}; diff lists ${first.result.files.length} files (${(first.result.diff.length / 1e6).toFixed(2)} MB of diff); node -e 0 = ${fmt(node.ms)}; ${ROUNDS} rounds, medians\n`,
  );
  report("diff --spec --base", [
    ["figure (one process)", "time", "floor", "floor time", "× floor (round by round)", "target"],
    ["diff --spec --base main --format json", fmt(diff.ms), "git status --porcelain", fmt(status.ms), `${pairedRatio(diff, status).toFixed(2)}×`, "≤ 2×"],
    ["affected --base main", fmt(affected.ms), "git status --porcelain", fmt(status.ms), `${pairedRatio(affected, status).toFixed(2)}×`, ""],
    ...(baseDiff !== undefined
      ? [[`  diff, ${baseCli}`, fmt(baseDiff.ms), "git status --porcelain", fmt(status.ms), `${pairedRatio(baseDiff, status).toFixed(2)}×`, ""]]
      : []),
  ]);
} finally {
  if (keep === undefined) rmSync(dirname(root), { recursive: true, force: true });
  else git(root, ["checkout", "-q", "--", "."]);
}

function execNode(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`noma-reconcile ${args.slice(1).join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}
