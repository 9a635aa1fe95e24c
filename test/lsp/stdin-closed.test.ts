/**
 * The language server when the client closes stdin: every request it had sent is answered before
 * the process ends (exit 0 after `shutdown`, 1 without) — the standard server ended at once and
 * answered nothing, so `printf <requests> | noma-reconcile lsp` got no output. A request the server
 * itself was waiting on the client for (here `workspace/applyEdit` of a quick fix) is refused in
 * its place, so the command that asked it still answers, with an error.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

/** Content-Length framing of each message, all written at once; stdin then closes. */
function frame(messages: readonly object[]): string {
  return messages
    .map((m) => {
      const body = JSON.stringify(m);
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    })
    .join("");
}

/** The messages on stdout, in order. */
function unframe(out: string): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = [];
  let rest = Buffer.from(out, "utf8");
  while (rest.length > 0) {
    const header = rest.indexOf("\r\n\r\n");
    const length = Number(/Content-Length: (\d+)/.exec(rest.subarray(0, header).toString("utf8"))![1]);
    messages.push(JSON.parse(rest.subarray(header + 4, header + 4 + length).toString("utf8")) as Record<string, unknown>);
    rest = rest.subarray(header + 4 + length);
  }
  return messages;
}

function serve(cwd: string, messages: readonly object[]): { code: number | null; messages: Array<Record<string, unknown>>; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, "lsp", "--stdio"], { cwd, input: frame(messages), encoding: "utf8", timeout: 30_000 });
  if (r.error) throw r.error;
  return { code: r.status, messages: unframe(r.stdout), stderr: r.stderr };
}

const initialize = (id: number, root: string, capabilities: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { processId: null, rootUri: pathToFileURL(root).href, capabilities },
});

describe("lsp: the client closes stdin", () => {
  it("initialize alone is answered, then the server exits 1 (no shutdown)", () => {
    const repo = tempRepo({ "a.noma": "# A\n" });
    const r = serve(repo, [initialize(1, repo)]);
    expect(r.messages.map((m) => m["id"])).toEqual([1]);
    expect(r.messages[0]!["result"]).toMatchObject({ serverInfo: { name: "noma-reconcile" } });
    expect(r.code).toBe(1);
  });

  it("initialize, initialized and shutdown are answered in order, then it exits 0; its own registration request does not hold it", () => {
    const repo = tempRepo({ "a.noma": "# A\n" });
    const r = serve(repo, [
      initialize(1, repo, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } }),
      { jsonrpc: "2.0", method: "initialized", params: {} },
      { jsonrpc: "2.0", id: 2, method: "shutdown" },
    ]);
    expect(r.messages.filter((m) => m["method"] === undefined).map((m) => [m["id"], "error" in m])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Unhandled|rejection/i);
  });

  it("a quick fix whose applyEdit the client never answers: the patch is written, the command answers with an error, exit 1", () => {
    const text = '# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n';
    const repo = tempRepo({ "docs/plan.noma": text });
    const uri = pathToFileURL(join(repo, "docs/plan.noma")).href;
    const fix = {
      uri,
      version: 1,
      code: "test",
      description: "raise the confidence",
      ops: [{ op: "update_attribute", id: "c1", key: "confidence", value: 0.7 }],
    };
    const r = serve(repo, [
      initialize(1, repo, { workspace: { applyEdit: true } }),
      { jsonrpc: "2.0", method: "initialized", params: {} },
      { jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "noma", version: 1, text } } },
      { jsonrpc: "2.0", id: 2, method: "workspace/executeCommand", params: { command: "noma-reconcile.applyFix", arguments: [fix] } },
    ]);
    const asked = r.messages.find((m) => m["method"] === "workspace/applyEdit");
    expect(asked).toBeDefined();
    const answer = r.messages.find((m) => m["id"] === 2 && m["method"] === undefined)!;
    expect(answer["error"]).toMatchObject({ message: expect.stringContaining("the client closed its end of the connection") });
    expect(readFileSync(join(repo, "docs/plan.noma"), "utf8")).toContain("confidence=0.7");
    expect(existsSync(join(repo, "docs/plan.noma.patches"))).toBe(true);
    expect(r.code, r.stderr).toBe(1);
  });
});
