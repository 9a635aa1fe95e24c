/**
 * A workspace: the repository root the tools are confined to, its `workspace:`
 * configuration (`.notarai/config.yaml`), and the checks every path goes through
 * before it is used — text rules and protected paths (path-rules.ts), then
 * containment with symbolic links resolved (PathContainment, fsx/contain-path.ts).
 * What passes is used through pinned-dir.ts, which refuses anything that changed
 * since the check.
 */
import { realpathSync } from "node:fs";
import { join, posix, relative, sep } from "node:path";
import { DEFAULT_WORKSPACE_CONFIG, type WorkspaceConfig } from "../config/config-defaults.js";
import { ConfigError, loadConfig, worktreeReader } from "../config/load-config.js";
import { PathContainment, PathOutsideRepoError } from "../fsx/contain-path.js";
import { isOutside } from "../fsx/is-outside.js";
import { realpathLenient } from "../fsx/realpath-lenient.js";
import { symlinkEscape } from "../fsx/symlink-escape.js";
import { checkPathText, protectedReason, type ProtectedPaths } from "./path-rules.js";
import { WorkspaceError } from "./workspace-error.js";

/** Where the tools' lock files live, repo-relative. */
const LOCK_DIR = ".notarai/.cache/workspace";

export interface WorkspaceOptions {
  /** The server's environment: PATH and `inherit` variables come from here (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Clock (archive month, ledger timestamps). */
  now?: () => Date;
  /** Use this configuration instead of reading `.notarai/config.yaml`. */
  config?: WorkspaceConfig;
  /** Where warnings about the configuration go. */
  onWarning?: (message: string) => void;
  /**
   * How long to wait for a lock (ms; default: the process's lock wait, src/fsx/with-file-lock.ts — lock_timeout of the configuration in the servers,
   * else 15 000).
   */
  lockTimeoutMs?: number;
  /**
   * Called after a path was checked and before it is first used (fault injection: a
   * test swaps a symbolic link in here to prove the swap is caught).
   */
  afterCheck?: (rel: string) => void;
  /** Serve only the tools that read (`--read-only`); the configuration's `workspace.read_only: true` also sets it. */
  readOnly?: boolean;
  /**
   * The client's roots (MCP Roots), as absolute paths: the workspace is then their
   * intersection with the repository. Undefined: the whole repository.
   */
  roots?: readonly string[];
}

export interface CheckedPath {
  /** What the caller gave. */
  given: string;
  /** Real repo-relative POSIX path ("" for the root): symbolic links resolved. */
  rel: string;
  /** Directory part of `rel` ("" at the root). */
  dir: string;
  /** Last component of `rel` ("" for the root). */
  name: string;
}

export class Workspace {
  readonly root: string;
  readonly config: WorkspaceConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly lockTimeoutMs: number | undefined;
  readonly protectedPaths: ProtectedPaths;
  readonly afterCheck: ((rel: string) => void) | undefined;
  /** Only the tools that read are served; the others are refused (`read_only`). */
  readonly readOnly: boolean;
  /**
   * The directories paths must be in (repo-relative, "" for the whole repository): the
   * repository, or its intersection with the client's roots — possibly none at all.
   */
  readonly allowedDirs: readonly string[];
  /** The client's roots as given, when they narrow the workspace (for messages). */
  readonly roots: readonly string[] | undefined;
  private lockDirChecked = false;

  constructor(root: string, config: WorkspaceConfig, options: WorkspaceOptions = {}) {
    this.root = realpathSync(root);
    this.config = config;
    this.env = options.env ?? process.env;
    this.now = options.now ?? (() => new Date());
    this.lockTimeoutMs = options.lockTimeoutMs;
    this.afterCheck = options.afterCheck;
    this.readOnly = options.readOnly === true || config.readOnly === true;
    this.roots = options.roots;
    this.allowedDirs = options.roots === undefined ? [""] : intersectRoots(this.root, options.roots);
    this.protectedPaths = {
      ledger: configPath(config.ledger, "ledger"),
      archive: configPath(config.archive, "archive"),
      allowlist: configPath(config.allowlist, "allowlist"),
    };
  }

  /** Where the tools' lock files live (gitignored with the cache); never through a link leading out of the repository. */
  lockPath(kind: string, key: string): string {
    if (!this.lockDirChecked) {
      const escaped = symlinkEscape(this.root, LOCK_DIR);
      if (escaped !== null)
        throw new WorkspaceError(
          "config_error",
          `${escaped.link} is a symbolic link to ${escaped.target}, outside the repository: the workspace tools keep their locks in ${LOCK_DIR}/ ` +
            `and will not write through it`,
        );
      this.lockDirChecked = true;
    }
    const safe = key.replace(/[^A-Za-z0-9._-]/g, "_").slice(-80);
    const hash = Buffer.from(key.normalize("NFC").toLowerCase()).toString("base64url").slice(0, 16);
    return join(this.root, LOCK_DIR, `${kind}-${hash}-${safe}.lock`);
  }

  /**
   * Check a path argument: its text, containment (symbolic links resolved) and the
   * protected paths (for reading or writing). Returns the real repo-relative path.
   * `containment`: one shared by the paths of one request (it remembers the real paths of
   * the directories it resolved).
   */
  check(given: string, intent: "read" | "write", options: { allowRoot?: boolean; containment?: PathContainment } = {}): CheckedPath {
    checkPathText(given, options.allowRoot === true);
    const lexical = posix
      .normalize(given.startsWith("/") ? given : `./${given}`)
      .replace(/^\.\/?/, "")
      .replace(/\/$/, "");
    const write = intent === "write";
    if (!given.startsWith("/")) {
      const lexicalReason = protectedReason(lexical, this.protectedPaths, write);
      if (lexicalReason !== null && lexical !== "") throw new WorkspaceError("protected_path", lexicalReason);
    }
    let rel: string;
    try {
      rel = (options.containment ?? new PathContainment(this.root)).contain(given === "" ? "." : given, this.root);
    } catch (e) {
      if (e instanceof PathOutsideRepoError)
        throw new WorkspaceError("outside_workspace", `${JSON.stringify(given)}: resolves outside the repository; nothing was read or written`);
      throw e;
    }
    if (!this.allowedDirs.some((d) => d === "" || rel === d || rel.startsWith(`${d}/`)))
      throw new WorkspaceError("outside_workspace", `${JSON.stringify(given)}: ${this.outsideRootsReason()}; nothing was read or written`);
    if (rel !== "" || write) {
      const reason = protectedReason(rel, this.protectedPaths, write);
      if (reason !== null)
        throw new WorkspaceError(
          "protected_path",
          reason === "the repository root is not a file" ? `${JSON.stringify(given)}: the repository root is not a file` : reason,
        );
    }
    const slash = rel.lastIndexOf("/");
    const checked = { given, rel, dir: slash === -1 ? "" : rel.slice(0, slash), name: slash === -1 ? rel : rel.slice(slash + 1) };
    this.afterCheck?.(rel);
    return checked;
  }

  /**
   * Check a path that names a directory entry itself (move_file's source and destination):
   * every rule of `check` applies to what it resolves to (a link leading out is refused),
   * and a symbolic link as its last component is the entry — the link, not its target.
   */
  checkEntry(given: string): CheckedPath {
    const full = this.check(given, "write");
    const lexical = given.length > 1 ? given.replace(/\/+$/, "") : given;
    const slash = lexical.lastIndexOf("/");
    const name = lexical.slice(slash + 1);
    if (name === "" || name === ".") throw new WorkspaceError("protected_path", `${JSON.stringify(given)}: the repository root cannot be moved`);
    const parent = this.check(slash === -1 ? "." : slash === 0 ? "/" : lexical.slice(0, slash), "read", { allowRoot: true });
    const rel = parent.rel === "" ? name : `${parent.rel}/${name}`;
    if (rel === full.rel) return full;
    if (!this.allowedDirs.some((d) => d === "" || rel === d || rel.startsWith(`${d}/`)))
      throw new WorkspaceError("outside_workspace", `${JSON.stringify(given)}: ${this.outsideRootsReason()}; nothing was read or written`);
    const reason = protectedReason(rel, this.protectedPaths, true);
    if (reason !== null) throw new WorkspaceError("protected_path", reason);
    return { given, rel, dir: parent.rel, name };
  }

  /** Why a path inside the repository is still outside the workspace (the client's roots leave it out). */
  outsideRootsReason(): string {
    const roots = (this.roots ?? []).map((r) => JSON.stringify(r)).join(", ");
    if (this.allowedDirs.length === 0) return `outside the client's roots (${roots}): none of them is in the repository (${this.root}), so no path is`;
    return `outside the client's roots: the workspace is ${this.allowedDirs.map((d) => (d === "" ? "the repository root" : d)).join(", ")} (roots ${roots})`;
  }

  /** The absolute directories the tools may use (list_allowed_directories). */
  allowedAbsDirs(): string[] {
    return this.allowedDirs.map((d) => (d === "" ? this.root : join(this.root, d)));
  }
}

/**
 * The repository's part of each root (repo-relative, sorted, none inside another): a root
 * that contains the repository gives all of it (""), one inside it that directory (its real
 * path), one elsewhere nothing.
 */
export function intersectRoots(realRoot: string, roots: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const r of roots) {
    const real = realpathLenient(r);
    if (!isOutside(real, realRoot)) dirs.add("");
    else if (!isOutside(realRoot, real)) dirs.add(relative(realRoot, real).split(sep).join("/"));
  }
  const sorted = [...dirs].sort();
  return sorted.filter((d) => !sorted.some((o) => o !== d && (o === "" || d.startsWith(`${o}/`))));
}

/** A configured path (ledger, archive, allowlist): relative, inside, and not under .git. */
function configPath(value: string, key: string): string {
  try {
    checkPathText(value);
  } catch (e) {
    throw new WorkspaceError("config_error", `.notarai/config.yaml: workspace.${key}: ${(e as Error).message}`);
  }
  if (value.startsWith("/"))
    throw new WorkspaceError("config_error", `.notarai/config.yaml: workspace.${key}: ${JSON.stringify(value)} must be relative to the repository root`);
  const norm = posix.normalize(value).replace(/\/$/, "");
  if (norm === "." || protectedReason(norm, { ledger: "", archive: "", allowlist: "" }, false) !== null)
    throw new WorkspaceError("config_error", `.notarai/config.yaml: workspace.${key}: ${JSON.stringify(value)} is not a usable path`);
  return norm;
}

/** The workspace of the repository at `root`, configured by its work tree's `.notarai/config.yaml`. */
export function openWorkspace(root: string, options: WorkspaceOptions = {}): Workspace {
  let config = options.config;
  if (config === undefined) {
    try {
      config = loadConfig({
        cwd: root,
        read: worktreeReader(root),
        ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}),
      }).workspace;
    } catch (e) {
      if (e instanceof ConfigError) throw new WorkspaceError("config_error", e.message);
      throw e;
    }
  }
  return new Workspace(root, config ?? DEFAULT_WORKSPACE_CONFIG, options);
}
