import { z } from "zod";

// Schemas only (no database): the dashboard's form checks input in the browser with the same rules.

/** A form's empty number field means "not by this measure". */
const limit = (max: number) =>
  z.preprocess(
    (value) => (value === "" || value === undefined ? null : value),
    z.coerce.number().int("a whole number").min(1, "at least 1").max(max, `at most ${max}`).nullable(),
  );

/**
 * The sunset of inactive contacts (docs/readings.md): on or off, and after how many campaigns and/or
 * days without a human open or click a contact is inactive. Turned on, at least one measure is needed.
 */
export const sunsetSettingsSchema = z
  .strictObject({
    enabled: z.boolean(),
    afterCampaigns: limit(1_000),
    afterDays: limit(3_650),
  })
  .refine((value) => !value.enabled || value.afterCampaigns !== null || value.afterDays !== null, {
    message: "give a number of campaigns, of days, or both",
    path: ["afterCampaigns"],
  });

export type SunsetSettingsInput = z.input<typeof sunsetSettingsSchema>;
export type SunsetSettings = z.output<typeof sunsetSettingsSchema>;

/** Whether the settings leave anyone out: on, with a measure. The UI and the audience rule both ask this. */
export function sunsetApplies(settings: SunsetSettings): boolean {
  return settings.enabled && (settings.afterCampaigns !== null || settings.afterDays !== null);
}

/** The rule in words, for the settings card and the exclusion preview. */
export function describeSunset(settings: SunsetSettings): string {
  const measures = [
    settings.afterCampaigns !== null &&
      `${settings.afterCampaigns} ${settings.afterCampaigns === 1 ? "campaign" : "campaigns"}`,
    settings.afterDays !== null && `${settings.afterDays} ${settings.afterDays === 1 ? "day" : "days"}`,
  ].filter(Boolean);
  return `No open or click by the person in ${measures.join(" or ")} since a campaign reached them`;
}
