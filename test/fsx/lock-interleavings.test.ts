/**
 * A lock is never held twice after a crash (issue 32.12). The owner of a lock dies; three waiters
 * find its lock: the interleavings that could once leave two of them holding it are played step
 * by step — the lock's break steps call a hook (setLockBreakInterleaving) in which the test runs
 * the other waiters, so the order is exact, never a matter of timing. Each waiter is a real
 * acquisition of the real lock file (in this process: a lock taken here is live, the dead owner's
 * pid is a process that has exited). Also a waiter that died while breaking (its claim left
 * behind) does not keep the lock from being taken; and real processes racing for a killed holder's lock lose no update.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { acquireFileLockSync, type HeldLock, type LockBreakStep, LockTimeoutError, setLockBreakInterleaving } from "../../src/fsx/with-file-lock.js";
import { tempDir } from "../helpers/temp-repo.js";

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
}

/** A lock file left by a crashed owner. */
function crashedLock(path: string): string {
  const raw = JSON.stringify({ pid: deadPid(), host: hostname(), token: "crashed0crashed0", created: Date.now() });
  writeFileSync(path, raw);
  return raw;
}

const tokenIn = (lock: string): string => (JSON.parse(readFileSync(lock, "utf8")) as { token: string }).token;

/** A waiter that may not wait: the lock, or the LockTimeoutError it got. */
function tryTake(lock: string): HeldLock | LockTimeoutError {
  try {
    return acquireFileLockSync(lock, { timeoutMs: 0 });
  } catch (e) {
    if (e instanceof LockTimeoutError) return e;
    throw e;
  }
}

/** Run `fn` the first time the waiter being played reaches `step` (later waiters pass the hook untouched). */
function at(step: LockBreakStep, fn: () => void): LockBreakStep[] {
  const seen: LockBreakStep[] = [];
  let done = false;
  setLockBreakInterleaving((s) => {
    seen.push(s);
    if (s !== step || done) return;
    done = true;
    fn();
  });
  return seen;
}

afterEach(() => setLockBreakInterleaving(undefined));

describe("three waiters and a crashed owner's lock", () => {
  it("A judges it stale; B breaks it and takes the lock; then A goes on: A never moves B's lock (C could take the slot then), A and C wait, B alone holds it", () => {
    const lock = join(tempDir("nr-lock3-"), "x.lock");
    crashedLock(lock);
    let b: HeldLock | LockTimeoutError | undefined;
    let c: HeldLock | LockTimeoutError | undefined;
    let who = "A";
    const steps: string[] = [];
    setLockBreakInterleaving((step) => {
      steps.push(`${who} ${step}`);
      if (who !== "A") return;
      if (step === "judged-stale" && b === undefined) {
        who = "B"; // B: breaks the dead owner's lock and takes its own
        b = tryTake(lock);
        who = "A";
      } else if (step === "moved-aside") {
        who = "C"; // Were A moving B's fresh lock aside, C would find the slot free and take it: two holders.
        c = tryTake(lock);
        who = "A";
      }
    });
    const a = tryTake(lock);
    setLockBreakInterleaving(undefined);
    // A took the claim after B released it, found B's lock there (not the one it judged) and left it alone.
    expect(steps).toEqual(["A judged-stale", "B judged-stale", "B claimed", "B moved-aside", "A claimed"]);
    expect(c).toBeUndefined();
    expect(b).not.toBeInstanceOf(LockTimeoutError);
    const bToken = tokenIn(lock);
    expect(a).toBeInstanceOf(LockTimeoutError);
    expect((a as LockTimeoutError).owner).toMatchObject({ pid: process.pid, host: hostname() });
    c = tryTake(lock);
    expect(c).toBeInstanceOf(LockTimeoutError);
    expect(tokenIn(lock)).toBe(bToken);
    (b as HeldLock).release();
    const cAgain = tryTake(lock);
    expect(cAgain).not.toBeInstanceOf(LockTimeoutError);
    (cAgain as HeldLock).release();
    expect(readdirSync(join(lock, ".."))).toEqual([]);
  });

  it("A holds the claim to break it: B and C, finding the same stale lock, wait for A instead of breaking it too", () => {
    const lock = join(tempDir("nr-lock3-"), "x.lock");
    const raw = crashedLock(lock);
    const others: Array<HeldLock | LockTimeoutError> = [];
    at("claimed", () => {
      others.push(tryTake(lock), tryTake(lock));
      // Still the dead owner's lock: nobody moved it while A holds the claim.
      expect(readFileSync(lock, "utf8")).toBe(raw);
    });
    const a = tryTake(lock);
    setLockBreakInterleaving(undefined);
    expect(others).toHaveLength(2);
    for (const o of others) {
      expect(o).toBeInstanceOf(LockTimeoutError);
      // The one they waited for is A, the breaker (this process), not the dead owner.
      expect((o as LockTimeoutError).owner?.pid).toBe(process.pid);
    }
    expect(a).not.toBeInstanceOf(LockTimeoutError);
    expect(tokenIn(lock)).not.toBe("crashed0crashed0");
    (a as HeldLock).release();
  });

  it("A has moved the stale lock aside: the slot is free, C takes it, and A then waits for C (one holder)", () => {
    const lock = join(tempDir("nr-lock3-"), "x.lock");
    crashedLock(lock);
    let c: HeldLock | LockTimeoutError | undefined;
    const steps = at("moved-aside", () => {
      c = tryTake(lock);
    });
    const a = tryTake(lock);
    setLockBreakInterleaving(undefined);
    expect(steps.slice(0, 3)).toEqual(["judged-stale", "claimed", "moved-aside"]);
    expect(c).not.toBeInstanceOf(LockTimeoutError);
    expect(a).toBeInstanceOf(LockTimeoutError);
    const b = tryTake(lock);
    expect(b).toBeInstanceOf(LockTimeoutError);
    (c as HeldLock).release();
    expect(readdirSync(join(lock, ".."))).toEqual([]);
  });

  it("a waiter that died holding the claim does not keep the lock: its claim is broken, then the lock", () => {
    const dir = tempDir("nr-lock3-");
    const lock = join(dir, "x.lock");
    const raw = crashedLock(lock);
    // The claim as a breaker that crashed left it: named after the stale lock's text.
    const claim = `${lock}.break-${createHash("sha256").update(raw).digest("hex").slice(0, 16)}`;
    writeFileSync(claim, JSON.stringify({ pid: deadPid(), host: hostname(), token: "breaker0breaker0", created: Date.now() }));
    const a = tryTake(lock);
    expect(a).not.toBeInstanceOf(LockTimeoutError);
    expect(readdirSync(dir)).toEqual(["x.lock"]);
    (a as HeldLock).release();
    expect(readdirSync(dir)).toEqual([]);
  });
});

const DIST_INDEX = fileURLToPath(new URL("../../dist/internal.js", import.meta.url));

/** Exit code and stderr of a child process. */
function exited(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("real processes", () => {
  it("a holder killed -9, three processes contending for its lock, each adding 30 to a counter under it: no update lost, nothing left behind", async () => {
    const dir = tempDir("nr-lock9-");
    const lock = join(dir, "counter.lock");
    const counter = join(dir, "counter");
    writeFileSync(counter, "0");
    const holder = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { acquireFileLockSync } from ${JSON.stringify(DIST_INDEX)};\nacquireFileLockSync(${JSON.stringify(lock)});\nsetInterval(() => {}, 1000);`,
      ],
      { stdio: "ignore" },
    );
    onTestFinished(() => {
      holder.kill("SIGKILL");
    });
    while (!(existsSync(lock) && readFileSync(lock, "utf8").endsWith("}"))) await new Promise((r) => setTimeout(r, 10));
    // Each waiter: 30 read-modify-writes of the counter, each under the lock (a plain write: only the lock keeps updates apart).
    const waiter = `import { withFileLockSync } from ${JSON.stringify(DIST_INDEX)};
import { readFileSync, writeFileSync } from "node:fs";
for (let i = 0; i < 30; i++)
  withFileLockSync(${JSON.stringify(lock)}, () => {
    const n = Number(readFileSync(${JSON.stringify(counter)}, "utf8"));
    writeFileSync(${JSON.stringify(counter)}, String(n + 1));
  }, { timeoutMs: 60_000 });`;
    const waiters = [0, 1, 2].map(() => exited(spawn(process.execPath, ["--input-type=module", "-e", waiter], { stdio: ["ignore", "ignore", "pipe"] })));
    holder.kill("SIGKILL");
    const results = await Promise.all(waiters);
    expect(results).toEqual([
      { code: 0, stderr: "" },
      { code: 0, stderr: "" },
      { code: 0, stderr: "" },
    ]);
    expect(readFileSync(counter, "utf8")).toBe("90");
    expect(readdirSync(dir).sort()).toEqual(["counter"]);
  });
});
