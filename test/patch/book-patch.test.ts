/**
 * Issue 38.1, book transactions: `patch book.noma.yml --op …` routes each op to the chapter
 * that owns its target id (a chapter-scoped section id, its unscoped alias, a directive id),
 * applies them all in memory, validates the re-assembled book and writes all-or-nothing, each
 * chapter's transcript getting its records — through the real CLI, the real MCP server and the
 * library; an id two chapters hold is id_conflict; a baseHash is checked against the chapter;
 * a process killed at any point of the write leaves every chapter old or every chapter new
 * (after the next transaction finishes what the journal committed); the manifest never gets a
 * transcript.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { patchBook } from "../../src/editing/patch-book.js";
import { parseNoma } from "../../src/internal.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { spawn } from "node:child_process";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const MANIFEST = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";
const INTRO = '# Intro\n\n## Scope\n\nRead [[mitigation]].\n\n::note{id="c1" confidence=0.5}\nIt holds; see [[r1]].\n::\n';
const RISKS = '# Risks\n\n## Mitigation\n\nBack to [[scope]].\n\n::risk{id="r1" owner="bo"}\nIt breaks.\n::\n';
const BOOK = { "book/book.noma.yml": MANIFEST, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS };
const actor = { kind: "agent" as const, name: "t" };

/** The CLI as a process we can watch die. */
function spawnCli(args: string[], cwd: string, env: NodeJS.ProcessEnv): { done: Promise<{ signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: "ignore" });
  return { done: new Promise((resolve) => child.on("close", (_code, signal) => resolve({ signal }))) };
}

const read = (repo: string, p: string): string => readFileSync(join(repo, p), "utf8");
const records = (repo: string, p: string): Array<Record<string, unknown>> =>
  existsSync(join(repo, `${p}.patches`))
    ? read(repo, `${p}.patches`)
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
const blockHash = (text: string, id: string): string => {
  const doc = parseNoma(text);
  const node = doc.nodeById.get(id)!;
  const lines = text.split("\n").slice(node.pos.line - 1, (node as { endLine: number }).endLine);
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
};

describe("patching a book", () => {
  it("routes each op to its chapter: a scoped section id, an unscoped alias, a directive id; all written, each transcript its records", () => {
    const repo = tempRepo(BOOK);
    const ops = [
      { op: "update_heading", id: "risks/mitigation", title: "Mitigation, revised" },
      { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 },
      { op: "update_heading", id: "scope", title: "Scope, revised" },
      { op: "update_attribute", id: "r1", key: "severity", value: "high" },
    ];
    const r = runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify(ops), "--actor-name", "t", "--format", "json"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      result: { outcome: string; chapters: Array<{ file: string; op_indexes: number[]; outcome: string; post_validation: string }> };
    };
    expect(out.result.outcome).toBe("applied");
    expect(out.result.chapters.map((c) => [c.file, c.op_indexes, c.outcome, c.post_validation])).toEqual([
      ["book/01-intro.noma", [1, 2], "applied", "ok"],
      ["book/02-risks.noma", [0, 3], "applied", "ok"],
    ]);
    expect(read(repo, "book/01-intro.noma")).toBe(INTRO.replace("## Scope\n", '## Scope, revised {id="scope"}\n').replace("confidence=0.5", "confidence=0.9"));
    expect(read(repo, "book/02-risks.noma")).toBe(
      RISKS.replace("## Mitigation", '## Mitigation, revised {id="mitigation"}').replace('owner="bo"', 'owner="bo" severity="high"'),
    );
    // Each chapter's transcript has its ops, with the chapter's own (unscoped) ids, and verifies.
    expect(records(repo, "book/01-intro.noma").map((x) => (x["op"] as { op: string; id: string }).id)).toEqual(["c1", "scope"]);
    expect(records(repo, "book/02-risks.noma").map((x) => (x["op"] as { op: string; id: string }).id)).toEqual(["mitigation", "r1"]);
    for (const ch of ["book/01-intro.noma", "book/02-risks.noma"]) {
      expect(records(repo, ch).every((x) => x["doc_uri"] === ch && x["patch_result"] === "applied")).toBe(true);
      expect(verifyTranscript(read(repo, `${ch}.patches`), read(repo, ch)).findings).toEqual([]);
    }
    expect(existsSync(join(repo, "book/book.noma.yml.patches"))).toBe(false);
    expect(readdirSync(join(repo, "book")).sort()).toEqual([
      "01-intro.noma",
      "01-intro.noma.patches",
      "02-risks.noma",
      "02-risks.noma.patches",
      "book.noma.yml",
    ]);
    expect(runCli(["check"], { cwd: repo }).code).toBe(0);
  });

  it("one op refused by its chapter (a stale baseHash) rejects the list: no chapter written, that chapter's transcript records the refusal", () => {
    const repo = tempRepo(BOOK);
    const good = { op: "update_attribute", id: "c1", key: "confidence", value: 0.9, baseHash: blockHash(INTRO, "c1") };
    const stale = { op: "update_attribute", id: "r1", key: "severity", value: "high", baseHash: "0123456789ab" };
    const r = runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify([good, stale]), "--actor-name", "t"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^rejected: sha_mismatch: .* \(op 2\) in book\/02-risks\.noma; no chapter of book\/book\.noma\.yml was written$/m);
    expect(read(repo, "book/01-intro.noma")).toBe(INTRO);
    expect(read(repo, "book/02-risks.noma")).toBe(RISKS);
    expect(records(repo, "book/01-intro.noma")).toEqual([]);
    expect(records(repo, "book/02-risks.noma").map((x) => [x["patch_result"], (x["diagnostics"] as Array<{ code: string }>)[0]!.code])).toEqual([
      ["rejected", "sha_mismatch"],
    ]);
    // The same baseHash, taken from the chapter, applies.
    const fresh = { ...stale, baseHash: blockHash(RISKS, "r1") };
    expect(runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify([good, fresh]), "--actor-name", "t"], { cwd: repo }).code).toBe(0);
    expect(read(repo, "book/02-risks.noma")).toContain('id="r1" owner="bo" severity="high"');
  });

  it("an id two chapters hold is id_conflict, and so is an op list that gives a chapter an id another holds; nothing written or recorded", () => {
    const repo = tempRepo({ ...BOOK, "book/02-risks.noma": `${RISKS}\n## Scope\n\nAgain.\n` });
    const both = runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify({ op: "update_heading", id: "scope", title: "S" }), "--format", "json"], {
      cwd: repo,
    });
    expect(both.code).toBe(1);
    expect(JSON.parse(both.stdout).result.error).toEqual({
      code: "id_conflict",
      op_index: 0,
      message:
        'id "scope" is held by 2 chapters (book/01-intro.noma, book/02-risks.noma); address it by its chapter-scoped id (e.g. "intro/scope") or patch the chapter\'s file.',
    });
    // Scoped, it is one chapter's.
    expect(runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify({ op: "update_heading", id: "risks/scope", title: "S" })], { cwd: repo }).code).toBe(
      0,
    );
    const dup = runCli(
      [
        "patch",
        "book/book.noma.yml",
        "--op",
        JSON.stringify({ op: "add_block", parent: "r1", content: '::note{id="c1"}\nA second c1.\n::' }),
        "--format",
        "json",
      ],
      { cwd: repo },
    );
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stdout).result.error.code).toBe("id_conflict");
    expect(JSON.parse(dup.stdout).result.error.message).toContain('gives book/02-risks.noma the id "c1", which book/01-intro.noma already holds');
    expect(read(repo, "book/02-risks.noma")).not.toContain("A second c1");
    const missing = runCli(["patch", "book/book.noma.yml", "--op", JSON.stringify({ op: "delete_block", id: "nowhere" }), "--format", "json"], { cwd: repo });
    expect(JSON.parse(missing.stdout).result.error).toMatchObject({ code: "target_missing", message: 'id "nowhere" is in no chapter of book/book.noma.yml.' });
    expect(records(repo, "book/01-intro.noma")).toEqual([]);
    expect(existsSync(join(repo, "book/book.noma.yml.patches"))).toBe(false);
  });

  it("the re-assembled book is validated: a link into another chapter that the list renames resolves after", () => {
    const repo = tempRepo(BOOK);
    // Validated against the book as it was, chapter 1's [[r2]] would be broken; in the book as the list leaves it, it resolves.
    const r = patchBook(
      join(repo, "book/book.noma.yml"),
      [
        { op: "rename_id", from: "r1", to: "r2" },
        { op: "replace_body", id: "c1", content: "It holds; see [[r2]]." },
      ],
      { actor, root: repo },
    );
    expect(r.result).toBe("applied");
    expect(r.chapters.map((c) => [c.file, c.outcome.postValidation, c.written])).toEqual([
      ["book/01-intro.noma", "ok", true],
      ["book/02-risks.noma", "ok", true],
    ]);
    // A dry run writes nothing.
    expect(read(repo, "book/01-intro.noma")).toContain("see [[r2]]");
    expect(read(repo, "book/02-risks.noma")).toContain('::risk{id="r2" owner="bo"}');
    // A dry run writes nothing.
    const dry = patchBook(join(repo, "book/book.noma.yml"), [{ op: "update_attribute", id: "c1", key: "see", value: "y" }], {
      actor,
      root: repo,
      dryRun: true,
    });
    expect(dry.result).toBe("applied");
    expect(read(repo, "book/01-intro.noma")).not.toContain("see=");
  });

  it("MCP patch_block takes a book manifest: each chapter with its records", async () => {
    const repo = tempRepo(BOOK);
    const c = new McpClient(repo);
    const res = (await c.ok("patch_block", {
      file: "book/book.noma.yml",
      ops: [
        { op: "update_attribute", id: "r1", key: "owner", value: "ana" },
        { op: "update_attribute", id: "c1", key: "confidence", value: 0.8 },
      ],
    })) as { ok: boolean; chapters: Array<{ file: string; op_indexes: number[]; transcript_entries: unknown[] }>; transcript_entries: unknown[] };
    expect(res.ok).toBe(true);
    expect(res.chapters.map((x) => [x.file, x.op_indexes, x.transcript_entries.length])).toEqual([
      ["book/01-intro.noma", [1], 1],
      ["book/02-risks.noma", [0], 1],
    ]);
    expect(res.transcript_entries).toHaveLength(2);
    expect(read(repo, "book/02-risks.noma")).toContain('owner="ana"');
    const conflict = (await c.ok("patch_block", { file: "book/book.noma.yml", op: { op: "delete_block", id: "nowhere" } })) as { ok: boolean; code: string };
    expect(conflict).toMatchObject({ ok: false, code: "target_missing" });
    expect(existsSync(join(repo, "book/book.noma.yml.patches"))).toBe(false);
    await c.close();
  });
});

describe("a process killed mid-transaction", () => {
  const OPS = JSON.stringify([
    { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 },
    { op: "update_attribute", id: "r1", key: "severity", value: "high" },
  ]);
  const NEW_INTRO = INTRO.replace("confidence=0.5", "confidence=0.9");
  const NEW_RISKS = RISKS.replace('owner="bo"', 'owner="bo" severity="high"');

  it.each([
    ["book-after-stage", "old"],
    ["book-after-journal", "new"],
    ["book-mid-commit", "new"],
  ] as const)("at %s: the next transaction finds every chapter %s, with its transcript", async (point, state) => {
    const repo = tempRepo(BOOK);
    const r = await spawnCli(["patch", "book/book.noma.yml", "--op", OPS, "--actor-name", "t"], repo, { NOMA_RECONCILE_TEST_CRASH_AT: point }).done;
    expect(r.signal).toBe("SIGKILL");
    // The next transaction (any op list) first finishes or drops the interrupted one, under the same locks.
    const next = runCli(
      ["patch", "book/book.noma.yml", "--op", JSON.stringify({ op: "update_attribute", id: "c1", key: "tag", value: "t" }), "--actor-name", "t"],
      {
        cwd: repo,
      },
    );
    expect(next.code, next.stdout + next.stderr).toBe(0);
    if (state === "new") expect(next.stdout).toContain("recovered: an interrupted book transaction was finished first (book/01-intro.noma.patches");
    else expect(next.stdout).not.toContain("recovered");
    const intro = state === "new" ? NEW_INTRO : INTRO;
    expect(read(repo, "book/01-intro.noma")).toBe(intro.replace(/(confidence=0\.\d)/, '$1 tag="t"'));
    expect(read(repo, "book/02-risks.noma")).toBe(state === "new" ? NEW_RISKS : RISKS);
    expect(records(repo, "book/01-intro.noma")).toHaveLength(state === "new" ? 2 : 1);
    expect(records(repo, "book/02-risks.noma")).toHaveLength(state === "new" ? 1 : 0);
    for (const ch of ["book/01-intro.noma", ...(state === "new" ? ["book/02-risks.noma"] : [])])
      expect(verifyTranscript(read(repo, `${ch}.patches`), read(repo, ch)).findings).toEqual([]);
    // No staged copy or journal is left behind.
    expect(readdirSync(join(repo, "book")).filter((f) => f.startsWith("."))).toEqual([]);
  });

  it("a single-document patch of a chapter after a committed, unfinished transaction first finishes it: nothing the book wrote is lost", async () => {
    const repo = tempRepo(BOOK);
    const r = await spawnCli(["patch", "book/book.noma.yml", "--op", OPS, "--actor-name", "t"], repo, { NOMA_RECONCILE_TEST_CRASH_AT: "book-mid-commit" }).done;
    expect(r.signal).toBe("SIGKILL");
    const one = runCli(
      ["patch", "book/02-risks.noma", "--op", JSON.stringify({ op: "update_attribute", id: "r1", key: "owner", value: "cy" }), "--actor-name", "t"],
      {
        cwd: repo,
      },
    );
    expect(one.code, one.stdout + one.stderr).toBe(0);
    expect(read(repo, "book/01-intro.noma")).toBe(NEW_INTRO);
    expect(read(repo, "book/02-risks.noma")).toBe(NEW_RISKS.replace('owner="bo"', 'owner="cy"'));
    expect(records(repo, "book/02-risks.noma")).toHaveLength(2);
    for (const ch of ["book/01-intro.noma", "book/02-risks.noma"]) expect(verifyTranscript(read(repo, `${ch}.patches`), read(repo, ch)).findings).toEqual([]);
    expect(readdirSync(join(repo, "book")).filter((f) => f.startsWith("."))).toEqual([]);
  });

  it("a transaction killed before its commit point leaves staged copies that the next single-document patch removes", async () => {
    const repo = tempRepo(BOOK);
    await spawnCli(["patch", "book/book.noma.yml", "--op", OPS, "--actor-name", "t"], repo, { NOMA_RECONCILE_TEST_CRASH_AT: "book-after-stage" }).done;
    expect(
      readdirSync(join(repo, "book"))
        .filter((f) => f.endsWith(".book-txn"))
        .sort(),
    ).toEqual([".01-intro.noma.book-txn", ".01-intro.noma.patches.book-txn", ".02-risks.noma.book-txn", ".02-risks.noma.patches.book-txn"]);
    expect(runCli(["patch", "book/01-intro.noma", "--op", JSON.stringify({ op: "update_attribute", id: "c1", key: "k", value: 1 })], { cwd: repo }).code).toBe(
      0,
    );
    expect(read(repo, "book/01-intro.noma")).toBe(INTRO.replace("confidence=0.5", "confidence=0.5 k=1"));
    expect(read(repo, "book/02-risks.noma")).toBe(RISKS);
    expect(readdirSync(join(repo, "book")).filter((f) => f.includes("01-intro") && f.startsWith("."))).toEqual([]);
  });
});
