import { readFileSync } from "node:fs";

import { systemActor, type Actor } from "@/lib/actor";
import { numberSteps } from "@/lib/automations/automation-schemas";
import {
  activateAutomation,
  createAutomation,
  pauseAutomation,
  resumeAutomation,
  setAutomationSteps,
  showAutomation,
  updateAutomationSettings,
} from "@/lib/automations/automations";
import { activeEntriesByVersion, moveEntriesToLatest } from "@/lib/automations/move-entries";
import type { Ctx } from "@/lib/context";
import { validationFailed } from "@/lib/errors";

import { opt, str, string, type AdminCommand, type Values } from "./admin-command";

// Commands naming an automation by id act across workspaces: the automation's own workspace applies.
const operator = systemActor("admin-cli");

/** A status change by automation id, printing the automation and its status. */
function statusCommand(
  name: string,
  summary: string,
  change: (ctx: Ctx, actor: Actor, automationId: string) => Promise<{ automationId: string; status: string }>,
): Record<string, AdminCommand> {
  return {
    [name]: {
      summary,
      options: { automation: string },
      required: ["automation"],
      run: async (ctx, v) => {
        const { automationId, status } = await change(ctx, operator, str(v, "automation"));
        return { automation_id: automationId, status };
      },
    },
  };
}

/** The steps file: a JSON array of steps, or an object with `steps` (docs/readings.md, "Automations"). */
function readSteps(path: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw validationFailed("steps", `steps: ${path} is not a JSON file (${(error as Error).message}).`);
  }
  return Array.isArray(parsed) ? parsed : (parsed as { steps?: unknown })?.steps;
}

/** `--settings`: the trigger's settings as a JSON object. */
function readSettings(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw validationFailed("trigger_settings", `settings: not JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw validationFailed("trigger_settings", 'settings: a JSON object, e.g. {"name":"order.completed"}.');
  return parsed as Record<string, unknown>;
}

/** `--exit`: the exit condition as a JSON object, or `none` to clear it. */
function readExitCondition(text: string): unknown {
  if (text === "none") return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw validationFailed("exit_condition", `exit: not JSON (${(error as Error).message}), nor none.`);
  }
}

/** `--reentry`: minutes after a person's entry ended before they may enter again, or `never`. */
function readReentry(text: string): number | null {
  if (text === "never") return null;
  if (!/^\d+$/.test(text))
    throw validationFailed("reentry_after_minutes", "reentry: whole minutes (0 or more), or never.");
  return Number(text);
}

/** The settings `automation:update` was given, each only when named. */
function settingsChanges(v: Values) {
  const given = (name: string) => opt(v, name) !== undefined;
  return {
    ...(given("trigger") ? { trigger: str(v, "trigger") as never } : {}),
    ...(given("settings") ? { trigger_settings: readSettings(str(v, "settings")) } : {}),
    ...(given("reentry") ? { reentry_after_minutes: readReentry(str(v, "reentry")) } : {}),
    ...(given("exit") ? { exit_condition: readExitCondition(str(v, "exit")) as never } : {}),
  };
}

/** Automations: a topic's series of mails, each person on their own clock. */
export const automationCommands: Record<string, AdminCommand> = {
  "automation:create": {
    summary:
      '--workspace ID --topic ID --name NAME [--trigger T] [--settings JSON]   (a draft; trigger topic_confirmed (default), list_added, attribute_changed, date_attribute, link_clicked or event, with its settings, e.g. \'{"list_id":"ls_…"}\')',
    options: { workspace: string, topic: string, name: string, trigger: string, settings: string },
    required: ["workspace", "topic", "name"],
    run: async (ctx, v) => {
      const { automationId } = await createAutomation(ctx, systemActor("admin-cli", str(v, "workspace")), {
        name: str(v, "name"),
        topic_id: str(v, "topic"),
        ...(v.trigger === undefined ? {} : { trigger: str(v, "trigger") as never }),
        ...(v.settings === undefined ? {} : { trigger_settings: readSettings(str(v, "settings")) }),
      });
      return { automation_id: automationId, status: "draft" };
    },
  },
  "automation:update": {
    summary:
      "--automation ID [--trigger T] [--settings JSON] [--reentry MINUTES|never] [--exit JSON|none]   (changes only what is named; a new trigger or re-entry rule applies to entries from now on, a new exit condition to everyone inside from their next step)",
    options: { automation: string, trigger: string, settings: string, reentry: string, exit: string },
    required: ["automation"],
    run: async (ctx, v) => {
      const updated = await updateAutomationSettings(ctx, operator, str(v, "automation"), settingsChanges(v));
      return {
        automation_id: updated.automationId,
        trigger: updated.trigger,
        trigger_settings: updated.trigger_settings,
        reentry_after_minutes: updated.reentry_after_minutes ?? null,
        exit_condition: updated.exit_condition ?? null,
      };
    },
  },
  "automation:steps": {
    summary:
      '--automation ID --file STEPS.json   (a new version: [{"type":"send","subject":…,"html"|"text":…}, {"type":"wait","minutes":N}, …])',
    options: { automation: string, file: string },
    required: ["automation", "file"],
    run: async (ctx, v) => {
      const steps = readSteps(str(v, "file"));
      const { automationId, versionId, version } = await setAutomationSteps(ctx, operator, str(v, "automation"), {
        steps: steps as never,
      });
      return { automation_id: automationId, version_id: versionId, version };
    },
  },
  ...statusCommand(
    "automation:activate",
    "--automation ID   (people confirming from now on enter; needs steps)",
    activateAutomation,
  ),
  ...statusCommand(
    "automation:pause",
    "--automation ID   (nothing sent, nobody enters; everyone keeps their place)",
    pauseAutomation,
  ),
  ...statusCommand("automation:resume", "--automation ID   (the runs held at a send go on)", resumeAutomation),
  "automation:show": {
    summary:
      "--automation ID   (its steps and figures: entered, at each step, sent, skipped, opened and clicked, branch arms, exited by reason; people per version)",
    options: { automation: string },
    required: ["automation"],
    document: true,
    run: async (ctx, v) => {
      const shown = await showAutomation(ctx, operator, str(v, "automation"));
      const { automation, version } = shown;
      const numbered = numberSteps(version?.steps ?? []);
      return {
        automation_id: automation.id,
        workspace_id: automation.workspaceId,
        topic_id: automation.topicId,
        name: automation.name,
        status: automation.status,
        trigger: automation.trigger,
        version: version?.number ?? null,
        entered: shown.entered,
        active: shown.active,
        completed: shown.completed,
        exited: shown.exited,
        // Each step by its number (through branches); a branch without its arms, whose steps follow it.
        steps: shown.steps.map((figures) => {
          const step = numbered[figures.index]!.step;
          return {
            ...(step.type === "branch" ? { type: step.type, condition: step.condition } : step),
            index: figures.index,
            waiting: figures.waiting,
            ...(figures.sent !== undefined
              ? { sent: figures.sent, skipped: figures.skipped, opened: figures.opened, clicked: figures.clicked }
              : {}),
            ...(figures.arms ? { arms: figures.arms } : {}),
          };
        }),
        versions: await activeEntriesByVersion(ctx, operator, automation.id).then((rows) =>
          rows.map((row) => ({ version: row.version, active: row.active })),
        ),
      };
    },
  },
  "automation:move": {
    summary: "--automation ID   (everyone inside an older version goes on in the newest, at the same step number)",
    options: { automation: string },
    required: ["automation"],
    run: async (ctx, v) => {
      const { moved, version } = await moveEntriesToLatest(ctx, operator, str(v, "automation"));
      return { automation_id: str(v, "automation"), moved, version };
    },
  },
};
