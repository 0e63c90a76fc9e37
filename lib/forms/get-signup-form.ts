import "server-only";

import { and, eq } from "drizzle-orm";

import { inActorWorkspace, type Actor } from "@/lib/actor";
import type { Ctx } from "@/lib/context";
import { signupForms } from "@/lib/db/schema";
import { notFound } from "@/lib/errors";

export type SignupFormRow = typeof signupForms.$inferSelect;

/** A form of the actor's workspace; another workspace's is not found. */
export async function getSignupFormOrThrow(ctx: Ctx, actor: Actor, formId: string): Promise<SignupFormRow> {
  const [form] = await ctx.db
    .select()
    .from(signupForms)
    .where(and(eq(signupForms.id, formId), inActorWorkspace(actor, signupForms.workspaceId)));
  if (!form) throw notFound("form_not_found", `No form ${formId}.`);
  return form;
}

export async function deleteSignupForm(ctx: Ctx, actor: Actor, formId: string): Promise<void> {
  await getSignupFormOrThrow(ctx, actor, formId);
  await ctx.db
    .delete(signupForms)
    .where(and(eq(signupForms.id, formId), inActorWorkspace(actor, signupForms.workspaceId)));
}
