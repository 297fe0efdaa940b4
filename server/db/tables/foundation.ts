import type { ColumnType, Generated } from "kysely";

/** Row types of the foundation tables. Booleans are 0/1 integers (SQLite). */
export interface SettingsTable {
  key: string;
  value: string;
}
export interface UsersTable {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  role: string;
  supplierId: string | null;
  passwordHash: string;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
  /** Bumped by a password change or a deactivation: tokens of an older generation are refused. */
  tokenGeneration: Generated<number>;
  /** The session that changed its own password keeps working across that bump. */
  keptTokenJti: string | null;
}
export interface RevokedTokensTable {
  jti: string;
  expiresAt: number;
}
export interface LoginThrottleTable {
  key: string;
  failures: number;
  firstAt: number;
  lockedUntil: number;
}
export interface SystemLogsTable {
  id: string;
  createdAt: string;
  userId: string | null;
  name: string;
  activity: string;
  module: string;
  recordId: string | null;
  ipAddress: string;
  device: string;
  city: string;
  country: string;
  /** JSON list of {label, from, to}: the fields an update changed ('[]' for other entries). */
  changes: ColumnType<string, string | undefined, string>;
}
export interface FoundationTables {
  settings: SettingsTable;
  users: UsersTable;
  revoked_tokens: RevokedTokensTable;
  login_throttle: LoginThrottleTable;
  system_logs: SystemLogsTable;
}
