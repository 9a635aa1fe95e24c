// The workspace tools (NOA) through both bindings, against the file system directly:
// - read_file / edit_file round trips on a 1 KB file through the MCP server (stdio) and
//   the HTTP server (`serve --http`, keep-alive), beside the direct `fs` call doing the
//   same work in this process (readFileSync; writeFileSync), the ratio being what the
//   binding, the containment walk, the archive (edit_file) and the ledger append
//   (lock + one write + fsync per request) add;
// - HTTP requests per second under 50 concurrent keep-alive clients (read_file, and
//   edit_file on 50 distinct files), beside the same number of direct fs calls;
// - edit_file (the library, in this process) on a 260 KB file as its month's archive grows
//   to 200 versions, beside writeFileSync of the same bytes.
// Every request appends to the ledger (fsync), so per-request time is bounded below by
// one fsync on this disk, measured here too.
import { spawn, execFileSync } from "node:child_process";
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, ratio, report } from "./lib/measure.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const TOKEN = "bench-token-0123456789abcdef";
const ROUND_TRIPS = 60;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

function mcpServer(cwd) {
  const child = spawn(process.execPath, [CLI, "mcp"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  let buf = "";
  const waiting = new Map();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf("\n")) !== -1) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  let id = 0;
  const call = (name, args) =>
    new Promise((resolve, reject) => {
      const my = ++id;
      waiting.set(my, (m) => (m.result?.isError ? reject(new Error(m.result.content[0].text)) : resolve(m.result.structuredContent)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: my, method: "tools/call", params: { name, arguments: args } })}\n`);
    });
  return { call, close: () => new Promise((r) => (child.on("close", r), child.stdin.end())) };
}

async function httpServer(cwd) {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "--port", "0"], {
    cwd,
    env: { ...process.env, NOMA_RECONCILE_TOKEN: TOKEN },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.setEncoding("utf8");
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(new URL(m[1]));
    });
    child.on("close", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const call = (name, args) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(args);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `/${name}`,
          method: "POST",
          agent,
          headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          const parts = [];
          res.on("data", (d) => parts.push(d));
          res.on("end", () => {
            const out = JSON.parse(Buffer.concat(parts).toString());
            if (res.statusCode !== 200 || out.success !== true) reject(new Error(`${res.statusCode} ${JSON.stringify(out)}`));
            else resolve(out);
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { call, close: () => new Promise((r) => (child.on("close", r), child.kill("SIGTERM"), agent.destroy())) };
}

async function roundTrips(call, n, make) {
  for (let i = 0; i < 5; i++) await call(...make(-1 - i)); // warm-up
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    await call(...make(i));
    samples.push(now() - t0);
  }
  return median(samples);
}

function timeSync(n, fn) {
  for (let i = 0; i < 5; i++) fn(-1 - i);
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = now();
    fn(i);
    samples.push(now() - t0);
  }
  return median(samples);
}

const body1k = (i) => `${`line ${i} `.repeat(100).slice(0, 1023)}\n`;
const root = mkdtempSync(join(tmpdir(), "nr-bench-ws-"));
try {
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/read.txt"), body1k(0));
  for (const f of ["mcp", "http", "fs"]) writeFileSync(join(root, `src/edit-${f}.txt`), body1k(0));
  mkdirSync(join(root, "many"));
  for (let k = 0; k < 50; k++) writeFileSync(join(root, `many/f${k}.txt`), body1k(k));

  // Floors: the same work with fs directly, and one fsync (each ledger append ends with one).
  const fsRead = timeSync(ROUND_TRIPS, () => readFileSync(join(root, "src/read.txt"), "utf8"));
  const fsWrite = timeSync(ROUND_TRIPS, (i) => writeFileSync(join(root, "src/edit-fs.txt"), body1k(i)));
  const fsyncFloor = timeSync(ROUND_TRIPS, (i) => {
    const fd = openSync(join(root, "fsync-probe"), "a");
    writeSync(fd, `${i}\n`);
    fsyncSync(fd);
    closeSync(fd);
  });

  const mcp = mcpServer(root);
  const mcpRead = await roundTrips(mcp.call, ROUND_TRIPS, () => ["read_file", { path: "src/read.txt" }]);
  const mcpEdit = await roundTrips(mcp.call, ROUND_TRIPS, (i) => ["edit_file", { path: "src/edit-mcp.txt", contents: body1k(i) }]);
  await mcp.close();

  const http = await httpServer(root);
  const httpRead = await roundTrips(http.call, ROUND_TRIPS, () => ["read_file", { path: "src/read.txt" }]);
  const httpEdit = await roundTrips(http.call, ROUND_TRIPS, (i) => ["edit_file", { path: "src/edit-http.txt", contents: body1k(i) }]);

  report(`Round trips on a 1 KB file (median of ${ROUND_TRIPS}; each request also appends a ledger line: lock, one write, fsync)`, [
    ["round trip", "time", "floor", "floor time", "× floor"],
    ["read_file via MCP", fmt(mcpRead), "readFileSync", fmt(fsRead), ratio(mcpRead, fsRead)],
    ["read_file via HTTP", fmt(httpRead), "readFileSync", fmt(fsRead), ratio(httpRead, fsRead)],
    ["edit_file via MCP (archive + atomic write)", fmt(mcpEdit), "writeFileSync", fmt(fsWrite), ratio(mcpEdit, fsWrite)],
    ["edit_file via HTTP (archive + atomic write)", fmt(httpEdit), "writeFileSync", fmt(fsWrite), ratio(httpEdit, fsWrite)],
    ["read_file via HTTP", fmt(httpRead), "one fsync", fmt(fsyncFloor), ratio(httpRead, fsyncFloor)],
  ]);

  // Throughput: 50 concurrent clients for a fixed number of requests.
  const CLIENTS = 50;
  const PER_CLIENT = 20;
  const throughput = async (make) => {
    const t0 = now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, k) => {
        for (let j = 0; j < PER_CLIENT; j++) await http.call(...make(k, j));
      }),
    );
    return (CLIENTS * PER_CLIENT) / ((now() - t0) / 1000);
  };
  const readRps = await throughput(() => ["read_file", { path: "src/read.txt" }]);
  const editRps = await throughput((k, j) => ["edit_file", { path: `many/f${k}.txt`, contents: body1k(j) }]);
  await http.close();
  const fsReadRps = 1000 / fsRead;
  const fsWriteRps = 1000 / fsWrite;
  const fsyncRps = 1000 / fsyncFloor;
  console.log("");
  report(`HTTP under ${CLIENTS} concurrent keep-alive clients (${CLIENTS} × ${PER_CLIENT} requests per figure)`, [
    ["requests", "req/s", "floor", "floor req/s", "floor ÷ figure"],
    ["read_file", readRps.toFixed(0), "readFileSync, one at a time", fsReadRps.toFixed(0), ratio(fsReadRps, readRps)],
    ["read_file", readRps.toFixed(0), "fsync, one at a time (the ledger's bound)", fsyncRps.toFixed(0), ratio(fsyncRps, readRps)],
    ["edit_file (50 files)", editRps.toFixed(0), "writeFileSync, one at a time", fsWriteRps.toFixed(0), ratio(fsWriteRps, editRps)],
  ]);
  // The archive keeps one archive per path per month and rewrites it (decompress, append the
  // member, compress the whole) on each overwrite: the time of an edit grows with the versions
  // of that path archived this month; zstd over the whole tar keeps the file small.
  const { openWorkspace, runWorkspaceTool } = await import("../dist/internal.js");
  const ws = openWorkspace(root);
  const big = Array.from({ length: 4000 }, (_, i) => `line ${i}: ordinary source text ${i * 7919} of a file an agent edits`).join("\n");
  writeFileSync(join(root, "src/big.txt"), big);
  const fsBig = timeSync(ROUND_TRIPS, (i) => writeFileSync(join(root, "src/big-fs.txt"), `${big}\n${i}\n`));
  const growth = [["versions archived this month", "edit_file (library)", "archive size", "floor: writeFileSync", "× floor"]];
  let edits = 0;
  for (const upTo of [10, 50, 100, 200]) {
    const samples = [];
    while (edits < upTo) {
      const t0 = now();
      const r = await runWorkspaceTool(ws, "edit_file", { path: "src/big.txt", contents: `${big}\nedit ${edits}\n` });
      samples.push(now() - t0);
      if (r.body.success !== true) throw new Error(JSON.stringify(r.body));
      edits++;
    }
    const last = samples.slice(-5);
    const ms = median(last);
    const size = statSync(join(root, "archive", ...ws.now().toISOString().slice(0, 7).split("-"), "src/big.txt.tar.zst")).size;
    growth.push([String(upTo), fmt(ms), `${(size / 1024).toFixed(0)} KB`, fmt(fsBig), ratio(ms, fsBig)]);
  }
  console.log("");
  report(`edit_file on a ${(Buffer.byteLength(big) / 1024).toFixed(0)} KB file as its month's archive grows (median of the last 5 edits)`, growth);

  const ledger = readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8").trimEnd().split("\n").length;
  const verify = execFileSync(process.execPath, [CLI, "ledger", "verify"], { cwd: root, encoding: "utf8" }).trim();
  console.log(`\nledger after the bench: ${ledger} lines; ${verify}`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await new Promise((r) => setTimeout(r, 200));
  rmSync(root, { recursive: true, force: true, maxRetries: 5 });
}
