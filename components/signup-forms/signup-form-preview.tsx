"use client";

import { escapeHtml } from "@/lib/forms/embed/form-markup";
import type { PublicSignupForm } from "@/lib/forms/public-signup-form";

/**
 * The form as the script renders it on a sender's page, in a sandboxed
 * frame: the real script, given the unsaved values, with submitting off.
 */
export function SignupFormPreview({ form, scriptUrl, dark = false }: { form: PublicSignupForm; scriptUrl: string; dark?: boolean }) {
  const page = `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;padding:24px;background:${dark ? "#0b0f19" : "#f3f4f6"}}</style></head><body>
<div data-signup-form-preview="${escapeHtml(JSON.stringify(form))}"></div><script src="${escapeHtml(scriptUrl)}"></script></body></html>`;
  return <iframe title="Form preview" sandbox="allow-scripts" srcDoc={page} className="h-[34rem] w-full rounded-md border bg-muted" />;
}
