/**
 * Spec files for tests, written as YAML text from small descriptions.
 */
import { stringify } from "yaml";

export interface SpecOptions {
  version?: "0.5" | "0.6" | "0.7";
  intent?: string;
  behaviors?: Array<{ name: string; given: string; then: string }>;
  constraints?: string[];
  invariants?: string[];
  artifacts?: Record<string, string[]>;
  exclude?: string[];
  subsystems?: string[];
  coverage?: { policy: "warn" | "strict" | "off"; message?: string };
  extra?: Record<string, unknown>;
}

/** YAML text of a valid spec (schema_version quoted, as it must be). */
export function specYaml(o: SpecOptions = {}): string {
  const doc: Record<string, unknown> = {
    schema_version: o.version ?? "0.7",
    intent: o.intent ?? "test intent",
    behaviors: o.behaviors ?? [{ name: "works", given: "a test", then: "it passes" }],
  };
  if (o.constraints !== undefined) doc["constraints"] = o.constraints;
  if (o.invariants !== undefined) doc["invariants"] = o.invariants;
  doc["artifacts"] = Object.fromEntries(Object.entries(o.artifacts ?? { code: ["src/**"] }).map(([k, globs]) => [k, globs.map((path) => ({ path }))]));
  if (o.exclude !== undefined) doc["exclude"] = o.exclude;
  if (o.subsystems !== undefined) doc["subsystems"] = o.subsystems.map((r) => ({ $ref: r }));
  if (o.coverage !== undefined) doc["coverage"] = o.coverage;
  Object.assign(doc, o.extra ?? {});
  return stringify(doc, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" });
}
