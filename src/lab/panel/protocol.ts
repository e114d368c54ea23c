// The pt2e-lens comm protocol (docs/protocol.md), as the panel sees it. The message types are generated
// from kernel_pkg/pt2e_lens/schema/protocol.schema.json; only the error class below is written by hand.
import type { KernelEvent, Reply } from './protocol.generated';

export * from './protocol.generated';
// the names the panel has always used
export { COMM_TARGET as TARGET, PROTOCOL_VERSION as PROTOCOL } from './protocol.generated';

/** Every message the kernel sends on the comm. */
export type Incoming = Reply | KernelEvent;

/** A request failed: the kernel's error code and its one-line message. */
export class RequestFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
