import type { ImportCounts } from "@/lib/db/schema/imports";

/** All rows refused, whatever the reason. */
export function refusedTotal(counts: Pick<ImportCounts, "refused">): number {
  return Object.values(counts.refused).reduce<number>((sum, n) => sum + (n ?? 0), 0);
}

/**
 * Whether an apply did something else than its dry run said it would, in a figure the sender reads
 * (new, updated, unchanged, refused by reason, new subscriptions): contacts changed between the two
 * (someone opted out, signed up or was edited). The outcome page says so only then.
 */
export function outcomeDiffersFromDryRun(checked: ImportCounts, applied: ImportCounts): boolean {
  return (
    checked.created !== applied.created ||
    checked.updated !== applied.updated ||
    checked.unchanged !== applied.unchanged ||
    checked.subscribed !== applied.subscribed ||
    Object.keys({ ...checked.refused, ...applied.refused }).some(
      (reason) =>
        (checked.refused[reason as keyof ImportCounts["refused"]] ?? 0) !==
        (applied.refused[reason as keyof ImportCounts["refused"]] ?? 0),
    )
  );
}
