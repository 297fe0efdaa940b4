/**
 * Send Bulk Email (part 1, 2.8 and 7 "E-mail"): one rich-text message to every active supplier with
 * e-mail notifications on. 'Body is required'; the subject is optional (the server has a default).
 */
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
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { ButtonDialog } from "../../components/dialogs/ButtonDialog.tsx";

const EMPTY = { subject: "", emailBody: "" };

export function BulkEmailButton({ disabled }: { disabled?: boolean }) {
  return (
    <ButtonDialog
      label="Send Bulk Email"
      icon={<Mail />}
      disabled={disabled}
      disabledTitle="Your role cannot send e-mail"
      className="max-w-2xl"
      keepOnOutsideClick
    >
      {(close) => <BulkEmailForm onSent={close} />}
    </ButtonDialog>
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
