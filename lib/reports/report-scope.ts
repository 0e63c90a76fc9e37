import type { Caller } from "@/lib/caller";

export type ReportScope = { type: "workspace"; brand_id: null } | { type: "brand"; brand_id: string };

/** A brand-locked key reports that brand only; any other key the whole workspace. */
export function reportScope(caller: Pick<Caller, "brandId">): ReportScope {
  return caller.brandId ? { type: "brand", brand_id: caller.brandId } : { type: "workspace", brand_id: null };
}
