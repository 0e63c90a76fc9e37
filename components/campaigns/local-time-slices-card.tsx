import { Globe2 } from "lucide-react";

import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { LocalTimeSlices } from "@/lib/campaigns/local-time-slices";
import { offsetLabel } from "@/lib/campaigns/local-time-zones";

const utc = (at: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "UTC",
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  }).format(at) + " UTC";

/** Zones named in a slice: the first few, then how many more. */
function zonesInWords(zones: string[]) {
  if (zones.length === 0) return "Zones no longer among the subscribers";
  const shown = zones.slice(0, 3).join(", ");
  return zones.length > 3 ? `${shown} and ${zones.length - 3} more` : shown;
}

/**
 * A campaign sent at a local time (docs/readings.md, "Sending at a local time"): one row per slice,
 * its offset and local time, the UTC time it goes, its recipients and how many were sent so far.
 */
export function LocalTimeSlicesCard({ slices, now }: { slices: LocalTimeSlices; now: Date }) {
  return (
    <Card data-testid="local-time-slices">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Globe2 className="size-4" aria-hidden />
          {slices.time} in each recipient&apos;s time zone
        </CardTitle>
        <CardDescription>
          On {slices.date}, in {slices.slices.length} {slices.slices.length === 1 ? "slice" : "slices"}, each sent as
          its zones reach {slices.time}.{" "}
          {slices.planned
            ? "Recipients are counted when the first slice starts; until then these are the topic's subscribers in each zone."
            : "Recipients were counted when the first slice started."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {slices.slices.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Nobody is subscribed to the campaign&apos;s topic yet: add contacts to see its slices.
          </p>
        ) : (
          <ol className="divide-y rounded-md border text-sm">
            {slices.slices.map((slice) => {
              const done = !slices.planned && slice.waiting === 0;
              const due = slice.dueAt <= now;
              return (
                <li
                  key={slice.dueAt.toISOString()}
                  data-testid="local-time-slice"
                  className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 p-3"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <span className="font-medium">
                      {slices.time} {offsetLabel(slice.offsetMinutes)}
                    </span>
                    <span className="break-words text-muted-foreground">{zonesInWords(slice.zones)}</span>
                  </div>
                  <div className="grid justify-items-end gap-1 text-right">
                    <span className="tabular-nums">{utc(slice.dueAt)}</span>
                    <span className="flex flex-wrap items-center justify-end gap-2 text-muted-foreground tabular-nums">
                      {slices.planned ? (
                        <>
                          {slice.recipients.toLocaleString("en")}{" "}
                          {slice.recipients === 1 ? "subscriber" : "subscribers"}
                        </>
                      ) : (
                        <>
                          {slice.sent.toLocaleString("en")} of {slice.recipients.toLocaleString("en")} sent
                          {slice.failed > 0 && <>, {slice.failed.toLocaleString("en")} not sent</>}
                        </>
                      )}
                      <Badge variant={done ? "default" : due ? "secondary" : "outline"}>
                        {done ? "Sent" : due && !slices.planned ? "Sending" : "Waiting"}
                      </Badge>
                    </span>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
