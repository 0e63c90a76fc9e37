import { CopyButton } from "./domain-controls";

/** A value to paste elsewhere (a DNS record's name or value), with its copy button beside it. */
export function CopyableCode({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex items-start gap-1">
      <code className="min-w-0 break-all text-xs">{value}</code>
      <CopyButton value={value} label={label} />
    </div>
  );
}
