import { describe, expect, it } from "vitest";

import { authOptions } from "./auth-options";
import { safeCallbackUrl } from "./safe-callback-url";

const APP = "http://localhost:3000";

// Each as it reaches the page (query already decoded once) and as it would look decoded once more.
const OFF_SITE = [
  "/%5Cevil.example",
  "/\\evil.example",
  "/%09/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "//evil.example",
  " //evil.example",
  "\\\\evil.example",
  "/\\/evil.example",
  "/.//evil.example",
  "/a/..//evil.example",
  "https://evil.example",
  "https://evil.example/w/ws_1",
  "http://localhost:3000@evil.example/",
  "http://localhost:3001/",
  "javascript:alert(document.cookie)",
  "JavaScript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
];

function landsOnApp(path: string): boolean {
  return (
    path.startsWith("/") &&
    !path.startsWith("//") &&
    new URL(path, APP).origin === APP &&
    new URL(path, "https://other.example").origin === "https://other.example"
  );
}

describe("callback URLs", () => {
  it("a callback URL that would leave the site becomes /", () => {
    for (const payload of OFF_SITE) {
      for (const value of [payload, safeDecode(payload)]) {
        const path = safeCallbackUrl(value, APP);
        expect(landsOnApp(path), `${JSON.stringify(value)} -> ${JSON.stringify(path)}`).toBe(true);
      }
    }
    expect(safeCallbackUrl("//evil.example", APP)).toBe("/");
    expect(safeCallbackUrl("/\\evil.example", APP)).toBe("/");
    expect(safeCallbackUrl("javascript:alert(1)", APP)).toBe("/");
    expect(safeCallbackUrl(undefined, APP)).toBe("/");
    expect(safeCallbackUrl(["/w/ws_1"], APP)).toBe("/");
  });

  it("a path on the site, or a full URL of the site, keeps its path, query and fragment", () => {
    expect(safeCallbackUrl("/w/ws_1/contacts?page=2#top", APP)).toBe("/w/ws_1/contacts?page=2#top");
    expect(safeCallbackUrl("http://localhost:3000/w/ws_1", APP)).toBe("/w/ws_1");
    expect(safeCallbackUrl("/%5Cevil.example", APP)).toBe("/%5Cevil.example"); // a path here, not a host
  });

  it("next-auth's redirect callback follows the same rule", async () => {
    // next-auth's default would answer "http://localhost:3000/.//evil.example" and throw on " //evil.example".
    const redirect = authOptions.callbacks?.redirect;
    if (!redirect) throw new Error("authOptions.callbacks.redirect is not set");
    for (const payload of OFF_SITE) {
      for (const url of [payload, safeDecode(payload)]) {
        expect(await redirect({ url, baseUrl: APP }), JSON.stringify(url)).toMatch(/^http:\/\/localhost:3000\/(?!\/)/);
        const target = new URL(await redirect({ url, baseUrl: APP }));
        expect(target.origin).toBe(APP);
      }
    }
    expect(await redirect({ url: "/signin", baseUrl: APP })).toBe(`${APP}/signin`);
    expect(await redirect({ url: `${APP}/w/ws_1?x=1`, baseUrl: APP })).toBe(`${APP}/w/ws_1?x=1`);
    expect(await redirect({ url: "/.//evil.example", baseUrl: APP })).toBe(`${APP}/`);
  });
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
