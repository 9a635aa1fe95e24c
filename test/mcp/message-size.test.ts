/**
 * The MCP server bounds a message (issue 33.4): a 200 MB `tools/call` line is answered with a
 * JSON-RPC error carrying its id, without being held (the next `ping` is answered), and 600 MB
 * with no newline at all is answered the same way at the end of input — through the real
 * stdio server, fed a generated stream, its peak memory read from /proc (VmHWM), never its time.
 * Also a small limit set with --max-message-bytes, with messages just under and over it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const MiB = 1024 * 1024;

interface Server {
  child: ChildProcessWithoutNullStreams;
  /** The next line the server writes on stdout, parsed. */
  next(): Promise<Record<string, unknown>>;
  write(data: string | Buffer): Promise<void>;
  /** Peak resident memory of the server process so far, in bytes (Linux /proc). */
  peakRss(): number;
  exit: Promise<number | null>;
}

function start(args: string[] = []): Server {
  const child = spawn(process.execPath, [CLI, "mcp", ...args], { cwd: tempRepo({ "a.noma": "# A\n\nx\n" }), stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const w = waiting.shift();
      if (w !== undefined) w(line);
      else lines.push(line);
    }
  });
  child.stderr.resume();
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    next: () =>
      new Promise((resolve) => {
        const l = lines.shift();
        if (l !== undefined) resolve(JSON.parse(l) as Record<string, unknown>);
        else waiting.push((line) => resolve(JSON.parse(line) as Record<string, unknown>));
      }),
    write: (data) =>
      new Promise((resolve, reject) => {
        if (child.stdin.write(data)) resolve();
        else child.stdin.once("drain", resolve);
        child.stdin.once("error", reject);
      }),
    peakRss: () => {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      return Number(m![1]) * 1024;
    },
    exit,
  };
}

/** `bytes` of `a`, written in 1 MiB chunks as the pipe takes them. */
async function stream(s: Server, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(MiB, 0x61);
  for (let left = bytes; left > 0; left -= MiB) await s.write(left >= MiB ? chunk : chunk.subarray(0, left));
}

const head = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"validate_doc","arguments":{"content":"`;

describe.skipIf(process.platform !== "linux")("MCP messages over the size limit", () => {
  it("a 200 MB line, then a ping, then 600 MB without a newline: two errors with their ids, the ping answered, memory bounded", async () => {
    const s = start();
    await s.write('{"jsonrpc":"2.0","id":0,"method":"ping"}\n');
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 0, result: {} });
    const baseline = s.peakRss();
    await s.write(head(1));
    await stream(s, 200 * 1024 * 1024);
    await s.write('"}}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    const tooLarge = await s.next();
    expect(tooLarge["id"]).toBe(1);
    const error = tooLarge["error"] as { code: number; message: string; data: { bytes: number; limit: number } };
    expect(error.code).toBe(-32600);
    expect(error.data).toEqual({ bytes: head(1).length + 200 * MiB + 4, limit: 32 * MiB });
    expect(error.message).toBe(
      `Request too large: ${error.data.bytes} bytes; this server takes messages of at most ${32 * MiB} bytes (noma-reconcile mcp --max-message-bytes <n>)`,
    );
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    // The process holds at most the limit (32 MiB, plus its garbage awaiting collection), not the 200 MB.
    const afterLine = s.peakRss() - baseline;
    expect(afterLine).toBeLessThan(128 * MiB);

    await s.write(head(3));
    await stream(s, 600 * 1024 * 1024);
    expect(s.peakRss() - baseline).toBeLessThan(128 * MiB);
    s.child.stdin.end();
    const last = await s.next();
    expect(last["id"]).toBe(3);
    expect((last["error"] as { code: number; data: { bytes: number } }).data.bytes).toBe(head(3).length + 600 * MiB);
    expect(await s.exit).toBe(0);
  }, 600_000);

  it("--max-message-bytes: a message of exactly the limit is served, one byte more is refused, and the server goes on", async () => {
    const s = start(["--max-message-bytes", "2048"]);
    const ping = (id: number, pad: number): string => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"pad":"${"p".repeat(pad)}"}}`;
    const fits = ping(10, 0);
    const exact = ping(10, 2048 - fits.length);
    expect(Buffer.byteLength(exact)).toBe(2048);
    await s.write(`${exact}\n${ping(11, 2049 - fits.length)}\n${ping(12, 0)}\n`);
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 10, result: {} });
    expect(await s.next()).toMatchObject({ jsonrpc: "2.0", id: 11, error: { code: -32600, data: { bytes: 2049, limit: 2048 } } });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 12, result: {} });
    s.child.stdin.end();
    expect(await s.exit).toBe(0);
  });
});
