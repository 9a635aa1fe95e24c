/**
 * SARIF 2.1.0 for GitHub code scanning.
 */
import type { FileDiagnostics } from "./file-diagnostics.js";
import { RULES, isRuleCode } from "../validate/rule-catalog.js";
import { TOOL_NAME, TOOL_VERSION, TOOL_URL } from "../version.js";
import { pathToUriReference } from "../layout/uri-reference.js";

const LEVEL = { error: "error", warning: "warning", info: "note" } as const;
/** The diagnostics reference (docs/documents.md) on the default branch of the project's page. */
const DIAGNOSTICS_URL = `${TOOL_URL}/blob/HEAD/docs/documents.md#diagnostics`;

export function formatSarif(files: readonly FileDiagnostics[], describe: (code: string) => string | undefined = () => undefined): string {
  const ruleIds = new Set<string>();
  for (const f of files) for (const d of f.diagnostics) ruleIds.add(d.code);
  const rules = [...ruleIds].sort().map((id) => {
    const text = isRuleCode(id) ? RULES[id].description : (describe(id) ?? id);
    return {
      id,
      shortDescription: { text },
      fullDescription: { text },
      help: { text: `${text} See ${DIAGNOSTICS_URL} for how to fix or suppress it (noverify, --ignore-rule).` },
    };
  });
  const results = files.flatMap((f) =>
    f.diagnostics.map((d) => {
      const region: Record<string, number> = {};
      if (d.pos !== undefined) {
        region["startLine"] = d.pos.line;
        region["startColumn"] = d.pos.column;
        region["endLine"] = d.endLine ?? d.pos.line;
      }
      return {
        ruleId: d.code,
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [
          {
            physicalLocation: {
              // A URI reference (RFC 3986), relative to the repository: `my doc#1.noma` is `my%20doc%231.noma`.
              artifactLocation: { uri: pathToUriReference(f.file) },
              ...(d.pos !== undefined ? { region } : {}),
            },
          },
        ],
      };
    }),
  );
  const log = {
    version: "2.1.0",
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    runs: [{ tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, informationUri: TOOL_URL, rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
