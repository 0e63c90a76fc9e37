import type { AutomationStep, AutomationStepType } from "@/lib/automations/automation-schemas";

import type { Figure } from "./step-card";
import type { Address, PlacedStep } from "./steps-tree";

/** What a card shows about one step. */
export interface CardView {
  placed: PlacedStep;
  title: string;
  summary: string;
  figures: Figure[];
  error?: string;
}

/** What the canvas and the phone list draw: the same model, two drawings. */
export interface FlowModel {
  steps: AutomationStep[];
  trigger: { title: string; summary: string; figures: Figure[]; error?: string };
  cards: Map<string, CardView>;
  open: (address: Address | "trigger") => void;
  add: (listAddress: Address, at: number, type: AutomationStepType) => void;
}

export const keyOf = (address: Address) => address.join(".");
