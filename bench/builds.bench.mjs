// This build against an earlier commit of this repository, command by command, in the same
// rounds: what a change of structure (issue 24: folders moved, modules split, the error
// taxonomy, one process runner) cost or saved on the paths users wait for. Each command of
// each build runs once per round (round-robin with `node -e 0`), wall and CPU time; the
// figures are medians, the ratios are taken round by round.
//   NR_BUILDS_BASE=<commit>   the earlier build (default e4f009b, the start of issue 24)
//   NR_BASELINE_DIR=<dir>     a build made elsewhere instead (see lib/baseline.mjs)
//   NR_BUILDS_ROUNDS=<n>      rounds (default 11)
// Commands: the pre-commit hook (`check --staged`, one small document staged), one-shot
// `check`, `patch --op update_attribute` and `render --to noma` of a 5 MiB document,
// `changed --spec` (warm cache) and `affected --base main` over 20,000 files.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineBuild } from "./lib/baseline.mjs";
import { generateDocument } from "./lib/gen-document.mjs";
import { ensureRepo, SPEC } from "./lib/gen-repo.mjs";
import { git, pairedRatio, roundRobin } from "./lib/measure.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BASE = process.env.NR_BUILDS_BASE ?? "e4f009b";
const ROUNDS = Number(process.env.NR_BUILDS_ROUNDS ?? 11);
const base = baselineBuild(BASE);
if (base.reason !== undefined) {
  process.stdout.write(`builds: skipped (${base.reason})\n`);
  process.exit(0);
}
const here = join(ROOT, "dist/cli.cjs");
const work = mkdtempSync(join(tmpdir(), "nr-bench-builds-"));
try {
  const small = join(work, "small");
  mkdirSync(small);
  git(small, ["init", "-q", "-b", "main"]);
  writeFileSync(join(small, "a.noma"), '# A\n\n::claim{id="c1"}\nA claim.\n::\n');
  git(small, ["add", "a.noma"]);
  const big = join(work, "big");
  mkdirSync(big);
  git(big, ["init", "-q", "-b", "main"]);
  const pristine = join(work, "big.noma.orig");
  writeFileSync(pristine, generateDocument(5 * 1024 * 1024).text);
  copyFileSync(pristine, join(big, "big.noma"));
  const fresh = () => {
    copyFileSync(pristine, join(big, "big.noma"));
    rmSync(join(big, "big.noma.patches"), { force: true });
  };
  const repo = join(work, "repo");
  ensureRepo(repo, 20000, () => {});
  const op = JSON.stringify({ op: "update_attribute", id: "c100", key: "owner", value: "x" });
  const jobs = [
    { label: "check --staged (the hook; one document staged)", cwd: small, args: ["check", "--staged"], okStatus: [0] },
    { label: "check big.noma (5 MiB)", cwd: big, args: ["check", "big.noma"], okStatus: [0, 1] },
    { label: "patch big.noma --op update_attribute", cwd: big, args: ["patch", "big.noma", "--op", op], before: fresh, okStatus: [0, 1] },
    { label: "render big.noma --to noma", cwd: big, args: ["render", "big.noma", "--to", "noma"], okStatus: [0] },
    { label: `changed --spec (20,000 files, warm)`, cwd: repo, args: ["changed", "--spec", SPEC], okStatus: [0, 1] },
    { label: "affected --base main (20,000 files)", cwd: repo, args: ["affected", "--base", "main"], okStatus: [0, 1] },
  ];
  const commands = [{ label: "node -e 0", cmd: process.execPath, args: ["-e", "0"], okStatus: [0] }];
  for (const j of jobs) {
    for (const [who, bin] of [
      ["base", base.cli],
      ["here", here],
    ]) {
      commands.push({ ...j, who, cmd: process.execPath, args: [bin, ...j.args] });
    }
  }
  const results = roundRobin(commands, { rounds: ROUNDS, warmup: 2, cpu: true });
  const floor = results[0];
  const f = (ms) => `${ms.toFixed(1)} ms`;
  process.stdout.write(`${ROUNDS} rounds; node -e 0: ${f(floor.ms)} wall, ${f(floor.cpu.ms)} CPU; ${base.label} vs this build\n`);
  process.stdout.write(
    "| command | wall: before (× node -e 0) | after (× node -e 0) | after / before | CPU: before (×) | after (×) | after / before |\n|---|---:|---:|---:|---:|---:|---:|\n",
  );
  for (let k = 0; k < jobs.length; k++) {
    const a = results[1 + 2 * k];
    const b = results[2 + 2 * k];
    const x = (r, fl) => pairedRatio(r, fl).toFixed(2);
    const cpuOf = (r) => ({ ms: r.cpu.ms, samples: r.cpu.samples });
    process.stdout.write(
      `| ${jobs[k].label} | ${f(a.ms)} (${x(a, floor)}×) | ${f(b.ms)} (${x(b, floor)}×) | ${x(b, a)} | ${f(a.cpu.ms)} (${x(cpuOf(a), cpuOf(floor))}×) | ${f(b.cpu.ms)} (${x(cpuOf(b), cpuOf(floor))}×) | ${x(cpuOf(b), cpuOf(a))} |\n`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  base.cleanup();
}
