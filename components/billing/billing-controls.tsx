"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError } from "@/components/forms/form-fields";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import type { ActionState } from "@/lib/dashboard/action-state";

export interface PlanOffer {
  id: string;
  name: string;
  sends: string;
  price: string;
}

type Choice = { checkoutUrl: string } | { invoiceId: string; amount: number; currency: string };
type ChooseAction = (workspaceId: string, input: { plan: string }) => Promise<ActionState<Choice>>;
type PortalAction = (workspaceId: string, input: Record<string, never>) => Promise<ActionState<{ url: string }>>;
type CancelAction = (
  workspaceId: string,
  input: Record<string, never>,
) => Promise<ActionState<{ endsAt: string | null }>>;

function PlanList({
  workspaceId,
  plans,
  current,
  action,
  close,
}: {
  workspaceId: string;
  plans: PlanOffer[];
  current: string | null;
  action: ChooseAction;
  close: () => void;
}) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const choose = (plan: PlanOffer) =>
    startTransition(async () => {
      const state = await action(workspaceId, { plan: plan.id });
      if (!state.ok) return setError(state.message);
      if ("checkoutUrl" in state.result) {
        window.location.assign(state.result.checkoutUrl);
        return;
      }
      close();
      toast.success(`Invoice issued for ${plan.name}. The workspace is active as soon as the payment is recorded.`);
      router.refresh();
    });
  return (
    <div className="grid gap-3">
      <ul className="grid gap-2" aria-label="Plans">
        {plans.map((plan) => (
          <li key={plan.id} className="flex items-center justify-between gap-4 rounded-lg border p-3">
            <div className="grid gap-0.5">
              <span className="font-medium">
                {plan.name} {plan.id === current && <Badge variant="secondary">Current</Badge>}
              </span>
              <span className="text-sm text-muted-foreground">
                {plan.sends} sends a month · {plan.price} a month
              </span>
            </div>
            <Button size="sm" disabled={pending} onClick={() => choose(plan)} aria-label={`Choose ${plan.name}`}>
              Choose
            </Button>
          </li>
        ))}
      </ul>
      <FormError message={error} />
    </div>
  );
}

/** Choose a plan (Checkout, or an invoice from the service's team), open the payment portal, cancel. */
export function BillingControls({
  workspaceId,
  plans,
  currentPlan,
  stripe,
  canCancel,
  paidThrough,
  actions,
}: {
  workspaceId: string;
  plans: PlanOffer[];
  currentPlan: string | null;
  stripe: boolean;
  canCancel: boolean;
  paidThrough: string | null;
  actions: { choose: ChooseAction; portal: PortalAction; cancel: CancelAction };
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const openPortal = () =>
    startTransition(async () => {
      const state = await actions.portal(workspaceId, {});
      if (!state.ok) return void toast.error(state.message);
      window.location.assign(state.result.url);
    });
  return (
    <div className="flex flex-wrap gap-2">
      <FormDialog
        title={currentPlan ? "Change plan" : "Choose a plan"}
        description={
          stripe
            ? "You pay by card on Stripe's secure page; the plan starts as soon as the payment goes through."
            : "We send an invoice in your workspace's currency; the plan starts as soon as the payment is recorded."
        }
        trigger={<Button>{currentPlan ? "Change plan" : "Choose a plan"}</Button>}
      >
        {(close) => (
          <PlanList
            workspaceId={workspaceId}
            plans={plans}
            current={currentPlan}
            action={actions.choose}
            close={close}
          />
        )}
      </FormDialog>
      {stripe && (
        <Button variant="outline" disabled={pending} onClick={openPortal}>
          Update payment or cancel
        </Button>
      )}
      {!stripe && canCancel && (
        <ConfirmButton
          label="Cancel plan"
          variant="outline"
          size="default"
          title="Cancel the plan?"
          description={`Everything keeps working until ${paidThrough ?? "the end of the paid period"}. After that the workspace becomes read-only: nothing is sent, reports and contact export keep working, and it is deleted about three months later unless you choose a plan again.`}
          confirmLabel="Cancel plan"
          onConfirm={async () => {
            const state = await actions.cancel(workspaceId, {});
            if (!state.ok) return { error: state.message };
            toast.success("The plan is cancelled from the end of the paid period.");
            router.refresh();
          }}
        />
      )}
    </div>
  );
}
