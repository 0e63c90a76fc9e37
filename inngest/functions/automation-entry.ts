import { inngest } from "@/inngest/client";
import { automationEntryStarted, automationResumed, contactEventRecorded } from "@/inngest/events";
import { workflowCtx } from "@/inngest/workflow-ctx";
import { MAX_STEPS } from "@/lib/automations/automation-schemas";
import { runActionStep } from "@/lib/automations/run-action-step";
import { advanceAndLocate, entryPosition } from "@/lib/automations/run-entry";
import { sendAutomationStep } from "@/lib/automations/run-send";
import { getMailTransport } from "@/lib/mail/get-mail-transport";

/** How long a run held at a send (a pause, billing, the allowance) waits for the resume event before looking again. */
const PAUSED_RECHECK = "1d";
/**
 * Step boundaries one run may pass: every step of the longest path several times over, room for moves
 * to newer versions. A run that reaches it stops (the entry stays active where it is) rather than loop.
 */
const MAX_BOUNDARIES = MAX_STEPS * 10;

/**
 * One run per automation entry (docs/readings.md, "Automations", "The run"). At each step boundary it
 * reads where the entry is (the entry row: its version and step number, so a move to a newer version
 * is picked up there), checking the exit condition, and does that step: a wait sleeps (`wait`) or
 * sleeps until a local time (`wait_until`); `wait_for_event` waits for the contact's event (sent with a
 * key of the automation's brand or of none) or its timeout; a send re-checks consent and sends once
 * (sendAutomationStep); list, attribute, branch and exit steps are one step each (runActionStep). A
 * run held at a send waits for the automation's resume event (or a day, then looks again), so nobody
 * loses their place. Step names carry the boundary's count, so a run that went down a branch, or was
 * moved, replays the same names.
 */
export const automationEntry = inngest.createFunction(
  { id: "automation-entry", triggers: [automationEntryStarted], retries: 5 },
  async ({ event, step }) => {
    const { entryId } = event.data;
    const locate = () => entryPosition(workflowCtx(), entryId);
    // Each step's own work and the read of where the entry is next are one workflow step: a person walks
    // their series in about half the executor's rounds. The names are not those of the older shape
    // (at-k after every step), so a run begun before replays without mistaking one step's result for another's.
    let position = await step.run("at-0", locate);
    for (let k = 0; k < MAX_BOUNDARIES; k++) {
      if (!("at" in position)) return position;
      const here = position.at;
      switch (here.type) {
        case "wait":
          await step.sleep(`wait-${k}`, here.minutes * 60_000);
          position = await step.run(`waited-${k}-next`, () => advanceAndLocate(workflowCtx(), entryId, here));
          break;
        case "wait_until":
          await step.sleepUntil(`wait-${k}`, here.until);
          position = await step.run(`waited-${k}-next`, () => advanceAndLocate(workflowCtx(), entryId, here));
          break;
        case "wait_for_event": {
          // The brand as well as the key: an event sent with another brand's locked key leaves this run waiting.
          const seen = await step.waitForEvent(`event-${k}`, {
            event: contactEventRecorded,
            if: `async.data.key == '${here.key}' && async.data.brands.${here.brandId} == true`,
            timeout: here.timeoutMinutes * 60_000,
          });
          // Whether it came is in the run's log beside the position: the branch after it reads the event itself.
          const next = await step.run(`waited-${k}-next`, () =>
            advanceAndLocate(workflowCtx(), entryId, here).then((at) => ({ seen: Boolean(seen), at })),
          );
          position = next.at;
          break;
        }
        case "send":
          for (let attempt = 0; ; attempt++) {
            const sent = await step.run(`send-${k}-${attempt}-next`, async () => {
              const outcome = await sendAutomationStep(workflowCtx(), getMailTransport(), entryId, here.index);
              if (outcome.outcome === "sent") {
                const { position, ...sent } = outcome;
                return { ...sent, next: position ?? (await locate()) };
              }
              const goesOn =
                outcome.outcome !== "exited" && outcome.outcome !== "ended" && outcome.outcome !== "paused";
              return { ...outcome, next: goesOn ? await locate() : null };
            });
            if (sent.outcome === "exited" || sent.outcome === "ended") return sent;
            if (sent.outcome !== "paused") {
              position = sent.next!;
              break;
            }
            await step.waitForEvent(`resumed-${k}-${attempt}`, {
              event: automationResumed,
              if: `async.data.automationId == '${sent.automationId}'`,
              timeout: PAUSED_RECHECK,
            });
          }
          break;
        default: {
          const done = await step.run(`${here.type}-${k}-next`, async () => {
            const outcome = await runActionStep(workflowCtx(), entryId, here.index);
            const goesOn = outcome.outcome !== "exited" && outcome.outcome !== "ended";
            return { ...outcome, next: goesOn ? await locate() : null };
          });
          if (done.outcome === "exited" || done.outcome === "ended") return done;
          position = done.next!;
        }
      }
    }
    return { stopped: MAX_BOUNDARIES };
  },
);
