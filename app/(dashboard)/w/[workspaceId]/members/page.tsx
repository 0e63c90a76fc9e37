import type { Metadata } from "next";

import { InviteMemberDialog, RemoveMemberButton, ResendInvitationButton } from "@/components/members/member-controls";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { When } from "@/components/ui/when";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";
import { listMemberCreations } from "@/lib/members/list-member-creations";
import { listMembers } from "@/lib/members/list-members";
import { rolesGrantedBy } from "@/lib/members/member-schemas";

import { inviteMemberAction, removeMemberAction, resendInvitationAction } from "./actions";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor, workspace, user } = await getWorkspaceSession(workspaceId);
  const members = await listMembers(ctx, actor);
  const manages = workspace.role === "owner" || workspace.role === "admin";
  // What each member created that still works, for the removal to ask about.
  const creations = manages
    ? new Map(
        await Promise.all(
          members.map(async (member) => [member.userId, await listMemberCreations(ctx, actor, member.userId)] as const),
        ),
      )
    : new Map();
  // The last owner cannot be removed (removeMember refuses it): no button that can only fail.
  const owners = members.filter((member) => member.role === "owner").length;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "Members" }]}
        title="Members"
        description={
          manages
            ? "Everyone who can sign in to this workspace."
            : "Everyone who can sign in to this workspace. Owners and admins invite and remove members."
        }
        actions={
          manages ? (
            <InviteMemberDialog
              workspaceId={workspaceId}
              action={inviteMemberAction}
              roles={rolesGrantedBy(workspace.role)}
            />
          ) : undefined
        }
      />
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Member since</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {members.map((member) => (
            <TableRow key={member.userId}>
              <TableCell className="font-medium">
                {member.email}
                {member.userId === user.id && <span className="ml-2 text-xs text-muted-foreground">(you)</span>}
              </TableCell>
              <TableCell>
                <Badge variant="outline">{member.role}</Badge>
              </TableCell>
              <TableCell>
                {member.active ? <Badge variant="success">Active</Badge> : <Badge variant="warning">Invited</Badge>}
              </TableCell>
              <TableCell className="text-muted-foreground">
                <When at={member.joinedAt} />
              </TableCell>
              <TableCell className="text-right">
                {manages && (
                  <span className="inline-flex gap-2">
                    {!member.active && (
                      <ResendInvitationButton
                        workspaceId={workspaceId}
                        userId={member.userId}
                        action={resendInvitationAction}
                      />
                    )}
                    {(member.role !== "owner" || owners > 1) && (
                      <RemoveMemberButton
                        workspaceId={workspaceId}
                        member={member}
                        creations={creations.get(member.userId) ?? { apiKeys: [], webhookEndpoints: [] }}
                        action={removeMemberAction}
                      />
                    )}
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
