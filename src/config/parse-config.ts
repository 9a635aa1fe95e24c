/**
 * Pure: the text of a config file → the effective configuration (defaults
 * filled in) and its problems, each with file, line and column. Invalid
 * values are errors; unknown keys are warnings (with a suggestion), so an
 * older tool reads a newer file and says what it ignores.
 */
import type { Node as YamlNode } from "yaml";
import { yamlLib } from "../yaml/yaml-lib.js";
import { yamlToData } from "../yaml/yaml-to-data.js";
import { didYouMean } from "../errors/did-you-mean.js";
import { CONFIG_KEYS, ConfigSchema, DEFAULT_CONFIG, MAX_LOCK_TIMEOUT_SECONDS, WORKSPACE_KEYS, type NomaConfig } from "./config-schema.js";

export interface ConfigProblem {
  severity: "error" | "warning";
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface ConfigResult {
  config: NomaConfig;
  problems: ConfigProblem[];
}

/** `file:line:col: message` */
export function formatConfigProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`;
}

function nodeAt(root: YamlNode | null, path: readonly PropertyKey[]): { node: YamlNode | null; key: YamlNode | null } {
  let node = root;
  let key: YamlNode | null = null;
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  for (const seg of path) {
    if (node !== null && isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
      if (pair === undefined) break;
      key = pair.key as YamlNode;
      node = (pair.value as YamlNode | null) ?? key;
    } else if (node !== null && isSeq(node) && typeof seg === "number" && seg < node.items.length) {
      key = null;
      node = node.items[seg] as YamlNode;
    } else break;
  }
  return { node, key };
}

function closest(key: string, known: readonly string[] = CONFIG_KEYS): string {
  return didYouMean(key, known);
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const seg of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[seg as string] : undefined;
  return v;
}

export function parseConfig(text: string, file: string): ConfigResult {
  const { LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const problems: ConfigProblem[] = [];
  const at = (offset: number | undefined): { line: number; column: number } => {
    if (offset === undefined) return { line: 1, column: 1 };
    const p = lc.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false, version: "1.2" });
  const config: NomaConfig = { ...DEFAULT_CONFIG, exclude: [] };
  if (doc.errors.length > 0) {
    for (const e of doc.errors) problems.push({ severity: "error", file, ...at(e.pos[0]), message: `not valid YAML: ${e.message.split("\n")[0]}` });
    return { config, problems };
  }
  const converted = yamlToData(doc, lc);
  if (!converted.ok) {
    problems.push({ severity: "error", file, line: converted.line, column: converted.column, message: converted.message });
    return { config, problems };
  }
  const data = converted.data;
  if (data === null || data === undefined) return { config, problems };
  if (typeof data !== "object" || Array.isArray(data)) {
    problems.push({
      severity: "error",
      file,
      ...at((doc.contents as YamlNode | null)?.range?.[0]),
      message: `expected a mapping of settings (${CONFIG_KEYS.join(", ")})`,
    });
    return { config, problems };
  }
  const root = doc.contents as YamlNode | null;
  for (const key of Object.keys(data)) {
    if ((CONFIG_KEYS as readonly string[]).includes(key)) continue;
    // `$schema`: for editors (config-json-schema.ts); the configuration ignores it.
    if (key === "$schema" && typeof (data as Record<string, unknown>)[key] === "string") continue;
    if (key === "$schema") {
      const schemaValue = (data as Record<string, unknown>)[key];
      problems.push({
        severity: "warning",
        file,
        ...at(nodeAt(root, [key]).key?.range?.[0]),
        message: `$schema: expected the path or URL of a JSON Schema (a string), found ${JSON.stringify(schemaValue)}; it is ignored`,
      });
      continue;
    }
    problems.push({
      severity: "warning",
      file,
      ...at(nodeAt(root, [key]).key?.range?.[0]),
      message: `unknown key "${key}"${closest(key)} is ignored; known keys: ${CONFIG_KEYS.join(", ")}`,
    });
  }
  const ws = (data as Record<string, unknown>).workspace;
  if (ws !== null && typeof ws === "object" && !Array.isArray(ws)) {
    for (const key of Object.keys(ws)) {
      if ((WORKSPACE_KEYS as readonly string[]).includes(key)) continue;
      problems.push({
        severity: "warning",
        file,
        ...at(nodeAt(root, ["workspace", key]).key?.range?.[0]),
        message: `unknown key "workspace.${key}"${closest(key, WORKSPACE_KEYS)} is ignored; known keys: ${WORKSPACE_KEYS.join(", ")}`,
      });
    }
  }
  const parsed = ConfigSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const where = issue.path.map(String).join(".");
      const found = nodeAt(root, issue.path);
      const expected =
        where === "lock_timeout"
          ? `a number of seconds from 0 to ${MAX_LOCK_TIMEOUT_SECONDS}`
          : issue.code === "invalid_value"
            ? `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`
            : issue.code === "invalid_type"
              ? `${issue.expected === "array" ? "a list" : issue.expected === "object" ? "a mapping" : `a ${issue.expected}`}`
              : issue.code === "too_small"
                ? issue.origin === "array"
                  ? "a non-empty list"
                  : "a non-empty string"
                : issue.message;
      const value = valueAt(data, issue.path);
      problems.push({
        severity: "error",
        file,
        ...at(found.node?.range?.[0]),
        message: `${where}: expected ${expected}, found ${value === undefined ? "nothing" : JSON.stringify(value)}`,
      });
    }
    return { config, problems: sortProblems(problems) };
  }
  const v = parsed.data;
  if (v.transcripts !== undefined) config.transcripts = v.transcripts;
  if (v.drift !== undefined) config.drift = v.drift;
  if (v.exclude !== undefined) config.exclude = v.exclude;
  if (v.lock_timeout !== undefined) config.lockTimeout = v.lock_timeout;
  if (v.fix_on_commit !== undefined) config.fixOnCommit = v.fix_on_commit;
  if (v.workspace !== undefined) {
    const w = v.workspace;
    config.workspace = {
      allowlist: w.allowlist ?? config.workspace.allowlist,
      ledger: w.ledger ?? config.workspace.ledger,
      archive: w.archive ?? config.workspace.archive,
      test: w.test ?? null,
      build: w.build ?? null,
      ...(w.read_only !== undefined ? { readOnly: w.read_only } : {}),
    };
  }
  return { config, problems: sortProblems(problems) };
}

function sortProblems(p: ConfigProblem[]): ConfigProblem[] {
  return p.sort((a, b) => a.line - b.line || a.column - b.column);
}
