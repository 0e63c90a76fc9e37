import type { AutomationFigures } from "@/lib/automations/automation-figures";
import type { ExitReason } from "@/lib/automations/automation-schemas";

import { EXIT_WORDS } from "./automation-words";

/** The automation's figures above its flow: who entered, is inside, finished, and who left early and why. */
export function AutomationFigureStrip({ figures }: { figures: AutomationFigures }) {
  const exited = Object.entries(figures.exited).filter(([, n]) => n > 0);
  const total = exited.reduce((sum, [, n]) => sum + n, 0);
  const items = [
    { label: "Entered", value: figures.entered },
    { label: "Active", value: figures.active },
    { label: "Completed", value: figures.completed },
    { label: "Exited", value: total },
  ];
  return (
    <section aria-label="Figures" className="grid gap-2 rounded-lg border p-4" data-testid="automation-figures">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {items.map((item) => (
          <div key={item.label}>
            <dt className="text-xs text-muted-foreground">{item.label}</dt>
            <dd className="text-xl font-semibold tabular-nums">{item.value.toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>
      {exited.length > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="exited-by-reason">
          Left early:{" "}
          {exited
            .map(([reason, n]) => `${n.toLocaleString("en")} ${EXIT_WORDS[reason as ExitReason] ?? reason}`)
            .join(", ")}
          .
        </p>
      )}
      {figures.onOlderVersions > 0 && (
        <p className="text-sm text-muted-foreground">
          {figures.onOlderVersions.toLocaleString("en")} {figures.onOlderVersions === 1 ? "person is" : "people are"}{" "}
          still on older versions: they finish the steps they entered.
        </p>
      )}
      <p className="text-xs text-muted-foreground">Updated every few seconds.</p>
    </section>
  );
}
