/**
 * Bounded lock waits, answered in one line: a writer waits `--lock-timeout`, else
 * `lock_timeout` of .notarai/config.yaml, else 15 s, then exits 2 naming the lock file, the
 * holder (pid, host, command line, stopped or not, since when) and what to do — no stack
 * trace. The MCP tools answer the same text as an isError result, the HTTP binding with its
 * `lock_timeout` body. Real processes: a real `patch` stopped with SIGSTOP while it holds the
 * document's lock; elsewhere the holder is this test process, named in the lock file (alive
 * for as long as the test runs).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULT_LOCK_TIMEOUT_MS, LockTimeoutError, resolveLockTimeout, withFileLockSync } from "../../src/fsx/with-file-lock.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { CLI } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { HttpServer } from "../workspace/helpers/http-server.js";

const SPEC = `schema_version: "0.7"
intent: "A tiny app."
behaviors:
  - name: greets
    given: "a name"
    then: "it says hello to it"
artifacts:
  code:
    - path: "src/**"
`;
const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const OP = '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}';
const re = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** "since 2026-11-28 04:18:32 (3 s ago)": a local time and an age. */
const SINCE = "since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\((?:\\d+ s|\\d+ min \\d+ s) ago\\)";

interface Done {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { child: ChildProcessWithoutNullStreams; done: Promise<Done> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Done>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, done };
}

const cli = (args: string[], cwd: string): Promise<Done> => start(args, cwd).done;

/** This process's start time as /proc shows it (Linux), or undefined. */
function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** A process's state letter from /proc (`T`: stopped), or undefined. */
function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/** Make this (live) test process — or another live process, `pid` — the holder of the lock at `path`. */
function holdAsTest(path: string, pid = process.pid): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ pid, host: hostname(), token: "held-by-the-test", created: Date.now(), start: procStart(pid), cmd: "vitest" }));
}

/** The one line a waiter prints when this test process holds `lock` past `seconds`. */
function heldByTest(lock: string, seconds: string): RegExp {
  return new RegExp(
    `^timed out after ${re(seconds)} s waiting for the lock ${re(lock)}: held by pid ${process.pid} on ${re(hostname())} \\(vitest\\) ${SINCE}; wait for it to finish, or, if it is hung, end it \\(kill ${process.pid}\\); delete ${re(lock)} only if no such process exists$`,
  );
}

/** stderr is exactly one line, `noma-reconcile: <text>`: returns the text. */
function oneLine(r: Done): string {
  expect(r.stderr).not.toMatch(/internal error|This is a bug|^\s+at /m);
  expect(r.stderr.endsWith("\n") && r.stderr.indexOf("\n") === r.stderr.length - 1, r.stderr).toBe(true);
  expect(r.stderr.startsWith("noma-reconcile: "), r.stderr).toBe(true);
  return r.stderr.slice("noma-reconcile: ".length, -1);
}

describe("a patch stopped while it holds the document's lock", () => {
  it.skipIf(process.platform !== "linux")(
    "the next patch with --lock-timeout 1 exits 2 with one line naming the stopped holder; resumed, the first completes",
    async () => {
      // ~1 MB and 200 ops, all applied once the stopped patch is resumed.
      const doc = Array.from(
        { length: 8000 },
        (_, i) => `::claim{id="c${i}" confidence=0.5}\nClaim number ${i}, padded with words to make the document about one megabyte.\n::\n`,
      ).join("\n");
      const ops = Array.from({ length: 200 }, (_, k) => ({ op: "update_attribute", id: `c${k * 40}`, key: "owner", value: `agent-${k}` }));
      const repo = tempRepo({ "d.noma": doc, "ops.json": JSON.stringify(ops) });
      const lock = join(repo, ".d.noma.lock");
      // The real CLI, with a preload that stops the process (SIGSTOP, as a user's Ctrl-Z would) the
      // moment it has linked its lock file into place: stopped while holding, whatever the load.
      const preload = join(tempDir(), "stop-after-lock.cjs");
      writeFileSync(
        preload,
        `const fs = require("node:fs");\nconst link = fs.linkSync;\nfs.linkSync = function (from, to) {\n  const r = link.apply(this, arguments);\n  if (String(to).endsWith(".d.noma.lock")) process.kill(process.pid, "SIGSTOP");\n  return r;\n};\n`,
      );
      const first = start(["patch", "d.noma", "--ops", "ops.json"], repo, { NODE_OPTIONS: `--require ${preload}` });
      let exited = false;
      void first.done.then(() => (exited = true));
      // Wait until the kernel shows it stopped (it stays stopped until SIGCONT, so no moment can be
      // missed): looked at every 5 ms, not at every turn of the event loop, which kept this process
      // busy on a core for as long as the patch took to start, read the document and take the lock.
      while (procState(first.child.pid!) !== "T") {
        if (exited) throw new Error(`the first patch ended before it stopped holding its lock: ${(await first.done).stderr}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(existsSync(lock)).toBe(true);
      const owner = JSON.parse(readFileSync(lock, "utf8")) as { pid: number; cmd: string };
      expect(owner).toMatchObject({ pid: first.child.pid, cmd: "noma-reconcile patch d.noma --ops ops.json" });

      const second = await cli(["patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"owner","value":"second"}', "--lock-timeout", "1"], repo);
      expect(second.code).toBe(2);
      expect(second.stdout).toBe("");
      const pid = first.child.pid!;
      expect(oneLine(second)).toMatch(
        new RegExp(
          `^timed out after 1 s waiting for the lock ${re(lock)}: held by pid ${pid} on ${re(hostname())} \\(noma-reconcile patch d\\.noma --ops ops\\.json\\) ${SINCE}; that process is stopped \\(SIGSTOP or Ctrl-Z\\): resume it \\(kill -CONT ${pid}\\) or end it \\(kill ${pid}\\); delete ${re(lock)} only if no such process exists$`,
        ),
      );

      first.child.kill("SIGCONT");
      const r = await first.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^applied 200 of 200 ops to d\.noma/);
      const text = readFileSync(join(repo, "d.noma"), "utf8");
      expect(text).toContain('id="c40" confidence=0.5 owner="agent-1"');
      expect(text).not.toContain("second");
      expect(verifyTranscript(readFileSync(join(repo, "d.noma.patches"), "utf8"), text)).toMatchObject({ ok: true, records: 200 });
      expect(existsSync(lock)).toBe(false);
      expect(readdirSync(repo).filter((f) => f.includes(".lock"))).toEqual([]);
    },
  );
});

describe("the wait: --lock-timeout, else lock_timeout of the configuration, else 15 s", () => {
  it("lock_timeout of .notarai/config.yaml bounds a patch's wait; --lock-timeout wins over it", async () => {
    const repo = tempRepo({ "d.noma": DOC, ".notarai/config.yaml": "lock_timeout: 0.2\n" });
    const lock = join(repo, ".d.noma.lock");
    holdAsTest(lock);
    const fromConfig = await cli(["patch", "d.noma", "--op", OP], repo);
    expect(fromConfig.code).toBe(2);
    expect(oneLine(fromConfig)).toMatch(heldByTest(lock, "0.2"));
    // An hour in the configuration: were the flag not to win, this would wait past the test's timeout.
    writeFileSync(join(repo, ".notarai/config.yaml"), "lock_timeout: 3600\n");
    const fromFlag = await cli(["patch", "d.noma", "--op", OP, "--lock-timeout", "0"], repo);
    expect(fromFlag.code).toBe(2);
    expect(oneLine(fromFlag)).toMatch(heldByTest(lock, "0"));
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
  });

  it.each([
    ["transcript accept", ["transcript", "accept", "d.noma", "--reason", "edited by hand"], ".d.noma.lock"],
    ["mark-reconciled (the hash cache)", ["mark-reconciled", "src/a.ts"], ".notarai/.cache/notarai.db.lock"],
    ["state snapshot (the snapshot)", ["state", "snapshot"], ".notarai/.cache/reconciliation_state.json.lock"],
    ["init", ["init"], ".notarai/.cache/init.lock"],
  ])("%s: --lock-timeout bounds the wait for its lock", async (_name, args, rel) => {
    const repo = tempRepo({ "d.noma": DOC, ".notarai/app.spec.yaml": SPEC, "src/a.ts": "export const a = 1;\n" });
    if (args[0] === "transcript") {
      // A transcript, then an edit outside the protocol: something to accept.
      expect((await cli(["patch", "d.noma", "--op", OP], repo)).code).toBe(0);
      writeFileSync(join(repo, "d.noma"), `${readFileSync(join(repo, "d.noma"), "utf8")}\nEdited by hand.\n`);
    }
    const lock = join(repo, rel);
    holdAsTest(lock);
    const r = await cli([...args, "--lock-timeout", "0.1"], repo);
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(heldByTest(lock, "0.1"));
  });

  it("defaults to 15 s, looked up only when the lock is found taken", () => {
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBe(15_000);
    expect(resolveLockTimeout()).toBe(15_000);
    expect(readFileSync(new URL("../../README.md", import.meta.url), "utf8")).toContain("waits up to 15 s");
    const dir = tempDir();
    // A free lock never asks for its timeout (the CLI's asks reads the configuration).
    const never = (): number => {
      throw new Error("asked for the timeout of a free lock");
    };
    expect(withFileLockSync(join(dir, "free.lock"), () => "taken", { timeoutMs: never })).toBe("taken");
    // Held by the test runner's parent (this process would judge a lock naming itself, without holding it, stale).
    holdAsTest(join(dir, "held.lock"), process.ppid);
    let asked = 0;
    expect(() => withFileLockSync(join(dir, "held.lock"), () => "taken", { timeoutMs: () => (asked++, 50) })).toThrow(LockTimeoutError);
    expect(asked).toBe(1);
  });
});

describe("the servers use lock_timeout of the configuration", () => {
  it("MCP: patch_block answers the CLI's line as an isError result; edit_file its lock_timeout body", async () => {
    const repo = tempRepo({ "d.noma": DOC, "notes.md": "old\n", ".notarai/config.yaml": "lock_timeout: 0.2\n" });
    const lock = join(repo, ".d.noma.lock");
    holdAsTest(lock);
    const fileLock = openWorkspace(repo).lockPath("file", "notes.md");
    holdAsTest(fileLock);
    const c = new McpClient(repo);
    await c.initialize();
    const text = await c.fails("patch_block", { file: "d.noma", op: JSON.parse(OP) });
    expect(text).toMatch(heldByTest(lock, "0.2"));
    const fromCli = oneLine(await cli(["patch", "d.noma", "--op", OP], repo));
    expect(text.replace(/\(\d+ s ago\)/, "")).toBe(fromCli.replace(/\(\d+ s ago\)/, ""));
    const body = JSON.parse(await c.fails("edit_file", { path: "notes.md", contents: "new\n" })) as { success: boolean; code: string; message: string };
    expect(body).toMatchObject({ success: false, code: "lock_timeout" });
    expect(body.message).toMatch(heldByTest(fileLock, "0.2"));
    await c.close();
    expect(readFileSync(join(repo, "notes.md"), "utf8")).toBe("old\n");
  });

  it("HTTP: edit_file answers 503 with its lock_timeout body", async () => {
    const repo = tempRepo({ "notes.md": "old\n", ".notarai/config.yaml": "lock_timeout: 0.2\n" });
    const fileLock = openWorkspace(repo).lockPath("file", "notes.md");
    holdAsTest(fileLock);
    const s = await new HttpServer(repo).ready();
    const r = await s.post("edit_file", { path: "notes.md", contents: "new\n" });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ success: false, code: "lock_timeout" });
    expect(r.body["message"]).toMatch(heldByTest(fileLock, "0.2"));
    expect((await s.stop()).code).toBe(0);
  });
});
