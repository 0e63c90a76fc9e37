import { eq } from "drizzle-orm";

import { systemActor } from "@/lib/actor";
import { approveBrand } from "@/lib/brands/approve-brand";
import type { Ctx } from "@/lib/context";
import { brands, sendingDomains } from "@/lib/db/schema";
import { encryptPrivateKey, generateDkimKeyPair } from "@/lib/domains/dkim-keys";
import { newId } from "@/lib/ids";
import { approveWorkspace } from "@/lib/workspaces/approve-workspace";

/**
 * A workspace out of its sandbox, for tests about sending rather than about
 * getting there: the service's review passed, every brand approved, and each
 * brand's sender domain ready. The domain is written as a verified one would
 * be; verification itself is tested in lib/domains against a DNS server.
 */
let keyPair: ReturnType<typeof generateDkimKeyPair> | undefined; // one per test process: RSA generation is slow

export async function clearForSending(ctx: Ctx, workspaceId: string): Promise<void> {
  await approveWorkspace(ctx, workspaceId);
  const actor = systemActor("test", workspaceId);
  for (const brand of await ctx.db.select().from(brands).where(eq(brands.workspaceId, workspaceId))) {
    await approveBrand(ctx, actor, brand.id);
    const hostname = brand.senderEmail.split("@")[1]!.toLowerCase();
    const { publicKey, privateKeyPem } = (keyPair ??= generateDkimKeyPair());
    const [domain] = await ctx.db
      .insert(sendingDomains)
      .values({
        id: newId("dom"),
        workspaceId,
        hostname,
        dkimSelector: "test",
        dkimPublicKey: publicKey,
        dkimPrivateKey: encryptPrivateKey(privateKeyPem),
        dnsVerifiedAt: ctx.clock.now(),
        carrierStatus: "registered",
        carrier: "local",
        state: "ready",
      })
      .onConflictDoUpdate({
        target: [sendingDomains.workspaceId, sendingDomains.hostname],
        set: { state: "ready", carrierStatus: "registered" },
      })
      .returning({ id: sendingDomains.id });
    await ctx.db.update(brands).set({ domainId: domain!.id }).where(eq(brands.id, brand.id));
  }
}
