import { describe, expect, it } from "vitest";

import { embedCodes } from "./embed-codes";
import { publicSignupForm } from "./public-signup-form";
import { SIGNUP_FORM_DEFAULTS } from "./signup-form-schemas";

const APP = "https://mail.example.com";
const formWith = (challenge: boolean) =>
  publicSignupForm(
    {
      id: "fm_1",
      fields: SIGNUP_FORM_DEFAULTS.fields,
      texts: SIGNUP_FORM_DEFAULTS.texts,
      style: SIGNUP_FORM_DEFAULTS.style,
      challenge,
    },
    [{ id: "tp_1", name: "News" }],
    {},
    APP,
  );

describe("embed codes", () => {
  it("the plain HTML code needs JavaScript exactly when the form asks for the challenge, and then carries the script that solves it", () => {
    const withChallenge = embedCodes(formWith(true), APP);
    expect(withChallenge.htmlNeedsJavaScript).toBe(true);
    expect(withChallenge.html).toContain(`<script src="${APP}/embed/signup-form.js" async></script>`);

    const without = embedCodes(formWith(false), APP);
    expect(without.htmlNeedsJavaScript).toBe(false);
    expect(without.html).not.toContain("<script");
  });
});
