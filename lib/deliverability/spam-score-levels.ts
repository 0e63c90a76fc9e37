/**
 * What a spam filter thought of a mail (readings.md, "Spam score of a campaign"): SpamAssassin's
 * score with the rules that made it, or why there is none. Free of server code: the dashboard
 * shows it.
 */
export type SpamScore =
  | {
      available: true;
      score: number;
      /** SpamAssassin's `required_score`: from it on, a filter with the same rules files the mail as spam (5.0 unless the operator changed it). */
      threshold: number;
      /** Every rule that hit, highest score first; rules scoring 0 are informational. */
      rules: SpamRule[];
    }
  | {
      available: false;
      /** not_installed: no SpamAssassin at SPAMASSASSIN_PATH. too_large: past what is scored. failed: it ran and gave no answer. */
      reason: "not_installed" | "too_large" | "failed";
    };

export interface SpamRule {
  name: string;
  score: number;
  description: string;
}

/** Below it, a mail is well clear of any filter's threshold: the starter templates and the service's own mail stay below. */
export const SPAM_SCORE_GOOD_BELOW = 2;

/**
 * good: below 2.0. bad: at or past the threshold SpamAssassin reports (a filter with its rules
 * would file the mail as spam). warn: in between, where a filter scoring a little harder, or a
 * network test left out here, can tip it over.
 */
export function spamScoreLevel(score: { score: number; threshold: number }): "good" | "warn" | "bad" {
  if (score.score >= score.threshold) return "bad";
  return score.score < SPAM_SCORE_GOOD_BELOW ? "good" : "warn";
}
