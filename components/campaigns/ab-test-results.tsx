"use client";

import { Trophy } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { AB_VARIANT_LABELS } from "@/lib/campaigns/ab-test-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

export interface AbTestResultsView {
  dimension: "subject" | "sender_name" | "content";
  metric: "clicks" | "human_opens";
  variants: string[];
  winner: number | null;
  /** "the metric", a member's address, "An operator"… */
  pickedBy: string | null;
  decideAt: Date | null;
  /** Set once the test share has its variants. */
  running: boolean;
  figures: { variant: number | null; sends: number; sent: number; humanOpens: number; clicks: number }[];
}

const DIMENSION_WORDS = { subject: "subject", sender_name: "sender name", content: "content" } as const;

/**
 * Each variant's figures in the test share (sent, opens by people, clicks) and the rest's, with the
 * winner; while the test waits, a button per variant picks it sooner (`pick`, on the campaign page).
 */
export function AbTestResults({
  workspaceId,
  campaignId,
  test,
  pick,
}: {
  workspaceId: string;
  campaignId: string;
  test: AbTestResultsView;
  pick?: (workspaceId: string, input: { campaignId: string; variant: number }) => Promise<ActionState<void>>;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();
  const choose = (variant: number) =>
    startTransition(async () => {
      setMessage(undefined);
      const state = await pick!(workspaceId, { campaignId, variant });
      if (!state.ok) setMessage(state.message);
      else router.refresh();
    });
  // Given only while a person may pick (lib/campaigns/ab-test-winner.ts canPickAbWinner).
  const canPick = pick !== undefined;
  const metricWords = test.metric === "clicks" ? "clicks" : "opens by people";
  return (
    <Card data-testid="ab-test-results">
      <CardHeader>
        <CardTitle>A/B test of the {DIMENSION_WORDS[test.dimension]}</CardTitle>
        <CardDescription>
          {test.winner !== null ? (
            <>
              Variant {AB_VARIANT_LABELS[test.winner]} won
              {test.pickedBy ? `, chosen by ${test.pickedBy}` : ""}; the rest of the audience is sent it.
            </>
          ) : !test.running ? (
            "The test share gets its variants when the campaign starts sending."
          ) : test.decideAt ? (
            <>
              The winner by {metricWords} is chosen <When at={test.decideAt} />; the rest wait until then. You can pick
              one sooner.
            </>
          ) : (
            <>The test share is being sent; the wait starts when it is done. The winner goes by {metricWords}.</>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Variant</TableHead>
                <TableHead className="text-right">Sent</TableHead>
                <TableHead className="text-right">Opens</TableHead>
                <TableHead className="text-right">Clicks</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {test.figures.map((row) => (
                <TableRow
                  key={row.variant ?? "rest"}
                  data-testid={`ab-variant-${row.variant === null ? "rest" : AB_VARIANT_LABELS[row.variant]}`}
                >
                  <TableCell className="max-w-36 sm:max-w-80">
                    {row.variant === null ? (
                      <span className="font-medium">The rest</span>
                    ) : (
                      <span className="grid min-w-0 gap-0.5">
                        <span className="flex items-center gap-2">
                          <span className="font-medium">{AB_VARIANT_LABELS[row.variant]}</span>
                          {test.winner === row.variant && (
                            <Badge variant="success">
                              <Trophy className="size-3" />
                              Winner
                            </Badge>
                          )}
                        </span>
                        <span className="truncate text-muted-foreground" title={test.variants[row.variant]}>
                          {test.variants[row.variant]}
                        </span>
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{row.sent.toLocaleString("en")}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.humanOpens.toLocaleString("en")}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.clicks.toLocaleString("en")}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
        <p className="text-sm text-muted-foreground">
          Opens count people only: those by Apple Mail Privacy Protection and link scanners are left out. Sent: handed
          to the mail provider.
        </p>
        {canPick && (
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Pick the winner now">
            <span className="text-sm">Pick the winner now:</span>
            {test.variants.map((_, variant) => (
              <Button key={variant} size="sm" variant="outline" disabled={pending} onClick={() => choose(variant)}>
                <Trophy />
                {AB_VARIANT_LABELS[variant]}
              </Button>
            ))}
          </div>
        )}
        {message && (
          <p role="alert" className="text-sm text-destructive">
            {message}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
