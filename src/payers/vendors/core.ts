/** core-soap and core-mime connections: the CAQH CORE real-time envelope (payer-direct, TriZetto/Gateway EDI, Stedi's CORE endpoint). */
import type { Pool } from 'undici';
import { newCoreRequest, type Credentials } from '../core/fields.ts';
import { coreExchange, type CoreProtocol } from '../production/core-exchange.ts';
import type { RouteTarget, VendorClient } from './types.ts';

export function coreClient(pool: Pool, name: string, protocol: CoreProtocol, endpoint: string, credentials: Credentials | null): VendorClient {
  const url = new URL(endpoint);
  const path = `${url.pathname}${url.search}`;
  return {
    send(x12: string, target: RouteTarget, signal: AbortSignal) {
      return coreExchange(pool, path, protocol, name, newCoreRequest(x12, target.sender_id, target.receiver_id), credentials, signal);
    },
  };
}
