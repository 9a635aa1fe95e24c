// The MCP server (dist/cli.cjs mcp) as a client meets it:
// - spawn → `initialize` + `tools/list` answered, beside `node -e 0` measured in the same run
//   (target ≤ 1.5×), and spawn → first `tools/call` answered (loads zod and the tool);
// - one `read_doc` and one `patch_block` round trip on a small document and on the generated
//   ~5 MB document, beside the library doing the same work in-process (parseNoma + block
//   summaries; applyPatch), so the ratio is what the server adds (JSON, stdio, the atomic
//   writes of document and transcript).
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyPatch, parseNoma, walkBlocks } from "../dist/internal.js";
import { generateDocument } from "./lib/gen-document.mjs";
import { fmt, machineScale, ratio, report, time } from "./lib/measure.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const RUNS = 15;
// The reference's ≈160 ms per op, measured where `node -e 0` takes ≈90 ms, scaled to this machine.
const REFERENCE_OP_MS = 160 * machineScale().scale;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** A server process and a request/response helper over its stdio. */
function startServer(cwd) {
  const child = spawn(process.execPath, [CLI, "mcp"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  // Chunks of the current line, joined only when its newline arrives (no quadratic rescans of big answers).
  let parts = [];
  const waiting = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    let start = 0;
    let nl;
    while ((nl = d.indexOf("\n", start)) !== -1) {
      parts.push(d.slice(start, nl));
      const msg = JSON.parse(parts.join(""));
      parts = [];
      start = nl + 1;
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
    if (start < d.length) parts.push(d.slice(start));
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      const my = ++id;
      waiting.set(my, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: my, method, params })}\n`);
    });
  const close = () =>
    new Promise((resolve) => {
      child.on("close", resolve);
      child.stdin.end();
    });
  return { request, close };
}

const INIT = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

/** Spawn → the answer to `last` (after initialize); the process is then closed (not timed). */
async function spawnTo(cwd, last) {
  const t0 = now();
  const s = startServer(cwd);
  await s.request("initialize", INIT);
  await last(s);
  const t = now() - t0;
  await s.close();
  return t;
}

function floorOnce() {
  const t0 = now();
  spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" });
  return now() - t0;
}

const repo = mkdtempSync(join(tmpdir(), "nr-bench-mcp-"));
try {
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo });
  const small = '# Small\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
  const { text: big, sections } = generateDocument(5 * 1024 * 1024);
  writeFileSync(join(repo, "small.noma"), small);
  writeFileSync(join(repo, "big.noma"), big);

  // Start-up: interleave the floor and the server so both see the same machine state.
  for (let i = 0; i < 2; i++) {
    floorOnce();
    await spawnTo(repo, (s) => s.request("tools/list", {}));
  }
  const floors = [];
  const lists = [];
  const firstCalls = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(floorOnce());
    lists.push(await spawnTo(repo, (s) => s.request("tools/list", {})));
    firstCalls.push(await spawnTo(repo, (s) => s.request("tools/call", { name: "list_ids", arguments: { file: "small.noma" } })));
  }
  const floor = median(floors);
  const list = median(lists);
  const first = median(firstCalls);
  report(`MCP server start-up (median of ${RUNS})`, [
    ["figure", "time", "floor", "floor time", "× floor", "target"],
    ["spawn → initialize + tools/list answered", fmt(list), "node -e 0", fmt(floor), ratio(list, floor), "≤ 1.50×"],
    ["spawn → initialize + first tools/call (list_ids)", fmt(first), "node -e 0", fmt(floor), ratio(first, floor), ""],
  ]);

  // Round trips on one warm server.
  const s = startServer(repo);
  await s.request("initialize", INIT);
  const summarize = (text) => {
    const doc = parseNoma(text);
    let n = 0;
    walkBlocks(doc, () => {
      n++;
    });
    return n;
  };
  const rows = [["round trip", "doc", "time", "in-process floor", "floor time", "× floor", "note"]];
  for (const [name, text, runs, target] of [
    ["small.noma", small, 15, "c1"],
    ["big.noma", big, 5, `c${Math.floor(sections / 2)}`],
  ]) {
    const size = Buffer.byteLength(text) > 1e6 ? `${(Buffer.byteLength(text) / 1048576).toFixed(1)} MB` : `${Buffer.byteLength(text)} B`;
    // read_doc
    const reads = [];
    let blocks = 0;
    for (let i = 0; i < runs + 1; i++) {
      const t0 = now();
      const r = await s.request("tools/call", { name: "read_doc", arguments: { file: name } });
      if (i > 0) reads.push(now() - t0);
      blocks = r.result.structuredContent.blocks.length;
    }
    const parseFloor = time(() => summarize(text), { runs: Math.min(runs, 7), warmup: 1 });
    rows.push(["read_doc", `${name} (${size}, ${blocks} blocks)`, fmt(median(reads)), "parse + walk", fmt(parseFloor), ratio(median(reads), parseFloor), ""]);
    // patch_block: a different value every time (never a noop); the document grows by nothing.
    const patches = [];
    for (let i = 0; i < runs + 1; i++) {
      const t0 = now();
      const r = await s.request("tools/call", {
        name: "patch_block",
        arguments: { file: name, op: { op: "update_attribute", id: target, key: "owner", value: `agent-${i}` } },
      });
      if (i > 0) patches.push(now() - t0);
      if (r.result.structuredContent?.ok !== true) throw new Error(`patch failed: ${JSON.stringify(r.result).slice(0, 300)}`);
    }
    // In-process, cold (a text the engine has not produced: parse, validate, op, re-validate). The
    // server's patches after the first start warm: each reads the text its previous patch wrote.
    const op = { op: "update_attribute", id: target, key: "owner", value: "x" };
    const patchFloor = time(() => applyPatch(text, [op], { reuse: false }), { runs: Math.min(runs, 7), warmup: 1 });
    const p = median(patches);
    rows.push([
      "patch_block",
      `${name} (${size})`,
      fmt(p),
      "applyPatch, cold",
      fmt(patchFloor),
      ratio(p, patchFloor),
      name === "big.noma" ? `${(REFERENCE_OP_MS / p).toFixed(2)}× faster than the reference op (≈${REFERENCE_OP_MS.toFixed(0)} ms scaled to this machine)` : "",
    ]);
  }
  await s.close();
  console.log("");
  report("MCP round trips on one running server (median; patch_block includes the transcript append and both atomic writes)", rows);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
