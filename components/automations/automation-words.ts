import type {
  AutomationCondition,
  AutomationStatus,
  AutomationStep,
  AutomationStepType,
  AutomationTrigger,
  ExitReason,
} from "@/lib/automations/automation-schemas";

// The words the automation screens use for triggers, steps and reasons: one place, so the list,
// the form and the builder say the same thing.

export const TRIGGER_WORDS: Record<AutomationTrigger, string> = {
  topic_confirmed: "Subscription to the topic confirmed",
  list_added: "Added to a list",
  attribute_changed: "A custom attribute changes",
  date_attribute: "A date attribute comes round",
  link_clicked: "A link in a campaign clicked",
  event: "A custom event (POST /v1/events)",
};

export const STATUS_WORDS: Record<AutomationStatus, { label: string; variant: "outline" | "success" | "warning" }> = {
  draft: { label: "Draft", variant: "outline" },
  active: { label: "Active", variant: "success" },
  paused: { label: "Paused", variant: "warning" },
};

export const STEP_WORDS: Record<AutomationStepType, string> = {
  send: "Send a mail",
  wait: "Wait",
  wait_until: "Wait until a day and hour",
  wait_for_event: "Wait for an event",
  branch: "Branch on a condition",
  list_add: "Add to a list",
  list_remove: "Remove from a list",
  set_attribute: "Set an attribute",
  exit: "Exit",
};

export const EXIT_WORDS: Record<ExitReason, string> = {
  unsubscribed: "unsubscribed from the topic",
  opted_out: "opted out of everything",
  suppressed: "suppressed",
  erased: "erased",
  exit_step: "reached an exit step",
  exit_condition: "met the exit condition",
};

export const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** A duration in minutes as a person says it: "1 day", "2 hours", "90 minutes". */
export function durationWords(minutes: number): string {
  const plural = (n: number, unit: string) => `${n.toLocaleString("en")} ${unit}${n === 1 ? "" : "s"}`;
  if (minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

type Named = { id: string; name: string };

export function conditionWords(condition: AutomationCondition, lists: Named[]): string {
  switch (condition.kind) {
    case "opened":
    case "clicked":
      return `${condition.kind === "opened" ? "Opened" : "Clicked in"} the mail of step ${condition.step + 1}`;
    case "event":
      return `Event “${condition.name}” seen${condition.within_minutes ? ` in the last ${durationWords(condition.within_minutes)}` : " since entering"}`;
    case "segment": {
      const only = condition.rule.groups.length === 1 ? condition.rule.groups[0]!.conditions : [];
      const first = only.length === 1 ? only[0] : undefined;
      if (first?.kind === "list")
        return `${first.op === "in" ? "On" : "Not on"} the list ${lists.find((l) => l.id === first.listId)?.name ?? "(removed)"}`;
      return "Matches a segment rule";
    }
  }
}

/** One line about a step, shown on its node. */
export function stepSummary(step: AutomationStep, options: { lists: Named[] }): string {
  const listName = (id: string) => options.lists.find((list) => list.id === id)?.name ?? "a list no longer there";
  switch (step.type) {
    case "send":
      return step.subject.trim() ? `“${step.subject}”` : "No subject yet";
    case "wait":
      return `for ${durationWords(step.minutes)}`;
    case "wait_until": {
      const days = step.weekdays?.length ? step.weekdays.map((d) => WEEKDAYS[d]).join(", ") : "any day";
      return `${days} at ${String(step.hour).padStart(2, "0")}:${String(step.minute ?? 0).padStart(2, "0")}, their time`;
    }
    case "wait_for_event":
      return `“${step.name}”, at most ${durationWords(step.timeout_minutes)}`;
    case "list_add":
    case "list_remove":
      return listName(step.list_id);
    case "set_attribute":
      return `${step.attribute} = ${step.value === null ? "(cleared)" : String(step.value)}`;
    case "branch":
      return conditionWords(step.condition, options.lists);
    case "exit":
      return "The person's run ends here";
  }
}
