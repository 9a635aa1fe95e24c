// The MCP filesystem server's tools, ours against theirs and against rg, on a generated
// repository of 20,000 ~1 KB files (NR_BENCH_FILES changes the size; NR_BENCH_REPO=<dir>
// reuses one):
// - read_multiple_files of 100 files: a round trip through our MCP server and through
//   @modelcontextprotocol/server-filesystem (both already running, same 100 paths), beside
//   `cat` of the same files (a process that reads them) and readFileSync in this process;
// - search_text over the whole repository (a literal that is in 40 files, and a regular
//   expression), a round trip through our MCP server, beside `rg` doing the same search
//   from a fresh process (target: within 1.5× of rg), and beside the filesystem server's
//   only search, search_files (names, not contents) over the same tree.
// Rounds alternate the contenders so each ratio is taken under the same load; every
// figure is the median of the rounds, each ratio the median of the per-round ratios.
// Our requests each end with a ledger append (lock, write, fsync); theirs record nothing.
// CPU time is printed beside wall time (Linux: the servers' from /proc, rg's from the shell's
// `times`): on a loaded machine wall time is mostly waiting, CPU time is the work done.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureRepo, pathOf } from "./lib/gen-repo.mjs";
import { cpuTime, fmt, git, report } from "./lib/measure.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const FS_SERVER = join(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/package.json"), "../dist/index.js");
const N = Number(process.env.NR_BENCH_FILES ?? 20_000);
const ROUNDS = 9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;
const log = (s) => process.stderr.write(`${s}\n`);

/** An MCP server over stdio: `call` answers the result (throws on isError). */
function stdioServer(argv, cwd) {
  const child = spawn(argv[0], argv.slice(1), { cwd, stdio: ["pipe", "pipe", "ignore"] });
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
  const request = (method, params) =>
    new Promise((resolve) => {
      const my = ++id;
      waiting.set(my, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: my, method, params })}\n`);
    });
  return {
    /** The server's CPU time so far (ms; NaN where /proc is missing). */
    cpu() {
      try {
        const f = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1].split(" ");
        return (Number(f[11]) + Number(f[12])) * 10;
      } catch {
        return Number.NaN;
      }
    },
    async init() {
      await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    },
    async call(name, args) {
      const m = await request("tools/call", { name, arguments: args });
      if (m.error || m.result?.isError) throw new Error(`${name}: ${JSON.stringify(m.error ?? m.result.content)}`.slice(0, 500));
      return m.result;
    },
    close: () => new Promise((r) => (child.on("close", r), child.stdin.end())),
  };
}

/** Wall time of a call, and the server's CPU time spent on it. */
async function timed(fn, server) {
  const c0 = server?.cpu() ?? 0;
  const t0 = now();
  const out = await fn();
  return { ms: now() - t0, cpu: (server?.cpu() ?? 0) - c0, out };
}
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

function spawnTimed(cmd, args, cwd) {
  const t0 = now();
  const r = spawnSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 });
  const ms = now() - t0;
  if (r.error) throw r.error;
  return { ms, stdout: r.stdout.toString() };
}

// search_text leaves out the tools' own records (the ledger, which holds every search's pattern, and the archive): so does rg here.
const RG_SKIP = ["--glob", "!docs/evidence_ledger.tools.log", "--glob", "!archive/**"];
const hasRg = spawnSync("rg", ["--version"], { stdio: "ignore" }).status === 0;

const keep = process.env.NR_BENCH_REPO;
const root = keep ?? join(mkdtempSync(join(tmpdir(), "nr-bench-fs-")), "repo");
ensureRepo(root, N, log);
// The literal searched for, in 40 files (uncommitted: untracked changes are searched too).
const NEEDLE = "needle_token_7f3a";
const withNeedle = Array.from({ length: 40 }, (_, k) => pathOf(Math.floor((k * N) / 40)));
if (!readFileSync(join(root, withNeedle[0]), "utf8").includes(NEEDLE)) for (const p of withNeedle) appendFileSync(join(root, p), `${NEEDLE} here\n`);
git(root, ["status", "--porcelain"]); // warm the index
const hundred = Array.from({ length: 100 }, (_, k) => pathOf(Math.floor((k * N) / 100) + 1));

const ours = stdioServer([process.execPath, CLI, "mcp"], root);
const theirs = stdioServer([process.execPath, FS_SERVER, root], root);
await Promise.all([ours.init(), theirs.init()]);

// read_multiple_files of 100 files.
{
  const rows = { ours: [], theirs: [], cat: [], fs: [], rOurs: [], rCat: [], oursEmpty: [], theirsEmpty: [], cpuOurs: [], cpuTheirs: [] };
  for (let r = 0; r < ROUNDS + 2; r++) {
    // Each server's cost of a request that touches no file (ours: its ledger append — lock, write, fsync).
    const e1 = await timed(() => ours.call("list_allowed_directories", {}));
    const e2 = await timed(() => theirs.call("list_allowed_directories", {}));
    const a = await timed(() => ours.call("read_multiple_files", { paths: hundred }), ours);
    const b = await timed(() => theirs.call("read_multiple_files", { paths: hundred }), theirs);
    const c = spawnTimed("cat", hundred, root);
    const t0 = now();
    for (const p of hundred) readFileSync(join(root, p));
    const f = now() - t0;
    if (a.out.structuredContent.failed !== 0) throw new Error("read_multiple_files: some files failed");
    if (r < 2) continue;
    rows.ours.push(a.ms);
    rows.theirs.push(b.ms);
    rows.cpuOurs.push(a.cpu);
    rows.cpuTheirs.push(b.cpu);
    rows.oursEmpty.push(e1.ms);
    rows.theirsEmpty.push(e2.ms);
    rows.cat.push(c.ms);
    rows.fs.push(f);
    rows.rOurs.push(a.ms / b.ms);
    rows.rCat.push(a.ms / c.ms);
  }
  report(`read_multiple_files, 100 files of ~1 KB (${N.toLocaleString("en")}-file repository; medians of ${ROUNDS} rounds)`, [
    ["ours (MCP round trip)", fmt(median(rows.ours)), "filesystem server", fmt(median(rows.theirs)), `${median(rows.rOurs).toFixed(2)}× theirs`],
    ["", "", "cat of the 100 files (a process)", fmt(median(rows.cat)), `${median(rows.rCat).toFixed(2)}× cat`],
    ["", "", "readFileSync ×100 (in process)", fmt(median(rows.fs)), `${(median(rows.ours) / median(rows.fs)).toFixed(1)}× fs`],
    ["a request reading nothing: ours", fmt(median(rows.oursEmpty)), "theirs", fmt(median(rows.theirsEmpty)), "(list_allowed_directories)"],
    [
      "server CPU per call: ours",
      fmt(sum(rows.cpuOurs) / ROUNDS),
      "theirs",
      fmt(sum(rows.cpuTheirs) / ROUNDS),
      `${(sum(rows.cpuOurs) / sum(rows.cpuTheirs)).toFixed(2)}× theirs`,
    ],
  ]);
}

// search_text over the whole repository.
for (const [label, args, rgArgs] of [
  ["a literal (in 40 files)", { pattern: NEEDLE, literal: true, max_matches: 10_000 }, ["-n", "-F", NEEDLE, ...RG_SKIP, "."]],
  ["a regular expression", { pattern: "needle_\\w+_7f3a", max_matches: 10_000 }, ["-n", "needle_\\w+_7f3a", ...RG_SKIP, "."]],
]) {
  const rows = { ours: [], rg: [], ratio: [], cpuOurs: [], cpuRg: [] };
  let matches = 0;
  for (let r = 0; r < ROUNDS + 2; r++) {
    const a = await timed(() => ours.call("search_text", args), ours);
    matches = a.out.structuredContent.matches.length;
    if (matches !== 40) throw new Error(`search_text found ${matches} matches, expected 40`);
    if (hasRg) {
      const g = spawnTimed("rg", rgArgs, root);
      if (g.stdout.trim().split("\n").length !== 40) throw new Error(`rg found ${g.stdout.trim().split("\n").length} matches, expected 40`);
      if (r >= 2) {
        rows.rg.push(g.ms);
        rows.ratio.push(a.ms / g.ms);
        rows.cpuRg.push(cpuTime({ label: "rg", cmd: "rg", args: rgArgs, cwd: root, okStatus: [0] }));
      }
    }
    if (r >= 2) {
      rows.ours.push(a.ms);
      rows.cpuOurs.push(a.cpu);
    }
  }
  report(`search_text, ${label}, over ${N.toLocaleString("en")} files (medians of ${ROUNDS} rounds)`, [
    hasRg
      ? ["ours (MCP round trip)", fmt(median(rows.ours)), "rg (a fresh process)", fmt(median(rows.rg)), `${median(rows.ratio).toFixed(2)}× rg`, "target ≤ 1.5×"]
      : ["ours (MCP round trip)", fmt(median(rows.ours)), "rg", "not installed: skipped (apt-get install ripgrep)", "", ""],
    ...(hasRg
      ? [
          [
            "CPU: ours (the server)",
            fmt(sum(rows.cpuOurs) / ROUNDS),
            "rg (user + system, every thread)",
            fmt(median(rows.cpuRg)),
            `${(sum(rows.cpuOurs) / ROUNDS / median(rows.cpuRg)).toFixed(2)}× rg`,
            "",
          ],
        ]
      : []),
  ]);
}

// The filesystem server searches names only: its walk of the same tree, for scale.
{
  const rows = { ours: [], theirs: [] };
  for (let r = 0; r < 5; r++) {
    const b = await timed(() => theirs.call("search_files", { path: root, pattern: "**/f1999*.txt" }), theirs);
    const a = await timed(() => ours.call("search_files", { path: ".", pattern: "**/f1999*.txt" }), ours);
    if (r >= 1) {
      rows.ours.push(a.ms);
      rows.theirs.push(b.ms);
    }
  }
  report("search_files over the same tree (names: the filesystem server's only search)", [
    ["ours", fmt(median(rows.ours)), "filesystem server", fmt(median(rows.theirs)), `${(median(rows.ours) / median(rows.theirs)).toFixed(2)}× theirs`],
  ]);
}
await Promise.all([ours.close(), theirs.close()]);
