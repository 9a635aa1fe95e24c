/**
 * The editors a repository is set up for, where that is cheap to tell (one `stat` each): a
 * `.vscode/` directory (VS Code), a project-local `.nvim.lua` (Neovim's `exrc`), a `.helix/`
 * directory (Helix), a `.zed/` directory (Zed). For each, whether its project configuration
 * already starts our language server, and if not the line that does (docs/lsp.md has the
 * whole set-up of each). `init` prints them; it never edits an editor's file (those are the
 * user's, often JSON with comments or Lua).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export type Editor = "vscode" | "neovim" | "helix" | "zed";

export interface DetectedEditor {
  editor: Editor;
  /** The repository-relative path that gave it away. */
  marker: string;
  /** The project file that would start the server (may not exist yet). */
  file: string;
  /** That file already names `noma-reconcile` with `lsp`. */
  configured: boolean;
  /** What to add (or, for Zed, what is missing), in one line; the docs anchor at the end. */
  advice: string;
}

export const EDITOR_NAMES: Record<Editor, string> = { vscode: "VS Code", neovim: "Neovim", helix: "Helix", zed: "Zed" };

interface EditorRule {
  editor: Editor;
  marker: string;
  dir: boolean;
  file: string;
  advice: string;
}

const RULES: readonly EditorRule[] = [
  {
    editor: "vscode",
    marker: ".vscode",
    dir: true,
    file: ".vscode/settings.json",
    advice:
      'with a generic LSP client extension (zsol.vscode-glspc), add to .vscode/settings.json: "glspc.server.command": "npx", ' +
      '"glspc.server.commandArguments": ["noma-reconcile", "lsp", "--stdio"] (docs/lsp.md#vs-code)',
  },
  {
    editor: "neovim",
    marker: ".nvim.lua",
    dir: false,
    file: ".nvim.lua",
    advice:
      'add to .nvim.lua: vim.lsp.config("noma_reconcile", { cmd = { "npx", "noma-reconcile", "lsp", "--stdio" }, ' +
      'filetypes = { "noma", "yaml", "json" } }) vim.lsp.enable("noma_reconcile") (docs/lsp.md#neovim)',
  },
  {
    editor: "helix",
    marker: ".helix",
    dir: true,
    file: ".helix/languages.toml",
    advice:
      'add to .helix/languages.toml: [language-server.noma-reconcile] command = "npx" args = ["noma-reconcile", "lsp", "--stdio"], ' +
      "and a [[language]] noma using it (docs/lsp.md#helix)",
  },
  {
    editor: "zed",
    marker: ".zed",
    dir: true,
    file: ".zed/settings.json",
    advice: "Zed starts a server only through an extension, and there is no noma-reconcile extension yet (docs/lsp.md#zed)",
  },
];

function isKind(abs: string, dir: boolean): boolean {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st !== undefined && (dir ? st.isDirectory() : st.isFile());
}

/** Whether the file names our server: `noma-reconcile` and `lsp` on one line (a command and its arguments). */
function startsServer(abs: string): boolean {
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch {
    return false;
  }
  return text.split("\n").some((line) => line.includes("noma-reconcile") && /\blsp\b/.test(line));
}

export function detectEditors(root: string): DetectedEditor[] {
  const out: DetectedEditor[] = [];
  for (const r of RULES) {
    if (!isKind(join(root, r.marker), r.dir)) continue;
    out.push({ editor: r.editor, marker: r.dir ? `${r.marker}/` : r.marker, file: r.file, configured: startsServer(join(root, r.file)), advice: r.advice });
  }
  return out;
}
