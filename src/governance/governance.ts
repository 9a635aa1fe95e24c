/**
 * Which spec governs which file (pure). A spec governs:
 *  - its own file (category "spec", glob = its path), and
 *  - every file one of its `artifacts` globs matches (category = the artifacts
 *    key, glob = the glob as written; the first matching glob per spec wins),
 *    minus its own `exclude` globs and the system spec's `exclude` globs.
 * Several specs may govern one file; all are reported. The reconciliation
 * snapshot and the cache directory are never governed, nor are the records the
 * tools write for audit (audit-paths.ts: the evidence ledger, the archive,
 * `.norma/`, transcripts), wherever the configuration puts them: this is the
 * one place every drift, affected, diff, changed, coverage and mark
 * computation asks.
 */
import type { SpecFile } from "./validate-spec-text.js";
import type { SpecSet } from "./load-specs.js";
import { auditTest, DEFAULT_AUDIT_LOCATIONS, type AuditKind, type AuditLocations } from "./audit-paths.js";
import { compileGlob, GlobError, type PathTest } from "./glob.js";

/** The snapshot file (never governed). */
export const SNAPSHOT_PATH = ".notarai/reconciliation_state.json";
/** The cache directory (never governed). */
export const CACHE_DIR = ".notarai/.cache";

/** Category reported when a spec governs its own file. */
export const SELF_CATEGORY = "spec";

export interface Governor {
  /** The governing spec's repository-relative path. */
  spec_path: string;
  /** The glob (as written in the spec) that matched, or the spec's own path. */
  glob: string;
  /** The artifact category (`artifacts` key), or "spec" for a spec's own file. */
  category: string;
}

interface Rule {
  category: string;
  glob: string;
  test: PathTest;
}

interface CompiledSpec {
  path: string;
  rules: Rule[];
  excludes: PathTest[];
  categories: string[];
}

export interface Governance {
  /** Every spec file considered (valid or not), sorted. */
  specPaths: readonly string[];
  /** The system spec's path, if any. */
  systemSpecPath: string | null;
  /** Every spec governing `path`, in spec-path order. */
  governorsOf(path: string): Governor[];
  /** How `specPath` governs `path`, or null. */
  governs(specPath: string, path: string): Governor | null;
  /**
   * For walking many paths against one spec: a test giving the category under
   * which `specPath` governs a path ("spec" for its own file), or null —
   * `governs(specPath, path)?.category` without building a Governor per path.
   */
  categoryTest(specPath: string): (path: string) => string | null;
  /** Whether the system spec's `exclude` (or a built-in rule: the tool's own state, an audit record) takes `path` out of governance. */
  isExcluded(path: string): boolean;
  /** The kind of audit record `path` is (never governed), or null. */
  auditKind(path: string): AuditKind | null;
  /** The artifact categories a spec declares (in declaration order). */
  categoriesOf(specPath: string): string[];
}

const CACHE_DIR_PREFIX = `${CACHE_DIR}/`;

/** Whether a path belongs to the tool's own state (snapshot, cache) and is never governed. */
export function isInternalPath(path: string): boolean {
  return path === SNAPSHOT_PATH || path === CACHE_DIR || path.startsWith(CACHE_DIR_PREFIX);
}

/** compileGlob, a refusal naming the spec file. */
function specGlob(file: SpecFile, glob: string): PathTest {
  try {
    return compileGlob(glob);
  } catch (e) {
    if (e instanceof GlobError) throw new GlobError(e.glob, e.reason, file.path);
    throw e;
  }
}

function compileSpec(file: SpecFile): CompiledSpec {
  const rules: Rule[] = [];
  const categories: string[] = [];
  const data = file.data;
  if (data !== null) {
    for (const [category, entries] of Object.entries(data.artifacts)) {
      categories.push(category);
      for (const entry of entries) rules.push({ category, glob: entry.path, test: specGlob(file, entry.path) });
    }
  }
  return { path: file.path, rules, excludes: (data?.exclude ?? []).map((g) => specGlob(file, g)), categories };
}

/**
 * Governance of `specs`. `audit`: where the configuration puts the audit records
 * (`workspace.ledger`, `workspace.archive` of `.notarai/config.yaml`; the
 * defaults when not given — `loadSpecContext` reads the repository's).
 */
export function buildGovernance(specs: SpecSet, audit: AuditLocations = DEFAULT_AUDIT_LOCATIONS): Governance {
  const compiled = specs.files.map(compileSpec);
  const byPath = new Map(compiled.map((c) => [c.path, c]));
  const system = specs.system;
  const systemExcludes = system?.data ? (system.data.exclude ?? []).map((g) => specGlob(system, g)) : [];
  const auditKind = auditTest(audit);
  const isExcluded = (path: string): boolean => isInternalPath(path) || auditKind(path) !== null || systemExcludes.some((t) => t(path));
  const governsCompiled = (c: CompiledSpec, path: string, excluded: boolean): Governor | null => {
    if (path === c.path) return { spec_path: c.path, glob: c.path, category: SELF_CATEGORY };
    if (excluded) return null;
    for (const r of c.rules) {
      if (r.test(path)) return c.excludes.some((t) => t(path)) ? null : { spec_path: c.path, glob: r.glob, category: r.category };
    }
    return null;
  };
  return {
    specPaths: compiled.map((c) => c.path),
    systemSpecPath: specs.system?.path ?? null,
    governorsOf(path) {
      if (isInternalPath(path)) return [];
      const excluded = isExcluded(path);
      const out: Governor[] = [];
      for (const c of compiled) {
        const g = governsCompiled(c, path, excluded);
        if (g !== null) out.push(g);
      }
      return out;
    },
    governs(specPath, path) {
      const c = byPath.get(specPath);
      if (c === undefined || isInternalPath(path)) return null;
      return governsCompiled(c, path, isExcluded(path));
    },
    categoryTest(specPath) {
      const c = byPath.get(specPath);
      if (c === undefined) return () => null;
      const rules = c.rules;
      const excludes = c.excludes;
      return (path) => {
        if (isInternalPath(path)) return null;
        if (path === c.path) return SELF_CATEGORY;
        if (systemExcludes.length > 0 && isExcluded(path)) return null;
        // The audit test only where a glob matched: the warm path walks every file git lists.
        for (const r of rules) if (r.test(path)) return (excludes.length > 0 && excludes.some((t) => t(path))) || auditKind(path) !== null ? null : r.category;
        return null;
      };
    },
    isExcluded,
    auditKind,
    categoriesOf(specPath) {
      return byPath.get(specPath)?.categories ?? [];
    },
  };
}
