import { abTestWinner } from "./functions/ab-test-winner";
import { applyProviderEventFunction } from "./functions/apply-provider-event";
import { automationDates } from "./functions/automation-dates";
import { automationEntry } from "./functions/automation-entry";
import { billingLadder, endTrialsFunction } from "./functions/billing-ladder";
import { confirmation } from "./functions/confirmation";
import { contactBulkAction } from "./functions/contact-bulk-action";
import { contactImport } from "./functions/contact-import";
import { dispatchCampaign } from "./functions/dispatch-campaign";
import { foldReportCounters } from "./functions/fold-report-counters";
import { pollBounceMailboxFunction } from "./functions/poll-bounce-mailbox";
import { pruneExpiredFunction } from "./functions/prune-expired";
import { pruneImportsFunction } from "./functions/prune-imports";
import { recheckDomainsFunction } from "./functions/recheck-domains";
import { webhookDelivery } from "./functions/webhook-delivery";
import { webhookSweep } from "./functions/webhook-sweep";
import { welcome } from "./functions/welcome";

/** Every workflow of the service, served at /api/inngest and run by the embedded executor. */
export const functions = [
  confirmation,
  welcome,
  dispatchCampaign,
  abTestWinner,
  webhookDelivery,
  webhookSweep,
  foldReportCounters,
  contactImport,
  contactBulkAction,
  applyProviderEventFunction,
  pollBounceMailboxFunction,
  recheckDomainsFunction,
  billingLadder,
  endTrialsFunction,
  pruneExpiredFunction,
  pruneImportsFunction,
  automationEntry,
  automationDates,
];
