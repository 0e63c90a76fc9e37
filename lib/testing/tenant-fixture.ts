import { systemActor, userActor } from "@/lib/actor";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createAutomation } from "@/lib/automations/automations";
import { createBrand } from "@/lib/brands/create-brand";
import { createCampaign } from "@/lib/campaigns/save-campaign";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { contactBulkActions, verifiedAddresses, webhookEndpoints } from "@/lib/db/schema";
import { addSendingDomain } from "@/lib/domains/sending-domains";
import { createSignupForm } from "@/lib/forms/save-signup-form";
import { SIGNUP_FORM_DEFAULTS } from "@/lib/forms/signup-form-schemas";
import { newId } from "@/lib/ids";
import { receiveImport } from "@/lib/imports/receive-import";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { localTransport } from "@/lib/mail/transports/local-transport";
import { inviteMember } from "@/lib/members/invite-member";
import { createSegment } from "@/lib/segments/save-segment";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { saveCampaignAsTemplate } from "@/lib/templates/templates";

import { seedKey, seedTopic, seedWorkspace } from "./factories";

/** Every kind of id a request or a dashboard action can name. */
export const ID_KINDS = [
  "workspace",
  "user",
  "brand",
  "topic",
  "list",
  "contact",
  "suppression",
  "campaign",
  "key",
  "endpoint",
  "import",
  "form",
  "domain",
  "message",
  "template",
  "bulk_action",
  "segment",
  "automation",
] as const;
export type IdKind = (typeof ID_KINDS)[number];

export interface Tenant {
  workspaceId: string;
  owner: { id: string; email: string; name: string };
  /** One id of each kind, all of the first brand where a kind belongs to a brand. */
  ids: Record<IdKind, string>;
  /** The second brand's own topic and list: what a key locked to the first brand must not reach. */
  otherBrand: { brandId: string; topicId: string; listId: string };
  /** Keys of every kind; the brand-scoped ones are locked to the first brand. */
  keys: {
    secret: string;
    secretTest: string;
    publishable: string;
    publishableTest: string;
    brandSecret: string;
    brandPublishable: string;
  };
  /** An address the workspace verified as its own: test mails may go to it. */
  verifiedEmail: string;
  /** Strings that only this tenant's rows hold, to find in an answer that should know nothing of it. */
  marks: string[];
}

/**
 * A workspace with one of everything: two brands, a topic and a list of each,
 * a contact on the list, a suppression, a draft campaign and a template of it, a publishable key
 * (the signup form's), a disabled webhook endpoint, an import, a signup form,
 * a sending domain (checked against DNS_SERVERS), a message in the local
 * mailbox, an invited member and a verified address. `tag` marks its
 * addresses and names.
 */
export async function seedTenant(ctx: Ctx, tag: string): Promise<Tenant> {
  const ownerEmail = `owner-${tag}@tenant-${tag}.example`;
  const { workspaceId, ownerUserId, brandId } = await seedWorkspace(ctx, { ownerEmail });
  const actor = systemActor("test", workspaceId);
  const { brandId: otherBrandId } = await createBrand(ctx, actor, {
    name: `Other ${tag}`,
    legalName: `Other ${tag} Ltd`,
    postalAddress: "2 Side Street, Springfield",
    websiteUrl: "https://other.example.com",
    senderEmail: `news@other-${tag}.example`,
  });
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const otherTopicId = await seedTopic(ctx, workspaceId, otherBrandId);
  const { listId } = await createList(ctx, actor, { brandId, name: `List ${tag}` });
  const { listId: otherListId } = await createList(ctx, actor, { brandId: otherBrandId, name: `Other list ${tag}` });
  const contactEmail = `person-${tag}@tenant-${tag}.example`;
  const { contact } = await upsertContact(ctx, actor, {
    email: contactEmail,
    firstName: `First ${tag}`,
    topicIds: [topicId],
  });
  await addListMembers(ctx, actor, listId, [contact.id]);
  const { suppression } = await createSuppression(ctx, actor, { email: `blocked-${tag}@tenant-${tag}.example` });
  const { campaignId } = await createCampaign(ctx, actor, {
    brandId,
    topicId,
    name: `Campaign ${tag}`,
    subject: `Subject ${tag}`,
    html: "<p>Hello</p>",
  });
  const { templateId } = await saveCampaignAsTemplate(ctx, actor, { campaignId, name: `Template ${tag}` });
  const formKey = await createApiKey(ctx, actor, { kind: "publishable", environment: "live", name: "Signup form" });
  const endpointId = newId("wh");
  await ctx.db.insert(webhookEndpoints).values({
    id: endpointId,
    workspaceId,
    url: `https://hooks.tenant-${tag}.example/in`,
    signingSecret: `whsec_${tag}`,
    enabled: false,
    disabledAt: ctx.clock.now(),
  });
  const { importId } = await receiveImport(ctx, actor, {
    fileName: `${tag}.csv`,
    body: (async function* () {
      yield new TextEncoder().encode(`email\nimported-${tag}@tenant-${tag}.example\n`);
    })(),
  });
  const { formId } = await createSignupForm(ctx, actor, {
    ...SIGNUP_FORM_DEFAULTS,
    name: `Form ${tag}`,
    brandId,
    topicIds: [topicId],
    apiKeyId: formKey.keyId,
  });
  const { domainId } = await addSendingDomain(ctx, actor, { brandId, hostname: `mail.tenant-${tag}.example` });
  const { providerMessageId: messageId } = await localTransport().send(ctx, {
    workspaceId,
    idempotencyKey: `message-${tag}-${workspaceId}`,
    from: { name: "Brand", address: `news@tenant-${tag}.example` },
    to: contactEmail,
    subject: `Message ${tag}`,
    text: "hi",
    html: "<p>hi</p>",
  });
  const verifiedEmail = `verified-${tag}@tenant-${tag}.example`;
  await ctx.db.insert(verifiedAddresses).values({ workspaceId, email: verifiedEmail, verifiedAt: ctx.clock.now() });
  const { userId: memberId } = await inviteMember(ctx, userActor(ownerUserId, workspaceId), {
    email: `member-${tag}@tenant-${tag}.example`,
  });
  // A bulk action already done: its progress is what a dashboard read shows.
  const bulkActionId = newId("cba");
  await ctx.db.insert(contactBulkActions).values({
    id: bulkActionId,
    workspaceId,
    kind: "add_to_list",
    selection: { ids: [contact.id] },
    listId,
    status: "completed",
    total: 1,
    done: 1,
    madeBy: `user:${ownerUserId}`,
  });
  const { segmentId } = await createSegment(ctx, actor, {
    name: `Segment ${tag}`,
    rule: { match: "all", groups: [{ match: "all", conditions: [{ kind: "list", op: "in", listId }] }] },
  });
  // A draft without steps: activating it is refused for a reason of its own, not for its id.
  const { automationId } = await createAutomation(ctx, actor, { name: `Automation ${tag}`, topic_id: topicId });
  const key = async (input: Parameters<typeof seedKey>[2]) => (await seedKey(ctx, workspaceId, input)).key;
  return {
    workspaceId,
    owner: { id: ownerUserId, email: ownerEmail, name: ownerEmail },
    ids: {
      workspace: workspaceId,
      user: memberId,
      brand: brandId,
      topic: topicId,
      list: listId,
      contact: contact.id,
      suppression: suppression.id,
      campaign: campaignId,
      key: formKey.keyId,
      endpoint: endpointId,
      import: importId,
      form: formId,
      domain: domainId,
      message: messageId,
      template: templateId,
      bulk_action: bulkActionId,
      segment: segmentId,
      automation: automationId,
    },
    otherBrand: { brandId: otherBrandId, topicId: otherTopicId, listId: otherListId },
    verifiedEmail,
    keys: {
      secret: await key({}),
      secretTest: await key({ environment: "test" }),
      publishable: await key({ kind: "publishable" }),
      publishableTest: await key({ kind: "publishable", environment: "test" }),
      brandSecret: await key({ brandId }),
      brandPublishable: await key({ kind: "publishable", brandId }),
    },
    marks: [
      `tenant-${tag}.example`,
      `First ${tag}`,
      `List ${tag}`,
      `Campaign ${tag}`,
      `Template ${tag}`,
      `Segment ${tag}`,
      `Automation ${tag}`,
    ],
  };
}
