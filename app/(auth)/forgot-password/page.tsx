import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { ForgotPasswordForm } from "@/components/forgot-password-form";
import { currentUser } from "@/lib/auth/current-user";
import { mailTransportName } from "@/lib/mail/mailbox-enabled";
import { PASSWORD_RESET_VALID_MS } from "@/lib/users/password-reset-link";

import { requestPasswordResetAction } from "./actions";

export const metadata: Metadata = { title: "Reset your password" };

export default async function ForgotPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ email?: string | string[] }>;
}) {
  if (await currentUser()) redirect("/");
  const { email } = await searchParams;
  return (
    <main className="auth-page w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">
      <h1>Reset your password</h1>
      <p className="muted">Enter the address you sign in with. We mail you a link to choose a new password.</p>
      {mailTransportName() === "local" && (
        <p className="muted">
          This installation keeps its mail in a test mailbox instead of sending it. Whoever runs the server reads the
          link with <code className="break-all">npm run -s admin -- mailbox:list --to YOUR_EMAIL</code>.
        </p>
      )}
      <ForgotPasswordForm
        email={typeof email === "string" ? email.slice(0, 320) : ""}
        validMinutes={PASSWORD_RESET_VALID_MS / 60_000}
        action={requestPasswordResetAction}
      />
    </main>
  );
}
