import type { Actor } from "@/lib/actor";

export type ReportScope = { type: "workspace"; brand_id: null } | { type: "brand"; brand_id: string };

/** A brand-locked key reports that brand only; any other key the whole workspace. */
export function reportScope(actor: Pick<Actor, "brandId">): ReportScope {
  return actor.brandId ? { type: "brand", brand_id: actor.brandId } : { type: "workspace", brand_id: null };
}
