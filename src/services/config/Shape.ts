import type { Option, Redacted } from "effect"
import type { SkillsSource } from "../skills/Source.ts"

export type Deployment = "public" | "enclave"

/** Operator configuration, read once at start-up. The environment variable names are a contract. */
export interface AppConfigShape {
  readonly port: number
  readonly host: string
  /** How long a client may take to send a whole request, headers and body (the Node server). */
  readonly requestTimeoutSeconds: number
  readonly deployment: Deployment
  readonly publicBaseUrl: string
  readonly authUrl: string
  readonly dataDir: string
  /** Where shared state lives: the embedded database under DATA_DIR, or a PostgreSQL server. */
  readonly database: DatabaseConfig
  /** Redis for the anonymous rate limit across instances; unset → in memory. */
  readonly redisUrl: Option.Option<Redacted.Redacted>
  /** Prefix of the rate limit's Redis keys, so deployments can share one Redis. */
  readonly redisKeyPrefix: string
  readonly ecfrBaseUrl: string
  readonly cslBulkUrl: string
  readonly cslFile: Option.Option<string>
  readonly federalRegisterBaseUrl: string
  readonly secEdgarBaseUrl: string
  readonly govinfoBaseUrl: string
  readonly regulationsBaseUrl: string
  readonly dojBaseUrl: string
  /** CourtListener REST API v4, called under each caller's own token (court-records tools). */
  readonly courtListenerBaseUrl: string
  /** The enforcement archive's collectors: their upstreams, politeness and the operator they name. */
  readonly enforcementCollection: EnforcementCollectionConfig
  /** EDGAR refuses automated clients without a User-Agent naming a contact; unset → EDGAR search is off. */
  readonly secEdgarUserAgent: Option.Option<string>
  readonly dataGovApiKey: Option.Option<Redacted.Redacted>
  readonly skillsSource: SkillsSource
  readonly githubApiBaseUrl: string
  readonly githubRawBaseUrl: string
  readonly skillsGithubToken: Option.Option<Redacted.Redacted>
  readonly logLevel: string
  readonly rateLimitPerMinute: number
  /**
   * The longest a request waits on an upstream (across retries and sequential calls) before it is
   * answered from a stored copy, a local fallback or a 503; the upstream work itself may go on.
   */
  readonly upstreamDeadlineSeconds: number
  /** Where the client's address is read from behind proxies (`TRUST_PROXY`). */
  readonly trustProxy: TrustProxy
  /** Abuse limits of the OAuth authorization server (public deployment). */
  readonly oauthLimits: OAuthLimitsConfig
  /** Enclave deployment: how service JWTs are verified (see `services/ServiceJwt.ts`). */
  readonly serviceJwt: ServiceJwtConfig
  /** A remote rendering backend; unset renders documents in process. */
  readonly renderBackendUrl: Option.Option<string>
  /** The credential this instance presents to the rendering backend (and a backend requires of callers). */
  readonly renderBackendSecret: Option.Option<Redacted.Redacted>
  /** How long a document rendered over MCP stays behind its download link. */
  readonly pdfLinkTtlSeconds: number
  /** Cap on the bytes of rendered documents waiting for download. */
  readonly pdfStoreMaxBytes: number
  /**
   * How long a credit taken for a render stays held before any instance gives it back as abandoned
   * (its instance died mid-render); far above the longest render.
   */
  readonly creditHoldSeconds: number
  /** Shown in 402 answers of the document endpoints: how to obtain a key or credits. */
  readonly enterprisePlan: {
    readonly name: string
    readonly purchaseUrl: string
    readonly contact: string
  }
}

export interface EnforcementCollectionConfig {
  /** Named in every collector's User-Agent; unset → the service collects nothing on its own. */
  readonly contact: Option.Option<string>
  readonly bisBaseUrl: string
  readonly ddtcBaseUrl: string
  /** Least time between two requests of one collector. */
  readonly spacingMillis: number
}

export interface OAuthLimitsConfig {
  /** Sign-in attempts per e-mail address (as typed) before each next one waits; 0 turns this off. */
  readonly signInFreeAttempts: number
  /** Sign-in attempts per client address before each next one waits; 0 turns this off. */
  readonly signInAddressFreeAttempts: number
  /** The first wait; it doubles with every further attempt up to `signInMaxDelaySeconds`. */
  readonly signInFirstDelaySeconds: number
  readonly signInMaxDelaySeconds: number
  /** How long attempts are remembered after the last wait ends. */
  readonly signInWindowSeconds: number
  /** Requests per minute per client address on `/oauth/*`; 0 turns the limit off. */
  readonly requestsPerMinute: number
  /** Client registrations per hour per client address; 0 turns the limit off. */
  readonly registrationsPerHourPerAddress: number
  /** Client registrations per hour from all addresses together; 0 turns the limit off. */
  readonly registrationsPerHour: number
  /** Registered clients kept at most; registration answers 503 while full. */
  readonly maxClients: number
  /** A client that has not completed an authorization this long after registering is deleted. */
  readonly unusedClientHours: number
}

export type DatabaseSsl = "disable" | "require" | "verify-full"

export interface DatabaseConfig {
  /** `DATABASE_URL`; unset → the embedded database (PGlite) in `DATA_DIR/db`. */
  readonly url: Option.Option<Redacted.Redacted>
  readonly poolSize: number
  readonly statementTimeoutMillis: number
  readonly connectTimeoutMillis: number
  /**
   * `DATABASE_PREPARED_STATEMENTS`: statements with parameters run as named prepared statements on
   * each connection (`on`); `off` for a pooler that cannot keep them (PgBouncer in transaction
   * mode before 1.21, or without `max_prepared_statements`).
   */
  readonly preparedStatements: boolean
  /** TLS to the server; unset → what the URL's `sslmode` says. */
  readonly ssl: Option.Option<DatabaseSsl>
  /** PEM file of the certificate authorities to trust (`verify-full`). */
  readonly sslCaFile: Option.Option<string>
}

export interface ServiceJwtConfig {
  readonly issuer: Option.Option<string>
  /** Defaults to PUBLIC_BASE_URL. */
  readonly audience: string
  readonly jwksUrl: Option.Option<string>
  /** A JWKS document (JSON) or one PEM public key. */
  readonly publicKeys: Option.Option<string>
  readonly algorithms: ReadonlyArray<string>
}

/** Asymmetric JWS algorithms only: `none` and HMAC (which a public key could be abused for) never verify. */
export const ServiceJwtAlgorithms = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519"
] as const

/**
 * `0`: the peer's address (no proxy trusted). `n`: `n` proxies in front each append the address they
 * received from to `X-Forwarded-For`, so the client is the `n`th entry from the right (entries left
 * of it are whatever the client sent). `"cloudflare"`: `CF-Connecting-IP`, which Cloudflare sets
 * and strips from what clients send.
 */
export type TrustProxy = number | "cloudflare"

/** The most proxies `TRUST_PROXY` counts. */
export const maxTrustedProxies = 16
