/**
 * Book manifests (`*.noma.yml`, §2.3): a YAML list of chapter files assembled
 * into one tree. Scoping is a parse-time concept only: inside a chapter, every
 * section id at heading depth ≥ 2 becomes `<chapter-slug>/<id>` and keeps the
 * unscoped id as an alias; the chapter's root section gets the filename slug
 * as an alias. Book manifests are never patch targets.
 *
 * Manifest shape:
 *   title: My Book          # optional
 *   chapters:               # required, in order
 *     - 01-intro.noma       # a path relative to the manifest
 *     - file: 02-risks.noma # or an object with `file`
 */
import { yamlLib } from "../yaml/yaml-lib.js";
import { readSimpleManifest } from "./read-simple-manifest.js";
import type { DirectiveNode, NomaDocument, SectionNode } from "./ast.js";
import { parseNoma } from "./parse-noma.js";
import { slugify } from "./slugify.js";
import { walkBlocks } from "./walk.js";

export interface BookChapter {
  /** Path as written in the manifest (relative to it). */
  file: string;
  /** Basename without `.noma` and without a leading `NN-`/`NN_`, slugified. */
  slug: string;
  doc: NomaDocument;
  /** Scoped id → unscoped id for every section id that was scoped. */
  scoped: Map<string, string>;
}

export interface BookManifestError {
  message: string;
  line?: number;
}

export interface Book {
  title?: string;
  chapters: BookChapter[];
  errors: BookManifestError[];
  /** Every id of the assembled tree (scoped where scoping applies), in order. */
  ids: string[];
  /** Alias → canonical (scoped) id across the book. */
  aliasMap: Map<string, string>;
}

/** `02-risks.noma` → `risks`. */
export function chapterSlug(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return slugify(base.replace(/\.noma$/i, "").replace(/^\d+[-_]/, ""));
}

/** The chapter paths a manifest lists, or errors explaining what is wrong with it. */
export function parseBookManifest(text: string): { title?: string; files: string[]; errors: BookManifestError[] } {
  // The usual shape (`title:`, a `chapters:` block list of paths) is read without the YAML library.
  let data: unknown = readSimpleManifest(text);
  if (data === undefined) {
    try {
      data = yamlLib().parse(text);
    } catch (e) {
      const err = e as Error & { linePos?: Array<{ line: number }> };
      return { files: [], errors: [{ message: `Book manifest is not valid YAML: ${err.message.split("\n")[0]}`, line: err.linePos?.[0]?.line }] };
    }
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { files: [], errors: [{ message: "Book manifest must be a YAML mapping with a `chapters:` list." }] };
  }
  const record = data as Record<string, unknown>;
  const chapters = record["chapters"];
  if (!Array.isArray(chapters)) {
    return { files: [], errors: [{ message: "Book manifest needs a `chapters:` list of chapter files." }] };
  }
  const files: string[] = [];
  const errors: BookManifestError[] = [];
  chapters.forEach((entry, i) => {
    const file = typeof entry === "string" ? entry : entry !== null && typeof entry === "object" ? (entry as Record<string, unknown>)["file"] : undefined;
    if (typeof file !== "string" || file.length === 0) {
      errors.push({ message: `chapters[${i}]: expected a file path or {file: path}, found ${JSON.stringify(entry)}.` });
    } else {
      files.push(file);
    }
  });
  const title = typeof record["title"] === "string" ? (record["title"] as string) : undefined;
  return title !== undefined ? { title, files, errors } : { files, errors };
}

/**
 * One chapter parsed in book mode (§2.3): section ids at heading depth ≥ 2 become
 * `<slug>/<id>` (the unscoped id kept as an alias) and the filename slug is an alias of the
 * root section. `visit` sees every section and directive that carries an id, in order, after
 * scoping. Used for a whole book (`parseBook`) and, one chapter at a time, by `check`'s
 * book context.
 */
export function parseChapter(file: string, text: string, visit?: (node: SectionNode | DirectiveNode) => void): BookChapter {
  const slug = chapterSlug(file);
  const doc = parseNoma(text, slug.length > 0 ? { rootAliases: [slug] } : {});
  const scoped = new Map<string, string>();
  walkBlocks(doc, (node) => {
    if (node.type === "section" && node.depth >= 2 && node.id !== undefined && slug.length > 0) {
      const original = node.id;
      const s = node as SectionNode;
      s.id = `${slug}/${original}`;
      if (!s.aliases.includes(original)) s.aliases = [...s.aliases, original];
      scoped.set(s.id, original);
    }
    if ((node.type === "section" || node.type === "directive") && node.id !== undefined) visit?.(node);
  });
  return { file, slug, doc, scoped };
}

/** Parse a manifest and its chapters (read through `readChapter`, which returns null when a file is missing). */
export function parseBook(manifestText: string, readChapter: (file: string) => string | null): Book {
  const manifest = parseBookManifest(manifestText);
  const errors = [...manifest.errors];
  const chapters: BookChapter[] = [];
  const ids: string[] = [];
  const aliasMap = new Map<string, string>();
  for (const file of manifest.files) {
    const text = readChapter(file);
    if (text === null) {
      errors.push({ message: `Chapter ${file} cannot be read.` });
      continue;
    }
    chapters.push(
      parseChapter(file, text, (node) => {
        ids.push(node.id!);
        for (const a of node.aliases) if (!aliasMap.has(a)) aliasMap.set(a, node.id!);
      }),
    );
  }
  const book: Book = { chapters, errors, ids, aliasMap };
  if (manifest.title !== undefined) book.title = manifest.title;
  return book;
}
