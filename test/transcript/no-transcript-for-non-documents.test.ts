/**
 * Issue 38: a transcript (`<file>.patches`) is written for a document and nothing else, and a
 * refused request leaves no trace. Table-driven: every entry point that writes transcripts —
 * the real CLI (`patch`, `transcript accept`), the real MCP server over stdio (`patch_block`,
 * and the workspace tools' edit_file/write_file on a document), and the library
 * (patchDocument, acceptOutsideEdits, patchBook, appendTranscript) — against every kind of
 * file that is not a document (a book manifest, YAML, JSON, Markdown, a name with no
 * extension, a directory, a directory named like a document, bytes that are no text, a symlink
 * out of the repository, a missing file) and every kind of refused request (a valid op, an
 * unknown op, a baseHash mismatch, a value that is not an op, JSON that does not parse). After
 * each, every file in the repository (.git/ aside) is byte for byte what it was: no transcript,
 * no lock, no temp or staged file.
 *
 * On a document, the ops the engine rejects are recorded (§3.2, §5: a rejected record per
 * attempted op); what is refused before it is an op — JSON that does not parse, a value that
 * is not an op, a missing document — writes nothing there either.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acceptOutsideEdits } from "../../src/editing/accept-document.js";
import { patchBook } from "../../src/editing/patch-book.js";
import { patchDocument } from "../../src/editing/patch-document.js";
import { appendTranscript } from "../../src/transcript/append-transcript.js";
import { mayHoldTranscript } from "../../src/transcript/may-hold-transcript.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const DOC = '# Doc\n\n::claim{id="c" n=0}\nA claim.\n::\n';
const TREE = {
  "docs/a.noma": DOC,
  "x.yaml": "a: 1\n",
  "x.json": '{"a": 1}\n',
  "x.md": "# Notes\n",
  plain: "hello\n",
  "sub/keep.txt": "kept\n",
  "d.noma/keep.txt": "a directory named like a document\n",
  "bytes.txt": Buffer.from([0xff, 0xfe, 0x00, 0x9f, 0x0a]),
  "book/book.noma.yml": "title: Guide\nchapters:\n  - 01-intro.noma\n",
  "book/01-intro.noma": '# Intro\n\n::note{id="n1" confidence=0.5}\nIt holds.\n::\n',
};
/** Every target that is not a document (out.noma is a symlink to a file outside the repository, made per repository). */
const NOT_DOCUMENTS = ["x.yaml", "x.json", "x.md", "plain", "sub", "d.noma", "bytes.txt", "out.noma", "missing.noma", "missing.yaml", "book/book.noma.yml"];
const ZERO = "0".repeat(64);
/** Requests refused on any file that is not a document (a book manifest takes a valid op: see `bookOps`). */
const OPS: Record<string, unknown> = {
  "a valid op": { op: "update_attribute", id: "c", key: "n", value: 1 },
  "an unknown op": { op: "bogus", id: "c" },
  "a baseHash mismatch": { op: "update_attribute", id: "c", key: "n", value: 2, baseHash: ZERO },
  "a value that is not an op": { nop: 1 },
};
/**
 * On the book manifest every op is aimed at a chapter: refused ones only (a valid op there patches the chapter). An op
 * its chapter rejects (a baseHash mismatch) is recorded in that chapter's transcript, as on any document: see below.
 */
const BOOK_OPS: Record<string, unknown> = {
  "an id in no chapter": { op: "update_attribute", id: "nowhere", key: "n", value: 1 },
  "an unknown op": { op: "bogus", id: "n1" },
  "a value that is not an op": { nop: 1 },
  "JSON that is no op list": "update_attribute",
};
const opsFor = (target: string): Record<string, unknown> => (target.endsWith(".noma.yml") ? BOOK_OPS : OPS);

/** Every path under `root` (.git/ aside) with its bytes' sha256 (a symlink: its target; a directory: "dir"). */
function treeState(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      if (r === ".git") continue;
      const st = lstatSync(join(root, r));
      if (st.isSymbolicLink()) out[r] = `-> ${readlinkSync(join(root, r))}`;
      else if (st.isDirectory()) {
        out[r] = "dir";
        walk(r);
      } else
        out[r] = createHash("sha256")
          .update(readFileSync(join(root, r)))
          .digest("hex");
    }
  };
  walk("");
  return out;
}

const templates = repoTemplates();
/** The file out.noma links to, outside every repository: one per test file, removed after its tests. */
let outside: string | undefined;
afterAll(() => {
  if (outside !== undefined) rmSync(outside, { recursive: true, force: true });
});

/** Each test's repository: a copy (the link kept as it is) of the one built once (test/helpers/repo-templates.ts). */
function repo(): { dir: string; before: Record<string, string> } {
  const dir = templates.copy("repo", () => {
    const built = tempRepo(TREE);
    outside ??= realpathSync(mkdtempSync(join(tmpdir(), "nr-outside-")));
    writeFileSync(join(outside, "real.noma"), DOC);
    symlinkSync(join(outside, "real.noma"), join(built, "out.noma"));
    return built;
  });
  return { dir, before: treeState(dir) };
}

describe("the rule: only a .noma document may hold a transcript", () => {
  it("answers by the file's name", () => {
    for (const p of ["a.noma", "docs/A.NOMA", "/abs/x.Noma", "c:\\w\\x.noma"]) expect(mayHoldTranscript(p), p).toBe(true);
    for (const p of [
      "book.noma.yml",
      "x.noma.yaml",
      "x.noma.patches",
      "x.noma.capabilities.yml",
      "x.yaml",
      "x.md",
      "plain",
      ".noma",
      "dir/.noma",
      "",
      "x.noma/",
    ])
      expect(mayHoldTranscript(p), p).toBe(false);
  });
});

describe("no transcript for anything that is not a document, and none for a refused request: the CLI", () => {
  it.each(NOT_DOCUMENTS)("patch and transcript accept of %s, with each kind of op, change no file", (target) => {
    const { dir, before } = repo();
    const seen: string[] = [];
    for (const [kind, op] of Object.entries(opsFor(target))) {
      const r = runCli(["patch", target, "--op", JSON.stringify(op), "--format", "json"], { cwd: dir });
      expect(r.code, `${target}, ${kind}: ${r.stdout}${r.stderr}`).not.toBe(0);
      expect(treeState(dir), `patch ${target}, ${kind}`).toEqual(before);
      seen.push(kind);
    }
    expect(seen.length).toBe(4);
    const bad = runCli(["patch", target, "--op", "{not json"], { cwd: dir });
    expect(bad.code, `${target}: ${bad.stderr}`).toBe(2);
    expect(treeState(dir), `patch ${target}, bad JSON`).toEqual(before);
    const accept = runCli(["transcript", "accept", target, "--reason", "r"], { cwd: dir });
    expect(accept.code, `${target}: ${accept.stderr}`).toBe(2);
    expect(treeState(dir), `transcript accept ${target}`).toEqual(before);
  });

  it("names why a file that is not a document is refused; a document's request refused before it is an op writes nothing", () => {
    const { dir, before } = repo();
    const yaml = runCli(["patch", "x.yaml", "--op", JSON.stringify(OPS["a valid op"])], { cwd: dir });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain("x.yaml: not a Noma document (a document's name ends in .noma); only a document is patched");
    for (const op of ["{not json", JSON.stringify({ nop: 1 }), "42"]) {
      const r = runCli(["patch", "docs/a.noma", "--op", op], { cwd: dir });
      expect(r.code, `${op}: ${r.stderr}`).toBe(2);
      expect(treeState(dir), `patch docs/a.noma --op ${op}`).toEqual(before);
    }
  });
});

describe("… the MCP server over stdio", () => {
  it("patch_block on each non-document, with each kind of op, changes no file; on a document, ops that are no ops change none", async () => {
    const { dir, before } = repo();
    const c = new McpClient(dir);
    let calls = 0;
    for (const target of NOT_DOCUMENTS) {
      for (const [kind, op] of Object.entries(opsFor(target))) {
        const r = await c.call("patch_block", { file: target, ops: [op] });
        const answer = r.isError === true ? r.content[0]!.text : JSON.stringify(r.structuredContent);
        expect(r.isError === true || (r.structuredContent as { ok: boolean }).ok === false, `${target}, ${kind}: ${answer}`).toBe(true);
        expect(treeState(dir), `patch_block ${target}, ${kind}: ${answer}`).toEqual(before);
        calls++;
      }
    }
    expect(calls).toBe(NOT_DOCUMENTS.length * 4);
    expect(await c.fails("patch_block", { file: "x.yaml", ops: [OPS["a valid op"]] })).toContain("x.yaml: not a Noma document");
    for (const ops of [[{ nop: 1 }], ["update_attribute"], [42]]) {
      const r = await c.call("patch_block", { file: "docs/a.noma", ops });
      expect(r.isError, JSON.stringify(ops)).toBe(true);
      expect(treeState(dir), JSON.stringify(ops)).toEqual(before);
    }
    await c.close();
  });

  it("the workspace tools refuse to write a document or any transcript: only their evidence ledger grows", async () => {
    const { dir, before } = repo();
    const c = new McpClient(dir);
    const LEDGER = "docs/evidence_ledger.tools.log";
    const writes: Array<[string, Record<string, unknown>]> = [];
    for (const path of ["docs/a.noma", "docs/a.noma.patches", "new.noma.patches", "book/01-intro.noma.patches"]) {
      writes.push(
        ["edit_file", { path, contents: "x\n", create_if_missing: true }],
        ["edit_file", { path, edits: [{ oldText: "claim", newText: "x" }] }],
        ["apply_patch", { path, hunks: [{ start_line: 1, end_line: 1, replacement: "x" }] }],
        ["write_file", { path, content: "x\n" }],
        ["append_file", { path, content: "x\n" }],
      );
    }
    writes.push(
      ["move_file", { source: "docs/a.noma", destination: "docs/b.noma" }],
      ["move_file", { source: "x.yaml", destination: "x.noma.patches" }],
      ["move_file", { source: "docs/a.noma", destination: "docs/a.yaml" }],
    );
    for (const [tool, args] of writes) {
      const r = await c.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.content[0]?.text}`).toBe(true);
      // The ledger, and the empty folder the tools keep their locks in (.notarai/.cache/workspace/), are the tools' own.
      const after = Object.fromEntries(
        Object.entries(treeState(dir)).filter(
          ([p, v]) => p !== LEDGER && !(v === "dir" && [".notarai", ".notarai/.cache", ".notarai/.cache/workspace"].includes(p)),
        ),
      );
      expect(after, `${tool} ${JSON.stringify(args)}`).toEqual(before);
    }
    expect(readFileSync(join(dir, LEDGER), "utf8").trim().split("\n").length).toBe(writes.length);
    await c.close();
  });
});

describe("… the library", () => {
  const actor = { kind: "agent" as const, name: "t" };

  it("patchDocument, acceptOutsideEdits, patchBook and appendTranscript refuse and change no file", () => {
    const { dir, before } = repo();
    let refusals = 0;
    for (const target of NOT_DOCUMENTS) {
      const abs = join(dir, target);
      for (const [kind, op] of Object.entries(opsFor(target))) {
        const call = target.endsWith(".noma.yml")
          ? () => patchBook(abs, [op], { actor, root: dir })
          : () => patchDocument(abs, [op], { actor, root: dir, reuse: false });
        let outcome = "threw";
        try {
          const r = call() as { outcome: { result: string } | string };
          outcome = typeof r.outcome === "string" ? r.outcome : r.outcome.result;
        } catch {
          refusals++;
        }
        expect(outcome, `${target}, ${kind}`).not.toBe("applied");
        expect(treeState(dir), `${target}, ${kind}`).toEqual(before);
      }
      expect(() => acceptOutsideEdits(abs, { actor, reason: "r", root: dir }), target).toThrow();
      expect(treeState(dir), `accept ${target}`).toEqual(before);
    }
    expect(refusals).toBeGreaterThanOrEqual((NOT_DOCUMENTS.length - 1) * 4);
    // The one writer refuses a transcript path whose file is not a document, whoever calls it.
    const record = { protocol_version: "1.0" };
    for (const p of ["x.yaml.patches", "book/book.noma.yml.patches", "plain.patches", "docs/a.noma", "d.noma/keep.txt.patches"])
      expect(() => appendTranscript(join(dir, p), [record], false), p).toThrow(/not a Noma document|book manifest is not a document/);
    expect(treeState(dir)).toEqual(before);
    // A new folder and file appear only where a document is patched.
    mkdirSync(join(dir, "docs/more"));
    writeFileSync(join(dir, "docs/more/b.noma"), DOC);
    const ok = patchDocument(join(dir, "docs/more/b.noma"), [OPS["a valid op"]], { actor, root: dir, reuse: false });
    expect(ok.outcome.result).toBe("applied");
    expect(Object.keys(treeState(dir)).filter((p) => before[p] === undefined)).toEqual(["docs/more", "docs/more/b.noma", "docs/more/b.noma.patches"]);
  });
});

describe("a book op its chapter rejects", () => {
  it("is recorded in that chapter's transcript (a document), as on any document; the manifest gets none and nothing else changes", () => {
    const { dir, before } = repo();
    const r = runCli(
      ["patch", "book/book.noma.yml", "--op", JSON.stringify({ op: "update_attribute", id: "n1", key: "confidence", value: 0.9, baseHash: ZERO })],
      { cwd: dir },
    );
    expect(r.code, r.stderr).toBe(1);
    const after = treeState(dir);
    expect(Object.keys(after).filter((p) => after[p] !== before[p])).toEqual(["book/01-intro.noma.patches"]);
    const lines = readFileSync(join(dir, "book/01-intro.noma.patches"), "utf8").trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { patch_result: string }).patch_result)).toEqual(["rejected"]);
  });
});
