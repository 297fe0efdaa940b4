/**
 * User-visible strings of the spec, verbatim (double spaces and spelling included): users and their
 * documentation know them. Server and web both import from here.
 */
export const MSG = {
  notFoundTitle: "Sorry, page not found!",
  notFoundText:
    "Sorry, we couldn't find the page you're looking for. Perhaps you've mistyped the URL? Be sure to check your spelling.",
  signIn: "Sign in",
  signInSubtitle: "Enter your details below.",
  emailInvalid: "Email must be valid",
  passwordShort: "Password must be more than 6 character",
  logoutOk: "Logout Successfully",
  logoutFailed: "Can not logout now!",
  areYouSure: "Are you sure?",
  doYouSure: "Do you sure?",
  createProjectConfirm: "This action will create a new project",
  noRows: "No Rows",
  invalidUrl: "Invalid Url",
  onlyDigits: "Only digits are allowed for this field ",
  bodyRequired: "Body is required",
  // clients
  clientNameRequired: "Client name  is required",
  countryRequired: "Country is required",
  // suppliers
  supplierTypeRequired: "Supplier type  is required",
  shortcodeRequired: "Shortcode  is required",
  supplierCountryRequired: "Country  is required",
  supplierNameRequired: "Supplier name  is required",
  supplierEmailRequired: "Supplier email  is required",
  supplierRuleRequired: "Supplier rule   is required",
  // projects
  poNumberRequired: "PO Number is required",
  clientRequired: "Client is required",
  managerRequired: "Project Manager is required",
  projectNameRequired: "Project name  is required",
  projectCodeRequired: "Project code  is required",
  projectStatusRequired: "Project Status  is required",
  cloneCountryRequired: "Country   is required",
  languageRequired: "Language  is required",
  // supplier map
  mapSupplierRequired: "Supplier  is required",
  mapCpiRequired: "Supplier CPI is required",
  mapQuotaRequired: "Supplier Quota is required",
  mapClickQuotaRequired: "Supplier Click Quota is required",
  // accounts
  referenceRequired: "Reference is required",
  receivedDateRequired: "Recieved Date  is required",
  // support
  jobProjectCodeRequired: "Project Code  is required",
  jobIntervalRequired: "Interval  is required",
  // library
  minCpiRequired: "Minimun CPI  is required",
  maxCpiRequired: "Maximum CPI  is required",
  questionNameRequired: "question name  is required",
  questionTypeRequired: "question Type  is required",
  optionRequired: "option is required",
  categoryTitleRequired: "Category title  is required",
  categoryDescRequired: "Category Description  is required",
  projectRequired: "Project is required",
  // project reports (ours)
  supplierMapRequired: "Supplier map is required",
  identifiersInvalid: "Not a hash identifier",
  tooManyIdentifiers: "At most 10000 hash identifiers at a time",
  questionIndexInvalid: "Choose questions from the list",
  // project statuses (ours)
  projectStatusNotEditable:
    "Ready To Invoice and Invoiced are set by Proceed to Invoice and by invoicing: choose another status",
  // users
  firstNameRequired: "First name  is required",
  lastNameRequired: "Last name is required",
  emailRequired: "Email is required",
  supplierRequired: "Supplier is required",
  // users: who may change whom (ours; the spec is silent)
  cannotDeleteSelf: "You cannot delete your own account",
  cannotDeactivateSelf: "You cannot deactivate your own account",
  superadminOnly: "Only a Super Admin can add, change or remove a Super Admin",
  lastSuperadmin: "The last active Super Admin cannot be deactivated, deleted or given another role",
  // server (ours)
  invalidCredentials: "Invalid email or password",
  tooManyAttempts: "Too many failed sign-in attempts. Try again in a few minutes.",
  unauthorized: "Your session has ended. Please sign in again.",
  forbidden: "You do not have permission to do this.",
  notFound: "Not found",
  internal: "Internal error",
  invalidInput: "Invalid input",
  bodyNotJson: "The request body is not valid JSON",
  bodyNotObject: "The request body must be a JSON object",
  emailTaken: "A user with this email already exists",
  recordExists: "This record already exists",
  loginOk: "Login Successfully",
  // master data (ours)
  clientNetDaysInvalid: "Net days must be 30, 45, 60 or 90",
  supplierNetDaysInvalid: "Net days must be 30, 45 or 60",
  assignedToInvalid: "Assigned To must be an active BDE user",
  clientNotFound: "Client not found",
  clientCodeInvalid: "Client code may use letters, digits, - and _ only",
  clientCodeTaken: "This client code is already in use",
  supplierNotFound: "Supplier not found",
  shortcodeInvalid: "Shortcode may use letters, digits, - and _ only",
  shortcodeTaken: "This shortcode is already used by another supplier",
  supplierRuleInvalid: "Supplier rule must be numbers separated by |, e.g. 2.5|3.4|4|6",
  panelSizeInvalid: "Panel size must be a whole number",
  // library (ours)
  cpiNotNumber: "CPI must be a number of 0 or more",
  maxCpiBelowMin: "Maximum CPI cannot be less than Minimun CPI",
  optionsTooFew: "At least two options are required",
  qualificationKeyTaken: "A qualification with this key already exists",
  qualificationKeyInvalid: "Key may use letters, digits and _ only",
  questionOrderInvalid: "The order must list each question once",
  // e-mail (ours)
  noEmailRecipients: "No active supplier has e-mail notifications turned on",
} as const;

/**
 * The answer to anything that queues mail: queued, never "sent" (delivery happens after the answer,
 * and may be refused); where to follow it, and why it waits when no mail server is set up.
 */
export function emailQueuedMsg(count: number, hasMailServer: boolean, recipient?: string): string {
  const plural = count === 1 ? "" : "s";
  const what = recipient
    ? `E-mail queued for ${count} ${recipient}${plural}`
    : `${count} e-mail${plural} queued`;
  return hasMailServer
    ? `${what}: Support > E-mail shows when ${count === 1 ? "it is" : "they are"} sent`
    : `${what}: no mail server is configured, so ${
      count === 1 ? "it waits" : "they wait"
    } in the outbox (Support > E-mail)`;
}

/** '<Field>  is required', the spec's generic shape for required child-project fields. */
export const requiredMsg = (field: string) => `${field}  is required`;
