/**
 * Append one entry to the evidence ledger: under the ledger's lock, read the last
 * complete line (backwards from the end, so the cost does not grow with the file),
 * chain to it, and write the line with one write() on an O_APPEND descriptor, then
 * fsync. Every process appending to one ledger (MCP servers, the HTTP server, the CLI)
 * takes the same lock, so lines never interleave and the chain never forks.
 *
 * Within one process, appends queue up and are written together: whoever holds the
 * lock writes every line waiting at that moment in one write() and one fsync (group
 * commit), so fifty concurrent requests cost a few fsyncs, not fifty.
 *
 * A torn tail (bytes after the last line break: a write interrupted by kill -9 or a
 * power loss) is repaired by the next append, under the same lock: the torn bytes are
 * cut off and recorded, base64, in a `ledger_repair` entry written in the same write as
 * the new line — nothing is lost, and the chain stays verifiable.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, fsync, ftruncateSync, readSync, write } from "node:fs";
import { promisify } from "node:util";
import { posix } from "node:path";
import { formatLedgerLine, LEDGER_GENESIS, ledgerLineHash, type LedgerEntry } from "./ledger-line.js";
import { openFileIn, openPinnedDir } from "./pinned-dir.js";
import { WorkspaceError } from "./workspace-error.js";
import { withLocks } from "./with-locks.js";
import type { Workspace } from "./workspace.js";

export interface LedgerRecord {
  action: string;
  path: string;
  details: Record<string, unknown>;
}

interface Head {
  /** sha256 of the last complete line, or genesis. */
  sha: string;
  /** seq of the last complete line (0 when none or unreadable: then counted by lines). */
  seq: number;
  /** Offset where a torn tail starts, or -1. */
  tornAt: number;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let off = 0;
  while (off < length) {
    const n = readSync(fd, buf, off, length - off, position + off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

/** The last complete line and a torn tail, reading backwards in chunks. */
function readHead(fd: number, size: number): Head {
  if (size === 0) return { sha: LEDGER_GENESIS, seq: 0, tornAt: -1 };
  const CHUNK = 64 * 1024;
  // Find the last "\n" (the end of the last complete line) and the one before it.
  let end = -1; // index of the last "\n"
  let start = -1; // index after the "\n" before it (start of the last complete line)
  let pos = size;
  const tailParts: Buffer[] = [];
  while (pos > 0 && start === -1) {
    const from = Math.max(0, pos - CHUNK);
    const buf = readAt(fd, from, pos - from);
    for (let i = buf.length - 1; i >= 0; i--) {
      if (buf[i] !== 0x0a) continue;
      const abs = from + i;
      if (end === -1) end = abs;
      else {
        start = abs + 1;
        break;
      }
    }
    tailParts.unshift(buf);
    pos = from;
  }
  if (end === -1) return { sha: LEDGER_GENESIS, seq: 0, tornAt: 0 }; // no complete line at all
  if (start === -1) start = 0;
  const joined = Buffer.concat(tailParts);
  const base = size - joined.length;
  const line = joined.subarray(start - base, end - base);
  let seq = 0;
  try {
    const v = JSON.parse(line.toString("utf8")) as { seq?: unknown };
    if (typeof v.seq === "number" && Number.isSafeInteger(v.seq)) seq = v.seq;
  } catch {
    /* a corrupt last line: verify reports it; we chain to its bytes */
  }
  return { sha: ledgerLineHash(line), seq, tornAt: end + 1 < size ? end + 1 : -1 };
}

/** Count complete lines (only when the last line carries no usable seq). */
function countLines(fd: number, size: number): number {
  let n = 0;
  const CHUNK = 1 << 20;
  for (let pos = 0; pos < size; pos += CHUNK) {
    const buf = readAt(fd, pos, Math.min(CHUNK, size - pos));
    for (const b of buf) if (b === 0x0a) n++;
  }
  return n;
}

const writeAsync = (fd: number, buf: Buffer, off: number, len: number): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buf, off, len, null, (e, n) => (e !== null ? reject(e) : resolve(n))));
const fsyncAsync = promisify(fsync);

interface Waiting {
  records: readonly LedgerRecord[];
  resolve: (entries: LedgerEntry[]) => void;
  reject: (e: unknown) => void;
}

const queues = new Map<string, { waiting: Waiting[]; draining: boolean }>();

/** Append records to the ledger (one line each; lines waiting in this process share one write and fsync); returns the lines written. */
export function appendLedger(ws: Workspace, records: readonly LedgerRecord[]): Promise<LedgerEntry[]> {
  const key = `${ws.root}\0${ws.protectedPaths.ledger}`;
  let q = queues.get(key);
  if (q === undefined) {
    q = { waiting: [], draining: false };
    queues.set(key, q);
  }
  const queue = q;
  return new Promise((resolve, reject) => {
    queue.waiting.push({ records, resolve, reject });
    if (!queue.draining) void drain(ws, key, queue);
  });
}

async function drain(ws: Workspace, key: string, q: { waiting: Waiting[]; draining: boolean }): Promise<void> {
  q.draining = true;
  while (q.waiting.length > 0) {
    const batch = q.waiting.splice(0);
    try {
      const entries = await appendNow(
        ws,
        batch.flatMap((b) => b.records),
      );
      let at = entries.length - batch.reduce((n, b) => n + b.records.length, 0); // a ledger_repair entry comes first
      for (const b of batch) {
        b.resolve(entries.slice(at, at + b.records.length));
        at += b.records.length;
      }
    } catch (e) {
      for (const b of batch) b.reject(e);
    }
  }
  q.draining = false;
  queues.delete(key);
}

function appendNow(ws: Workspace, records: readonly LedgerRecord[]): Promise<LedgerEntry[]> {
  const rel = ws.protectedPaths.ledger;
  const dirRel = posix.dirname(rel) === "." ? "" : posix.dirname(rel);
  const name = posix.basename(rel);
  return withLocks(
    ws.lockPath("ledger", rel),
    async () => {
      const dir = openPinnedDir(ws.root, dirRel, true);
      let fd: number;
      try {
        const opened = openFileIn(dir, name, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o644);
        fd = opened.fd;
        if (!opened.stat.isFile()) {
          closeSync(fd);
          throw new WorkspaceError("config_error", `${rel}: the ledger is not a regular file`);
        }
      } finally {
        dir.close();
      }
      try {
        const size = fstatSync(fd).size;
        const head = readHead(fd, size);
        let seq = head.seq > 0 ? head.seq : countLines(fd, head.tornAt >= 0 ? head.tornAt : size);
        let prev = head.sha;
        const lines: string[] = [];
        const written: LedgerEntry[] = [];
        const timestamp = ws.now().toISOString();
        const push = (r: LedgerRecord): void => {
          const entry: LedgerEntry = { timestamp, action: r.action, path: r.path, details: r.details, seq: ++seq, prev_sha256: prev };
          const line = formatLedgerLine(entry);
          prev = ledgerLineHash(line);
          lines.push(line);
          written.push(entry);
        };
        if (head.tornAt >= 0) {
          const torn = readAt(fd, head.tornAt, size - head.tornAt);
          ftruncateSync(fd, head.tornAt);
          push({
            action: "ledger_repair",
            path: rel,
            details: {
              reason: "the last line had no line break (an interrupted write); its bytes were cut off and are kept here",
              torn_bytes: torn.length,
              torn_base64: torn.toString("base64"),
              torn_sha256: createHash("sha256").update(torn).digest("hex"),
            },
          });
        }
        for (const r of records) push(r);
        const buf = Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8");
        // Written and synced off the event loop: requests arriving meanwhile queue up for the next batch.
        let off = 0;
        while (off < buf.length) off += await writeAsync(fd, buf, off, buf.length - off);
        await fsyncAsync(fd);
        return written;
      } finally {
        closeSync(fd);
      }
    },
    ws.lockTimeoutMs,
  );
}
