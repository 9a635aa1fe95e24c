/**
 * The seal a transcript line's record should carry (`expectedSeal`, transcript-record.ts), taken
 * from the line's own text when the line is what the writer writes: the record as
 * `JSON.stringify` prints it, `entry_sha256` its last key. The seal is then the sha256 of the
 * line with that key cut out — no copy of the record, no `delete` (which turns the copy into a
 * slow dictionary object), no second serialisation. Any other line (spaces, other escapes, keys
 * repeated, `entry_sha256` elsewhere) takes `expectedSeal`. Equal to `expectedSeal(record)` for
 * every line whose JSON is `record` (seal-of-line.test.ts holds them equal).
 */
import { sha256Hex } from "../patch/sha256-hex.js";
import { expectedSeal } from "./transcript-record.js";

/** `,"entry_sha256":"` + 64 hex digits + `"}`: the tail of every line the writer writes. */
const SEAL_KEY = ',"entry_sha256":"';
const TAIL_LENGTH = SEAL_KEY.length + 64 + 2;

function isLowerHex(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** `line`: one raw transcript line ("\n" included or not); `record`: what JSON.parse made of it. */
export function sealOfLine(line: string, record: Record<string, unknown>): string {
  const end = line.endsWith("\n") ? line.length - 1 : line.length;
  const tail = end - TAIL_LENGTH;
  if (
    tail > 1 &&
    line.startsWith(SEAL_KEY, tail) &&
    line.charCodeAt(end - 2) === 34 /* " */ &&
    line.charCodeAt(end - 1) === 125 /* } */ &&
    isLowerHex(line, tail + SEAL_KEY.length, end - 2)
  ) {
    const body = line.slice(0, end);
    // The line is the writer's exactly when it is the record serialised (one key each, in order).
    if (JSON.stringify(record) === body) return sha256Hex(`${body.slice(0, tail)}}`);
  }
  return expectedSeal(record);
}
