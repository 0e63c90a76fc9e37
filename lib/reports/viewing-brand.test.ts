import { describe, expect, it } from "vitest";

import { apiKeyActor, systemActor, userActor, viewingBrand } from "@/lib/actor";
import { createBrand } from "@/lib/brands/create-brand";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { seedSentCampaign } from "@/lib/testing/report-fixture";
import { testCtx } from "@/lib/testing/test-context";

import { getActivity } from "./get-activity";
import { getSummary } from "./get-summary";

const { ctx, clock } = testCtx(new Date("2026-05-04T12:00:00.000Z"));

describe("the dashboard's reports for one brand", () => {
  it("a member viewing a brand sees exactly what a key locked to that brand sees, and not the other brand's campaigns", async () => {
    const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
    const { brandId: otherBrand } = await createBrand(ctx, systemActor("test", workspaceId), {
      name: "Other",
      legalName: "Other Ltd",
      postalAddress: "2 Side Street",
      websiteUrl: "https://other.example",
      senderEmail: "news@other.example",
    });
    await seedSentCampaign(ctx, {
      workspaceId,
      brandId,
      topicId: await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false }),
      emails: ["a@example.com"],
    });
    await seedSentCampaign(ctx, {
      workspaceId,
      brandId: otherBrand,
      topicId: await seedTopic(ctx, workspaceId, otherBrand, { requiresConfirmation: false }),
      emails: ["b@example.com"],
    });
    const member = viewingBrand(userActor(ownerUserId, workspaceId), brandId);
    const key = apiKeyActor({ keyId: "key_test", workspaceId, brandId, mode: "live" });
    const window = { from: new Date("2026-05-01T00:00:00.000Z"), to: clock.now(), interval: "day" as const };
    expect(await getSummary(ctx, member)).toEqual(await getSummary(ctx, key));
    expect(await getActivity(ctx, member, window)).toEqual(await getActivity(ctx, key, window));
    expect((await getSummary(ctx, member)).campaigns.sent).toBe(1);
    expect((await getSummary(ctx, userActor(ownerUserId, workspaceId))).campaigns.sent).toBe(2);
  });
});
