/**
 * The actor a transcript record names, from `--actor-kind`, `--actor-name` and
 * `--actor-model` (`patch`, `transcript accept`): kind human unless told; without a name,
 * git's user.name, else $USER / $USERNAME, else "unknown".
 */
import { readGitConfig } from "../../git/read-ref.js";
import type { Actor } from "../../transcript/transcript-record.js";
import { choice } from "../repo-context.js";

function defaultActorName(root: string, env: NodeJS.ProcessEnv): string {
  let name: string | null = null;
  try {
    name = readGitConfig(root, "user.name")?.trim() ?? null;
  } catch {
    /* git is not there: no configured user */
  }
  if (name !== null && name.length > 0) return name;
  return env["USER"] ?? env["USERNAME"] ?? "unknown";
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null || v === false ? undefined : String(v);
}

export function actorFromOptions(options: Record<string, unknown>, root: string, env: NodeJS.ProcessEnv): Actor {
  const kind = choice("actor-kind", options["actorKind"] ?? "human", ["human", "agent", "tool"] as const);
  const actor: Actor = { kind, name: str(options["actorName"]) ?? defaultActorName(root, env) };
  const model = str(options["actorModel"]);
  if (model !== undefined) actor.model = model;
  return actor;
}
