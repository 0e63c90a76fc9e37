"use client";

import { LayoutTemplate } from "lucide-react";
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
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";

/** Keeps the campaign's body under a name, to start new campaigns from. */
export function SaveTemplateDialog({
  workspaceId,
  campaign,
  action,
}: {
  workspaceId: string;
  campaign: { id: string; name: string };
  action: (
    workspaceId: string,
    input: { campaignId: string; name: string },
  ) => Promise<ActionState<{ templateId: string }>>;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(campaign.name);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const save = () =>
    startTransition(async () => {
      setError(undefined);
      const state = await action(workspaceId, { campaignId: campaign.id, name });
      if (!state.ok) return setError(state.fieldErrors.name ?? state.message);
      setOpen(false);
      toast.success(`Saved as the template ${name.trim()}.`, {
        action: { label: "Open templates", onClick: () => router.push(`/w/${workspaceId}/templates`) },
      });
    });
  return (
    <Dialog open={open} onOpenChange={(next) => (setOpen(next), setError(undefined))}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <LayoutTemplate />
          Save as template
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Save as template</DialogTitle>
          <DialogDescription>The body (blocks or HTML) is kept; a new campaign can start from it.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="template-name">Template name</Label>
          <Input
            id="template-name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error ? true : undefined}
          />
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button onClick={save} disabled={pending}>
            Save template
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
