"use server";

import { z } from "zod";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { addVerifiedAddress, removeVerifiedAddress } from "@/lib/sandbox/verified-addresses";

export const addVerifiedAddressAction = workspaceAction(
  z.strictObject({ email: z.string().trim().min(1, "enter an address") }),
  ({ ctx, actor }, input) => addVerifiedAddress(ctx, actor, input),
);

export const removeVerifiedAddressAction = workspaceAction(
  z.strictObject({ email: z.string() }),
  ({ ctx, actor }, { email }) => removeVerifiedAddress(ctx, actor, email),
);
