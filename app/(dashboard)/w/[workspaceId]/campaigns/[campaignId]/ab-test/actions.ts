"use server";

import { z } from "zod";

import { removeAbTest, saveAbTest } from "@/lib/campaigns/ab-test";
import { abTestFields, checkVariants } from "@/lib/campaigns/ab-test-schemas";
import { pickAbWinner } from "@/lib/campaigns/ab-test-winner";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

export const saveAbTestAction = workspaceAction(
  abTestFields.extend({ campaignId: z.string() }).superRefine(checkVariants),
  async ({ ctx, actor }, { campaignId, ...test }) => {
    await saveAbTest(ctx, actor, campaignId, test);
  },
);

export const removeAbTestAction = workspaceAction(
  z.strictObject({ campaignId: z.string() }),
  async ({ ctx, actor }, { campaignId }) => {
    await removeAbTest(ctx, actor, campaignId);
  },
);

export const pickAbWinnerAction = workspaceAction(
  z.strictObject({ campaignId: z.string(), variant: z.number().int().min(0).max(2) }),
  async ({ ctx, actor }, { campaignId, variant }) => {
    await pickAbWinner(ctx, actor, campaignId, variant);
  },
);
