import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { SPAM_SCORE_GOOD_BELOW, spamScoreLevel, type SpamScore } from "@/lib/deliverability/spam-score-levels";

const LEVELS = {
  good: { label: "Low", variant: "success" },
  warn: { label: "Borderline", variant: "warning" },
  bad: { label: "Spam", variant: "destructive" },
} as const;

const UNAVAILABLE = {
  not_installed: "Install SpamAssassin (apt-get install spamassassin) to see a spam score here.",
  too_large: "This mail is over 500 KiB: spam filters pass mail that large unscored, so there is no score to show.",
  failed: "SpamAssassin did not answer this time. Reload the page to ask again.",
} as const;

/** Points as SpamAssassin prints them: one decimal, a sign only when negative. */
const points = (score: number) => score.toFixed(1).replace(/^-0\.0$/, "0.0");

/**
 * What SpamAssassin's local rules make of the previewed mail, as it would be sent: the score
 * against the threshold, and each rule that hit with what it looks for.
 */
export function SpamScoreReport({ score }: { score: SpamScore }) {
  if (!score.available) {
    return (
      <section aria-label="Spam score" className="rounded-lg border p-4 text-sm text-muted-foreground">
        <p data-testid="spam-score-unavailable">{UNAVAILABLE[score.reason]}</p>
      </section>
    );
  }
  const level = LEVELS[spamScoreLevel(score)];
  return (
    <section aria-label="Spam score" className="grid gap-3 rounded-lg border p-4 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="font-medium">Spam score</span>
        <Badge variant={level.variant} data-testid="spam-score">
          {points(score.score)} · {level.label}
        </Badge>
        <span className="text-muted-foreground">
          SpamAssassin&apos;s local rules; {points(score.threshold)} or more is filed as spam, below{" "}
          {points(SPAM_SCORE_GOOD_BELOW)} is clear of it.
        </span>
      </div>
      {score.rules.length > 0 && (
        <ul className="grid gap-1.5" aria-label="Rules hit">
          {score.rules.map((rule) => (
            <li
              key={rule.name}
              className={cn(
                "grid grid-cols-[3rem_minmax(0,1fr)] gap-x-2",
                Math.abs(rule.score) < 0.05 && "text-muted-foreground",
              )}
            >
              <span className="text-right tabular-nums">{points(rule.score)}</span>
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <code className="text-xs">{rule.name}</code>
                {rule.description && <span className="text-muted-foreground"> {rule.description}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
