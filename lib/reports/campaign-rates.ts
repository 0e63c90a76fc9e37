import { percent } from "./percent";

/** A rate, or null over a denominator of 0: the contract shows no rate then (the API writes 0, as docs/readings.md fixes under "Rates"). */
const rateOf = (part: number, whole: number): number | null => (whole === 0 ? null : percent(part, whole));

/** The rates of a campaign's report row, as /v1/reports/campaigns and the dashboard show them. */
export function campaignRates(row: {
  recipients: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
}) {
  return {
    openRate: rateOf(row.opened, row.delivered),
    clickRate: rateOf(row.clicked, row.delivered),
    bounceRate: rateOf(row.bounced, row.recipients),
    complaintRate: rateOf(row.complained, row.recipients),
  };
}
