import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { preferencesUrl } from "@/lib/consent/links";
import { brands, contacts } from "@/lib/db/schema";
import { subscribeFromForm } from "@/lib/subscriptions/subscribe-from-form";
import { seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import PreferencesPage from "./page";

const { ctx } = testCtx();

/** The preference page of a subscriber of a brand named Northwind Coffee, as its HTML. */
async function preferencePage(logoUrl: string | null = null): Promise<string> {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await ctx.db.update(brands).set({ name: "Northwind Coffee", logoUrl }).where(eq(brands.id, brandId));
  const topicId = await seedTopic(ctx, workspaceId, brandId, { requiresConfirmation: false });
  await subscribeFromForm(ctx, systemActor("test", workspaceId), { topicId, email: "reader@example.com" });
  const [contact] = await ctx.db.select().from(contacts).where(eq(contacts.workspaceId, workspaceId));
  const token = new URL(preferencesUrl(contact!.id, brandId)).pathname.split("/").pop()!;
  return renderToStaticMarkup(
    await PreferencesPage({ params: Promise.resolve({ token }), searchParams: Promise.resolve({}) }),
  );
}

/** The text of the element a button names with aria-describedby. */
function descriptionOf(html: string, buttonText: string): string {
  const button = new RegExp(`<button[^>]*aria-describedby="([^"]+)"[^>]*>${buttonText}</button>`).exec(html);
  expect(button, `a button "${buttonText}" with a description`).not.toBeNull();
  const described = new RegExp(`id="${button![1]}"[^>]*>([^<]*)<`).exec(html);
  return described?.[1] ?? "";
}

describe("preference page", () => {
  it("the preference page says what each way of leaving covers: the brand's topics listed there, or all mail of the sender, later topics and other brands included", async () => {
    const html = (await preferencePage()).replaceAll("&#x27;", "'").replaceAll("<!-- -->", "");
    expect(descriptionOf(html, "Unsubscribe from all Northwind Coffee topics")).toBe(
      "Stops every topic listed above. Nothing else changes.",
    );
    expect(descriptionOf(html, "Unsubscribe from everything")).toBe(
      "Stops all email from this sender, not only Northwind Coffee's: topics it adds later too, and any other brand it sends for. No one can sign you up again but you, here.",
    );
  });

  it("the preference page shows the brand's logo, named after the brand, when it has one", async () => {
    expect(await preferencePage("https://cdn.northwind.example/logo.png")).toMatch(
      /<img[^>]* src="https:\/\/cdn\.northwind\.example\/logo\.png" alt="Northwind Coffee"/,
    );
    expect(await preferencePage(null)).not.toContain("<img");
  });
});
