// Event `type` has two conventional values. core/v1 accepts any string; events.k8s.io/v1 create
// and both client-go recorders accept only these two, and `kubectl events --types` refuses others.

const CONVENTIONAL_TYPES = ['Normal', 'Warning'] as const;

type ConventionalType = (typeof CONVENTIONAL_TYPES)[number];

/** Exactly `Normal` or `Warning`, case-sensitive as the events.k8s.io/v1 validation compares. */
export function isConventionalType(type: string): type is ConventionalType {
  return (CONVENTIONAL_TYPES as readonly string[]).includes(type);
}
