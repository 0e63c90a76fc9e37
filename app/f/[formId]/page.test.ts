import { eq } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { systemActor } from "@/lib/actor";
import { brands } from "@/lib/db/schema";
import { createSignupForm } from "@/lib/forms/save-signup-form";
import { SIGNUP_FORM_DEFAULTS } from "@/lib/forms/signup-form-schemas";
import { seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";

import HostedSignupFormPage, { generateMetadata } from "./page";

const { ctx } = testCtx();

/** A form of a fresh brand, with the brand's logo set to `logoUrl`. */
async function formOfBrand(logoUrl: string | null) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  await ctx.db.update(brands).set({ name: "Northwind Coffee", logoUrl }).where(eq(brands.id, brandId));
  const topicId = await seedTopic(ctx, workspaceId, brandId);
  const { keyId } = await seedKey(ctx, workspaceId, { kind: "publishable", origins: ["https://www.sender.example"] });
  const texts = { ...SIGNUP_FORM_DEFAULTS.texts, title: "Fresh roasts, monthly" };
  const { formId } = await createSignupForm(ctx, systemActor("test", workspaceId), {
    name: "Footer",
    brandId,
    topicIds: [topicId],
    apiKeyId: keyId,
    ...SIGNUP_FORM_DEFAULTS,
    texts,
  });
  return formId;
}

async function hostedPage(formId: string): Promise<string> {
  const page = await HostedSignupFormPage({ params: Promise.resolve({ formId }), searchParams: Promise.resolve({}) });
  return renderToStaticMarkup(page);
}

describe("hosted signup form page", () => {
  it("the hosted form shows the brand's name and logo above the form, so visitors know whose list they join", async () => {
    const html = await hostedPage(await formOfBrand("https://cdn.northwind.example/logo.png"));
    expect(html).toMatch(/<img[^>]* src="https:\/\/cdn\.northwind\.example\/logo\.png"/);
    expect(html).toContain("Northwind Coffee");
    expect(html.indexOf("Northwind Coffee")).toBeLessThan(html.indexOf("<form"));
  });

  it("a brand without a logo is named on its hosted form, with no empty image", async () => {
    const html = await hostedPage(await formOfBrand(null));
    expect(html).toContain("Northwind Coffee");
    expect(html).not.toContain("<img");
  });

  it("the hosted form's title names the form and its brand, not the service", async () => {
    const metadata = await generateMetadata({
      params: Promise.resolve({ formId: await formOfBrand(null) }),
      searchParams: Promise.resolve({}),
    });
    expect(metadata.title).toEqual({ absolute: "Fresh roasts, monthly · Northwind Coffee" });
  });
});
