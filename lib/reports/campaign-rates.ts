import { percent } from "./percent";

/** The rates of a campaign's report row, as /v1/reports/campaigns and the dashboard show them. */
export function campaignRates(row: { recipients: number; delivered: number; opened: number; clicked: number; bounced: number; complained: number }) {
  return {
    openRate: percent(row.opened, row.delivered),
    clickRate: percent(row.clicked, row.delivered),
    bounceRate: percent(row.bounced, row.recipients),
    complaintRate: percent(row.complained, row.recipients),
  };
}
