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
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHash } from "node:crypto";
import { applyPatch, parseNoma, rawLinesForHash, walkBlocks } from "../dist/internal.js";
import { baselineBuild } from "./lib/baseline.mjs";
import { generateDocument } from "./lib/gen-document.mjs";
import { generateMixedDocument } from "./lib/gen-mixed-document.mjs";
import { fmt, machineScale, ratio, report, time } from "./lib/measure.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const RUNS = 15;
// The reference's ≈160 ms per op, measured where `node -e 0` takes ≈90 ms, scaled to this machine.
const REFERENCE_OP_MS = 160 * machineScale().scale;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** A server process and a request/response helper over its stdio (each answer: the message, its line's bytes, the time its line was complete). */
function startServer(cwd, cli = CLI) {
  const child = spawn(process.execPath, [cli, "mcp"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  // Chunks of the current line, joined only when its newline arrives (no quadratic rescans of big answers).
  let parts = [];
  const waiting = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    let start = 0;
    let nl;
    while ((nl = d.indexOf("\n", start)) !== -1) {
      parts.push(d.slice(start, nl));
      const at = now();
      const line = parts.join("");
      const msg = JSON.parse(line);
      Object.defineProperty(msg, "wire", { value: { bytes: Buffer.byteLength(line), at } });
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

/**
 * read_doc of a 5 MiB document from the mixed-document generator (issue 38: target ≤ 3× the first
 * parse; the answer no larger than the reference's). Per round, each in a fresh process:
 * - the floor, "the first parse": a node process that has loaded the library and parsed the small
 *   document, then parses and walks (parseNoma + walkBlocks, every block materialized: the least
 *   read_doc must do) the 5 MiB document for the first time; then three more times (warm);
 * - our server, initialized and warmed by one read_doc of the small document, then its first
 *   read_doc of the 5 MiB document — request written → answer line complete on stdout — and two
 *   more (warm);
 * - the same with a baseline build (main before issue 38's change: commit d835c62, or
 *   NR_BASELINE_DIR), for before/after in one run.
 * Ratios are taken round by round (first/first, warm/warm). Answer bytes: the response line.
 * "Annex B.3 content" is the reference's shape built from the library's parse — the B.3 fields of
 * every block as one JSON text block in a JSON-RPC response line — without and with the per-block
 * hash (§3.4: read_doc's per-block hash is what baseHash takes).
 */
async function readDocLarge(repo) {
  const rounds = Number(process.env.NR_READ_DOC_ROUNDS ?? 5);
  const { text } = generateMixedDocument(5 * 1024 * 1024);
  writeFileSync(join(repo, "mixed.noma"), text);
  const internal = fileURLToPath(new URL("../dist/internal.js", import.meta.url));
  writeFileSync(
    join(repo, "floor.mjs"),
    `import { readFileSync } from "node:fs";
import { parseNoma, walkBlocks } from ${JSON.stringify(pathToFileURL(internal).href)};
const now = () => Number(process.hrtime.bigint()) / 1e6;
const walk = process.argv[2] !== "parse-only";
const run = (t) => { const d = parseNoma(t); let n = 0; if (walk) walkBlocks(d, () => { n++; }); return n; };
run(readFileSync("small.noma", "utf8"));
const text = readFileSync("mixed.noma", "utf8");
const out = [];
for (let i = 0; i < 4; i++) { const t0 = now(); run(text); out.push(now() - t0); }
console.log(JSON.stringify(out));
`,
  );
  const floorRun = (mode = "walk") => JSON.parse(execFileSync(process.execPath, ["floor.mjs", mode], { cwd: repo, encoding: "utf8" }));
  const serverRun = async (cli) => {
    const s = startServer(repo, cli);
    await s.request("initialize", INIT);
    await s.request("tools/call", { name: "read_doc", arguments: { file: "small.noma" } });
    const times = [];
    let wire;
    for (let i = 0; i < 3; i++) {
      const t0 = now();
      const r = await s.request("tools/call", { name: "read_doc", arguments: { file: "mixed.noma" } });
      times.push(r.wire.at - t0);
      wire = { line: r.wire.bytes, text: Buffer.byteLength(r.result.content[0].text), structured: r.result.structuredContent !== undefined };
    }
    await s.close();
    return { times, wire };
  };
  const base = process.env.NR_BENCH_NO_BASELINE === "1" ? { reason: "off" } : baselineBuild("d835c62ed8ce3a4d019117d61a988e26a0a1f8e4");
  const builds = [["this build", CLI], ...(base.cli !== undefined ? [["baseline (before)", base.cli]] : [])];
  const results = new Map(builds.map(([label]) => [label, []]));
  const floors = [];
  const parseOnly = [];
  try {
    floorRun();
    for (let r = 0; r < rounds; r++) {
      floors.push(floorRun());
      parseOnly.push(floorRun("parse-only")[0]);
      for (const [label, cli] of builds) results.get(label).push(await serverRun(cli));
    }
  } finally {
    base.cleanup?.();
  }
  // The reference's shape from the library's parse: Annex B.3's fields per block, one text block.
  const doc = parseNoma(text);
  const spec = [];
  const hashed = [];
  walkBlocks(doc, (n) => {
    const id = (n.type === "section" || n.type === "directive") && n.id ? n.id : undefined;
    const b = { ...(id ? { id } : {}), type: n.type };
    if (n.type === "directive") {
      b.name = n.name;
      b.attrs = Object.fromEntries(Object.entries(n.attrs).filter(([k]) => k !== "id"));
    }
    if (n.type === "section") Object.assign(b, { title: n.title, level: n.depth });
    if ((n.type === "section" || n.type === "directive") && n.aliases.length > 0) b.aliases = [...n.aliases];
    Object.assign(b, { childCount: n.children?.length ?? 0, lines: [n.pos.line, n.endLine], patchable: id !== undefined });
    spec.push(b);
    hashed.push(
      id
        ? {
            ...b,
            hash: createHash("sha256")
              .update(rawLinesForHash(doc.source, doc.lineStarts, n.pos.line, n.endLine))
              .digest("hex"),
          }
        : b,
    );
  });
  const lineOf = (body) => Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: JSON.stringify(body) }] } }));
  const specLine = lineOf({ blocks: spec });
  const hashedLine = lineOf({ blocks: hashed });
  const mb = (b) => `${(b / 1e6).toFixed(2)} MB`;
  const firstFloor = floors.map((f) => f[0]);
  const warmFloor = floors.map((f) => median(f.slice(1)));
  const rows = [["build", "first read_doc", "first parse", "× first parse (per round)", "warm read_doc", "warm parse", "× warm", "answer line", "target"]];
  for (const [label] of builds) {
    const rs = results.get(label);
    const first = rs.map((x) => x.times[0]);
    const warm = rs.map((x) => median(x.times.slice(1)));
    const firstRatios = first.map((t, i) => t / firstFloor[i]);
    const warmRatios = warm.map((t, i) => t / warmFloor[i]);
    const w = rs[0].wire;
    rows.push([
      label,
      fmt(median(first)),
      fmt(median(firstFloor)),
      `${median(firstRatios).toFixed(2)}× (${Math.min(...firstRatios).toFixed(2)}–${Math.max(...firstRatios).toFixed(2)})`,
      fmt(median(warm)),
      fmt(median(warmFloor)),
      `${median(warmRatios).toFixed(2)}×`,
      `${mb(w.line)}${w.structured ? " (structured + text)" : " (text only)"}`,
      label === "this build" ? `≤ 3.00× first parse; line ≤ ${mb(hashedLine)}` : "",
    ]);
  }
  report(`read_doc of a 5 MiB mixed document (${spec.length} blocks), ${rounds} rounds, fresh processes (median)`, rows);
  const ours = results.get("this build").map((x) => x.times[0]);
  const lazy = ours.map((t, i) => t / parseOnly[i]);
  console.log(
    `First parse without the walk (parseNoma alone: blocks materialized lazily, so not all of read_doc's parsing): ${fmt(median(parseOnly))}; ` +
      `this build's first read_doc is ${median(lazy).toFixed(2)}× that (${Math.min(...lazy).toFixed(2)}–${Math.max(...lazy).toFixed(2)}).`,
  );
  console.log(`Annex B.3 content as one text block: ${mb(specLine)} without block hashes, ${mb(hashedLine)} with them (§3.4).`);
}

const repo = mkdtempSync(join(tmpdir(), "nr-bench-mcp-"));
try {
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo });
  const small = '# Small\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
  const { text: big, sections } = generateDocument(5 * 1024 * 1024);
  writeFileSync(join(repo, "small.noma"), small);
  writeFileSync(join(repo, "big.noma"), big);

  async function startupAndRoundTrips() {
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
        blocks = JSON.parse(r.result.content[0].text).blocks.length;
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
        name === "big.noma"
          ? `${(REFERENCE_OP_MS / p).toFixed(2)}× faster than the reference op (≈${REFERENCE_OP_MS.toFixed(0)} ms scaled to this machine)`
          : "",
      ]);
    }
    await s.close();
    console.log("");
    report("MCP round trips on one running server (median; patch_block includes the transcript append and both atomic writes)", rows);
  }
  // NR_MCP_SECTION=read_doc runs only the 5 MiB read_doc rows.
  if (process.env.NR_MCP_SECTION !== "read_doc") await startupAndRoundTrips();
  console.log("");
  await readDocLarge(repo);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
