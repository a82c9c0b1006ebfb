import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWTPayload,
} from 'jose';
import { OAuth2Issuer, OAuth2Service } from 'oauth2-mock-server';

/**
 * An independently written OpenID Connect provider for the sign-in tests (oauth2-mock-server),
 * standing in for Microsoft Entra ID: discovery, authorization code with PKCE, its own signing
 * key published at /jwks, and an end-session endpoint. Its authorization endpoint signs in at
 * once, as the person `signInAs` names. Used by the server suites and the end-to-end suite.
 */
export class OidcTestProvider {
  readonly issuer = new OAuth2Issuer();
  private readonly service = new OAuth2Service(this.issuer);
  private readonly counts = new Map<string, number>();
  private readonly failures = new Map<string, EndpointFailure>();
  private readonly server: Server;
  private claims: JWTPayload = {};
  private userInfoClaims: JWTPayload = {};
  private forgery: ((genuine: GenuineIdToken) => Promise<string>) | undefined;
  private port = 0;

  private constructor() {
    this.server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://provider').pathname;
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
      const failure = this.failures.get(path);
      if (failure) {
        fail(response, failure);
        return;
      }
      if (path === '/token' && this.forgery) {
        replaceIdToken(response, this.forgery);
        this.forgery = undefined;
      }
      this.service.requestHandler(request, response);
    });
    // Every ID token says who signs in; the access token (it has a scope) is left alone.
    this.service.on('beforeTokenSigning', (token: { payload: JWTPayload }) => {
      if (!('scope' in token.payload)) Object.assign(token.payload, this.claims);
    });
    this.service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) => {
      Object.assign(response.body, this.userInfoClaims);
    });
  }

  /** Starts a provider on 127.0.0.1 (`port` 0: any free port) with one RS256 key. */
  static async start(port = 0): Promise<OidcTestProvider> {
    const provider = new OidcTestProvider();
    await provider.issuer.keys.generate('RS256');
    provider.port = port;
    await provider.resume();
    return provider;
  }

  /** The issuer URL, e.g. http://127.0.0.1:41234 (a loopback address: http is allowed). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Who the next sign-ins are: the claims every ID token carries from now on, and what the
   * userinfo endpoint adds to its `sub` (nothing unless given).
   */
  signInAs(claims: JWTPayload, userInfo: JWTPayload = {}): void {
    this.claims = claims;
    this.userInfoClaims = userInfo;
  }

  /** The next token response carries, instead of its ID token, what `forge` makes of it. */
  forgeNextIdToken(forge: (genuine: GenuineIdToken) => Promise<string>): void {
    this.forgery = forge;
  }

  /** Publishes a new signing key beside the first and returns it, to sign forged tokens with. */
  async publishNewKey(): Promise<SigningKey> {
    const key = await signingKey('RS256');
    await this.issuer.keys.add({ ...key.privateJwk });
    return key;
  }

  /** Makes `path` (e.g. '/jwks') fail as `failure` says until `restore`; the rest still works. */
  breakEndpoint(path: string, failure: EndpointFailure): void {
    this.failures.set(path, failure);
  }

  /** Every endpoint answers again. */
  restore(): void {
    this.failures.clear();
  }

  /** How many requests reached `path` (e.g. '/jwks'). */
  requests(path: string): number {
    return this.counts.get(path) ?? 0;
  }

  /** Stops answering: every connection is refused until `resume`. */
  async pause(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  /** Listens again on the same port, with the same keys. */
  async resume(): Promise<void> {
    if (this.server.listening) return;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.port = (this.server.address() as AddressInfo).port;
    this.issuer.url = this.url;
  }

  stop(): Promise<void> {
    return this.pause();
  }
}

/**
 * Rewrites the token response on its way out: the ID token it carries becomes what `forge` makes
 * of it (the mock's hooks are synchronous, signing is not).
 */
function replaceIdToken(
  response: ServerResponse,
  forge: (genuine: GenuineIdToken) => Promise<string>,
): void {
  const end = response.end.bind(response) as (chunk?: unknown) => ServerResponse;
  response.end = ((chunk?: unknown) => {
    const body = JSON.parse(String(chunk)) as Record<string, unknown>;
    const genuine = String(body.id_token);
    void forge({ header: decodeProtectedHeader(genuine), payload: decodeJwt(genuine) }).then(
      (forged) => {
        const text = JSON.stringify({ ...body, id_token: forged });
        response.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      },
    );
    return response;
  }) as ServerResponse['end'];
}

/**
 * How a broken endpoint answers: a server error, a body that is not JSON, or a connection closed
 * without an answer.
 */
export type EndpointFailure = 'server error' | 'not json' | 'connection closed';

function fail(response: ServerResponse, failure: EndpointFailure): void {
  if (failure === 'connection closed') {
    response.socket?.destroy();
    return;
  }
  const [status, body] =
    failure === 'server error' ? [500, '{"error":"server_error"}'] : [200, '<html>maintenance'];
  response.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

export interface GenuineIdToken {
  header: Record<string, unknown>;
  payload: JWTPayload;
}

export interface SigningKey {
  kid: string;
  alg: string;
  privateJwk: Record<string, unknown>;
  sign(payload: JWTPayload, header?: Record<string, unknown>): Promise<string>;
}

/** A new key pair with a random kid, published nowhere until `publishNewKey` adds it. */
export async function signingKey(alg: 'RS256' | 'ES256'): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `test-${crypto.randomUUID()}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
  return {
    kid,
    alg,
    privateJwk,
    sign: (payload, header = {}) =>
      new SignJWT(payload).setProtectedHeader({ alg, kid, typ: 'JWT', ...header }).sign(privateKey),
  };
}

/** An unsigned token (`alg: none`): header and payload, and an empty signature. */
export function unsignedToken(payload: JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
}

/** A token "signed" with HS256 and `secret` (the client secret a relying party holds). */
export function hmacToken(payload: JWTPayload, secret: string): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}
