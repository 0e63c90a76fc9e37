import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { SignInForm } from "@/components/sign-in-form";
import { currentUser } from "@/lib/auth/current-user";
import { safeCallbackUrl } from "@/lib/auth/safe-callback-url";
import { defaultCtx } from "@/lib/context";
import { appUrl } from "@/lib/runtime/app-url";
import { hasUserWithPassword } from "@/lib/users/has-user-with-password";
import { isSetupOpen } from "@/lib/users/is-setup-open";

export const metadata: Metadata = { title: "Sign in" };

/** The address to fill in, passed by the page that sent the person here; anything else is dropped. */
function prefill(email: unknown): string {
  return typeof email === "string" && email.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : "";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string | string[]; setup?: string; reset?: string; email?: string | string[] }>;
}) {
  const ctx = defaultCtx();
  const { callbackUrl, setup, reset, email } = await searchParams;
  const next = safeCallbackUrl(callbackUrl, appUrl());
  if (await isSetupOpen(ctx)) redirect("/setup");
  if (await currentUser()) redirect(next);
  if (!(await hasUserWithPassword(ctx))) {
    // Users exist (named owners from the admin CLI) but none has a password: the public first-run page stays closed.
    return (
      <main className="auth-page w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">
        <h1>Sign in</h1>
        <p role="status">
          Nobody can sign in yet: no account has a password. On the server, set one with the admin CLI:{" "}
          <code>npm run -s admin -- user:create --email OWNER_EMAIL --password NEW_PASSWORD</code>
        </p>
      </main>
    );
  }
  return (
    <main className="auth-page w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">
      <h1>Sign in</h1>
      {setup === "done" && (
        <p
          className="rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm text-foreground"
          role="status"
        >
          Your account is ready. Sign in with it.
        </p>
      )}
      {reset === "done" && (
        <p
          className="rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm text-foreground"
          role="status"
        >
          Your password is changed. Sign in with the new one.
        </p>
      )}
      <SignInForm callbackUrl={next} email={prefill(email)} />
    </main>
  );
}
