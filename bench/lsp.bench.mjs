// The language server (dist/cli.cjs lsp --stdio) as an editor meets it, on the generated 5 MiB
// document:
// - a one-line `didChange` → the diagnostics published for that version, against
//   `check` of the same document as a whole process, measured in the same run (target ≤ 0.2×;
//   the Noma reference server measures 1.3×: it re-parses and re-validates everything);
// - open → first diagnostics (the whole parse and validation, once);
// - spawn → `initialize` answered, against `node -e 0`;
// - the server's resident memory with the document open and idle, against the same server
//   idle with no document open, and the document's size.
// The client is the protocol's own (vscode-languageserver-protocol), as in test/lsp/.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import protocol from "vscode-languageserver-protocol/node";
import { generateDocument } from "./lib/gen-document.mjs";
import { fmt, ratio, report } from "./lib/measure.mjs";

const {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} = protocol;

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const CHANGES = 15;
const CHECKS = 7;
const STARTS = 9;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;
const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** Resident memory of a process (bytes), from /proc where there is one, else from ps. */
function rssOf(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return Number(line.split(/\s+/)[1]) * 1024;
  } catch {
    return (
      Number(
        execFileSync("ps", ["-o", "rss=", "-p", String(pid)])
          .toString()
          .trim(),
      ) * 1024
    );
  }
}

/** A server and an editor's side of the connection. */
function startServer(cwd) {
  const child = spawn(process.execPath, [CLI, "lsp", "--stdio"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    for (const w of waiters.filter((x) => x.uri === p.uri && x.version === p.version)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(p);
    }
  });
  connection.listen();
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return {
    child,
    connection,
    initialize: () =>
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: pathToFileURL(cwd).href,
        workspaceFolders: [{ uri: pathToFileURL(cwd).href, name: "bench" }],
        capabilities: {},
      }),
    diagnostics: (uri, version) => new Promise((resolve) => waiters.push({ uri, version, resolve })),
    async close() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      await exited;
      connection.dispose();
    },
  };
}

function floorOnce() {
  const t0 = now();
  spawnSync(process.execPath, ["-e", "0"], { stdio: "ignore" });
  return now() - t0;
}

function checkOnce(cwd) {
  const t0 = now();
  const r = spawnSync(process.execPath, [CLI, "check", "big.noma"], { cwd, stdio: "ignore" });
  if (r.error) throw r.error;
  return now() - t0;
}

const repo = mkdtempSync(join(tmpdir(), "nr-bench-lsp-"));
try {
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: repo });
  const { text, sections } = generateDocument(5 * 1024 * 1024);
  writeFileSync(join(repo, "big.noma"), text);
  const uri = pathToFileURL(join(repo, "big.noma")).href;

  // Start-up: spawn → initialize answered, paired with node -e 0.
  const starts = [];
  const floors = [];
  for (let i = 0; i < STARTS + 1; i++) {
    const f = floorOnce();
    const t0 = now();
    const s = startServer(repo);
    await s.initialize();
    const t = now() - t0;
    await s.close();
    if (i > 0) {
      floors.push(f);
      starts.push(t);
    }
  }

  // The server with no document open, then with the 5 MiB document.
  const s = startServer(repo);
  await s.initialize();
  await s.connection.sendNotification(InitializedNotification.type, {});
  await new Promise((r) => setTimeout(r, 300));
  const rssEmpty = rssOf(s.child.pid);
  const t0 = now();
  const first = s.diagnostics(uri, 1);
  await s.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: "noma", version: 1, text } });
  const opened = await first;
  const openMs = now() - t0;

  // One-line changes in the middle of the document: the claim's sentence of the middle section, two texts in turn.
  const lines = text.split("\n");
  const mid = Math.floor(sections / 2);
  const line = lines.indexOf(`Claim number ${mid}: the system behaves as described in [[s${mid}]].`);
  if (line === -1) throw new Error("the middle claim's line is not in the document");
  const texts = [lines[line], `Claim number ${mid}: the system behaves as written in [[s${mid}]] and [[c${mid}]].`];
  const changes = [];
  const checks = [];
  let version = 1;
  let published = opened;
  for (let i = 0; i < CHANGES + 2; i++) {
    // A whole `check` process on the same document, interleaved so both see the same machine state.
    if (i >= 2 && i - 2 < CHECKS) checks.push(checkOnce(repo));
    version++;
    const from = texts[(version - 1) % 2];
    const to = texts[version % 2];
    const wait = s.diagnostics(uri, version);
    const c0 = now();
    await s.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: from.length } }, text: to }],
    });
    published = await wait;
    if (i >= 2) changes.push(now() - c0);
  }
  if (published.diagnostics.length !== opened.diagnostics.length)
    throw new Error(`the change altered the findings: ${opened.diagnostics.length} → ${published.diagnostics.length}`);
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const rssOpen = rssOf(s.child.pid);
  await s.close();

  const change = median(changes);
  const check = median(checks);
  report(`Language server on a ${mib(Buffer.byteLength(text))} document (${sections} sections; median)`, [
    ["figure", "time", "floor", "floor time", "× floor", "target"],
    ["one-line didChange → diagnostics published", fmt(change), "`check big.noma` (a process)", fmt(check), ratio(change, check), "≤ 0.20× (reference: 1.3×)"],
    ["didOpen → first diagnostics (parse + validate)", fmt(openMs), "`check big.noma` (a process)", fmt(check), ratio(openMs, check), ""],
    ["spawn → initialize answered", fmt(median(starts)), "node -e 0", fmt(median(floors)), ratio(median(starts), median(floors)), ""],
  ]);
  console.log("");
  report("Server memory (resident set)", [
    ["figure", "size", "floor", "floor size", "× floor"],
    ["the document open, idle", mib(rssOpen), "no document open", mib(rssEmpty), ratio(rssOpen, rssEmpty)],
    [
      "of which for the document",
      mib(rssOpen - rssEmpty),
      "the document's text",
      mib(Buffer.byteLength(text)),
      ratio(rssOpen - rssEmpty, Buffer.byteLength(text)),
    ],
  ]);
  console.log(`  (${opened.diagnostics.length} diagnostics published for the document)`);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
