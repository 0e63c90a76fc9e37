import { expect, test } from "./fixtures";
import { inspectScreen } from "./inspect-screen";
import { signInAs } from "./sign-in-as";

// A sender turns on the warm-up of their domain and sends a campaign larger than the day's cap: the
// cap goes out, and the campaign's page says it goes on by itself at the next UTC day.
const owner = { email: "warm-up-owner@example.com", password: "warm up owner pass" };

test("a campaign over its domain's warm-up cap sends the cap and says it continues tomorrow", async ({
  page,
  context,
  seed,
}) => {
  const workspaceId = await seed.workspace("Warm Co", owner.email);
  await seed.user(owner.email, owner.password);
  const brandId = await seed.brand(workspaceId, "Warm Co");
  await seed.approve(workspaceId);
  const topicId = await seed.topic(workspaceId, brandId, "News", { confirmation: false });
  for (let i = 0; i < 52; i++) await seed.contact(workspaceId, `reader${i}@warm.example`, { topicIds: [topicId] });
  const campaignId = await seed.campaign(workspaceId, { brandId, topicId, name: "Launch" });

  await signInAs(page, owner);
  await page.goto(`/w/${workspaceId}/domains`);
  await page.getByRole("link", { name: "warm-co.example" }).first().click();
  const card = page.getByTestId("domain-warm-up");
  await expect(card).toContainText("Off");
  await card.getByRole("button", { name: "Turn warm-up on" }).click();
  await expect(card).toContainText("Today: 0 of 50 sent.");
  const domainPath = new URL(page.url()).pathname;

  await page.goto(`/w/${workspaceId}/campaigns/${campaignId}`);
  await page.getByRole("button", { name: "Send now" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Send now" }).click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("warm-up-wait")).toContainText(
      "Sent 50 of 50 today under the warm-up cap of warm-co.example; continues tomorrow at 00:00 UTC by itself.",
      { timeout: 1_000 },
    );
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("progress-accepted")).toHaveText("50");
  await inspectScreen(context, new URL(page.url()).pathname, "campaign-warm-up-wait");

  await page.goto(domainPath);
  await expect(page.getByTestId("domain-warm-up")).toContainText("Today: 50 of 50 sent. The cap is used");
  await inspectScreen(context, domainPath, "domain-warm-up-used");
});
