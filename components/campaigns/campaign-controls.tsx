"use client";

import { CalendarClock, Copy, Pause, Pencil, Play, Send, Undo2, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition, type ReactNode } from "react";
import { toast } from "sonner";

import type { Nobody } from "@/components/campaigns/audience-preview";
import { ScheduleDialog, type ScheduleAction } from "@/components/campaigns/schedule-dialog";
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
import { canEdit, canMove } from "@/lib/campaigns/campaign-status";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { CampaignStatus } from "@/lib/db/schema";

type CampaignAction = (workspaceId: string, input: { campaignId: string }) => Promise<ActionState<unknown>>;

export interface CampaignControlActions {
  sendNow: CampaignAction;
  schedule: ScheduleAction;
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
  workspaceTimeZone = "UTC",
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
  /** The zone a campaign sent at a local time uses for recipients without one. */
  workspaceTimeZone?: string;
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
          workspaceTimeZone={workspaceTimeZone}
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
