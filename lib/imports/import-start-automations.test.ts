import { describe, expect, it } from "vitest";

import { upsertContact } from "@/lib/contacts/upsert-contact";
import { createList } from "@/lib/lists/create-list";
import { importTestFixture } from "@/lib/testing/import-fixture";
import { activeAutomation, enteredContacts } from "@/lib/testing/trigger-fixture";

// Apart from lib/automations/triggers.test.ts: the import's workflow runs in an executor that would
// also run that file's automation entries.
const { ctx, workspace, importCsv } = importTestFixture();

async function listSetup() {
  const w = await workspace();
  const { listId } = await createList(ctx, w.actor, { brandId: w.brandId, name: "Regulars" });
  const automationId = await activeAutomation(ctx, w.workspaceId, w.topicId, "list_added", { list_id: listId });
  await upsertContact(ctx, w.actor, { email: "ann@example.org", topicIds: [w.topicId] });
  return { w, listId, automationId };
}

describe("an import and list_added automations", () => {
  it("an import enters the people it adds to the list only when its sender ticks start automations", async () => {
    const unticked = await listSetup();
    const csv = "email\ncarl@example.org\ndora@example.org\n";
    await importCsv(unticked.w, csv, {
      listId: unticked.listId,
      topicIds: [unticked.w.topicId],
      consentAsserted: true,
    });
    expect(await enteredContacts(ctx, unticked.automationId)).toEqual([]);

    const ticked = await listSetup();
    await importCsv(ticked.w, csv, {
      listId: ticked.listId,
      topicIds: [ticked.w.topicId],
      consentAsserted: true,
      startAutomations: true,
    });
    expect(await enteredContacts(ctx, ticked.automationId)).toHaveLength(2);
  });
});
