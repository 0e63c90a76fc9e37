import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { BrandLogo } from "@/components/brand-logo";
import { checkWorkspaceActive } from "@/lib/api/check-workspace-active";
import { defaultCtx } from "@/lib/context";
import { formCss } from "@/lib/forms/embed/form-css";
import { formMarkup, type FormMarkupState } from "@/lib/forms/embed/form-markup";
import { loadSignupForm, type LoadedSignupForm } from "@/lib/forms/load-signup-form";
import { publicSignupForm } from "@/lib/forms/public-signup-form";
import { appUrl } from "@/lib/runtime/app-url";
import { verifyToken } from "@/lib/tokens/signed-token";

type Props = { params: Promise<{ formId: string }>; searchParams: Promise<{ done?: string; error?: string }> };

const SCOPE = "sf-page";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const form = await loadSignupForm(defaultCtx(), (await params).formId);
  // The sender's page, not the service's: its tab names the form and the brand.
  return { title: form ? { absolute: `${form.texts.title || "Sign up"} · ${form.brandName}` } : "Sign up" };
}

function accepting(form: LoadedSignupForm): boolean {
  try {
    checkWorkspaceActive(form.billingStage, "POST");
  } catch {
    return false;
  }
  return !form.key.revoked && form.topics.length > 0;
}

/**
 * The form's own page, to link from anywhere. The form posts without
 * JavaScript and comes back here with its thank-you message (`done`) or a
 * signed problem shown next to its field (`error`). The script is loaded
 * only to solve the challenge of a form that asks for one.
 */
export default async function HostedSignupFormPage({ params, searchParams }: Props) {
  const { formId } = await params;
  const { done, error } = await searchParams;
  const form = await loadSignupForm(defaultCtx(), formId);
  if (!form) notFound();
  const view = publicSignupForm(form, form.topics, form.attributeTypes, appUrl());
  const problem = error ? verifyToken<{ param: string; message: string }>("form_error", error) : null;
  const state: FormMarkupState =
    done === "confirmation_sent" || done === "subscribed"
      ? { done: done === "confirmation_sent" ? view.checkInbox : view.success }
      : problem
        ? { errors: { [problem.param]: problem.message } }
        : {};
  const markup = accepting(form)
    ? formMarkup(view, SCOPE, state)
    : formMarkup(view, SCOPE, { done: "This form is not accepting signups right now." });
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-6 px-4 py-[8vh]">
      <style dangerouslySetInnerHTML={{ __html: formCss(`.${SCOPE}`) }} />
      <header className="flex items-center gap-3">
        {form.brandLogoUrl && <BrandLogo src={form.brandLogoUrl} alt="" />}
        <p className="text-lg font-semibold">{form.brandName}</p>
      </header>
      <div className="w-full" dangerouslySetInnerHTML={{ __html: markup }} />
      {/* Solves the challenge when there is one, and fills the visitor's time zone into its hidden field. */}
      <script src="/embed/signup-form.js" async />
    </main>
  );
}
