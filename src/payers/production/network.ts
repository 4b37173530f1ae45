/** The production payer network: one CORE connector per payer in the directory. */
import type { DirectoryPayer, PayerDirectory } from '../directory.ts';
import { payerInfo } from '../directory.ts';
import type { Credentials } from '../core/fields.ts';
import { PayerError, type ExchangeContext, type InterchangeIds, type PayerInfo, type PayerNetwork } from '../network.ts';
import { CONNECTOR_DEFAULTS, PayerConnector, type BreakerState, type ConnectorDefaults } from './connector.ts';

export interface ProductionNetworkOptions {
  /** Deadline for one exchange when the directory sets none (COVERAGE_PAYER_TIMEOUT_MS). */
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  defaults?: Partial<Omit<ConnectorDefaults, 'senderId' | 'timeoutMs'>>;
  /** Told each payer's circuit breaker state at start and at every change (metrics). */
  onBreakerState?: (payerId: string, state: BreakerState) => void;
}

function credentialsFor(p: DirectoryPayer, env: NodeJS.ProcessEnv): Credentials | null {
  if (!p.credentials) return null;
  const username = env[p.credentials.username_env];
  const password = env[p.credentials.password_env];
  const missing = [!username && p.credentials.username_env, !password && p.credentials.password_env].filter(Boolean);
  if (missing.length > 0) throw new Error(`payer ${p.payer_id}: environment variable ${missing.join(' and ')} is not set`);
  return { username: username!, password: password! };
}

export class ProductionNetwork implements PayerNetwork {
  readonly mode = 'production' as const;
  readonly anyPayerId = null;
  private readonly infos: Map<string, PayerInfo>;
  private readonly connectors: Map<string, PayerConnector>;
  private readonly interchanges: Map<string, InterchangeIds>;

  constructor(directory: PayerDirectory, options: ProductionNetworkOptions) {
    const env = options.env ?? process.env;
    const defaults: ConnectorDefaults = { ...CONNECTOR_DEFAULTS, ...options.defaults, senderId: directory.sender_id, timeoutMs: options.timeoutMs };
    this.infos = new Map(directory.payers.map((p) => [p.payer_id, payerInfo(p)]));
    // The same identities as the CORE envelope around it (connector.ts): the directory's, in production use.
    this.interchanges = new Map(
      directory.payers.map((p) => [p.payer_id, { sender_id: directory.sender_id, receiver_id: p.receiver_id ?? p.payer_id, usage: 'P' }]),
    );
    this.connectors = new Map(directory.payers.map((p) => [p.payer_id, new PayerConnector(p, credentialsFor(p, env), defaults)]));
    const onBreakerState = options.onBreakerState;
    if (onBreakerState) for (const [id, c] of this.connectors) c.onBreakerState((state) => onBreakerState(id, state));
  }

  payers(): readonly PayerInfo[] {
    return [...this.infos.values()];
  }

  payer(payerId: string): PayerInfo | undefined {
    return this.infos.get(payerId);
  }

  interchange(payerId: string): InterchangeIds | undefined {
    return this.interchanges.get(payerId);
  }

  connector(payerId: string): PayerConnector | undefined {
    return this.connectors.get(payerId);
  }

  exchange(payerId: string, x12: string, ctx: ExchangeContext): Promise<string> {
    const connector = this.connectors.get(payerId);
    if (!connector) return Promise.reject(new PayerError('failure', payerId, 'payer is not in the directory'));
    return connector.exchange(x12, ctx);
  }

  async close(): Promise<void> {
    await Promise.all([...this.connectors.values()].map((c) => c.close()));
  }
}
