/**
 * Edits through the patch engine, driven from the editor over the real server: a quick fix
 * (code action → workspace/executeCommand) writes the document and its transcript as
 * `noma-reconcile patch` does, then hands the text to the buffer (workspace/applyEdit); the
 * transcript verifies with --strict. A buffer with unsaved changes is refused. A rename of a
 * directive's id updates its references in the chapter and in the other chapters of the book,
 * each file one atomic op list; a reference no patch op can address keeps the old id as an alias.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CodeActionRequest,
  ExecuteCommandRequest,
  PrepareRenameRequest,
  RenameRequest,
  type CodeAction,
  type TextEdit,
  type WorkspaceEdit,
} from "vscode-languageserver-protocol/node";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { applyTextEdits, LspClient, positionOf, uriOf } from "./helpers/lsp-client.js";

const PLAN = ['# Plan {id="plan"}', "", '::claim{id="c1" confidence="85%"}', "Grows.", "::", "", '::evidence{id="e1" for="c1"}', "Measured.", "::", ""].join(
  "\n",
);

async function fixesOf(client: LspClient, uri: string, version: number): Promise<CodeAction[]> {
  const published = await client.diagnostics(uri, version);
  const d = published.diagnostics.find((x) => x.code === "claim-invalid-confidence")!;
  return (await client.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri },
    range: d.range,
    context: { diagnostics: [d] },
  })) as CodeAction[];
}

describe("quick fixes through the patch engine", () => {
  it("applies a check --fix fix: document and transcript written, the buffer updated, the transcript verifies with --strict", async () => {
    const root = tempRepo({ "docs/plan.noma": PLAN });
    const client = new LspClient(root);
    await client.initialize();
    const uri = await client.open("docs/plan.noma");
    const actions = await fixesOf(client, uri, 1);
    expect(actions.map((a) => [a.title, a.kind, a.disabled])).toEqual([['Fix claim-invalid-confidence: confidence="85%" → 0.85', "quickfix", undefined]]);
    const cmd = actions[0]!.command!;
    expect(cmd.command).toBe("noma-reconcile.applyFix");
    const result = await client.connection.sendRequest(ExecuteCommandRequest.type, { command: cmd.command, arguments: cmd.arguments! });
    expect(result).toEqual({ written: ["docs/plan.noma"], transcript: ["docs/plan.noma.patches"], bufferUpdated: true });
    const onDisk = readFileSync(join(root, "docs/plan.noma"), "utf8");
    expect(onDisk).toBe(PLAN.replace('confidence="85%"', "confidence=0.85"));
    // The editor's buffer got the same text, through one small edit of the version the fix was planned on.
    expect(client.buffers.get(uri)!.text).toBe(onDisk);
    expect(client.applied.map((a) => a.edit.documentChanges)).toEqual([
      [
        {
          textDocument: { uri, version: 1 },
          edits: [{ range: { start: { line: 2, character: 27 }, end: { line: 2, character: 32 } }, newText: "0.85" }],
        },
      ],
    ]);
    const records = readFileSync(join(root, "docs/plan.noma.patches"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => [r["op"], r["patch_result"], (r["actor"] as { kind: string; name: string }).name, r["reason"]])).toEqual([
      [
        { op: "update_attribute", id: "c1", key: "confidence", value: 0.85, baseHash: expect.any(String) },
        "applied",
        "Test",
        'noma-reconcile lsp: quick fix [claim-invalid-confidence] confidence="85%" → 0.85',
      ],
    ]);
    const verify = runCli(["transcript", "verify", "docs/plan.noma", "--strict"], { cwd: root });
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    // The buffer's new version is judged: the finding is gone.
    const after = await client.diagnostics(uri, 2);
    expect(after.diagnostics.map((d) => d.code)).toEqual([]);
    expect(await client.shutdown()).toBe(0);
  });

  it("with unsaved changes the fix is offered disabled, and the command refuses it, writing nothing", async () => {
    const root = tempRepo({ "docs/plan.noma": PLAN });
    const client = new LspClient(root);
    await client.initialize();
    const uri = await client.open("docs/plan.noma");
    const offered = (await fixesOf(client, uri, 1))[0]!;
    const v = await client.edit(uri, "Measured.", "Measured twice.");
    const actions = await fixesOf(client, uri, v);
    expect(actions.map((a) => a.disabled)).toEqual([
      { reason: "Save the document first: the fix is made by the patch engine on the file and recorded in its transcript" },
    ]);
    const run = (args: unknown[]) => client.connection.sendRequest(ExecuteCommandRequest.type, { command: "noma-reconcile.applyFix", arguments: args });
    await expect(run(actions[0]!.command!.arguments!)).rejects.toThrow(
      "docs/plan.noma has unsaved changes in the editor: save it first (the patch engine edits the file, and its transcript records the file's states)",
    );
    await expect(run(offered.command!.arguments!)).rejects.toThrow("the document changed since the fix was offered; ask for the fix again");
    expect(readFileSync(join(root, "docs/plan.noma"), "utf8")).toBe(PLAN);
    expect(() => readFileSync(join(root, "docs/plan.noma.patches"))).toThrow(/ENOENT/);
    expect(client.messages.map((m) => m.message)).toEqual([
      "noma-reconcile: fix not applied: docs/plan.noma has unsaved changes in the editor: save it first (the patch engine edits the file, and its transcript records the file's states)",
      "noma-reconcile: fix not applied: the document changed since the fix was offered; ask for the fix again",
    ]);
  });
});

const INTRO = [
  "# Intro",
  "",
  '::claim{id="c-intro" confidence=0.5}',
  "Growth.",
  "::",
  "",
  '::evidence{id="e1" for="c-intro"}',
  "Data, see [[c-intro]].",
  "::",
  "",
].join("\n");
const RISKS = ["# Risks", "", '::risk{id="r-main" owner="ana"}', "The main risk; see [[c-intro]].", "::", "", "Also [[c-intro]] in prose.", ""].join("\n");
const BOOK = "chapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";

describe("rename of a block id", () => {
  it("renames in the chapter and across the book, each file through the patch engine; an unaddressable link keeps the old id as an alias", async () => {
    const root = tempRepo({ "book/book.noma.yml": BOOK, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS });
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    const at = positionOf(INTRO, "[[c-intro]]", 4);
    expect(await client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: intro }, position: at })).toEqual({
      range: { start: { line: 7, character: 12 }, end: { line: 7, character: 19 } },
      placeholder: "c-intro",
    });
    const edit = (await client.connection.sendRequest(RenameRequest.type, {
      textDocument: { uri: intro },
      position: at,
      newName: "c-growth",
    })) as WorkspaceEdit;
    // Only the open buffer is edited by the editor; the other chapter is written already.
    expect(edit.documentChanges?.map((c) => ("textDocument" in c ? c.textDocument : c))).toEqual([{ uri: intro, version: 1 }]);
    const introAfter = readFileSync(join(root, "book/01-intro.noma"), "utf8");
    expect(introAfter).toBe(
      INTRO.replace('id="c-intro" confidence=0.5', 'id="c-growth" confidence=0.5 aliases="c-intro"')
        .replace('for="c-intro"', 'for="c-growth"')
        .replace("see [[c-intro]]", "see [[c-growth]]"),
    );
    expect(readFileSync(join(root, "book/02-risks.noma"), "utf8")).toBe(RISKS.replace("see [[c-intro]]", "see [[c-growth]]"));
    expect(client.messages.map((m) => m.message)).toEqual([
      'noma-reconcile: Renamed "c-intro" to "c-growth"; 1 reference no patch op can address (book/02-risks.noma:7) left as written, so "c-intro" stays an alias of "c-growth".',
    ]);
    for (const doc of ["book/01-intro.noma", "book/02-risks.noma"]) {
      const verify = runCli(["transcript", "verify", doc, "--strict"], { cwd: root });
      expect(verify.code, `${doc}: ${verify.stdout}${verify.stderr}`).toBe(0);
    }
    expect(runCli(["check"], { cwd: root }).code).toBe(0);
    // The editor applies the edit: its buffer is then the file.
    const applied = edit.documentChanges![0]!;
    if (!("edits" in applied)) throw new Error("the rename's change is not a text edit");
    expect(applyTextEdits(INTRO, applied.edits as TextEdit[])).toBe(introAfter);
  });

  it("refuses a section's id, an id in use, and unsaved changes", async () => {
    const root = tempRepo({ "book/book.noma.yml": BOOK, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS });
    const client = new LspClient(root);
    await client.initialize();
    const intro = await client.open("book/01-intro.noma");
    await expect(
      client.connection.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: intro }, position: positionOf(INTRO, "Intro", 1) }),
    ).rejects.toThrow('"intro" is a section\'s id (made from its heading or its {id=…}); rename_id renames directive ids only: edit the heading instead');
    const at = positionOf(INTRO, 'id="c-intro"', 5);
    await expect(client.connection.sendRequest(RenameRequest.type, { textDocument: { uri: intro }, position: at, newName: "e1" })).rejects.toThrow(
      '"e1" is already an id or alias in book/01-intro.noma',
    );
    const risks = await client.open("book/02-risks.noma");
    await client.edit(risks, "Also", "Also, unsaved,");
    await expect(client.connection.sendRequest(RenameRequest.type, { textDocument: { uri: intro }, position: at, newName: "c-new" })).rejects.toThrow(
      "book/02-risks.noma has unsaved changes in the editor: save it first",
    );
    expect(readFileSync(join(root, "book/01-intro.noma"), "utf8")).toBe(INTRO);
    expect(() => readFileSync(join(root, "book/01-intro.noma.patches"))).toThrow(/ENOENT/);
    expect(uriOf(root, "book/02-risks.noma")).toBe(risks);
  });
});
