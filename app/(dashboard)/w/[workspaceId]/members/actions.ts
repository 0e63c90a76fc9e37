"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { inviteMember, resendInvitation } from "@/lib/members/invite-member";
import { inviteMemberSchema, removeMemberSchema } from "@/lib/members/member-schemas";
import { removeMember } from "@/lib/members/remove-member";

export const inviteMemberAction = workspaceAction(inviteMemberSchema, ({ ctx, actor }, input) =>
  inviteMember(ctx, actor, input),
);

export const resendInvitationAction = workspaceAction(
  z.strictObject({ userId: z.string() }),
  ({ ctx, actor }, { userId }) => resendInvitation(ctx, actor, userId),
);

export const removeMemberAction = workspaceAction(
  removeMemberSchema.extend({ userId: z.string() }),
  ({ ctx, actor }, { userId, keysAndEndpoints }) => removeMember(ctx, actor, userId, { keysAndEndpoints }),
);
