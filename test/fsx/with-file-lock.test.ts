/**
 * Locks are never broken on age alone while their owner lives: a same-host
 * owner is judged by its pid (and its start time, so a reused pid does not
 * keep a dead owner's lock), an owner on another host by the lock's mtime,
 * which the async form refreshes while it works (a heartbeat). Real
 * processes, a small staleMs, and a real `patch` waiting on a slow holder.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { acquireFileLock, commandLine, LockTimeoutError, withFileLock, withFileLockSync } from "../../src/fsx/with-file-lock.js";
import { lockPathFor } from "../../src/editing/patch-document.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { CLI } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const DIST_INDEX = fileURLToPath(new URL("../../dist/internal.js", import.meta.url));
const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    c.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    c.on("error", reject);
    c.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(10);
  }
}

/** This process's start time as /proc shows it (Linux), or null. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

describe("a live owner keeps its lock past staleMs", () => {
  it("a concurrent patch waits for a slow holder on this host instead of breaking its lock and losing an update", async () => {
    const repo = tempRepo({ "d.noma": DOC });
    const doc = join(repo, "d.noma");
    const lock = lockPathFor(doc);
    // A slow writer of the document, holding the document's lock for 1.5 s.
    const holder = run(
      [
        "--input-type=module",
        "-e",
        `import { withFileLockSync } from ${JSON.stringify(DIST_INDEX)};
         import { readFileSync, writeFileSync } from "node:fs";
         withFileLockSync(${JSON.stringify(lock)}, () => {
           const text = readFileSync(${JSON.stringify(doc)}, "utf8");
           console.log("locked");
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
           writeFileSync(${JSON.stringify(doc)}, text + "\\nHolder was here.\\n");
         });`,
      ],
      repo,
    );
    await waitFor(() => existsSync(lock) && readFileSync(lock, "utf8").endsWith("}"));
    // As if the holder had been at it for two minutes (past the 60 s stale limit): same owner, same token.
    const info = JSON.parse(readFileSync(lock, "utf8")) as Record<string, unknown>;
    writeFileSync(lock, JSON.stringify({ ...info, created: Date.now() - 120_000 }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    const patch = await run([CLI, "patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'], repo);
    const h = await holder;
    expect(h.code, h.stderr).toBe(0);
    expect(patch.code, patch.stderr).toBe(0);
    const text = readFileSync(doc, "utf8");
    // Both updates are there: the patch waited, then patched the holder's version.
    expect(text).toContain("Holder was here.");
    expect(text).toContain("confidence=0.9");
    const report = verifyTranscript(readFileSync(`${doc}.patches`, "utf8"), text, { strict: true });
    expect(report.findings).toEqual([]);
  });

  it("the async form refreshes the lock's mtime while it works (the heartbeat an owner on another host is judged by)", async () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const mtimes: number[] = [];
    await withFileLock(
      lock,
      async () => {
        const first = statSync(lock).mtimeMs;
        for (let i = 0; i < 8; i++) {
          await sleep(100);
          mtimes.push(statSync(lock).mtimeMs);
        }
        expect(Math.max(...mtimes)).toBeGreaterThan(first);
      },
      { staleMs: 200 },
    );
    expect(new Set(mtimes).size).toBeGreaterThan(1);
    expect(existsSync(lock)).toBe(false);
  });

  it("an owner on another host with a fresh heartbeat keeps its lock whatever its age; a silent one is broken", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere.invalid", token: "t", created: Date.now() - 600_000 }));
    // Created ten minutes ago, but its mtime is now: the owner is beating.
    expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 300, staleMs: 5_000 })).toThrow(LockTimeoutError);
    expect(JSON.parse(readFileSync(lock, "utf8")).host).toBe("elsewhere.invalid");
    const old = new Date(Date.now() - 6_000);
    utimesSync(lock, old, old);
    expect(withFileLockSync(lock, () => "broken", { timeoutMs: 2_000, staleMs: 5_000 })).toBe("broken");
  });

  it("a live owner on this host keeps its lock however old it is", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" });
    try {
      const pid = sleeper.pid!;
      const start = procStart(pid);
      writeFileSync(lock, JSON.stringify({ pid, host: hostname(), token: "t", created: Date.now() - 600_000, ...(start !== null ? { start } : {}) }));
      const old = new Date(Date.now() - 600_000);
      utimesSync(lock, old, old);
      expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 300, staleMs: 200 })).toThrow(new RegExp(`pid ${pid}`));
      expect(existsSync(lock)).toBe(true);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });

  it.skipIf(procStart(process.pid) === null)("a reused pid does not keep a dead owner's lock (the start time differs)", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    // The test runner's parent is alive, but it is not the process that took this lock.
    writeFileSync(lock, JSON.stringify({ pid: process.ppid, host: hostname(), token: "t", created: Date.now(), start: "1" }));
    expect(withFileLockSync(lock, () => "broken", { timeoutMs: 2_000, staleMs: 60_000 })).toBe("broken");
  });

  it("a dead owner's lock on this host is broken at once, whatever its age", async () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(lock, JSON.stringify({ pid: Number(dead), host: hostname(), token: "t", created: Date.now() }));
    // No wait allowed (timeoutMs 0) and far from stale: only breaking the dead owner's lock at once takes it.
    const release = await acquireFileLock(lock, { timeoutMs: 0, staleMs: 60_000 });
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it("a lock left by an earlier process with this very pid (pid reuse, e.g. in containers) is not mistaken for our own", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: "not-ours", created: Date.now() }));
    expect(withFileLockSync(lock, () => "broken", { timeoutMs: 2_000 })).toBe("broken");
  });
});

/** A process's state letter from /proc (R, S, T, Z, …), or null. */
function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? null;
  } catch {
    return null;
  }
}

describe("the lock file and the answer of a waiter that gives up", () => {
  it("appears whole (owner, start, command line), is gone after release, and leaves no temp file", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const before = Date.now();
    const seen = withFileLockSync(lock, () => JSON.parse(readFileSync(lock, "utf8")) as Record<string, unknown>);
    const after = Date.now();
    expect(seen).toMatchObject({
      pid: process.pid,
      host: hostname(),
      token: expect.stringMatching(/^[0-9a-f]{16}$/),
      cmd: commandLine(process.argv),
    });
    // Taken while this test ran (milliseconds since the epoch).
    expect(seen["created"]).toBeGreaterThanOrEqual(before);
    expect(seen["created"]).toBeLessThanOrEqual(after);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("names a holder on another host, its command line and age, and says where to end it", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    writeFileSync(lock, JSON.stringify({ pid: 4242, host: "elsewhere.invalid", token: "t", created: Date.now() - 90_000, cmd: "noma-reconcile mcp" }));
    expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 100, staleMs: 600_000 })).toThrow(
      new RegExp(
        `^timed out after 0\\.1 s waiting for the lock ${lock.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: held by pid 4242 on elsewhere\\.invalid \\(noma-reconcile mcp\\) since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\(1 min \\d+ s ago\\); that process runs on another host: wait for it to finish, or end it there; delete .* only if no such process exists on elsewhere\\.invalid$`,
      ),
    );
  });

  it("says so when the lock file names no owner", () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    writeFileSync(lock, "written by something else");
    expect(() => withFileLockSync(lock, () => 1, { timeoutMs: 100 })).toThrow(
      /: the lock file names no owner \(written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, \d+ s ago\); if no noma-reconcile process is running, delete .*x\.lock$/,
    );
  });

  it.skipIf(procState(process.pid) === null)("a zombie owner (exited, not yet reaped by its parent) is dead: its lock is taken at once", async () => {
    const dir = tempDir();
    const lock = join(dir, "x.lock");
    const holder = join(dir, "holder.mjs");
    writeFileSync(
      holder,
      `import { acquireFileLockSync } from ${JSON.stringify(DIST_INDEX)};\nacquireFileLockSync(${JSON.stringify(lock)});\nsetInterval(() => {}, 1000);\n`,
    );
    // sh starts the holder in the background, then becomes sleep, which never reaps it.
    const parent = spawn("sh", ["-c", '"$0" "$1" & exec sleep 120', process.execPath, holder], { stdio: "ignore" });
    onTestFinished(() => {
      parent.kill("SIGKILL");
    });
    await waitFor(() => existsSync(lock) && readFileSync(lock, "utf8").endsWith("}"));
    const pid = (JSON.parse(readFileSync(lock, "utf8")) as { pid: number }).pid;
    process.kill(pid, "SIGKILL");
    await waitFor(() => procState(pid) === "Z");
    // kill(pid, 0) still succeeds on a zombie: judged by that alone, its lock would be kept until this wait ran out.
    expect(withFileLockSync(lock, () => "taken", { timeoutMs: 2_000 })).toBe("taken");
  });
});
