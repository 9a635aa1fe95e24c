/**
 * `noma-reconcile ids <file>`: canonical ids (document order) and the alias map.
 */
import { formatJsonEnvelope } from "../../report/json-envelope.js";
import { idSummary } from "../../noma/walk.js";
import type { CliIO } from "../cli-io.js";
import { choice } from "../repo-context.js";
import { loadDocumentArg } from "./load-document.js";

export async function idsCommand(file: string, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], ["text", "json"] as const);
  const loaded = loadDocumentArg(file, io.cwd);
  let ids: string[];
  let aliasMap: Map<string, string>;
  let byId: Record<string, string[]>;
  if (loaded.kind === "book") {
    ids = loaded.book.ids;
    aliasMap = loaded.book.aliasMap;
    byId = {};
    for (const [alias, id] of aliasMap) (byId[id] ??= []).push(alias);
    for (const e of loaded.book.errors) io.stderr(`${loaded.file}: ${e.message}\n`);
  } else {
    ids = loaded.doc.ids;
    aliasMap = loaded.doc.aliasMap;
    byId = idSummary(loaded.doc).aliases;
  }
  if (format === "json") {
    io.stdout(
      formatJsonEnvelope("ids", {
        ok: true,
        summary: { ids: ids.length, aliases: aliasMap.size },
        result: { canonical: ids, aliases: byId, aliasMap: Object.fromEntries(aliasMap) },
      }),
    );
  } else {
    const lines = ids.map((id) => (byId[id] !== undefined && byId[id]!.length > 0 ? `${id}  (aliases: ${byId[id]!.join(", ")})` : id));
    io.stdout(lines.length > 0 ? `${lines.join("\n")}\n` : "");
    if (lines.length === 0) io.stderr("No ids in this document.\n");
  }
  return 0;
}
