"use server";

import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { sunsetSettingsSchema } from "@/lib/deliverability/sunset-schemas";
import { updateSunsetSettings } from "@/lib/deliverability/sunset-settings";

export const updateSunsetSettingsAction = workspaceAction(sunsetSettingsSchema, ({ ctx, actor }, settings) =>
  updateSunsetSettings(ctx, actor, settings),
);
