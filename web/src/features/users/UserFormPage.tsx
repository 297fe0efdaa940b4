/**
 * /admin/user/add and /admin/user/:id/edit (part 2, Users): the shared user schemas drive the
 * messages; an empty password is dropped on edit; supplierId is sent only for SUPPLIER users.
 */
import { useSaveRecord } from "../../lib/save-record.ts";
import { useEffect, useMemo } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Check, Copy, KeyRound } from "lucide-react";
import { generatePassword, UserCreate, UserUpdate } from "../../../../shared/schemas/user.ts";
import { canOpenScreen } from "../../../../shared/permissions.ts";
import { isRole } from "../../../../shared/roles.ts";
import { api } from "../../lib/api.ts";
import { addUser, getUserCall, updateUserCall } from "../../../../shared/api/users.ts";
import { notify } from "../../lib/notify.ts";
import { useAuth } from "../../lib/auth.ts";
import { useCopyMark } from "../../lib/clipboard.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { PasswordField, SubmitButton, TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { Button, buttonVariants } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { withCurrent } from "../../components/form/lookup-fields.tsx";
import { BackLink, LoadedRecord, quietNotFound } from "../../components/form/FormParts.tsx";
import { SUPPLIERS } from "../../lib/lookups.ts";
import { roleOptionsFor, type UserRecord } from "./users.ts";

const LIST = "/admin/user";

/** The full-form member of UserUpdate (the others are {isActive} and {isDeleted} alone). */
const UserEdit = UserUpdate.options[2];

type FormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  role: string;
  supplierId: string;
  password: string;
  isActive: boolean;
};

const EMPTY: FormValues = {
  firstName: "",
  lastName: "",
  email: "",
  phoneNumber: "",
  role: "",
  supplierId: "",
  password: "",
  isActive: true,
};

export default function UserFormPage() {
  const { id } = useParams();
  const user = useQuery({
    queryKey: ["user", id],
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (await api(getUserCall, { params: { id: id! } }, { signal, quiet: quietNotFound })).result,
  });

  return (
    <>
      <PageHeader
        title={id ? "Edit User" : "Add User"}
        description={id
          ? user.isError ? undefined : "Change the account's details, role or password."
          : "Create a staff or supplier login."}
        back={<BackLink to={LIST}>Users</BackLink>}
      />
      {!id ? <UserForm /> : (
        <LoadedRecord
          query={user}
          what="user"
          list={{ to: LIST, label: "Users" }}
          skeleton={<FormSkeleton />}
          className="max-w-3xl"
        >
          {(user) => <UserForm user={user} />}
        </LoadedRecord>
      )}
    </>
  );
}

function UserForm({ user }: { user?: UserRecord }) {
  const editing = !!user;
  const myRole = useAuth((s) => s.admin?.role);
  // "New User" on the Suppliers tab opens with the SUPPLIER role chosen (?role=SUPPLIER)
  const [params] = useSearchParams();
  const askedRole = params.get("role");
  const roles = roleOptionsFor(myRole, user?.role);
  const startRole = isRole(askedRole) && roles.some((o) => o.value === askedRole) ? askedRole : "";
  // one form for both: the edit schema differs only in its optional password
  const form = useSchemaForm(
    (editing ? UserEdit : UserCreate) as typeof UserCreate,
    user
      ? {
        firstName: user.firstName,
        lastName: user.lastName,
        email: user.email,
        phoneNumber: user.phoneNumber ?? "",
        role: user.role,
        supplierId: user.supplierId ?? "",
        password: "",
        isActive: user.isActive,
      }
      : { ...EMPTY, role: startRole },
  );

  const save = useSaveRecord<UserRecord>({
    add: addUser,
    update: updateUserCall,
    recordKey: (id) => ["user", id],
    back: LIST,
  });

  async function submit(values: Record<string, unknown>) {
    const payload: Record<string, unknown> = { ...values };
    if (!payload.password) delete payload.password;
    if (payload.role !== "SUPPLIER") delete payload.supplierId;
    await save(payload, editing ? user._id : undefined);
  }

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="max-w-3xl">
      <Card>
        <CardHeader>
          <CardTitle>Account</CardTitle>
          <CardDescription>Fields marked * are required.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <TextField name="firstName" label="First name" required autoComplete="off" />
          <TextField name="lastName" label="Last name" required autoComplete="off" />
          <TextField name="email" label="Email" type="email" required autoComplete="off" />
          <TextField name="phoneNumber" label="Phone number" type="tel" autoComplete="off" />
          <SelectField name="role" label="Role" required options={roles} placeholder="Select a role" />
          <SupplierField
            current={user?.supplierId
              ? { value: user.supplierId, label: user.supplierName ?? "" }
              : undefined}
          />
          <PasswordField
            name="password"
            label="Password"
            required={!editing}
            autoComplete="new-password"
            hint={editing ? "Leave empty to keep the current password." : "At least 7 characters."}
            className="sm:col-span-2"
            addon={<PasswordTools />}
          />
          <SwitchField
            name="isActive"
            label="Active"
            description="Inactive users cannot sign in."
            className="sm:col-span-2"
          />
        </CardContent>
        <div className="flex justify-end gap-2 border-t px-5 py-4">
          <Link to={LIST} className={buttonVariants({ variant: "outline" })}>Cancel</Link>
          <SubmitButton>{editing ? "Save changes" : "Create user"}</SubmitButton>
        </div>
      </Card>
    </Form>
  );
}

/** The supplier picker, shown (and required) only for role SUPPLIER. */
function SupplierField({ current }: { current?: { value: string; label: string } }) {
  const role = useWatch({ name: "role" });
  const { trigger, getValues } = useFormContext();
  const active = useOptions(role === "SUPPLIER" ? SUPPLIERS : undefined);
  const loading = active.loading;
  // a login whose supplier was switched off since still shows (and keeps) it
  const options = useMemo(() => withCurrent(active.options, current, loading), [
    active.options,
    current?.value,
    current?.label,
    loading,
  ]);
  useEffect(() => {
    // re-check the supplier rule when the role changes, once the field has a value or was submitted
    if (getValues("supplierId")) void trigger("supplierId");
  }, [role, trigger, getValues]);
  if (role !== "SUPPLIER") return null;
  const none = !loading && options.length === 0;
  return (
    <SelectField
      name="supplierId"
      label="Supplier"
      required
      options={options}
      placeholder={loading ? "Loading suppliers…" : none ? "No active suppliers yet" : "Select a supplier"}
      disabled={none}
      hint={none ? <NoSuppliersHint /> : undefined}
    />
  );
}

/** A supplier login needs an active supplier: say so, and link to adding one where the role may. */
function NoSuppliersHint() {
  const myRole = useAuth((s) => s.admin?.role);
  const mayAdd = !!myRole && canOpenScreen(myRole, "/admin/supplier/add");
  return mayAdd
    ? (
      <>
        A supplier login belongs to an active supplier.{" "}
        <Link
          to="/admin/supplier/add"
          className="font-medium text-primary underline-offset-2 hover:underline"
        >
          Add a supplier
        </Link>{" "}
        first, then come back.
      </>
    )
    : "A supplier login belongs to an active supplier. Ask someone who manages suppliers to add one.";
}

/** Generate a 10-character password and copy it; the copied mark clears after 1000 ms. */
function PasswordTools() {
  const { setValue, getValues } = useFormContext();
  const { copied, copy } = useCopyMark();
  return (
    <>
      <Button
        type="button"
        variant="outline"
        onClick={() => setValue("password", generatePassword(), { shouldValidate: true, shouldDirty: true })}
      >
        <KeyRound /> Generate
      </Button>
      <Button
        type="button"
        variant="outline"
        size="icon"
        aria-label={copied ? "Copied" : "Copy password"}
        title={copied ? "Copied" : "Copy password"}
        onClick={async () => {
          const value = String(getValues("password") ?? "");
          if (!value) return notify.info("Nothing to copy yet");
          await copy(value);
        }}
      >
        {copied ? <Check className="text-success" /> : <Copy />}
      </Button>
    </>
  );
}

function FormSkeleton() {
  return (
    <Card className="max-w-3xl p-5" aria-busy="true" aria-label="Loading user">
      <div className="grid gap-5 sm:grid-cols-2">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="flex flex-col gap-2">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-9 w-full" />
          </div>
        ))}
      </div>
    </Card>
  );
}
