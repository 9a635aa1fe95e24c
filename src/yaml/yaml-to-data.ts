/**
 * A parsed YAML document as plain data, safely: aliases are bounded (a
 * "billion laughs" file — anchors aliased exponentially — would otherwise
 * make every later walk of the data explode), and every failure of the
 * conversion is a position and a message, never a throw. Used for the
 * configuration, specs and capability sidecars.
 * @see https://eemeli.org/yaml/#tojs-options (maxAliasCount)
 */
import type { Document, LineCounter } from "yaml";
import { yamlLib } from "./yaml-lib.js";

/** Alias resolutions allowed (yaml counts each alias times the aliases inside its anchor). */
export const MAX_ALIAS_COUNT = 100;
/** Alias resolutions allowed in a spec file (validate-spec-text.ts) and in the hook managers' files init edits. */
export const SPEC_MAX_ALIAS_COUNT = 1000;

export type YamlData = { ok: true; data: unknown } | { ok: false; line: number; column: number; message: string };

export function yamlToData(doc: Document, lc: LineCounter, maxAliasCount = MAX_ALIAS_COUNT): YamlData {
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount }) as unknown };
  } catch (e) {
    // The conversion says what, not where: point at the first alias (the expansion starts there).
    let offset = 0;
    const { isAlias, visit } = yamlLib();
    visit(doc, {
      Alias(_key, node) {
        if (isAlias(node) && node.range !== undefined && node.range !== null) offset = node.range[0];
        return visit.BREAK;
      },
    });
    const p = lc.linePos(offset);
    const message = (e as Error).message.startsWith("Excessive alias count")
      ? `YAML aliases expand too far (more than ${maxAliasCount} alias resolutions: a "billion laughs" document?); write the values out instead of ` +
        `aliasing them`
      : `not valid YAML: ${(e as Error).message.split("\n")[0]}`;
    return { ok: false, line: p.line, column: p.col, message };
  }
}
