/**
 * Files a user names on the command line that lie outside the repository (outside the
 * working directory when there is no repository). The read-only commands (`check`, `ids`,
 * `parse`, `render`) read them where they are: a user naming a file means it. Their paths
 * are printed as given. Containment stays for the MCP server, for writes, and for a path
 * inside the repository that a symbolic link leads out of (`containPath` refuses it).
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { NomaConfig } from "../config/config-defaults.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import type { CheckOptions } from "./check-document.js";
import { checkFiles } from "./check-files.js";
import { isNomaPath, MissingPathError } from "./list-noma-files.js";
import { besideLookups } from "./resolve-beside.js";
import { BookContext } from "./book-context.js";
import { bookChapters } from "./book-chapters.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { decodeText } from "../fsx/utf8-text.js";

/** realpath of `p`, or of its nearest existing ancestor joined with the rest. */
function realLenient(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    const parent = dirname(p);
    return parent === p ? p : join(realLenient(parent), basename(p));
  }
}

/**
 * Whether `given` (relative to `cwd`) names a place outside `root`: where its directory
 * really is, joined with its last component. A path whose directory is inside the root is
 * not outside, even when its last component is a symbolic link leading out: that one is
 * for containment to refuse.
 */
export function isOutsidePath(given: string, root: string, cwd: string): boolean {
  const abs = resolve(cwd, given);
  const parent = dirname(abs);
  const candidate = parent === abs ? abs : join(realLenient(parent), basename(abs));
  const rel = relative(realLenient(root), candidate);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** `paths` split into those inside `root` and those outside it (see isOutsidePath), each in the order given. */
export function splitOutsidePaths(paths: readonly string[], root: string, cwd: string): { inside: string[]; outside: string[] } {
  const inside: string[] = [];
  const outside: string[] = [];
  for (const p of paths) (isOutsidePath(p, root, cwd) ? outside : inside).push(p);
  return { inside, outside };
}

function walk(abs: string, label: string, out: string[]): void {
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const childLabel = `${label}/${entry.name}`;
    if (entry.isDirectory()) walk(join(abs, entry.name), childLabel, out);
    else if (entry.isFile() && isNomaPath(entry.name)) out.push(childLabel);
  }
}

/**
 * The files `check` judges for outside paths: a file as given; for a directory, the
 * documents found on disk under it (dot directories and node_modules skipped; symbolic
 * links not followed), labelled `<given>/<path>`. Missing paths → MissingPathError.
 */
export function listOutsideFiles(paths: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  const missing: string[] = [];
  for (const given of paths) {
    const abs = resolve(cwd, given);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      missing.push(given);
      continue;
    }
    if (isDir) {
      const out: string[] = [];
      walk(abs, given.replace(/[\\/]+$/, "") || given, out);
      for (const f of out) found.add(f);
    } else found.add(given);
  }
  if (missing.length > 0) throw new MissingPathError(missing);
  return [...found].sort();
}

export interface CheckOutsideOptions {
  /** Paths as given, each outside the repository. */
  paths: readonly string[];
  cwd: string;
  config: Pick<NomaConfig, "transcripts">;
  document?: Omit<CheckOptions, "datasetSrcExists" | "chapterExists">;
}

/**
 * `check` on outside paths: documents, book manifests, sidecars and transcripts read from
 * disk, a document's transcript beside it judged with it; a dataset's `src=` resolved
 * beside its document, a book's chapters beside (or below) the manifest. A chapter is judged
 * in the books named with it or lying beside it; a book named brings its chapters.
 */
export async function checkOutsidePaths(options: CheckOutsideOptions): Promise<FileDiagnostics[]> {
  const { cwd } = options;
  const targets = listOutsideFiles(options.paths, cwd);
  const fileAt = (label: string): string | null => {
    try {
      const abs = resolve(cwd, label);
      return statSync(abs).isFile() ? abs : null;
    } catch {
      return null;
    }
  };
  // A file that is there but cannot be read as text throws: check-files.ts makes it the file's error.
  const read = (label: string): string | null => {
    const bytes = readRegularFileIfPresent(resolve(cwd, label), label);
    return bytes === null ? null : decodeText(bytes, label);
  };
  const exists = (p: string | null): boolean => p !== null && fileAt(p) !== null;
  // A dataset's src= names a file anywhere beside its document; a chapter must lie beside or below its manifest.
  const dataset = besideLookups((fromFile, target) => (isAbsolute(target) ? target : join(dirname(fromFile), target)), exists);
  const resolveChapter = (fromFile: string, target: string): string | null => {
    if (isAbsolute(target)) return null;
    const joined = join(dirname(fromFile), target);
    const rel = relative(resolve(cwd, dirname(fromFile)), resolve(cwd, joined));
    return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? null : joined;
  };
  const chapter = besideLookups(resolveChapter, exists);
  // Books: the manifests named (or found in a directory named), and those beside a file named.
  const books = new BookContext({ read, resolve: resolveChapter, manifests: () => manifestsBeside(targets, cwd) });
  return checkFiles({
    targets: bookChapters(books, targets),
    read,
    specPaths: () => [],
    config: options.config,
    document: { ...options.document, datasetSrcExists: dataset.datasetSrcExists, chapterExists: chapter.chapterExists },
    books: { context: books, withManifests: true },
  });
}

/** The manifests among `labels` and those in the directory of each document among them. */
function manifestsBeside(labels: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  const dirs = new Set<string>();
  for (const label of labels) {
    const kind = checkedPathKind(label);
    if (kind === "book") found.add(label);
    else if (kind === "document") dirs.add(dirname(label));
  }
  for (const dir of dirs) {
    let entries: string[];
    try {
      entries = readdirSync(resolve(cwd, dir));
    } catch {
      continue;
    }
    for (const name of entries) {
      const label = join(dir, name);
      if (checkedPathKind(name) === "book" && statSync(resolve(cwd, label), { throwIfNoEntry: false })?.isFile() === true) found.add(label);
    }
  }
  return [...found].sort();
}
