"use client";

import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { safeCallbackUrl } from "@/lib/auth/safe-callback-url";
import { isSignInLimitedMessage } from "@/lib/auth/sign-in-limited-message";

// next-auth's `error` is "CredentialsSignin" for a wrong email or password, else the message authorize threw.
function describeSignInError(error: string | null | undefined): string {
  if (error && isSignInLimitedMessage(error)) return error;
  if (error === "CredentialsSignin") return "That email and password do not match an account.";
  return "Signing in is not possible right now; try again in a moment.";
}

/** `email` is filled in when the page knows it: after the first-run page, an invitation or a reset. */
export function SignInForm({ callbackUrl, email = "" }: { callbackUrl: string; email?: string }) {
  const router = useRouter();
  const [typed, setTyped] = useState(email);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: form.get("email"),
      password: form.get("password"),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      setError(describeSignInError(result?.error));
      return;
    }
    router.replace(safeCallbackUrl(callbackUrl, window.location.origin));
    router.refresh();
  }

  return (
    // method="post": a submission before the page's script runs must never put the password in the URL.
    <form className="grid gap-4" method="post" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor="signin-email">Email</Label>
        <Input
          id="signin-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          maxLength={320}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoFocus={!email}
        />
      </div>
      <div className="grid gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor="signin-password">Password</Label>
          <Link
            className="text-sm text-primary underline-offset-4 hover:underline"
            href={typed ? `/forgot-password?email=${encodeURIComponent(typed)}` : "/forgot-password"}
          >
            Forgot password?
          </Link>
        </div>
        <Input
          id="signin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={200}
          aria-invalid={error ? true : undefined}
          autoFocus={Boolean(email)}
        />
      </div>
      {error && (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
