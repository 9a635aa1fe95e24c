/**
 * Acknowledgements in the pre-commit hook (real `git commit`s through the installed hook)
 * and in the PR check (`ci`, spawned): under `transcripts: strict`, an outside edit blocks
 * until accepted; the commit or PR that accepts it passes and shows the acknowledgement as
 * an INFO line (a `::notice` on GitHub); later changes do not repeat it, a transcript moved
 * with its document does not either, and a transcript the change creates shows its own.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acceptOutsideEdits } from "../../src/editing/accept-document.js";
import { runCli } from "../helpers/run-cli.js";
import { git, writeTree } from "../helpers/temp-repo.js";
import { CLAIM, patch } from "../check/staged/fixtures.js";
import { commit, hookRepo } from "../check/staged/hook-repo.js";
import { ciRepo, commitAll, reconcileAll } from "../check/commit/ci-repo.js";
import { repoTemplates } from "../helpers/repo-templates.js";

/** The repositories two tests start from: built once, a copy per test. */
const templates = repoTemplates();

const DOC = "docs/plan.noma";
const T = `${DOC}.patches`;
const STRICT = { ".notarai/config.yaml": "transcripts: strict\n" };
const NOTICE =
  /INFO \[transcript-outside-edit-accepted\] docs\/plan\.noma\.patches:(\d+):1: This change acknowledges an edit made to the document outside the protocol \(([0-9a-f]{8}) → ([0-9a-f]{8})\), accepted by Test \(human\): "fixed by hand"\./;

/**
 * What `transcript accept <doc> --reason "fixed by hand"` does (exit 0), in process: the acknowledgement
 * is what the hook and ci then judge. The actor as the CLI makes it: human, git's user.name ("Test").
 */
const accept = (repo: string, doc = DOC) => {
  const r = acceptOutsideEdits(join(repo, doc), { actor: { kind: "human", name: "Test" }, reason: "fixed by hand", label: doc, root: repo });
  expect(r.accepted.length).toBeGreaterThan(0);
};

describe("pre-commit hook: acknowledgements made in the commit", () => {
  function patchedRepo(): string {
    return templates.copy("patched", () => {
      const repo = hookRepo({ [DOC]: CLAIM, ...STRICT });
      patch(repo, DOC, [0.6]);
      git(repo, ["add", "."]);
      expect(commit(repo, ["-m", "patched"]).code).toBe(0);
      return repo;
    });
  }

  it("an outside edit blocks under strict; accepted, the commit passes and shows the acknowledgement once", () => {
    const repo = patchedRepo();
    appendFileSync(join(repo, DOC), "\nTyped in an editor.\n");
    git(repo, ["add", "."]);
    const blocked = commit(repo, ["-m", "hand edit"]);
    expect(blocked.code, blocked.output).toBe(1);
    expect(blocked.output).toContain("ERROR [transcript-document-mismatch]");

    accept(repo);
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "hand edit, accepted"]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(NOTICE);
    expect(r.output.match(NOTICE)![1]).toBe("2");
    expect(r.output).not.toMatch(/ERROR|WARNING/);

    // The next change does not repeat it.
    patch(repo, DOC, [0.7]);
    git(repo, ["add", "."]);
    const next = commit(repo, ["-m", "patched again"]);
    expect(next.code, next.output).toBe(0);
    expect(next.output).not.toContain("transcript-outside-edit-accepted");

    // Moved with its document: nothing new is accepted, nothing is shown.
    git(repo, ["mv", DOC, "docs/moved.noma"]);
    git(repo, ["mv", T, "docs/moved.noma.patches"]);
    const moved = commit(repo, ["-m", "move"]);
    expect(moved.code, moved.output).toBe(0);
    expect(moved.output).not.toContain("transcript-outside-edit-accepted");
  });

  it("a transcript created in the commit shows the acknowledgement it holds", () => {
    const repo = hookRepo({ "README.md": "x\n", ...STRICT });
    writeTree(repo, { [DOC]: CLAIM });
    patch(repo, DOC, [0.6]);
    appendFileSync(join(repo, DOC), "\nTyped in an editor.\n");
    accept(repo);
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "new document, edited and accepted"]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(NOTICE);
  });

  it("the document edited again after accepting, or an edited acknowledgement, is blocked", () => {
    const repo = patchedRepo();
    appendFileSync(join(repo, DOC), "\nTyped in an editor.\n");
    accept(repo);
    const accepted = readFileSync(join(repo, T), "utf8");
    appendFileSync(join(repo, DOC), "\nAnd more, never accepted.\n");
    git(repo, ["add", "."]);
    const stale = commit(repo, ["-m", "stale"]);
    expect(stale.code, stale.output).toBe(1);
    expect(stale.output).toContain("ERROR [transcript-document-mismatch]");

    // The acknowledgement's reason rewritten: its seal breaks.
    writeFileSync(join(repo, T), accepted.replace('"fixed by hand"', '"approved by the board"'));
    git(repo, ["add", "."]);
    const r = commit(repo, ["-m", "forged"]);
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain("ERROR [transcript-seal-broken] docs/plan.noma.patches:2:1:");
  });
});

describe("ci: acknowledgements made in the pull request", () => {
  function prRepo(): Promise<string> {
    return templates.copyAsync("pr", async () => {
      const repo = await ciRepo(STRICT);
      git(repo, ["checkout", "-q", "main"]);
      patch(repo, DOC, [0.6]);
      await reconcileAll(repo);
      commitAll(repo, "patched on main");
      git(repo, ["checkout", "-q", "-B", "feature"]);
      return repo;
    });
  }

  interface Envelope {
    files: Array<{ file: string; diagnostics: Array<{ severity: string; code: string; message: string; pos?: { line: number } }> }>;
  }
  const ciJson = (repo: string) => {
    const r = runCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    const env = JSON.parse(r.stdout) as { summary: { errors: number; warnings: number }; result: Envelope };
    return { code: r.code, summary: env.summary, out: env.result };
  };

  it("fails on an unaccepted outside edit; passes once accepted, with the acknowledgement as information (text, json, github)", async () => {
    const repo = await prRepo();
    appendFileSync(join(repo, DOC), "\nTyped in an editor.\n");
    await reconcileAll(repo);
    commitAll(repo, "hand edit");
    const before = ciJson(repo);
    expect(before.code).toBe(1);
    expect(before.out.files.find((f) => f.file === T)!.diagnostics.map((d) => d.code)).toEqual(["transcript-document-mismatch"]);

    accept(repo);
    await reconcileAll(repo);
    commitAll(repo, "accept the hand edit");
    const after = ciJson(repo);
    expect(after.code, JSON.stringify(after.out.files)).toBe(0);
    expect(after.summary).toMatchObject({ errors: 0, warnings: 0 });
    expect(after.out.files.find((f) => f.file === T)!.diagnostics).toEqual([
      {
        severity: "info",
        code: "transcript-outside-edit-accepted",
        message: expect.stringMatching(
          /^This change acknowledges an edit made to the document outside the protocol \([0-9a-f]{8} → [0-9a-f]{8}\), accepted by Test \(human\): "fixed by hand"\.$/,
        ),
        pos: { line: 2, column: 1 },
      },
    ]);
    const text = runCli(["ci", "--base", "main"], { cwd: repo });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(NOTICE);
    const github = runCli(["ci", "--base", "main", "--format", "github"], { cwd: repo });
    expect(github.stdout).toMatch(/^::notice file=docs\/plan\.noma\.patches,line=2[^\n]*::This change acknowledges an edit/m);

    // Merged; the next pull request patches the document: the acknowledgement is not repeated.
    git(repo, ["checkout", "-q", "main"]);
    git(repo, ["merge", "-q", "feature"]);
    git(repo, ["checkout", "-q", "-B", "feature"]);
    patch(repo, DOC, [0.8]);
    await reconcileAll(repo);
    commitAll(repo, "patched again");
    const later = ciJson(repo);
    expect(later.code, JSON.stringify(later.out.files)).toBe(0);
    expect(later.out.files.find((f) => f.file === T)?.diagnostics ?? []).toEqual([]);
  });

  it("an edit patched over in the PR, accepted: the append-only rule takes the acknowledgement as growth", async () => {
    const repo = await prRepo();
    appendFileSync(join(repo, DOC), "\nTyped in an editor.\n");
    patch(repo, DOC, [0.7]);
    accept(repo);
    await reconcileAll(repo);
    commitAll(repo, "edit, patch, accept");
    const r = ciJson(repo);
    expect(r.code, JSON.stringify(r.out.files)).toBe(0);
    expect(r.out.files.find((f) => f.file === T)!.diagnostics).toEqual([
      expect.objectContaining({
        severity: "info",
        code: "transcript-outside-edit-accepted",
        message: expect.stringContaining("outside the protocol before line 2 ("),
        pos: { line: 3, column: 1 },
      }),
    ]);
  });

  it("a transcript created in the PR shows its acknowledgement", async () => {
    const repo = await ciRepo(STRICT);
    const doc = "docs/new.noma";
    appendFileSync(join(repo, doc), CLAIM);
    patch(repo, doc, [0.6]);
    appendFileSync(join(repo, doc), "\nTyped in an editor.\n");
    accept(repo, doc);
    await reconcileAll(repo);
    commitAll(repo, "new document, edited and accepted");
    const r = ciJson(repo);
    expect(r.code, JSON.stringify(r.out.files)).toBe(0);
    expect(r.out.files.find((f) => f.file === `${doc}.patches`)!.diagnostics.map((d) => [d.severity, d.code])).toEqual([
      ["info", "transcript-outside-edit-accepted"],
    ]);
  });
});
