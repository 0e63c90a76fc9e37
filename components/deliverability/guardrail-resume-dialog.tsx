"use client";

import { Play } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Checkbox } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { CampaignHealthView } from "@/lib/deliverability/campaign-health-view";
import { REASON_WORDS } from "@/lib/deliverability/judge-health";

import { HealthFigures } from "./health-figures";

export type ResumeAction = (
  workspaceId: string,
  input: { campaignId: string; acknowledged?: boolean },
) => Promise<ActionState<unknown>>;

/**
 * Resume, for a campaign the guardrail paused: the figures it stopped on, beside the thresholds, and
 * a box the person ticks to say they read them. The server refuses a resume without it.
 */
export function GuardrailResumeDialog({
  workspaceId,
  campaignId,
  health,
  action,
}: {
  workspaceId: string;
  campaignId: string;
  health: CampaignHealthView;
  action: ResumeAction;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const reason = health.pausedBy ? REASON_WORDS[health.pausedBy.reason] : "figures";
  const submit = () =>
    startTransition(async () => {
      setError(undefined);
      const state = await action(workspaceId, { campaignId, acknowledged });
      if (!state.ok) return setError(state.fieldErrors.acknowledged ?? state.message);
      setOpen(false);
      toast.success("Sending again. The guardrail judges the mail sent from now on.");
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), setError(undefined), setAcknowledged(false))}>
      <DialogTrigger asChild>
        <Button variant="default" size="sm">
          <Play />
          Resume
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Resume despite the {reason}?</DialogTitle>
          <DialogDescription>
            The guardrail paused this campaign. Resuming sends to everyone not sent to yet; from then on the guardrail
            judges only the mail sent after the resume, and pauses it again if that reaches a stop threshold.
          </DialogDescription>
        </DialogHeader>
        <HealthFigures {...health} sinceResume={health.sinceResume} />
        <div className="flex items-start gap-2">
          <Checkbox
            id="guardrail-acknowledged"
            className="mt-0.5"
            checked={acknowledged}
            onChange={(event) => setAcknowledged(event.target.checked)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "guardrail-acknowledged-error" : undefined}
          />
          <Label htmlFor="guardrail-acknowledged" className="leading-snug font-normal">
            I have read these figures and want to send to the rest of the audience.
          </Label>
        </div>
        {error && (
          <p id="guardrail-acknowledged-error" role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button onClick={submit} disabled={pending}>
            Resume sending
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
