import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { currentUser } from "@/lib/auth/current-user";
import { defaultCtx } from "@/lib/context";
import { hasAnyUser } from "@/lib/users/has-any-user";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; setup?: string }> }) {
  if (!(await hasAnyUser(defaultCtx()))) redirect("/setup");
  if (await currentUser()) redirect("/");
  const { callbackUrl, setup } = await searchParams;
  // Only same-site paths: a callback URL is never an open redirect.
  const next = callbackUrl?.startsWith("/") && !callbackUrl.startsWith("//") ? callbackUrl : "/";
  return (
    <main className="centered card">
      <h1>Sign in</h1>
      {setup === "done" && <p className="muted">Your account is ready. Sign in with it.</p>}
      <SignInForm callbackUrl={next} />
    </main>
  );
}
