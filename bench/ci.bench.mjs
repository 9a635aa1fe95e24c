// The PR check (`noma-reconcile ci --base main --format json`) on a generated repository of
// NR_BENCH_FILES governed source files (default a few thousand) and NR_BENCH_DOCS documents with
// transcripts, everything reconciled in a committed snapshot on main. Two pull requests, each
// reconciled and committed (so the check reads the snapshot, hashes every governed change and
// finds no drift):
//   (a) a typical one: a tenth of the source files edited, a few documents patched;
//   (b) everything: every source file edited, every document patched.
// Each row beside `node -e 0` measured in the same rounds (round-robin, medians); with
// NR_CI_BEFORE=<path to another build's cli.cjs> the same rows for that build too, so a change
// to the check can be compared with the build before it on the same machine load.
// Figures only; no assertions. The repository is generated under the OS temp dir and removed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { markReconciled, patchDocument, snapshotState } from "../dist/internal.js";
import { fmt, git, pairedRatio, report, roundRobin } from "./lib/measure.mjs";
import { fileText } from "./lib/gen-file-text.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "../dist/cli.cjs");
const BEFORE = process.env.NR_CI_BEFORE;
const FILES = Number(process.env.NR_BENCH_FILES ?? 3000);
const DOCS = Number(process.env.NR_BENCH_DOCS ?? 40);
const ROUNDS = Number(process.env.NR_BENCH_ROUNDS ?? 11);
const log = (s) => process.stderr.write(`${s}\n`);

const SPEC =
  'schema_version: "0.7"\nintent: Everything in this repository.\nbehaviors:\n  - name: all\n    given: any change\n    then: it is reconciled\nartifacts:\n  code:\n    - path: "src/**"\n  docs:\n    - path: "docs/**"\n';
const DOC = (i) =>
  `---\ntitle: Doc ${i}\n---\n\n# Doc ${i}\n\n::claim{id="c1" confidence=0.5}\nClaim ${i}.\n::\n\n::evidence{id="e1" for="c1"}\nSeen ${i}.\n::\n`;
const srcPath = (i) => `src/m${i % 30}/p${Math.floor(i / 30) % 20}/f${i}.ts`;
const docPath = (i) => `docs/d${i % 5}/doc${i}.noma`;

function write(dir, rel, text) {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

function patch(dir, doc, value) {
  const r = patchDocument(join(dir, doc), [{ op: "update_attribute", id: "c1", key: "confidence", value }], { actor: { kind: "agent", name: "bench" } });
  if (r.outcome.result !== "applied") throw new Error(`patch ${r.outcome.result}`);
}

function commitAll(dir, message) {
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--no-verify", "-m", message]);
}

/** Mark every file under src/ and docs/ reconciled, write the snapshot, commit it. */
async function reconcileAndCommit(dir, message) {
  const files = git(dir, ["ls-files", "-z", "src", "docs"])
    .split("\0")
    .filter((f) => f.length > 0);
  await markReconciled(dir, { files: [...files, ".notarai/all.spec.yaml"] });
  await snapshotState(dir);
  commitAll(dir, message);
}

async function generate(root) {
  const t0 = Date.now();
  const main = join(root, "repo");
  mkdirSync(main);
  git(main, ["init", "-q", "-b", "main"]);
  for (const [k, v] of [
    ["user.name", "Bench"],
    ["user.email", "bench@example.invalid"],
    ["commit.gpgsign", "false"],
  ])
    git(main, ["config", k, v]);
  write(main, ".gitignore", ".notarai/.cache/\n");
  write(main, ".notarai/all.spec.yaml", SPEC);
  for (let i = 0; i < FILES; i++) write(main, srcPath(i), fileText(i));
  for (let i = 0; i < DOCS; i++) write(main, docPath(i), DOC(i));
  commitAll(main, "files");
  for (let i = 0; i < DOCS; i++) patch(main, docPath(i), 0.6);
  commitAll(main, "transcripts");
  await reconcileAndCommit(main, "snapshot");

  // (a) a typical pull request, in this checkout.
  git(main, ["checkout", "-q", "-b", "feature-typical"]);
  const some = Math.max(1, Math.floor(FILES / 10));
  for (let i = 0; i < some; i++) write(main, srcPath((i * 7) % FILES), `${fileText(i)}typical change ${i}\n`);
  for (let i = 0; i < Math.min(DOCS, 5); i++) patch(main, docPath(i), 0.7);
  commitAll(main, "typical change");
  await reconcileAndCommit(main, "reconcile the typical change");

  // (b) everything changed, in a second work tree of the same repository.
  const all = join(root, "all");
  git(main, ["worktree", "add", "-q", "-b", "feature-all", all, "main"]);
  for (let i = 0; i < FILES; i++) write(all, srcPath(i), `${fileText(i)}changed everywhere\n`);
  for (let i = 0; i < DOCS; i++) patch(all, docPath(i), 0.8);
  commitAll(all, "everything changed");
  await reconcileAndCommit(all, "reconcile everything");
  log(`generated ${FILES} source files and ${DOCS} documents in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { typical: main, all, some };
}

const root = mkdtempSync(join(tmpdir(), "nr-ci-bench-"));
try {
  const repos = await generate(root);
  const args = ["ci", "--base", "main", "--format", "json"];
  const commands = [{ label: "node -e 0", cmd: process.execPath, args: ["-e", "0"], cwd: root }];
  const builds = [["this build", CLI], ...(BEFORE !== undefined && BEFORE !== "" ? [["NR_CI_BEFORE", BEFORE]] : [])];
  for (const [name, cli] of builds) {
    commands.push({ label: `(a) ${name}`, cmd: process.execPath, args: [cli, ...args], cwd: repos.typical, okStatus: [0] });
    commands.push({ label: `(b) ${name}`, cmd: process.execPath, args: [cli, ...args], cwd: repos.all, okStatus: [0] });
  }
  const results = roundRobin(commands, { rounds: ROUNDS });
  const floor = results[0];
  const rows = [["", "median", "floor", "", "× floor", ""]];
  commands.forEach((c, i) => {
    if (i === 0) return;
    rows.push([c.label, fmt(results[i].ms), "node -e 0", fmt(floor.ms), `${pairedRatio(results[i], floor).toFixed(2)}×`, ""]);
  });
  if (builds.length === 2) {
    for (const k of ["(a)", "(b)"]) {
      const now = commands.findIndex((c) => c.label === `${k} this build`);
      const before = commands.findIndex((c) => c.label === `${k} NR_CI_BEFORE`);
      rows.push([`${k} this build / before`, "", "", "", `${pairedRatio(results[now], results[before]).toFixed(2)}×`, ""]);
    }
  }
  report(
    `ci --base main --format json: ${FILES} governed source files, ${DOCS} documents; (a) ${repos.some} files + ${Math.min(DOCS, 5)} documents changed, (b) all changed; ${ROUNDS} rounds`,
    rows,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
