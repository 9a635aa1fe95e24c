/**
 * The tools named after the MCP filesystem server's, and ours beside them, through the
 * library (runWorkspaceTool) on real repositories: what each answers, what it writes,
 * archives and records — intent before the effect, outcome after — and what it refuses.
 * (Their agreement with the filesystem server itself: fs-server-differential.test.ts;
 * escapes: escape-matrix.test.ts; roots and read-only: test/mcp/roots.test.ts,
 * read-only.test.ts.)
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, existsSync, symlinkSync, writeFileSync, lstatSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listArchived } from "../../src/workspace/read-archive.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace, type Workspace } from "../../src/workspace/workspace.js";
import type { WorkspaceToolName } from "../../src/workspace/workspace-tool-names.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";

const NOW = () => new Date("2026-05-04T00:00:00Z");

function ledger(root: string): Array<{ action: string; path: string; details: Record<string, unknown>; seq: number }> {
  return readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
}

async function ok(ws: Workspace, tool: WorkspaceToolName, args: unknown): Promise<Record<string, any>> {
  const r = await runWorkspaceTool(ws, tool, args);
  expect(r.failed, JSON.stringify(r.body)).toBe(false);
  return r.body as Record<string, any>;
}

async function refused(ws: Workspace, tool: WorkspaceToolName, args: unknown): Promise<{ code: string; message: string }> {
  const r = await runWorkspaceTool(ws, tool, args);
  expect(r.failed, JSON.stringify(r.body)).toBe(true);
  return r.body as { code: string; message: string };
}

describe("edit_file with edits (the filesystem server's shape)", () => {
  it("finds text exactly or line by line, keeps the file's indentation and line breaks, answers a diff; dryRun writes nothing", async () => {
    const root = tempRepo({
      "a.ts": "class A {\n    run() {\n        if (x) {\n            go();\n        }\n    }\n}\n",
      "crlf.txt": "one\r\ntwo\r\nthree\r\n",
    });
    const ws = openWorkspace(root, { now: NOW });
    // The agent's copy is indented two spaces where the file has eight: found line by line, the nesting kept.
    const dry = await ok(ws, "edit_file", {
      path: "a.ts",
      edits: [{ oldText: "  if (x) {\n    go();\n  }", newText: "  if (x) {\n    go();\n    again();\n  }" }],
      dryRun: true,
    });
    expect(dry).toMatchObject({ dry_run: true, bytes_written: 0, unchanged: false, edits: [{ match: "lines", line: 3 }] });
    expect(dry["diff"]).toBe("@@ -2,6 +2,7 @@\n     run() {\n         if (x) {\n             go();\n+            again();\n         }\n     }\n }\n");
    expect(dry["content"]).toBe(`\`\`\`diff\nIndex: a.ts\n${"=".repeat(67)}\n--- a.ts\toriginal\n+++ a.ts\tmodified\n${dry["diff"]}\`\`\`\n\n`);
    expect(readFileSync(join(root, "a.ts"), "utf8")).not.toContain("again");
    const applied = await ok(ws, "edit_file", {
      path: "a.ts",
      edits: [
        { oldText: "  if (x) {\n    go();\n  }", newText: "  if (x) {\n    go();\n    again();\n  }" },
        { oldText: "run()", newText: "start()" },
      ],
    });
    expect(applied).toMatchObject({ dry_run: false, edits: [{ match: "lines" }, { match: "exact", line: 2 }], archived: { member: "a.ts.~1~" } });
    expect(readFileSync(join(root, "a.ts"), "utf8")).toBe(
      "class A {\n    start() {\n        if (x) {\n            go();\n            again();\n        }\n    }\n}\n",
    );
    // CRLF file: the agent writes LF, the file keeps CRLF.
    await ok(ws, "edit_file", { path: "crlf.txt", edits: [{ oldText: "two\nthree", newText: "2\n3" }] });
    expect(readFileSync(join(root, "crlf.txt"), "utf8")).toBe("one\r\n2\r\n3\r\n");
    // The dry run is one line; each edit an intent and its outcome.
    const lines = ledger(root);
    expect(lines.map((l) => [l.action, l.details["phase"] ?? "one line"])).toEqual([
      ["edit_file", "one line"],
      ["edit_file", "intent"],
      ["edit_file", "outcome"],
      ["edit_file", "intent"],
      ["edit_file", "outcome"],
    ]);
    expect(lines[2]!.details["intent_seq"]).toBe(lines[1]!.seq);
    expect(lines[1]!.details["sha256"]).toBe(lines[2]!.details["sha256"]);
  });

  it("refuses an edit that is not found (nothing applied, nothing recorded but the refusal), mixed shapes, and .noma documents", async () => {
    const root = tempRepo({ "a.txt": "one\ntwo\n", "d.noma": "# Doc\n" });
    const ws = openWorkspace(root);
    expect(
      await refused(ws, "edit_file", {
        path: "a.txt",
        edits: [
          { oldText: "one", newText: "1" },
          { oldText: "three", newText: "3" },
        ],
      }),
    ).toMatchObject({
      code: "no_match",
      message: expect.stringContaining('edits[1]: oldText is not in the file, neither exactly nor line by line ignoring indentation (its first line: "three")'),
    });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(await refused(ws, "edit_file", { path: "a.txt", contents: "x", edits: [{ oldText: "one", newText: "1" }] })).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refused(ws, "edit_file", { path: "a.txt" })).toMatchObject({ code: "invalid_arguments" });
    expect(await refused(ws, "edit_file", { path: "a.txt", edits: [{ oldText: "", newText: "1" }] })).toMatchObject({ code: "invalid_arguments" });
    expect(await refused(ws, "edit_file", { path: "d.noma", edits: [{ oldText: "Doc", newText: "D" }] })).toMatchObject({ code: "protected_path" });
    expect(await refused(ws, "write_file", { path: "d.noma", content: "# D\n" })).toMatchObject({ code: "protected_path" });
    expect(await refused(ws, "append_file", { path: "d.noma", content: "more\n" })).toMatchObject({ code: "protected_path" });
    expect(await refused(ws, "append_file", { path: "d.noma.patches", content: "{}\n" })).toMatchObject({ code: "protected_path" });
    expect(await refused(ws, "move_file", { source: "d.noma", destination: "e.noma" })).toMatchObject({ code: "protected_path" });
    // A new document may be created.
    await ok(ws, "write_file", { path: "new.noma", content: "# New\n" });
    expect(ledger(root).filter((l) => l.details["phase"] === "intent")).toHaveLength(1);
  });
});

describe("write_file, append_file, create_directory, move_file", () => {
  it("write_file archives what it replaces and needs the directory; append_file adds, archives nothing; create_directory records the directories it makes", async () => {
    const root = tempRepo({ "a.txt": "one\n" });
    const ws = openWorkspace(root, { now: NOW });
    expect(await ok(ws, "write_file", { path: "a.txt", content: "two\n" })).toMatchObject({
      content: "Successfully wrote to a.txt",
      created: false,
      archived: { archive: "archive/2026/05/a.txt.tar.zst", member: "a.txt.~1~" },
    });
    expect(await ok(ws, "write_file", { path: "a.txt", content: "two\n" })).toMatchObject({ unchanged: true });
    expect(await refused(ws, "write_file", { path: "nope/b.txt", content: "x" })).toMatchObject({
      code: "not_found",
      message: expect.stringContaining("nope: no such directory"),
    });
    expect(await ok(ws, "append_file", { path: "a.txt", content: "three\n" })).toMatchObject({ bytes_appended: 6, size: 10, created: false });
    expect(await ok(ws, "append_file", { path: "log.txt", content: "first\n" })).toMatchObject({ created: true, size: 6 });
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("two\nthree\n");
    expect((await listArchived(ws, "a.txt")).flatMap((a) => a.members.map((m) => m.member))).toEqual(["a.txt.~1~"]);
    expect(await ok(ws, "create_directory", { path: "x/y/z" })).toMatchObject({ created: ["x", "x/y", "x/y/z"] });
    expect(await ok(ws, "create_directory", { path: "x/y" })).toMatchObject({ created: [] });
    expect(await refused(ws, "create_directory", { path: "a.txt/sub" })).toMatchObject({ code: "already_exists" });
    const intents = ledger(root).filter((l) => l.details["phase"] === "intent");
    expect(intents.map((l) => [l.action, l.path])).toEqual([
      ["write_file", "a.txt"],
      ["append_file", "a.txt"],
      ["append_file", "log.txt"],
      ["create_directory", "x/y/z"],
    ]);
    expect(intents[3]!.details["directories"]).toEqual(["x", "x/y", "x/y/z"]);
    expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")))).toMatchObject({ ok: true, interrupted: [] });
  });

  it("move_file archives every file it moves under its old path, never overwrites, moves a link as a link, and keeps protected things where they are", async () => {
    const root = tempRepo({ "a.txt": "a\n", "dir/b.txt": "b\n", "dir/sub/c.txt": "c\n", "keep/x.txt": "x\n", "docs/notes.md": "n\n" });
    symlinkSync("a.txt", join(root, "link"));
    const ws = openWorkspace(root, { now: NOW });
    expect(await ok(ws, "move_file", { source: "a.txt", destination: "keep/a.txt" })).toMatchObject({
      kind: "file",
      source: "a.txt",
      destination: "keep/a.txt",
      archived: [{ path: "a.txt", member: "a.txt.~1~" }],
    });
    expect(await ok(ws, "move_file", { source: "dir", destination: "keep/dir" })).toMatchObject({
      kind: "dir",
      archived: [{ path: "dir/b.txt" }, { path: "dir/sub/c.txt" }],
    });
    expect(readFileSync(join(root, "keep/dir/sub/c.txt"), "utf8")).toBe("c\n");
    expect((await listArchived(ws, "dir/sub/c.txt")).flatMap((a) => a.members.map((m) => m.member))).toEqual(["dir/sub/c.txt.~1~"]);
    expect(await ok(ws, "move_file", { source: "link", destination: "keep/link" })).toMatchObject({ kind: "symlink", archived: [] });
    expect(readlinkSync(join(root, "keep/link"))).toBe("a.txt");
    expect(lstatSync(join(root, "keep/a.txt")).isFile()).toBe(true);
    expect(await refused(ws, "move_file", { source: "keep/x.txt", destination: "keep/a.txt" })).toMatchObject({ code: "already_exists" });
    expect(await refused(ws, "move_file", { source: "keep", destination: "keep/inner" })).toMatchObject({ code: "invalid_arguments" });
    expect(await refused(ws, "move_file", { source: "missing", destination: "m2" })).toMatchObject({ code: "not_found" });
    // docs/ holds the ledger: it stays.
    expect(await refused(ws, "move_file", { source: "docs", destination: "docs2" })).toMatchObject({
      code: "protected_path",
      message: expect.stringContaining("docs cannot be moved: it holds docs/evidence_ledger.tools.log"),
    });
    expect(existsSync(join(root, "docs/notes.md"))).toBe(true);
    const intents = ledger(root).filter((l) => l.details["phase"] === "intent");
    expect(intents.map((l) => [l.path, l.details["destination"], l.details["kind"]])).toEqual([
      ["a.txt", "keep/a.txt", "file"],
      ["dir", "keep/dir", "dir"],
      ["link", "keep/link", "symlink"],
    ]);
    expect(intents[1]!.details).toMatchObject({ entries: 3, files: 2 });
  });
});

describe("the reading tools", () => {
  it("read_text_file, read_file's head and tail, read_media_file, read_multiple_files", async () => {
    const root = tempRepo({ "a.txt": "1\n2\n3\n4\n", "bin.dat": Buffer.from([0xff, 0xfe, 0x00, 0x01]), "pic.png": Buffer.from("89504e47", "hex") });
    const ws = openWorkspace(root);
    expect(await ok(ws, "read_text_file", { path: "a.txt", tail: 2 })).toMatchObject({ content: "3\n4\n", total_lines: 4, bytes: 8 });
    expect(await ok(ws, "read_text_file", { path: "a.txt", head: 0 })).toMatchObject({ content: "" });
    expect(await ok(ws, "read_file", { path: "a.txt", head: 3 })).toMatchObject({ contents: "1\n2\n3\n", total_lines: 4 });
    expect(await refused(ws, "read_text_file", { path: "bin.dat" })).toMatchObject({ code: "not_utf8", message: expect.stringContaining("read_media_file") });
    expect(await ok(ws, "read_media_file", { path: "pic.png" })).toMatchObject({
      mime_type: "image/png",
      content: [{ type: "image", data: "iVBORw==", mimeType: "image/png" }],
    });
    expect(await ok(ws, "read_media_file", { path: "bin.dat" })).toMatchObject({
      content: [{ type: "resource", resource: { mimeType: "application/octet-stream", blob: "//4AAQ==", uri: `file://${root}/bin.dat` } }],
    });
    const multi = await ok(ws, "read_multiple_files", { paths: ["a.txt", "bin.dat", "../x", "a.txt"] });
    expect(multi["failed"]).toBe(2);
    expect(multi["files"].map((f: { success: boolean; code?: string }) => f.code ?? "ok")).toEqual(["ok", "not_utf8", "invalid_path", "ok"]);
    expect(multi["content"]).toBe(
      `a.txt:\n1\n2\n3\n4\n\n\n---\nbin.dat: Error - bin.dat: not UTF-8 text (read_multiple_files returns text only; read_media_file returns any file, base64)\n---\n../x: Error - "../x": ".." is refused; write the path from the repository root\n---\na.txt:\n1\n2\n3\n4\n\n`,
    );
  });

  it("directory_tree's maxDepth and excludePatterns, list_directory_with_sizes, get_file_info, search_files", async () => {
    const root = tempRepo({ "a/b/c/d.txt": "d\n", "a/b/e.md": "e\n", "a/f.md": "ff\n", "z.txt": "zzzz\n" });
    const ws = openWorkspace(root);
    expect((await ok(ws, "directory_tree", { path: "a", maxDepth: 1 }))["tree"]).toEqual([
      { name: "b", type: "directory", children: [], truncated: true },
      { name: "f.md", type: "file" },
    ]);
    expect((await ok(ws, "directory_tree", { path: "a", excludePatterns: ["*.md"] }))["tree"]).toEqual([
      { name: "b", type: "directory", children: [{ name: "c", type: "directory", children: [{ name: "d.txt", type: "file" }] }] },
    ]);
    expect(await ok(ws, "list_directory_with_sizes", { path: "a", sortBy: "size" })).toMatchObject({
      entries: [
        { name: "f.md", kind: "file", size: 3 },
        { name: "b", kind: "dir", size: 0 },
      ],
      files: 1,
      directories: 1,
      total_size: 3,
    });
    expect(await ok(ws, "get_file_info", { path: "a/b" })).toMatchObject({ kind: "dir", isDirectory: true, isFile: false, permissions: "755" });
    expect(await ok(ws, "search_files", { path: "a", pattern: "**/*.md", excludePatterns: ["c"] })).toMatchObject({
      matches: ["a/b/e.md", "a/f.md"],
      content: `${join(root, "a/b/e.md")}\n${join(root, "a/f.md")}`,
    });
    expect(await refused(ws, "list_directory", { path: "z.txt" })).toMatchObject({ code: "not_a_directory" });
  });
});

describe("search_text", () => {
  it("searches the files git shows (.gitignore honoured), with context, limits, include/exclude, literal or regex; skips binaries; never follows a link", async () => {
    const outside = tempDir("nr-search-outside-");
    writeFileSync(join(outside, "secret.txt"), "needle outside\n");
    const root = tempRepo({
      ".gitignore": "build/\n*.log\n",
      "src/a.ts": "const a = 1;\n// needle one\nconst b = 2;\nconst c = 3;\n// NEEDLE two\n",
      "src/b.js": "needle in js\n",
      "build/out.js": "needle built\n",
      "debug.log": "needle logged\n",
      "bin.dat": Buffer.concat([Buffer.from("needle "), Buffer.from([0, 1, 2])]),
    });
    writeFileSync(join(root, "untracked.md"), "needle untracked\n");
    symlinkSync(join(outside, "secret.txt"), join(root, "src/link.txt"));
    git(root, ["add", "src/link.txt"]);
    const ws = openWorkspace(root);
    const r = await ok(ws, "search_text", { pattern: "needle" });
    expect(r["matches"].map((m: { path: string; line: number }) => `${m.path}:${m.line}`)).toEqual(["src/a.ts:2", "src/b.js:1", "untracked.md:1"]);
    expect(r).toMatchObject({ source: "git", files_skipped: 1, truncated: false, files_matched: 3 });
    expect(JSON.stringify(r)).not.toContain("outside");
    const ctx = await ok(ws, "search_text", { pattern: "needle", path: "src", case_sensitive: false, context_lines: 1, include: ["*.ts"] });
    expect(ctx["content"]).toBe(
      "src/a.ts-1-const a = 1;\nsrc/a.ts:2:// needle one\nsrc/a.ts-3-const b = 2;\nsrc/a.ts-4-const c = 3;\nsrc/a.ts:5:// NEEDLE two",
    );
    expect(ctx["matches"][1]).toEqual({ path: "src/a.ts", line: 5, column: 4, text: "// NEEDLE two", before: ["const c = 3;"], after: [] });
    expect(await ok(ws, "search_text", { pattern: "const [a-c]", max_matches: 2 })).toMatchObject({ truncated: true, matches: [{ line: 1 }, { line: 3 }] });
    expect((await ok(ws, "search_text", { pattern: "a = 1;", literal: true, exclude: ["src/b.js"] }))["matches"]).toHaveLength(1);
    expect((await ok(ws, "search_text", { pattern: "[", literal: true }))["matches"]).toHaveLength(0);
    expect(await refused(ws, "search_text", { pattern: "[" })).toMatchObject({ code: "invalid_arguments", message: expect.stringContaining("literal: true") });
    // The ledger (which now holds "needle", the pattern of every search above) and the archive are not searched…
    expect((await ok(ws, "search_text", { pattern: "needle" }))["matches"].map((m: { path: string }) => m.path)).toEqual([
      "src/a.ts",
      "src/b.js",
      "untracked.md",
    ]);
    // …unless named.
    expect((await ok(ws, "search_text", { pattern: "needle", path: "docs/evidence_ledger.tools.log" }))["matches"].length).toBeGreaterThan(0);
    // A file named is searched even when ignored (as grep and rg search a file given to them).
    expect((await ok(ws, "search_text", { pattern: "needle", path: "debug.log" }))["matches"]).toEqual([
      { path: "debug.log", line: 1, column: 1, text: "needle logged" },
    ]);
  });

  it("outside a git work tree, walks every file", async () => {
    const dir = tempDir("nr-search-plain-");
    mkdirSync(join(dir, "x"));
    writeFileSync(join(dir, "x/a.txt"), "needle\n");
    const ws = openWorkspace(dir);
    expect(await ok(ws, "search_text", { pattern: "needle" })).toMatchObject({ source: "walk", matches: [{ path: "x/a.txt", line: 1 }] });
  });
});

describe("the ledger's intents", () => {
  it("an intent without an outcome is listed as interrupted, not as a finding; an outcome without its intent is a finding", async () => {
    const root = tempRepo({ "a.txt": "one\n" });
    const ws = openWorkspace(root);
    await ok(ws, "write_file", { path: "a.txt", content: "two\n" });
    const bytes = readFileSync(join(root, "docs/evidence_ledger.tools.log"));
    const [intent, outcome] = bytes.toString("utf8").trimEnd().split("\n");
    // Cut after the intent: what a kill -9 between the effect and its outcome leaves.
    const cut = verifyLedger(Buffer.from(`${intent}\n`));
    expect(cut).toMatchObject({ ok: true, findings: [], interrupted: [{ line: 1, seq: 1, action: "write_file", path: "a.txt" }] });
    expect(cut.interrupted[0]!.message).toContain("write_file a.txt recorded its intent (seq 1) and no outcome");
    expect(verifyLedger(bytes)).toMatchObject({ ok: true, interrupted: [] });
    // An outcome naming no intent (hand-made, chain recomputed): a finding.
    const forged = JSON.parse(outcome!) as Record<string, any>;
    forged["details"]["intent_seq"] = 7;
    forged["seq"] = 1;
    forged["prev_sha256"] = "0".repeat(64);
    const report = verifyLedger(Buffer.from(`${JSON.stringify(forged)}\n`));
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => f.code)).toEqual(["unmatched-outcome"]);
  });

  it("a ledger written before intents existed (one line per edit, no phase) verifies as before", () => {
    const line = (seq: number, prev: string, action: string, details: Record<string, unknown>) =>
      JSON.stringify({
        timestamp: "2026-01-01T00:00:00.000Z",
        action,
        path: "a.txt",
        details: { via: "mcp", outcome: "ok", ...details },
        seq,
        prev_sha256: prev,
      });
    const first = line(1, "0".repeat(64), "edit_file", { bytes_written: 4, sha256: "ab".repeat(32), created: false, unchanged: false });
    const second = line(2, createHash("sha256").update(first).digest("hex"), "read_file", { bytes: 4 });
    expect(verifyLedger(Buffer.from(`${first}\n${second}\n`))).toEqual({
      ok: true,
      lines: 2,
      headSha256: createHash("sha256").update(second).digest("hex"),
      findings: [],
      interrupted: [],
    });
  });
});
