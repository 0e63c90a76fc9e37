import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { systemActor } from "@/lib/actor";
import { upsertContact } from "@/lib/contacts/upsert-contact";
import { users } from "@/lib/db/schema";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import { GET } from "./route";

const signedIn = vi.hoisted(() => ({ user: null as { id: string; email: string; name: string } | null }));
// The session cookie is Next.js's business: the member is signed in by hand, and the rest runs as in production.
vi.mock("@/lib/auth/current-user", () => ({
  currentUser: async () => signedIn.user,
  requireUser: async () => signedIn.user,
}));

const { ctx } = testCtx();

async function memberWithContact() {
  const { workspaceId, brandId, ownerUserId } = await seedWorkspace(ctx);
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  const { contact } = await upsertContact(ctx, systemActor("test", workspaceId), {
    email: "ada@example.com",
    topicIds: [topicId],
  });
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, ownerUserId));
  return { workspaceId, contactId: contact.id, member: { id: owner!.id, email: owner!.email, name: owner!.name } };
}

const download = (workspaceId: string, contactId: string) =>
  GET(new Request(`http://localhost:3000/api/dashboard/w/${workspaceId}/contacts/${contactId}/data`), {
    params: Promise.resolve({ workspaceId, contactId }),
  });

describe("GET /api/dashboard/w/[workspaceId]/contacts/[contactId]/data", () => {
  it("a member downloads everything held about the contact as a JSON file", async () => {
    const { workspaceId, contactId, member } = await memberWithContact();
    signedIn.user = member;
    const response = await download(workspaceId, contactId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="contact-${contactId}.json"`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const data = await response.json();
    expect(Object.keys(data)).toEqual([
      "generated_at",
      "workspace_id",
      "contact",
      "subscriptions",
      "opt_outs_on_behalf",
      "lists",
      "suppressions",
      "lifted_suppressions",
      "sends",
      "events",
    ]);
    expect(data.contact).toMatchObject({ id: contactId, email: "ada@example.com" });
  });

  it("a member of another workspace gets 404 for it, whichever workspace the path names; nobody signed in gets 401", async () => {
    const { workspaceId, contactId } = await memberWithContact();
    const other = await memberWithContact();
    signedIn.user = other.member;
    expect((await download(workspaceId, contactId)).status).toBe(404);
    const named = await download(other.workspaceId, contactId);
    expect(named.status).toBe(404);
    expect(await named.json()).toMatchObject({ error: { code: "contact_not_found" } });
    signedIn.user = null;
    expect((await download(workspaceId, contactId)).status).toBe(401);
  });
});
