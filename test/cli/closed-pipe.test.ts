/**
 * A reader that stops early (`noma-reconcile ids doc.noma | head -1`) closes the pipe while
 * the CLI still writes: the CLI stops quietly with status 141 (128 + SIGPIPE, as a shell
 * reports git or coreutils there), printing no unhandled-error trace. The real CLI, its stdout
 * a pipe the test closes after the first chunk.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

function run(args: string[], cwd: string): Promise<{ code: number | null; stderr: string; firstChunk: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let firstChunk = "";
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.stdout.once("data", (b: Buffer) => {
      firstChunk = b.toString("utf8");
      child.stdout.destroy();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr, firstChunk }));
  });
}

describe("a reader that closes the pipe early", () => {
  it("ends the CLI quietly with status 141, no EPIPE trace", async () => {
    // Far more output than a pipe holds (64 KiB): the CLI is still writing when the pipe closes.
    const sections = Array.from({ length: 20_000 }, (_, k) => `## Section number ${k} {id="section-number-${k}"}\n\nText.\n`).join("\n");
    const repo = tempRepo({ "doc.noma": `# Doc\n\n${sections}` });
    const r = await run(["ids", "doc.noma"], repo);
    expect(r.firstChunk.length).toBeGreaterThan(0);
    expect(r.code).toBe(141);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|internal error/);
    expect(r.stderr).toBe("");
  });

  it("ends `render` (which writes to the descriptor directly) the same way", async () => {
    const sections = Array.from({ length: 20_000 }, (_, k) => `## Section number ${k} {id="section-number-${k}"}\n\nText.\n`).join("\n");
    const repo = tempRepo({ "doc.noma": `# Doc\n\n${sections}` });
    const r = await run(["render", "doc.noma", "--to", "noma"], repo);
    expect(r.firstChunk.startsWith("# Doc\n")).toBe(true);
    expect(r.code).toBe(141);
    expect(r.stderr).toBe("");
  });
});
