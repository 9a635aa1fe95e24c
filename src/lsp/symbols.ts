/**
 * Symbols: a document's outline (its sections, nested as they fold, and every directive that
 * carries an id, under the section or directive it is in) and the workspace's (every id of
 * every `.noma` document the repository holds: git's tracked and untracked files, open ones
 * as typed). Workspace symbols are remembered per file while its text is the same.
 */
import { join } from "node:path";
import { type DocumentSymbol, SymbolKind, type SymbolInformation } from "vscode-languageserver/node";
import type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { lineText } from "../noma/parse-noma.js";
import { idSite, idBlocks } from "../validate/reference-sites.js";
import { statSync } from "node:fs";
import { listFiles } from "../git/list-files.js";
import { readTextFile } from "../fsx/read-text-file.js";
import { parseNoma } from "../noma/parse-noma.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { pathUri } from "./lsp-uri.js";
import { spanRange, type Navigation } from "./navigation.js";
import type { WorkspaceRoot } from "./workspace-root.js";

/** How a directive shows in an outline. */
function directiveKind(name: string): SymbolKind {
  if (name === "dataset" || name === "table") return SymbolKind.Array;
  if (name === "claim" || name === "requirement" || name === "invariant") return SymbolKind.Property;
  if (name === "evidence" || name === "counterevidence" || name === "citation") return SymbolKind.Field;
  return SymbolKind.Object;
}

function kindOf(block: SectionNode | DirectiveNode): SymbolKind {
  return block.type === "section" ? SymbolKind.Namespace : directiveKind(block.name);
}

function nameOf(block: SectionNode | DirectiveNode): { name: string; detail: string } {
  if (block.type === "section") return { name: block.title.length > 0 ? block.title : (block.id ?? "(untitled)"), detail: `#${block.id ?? ""}` };
  return { name: block.id ?? `::${block.name}`, detail: `::${block.name}` };
}

export function documentSymbols(doc: NomaDocument): DocumentSymbol[] {
  const symbol = (b: SectionNode | DirectiveNode): DocumentSymbol => {
    const last = Math.max(b.pos.line, b.endLine);
    const { name, detail } = nameOf(b);
    return {
      name,
      detail,
      kind: kindOf(b),
      range: { start: { line: b.pos.line - 1, character: 0 }, end: { line: last - 1, character: lineText(doc, last - 1).length } },
      selectionRange: spanRange(idSite(doc, b)),
      children: [],
    };
  };
  const visit = (nodes: readonly BlockNode[], into: DocumentSymbol[]): void => {
    for (const n of nodes) {
      if (n.type === "section") {
        const s = symbol(n);
        into.push(s);
        visit(n.children, s.children!);
      } else if (n.type === "directive") {
        if (n.id !== undefined) {
          const s = symbol(n);
          into.push(s);
          visit(n.children, s.children!);
        } else visit(n.children, into);
      }
    }
  };
  const out: DocumentSymbol[] = [];
  visit(doc.children, out);
  return out;
}

/** Most symbols a workspace query answers with. */
export const MAX_WORKSPACE_SYMBOLS = 5000;

interface Entry {
  names: string[];
  symbol: SymbolInformation;
}

/** The ids of each document, remembered while the file (size, modification time) or the open buffer (its version) is the same. */
export class WorkspaceIds {
  private readonly byFile = new Map<string, { key: string; entries: Entry[] }>();

  constructor(private readonly nav: Navigation) {}

  private entries(root: WorkspaceRoot, rel: string): Entry[] {
    const abs = join(root.root, rel);
    const open = this.nav.session.documentAt(abs);
    let key: string;
    if (open !== undefined) key = `open ${open.uri} ${open.version}`;
    else {
      try {
        const st = statSync(abs);
        key = `disk ${st.size} ${st.mtimeMs}`;
      } catch {
        return [];
      }
    }
    const hit = this.byFile.get(abs);
    if (hit !== undefined && hit.key === key) return hit.entries;
    let doc: NomaDocument;
    if (open !== undefined && open.kind === "document") doc = open.noma().current();
    else {
      try {
        doc = parseNoma(readTextFile(abs));
      } catch {
        return [];
      }
    }
    const uri = open?.uri ?? pathUri(abs);
    const entries = idBlocks(doc).map((b) => ({
      names: [b.id!, ...b.aliases.filter((a) => a !== b.id)].map((n) => n.toLowerCase()),
      symbol: {
        name: b.id!,
        kind: kindOf(b),
        location: { uri, range: spanRange(idSite(doc, b)) },
        containerName: `${rel} ${b.type === "section" ? `# ${b.title}` : `::${b.name}`}`,
      },
    }));
    this.byFile.set(abs, { key, entries });
    return entries;
  }

  /** Every id (or alias) of the repositories' documents that holds the query's characters in order, case ignored. */
  search(roots: readonly WorkspaceRoot[], query: string): SymbolInformation[] {
    const q = query.toLowerCase();
    const matches = (name: string): boolean => {
      let k = 0;
      for (let i = 0; i < name.length && k < q.length; i++) if (name[i] === q[k]) k++;
      return k === q.length;
    };
    const out: SymbolInformation[] = [];
    for (const root of roots) {
      if (!root.inRepo) continue;
      const files = listFiles(root.root, { untracked: "also", pathspecs: ["*.noma"] }).filter((f) => checkedPathKind(f) === "document");
      for (const rel of [...new Set(files)].sort()) {
        for (const e of this.entries(root, rel)) {
          if (!e.names.some(matches)) continue;
          out.push(e.symbol);
          if (out.length >= MAX_WORKSPACE_SYMBOLS) return out;
        }
      }
    }
    return out;
  }
}
