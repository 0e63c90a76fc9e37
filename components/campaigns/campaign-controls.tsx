"use client";

import { CalendarClock, Copy, Pause, Pencil, Play, Send, Undo2, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition, type ReactNode } from "react";
import { toast } from "sonner";

import type { Nobody } from "@/components/campaigns/audience-preview";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { canEdit, canMove } from "@/lib/campaigns/campaign-status";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { CampaignStatus } from "@/lib/db/schema";

type CampaignAction = (workspaceId: string, input: { campaignId: string }) => Promise<ActionState<unknown>>;

export interface CampaignControlActions {
  sendNow: CampaignAction;
  schedule: (workspaceId: string, input: { campaignId: string; at: string }) => Promise<ActionState<unknown>>;
  unschedule: CampaignAction;
  pause: CampaignAction;
  resume: CampaignAction;
  cancel: CampaignAction;
  duplicate: (workspaceId: string, input: { campaignId: string }) => Promise<ActionState<{ campaignId: string }>>;
}

/**
 * The moves a campaign can make from where it is (docs/readings.md, "Campaign
 * statuses"), each behind the confirmation a sender expects; nothing else is
 * offered.
 */
export function CampaignControls({
  workspaceId,
  campaign,
  audience,
  nobody,
  actions,
  resume,
}: {
  workspaceId: string;
  campaign: { id: string; name: string; status: CampaignStatus };
  /** Who it goes to, in words; null while the audience is still being counted: sending waits for the count. */
  audience: string | null;
  /** Why nobody would get the campaign now, when so: it cannot be sent or scheduled, and the dialogs say why. */
  nobody?: Nobody | null;
  actions: CampaignControlActions;
  /** Replaces the plain Resume when resuming asks for more (the guardrail's confirmation with its figures). */
  resume?: ReactNode;
}) {
  const router = useRouter();
  const [duplicating, startDuplicate] = useTransition();
  const run = (action: CampaignAction, done: string) => async () => {
    const state = await action(workspaceId, { campaignId: campaign.id });
    if (!state.ok) return { error: state.message };
    toast.success(done);
    router.refresh();
  };
  const { status } = campaign;
  const editable = canEdit(status);
  return (
    <div className="flex flex-wrap items-center gap-2">
      {editable && (
        <Button asChild variant="outline" size="sm">
          <Link href={`/w/${workspaceId}/campaigns/${campaign.id}/edit`}>
            <Pencil />
            Edit
          </Link>
        </Button>
      )}
      <Button
        variant="outline"
        size="sm"
        disabled={duplicating}
        onClick={() =>
          startDuplicate(async () => {
            const state = await actions.duplicate(workspaceId, { campaignId: campaign.id });
            if (!state.ok) return void toast.error(state.message);
            toast.success("Copied as a new draft.");
            router.push(`/w/${workspaceId}/campaigns/${state.result.campaignId}`);
          })
        }
      >
        <Copy />
        Duplicate
      </Button>
      {canMove(status, "draft") && (
        <ConfirmButton
          variant="outline"
          label={
            <>
              <Undo2 />
              Unschedule
            </>
          }
          title="Unschedule this campaign?"
          description="It goes back to being a draft and will not be sent until you send or schedule it again."
          confirmLabel="Unschedule"
          onConfirm={run(actions.unschedule, "Back to draft.")}
        />
      )}
      {canMove(status, "scheduled") && audience === null && (
        <CountingButton icon={<CalendarClock />} label="Schedule" variant="outline" />
      )}
      {canMove(status, "scheduled") && audience !== null && (
        <ScheduleDialog
          workspaceId={workspaceId}
          campaignId={campaign.id}
          audience={audience}
          action={actions.schedule}
        />
      )}
      {canMove(status, "paused") && (
        <ConfirmButton
          variant="outline"
          label={
            <>
              <Pause />
              Pause
            </>
          }
          title="Pause sending?"
          description="Sending stops after the batch in flight. Resume carries on with whoever has not been sent to."
          confirmLabel="Pause"
          onConfirm={run(actions.pause, "Paused.")}
        />
      )}
      {status === "paused" && resume}
      {status === "paused" && !resume && (
        <ConfirmButton
          variant="default"
          label={
            <>
              <Play />
              Resume
            </>
          }
          title="Resume sending?"
          description="Sending carries on with whoever has not been sent to yet."
          confirmLabel="Resume"
          onConfirm={run(actions.resume, "Sending again.")}
        />
      )}
      {canMove(status, "cancelled") && (
        <ConfirmButton
          label={
            <>
              <X />
              Cancel campaign
            </>
          }
          title="Cancel this campaign?"
          description={
            status === "scheduled"
              ? "It will not be sent. This cannot be undone; duplicate it to send it later."
              : "Nobody else receives it; mail already sent stays sent. This cannot be undone."
          }
          confirmLabel="Cancel campaign"
          onConfirm={run(actions.cancel, "Cancelled.")}
        />
      )}
      {editable && audience === null && <CountingButton icon={<Send />} label="Send now" variant="default" />}
      {editable && audience !== null && nobody && <NobodyDialog workspaceId={workspaceId} reason={nobody} />}
      {editable && audience !== null && !nobody && (
        <ConfirmButton
          variant="default"
          label={
            <>
              <Send />
              Send now
            </>
          }
          title={`Send ${campaign.name} now?`}
          description={`It goes to ${audience} now. Sending cannot be undone, only paused or cancelled.`}
          confirmLabel="Send now"
          onConfirm={run(actions.sendNow, "Sending started.")}
        />
      )}
    </div>
  );
}

/** Send or schedule while the audience is counted: the confirmation must say how many it reaches. */
function CountingButton({
  icon,
  label,
  variant,
}: {
  icon: React.ReactNode;
  label: string;
  variant: "default" | "outline";
}) {
  return (
    <Button variant={variant} size="sm" disabled title="Counting who gets it…">
      {icon}
      {label}
    </Button>
  );
}

/** Send now, when the campaign would reach nobody: why, and where to fix it, with nothing to confirm. */
function NobodyDialog({ workspaceId, reason }: { workspaceId: string; reason: Nobody }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="default" size="sm">
          <Send />
          Send now
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Nobody would get this campaign</AlertDialogTitle>
          <AlertDialogDescription>{reason.text}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Close</AlertDialogCancel>
          {reason.link && (
            <Button asChild>
              <Link href={`/w/${workspaceId}${reason.link.path}`}>{reason.link.label}</Link>
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** A date and time in the sender's own time zone, shown beside the field. */
function ScheduleDialog({
  workspaceId,
  campaignId,
  audience,
  action,
}: {
  workspaceId: string;
  campaignId: string;
  audience: string;
  action: CampaignControlActions["schedule"];
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const submit = () =>
    startTransition(async () => {
      setError(undefined);
      // datetime-local has no zone: the browser reads it in the sender's, and the server gets the instant.
      const at = value ? new Date(value) : null;
      const state = await action(workspaceId, {
        campaignId,
        at: at && !Number.isNaN(at.getTime()) ? at.toISOString() : "",
      });
      if (!state.ok) return setError(state.fieldErrors.at ?? state.message);
      setOpen(false);
      toast.success(`Scheduled for ${at!.toLocaleString()}.`);
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), setError(undefined))}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <CalendarClock />
          Schedule
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Schedule the campaign</DialogTitle>
          <DialogDescription>
            It goes to {audience} at the time you choose. You can unschedule it until then.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="schedule-at">Send at</Label>
          <Input
            id="schedule-at"
            type="datetime-local"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby="schedule-at-zone"
          />
          <p id="schedule-at-zone" className="text-sm text-muted-foreground">
            Your time zone: {timeZone}
          </p>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button onClick={submit} disabled={pending}>
            Schedule
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
