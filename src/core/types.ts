// The contract's types, generated from kernel_pkg/pt2e_lens/schema/view.schema.json (docs/contract.md).
// The front end only displays these facts; it never re-derives them.
import { ROLE_VALUES, type Role } from './contract.generated';

export * from './contract.generated';

export const ROLES: Role[] = [...ROLE_VALUES];
