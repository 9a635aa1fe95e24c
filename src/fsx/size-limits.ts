/**
 * The size caps on files the product parses whole before it can judge anything: spec files
 * (`.notarai/**\/*.spec.yaml`) and configurations (`.notarai/config.yaml`, `.norma/config.json`).
 * Parsing YAML costs time and memory many times a file's size (a valid 50 MB spec took a minute
 * and 4 GB), so a file over its cap is refused with a clear error before it is parsed.
 * Documents have no cap: they parse in time linear in their size.
 *
 * The caps are set in the environment, not in the repository: a cap is needed before the
 * configuration is read (the configuration has one too), and a pull request must not be able to
 * lift the cap that guards the PR check against it (docs/configuration.md).
 */
import { NomaError } from "../errors/noma-error.js";

/** Default cap on a spec file: 1 MiB (this repository's largest spec is under 5 KB). */
export const DEFAULT_MAX_SPEC_BYTES = 1024 * 1024;
/** Default cap on a configuration file: 1 MiB. */
export const DEFAULT_MAX_CONFIG_BYTES = 1024 * 1024;

export const MAX_SPEC_BYTES_ENV = "NOMA_RECONCILE_MAX_SPEC_BYTES";
export const MAX_CONFIG_BYTES_ENV = "NOMA_RECONCILE_MAX_CONFIG_BYTES";

export class SizeLimitError extends NomaError {
  static override readonly errorName: string = "SizeLimitError";
  constructor(name: string, value: string) {
    super("limit-invalid", `${name}=${JSON.stringify(value)}: expected a whole number of bytes, at least 1 (e.g. ${name}=4194304 for 4 MiB)`);
  }
}

function limit(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === "") return fallback;
  if (!/^\s*\d+\s*$/.test(v) || Number(v) < 1 || !Number.isSafeInteger(Number(v))) throw new SizeLimitError(name, v);
  return Number(v);
}

/** The cap on a spec file's size in bytes (NOMA_RECONCILE_MAX_SPEC_BYTES, else 1 MiB). */
export function maxSpecBytes(env: NodeJS.ProcessEnv = process.env): number {
  return limit(env, MAX_SPEC_BYTES_ENV, DEFAULT_MAX_SPEC_BYTES);
}

/** The cap on a configuration file's size in bytes (NOMA_RECONCILE_MAX_CONFIG_BYTES, else 1 MiB). */
export function maxConfigBytes(env: NodeJS.ProcessEnv = process.env): number {
  return limit(env, MAX_CONFIG_BYTES_ENV, DEFAULT_MAX_CONFIG_BYTES);
}

/** The UTF-8 size of `text` when it is over `cap` bytes, else null (counted only when it could be). */
export function utf8SizeOver(text: string, cap: number): number | null {
  if (text.length * 3 <= cap) return null;
  const size = Buffer.byteLength(text, "utf8");
  return size > cap ? size : null;
}

/** How to raise a cap, for refusals. */
export function raiseHint(envName: string): string {
  return `set ${envName} to raise the cap`;
}
