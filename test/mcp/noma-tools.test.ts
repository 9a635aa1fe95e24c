/**
 * The four Noma tools of Annex B (read_doc, list_ids, validate_doc,
 * patch_block) through the real server: shapes, transcript side effects, and
 * the two-tier error envelope (PatchErrors are `{ok:false, code}` content;
 * only system faults are `isError`).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseNoma, blockHash, verifyTranscript } from "../../src/internal.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient, expectProtocolOnly } from "./helpers/mcp-client.js";

const DOC = [
  "---",
  "title: Plan",
  "aliases: [plan]",
  "---",
  "",
  '# Growth {id="growth" aliases="g,grow"}',
  "",
  "Intro paragraph.",
  "",
  '::claim{id="c1" confidence=0.5 owner="ana"}',
  "Revenue grows.",
  "::",
  "",
  '::evidence{id="e1" for="c1"}',
  "Measured.",
  "::",
  "",
  '::section{id="box"}',
  ':::risk{id="r1" owner="ops"}',
  "A nested risk.",
  ":::",
  "::",
  "",
  "- one",
  "- two",
  "",
].join("\n");

const sha = (s: string | Buffer): string => createHash("sha256").update(s).digest("hex");

interface Block {
  id?: string;
  type: string;
  name?: string;
  attrs?: Record<string, unknown>;
  title?: string;
  level?: number;
  aliases?: string[];
  childCount: number;
  lines: [number, number];
  patchable: boolean;
  hash?: string;
}

interface PatchBody {
  ok: boolean;
  post_validation?: string;
  transcript_entry?: Record<string, unknown>;
  diagnostics?: Array<{ severity: string; code: string }>;
  transcript_entries: Array<Record<string, unknown>>;
  error?: string;
  code?: string;
}

function records(path: string): Array<Record<string, unknown>> {
  return readFileSync(`${path}.patches`, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("read_doc", () => {
  it("lists every block in document order with Annex B fields, hashes and the document sha256", async () => {
    const repo = tempRepo({ "docs/plan.noma": DOC });
    const c = new McpClient(repo);
    const r = await c.ok<{ sha256: string; blocks: Block[] }>("read_doc", { file: "docs/plan.noma" });
    expect(r.sha256).toBe(sha(DOC));
    expect(r.blocks.map((b) => [b.type, b.id ?? null])).toEqual([
      ["section", "growth"],
      ["paragraph", null],
      ["directive", "c1"],
      ["paragraph", null],
      ["directive", "e1"],
      ["paragraph", null],
      ["directive", "box"],
      ["directive", "r1"],
      ["paragraph", null],
      ["list", null],
    ]);
    const [growth, para, c1, body, , , box, r1, , list] = r.blocks;
    expect(body).toEqual({ type: "paragraph", childCount: 0, lines: [11, 11], patchable: false });
    expect(growth).toMatchObject({ type: "section", title: "Growth", level: 1, patchable: true, lines: [6, 25] });
    expect(growth!.aliases).toEqual(expect.arrayContaining(["g", "grow"]));
    expect(growth!.childCount).toBe(5); // paragraph, c1, e1, box, list
    expect(para).toEqual({ type: "paragraph", childCount: 0, lines: [8, 8], patchable: false });
    expect(c1).toEqual({
      id: "c1",
      type: "directive",
      name: "claim",
      attrs: { confidence: 0.5, owner: "ana" },
      childCount: 1,
      lines: [10, 12],
      patchable: true,
      hash: c1!.hash,
    });
    expect(box).toMatchObject({ name: "section", childCount: 1, lines: [18, 22] });
    expect(r1).toMatchObject({ name: "risk", lines: [19, 21], attrs: { owner: "ops" } });
    expect(list).toMatchObject({ type: "list", childCount: 2, patchable: false });
    expect(list!.hash).toBeUndefined();
    // hash = blockHash of the library (what baseHash is checked against)
    const doc = parseNoma(DOC);
    expect(c1!.hash).toBe(blockHash(doc, doc.nodeById.get("c1")!));
    await c.close();
  });

  it("accepts an absolute path inside the repository", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const r = await c.ok<{ blocks: Block[] }>("read_doc", { file: join(repo, "d.noma") });
    expect(r.blocks.length).toBe(10);
    await c.close();
  });

  it("system errors are isError: missing file, directory, book manifest", async () => {
    const repo = tempRepo({ "book.noma.yml": "chapters:\n  - a.noma\n", "a.noma": DOC, "dir/x.txt": "x" });
    const c = new McpClient(repo);
    expect(await c.fails("read_doc", { file: "missing.noma" })).toMatch(/missing\.noma: no such file/);
    expect(await c.fails("read_doc", { file: "dir" })).toBe("dir: cannot be read: it is a directory, not a regular file");
    for (const tool of ["read_doc", "list_ids", "validate_doc"]) expect(await c.fails(tool, { file: "book.noma.yml" })).toMatch(/book manifest/);
    await c.close();
  });
});

describe("list_ids", () => {
  it("gives canonical ids in document order and the alias → canonical map", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const r = await c.ok<{ ids: string[]; aliases: Record<string, string> }>("list_ids", { file: "d.noma" });
    expect(r.ids).toEqual(["growth", "c1", "e1", "box", "r1"]);
    expect(r.aliases).toMatchObject({ g: "growth", grow: "growth" });
    await c.close();
  });
});

describe("validate_doc", () => {
  it("ok with warnings; not ok with errors; diagnostics in the §4.3 shape without phase", async () => {
    const repo = tempRepo({
      "good.noma": '::claim{id="c1"}\nA claim without evidence.\n::\n',
      "bad.noma": '::claim{id="c1"}\nx\n::\n\n::claim{id="c1"}\ny\n::\n',
    });
    const c = new McpClient(repo);
    const good = await c.ok<{ ok: boolean; diagnostics: Array<Record<string, unknown>> }>("validate_doc", { file: "good.noma" });
    expect(good.ok).toBe(true);
    expect(good.diagnostics.some((d) => d["code"] === "claim-without-evidence" && d["severity"] === "warning")).toBe(true);
    const bad = await c.ok<{ ok: boolean; diagnostics: Array<Record<string, unknown>> }>("validate_doc", { file: "bad.noma" });
    expect(bad.ok).toBe(false);
    expect(bad.diagnostics.find((d) => d["code"] === "duplicate-id")).toEqual({
      severity: "error",
      code: "duplicate-id",
      message: 'Two or more nodes carry the same canonical id "c1" (lines 1, 5).',
      pos: { line: 5, column: 1 },
      nodeId: "c1",
      endLine: 7,
    });
    for (const d of [...good.diagnostics, ...bad.diagnostics]) expect(d["phase"]).toBeUndefined();
    await c.close();
  });

  it("looks ::dataset src= files up beside the document, inside the repository only", async () => {
    const repo = tempRepo({
      "docs/d.noma": '::dataset{id="d1" src="data.csv"}\n::\n\n::dataset{id="d2" src="missing.csv"}\n::\n\n::dataset{id="d3" src="../../outside.csv"}\n::\n',
      "docs/data.csv": "a,b\n1,2\n",
    });
    const c = new McpClient(repo);
    const r = await c.ok<{ diagnostics: Array<{ code: string; nodeId?: string }> }>("validate_doc", { file: "docs/d.noma" });
    const missing = r.diagnostics.filter((d) => d.code === "dataset-src-missing").map((d) => d.nodeId);
    expect(missing).toEqual(["d2", "d3"]);
    await c.close();
  });
});

describe("validate_doc: a chapter of a book", () => {
  it("resolves links into the other chapters of its book; its own broken link is still reported at its line", async () => {
    const repo = tempRepo({
      "book/book.noma.yml": "chapters:\n  - 01-intro.noma\n  - 02-risks.noma\n",
      "book/01-intro.noma": "# Intro\n\nRead [[risks]] and [[risks/mitigation]].\n",
      "book/02-risks.noma": "# Risks\n\n## Mitigation\n\nBack to [[intro]], not [[nowhere]].\n",
    });
    const c = new McpClient(repo);
    const intro = await c.ok<{ ok: boolean; diagnostics: Array<{ code: string }> }>("validate_doc", { file: "book/01-intro.noma" });
    expect(intro).toEqual({ ok: true, diagnostics: [] });
    const risks = await c.ok<{ ok: boolean; diagnostics: Array<{ code: string; message: string; pos: { line: number } }> }>("validate_doc", {
      file: join(repo, "book/02-risks.noma"),
    });
    expect(risks.ok).toBe(false);
    expect(risks.diagnostics).toMatchObject([
      { code: "broken-reference", message: "[[nowhere]] points at an id that does not exist in book book/book.noma.yml.", pos: { line: 5 } },
    ]);
    await c.close();
  });
});

describe("patch_block", () => {
  it("applies one op, rewrites the file, appends one v1.0 record and returns it", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const abs = join(repo, "d.noma");
    const r = await c.ok<PatchBody>("patch_block", {
      file: "d.noma",
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 },
      reason: "new data",
      actor: { kind: "agent", name: "planner", model: "m-1" },
      parent_op_id: "11111111-1111-4111-8111-111111111111",
    });
    expect(r.ok).toBe(true);
    expect(r.post_validation).toBe("ok");
    expect(Array.isArray(r.diagnostics)).toBe(true);
    expect(readFileSync(abs, "utf8")).toBe(DOC.replace("confidence=0.5", "confidence=0.9"));
    const written = records(abs);
    expect(written).toHaveLength(1);
    expect(r.transcript_entry).toEqual(written[0]);
    expect(r.transcript_entries).toEqual(written);
    expect(written[0]).toMatchObject({
      protocol_version: "1.0",
      patch_result: "applied",
      actor: { kind: "agent", name: "planner", model: "m-1" },
      reason: "new data",
      parent_op_id: "11111111-1111-4111-8111-111111111111",
      pre_sha256: sha(DOC),
      post_sha256: sha(readFileSync(abs)),
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 },
    });
    // The transcript verifies against the document (chain, seal, states).
    const report = verifyTranscript(readFileSync(`${abs}.patches`, "utf8"), readFileSync(abs, "utf8"));
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    await c.close();
  });

  it("defaults the actor to {kind: agent, name: unknown}", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const r = await c.ok<PatchBody>("patch_block", { file: "d.noma", op: { op: "delete_block", id: "e1" } });
    expect(r.transcript_entry!["actor"]).toEqual({ kind: "agent", name: "unknown" });
    await c.close();
  });

  it("applies an op list atomically with one record per op, chained", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const abs = join(repo, "d.noma");
    const r = await c.ok<PatchBody>("patch_block", {
      file: "d.noma",
      ops: [
        { op: "rename_id", from: "c1", to: "growth-claim" },
        { op: "update_attribute", id: "growth-claim", key: "confidence", value: 0.8 },
        { op: "add_block", parent: "box", content: '::note{id="n1"}\nAdded.\n::' },
      ],
    });
    expect(r.ok).toBe(true);
    expect(r.transcript_entries.map((e) => e["patch_result"])).toEqual(["applied", "applied", "applied"]);
    expect(r.transcript_entry).toEqual(r.transcript_entries[2]);
    const text = readFileSync(abs, "utf8");
    expect(text).toContain('::claim{id="growth-claim" confidence=0.8');
    expect(text).toContain('::evidence{id="e1" for="growth-claim"}');
    expect(text).toContain('id="n1"');
    const written = records(abs);
    expect(written).toEqual(r.transcript_entries);
    expect(written[1]!["prev_entry_sha256"]).toBe(sha(`${readFileSync(`${abs}.patches`, "utf8").split("\n")[0]}\n`));
    await c.close();
  });

  it("a failing op in a list writes nothing to the document, records every op (op_list_aborted), and is ok:false content", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const abs = join(repo, "d.noma");
    const r = await c.call("patch_block", {
      file: "d.noma",
      ops: [
        { op: "update_attribute", id: "c1", key: "confidence", value: 0.1 },
        { op: "delete_block", id: "nope" },
      ],
    });
    expect(r.isError).toBeUndefined();
    const body = r.structuredContent as unknown as PatchBody;
    expect(body).toMatchObject({ ok: false, code: "target_missing" });
    expect(body.error).toMatch(/nope/);
    expect(readFileSync(abs, "utf8")).toBe(DOC);
    const written = records(abs);
    expect(written.map((e) => e["patch_result"])).toEqual(["rejected", "rejected"]);
    expect(JSON.stringify(written[0]!["diagnostics"])).toContain("op_list_aborted");
    expect(body.transcript_entries).toEqual(written);
    await c.close();
  });

  it("every PatchError is ok:false content with its code, never isError — and is recorded", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const abs = join(repo, "d.noma");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ op: { op: "delete_block", id: "nope" } }, "target_missing"],
      [{ op: { op: "add_block", parent: "nope", content: '::note{id="x"}\nx\n::' } }, "parent_missing"],
      [{ op: { op: "rename_id", from: "c1", to: "e1" } }, "id_conflict"],
      [{ op: { op: "replace_block", id: "c1", content: "just a paragraph" } }, "invalid_content"],
      [{ op: { op: "update_attribute", id: "c1", key: "id", value: "x" } }, "id_attribute_protected"],
      [{ op: { op: "delete_block", id: "c1" }, expected_sha: "00000000" }, "sha_mismatch"],
      [{ op: { op: "delete_block", id: "c1", baseHash: "0000000000" } }, "sha_mismatch"],
      [{ op: { op: "explode_block", id: "c1" } }, "unsupported_op"],
      [{ op: { op: "delete_block" } }, "invalid_content"],
      [{ op: { op: "delete_block", id: "g" } }, "target_missing"], // an alias is not patch identity
    ];
    let expectedRecords = 0;
    for (const [args, code] of cases) {
      const r = await c.call("patch_block", { file: "d.noma", ...args });
      expect(r.isError, JSON.stringify(args)).toBeUndefined();
      expect(r.structuredContent, JSON.stringify(args)).toMatchObject({ ok: false, code });
      expectedRecords++;
      expect(records(abs)).toHaveLength(expectedRecords);
    }
    expect(readFileSync(abs, "utf8")).toBe(DOC);
    await c.close();
  });

  it("strict mode rejects a document that already has errors (pre_validation_blocked)", async () => {
    const bad = '::claim{id="c1"}\nx\n::\n\n::claim{id="c1"}\ny\n::\n\n::note{id="n"}\nz\n::\n';
    const repo = tempRepo({ "d.noma": bad });
    const c = new McpClient(repo);
    const r = await c.ok<PatchBody>("patch_block", { file: "d.noma", op: { op: "delete_block", id: "n" }, strict: true });
    expect(r).toMatchObject({ ok: false, code: "pre_validation_blocked" });
    await c.close();
  });

  it("honours baseHash from read_doc and expected_sha / base_sha256 from its sha256", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const read = await c.ok<{ sha256: string; blocks: Block[] }>("read_doc", { file: "d.noma" });
    const hash = read.blocks.find((b) => b.id === "c1")!.hash!;
    const ok = await c.ok<PatchBody>("patch_block", {
      file: "d.noma",
      op: { op: "update_attribute", id: "c1", key: "owner", value: "bo", baseHash: hash.slice(0, 12) },
      expected_sha: read.sha256.slice(0, 8),
    });
    expect(ok.ok).toBe(true);
    // The same block hash again is now stale.
    const stale = await c.ok<PatchBody>("patch_block", { file: "d.noma", op: { op: "update_attribute", id: "c1", key: "owner", value: "cy", baseHash: hash } });
    expect(stale).toMatchObject({ ok: false, code: "sha_mismatch" });
    // A stale base_sha256 only warns (base_sha_drift) and still applies.
    const drift = await c.ok<PatchBody>("patch_block", {
      file: "d.noma",
      op: { op: "update_attribute", id: "e1", key: "note", value: "x" },
      base_sha256: read.sha256.toUpperCase(),
    });
    expect(drift.ok).toBe(true);
    expect(JSON.stringify(drift.transcript_entry!["diagnostics"])).toContain("base_sha_drift");
    expect(drift.transcript_entry!["base_sha256"]).toBe(read.sha256);
    await c.close();
  });

  it("a noop is ok:true, the file is not rewritten, the attempt is recorded", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    const abs = join(repo, "d.noma");
    const before = statSync(abs).mtimeMs;
    const r = await c.ok<PatchBody>("patch_block", { file: "d.noma", op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.5 } });
    expect(r).toMatchObject({ ok: true, post_validation: "ok" });
    expect(r.transcript_entry!["patch_result"]).toBe("noop");
    expect(statSync(abs).mtimeMs).toBe(before);
    expect(records(abs)).toHaveLength(1);
    await c.close();
  });

  it("needs exactly one of op and ops (isError, nothing recorded)", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const c = new McpClient(repo);
    expect(await c.fails("patch_block", { file: "d.noma" })).toMatch(/exactly one of `op`/);
    expect(await c.fails("patch_block", { file: "d.noma", op: { op: "delete_block", id: "c1" }, ops: [{ op: "delete_block", id: "e1" }] })).toMatch(
      /exactly one/,
    );
    expect(await c.fails("patch_block", { file: "d.noma", ops: [] })).toMatch(/ops/);
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
    await c.close();
  });

  it("system faults are isError: a missing file (nothing recorded); a book manifest is no document and gets no transcript", async () => {
    const repo = tempRepo({ "book.noma.yml": "chapters:\n  - a.noma\n", "a.noma": DOC });
    const c = new McpClient(repo);
    expect(await c.fails("patch_block", { file: "missing.noma", op: { op: "delete_block", id: "c1" } })).toMatch(/no such file/);
    // A book manifest is patched across its chapters (test/patch/book-patch.test.ts): an id no chapter holds is refused, nothing recorded.
    expect(await c.ok("patch_block", { file: "book.noma.yml", op: { op: "delete_block", id: "zz" } })).toEqual({
      ok: false,
      code: "target_missing",
      error: 'id "zz" is in no chapter of book.noma.yml.',
      op_index: 0,
      transcript_entries: [],
      chapters: [],
    });
    expect(existsSync(join(repo, "book.noma.yml.patches"))).toBe(false);
    expect(existsSync(join(repo, "missing.noma.patches"))).toBe(false);
    await c.close();
  });

  it("a transcript that cannot be written aborts the patch: isError, the document is untouched", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const abs = join(repo, "d.noma");
    mkdirSync(`${abs}.patches`); // the transcript path is a directory: neither readable nor replaceable as a file
    const c = new McpClient(repo);
    const msg = await c.fails("patch_block", { file: "d.noma", op: { op: "delete_block", id: "e1" } });
    expect(msg).toMatch(/EISDIR|directory/i);
    expect(readFileSync(abs, "utf8")).toBe(DOC);
    expect(statSync(`${abs}.patches`).isDirectory()).toBe(true);
    expectProtocolOnly((await c.close()).lines);
  });

  it("patches CRLF documents byte-preservingly", async () => {
    const crlf = DOC.replace(/\n/g, "\r\n");
    const repo = tempRepo({});
    mkdirSync(join(repo, "w"), { recursive: true });
    writeFileSync(join(repo, "w/d.noma"), crlf);
    const c = new McpClient(repo);
    const r = await c.ok<PatchBody>("patch_block", { file: "w/d.noma", op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.7 } });
    expect(r.ok).toBe(true);
    expect(readFileSync(join(repo, "w/d.noma"), "utf8")).toBe(crlf.replace("confidence=0.5", "confidence=0.7"));
    await c.close();
  });
});
