import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import { GET as click } from "@/app/(public)/t/c/[token]/route";
import { GET as open } from "@/app/(public)/t/o/[token]/route";
import { events, sends } from "@/lib/db/schema";
import { overrideEnvForTests, reloadEnv } from "@/lib/env";
import { seedAcceptedSend } from "@/lib/testing/campaign-fixture";
import { testCtx } from "@/lib/testing/test-context";
import { signToken } from "@/lib/tokens/signed-token";

import { describeClient } from "./describe-client";
import { addTracking, clickUrl, openPixelUrl, withoutOpenPixel } from "./tracking-links";

const { ctx } = testCtx();
afterEach(() => {
  reloadEnv();
});
const tokenOf = (url: string) => url.split("/").at(-1)!;
const call = (handler: typeof open, url: string, headers: Record<string, string> = {}) =>
  handler(new Request(url, { headers }), { params: Promise.resolve({ token: tokenOf(url) }) });
const eventOf = async (workspaceId: string, type: string) =>
  (
    await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, type)))
  )[0];

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

describe("open and click tracking", () => {
  it("links in the body go through signed click URLs and an open pixel is added; mailto links stay", () => {
    const html = addTracking(
      '<a href="https://shop.example/sale?a=1&amp;b=2">Sale</a> <a href="mailto:help@brand.example">Help</a>',
      "snd_1",
    );
    expect(html).toContain('href="http://localhost:3000/t/c/');
    expect(html).toContain('href="mailto:help@brand.example"');
    expect(html).toMatch(/<img src="http:\/\/localhost:3000\/t\/o\/[^"]+" width="1" height="1"/);
  });

  it("the Test mailbox shows a message without its open pixel, so looking at the mailbox counts no open; its links stay tracked", () => {
    const html = withoutOpenPixel(
      addTracking(
        '<p>Hi</p><img src="https://shop.example/logo.png" alt="Logo"><a href="https://shop.example/">Shop</a>',
        "snd_1",
      ),
    );
    expect(html).not.toContain("/t/o/");
    expect(html).toContain('<img src="https://shop.example/logo.png" alt="Logo">');
    expect(html).toContain('href="http://localhost:3000/t/c/');
  });

  it("email.opened: the pixel answers a GIF, stamps the send and records country from a trusted edge header, else null", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "o@example.com");
    const response = await call(open, openPixelUrl(send.id), { "cf-ipcountry": "de" });
    expect(response.headers.get("content-type")).toBe("image/gif");
    expect((await eventOf(workspaceId, "email.opened"))!.data).toMatchObject({
      send_id: send.id,
      email: "o@example.com",
      country: null,
    });
    overrideEnvForTests({ TRUSTED_COUNTRY_HEADER: "cf-ipcountry" });
    await call(open, openPixelUrl(send.id), { "cf-ipcountry": "de" });
    const opened = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.workspaceId, workspaceId), eq(events.type, "email.opened")));
    expect(opened.at(-1)!.data).toMatchObject({ country: "DE" });
    expect((await ctx.db.select().from(sends).where(eq(sends.id, send.id)))[0]!.openedAt).not.toBeNull();
  });

  it("email.clicked: redirects to the signed URL with url, country, device_type and client", async () => {
    const { workspaceId, send } = await seedAcceptedSend(ctx, "c@example.com");
    const response = await call(click, clickUrl(send.id, "https://shop.example/sale?a=1&b=2"), {
      "user-agent": IPHONE,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://shop.example/sale?a=1&b=2");
    expect((await eventOf(workspaceId, "email.clicked"))!.data).toMatchObject({
      send_id: send.id,
      url: "https://shop.example/sale?a=1&b=2",
      country: null,
      device_type: "mobile",
      client: "Mobile Safari",
    });
  });

  it("no open redirect: a forged or altered token, or a non-http URL, redirects nowhere", async () => {
    const { send } = await seedAcceptedSend(ctx, "f@example.com");
    const genuine = clickUrl(send.id, "https://shop.example/");
    expect((await call(click, `${genuine}x`)).status).toBe(400);
    const forged = `http://localhost:3000/t/c/${Buffer.from(JSON.stringify({ s: send.id, u: "https://evil.example" })).toString("base64url")}.${tokenOf(genuine).split(".")[1]}`;
    expect((await call(click, forged)).status).toBe(400);
    expect(
      (await call(click, `http://localhost:3000/t/c/${signToken("click", { s: send.id, u: "javascript:alert(1)" })}`))
        .status,
    ).toBe(400);
    expect(
      (await call(click, `http://localhost:3000/t/c/${signToken("open", { s: send.id, u: "https://evil.example" })}`))
        .status,
    ).toBe(400);
  });

  it("device type and client come from the user agent; none without one", () => {
    expect(describeClient(DESKTOP)).toEqual({ deviceType: "desktop", client: "Chrome" });
    expect(describeClient(IPHONE)).toEqual({ deviceType: "mobile", client: "Mobile Safari" });
    expect(describeClient(null)).toEqual({ deviceType: null, client: null });
  });
});
