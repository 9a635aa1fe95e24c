/**
 * The installed pre-commit hook asks git whether anything `check --staged` judges is staged,
 * and starts node only then. Real repositories, the hook `installHooks` writes, real
 * `git commit`s; a `node` first on the hook's PATH records each start and runs the real one
 * (the local install's shebang is `#!/usr/bin/env node`), so "no node" is proven by a log
 * that was never written, not by timing.
 * - each judged kind staged — a document added, modified, deleted, renamed to and from a
 *   judged name, upper-case; a transcript deleted and renamed away; a spec added and deleted;
 *   a book manifest; a sidecar; the configuration — starts node, and the real judgement
 *   blocks the commit at the file and rule;
 * - nothing judged staged — code added, modified, deleted, renamed; names with spaces, a
 *   newline, quotes, a leading dash, bytes that are not UTF-8; near misses of the judged names —
 *   commits, printing what `check --staged` prints then, and node never starts;
 * - the same through the hook managers' entry (`sh -c` of the program) and the husky block.
 */
import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NOTHING_STAGED, PRE_COMMIT_BLOCK } from "../../src/hooks/hook-script.js";
import { MANAGER_HOOK_PROGRAM } from "../../src/init/hook-manager-entries.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir, writeTree } from "../helpers/temp-repo.js";
import { commit, hookRepo } from "../check/staged/hook-repo.js";
import { BAD_SPEC, BROKEN, CLAIM, patch, SPEC, VALID } from "../check/staged/fixtures.js";

const MANIFEST = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";
const INTRO = "# Intro\n\nRead [[risks]].\n";
const RISKS = "# Risks\n\n## Mitigation\n\nBack to [[intro]].\n";
const SYSTEM = `${SPEC.replace('intent: "The API"', 'intent: "All"')}subsystems:\n  - $ref: ./api.spec.yaml\n`;

/** What the hook prints when nothing judged is staged. */
const NOTHING = `noma-reconcile: ${NOTHING_STAGED}`;

/** A `node` that records each start and runs the real one; the PATH to give the hook. */
function nodeRecorder(): { path: string; starts: () => number } {
  const dir = tempDir("nr-node-");
  const log = join(dir, "starts.log");
  writeFileSync(join(dir, "node"), `#!/bin/sh\necho started >> '${log}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
  return {
    path: `${dir}:${process.env["PATH"] ?? ""}`,
    starts: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0),
  };
}

/** The repository is built once (git init, two commits, the hook installed) and copied for each test: each gets its own. */
const templates = repoTemplates();

/** A repository holding every judged kind (a patched document with its transcript, a book, two specs) and code, the hook installed. */
function projectRepo(): string {
  return templates.copy("project", buildProjectRepo);
}

function buildProjectRepo(): string {
  const repo = hookRepo({
    "docs/c.noma": VALID,
    "docs/plan.noma": CLAIM,
    "book/book.noma.yml": MANIFEST,
    "book/01-intro.noma": INTRO,
    "book/02-risks.noma": RISKS,
    ".notarai/api.spec.yaml": SPEC,
    ".notarai/system.spec.yaml": SYSTEM,
    ".notarai/README.md": "Specs.\n",
    "src/a.ts": "a\n",
    "src/b.ts": BROKEN,
  });
  patch(repo, "docs/plan.noma", [0.6]);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--no-verify", "-m", "a transcript"]);
  return repo;
}

const head = (repo: string): string => git(repo, ["rev-parse", "HEAD"]).trim();
const errors = (output: string): string[] => output.split("\n").filter((l) => l.startsWith("ERROR "));

describe("the installed hook starts node when something judged is staged, and the judgement blocks", () => {
  const cases: Array<[string, (repo: string) => void, RegExp]> = [
    ["a document added", (r) => writeTree(r, { "docs/b.noma": BROKEN }), /^ERROR \[broken-reference\] docs\/b\.noma:3:1:/],
    ["a document modified", (r) => writeTree(r, { "docs/c.noma": BROKEN }), /^ERROR \[broken-reference\] docs\/c\.noma:3:1:/],
    ["a document with an upper-case suffix", (r) => writeTree(r, { "docs/B.NOMA": BROKEN }), /^ERROR \[broken-reference\] docs\/B\.NOMA:3:1:/],
    ["a document (a chapter) deleted", (r) => git(r, ["rm", "-q", "book/02-risks.noma"]), /^ERROR \[book-chapter-missing\] book\/book\.noma\.yml:/],
    [
      "a document (a chapter) renamed to a name nothing judges",
      (r) => git(r, ["mv", "book/02-risks.noma", "book/risks.md"]),
      /^ERROR \[book-chapter-missing\] book\/book\.noma\.yml:/,
    ],
    ["code renamed to a document", (r) => git(r, ["mv", "src/b.ts", "docs/b.noma"]), /^ERROR \[broken-reference\] docs\/b\.noma:3:1:/],
    ["a transcript deleted, its document kept", (r) => git(r, ["rm", "-q", "docs/plan.noma.patches"]), /^ERROR \[[a-z-]+\] docs\/plan\.noma\.patches/],
    [
      "a transcript renamed to a name nothing judges",
      (r) => git(r, ["mv", "docs/plan.noma.patches", "docs/plan.log"]),
      /^ERROR \[[a-z-]+\] docs\/plan\.noma\.patches/,
    ],
    ["a spec added", (r) => writeTree(r, { ".notarai/bad.spec.yaml": BAD_SPEC }), /^ERROR \[spec-unknown-key\] \.notarai\/bad\.spec\.yaml:3:1:/],
    ["a spec deleted", (r) => git(r, ["rm", "-q", ".notarai/api.spec.yaml"]), /^ERROR \[spec-missing-ref\] \.notarai\/system\.spec\.yaml:13:11:/],
    [
      "a book manifest",
      (r) => writeTree(r, { "book/book.noma.yml": `${MANIFEST}  - 03-gone.noma\n` }),
      /^ERROR \[book-chapter-missing\] book\/book\.noma\.yml:5:/,
    ],
    [
      "a sidecar",
      (r) => writeTree(r, { "docs/c.noma.capabilities.yml": "nomaAgent:\n  version: 1\n  blocks:\n    claim:\n      ops: [replace_block, teleport]\n" }),
      /^ERROR \[capability-invalid\] docs\/c\.noma\.capabilities\.yml:5:1:/,
    ],
  ];

  for (const [what, stage, error] of cases) {
    it(what, () => {
      const repo = projectRepo();
      const node = nodeRecorder();
      stage(repo);
      git(repo, ["add", "-A"]);
      const before = head(repo);
      const r = commit(repo, ["-m", what], { PATH: node.path });
      expect(r.code, r.output).toBe(1);
      expect(
        errors(r.output).some((l) => error.test(l)),
        r.output,
      ).toBe(true);
      expect(head(repo)).toBe(before);
      expect(node.starts()).toBe(1);
    });
  }

  it("the configuration", () => {
    const repo = projectRepo();
    const node = nodeRecorder();
    writeTree(repo, { ".notarai/config.yaml": "drift: warning\ntranscripts: sometimes\n" });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "config"], { PATH: node.path });
    expect(r.code).toBe(1);
    expect(r.output).toContain('.notarai/config.yaml:2:14: error: transcripts: expected one of "warn", "strict", found "sometimes"');
    expect(node.starts()).toBe(1);
  });

  it("a valid document among code commits after node judged it", () => {
    const repo = projectRepo();
    const node = nodeRecorder();
    writeTree(repo, { "docs/new.noma": VALID, "src/a.ts": "a2\n" });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "ok"], { PATH: node.path });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain("No issues found");
    expect(node.starts()).toBe(1);
  });
});

describe("the installed hook starts no node when nothing judged is staged, and the commit goes on", () => {
  const cases: Array<[string, (repo: string) => void]> = [
    ["code modified", (r) => writeTree(r, { "src/a.ts": "a2\n" })],
    ["code deleted", (r) => git(r, ["rm", "-q", "src/a.ts"])],
    ["code renamed", (r) => git(r, ["mv", "src/a.ts", "src/c.ts"])],
    [
      "names with spaces, a newline, quotes, a leading dash, bytes that are not UTF-8",
      (r) => {
        for (const name of ["src/a b.ts", "src/a\nb.noma.ts", "src/'q\".ts", "src/-n.ts", "src/--cached", "src/x\n.notarai/y.spec.yaml"])
          writeTree(r, { [name]: "x\n" });
        writeFileSync(Buffer.from([...Buffer.from(join(r, "src/bad")), 0xff, 0xfe, ...Buffer.from(".noma.txt")]), "x\n");
      },
    ],
    [
      "near misses of the judged names",
      (r) =>
        writeTree(r, {
          "docs/c.noma.bak": "x\n",
          "docs/c.nomad": "x\n",
          "docs/c.patches": "x\n",
          "docs/c.noma.json": "x\n",
          ".notarai/README.md": "Specs, more.\n",
          ".notarai/x.spec.yml": "x\n",
          ".notarai/sub/config.yaml": "x\n",
          "config.yaml": "x\n",
          "src/.notarai/a.spec.yaml": "x\n",
          ".Notarai/a.spec.yaml": "x\n",
        }),
    ],
  ];

  for (const [what, stage] of cases) {
    it(what, () => {
      const repo = projectRepo();
      const node = nodeRecorder();
      stage(repo);
      git(repo, ["add", "-A"]);
      const before = head(repo);
      const r = commit(repo, ["-m", what], { PATH: node.path });
      expect(r.code, r.output).toBe(0);
      expect(r.output.trim()).toBe(NOTHING);
      expect(head(repo)).not.toBe(before);
      expect(node.starts()).toBe(0);
    });
  }

  it("git commit -a and git commit <path> (a temporary index): the index git gives the hook is the one asked", () => {
    const repo = projectRepo();
    const node = nodeRecorder();
    writeTree(repo, { "src/a.ts": "a2\n", "docs/c.noma": BROKEN });
    // Only src/a.ts is committed: the broken document stays in the work tree.
    const path = commit(repo, ["-m", "a path", "src/a.ts"], { PATH: node.path });
    expect(path.code, path.output).toBe(0);
    expect(path.output.trim()).toBe(NOTHING);
    expect(node.starts()).toBe(0);
    // -a takes the broken document too: node starts and blocks it.
    const all = commit(repo, ["-a", "-m", "all"], { PATH: node.path });
    expect(all.code).toBe(1);
    expect(errors(all.output)[0]).toMatch(/^ERROR \[broken-reference\] docs\/c\.noma:3:1:/);
    expect(node.starts()).toBe(1);
  });

  it("a program given by NOMA_RECONCILE_BIN is not run either", () => {
    const repo = projectRepo();
    const log = join(tempDir(), "ran.log");
    const tool = join(tempDir(), "my-noma");
    writeFileSync(tool, `#!/bin/sh\necho "$*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
    writeTree(repo, { "src/a.ts": "a2\n" });
    git(repo, ["add", "-A"]);
    expect(commit(repo, ["-m", "code"], { NOMA_RECONCILE_BIN: tool }).code).toBe(0);
    expect(existsSync(log)).toBe(false);
    writeTree(repo, { "docs/c.noma": "# Changed\n" });
    git(repo, ["add", "-A"]);
    expect(commit(repo, ["-m", "doc"], { NOMA_RECONCILE_BIN: tool }).code).toBe(1);
    expect(readFileSync(log, "utf8")).toBe("check --staged\n");
  });

  it("pathspec switches in the caller's environment do not change the answer", () => {
    const repo = projectRepo();
    const node = nodeRecorder();
    writeTree(repo, { "docs/b.noma": BROKEN });
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "x"], { PATH: node.path, GIT_LITERAL_PATHSPECS: "1", GIT_NOGLOB_PATHSPECS: "1" });
    expect(r.code).toBe(1);
    expect(errors(r.output)[0]).toMatch(/^ERROR \[broken-reference\] docs\/b\.noma:3:1:/);
    expect(node.starts()).toBe(1);
  });
});

describe("the hook managers' entry and the husky block filter the same way", () => {
  /** Run a hook program as a manager does (`sh -c`, or the husky file with `sh -e`) at the top of the work tree. */
  function run(repo: string, argv: string[], path: string): { code: number; stderr: string } {
    const r = spawnSync("sh", argv, { cwd: repo, encoding: "utf8", env: { ...process.env, PATH: path, NO_COLOR: "1" } });
    return { code: r.status ?? -1, stderr: r.stderr };
  }

  it("sh -c of the manager entry's program, and sh -e of a husky file holding the block", () => {
    const repo = projectRepo();
    const node = nodeRecorder();
    const husky = join(tempDir(), "pre-commit");
    writeFileSync(husky, `echo before\n${PRE_COMMIT_BLOCK}echo after\n`);
    writeTree(repo, { "src/a.ts": "a2\n" });
    git(repo, ["add", "-A"]);
    const entry = run(repo, ["-c", MANAGER_HOOK_PROGRAM], node.path);
    expect(entry).toEqual({ code: 0, stderr: `${NOTHING}\n` });
    const block = run(repo, ["-e", husky], node.path);
    expect(block).toEqual({ code: 0, stderr: `${NOTHING}\n` });
    expect(node.starts()).toBe(0);
    writeTree(repo, { "docs/b.noma": BROKEN });
    git(repo, ["add", "-A"]);
    expect(run(repo, ["-c", MANAGER_HOOK_PROGRAM], node.path).code).toBe(1);
    expect(run(repo, ["-e", husky], node.path).code).toBe(1);
    expect(node.starts()).toBe(2);
  });
});
