/**
 * The evidence ledger: its line format and hash chain (pure), its verifier, and its
 * appends through the library.
 * - A chain built by appending verifies; editing, removing, inserting or swapping any
 *   line is reported at that line with the right code (property).
 * - The verifier never throws on any bytes (property), counts a CRLF checkout as intact.
 * - Removing the last lines is invisible to the chain but caught against the committed copy.
 * - A torn tail is reported; the next append cuts it into a ledger_repair entry and the
 *   ledger verifies again; 40 appends racing in one process and 4 processes racing
 *   leave one unbroken chain.
 * - Intents without outcomes are notes of `ledger verify`, not findings (exit 0).
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendLedger } from "../../src/workspace/append-ledger.js";
import { formatLedgerLine, LEDGER_GENESIS, ledgerLineHash, type LedgerEntry } from "../../src/workspace/ledger-line.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

function chain(n: number, salt = ""): string[] {
  const lines: string[] = [];
  let prev = LEDGER_GENESIS;
  for (let i = 1; i <= n; i++) {
    const e: LedgerEntry = { timestamp: "2026-01-01T00:00:00.000Z", action: "read_file", path: `f${i}${salt}`, details: { i }, seq: i, prev_sha256: prev };
    const line = formatLedgerLine(e);
    prev = ledgerLineHash(line);
    lines.push(line);
  }
  return lines;
}
const bytes = (lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(""));
const codes = (lines: string[]) => verifyLedger(bytes(lines)).findings.map((f) => `${f.line}:${f.code}`);

describe("verifyLedger", () => {
  it("an appended chain verifies; an empty file too", () => {
    expect(verifyLedger(bytes(chain(5)))).toMatchObject({ ok: true, lines: 5, findings: [] });
    expect(verifyLedger(Buffer.alloc(0))).toMatchObject({ ok: true, lines: 0, headSha256: LEDGER_GENESIS });
  });

  it("names the line and what happened: edited, removed, inserted, reordered, garbage, blank", () => {
    const c = chain(6);
    const edited = [...c];
    edited[2] = edited[2]!.replace('"f3"', '"f3x"');
    expect(codes(edited)).toEqual(["4:line-edited"]);
    expect(codes([...c.slice(0, 2), ...c.slice(3)])).toEqual(["3:lines-removed"]);
    expect(codes(c.slice(2))).toEqual(["1:lines-removed"]);
    expect(codes([c[0]!, c[1]!, c[3]!, c[2]!, c[4]!, c[5]!])).toEqual(["3:out-of-order", "4:out-of-order"]);
    expect(codes([...c.slice(0, 3), c[1]!, ...c.slice(3)])[0]).toBe("4:line-inserted");
    expect(codes([...c.slice(0, 3), "not json", ...c.slice(3)])[0]).toBe("4:not-json");
    expect(codes([...c.slice(0, 3), "", ...c.slice(3)])[0]).toBe("4:blank-line");
    expect(codes([...c.slice(0, 1), '{"timestamp":"x"}'])).toEqual(["2:bad-entry"]);
    const forged = chain(3, "-forged");
    expect(codes([c[0]!, forged[1]!, c[2]!])).toEqual(["2:line-edited", "3:line-edited"]);
  });

  it("any single edit, removal, insertion or swap is detected at or right after its line (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.nat(), fc.nat(), fc.constantFrom("edit", "remove", "insert", "swap"), (n, a, b, kind) => {
        const c = chain(n);
        const i = a % n;
        const t = [...c];
        let expectAt: number[];
        if (kind === "edit") {
          if (i === n - 1) return; // the last line: see the committed-copy test
          t[i] = t[i]!.replace(`"i":${i + 1}`, `"i":${i + 100}`);
          expectAt = [i + 1, i + 2];
        } else if (kind === "remove") {
          if (i === n - 1) return; // the last line: see the committed-copy test
          t.splice(i, 1);
          expectAt = [i + 1];
        } else if (kind === "insert") {
          t.splice(i, 0, c[b % n]!);
          expectAt = [i + 1, i + 2];
        } else {
          const j = b % n;
          if (j === i) return;
          [t[i], t[j]] = [t[j]!, t[i]!];
          expectAt = [Math.min(i, j) + 1];
        }
        const r = verifyLedger(bytes(t));
        expect(r.ok).toBe(false);
        expect(expectAt).toContain(r.findings[0]!.line);
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on arbitrary bytes (property)", () => {
    const c = chain(4);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(3), (junk, at) => {
        verifyLedger(Buffer.concat([bytes(c.slice(0, at)), Buffer.from(junk)]));
      }),
      { numRuns: 2000 },
    );
  });

  it("the last line alone can be edited or removed without the chain noticing (hence the committed copy)", () => {
    const c = chain(3);
    const t = [...c];
    t[2] = t[2]!.replace('"i":3', '"i":33');
    expect(verifyLedger(bytes(t)).ok).toBe(true);
    expect(verifyLedger(bytes(t), { committed: bytes(c) }).ok).toBe(false);
  });

  it("a CRLF checkout still verifies; a torn tail is reported", () => {
    const c = chain(3);
    expect(verifyLedger(Buffer.from(c.map((l) => `${l}\r\n`).join(""))).ok).toBe(true);
    const torn = verifyLedger(Buffer.concat([bytes(c), Buffer.from('{"timestamp":"20')]));
    expect(torn.findings.map((f) => `${f.line}:${f.code}`)).toEqual(["4:torn-tail"]);
    expect(torn.lines).toBe(3);
  });

  it("removing the last lines is caught against the committed copy, and so is rewriting committed lines", () => {
    const c = chain(5);
    const committed = bytes(c);
    expect(verifyLedger(bytes(c.slice(0, 4))).ok).toBe(true); // the chain alone cannot see it
    expect(verifyLedger(bytes(c.slice(0, 4)), { committed }).findings.map((f) => f.code)).toEqual(["committed-lines-changed"]);
    expect(verifyLedger(bytes([...c, ...chain(7).slice(5)]), { committed }).ok).toBe(true); // appended lines are fine
    expect(verifyLedger(bytes([...c.slice(0, 4), ...chain(7, "x").slice(4)]), { committed }).ok).toBe(false); // the last committed line replaced
    const more = [...c];
    more.push(formatLedgerLine({ timestamp: "2026-01-01T00:00:00.000Z", action: "x", path: "", details: {}, seq: 6, prev_sha256: ledgerLineHash(c[4]!) }));
    expect(verifyLedger(bytes(more), { committed }).ok).toBe(true);
    const rewritten = chain(5, "-rewritten");
    expect(verifyLedger(bytes(rewritten)).ok).toBe(true);
    expect(verifyLedger(bytes(rewritten), { committed }).findings[0]).toMatchObject({ line: 1, code: "committed-lines-changed" });
  });
});

describe("appendLedger", () => {
  it("chains appends, repairs a torn tail into a ledger_repair entry, and survives 40 racing appends", async () => {
    const root = tempRepo({ "a.txt": "x" });
    const ws = openWorkspace(root);
    const ledger = join(root, "docs/evidence_ledger.tools.log");
    await appendLedger(ws, [{ action: "read_file", path: "a.txt", details: { n: 1 } }]);
    await appendLedger(ws, [{ action: "read_file", path: "a.txt", details: { n: 2 } }]);
    expect(verifyLedger(readFileSync(ledger))).toMatchObject({ ok: true, lines: 2 });
    appendFileSync(ledger, '{"timestamp":"2026-01-01T00:0');
    expect(verifyLedger(readFileSync(ledger)).findings.map((f) => f.code)).toEqual(["torn-tail"]);
    await appendLedger(ws, [{ action: "read_file", path: "a.txt", details: { n: 3 } }]);
    const after = readFileSync(ledger, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as LedgerEntry);
    expect(after.map((e) => e.action)).toEqual(["read_file", "read_file", "ledger_repair", "read_file"]);
    expect(Buffer.from(after[2]!.details["torn_base64"] as string, "base64").toString()).toBe('{"timestamp":"2026-01-01T00:0');
    expect(after.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    await Promise.all(Array.from({ length: 40 }, (_, i) => appendLedger(ws, [{ action: "list_files", path: "", details: { i } }])));
    const r = verifyLedger(readFileSync(ledger));
    expect(r).toMatchObject({ ok: true, lines: 44 });
  });

  it("several processes appending at once leave one unbroken chain", async () => {
    const root = tempRepo({ "a.txt": "x" });
    const script = `
      const { openWorkspace, appendLedger } = await import(${JSON.stringify(new URL("../../dist/internal.js", import.meta.url).href)});
      const ws = openWorkspace(process.argv[1]);
      for (let i = 0; i < 25; i++) await appendLedger(ws, [{ action: "read_file", path: "a.txt", details: { pid: process.pid, i } }]);
    `;
    const runs = Array.from(
      { length: 4 },
      () =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, ["--input-type=module", "-e", script, root], { stdio: ["ignore", "ignore", "inherit"] });
          child.on("close", (code) => resolve(code ?? -1));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log")))).toMatchObject({ ok: true, lines: 100 });
  });
});

describe("ledger verify: intents without outcomes", () => {
  it("lists them as notes (text and JSON) and exits 0; an outcome closes its intent", async () => {
    const root = tempRepo({ "a.txt": "one\n" });
    const ws = openWorkspace(root);
    await appendLedger(ws, [{ action: "write_file", path: "a.txt", details: { via: "library", phase: "intent", sha256: "ab".repeat(32), bytes: 4 } }]);
    await appendLedger(ws, [{ action: "create_directory", path: "d", details: { via: "library", phase: "intent", directories: ["d"] } }]);
    await appendLedger(ws, [{ action: "create_directory", path: "d", details: { via: "library", phase: "outcome", intent_seq: 2, outcome: "ok" } }]);
    const text = runCli(["ledger", "verify"], { cwd: root });
    expect(text.code, text.stdout).toBe(0);
    expect(text.stdout).toContain(
      "note [interrupted] docs/evidence_ledger.tools.log:1: line 1: write_file a.txt recorded its intent (seq 1) and no outcome: it was interrupted (killed, a crash) or is still running",
    );
    expect(text.stdout).toContain("✓ docs/evidence_ledger.tools.log: 3 lines");
    const json = runCli(["ledger", "verify", "--format", "json"], { cwd: root });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      summary: { lines: 3, findings: 0, interrupted: 1 },
      result: { findings: [], interrupted: [{ line: 1, seq: 1, action: "write_file", path: "a.txt" }] },
    });
  });
});
