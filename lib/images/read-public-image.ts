import "server-only";
import { eq } from "drizzle-orm";
import type { Ctx } from "@/lib/context";
import { images } from "@/lib/db/schema";

/** An uploaded image by its public token, for anyone who has the address (mail clients); null when there is none. */
export async function readPublicImage(ctx: Ctx, token: string): Promise<{ contentType: string; data: Buffer } | null> {
  if (!/^[0-9A-Za-z]{32}$/.test(token)) return null;
  const [image] = await ctx.db.select({ contentType: images.contentType, data: images.data }).from(images).where(eq(images.token, token));
  return image ?? null;
}
