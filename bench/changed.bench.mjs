// Warm `changed`, whole process, as issue 38 defines it: `noma-reconcile changed --spec <spec>`
// on a generated repository whose governed files (20,000 and 100,000 ~1 KB files, one spec
// governing all) are every one reconciled, 10 of them then edited in the work tree (so the
// answer lists 10 files), against `git status --porcelain` on the same repository in the same
// rounds (round-robin, ratios taken round by round). Targets: ≤ 2× at 20,000 files (where a
// fixed start-up cost weighs most), ≤ 1.5× at 100,000. `node -e 0` is in the rounds too, for
// the start-up share. "Warm" is the state after one `changed` already ran on those edits (its
// memo holds their hashes), as on an agent's second call.
// NR_BENCH_CHANGED_SIZES=20000,100000 (default) picks the sizes; NR_BENCH_REPO_DIR=<dir> keeps
// the repositories (<dir>/r<n>) between runs; NR_BENCH_ROUNDS=<n> (default 11); NR_BENCH_CPU=1 also
// takes each command's CPU time (user + system, git's processes included). NR_BENCH_BASE_CLI=<path
// to another build's dist/cli.cjs> times that build in the same rounds (before/after figures).
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
const SIZES = (process.env.NR_BENCH_CHANGED_SIZES ?? "20000,100000").split(",").map(Number);
const ROUNDS = Number(process.env.NR_BENCH_ROUNDS ?? 11);
const TARGET = (n) => (n >= 100_000 ? 1.5 : 2);
const BASE_CLI = process.env.NR_BENCH_BASE_CLI;
const keep = process.env.NR_BENCH_REPO_DIR;
const base = keep ?? mkdtempSync(join(tmpdir(), "nr-bench-changed-"));

function cli(args, cwd) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`noma-reconcile ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

try {
  const rows = [["figure (one process each)", "time", "floor", "floor time", "× floor (round by round)", "target"]];
  const notes = [];
  for (const n of SIZES) {
    const root = join(base, `r${n}`);
    ensureRepo(root, n);
    git(root, ["checkout", "-q", "feature"]);
    git(root, ["checkout", "-q", "--", "."]);
    git(root, ["clean", "-qfdx", "--", "src"]);
    rmSync(join(root, ".notarai/.cache"), { recursive: true, force: true });
    const files = listRepoFiles(root).filter((f) => f.startsWith("src/"));
    await markReconciled(root, { files });
    for (let i = 0; i < 10; i++) writeFileSync(join(root, pathOf((i * 7919) % n)), `${fileText(i)}edited\n`);
    const listed = cli(["changed", "--spec", SPEC], root).trim().split("\n").length;
    if (listed !== 10) throw new Error(`changed listed ${listed} files, expected the 10 edited`);
    const commands = [
      { label: "git status --porcelain", cmd: "git", args: ["status", "--porcelain"], cwd: root, okStatus: [0] },
      { label: "changed", cmd: process.execPath, args: [CLI, "changed", "--spec", SPEC], cwd: root, okStatus: [0] },
      { label: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
    ];
    if (BASE_CLI !== undefined)
      commands.push({ label: "changed (base)", cmd: process.execPath, args: [BASE_CLI, "changed", "--spec", SPEC], cwd: root, okStatus: [0] });
    const [status, changed, node, baseline] = roundRobin(commands, { rounds: ROUNDS, warmup: 1, cpu: process.env.NR_BENCH_CPU === "1" });
    const cpu =
      changed.cpu === undefined ? "" : `; CPU ${fmt(changed.cpu.ms)} vs git status ${fmt(status.cpu.ms)} (${(changed.cpu.ms / status.cpu.ms).toFixed(2)}×)`;
    notes.push(`${n} files: node -e 0 = ${fmt(node.ms)} (${pairedRatio(node, status).toFixed(2)}× git status)${cpu}`);
    rows.push([
      `warm \`changed --spec\`, ${n} governed files, 10 edited → ${listed} listed`,
      fmt(changed.ms),
      "git status --porcelain",
      fmt(status.ms),
      `${pairedRatio(changed, status).toFixed(2)}×`,
      `≤ ${TARGET(n)}×`,
    ]);
    if (baseline !== undefined)
      rows.push([`  the same, ${BASE_CLI}`, fmt(baseline.ms), "git status --porcelain", fmt(status.ms), `${pairedRatio(baseline, status).toFixed(2)}×`, ""]);
    if (keep !== undefined) git(root, ["checkout", "-q", "--", "."]);
  }
  console.log(
    `${ROUNDS} rounds, medians; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} at the end; ${notes.join("; ")}\n`,
  );
  report("warm changed, whole process", rows);
} finally {
  if (keep === undefined) rmSync(base, { recursive: true, force: true });
}
