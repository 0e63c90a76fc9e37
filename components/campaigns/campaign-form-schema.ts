import { z } from "zod";
import { campaignSchema } from "@/lib/campaigns/campaign-schemas";

// A form's empty select or textarea means "none", which the campaign's own schema spells null.
const noneWhenEmpty = (value: unknown) => (value === "" ? null : value);

export const campaignFormSchema = campaignSchema.extend({
  brandId: z.string().min(1, "choose a brand"),
  topicId: z.string().min(1, "choose a topic"),
  listId: z.preprocess(noneWhenEmpty, z.string().nullish()),
  text: z.preprocess(noneWhenEmpty, campaignSchema.shape.text),
});

export const editCampaignFormSchema = campaignFormSchema.extend({ campaignId: z.string() });
