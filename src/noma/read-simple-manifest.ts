/**
 * Book manifests of the usual shape, read without the YAML library: a `chapters:` block list
 * of `.noma` paths (`- 01-intro.noma`, or `- file: 01-intro.noma`), and around it keys the
 * frontmatter reader takes (yaml-frontmatter-fast.ts: `title: …`). A path of letters, digits,
 * `_`, `.`, `/` and `-` that ends in `.noma` is a string to YAML whatever it starts with
 * (chapter files usually start with a number, which the frontmatter reader leaves to the
 * library). Anything else — comments, tabs, CRs, escapes, other item shapes, a line it does
 * not place — returns `undefined` and the library reads the manifest. A property test
 * requires the library's value wherever this reader answers.
 */
import { readSimpleFrontmatter } from "./yaml-frontmatter-fast.js";

const PATH = /^[A-Za-z0-9_][A-Za-z0-9_./-]*\.noma$/;
const ITEM = /^( *)- +(file: +)?([^ ]+) *$/;

/** The manifest's mapping, or `undefined` when the YAML library must read it. */
export function readSimpleManifest(text: string): Record<string, unknown> | undefined {
  if (/[\t\r#\\]/.test(text)) return undefined;
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^chapters: *$/.test(l));
  if (at === -1) return undefined;
  const chapters: unknown[] = [];
  let indent = -1;
  let end = at + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    if (/^ *$/.test(line)) continue;
    const m = ITEM.exec(line);
    if (m === null) break;
    if (indent === -1) indent = m[1]!.length;
    else if (m[1]!.length !== indent) return undefined;
    if (!PATH.test(m[3]!)) return undefined;
    chapters.push(m[2] !== undefined ? { file: m[3] } : m[3]);
  }
  if (chapters.length === 0) return undefined;
  const rest = [...lines.slice(0, at), ...lines.slice(end)];
  let out: Record<string, unknown> = {};
  if (rest.some((l) => !/^ *$/.test(l))) {
    const other = readSimpleFrontmatter(rest.join("\n"));
    if (other === undefined || Object.hasOwn(other, "chapters")) return undefined;
    out = other;
  }
  out["chapters"] = chapters;
  return out;
}
