/**
 * kill -9 during edits, many times: a real MCP server (the shipped CLI) is sent a stream
 * of edit_file requests on one file and killed with SIGKILL at a random moment once the
 * first is answered, 30 times. After every kill the file is exactly one of the versions sent (never torn or
 * mixed), the ledger verifies (a torn last line is the only finding allowed, and the
 * next append repairs it), the next server gets past the killed one's locks, and every
 * answered edit's previous version is in the archive.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listArchived } from "../../src/workspace/read-archive.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
/** A version big enough that writing it takes a while (~150 KB), distinct per (run, n). */
const version = (run: number, n: number) => `run ${run} edit ${n}\n${`${run}:${n} `.repeat(15_000)}\n`;

/** Deterministic pseudo-random delays (no flaky seeds). */
function* delays(): Generator<number> {
  let x = 0x2545f491;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield 100 + ((x >>> 0) % 1100);
  }
}

describe("kill -9 during an edit", () => {
  it("leaves the old or the new file, a valid ledger, and every answered edit's previous version archived (30 kills)", async () => {
    const initial = "initial\n";
    const root = tempRepo({ "target.txt": initial });
    const sent = new Set<string>([initial]);
    const answered: string[] = [];
    const delay = delays();
    let tornRepairs = 0;
    // Each run's server is started while the run before it is under way (it reads nothing of the
    // repository until its first request, which comes after the kill): the start-up is not waited for.
    const start = () => {
      const child = spawn(process.execPath, [CLI, "mcp"], { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
      return { child, closed: new Promise((resolve) => child.on("close", resolve)) };
    };
    let next = start();
    for (let run = 0; run < 30; run++) {
      const { child, closed } = next;
      if (run < 29) next = start();
      let buf = "";
      const ids = new Map<number, string>();
      let first: () => void = () => undefined;
      const firstAnswer = new Promise<void>((r) => (first = r));
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (d: string) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf("\n")) !== -1) {
          const msg = JSON.parse(buf.slice(0, nl)) as { id: number; result?: { isError?: boolean } };
          buf = buf.slice(nl + 1);
          const contents = ids.get(msg.id);
          if (contents !== undefined && msg.result?.isError !== true) answered.push(contents);
          first();
        }
      });
      child.stdin.on("error", () => undefined); // EPIPE after the kill
      void closed.then(() => first());
      for (let n = 0; n < 12; n++) {
        const contents = version(run, n);
        sent.add(contents);
        ids.set(n + 1, contents);
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: "2.0", id: n + 1, method: "tools/call", params: { name: "edit_file", arguments: { path: "target.txt", contents } } })}\n`,
        );
      }
      // The kill falls at a pseudo-random moment once the edits are under way (one answered), however loaded the machine.
      await firstAnswer;
      await new Promise((r) => setTimeout(r, delay.next().value as number));
      child.kill("SIGKILL");
      await closed;
      const now = readFileSync(join(root, "target.txt"), "utf8");
      expect(sent.has(now), `run ${run}: target.txt is not one of the versions sent (${now.length} bytes)`).toBe(true);
      let ledger: Buffer;
      try {
        ledger = readFileSync(join(root, "docs/evidence_ledger.tools.log"));
      } catch {
        continue; // killed before the first append
      }
      const report = verifyLedger(ledger);
      const codes = report.findings.map((f) => f.code);
      expect(
        codes.every((c) => c === "torn-tail"),
        `run ${run}: ${JSON.stringify(report.findings)}`,
      ).toBe(true);
      if (codes.length > 0) tornRepairs++;
    }
    // One more request appends (repairing a torn tail if the last kill left one) and everything verifies.
    const ws = openWorkspace(root, { lockTimeoutMs: 120_000 });
    const last = await runWorkspaceTool(ws, "read_file", { path: "target.txt" });
    expect(last.status).toBe(200);
    const v = runCli(["ledger", "verify"], { cwd: root });
    expect(v.code, v.stdout).toBe(0);
    expect(answered.length).toBeGreaterThan(10);
    const current = readFileSync(join(root, "target.txt"), "utf8");
    const archived = new Set((await listArchived(ws, "target.txt")).flatMap((a) => a.members.map((m) => m.sha256)));
    // Every answered edit was written; whatever it replaced was archived first — so every
    // answered version that is no longer current was archived by the edit after it.
    for (const a of answered) if (a !== current) expect(archived.has(sha(a)), "an answered version is missing from the archive").toBe(true);
    expect(archived.has(sha(initial))).toBe(true);
    console.log(`kill -9: 30 runs, ${answered.length} edits answered before the kills, ${archived.size} versions archived, ${tornRepairs} torn tails seen`);
  }, 300_000);
});
