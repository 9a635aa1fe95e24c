/**
 * Pure: verify an evidence ledger's bytes. Every line must be a ledger entry
 * (ledger-line.ts), `seq` must count 1, 2, 3, … and each `prev_sha256` must be the
 * hash of the line before it. Findings name the line and what happened there:
 *
 * - `not-json`, `bad-entry`, `blank-line` — a line that is not an entry;
 * - `lines-removed` — seq jumps forward (n lines missing before this one);
 * - `line-inserted` — a seq already seen (a copied or forged line);
 * - `out-of-order` — seq goes back to a value not seen yet;
 * - `line-edited` — seq is right but prev_sha256 does not match the line before:
 *   that line was edited (or replaced);
 * - `torn-tail` — the last line has no line break: a write was interrupted (kill -9,
 *   power loss); the next append moves those bytes into a `ledger_repair` entry;
 * - `committed-lines-changed` — with `committed` (the ledger as last committed), the
 *   committed lines must be the start of the file, byte for byte. The hash chain alone
 *   cannot see the last lines removed; the committed copy can, up to the last commit;
 * - `unmatched-outcome` — an outcome line (`details.phase: "outcome"`) whose
 *   `intent_seq` names no earlier intent line of the same action, or one already closed.
 *
 * Not findings: an intent line (`details.phase: "intent"`, written before a request's
 * effect: effect-journal.ts) that no outcome line closes is listed in `interrupted` — the
 * request was killed or crashed (or is still running) after recording what it was about
 * to do; that is information about the work tree, not tampering with the ledger.
 * Ledgers written before intents existed have none, and read as before.
 */
import { LEDGER_GENESIS, ledgerLineHash } from "./ledger-line.js";

export type LedgerFindingCode =
  | "not-json"
  | "bad-entry"
  | "blank-line"
  | "lines-removed"
  | "line-inserted"
  | "out-of-order"
  | "line-edited"
  | "torn-tail"
  | "committed-lines-changed"
  | "unmatched-outcome";

export interface LedgerFinding {
  line: number;
  code: LedgerFindingCode;
  message: string;
}

/** An intent without an outcome: a request interrupted after recording what it was about to do. */
export interface LedgerInterruption {
  line: number;
  seq: number;
  timestamp: string;
  action: string;
  path: string;
  message: string;
}

export interface LedgerReport {
  ok: boolean;
  /** Complete lines (a torn tail not counted). */
  lines: number;
  /** Lines that were also in the committed copy (when one was given). */
  committedLines?: number;
  /** sha256 of the last complete line (what the next append chains to). */
  headSha256: string;
  findings: LedgerFinding[];
  /** Intent lines no outcome line closes (information, not findings). */
  interrupted: LedgerInterruption[];
}

/** Split at `\n`: complete lines and the bytes after the last `\n` (empty when the text ends with one). */
export function splitLedger(bytes: Uint8Array): { lines: Uint8Array[]; tail: Uint8Array } {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  return { lines, tail: bytes.subarray(start) };
}

const HEX64 = /^[0-9a-f]{64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const decoder = new TextDecoder("utf-8", { fatal: true });

interface Parsed {
  seq: number;
  prev: string;
  timestamp: string;
  action: string;
  path: string;
  /** details.phase: "intent" / "outcome" (two-line requests), else undefined. */
  phase: string | undefined;
  /** details.intent_seq of an outcome line. */
  intentSeq: unknown;
}

function parseEntry(line: Uint8Array): { ok: true; value: Parsed } | { ok: false; code: "not-json" | "bad-entry" | "blank-line"; message: string } {
  let text: string;
  try {
    text = decoder.decode(line);
  } catch {
    return { ok: false, code: "not-json", message: "not UTF-8" };
  }
  if (text.trim().length === 0) return { ok: false, code: "blank-line", message: "blank line" };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, code: "not-json", message: `not JSON (${(e as Error).message})` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { ok: false, code: "bad-entry", message: "not a JSON object" };
  const o = v as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof o["timestamp"] !== "string" || !ISO.test(o["timestamp"])) problems.push("timestamp (ISO 8601)");
  if (typeof o["action"] !== "string" || o["action"].length === 0) problems.push("action (a string)");
  if (typeof o["path"] !== "string") problems.push("path (a string)");
  if (o["details"] === null || typeof o["details"] !== "object" || Array.isArray(o["details"])) problems.push("details (an object)");
  if (typeof o["seq"] !== "number" || !Number.isSafeInteger(o["seq"]) || o["seq"] < 1) problems.push("seq (a whole number ≥ 1)");
  if (typeof o["prev_sha256"] !== "string" || !HEX64.test(o["prev_sha256"])) problems.push("prev_sha256 (64 lowercase hex digits)");
  const extra = Object.keys(o).filter((k) => !["timestamp", "action", "path", "details", "seq", "prev_sha256"].includes(k));
  if (extra.length > 0) problems.push(`no other keys (found ${extra.map((k) => JSON.stringify(k)).join(", ")})`);
  if (problems.length > 0) return { ok: false, code: "bad-entry", message: `not a ledger entry: expected ${problems.join(", ")}` };
  const details = o["details"] as Record<string, unknown>;
  return {
    ok: true,
    value: {
      seq: o["seq"] as number,
      prev: o["prev_sha256"] as string,
      timestamp: o["timestamp"] as string,
      action: o["action"] as string,
      path: o["path"] as string,
      phase: typeof details["phase"] === "string" ? details["phase"] : undefined,
      intentSeq: details["intent_seq"],
    },
  };
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

export function verifyLedger(bytes: Uint8Array, options: { committed?: Uint8Array } = {}): LedgerReport {
  const { lines, tail } = splitLedger(bytes);
  const findings: LedgerFinding[] = [];
  const parsed = lines.map(parseEntry);
  // Where each seq first appears (1-based line), to tell a removal from a reordering.
  const firstLineOf = new Map<number, number>();
  parsed.forEach((p, i) => {
    if (p.ok && !firstLineOf.has(p.value.seq)) firstLineOf.set(p.value.seq, i + 1);
  });
  const seen = new Map<number, number>();
  let expectedSeq = 1;
  let maxSeq = 0;
  let prevHash = LEDGER_GENESIS;
  // A line out of place breaks the hash link after it too: report the cause, not the echo.
  let prevOutOfPlace = false;
  lines.forEach((line, i) => {
    const n = i + 1;
    const p = parsed[i]!;
    const hash = ledgerLineHash(line);
    if (!p.ok) {
      findings.push({ line: n, code: p.code, message: `line ${n}: ${p.message}` });
      expectedSeq++;
      prevHash = hash;
      prevOutOfPlace = true;
      return;
    }
    const { seq, prev } = p.value;
    let seqProblem = false;
    if (seq !== expectedSeq) {
      seqProblem = true;
      const earlier = seen.get(seq);
      const later = firstLineOf.get(expectedSeq);
      if (earlier !== undefined)
        findings.push({ line: n, code: "line-inserted", message: `line ${n}: seq ${seq} was already on line ${earlier}: one of them was inserted or copied` });
      else if (seq > expectedSeq && (later === undefined || later < n)) {
        const k = seq - expectedSeq;
        findings.push({
          line: n,
          code: "lines-removed",
          message: `line ${n}: seq ${seq}, expected ${expectedSeq}: ${k} line${k > 1 ? "s were" : " was"} removed before it`,
        });
      } else
        findings.push({
          line: n,
          code: "out-of-order",
          message:
            `line ${n}: seq ${seq}, expected ${expectedSeq}${later !== undefined && later > n ? ` (seq ${expectedSeq} is on line ${later})` : ""}: ` +
            `lines are out of order`,
        });
    }
    if (prev !== prevHash && !seqProblem && !prevOutOfPlace) {
      findings.push(
        n === 1
          ? { line: n, code: "line-edited", message: "line 1: prev_sha256 is not the genesis value (64 zeros): lines were removed before it, or it was edited" }
          : { line: n, code: "line-edited", message: `line ${n}: prev_sha256 does not match line ${n - 1}: line ${n - 1} was edited or replaced` },
      );
    }
    if (!seen.has(seq)) seen.set(seq, n);
    maxSeq = Math.max(maxSeq, seq);
    expectedSeq = maxSeq + 1;
    prevHash = hash;
    prevOutOfPlace = seqProblem;
  });
  if (tail.length > 0) {
    findings.push({
      line: lines.length + 1,
      code: "torn-tail",
      message:
        `line ${lines.length + 1}: ${tail.length} bytes without a line break: a write was interrupted; the next append moves them into a ` +
        `ledger_repair entry`,
    });
  }
  const report: LedgerReport = { ok: findings.length === 0, lines: lines.length, headSha256: prevHash, findings, interrupted: [] };
  pairIntents(parsed, findings, report.interrupted);
  report.ok = findings.length === 0;
  if (options.committed !== undefined) {
    const committed = splitLedger(options.committed).lines;
    report.committedLines = committed.length;
    for (let i = 0; i < committed.length; i++) {
      const now = lines[i];
      if (now === undefined) {
        const k = committed.length - i;
        findings.push({
          line: i + 1,
          code: "committed-lines-changed",
          message:
            `line ${i + 1}: the committed ledger has ${committed.length} lines, the file ${lines.length}: ${k} committed ` +
            `line${k > 1 ? "s were" : " was"} removed`,
        });
        break;
      }
      if (!sameBytes(stripCr(committed[i]!), stripCr(now))) {
        findings.push({
          line: i + 1,
          code: "committed-lines-changed",
          message: `line ${i + 1}: differs from the committed ledger (committed lines may only be appended to)`,
        });
        break;
      }
    }
    report.ok = findings.length === 0;
  }
  return report;
}

/** Close each intent with its outcome; an outcome that closes nothing is a finding, an intent left open an interruption. */
function pairIntents(parsed: ReturnType<typeof parseEntry>[], findings: LedgerFinding[], interrupted: LedgerInterruption[]): void {
  const open = new Map<number, { line: number; value: Parsed }>();
  parsed.forEach((p, i) => {
    if (!p.ok) return;
    const v = p.value;
    if (v.phase === "intent") open.set(v.seq, { line: i + 1, value: v });
    else if (v.phase === "outcome") {
      const n = i + 1;
      const intent = typeof v.intentSeq === "number" ? open.get(v.intentSeq) : undefined;
      if (intent === undefined || intent.value.action !== v.action) {
        findings.push({
          line: n,
          code: "unmatched-outcome",
          message: `line ${n}: an outcome of ${v.action} for intent seq ${JSON.stringify(v.intentSeq)}, but no open intent of ${v.action} has that seq`,
        });
        return;
      }
      open.delete(v.intentSeq as number);
    }
  });
  for (const { line, value } of open.values())
    interrupted.push({
      line,
      seq: value.seq,
      timestamp: value.timestamp,
      action: value.action,
      path: value.path,
      message:
        `line ${line}: ${value.action}${value.path !== "" ? ` ${value.path}` : ""} recorded its intent (seq ${value.seq}) and no outcome: it was ` +
        `interrupted (killed, a crash) or is still running; what it names may have happened`,
    });
}

function stripCr(line: Uint8Array): Uint8Array {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}
