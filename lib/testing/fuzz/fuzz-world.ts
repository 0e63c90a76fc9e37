import { systemActor } from "@/lib/actor";
import { generateKey } from "@/lib/api-keys/key-format";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { BUCKET_LIMITS } from "@/lib/api/rate-limit";
import { createBrand } from "@/lib/brands/create-brand";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import { createList } from "@/lib/lists/create-list";
import { addListMembers } from "@/lib/lists/list-membership";
import { createSuppression } from "@/lib/suppressions/create-suppression";
import { callApi } from "@/lib/testing/api-client";
import { optOut, seedKey, seedTopic, seedWorkspace, setBillingStage } from "@/lib/testing/factories";
import { archiveTopic } from "@/lib/topics/archive-topic";

/** A cursor the service issued, and for which path: valid there with the same key and filters, so only elsewhere a malformed one. */
export interface IssuedCursor {
  path: string;
  cursor: string;
  /** Issued to workspace A's workspace-wide key: still valid on its own path. */
  own: boolean;
}

/**
 * The tenants a fuzz run aims at. Workspace A is the caller's: two brands
 * (brand-scoped keys belong to the first), topics, contacts, lists,
 * suppressions and attributes. Workspace B is another tenant whose ids are
 * named from A. A third workspace is deleted (team_inactive).
 */
export interface FuzzWorld {
  keys: {
    /** Many of each, so that rate limits rarely bind and the run exercises validation. */
    secret: string[];
    secretTest: string[];
    brandSecret: string[];
    publishable: string[];
    publishableTest: string[];
    brandPublishable: string[];
    allowlisted: { key: string; origin: string }[];
    revoked: string[];
    inactive: string[];
    /** Over every bucket's limit for the next hours: always 429. */
    exhausted: string[];
    /** Well-formed (prefix and checksum) but never issued. */
    forged: string[];
  };
  own: {
    topicIds: string[];
    otherBrandTopicIds: string[];
    archivedTopicIds: string[];
    contactIds: string[];
    emails: string[];
    /** Opted out of everything: POST /v1/contacts answers contact_unsubscribed. */
    unsubscribedEmails: string[];
    listIds: string[];
    otherBrandListIds: string[];
    suppressionIds: string[];
    complaintSuppressionIds: string[];
    attributes: { key: string; type: "string" | "number" | "boolean" | "date" }[];
  };
  foreign: { topicIds: string[]; contactIds: string[]; listIds: string[]; suppressionIds: string[] };
  cursors: IssuedCursor[];
}

/** Seeds the fuzz tenants; `keysPerKind` is sized to the run so the rate limits rarely bind. */
export async function seedFuzzWorld(ctx: Ctx, keysPerKind: number): Promise<FuzzWorld> {
  const a = await seedWorkspace(ctx);
  const actorA = systemActor("fuzz", a.workspaceId);
  const { brandId: otherBrandId } = await createBrand(ctx, actorA, {
    name: "Other brand",
    legalName: "Other Ltd",
    postalAddress: "2 Side Street, Springfield",
    websiteUrl: "https://other.example.com",
    senderEmail: "news@other.example.com",
  });
  const topicIds = [
    await seedTopic(ctx, a.workspaceId, a.brandId),
    await seedTopic(ctx, a.workspaceId, a.brandId, { requiresConfirmation: false }),
  ];
  const otherBrandTopicIds = [await seedTopic(ctx, a.workspaceId, otherBrandId)];
  const archived = await seedTopic(ctx, a.workspaceId, a.brandId);
  await archiveTopic(ctx, actorA, archived);
  const attributes = [
    { key: "plan", type: "string" },
    { key: "seats", type: "number" },
    { key: "vip", type: "boolean" },
    { key: "renews_on", type: "date" },
  ] as const;
  for (const attribute of attributes) await defineAttribute(ctx, actorA, attribute);

  const emails = ["ada@example.com", "grace@example.com", "linus@example.org"];
  const contactIds: string[] = [];
  for (const email of emails)
    contactIds.push((await upsertContact(ctx, actorA, { email, firstName: "Fuzz", topicIds })).contact.id);
  const unsubscribedEmails = ["gone@example.com"];
  const gone = (await upsertContact(ctx, actorA, { email: unsubscribedEmails[0]!, firstName: "Gone", topicIds }))
    .contact.id;
  await optOut(ctx, gone, "all");

  const listIds = [
    (await createList(ctx, actorA, { brandId: a.brandId, name: "Customers" })).listId,
    (await createList(ctx, actorA, { brandId: a.brandId, name: "Leads" })).listId,
  ];
  await addListMembers(ctx, actorA, listIds[0]!, contactIds.slice(0, 2));
  const otherBrandListIds = [
    (await createList(ctx, actorA, { brandId: otherBrandId, name: "Other customers" })).listId,
  ];
  const suppressionIds = [
    (await createSuppression(ctx, actorA, { email: "blocked@example.com", note: "asked" })).suppression.id,
    (await createSuppression(ctx, actorA, { domain: "blocked.example" })).suppression.id,
  ];
  const complaintSuppressionIds = [
    (await createSuppression(ctx, actorA, { email: "angry@example.com" }, "complaint")).suppression.id,
  ];

  const keys = async (count: number, input: Parameters<typeof seedKey>[2], workspaceId = a.workspaceId) =>
    Promise.all(Array.from({ length: count }, async () => (await seedKey(ctx, workspaceId, input)).key));
  const allowedOrigin = "https://signup.example.com";
  const revoked = await seedKey(ctx, a.workspaceId);
  await revokeApiKey(ctx, actorA, revoked.keyId);
  const exhausted = await seedKey(ctx, a.workspaceId);
  await exhaust(ctx, exhausted.keyId);

  const b = await seedWorkspace(ctx);
  const actorB = systemActor("fuzz", b.workspaceId);
  const foreignTopicIds = [await seedTopic(ctx, b.workspaceId, b.brandId)];
  const foreignContactIds = [
    (await upsertContact(ctx, actorB, { email: "ada@example.com", topicIds: foreignTopicIds })).contact.id,
    (await upsertContact(ctx, actorB, { email: "bo@example.net" })).contact.id,
  ];
  const foreignListIds = [
    (await createList(ctx, actorB, { brandId: b.brandId, name: "B list" })).listId,
    (await createList(ctx, actorB, { brandId: b.brandId, name: "B list 2" })).listId,
  ];
  const foreignSuppressionIds = [
    (await createSuppression(ctx, actorB, { email: "b1@example.com" })).suppression.id,
    (await createSuppression(ctx, actorB, { email: "b2@example.com" })).suppression.id,
  ];

  const c = await seedWorkspace(ctx);
  const inactive = [
    (await seedKey(ctx, c.workspaceId)).key,
    (await seedKey(ctx, c.workspaceId, { kind: "publishable" })).key,
  ];
  await setBillingStage(ctx, c.workspaceId, "deleted");

  const cursors = [
    ...(await issueCursors((await seedKey(ctx, a.workspaceId)).key, true)),
    ...(await issueCursors((await seedKey(ctx, b.workspaceId)).key, false)),
  ];
  return {
    keys: {
      secret: await keys(keysPerKind, {}),
      secretTest: await keys(keysPerKind, { environment: "test" }),
      brandSecret: await keys(keysPerKind, { brandId: a.brandId }),
      publishable: await keys(keysPerKind, { kind: "publishable" }),
      publishableTest: await keys(keysPerKind, { kind: "publishable", environment: "test" }),
      brandPublishable: await keys(keysPerKind, { kind: "publishable", brandId: a.brandId }),
      allowlisted: (await keys(Math.max(1, keysPerKind >> 2), { kind: "publishable", origins: [allowedOrigin] })).map(
        (key) => ({ key, origin: allowedOrigin }),
      ),
      revoked: [revoked.key],
      inactive,
      exhausted: [exhausted.key],
      forged: [
        generateKey("secret", "live"),
        generateKey("secret", "test"),
        generateKey("publishable", "live"),
        generateKey("publishable", "test"),
      ],
    },
    own: {
      topicIds,
      otherBrandTopicIds,
      archivedTopicIds: [archived],
      contactIds,
      emails,
      unsubscribedEmails,
      listIds,
      otherBrandListIds,
      suppressionIds,
      complaintSuppressionIds,
      attributes: [...attributes],
    },
    foreign: {
      topicIds: foreignTopicIds,
      contactIds: foreignContactIds,
      listIds: foreignListIds,
      suppressionIds: foreignSuppressionIds,
    },
    cursors,
  };
}

/** A key whose every bucket is far over its limit from now until `hours` from now, so it is always answered 429. */
async function exhaust(ctx: Ctx, keyId: string, hours = 6): Promise<void> {
  const sql = rawClient(ctx.db);
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const rows = Object.keys(BUCKET_LIMITS).flatMap((bucket) =>
    Array.from({ length: hours * 60 + 1 }, (_, minute) => ({
      key_id: keyId,
      bucket,
      window_start: new Date(start + minute * 60_000).toISOString(),
      count: 1_000_000,
    })),
  );
  for (let i = 0; i < rows.length; i += 1000) await sql`insert into rate_limit_windows ${sql(rows.slice(i, i + 1000))}`;
}

/** The first page's next_cursor of every paginated list, as issued to this key. */
async function issueCursors(key: string, own: boolean): Promise<IssuedCursor[]> {
  const issued: IssuedCursor[] = [];
  for (const path of ["/v1/contacts", "/v1/topics", "/v1/lists", "/v1/suppressions"]) {
    const cursor = (await callApi("GET", `${path}?limit=1`, { key })).body.meta?.next_cursor;
    if (cursor) issued.push({ path, cursor, own });
  }
  return issued;
}
