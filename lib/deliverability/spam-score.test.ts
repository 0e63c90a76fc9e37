import { afterEach, describe, expect, it } from "vitest";

import { overrideEnvForTests, reloadEnv } from "@/lib/env";

import { MAX_SCORED_BYTES, scoreMessage, scoreMessages } from "./spam-score";
import { spamScoreLevel } from "./spam-score-levels";

afterEach(() => reloadEnv());

/** A plain message as a mail client would write it. */
function message(subject: string, body: string): string {
  return [
    "From: Northwind Coffee <news@northwind.example>",
    "To: reader@example.org",
    `Subject: ${subject}`,
    "Date: Wed, 01 Apr 2026 09:00:00 +0000",
    `Message-ID: <${subject.length}.${body.length}.spam-score-test@northwind.example>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");
}

const LETTER = message(
  "Our autumn roast",
  "Hello,\r\n\r\nThe autumn roast is in: a washed coffee from Huila, roasted on Tuesday.\r\nFrom today it ships with every order.\r\n\r\nThanks for reading,\r\nNorthwind Coffee",
);
const SPAM = message(
  "FREE!!! CLICK NOW TO WIN $1,000,000 CASH",
  "100% GUARANTEED!!! MAKE MONEY FAST. Act now, risk free, no credit check. Cheap viagra, no prescription.\r\nWIN $1,000,000 dollars!!! Click here to be removed.",
);

describe("SpamAssassin's score of a message", () => {
  it("without SpamAssassin at SPAMASSASSIN_PATH, a message is not scored: available false, not installed", async () => {
    overrideEnvForTests({ SPAMASSASSIN_PATH: "/nonexistent/bin/spamassassin" });
    expect(await scoreMessage(LETTER)).toEqual({ available: false, reason: "not_installed" });
  });

  it("one SpamAssassin run scores many messages, each report given to its own message; a body line starting 'From ' does not split it", async () => {
    const fromLine = message("A note", "Hello,\r\nFrom Tuesday on, the shop opens at nine.\r\nSee you there.");
    const scores = await scoreMessages([SPAM, LETTER, fromLine, SPAM, LETTER]);
    expect(scores.map((score) => score.available)).toEqual([true, true, true, true, true]);
    const points = scores.map((score) => (score.available ? score.score : NaN));
    expect(points[0]).toBeGreaterThan(5);
    expect(points[3]).toBe(points[0]);
    expect(points[1]).toBeLessThan(2);
    expect(points[4]).toBe(points[1]);
    expect(points[2]).toBeLessThan(2);
  });

  it("a message past 500 KiB is not scored (too large), as spamc passes it; the others of the same run are", async () => {
    const large = message(
      "A long letter",
      `${"The autumn roast is in. ".repeat(20)}\r\n`.repeat(Math.ceil(MAX_SCORED_BYTES / 480) + 1),
    );
    expect(Buffer.byteLength(large)).toBeGreaterThan(MAX_SCORED_BYTES);
    const [tooLarge, letter] = await scoreMessages([large, LETTER]);
    expect(tooLarge).toEqual({ available: false, reason: "too_large" });
    expect(letter).toMatchObject({ available: true, threshold: 5 });
  });

  it("the badge: low below 2.0, borderline from 2.0 to below SpamAssassin's threshold, spam at or past the threshold", () => {
    expect(spamScoreLevel({ score: -0.1, threshold: 5 })).toBe("good");
    expect(spamScoreLevel({ score: 1.9, threshold: 5 })).toBe("good");
    expect(spamScoreLevel({ score: 2, threshold: 5 })).toBe("warn");
    expect(spamScoreLevel({ score: 4.9, threshold: 5 })).toBe("warn");
    expect(spamScoreLevel({ score: 5, threshold: 5 })).toBe("bad");
    // An operator's lower required_score moves the line: what its filter would file as spam says so.
    expect(spamScoreLevel({ score: 1.5, threshold: 1.5 })).toBe("bad");
  });
});
