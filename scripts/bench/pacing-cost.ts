// The per-provider pacing's own cost in the dispatch benchmark, each part beside a floor in the same run:
//  - the claim: claimBatch (pacing: provider buckets taken and spent, the walk that steps over a provider
//    without room) against a bare locked UPDATE of the next sends in key order, the claim before pacing,
//    over the same sends in batches of the same size; each claimed batch is then marked accepted, in both;
//  - the hand-over: the SMTP transport's sendBatch (messages a bounded number at a time, so that a
//    provider's temporary refusal stops its messages not yet handed over) against every message of the
//    batch handed to the same transport at once, the same messages through the same pool, batch by batch in turns.
import { sql } from "drizzle-orm";

import { claimBatch } from "@/lib/campaigns/claim-batch";
import type { Ctx } from "@/lib/context";
import { idArray } from "@/lib/db/id-array";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";
import { smtpTransport } from "@/lib/mail/transports/smtp-transport";

interface PacingCostOptions {
  ctx: Ctx;
  campaignId: string;
  batch: number;
  messages: OutgoingMessage[];
  port: number;
  connections: number;
}

/** Milliseconds of each part, paced and floor. */
export async function pacingCost(options: PacingCostOptions) {
  const { ctx, campaignId, batch } = options;
  const requeue = () =>
    ctx.db.execute(sql`update sends set state = 'queued', claimed_by = null where campaign_id = ${campaignId}`);
  const accept = (ids: string[]) =>
    ctx.db.execute(sql`update sends set state = 'accepted' where id = any(${idArray(ids)})`);
  await ctx.db.execute(sql`update campaigns set status = 'sending' where id = ${campaignId}`);

  await requeue();
  let started = performance.now();
  for (let after: string | null = null; ;) {
    const claim = await claimBatch(ctx, { campaignId, size: batch, claimant: "bench-paced", after });
    if ("stopped" in claim) throw new Error(`the claim stopped: ${claim.stopped}`);
    if (claim.rows.length === 0) break;
    await accept(claim.rows.map((row) => row.id));
    after = claim.rows.at(-1)!.id;
  }
  const pacedClaimMs = performance.now() - started;

  await requeue();
  started = performance.now();
  for (let after = ""; ;) {
    const rows = await ctx.db.execute<{ id: string }>(sql`
      update sends set state = 'sending', claimed_by = 'bench-bare', updated_at = now()
      where id in (select id from sends where campaign_id = ${campaignId} and state = 'queued' and id > ${after}
                   order by id limit ${batch} for update skip locked)
      returning id, contact_id, email, provider`);
    if (rows.length === 0) break;
    const ids = rows.map((row) => row.id).sort();
    await accept(ids);
    after = ids.at(-1)!;
  }
  const bareClaimMs = performance.now() - started;
  await ctx.db.execute(sql`update sends set state = 'accepted', claimed_by = null where campaign_id = ${campaignId}`);
  await ctx.db.execute(sql`update campaigns set status = 'sent' where id = ${campaignId}`);

  const transport = smtpTransport({ url: `smtp://127.0.0.1:${options.port}`, maxConnections: options.connections });
  const batches = Array.from({ length: Math.ceil(options.messages.length / batch) }, (_, i) =>
    options.messages.slice(i * batch, (i + 1) * batch),
  );
  // Batch by batch, paced then bare, in turns: a load from elsewhere on the machine falls on both alike.
  let pacedSendMs = 0;
  let bareSendMs = 0;
  for (const messages of batches) {
    started = performance.now();
    await transport.sendBatch(ctx, messages);
    pacedSendMs += performance.now() - started;
    started = performance.now();
    await Promise.all(messages.map((message) => transport.send(ctx, message)));
    bareSendMs += performance.now() - started;
  }
  await transport.close();
  return { pacedClaimMs, bareClaimMs, pacedSendMs, bareSendMs };
}
