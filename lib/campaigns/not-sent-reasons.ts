/**
 * Why a recipient of a campaign was not sent to, in words, for the campaign page, its CSV and a
 * contact's history. A rule leaving someone out (the sandbox, a suppression, the sunset of inactive
 * contacts, a merge tag without a value, the plan's allowance) is not a failure of the service: `byRule` tells them apart.
 */
export interface NotSentReason {
  byRule: boolean;
  label: string;
  /** What the sender can do about it, when there is something. */
  fix?: string;
}

const MISSING_TAG = "missing_merge_tag:";
const REFUSED = "refused:";

const RULES: Record<string, NotSentReason> = {
  recipient_not_verified: {
    byRule: true,
    label: "Sandbox: not one of your verified addresses",
    fix: "Until your workspace passes the review, campaigns go only to your verified addresses: pass the review, or add them as verified addresses.",
  },
  suppressed: { byRule: true, label: "Suppressed after sending started (a bounce, a complaint or a block)" },
  erased: { byRule: true, label: "Erased at the person's request before it was sent" },
  inactive: {
    byRule: true,
    label: "Inactive: no open or click in the campaigns or days your sunset allows",
    fix: "Tick “Include inactive contacts” on a campaign to send to them anyway; their subscriptions are unchanged.",
  },
  refused_temporarily: {
    byRule: false,
    label: "Refused for now by the recipient's mail provider at every try, for about ten hours",
    fix: "Their provider kept asking to slow down or try later: send to them again in a later campaign.",
  },
  over_allowance: {
    byRule: true,
    label: "Over your plan's sending allowance for this period",
    fix: "Move to a larger plan on the Billing page, or wait for the next period.",
  },
};

export function notSentReason(reason: string): NotSentReason {
  if (reason.startsWith(MISSING_TAG)) {
    const tag = `{{${reason.slice(MISSING_TAG.length)}}}`;
    return {
      byRule: true,
      label: `No value for ${tag}`,
      fix: `Fill in ${tag} for them, or write the campaign without it.`,
    };
  }
  if (reason.startsWith(REFUSED))
    return { byRule: false, label: `Refused by the recipient's mail server (SMTP ${reason.slice(REFUSED.length)})` };
  return RULES[reason] ?? { byRule: false, label: `Could not be sent (${reason || "no reason recorded"})` };
}
