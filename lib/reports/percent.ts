/** Percentage rounded to 2 decimals; 0 when the denominator is 0 (docs/readings.md, "Rates"). Integer arithmetic first: no 1.005 surprises. */
export function percent(part: number, whole: number): number {
  if (whole === 0) return 0;
  return Math.round((part * 10_000) / whole) / 100;
}
