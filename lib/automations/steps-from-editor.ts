import "server-only";

import { eq } from "drizzle-orm";

import type { Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { brands, topics } from "@/lib/db/schema";
import { renderDocument } from "@/lib/email-blocks/render-document";
import { ApiError, validationFailed } from "@/lib/errors";
import { refuseUnsafeInput } from "@/lib/validation/parse-input";

import { automationStepsSchema, type AutomationStep } from "./automation-schemas";
import { getAutomationOrThrow } from "./automations";
import { numberedPath } from "./step-paths";

/**
 * The builder's steps, ready for setAutomationSteps: a mail written in the block editor is rendered
 * to its html and text parts here (the automation's brand fills its logo) and keeps its document to
 * edit again, as a campaign's body does (campaignFromEditor). Problems are named by the step's
 * pre-order number (`steps.2.subject`), the number the builder and the merge-tag check use. Kept
 * apart from automations.ts: the renderer needs react-dom/server, which the admin CLI does not load.
 */
export async function stepsFromEditor(
  ctx: Ctx,
  actor: Actor,
  automationId: string,
  steps: unknown,
): Promise<AutomationStep[]> {
  // Whose automation first: another workspace's is not found, before anything of the input is looked at.
  const automation = await getAutomationOrThrow(ctx, actor, automationId);
  refuseUnsafeInput(steps);
  const [brand] = await ctx.db
    .select({ name: brands.name, logoUrl: brands.logoUrl })
    .from(topics)
    .innerJoin(brands, eq(brands.id, topics.brandId))
    .where(eq(topics.id, automation.topicId));
  const render = async (list: unknown, path: (string | number)[]): Promise<unknown> => {
    if (!Array.isArray(list)) return list;
    return Promise.all(
      list.map(async (step: unknown, position) => {
        if (typeof step !== "object" || step === null) return step;
        const here = [...path, position];
        const value = step as Record<string, unknown>;
        if (value.type === "branch")
          return {
            ...value,
            yes: await render(value.yes, [...here, "yes"]),
            no: await render(value.no, [...here, "no"]),
          };
        if (value.type !== "send" || typeof value.document !== "object" || value.document === null) return step;
        try {
          return { ...value, ...(await renderDocument(value.document, brand!)) };
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const param = numberedPath(steps, [...here, "document"]);
          throw validationFailed(param, `${param}: the body is not a document the editor makes.`);
        }
      }),
    );
  };
  const rendered = await render(steps, []);
  const parsed = automationStepsSchema.safeParse(rendered);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = numberedPath(rendered, issue.path as (string | number)[]);
  throw validationFailed(param, `${param}: ${issue.message}`);
}
