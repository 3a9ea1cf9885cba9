import type { AssertionIdentity } from '../auth/assertion.js';
import { importPrivateKey } from '../auth/import-private-key.js';
import type { Signer } from '../auth/signer.js';
import type { SigningKey } from '../auth/signing-key.js';
import {
  type Authenticator,
  type ClientOptions,
  describeRoute,
  processEnv,
  type Requester,
  type ResponseValidationMode,
} from './sdk-core.js';

/** What the doctor needs of a client; the client builds it (`PartnerEquity#doctor`). @internal */
export interface DoctorTarget {
  /** The configured base URL, exactly as given (it is also the JWT `aud`). */
  baseUrl: string;
  /** How requests leave this process: direct, through the proxy the environment names, or the partner's own. */
  route: string;
  /** The client's request pipeline without an authenticator: the doctor supplies tokens itself. */
  requester: Requester;
  responseValidation: ResponseValidationMode;
  /** The client's `defaultHeaders`, sent on every call (they may carry a header a service requires). */
  defaultHeaders: Readonly<Record<string, string>>;
  /** How assertions are made, when the client was given credentials. */
  credentials?: { identity: AssertionIdentity; sign: SigningKey | Signer } | undefined;
  /** A partner-supplied `authenticator` (tokens the SDK does not make): used as is, nothing to diagnose. */
  authenticator?: Authenticator | undefined;
}

/** An {@link Authenticator} that always hands out `token` and never renews it. */
export function fixedToken(token: string): Authenticator {
  return { getToken: async () => token, onUnauthorized: async () => false };
}

/**
 * The doctor's view of a client: its validated options and request pipeline (whose authenticator is left
 * out: the doctor makes and diagnoses its own token exchange, as the token manager would).
 */
export function doctorTarget(options: Readonly<ClientOptions>, requester: Requester): DoctorTarget {
  const { baseUrl, clientId, issuer, privateKey, signer, keyId, assertionAlgorithm } = options;
  const hasKey = signer !== undefined || privateKey !== undefined;
  return {
    baseUrl,
    route: URL.canParse(baseUrl) ? describeRoute(new URL(baseUrl), processEnv(), options) : 'unknown',
    requester: requester.with({ authenticator: undefined }),
    responseValidation: requester.config.validation.mode,
    defaultHeaders: { ...options.defaultHeaders },
    credentials:
      clientId === undefined || issuer === undefined || !hasKey
        ? undefined
        : {
            identity: { issuer, clientId, audience: baseUrl, keyId, algorithm: assertionAlgorithm },
            sign: signer ?? importPrivateKey(privateKey),
          },
    authenticator: options.authenticator,
  };
}
