"use server";

import { z } from "zod";

import { activeEntriesByVersion } from "@/lib/automations/automation-figures";
import {
  createAutomationSchema,
  MAX_STEPS,
  updateAutomationSettingsSchema,
} from "@/lib/automations/automation-schemas";
import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  updateAutomationSettings,
} from "@/lib/automations/automations";
import { stepsFromEditor } from "@/lib/automations/steps-from-editor";
import { workspaceAction } from "@/lib/dashboard/workspace-action";

const oneAutomation = z.strictObject({ automationId: z.string() });

export const createAutomationAction = workspaceAction(createAutomationSchema, ({ ctx, actor }, input) =>
  createAutomation(ctx, actor, input as z.input<typeof createAutomationSchema>),
);

// The steps are checked by stepsFromEditor and setAutomationSteps (after a block-editor mail is rendered), each problem named by the step's number.
export const saveAutomationStepsAction = workspaceAction(
  z.strictObject({ automationId: z.string(), steps: z.array(z.unknown()).max(MAX_STEPS) }),
  async ({ ctx, actor }, { automationId, steps }) => {
    const checked = await stepsFromEditor(ctx, actor, automationId, steps);
    const { version } = await setAutomationSteps(ctx, actor, automationId, { steps: checked });
    const onOlder = (await activeEntriesByVersion(ctx, actor, automationId))
      .filter((row) => row.version < version)
      .reduce((sum, row) => sum + row.active, 0);
    return { version, onOlderVersions: onOlder };
  },
);

export const activateAutomationAction = workspaceAction(oneAutomation, ({ ctx, actor }, { automationId }) =>
  activateAutomation(ctx, actor, automationId),
);

export const pauseAutomationAction = workspaceAction(oneAutomation, ({ ctx, actor }, { automationId }) =>
  pauseAutomation(ctx, actor, automationId),
);

export const resumeAutomationAction = workspaceAction(oneAutomation, ({ ctx, actor }, { automationId }) =>
  resumeAutomation(ctx, actor, automationId),
);

// The changes are checked whole by updateAutomationSettings, against the trigger they leave; problems are named as at creation (`trigger_settings.list_id`).
export const updateAutomationSettingsAction = workspaceAction(
  z.strictObject({ automationId: z.string(), ...updateAutomationSettingsSchema.shape }),
  ({ ctx, actor }, { automationId, ...changes }) => updateAutomationSettings(ctx, actor, automationId, changes),
);
