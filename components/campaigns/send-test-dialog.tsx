"use client";

import { FlaskConical } from "lucide-react";
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
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";

/** One copy of the campaign to a member's or a verified address, before anyone else gets it. */
export function SendTestDialog({
  workspaceId,
  campaignId,
  addresses,
  action,
}: {
  workspaceId: string;
  campaignId: string;
  addresses: string[];
  action: (
    workspaceId: string,
    input: { campaignId: string; to: string },
  ) => Promise<ActionState<{ to: string; samples: { tag: string; value: string }[] }>>;
}) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState(addresses[0] ?? "");
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const send = () =>
    startTransition(async () => {
      setError(undefined);
      const state = await action(workspaceId, { campaignId, to });
      if (!state.ok) return setError(state.fieldErrors.to ?? state.message);
      setOpen(false);
      const { to: sentTo, samples } = state.result;
      toast.success(`Test sent to ${sentTo}.`, {
        // Said after the mail went out, so that the sender does not take a sample value for the contact's own.
        description: samples.length
          ? `Sample values filled in for ${samples.map((sample) => `{{${sample.tag}}} (${sample.value})`).join(", ")}: ${sentTo} has none. Subscribers without one are skipped when the campaign is sent.`
          : undefined,
        duration: samples.length ? 12_000 : undefined,
      });
    });
  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), setError(undefined))}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <FlaskConical />
          Send test
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Send a test</DialogTitle>
          <DialogDescription>
            One copy, its subject marked [Test], filled with the address&apos;s contact values. Where it has none, a
            sample value is filled in and you are told which. It goes only to members of this workspace and its verified
            addresses, and counts nowhere.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="test-to">Send to</Label>
          <NativeSelect
            id="test-to"
            value={to}
            onChange={(event) => setTo(event.target.value)}
            aria-invalid={error ? true : undefined}
          >
            {addresses.map((address) => (
              <option key={address} value={address}>
                {address}
              </option>
            ))}
          </NativeSelect>
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button onClick={send} disabled={pending || !to}>
            Send test
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
