/**
 * Reading a capability sidecar: YAML → validated descriptor, or problems that
 * name the YAML path and its line. An unknown `nomaAgent.version` grants
 * nothing (§A.5). Pure: text in.
 */
import { yamlLib } from "../yaml/yaml-lib.js";
import { yamlToData } from "../yaml/yaml-to-data.js";
import { CAPABILITY_VERSION, type CapabilityDescriptor, capabilitySchemas } from "./capability-schema.js";

export interface CapabilityProblem {
  severity: "error" | "warning";
  code: "capability-invalid" | "capability-unknown-version";
  message: string;
  line?: number;
}

export interface CapabilityReading {
  /** The descriptor when valid and of a known version; null grants nothing. */
  descriptor: CapabilityDescriptor | null;
  problems: CapabilityProblem[];
}

/** `<doc>.capabilities.yml` for a document path. */
export function sidecarPath(docPath: string): string {
  return `${docPath}.capabilities.yml`;
}

export function readCapabilities(text: string): CapabilityReading {
  const { LineCounter, parseDocument } = yamlLib();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    return {
      descriptor: null,
      problems: [
        {
          severity: "error",
          code: "capability-invalid",
          message: `Not valid YAML: ${err.message.split("\n")[0]}`,
          ...(err.linePos?.[0] !== undefined ? { line: err.linePos[0].line } : {}),
        },
      ],
    };
  }
  const converted = yamlToData(doc, counter);
  if (!converted.ok)
    return { descriptor: null, problems: [{ severity: "error", code: "capability-invalid", message: converted.message, line: converted.line }] };
  const value = converted.data;
  const parsed = capabilitySchemas().CapabilityDescriptorSchema.safeParse(value);
  if (!parsed.success) {
    return {
      descriptor: null,
      problems: parsed.error.issues.slice(0, 5).map((issue) => {
        const path = issue.path.map(String);
        const node = doc.getIn(issue.path as unknown[], true) as { range?: [number, number, number] } | undefined;
        const parentNode = doc.getIn(issue.path.slice(0, -1) as unknown[], true) as { range?: [number, number, number] } | undefined;
        const range = node?.range ?? parentNode?.range;
        const p: CapabilityProblem = {
          severity: "error",
          code: "capability-invalid",
          message: `${path.length > 0 ? path.join(".") : "(root)"}: ${issue.message}`,
        };
        if (range !== undefined) p.line = counter.linePos(range[0]).line;
        return p;
      }),
    };
  }
  if (parsed.data.nomaAgent.version !== CAPABILITY_VERSION) {
    const node = doc.getIn(["nomaAgent", "version"], true) as { range?: [number, number, number] } | undefined;
    const p: CapabilityProblem = {
      severity: "warning",
      code: "capability-unknown-version",
      message:
        `nomaAgent.version ${parsed.data.nomaAgent.version} is not understood (this tool reads version ${CAPABILITY_VERSION}); the descriptor grants ` +
        `nothing.`,
    };
    if (node?.range !== undefined) p.line = counter.linePos(node.range[0]).line;
    return { descriptor: null, problems: [p] };
  }
  return { descriptor: parsed.data, problems: [] };
}
