/**
 * No change without its intent line, whatever the moment of a crash: `serve --http` is
 * sent a burst of edits to eight files — whole-file edits, write_file, append_file,
 * apply_patch, edits by text, eight chains at once — and killed with SIGKILL at a
 * pseudo-random moment, 50 times. After every kill, each file's content is its first
 * one or one an intent line of the ledger announced for that path (the intent names the
 * hash of the bytes about to be written, and is durable before the first change), the
 * ledger verifies (a torn last line is the only finding allowed: the next append
 * repairs it), and intents left without an outcome are listed as `interrupted`, not as
 * findings. At the end `ledger verify` exits 0.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitLedger, verifyLedger } from "../../src/workspace/verify-ledger.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer } from "./helpers/http-server.js";

const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
const FILES = Array.from({ length: 8 }, (_, k) => `burst/f${k}.txt`);
const LEDGER = "docs/evidence_ledger.tools.log";

/** Deterministic pseudo-random delays (no flaky seeds): 50–1250 ms after the first edit is answered. */
function* delays(): Generator<number> {
  let x = 0x9e3779b9;
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield 50 + ((x >>> 0) % 1200);
  }
}

/** The n-th request of a file's chain in a trial: every writing tool in turn, each content unique. */
function edit(trial: number, path: string, n: number): [string, Record<string, unknown>] {
  const text = `trial ${trial} ${path} edit ${n} ${"·".repeat(600)}\n`;
  switch (n % 5) {
    case 0:
      return ["edit_file", { path, contents: `first line\n${text}` }];
    case 1:
      return ["write_file", { path, content: `first line\n${text}` }];
    case 2:
      return ["append_file", { path, content: text }];
    case 3:
      return ["apply_patch", { path, hunks: [{ start_line: 1, end_line: 1, replacement: `first line ${trial}.${n}` }] }];
    default:
      return ["edit_file", { path, edits: [{ oldText: "edit", newText: `edited ${trial}.${n}` }] }];
  }
}

interface Line {
  action: string;
  path: string;
  details: Record<string, unknown>;
}

/** Every complete line of the ledger (a torn tail left out). */
function ledgerLines(root: string): Line[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, LEDGER));
  } catch {
    return [];
  }
  return splitLedger(bytes).lines.map((l) => JSON.parse(Buffer.from(l).toString("utf8")) as Line);
}

describe("kill -9 during a burst of edits", () => {
  it("leaves no change on disk without its intent line (50 kills of serve --http, eight files at once)", async () => {
    const initial = "first line\ninitial\n";
    const root = tempRepo(Object.fromEntries(FILES.map((f) => [f, initial])));
    const delay = delays();
    let interruptedSeen = 0; // after the last kill
    let changedWithoutOutcome = 0;
    let answered = 0;
    let torn = 0;
    for (let trial = 0; trial < 50; trial++) {
      const s = await new HttpServer(root).ready();
      let killed = false;
      let first: () => void = () => undefined;
      const firstAnswer = new Promise<void>((r) => (first = r));
      const chains = FILES.map(async (path) => {
        for (let n = 0; n < 40 && !killed; n++) {
          const [tool, args] = edit(trial, path, n);
          try {
            const r = await s.post(tool, args);
            expect(r.status, JSON.stringify(r.body)).toBe(200);
            if (!killed) answered++;
            first();
          } catch {
            return; // the server was killed under this request
          }
        }
        first();
      });
      // The kill falls at a pseudo-random moment after the burst is under way (an edit answered).
      await firstAnswer;
      await new Promise((r) => setTimeout(r, delay.next().value as number));
      killed = true;
      s.child.kill("SIGKILL");
      await s.wait();
      await Promise.all(chains);

      const lines = ledgerLines(root);
      const announced = new Map<string, Set<string>>(FILES.map((f) => [f, new Set([sha(initial)])]));
      const closed = new Set<number>();
      for (const l of lines) {
        if (l.details["phase"] === "intent" && typeof l.details["sha256"] === "string") announced.get(l.path)?.add(l.details["sha256"]);
        if (l.details["phase"] === "outcome") closed.add(l.details["intent_seq"] as number);
      }
      for (const f of FILES) {
        const now = sha(readFileSync(join(root, f)));
        expect(announced.get(f)!.has(now), `trial ${trial}: ${f} holds bytes no intent line announced`).toBe(true);
      }
      // Changes whose outcome never came: the kill fell between the effect and its outcome line.
      const lastIntent = new Map<string, { seq: number; sha: string }>();
      lines.forEach((l, i) => {
        if (l.details["phase"] === "intent") lastIntent.set(l.path, { seq: i + 1, sha: l.details["sha256"] as string });
      });
      for (const [path, { seq, sha: s2 }] of lastIntent)
        if (!closed.has(seq) && FILES.includes(path) && sha(readFileSync(join(root, path))) === s2) changedWithoutOutcome++;

      const report = verifyLedger(readFileSync(join(root, LEDGER)));
      expect(
        report.findings.every((f) => f.code === "torn-tail"),
        `trial ${trial}: ${JSON.stringify(report.findings)}`,
      ).toBe(true);
      if (report.findings.length > 0) torn++;
      interruptedSeen = report.interrupted.length;
    }
    // One more request appends (repairing a torn tail), and the whole ledger verifies.
    const s = await new HttpServer(root).ready();
    expect((await s.post("read_text_file", { path: FILES[0] })).status).toBe(200);
    expect((await s.stop()).code).toBe(0);
    const v = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
    expect(v.code, v.stdout).toBe(0);
    const result = JSON.parse(v.stdout).result as { interrupted: unknown[]; lines: number };
    expect(answered).toBeGreaterThan(50);
    console.log(
      `kill -9 with intents: 50 kills, ${answered} edits answered, ${result.lines} ledger lines, ${result.interrupted.length} intents without an outcome ` +
        `(${interruptedSeen} before the last request), ${changedWithoutOutcome} changes on disk whose outcome the kill cut off (each announced by its intent), ${torn} torn tails`,
    );
  }, 600_000);
});
