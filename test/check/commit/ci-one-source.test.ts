/**
 * `ci` judges one source: the commit HEAD (and the merge-base). The real CLI, spawned in
 * real repositories:
 * - the reproduction: an uncommitted `mark-reconciled` + `state snapshot` no longer turns a
 *   failing PR check green locally;
 * - the same commit gives byte-identical `--format json` verdicts with a clean tree,
 *   uncommitted edits (governed files, documents, specs, config, snapshot), staged edits,
 *   untracked governed files, files deleted in the work tree, and whatever the local cache
 *   says (a recorded reconciliation, or garbage); only the `uncommitted` field differs;
 * - uncommitted changes are named (stderr, and `uncommitted` in JSON), irrelevant ones not;
 * - `ci` writes nothing: not the work tree, the index, the cache or the snapshot;
 * - paths with spaces, unicode and newlines, renames and deletions between base and HEAD,
 *   a governed symlink followed inside the commit.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoTemplates } from "../../helpers/repo-templates.js";
import { runCli } from "../../helpers/run-cli.js";
import { git, type Tree } from "../../helpers/temp-repo.js";
import { BAD_SPEC, BROKEN, CLAIM, SPEC, VALID } from "../staged/fixtures.js";
import { ciRepo as buildCiRepo, commitAll, markInProcess, SPEC_PATH, writeTree } from "./ci-repo.js";

/** Each test's repository: a copy of one built once per shape. */
const templates = repoTemplates();
const ciRepo = (extra: Tree = {}): Promise<string> => templates.copyAsync(`ci:${JSON.stringify(extra)}`, () => buildCiRepo(extra));

const SNAPSHOT = ".notarai/reconciliation_state.json";
const CONFIG = ".notarai/config.yaml";

interface Uncommitted {
  count: number;
  paths: string[];
}

const ci = (repo: string, args: string[] = []) => runCli(["ci", "--format", "json", "--base", "main", ...args], { cwd: repo });

/** The envelope up to the `uncommitted` field (the last one): everything the verdict is made of. */
function verdictPart(stdout: string): string {
  const at = stdout.indexOf(',\n    "uncommitted": {');
  expect(at, "the envelope ends with an uncommitted field").toBeGreaterThan(0);
  return stdout.slice(0, at);
}

const uncommittedOf = (stdout: string): Uncommitted => (JSON.parse(stdout).result as { uncommitted: Uncommitted }).uncommitted;

function driftPaths(stdout: string): string[] {
  const e = JSON.parse(stdout).result as { drift: { specs: Array<{ unreconciled: Array<{ path: string; reason: string }> }> } };
  return e.drift.specs.flatMap((s) => s.unreconciled.map((f) => `${f.path} ${f.reason}`));
}

/** Put the work tree and the index back to HEAD (the ignored cache stays). */
function restore(repo: string): void {
  git(repo, ["reset", "-q", "--hard"]);
  git(repo, ["clean", "-qfd"]);
}

describe("ci: the reproduction (issue 23)", () => {
  it("an uncommitted mark-reconciled + state snapshot does not turn a failing PR check green", async () => {
    const repo = await ciRepo({ [CONFIG]: "drift: error\n" });
    writeTree(repo, { "src/a.ts": "a2\n" });
    commitAll(repo, "edit a");
    const committed = ci(repo);
    expect(committed.code).toBe(1);
    expect(driftPaths(committed.stdout)).toEqual(["src/a.ts hash-differs"]);

    await markInProcess(repo, ["src/a.ts"], { snapshot: true });
    expect(git(repo, ["status", "--porcelain"])).toBe(` M ${SNAPSHOT}\n`);

    const local = ci(repo);
    expect(local.code).toBe(1);
    expect(driftPaths(local.stdout)).toEqual(["src/a.ts hash-differs"]);
    expect(verdictPart(local.stdout)).toBe(verdictPart(committed.stdout));
    expect(uncommittedOf(local.stdout)).toEqual({ count: 1, paths: [SNAPSHOT] });
    expect(local.stderr).toContain("1 uncommitted change was not judged");
    expect(local.stderr).toContain("noma-reconcile check");
  });
});

describe("ci: the work tree, the index and the cache never change the verdict", () => {
  /**
   * A feature commit with a broken document, an unreconciled file, a reconciled one and a transcript
   * (built once, a copy per test), and its verdict.
   */
  async function featureRepo(): Promise<{ repo: string; clean: ReturnType<typeof ci> }> {
    const repo = await templates.copyAsync("feature", async () => {
      const repo = await buildCiRepo({ "src/c.ts": "c\n" });
      writeTree(repo, { "docs/broken.noma": BROKEN, "src/a.ts": "a2\n", "src/c.ts": "c2\n", "docs/new.noma": VALID });
      commitAll(repo, "feature");
      // src/c.ts reconciled at HEAD; src/a.ts not: commit a snapshot that vouches for c only.
      await markInProcess(repo, ["src/c.ts", "docs/broken.noma", "docs/new.noma"], { snapshot: true });
      commitAll(repo, "snapshot");
      return repo;
    });
    const clean = ci(repo);
    expect(clean.code).toBe(1);
    expect(driftPaths(clean.stdout)).toEqual(["src/a.ts hash-differs"]);
    const files = (JSON.parse(clean.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> }).files;
    expect(files.find((f) => f.file === "docs/broken.noma")?.diagnostics.map((d) => d.code)).toContain("broken-reference");
    expect(uncommittedOf(clean.stdout)).toEqual({ count: 0, paths: [] });
    expect(clean.stderr).not.toContain("not judged");
    return { repo, clean };
  }

  /** Edits to every kind of input ci reads: governed files, documents, specs, config, the snapshot. */
  async function editEverything(repo: string): Promise<void> {
    writeTree(repo, { "src/a.ts": "a3\n", "src/b.ts": "b3\n", "docs/broken.noma": VALID, "docs/new.noma": BROKEN });
    // A snapshot that vouches for the edited files as they now are.
    await markInProcess(repo, ["src/a.ts", "src/b.ts"], { snapshot: true });
    // The spec now governs nothing but docs; the configuration is invalid.
    writeTree(repo, { [SPEC_PATH]: SPEC.replace('  code:\n    - path: "src/**"\n', ""), [CONFIG]: "drift: sometimes\n" });
  }

  it("(b) uncommitted edits and (c) staged edits to governed files, documents, specs, config and the snapshot", async () => {
    const { repo, clean } = await featureRepo();
    await editEverything(repo);
    const edited = ci(repo);
    expect(edited.code).toBe(clean.code);
    expect(verdictPart(edited.stdout)).toBe(verdictPart(clean.stdout));
    const paths = [SPEC_PATH, CONFIG, SNAPSHOT, "docs/broken.noma", "docs/new.noma", "src/a.ts", "src/b.ts"];
    expect(uncommittedOf(edited.stdout)).toEqual({ count: paths.length, paths });
    expect(edited.stderr).toContain("7 uncommitted changes were not judged");

    git(repo, ["add", "-A"]);
    const staged = ci(repo);
    expect(staged.code).toBe(clean.code);
    expect(verdictPart(staged.stdout)).toBe(verdictPart(clean.stdout));
    expect(uncommittedOf(staged.stdout)).toEqual({ count: paths.length, paths });

    // Staged one way, edited further in the work tree.
    writeTree(repo, { "src/a.ts": "a4\n", [SPEC_PATH]: BAD_SPEC });
    const both = ci(repo);
    expect(verdictPart(both.stdout)).toBe(verdictPart(clean.stdout));
  });

  it("(d) untracked governed files, documents and specs; (e) files deleted in the work tree", async () => {
    const { repo, clean } = await featureRepo();
    writeTree(repo, {
      "src/untracked.ts": "u\n",
      "docs/untracked.noma": BROKEN,
      ".notarai/extra.spec.yaml": BAD_SPEC,
      "notes.txt": "ungoverned, not relevant\n",
    });
    const untracked = ci(repo);
    expect(untracked.code).toBe(clean.code);
    expect(verdictPart(untracked.stdout)).toBe(verdictPart(clean.stdout));
    expect(uncommittedOf(untracked.stdout)).toEqual({ count: 3, paths: [".notarai/extra.spec.yaml", "docs/untracked.noma", "src/untracked.ts"] });
    restore(repo);

    for (const p of ["src/a.ts", "src/c.ts", "docs/broken.noma", SNAPSHOT, SPEC_PATH]) unlinkSync(join(repo, p));
    const deleted = ci(repo);
    expect(deleted.code).toBe(clean.code);
    expect(verdictPart(deleted.stdout)).toBe(verdictPart(clean.stdout));
    expect(uncommittedOf(deleted.stdout).count).toBe(5);
    git(repo, ["add", "-A"]);
    const deletionStaged = ci(repo);
    expect(verdictPart(deletionStaged.stdout)).toBe(verdictPart(clean.stdout));
  });

  it("the local cache is never read: a recorded reconciliation or a garbage cache change nothing", async () => {
    const { repo, clean } = await featureRepo();
    // The cache now says src/a.ts (as committed) is reconciled; the committed snapshot does not.
    await markInProcess(repo, ["src/a.ts"]);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
    const cached = ci(repo);
    expect(cached.stdout).toBe(clean.stdout);
    expect(cached.code).toBe(clean.code);

    const cacheDir = join(repo, ".notarai/.cache");
    for (const f of readdirSync(cacheDir)) if (statSync(join(cacheDir, f)).isFile()) writeFileSync(join(cacheDir, f), "not a database\n");
    const garbage = ci(repo);
    expect(garbage.stdout).toBe(clean.stdout);
    expect(garbage.code).toBe(clean.code);
    expect(garbage.stderr).not.toMatch(/cache/i);
  });
});

describe("ci: read-only", () => {
  /** Every byte and mtime of the work tree (ignored cache included) and of .git/index. */
  function fingerprint(repo: string): string {
    const h = createHash("sha256");
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const abs = join(dir, name);
        if (abs === join(repo, ".git")) continue;
        const st = lstatSync(abs);
        h.update(`${abs}\0${st.mtimeMs}\0${st.mode}\0`);
        if (st.isDirectory()) walk(abs);
        else if (st.isFile()) h.update(readFileSync(abs));
      }
    };
    walk(repo);
    const index = join(repo, ".git/index");
    h.update(readFileSync(index)).update(String(statSync(index).mtimeMs));
    return h.digest("hex");
  }

  it("writes nothing: work tree, index, cache and snapshot are untouched, dirty or not", async () => {
    const repo = await ciRepo();
    writeTree(repo, { "src/a.ts": "a2\n" });
    commitAll(repo, "feature");
    await markInProcess(repo, ["src/a.ts"]);
    writeTree(repo, { "src/b.ts": "b2\n", "src/new.ts": "n\n" });
    git(repo, ["add", "src/b.ts"]);
    // Make every index entry look stat-dirty, so an opportunistic index refresh would rewrite it.
    const later = new Date(Date.now() + 5_000);
    for (const p of ["src/a.ts", "README.md", SPEC_PATH]) {
      const abs = join(repo, p);
      writeFileSync(abs, readFileSync(abs));
      utimesSync(abs, later, later);
    }
    const before = fingerprint(repo);
    expect(existsSync(join(repo, ".notarai/.cache"))).toBe(true);
    const r = ci(repo);
    expect(r.code).toBe(0);
    expect(fingerprint(repo)).toBe(before);
  });
});

describe("ci: paths, renames, deletions and symlinks between base and HEAD", () => {
  it("spaces, unicode and newlines in paths; a rename and a deletion reconciled by the committed snapshot", async () => {
    // picomatch's `**` does not match a line break, so the newline file is governed by its literal path.
    const spec = `${SPEC}  odd:\n    - path: "src/line\\nbreak.ts"\n`;
    const repo = await ciRepo({ [SPEC_PATH]: spec, "src/old name.ts": "old\n", "docs/plän ü.noma": CLAIM });
    git(repo, ["mv", "src/old name.ts", "src/new näme ✓.ts"]);
    git(repo, ["rm", "-q", "src/b.ts"]);
    writeTree(repo, { "src/line\nbreak.ts": "nl\n", "src/tab\tand space.ts": "t\n", "docs/plän ü.noma": VALID, "docs/new\nline.noma": BROKEN });
    commitAll(repo, "rename, delete, add odd names");
    // Reconcile the rename, the edited document and the tab file; leave the newline file unreconciled.
    await reconcileAllBut(repo, ["src/line\nbreak.ts", "docs/new\nline.noma"]);
    commitAll(repo, "snapshot");

    // Dirty the tree so a work-tree reading would see something else.
    writeTree(repo, { "src/new näme ✓.ts": "dirty\n", "src/b.ts": "back\n" });
    unlinkSync(join(repo, "src/line\nbreak.ts"));
    const r = ci(repo);
    const e = JSON.parse(r.stdout).result as {
      changed_files: string[];
      checked: string[];
      drift: {
        specs: Array<{
          unreconciled: Array<{ path: string; reason: string; change: string; category: string; current_blake3: string | null }>;
          reconciled: string[];
        }>;
      };
      files: Array<{ file: string; diagnostics: Array<{ code: string }> }>;
    };
    expect(e.changed_files).toEqual([
      SNAPSHOT,
      "docs/new\nline.noma",
      "docs/plän ü.noma",
      "src/b.ts",
      "src/line\nbreak.ts",
      "src/new näme ✓.ts",
      "src/old name.ts",
      "src/tab\tand space.ts",
    ]);
    expect(e.checked).toEqual(["docs/new\nline.noma", "docs/plän ü.noma"]);
    expect(e.files.find((f) => f.file === "docs/new\nline.noma")?.diagnostics.map((d) => d.code)).toContain("broken-reference");
    const drift = e.drift.specs[0]!;
    expect(drift.unreconciled.map((f) => `${f.path}|${f.change}|${f.category}|${f.reason}`)).toEqual(["src/line\nbreak.ts|added|odd|not-in-snapshot"]);
    expect(drift.unreconciled[0]!.current_blake3).toBe(await blake3Of("nl\n"));
    expect(drift.reconciled).toEqual(["docs/plän ü.noma", "src/b.ts", "src/new näme ✓.ts", "src/old name.ts", "src/tab\tand space.ts"]);
    expect(uncommittedOf(r.stdout).paths).toEqual(["src/b.ts", "src/line\nbreak.ts", "src/new näme ✓.ts"]);
  });

  it("a deletion the snapshot does not record is drift; a renamed file is new to the snapshot", async () => {
    const repo = await ciRepo({ "src/old.ts": "old\n" });
    git(repo, ["mv", "src/old.ts", "src/moved.ts"]);
    git(repo, ["rm", "-q", "src/b.ts"]);
    commitAll(repo, "rename and delete, no snapshot update");
    writeTree(repo, { "src/b.ts": "b\n" });
    const e = JSON.parse(ci(repo).stdout).result as {
      drift: { specs: Array<{ unreconciled: Array<{ path: string; reason: string; change: string }>; reconciled: string[] }> };
    };
    expect(e.drift.specs[0]!.unreconciled.map((f) => `${f.path}|${f.change}|${f.reason}`)).toEqual([
      "src/b.ts|deleted|deleted",
      "src/moved.ts|renamed|not-in-snapshot",
      "src/old.ts|deleted|deleted",
    ]);
  });

  it("a governed symlink is hashed as what it points to inside the commit", async () => {
    const repo = await ciRepo();
    symlinkSync("a.ts", join(repo, "src/link.ts"));
    symlinkSync("../nowhere", join(repo, "src/dangling.ts"));
    commitAll(repo, "links");
    // The work tree's link now points elsewhere; the commit's does not.
    unlinkSync(join(repo, "src/link.ts"));
    symlinkSync("b.ts", join(repo, "src/link.ts"));
    const e = JSON.parse(ci(repo).stdout).result as {
      drift: { specs: Array<{ unreconciled: Array<{ path: string; reason: string; current_blake3: string | null }> }> };
    };
    const byPath = new Map(e.drift.specs[0]!.unreconciled.map((f) => [f.path, f]));
    expect(byPath.get("src/link.ts")).toMatchObject({ reason: "not-in-snapshot", current_blake3: await blake3Of("a\n") });
    // No content inside the commit, but present: not a deletion the snapshot could have recorded.
    expect(byPath.get("src/dangling.ts")).toMatchObject({ reason: "deleted", current_blake3: null });
  });
});

async function blake3Of(text: string): Promise<string> {
  const { loadBlake3 } = await import("../../../src/cache/blake3.js");
  return (await loadBlake3()).hashHex(Buffer.from(text));
}

/** mark-reconciled every governed file but `except`, write the snapshot (not committed). */
async function reconcileAllBut(repo: string, except: string[]): Promise<void> {
  const { markReconciled } = await import("../../../src/reconcile/mark-reconciled.js");
  const { snapshotState } = await import("../../../src/reconcile/snapshot-state.js");
  const files = git(repo, ["ls-files", "-z", "-co", "--exclude-standard", "src", "docs"])
    .split("\0")
    .filter((f) => f.length > 0 && !except.includes(f));
  await markReconciled(repo, { files });
  await snapshotState(repo);
}
