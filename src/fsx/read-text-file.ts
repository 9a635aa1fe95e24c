/**
 * `readFileSync(path, "utf8")`, faster on ASCII files.
 *
 * Node decodes a file as UTF-8 even when every byte is ASCII, which is most `.noma`
 * documents. For ASCII bytes latin1 and UTF-8 decode to the same string, and latin1 is a
 * plain copy, much cheaper than decoding (docs/perf/check.md). Files with
 * any byte ≥ 0x80 (including a UTF-8 BOM) are decoded as UTF-8 exactly as before.
 */
import { readFileSync } from "node:fs";
import { isAscii } from "node:buffer";

/** Texts from this many bytes on are remembered with their bytes (see utf8Of). */
const REMEMBER_BYTES = 64 * 1024;
/** The last long ASCII text decoded, and the bytes it was decoded from. */
let last: { text: string; bytes: Buffer } | null = null;

/** The text of `bytes` as UTF-8 (the same string `bytes.toString("utf8")` gives). */
export function decodeUtf8(bytes: Buffer): string {
  if (!isAscii(bytes)) return bytes.toString("utf8");
  const text = bytes.toString("latin1");
  if (bytes.length >= REMEMBER_BYTES) last = { text, bytes };
  return text;
}

/**
 * The UTF-8 bytes of `text` when it is the last long ASCII text decoded here (its bytes are
 * its UTF-8 encoding), else undefined: a long document's sha256 then hashes the bytes read
 * instead of encoding the text again. Only the last one is kept.
 */
export function utf8Of(text: string): Uint8Array | undefined {
  return last !== null && last.text.length === text.length && last.text === text ? last.bytes : undefined;
}

/** The text of the file at `path` (the same string `readFileSync(path, "utf8")` gives). */
export function readTextFile(path: string | number): string {
  return decodeUtf8(readFileSync(path));
}
