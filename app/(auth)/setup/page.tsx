import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { SetupForm } from "@/components/setup-form";
import { defaultCtx } from "@/lib/context";
import { env } from "@/lib/env";
import { isSetupOpen } from "@/lib/users/is-setup-open";

import { createFirstOwnerAction } from "./actions";

export const metadata: Metadata = { title: "Set up" };

/** First run: exists only on an empty service (no user row, no workspace). */
export default async function SetupPage() {
  if (!(await isSetupOpen(defaultCtx()))) redirect("/signin");
  return (
    <main className="auth-page w-full max-w-sm rounded-xl border bg-card p-6 shadow-sm">
      <h1>Create the owner account</h1>
      <p className="muted">
        {env().HOSTED_SERVICE
          ? "Nobody can sign in yet. The account you create here owns the first workspace."
          : "Nobody can sign in yet. The account you create here owns the first workspace and is this installation's operator: it reviews workspaces and brands before they mail anyone."}
      </p>
      <SetupForm createFirstOwner={createFirstOwnerAction} />
    </main>
  );
}
