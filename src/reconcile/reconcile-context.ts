/**
 * What every reconciliation tool shares: options, path arguments, the spec
 * context's checks, reconciliation lookups and persisting what a read learnt.
 * Light on purpose (no YAML, no schemas): loading specs is
 * `load-spec-context.ts` (or its cached twin), reading records with the
 * snapshot's seed is `read-reconciliation.ts`. Internal to src/reconcile; the
 * tools are the API.
 */
import { containPath, PathOutsideRepoError, type PathContainment } from "../fsx/contain-path.js";
import { ANY_SPEC } from "../cache/cache-tables.js";
import type { CacheRead } from "../cache/read-cache.js";
import { writeCache, type CacheWrite } from "../cache/write-cache.js";
import type { AuditLocations } from "../governance/audit-paths.js";
import type { Governance } from "../governance/governance.js";
import type { SpecSet } from "../governance/load-specs.js";
import { formatSpecProblem } from "../governance/spec-problem.js";
import type { SpecFile } from "../governance/validate-spec-text.js";
import { ReconcileError } from "./reconcile-error.js";

export interface ToolOptions {
  /** Called with each warning (cold or unreadable cache, invalid specs, foreign snapshot). The CLI prints them on stderr. */
  onWarning?: (message: string) => void;
  /** Never write the cache (the hash memo is otherwise persisted after reads). */
  readOnly?: boolean;
  /**
   * Where the audit records live (never governed); default: as the work tree's
   * `.notarai/config.yaml` says. A caller judging another source (the PR check
   * at HEAD) passes the locations of the configuration it read.
   */
  audit?: AuditLocations;
}

export interface SpecContext {
  root: string;
  specs: SpecSet;
  governance: Governance;
}

/** One warning per invalid spec (it still governs its own file). */
export function warnSpecProblems(specs: SpecSet, options: ToolOptions): void {
  for (const f of specs.files) {
    if (f.problems.length > 0) {
      const first = f.problems[0]!;
      options.onWarning?.(
        `invalid spec ${formatSpecProblem(first)}` +
          `${f.problems.length > 1 ? ` (+${f.problems.length - 1} more; run \`noma-reconcile specs validate\`)` : ""}` +
          `${f.data === null ? "; it governs only its own file" : ""}`,
      );
    }
  }
}

/** A path argument as a repository-relative POSIX path; ReconcileError when it leaves the repository. */
export function repoPath(root: string, given: string, containment?: PathContainment): string {
  try {
    return containment !== undefined ? containment.contain(given, root) : containPath(given, root, root);
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new ReconcileError("path-outside-repo", `${given}: path is outside the repository`);
    throw e;
  }
}

/** The spec at `specPath` (repository-relative); errors name the known specs. */
export function requireSpec(ctx: SpecContext, specPath: string, options: { requireData?: boolean } = {}): SpecFile {
  const rel = repoPath(ctx.root, specPath);
  const spec = ctx.specs.byPath.get(rel);
  if (spec === undefined) {
    const known = ctx.specs.files.map((f) => f.path);
    throw new ReconcileError(
      "unknown-spec",
      `${specPath}: not a spec file of this repository (known specs: ${known.length > 0 ? known.join(", ") : "none; specs live in .notarai/**/*.spec.yaml"})`,
    );
  }
  if (options.requireData === true && spec.data === null) {
    const first = spec.problems[0];
    throw new ReconcileError(
      "invalid-spec",
      `${rel} is invalid, so which files it governs is unknown: ${first !== undefined ? formatSpecProblem(first) : "unknown problem"} (run ` +
        `\`noma-reconcile specs validate\`)`,
    );
  }
  return spec;
}

/** Whether `hash` is a reconciled hash of `path` for `spec` (its own record, or a record valid for every spec). */
export function isReconciled(cache: CacheRead, spec: string, path: string, hash: string | null): boolean {
  if (hash === null) return false;
  return cache.reconciled.get(spec)?.get(path)?.hash === hash || cache.reconciled.get(ANY_SPEC)?.get(path)?.hash === hash;
}

/** The index blob id recorded with `path`'s reconciliation for `spec` (own record first), or null. */
export function reconciledBlob(cache: CacheRead, spec: string, path: string): string | null {
  return cache.reconciled.get(spec)?.get(path)?.blob ?? cache.reconciled.get(ANY_SPEC)?.get(path)?.blob ?? null;
}

/** The hash `path` was reconciled at for `spec`, or null. */
export function reconciledHash(cache: CacheRead, spec: string, path: string): string | null {
  return cache.reconciled.get(spec)?.get(path)?.hash ?? cache.reconciled.get(ANY_SPEC)?.get(path)?.hash ?? null;
}

/**
 * Persist what a read learnt (hash memo), with the snapshot seed the read used
 * (`seed`), unless read-only or nothing new (`force`: write anyway, e.g. to
 * prune or to migrate an older schema). Failures become warnings.
 */
export async function persistMemo(root: string, seed: ReadonlyMap<string, string> | null, w: CacheWrite, options: ToolOptions, force = false): Promise<void> {
  if (options.readOnly === true) return;
  const nothing = (w.blobHashes?.size ?? 0) === 0 && (w.statHashes?.size ?? 0) === 0;
  if (nothing && !force) return;
  try {
    const r = await writeCache(root, { ...w, seed });
    if (r.warning !== null) options.onWarning?.(r.warning);
  } catch (e) {
    options.onWarning?.(`could not update the hash cache (${(e as Error).message}); results are unaffected`);
  }
}
