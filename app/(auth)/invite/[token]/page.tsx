import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitationForm } from "@/components/members/accept-invitation-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { defaultCtx } from "@/lib/context";
import { describeInvitation } from "@/lib/members/describe-invitation";
import { acceptInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Join a workspace" };

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await describeInvitation(defaultCtx(), token);
  return (
    <main className="w-full max-w-md">
      <Card>
        <CardHeader>
          <CardTitle>{invitation ? `Join ${invitation.workspaceName}` : "This invitation is not valid"}</CardTitle>
          <CardDescription>
            {!invitation && "The link has expired or was altered. Ask the workspace owner to invite you again."}
            {invitation?.hasPassword && "You already have an account: sign in with it to reach the workspace."}
            {invitation && !invitation.hasPassword && "Choose a password to finish your account."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {invitation && !invitation.hasPassword ? (
            <AcceptInvitationForm email={invitation.email} action={acceptInvitationAction.bind(null, token)} />
          ) : (
            <Link className="text-primary underline" href="/signin">
              Go to sign in
            </Link>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
