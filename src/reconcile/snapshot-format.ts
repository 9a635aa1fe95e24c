/**
 * The reconciliation snapshot `.notarai/reconciliation_state.json`, NotarAI's
 * shape: `{schema_version: "1", cli_version?, last_reconciliation: {timestamp,
 * git_hash, branch}, file_fingerprints: {path: {blake3}}, spec_fingerprints:
 * {path: hash}}`, written as 2-space JSON with keys sorted at every level and
 * one trailing newline. Reading is lenient about extra keys (NotarAI may add
 * some) and accepts NotarAI's timestamps (unix seconds followed by `Z`).
 */
import * as z from "zod/mini";

export const SNAPSHOT_SCHEMA_VERSION = "1";

const hex = z.string().check(z.regex(/^[0-9a-fA-F]{64}$/));

export const snapshotSchema = z.looseObject({
  schema_version: z.string(),
  cli_version: z.optional(z.string()),
  last_reconciliation: z.looseObject({
    timestamp: z.union([z.string(), z.number()]),
    git_hash: z.optional(z.nullable(z.string())),
    branch: z.optional(z.nullable(z.string())),
  }),
  file_fingerprints: z.record(z.string(), z.looseObject({ blake3: hex })),
  spec_fingerprints: z.record(z.string(), hex),
});

export interface Snapshot {
  schema_version: string;
  cli_version?: string;
  last_reconciliation: { timestamp: string; git_hash: string | null; branch: string | null };
  file_fingerprints: Record<string, { blake3: string }>;
  spec_fingerprints: Record<string, string>;
}

/**
 * A snapshot timestamp as ISO-8601 UTC, or null if unreadable. Accepts ISO
 * strings and NotarAI's `<unix seconds>Z` (also bare seconds).
 */
export function snapshotTimestampToIso(ts: string | number): string | null {
  const s = String(ts).trim();
  const unix = /^(\d{1,12})(?:\.\d+)?Z?$/.exec(s);
  if (unix !== null) return new Date(Number(unix[1]) * 1000).toISOString().replace(/\.000Z$/, "Z");
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(/\.000Z$/, "Z");
}

/** Parse snapshot JSON text. Hashes are lower-cased; everything else is kept as written. */
export function parseSnapshot(text: string): { snapshot: Snapshot | null; problem: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { snapshot: null, problem: `not valid JSON (${(e as Error).message})` };
  }
  const r = snapshotSchema.safeParse(json);
  if (!r.success) {
    const first = r.error.issues[0]!;
    return { snapshot: null, problem: `unexpected shape at ${first.path.map(String).join(".") || "(root)"} (${first.code})` };
  }
  const d = r.data;
  const gitHash = d.last_reconciliation.git_hash;
  const snapshot: Snapshot = {
    ...(d as unknown as Snapshot),
    last_reconciliation: {
      ...(d.last_reconciliation as Record<string, unknown>),
      timestamp: String(d.last_reconciliation.timestamp),
      git_hash: gitHash === undefined || gitHash === null || gitHash === "" ? null : gitHash,
      branch: d.last_reconciliation.branch ?? null,
    },
    file_fingerprints: Object.fromEntries(Object.entries(d.file_fingerprints).map(([p, f]) => [p, { ...f, blake3: f.blake3.toLowerCase() }])),
    spec_fingerprints: Object.fromEntries(Object.entries(d.spec_fingerprints).map(([p, h]) => [p, h.toLowerCase()])),
  };
  return { snapshot, problem: null };
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** The file text: 2-space JSON, keys sorted at every level, one trailing newline. */
export function formatSnapshot(snapshot: Snapshot): string {
  return `${JSON.stringify(sortKeys(snapshot), null, 2)}\n`;
}

/** path → hash of every fingerprint (files and specs) in a snapshot. */
export function snapshotFingerprints(snapshot: Snapshot): Map<string, string> {
  const m = new Map<string, string>();
  for (const [p, f] of Object.entries(snapshot.file_fingerprints)) m.set(p, f.blake3);
  for (const [p, h] of Object.entries(snapshot.spec_fingerprints)) m.set(p, h);
  return m;
}
