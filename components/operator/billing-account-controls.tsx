"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { z } from "zod";

import { FormDialog } from "@/components/forms/form-dialog";
import { FormError, SelectField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import type { ActionState } from "@/lib/dashboard/action-state";

type Act<I, R = unknown> = (workspaceId: string, input: I) => Promise<ActionState<R>>;
const invoiceSchema = z.strictObject({
  amount: z.string().trim().min(1, "enter an amount"),
  plan: z.string(),
  due: z.string(),
});
type InvoiceInput = z.input<typeof invoiceSchema>;

function IssueInvoiceForm({
  workspaceId,
  currency,
  plans,
  action,
  close,
}: {
  workspaceId: string;
  currency: string;
  plans: { value: string; label: string }[];
  action: Act<InvoiceInput>;
  close: () => void;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: invoiceSchema,
    action,
    workspaceId,
    defaultValues: { amount: "", plan: "", due: "" },
    onSuccess: () => {
      close();
      toast.success("Invoice issued.");
      router.refresh();
    },
  });
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <TextField
        form={form}
        name="amount"
        label={`Amount (${currency.toUpperCase()})`}
        hint="e.g. 79 or 79.50, in the workspace's currency."
      />
      <SelectField
        form={form}
        name="plan"
        label="Plan"
        options={[{ value: "", label: "Keep the current plan" }, ...plans]}
      />
      <TextField form={form} name="due" label="Due date" type="date" hint="Leave empty for a week from today." />
      <FormError message={formError} />
      <DialogFooter>
        <Button type="submit" disabled={pending}>
          Issue invoice
        </Button>
      </DialogFooter>
    </form>
  );
}

export function IssueInvoiceButton(props: {
  workspaceId: string;
  name: string;
  currency: string;
  plans: { value: string; label: string }[];
  action: Act<InvoiceInput>;
}) {
  return (
    <FormDialog
      title={`Invoice ${props.name}`}
      description="The workspace's owners see it on their billing screen. Record the payment here when it arrives."
      trigger={
        <Button size="sm" variant="outline">
          Issue invoice
        </Button>
      }
    >
      {(close) => <IssueInvoiceForm {...props} close={close} />}
    </FormDialog>
  );
}
