"use client";

import { signIn } from "next-auth/react";
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

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirect: false });
    setPending(false);
    if (!result || result.error) {
      setError(describeSignInError(result?.error));
      return;
    }
    router.replace(safeCallbackUrl(callbackUrl, window.location.origin));
    router.refresh();
  }

  return (
    <form className="grid gap-4" onSubmit={onSubmit}>
      <div className="grid gap-2">
        <Label htmlFor="signin-email">Email</Label>
        <Input id="signin-email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="signin-password">Password</Label>
        <Input id="signin-password" name="password" type="password" autoComplete="current-password" required aria-invalid={error ? true : undefined} />
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
