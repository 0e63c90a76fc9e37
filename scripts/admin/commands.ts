import { readFileSync } from "node:fs";
import type { ParseArgsConfig } from "node:util";

import { systemActor, type Actor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import type { Currency } from "@/lib/billing/plans";
import { approveBrand } from "@/lib/brands/approve-brand";
import { createBrand } from "@/lib/brands/create-brand";
import { updateBrand } from "@/lib/brands/update-brand";
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  scheduleCampaign,
  sendCampaignNow,
  unscheduleCampaign,
} from "@/lib/campaigns/campaign-actions";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { showCampaign } from "@/lib/campaigns/show-campaign";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import type { Ctx } from "@/lib/context";
import { PROVIDER_EVENT_STATES, type ProviderEventState } from "@/lib/db/schema";
import type { DeliveryOutcome } from "@/lib/deliverability/apply-delivery-outcome";
import { listProviderEvents, retryProviderEvent } from "@/lib/deliverability/provider-event-admin";
import {
  addSendingDomain,
  checkSendingDomain,
  getSendingDomainOrThrow,
  type SendingDomain,
} from "@/lib/domains/sending-domains";
import { validationFailed } from "@/lib/errors";
import { createList } from "@/lib/lists/create-list";
import { listMailbox } from "@/lib/mail/list-mailbox";
import { simulateOutcome } from "@/lib/mail/simulate-outcome";
import { grantOperator } from "@/lib/operator/grant-operator";
import { archiveTopic } from "@/lib/topics/archive-topic";
import { createTopic } from "@/lib/topics/create-topic";
import { createUser } from "@/lib/users/create-user";
import { createEndpoint, enableEndpoint, listDeliveries, rotateSecret } from "@/lib/webhooks/endpoints";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

import { billingCommands } from "./billing-commands";
import { importCommands } from "./import-commands";
import { workflowCommands } from "./workflow-commands";

type Values = Record<string, string | boolean | string[] | undefined>;

function domainJson(domain: SendingDomain) {
  return {
    domain_id: domain.id,
    hostname: domain.hostname,
    state: domain.state,
    carrier_status: domain.carrierStatus,
    carrier_error: domain.carrierError,
    records: domain.records.map((record) => ({
      type: record.type,
      name: record.name,
      value: record.value,
      required: record.required,
      status: record.status,
      found: record.found,
    })),
  };
}

export interface AdminCommand {
  summary: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  required: string[];
  /** Printed as one indented JSON document rather than key by key (`--json` still prints it on one line). */
  document?: boolean;
  /** Returns the command's JSON object (snake_case keys: a stable contract for scripts). */
  run(ctx: Ctx, values: Values): Promise<Record<string, unknown>>;
}

const str = (values: Values, name: string) => values[name] as string;
const opt = (values: Values, name: string) => values[name] as string | undefined;
const string = { type: "string" } as const;

// The operator acts as the system: in the workspace a command names, or, for a command naming
// an object by its id only, across workspaces (the object's own workspace applies).

export const commands: Record<string, AdminCommand> = {
  "workspace:create": {
    summary: "--name N --owner EMAIL [--currency usd|eur|gbp]   (the billing currency cannot change later)",
    options: { name: string, owner: string, currency: string },
    required: ["name", "owner"],
    run: async (ctx, v) => {
      const { workspaceId } = await createWorkspace(ctx, {
        name: str(v, "name"),
        ownerEmail: str(v, "owner"),
        currency: opt(v, "currency") as Currency | undefined,
      });
      return { workspace_id: workspaceId };
    },
  },
  "workspace:approve": {
    summary: "--workspace ID",
    options: { workspace: string },
    required: ["workspace"],
    run: async (ctx, v) => {
      const { workspaceId, approvedAt } = await approveWorkspace(ctx, str(v, "workspace"));
      return { workspace_id: workspaceId, approved_at: approvedAt.toISOString() };
    },
  },
  "brand:create": {
    summary: "--workspace ID --name N --legal-name N --postal-address A --website-url U --sender-email E",
    options: {
      workspace: string,
      name: string,
      "legal-name": string,
      "postal-address": string,
      "website-url": string,
      "sender-email": string,
    },
    required: ["workspace", "name", "legal-name", "postal-address", "website-url", "sender-email"],
    run: async (ctx, v) => {
      const { brandId } = await createBrand(ctx, systemActor("admin-cli", str(v, "workspace")), {
        name: str(v, "name"),
        legalName: str(v, "legal-name"),
        postalAddress: str(v, "postal-address"),
        websiteUrl: str(v, "website-url"),
        senderEmail: str(v, "sender-email"),
      });
      return { brand_id: brandId };
    },
  },
  "brand:approve": {
    summary: "--brand ID",
    options: { brand: string },
    required: ["brand"],
    run: async (ctx, v) => {
      const { brandId, reviewStatus } = await approveBrand(ctx, systemActor("admin-cli"), str(v, "brand"));
      return { brand_id: brandId, review_status: reviewStatus };
    },
  },
  "brand:update": {
    summary:
      "--brand ID [--name N] [--legal-name N] [--postal-address A] [--sender-email E] [--website-url U] [--logo-url U] [--primary-color #RRGGBB]   (an identity edit returns the brand to review and holds its sending)",
    options: {
      brand: string,
      name: string,
      "legal-name": string,
      "postal-address": string,
      "sender-email": string,
      "website-url": string,
      "logo-url": string,
      "primary-color": string,
    },
    required: ["brand"],
    run: async (ctx, v) => {
      const { brand } = await updateBrand(ctx, systemActor("admin-cli"), str(v, "brand"), {
        name: opt(v, "name"),
        legalName: opt(v, "legal-name"),
        postalAddress: opt(v, "postal-address"),
        senderEmail: opt(v, "sender-email"),
        websiteUrl: opt(v, "website-url"),
        logoUrl: opt(v, "logo-url"),
        primaryColor: opt(v, "primary-color"),
      });
      return { brand_id: brand.id, review_status: brand.reviewStatus, sending_held: brand.sendingHeldAt !== null };
    },
  },
  "topic:create": {
    summary: "--workspace ID --brand ID --name N [--description D] [--no-confirmation]",
    options: {
      workspace: string,
      brand: string,
      name: string,
      description: string,
      "no-confirmation": { type: "boolean" },
    },
    required: ["workspace", "brand", "name"],
    run: async (ctx, v) => {
      const { topicId } = await createTopic(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        name: str(v, "name"),
        description: opt(v, "description"),
        requiresConfirmation: !v["no-confirmation"],
      });
      return { topic_id: topicId };
    },
  },
  "topic:archive": {
    summary: "--topic ID",
    options: { topic: string },
    required: ["topic"],
    run: async (ctx, v) => {
      const { topicId, archivedAt } = await archiveTopic(ctx, systemActor("admin-cli"), str(v, "topic"));
      return { topic_id: topicId, archived_at: archivedAt.toISOString() };
    },
  },
  "list:create": {
    summary: "--workspace ID --brand ID --name N [--description D]",
    options: { workspace: string, brand: string, name: string, description: string },
    required: ["workspace", "brand", "name"],
    run: async (ctx, v) => {
      const { listId } = await createList(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        name: str(v, "name"),
        description: opt(v, "description"),
      });
      return { list_id: listId };
    },
  },
  "attribute:define": {
    summary: "--workspace ID --key K --type string|number|boolean|date",
    options: { workspace: string, key: string, type: string },
    required: ["workspace", "key", "type"],
    run: async (ctx, v) => {
      const result = await defineAttribute(ctx, systemActor("admin-cli", str(v, "workspace")), {
        key: str(v, "key"),
        type: str(v, "type") as "string",
      });
      return { key: result.key, type: result.type };
    },
  },
  "key:create": {
    summary: "--workspace ID --type secret|publishable --env live|test [--brand ID] [--origin O]... [--name N]",
    options: {
      workspace: string,
      type: string,
      env: string,
      brand: string,
      origin: { type: "string", multiple: true },
      name: string,
    },
    required: ["workspace", "type", "env"],
    run: async (ctx, v) => {
      const { keyId, key } = await createApiKey(ctx, systemActor("admin-cli", str(v, "workspace")), {
        kind: str(v, "type") as "secret",
        environment: str(v, "env") as "live",
        brandId: opt(v, "brand"),
        origins: (v.origin as string[] | undefined) ?? [],
        name: opt(v, "name"),
      });
      return { key_id: keyId, key };
    },
  },
  "key:revoke": {
    summary: "--key ID",
    options: { key: string },
    required: ["key"],
    run: async (ctx, v) => {
      const { keyId, revokedAt } = await revokeApiKey(ctx, systemActor("admin-cli"), str(v, "key"));
      return { key_id: keyId, revoked_at: revokedAt.toISOString() };
    },
  },
  "mailbox:list": {
    summary: "[--to EMAIL] [--workspace ID] [--limit N]   (the local transport's mailbox, newest first)",
    options: { to: string, workspace: string, limit: string },
    required: [],
    run: async (ctx, v) => {
      const messages = await listMailbox(ctx, systemActor("admin-cli", opt(v, "workspace")), {
        to: opt(v, "to"),
        limit: Number(opt(v, "limit") ?? 50),
      });
      return {
        messages: messages.map((m) => ({
          id: m.id,
          to: m.to,
          from: m.from,
          subject: m.subject,
          headers: m.headers,
          text: m.text,
          html: m.html,
          links: m.links,
          sent_at: m.sentAt.toISOString(),
        })),
      };
    },
  },
  "mailbox:event": {
    summary:
      "--message ID --type delivered|bounced|complained [--bounce-type permanent|transient|undetermined]   (what a provider would report)",
    options: { message: string, type: string, "bounce-type": string },
    required: ["message", "type"],
    run: async (ctx, v) => {
      const type = str(v, "type");
      const bounceType = opt(v, "bounce-type") ?? "permanent";
      if (!["delivered", "bounced", "complained"].includes(type))
        throw validationFailed("type", "type: must be delivered, bounced or complained.");
      if (!["permanent", "transient", "undetermined"].includes(bounceType))
        throw validationFailed("bounce-type", "bounce-type: must be permanent, transient or undetermined.");
      const outcome: DeliveryOutcome =
        type === "bounced"
          ? { type: "bounced", bounceType: bounceType as "permanent" }
          : { type: type as "delivered" | "complained" };
      const { suppressed } = await simulateOutcome(ctx, systemActor("admin-cli"), str(v, "message"), outcome);
      return {
        message_id: str(v, "message"),
        type,
        ...(type === "bounced" ? { bounce_type: bounceType } : {}),
        suppressed,
      };
    },
  },
  "domain:add": {
    summary: "--workspace ID --brand ID --hostname H   (a sending domain for the brand; prints the records to publish)",
    options: { workspace: string, brand: string, hostname: string },
    required: ["workspace", "brand", "hostname"],
    run: async (ctx, v) => {
      const actor = systemActor("admin-cli", str(v, "workspace"));
      const { domainId } = await addSendingDomain(ctx, actor, {
        brandId: str(v, "brand"),
        hostname: str(v, "hostname"),
      });
      return domainJson(await getSendingDomainOrThrow(ctx, actor, domainId));
    },
  },
  "domain:check": {
    summary: "--domain ID [--resync]   (look the records up now; --resync repeats the carrier registration)",
    options: { domain: string, resync: { type: "boolean" } },
    required: ["domain"],
    run: async (ctx, v) =>
      domainJson(
        await checkSendingDomain(
          ctx,
          systemActor("admin-cli"),
          str(v, "domain"),
          {},
          { reregister: v.resync === true },
        ),
      ),
  },
  "provider-events:list": {
    summary:
      "[--state received|applied|ignored|failed|unrecognized] [--limit N]   (bounce and complaint reports as received)",
    options: { state: string, limit: string },
    required: [],
    run: async (ctx, v) => {
      const state = opt(v, "state");
      if (state && !PROVIDER_EVENT_STATES.includes(state as ProviderEventState))
        throw validationFailed("state", `state: must be one of ${PROVIDER_EVENT_STATES.join(", ")}.`);
      const limit = Number(opt(v, "limit") ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw validationFailed("limit", "limit: must be 1 to 1000.");
      const rows = await listProviderEvents(ctx, { state: state as ProviderEventState | undefined, limit });
      return {
        data: rows.map((row) => ({
          id: row.id,
          provider: row.provider,
          provider_event_id: row.providerEventId,
          state: row.state,
          workspace_id: row.workspaceId,
          attempts: row.attempts,
          last_error: row.lastError,
          received_at: row.receivedAt.toISOString(),
          applied_at: row.appliedAt?.toISOString() ?? null,
          event: row.event,
        })),
      };
    },
  },
  "provider-events:retry": {
    summary: "--id ID   (apply a failed report again, once its cause is fixed)",
    options: { id: string },
    required: ["id"],
    run: async (ctx, v) => {
      await retryProviderEvent(ctx, str(v, "id"));
      return { id: str(v, "id"), state: "received" };
    },
  },
  "campaign:create": {
    summary: "--workspace ID --brand ID --topic ID [--list ID] --name N --subject S --html FILE [--text FILE]",
    options: {
      workspace: string,
      brand: string,
      topic: string,
      list: string,
      name: string,
      subject: string,
      html: string,
      text: string,
    },
    required: ["workspace", "brand", "topic", "name", "subject", "html"],
    run: async (ctx, v) => {
      const { campaignId } = await createCampaign(ctx, systemActor("admin-cli", str(v, "workspace")), {
        brandId: str(v, "brand"),
        topicId: str(v, "topic"),
        listId: opt(v, "list"),
        name: str(v, "name"),
        subject: str(v, "subject"),
        html: readFileSync(str(v, "html"), "utf8"),
        text: opt(v, "text") ? readFileSync(str(v, "text"), "utf8") : undefined,
      });
      return { campaign_id: campaignId };
    },
  },
  ...campaignAction("campaign:send", sendCampaignNow),
  ...campaignAction("campaign:unschedule", unscheduleCampaign),
  ...campaignAction("campaign:pause", pauseCampaign),
  ...campaignAction("campaign:resume", resumeCampaign),
  ...campaignAction("campaign:cancel", async (ctx, actor, id) => (await cancelCampaign(ctx, actor, id)).campaign),
  "campaign:schedule": {
    summary: "--campaign ID --at TIMESTAMP",
    options: { campaign: string, at: string },
    required: ["campaign", "at"],
    run: async (ctx, v) => {
      const at = new Date(str(v, "at"));
      if (Number.isNaN(at.getTime()))
        throw validationFailed("at", "at: must be a timestamp such as 2026-12-01T09:00:00Z.");
      const campaign = await scheduleCampaign(ctx, systemActor("admin-cli"), str(v, "campaign"), at);
      return { campaign_id: campaign.id, status: campaign.status, scheduled_at: at.toISOString() };
    },
  },
  "campaign:show": {
    summary: "--campaign ID   (counts, and each recipient not sent to with the reason)",
    options: { campaign: string },
    required: ["campaign"],
    run: async (ctx, v) => {
      const { campaign, counts, skipped } = await showCampaign(ctx, systemActor("admin-cli"), str(v, "campaign"));
      return { campaign_id: campaign.id, status: campaign.status, counts, skipped };
    },
  },
  "webhook:create": {
    summary: "--workspace ID --url U [--event E]...   (no --event: every event; prints the signing secret once)",
    options: { workspace: string, url: string, event: { type: "string", multiple: true } },
    required: ["workspace", "url"],
    run: async (ctx, v) => {
      const { endpointId, secret } = await createEndpoint(ctx, systemActor("admin-cli", str(v, "workspace")), {
        url: str(v, "url"),
        eventTypes: (v.event as string[] | undefined) ?? [],
      });
      return { endpoint_id: endpointId, secret };
    },
  },
  "webhook:rotate": {
    summary:
      "--endpoint ID   (new signing secret for the next delivery; deliveries being retried are retried with it now)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const { secret, retried } = await rotateSecret(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return { secret, retried };
    },
  },
  "webhook:enable": {
    summary: "--endpoint ID   (turns a disabled endpoint back on for events from now on)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const endpoint = await enableEndpoint(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return { endpoint_id: endpoint.id, enabled: endpoint.enabled };
    },
  },
  "webhook:deliveries": {
    summary: "--endpoint ID   (every delivery with each attempt: status code, latency, response excerpt)",
    options: { endpoint: string },
    required: ["endpoint"],
    run: async (ctx, v) => {
      const { endpoint, deliveries } = await listDeliveries(ctx, systemActor("admin-cli"), str(v, "endpoint"));
      return {
        endpoint_id: endpoint.id,
        url: endpoint.url,
        enabled: endpoint.enabled,
        disabled_at: endpoint.disabledAt?.toISOString() ?? null,
        disabled_reason: endpoint.disabledReason,
        deliveries: deliveries.map((delivery) => ({
          delivery_id: delivery.id,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          status: delivery.status,
          attempt_count: delivery.attemptCount,
          next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
          attempts: delivery.attempts.map((attempt) => ({
            attempted_at: attempt.attemptedAt.toISOString(),
            status_code: attempt.statusCode,
            latency_ms: attempt.latencyMs,
            response_excerpt: attempt.responseExcerpt,
            error: attempt.error,
          })),
        })),
      };
    },
  },
  "user:create": {
    summary: "--email E --password P [--workspace ID] [--operator]   (--operator: one of the service's reviewers)",
    options: { email: string, password: string, workspace: string, operator: { type: "boolean" } },
    required: ["email", "password"],
    run: async (ctx, v) => {
      const { userId } = await createUser(ctx, {
        email: str(v, "email"),
        password: str(v, "password"),
        workspaceId: opt(v, "workspace"),
      });
      if (v.operator === true) await grantOperator(ctx, str(v, "email"));
      return { user_id: userId, ...(v.operator === true ? { operator: true } : {}) };
    },
  },
  "user:grant-operator": {
    summary: "--email E   (the user reviews workspaces and brands at /operator)",
    options: { email: string },
    required: ["email"],
    run: async (ctx, v) => ({ user_id: await grantOperator(ctx, str(v, "email")), operator: true }),
  },
  ...importCommands,
  ...billingCommands,
  ...workflowCommands,
};

/** The status commands share one shape: --campaign ID → {campaign_id, status}. */
function campaignAction(
  name: string,
  act: (ctx: Ctx, actor: Actor, campaignId: string) => Promise<{ id: string; status: string }>,
): Record<string, AdminCommand> {
  return {
    [name]: {
      summary: "--campaign ID",
      options: { campaign: string },
      required: ["campaign"],
      run: async (ctx, v) => {
        const campaign = await act(ctx, systemActor("admin-cli"), str(v, "campaign"));
        return { campaign_id: campaign.id, status: campaign.status };
      },
    },
  };
}
