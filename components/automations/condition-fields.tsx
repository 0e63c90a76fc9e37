"use client";

import { errorText } from "@/components/forms/use-action-form";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import type { AutomationCondition } from "@/lib/automations/automation-schemas";

type Named = { id: string; name: string };
type Kind = "none" | "event" | "list_in" | "list_not_in" | "opened" | "clicked" | "segment";

function kindOf(condition: AutomationCondition | null): Kind {
  if (!condition) return "none";
  if (condition.kind !== "segment") return condition.kind;
  const only = condition.rule.groups.length === 1 ? condition.rule.groups[0]!.conditions : [];
  const first = only.length === 1 ? only[0] : undefined;
  if (first?.kind === "list") return first.op === "in" ? "list_in" : "list_not_in";
  return "segment";
}

const listRule = (listId: string, op: "in" | "not_in"): AutomationCondition => ({
  kind: "segment",
  rule: { match: "all", groups: [{ match: "all", conditions: [{ kind: "list", op, listId }] }] },
});

/**
 * A condition a branch tests or that ends a person's run: an event seen, on a list or not, or (for a
 * branch) opened or clicked an earlier mail of the automation. A richer segment rule set through the
 * API is kept as it is.
 */
export function ConditionFields({
  id,
  value,
  onChange,
  lists,
  sendSteps,
  errors,
  path,
  allowNone,
  label = "Condition",
}: {
  id: string;
  value: AutomationCondition | null;
  onChange: (condition: AutomationCondition | null) => void;
  lists: Named[];
  /** Earlier send steps, by number: what opened/clicked can name. Left out: not offered. */
  sendSteps?: { index: number; label: string }[];
  errors: Record<string, string>;
  /** Where the condition's problems are named (`exit_condition`, `steps.3.condition`). */
  path: string;
  allowNone?: boolean;
  label?: string;
}) {
  const kind = kindOf(value);
  const error = (field: string) => errorText(errors[`${path}.${field}`]);
  const choose = (next: Kind) => {
    if (next === "none") return onChange(null);
    if (next === "event") return onChange({ kind: "event", name: "", within_minutes: null });
    if (next === "list_in" || next === "list_not_in")
      return onChange(listRule(lists[0]?.id ?? "", next === "list_in" ? "in" : "not_in"));
    if (next === "opened" || next === "clicked") return onChange({ kind: next, step: sendSteps?.[0]?.index ?? 0 });
  };
  return (
    <div className="grid gap-4">
      <Field id={`${id}-kind`} label={label} error={errorText(errors[path])}>
        {(aria) => (
          <NativeSelect {...aria} value={kind} onChange={(e) => choose(e.target.value as Kind)}>
            {allowNone && <option value="none">None</option>}
            <option value="event">A custom event was seen</option>
            <option value="list_in">On a list</option>
            <option value="list_not_in">Not on a list</option>
            {sendSteps && sendSteps.length > 0 && (
              <>
                <option value="opened">Opened an earlier mail</option>
                <option value="clicked">Clicked in an earlier mail</option>
              </>
            )}
            {kind === "segment" && <option value="segment">A segment rule (set through the API)</option>}
          </NativeSelect>
        )}
      </Field>
      {value?.kind === "event" && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-event`} label="Event name" error={error("name")} hint="As your systems send it.">
            {(aria) => (
              <Input
                {...aria}
                value={value.name}
                maxLength={100}
                placeholder="order.completed"
                onChange={(e) => onChange({ ...value, name: e.target.value })}
              />
            )}
          </Field>
          <Field
            id={`${id}-within`}
            label="Within the last (hours)"
            error={error("within_minutes")}
            hint="Empty: at any time since they entered."
          >
            {(aria) => (
              <Input
                {...aria}
                type="number"
                min={1}
                value={value.within_minutes ? value.within_minutes / 60 : ""}
                onChange={(e) =>
                  onChange({
                    ...value,
                    within_minutes: e.target.value === "" ? null : Math.round(Number(e.target.value) * 60),
                  })
                }
              />
            )}
          </Field>
        </div>
      )}
      {(kind === "list_in" || kind === "list_not_in") && value?.kind === "segment" && (
        <Field
          id={`${id}-list`}
          label="List"
          error={error("rule") ?? (lists.length === 0 ? "Create a list first." : undefined)}
        >
          {(aria) => (
            <NativeSelect
              {...aria}
              value={(value.rule.groups[0]!.conditions[0] as { listId: string }).listId}
              onChange={(e) => onChange(listRule(e.target.value, kind === "list_in" ? "in" : "not_in"))}
            >
              {lists.map((list) => (
                <option key={list.id} value={list.id}>
                  {list.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      )}
      {(value?.kind === "opened" || value?.kind === "clicked") && (
        <Field id={`${id}-step`} label="The mail of" error={error("step")}>
          {(aria) => (
            <NativeSelect
              {...aria}
              value={value.step}
              onChange={(e) => onChange({ ...value, step: Number(e.target.value) })}
            >
              {(sendSteps ?? []).map((send) => (
                <option key={send.index} value={send.index}>
                  {send.label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      )}
    </div>
  );
}
