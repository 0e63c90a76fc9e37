import "server-only";

import { and, desc, eq, inArray, or, sql } from "drizzle-orm";

import { actorLabelText, requireActorWorkspace, type Actor } from "@/lib/actor";
import { emailDomain } from "@/lib/contacts/email-address";
import type { Ctx } from "@/lib/context";
import { providerEvents, suppressionLifts, suppressions, users } from "@/lib/db/schema";

/** What a sender sees behind a bounce or complaint: who reported it, with what code and words, when, and the report itself. */
export interface SuppressionEvidence {
  id: string;
  provider: string;
  receivedAt: Date;
  type: string;
  bounceType: string | null;
  statusCode: string | null;
  wording: string | null;
  raw: string;
}

/** Shown whole up to this; a longer report is cut (the stored one is whole). */
const RAW_SHOWN = 20_000;

/** The evidence behind the given provider reports of the actor's workspace, by id. */
export async function suppressionEvidence(
  ctx: Ctx,
  actor: Actor,
  eventIds: (string | null)[],
): Promise<Map<string, SuppressionEvidence>> {
  const workspaceId = requireActorWorkspace(actor);
  const ids = eventIds.filter((id): id is string => Boolean(id));
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select()
    .from(providerEvents)
    .where(and(inArray(providerEvents.id, ids), eq(providerEvents.workspaceId, workspaceId)));
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        provider: row.provider,
        receivedAt: row.receivedAt,
        type: row.event?.type ?? "unknown",
        bounceType: row.event?.bounceType ?? null,
        statusCode: row.event?.statusCode ?? null,
        wording: row.event?.reason ?? row.event?.complaintType ?? null,
        raw:
          row.raw.length > RAW_SHOWN
            ? `${row.raw.slice(0, RAW_SHOWN)}\n… (${row.raw.length - RAW_SHOWN} more characters)`
            : row.raw,
      },
    ]),
  );
}

/** For a contact's page: the suppressions that block its address (by address or domain) and the lifted ones, each with its evidence. */
export async function suppressionsOfAddress(ctx: Ctx, actor: Actor, email: string) {
  const workspaceId = requireActorWorkspace(actor);
  const domain = emailDomain(email);
  const [current, lifted] = await Promise.all([
    ctx.db
      .select()
      .from(suppressions)
      .where(
        and(
          eq(suppressions.workspaceId, workspaceId),
          or(eq(suppressions.email, email), eq(suppressions.domain, domain)),
        ),
      ),
    ctx.db
      .select({ lift: suppressionLifts, liftedByEmail: users.email })
      .from(suppressionLifts)
      .leftJoin(users, eq(suppressionLifts.liftedBy, sql`'user:' || ${users.id}`))
      .where(and(eq(suppressionLifts.workspaceId, workspaceId), eq(suppressionLifts.email, email)))
      .orderBy(desc(suppressionLifts.liftedAt)),
  ]);
  const evidence = await suppressionEvidence(ctx, actor, [
    ...current.map((row) => row.evidenceEventId),
    ...lifted.map((row) => row.lift.evidenceEventId),
  ]);
  return {
    current: current.map((row) => ({
      ...row,
      evidence: row.evidenceEventId ? (evidence.get(row.evidenceEventId) ?? null) : null,
    })),
    lifted: lifted.map(({ lift, liftedByEmail }) => ({
      ...lift,
      liftedByLabel: actorLabelText(lift.liftedBy, liftedByEmail),
      evidence: lift.evidenceEventId ? (evidence.get(lift.evidenceEventId) ?? null) : null,
    })),
  };
}
