/**
 * The language server's diagnostics, through the real server over stdio: the same codes,
 * severities, messages and start positions as `check --format json` on the same text, on
 * open, on change (incremental), and on save; ranges over the block.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExitNotification } from "vscode-languageserver-protocol/node";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { LspClient } from "./helpers/lsp-client.js";

const DOC = [
  '# Plan {id="plan"}',
  "",
  '::claim{id="c1" confidence="85%"}',
  "Grows.",
  "::",
  "",
  '::evidence{id="e1" for="c1"}',
  "Measured, see [[nowhere]].",
  "::",
  "",
  '::risk{id="r1"}',
  "Unowned.",
  "::",
  "",
].join("\n");

/** What `check --format json` says of a file: [code, severity, line, column, message]. */
function checkSays(root: string, rel: string): Array<[string, string, number, number, string]> {
  const r = runCli(["check", rel, "--format", "json"], { cwd: root });
  const file = (JSON.parse(r.stdout) as { result: { files: Array<{ file: string; diagnostics: Array<Record<string, unknown>> }> } }).result.files.find(
    (f) => f.file === rel,
  )!;
  return file.diagnostics.map((d) => [
    d["code"] as string,
    d["severity"] as string,
    (d["pos"] as { line: number }).line,
    (d["pos"] as { column: number }).column,
    d["message"] as string,
  ]);
}

const SEVERITY = ["", "error", "warning", "info"];

describe("diagnostics of a .noma document", () => {
  it("on open, on change and on save: what check says of the same text", async () => {
    const root = tempRepo({ "docs/plan.noma": DOC });
    const client = new LspClient(root);
    const init = await client.initialize();
    expect(init.serverInfo?.name).toBe("noma-reconcile");
    const uri = await client.open("docs/plan.noma");
    const opened = await client.diagnostics(uri, 1);
    const said = (p: typeof opened) =>
      p.diagnostics.map((d) => [d.code, SEVERITY[d.severity!], d.range.start.line + 1, d.range.start.character + 1, d.message]);
    expect(said(opened)).toEqual(checkSays(root, "docs/plan.noma"));
    expect(said(opened).map((d) => d[0])).toEqual(["claim-invalid-confidence", "broken-reference", "risk-without-owner"]);
    // The claim's range is its block (lines 3–5); the link's, the [[link]].
    expect(opened.diagnostics[0]!.range).toEqual({ start: { line: 2, character: 0 }, end: { line: 4, character: 2 } });
    expect(opened.diagnostics[1]!.range).toEqual({ start: { line: 7, character: 14 }, end: { line: 7, character: 25 } });
    expect(opened.diagnostics.every((d) => d.source === "noma-reconcile")).toBe(true);

    // Typing: the risk gets an owner, a new broken link appears; the file on disk is unchanged.
    await client.edit(uri, 'risk{id="r1"}', 'risk{id="r1" owner="ana"}');
    const v3 = await client.edit(uri, "Grows.", "Grows, see [[plan]] and [[gone]].");
    const changed = await client.diagnostics(uri, v3);
    const text = client.buffers.get(uri)!.text;
    writeFileSync(join(root, "docs/typed.noma"), text);
    expect(said(changed)).toEqual(checkSays(root, "docs/typed.noma"));
    expect(said(changed).map((d) => d[0])).toEqual(["claim-invalid-confidence", "broken-reference", "broken-reference"]);

    // Saved: judged again (the same text, the same findings).
    writeFileSync(join(root, "docs/plan.noma"), text);
    const before = client.published.length;
    await client.save(uri);
    const saved = await client.diagnostics(uri, v3, () => client.published.length > before);
    expect(said(saved)).toEqual(said(changed));
    expect(await client.shutdown()).toBe(0);
  });

  it("a document outside every repository is judged alone; exit without shutdown is status 1", async () => {
    const dir = tempDir("nr-lsp-alone-");
    const client = new LspClient(dir);
    await client.initialize();
    const uri = await client.open("loose.noma", "# Loose\n\nSee [[nowhere]].\n");
    expect((await client.diagnostics(uri, 1)).diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([["broken-reference", 2]]);
    await client.connection.sendNotification(ExitNotification.type);
    expect(await client.exit()).toEqual({ code: 1, signal: null });
  });
});
