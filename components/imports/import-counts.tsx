import type { ImportCounts, ImportRefusal } from "@/lib/db/schema/imports";

export const REFUSAL_LABELS: Record<ImportRefusal, string> = {
  invalid_email: "Not an email address",
  bad_value: "A value of the wrong type",
  duplicate: "Address repeated in the file (the last row is imported)",
  unsubscribed: "Opted out: never resubscribed by an import",
  suppressed: "Suppressed address",
  erased: "Erased on request: never added again",
};

const fieldLabel = (field: string) =>
  ({ first_name: "first name", last_name: "last name" })[field] ?? field.replace(/^attributes\./, "");

/** What a dry run found or an apply did, as figures a sender reads at a glance. */
export function ImportCountsView({ counts, label }: { counts: ImportCounts; label: string }) {
  const refused = Object.entries(counts.refused).filter(([, n]) => n) as [ImportRefusal, number][];
  const refusedTotal = refused.reduce((sum, [, n]) => sum + n, 0);
  const updatedFields = Object.entries(counts.updatedFields).sort((a, b) => b[1] - a[1]);
  const figures = [
    { key: "created", label: "New contacts", value: counts.created },
    { key: "updated", label: "Updated", value: counts.updated },
    { key: "unchanged", label: "Unchanged", value: counts.unchanged },
    { key: "refused", label: "Refused rows", value: refusedTotal },
    { key: "subscribed", label: "New subscriptions", value: counts.subscribed },
  ];
  return (
    <div className="grid gap-4">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5" aria-label={label}>
        {figures.map((figure) => (
          <div key={figure.key} className="rounded-lg border p-3">
            <dt className="text-xs text-muted-foreground">{figure.label}</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid={`count-${figure.key}`}>
              {figure.value.toLocaleString("en")}
            </dd>
          </div>
        ))}
      </dl>
      {updatedFields.length > 0 && (
        <p className="text-sm text-muted-foreground">
          Updates change{" "}
          {updatedFields.map(([field, n]) => `${fieldLabel(field)} (${n.toLocaleString("en")})`).join(", ")}.
        </p>
      )}
      {refused.length > 0 && (
        <ul className="grid gap-1 text-sm" aria-label="Refused rows by reason">
          {refused.map(([reason, n]) => (
            <li key={reason} className="flex justify-between gap-4 border-b py-1 last:border-0">
              <span>{REFUSAL_LABELS[reason]}</span>
              <span className="tabular-nums">{n.toLocaleString("en")}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
