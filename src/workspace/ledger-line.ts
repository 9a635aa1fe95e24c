/**
 * Pure: the evidence ledger's line format and hash chain.
 *
 * One JSON object per line (JSONL), keys in this order:
 *   {"timestamp","action","path","details","seq","prev_sha256"}
 * — NOA's `{timestamp, action, path, details}` plus `seq` (1 for the first line, +1 per
 * line: a removed, inserted or reordered line shows as a jump) and `prev_sha256`: the
 * SHA-256 (lowercase hex) of the previous line's bytes as stored, without its line break
 * (`\n`, or `\r\n` after a CRLF checkout), or 64 zeros (LEDGER_GENESIS) on the first line.
 */
import { createHash } from "node:crypto";

export const LEDGER_GENESIS = "0".repeat(64);

export interface LedgerEntry {
  /** ISO 8601, UTC, milliseconds. */
  timestamp: string;
  /** The tool (`read_file`, …), or `ledger_repair`, `archive_restore`. */
  action: string;
  /** Repo-relative path the request named ("" when none). */
  path: string;
  details: Record<string, unknown>;
  seq: number;
  prev_sha256: string;
}

/** The line (without its `\n`) for an entry, keys in ledger order. */
export function formatLedgerLine(e: LedgerEntry): string {
  return JSON.stringify({ timestamp: e.timestamp, action: e.action, path: e.path, details: e.details, seq: e.seq, prev_sha256: e.prev_sha256 });
}

/** The bytes a line is hashed over: the line without a trailing `\r`. */
function lineBody(line: Uint8Array): Uint8Array {
  return line.length > 0 && line[line.length - 1] === 0x0d ? line.subarray(0, line.length - 1) : line;
}

/** sha256 hex of a stored line (given without its `\n`). */
export function ledgerLineHash(line: Uint8Array | string): string {
  const bytes = typeof line === "string" ? Buffer.from(line, "utf8") : line;
  return createHash("sha256").update(lineBody(bytes)).digest("hex");
}
