import { validationFailed } from "@/lib/errors";

/** "79", "79.5" or "79.50" in the workspace's currency → minor units (7950). */
export function parseAmount(raw: string): number {
  const trimmed = raw.trim();
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(trimmed) || Number(trimmed) <= 0)
    throw validationFailed(
      "amount",
      "The amount is a positive sum below 10,000,000 in the workspace's currency, e.g. 79 or 79.50.",
    );
  return Math.round(Number(trimmed) * 100);
}
