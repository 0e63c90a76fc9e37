"use server";

import { z } from "zod";

import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  scheduleCampaign,
  sendCampaignNow,
  unscheduleCampaign,
} from "@/lib/campaigns/campaign-actions";
import { campaignFromEditor } from "@/lib/campaigns/campaign-body";
import { campaignFormSchema, editCampaignFormSchema } from "@/lib/campaigns/campaign-form-schema";
import { resendToNonOpenersSchema } from "@/lib/campaigns/campaign-schemas";
import { countMissingMergeTags } from "@/lib/campaigns/count-missing-merge-tags";
import { scheduleCampaignAtLocalTime } from "@/lib/campaigns/local-time-schedule";
import { scheduleFormSchema, scheduleSchema } from "@/lib/campaigns/local-time-schemas";
import { resendToNonOpeners } from "@/lib/campaigns/resend-to-non-openers";
import { createCampaign, duplicateCampaign, updateCampaign } from "@/lib/campaigns/save-campaign";
import { sendTestMail } from "@/lib/campaigns/send-test-mail";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { getMailTransport } from "@/lib/mail/get-mail-transport";
import { saveCampaignAsTemplate, saveTemplateSchema } from "@/lib/templates/templates";
import { parseInput } from "@/lib/validation/parse-input";

const oneCampaign = z.strictObject({ campaignId: z.string() });

export const createCampaignAction = workspaceAction(campaignFormSchema, async ({ ctx, actor }, form) => {
  const [input, source] = await campaignFromEditor(ctx, actor, form);
  return createCampaign(ctx, actor, input, source);
});

export const updateCampaignAction = workspaceAction(
  editCampaignFormSchema,
  async ({ ctx, actor }, { campaignId, ...form }) => {
    const [input, source] = await campaignFromEditor(ctx, actor, form);
    await updateCampaign(ctx, actor, campaignId, input, source);
    return { campaignId };
  },
);

// A read while the campaign is written: nothing to revalidate.
export const countMissingMergeTagsAction = workspaceAction(
  z.strictObject({
    brandId: z.string(),
    topicId: z.string(),
    listId: z.string().nullish(),
    tags: z.array(z.string().max(200)).max(100),
  }),
  ({ ctx, actor }, input) => countMissingMergeTags(ctx, actor, input),
  { revalidate: false },
);

export const duplicateCampaignAction = workspaceAction(oneCampaign, ({ ctx, actor }, { campaignId }) =>
  duplicateCampaign(ctx, actor, campaignId),
);

export const resendToNonOpenersAction = workspaceAction(
  resendToNonOpenersSchema.extend({ campaignId: z.string() }),
  async ({ ctx, actor }, { campaignId, ...input }) => {
    const { campaignId: resendId } = await resendToNonOpeners(ctx, actor, campaignId, input);
    return { campaignId: resendId };
  },
);

export const sendCampaignNowAction = workspaceAction(oneCampaign, async ({ ctx, actor }, { campaignId }) => {
  await sendCampaignNow(ctx, actor, campaignId);
});

// At one instant, or at a time in each recipient's zone (docs/readings.md, "Sending at a local time").
export const scheduleCampaignAction = workspaceAction(scheduleFormSchema, async ({ ctx, actor }, input) => {
  const { campaignId, ...form } = input;
  const schedule = parseInput(scheduleSchema, form.mode === "at" ? { mode: "at", at: form.at } : form);
  if (schedule.mode === "at") await scheduleCampaign(ctx, actor, campaignId, schedule.at);
  else await scheduleCampaignAtLocalTime(ctx, actor, campaignId, schedule);
});

export const unscheduleCampaignAction = workspaceAction(oneCampaign, async ({ ctx, actor }, { campaignId }) => {
  await unscheduleCampaign(ctx, actor, campaignId);
});

export const pauseCampaignAction = workspaceAction(oneCampaign, async ({ ctx, actor }, { campaignId }) => {
  await pauseCampaign(ctx, actor, campaignId);
});

// `acknowledged`: the person read the guardrail's figures (asked only after a guardrail pause).
const resumeInput = z.strictObject({ campaignId: z.string(), acknowledged: z.boolean().optional() });

export const resumeCampaignAction = workspaceAction(
  resumeInput,
  async ({ ctx, actor }, { campaignId, acknowledged }) => {
    await resumeCampaign(ctx, actor, campaignId, { acknowledged });
  },
);

export const cancelCampaignAction = workspaceAction(oneCampaign, async ({ ctx, actor }, { campaignId }) => {
  await cancelCampaign(ctx, actor, campaignId);
});

export const sendTestMailAction = workspaceAction(
  z.strictObject({ campaignId: z.string(), to: z.string() }),
  ({ ctx, actor }, { campaignId, to }) => sendTestMail(ctx, actor, getMailTransport(), campaignId, to),
  { revalidate: false },
);

export const saveTemplateAction = workspaceAction(
  saveTemplateSchema,
  ({ ctx, actor }, input) => saveCampaignAsTemplate(ctx, actor, input),
  { revalidate: false },
);
