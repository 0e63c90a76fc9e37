/** A timestamp as the dashboard shows it: UTC, to the minute, with the exact instant on hover. */
export function When({ at, empty = "—" }: { at: Date | string | null | undefined; empty?: string }) {
  if (!at) return <span className="text-muted-foreground">{empty}</span>;
  const date = new Date(at);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {date.toISOString().slice(0, 16).replace("T", " ")} UTC
    </time>
  );
}
