/**
 * The JWS algorithm name put in the assertion header. `EdDSA` is what RFC 8037 and the Partner Equity API
 * name; `Ed25519` is the fully-specified name (RFC 9864) for servers that want it.
 *
 * @default 'EdDSA'
 */
export type AssertionAlgorithm = 'EdDSA' | 'Ed25519';

/** The protected header of a client assertion. */
export interface AssertionHeader {
  alg: AssertionAlgorithm;
  typ: 'JWT';
  /** The id of the registered public key, when one was configured with `keyId`. */
  kid?: string;
}

/**
 * The claims of a client assertion (RFC 7523), as the API's Authentication section requires them.
 * Times are integer Unix seconds built from absolute numbers, never from relative strings.
 */
export interface AssertionClaims {
  /** The partner's own API base URL (`issuer` option). */
  iss: string;
  /** The partner's `client_id`. */
  sub: string;
  /** Exactly the `baseUrl` the client was built with: a sandbox assertion is refused by production. */
  aud: string;
  /** Equal to `sub`; the API rejects the exchange otherwise. */
  client_id: string;
  /** Issued at: the local clock plus the offset learned from the server's `Date` header. */
  iat: number;
  /** `iat + 60`: the API recommends one-minute assertions. */
  exp: number;
  /** Random and unique per assertion, so a captured assertion cannot be replayed as a different attempt. */
  jti: string;
}

/**
 * Signs a client assertion somewhere else — a KMS, an HSM, a signing service — so the private key never
 * enters the process. It receives the claims and the header the SDK built and returns the compact JWT
 * (`header.payload.signature`, base64url). The signature must be Ed25519 over the signing input
 * (see {@link jwsSigningInput}), and the returned header must carry the same `alg` (and `kid`, if any).
 *
 * @example
 * ```ts
 * import { PartnerEquity, jwsSigningInput } from '@partner-equity/sdk';
 *
 * const client = new PartnerEquity({
 *   baseUrl, clientId, issuer,
 *   signer: async (claims, header) => {
 *     const input = jwsSigningInput(header, claims);
 *     const signature = await kms.sign({ keyId: 'partner-equity', message: Buffer.from(input) }); // raw 64 bytes
 *     return `${input}.${Buffer.from(signature).toString('base64url')}`;
 *   },
 * });
 * ```
 */
export type Signer = (claims: AssertionClaims, header: AssertionHeader) => Promise<string>;

/**
 * The JWS signing input `BASE64URL(header) + '.' + BASE64URL(claims)` (RFC 7515 §5.1): the exact bytes
 * an external {@link Signer} has to sign with Ed25519.
 *
 * @example
 * ```ts
 * const input = jwsSigningInput(header, claims); // 'eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3Mi…'
 * ```
 */
export function jwsSigningInput(header: AssertionHeader, claims: AssertionClaims): string {
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
