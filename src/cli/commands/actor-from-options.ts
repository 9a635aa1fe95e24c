/**
 * The actor a transcript record names, from `--actor-kind`, `--actor-name` and
 * `--actor-model` (`patch`, `transcript accept`): kind human unless told; without a name,
 * git's user.name, else $USER / $USERNAME, else "unknown".
 */
import { execGit } from "../../git/exec-git.js";
import type { Actor } from "../../transcript/transcript-record.js";
import { choice } from "../repo-context.js";

function defaultActorName(root: string, env: NodeJS.ProcessEnv): string {
  try {
    const name = execGit(["config", "user.name"], { cwd: root }).trim();
    if (name.length > 0) return name;
  } catch {
    /* no git user configured */
  }
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
