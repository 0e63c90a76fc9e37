"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ActionState } from "@/lib/dashboard/action-state";
import { workspaceTimeZoneSchema, type WorkspaceTimeZoneInput } from "@/lib/workspaces/workspace-time-zone-schema";

/**
 * The workspace's time zone: a campaign sent "at a time in each recipient's time zone" uses it for
 * contacts without one of their own (docs/readings.md, "Sending at a local time").
 */
export function WorkspaceTimeZoneCard({
  workspaceId,
  timeZone,
  action,
}: {
  workspaceId: string;
  timeZone: string;
  action: (workspaceId: string, input: WorkspaceTimeZoneInput) => Promise<ActionState<{ timeZone: string }>>;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: workspaceTimeZoneSchema,
    action,
    workspaceId,
    defaultValues: { timeZone },
    onSuccess: () => {
      toast.success("Time zone saved.");
      router.refresh();
    },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Workspace time zone</CardTitle>
        <CardDescription>
          A campaign sent at a time in each recipient&apos;s time zone reaches contacts without one at that time in{" "}
          {timeZone}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate aria-label="Workspace time zone">
          <TextField
            form={form}
            name="timeZone"
            label="Time zone"
            hint="An IANA time zone such as Europe/Berlin or America/New_York. Contacts get their own from the signup form, the API, an import or their page."
          />
          <FormError message={formError} />
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
