/**
 * `get_changed_artifacts`: the existing artifact files a spec governs whose
 * current content is not reconciled for that spec (versus the cache, not
 * versus a branch). Optionally one artifact category only.
 *
 * This is the warm path over a whole repository, so it does as little as
 * possible. Git lists every index entry with its blob id (three processes,
 * running while this one loads the rest); the spec's records are stored as the
 * very lines git prints for them, in git's order, so a run of git's listing
 * equal byte for byte to a chunk of records is thousands of clean files found
 * reconciled with one comparison: no path strings, no glob test, no stat, no
 * read. Only the rest (lines that differ, files git reports modified or
 * untracked, files never reconciled) is looked at one by one, and only what is
 * then still in doubt is hashed.
 */
import { isAscii } from "node:buffer";
import { ANY_SPEC } from "../cache/cache-tables.js";
import { coldRecords, damagedCacheWarning, readRecords, type RecordsRead } from "../cache/read-cache.js";
import { CacheCorruptError } from "../cache/chunk-table.js";
import { cleanBlobIds, currentHashes, statPaths } from "../cache/current-hashes.js";
import type { RecordTable } from "../cache/record-table.js";
import { compareUtf8 } from "../git/compare-utf8.js";
import { parseNameStatusZ } from "../git/parse-name-status.js";
import type { WorktreeEntry } from "../git/parse-ls-files.js";
import { startWorktreeListing, type WorktreeListingJob } from "../git/read-worktree-status.js";
import {
  DELETED,
  indexLineEntry,
  indexOidLength,
  listingBlob,
  MODIFIED,
  parseIndexListing,
  readIndexLine,
  REGULAR,
  SKIP_WORKTREE,
  UNMERGED,
  untrackedEntry,
} from "../git/worktree-listing.js";
import { SELF_CATEGORY } from "../governance/governance.js";
import { isSpecPath } from "../governance/glob.js";
import type { SpecFile } from "../governance/validate-spec-text.js";
import { loadSpecContextCached } from "./load-spec-context-cached.js";
import { persistMemo, repoPath, requireSpec, type SpecContext, type ToolOptions } from "./reconcile-context.js";

export interface GetChangedArtifactsInput {
  specPath: string;
  /** An artifact category of the spec ("code", "docs", …); default: all. */
  artifactType?: string;
}

export interface ChangedArtifactsResult {
  changed_artifacts: string[];
}

export interface ChangedArtifactsOptions extends ToolOptions {
  /** Git's listing, already started (`startWorktreeListing(root)`), so git runs while the caller loads the rest. */
  listing?: WorktreeListingJob;
  /** The spec's records, already being read (`readRecords(root, [specPath])`); ignored when read for other specs. */
  records?: Promise<RecordsRead>;
}

const SPEC_DIR = ".notarai/";

/** Tracked spec candidates: the `.notarai/` lines of the index listing (contiguous: git lists paths sorted). */
function trackedUnderNotarai(out: Buffer, oidLength: number, utf8: boolean): string[] {
  const found: string[] = [];
  for (let pos = 0; pos < out.length; ) {
    const line = readIndexLine(out, pos, oidLength, utf8);
    pos = line.next;
    if (line.path.startsWith(SPEC_DIR)) found.push(line.path);
    else if (line.path > SPEC_DIR) break;
  }
  return found;
}

/** A file still in doubt: its record (as git lists it) and its rows in the spec's and the every-spec table (-1: none). */
interface Doubt {
  entry: WorktreeEntry;
  own: number;
  any: number;
}

interface Walk {
  doubts: Map<string, Doubt>;
  ownSeen: number;
  anySeen: number;
}

type CategoryTest = (path: string) => string | null;

function wanted(category: string | null, type: string | undefined): boolean {
  return category !== null && category !== SELF_CATEGORY && (type === undefined || category === type);
}

/**
 * Walk git's index listing beside the spec's records, both in git's order,
 * before the work tree's state is known. A chunk of records equal to the next
 * bytes of the listing is skipped whole: every file in it is listed (tag H,
 * stage 0, a regular mode) at the blob it was reconciled at. Other lines are
 * read one by one: a regular file whose record names its index blob is
 * reconciled (if its work tree turns out clean); every other governed file of
 * the category asked for is in doubt.
 */
function walkIndex(out: Buffer, own: RecordTable | undefined, any: RecordTable | undefined, categoryOf: CategoryTest, type: string | undefined): Walk {
  const doubts = new Map<string, Doubt>();
  const oidLength = indexOidLength(out);
  const utf8 = !isAscii(out);
  // `<` is git's order unless a path holds a character above U+FFFF.
  const native = !utf8 && (own?.ascii ?? true) && (any?.ascii ?? true);
  const before = (a: string, b: string): boolean => (native ? a < b : compareUtf8(a, b) < 0);
  const anyPaths = any?.paths() ?? [];
  let ai = 0;
  let oc = 0; // the spec's next chunk
  let orow = -1; // row inside chunk oc, -1 while not entered
  let ownSeen = 0;
  let anySeen = 0;
  const chunks = own?.chunkCount ?? 0;

  /** The spec's record row of `path` (advancing through its chunks, decoding only those entered), or -1. */
  const ownRow = (path: string): number => {
    while (oc < chunks) {
      if (orow < 0) {
        if (before(path, own!.chunk(oc).first)) return -1;
        orow = 0;
      }
      const rows = own!.rows(oc).paths;
      while (orow < rows.length && before(rows[orow]!, path)) orow++;
      if (orow < rows.length) {
        if (rows[orow] !== path) return -1;
        const i = own!.start(oc) + orow++;
        if (orow === rows.length) {
          oc++;
          orow = -1;
        }
        return i;
      }
      oc++;
      orow = -1;
    }
    return -1;
  };
  const anyRow = (path: string): number => {
    while (ai < anyPaths.length && before(anyPaths[ai]!, path)) ai++;
    return ai < anyPaths.length && anyPaths[ai] === path ? ai++ : -1;
  };

  let prev: string | null = null;
  let prevRows: [number, number] = [-1, -1];
  for (let pos = 0; pos < out.length; ) {
    if (orow < 0 && oc < chunks) {
      const lines = own!.chunk(oc).lines;
      // Cheap first: the same first object id bytes, then the whole run.
      if (
        out.length - pos >= lines.length &&
        out[pos + 9] === lines[9] &&
        out[pos + 10] === lines[10] &&
        out[pos + 11] === lines[11] &&
        out.compare(lines, 0, lines.length, pos, pos + lines.length) === 0
      ) {
        // Every-spec rows inside the run would need their own look; then read the run line by line instead.
        let j = ai;
        while (j < anyPaths.length && before(anyPaths[j]!, own!.chunk(oc).first)) j++;
        if (j >= anyPaths.length || before(own!.lastPath(oc), anyPaths[j]!)) {
          ai = j; // every-spec rows before the run name files git does not list
          ownSeen += own!.chunk(oc).n;
          pos += lines.length;
          oc++;
          prev = null;
          continue;
        }
      }
    }
    const line = readIndexLine(out, pos, oidLength, utf8);
    pos = line.next;
    if (line.path === prev) {
      // Another stage of a conflicted path.
      if (!doubts.has(line.path) && wanted(categoryOf(line.path), type))
        doubts.set(line.path, { entry: { ...indexLineEntry(out, line, oidLength), unmerged: true }, own: prevRows[0], any: prevRows[1] });
      continue;
    }
    prev = line.path;
    const o = ownRow(line.path);
    const a = anyRow(line.path);
    prevRows = [o, a];
    if (o >= 0) ownSeen++;
    if (a >= 0) anySeen++;
    if (!wanted(categoryOf(line.path), type)) continue;
    if ((line.flags & (REGULAR | MODIFIED | UNMERGED | SKIP_WORKTREE | DELETED)) === REGULAR) {
      const blob = out.toString("latin1", line.oidAt, line.oidAt + oidLength);
      if ((o >= 0 && own!.blobAt(o) === blob) || (a >= 0 && any!.blobAt(a) === blob)) continue;
    }
    doubts.set(line.path, { entry: indexLineEntry(out, line, oidLength), own: o, any: a });
  }
  return { doubts, ownSeen, anySeen };
}

/**
 * Finish the walk with the work tree's state: files `diff-files` reported are
 * in doubt (deleted ones are not listed at all, and their records are dead),
 * and so are governed untracked files.
 */
function addWorktreeChanges(
  w: Walk,
  dirtyOut: string,
  untracked: readonly string[],
  own: RecordTable | undefined,
  any: RecordTable | undefined,
  categoryOf: CategoryTest,
  type: string | undefined,
): void {
  const row = (t: RecordTable | undefined, path: string): number => t?.indexOf(path) ?? -1;
  for (const d of parseNameStatusZ(dirtyOut)) {
    const o = row(own, d.path);
    const a = row(any, d.path);
    if (d.status === "D") {
      if (o >= 0) w.ownSeen--;
      if (a >= 0) w.anySeen--;
      w.doubts.delete(d.path);
    } else if (wanted(categoryOf(d.path), type)) {
      // Its content differs from the index: hashed from the work tree (a stat signature may answer).
      w.doubts.set(d.path, {
        entry: { path: d.path, tracked: true, blob: null, mode: null, modified: true, deleted: false, unmerged: d.status === "U", skipWorktree: false },
        own: o,
        any: a,
      });
    }
  }
  for (const path of untracked) {
    const o = row(own, path);
    const a = row(any, path);
    if (o >= 0) w.ownSeen++;
    if (a >= 0) w.anySeen++;
    if (wanted(categoryOf(path), type)) w.doubts.set(path, { entry: untrackedEntry(path), own: o, any: a });
  }
}

/** The spec context and the index walk, from the spec files git lists (`known`). */
interface Pass {
  ctx: SpecContext;
  /** The spec's own loaded file, or null when `known` does not hold it. */
  spec: SpecFile | null;
  walk: Walk | null;
  warnings: string[];
}

export async function getChangedArtifacts(
  root: string,
  input: GetChangedArtifactsInput,
  options: ChangedArtifactsOptions = {},
): Promise<ChangedArtifactsResult> {
  const listing = options.listing ?? startWorktreeListing(root);
  try {
    return await changedArtifacts(root, input, { ...options, listing });
  } catch (e) {
    if (!(e instanceof CacheCorruptError)) throw e;
    // A damaged DB is a cold cache: the same question again, with no records at all.
    options.onWarning?.(damagedCacheWarning(e.message));
    const cold = coldRecords([repoPath(root, input.specPath)], { status: "unreadable", warning: null });
    return changedArtifacts(root, input, { ...options, listing, records: Promise.resolve(cold) });
  }
}

async function changedArtifacts(root: string, input: GetChangedArtifactsInput, options: ChangedArtifactsOptions): Promise<ChangedArtifactsResult> {
  const specPath = repoPath(root, input.specPath);
  // Concurrently: git's view of every file, and the spec's records.
  const job = options.listing ?? startWorktreeListing(root);
  let recordsPromise = options.records ?? readRecords(root, [specPath]);
  let records: RecordsRead | null = null;
  try {
    const indexOut = await job.indexOut;
    const oidLength = indexOidLength(indexOut);
    const tracked = trackedUnderNotarai(indexOut, oidLength, !isAscii(indexOut));
    records = await recordsPromise;
    if (!records.specs.includes(specPath)) {
      records.close();
      records = null;
      recordsPromise = readRecords(root, [specPath]);
      records = await recordsPromise;
    }
    const own = records.tables.get(specPath);
    const any = records.tables.get(ANY_SPEC);
    // Specs and the index walk from the tracked spec files, while git still compares the work tree;
    // the full untracked list comes last, and only an untracked spec file there means doing them again.
    const pass = async (known: readonly string[]): Promise<Pass> => {
      const warnings: string[] = [];
      const ctx = await loadSpecContextCached(root, { ...options, onWarning: (m) => warnings.push(m) }, known);
      const spec = ctx.specs.byPath.get(specPath) ?? null;
      const walk = spec !== null && spec.data !== null ? walkIndex(indexOut, own, any, ctx.governance.categoryTest(spec.path), input.artifactType) : null;
      return { ctx, spec, walk, warnings };
    };
    let p = await pass(tracked);
    const untracked = (await job.othersOut).split("\0").filter((f) => f.length > 0);
    const untrackedSpecs = untracked.filter((f) => f.startsWith(".notarai/") && isSpecPath(f));
    if (untrackedSpecs.length > 0) p = await pass([...tracked, ...untrackedSpecs]);
    for (const m of p.warnings) options.onWarning?.(m);
    const ctx = p.ctx;
    const spec = requireSpec(ctx, specPath, { requireData: true });
    const categories = ctx.governance.categoriesOf(spec.path);
    if (input.artifactType !== undefined && !categories.includes(input.artifactType)) {
      // NotarAI answers an empty list, and its reconcile skill relies on that (it asks every spec for "docs").
      options.onWarning?.(
        `${spec.path} has no artifact category "${input.artifactType}" (its categories: ${categories.join(", ") || "none"}); nothing to list`,
      );
      return { changed_artifacts: [] };
    }
    if (records.warning !== null) options.onWarning?.(records.warning);
    const walk = p.walk!;
    const categoryOf = ctx.governance.categoryTest(spec.path);
    addWorktreeChanges(walk, await job.dirtyOut, untracked, own, any, categoryOf, input.artifactType);

    // What is left: memo rows, hashes, and the records' hashes (or the snapshot's, while never seeded).
    const paths = [...walk.doubts.keys()].sort();
    const entries = new Map<string, WorktreeEntry>(paths.map((p) => [p, walk.doubts.get(p)!.entry]));
    const seed = records.seeded ? null : (await import("./snapshot-seed.js")).snapshotSeed(root, options);
    const memo = records.memo(cleanBlobIds(entries, paths), statPaths(entries, paths));
    const current = await currentHashes(root, paths, entries, memo);
    const changed = paths.filter((p) => {
      const hash = current.hashes.get(p) ?? null;
      if (hash === null) return true;
      const d = walk.doubts.get(p)!;
      if (d.own >= 0 && own!.hashAt(d.own) === hash) return false;
      if (d.any >= 0) return any!.hashAt(d.any) !== hash;
      return seed?.get(p) !== hash;
    });

    // A chunk or memo row read on the way failed its checksum: the answer is rebuilt from a cold cache.
    const damage = records.damaged();
    if (damage !== null) throw new CacheCorruptError(damage);

    // Records of files git no longer lists (or lists as deleted) are dead: write, and prune, even when the memo learnt nothing.
    const dead = walk.ownSeen < (own?.size ?? 0) || walk.anySeen < (any?.size ?? 0);
    const force = dead || records.outdated;
    if (options.readOnly !== true && (force || current.newBlobHashes.size > 0 || current.newStatHashes.size > 0)) {
      const listing = parseIndexListing(indexOut);
      const deleted = new Set(
        parseNameStatusZ(await job.dirtyOut)
          .filter((d) => d.status === "D")
          .map((d) => d.path),
      );
      const livePaths = new Set<string>(untracked);
      const liveBlobs = new Set<string>();
      for (let k = 0; k < listing.paths.length; k++) {
        const blob = listingBlob(listing, k);
        if (blob !== null) liveBlobs.add(blob);
        if (!deleted.has(listing.paths[k]!)) livePaths.add(listing.paths[k]!);
      }
      records.close();
      await persistMemo(
        root,
        seed,
        { blobHashes: current.newBlobHashes, statHashes: current.newStatHashes, prune: { livePaths, liveSpecs: new Set(ctx.specs.byPath.keys()), liveBlobs } },
        options,
        force,
      );
    }
    return { changed_artifacts: changed };
  } finally {
    if (records !== null) records.close();
    else
      recordsPromise.then(
        (r) => r.close(),
        () => undefined,
      );
  }
}
