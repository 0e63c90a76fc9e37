import "server-only";

import { formCss } from "./embed/form-css";
import { formMarkup } from "./embed/form-markup";
import type { PublicSignupForm } from "./public-signup-form";

export interface EmbedCodes {
  script: string;
  html: string;
  /** The plain HTML form carries the script that solves the challenge: without JavaScript its submissions are refused. */
  htmlNeedsJavaScript: boolean;
  hostedUrl: string;
}

/** The three ways to put a form on a page, as the sender copies them. */
export function embedCodes(form: PublicSignupForm, appUrl: string): EmbedCodes {
  const scriptTag = `<script src="${appUrl}/embed/signup-form.js" async></script>`;
  const scope = `sf-${form.id}`;
  const htmlNeedsJavaScript = form.challengeUrl !== null;
  const html = [
    `<style>${formCss(`.${scope}`)}</style>`,
    formMarkup(form, scope),
    ...(htmlNeedsJavaScript ? [scriptTag] : []),
  ].join("\n");
  return {
    script: `<div data-signup-form="${form.id}"></div>\n${scriptTag}`,
    html,
    htmlNeedsJavaScript,
    hostedUrl: `${appUrl}/f/${form.id}`,
  };
}
