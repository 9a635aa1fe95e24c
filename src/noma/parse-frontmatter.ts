/**
 * A document's frontmatter: a `---` line first, up to the next `---` line. The
 * usual shapes are read without the YAML library (yaml-frontmatter-fast.ts);
 * anything else goes to it, and what it rejects is a problem, never a throw.
 */
import { yamlLib } from "../yaml/yaml-lib.js";
import type { FrontmatterNode, ParseProblem } from "./ast.js";
import type { LineIndex } from "./index-lines.js";
import { readSimpleFrontmatter } from "./yaml-frontmatter-fast.js";

/** A frontmatter fence line. */
export const FRONTMATTER_FENCE = /^---[ \t]*$/;

/** The frontmatter of the indexed text `src`, or undefined when it has none; problems go to `problems`. */
export function parseFrontmatter(src: string, index: LineIndex, problems: ParseProblem[]): FrontmatterNode | undefined {
  const { starts, ends } = index;
  const n = ends.length;
  const textOf = (i: number): string => src.slice(starts[i], ends[i]);
  if (n < 2 || !FRONTMATTER_FENCE.test(textOf(0))) return undefined;
  let close = -1;
  for (let i = 1; i < n; i++) {
    if (src.charCodeAt(starts[i]!) === 45 && FRONTMATTER_FENCE.test(textOf(i))) {
      close = i;
      break;
    }
  }
  if (close === -1) return undefined;
  const rawLines: string[] = [];
  for (let i = 1; i < close; i++) rawLines.push(textOf(i));
  const raw = rawLines.join("\n");
  let data: unknown = readSimpleFrontmatter(raw);
  if (data !== undefined) return { type: "frontmatter", raw, data, pos: { line: 1, column: 1 }, endLine: close + 1 };
  try {
    const doc = yamlLib().parseDocument(raw, { prettyErrors: true, uniqueKeys: true });
    if (doc.errors.length > 0) {
      // The first error is the cause; YAML's follow-on errors only repeat it.
      for (const err of doc.errors.slice(0, 1)) {
        const at = err.linePos?.[0];
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter is not valid YAML: ${err.message.split("\n")[0]}`,
          line: at !== undefined ? at.line + 1 : 2,
          column: at !== undefined ? at.col : 1,
        });
      }
    } else {
      data = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data))) {
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter must be a YAML mapping; found ${Array.isArray(data) ? "a list" : `a ${typeof data}`}.`,
          line: 2,
          column: 1,
        });
        data = undefined;
      }
    }
  } catch (e) {
    problems.push({
      severity: "error",
      code: "invalid-frontmatter",
      message: `Frontmatter is not valid YAML: ${(e as Error).message.split("\n")[0]}`,
      line: 2,
      column: 1,
    });
    data = undefined;
  }
  return { type: "frontmatter", raw, data, pos: { line: 1, column: 1 }, endLine: close + 1 };
}
