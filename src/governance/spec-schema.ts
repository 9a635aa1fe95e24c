/**
 * The spec file schemas (`.notarai/**\/*.spec.yaml`), one per `schema_version`
 * ("0.5", "0.6", "0.7"), as zod/mini schemas: the single source of truth for
 * validation and for the bundled JSON Schema (`specSchemaJson`).
 *
 * Every object is closed (unknown keys are errors) except the four the NotarAI
 * format leaves open: `artifacts` (any category name), `variant.overrides`,
 * `theme.typography` and `content_section.artifacts`.
 *
 * Fields whose shape the compatibility contract fixes (root, behaviors,
 * artifacts, decisions, $refs, coverage…) follow it exactly. The 0.6/0.7
 * presentation fields (`output`, `content`, `design`, …) are given shapes of
 * our own, documented in the README; each is closed, as the contract requires.
 */
import * as z from "zod/mini";

export const SPEC_VERSIONS = ["0.5", "0.6", "0.7"] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

const str = () => z.string();
const strList = () => z.array(z.string());
const open = () => z.record(z.string(), z.unknown());

const DOMAINS_05 = ["software", "presentation", "report", "course", "marketing"] as const;
const DOMAINS_07 = [...DOMAINS_05, "legal", "education", "infrastructure", "research"] as const;

const behavior = z.strictObject({
  name: str(),
  given: str(),
  then: str(),
  interaction: z.optional(z.strictObject({ trigger: str(), sequence: strList() })),
  state_transition: z.optional(z.strictObject({ from: str(), to: str() })),
});

const ref = z.strictObject({ $ref: str() });
const dependency = z.strictObject({ $ref: str(), relationship: str() });
const decision = z.strictObject({ date: z.iso.date(), choice: str(), rationale: z.optional(str()) });
const coverage = z.strictObject({ policy: z.enum(["warn", "strict", "off"]), message: z.optional(str()) });

const artifact05 = z.strictObject({ path: str(), role: z.optional(str()), source: z.optional(str()) });
const artifact06 = z.strictObject({
  path: str(),
  role: z.optional(str()),
  source: z.optional(str()),
  tier: z.optional(z.int().check(z.minimum(1), z.maximum(4))),
});

// 0.6 presentation fields (shapes of our own; see the module header).
const output = z.strictObject({ format: z.optional(str()), path: z.optional(str()), description: z.optional(str()) });
const contentSection = z.strictObject({ name: str(), description: z.optional(str()), artifacts: z.optional(open()) });
const content = z.strictObject({ sections: z.optional(z.array(contentSection)), tone: z.optional(str()), length: z.optional(str()) });
const state = z.strictObject({ name: str(), description: z.optional(str()) });
const theme = z.strictObject({ name: z.optional(str()), colors: z.optional(z.record(z.string(), z.string())), typography: z.optional(open()) });
const design06 = z.strictObject({ principles: z.optional(strList()), layout: z.optional(str()), theme: z.optional(theme) });
const audience = z.strictObject({ primary: z.optional(str()), secondary: z.optional(strList()), assumptions: z.optional(strList()) });
const variant = z.strictObject({ name: str(), description: z.optional(str()), overrides: z.optional(open()) });
const pipelineStep = z.strictObject({ name: str(), command: z.optional(str()), description: z.optional(str()) });
const pipeline06 = z.strictObject({ steps: z.array(pipelineStep) });
const feedback06 = z.strictObject({ channels: z.optional(strList()), metrics: z.optional(strList()) });

// 0.7: richer design/pipeline/feedback, plus variants_resolved and compliance.
const design07 = z.strictObject({
  principles: z.optional(strList()),
  layout: z.optional(str()),
  theme: z.optional(theme),
  accessibility: z.optional(strList()),
  brand: z.optional(str()),
});
const pipeline07 = z.strictObject({ steps: z.array(pipelineStep), triggers: z.optional(strList()), outputs: z.optional(strList()) });
const feedback07 = z.strictObject({
  channels: z.optional(strList()),
  metrics: z.optional(strList()),
  cadence: z.optional(str()),
  owner: z.optional(str()),
});
const variantResolved = z.strictObject({ name: str(), path: z.optional(str()) });
const compliance = z.strictObject({ standards: z.optional(strList()), requirements: z.optional(strList()), evidence: z.optional(strList()) });

const common = {
  intent: str(),
  behaviors: z.optional(z.array(behavior)),
  constraints: z.optional(strList()),
  invariants: z.optional(strList()),
  open_questions: z.optional(strList()),
  decisions: z.optional(z.array(decision)),
  subsystems: z.optional(z.array(ref)),
  applies: z.optional(z.array(ref)),
  dependencies: z.optional(z.array(dependency)),
  exclude: z.optional(strList()),
  coverage: z.optional(coverage),
  notes: z.optional(z.union([str(), strList()])),
};

export const specSchema05 = z.strictObject({
  schema_version: z.literal("0.5"),
  ...common,
  domain: z.optional(z.enum(DOMAINS_05)),
  tier: z.optional(z.enum(["full", "registered"])),
  artifacts: z.record(z.string(), z.array(artifact05)),
});

const fields06 = {
  ...common,
  tier: z.optional(z.enum(["full", "registered", "derived"])),
  artifacts: z.record(z.string(), z.array(artifact06)),
  output: z.optional(output),
  content: z.optional(content),
  states: z.optional(z.array(state)),
  audience: z.optional(audience),
  variants: z.optional(z.array(variant)),
};

export const specSchema06 = z.strictObject({
  schema_version: z.literal("0.6"),
  ...fields06,
  domain: z.optional(z.enum(DOMAINS_05)),
  design: z.optional(design06),
  pipeline: z.optional(pipeline06),
  feedback: z.optional(feedback06),
});

export const specSchema07 = z.strictObject({
  schema_version: z.literal("0.7"),
  ...fields06,
  domain: z.optional(z.enum(DOMAINS_07)),
  design: z.optional(design07),
  pipeline: z.optional(pipeline07),
  feedback: z.optional(feedback07),
  variants_resolved: z.optional(z.array(variantResolved)),
  compliance: z.optional(compliance),
});

export const SPEC_SCHEMAS = { "0.5": specSchema05, "0.6": specSchema06, "0.7": specSchema07 } as const;

export type SpecData05 = z.infer<typeof specSchema05>;
export type SpecData06 = z.infer<typeof specSchema06>;
export type SpecData07 = z.infer<typeof specSchema07>;
/** A validated spec document, as data. */
export type SpecData = SpecData05 | SpecData06 | SpecData07;
export type SpecBehavior = z.infer<typeof behavior>;

/** Names (and descriptions) for the JSON Schema's `$defs`; only `specSchemaJson` reads it. */
export const specSchemaRegistry = z.registry<{ id: string; description?: string }>();
const named: Array<[z.core.$ZodType, string, string]> = [
  [behavior, "behavior", "An observable behavior: given a situation, then an outcome."],
  [ref, "ref", "A reference to another spec file, relative to this one."],
  [dependency, "dependency", "A spec this one depends on, and how."],
  [decision, "decision", "A recorded decision (date is YYYY-MM-DD and must be a real date)."],
  [coverage, "coverage", "What to do about tracked files no spec governs."],
  [artifact05, "artifact-0.5", "A glob of governed files (picomatch, dot: true, repository-relative)."],
  [artifact06, "artifact", "A glob of governed files (picomatch, dot: true, repository-relative)."],
  [contentSection, "content_section", "A section of the content."],
  [theme, "theme", "A visual theme."],
  [variant, "variant", "A variant of the output; overrides is free-form."],
  [pipelineStep, "pipeline_step", "One step of the production pipeline."],
  [specSchema05, "spec-0.5", "A NotarAI spec, schema_version 0.5."],
  [specSchema06, "spec-0.6", "A NotarAI spec, schema_version 0.6."],
  [specSchema07, "spec-0.7", "A NotarAI spec, schema_version 0.7."],
];
for (const [schema, id, description] of named) specSchemaRegistry.add(schema, { id, description });

export function isSpecVersion(v: unknown): v is SpecVersion {
  return typeof v === "string" && (SPEC_VERSIONS as readonly string[]).includes(v);
}
