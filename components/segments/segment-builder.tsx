"use client";

import { useQuery } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import type { ActionState } from "@/lib/dashboard/action-state";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";
import {
  attributeIssues,
  OPERATORS_BY_TYPE,
  SEGMENT_SOURCES,
  segmentRuleSchema,
  TEXT_OPERATORS,
  VALUELESS_OPERATORS,
  type SegmentCondition,
  type SegmentRule,
} from "@/lib/segments/segment-rule-schema";

type Option = { id: string; name: string };
type AttributeOption = { key: string; type: "string" | "number" | "date" | "boolean" };
type Match = "all" | "any";
type Saved = Promise<ActionState<{ segmentId: string }>>;
/** Creating: the name and rule; editing (with `segmentId`): the segment's id beside them. */
type SaveAction =
  | ((workspaceId: string, input: { name: string; rule: SegmentRule }) => Saved)
  | ((workspaceId: string, input: { segmentId: string; name?: string; rule?: SegmentRule }) => Saved);

const OPERATOR_WORDS: Record<string, string> = {
  equals: "is",
  not_equals: "is not",
  contains: "contains",
  starts_with: "starts with",
  greater: "is more than",
  less: "is less than",
  before: "is before",
  after: "is after",
  is_set: "is set",
  is_not_set: "is not set",
};
const FIELD_WORDS = { email: "Email", first_name: "First name", last_name: "Last name" } as const;
const SOURCE_WORDS: Record<(typeof SEGMENT_SOURCES)[number], string> = {
  double_opt_in: "a signup form (double opt-in)",
  api: "the API",
  import: "an import",
  dashboard: "the dashboard",
};

// A condition being written may be unfinished (an empty value): the schema says so when it is checked.
type Draft = SegmentCondition;

/** What the first select of a row holds: which thing the condition is about. */
function subjectOf(condition: Draft): string {
  switch (condition.kind) {
    case "field":
      return `field:${condition.field}`;
    case "attribute":
      return `attribute:${condition.key}`;
    default:
      return condition.kind;
  }
}

function startingCondition(subject: string, lists: Option[], attributes: AttributeOption[]): Draft {
  const [kind, name = ""] = subject.split(":");
  if (kind === "field") return { kind: "field", field: name as keyof typeof FIELD_WORDS, op: "contains", value: "" };
  if (kind === "attribute") {
    const type = attributes.find((attribute) => attribute.key === name)?.type ?? "string";
    const value = type === "number" ? 0 : type === "boolean" ? true : "";
    return { kind: "attribute", key: name, op: OPERATORS_BY_TYPE[type][0]!, value };
  }
  if (kind === "list") return { kind: "list", op: "in", listId: lists[0]?.id ?? "" };
  if (kind === "subscribed") return { kind: "subscribed", op: "after", value: "" };
  if (kind === "source") return { kind: "source", op: "is", source: "double_opt_in" };
  return { kind: "engagement", op: "did", action: "opened", days: 30 };
}

/** The rule's problems the browser can see, by path (`rule.groups.0.conditions.1.value`), as the server names them. */
function problemsOf(rule: SegmentRule, attributes: AttributeOption[]): Record<string, string> {
  const problems: Record<string, string> = {};
  const parsed = segmentRuleSchema.safeParse(rule);
  if (!parsed.success)
    for (const issue of parsed.error.issues) problems[["rule", ...issue.path].join(".")] ??= issue.message;
  else
    for (const issue of attributeIssues(parsed.data, new Map(attributes.map((a) => [a.key, a.type]))))
      problems[issue.path] ??= issue.message;
  return problems;
}

/**
 * The segment builder: groups of condition rows joined by all/any, a live count of the chosen topic's
 * subscribers the rule matches (read as the rule changes, a moment after the last change), and save,
 * with each problem beside its condition.
 */
export function SegmentBuilder({
  workspaceId,
  segmentId,
  initial,
  topics,
  lists,
  campaigns,
  attributes,
  action,
}: {
  workspaceId: string;
  segmentId?: string;
  initial: { name: string; rule: SegmentRule };
  topics: Option[];
  lists: Option[];
  campaigns: Option[];
  attributes: AttributeOption[];
  action: SaveAction;
}) {
  const router = useRouter();
  const [name, setName] = useState(initial.name);
  const [rule, setRule] = useState<SegmentRule>(initial.rule);
  const [topicId, setTopicId] = useState(topics[0]?.id ?? "");
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [shown, setShown] = useState(false);

  const problems = useMemo(() => problemsOf(rule, attributes), [rule, attributes]);
  const errors = shown ? { ...problems, ...serverErrors } : serverErrors;
  const complete = Object.keys(problems).length === 0;

  // The count follows the rule a moment after the last change, not at every keystroke.
  const ruleJson = JSON.stringify(rule);
  const [counted, setCounted] = useState(ruleJson);
  useEffect(() => {
    const timer = setTimeout(() => setCounted(ruleJson), 400);
    return () => clearTimeout(timer);
  }, [ruleJson]);
  const count = useQuery({
    queryKey: dashboardKeys.segmentCount(workspaceId, topicId, counted),
    queryFn: ({ signal }) => dashboardReads.segmentCount(workspaceId, topicId, counted, signal),
    enabled: complete && topicId !== "" && counted === ruleJson,
    staleTime: 30_000,
  });

  const change = (next: SegmentRule) => {
    setRule(next);
    setServerErrors({});
    setMessage(null);
  };
  const setGroup = (g: number, group: SegmentRule["groups"][number]) =>
    change({ ...rule, groups: rule.groups.map((old, i) => (i === g ? group : old)) });
  const setCondition = (g: number, c: number, condition: Draft) =>
    setGroup(g, {
      ...rule.groups[g]!,
      conditions: rule.groups[g]!.conditions.map((old, i) => (i === c ? condition : old)),
    });
  const firstSubject = "field:email";

  const save = async () => {
    setShown(true);
    if (!complete || name.trim() === "") {
      setMessage("Check the highlighted fields.");
      return;
    }
    setPending(true);
    const state = segmentId
      ? await (action as Extract<SaveAction, (w: string, i: { segmentId: string }) => Saved>)(workspaceId, {
          segmentId,
          name,
          rule,
        })
      : await (action as (w: string, i: { name: string; rule: SegmentRule }) => Saved)(workspaceId, { name, rule });
    setPending(false);
    if (!state.ok) {
      setMessage(state.message);
      setServerErrors(state.fieldErrors);
      return;
    }
    toast.success(`${name} saved.`);
    router.push(`/w/${workspaceId}/segments`);
    router.refresh();
  };

  const topicName = topics.find((topic) => topic.id === topicId)?.name ?? "the topic";
  return (
    <div className="grid gap-6">
      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field
            id="segment-name"
            label="Segment name"
            error={errors.name ?? (shown && name.trim() === "" ? "Must not be empty" : undefined)}
          >
            {(aria) => <Input {...aria} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field
            id="segment-topic"
            label="Count the subscribers of"
            hint="A segment is used within one topic's subscribers."
          >
            {(aria) => (
              <NativeSelect {...aria} value={topicId} onChange={(e) => setTopicId(e.target.value)}>
                {topics.length === 0 && <option value="">No topic yet</option>}
                {topics.map((topic) => (
                  <option key={topic.id} value={topic.id}>
                    {topic.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </CardContent>
      </Card>

      <p aria-live="polite" className="text-sm" data-testid="segment-count">
        {!topicId ? (
          <span className="text-muted-foreground">Create a topic to count who matches.</span>
        ) : !complete ? (
          <span className="text-muted-foreground">Finish the conditions to see how many match.</span>
        ) : count.isError ? (
          <span className="text-destructive">{count.error.message}</span>
        ) : !count.data || counted !== ruleJson ? (
          <span className="text-muted-foreground">Counting…</span>
        ) : (
          <>
            <span className="font-medium">
              {count.data.more ? "More than " : ""}
              {count.data.count.toLocaleString("en")}
            </span>{" "}
            {count.data.count === 1 && !count.data.more ? "subscriber" : "subscribers"} of {topicName}{" "}
            {count.data.count === 1 && !count.data.more ? "matches" : "match"}.
          </>
        )}
      </p>

      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span>Match</span>
        <MatchSelect label="How groups combine" value={rule.match} onChange={(match) => change({ ...rule, match })} />
        <span>of these groups</span>
      </div>

      {rule.groups.map((group, g) => (
        <Card key={g}>
          <CardHeader className="flex flex-row flex-wrap items-center gap-2 space-y-0">
            <CardTitle className="text-base">Group {g + 1}</CardTitle>
            <CardDescription className="flex flex-wrap items-center gap-2">
              <span>contacts matching</span>
              <MatchSelect
                label={`How group ${g + 1}'s conditions combine`}
                value={group.match}
                onChange={(match) => setGroup(g, { ...group, match })}
              />
              <span>of its conditions</span>
            </CardDescription>
            {rule.groups.length > 1 && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="ml-auto"
                onClick={() => change({ ...rule, groups: rule.groups.filter((_, i) => i !== g) })}
              >
                <Trash2 /> Remove group
              </Button>
            )}
          </CardHeader>
          <CardContent className="grid gap-4">
            {group.conditions.map((condition, c) => (
              <ConditionRow
                key={c}
                path={`rule.groups.${g}.conditions.${c}`}
                condition={condition}
                errors={errors}
                lists={lists}
                campaigns={campaigns}
                attributes={attributes}
                onSubject={(subject) => setCondition(g, c, startingCondition(subject, lists, attributes))}
                onChange={(next) => setCondition(g, c, next)}
                onRemove={
                  group.conditions.length > 1
                    ? () => setGroup(g, { ...group, conditions: group.conditions.filter((_, i) => i !== c) })
                    : undefined
                }
              />
            ))}
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() =>
                  setGroup(g, {
                    ...group,
                    conditions: [...group.conditions, startingCondition(firstSubject, lists, attributes)],
                  })
                }
              >
                <Plus /> Add condition
              </Button>
            </div>
          </CardContent>
        </Card>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            change({
              ...rule,
              groups: [
                ...rule.groups,
                { match: "all", conditions: [startingCondition(firstSubject, lists, attributes)] },
              ],
            })
          }
        >
          <Plus /> Add group
        </Button>
        <Button type="button" disabled={pending} onClick={save}>
          {pending ? "Saving…" : "Save segment"}
        </Button>
      </div>
      {message && (
        <p role="alert" className="text-sm text-destructive">
          {message}
        </p>
      )}
    </div>
  );
}

function MatchSelect({ label, value, onChange }: { label: string; value: Match; onChange: (match: Match) => void }) {
  return (
    <NativeSelect
      aria-label={label}
      className="w-auto"
      value={value}
      onChange={(e) => onChange(e.target.value as Match)}
    >
      <option value="all">all (AND)</option>
      <option value="any">any (OR)</option>
    </NativeSelect>
  );
}

/** One condition: what it is about, how it compares, and with what; its problems beside it. */
function ConditionRow({
  path,
  condition,
  errors,
  lists,
  campaigns,
  attributes,
  onSubject,
  onChange,
  onRemove,
}: {
  path: string;
  condition: Draft;
  errors: Record<string, string>;
  lists: Option[];
  campaigns: Option[];
  attributes: AttributeOption[];
  onSubject: (subject: string) => void;
  onChange: (condition: Draft) => void;
  onRemove?: () => void;
}) {
  const problem = Object.entries(errors).find(([key]) => key === path || key.startsWith(`${path}.`))?.[1];
  const id = path.replaceAll(".", "-");
  const select = (label: string, value: string, options: [string, string][], set: (value: string) => void) => (
    <NativeSelect
      aria-label={label}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? `${id}-error` : undefined}
      className="sm:w-auto"
      value={value}
      onChange={(e) => set(e.target.value)}
    >
      {options.map(([optionValue, words]) => (
        <option key={optionValue} value={optionValue}>
          {words}
        </option>
      ))}
    </NativeSelect>
  );
  const text = (label: string, value: string, set: (value: string) => void, type = "text") => (
    <Input
      aria-label={label}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem ? `${id}-error` : undefined}
      className="sm:w-48"
      type={type}
      value={value}
      onChange={(e) => set(e.target.value)}
    />
  );

  const subjects: [string, string][] = [
    ...Object.entries(FIELD_WORDS).map(([field, words]): [string, string] => [`field:${field}`, words]),
    ...attributes.map((attribute): [string, string] => [`attribute:${attribute.key}`, attribute.key]),
    ["list", "List membership"],
    ["subscribed", "Subscribed to the topic"],
    ["source", "Subscribed through"],
    ["engagement", "Opened or clicked"],
  ];
  let rest: ReactNode = null;
  switch (condition.kind) {
    case "field":
      rest = (
        <>
          {select(
            "Operator",
            condition.op,
            TEXT_OPERATORS.map((op) => [op, OPERATOR_WORDS[op]!]),
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {!VALUELESS_OPERATORS.includes(condition.op) &&
            text("Value", condition.value ?? "", (value) => onChange({ ...condition, value }))}
        </>
      );
      break;
    case "attribute": {
      const type = attributes.find((attribute) => attribute.key === condition.key)?.type ?? "string";
      const value = condition.value;
      rest = (
        <>
          {select(
            "Operator",
            condition.op,
            OPERATORS_BY_TYPE[type].map((op) => [op, OPERATOR_WORDS[op]!]),
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {!VALUELESS_OPERATORS.includes(condition.op) &&
            (type === "boolean"
              ? select(
                  "Value",
                  String(value === true),
                  [
                    ["true", "true"],
                    ["false", "false"],
                  ],
                  (v) => onChange({ ...condition, value: v === "true" }),
                )
              : type === "number"
                ? text(
                    "Value",
                    typeof value === "number" ? String(value) : "",
                    (v) => onChange({ ...condition, value: v === "" ? undefined : Number(v) }),
                    "number",
                  )
                : text(
                    "Value",
                    typeof value === "string" ? value : "",
                    (v) => onChange({ ...condition, value: v }),
                    type === "date" ? "date" : "text",
                  ))}
        </>
      );
      break;
    }
    case "list":
      rest = (
        <>
          {select(
            "Operator",
            condition.op,
            [
              ["in", "is on"],
              ["not_in", "is not on"],
            ],
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {select(
            "List",
            condition.listId,
            lists.length ? lists.map((list) => [list.id, list.name]) : [["", "No list yet"]],
            (listId) => onChange({ ...condition, listId }),
          )}
        </>
      );
      break;
    case "subscribed":
      rest = (
        <>
          {select(
            "Operator",
            condition.op,
            [
              ["before", "before"],
              ["after", "after"],
            ],
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {text("Date", condition.value.slice(0, 10), (value) => onChange({ ...condition, value }), "date")}
        </>
      );
      break;
    case "source":
      rest = (
        <>
          {select(
            "Operator",
            condition.op,
            [
              ["is", "is"],
              ["is_not", "is not"],
            ],
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {select(
            "Source",
            condition.source,
            SEGMENT_SOURCES.map((source) => [source, SOURCE_WORDS[source]]),
            (source) => onChange({ ...condition, source: source as typeof condition.source }),
          )}
          {text("Form, key or import id (optional)", condition.origin ?? "", (origin) =>
            onChange({ ...condition, origin: origin === "" ? undefined : origin }),
          )}
        </>
      );
      break;
    case "engagement":
      rest = (
        <>
          {select(
            "Did or did not",
            condition.op,
            [
              ["did", "did"],
              ["did_not", "did not"],
            ],
            (op) => onChange({ ...condition, op: op as typeof condition.op }),
          )}
          {select(
            "Action",
            condition.action,
            [
              ["opened", "open"],
              ["clicked", "click"],
            ],
            (action) => onChange({ ...condition, action: action as typeof condition.action }),
          )}
          {select(
            "Which campaign",
            condition.campaignId ?? "",
            [
              ["", "any campaign in the last…"],
              ...campaigns.map((campaign): [string, string] => [campaign.id, campaign.name]),
            ],
            (campaignId) =>
              onChange(
                campaignId
                  ? { ...condition, campaignId, days: undefined }
                  : { ...condition, campaignId: undefined, days: 30 },
              ),
          )}
          {condition.campaignId === undefined &&
            text(
              "Days",
              condition.days === undefined ? "" : String(condition.days),
              (days) => onChange({ ...condition, days: days === "" ? undefined : Number(days) }),
              "number",
            )}
        </>
      );
      break;
  }

  return (
    <div className="grid gap-1 rounded-md border p-3 sm:border-0 sm:p-0" data-testid="segment-condition">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        {select("Condition on", subjectOf(condition), subjects, onSubject)}
        {rest}
        {onRemove && (
          <Button type="button" variant="ghost" size="icon-sm" aria-label="Remove condition" onClick={onRemove}>
            <Trash2 />
          </Button>
        )}
      </div>
      {problem && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {problem}
        </p>
      )}
    </div>
  );
}
