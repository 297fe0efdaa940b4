/**
 * Send Bulk Email (part 1, 2.8 and 7 "E-mail"): one rich-text message to every active supplier with
 * e-mail notifications on. 'Body is required'; the subject is optional (the server has a default).
 */
import * as React from "react";
import { Mail } from "lucide-react";
import { BulkSupplierEmail, DEFAULT_BULK_SUBJECT } from "../../../../shared/schemas/email.ts";
import { api } from "../../lib/api.ts";
import { sendBulkSupplierEmail } from "../../../../shared/api/email.ts";
import { notify } from "../../lib/notify.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { RichTextField } from "../../components/form/rich-text-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../components/ui/dialog.tsx";

const EMPTY = { subject: "", emailBody: "" };

export function BulkEmailButton({ disabled }: { disabled?: boolean }) {
  const [open, setOpen] = React.useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="outline"
          disabled={disabled}
          title={disabled ? "Your role cannot send e-mail" : undefined}
        >
          <Mail /> Send Bulk Email
        </Button>
      </DialogTrigger>
      <DialogContent
        className="max-w-2xl"
        // keep what was typed when a click lands outside by mistake
        onInteractOutside={(e) => e.preventDefault()}
      >
        {open ? <BulkEmailForm onSent={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function BulkEmailForm({ onSent }: { onSent: () => void }) {
  const form = useSchemaForm(BulkSupplierEmail, EMPTY);
  async function submit(values: BulkSupplierEmail) {
    const res = await api(sendBulkSupplierEmail, { body: values });
    notify.success(res.message);
    form.reset(EMPTY);
    onSent();
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Send Bulk Email</DialogTitle>
        <DialogDescription>
          Goes to every active supplier that has e-mail notifications turned on.
        </DialogDescription>
      </DialogHeader>
      <TextField name="subject" label="Subject" placeholder={DEFAULT_BULK_SUBJECT} autoComplete="off" />
      <RichTextField
        name="emailBody"
        label="Body"
        required
        minHeight={220}
        placeholder="Write your message…"
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>Send</SubmitButton>
      </DialogFooter>
    </Form>
  );
}
