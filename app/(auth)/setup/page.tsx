import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/setup-form";
import { defaultCtx } from "@/lib/context";
import { hasAnyUser } from "@/lib/users/has-any-user";

export const metadata: Metadata = { title: "Set up" };

/** First run: exists only until the first owner has been created. */
export default async function SetupPage() {
  if (await hasAnyUser(defaultCtx())) redirect("/signin");
  return (
    <main className="centered card">
      <h1>Create the owner account</h1>
      <p className="muted">Nobody can sign in yet. The account you create here owns the first workspace.</p>
      <SetupForm />
    </main>
  );
}
