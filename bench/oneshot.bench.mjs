// One-shot CLI commands, one process each, as a user runs them, on a 5 MiB document from the
// mixed-document generator (prose, nested headings, research directives, datasets in YAML,
// CSV and JSON with plots, callouts, tables, lists, fences, footnotes):
//   `check big.noma`                                   target: ≥ 2× faster than the reference's check
//   `patch big.noma --op <update_attribute>` (one-shot, pre- and post-validation, transcript
//   and document written atomically)                   target: ≥ 2× faster than the reference's patch --inplace
// Floor measured in the same run: `node -e 0`. Every round runs each command once (round-robin),
// so a figure and its floor share the machine's load; ratios are taken round by round.
//
// The Noma reference CLI is not available on this machine (and is never read here), so no
// reference figure is measured. What is known of it: issue 16 measured it side by side with
// this repository's CLI at commit c95bc77 (paired runs, the same 2-core machine): our check
// was 1.16–1.36× faster, our patch 1.05–1.18× faster. This bench builds commit c95bc77 (from
// git history, into a temp dir) and times it in the same rounds; the reference estimate is
// that commit's time × those ratios, and "vs reference (estimated)" is how many times faster
// than that estimate this build is. NR_BASELINE_DIR=<dir with dist/> uses another baseline
// build; without one the estimate is not printed.
// NOMA_RECONCILE_JIT=default shows check with V8's default tiering (see prepare-short-run-jit.ts).
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineBuild } from "./lib/baseline.mjs";
import { generateMixedDocument } from "./lib/gen-mixed-document.mjs";
import { fmt, git, pairedRatio, report, roundRobin } from "./lib/measure.mjs";

const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.js");
const BASE_COMMIT = "c95bc77a25c6ec761a83743b665e07e631420ea2";
const ISSUE_RATIOS = { check: [1.16, 1.36], patch: [1.05, 1.18] };
const ROUNDS = Number(process.env.NR_BENCH_ROUNDS ?? 11);

const dir = mkdtempSync(join(tmpdir(), "nr-bench-oneshot-"));
const baseline = baselineBuild(BASE_COMMIT);
try {
  git(dir, ["init", "-q", "-b", "main"]);
  const { text, sections } = generateMixedDocument(5 * 1024 * 1024);
  const doc = join(dir, "big.noma");
  const pristine = join(dir, "big.noma.orig");
  writeFileSync(pristine, text);
  copyFileSync(pristine, doc);
  const restore = () => {
    copyFileSync(pristine, doc);
    rmSync(`${doc}.patches`, { force: true });
  };
  const op = JSON.stringify({ op: "update_attribute", id: `c${Math.floor(sections / 2)}`, key: "confidence", value: 0.42 });
  const check = (cli, env) => ({ cmd: process.execPath, args: [cli, "check", "big.noma"], cwd: dir, okStatus: [0], ...(env !== undefined ? { env: { ...process.env, ...env } } : {}) });
  const patch = (cli) => ({ cmd: process.execPath, args: [cli, "patch", "big.noma", "--op", op, "--actor-name", "bench"], cwd: dir, okStatus: [0], before: restore });
  const commands = [
    { label: "node -e 0", cmd: process.execPath, args: ["-e", "0"] },
    { label: "check", ...check(CLI) },
    { label: "check, V8 default tiering", ...check(CLI, { NOMA_RECONCILE_JIT: "default" }) },
    { label: "patch", ...patch(CLI) },
  ];
  if (baseline.cli !== undefined) commands.push({ label: "check (baseline)", ...check(baseline.cli) }, { label: "patch (baseline)", ...patch(baseline.cli) });
  const t = roundRobin(commands, { rounds: ROUNDS, warmup: 2 });
  const by = Object.fromEntries(commands.map((c, i) => [c.label, t[i]]));
  const node = by["node -e 0"];
  const vsRef = (ours, base, [lo, hi]) => {
    if (base === undefined) return "n/a (no baseline build)";
    const r = pairedRatio(base, ours);
    return `${(r * lo).toFixed(2)}–${(r * hi).toFixed(2)}× faster`;
  };
  const rows = [["command (one process)", "time", "× node -e 0", "vs baseline", "vs reference (estimated)", "target"]];
  const row = (label, key, baseKey, ratios, target) => {
    const base = baseKey !== undefined ? by[baseKey] : undefined;
    rows.push([label, fmt(by[key].ms), `${pairedRatio(by[key], node).toFixed(2)}×`, base !== undefined ? `${pairedRatio(base, by[key]).toFixed(2)}× faster` : "", ratios !== undefined ? vsRef(by[key], base, ratios) : "", target]);
  };
  row("check big.noma", "check", "check (baseline)", ISSUE_RATIOS.check, "≥ 2× faster");
  row("check, NOMA_RECONCILE_JIT=default", "check, V8 default tiering", "check (baseline)", undefined, "");
  row("patch --op update_attribute", "patch", "patch (baseline)", ISSUE_RATIOS.patch, "≥ 2× faster");
  if (baseline.cli !== undefined) {
    rows.push(["baseline check", fmt(by["check (baseline)"].ms), `${pairedRatio(by["check (baseline)"], node).toFixed(2)}×`, "", "", ""]);
    rows.push(["baseline patch", fmt(by["patch (baseline)"].ms), `${pairedRatio(by["patch (baseline)"], node).toFixed(2)}×`, "", "", ""]);
  }
  console.log(`document: ${(Buffer.byteLength(text) / 1048576).toFixed(2)} MiB, ${sections} sections (mixed-document generator); node -e 0 = ${fmt(node.ms)}; ${ROUNDS} rounds, medians`);
  console.log(`baseline: ${baseline.cli !== undefined ? baseline.label : `none (${baseline.reason})`}. The Noma reference CLI is not available here: its figures are estimated as the baseline's time × issue 16's measured ratios (check ${ISSUE_RATIOS.check.join("–")}, patch ${ISSUE_RATIOS.patch.join("–")}).\n`);
  report("one-shot commands on the 5 MiB document", rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
  baseline.cleanup?.();
}
