"use client";

import { MailWarning } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

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
import { Field } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { MAX_RESEND_WAIT_HOURS } from "@/lib/campaigns/campaign-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

const WAITS = [24, 48, 72];

/**
 * "Send again to those who did not open": a new subject and how long after the original to send it,
 * then the new campaign's page.
 */
export function ResendNonOpenersDialog({
  workspaceId,
  campaign,
  action,
}: {
  workspaceId: string;
  campaign: { id: string; subject: string };
  action: (
    workspaceId: string,
    input: { campaignId: string; subject: string; waitHours: number },
  ) => Promise<ActionState<{ campaignId: string }>>;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [subject, setSubject] = useState("");
  const [wait, setWait] = useState("24");
  const [customHours, setCustomHours] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const [pending, startTransition] = useTransition();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      setErrors({});
      setMessage(undefined);
      const waitHours = Number(wait === "custom" ? customHours : wait);
      const state = await action(workspaceId, { campaignId: campaign.id, subject, waitHours });
      if (!state.ok) {
        setErrors(state.fieldErrors);
        if (!state.fieldErrors.subject && !state.fieldErrors.waitHours) setMessage(state.message);
        return;
      }
      setOpen(false);
      router.push(`/w/${workspaceId}/campaigns/${state.result.campaignId}`);
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
        setMessage(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <MailWarning />
          Resend to non-openers
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Resend to non-openers</DialogTitle>
            <DialogDescription>
              A new campaign with the same content, to the people this one reached who have not opened or clicked it by
              the time it goes out. Opens by Apple Mail Privacy Protection and link scanners do not count as opened.
              Anyone who unsubscribed or was suppressed since is left out. A campaign can be resent once.
            </DialogDescription>
          </DialogHeader>
          <Field id="resend-subject" label="New subject" error={errors.subject} hint={`Was: ${campaign.subject}`}>
            {(control) => (
              <Input
                {...control}
                value={subject}
                maxLength={998}
                onChange={(event) => setSubject(event.target.value)}
                autoFocus
              />
            )}
          </Field>
          <Field
            id="resend-wait"
            label="Send it"
            error={wait === "custom" ? undefined : errors.waitHours}
            hint="Counted from when this campaign started sending. A time already past leaves it a draft to send yourself."
          >
            {(control) => (
              <NativeSelect {...control} value={wait} onChange={(event) => setWait(event.target.value)}>
                {WAITS.map((hours) => (
                  <option key={hours} value={hours}>
                    {hours} hours after the original
                  </option>
                ))}
                <option value="custom">Another number of hours…</option>
              </NativeSelect>
            )}
          </Field>
          {wait === "custom" && (
            <Field
              id="resend-hours"
              label="Hours after the original"
              error={errors.waitHours}
              hint={`From 1 to ${MAX_RESEND_WAIT_HOURS}.`}
            >
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={MAX_RESEND_WAIT_HOURS}
                  value={customHours}
                  onChange={(event) => setCustomHours(event.target.value)}
                />
              )}
            </Field>
          )}
          {message && (
            <p role="alert" className="text-sm text-destructive">
              {message}
            </p>
          )}
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Create the resend
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
