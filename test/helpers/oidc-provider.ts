/**
 * A small OpenID Connect provider for tests: discovery, JWKS, an authorize endpoint that signs the
 * next person in at once, and a token endpoint that checks the client secret and the PKCE verifier
 * and signs ID tokens with its own RSA key. Tests choose the claims (and so every way a token can
 * be wrong).
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = 'coverage-console';
export const CLIENT_SECRET = 'idp-client-secret-for-tests';
export const REDIRECT_URI = 'https://coverage.clinic.example/console/oidc/callback';

/** The identity provider: it issues a code for whatever claims a test asks, as if the person had signed in there. */
export class TestProvider {
  readonly key = generateKeyPairSync('rsa', { modulusLength: 2048 });
  readonly kid = 'key-1';
  url = '';
  private server: Server | null = null;
  private readonly codes = new Map<string, { claims: Record<string, unknown>; challenge: string; signWith?: KeyObject; header?: Record<string, unknown> }>();
  /** A provider that lets a code be exchanged again (some do, for a short while): replay protection must not rest on it. */
  reusableCodes = false;
  tokenRequests = 0;
  /** For a browser: who the authorize endpoint signs in, and the service to send them back to. */
  browser: { claims: Record<string, unknown>; serviceUrl: string } | null = null;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        const path = new URL(req.url ?? '/', this.url).pathname;
        if (path === '/.well-known/openid-configuration') {
          // The browser reaches the provider as localhost: another site than the service's 127.0.0.1, as in life.
          const browserUrl = this.url.replace('127.0.0.1', 'localhost');
          return json(200, {
            issuer: this.url,
            authorization_endpoint: `${browserUrl}/authorize`,
            token_endpoint: `${this.url}/token`,
            jwks_uri: `${this.url}/jwks`,
          });
        }
        if (path === '/authorize' && this.browser) {
          const authorize = new URL(req.url ?? '/', this.url);
          const code = this.issue(authorize.toString(), this.browser.claims);
          // Back to the service that asked (the registered redirect URI names a host the test cannot serve).
          const back = new URL('/console/oidc/callback', this.browser.serviceUrl);
          back.search = new URLSearchParams({ code, state: authorize.searchParams.get('state') ?? '' }).toString();
          res.writeHead(302, { location: back.toString() });
          return res.end();
        }
        if (path === '/jwks') return json(200, { keys: [{ ...this.key.publicKey.export({ format: 'jwk' }), kid: this.kid, use: 'sig', alg: 'RS256' }] });
        if (path === '/token' && req.method === 'POST') {
          this.tokenRequests++;
          const form = new URLSearchParams(body);
          const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
          if (req.headers.authorization !== `Basic ${basic}`) return json(401, { error: 'invalid_client' });
          const grant = this.codes.get(form.get('code') ?? '');
          if (!this.reusableCodes) this.codes.delete(form.get('code') ?? '');
          if (!grant || form.get('redirect_uri') !== REDIRECT_URI) return json(400, { error: 'invalid_grant' });
          if (
            createHash('sha256')
              .update(form.get('code_verifier') ?? '')
              .digest('base64url') !== grant.challenge
          )
            return json(400, { error: 'invalid_grant' });
          return json(200, { access_token: 'at', token_type: 'Bearer', id_token: this.jwt(grant.claims, grant.signWith, grant.header) });
        }
        json(404, {});
      });
    });
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server!.once('listening', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** `header`: fields added to the JWS header. */
  jwt(claims: Record<string, unknown>, signWith: KeyObject = this.key.privateKey, header: Record<string, unknown> = {}): string {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid: this.kid, typ: 'JWT', ...header })}.${part(claims)}`;
    return `${input}.${sign('RSA-SHA256', Buffer.from(input), signWith).toString('base64url')}`;
  }

  /** What the provider hands back after the person signs in there: a code for these claims. */
  issue(authorizeUrl: string, claims: Record<string, unknown>, options: { signWith?: KeyObject; header?: Record<string, unknown> } = {}): string {
    const q = new URL(authorizeUrl).searchParams;
    const now = Math.floor(Date.now() / 1000);
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      claims: { iss: this.url, aud: CLIENT_ID, sub: randomBytes(8).toString('hex'), iat: now, exp: now + 300, nonce: q.get('nonce'), ...claims },
      challenge: q.get('code_challenge') ?? '',
      ...(options.signWith ? { signWith: options.signWith } : {}),
      ...(options.header ? { header: options.header } : {}),
    });
    return code;
  }
}
