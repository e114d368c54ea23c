// The contract's types, generated from kernel_pkg/pt2e_lens/schema/view.schema.json (docs/contract.md).
// The front end only displays these facts; it never re-derives them.
import { ROLE_VALUES, type Role, SCHEMA_VERSION_VALUES, type SchemaVersion } from './contract.generated';

export * from './contract.generated';

export const ROLES: Role[] = [...ROLE_VALUES];

/** A schema_version this viewer opens: the current one and every earlier one whose documents still check against
 * the schema (docs/contract.md, "Versions"). */
export const readsVersion = (v: unknown): v is SchemaVersion =>
  (SCHEMA_VERSION_VALUES as readonly unknown[]).includes(v);
/** The versions this viewer opens, as the upgrade message names them. */
export const READ_VERSIONS = SCHEMA_VERSION_VALUES.join(', ');
