/**
 * No change without its intent line, whatever the moment of a crash: `serve --http` is
 * sent a burst of edits to eight files — whole-file edits, write_file, append_file,
 * apply_patch, edits by text, eight chains at once — while a ninth chain moves a file back
 * and forth (move_file) and makes directories (create_directory), and killed with SIGKILL
 * at a pseudo-random moment, 50 times. After every kill, each file's content is its first
 * one or one an intent line of the ledger announced for that path (the intent names the
 * hash of the bytes about to be written, and is durable before the first change); the
 * moved file is where the last move that recorded its outcome left it, or at either end
 * of a move whose outcome the kill cut off; every directory made was named by an intent; the
 * ledger verifies (a torn last line is the only finding allowed: the next append
 * repairs it), and intents left without an outcome are listed as `interrupted`, not as
 * findings. At the end `ledger verify` exits 0.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { splitLedger, verifyLedger } from "../../src/workspace/verify-ledger.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { HttpServer } from "./helpers/http-server.js";

const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
const FILES = Array.from({ length: 8 }, (_, k) => `burst/f${k}.txt`);
const LEDGER = "docs/evidence_ledger.tools.log";
/** The ninth chain's file moves between these two paths; its directories are made under DIRS. */
const MOVING: [string, string] = ["burst/m.txt", "burst/moved/m.txt"];
const MOVED_TEXT = "moving, never changed\n";
const DIRS = "burst/dirs";

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
  seq: number;
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
  it("leaves no change on disk without its intent line (50 kills of serve --http, eight files edited, one moved, directories made)", async () => {
    const initial = "first line\ninitial\n";
    const root = tempRepo({ ...Object.fromEntries(FILES.map((f) => [f, initial])), [MOVING[0]]: MOVED_TEXT, "burst/moved/.keep": "", [`${DIRS}/.keep`]: "" });
    let where = MOVING[0]; // where the moving file is, as the last check found it
    let moves = 0;
    let dirsMade = 0;
    const delay = delays();
    let interruptedSeen = 0; // after the last kill
    let changedWithoutOutcome = 0;
    let answered = 0;
    let torn = 0;
    // Each trial's server is started while the trial before it is under way (it reads nothing of the
    // repository until its first request, which comes after the kill): the start-up is not waited for.
    let next = new HttpServer(root);
    for (let trial = 0; trial < 50; trial++) {
      const s = await next.ready();
      next = new HttpServer(root); // the next trial's, or the one that verifies at the end
      const linesBefore = ledgerLines(root).length;
      let killed = false;
      let first: () => void = () => undefined;
      const firstAnswer = new Promise<void>((r) => (first = r));
      // A chain ends when the server is killed under its request (send throws). An answer other than 200 fails the
      // test (it is not taken for the kill), and however a chain ends, the first answer's wait ends with it.
      const chains = FILES.map(async (path) => {
        try {
          for (let n = 0; n < 40 && !killed; n++) {
            const [tool, args] = edit(trial, path, n);
            let r: Awaited<ReturnType<typeof s.send>>;
            try {
              r = await s.send(tool, args);
            } catch {
              return; // the server was killed under this request
            }
            expect(r.status, JSON.stringify(r.body)).toBe(200);
            if (!killed) answered++;
            first();
          }
        } finally {
          first();
        }
      });
      // The ninth chain: a move, a directory, a move back, a directory, …
      const mover = (async () => {
        let at = where;
        for (let n = 0; n < 40 && !killed; n++) {
          const to = at === MOVING[0] ? MOVING[1] : MOVING[0];
          const [tool, args]: [string, Record<string, unknown>] =
            n % 2 === 0 ? ["move_file", { source: at, destination: to }] : ["create_directory", { path: `${DIRS}/t${trial}/n${n}/deeper` }];
          let r: Awaited<ReturnType<typeof s.send>>;
          try {
            r = await s.send(tool, args);
          } catch {
            return; // the server was killed under this request
          }
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          if (!killed) answered++;
          if (tool === "move_file") at = to;
        }
      })();
      // The kill falls at a pseudo-random moment after the burst is under way (an edit answered).
      await firstAnswer;
      await new Promise((r) => setTimeout(r, delay.next().value as number));
      killed = true;
      s.child.kill("SIGKILL");
      await s.wait();
      await Promise.all([...chains, mover]);

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

      // The moving file: where the last move with an outcome left it, or either end of one the kill cut off.
      let pending = null as { seq: number; from: string; to: string } | null;
      const made = new Set<string>();
      for (const l of lines.slice(linesBefore)) {
        if (l.action === "move_file" && l.details["phase"] === "intent") pending = { seq: l.seq, from: l.path, to: l.details["destination"] as string };
        if (pending !== null && l.action === "move_file" && l.details["phase"] === "outcome" && l.details["intent_seq"] === pending.seq) {
          if (l.details["outcome"] === "ok") where = pending.to;
          pending = null;
          moves++;
        }
        if (l.action === "create_directory" && l.details["phase"] === "intent") for (const d of l.details["directories"] as string[]) made.add(d);
      }
      const present = MOVING.filter((p) => existsSync(join(root, p)));
      expect(present, `trial ${trial}: the moved file is in one place`).toHaveLength(1);
      expect(pending === null ? [where] : [pending.from, pending.to], `trial ${trial}: the moved file is where the ledger says`).toContain(present[0]);
      where = present[0]!;
      expect(readFileSync(join(root, where), "utf8")).toBe(MOVED_TEXT);
      // Every directory made in this trial was announced.
      const trialDir = join(root, DIRS, `t${trial}`);
      const onDisk: string[] = [];
      const walk = (rel: string): void => {
        for (const e of readdirSync(join(root, rel), { withFileTypes: true }))
          if (e.isDirectory()) {
            onDisk.push(`${rel}/${e.name}`);
            walk(`${rel}/${e.name}`);
          }
      };
      if (existsSync(trialDir)) {
        onDisk.push(`${DIRS}/t${trial}`);
        walk(`${DIRS}/t${trial}`);
      }
      for (const d of onDisk) expect(made.has(d), `trial ${trial}: ${d} was made without an intent`).toBe(true);
      dirsMade += onDisk.length;

      const report = verifyLedger(readFileSync(join(root, LEDGER)));
      expect(
        report.findings.every((f) => f.code === "torn-tail"),
        `trial ${trial}: ${JSON.stringify(report.findings)}`,
      ).toBe(true);
      if (report.findings.length > 0) torn++;
      interruptedSeen = report.interrupted.length;
    }
    // One more request appends (repairing a torn tail), and the whole ledger verifies.
    const s = await next.ready();
    expect((await s.send("read_text_file", { path: FILES[0] })).status).toBe(200);
    expect((await s.stop()).code).toBe(0);
    const v = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
    expect(v.code, v.stdout).toBe(0);
    const result = JSON.parse(v.stdout).result as { interrupted: unknown[]; lines: number };
    expect(answered).toBeGreaterThan(50);
    expect(moves).toBeGreaterThan(0);
    expect(dirsMade).toBeGreaterThan(0);
    console.log(
      `kill -9 with intents: 50 kills, ${answered} edits answered, ${result.lines} ledger lines, ${result.interrupted.length} intents without an outcome ` +
        `(${interruptedSeen} before the last request), ${changedWithoutOutcome} changes on disk whose outcome the kill cut off (each announced by its intent), ${torn} torn tails, ` +
        `${moves} moves and ${dirsMade} directories made`,
    );
  }, 600_000);
});
