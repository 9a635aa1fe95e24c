/**
 * The files beside the documents, through the real server over stdio: a document's transcript
 * (its findings on the document, and on the transcript when it is open), a spec (schema errors
 * at the offending key's line, as `check` reports them; a `$ref` into another spec the editor
 * holds), the two configuration files (each problem at its key), and governance on a source
 * file of any language (a code lens and a hover naming the spec, the glob and whether the file
 * is reconciled since the last mark).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CodeLensRequest, HoverRequest, type PublishDiagnosticsParams } from "vscode-languageserver-protocol/node";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { LspClient } from "./helpers/lsp-client.js";

const SEVERITY = ["", "error", "warning", "info"];

/** [code, severity, 1-based line, 1-based column, message] of each published diagnostic. */
function said(p: PublishDiagnosticsParams): Array<[unknown, string | undefined, number, number, string]> {
  return p.diagnostics.map((d) => [d.code, SEVERITY[d.severity!], d.range.start.line + 1, d.range.start.character + 1, d.message as string]);
}

/** What `check --format json` says of the files it checks: file → [code, severity, line, column, message]. */
function checkSays(root: string, rels: string[]): Record<string, Array<[string, string, number, number, string]>> {
  const r = runCli(["check", ...rels, "--format", "json"], { cwd: root });
  const files = (JSON.parse(r.stdout) as { result: { files: Array<{ file: string; diagnostics: Array<Record<string, unknown>> }> } }).result.files;
  return Object.fromEntries(
    files.map((f) => [
      f.file,
      f.diagnostics.map((d) => [
        d["code"] as string,
        d["severity"] as string,
        (d["pos"] as { line: number }).line,
        (d["pos"] as { column: number }).column,
        d["message"] as string,
      ]),
    ]),
  );
}

const PLAN = ['# Plan {id="plan"}', "", '::claim{id="c1" confidence=0.5}', "Grows.", "::", "", '::evidence{id="e1" for="c1"}', "Measured.", "::", ""].join(
  "\n",
);

describe("a document's transcript", () => {
  it("a document edited outside the patch protocol: the finding on the document (line 1) and on its open transcript, as check says", async () => {
    const root = tempRepo({ "docs/plan.noma": PLAN });
    const patched = runCli(["patch", "docs/plan.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'], { cwd: root });
    expect(patched.code, patched.stderr).toBe(0);
    git(root, ["add", "-A"]);
    git(root, ["commit", "-qm", "patched"]);
    const client = new LspClient(root);
    await client.initialize();
    // Clean: the transcript ends in the document's state.
    const uri = await client.open("docs/plan.noma");
    expect(said(await client.diagnostics(uri, 1, (p) => p.diagnostics.length === 0))).toEqual([]);

    // Written by another program, then saved: the editor reloads and saves.
    const edited = PLAN.replace("confidence=0.5", "confidence=0.9").replace("Grows.", "Grows a lot.");
    writeFileSync(join(root, "docs/plan.noma"), edited);
    const before = client.published.length;
    await client.save(uri);
    const onDoc = await client.diagnostics(uri, 1, (p) => client.published.indexOf(p) >= before && p.diagnostics.length > 0);
    const check = checkSays(root, ["docs/plan.noma", "docs/plan.noma.patches"]);
    expect(check["docs/plan.noma"]).toEqual([]);
    const [finding] = check["docs/plan.noma.patches"]!;
    expect(finding![0]).toBe("transcript-document-mismatch");
    // On the document: at its first line, the message naming the transcript's line.
    expect(said(onDoc)).toEqual([[finding![0], finding![1], 1, 1, `docs/plan.noma.patches:${finding![2]}: ${finding![4]}`]]);

    // The transcript itself, open: the finding where check puts it.
    const transcript = await client.open("docs/plan.noma.patches", undefined, "jsonl");
    expect(said(await client.diagnostics(transcript, 1))).toEqual(check["docs/plan.noma.patches"]);

    // `transcript accept` records the edit: the findings go.
    expect(runCli(["transcript", "accept", "docs/plan.noma", "--reason", "edited by hand"], { cwd: root }).code).toBe(0);
    const n = client.published.length;
    await client.save(uri);
    const cleared = await client.diagnostics(uri, 1, (p) => client.published.indexOf(p) >= n);
    expect(said(cleared)).toEqual([]);
    expect(await client.shutdown()).toBe(0);
  });
});

const SPEC_BAD = [
  "schema_version: 0.7",
  "intent: the API",
  "behaviors: [{name: a, given: b, then: c}]",
  "artifacts:",
  "  code:",
  '    - path: "src/**"',
  "",
].join("\n");

describe("specs and the configuration files", () => {
  it("a spec: schema errors at the key's line as check reports them; typing the fix clears them; a $ref to a spec the editor holds", async () => {
    const root = tempRepo({ ".notarai/api.spec.yaml": SPEC_BAD });
    const client = new LspClient(root);
    await client.initialize();
    const uri = await client.open(".notarai/api.spec.yaml", undefined, "yaml");
    const opened = await client.diagnostics(uri, 1);
    const check = checkSays(root, [".notarai/api.spec.yaml"]);
    expect(said(opened)).toEqual(check[".notarai/api.spec.yaml"]);
    expect(said(opened).map((d) => [d[0], d[2], d[3]])).toEqual([["spec-bad-schema-version", 1, 17]]);
    expect(opened.diagnostics[0]!.range).toEqual({ start: { line: 0, character: 16 }, end: { line: 0, character: 19 } });

    const v2 = await client.edit(uri, "schema_version: 0.7", 'schema_version: "0.7"');
    expect(said(await client.diagnostics(uri, v2))).toEqual([]);
    // A subsystem that does not exist yet, then a new spec file the editor has open (unsaved).
    const v3 = await client.edit(uri, "artifacts:", "subsystems:\n  - $ref: ./store.spec.yaml\nartifacts:");
    const missing = await client.diagnostics(uri, v3);
    expect(missing.diagnostics.map((d) => [d.code, d.range.start.line + 1])).toEqual([["spec-missing-ref", 5]]);
    const store = await client.open(".notarai/store.spec.yaml", 'schema_version: "0.7"\nintent: storage\ntier: derived\nartifacts: {}\n', "yaml");
    expect(said(await client.diagnostics(store, 1))).toEqual([]);
    // Opening it re-judged the spec that refers to it.
    expect(said(await client.diagnostics(uri, v3, (p) => p.diagnostics.length === 0))).toEqual([]);
    expect(await client.shutdown()).toBe(0);
  });

  it(".notarai/config.yaml and .norma/config.json: each problem at its key, errors and warnings", async () => {
    const root = tempRepo({});
    const client = new LspClient(root);
    await client.initialize();
    const config = await client.open(".notarai/config.yaml", "# settings\ntranscripts: warn\ndrift: fatal\nlock_timout: 3\n", "yaml");
    expect(said(await client.diagnostics(config, 1))).toEqual([
      ["config-invalid", "error", 3, 8, 'drift: expected one of "warning", "error", found "fatal"'],
      [
        "config-ignored",
        "warning",
        4,
        1,
        'unknown key "lock_timout" (did you mean "lock_timeout"?) is ignored; known keys: transcripts, drift, exclude, workspace, lock_timeout, fix_on_commit',
      ],
    ]);
    const v2 = await client.edit(config, "fatal", "error");
    expect(said(await client.diagnostics(config, v2)).map((d) => d[0])).toEqual(["config-ignored"]);

    const runConfig = await client.open(
      ".norma/config.json",
      ["{", '  "agents": {', '    "act": { "type": "exec", "cmd": [] }', "  },", '  "budgets": { "max_iteration": 3 }', "}", ""].join("\n"),
      "json",
    );
    expect(said(await client.diagnostics(runConfig, 1))).toEqual([
      ["run-config-invalid", "error", 3, 30, "agents.act.cmd: expected a list of at least 1, found an empty list"],
      ["run-config-invalid", "error", 5, 16, 'budgets.max_iteration: unknown key (did you mean "max_iterations"?)'],
    ]);
    expect(await client.shutdown()).toBe(0);
  });
});

const SPEC = [
  'schema_version: "0.7"',
  "intent: the API",
  "behaviors: [{name: a, given: b, then: c}]",
  "artifacts:",
  "  code:",
  '    - path: "src/**"',
  "",
].join("\n");

describe("governance in the editor", () => {
  it("a governed source file: a lens naming the spec and the glob, never marked → reconciled → unreconciled since the last mark; a hover says the same", async () => {
    const root = tempRepo({ ".notarai/api.spec.yaml": SPEC, "src/server.py": "def serve():\n    pass\n", "README.md": "# Readme\n" });
    const client = new LspClient(root);
    await client.initialize();
    const uri = await client.open("src/server.py", undefined, "python");
    const lens = async () =>
      (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } }))!.map((l) => [l.range.start.line, l.command!.title]);
    expect(await lens()).toEqual([[0, "Governed by .notarai/api.spec.yaml (code, via src/**) · never marked reconciled"]]);

    expect(runCli(["mark-reconciled", "src/server.py"], { cwd: root }).code).toBe(0);
    expect(await lens()).toEqual([[0, "Governed by .notarai/api.spec.yaml (code, via src/**) · reconciled"]]);

    writeFileSync(join(root, "src/server.py"), "def serve():\n    return 42\n");
    await client.save(uri);
    expect(await lens()).toEqual([[0, "Governed by .notarai/api.spec.yaml (code, via src/**) · unreconciled since the last mark"]]);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 4 } });
    expect(hover?.contents).toEqual({
      kind: "markdown",
      value: "**src/server.py**\n\n- Governed by .notarai/api.spec.yaml (code, via src/**) · unreconciled since the last mark",
    });
    // What `governs` says, the lens says.
    const governs = runCli(["governs", "src/server.py", "--format", "json"], { cwd: root });
    const governedBy = (JSON.parse(governs.stdout) as { result: { paths: Array<{ governed_by: unknown[] }> } }).result.paths[0]!.governed_by;
    expect(governedBy).toEqual([{ spec_path: ".notarai/api.spec.yaml", glob: "src/**", category: "code" }]);

    // A file no spec governs: no lens; the hover says so.
    const readme = await client.open("README.md", undefined, "markdown");
    expect(await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: readme } })).toEqual([]);
    expect(await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: readme }, position: { line: 0, character: 2 } })).toEqual({
      contents: { kind: "markdown", value: "**README.md**\n\nNot governed by any spec." },
    });
    expect(await client.shutdown()).toBe(0);
  });
});
