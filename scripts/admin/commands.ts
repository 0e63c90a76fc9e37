import { abTestCommands } from "./ab-test-commands";
import type { AdminCommand } from "./admin-command";
import { audienceCommands } from "./audience-commands";
import { automationCommands } from "./automation-commands";
import { billingCommands } from "./billing-commands";
import { brandCommands } from "./brand-commands";
import { campaignCommands } from "./campaign-commands";
import { domainCommands } from "./domain-commands";
import { eventCommands } from "./event-commands";
import { importCommands } from "./import-commands";
import { keyCommands } from "./key-commands";
import { mailboxCommands } from "./mailbox-commands";
import { providerEventCommands } from "./provider-event-commands";
import { segmentCommands } from "./segment-commands";
import { userCommands } from "./user-commands";
import { webhookCommands } from "./webhook-commands";
import { workflowCommands } from "./workflow-commands";
import { workspaceCommands } from "./workspace-commands";

// The operator acts as the system: in the workspace a command names, or, for a command naming
// an object by its id only, across workspaces (the object's own workspace applies).

/** Every admin command by its name, in the order help lists them. */
export const commands: Record<string, AdminCommand> = {
  ...workspaceCommands,
  ...brandCommands,
  ...audienceCommands,
  ...segmentCommands,
  ...automationCommands,
  ...keyCommands,
  ...mailboxCommands,
  ...domainCommands,
  ...providerEventCommands,
  ...campaignCommands,
  ...abTestCommands,
  ...webhookCommands,
  ...userCommands,
  ...importCommands,
  ...eventCommands,
  ...billingCommands,
  ...workflowCommands,
};
