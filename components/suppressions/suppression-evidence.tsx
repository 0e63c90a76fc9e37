import type { SuppressionEvidence } from "@/lib/suppressions/suppression-evidence";

const PROVIDERS: Record<string, string> = { resend: "Resend", smtp: "Bounce mail", local: "Test mailbox" };

/** A bounce's or complaint's evidence: a one-line summary that opens on the provider's words and the raw report. */
export function SuppressionEvidenceDetails({ evidence }: { evidence: SuppressionEvidence | null }) {
  if (!evidence) return <span className="text-muted-foreground">—</span>;
  const summary = [
    PROVIDERS[evidence.provider] ?? evidence.provider,
    evidence.statusCode,
    evidence.receivedAt.toISOString().slice(0, 16).replace("T", " "),
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <details className="group max-w-md text-sm">
      <summary className="cursor-pointer text-primary hover:underline">{summary}</summary>
      <div className="mt-2 grid gap-2">
        {evidence.wording && <p className="text-muted-foreground">&ldquo;{evidence.wording}&rdquo;</p>}
        <pre className="max-h-64 overflow-auto rounded-md border bg-muted p-2 text-xs whitespace-pre-wrap break-all">
          {evidence.raw}
        </pre>
      </div>
    </details>
  );
}
