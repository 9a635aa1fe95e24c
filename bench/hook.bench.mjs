// The pre-commit check (`noma-reconcile check --staged`), each figure beside a floor measured
// in the same run:
//   (a) nothing governed staged (one source file)          vs node -e 0                       target ≤ 1.5×
//       — in a small repository and in the 100,000-file one
//   (b) a 5-file commit in a 100,000-file repository: 3 source files and 2 .noma documents
//       patched through the patch engine (so their transcripts are staged too and verified
//       against the staged documents)                      vs node -e 0 + git diff --cached --name-only   target ≤ 2×
//   and, for information, the installed hook script itself (sh + node_modules/.bin) on (b).
//   (h) the installed hook itself (.git/hooks/pre-commit executed as git commit runs it), nothing
//       judged staged: it asks git and starts no node   small repo vs node -e 0        target ≤ 0.3×
//                                                       100,000 files vs git diff --cached --name-only   target ≤ 1.2×
//   (c) a one-word edit of one chapter of a 50-chapter book (chapters linking into each other),
//       in a small repository and in the 100,000-file one, beside the same edit of the same
//       document where no manifest makes the 50 files a book     vs node -e 0   (info)
// The big repository is generated once per run with `git fast-import` (no work tree for the
// 100,000 files: the check reads only the index) and removed at the end. Figures are medians
// of 21 rounds in which every command of a row group runs once (round-robin), so a figure and
// its floor share the machine's load.
// Figures only; no assertions. NR_BENCH_FILES=<n> changes the size.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { installHooks, patchDocument } from "../dist/internal.js";
import { fmt, git, ratio, report } from "./lib/measure.mjs";
import { fileText } from "./lib/gen-file-text.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "../dist/cli.cjs");
const N = Number(process.env.NR_BENCH_FILES ?? 100_000);
const log = (s) => process.stderr.write(`${s}\n`);
const RUNS = 21;

/**
 * Median wall time of each command, the commands run round-robin (one run of each per round)
 * so that a figure and its floor see the same machine load; this machine is shared and noisy.
 */
function interleaved(commands, rounds = RUNS, warmup = 3) {
  const samples = commands.map(() => []);
  for (let r = 0; r < rounds + warmup; r++) {
    commands.forEach(([cmd, args, cwd], i) => {
      globalThis.gc?.();
      const t0 = process.hrtime.bigint();
      const res = spawnSync(cmd, args, { cwd, stdio: ["ignore", "ignore", "ignore"] });
      if (res.error) throw res.error;
      if (r >= warmup) samples[i].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]);
}

const DOC = '---\ntitle: Plan\n---\n\n# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen in production.\n::\n';

const CHAPTERS = 50;

function chapterPath(i) {
  return `book/${String(i).padStart(2, "0")}-part${i}.noma`;
}

/** Chapter i (~4 KB): links into the chapters before and after it (filename slug), a scoped id of another, and an unscoped one of a third. */
function chapterText(i) {
  const n = (k) => (k + CHAPTERS) % CHAPTERS;
  const para = (k) => `Paragraph ${k} of part ${i}: the findings so far hold across the cohorts we looked at, and the method stays as it was described.\n`;
  return [
    `---\ntitle: Part ${i}\n---\n`,
    `# Part ${i}\n`,
    `This part builds on [[part${n(i - 1)}]] and leads to [[part${n(i + 1)}]].\n`,
    `## Findings ${i}\n`,
    `::claim{id="p${i}-c1" confidence=0.6}\nThe effect holds in part ${i}.\n::\n`,
    `::evidence{id="p${i}-e1" for="p${i}-c1"}\nMeasured twice.\n::\n`,
    ...[1, 2, 3, 4, 5].map(para),
    `## Method\n`,
    `As in [[part${n(i + 17)}/method]]; compare [[findings-${n(i + 31)}]].\n`,
    ...[6, 7, 8, 9, 10, 11, 12, 13].map(para),
    `## Notes\n`,
    ...[14, 15, 16, 17, 18, 19, 20].map(para),
  ].join("\n");
}

/** The 50 chapters, and (unless `manifest` is false) the manifest that makes them a book. */
function writeBook(dir, manifest = true) {
  for (let i = 0; i < CHAPTERS; i++) write(dir, chapterPath(i), chapterText(i));
  if (manifest)
    write(
      dir,
      "book/book.noma.yml",
      `title: Fifty parts\nchapters:\n${Array.from({ length: CHAPTERS }, (_, i) => `  - ${chapterPath(i).slice("book/".length)}\n`).join("")}`,
    );
}

/** The one-word edit of chapter 25, staged. */
function stageChapterEdit(dir) {
  write(dir, chapterPath(25), chapterText(25).replace("The effect holds", "The effect still holds"));
  git(dir, ["add", chapterPath(25)]);
}

function pathOf(i) {
  return `src/d${Math.floor(i / 1000)}/e${Math.floor(i / 50) % 20}/f${i}.ts`;
}

function initRepo(dir) {
  git(dir, ["init", "-q", "-b", "main"]);
  for (const [k, v] of [
    ["user.name", "Bench"],
    ["user.email", "bench@example.invalid"],
    ["commit.gpgsign", "false"],
  ])
    git(dir, ["config", k, v]);
}

function commitAll(dir, message) {
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--no-verify", "-m", message]);
}

function patch(dir, doc, value) {
  const r = patchDocument(join(dir, doc), [{ op: "update_attribute", id: "c1", key: "confidence", value }], { actor: { kind: "agent", name: "bench" } });
  if (r.outcome.result !== "applied") throw new Error(`patch ${r.outcome.result}`);
}

function write(dir, rel, text) {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** N files committed through fast-import, the index read from HEAD (no work tree for them). */
function bigRepo(dir) {
  initRepo(dir);
  const parts = ["commit refs/heads/main", "committer Bench <bench@example.invalid> 1767225600 +0000", "data 8", "100k set"];
  for (let i = 0; i < N; i++) {
    const text = fileText(i);
    parts.push(`M 100644 inline ${pathOf(i)}`, `data ${Buffer.byteLength(text)}`, text);
  }
  const r = spawnSync("git", ["fast-import", "--quiet"], { cwd: dir, input: `${parts.join("\n")}\n`, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`fast-import failed: ${r.stderr}`);
  git(dir, ["read-tree", "HEAD"]);
}

function setUpHook(dir) {
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(CLI, join(dir, "node_modules/.bin/noma-reconcile"));
  writeFileSync(join(dir, ".git/info/exclude"), "node_modules/\n");
  installHooks(dir, {});
}

function staged(dir) {
  return git(dir, ["diff", "--cached", "--name-only"]).trim().split("\n").filter(Boolean);
}

/** The installed hook, run as git runs it, answers without node: exit 0 and the one line. */
function hookSaysNothing(dir) {
  const env = { ...process.env };
  delete env.NOMA_RECONCILE_BIN;
  const r = spawnSync(join(dir, ".git/hooks/pre-commit"), [], { cwd: dir, encoding: "utf8", env });
  if (r.status !== 0 || !r.stderr.startsWith("noma-reconcile: nothing staged to check")) throw new Error(`hook: ${r.status} ${r.stdout}${r.stderr}`);
}

function checkOnce(dir, expectCode) {
  const r = spawnSync(process.execPath, [CLI, "check", "--staged"], { cwd: dir, encoding: "utf8" });
  if (r.status !== expectCode) throw new Error(`check --staged exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r;
}

const root = mkdtempSync(join(tmpdir(), "nr-hook-bench-"));
try {
  // (a) small repository, one source file staged.
  const small = join(root, "small");
  mkdirSync(small);
  initRepo(small);
  write(small, "docs/plan.noma", DOC);
  write(small, "src/a.ts", "a\n");
  commitAll(small, "init");
  write(small, "src/a.ts", "a2\n");
  git(small, ["add", "src/a.ts"]);
  checkOnce(small, 0);
  setUpHook(small);

  // The big repository.
  log(`generating a ${N.toLocaleString("en-US")}-file repository with git fast-import…`);
  const t0 = Date.now();
  const big = join(root, "big");
  mkdirSync(big);
  bigRepo(big);
  for (const doc of ["docs/a.noma", "docs/b.noma"]) {
    write(big, doc, DOC);
    patch(big, doc, 0.6);
    patch(big, doc, 0.7);
  }
  git(big, ["add", "docs"]);
  git(big, ["commit", "-q", "--no-verify", "-m", "documents with transcripts"]);
  setUpHook(big);
  log(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // (a) in the big repository: one source file staged.
  write(big, pathOf(7), `${fileText(7)}// changed\n`);
  git(big, ["add", pathOf(7)]);
  checkOnce(big, 0);

  for (const dir of [small, big]) hookSaysNothing(dir);

  const [floorNode, aSmall, aBig, floorDiff, hSmall, hBig] = interleaved([
    [process.execPath, ["-e", "0"], small],
    [process.execPath, [CLI, "check", "--staged"], small],
    [process.execPath, [CLI, "check", "--staged"], big],
    ["git", ["diff", "--cached", "--name-only"], big],
    [join(small, ".git/hooks/pre-commit"), [], small],
    [join(big, ".git/hooks/pre-commit"), [], big],
  ]);

  // (b) 3 source files and 2 patched documents (with their transcripts) staged.
  for (const i of [11, 22_222 % N, N - 1]) write(big, pathOf(i), `${fileText(i)}// changed\n`);
  for (const doc of ["docs/a.noma", "docs/b.noma"]) patch(big, doc, 0.8);
  git(big, ["add", pathOf(11), pathOf(22_222 % N), pathOf(N - 1), "docs"]);
  const files = staged(big);
  if (files.length !== 8) throw new Error(`expected 8 staged paths, got ${files.join(", ")}`);
  const out = checkOnce(big, 0);
  if (!out.stderr.includes("4 files checked (staged): 0 errors")) throw new Error(`unexpected check output: ${out.stderr}`);

  const [floorNode2, diff, b, hookScript] = interleaved([
    [process.execPath, ["-e", "0"], big],
    ["git", ["diff", "--cached", "--name-only"], big],
    [process.execPath, [CLI, "check", "--staged"], big],
    ["sh", [join(big, ".git/hooks/pre-commit")], big],
  ]);
  const floorB = floorNode2 + diff;

  report(`pre-commit check (${N.toLocaleString("en-US")}-file repository for the big-repo figures)`, [
    ["figure", "time", "floor", "floor time", "× floor", "target"],
    ["(a) nothing governed staged, small repo", fmt(aSmall), "node -e 0", fmt(floorNode), ratio(aSmall, floorNode), "≤ 1.5×"],
    ["(a) nothing governed staged, big repo", fmt(aBig), "node -e 0", fmt(floorNode), ratio(aBig, floorNode), "≤ 1.5×"],
    ["(b) 3 sources + 2 patched .noma (+ transcripts)", fmt(b), "node -e 0 + git diff --cached", `${fmt(floorNode2)} + ${fmt(diff)}`, ratio(b, floorB), "≤ 2×"],
    ["    the installed hook script on (b)", fmt(hookScript), "node -e 0 + git diff --cached", fmt(floorB), ratio(hookScript, floorB), "(info)"],
  ]);
  report("the installed hook, nothing judged staged (one source file): it asks git and starts no node", [
    ["figure", "time", "floor", "floor time", "× floor", "target"],
    ["(h) .git/hooks/pre-commit, small repo", fmt(hSmall), "node -e 0", fmt(floorNode), ratio(hSmall, floorNode), "≤ 0.3×"],
    ["(h) .git/hooks/pre-commit, big repo", fmt(hBig), "git diff --cached --name-only", fmt(floorDiff), ratio(hBig, floorDiff), "≤ 1.2×"],
    ["    the same, big repo", fmt(hBig), "node -e 0", fmt(floorNode), ratio(hBig, floorNode), "(info)"],
  ]);

  // (c) one chapter of a 50-chapter book, a one-word edit staged; beside it, the same 50 files and edit without a manifest.
  const book = join(root, "book");
  const loose = join(root, "loose");
  for (const [dir, manifest] of [
    [book, true],
    [loose, false],
  ]) {
    mkdirSync(dir);
    initRepo(dir);
    writeBook(dir, manifest);
    commitAll(dir, "a book");
    stageChapterEdit(dir);
  }
  git(big, ["reset", "-q"]);
  writeBook(big);
  git(big, ["add", "book"]);
  git(big, ["commit", "-q", "--no-verify", "-m", "a book"]);
  stageChapterEdit(big);
  checkOnce(book, 0);
  checkOnce(big, 0);
  const [floorNode3, cBook, cLoose, cBig] = interleaved([
    [process.execPath, ["-e", "0"], book],
    [process.execPath, [CLI, "check", "--staged"], book],
    [process.execPath, [CLI, "check", "--staged"], loose],
    [process.execPath, [CLI, "check", "--staged"], big],
  ]);
  report("pre-commit check of one chapter of a 50-chapter book", [
    ["figure", "time", "floor", "floor time", "× floor", "target"],
    ["(c) one chapter staged, small repo", fmt(cBook), "node -e 0", fmt(floorNode3), ratio(cBook, floorNode3), "(info)"],
    ["    the same edit, no manifest (no book)", fmt(cLoose), "node -e 0", fmt(floorNode3), ratio(cLoose, floorNode3), "(info)"],
    ["(c) one chapter staged, big repo", fmt(cBig), "node -e 0", fmt(floorNode3), ratio(cBig, floorNode3), "(info)"],
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
