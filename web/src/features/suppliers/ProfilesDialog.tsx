/**
 * Respondent profiles (issue 24): the router remembers a supplier's members' answers to library
 * questions. Staff set how long those answers count (Suppliers list: "Profile Settings") and erase
 * one member's answers (a supplier's edit page: "Erase Member Profile"); both are logged.
 */
import { useQuery } from "@tanstack/react-query";
import { Eraser, Settings2 } from "lucide-react";
import { MemberProfileErase, ProfileSettingsForm } from "../../../../shared/schemas/supplier.ts";
import {
  eraseMemberProfileCall,
  profileSettingsCall,
  updateProfileSettingsCall,
} from "../../../../shared/api/suppliers.ts";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { ButtonDialog } from "../../components/dialogs/ButtonDialog.tsx";

const SETTINGS_KEY = ["supplier-profile-settings"];

export function ProfileSettingsButton({ disabled }: { disabled?: boolean }) {
  return (
    <ButtonDialog
      label="Profile Settings"
      icon={<Settings2 />}
      disabled={disabled}
      disabledTitle="Your role cannot change this"
    >
      {(close) => <ProfileSettingsEditor onSaved={close} />}
    </ButtonDialog>
  );
}

function ProfileSettingsEditor({ onSaved }: { onSaved: () => void }) {
  const current = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: async ({ signal }) => (await api(profileSettingsCall, {}, { signal })).result,
  });
  if (current.isPending) return <p className="text-sm text-muted-foreground">Loading…</p>;
  if (current.isError) return <p className="text-sm text-destructive">The settings could not be loaded.</p>;
  return <ProfileSettingsFormView days={current.data.expiryDays} onSaved={onSaved} />;
}

function ProfileSettingsFormView({ days, onSaved }: { days: number; onSaved: () => void }) {
  const form = useSchemaForm(ProfileSettingsForm, { expiryDays: String(days) });
  async function submit(values: ProfileSettingsForm) {
    const res = await api(updateProfileSettingsCall, { body: values });
    notify.success(res.message);
    onSaved();
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Profile Settings</DialogTitle>
        <DialogDescription>
          A member's known answers are not asked again on the pre-screen until they expire.
        </DialogDescription>
      </DialogHeader>
      <TextField
        name="expiryDays"
        label="Profile answers expire after (days)"
        inputMode="numeric"
        required
        autoComplete="off"
        hint="1 to 3650; 90 by default."
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>Save</SubmitButton>
      </DialogFooter>
    </Form>
  );
}

export function EraseMemberButton({ supplierId, disabled }: { supplierId: string; disabled?: boolean }) {
  return (
    <ButtonDialog
      label="Erase Member Profile"
      icon={<Eraser />}
      disabled={disabled}
      disabledTitle="Your role cannot change this"
    >
      {(close) => <EraseMemberForm supplierId={supplierId} onErased={close} />}
    </ButtonDialog>
  );
}

function EraseMemberForm({ supplierId, onErased }: { supplierId: string; onErased: () => void }) {
  const form = useSchemaForm(MemberProfileErase, { memberId: "" });
  async function submit(values: MemberProfileErase) {
    const res = await api(eraseMemberProfileCall, { params: { id: supplierId }, body: values });
    notify.success(res.message);
    onErased();
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Erase Member Profile</DialogTitle>
        <DialogDescription>
          Removes every known answer of one of this supplier's members: they are asked the pre-screen again.
        </DialogDescription>
      </DialogHeader>
      <TextField
        name="memberId"
        label="Member id"
        required
        autoComplete="off"
        spellCheck={false}
        hint="The sid this supplier sends on its entry links."
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>Erase</SubmitButton>
      </DialogFooter>
    </Form>
  );
}
