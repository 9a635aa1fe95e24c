/**
 * Issue 33.9: bytes are never replaced without a word. An HTTP `edit_file` body that is not
 * UTF-8 is refused with 422 `not_utf8` (as the server's own header promises), and so is a JSON
 * body whose string holds a lone surrogate (`\ud800`: UTF-8 cannot encode it); a lone surrogate
 * in an MCP `patch_block` op, or in the CLI's `patch --op`, is refused before anything is
 * written or recorded. In each case the file is untouched and no transcript is written, so
 * what a transcript records is always what was written.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { chainLines } from "../../src/transcript/transcript-record.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer, TEST_TOKEN } from "../workspace/helpers/http-server.js";
import { boundedCli } from "./helpers.js";

const DOC = '::note{id="n1"}\nText.\n::\n';

async function postBytes(s: HttpServer, tool: string, body: Buffer): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${s.url}/${tool}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}` },
    body,
  });
  return { status: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
}

describe("bytes replaced without a word (33.9)", () => {
  it("HTTP edit_file: a body that is not UTF-8 is 422 not_utf8, naming the byte; the file is untouched", async () => {
    const root = tempRepo({ "a.txt": "hello\n" });
    const s = await new HttpServer(root).ready();
    // {"path":"a.txt","contents":"caf<0xE9>"}: Latin-1, as a client that forgot to encode sends it.
    const prefix = Buffer.from('{"path":"a.txt","contents":"caf');
    const body = Buffer.concat([prefix, Buffer.from([0xe9]), Buffer.from('"}')]);
    const r = await postBytes(s, "edit_file", body);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ success: false, code: "not_utf8" });
    expect(r.body["message"]).toBe(`invalid request for edit_file: the body is not UTF-8: byte 0xE9 at offset ${prefix.length}`);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("hello\n");

    // Valid UTF-8 JSON whose string escapes a lone surrogate: refused as well, never written as U+FFFD.
    const lone = await postBytes(s, "edit_file", Buffer.from('{"path":"a.txt","contents":"x\\ud800y"}'));
    expect(lone.status).toBe(422);
    expect(lone.body).toMatchObject({ success: false, code: "not_utf8" });
    expect(lone.body["message"]).toBe(
      "invalid request for edit_file: arguments.contents: a lone surrogate (\\ud800 at character 1) is not text UTF-8 can encode; it would be written as U+FFFD; nothing was done",
    );
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("hello\n");

    // The same edit, encoded: written as sent.
    const ok = await postBytes(s, "edit_file", Buffer.from('{"path":"a.txt","contents":"café"}'));
    expect(ok.status).toBe(200);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("café");
    await s.stop();
  });

  it("MCP patch_block: a lone surrogate in an op is refused; neither the document nor a transcript is written", async () => {
    const repo = tempRepo({ "a.noma": DOC });
    const c = new McpClient(repo);
    // Written raw: JSON.stringify of the op would escape the surrogate the same way, but say it outright.
    const reply = c.waitFor(7);
    c.write(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"patch_block","arguments":' +
        '{"file":"a.noma","op":{"op":"add_block","parent":"n1","content":"::tip{id=\\"t\\"}\\nx\\ud800y\\n::"}}}}\n',
    );
    const r = (await reply).result as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: { ok: boolean; error: string; code: string } };
    const refusal = r.isError === true ? r.content[0]!.text : `${r.structuredContent?.code}: ${r.structuredContent?.error}`;
    expect(refusal).toBe(
      "invalid_content: op: content: a lone surrogate (\\ud800 at character 15) is not text UTF-8 can encode; it would be written as U+FFFD; nothing was recorded or written",
    );
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
    expect(existsSync(join(repo, "a.noma.patches"))).toBe(false);
    await c.close();
  });

  it("CLI patch --op: a lone surrogate is refused (exit 2); nothing is written or recorded", () => {
    const repo = tempRepo({ "a.noma": DOC });
    const op = '{"op":"update_attribute","id":"n1","key":"owner","value":"a\\udc00"}';
    const r = boundedCli(["patch", "a.noma", "--op", op], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "noma-reconcile: invalid_content: op: value: a lone surrogate (\\udc00 at character 1) is not text UTF-8 can encode; it would be written as U+FFFD;" +
        " nothing was recorded or written\nRun `noma-reconcile patch --help` for usage.\n",
    );
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
    expect(existsSync(join(repo, "a.noma.patches"))).toBe(false);
  });

  it("transcript verify: an applied record whose op holds a lone surrogate (as the server used to write one) is an error", () => {
    const repo = tempRepo({ "a.noma": DOC });
    // The document holds what the old server wrote, U+FFFD; the record is made to say \ud800, chained and sealed.
    const op = JSON.stringify({ op: "update_attribute", id: "n1", key: "owner", value: "a\ufffd" });
    expect(boundedCli(["patch", "a.noma", "--op", op], { cwd: repo }).code).toBe(0);
    const path = join(repo, "a.noma.patches");
    const [record] = readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { op: { value: string } });
    expect(boundedCli(["transcript", "verify", "a.noma"], { cwd: repo }).code).toBe(0);
    record!.op.value = "a\ud800";
    writeFileSync(path, chainLines([record as unknown as Record<string, unknown>], null).join(""));
    const r = boundedCli(["transcript", "verify", "a.noma"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("transcript-invalid-record");
    expect(r.stdout).toContain(
      "The op holds text UTF-8 cannot encode, so the document cannot hold what it records (op.value: a lone surrogate (\\ud800 at character 1)",
    );
  });
});
