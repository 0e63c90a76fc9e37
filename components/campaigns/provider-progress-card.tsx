import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { When } from "@/components/ui/when";
import type { ProviderProgress } from "@/lib/campaigns/provider-progress";

const n = (value: number) => value.toLocaleString("en");

/**
 * A started campaign's recipients per mailbox provider: sent, waiting for the provider's pace, and put
 * back after a temporary refusal with the time of the next try, beside the pace each provider gets now.
 */
export function ProviderProgressCard({ providers }: { providers: ProviderProgress[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>By mailbox provider</CardTitle>
        <CardDescription>
          Each provider is sent to at its own pace. A provider that asks to slow down gets its mail later and a slower
          pace, without holding back the others; its refusals are not bounces.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {providers.length === 0 ? (
          <p className="text-sm text-muted-foreground">The audience is being prepared: providers show once it is.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Sending by mailbox provider">
            {providers.map((row) => (
              <li
                key={row.provider}
                data-testid={`provider-${row.provider}`}
                className="grid gap-1 border-b pb-3 last:border-b-0 last:pb-0"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-medium">{row.label}</span>
                  <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    {n(row.rate)} per minute
                    {row.slowed && <Badge variant="warning">Slowed after refusals</Badge>}
                  </span>
                </div>
                <p className="text-sm tabular-nums">
                  {n(row.accepted)} of {n(row.recipients)} sent
                  {row.queued > 0 && <> · {n(row.queued)} waiting their turn</>}
                  {row.failed > 0 && <> · {n(row.failed)} not sent</>}
                </p>
                {row.deferred > 0 && (
                  <p className="text-sm text-amber-700 dark:text-amber-400">
                    {row.label}: {n(row.deferred)} deferred, retrying at <When at={row.retryAt} />
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
