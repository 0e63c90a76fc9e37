import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

// Next.js serves app/icon.svg and app/favicon.ico and links them from every page's <head>.
describe("the site's icon", () => {
  it("every page has an icon to show, so no browser's request for one is answered 404: an SVG linked from each page and /favicon.ico for those that ask for it anyway", async () => {
    const svg = await readFile(new URL("./icon.svg", import.meta.url), "utf8");
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 32 32"/);
    const ico = await readFile(new URL("./favicon.ico", import.meta.url));
    // ICONDIR: reserved 0, type 1 (icon), then at least one image.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThan(0);
  });
});
