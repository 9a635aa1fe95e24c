/**
 * The example system spec `init` writes when a repository has no spec yet: a
 * valid schema_version 0.7 spec (it has `subsystems`, so it is the system
 * spec) whose every value says what to put there.
 */
export const EXAMPLE_SYSTEM_SPEC = `# yaml-language-server: $schema=./notarai.spec.json
# An example spec written by \`noma-reconcile init\`, because this repository had none.
# Describe the repository: what it is for, what it must do, which files each spec governs.
# Check it with \`npx noma-reconcile specs validate\`.
schema_version: "0.7"
intent: >-
  Say in a sentence or two what this repository is for and who relies on it.
behaviors:
  - name: example-behavior
    given: a situation the system can be in
    then: the outcome its users observe
constraints:
  - A rule every change must respect (replace this line).
invariants:
  - Something that must always hold (replace this line).
artifacts:
  code:
    - path: "src/**"
  docs:
    - path: "README.md"
# Split a larger system into subsystem specs: - $ref: ./api.spec.yaml
subsystems: []
`;
