/**
 * The evidence ledger is committed (docs/workspace.md), so what we write into it names no
 * local path: in the texts we compose (`message`, `executable`), a path under the repository
 * becomes repository-relative (the root itself `.`), a path under the home directory `~/…`.
 * What a request asked (its `path`, a command's `args`) is recorded as given: that is the
 * evidence. Pure.
 */

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every whole-path occurrence of `dir` in `text` (not `/a/b` inside `/a/bc`): `dir/x` → `under + x`, `dir` alone → `alone`. */
function replaceDir(text: string, dir: string, under: string, alone: string): string {
  if (dir.length <= 1 || !text.includes(dir)) return text;
  return text.replace(new RegExp(`${escapeRegExp(dir)}(/|(?![\\w.-]))`, "g"), (_m, slash: string) => (slash === "/" ? under : alone));
}

/** `text` with the repository root and the home directory written portably. */
export function portableText(text: string, root: string, home: string | undefined): string {
  const relative = replaceDir(text, root, "", ".");
  return home === undefined ? relative : replaceDir(relative, home, "~/", "~");
}

/** The details of a ledger line with the fields we compose made portable (portableText). */
export function portableDetails(details: Record<string, unknown>, root: string, home: string | undefined): Record<string, unknown> {
  const out = { ...details };
  for (const key of ["message", "executable"]) {
    const value = out[key];
    if (typeof value === "string") out[key] = portableText(value, root, home);
  }
  return out;
}
