/**
 * `governs <path…>`: which specs govern each path, and through which glob.
 * Governance is over the files git knows: an ignored file is governed by no
 * spec; a path that does not exist yet is answered hypothetically; a directory
 * stands for the files git knows under it (tracked, or untracked and not ignored).
 */
import { listFiles } from "../git/list-files.js";
import { lstatSync, statSync } from "node:fs";
import { join } from "node:path";
import { containPath } from "../fsx/contain-path.js";
import { chunkPaths, literalPathspec } from "../git/chunk-paths.js";
import { loadSpecs } from "./load-specs.js";
import type { AuditKind } from "./audit-paths.js";
import { buildGovernance, isInternalPath, type Governance, type Governor } from "./governance.js";
import { readAuditLocations } from "./read-audit-locations.js";

/** "not-a-file": something other than a file or link is there (a FIFO, a socket, a device): git tracks none, so no spec governs it. */
export type PathState = "tracked" | "untracked" | "ignored" | "absent" | "internal" | "not-a-file";

export interface PathGovernance {
  path: string;
  /** How git sees the path ("internal": the tool's own state, never governed). */
  state: PathState;
  /** Whether the system spec's exclude globs (or a built-in rule) take it out of governance. */
  excluded: boolean;
  /** The kind of audit record the tools write it as (never governed), or null. */
  audit: AuditKind | null;
  governed_by: Governor[];
}

/** A directory given: the files git knows under it, each answered in `paths`. */
export interface DirectoryGovernance {
  path: string;
  files: string[];
}

export interface WhichSpecsGovernResult {
  /** One answer per file: each path given, a directory's files in its place. */
  paths: PathGovernance[];
  /** The directories given (in the order given), with the files under each. */
  directories: DirectoryGovernance[];
}

/** Pure: the answer for one path, given git's view of it. */
export function pathGovernance(governance: Governance, path: string, state: PathState): PathGovernance {
  const governedBy = state === "ignored" || state === "internal" || state === "not-a-file" ? [] : governance.governorsOf(path);
  return { path, state, excluded: governance.isExcluded(path), audit: governance.auditKind(path), governed_by: governedBy };
}

/**
 * For `paths` (repository-relative, or absolute inside the repository): their
 * governing specs. A path outside the repository throws PathOutsideRepoError.
 */
export function whichSpecsGovern(
  root: string,
  given: readonly string[],
  governance: Governance = buildGovernance(loadSpecs(root), readAuditLocations(root)),
): WhichSpecsGovernResult {
  const named = given.map((p) => containPath(p, root, root));
  const isDirectory = (p: string): boolean => {
    try {
      return statSync(join(root, p)).isDirectory();
    } catch {
      return false;
    }
  };
  const dirs = new Set(named.filter(isDirectory));
  const tracked = new Set<string>();
  const untracked = new Set<string>();
  // A directory's pathspec lists what git knows under it; "" is the repository's top.
  for (const chunk of chunkPaths(named.map((p) => (p === "" ? "." : literalPathspec(p))))) {
    for (const p of listFiles(root, { pathspecs: chunk })) tracked.add(p);
    for (const p of listFiles(root, { untracked: "only", pathspecs: chunk })) untracked.add(p);
  }
  const directories: DirectoryGovernance[] = [];
  const paths: string[] = [];
  for (const p of named) {
    if (!dirs.has(p)) {
      paths.push(p);
      continue;
    }
    const prefix = p === "" ? "" : `${p}/`;
    const files = [...tracked, ...untracked].filter((f) => f.startsWith(prefix)).sort();
    directories.push({ path: p === "" ? "." : p, files });
    paths.push(...files);
  }
  return {
    directories,
    paths: paths.map((p) => {
      let state: PathState;
      if (isInternalPath(p)) state = "internal";
      else if (tracked.has(p)) state = "tracked";
      else if (untracked.has(p)) state = "untracked";
      else {
        state = untrackedState(join(root, p));
      }
      return pathGovernance(governance, p, state);
    }),
  };
}

/** How a path git does not list is there: a file or link git ignores, something that is not a file, or nothing. */
function untrackedState(abs: string): PathState {
  try {
    const st = lstatSync(abs);
    return st.isFile() || st.isSymbolicLink() ? "ignored" : st.isDirectory() ? "absent" : "not-a-file";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "absent";
    throw e;
  }
}
