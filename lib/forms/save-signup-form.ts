import "server-only";

import { and, eq, inArray, isNull } from "drizzle-orm";

import { inActorWorkspace, requireActorWorkspace, type Actor } from "@/lib/actor";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import { getBrandOrThrow } from "@/lib/brands/get-brand-or-throw";
import { withTransaction, type Ctx } from "@/lib/context";
import { apiKeys, attributeDefinitions, signupForms, topics } from "@/lib/db/schema";
import { validationFailed } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseInput } from "@/lib/validation/parse-input";

import { getSignupFormOrThrow } from "./get-signup-form";
import { redirectUrlAllowed } from "./redirect-url-allowed";
import { signupFormSchema, type SignupFormInput, type SignupFormValues } from "./signup-form-schemas";

export async function createSignupForm(ctx: Ctx, actor: Actor, input: SignupFormInput): Promise<{ formId: string }> {
  const workspaceId = requireActorWorkspace(actor);
  const values = parseInput(signupFormSchema, input);
  return withTransaction(ctx, async (tx) => {
    await checkReferences(tx, actor, values);
    const formId = newId("fm");
    const now = tx.clock.now();
    await tx.db.insert(signupForms).values({ id: formId, workspaceId, ...values, createdAt: now, updatedAt: now });
    return { formId };
  });
}

export async function updateSignupForm(
  ctx: Ctx,
  actor: Actor,
  formId: string,
  input: SignupFormInput,
): Promise<{ formId: string }> {
  const values = parseInput(signupFormSchema, input);
  return withTransaction(ctx, async (tx) => {
    await getSignupFormOrThrow(tx, actor, formId);
    await checkReferences(tx, actor, values);
    await tx.db
      .update(signupForms)
      .set({ ...values, updatedAt: tx.clock.now() })
      .where(and(eq(signupForms.id, formId), inActorWorkspace(actor, signupForms.workspaceId)));
    return { formId };
  });
}

/**
 * Everything a form names must be the workspace's: its brand, live topics of
 * that brand, a live publishable key that may reach the brand, defined
 * attributes, and a thank-you page on the key's allowed origins or the
 * brand's website. Each problem is reported on the field that names it.
 */
async function checkReferences(ctx: Ctx, actor: Actor, values: SignupFormValues): Promise<void> {
  const brand = await getBrandOrThrow(ctx, actor, values.brandId);
  const found = await ctx.db
    .select({ id: topics.id })
    .from(topics)
    .where(
      and(
        inArray(topics.id, values.topicIds),
        eq(topics.brandId, values.brandId),
        inActorWorkspace(actor, topics.workspaceId),
        isNull(topics.archivedAt),
      ),
    );
  if (found.length !== new Set(values.topicIds).size)
    throw validationFailed("topicIds", "topicIds: every topic must be a live topic of the form's brand.");

  const [key] = await ctx.db
    .select({
      kind: apiKeys.kind,
      brandId: apiKeys.brandId,
      revokedAt: apiKeys.revokedAt,
      allowedOrigins: apiKeys.allowedOrigins,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, values.apiKeyId), inActorWorkspace(actor, apiKeys.workspaceId)));
  if (!key || key.kind !== "publishable" || key.revokedAt)
    throw validationFailed("apiKeyId", "apiKeyId: choose a publishable key that is not revoked.");
  if (!keyReachesBrand(key, values.brandId))
    throw validationFailed("apiKeyId", "apiKeyId: this key is locked to another brand.");
  if (values.redirectUrl && !redirectUrlAllowed(values.redirectUrl, key.allowedOrigins, brand.websiteUrl)) {
    const sites = [...key.allowedOrigins, brand.websiteUrl].join(", ");
    throw validationFailed(
      "redirectUrl",
      `redirectUrl: must be a page on the publishable key's allowed origins or the brand's website (${sites}).`,
    );
  }

  const keys = values.fields.attributes.map((attribute) => attribute.key);
  if (keys.length > 0) {
    const defined = await ctx.db
      .select({ key: attributeDefinitions.key })
      .from(attributeDefinitions)
      .where(and(inActorWorkspace(actor, attributeDefinitions.workspaceId), inArray(attributeDefinitions.key, keys)));
    const missing = keys.find((name) => !defined.some((row) => row.key === name));
    if (missing)
      throw validationFailed(
        "fields.attributes",
        `fields.attributes: no attribute ${missing} is defined on this workspace.`,
      );
  }
}
