import loadCustomRoutes from "next/dist/lib/load-custom-routes";
import { buildCustomRoute } from "next/dist/server/lib/router-utils/filesystem";
import { describe, expect, it } from "vitest";

import nextConfig from "@/next.config";

/** The headers next.config.ts gives a path, matched as Next.js matches them (every matching rule applies, later ones win). */
async function headersFor(pathname: string): Promise<Record<string, string>> {
  const { headers } = await loadCustomRoutes(nextConfig);
  const found: Record<string, string> = {};
  for (const route of headers.map((item) => buildCustomRoute("header", item))) {
    if (route.match(pathname)) for (const { key, value } of route.headers) found[key.toLowerCase()] = value;
  }
  return found;
}

describe("framing", () => {
  it("every page and answer refuses to be framed, with frame-ancestors 'none' and X-Frame-Options DENY", async () => {
    const paths = [
      "/",
      "/signin",
      "/w/ws_1",
      "/w/ws_1/forms/fm_1",
      "/v1/contacts",
      "/unsubscribe/token",
      "/preferences/token",
      "/confirm/token",
      "/f/fm_1/config",
      "/f/fm_1/challenge",
      "/f/fm_1/submit",
      "/embed/signup-form.js",
      "/f",
    ];
    for (const path of paths)
      expect({ path, ...(await headersFor(path)) }).toMatchObject({
        path,
        "content-security-policy": "frame-ancestors 'none'",
        "x-frame-options": "DENY",
      });
  });

  it("a campaign image's answer keeps its own Content-Security-Policy, which refuses framing itself: the config adds none that would replace it", async () => {
    expect(await headersFor("/i/token")).toEqual({});
  });

  it("the hosted signup form, which senders may put in an iframe, can be framed", async () => {
    for (const path of ["/f/fm_1", "/f/fm_01m8gsqca8a3szxf49gad5mk6x"]) {
      const headers = await headersFor(path);
      expect(headers["content-security-policy"]).toBeUndefined();
      expect(headers["x-frame-options"]).toBeUndefined();
    }
  });
});
