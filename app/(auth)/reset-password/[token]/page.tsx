import type { Metadata } from "next";
import Link from "next/link";

import { NewPasswordForm } from "@/components/new-password-form";
import { defaultCtx } from "@/lib/context";
import { describePasswordReset } from "@/lib/users/password-reset-link";

import { resetPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Choose a new password" };

// Opening the link changes nothing (mail scanners open links): only the form's submission does.
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await describePasswordReset(defaultCtx(), token);
  return (
    <main className="auth-page w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">
      <h1>{reset ? "Choose a new password" : "This link does not work any more"}</h1>
      {reset ? (
        <NewPasswordForm
          email={reset.email}
          label="New password (at least 8 characters)"
          submitLabel="Set new password"
          action={resetPasswordAction.bind(null, token)}
        />
      ) : (
        <>
          <p className="muted">It was used already, a newer password was set since, or its hour is over.</p>
          <Link href="/forgot-password">Ask for a new link</Link>
        </>
      )}
    </main>
  );
}
