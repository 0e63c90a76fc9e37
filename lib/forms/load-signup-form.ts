import "server-only";

import type { Ctx } from "@/lib/context";
import { rawClient } from "@/lib/db/client";
import type {
  AttributeType,
  BillingStage,
  KeyEnvironment,
  SignupFormFields,
  SignupFormStyle,
  SignupFormTexts,
} from "@/lib/db/schema";

export interface LoadedSignupForm {
  id: string;
  /** Kept with the subscriptions it makes, as where they came from. */
  name: string;
  workspaceId: string;
  brandId: string;
  fields: SignupFormFields;
  texts: SignupFormTexts;
  style: SignupFormStyle;
  challenge: boolean;
  redirectUrl: string | null;
  /** The brand's website: a thank-you page may be there, as well as on the key's allowed origins. */
  brandWebsiteUrl: string;
  /** The hosted page shows whose list a visitor joins: the brand's name, and its logo when it has one. */
  brandName: string;
  brandLogoUrl: string | null;
  key: { id: string; environment: KeyEnvironment; brandId: string | null; allowedOrigins: string[]; revoked: boolean };
  billingStage: BillingStage | null;
  /** The form's topics that are still live, in the form's order. */
  topics: { id: string; name: string; requiresConfirmation: boolean }[];
  attributeTypes: Record<string, AttributeType>;
}

/**
 * A form as its public endpoints need it, in one round trip: the form, its
 * key (allowlist, mode, brand lock, revocation), the workspace's billing
 * stage, its live topics and the types of the attributes it asks for.
 * Public callers know only the form's id: null when there is none.
 */
export async function loadSignupForm(ctx: Ctx, formId: string): Promise<LoadedSignupForm | null> {
  const sql = rawClient(ctx.db);
  const [row] = await sql<LoadedSignupForm[]>`
    select f.id, f.name, f.workspace_id as "workspaceId", f.brand_id as "brandId", f.fields, f.texts, f.style, f.challenge, f.redirect_url as "redirectUrl", br.website_url as "brandWebsiteUrl",
           br.name as "brandName", br.logo_url as "brandLogoUrl",
           json_build_object('id', k.id, 'environment', k.environment, 'brandId', k.brand_id,
                             'allowedOrigins', k.allowed_origins, 'revoked', k.revoked_at is not null) as key,
           b.stage as "billingStage",
           coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'requiresConfirmation', t.requires_confirmation) order by o.n)
                     from unnest(f.topic_ids) with ordinality o(topic_id, n)
                     join topics t on t.id = o.topic_id and t.workspace_id = f.workspace_id and t.brand_id = f.brand_id and t.archived_at is null), '[]') as topics,
           coalesce((select json_object_agg(a.key, a.type) from attribute_definitions a where a.workspace_id = f.workspace_id), '{}') as "attributeTypes"
    from signup_forms f
    join api_keys k on k.id = f.api_key_id
    join brands br on br.id = f.brand_id
    left join workspace_billing b on b.workspace_id = f.workspace_id
    where f.id = ${formId}`;
  return row ?? null;
}
