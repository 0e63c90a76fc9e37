import { gzipSync } from "node:zlib";
import { createChallenge } from "altcha-lib/v1";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET as getChallenge } from "@/app/f/[formId]/challenge/route";
import { GET as getConfig } from "@/app/f/[formId]/config/route";
import { POST as submit } from "@/app/f/[formId]/submit/route";
import { systemActor } from "@/lib/actor";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { BUCKET_LIMITS } from "@/lib/api/rate-limit";
import { confirmSubscription } from "@/lib/consent/confirm-subscription";
import { decideConfirmation } from "@/lib/consent/decide-confirmation";
import { confirmationUrl } from "@/lib/consent/links";
import { defineAttribute } from "@/lib/contacts/define-attribute";
import { confirmationRequests, contacts, signupForms, signupFormSubmissions, subscriptions } from "@/lib/db/schema";
import { overrideEnvForTests, parseEnv } from "@/lib/env";
import { PEER_IP_HEADER, PEER_IP_HEADER_SET } from "@/lib/http/client-ip";
import { optOut, seedKey, seedTopic, seedWorkspace } from "@/lib/testing/factories";
import { testCtx } from "@/lib/testing/test-context";
import { verifyToken } from "@/lib/tokens/signed-token";

import { buildSignupFormScript, SIGNUP_FORM_SCRIPT_BUDGET_BYTES } from "./embed/build-signup-form-script";
import { formMarkup } from "./embed/form-markup";
import { sha256Hex } from "./embed/sha256";
import { solveChallenge } from "./embed/solve-challenge";
import { deleteSignupForm, getSignupFormOrThrow } from "./get-signup-form";
import { listSignupForms } from "./list-signup-forms";
import { loadSignupForm } from "./load-signup-form";
import { publicSignupForm } from "./public-signup-form";
import { createSignupForm, updateSignupForm } from "./save-signup-form";
import { SIGNUP_FORM_DEFAULTS, type SignupFormInput } from "./signup-form-schemas";
import { submitSignupForm } from "./submit-signup-form";

const { ctx } = testCtx();
// The routes read the client's address from the header scripts/serve.ts writes; each test uses its own.
overrideEnvForTests({ [PEER_IP_HEADER_SET]: "1" });
let nextIp = 1;
const freshIp = () => `198.51.100.${nextIp++}`;
const SITE = "https://www.sender.example";

async function setup(
  opts: {
    topics?: { requiresConfirmation: boolean }[];
    origins?: string[];
    environment?: "live" | "test";
    form?: Partial<SignupFormInput>;
    attributes?: { key: string; type: "number" | "boolean" }[];
  } = {},
) {
  const { workspaceId, brandId } = await seedWorkspace(ctx);
  for (const attribute of opts.attributes ?? [])
    await defineAttribute(ctx, systemActor("test", workspaceId), attribute);
  const topicIds: string[] = [];
  for (const topic of opts.topics ?? [{ requiresConfirmation: true }])
    topicIds.push(await seedTopic(ctx, workspaceId, brandId, topic));
  const { keyId } = await seedKey(ctx, workspaceId, {
    kind: "publishable",
    environment: opts.environment ?? "live",
    origins: opts.origins ?? [SITE],
  });
  const actor = systemActor("test", workspaceId);
  const { formId } = await createSignupForm(ctx, actor, {
    name: "Footer",
    brandId,
    topicIds,
    apiKeyId: keyId,
    ...SIGNUP_FORM_DEFAULTS,
    ...opts.form,
  });
  return { workspaceId, brandId, topicIds, keyId, formId, actor };
}

type Values = Record<string, string | string[]>;

function post(formId: string, values: Values, opts: { origin?: string | null; ip?: string; html?: boolean } = {}) {
  const headers: Record<string, string> = { [PEER_IP_HEADER]: opts.ip ?? freshIp() };
  const origin = opts.origin === undefined ? SITE : opts.origin;
  if (origin) headers.origin = origin;
  const body = opts.html
    ? new URLSearchParams(
        Object.entries(values).flatMap(([name, value]) => ([] as string[]).concat(value).map((item) => [name, item])),
      ).toString()
    : JSON.stringify(values);
  headers["content-type"] = opts.html ? "application/x-www-form-urlencoded" : "application/json";
  return submit(new Request(`http://localhost/f/${formId}/submit`, { method: "POST", headers, body }), {
    params: Promise.resolve({ formId }),
  });
}

async function json(response: Response) {
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: { status: string };
      error?: { code: string; param?: string; message: string };
    },
  };
}

const contactByEmail = async (workspaceId: string, email: string) =>
  (
    await ctx.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.email, email)))
  )[0];
const submissionsOf = (formId: string) =>
  ctx.db.select().from(signupFormSubmissions).where(eq(signupFormSubmissions.formId, formId));
const requestsFor = (workspaceId: string, email: string) =>
  ctx.db
    .select()
    .from(confirmationRequests)
    .where(and(eq(confirmationRequests.workspaceId, workspaceId), eq(confirmationRequests.email, email)));

async function solved(): Promise<string> {
  const challenge = (await (await getChallenge(new Request("http://localhost/f/x/challenge"))).json()) as Parameters<
    typeof solveChallenge
  >[0];
  return solveChallenge(challenge);
}

describe("signup forms", () => {
  it("a form signup follows POST /v1/subscribe: double opt-in leaves the subscription pending and requests one confirmation mail", async () => {
    const { formId, workspaceId, topicIds } = await setup();
    const answer = await json(await post(formId, { email: "Ada@Example.com", first_name: "Ada" }));
    expect(answer).toEqual({ status: 200, body: { data: { status: "confirmation_sent" } } });
    const contact = await contactByEmail(workspaceId, "ada@example.com");
    expect(contact).toMatchObject({ firstName: "Ada" });
    const [subscription] = await ctx.db.select().from(subscriptions).where(eq(subscriptions.contactId, contact!.id));
    expect(subscription).toMatchObject({ topicId: topicIds[0], state: "pending" });
    expect(await requestsFor(workspaceId, "ada@example.com")).toHaveLength(1);
    expect(await submissionsOf(formId)).toMatchObject([{ subscriptionIds: [subscription!.id] }]);
  });

  it("the answer is the same for a new, subscribed, pending or unsubscribed address, and an unsubscribed one is not resubscribed", async () => {
    const { formId, workspaceId, topicIds } = await setup();
    await post(formId, { email: "pending@example.com" });
    await post(formId, { email: "gone@example.com" });
    const gone = await contactByEmail(workspaceId, "gone@example.com");
    await optOut(ctx, gone!.id, topicIds[0]!);
    const answers = [];
    for (const email of ["new@example.com", "pending@example.com", "gone@example.com"])
      answers.push(await json(await post(formId, { email })));
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const [state] = await ctx.db
      .select({ state: subscriptions.state })
      .from(subscriptions)
      .where(eq(subscriptions.contactId, gone!.id));
    expect(state!.state).toBe("unsubscribed");
  });

  it("time zone: the form carries a hidden time_zone field its script fills from the browser; the zone is stored, fills only a blank one on a known contact, and an unknown one is dropped, not refused", async () => {
    const { formId, workspaceId } = await setup();
    const loaded = (await loadSignupForm(ctx, formId))!;
    const view = publicSignupForm(loaded, loaded.topics, loaded.attributeTypes, "http://localhost");
    expect(formMarkup(view, "sf")).toContain('<input type="hidden" name="time_zone" value="">');
    await post(formId, { email: "tz-form@example.com", time_zone: "asia/tokyo" });
    expect((await contactByEmail(workspaceId, "tz-form@example.com"))!.timeZone).toBe("Asia/Tokyo");
    // A stranger cannot move a known contact's zone.
    await post(formId, { email: "tz-form@example.com", time_zone: "Europe/Paris" });
    expect((await contactByEmail(workspaceId, "tz-form@example.com"))!.timeZone).toBe("Asia/Tokyo");
    const answer = await json(await post(formId, { email: "tz-odd@example.com", time_zone: "Not/A_Zone" }));
    expect(answer.status).toBe(200);
    expect((await contactByEmail(workspaceId, "tz-odd@example.com"))!.timeZone).toBeNull();
  });

  it("honeypot: a filled website field is answered like a genuine signup and nothing is stored", async () => {
    const { formId, workspaceId } = await setup();
    const answer = await json(await post(formId, { email: "bot@example.com", website: "http://spam.example" }));
    expect(answer).toEqual({ status: 200, body: { data: { status: "confirmation_sent" } } });
    expect(await contactByEmail(workspaceId, "bot@example.com")).toBeUndefined();
    expect(await requestsFor(workspaceId, "bot@example.com")).toEqual([]);
    expect(await submissionsOf(formId)).toEqual([]);
  });

  it("origin allowlist: a page on another origin, or none, is refused with origin_not_allowed and changes nothing; the hosted page's own origin is accepted", async () => {
    const { formId, workspaceId } = await setup();
    for (const origin of ["https://evil.example", null]) {
      const answer = await json(await post(formId, { email: "elsewhere@example.com" }, { origin }));
      expect(answer).toMatchObject({ status: 403, body: { error: { code: "origin_not_allowed" } } });
    }
    const config = await getConfig(
      new Request(`http://localhost/f/${formId}/config`, { headers: { origin: "https://evil.example" } }),
      { params: Promise.resolve({ formId }) },
    );
    expect(config.status).toBe(403);
    expect(config.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    expect(await contactByEmail(workspaceId, "elsewhere@example.com")).toBeUndefined();

    const hosted = await submitSignupForm(
      ctx,
      { formId, origin: "https://app.example", ip: freshIp(), values: { email: "hosted@example.com" } },
      parseEnv({ APP_URL: "https://app.example/" }),
    );
    expect(hosted.status).toBe("confirmation_sent");
  });

  it("challenge: a form that asks for one refuses a missing, wrong or replayed solution with challenge_failed and no mail; a solved one is accepted", async () => {
    const { formId, workspaceId } = await setup({ form: { challenge: true } });
    expect(await json(await post(formId, { email: "nochallenge@example.com" }))).toMatchObject({
      status: 400,
      body: { error: { code: "challenge_failed", param: "altcha" } },
    });
    const forged = Buffer.from(
      JSON.stringify({
        algorithm: "SHA-256",
        challenge: "0".repeat(64),
        number: 1,
        salt: "x?expires=9999999999",
        signature: "0".repeat(64),
      }),
    ).toString("base64");
    expect(await json(await post(formId, { email: "forged@example.com", altcha: forged }))).toMatchObject({
      status: 400,
      body: { error: { code: "challenge_failed" } },
    });
    expect(await requestsFor(workspaceId, "nochallenge@example.com")).toEqual([]);
    expect(await contactByEmail(workspaceId, "forged@example.com")).toBeUndefined();

    const solution = await solved();
    expect(await json(await post(formId, { email: "human@example.com", altcha: solution }))).toEqual({
      status: 200,
      body: { data: { status: "confirmation_sent" } },
    });
    expect(await json(await post(formId, { email: "replay@example.com", altcha: solution }))).toMatchObject({
      status: 400,
      body: { error: { code: "challenge_failed" } },
    });
    expect(await contactByEmail(workspaceId, "replay@example.com")).toBeUndefined();
  });

  it("challenge: a submission without a solution is refused before it counts against the key's rate limit, so unsolved posts cannot close the form to people", async () => {
    const { formId, workspaceId } = await setup({ form: { challenge: true } });
    for (let attempt = 0; attempt <= BUCKET_LIMITS.subscribe; attempt++) {
      await expect(
        submitSignupForm(ctx, { formId, origin: SITE, ip: null, values: { email: `bot${attempt}@example.com` } }),
      ).rejects.toMatchObject({ code: "challenge_failed" });
    }
    await expect(
      submitSignupForm(ctx, {
        formId,
        origin: SITE,
        ip: null,
        values: { email: "person@example.com", altcha: await solved() },
      }),
    ).resolves.toMatchObject({ status: "confirmation_sent" });
    expect(await requestsFor(workspaceId, "person@example.com")).toHaveLength(1);
  });

  it("the widget's solver finds the number altcha-lib's challenge was made with, and its SHA-256 matches node's", async () => {
    const { createHash } = await import("node:crypto");
    for (const text of ["", "abc", "salt?expires=1&x=y12345", "é".repeat(70)])
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
    const challenge = await createChallenge({ hmacKey: "k", number: 1234, maxNumber: 5000 });
    const payload = JSON.parse(atob(await solveChallenge(challenge))) as { number: number };
    expect(payload.number).toBe(1234);
  });

  it("per-address limit: past the limit a submission is refused with rate_limited and Retry-After, and nothing is stored", async () => {
    const { formId, workspaceId } = await setup();
    const ip = freshIp();
    const config = parseEnv({ SIGNUP_FORM_SUBMISSIONS_PER_IP: "2" });
    for (const email of ["one@example.com", "two@example.com"])
      await submitSignupForm(ctx, { formId, origin: SITE, ip, values: { email } }, config);
    await expect(
      submitSignupForm(ctx, { formId, origin: SITE, ip, values: { email: "three@example.com" } }, config),
    ).rejects.toMatchObject({
      code: "rate_limited",
      status: 429,
      headers: { "Retry-After": expect.stringMatching(/^\d+$/) },
    });
    expect(await contactByEmail(workspaceId, "three@example.com")).toBeUndefined();
    // Another address is not held back by this one.
    await expect(
      submitSignupForm(ctx, { formId, origin: SITE, ip: freshIp(), values: { email: "four@example.com" } }, config),
    ).resolves.toMatchObject({ status: "confirmation_sent" });
  });

  it("fields: the form's required fields and attribute types are checked, each problem named on its field, and nothing is stored", async () => {
    const { formId, workspaceId } = await setup({
      topics: [{ requiresConfirmation: false }],
      attributes: [
        { key: "plan", type: "number" },
        { key: "terms", type: "boolean" },
      ],
      form: {
        fields: {
          firstName: "required",
          lastName: "off",
          attributes: [
            { key: "plan", label: "Plan", required: false },
            { key: "terms", label: "I accept", required: true },
          ],
        },
      },
    });
    expect(await json(await post(formId, { email: "not-an-address" }))).toMatchObject({
      status: 400,
      body: { error: { code: "validation_failed", param: "email" } },
    });
    expect(await json(await post(formId, { email: "typed@example.com", terms: "on" }))).toMatchObject({
      status: 400,
      body: { error: { param: "first_name" } },
    });
    expect(
      await json(
        await post(formId, {
          email: "typed@example.com",
          first_name: "Ty",
          "attributes.plan": "lots",
          "attributes.terms": "on",
        }),
      ),
    ).toMatchObject({
      status: 400,
      body: { error: { param: "attributes.plan" } },
    });
    expect(await json(await post(formId, { email: "typed@example.com", first_name: "Ty" }))).toMatchObject({
      status: 400,
      body: { error: { param: "attributes.terms" } },
    });
    expect(await contactByEmail(workspaceId, "typed@example.com")).toBeUndefined();
    expect(
      await json(
        await post(formId, {
          email: "typed@example.com",
          first_name: "Ty",
          "attributes.plan": "3",
          "attributes.terms": "on",
          extra: "ignored",
        }),
      ),
    ).toEqual({
      status: 200,
      body: { data: { status: "subscribed" } },
    });
    expect(await contactByEmail(workspaceId, "typed@example.com")).toMatchObject({
      firstName: "Ty",
      attributes: { plan: 3, terms: true },
    });
  });

  it("an attribute's input type is its own definition's: one named constructor with no known type is a text input", () => {
    const form = {
      id: "fm_x",
      ...SIGNUP_FORM_DEFAULTS,
      fields: {
        firstName: "off" as const,
        lastName: "off" as const,
        attributes: [{ key: "constructor", label: "Maker", required: false }],
      },
    };
    expect(publicSignupForm(form, [], {}, "").fields).toContainEqual({
      name: "attributes.constructor",
      label: "Maker",
      type: "text",
      required: false,
    });
  });

  it("several topics: only the ticked ones are subscribed, and none ticked is validation_failed on topic_ids", async () => {
    const { formId, workspaceId, topicIds } = await setup({
      topics: [{ requiresConfirmation: false }, { requiresConfirmation: false }, { requiresConfirmation: true }],
    });
    expect(await json(await post(formId, { email: "none@example.com", topic_ids: [] }))).toMatchObject({
      status: 400,
      body: { error: { param: "topic_ids" } },
    });
    expect(
      await json(await post(formId, { email: "some@example.com", topic_ids: [topicIds[1]!, "tp_not_on_this_form"] })),
    ).toEqual({ status: 200, body: { data: { status: "subscribed" } } });
    const contact = await contactByEmail(workspaceId, "some@example.com");
    const rows = await ctx.db
      .select({ topicId: subscriptions.topicId, state: subscriptions.state })
      .from(subscriptions)
      .where(eq(subscriptions.contactId, contact!.id));
    expect(rows).toEqual([{ topicId: topicIds[1], state: "subscribed" }]);
    // A double opt-in topic among those ticked makes the answer confirmation_sent.
    expect(
      await json(await post(formId, { email: "both@example.com", topic_ids: [topicIds[0]!, topicIds[2]!] })),
    ).toEqual({ status: 200, body: { data: { status: "confirmation_sent" } } });
  });

  it("the plain HTML form is sent on to the hosted thank-you page or the sender's thank-you URL, and back with a signed problem on a mistake", async () => {
    const { formId, workspaceId, actor, brandId, topicIds, keyId } = await setup();
    const done = await post(formId, { email: "plain@example.com" }, { html: true });
    expect(done.status).toBe(303);
    expect(new URL(done.headers.get("location")!).searchParams.get("done")).toBe("confirmation_sent");
    expect(await contactByEmail(workspaceId, "plain@example.com")).toBeDefined();

    const wrong = await post(formId, { email: "nope" }, { html: true });
    const error = new URL(wrong.headers.get("location")!).searchParams.get("error")!;
    expect(verifyToken("form_error", error)).toEqual({ param: "email", message: "Enter a valid email address." });

    await updateSignupForm(ctx, actor, formId, {
      ...SIGNUP_FORM_DEFAULTS,
      name: "Footer",
      brandId,
      topicIds,
      apiKeyId: keyId,
      redirectUrl: "https://www.sender.example/thanks",
    });
    const redirected = await post(formId, { email: "thanks@example.com" }, { html: true });
    expect(redirected.headers.get("location")).toBe("https://www.sender.example/thanks");
  });

  it("redirectUrl: a thank-you page is accepted on one of the key's allowed origins or the brand's website, and refused on redirectUrl anywhere else", async () => {
    const { actor, workspaceId, brandId, topicIds, keyId } = await setup();
    const base = { ...SIGNUP_FORM_DEFAULTS, name: "Footer", brandId, topicIds, apiKeyId: keyId };
    for (const redirectUrl of ["https://www.sender.example/thanks?from=form", "https://brand.example.com/welcome"]) {
      await expect(createSignupForm(ctx, actor, { ...base, redirectUrl })).resolves.toMatchObject({
        formId: expect.any(String),
      });
    }
    for (const redirectUrl of [
      "https://evil.example/phish",
      "http://www.sender.example/thanks",
      "https://www.sender.example.evil.example/",
    ]) {
      await expect(createSignupForm(ctx, actor, { ...base, redirectUrl })).rejects.toMatchObject({
        code: "validation_failed",
        param: "redirectUrl",
      });
    }
    // A key without an allowlist takes posts from anywhere; its forms still only send people to the brand's website.
    const { keyId: open } = await seedKey(ctx, workspaceId, { kind: "publishable", origins: [] });
    await expect(
      createSignupForm(ctx, actor, { ...base, apiKeyId: open, redirectUrl: "https://www.sender.example/thanks" }),
    ).rejects.toMatchObject({ param: "redirectUrl" });
    await expect(
      createSignupForm(ctx, actor, { ...base, apiKeyId: open, redirectUrl: "https://brand.example.com/thanks" }),
    ).resolves.toBeDefined();
  });

  it("redirectUrl: a stored thank-you page that is no longer on the key's origins or the brand's website is not followed; the hosted thank-you page is shown", async () => {
    const { formId, workspaceId } = await setup();
    await ctx.db
      .update(signupForms)
      .set({ redirectUrl: "https://evil.example/phish" })
      .where(eq(signupForms.id, formId));
    const done = await post(formId, { email: "stale@example.com" }, { html: true });
    expect(done.status).toBe(303);
    const location = new URL(done.headers.get("location")!);
    expect(location.pathname).toBe(`/f/${formId}`);
    expect(location.searchParams.get("done")).toBe("confirmation_sent");
    expect(await contactByEmail(workspaceId, "stale@example.com")).toBeDefined();
  });

  it("each form counts its submissions and confirmations; a confirmation through the mailed link counts", async () => {
    const { formId, workspaceId, actor } = await setup();
    await post(formId, { email: "c1@example.com" });
    await post(formId, { email: "c2@example.com" });
    await post(formId, { email: "bot2@example.com", website: "x" });
    const [request] = await requestsFor(workspaceId, "c1@example.com");
    await decideConfirmation(ctx, request!.id); // the confirmation workflow's step that marks the request mailed
    const token = new URL(confirmationUrl(request!.id)).pathname.split("/").pop()!;
    await confirmSubscription(ctx, token, { ip: null, userAgent: null });
    const [summary] = await listSignupForms(ctx, actor, formId);
    expect(summary).toMatchObject({ submissions: 2, confirmations: 1 });
  });

  it("a revoked key makes the form unavailable; a test key stores the signup and mails nothing", async () => {
    const { formId, keyId, workspaceId } = await setup();
    await revokeApiKey(ctx, systemActor("test", workspaceId), keyId);
    expect(await json(await post(formId, { email: "late@example.com" }))).toMatchObject({
      status: 403,
      body: { error: { code: "form_unavailable" } },
    });

    const test = await setup({ environment: "test" });
    expect((await json(await post(test.formId, { email: "test@example.com" }))).status).toBe(200);
    expect(await contactByEmail(test.workspaceId, "test@example.com")).toBeDefined();
    expect(await requestsFor(test.workspaceId, "test@example.com")).toEqual([]);
    expect(await json(await post("fm_missing", { email: "x@example.com" }))).toMatchObject({
      status: 404,
      body: { error: { code: "form_not_found" } },
    });
  });

  it("body cap: a submission over 16 KiB is refused with payload_too_large", async () => {
    const { formId } = await setup();
    expect(await json(await post(formId, { email: "big@example.com", first_name: "x".repeat(20_000) }))).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large" } },
    });
  });

  it("tenancy: a form names only its own workspace's brand, live topics of that brand and a live publishable key that may reach the brand; another workspace's form cannot be read, changed or deleted", async () => {
    const { workspaceId, brandId, topicIds, keyId, formId } = await setup();
    const other = await setup();
    const actor = systemActor("test", workspaceId);
    const base = { ...SIGNUP_FORM_DEFAULTS, name: "Form", brandId, topicIds, apiKeyId: keyId };
    await expect(createSignupForm(ctx, actor, { ...base, topicIds: other.topicIds })).rejects.toMatchObject({
      code: "validation_failed",
      param: "topicIds",
    });
    await expect(createSignupForm(ctx, actor, { ...base, apiKeyId: other.keyId })).rejects.toMatchObject({
      code: "validation_failed",
      param: "apiKeyId",
    });
    await expect(createSignupForm(ctx, actor, { ...base, brandId: other.brandId })).rejects.toMatchObject({
      code: "brand_not_found",
    });
    const { keyId: secret } = await seedKey(ctx, workspaceId, { kind: "secret" });
    await expect(createSignupForm(ctx, actor, { ...base, apiKeyId: secret })).rejects.toMatchObject({
      param: "apiKeyId",
    });
    await expect(updateSignupForm(ctx, actor, other.formId, base)).rejects.toMatchObject({ code: "form_not_found" });
    await expect(getSignupFormOrThrow(ctx, actor, other.formId)).rejects.toMatchObject({ code: "form_not_found" });
    await expect(deleteSignupForm(ctx, actor, other.formId)).rejects.toMatchObject({ code: "form_not_found" });
    await expect(
      getSignupFormOrThrow(ctx, systemActor("test", other.workspaceId), other.formId),
    ).resolves.toMatchObject({ name: "Footer" });
    expect(await listSignupForms(ctx, actor)).toMatchObject([{ id: formId }]);
    expect(await listSignupForms(ctx, actor, other.formId)).toEqual([]);
  });

  it("the embed script stays within its budget of 10 KB gzipped", async () => {
    const script = await buildSignupFormScript();
    console.log(`signup form script: ${script.bytes} bytes, ${script.gzipBytes} gzipped`);
    expect(script.gzipBytes).toBe(gzipSync(script.code, { level: 9 }).byteLength);
    expect(script.gzipBytes).toBeLessThanOrEqual(SIGNUP_FORM_SCRIPT_BUDGET_BYTES);
    expect(script.code).not.toMatch(/react|__NEXT/i);
  });
});
