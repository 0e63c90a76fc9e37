"use client";

import { Copy, Plus, RefreshCw, TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { toast } from "sonner";
import { z } from "zod";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";
import { senderDomainOf, senderIsAtDomain } from "@/lib/domains/sender-domain";

const addSchema = z.strictObject({
  brandId: z.string().min(1, "choose a brand"),
  hostname: z.string().trim().min(1, "enter a domain"),
});
type Add = (workspaceId: string, input: z.input<typeof addSchema>) => Promise<ActionState<{ domainId: string }>>;
type Check = (
  workspaceId: string,
  input: { domainId: string; resync: boolean },
) => Promise<ActionState<{ state: string; waiting: number }>>;
export interface BrandSender {
  id: string;
  name: string;
  senderEmail: string;
}

/** What the domain field says for the chosen brand: the domain its sender needs, and how to use a subdomain instead. */
function hostnameHint(senderEmail: string | undefined) {
  if (!senderEmail) return undefined;
  const needed = senderDomainOf(senderEmail);
  const local = senderEmail.slice(0, senderEmail.lastIndexOf("@"));
  return (
    <>
      Mail from <strong className="font-medium text-foreground">{senderEmail}</strong> is signed with the domain after
      the @: <strong className="font-medium text-foreground">{needed}</strong>. To send from a subdomain such as mail.
      {needed} (its reputation stays apart from your main domain&apos;s), change the brand&apos;s sender address to one
      there, e.g. {local}@mail.{needed}.
    </>
  );
}

function AddDomainForm({ workspaceId, brands, action }: { workspaceId: string; brands: BrandSender[]; action: Add }) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: addSchema,
    action,
    workspaceId,
    defaultValues: { brandId: brands[0]?.id ?? "", hostname: brands[0] ? senderDomainOf(brands[0].senderEmail) : "" },
    onSuccess: ({ domainId }) => router.push(`/w/${workspaceId}/domains/${domainId}`),
  });
  const brand = brands.find((candidate) => candidate.id === form.watch("brandId"));
  const hostname = form.watch("hostname").trim().toLowerCase().replace(/\.$/, "");
  // Another brand chosen: its sender's domain, unless a domain was typed.
  useEffect(() => {
    if (brand && !form.getFieldState("hostname").isDirty) form.setValue("hostname", senderDomainOf(brand.senderEmail));
  }, [brand, form]);
  const mismatch = brand && hostname.includes(".") && !senderIsAtDomain(brand.senderEmail, hostname);
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <SelectField
        form={form}
        name="brandId"
        label="Brand"
        options={brands.map((option) => ({ value: option.id, label: `${option.name} (${option.senderEmail})` }))}
      />
      <TextField
        form={form}
        name="hostname"
        label="Domain"
        placeholder="mail.example.com"
        hint={hostnameHint(brand?.senderEmail)}
      />
      {brand && mismatch && (
        <Alert variant="warning" data-testid="domain-sender-mismatch">
          <TriangleAlert />
          <AlertTitle>{`${brand.senderEmail} is not at ${hostname}`}</AlertTitle>
          <AlertDescription>
            {`${brand.name}'s mail is signed with ${hostname} only once its sender address is there (e.g. news@${hostname}). You can add the domain now and change the sender on the brand's page later.`}
          </AlertDescription>
        </Alert>
      )}
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Add domain
        </Button>
      </DialogFooter>
    </form>
  );
}

export function AddDomainDialog({
  workspaceId,
  brands,
  action,
}: {
  workspaceId: string;
  brands: BrandSender[];
  action: Add;
}) {
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

export function CheckDomainButton({
  workspaceId,
  domainId,
  resync,
  action,
}: {
  workspaceId: string;
  domainId: string;
  resync: boolean;
  action: Check;
}) {
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
          // Only a ready domain is good news: anything else says what is still awaited.
          const { state: domainState, waiting } = state.result;
          if (domainState === "ready") toast.success("The domain is ready.");
          else if (waiting > 0)
            toast.warning(
              `Not ready yet: ${waiting === 1 ? "1 record is" : `${waiting} records are`} still missing or wrong. See each record below.`,
            );
          else
            toast.info(
              domainState === "registration_failed"
                ? "The records are right, but the carrier refused the domain: see below."
                : "The records are right; the carrier is still registering the domain.",
            );
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
    <Button
      variant="ghost"
      size="sm"
      aria-label={label}
      onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.success("Copied."))}
    >
      <Copy />
    </Button>
  );
}
