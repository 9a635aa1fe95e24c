/**
 * One crash-safe write across several files (a book transaction: its chapters and their
 * transcripts). Each file's new bytes are first staged beside it (`.<name>.book-txn`, written
 * atomically: temp file, fsync, rename); then a journal naming every staged file is written
 * atomically beside the book manifest — the commit point; then each staged file is renamed
 * over its target (transcripts before documents) and the journal removed.
 *
 * A process killed before the journal exists leaves the files as they were (the staged copies
 * are removed by the next transaction); killed after, the next transaction — or
 * `recoverBookTransaction` — finishes the renames (roll forward), so readers end with every
 * file new or every file old, never a mix.
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, openSync, fsyncSync, closeSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { NomaError } from "../errors/noma-error.js";
import { acquireFileLockSync, type FileLockOptions, type HeldLock } from "../fsx/with-file-lock.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";

/** A file the transaction writes: its absolute path and new bytes. */
export interface TransactionFile {
  path: string;
  data: string | Uint8Array;
}

interface Journal {
  book_transaction: 1;
  /** Targets relative to the journal's folder, in rename order. */
  files: string[];
}

/** `.<manifest>.txn` beside the manifest. */
export function journalPath(manifestPath: string): string {
  return join(dirname(manifestPath), `.${basename(manifestPath)}.txn`);
}

/** Where a file's new bytes wait for the commit: `.<name>.book-txn` beside it. */
export function stagedPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.book-txn`);
}

/** Fault injection for the crash tests (NOMA_RECONCILE_TEST_CRASH_AT=<point>: SIGKILL, no cleanup). */
function crashPoint(point: "book-after-stage" | "book-after-journal" | "book-mid-commit"): void {
  if (process.env["NOMA_RECONCILE_TEST_CRASH_AT"] === point) process.kill(process.pid, "SIGKILL");
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* directories cannot be fsynced on every platform */
  }
}

export class BookJournalError extends NomaError {
  static override readonly errorName: string = "BookJournalError";
  constructor(path: string, found: string) {
    super("book-journal-invalid", `${path}: expected a book transaction journal ({"book_transaction": 1, "files": [...]}), found ${found}`);
  }
}

/** The targets a journal names (absolute), read and checked. */
function journalTargets(journal: string): string[] {
  const text = readFileSync(journal, "utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BookJournalError(journal, "text that is not JSON");
  }
  const j = parsed as Partial<Journal> | null;
  if (j === null || typeof j !== "object" || j.book_transaction !== 1 || !Array.isArray(j.files) || !j.files.every((f) => typeof f === "string"))
    throw new BookJournalError(journal, JSON.stringify(parsed).slice(0, 80));
  return j.files.map((f) => resolve(dirname(journal), f));
}

/** Rename every staged file of the journal over its target; remove the journal. */
function rollForward(journal: string, targets: readonly string[]): void {
  const dirs = new Set<string>();
  for (const t of targets) {
    const staged = stagedPath(t);
    if (existsSync(staged)) {
      renameSync(staged, t);
      dirs.add(dirname(t));
    }
    if (t === targets[0]) crashPoint("book-mid-commit");
  }
  for (const d of dirs) fsyncDir(d);
  unlinkSync(journal);
  fsyncDir(dirname(journal));
}

/**
 * Finish or undo an interrupted transaction of the book at `manifestPath` (call it holding the
 * locks of the book's files): a journal is rolled forward; without one, staged copies of
 * `candidates` (left by a process killed before its commit point) are removed. Returns the
 * files a roll forward wrote (absolute), or [] when there was nothing to finish.
 */
export function recoverBookTransaction(manifestPath: string, candidates: readonly string[] = []): string[] {
  const journal = journalPath(manifestPath);
  if (!existsSync(journal)) {
    for (const c of candidates) {
      const staged = stagedPath(c);
      if (existsSync(staged)) unlinkSync(staged);
    }
    return [];
  }
  const base = dirname(journal);
  const targets = journalTargets(journal);
  // A journal naming a file outside its book's folder tree that the book does not list was not written by us.
  if (targets.some((t) => relative(base, t).startsWith(`..${sep}`) && !candidates.includes(t)))
    throw new BookJournalError(journal, "a file outside the book's folder that the book does not list");
  rollForward(journal, targets);
  return targets;
}

/**
 * Before a document is written on its own (patch, accept): a staged copy of it or of its
 * transcript means a book transaction holding it was interrupted. Committed (a journal names
 * it, in its folder or one above, up to `root`): finished now, under the book's locks, so the
 * document is edited from the state the transaction committed. Not committed: the staged
 * copies are removed. The caller holds `doc`'s own lock (`lockPathOf` names every lock).
 */
export function settleBookTransaction(doc: string, root: string | undefined, lockPathOf: (p: string) => string, lockOptions: FileLockOptions = {}): void {
  const mine = [doc, `${doc}.patches`];
  if (!mine.some((p) => existsSync(stagedPath(p)))) return;
  const top = root !== undefined ? resolve(root) : dirname(resolve(doc));
  for (let dir = dirname(resolve(doc)); ; dir = dirname(dir)) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => /^\..+\.noma\.ya?ml\.txn$/i.test(n));
    } catch {
      names = [];
    }
    for (const name of names) {
      const journal = join(dir, name);
      const targets = journalTargets(journal);
      if (!targets.some((t) => mine.includes(t))) continue;
      const manifest = join(dir, name.slice(1, -".txn".length));
      const locks: HeldLock[] = [];
      try {
        // The book's other locks (this document's is held by the caller); a book transaction waiting on it times out, not forever.
        const others = [manifest, ...[...new Set(targets.map((t) => t.replace(/\.patches$/, "")))].filter((t) => t !== doc).sort()];
        for (const p of others) locks.push(acquireFileLockSync(lockPathOf(p), lockOptions));
        if (existsSync(journal)) rollForward(journal, targets);
      } finally {
        for (const l of locks.reverse()) l.release();
      }
      return;
    }
    if (dir === top || dirname(dir) === dir) break;
  }
  for (const p of mine) if (existsSync(stagedPath(p))) unlinkSync(stagedPath(p));
}

/** Write `files` all-or-nothing (see the module comment); `manifestPath` names the journal. */
export function commitBookTransaction(manifestPath: string, files: readonly TransactionFile[]): void {
  if (files.length === 0) return;
  for (const f of files) {
    let mode: number | undefined;
    try {
      mode = statSync(f.path).mode & 0o777;
    } catch {
      mode = undefined;
    }
    writeFileAtomic(stagedPath(f.path), f.data, mode !== undefined ? { mode } : {});
  }
  crashPoint("book-after-stage");
  const journal = journalPath(manifestPath);
  const body: Journal = { book_transaction: 1, files: files.map((f) => relative(dirname(journal), f.path).split(sep).join("/")) };
  writeFileAtomic(journal, `${JSON.stringify(body)}\n`);
  crashPoint("book-after-journal");
  rollForward(
    journal,
    files.map((f) => f.path),
  );
}
