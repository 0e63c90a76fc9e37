import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { collectCsv } from "@/lib/testing/collect-csv";
import { seedContactsWorkspace } from "@/lib/testing/contacts-workspace";
import { setBillingStage } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { exportContactsCsv } from "./export-contacts";
import { upsertContact } from "./upsert-contact";

const { ctx } = testCtx();
const workspace = () => seedContactsWorkspace(ctx);

describe("contact export", () => {
  it("exports every field, the status and per topic the subscription with its consent evidence", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, {
      email: "e@example.com",
      firstName: "=cmd()",
      attributes: { seats: 3 },
      topicIds: [w.topicId],
    });
    const csv = await collectCsv(exportContactsCsv(ctx, w.actor, {}));
    const [header, row] = csv.trim().split("\n");
    expect(header).toMatch(
      /^id,email,first_name,last_name,status,created_at,attributes\.plan,attributes\.seats,topic:Topic [^,]+:state,topic:Topic [^,]+:source,/,
    );
    expect(row).toContain("e@example.com,'=cmd(),,subscribed,");
    expect(row).toContain(",3,subscribed,dashboard,");
  });

  it("contact export works when the workspace is read-only and is refused once deleted", async () => {
    const w = await workspace();
    await upsertContact(ctx, systemActor("test", w.workspaceId), { email: "r@example.com" });
    await setBillingStage(ctx, w.workspaceId, "read_only");
    expect(await collectCsv(exportContactsCsv(ctx, w.actor, {}))).toContain("r@example.com");
    await setBillingStage(ctx, w.workspaceId, "deleted");
    await expect(collectCsv(exportContactsCsv(ctx, w.actor, {}))).rejects.toMatchObject({ code: "team_inactive" });
  });

  it("the export follows the contacts screen's filter", async () => {
    const w = await workspace();
    await upsertContact(ctx, w.actor, { email: "in@example.com", topicIds: [w.topicId] });
    await upsertContact(ctx, w.actor, { email: "out@example.com" });
    const csv = await collectCsv(exportContactsCsv(ctx, w.actor, { topicId: w.topicId }));
    expect(csv).toContain("in@example.com");
    expect(csv).not.toContain("out@example.com");
  });
});
