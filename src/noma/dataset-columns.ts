/**
 * Column names of a ::dataset body, by its `format` (yaml by default; csv, tsv, json: a JSON
 * array of rows whose first row is all text names them there). Null when the body's shape
 * does not declare columns. YAML bodies in the shapes datasets
 * are written in are read without the YAML library (yaml-dataset-columns.ts); any other
 * body goes through it.
 */
import { yamlLib } from "../yaml/yaml-lib.js";
import { splitDelimited } from "./split-delimited.js";
import { yamlDatasetColumns } from "./yaml-dataset-columns.js";

export function datasetColumns(interior: readonly string[], format: string | undefined): string[] | null {
  const fmt = (format ?? "yaml").toLowerCase();
  if (fmt === "csv" || fmt === "tsv") {
    const header = interior.find((l) => l.trim().length > 0);
    return header === undefined ? null : splitDelimited(header, fmt === "csv" ? "," : "\t").map((c) => c.trim());
  }
  if (fmt !== "json") {
    const known = yamlDatasetColumns(interior);
    if (known !== undefined) return known;
  }
  return parsedDatasetColumns(interior, fmt);
}

/** The same answer, always through the JSON parser or the YAML library (the reference for the fast path's tests). */
export function parsedDatasetColumns(interior: readonly string[], fmt: string): string[] | null {
  const text = interior.join("\n");
  let data: unknown;
  try {
    data = fmt === "json" ? JSON.parse(text) : yamlLib().parse(text);
  } catch {
    return null;
  }
  if (Array.isArray(data)) {
    const first = data[0];
    // JSON rows whose first row is all text: that row names the columns (as the patch engine reads it).
    if (fmt === "json" && Array.isArray(first)) return first.length > 0 && first.every((c) => typeof c === "string") ? (first as string[]) : null;
    return first !== null && typeof first === "object" && !Array.isArray(first) ? Object.keys(first as object) : null;
  }
  if (data === null || typeof data !== "object") return null;
  const rec = data as Record<string, unknown>;
  const schema = rec["schema"];
  if (schema !== null && typeof schema === "object" && !Array.isArray(schema)) return Object.keys(schema as object);
  const columns = rec["columns"];
  if (Array.isArray(columns))
    return columns.map((c) => (c !== null && typeof c === "object" ? String((c as Record<string, unknown>)["name"] ?? "") : String(c)));
  return null;
}
