import type { Metadata } from "next";
import Link from "next/link";

import { AcceptMembershipForm } from "@/components/members/accept-membership-form";
import { NewPasswordForm } from "@/components/new-password-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { defaultCtx } from "@/lib/context";
import { describeInvitation } from "@/lib/members/describe-invitation";

import { acceptInvitationAction, acceptMembershipAction } from "./actions";

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
            {invitation && !invitation.hasPassword && "Choose a password to finish your account."}
            {invitation?.hasPassword &&
              !invitation.accepted &&
              `You already have an account as ${invitation.email}: accept to join the workspace, then sign in as usual.`}
            {invitation?.accepted && "You have already joined: sign in to reach the workspace."}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {invitation && !invitation.hasPassword ? (
            <NewPasswordForm
              email={invitation.email}
              label="Password (at least 8 characters)"
              submitLabel="Set password"
              action={acceptInvitationAction.bind(null, token)}
            />
          ) : invitation && !invitation.accepted ? (
            <AcceptMembershipForm action={acceptMembershipAction.bind(null, token)} />
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
