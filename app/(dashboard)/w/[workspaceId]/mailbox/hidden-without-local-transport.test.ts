import { afterEach, describe, expect, it } from "vitest";

import { overrideEnvForTests, reloadEnv } from "@/lib/env";

import { simulateOutcomeAction } from "./actions";
import MailboxPage from "./page";

// What next/navigation's notFound() throws: Next.js answers it with the 404 page.
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

afterEach(() => {
  reloadEnv();
});

describe("a production installation delivering through smtp or resend has no test mailbox", () => {
  it("the page is not found and the simulate action refuses, before anything else is looked at", async () => {
    overrideEnvForTests({ NODE_ENV: "production", MAIL_TRANSPORT: "smtp" });
    const form = new FormData();
    form.set("outcome", "delivered");
    await expect(
      MailboxPage({ params: Promise.resolve({ workspaceId: "ws_x" }), searchParams: Promise.resolve({}) }),
    ).rejects.toMatchObject(NOT_FOUND);
    await expect(simulateOutcomeAction("ws_x", "msg_x", form)).rejects.toMatchObject(NOT_FOUND);
  });
});
