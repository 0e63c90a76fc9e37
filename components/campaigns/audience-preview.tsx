import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { notSentReason } from "@/lib/campaigns/not-sent-reasons";
import type { AudiencePreview, ExclusionReason } from "@/lib/campaigns/preview-audience";

type Worded = { label: string; fix?: string };

const LABELS: Record<
  Exclude<ExclusionReason, `missing_merge_tag:${string}` | "not_verified" | "inactive" | "over_allowance">,
  Worded
> = {
  not_subscribed: { label: "On the list, not subscribed to the topic" },
  pending_confirmation: { label: "Has not confirmed the subscription yet" },
  unsubscribed: { label: "Unsubscribed" },
  not_on_list: { label: "Subscribed, not on the list" },
  not_sent_original: { label: "Did not get the campaign this resends" },
  opened_original: { label: "Opened the campaign this resends" },
  not_in_segment: {
    label: "Subscribed, not in the segment",
    fix: "Change the segment's rule or the campaign's segment.",
  },
  in_excluded_segment: { label: "In the excluded segment" },
  suppressed_complaint: { label: "Suppressed: marked your mail as spam" },
  suppressed_bounce: { label: "Suppressed: the address bounced" },
  suppressed_soft_bounce: { label: "Suppressed: repeated soft bounces" },
  suppressed_address: { label: "Suppressed address" },
  suppressed_domain: { label: "Suppressed domain" },
};

/** A reason in words, with what to do about it where something can be done; the ones dispatch records read as on the campaign page. */
export function exclusionWords(reason: ExclusionReason): Worded {
  if (reason === "not_verified") return notSentReason("recipient_not_verified");
  if (reason === "over_allowance" || reason === "inactive" || reason.startsWith("missing_merge_tag:"))
    return notSentReason(reason);
  return LABELS[reason as keyof typeof LABELS];
}

/** Why a campaign would reach nobody now, what to do and where (a path in the workspace), as the send dialog says it. */
export type Nobody = { text: string; link?: { label: string; path: string } };

/** Null when the campaign reaches someone. */
export function whyNobody(preview: AudiencePreview): Nobody | null {
  if (preview.recipients > 0) return null;
  const has = (test: (reason: string) => boolean) => preview.exclusions.find((exclusion) => test(exclusion.reason));
  if (has((reason) => reason === "over_allowance"))
    return {
      text: "Your plan's sending allowance for this period is used up. Move to a larger plan, or wait for the next period.",
      link: { label: "Billing", path: "/billing" },
    };
  const tag = has((reason) => reason.startsWith("missing_merge_tag:"));
  if (tag)
    return {
      text: `Everyone it would go to has no value for {{${tag.reason.slice("missing_merge_tag:".length)}}}. Remove the tag from the campaign, or fill it in for your contacts.`,
    };
  if (has((reason) => reason === "not_verified"))
    return {
      text: "Until your workspace passes the review, campaigns go only to your verified addresses, and none of them is subscribed to this topic. Add your own addresses as verified addresses and subscribe them, or pass the review.",
      link: { label: "Verified addresses", path: "/verified-addresses" },
    };
  if (has((reason) => reason === "inactive"))
    return {
      text: "Everyone it would go to is inactive under your sunset of inactive contacts. Tick “Include inactive contacts” on the campaign to send to them anyway, or change the sunset.",
      link: { label: "Deliverability", path: "/deliverability" },
    };
  if (has((reason) => reason === "opened_original"))
    return {
      text: "Everyone the original campaign reached who can still receive mail has opened it: nobody is left to resend it to.",
    };
  if (has((reason) => reason === "not_in_segment" || reason === "in_excluded_segment"))
    return {
      text: "Its segment leaves nobody who can receive it (see who it removes below). Change the segment's rule, or the campaign's segment.",
      link: { label: "Segments", path: "/segments" },
    };
  return {
    text: "Nobody subscribed to its topic (and on its list) can receive it. Add subscribers, or choose another topic or list.",
    link: { label: "Contacts", path: "/contacts" },
  };
}

/** Who the campaign goes to if sent now, and every reason the others do not, with the first few addresses. */
export function AudiencePreviewTable({ preview }: { preview: AudiencePreview }) {
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        <span className="text-2xl font-semibold tabular-nums" data-testid="audience-recipients">
          {preview.recipients.toLocaleString("en")}
        </span>{" "}
        {preview.recipients === 1 ? "person gets" : "people get"} this mail if you send it now.
      </p>
      {preview.exclusions.length > 0 && (
        // Fixed columns that wrap: the addresses stay readable at any width instead of being cut off.
        <Table aria-label="Left out" className="table-fixed">
          <TableHeader>
            <TableRow>
              <TableHead className="w-[45%]">Left out because</TableHead>
              <TableHead className="w-20 text-right">People</TableHead>
              <TableHead>For example</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.exclusions.map((exclusion) => {
              const { label, fix } = exclusionWords(exclusion.reason);
              return (
                <TableRow key={exclusion.reason}>
                  <TableCell className="whitespace-normal align-top">
                    <span className="grid gap-0.5">
                      <span>{label}</span>
                      {fix && <span className="text-xs text-muted-foreground">{fix}</span>}
                    </span>
                  </TableCell>
                  <TableCell className="align-top text-right tabular-nums">
                    {exclusion.count.toLocaleString("en")}
                  </TableCell>
                  <TableCell className="whitespace-normal align-top text-muted-foreground">
                    <ul className="grid gap-0.5">
                      {exclusion.sample.map((email) => (
                        <li key={email} className="break-all">
                          {email}
                        </li>
                      ))}
                    </ul>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
