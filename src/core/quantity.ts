// Kubernetes resource quantities (`1500m`, `20Mi`, `1e3`) as numbers, for sums and comparisons of
// requests against allocatable. The grammar is apimachinery's (pkg/api/resource/quantity.go:
// `<signedNumber><suffix>`, binary Ki..Ei, decimal n u m "" k M G T P E, or an exponent e<n>).
// Float precision is enough here: the numbers are only compared and printed, never written back.

const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };

/** The quantity's value in its base unit (cores, bytes, count); null when it is not a quantity. */
export function parseQuantity(text: string): number | null {
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(text.trim());
  if (match === null) return null;
  const number = Number(match[1]);
  if (match[2] !== undefined) return number * 10 ** Number(match[2].slice(1));
  const suffix = match[3] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix];
  return factor === undefined ? null : number * factor;
}

const trim = (n: number): string => String(Number(n.toFixed(3)));

/**
 * A value of a resource in the words kubectl describe uses: cpu in cores (`1.5`, `250m`), memory and
 * storage in the largest binary unit that divides it (`20Mi`), counts plainly.
 */
export function formatQuantity(resource: string, value: number): string {
  if (resource === 'cpu') return value !== 0 && Math.abs(value) < 1 ? `${Math.round(value * 1000)}m` : trim(value);
  if (resource === 'memory' || resource.endsWith('storage') || resource.startsWith('hugepages-')) {
    for (const [suffix, factor] of Object.entries(BINARY).reverse()) if (value >= factor && value % factor === 0) return `${value / factor}${suffix}`;
    for (const [suffix, factor] of Object.entries(BINARY).reverse()) if (value >= factor) return `${trim(value / factor)}${suffix}`;
  }
  return trim(value);
}
