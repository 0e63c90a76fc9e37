"use client";

import type { AutomationStep } from "@/lib/automations/automation-schemas";

import { keyOf, type FlowModel } from "./flow-model";
import { AddStepMenu, StepCard } from "./step-card";
import type { Address } from "./steps-tree";

/** The flow at phone width: the same cards one under another, a branch's arms indented under it. */
export function AutomationStepList({ model }: { model: FlowModel }) {
  return (
    <ol className="grid gap-3" aria-label="Steps">
      <li className="grid justify-items-center gap-2">
        <StepCard kind="trigger" {...model.trigger} onOpen={() => model.open("trigger")} />
        <AddStepMenu label="Add a step after the trigger" onAdd={(type) => model.add([], 0, type)} />
      </li>
      <Steps model={model} list={model.steps} listAddress={[]} />
    </ol>
  );
}

function Steps({ model, list, listAddress }: { model: FlowModel; list: AutomationStep[]; listAddress: Address }) {
  return list.map((step, position) => {
    const address = [...listAddress, position];
    const card = model.cards.get(keyOf(address))!;
    const number = card.placed.index + 1;
    return (
      <li key={keyOf(address)} className="grid justify-items-center gap-2">
        <StepCard
          kind={step.type}
          number={number}
          title={card.title}
          summary={card.summary}
          figures={card.figures}
          error={card.error}
          onOpen={() => model.open(address)}
        />
        {step.type === "branch" && (
          <div className="grid w-full gap-3 border-l-2 pl-3">
            {(["yes", "no"] as const).map((arm) => (
              <div key={arm} className="grid gap-2">
                <div className="flex items-center gap-2 text-xs font-medium">
                  <span className="rounded-full border bg-muted px-2 py-0.5">{arm === "yes" ? "Yes" : "No"}</span>
                  <AddStepMenu
                    label={`Add a step to the ${arm} arm of step ${number}`}
                    onAdd={(type) => model.add([...address, arm], 0, type)}
                    className="size-6"
                  />
                </div>
                <ol className="grid gap-3">
                  <Steps model={model} list={step[arm]} listAddress={[...address, arm]} />
                </ol>
              </div>
            ))}
          </div>
        )}
        <AddStepMenu
          label={`Add a step after step ${number}`}
          onAdd={(type) => model.add(listAddress, position + 1, type)}
        />
      </li>
    );
  });
}
