"use client";

import "@xyflow/react/dist/style.css";

import { Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { useTheme } from "next-themes";
import { useMemo, type CSSProperties } from "react";

import type { AutomationStep } from "@/lib/automations/automation-schemas";

import { keyOf, type FlowModel } from "./flow-model";
import { AddStepMenu, StepCard } from "./step-card";
import type { Address } from "./steps-tree";

// The builder's canvas (@xyflow/react): the trigger on top, one node per step, a branch as two arms
// (yes, no) that join again. Laid out here from the tree, top to bottom; nodes are not dragged, the
// tree is the truth.

// Wide enough for the longest trigger title ("Subscription to the topic confirmed"); tall enough for a
// send's figures on two lines and a problem under them.
const CARD_W = 320;
const CARD_H = 132;
const ARM_W = 120;
const ARM_H = 36;
const JOIN = 12;
const GAP_X = 48;
const GAP_Y = 44;

type CardData = { model: FlowModel; address: Address | "trigger"; listAddress: Address; at: number };
type ArmData = { model: FlowModel; label: string; listAddress: Address };

/** How wide a list of steps is drawn: a branch takes both its arms side by side. */
function widthOf(list: AutomationStep[]): number {
  return Math.max(
    CARD_W,
    ...list.map((step) => (step.type === "branch" ? widthOf(step.yes) + GAP_X + widthOf(step.no) : CARD_W)),
  );
}

function layout(model: FlowModel): { nodes: Node[]; edges: Edge[]; height: number } {
  const nodes: Node[] = [];
  const edges: Edge[] = [];
  const link = (source: string, target: string) =>
    edges.push({ id: `${source}->${target}`, source, target, type: "smoothstep" });
  nodes.push({
    id: "trigger",
    type: "card",
    position: { x: -CARD_W / 2, y: 0 },
    data: { model, address: "trigger", listAddress: [], at: 0 } satisfies CardData,
  });
  const walk = (list: AutomationStep[], listAddress: Address, cx: number, top: number, previous: string) => {
    let y = top;
    let last = previous;
    list.forEach((step, position) => {
      const address = [...listAddress, position];
      const id = `step-${keyOf(address)}`;
      nodes.push({
        id,
        type: "card",
        position: { x: cx - CARD_W / 2, y },
        data: { model, address, listAddress, at: position + 1 } satisfies CardData,
      });
      link(last, id);
      y += CARD_H + GAP_Y;
      last = id;
      if (step.type !== "branch") return;
      const yesWidth = widthOf(step.yes);
      const left = cx - (yesWidth + GAP_X + widthOf(step.no)) / 2;
      const arms = [
        { arm: "yes" as const, cx: left + yesWidth / 2 },
        { arm: "no" as const, cx: left + yesWidth + GAP_X + widthOf(step.no) / 2 },
      ].map(({ arm, cx: armX }) => {
        const armId = `${id}-${arm}`;
        nodes.push({
          id: armId,
          type: "arm",
          position: { x: armX - ARM_W / 2, y },
          data: { model, label: arm === "yes" ? "Yes" : "No", listAddress: [...address, arm] } satisfies ArmData,
        });
        link(id, armId);
        return walk(step[arm], [...address, arm], armX, y + ARM_H + GAP_Y, armId);
      });
      const joinId = `${id}-join`;
      const joinY = Math.max(...arms.map((arm) => arm.y));
      nodes.push({ id: joinId, type: "join", position: { x: cx - JOIN / 2, y: joinY }, data: {} });
      for (const arm of arms) link(arm.last, joinId);
      y = joinY + JOIN + GAP_Y;
      last = joinId;
    });
    return { y, last };
  };
  const end = walk(model.steps, [], 0, CARD_H + GAP_Y, "trigger");
  return { nodes, edges, height: end.y };
}

const hidden = "!size-1 !min-h-0 !min-w-0 !border-0 !bg-transparent";

// xyflow gives a node that is neither dragged nor selected `pointer-events: none`; the cards' buttons
// take theirs back (pointer-events-auto), and `nopan` keeps a click on them from panning the canvas.
function CardNode({ data }: NodeProps<Node<CardData>>) {
  const { model, address } = data;
  const card = address === "trigger" ? null : model.cards.get(keyOf(address));
  const number = card ? card.placed.index + 1 : undefined;
  return (
    <div className="nopan pointer-events-auto relative" style={{ width: CARD_W, height: CARD_H }}>
      <Handle type="target" position={Position.Top} className={hidden} isConnectable={false} />
      <StepCard
        kind={card ? card.placed.step.type : "trigger"}
        number={number}
        title={card ? card.title : model.trigger.title}
        summary={card ? card.summary : model.trigger.summary}
        figures={card ? card.figures : model.trigger.figures}
        error={card ? card.error : model.trigger.error}
        onOpen={() => model.open(address)}
        className="h-full content-start"
      />
      <div className="absolute -bottom-3.5 left-1/2 -translate-x-1/2">
        <AddStepMenu
          label={`Add a step after ${number ? `step ${number}` : "the trigger"}`}
          onAdd={(type) => model.add(data.listAddress, data.at, type)}
        />
      </div>
      <Handle type="source" position={Position.Bottom} className={hidden} isConnectable={false} />
    </div>
  );
}

function ArmNode({ data }: NodeProps<Node<ArmData>>) {
  const branch = data.model.cards.get(keyOf(data.listAddress.slice(0, -1)));
  return (
    <div
      className="nopan pointer-events-auto flex items-center justify-between gap-1 rounded-full border bg-muted px-3 text-xs font-medium"
      style={{ width: ARM_W, height: ARM_H }}
    >
      <Handle type="target" position={Position.Top} className={hidden} isConnectable={false} />
      {data.label}
      <AddStepMenu
        label={`Add a step to the ${data.label.toLowerCase()} arm of step ${(branch?.placed.index ?? 0) + 1}`}
        onAdd={(type) => data.model.add(data.listAddress, 0, type)}
        className="size-6"
      />
      <Handle type="source" position={Position.Bottom} className={hidden} isConnectable={false} />
    </div>
  );
}

function JoinNode() {
  return (
    <div className="rounded-full bg-muted-foreground" style={{ width: JOIN, height: JOIN }}>
      <Handle type="target" position={Position.Top} className={hidden} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} className={hidden} isConnectable={false} />
    </div>
  );
}

const ATTRIBUTION = {
  "--xy-attribution-background-color": "color-mix(in oklab, var(--background) 85%, transparent)",
} as CSSProperties;

const NODE_TYPES = { card: CardNode, arm: ArmNode, join: JoinNode };

/** The canvas: as tall as the flow, as wide as its container (a wide flow is zoomed out to fit, never scrolled sideways). */
export function AutomationFlow({ model }: { model: FlowModel }) {
  const { resolvedTheme } = useTheme();
  const { nodes, edges, height } = useMemo(() => layout(model), [model]);
  return (
    <div
      className="w-full overflow-hidden rounded-lg border bg-muted/30"
      style={{ height: Math.min(height + 48, 1600) }}
    >
      <ReactFlow
        // A new shape is fitted anew: fitView acts when the canvas starts.
        key={`${nodes.length}-${height}`}
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        colorMode={resolvedTheme === "dark" ? "dark" : "light"}
        defaultEdgeOptions={{ style: { stroke: "var(--muted-foreground)" } }}
        fitView
        fitViewOptions={{ maxZoom: 1, padding: 0.05 }}
        minZoom={0.2}
        maxZoom={1.5}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        // The cards' own buttons take the focus; the nodes and edges around them would be empty tab stops.
        nodesFocusable={false}
        edgesFocusable={false}
        zoomOnScroll={false}
        preventScrolling={false}
        proOptions={{ hideAttribution: false }}
        // xyflow's attribution badge has its own colours (white in the light mode, a light grey in the
        // dark): it takes the theme's background instead, as the canvas does.
        style={{ background: "transparent", ...ATTRIBUTION }}
      />
    </div>
  );
}
