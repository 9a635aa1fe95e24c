/**
 * Whether a JSON value has the v1.0 transcript record's shape: exactly what
 * `transcriptSchemas().record.safeParse(value).success` answers for a value JSON.parse made
 * (a property test holds them equal), written out by hand. A one-shot `check` of a document
 * with a transcript, or a `patch`, then neither builds the zod schemas nor runs zod's first,
 * unoptimized parse; the schemas are built only to describe a record that fails.
 *
 * Extra keys are allowed everywhere (the schemas are loose objects); an optional key may be
 * absent (JSON has no undefined).
 */
import type { TranscriptRecord } from "./transcript-schema.js";

const HEX64 = /^[0-9a-f]{64}$/;
const HEX8 = /^[0-9a-f]{8}$/;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optString(o: Obj, key: string): boolean {
  return !(key in o) || typeof o[key] === "string";
}

function hex64(v: unknown): boolean {
  return typeof v === "string" && HEX64.test(v);
}

function optHex64(o: Obj, key: string): boolean {
  return !(key in o) || hex64(o[key]);
}

function summary(v: unknown): boolean {
  return v === "ok" || v === "warn" || v === "error";
}

function isDiagnostic(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (v["severity"] !== "info" && v["severity"] !== "warning" && v["severity"] !== "error") return false;
  if (typeof v["code"] !== "string" || typeof v["message"] !== "string") return false;
  if ("pos" in v) {
    const pos = v["pos"];
    if (!isObject(pos) || typeof pos["line"] !== "number" || typeof pos["column"] !== "number") return false;
  }
  if (!optString(v, "nodeId")) return false;
  return !("phase" in v) || v["phase"] === "pre" || v["phase"] === "post";
}

export function isTranscriptRecord(v: unknown): v is TranscriptRecord {
  if (!isObject(v)) return false;
  if (v["protocol_version"] !== "1.0" || typeof v["tool_version"] !== "string") return false;
  const opId = v["op_id"];
  if (typeof opId !== "string" || opId.length === 0) return false;
  const ts = v["ts"];
  if (typeof ts !== "string" || !TS.test(ts)) return false;
  const actor = v["actor"];
  if (!isObject(actor) || (actor["kind"] !== "human" && actor["kind"] !== "agent" && actor["kind"] !== "tool") || typeof actor["name"] !== "string")
    return false;
  if (!optString(actor, "model") || !optString(actor, "version")) return false;
  if (typeof v["doc_uri"] !== "string" || !hex64(v["pre_sha256"]) || !hex64(v["post_sha256"])) return false;
  const preSha = v["pre_sha"];
  const postSha = v["post_sha"];
  if (typeof preSha !== "string" || !HEX8.test(preSha) || typeof postSha !== "string" || !HEX8.test(postSha)) return false;
  const op = v["op"];
  if (!isObject(op) || typeof op["op"] !== "string") return false;
  const result = v["patch_result"];
  if (result !== "applied" && result !== "rejected" && result !== "noop") return false;
  if (!summary(v["pre_validation"]) || !summary(v["post_validation"])) return false;
  if (!optString(v, "reason") || !optString(v, "parent_op_id") || !optHex64(v, "base_sha256")) return false;
  if ("diagnostics" in v) {
    const list = v["diagnostics"];
    if (!Array.isArray(list)) return false;
    for (let k = 0; k < list.length; k++) if (!isDiagnostic(list[k])) return false;
  }
  if ("elapsed_ms" in v && typeof v["elapsed_ms"] !== "number") return false;
  if (!optHex64(v, "prev_entry_sha256")) return false;
  if ("signature" in v && v["signature"] !== null) return false;
  return optHex64(v, "entry_sha256");
}
