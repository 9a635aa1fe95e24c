/**
 * What the server keeps per repository: where it is, the texts of its files (the editor's
 * buffer when the file is open, else the file on disk), its book manifests (listed through
 * git once, again when a manifest is opened, saved or changes on disk), its configuration,
 * and the specs with their governance (for the governance lens; reloaded when a spec file
 * or the configuration changes). Documents outside every repository are judged alone.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { BookContext } from "../check/book-context.js";
import { ChapterNames } from "../check/book-names.js";
import { listBookManifests } from "../check/list-noma-files.js";
import { worktreeBeside } from "../check/worktree-lookups.js";
import type { NomaConfig } from "../config/config-defaults.js";
import { loadConfigLazy } from "../config/load-config-lazy.js";
import { containPath } from "../fsx/contain-path.js";
import { findRepoRoot } from "../git/find-repo-root.js";
import type { SpecContext } from "../reconcile/reconcile-context.js";
import { DiskTexts } from "./disk-texts.js";

export class WorkspaceRoot {
  private manifests: string[] | undefined;
  private config: Promise<NomaConfig> | undefined;
  private specs: SpecContext | undefined;
  /** Chapter names by text, shared by every book lookup of this repository. */
  readonly names = new ChapterNames();

  constructor(
    readonly root: string,
    readonly inRepo: boolean,
    readonly disk: DiskTexts,
    /** The editor's text of an open file (absolute path), or undefined. */
    private readonly buffer: (abs: string) => string | undefined,
  ) {}

  /** A repository-relative path's text: the editor's buffer, else the file on disk; null when there is none (or it leaves the repository). */
  read(rel: string): string | null {
    let inside: string;
    try {
      inside = containPath(rel, this.root, this.root);
    } catch {
      return null;
    }
    const abs = join(this.root, inside);
    return this.buffer(abs) ?? this.disk.read(abs);
  }

  /** The books of this repository as the editor sees them (open chapters as typed); new for each judgement, the names cached across. */
  books(): BookContext {
    return new BookContext(
      {
        read: (p) => this.read(p),
        resolve: worktreeBeside(this.root),
        manifests: () => (this.manifests ??= this.inRepo ? listBookManifests(this.root, true) : []),
      },
      this.names,
    );
  }

  /** The configuration (`.notarai/config.yaml`, defaults without one); a broken one reads as the defaults, its problems shown on it. */
  configuration(): Promise<NomaConfig> {
    this.config ??= loadConfigLazy({ cwd: this.root, read: (p) => (this.inRepo ? this.read(p) : null) }).catch(() =>
      loadConfigLazy({ cwd: this.root, read: () => null }),
    );
    return this.config;
  }

  /** The specs and their governance, loaded on first use (YAML, the schemas). */
  async specContext(): Promise<SpecContext> {
    if (this.specs === undefined) {
      const { loadSpecContext } = await import("../reconcile/load-spec-context.js");
      this.specs = loadSpecContext(this.root);
    }
    return this.specs;
  }

  /** A file changed (saved, created, deleted, renamed): drop what depends on it. */
  changed(rel: string): void {
    if (/\.noma\.ya?ml$/i.test(rel)) this.manifests = undefined;
    if (rel.startsWith(".notarai/")) {
      this.config = undefined;
      this.specs = undefined;
    }
  }
}

/** Finds and keeps the repository of each directory a document is in. */
export class WorkspaceRoots {
  private readonly byDir = new Map<string, WorkspaceRoot | null>();
  private readonly byRoot = new Map<string, WorkspaceRoot>();
  readonly disk = new DiskTexts();

  constructor(
    private readonly buffer: (abs: string) => string | undefined,
    /** Told when git fails on a folder (dubious ownership, git missing): said, never read as "outside every repository". */
    private readonly warn: (line: string) => void = () => {},
  ) {}

  /** The repository holding `abs` (a new file in a folder not made yet: the folder's nearest existing parent's), or null outside every repository. */
  of(abs: string): WorkspaceRoot | null {
    let dir = dirname(abs);
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
    let r = this.byDir.get(dir);
    if (r === undefined) {
      let top: string | null;
      try {
        top = findRepoRoot(dir);
      } catch (e) {
        // Judged alone this time, and said; not remembered, so the next judgement asks git again.
        this.warn(`${dir}: git failed, so its documents are judged alone (no book, no governance): ${(e as Error).message}`);
        return null;
      }
      r = top === null ? null : this.rootAt(top, true);
      this.byDir.set(dir, r);
    }
    return r;
  }

  /** The state of the repository at `top`. */
  rootAt(top: string, inRepo: boolean): WorkspaceRoot {
    let r = this.byRoot.get(top);
    if (r === undefined) this.byRoot.set(top, (r = new WorkspaceRoot(top, inRepo, this.disk, this.buffer)));
    return r;
  }

  all(): WorkspaceRoot[] {
    return [...this.byRoot.values()];
  }
}
