/**
 * Issue 33.6: a FIFO (a named pipe, with no writer: any open of it for reading would wait
 * forever) where a transcript, document, spec or configuration is expected. Every command
 * refuses it with `file-unreadable` naming the file and what it is, within the test's time
 * bound; `check` counts it as an error, never as "1 file checked" and skipped. Over MCP, a
 * `patch_block` on a document whose transcript is a FIFO is refused and a later `ping` is
 * answered; and while a tool call waits for a document lock another process holds, the
 * server still answers `ping` and `tools/list` (the call completes once the lock is free).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockPathFor } from "../../src/editing/patch-document.js";
import { acquireFileLock } from "../../src/fsx/with-file-lock.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { boundedCli } from "./helpers.js";

const DOC = '::note{id="n1"}\nText.\n::\n';
const FIFO = "cannot be read: it is a FIFO (named pipe), not a regular file";

function mkfifo(repo: string, rel: string): void {
  execFileSync("mkfifo", [join(repo, rel)]);
}

describe("a FIFO where a file is expected (33.6)", () => {
  it("as a transcript: patch, transcript verify, transcript accept and check refuse it, none blocks", () => {
    const repo = tempRepo({ "a.noma": DOC });
    mkfifo(repo, "a.noma.patches");
    const op = JSON.stringify({ op: "update_attribute", id: "n1", key: "owner", value: "ana" });
    const patch = boundedCli(["patch", "a.noma", "--op", op], { cwd: repo });
    expect(patch.timedOut).toBe(false);
    expect(patch.code).toBe(2);
    expect(patch.stderr).toContain(`a.noma.patches: ${FIFO}`);
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC); // nothing written

    for (const args of [
      ["transcript", "verify", "a.noma"],
      ["transcript", "accept", "a.noma", "--reason", "edited by hand"],
    ]) {
      const r = boundedCli(args, { cwd: repo });
      expect(r.timedOut, args.join(" ")).toBe(false);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(`a.noma.patches: ${FIFO}`);
    }

    // git does not list a FIFO; named, it is judged: an error, not "1 file checked" and skipped.
    const check = boundedCli(["check", "a.noma.patches", "--format", "json"], { cwd: repo });
    expect(check.timedOut).toBe(false);
    expect(check.code).toBe(1);
    const files = (JSON.parse(check.stdout) as { result: { files: Array<{ file: string; diagnostics: Array<{ code: string; message: string }> }> } }).result
      .files;
    expect(files.map((f) => [f.file, f.diagnostics.map((d) => `${d.code}: ${d.message}`)])).toEqual([["a.noma.patches", [`file-unreadable: ${FIFO}`]]]);
  });

  it("as a document: check, fmt, ids, parse and render refuse it", () => {
    const repo = tempRepo({ "a.noma": DOC });
    mkfifo(repo, "p.noma");
    const check = boundedCli(["check", "p.noma", "a.noma"], { cwd: repo });
    expect(check.timedOut).toBe(false);
    expect(check.code).toBe(1);
    expect(check.stdout).toBe(`ERROR [file-unreadable] p.noma: ${FIFO}\n`);
    expect(check.stderr).toBe("2 files checked: 1 error, 0 warnings.\n");
    const fmt = boundedCli(["fmt", "--check", "p.noma"], { cwd: repo });
    expect(fmt.timedOut).toBe(false);
    expect(fmt.code).toBe(1);
    expect(fmt.stdout).toBe(`ERROR [file-unreadable] p.noma: ${FIFO}\n`);
    for (const cmd of ["ids", "parse", "render"]) {
      const r = boundedCli([cmd, "p.noma"], { cwd: repo });
      expect(r.timedOut, cmd).toBe(false);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr, cmd).toBe(`noma-reconcile: p.noma: ${FIFO}\n`);
    }
  });

  it("as a spec or a configuration (.notarai/config.yaml, .norma/config.json): an error naming it", () => {
    const repo = tempRepo({ "a.noma": DOC });
    execFileSync("mkdir", ["-p", join(repo, ".notarai")]);
    mkfifo(repo, ".notarai/f.spec.yaml");
    const spec = boundedCli(["check", ".notarai/f.spec.yaml"], { cwd: repo });
    expect(spec.timedOut).toBe(false);
    expect(spec.code).toBe(1);
    expect(spec.stdout).toBe(`ERROR [file-unreadable] .notarai/f.spec.yaml: ${FIFO}\n`);

    mkfifo(repo, ".notarai/config.yaml");
    const config = boundedCli(["check"], { cwd: repo });
    expect(config.timedOut).toBe(false);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain(`.notarai/config.yaml: ${FIFO}`);

    const other = tempRepo({ "a.noma": DOC, ".norma/keep": "" });
    mkfifo(other, ".norma/config.json");
    const run = boundedCli(["run", "--spec", ".notarai/x.spec.yaml"], { cwd: other });
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`noma-reconcile: invalid .norma/config.json:\n  .norma/config.json: ${FIFO}\n`);
  });

  it("as governed code: governs and mark-reconciled say it is not a regular file (not 'ignored by git', not 'does not exist yet')", () => {
    const spec = 'schema_version: "0.7"\nintent: x\nbehaviors:\n  - name: a\n    given: g\n    then: t\nartifacts:\n  code:\n    - path: "src/**"\n';
    const repo = tempRepo({ ".notarai/a.spec.yaml": spec, "src/a.ts": "x\n" });
    mkfifo(repo, "src/f.ts");
    const why = "not a regular file (a FIFO, a socket or a device): git tracks only files and links";
    const governs = boundedCli(["governs", "src/f.ts"], { cwd: repo });
    expect(governs).toMatchObject({ timedOut: false, code: 1, stdout: `src/f.ts: not governed (${why})\n` });
    const json = boundedCli(["governs", "src/f.ts", "--format", "json"], { cwd: repo });
    expect((JSON.parse(json.stdout) as { result: { paths: unknown[] } }).result.paths).toEqual([
      { path: "src/f.ts", state: "not-a-file", excluded: false, audit: null, governed_by: [] },
    ]);
    const mark = boundedCli(["mark-reconciled", "src/f.ts"], { cwd: repo });
    expect(mark).toMatchObject({ timedOut: false, code: 1 });
    expect(mark.stdout + mark.stderr).toContain(`Not marked: src/f.ts (it is ${why}).`);
  });

  it("MCP: patch_block on a document whose transcript is a FIFO is refused, and ping is answered after it", async () => {
    const repo = tempRepo({ "a.noma": DOC });
    mkfifo(repo, "a.noma.patches");
    const c = new McpClient(repo);
    await c.initialize();
    const refused = await c.fails("patch_block", { file: "a.noma", op: { op: "update_attribute", id: "n1", key: "owner", value: "ana" } });
    expect(refused).toContain(`a.noma.patches: ${FIFO}`);
    expect((await c.request("ping")).result).toEqual({});
    expect(await c.ok("validate_doc", { file: "a.noma" })).toEqual({ ok: true, diagnostics: [] });
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
    await c.close();
  });

  it("MCP: while patch_block waits for a lock another process holds, ping and tools/list are answered", async () => {
    const repo = tempRepo({ "a.noma": DOC });
    const lock = await acquireFileLock(lockPathFor(join(repo, "a.noma")));
    const c = new McpClient(repo);
    await c.initialize();
    let patched = false;
    const call = c.request("tools/call", {
      name: "patch_block",
      arguments: { file: "a.noma", op: { op: "update_attribute", id: "n1", key: "owner", value: "ana" } },
    });
    void call.then(() => (patched = true));
    // A pause, so that a server that waits for the lock with its thread blocked is already
    // waiting when ping is sent (it then answers nothing until the lock times out, and the
    // assertions below fail). The test's passing never depends on it: the call cannot end
    // while the lock is held, however long anything takes.
    await new Promise((r) => setTimeout(r, 500));
    // The call cannot finish while the lock is held: these answers came while it waited.
    expect((await c.request("ping")).result).toEqual({});
    const list = (await c.request("tools/list")).result as { tools: Array<{ name: string }> };
    expect(list.tools.map((t) => t.name)).toContain("patch_block");
    expect(patched).toBe(false);
    lock.release();
    const done = (await call).result as { isError?: boolean; structuredContent: { ok: boolean } };
    expect(done.isError).toBeUndefined();
    expect(done.structuredContent.ok).toBe(true);
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC.replace('id="n1"', 'id="n1" owner="ana"'));
    await c.close();
  });
});
