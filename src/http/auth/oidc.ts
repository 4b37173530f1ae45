/**
 * OpenID Connect sign-in for the console (authorization code flow with PKCE), for practices whose
 * people already have accounts at Google Workspace or Microsoft Entra ID. Written on node:crypto
 * and fetch: discovery, the JWKS, the code exchange, and the ID token's signature (RS256) and
 * claims (iss, aud, azp, exp, iat, nonce). The person still needs a user here (`coverage users add
 * NAME --sso`): the identity provider says who they are, this service says whether they may.
 */
import { createHash, createPublicKey, randomBytes, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import { systemClock, type Clock } from '../../domain/clock.ts';

export interface OidcConfig {
  /** The issuer, exactly as its discovery document states it. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** This service's callback as the provider knows it: https://HOST/console/oidc/callback. */
  redirectUri: string;
  /** The claim that is the username here: `email` (only when email_verified is true) or, for one Entra tenant, `preferred_username`. */
  usernameClaim: string;
  /** The button's words in the console. */
  label: string;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
}

export class OidcError extends Error {}

const FETCH_TIMEOUT_MS = 10_000;
/** Clock difference tolerated between this server and the provider. */
const SKEW_SECONDS = 120;
const JWKS_TTL_MS = 60 * 60_000;

const random = () => randomBytes(32).toString('base64url');
const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

function checkedUrl(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new OidcError(`discovery: no ${what}`);
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) throw new OidcError(`discovery: ${what} is not https`);
  return value;
}

async function getJson(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  const text = await res.text();
  if (!res.ok) throw new OidcError(`${new URL(url).pathname} answered ${res.status}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new OidcError(`${new URL(url).pathname} did not answer JSON`);
  }
}

export class OidcClient {
  private discovery: Promise<Discovery> | null = null;
  private jwks: { keys: JsonWebKey[]; at: number } | null = null;

  constructor(
    readonly config: OidcConfig,
    private readonly clock: Clock = systemClock,
  ) {
    checkedUrl(config.issuer, 'issuer');
  }

  private discover(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const doc = await getJson(`${this.config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
      // The document must name the issuer we were configured with (OpenID Connect Discovery 4.3).
      if (doc.issuer !== this.config.issuer) throw new OidcError('discovery: the issuer does not match COVERAGE_OIDC_ISSUER');
      return {
        issuer: doc.issuer,
        authorization_endpoint: checkedUrl(doc.authorization_endpoint, 'authorization_endpoint'),
        token_endpoint: checkedUrl(doc.token_endpoint, 'token_endpoint'),
        jwks_uri: checkedUrl(doc.jwks_uri, 'jwks_uri'),
      };
    })().catch((err: unknown) => {
      this.discovery = null;
      throw err;
    });
    return this.discovery;
  }

  /** Where to send the browser, and what to remember until it comes back. */
  async start(): Promise<{ url: string; pending: PendingSignIn }> {
    const d = await this.discover();
    const pending = { state: random(), nonce: random(), verifier: random() };
    const url = new URL(d.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.clientId,
      redirect_uri: this.config.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: createHash('sha256').update(pending.verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    return { url: url.toString(), pending };
  }

  /** The username the provider vouches for, from the callback's code; throws OidcError when anything is off. */
  async finish(query: { code?: string; state?: string; error?: string }, pending: PendingSignIn): Promise<string> {
    if (query.error) throw new OidcError(`the provider refused: ${query.error.slice(0, 60)}`);
    if (!query.code || !query.state || query.state !== pending.state) throw new OidcError('state does not match');
    const d = await this.discover();
    const token = await getJson(d.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(this.config.clientSecret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: query.code,
        redirect_uri: this.config.redirectUri,
        code_verifier: pending.verifier,
      }).toString(),
    });
    if (typeof token.id_token !== 'string') throw new OidcError('no id_token in the token answer');
    const claims = await this.verifyIdToken(token.id_token, pending.nonce);
    const username = claims[this.config.usernameClaim];
    if (typeof username !== 'string' || username === '') throw new OidcError(`no ${this.config.usernameClaim} claim`);
    if (this.config.usernameClaim === 'email' && claims.email_verified !== true) throw new OidcError('the email is not verified');
    return username;
  }

  async verifyIdToken(jwt: string, nonce: string): Promise<Record<string, unknown>> {
    const parts = jwt.split('.');
    if (parts.length !== 3) throw new OidcError('malformed id_token');
    const [h, p, s] = parts as [string, string, string];
    let header: { alg?: unknown; kid?: unknown; crit?: unknown };
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as typeof header;
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new OidcError('malformed id_token');
    }
    if (header.alg !== 'RS256') throw new OidcError('id_token is not RS256');
    // We implement no JWS extension, so any critical one is one we do not understand (RFC 7515, 4.1.11).
    if (header.crit !== undefined) throw new OidcError('id_token names critical header parameters');
    const jwk = await this.signingKey(typeof header.kid === 'string' ? header.kid : undefined);
    const valid = verifySignature('RSA-SHA256', Buffer.from(`${h}.${p}`), createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(s, 'base64url'));
    if (!valid) throw new OidcError('id_token signature is invalid');

    const now = Math.floor(this.clock.now() / 1000);
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== this.config.issuer) throw new OidcError('id_token iss does not match');
    if (!aud.includes(this.config.clientId)) throw new OidcError('id_token aud does not name this client');
    if (aud.length > 1 && claims.azp !== this.config.clientId) throw new OidcError('id_token azp does not name this client');
    if (typeof claims.exp !== 'number' || claims.exp + SKEW_SECONDS < now) throw new OidcError('id_token has expired');
    if (typeof claims.iat !== 'number' || claims.iat - SKEW_SECONDS > now) throw new OidcError('id_token is issued in the future');
    if (claims.nonce !== nonce) throw new OidcError('id_token nonce does not match');
    return claims;
  }

  /** The provider's key by id; the JWKS is fetched again when a key id is new (the provider rotated). */
  private async signingKey(kid: string | undefined): Promise<JsonWebKey> {
    const find = () => this.jwks?.keys.find((k) => k.kty === 'RSA' && (kid === undefined || k.kid === kid) && (k.use === undefined || k.use === 'sig'));
    const fresh = this.jwks && this.clock.now() - this.jwks.at < JWKS_TTL_MS;
    let key = fresh ? find() : undefined;
    if (!key) {
      const d = await this.discover();
      const doc = await getJson(d.jwks_uri);
      if (!Array.isArray(doc.keys)) throw new OidcError('jwks: no keys');
      this.jwks = { keys: doc.keys as JsonWebKey[], at: this.clock.now() };
      key = find();
    }
    if (!key) throw new OidcError('id_token is signed with an unknown key');
    return key;
  }
}
