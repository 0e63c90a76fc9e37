"use server";

import { setProviderRate } from "@/lib/campaigns/provider-pacing";
import { workspaceAction } from "@/lib/dashboard/workspace-action";
import { guardrailThresholdsSchema } from "@/lib/deliverability/guardrail-schemas";
import { setGuardrailThresholds } from "@/lib/deliverability/guardrail-thresholds";
import { providerRateSchema } from "@/lib/deliverability/provider-pace-schemas";
import { sunsetSettingsSchema } from "@/lib/deliverability/sunset-schemas";
import { updateSunsetSettings } from "@/lib/deliverability/sunset-settings";
import { updateWorkspaceTimeZone } from "@/lib/workspaces/workspace-time-zone";
import { workspaceTimeZoneSchema } from "@/lib/workspaces/workspace-time-zone-schema";

export const setGuardrailThresholdsAction = workspaceAction(guardrailThresholdsSchema, ({ ctx, actor }, thresholds) =>
  setGuardrailThresholds(ctx, actor, thresholds),
);

export const updateSunsetSettingsAction = workspaceAction(sunsetSettingsSchema, ({ ctx, actor }, settings) =>
  updateSunsetSettings(ctx, actor, settings),
);

export const setProviderRateAction = workspaceAction(providerRateSchema, ({ ctx, actor }, input) =>
  setProviderRate(ctx, actor, input),
);

export const updateWorkspaceTimeZoneAction = workspaceAction(workspaceTimeZoneSchema, ({ ctx, actor }, input) =>
  updateWorkspaceTimeZone(ctx, actor, input),
);
