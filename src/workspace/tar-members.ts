/**
 * Pure: walk the headers of a tar archive (ustar + pax, as modern-tar and GNU tar
 * write them) to find where its end-of-archive marker starts, so a member can be
 * appended while every existing member stays byte for byte as it was. Reading member
 * contents is modern-tar's job (read-archive.ts); this only needs sizes and checksums.
 */
import { NomaError } from "../errors/noma-error.js";

export class TarFormatError extends NomaError {
  static override readonly errorName: string = "TarFormatError";
  constructor(message: string) {
    super("tar-format", message);
  }
}

export interface TarMemberHeader {
  /** Offset of the member's first header (a pax header when it has one). */
  offset: number;
  /** Its name (pax `path`, else ustar prefix/name). */
  name: string;
  typeflag: string;
  size: number;
  /** Offset of its data. */
  dataOffset: number;
}

const BLOCK = 512;

function octal(h: Uint8Array, off: number, len: number): number {
  if ((h[off]! & 0x80) !== 0) {
    // base-256 (GNU): big-endian, first byte's high bit set
    let v = h[off]! & 0x7f;
    for (let i = 1; i < len; i++) v = v * 256 + h[off + i]!;
    return v;
  }
  let s = "";
  for (let i = off; i < off + len; i++) {
    const c = h[i]!;
    if (c === 0 || c === 0x20) {
      if (s.length > 0) break;
      continue;
    }
    if (c < 0x30 || c > 0x37) throw new TarFormatError(`bad octal field at offset ${off}`);
    s += String.fromCharCode(c);
  }
  return s.length === 0 ? 0 : parseInt(s, 8);
}

function text(h: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && h[end] !== 0) end++;
  return Buffer.from(h.subarray(off, end)).toString("utf8");
}

function checksumOk(h: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum === octal(h, 148, 8);
}

/** pax records "len key=value\n" (len counts bytes, itself included) → map. */
function paxRecords(data: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < data.length) {
    let sp = i;
    while (sp < data.length && data[sp] !== 0x20) sp++;
    const len = parseInt(Buffer.from(data.subarray(i, sp)).toString("latin1"), 10);
    if (!Number.isFinite(len) || len <= sp - i || i + len > data.length) throw new TarFormatError("bad pax record length");
    const body = Buffer.from(data.subarray(sp + 1, i + len - (data[i + len - 1] === 0x0a ? 1 : 0))).toString("utf8");
    const eq = body.indexOf("=");
    if (eq > 0) out.set(body.slice(0, eq), body.slice(eq + 1));
    i += len;
  }
  return out;
}

/** The members (pax headers folded into the member they describe) and the offset of the end-of-archive marker. */
export function tarMembers(bytes: Uint8Array): { members: TarMemberHeader[]; end: number } {
  const members: TarMemberHeader[] = [];
  let off = 0;
  let pending: { offset: number; pax: Map<string, string> } | null = null;
  while (off + BLOCK <= bytes.length) {
    const h = bytes.subarray(off, off + BLOCK);
    if (h.every((b) => b === 0)) {
      if (pending !== null) throw new TarFormatError(`a pax header at offset ${pending.offset} describes no member`);
      return { members, end: off };
    }
    if (!checksumOk(h)) throw new TarFormatError(`bad header checksum at offset ${off}`);
    const typeflag = String.fromCharCode(h[156]!) || "0";
    let size = octal(h, 124, 12);
    const dataOffset = off + BLOCK;
    if (typeflag === "x") {
      if (dataOffset + size > bytes.length) throw new TarFormatError(`a pax header at offset ${off} runs past the end`);
      pending = { offset: off, pax: paxRecords(bytes.subarray(dataOffset, dataOffset + size)) };
      off = dataOffset + Math.ceil(size / BLOCK) * BLOCK;
      continue;
    }
    if (typeflag === "g" || typeflag === "L" || typeflag === "K") {
      off = dataOffset + Math.ceil(size / BLOCK) * BLOCK; // global pax / GNU long names: skipped, we never write them
      continue;
    }
    const prefix = text(h, 345, 155);
    let name = prefix.length > 0 ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100);
    const start = pending?.offset ?? off;
    if (pending !== null) {
      name = pending.pax.get("path") ?? name;
      const s = pending.pax.get("size");
      if (s !== undefined) size = Number(s);
      pending = null;
    }
    if (dataOffset + size > bytes.length) throw new TarFormatError(`member ${JSON.stringify(name)} runs past the end of the archive`);
    members.push({ offset: start, name, typeflag: typeflag === "\0" ? "0" : typeflag, size, dataOffset });
    off = dataOffset + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new TarFormatError("no end-of-archive marker (the archive is truncated)");
}
