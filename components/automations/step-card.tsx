"use client";

import {
  CalendarClock,
  Clock,
  DoorOpen,
  GitBranch,
  ListMinus,
  ListPlus,
  Mail,
  Plus,
  Radio,
  Tag,
  Zap,
  type LucideIcon,
} from "lucide-react";

import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { AutomationStepType } from "@/lib/automations/automation-schemas";

import { STEP_WORDS } from "./automation-words";

export const STEP_ICONS: Record<AutomationStepType | "trigger", LucideIcon> = {
  trigger: Zap,
  send: Mail,
  wait: Clock,
  wait_until: CalendarClock,
  wait_for_event: Radio,
  branch: GitBranch,
  list_add: ListPlus,
  list_remove: ListMinus,
  set_attribute: Tag,
  exit: DoorOpen,
};

const MENU: AutomationStepType[] = [
  "send",
  "wait",
  "wait_until",
  "wait_for_event",
  "branch",
  "list_add",
  "list_remove",
  "set_attribute",
  "exit",
];

/** The "+" that adds a step at a place: a menu of the step types. */
export function AddStepMenu({
  label,
  onAdd,
  className,
}: {
  label: string;
  onAdd: (type: AutomationStepType) => void;
  className?: string;
}) {
  return (
    // Not modal: the step's panel opens as the menu closes, and a modal menu would leave the page inert behind it.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          type="button"
          size="icon"
          variant="outline"
          aria-label={label}
          title={label}
          className={cn("size-7 rounded-full bg-background", className)}
        >
          <Plus />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="center">
        {MENU.map((type) => {
          const Icon = STEP_ICONS[type];
          return (
            <DropdownMenuItem key={type} onSelect={() => onAdd(type)}>
              <Icon /> {STEP_WORDS[type]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export interface Figure {
  label: string;
  value: number;
  tone?: "muted" | "warn";
}

/**
 * One step (or the trigger) as a card: what it is, one line about it, its figures and its problem.
 * The card itself is the button that opens the step's editor.
 */
export function StepCard({
  kind,
  number,
  title,
  summary,
  figures,
  error,
  onOpen,
  className,
}: {
  kind: AutomationStepType | "trigger";
  /** The step's number as people count (1 = the first step); none for the trigger. */
  number?: number;
  title: string;
  summary: string;
  figures: Figure[];
  error?: string;
  onOpen?: () => void;
  className?: string;
}) {
  const Icon = STEP_ICONS[kind];
  const body = (
    <>
      <span className="flex min-w-0 items-center gap-2 text-sm font-medium">
        <span
          className={cn(
            "flex size-6 shrink-0 items-center justify-center rounded-md [&_svg]:size-3.5",
            kind === "trigger" ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
          )}
        >
          <Icon />
        </span>
        <span className="min-w-0 truncate" title={title}>
          {number !== undefined && <span className="text-muted-foreground">{number}. </span>}
          {title}
        </span>
      </span>
      <span className="block truncate text-xs text-muted-foreground" title={summary}>
        {summary}
      </span>
      {figures.length > 0 && (
        <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs" data-testid="step-figures">
          {figures.map((figure) => (
            <span
              key={figure.label}
              className={cn("tabular-nums", figure.tone === "warn" && "text-amber-700 dark:text-amber-400")}
            >
              <span className="font-semibold">{figure.value.toLocaleString("en")}</span>{" "}
              <span className="text-muted-foreground">{figure.label}</span>
            </span>
          ))}
        </span>
      )}
      {error && (
        <span role="alert" className="block truncate text-xs text-destructive" title={error}>
          {error}
        </span>
      )}
    </>
  );
  const frame = cn(
    // One column no wider than the card (grid-cols-1 is minmax(0, 1fr)), min-w-0 and overflow-hidden: a long
    // title or subject ends in an ellipsis inside the card, never past its border.
    "grid w-full min-w-0 grid-cols-1 gap-1 overflow-hidden rounded-lg border bg-card p-3 text-left text-card-foreground shadow-xs",
    error && "border-destructive",
    className,
  );
  if (!onOpen)
    return (
      <div className={frame} data-testid="step-card">
        {body}
      </div>
    );
  return (
    <button
      type="button"
      className={cn(
        frame,
        "hover:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
      )}
      onClick={onOpen}
      aria-label={`Edit ${number !== undefined ? `step ${number}: ` : ""}${title}`}
      data-testid="step-card"
    >
      {body}
    </button>
  );
}
