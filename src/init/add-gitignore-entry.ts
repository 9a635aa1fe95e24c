/**
 * Add an ignore entry to a `.gitignore` text (pure), unless a line already
 * says the same (with or without a leading `/`, a trailing `/`, `/*` or `/**`).
 * Keeps the file's line breaks; appends after a blank-free final newline.
 */
export interface GitignoreEdit {
  text: string;
  changed: boolean;
}

function normalize(pattern: string): string {
  return pattern
    .trim()
    .replace(/^\//, "")
    .replace(/\/\*\*?$/, "")
    .replace(/\/$/, "");
}

export function addGitignoreEntry(text: string | null, entry: string, comment?: string): GitignoreEdit {
  const current = text ?? "";
  const wanted = normalize(entry);
  const lines = current.split(/\r?\n/);
  if (lines.some((l) => !l.trimStart().startsWith("#") && !l.trimStart().startsWith("!") && normalize(l) === wanted && wanted.length > 0)) {
    return { text: current, changed: false };
  }
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const sep = current.length === 0 || current.endsWith("\n") ? "" : eol;
  const block = `${comment !== undefined ? `# ${comment}${eol}` : ""}${entry}${eol}`;
  return { text: `${current}${sep}${block}`, changed: true };
}
