/**
 * File names as git holds them: bytes, not always UTF-8. A committed `docs/bad\xff\xfe.noma`
 * must be listed, read and judged like any other file, and reported under a name that says
 * exactly which file it is.
 *
 * - Inside the product a path is a string. Git's output is decoded losslessly: well-formed
 *   UTF-8 as itself, and each byte of an ill-formed sequence as the lone surrogate U+DC80–
 *   U+DCFF of the same low byte ("surrogate escape"). Well-formed UTF-8 never decodes to a
 *   lone surrogate, so the mapping is one to one and string operations (a `.patches` suffix, a
 *   directory) keep working on such names. `encodeGitText` gives the bytes back (for git's
 *   stdin and the file system).
 * - In every report a name holding such bytes is printed as git prints it by default
 *   (`core.quotePath`): in double quotes, C-style, each byte from 0x80 up as a backslash and
 *   three octal digits — `"docs/bad\377\376.noma"`, what `git status` and `git ls-files` show.
 *   A well-formed name is printed as it is, unless it starts with a double quote (it is then
 *   quoted too, so that a quoted name always means this rendering). docs/documents.md.
 */
import { isUtf8 } from "node:buffer";
import { join } from "node:path";
import { utf8SequenceLength } from "../fsx/utf8-text.js";

/** Git output (or any bytes) as a string, losslessly: ill-formed bytes as lone surrogates U+DC80–U+DCFF. */
export function decodeGitText(bytes: Uint8Array): string {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) return buf.toString("utf8");
  let out = "";
  let run = 0;
  let i = 0;
  while (i < buf.length) {
    if (buf[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8SequenceLength(buf, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += buf.toString("utf8", run, i) + String.fromCharCode(0xdc00 + buf[i]!);
    run = ++i;
  }
  return out + buf.toString("utf8", run);
}

/** Whether a path holds bytes that are not UTF-8 (decoded by decodeGitText as lone surrogates). */
export function hasRawBytes(path: string): boolean {
  return /[\udc80-\udcff]/.test(path) && rawAt(path, 0) !== -1;
}

/** The index of the first lone surrogate U+DC80–U+DCFF at or after `from`, or -1. */
function rawAt(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) i++;
      continue;
    }
    if (c >= 0xdc80 && c <= 0xdcff) return i;
  }
  return -1;
}

/** The bytes of a string decodeGitText made (or any string: UTF-8 but for the escaped bytes). */
export function encodeGitText(text: string): Buffer {
  if (!hasRawBytes(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let run = 0;
  for (let i = rawAt(text, 0); i !== -1; i = rawAt(text, i + 1)) {
    parts.push(Buffer.from(text.slice(run, i), "utf8"), Buffer.of(text.charCodeAt(i) - 0xdc00));
    run = i + 1;
  }
  parts.push(Buffer.from(text.slice(run), "utf8"));
  return Buffer.concat(parts);
}

/** `root` joined with a repository path, as the file system takes it: bytes when the path holds bytes that are not UTF-8. */
export function fsPath(root: string, rel: string): string | Buffer {
  if (!hasRawBytes(rel)) return join(root, rel);
  return Buffer.concat([Buffer.from(root.endsWith("/") ? root : `${root}/`, "utf8"), encodeGitText(rel)]);
}

const ESCAPES: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };

/**
 * How a path is shown in every report: as it is, or — holding bytes that are not UTF-8, or
 * starting with `"` — git's quoted form (`"docs/bad\377\376.noma"`).
 */
export function displayPath(path: string): string {
  if (!path.startsWith('"') && !hasRawBytes(path)) return path;
  let out = '"';
  for (const b of encodeGitText(path)) {
    const e = ESCAPES[b];
    if (e !== undefined) out += e;
    else if (b < 0x20 || b >= 0x7f) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

const UNESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * A path given in the quoted form reports print (`"docs/bad\377\376.noma"`), as the path it
 * names (displayPath's inverse); null when `given` is not in that form (it is then a plain path).
 * So what a report names can be passed back as an argument.
 */
export function parseQuotedPath(given: string): string | null {
  if (given.length < 2 || !given.startsWith('"') || !given.endsWith('"')) return null;
  const bytes: number[] = [];
  const body = encodeGitText(given.slice(1, -1));
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    if (b === 0x22) return null; // an unescaped quote inside: not git's form
    if (b !== 0x5c) {
      bytes.push(b);
      continue;
    }
    const next = String.fromCharCode(body[i + 1] ?? 0);
    const simple = UNESCAPES[next];
    if (simple !== undefined) {
      bytes.push(simple);
      i++;
      continue;
    }
    const octal = /^[0-3][0-7]{2}$/.test(body.toString("latin1", i + 1, i + 4)) ? Number.parseInt(body.toString("latin1", i + 1, i + 4), 8) : -1;
    if (octal === -1) return null;
    bytes.push(octal);
    i += 3;
  }
  return decodeGitText(Buffer.from(bytes));
}
