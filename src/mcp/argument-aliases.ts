/**
 * `file` and `path`: one name per tool, the other accepted. The Noma tools name the
 * document `file` (Annex B), the workspace tools name theirs `path` (NOA); a model that
 * mixes the two up should not be told "unknown argument". The canonical name is the one
 * each tool's input schema lists (and its description says the other is accepted); the
 * alias is renamed to it before validation. Both given with different values is an error;
 * both given with the same value is taken once.
 */
import type { ToolName } from "./tool-catalog.js";

export interface ArgumentAlias {
  canonical: string;
  alias: string;
}

const FILE: ArgumentAlias = { canonical: "file", alias: "path" };
const PATH: ArgumentAlias = { canonical: "path", alias: "file" };

/** The tools with an alias, and which name is canonical. */
export const ARGUMENT_ALIASES: Partial<Record<ToolName, ArgumentAlias>> = {
  read_doc: FILE,
  list_ids: FILE,
  validate_doc: FILE,
  patch_block: FILE,
  read_file: PATH,
  edit_file: PATH,
  apply_patch: PATH,
};

export type AliasOutcome = { ok: true; args: Record<string, unknown> } | { ok: false; message: string };

/** `args` with the tool's alias renamed to its canonical name (unchanged when the tool has none). */
export function resolveArgumentAlias(tool: ToolName, args: Record<string, unknown>): AliasOutcome {
  const a = ARGUMENT_ALIASES[tool];
  if (a === undefined || !Object.hasOwn(args, a.alias)) return { ok: true, args };
  const { [a.alias]: aliased, ...rest } = args;
  if (Object.hasOwn(args, a.canonical) && JSON.stringify(args[a.canonical]) !== JSON.stringify(aliased))
    return {
      ok: false,
      message:
        `"${a.canonical}" and "${a.alias}" name the same argument (${a.canonical} is canonical, ${a.alias} its alias) but ` +
        `differ: ${JSON.stringify(args[a.canonical])} vs ${JSON.stringify(aliased)}; give one`,
    };
  return { ok: true, args: { ...rest, [a.canonical]: Object.hasOwn(args, a.canonical) ? args[a.canonical] : aliased } };
}
