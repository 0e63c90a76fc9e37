"use client";

import { Copy, Plus, RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";

const addSchema = z.strictObject({ brandId: z.string().min(1, "choose a brand"), hostname: z.string().trim().min(1, "enter a domain") });
type Add = (workspaceId: string, input: z.input<typeof addSchema>) => Promise<ActionState<{ domainId: string }>>;
type Check = (workspaceId: string, input: { domainId: string; resync: boolean }) => Promise<ActionState<{ state: string }>>;

function AddDomainForm({ workspaceId, brands, action }: { workspaceId: string; brands: { id: string; name: string }[]; action: Add }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: addSchema,
    action,
    workspaceId,
    defaultValues: { brandId: brands[0]?.id ?? "", hostname: "" },
    onSuccess: ({ domainId }) => router.push(`/w/${workspaceId}/domains/${domainId}`),
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <SelectField form={form} name="brandId" label="Brand" options={brands.map((brand) => ({ value: brand.id, label: brand.name }))} />
      <TextField
        form={form}
        name="hostname"
        label="Domain"
        placeholder="mail.example.com"
        hint="A subdomain such as mail.example.com is best: its sending reputation stays apart from your main domain's, and its records cannot disturb the mail of your own mailboxes. The brand's sender address must be at this domain."
      />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Add domain
        </Button>
      </DialogFooter>
    </form>
  );
}

export function AddDomainDialog({ workspaceId, brands, action }: { workspaceId: string; brands: { id: string; name: string }[]; action: Add }) {
  return (
    <FormDialog
      title="Add a sending domain"
      description="We make a signing key for it and list the DNS records to publish at your DNS host."
      trigger={
        <Button>
          <Plus />
          Add domain
        </Button>
      }
    >
      {() => <AddDomainForm workspaceId={workspaceId} brands={brands} action={action} />}
    </FormDialog>
  );
}

export function CheckDomainButton({ workspaceId, domainId, resync, action }: { workspaceId: string; domainId: string; resync: boolean; action: Check }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      variant={resync ? "outline" : "default"}
      disabled={pending}
      onClick={() =>
        start(async () => {
          const state = await action(workspaceId, { domainId, resync });
          if (!state.ok) return void toast.error(state.message);
          toast.success(state.result.state === "ready" ? "The domain is ready." : "Checked. See each record's state below.");
          router.refresh();
        })
      }
    >
      <RefreshCw className={pending ? "animate-spin" : undefined} />
      {resync ? "Re-sync with the carrier" : "Check DNS now"}
    </Button>
  );
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  return (
    <Button variant="ghost" size="sm" aria-label={label} onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.success("Copied."))}>
      <Copy />
    </Button>
  );
}
