/** What a connection kind implements: one attempt at sending a 270 and getting the X12 answer back. */

/** Who this 270 goes to on this connection. */
export interface RouteTarget {
  /** The connection's own ID for the payer (2100A NM109). */
  payer_id: string;
  /** ISA06/GS02 and the CORE SenderID. */
  sender_id: string;
  /** ISA08/GS03 and the CORE ReceiverID. */
  receiver_id: string;
  /** The caller's address chain, origin first, when the HTTP layer knows it (Stedi's X-Forwarded-For to CMS). */
  client_ips?: readonly string[];
}

export interface VendorClient {
  /**
   * Sends the 270 and returns the X12 answer (a 271 or a 999). Throws a PayerError: ConnectionFailure
   * (retried), RouteRefused (the route cannot serve this payer), throttled, timeout, failure, protocol.
   * The error's reason never quotes the vendor's prose (it may name the member).
   */
  send(x12: string, target: RouteTarget, signal: AbortSignal): Promise<string>;
}
