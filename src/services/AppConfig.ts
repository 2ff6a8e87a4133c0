import { Config, ConfigError, ConfigProvider, Context, Effect, Either, Layer, Option, Redacted } from "effect"
import { bundled as bundledSkills, parseSkillsSource, type SkillsSource } from "./skills/Source.ts"

export type Deployment = "public" | "enclave"

/** Operator configuration, read once at start-up. The environment variable names are a contract. */
export interface AppConfigShape {
  readonly port: number
  readonly host: string
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
  readonly trustProxy: boolean
  /** Abuse limits of the OAuth authorization server (public deployment). */
  readonly oauthLimits: OAuthLimitsConfig
  /** Enclave deployment: how service JWTs are verified (see `services/ServiceJwt.ts`). */
  readonly serviceJwt: ServiceJwtConfig
  /** A remote rendering backend; unset renders documents in process. */
  readonly renderBackendUrl: Option.Option<string>
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

export class AppConfig extends Context.Tag("app/AppConfig")<AppConfig, AppConfigShape>() {}

const trimSlash = (url: string) => url.replace(/\/+$/, "")

/** The `LOG_LEVEL` names the logger knows; anything else stops start-up. */
export const LogLevelNames = ["all", "trace", "debug", "info", "warn", "warning", "error", "fatal", "none"] as const

/** A rule's failure; the variable's name is added to the path by the config it refines. */
const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))

/** A rule over a variable's text; a failure message says what is accepted and what unset means. */
const checked = <A>(name: string, rule: (text: string) => Either.Either<A, ConfigError.ConfigError>) =>
  Config.string(name).pipe(Config.mapOrFail(rule))

const absoluteUrl = (name: string) =>
  checked(name, (text) => {
    const value = trimSlash(text.trim())
    return /^https?:\/\/[^/]/.test(value)
      ? Either.right(value)
      : invalid("must be an absolute http(s) URL such as https://host.example")
  })

const url = (name: string, fallback: string) => absoluteUrl(name).pipe(Config.withDefault(fallback))

const integerIn = (
  name: string,
  min: number,
  max: number,
  fallback: number,
  what = `an integer from ${min} to ${max}`
) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = Number(text.trim())
      return /^-?\d+$/.test(text.trim()) && value >= min && value <= max
        ? Either.right(value)
        : invalid(`must be ${what} (unset: ${fallback})`)
    }),
    Config.withDefault(fallback)
  )

const oneOf = <const L extends ReadonlyArray<string>>(name: string, values: L, fallback: L[number]) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const value = text.trim().toLowerCase()
      return (values as ReadonlyArray<string>).includes(value)
        ? Either.right(value as L[number])
        : invalid(`must be one of ${values.join(", ")} (unset: ${fallback})`)
    }),
    Config.withDefault(fallback)
  )

const optionalText = (name: string) => Config.option(Config.string(name))

/** Stage one: every variable on its own, so that all mistakes are reported together. */
const variables = Config.all({
  port: integerIn("PORT", 0, 65535, 8787, "a TCP port from 0 to 65535 (0 picks a free one)"),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  deployment: oneOf("DEPLOYMENT", ["public", "enclave"], "public"),
  publicBaseUrl: Config.option(absoluteUrl("PUBLIC_BASE_URL")),
  authUrl: Config.option(absoluteUrl("AUTH_URL")),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.data")),
  databaseUrl: Config.option(checked("DATABASE_URL", (text) =>
    /^postgres(ql)?:\/\/./.test(text.trim())
      ? Either.right(Redacted.make(text.trim()))
      : invalid("must be a postgres:// or postgresql:// URL (unset: the embedded database under DATA_DIR)"))),
  databasePoolSize: integerIn("DATABASE_POOL_SIZE", 1, 100, 10),
  databaseStatementTimeoutMillis: integerIn(
    "DATABASE_STATEMENT_TIMEOUT_MS",
    100,
    Number.MAX_SAFE_INTEGER,
    10_000,
    "milliseconds, at least 100"
  ),
  databaseConnectTimeoutMillis: integerIn(
    "DATABASE_CONNECT_TIMEOUT_MS",
    100,
    Number.MAX_SAFE_INTEGER,
    5_000,
    "milliseconds, at least 100"
  ),
  databaseSsl: Config.option(checked("DATABASE_SSL", (text) => {
    const value = text.trim().toLowerCase()
    return value === "disable" || value === "require" || value === "verify-full"
      ? Either.right(value as DatabaseSsl)
      : invalid("must be one of disable, require, verify-full (unset: as DATABASE_URL says)")
  })),
  databaseSslCaFile: optionalText("DATABASE_SSL_CA_FILE"),
  redisUrl: Config.option(checked("REDIS_URL", (text) =>
    /^rediss?:\/\/./.test(text.trim())
      ? Either.right(Redacted.make(text.trim()))
      : invalid("must be a redis:// or rediss:// URL (unset: the rate limit is kept in memory)"))),
  redisKeyPrefix: checked("REDIS_KEY_PREFIX", (text) =>
    /^[\x21-\x7e]{1,64}$/.test(text)
      ? Either.right(text)
      : invalid("must be 1 to 64 printable characters without spaces (unset: ecds:ratelimit:)")).pipe(
      Config.withDefault("ecds:ratelimit:")
    ),
  ecfrBaseUrl: url("ECFR_BASE_URL", "https://www.ecfr.gov"),
  cslBulkUrl: url(
    "CSL_BULK_URL",
    "https://data.trade.gov/downloadable_consolidated_screening_list/v1/consolidated.json"
  ),
  cslFile: optionalText("CSL_FILE"),
  federalRegisterBaseUrl: url("FEDERAL_REGISTER_BASE_URL", "https://www.federalregister.gov"),
  secEdgarBaseUrl: url("SEC_EDGAR_BASE_URL", "https://efts.sec.gov"),
  govinfoBaseUrl: url("GOVINFO_BASE_URL", "https://api.govinfo.gov"),
  regulationsBaseUrl: url("REGULATIONS_BASE_URL", "https://api.regulations.gov"),
  dojBaseUrl: url("DOJ_BASE_URL", "https://www.justice.gov"),
  courtListenerBaseUrl: url("COURTLISTENER_BASE_URL", "https://www.courtlistener.com"),
  bisBaseUrl: url("BIS_BASE_URL", "https://www.bis.gov"),
  ddtcBaseUrl: url("DDTC_BASE_URL", "https://www.pmddtc.state.gov"),
  enforcementCollectorContact: Config.option(checked("ENFORCEMENT_COLLECTOR_CONTACT", (text) => {
    const value = text.trim()
    return /\S+@\S+\.\S+/.test(value) && value.length <= 200 && /^[\x20-\x7e]+$/.test(value)
      ? Either.right(value)
      : invalid(
        "must name the operator and a contact e-mail, e.g. \"Acme Corp ops@acme.example\" (unset: no collection)"
      )
  })),
  enforcementRequestSpacingMillis: integerIn(
    "ENFORCEMENT_REQUEST_SPACING_MS",
    0,
    600_000,
    2_000,
    "milliseconds from 0 to 600000"
  ),
  secEdgarUserAgent: Config.option(checked("SEC_EDGAR_USER_AGENT", (text) => {
    const value = text.trim()
    return /\S+@\S+\.\S+/.test(value) && value.length <= 200
      ? Either.right(value)
      : invalid(
        "must name the operator and a contact e-mail, e.g. \"Acme Corp ops@acme.example\" (unset: EDGAR search off)"
      )
  })),
  dataGovApiKey: Config.option(Config.redacted("DATA_GOV_API_KEY")),
  skillsSource: checked("SKILLS_SOURCE", (text) => {
    const source = parseSkillsSource(text)
    return source === undefined
      ? invalid("use `bundled` or `github:owner/repo@ref` (unset: bundled)")
      : Either.right(source)
  }).pipe(Config.withDefault(bundledSkills)),
  githubApiBaseUrl: url("GITHUB_API_BASE_URL", "https://api.github.com"),
  githubRawBaseUrl: url("GITHUB_RAW_BASE_URL", "https://raw.githubusercontent.com"),
  skillsGithubToken: Config.option(Config.redacted("SKILLS_GITHUB_TOKEN")),
  logLevel: oneOf("LOG_LEVEL", LogLevelNames, "info"),
  rateLimitPerMinute: integerIn("RATE_LIMIT_PER_MINUTE", 0, 1_000_000, 120, "an integer >= 0 (0 turns the limit off)"),
  upstreamDeadlineSeconds: integerIn("UPSTREAM_DEADLINE_SECONDS", 1, 120, 8, "whole seconds from 1 to 120"),
  trustProxy: Config.string("TRUST_PROXY").pipe(
    Config.map((value) => value !== "" && value !== "0" && value.toLowerCase() !== "false"),
    Config.withDefault(false)
  ),
  oauthSignInFreeAttempts: integerIn("OAUTH_SIGNIN_FREE_ATTEMPTS", 0, 1000, 10, "an integer from 0 (off) to 1000"),
  oauthSignInAddressFreeAttempts: integerIn(
    "OAUTH_SIGNIN_ADDRESS_FREE_ATTEMPTS",
    0,
    100_000,
    30,
    "an integer from 0 (off) to 100000"
  ),
  oauthSignInFirstDelaySeconds: integerIn("OAUTH_SIGNIN_FIRST_DELAY_SECONDS", 1, 3600, 1, "seconds from 1 to 3600"),
  oauthSignInMaxDelaySeconds: integerIn("OAUTH_SIGNIN_MAX_DELAY_SECONDS", 1, 86_400, 900, "seconds from 1 to 86400"),
  oauthSignInWindowSeconds: integerIn("OAUTH_SIGNIN_WINDOW_SECONDS", 60, 86_400, 3600, "seconds from 60 to 86400"),
  oauthRateLimitPerMinute: integerIn(
    "OAUTH_RATE_LIMIT_PER_MINUTE",
    0,
    1_000_000,
    60,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthRegistrationsPerHourPerAddress: integerIn(
    "OAUTH_REGISTRATIONS_PER_HOUR_PER_ADDRESS",
    0,
    1_000_000,
    10,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthRegistrationsPerHour: integerIn(
    "OAUTH_REGISTRATIONS_PER_HOUR",
    0,
    1_000_000,
    200,
    "an integer >= 0 (0 turns the limit off)"
  ),
  oauthMaxClients: integerIn("OAUTH_MAX_CLIENTS", 1, 1_000_000, 5000, "an integer from 1 to 1000000"),
  oauthUnusedClientHours: integerIn("OAUTH_UNUSED_CLIENT_HOURS", 1, 8760, 24, "hours from 1 to 8760"),
  serviceJwtIssuer: optionalText("SERVICE_JWT_ISSUER"),
  serviceJwtAudience: optionalText("SERVICE_JWT_AUDIENCE"),
  serviceJwtJwksUrl: Config.option(absoluteUrl("SERVICE_JWT_JWKS_URL")),
  serviceJwtPublicKeys: optionalText("SERVICE_JWT_PUBLIC_KEYS"),
  serviceJwtAlgorithms: checked("SERVICE_JWT_ALGORITHMS", (list) => {
    const names = list.split(",").map((name) => name.trim()).filter((name) => name !== "")
    return names.length > 0 && names.every((name) => (ServiceJwtAlgorithms as ReadonlyArray<string>).includes(name))
      ? Either.right(names)
      : invalid(`must list only ${ServiceJwtAlgorithms.join(", ")} (unset: RS256,PS256,ES256,EdDSA)`)
  }).pipe(Config.withDefault(["RS256", "PS256", "ES256", "EdDSA"])),
  renderBackendUrl: Config.option(absoluteUrl("RENDER_BACKEND_URL")),
  pdfLinkTtlSeconds: integerIn("PDF_LINK_TTL_SECONDS", 1, 604_800, 3600, "seconds from 1 to 604800 (7 days)"),
  pdfStoreMaxBytes: integerIn(
    "PDF_STORE_MAX_BYTES",
    1024 * 1024,
    Number.MAX_SAFE_INTEGER,
    512 * 1024 * 1024,
    "a byte count of at least 1048576"
  ),
  creditHoldSeconds: integerIn("CREDIT_HOLD_SECONDS", 1, 86_400, 900, "seconds from 1 to 86400 (a day)"),
  enterprisePlanName: Config.string("ENTERPRISE_PLAN_NAME").pipe(Config.withDefault("Enterprise")),
  enterprisePurchaseUrl: Config.option(absoluteUrl("ENTERPRISE_PURCHASE_URL")),
  enterpriseContact: Config.string("ENTERPRISE_CONTACT").pipe(Config.withDefault("sales@example.com"))
})

/** The enclave verifies every guarded request: it cannot start without an issuer and its keys. */
const enclaveProblems = (v: Config.Config.Success<typeof variables>): ReadonlyArray<ConfigError.ConfigError> =>
  v.deployment !== "enclave" ? [] : [
    ...(Option.isNone(v.serviceJwtIssuer)
      ? [
        ConfigError.MissingData(
          ["SERVICE_JWT_ISSUER"],
          "is required when DEPLOYMENT=enclave: set it to the `iss` of your service JWTs"
        )
      ]
      : []),
    ...(Option.isNone(v.serviceJwtJwksUrl) && Option.isNone(v.serviceJwtPublicKeys)
      ? [
        ConfigError.MissingData(
          ["SERVICE_JWT_JWKS_URL"],
          "is required when DEPLOYMENT=enclave: set it to the issuer's JWKS URL, or set SERVICE_JWT_PUBLIC_KEYS to its keys"
        )
      ]
      : [])
  ]

export const read: Effect.Effect<AppConfigShape, ConfigError.ConfigError> = Effect.gen(function*() {
  const v = yield* variables
  const problems = enclaveProblems(v)
  if (problems.length > 0) return yield* Effect.fail(problems.reduce((all, next) => ConfigError.And(all, next)))
  const urlHost = v.host.includes(":") ? `[${v.host}]` : v.host
  const publicBaseUrl = Option.getOrElse(v.publicBaseUrl, () => `http://${urlHost}:${v.port}`)
  return {
    port: v.port,
    host: v.host,
    deployment: v.deployment,
    publicBaseUrl,
    authUrl: Option.getOrElse(v.authUrl, () => publicBaseUrl),
    dataDir: v.dataDir,
    database: {
      url: v.databaseUrl,
      poolSize: v.databasePoolSize,
      statementTimeoutMillis: v.databaseStatementTimeoutMillis,
      connectTimeoutMillis: v.databaseConnectTimeoutMillis,
      ssl: v.databaseSsl,
      sslCaFile: v.databaseSslCaFile
    },
    redisUrl: v.redisUrl,
    redisKeyPrefix: v.redisKeyPrefix,
    ecfrBaseUrl: v.ecfrBaseUrl,
    cslBulkUrl: v.cslBulkUrl,
    cslFile: v.cslFile,
    federalRegisterBaseUrl: v.federalRegisterBaseUrl,
    secEdgarBaseUrl: v.secEdgarBaseUrl,
    govinfoBaseUrl: v.govinfoBaseUrl,
    regulationsBaseUrl: v.regulationsBaseUrl,
    dojBaseUrl: v.dojBaseUrl,
    courtListenerBaseUrl: v.courtListenerBaseUrl,
    enforcementCollection: {
      contact: v.enforcementCollectorContact,
      bisBaseUrl: v.bisBaseUrl,
      ddtcBaseUrl: v.ddtcBaseUrl,
      spacingMillis: v.enforcementRequestSpacingMillis
    },
    secEdgarUserAgent: v.secEdgarUserAgent,
    dataGovApiKey: v.dataGovApiKey,
    skillsSource: v.skillsSource,
    githubApiBaseUrl: v.githubApiBaseUrl,
    githubRawBaseUrl: v.githubRawBaseUrl,
    skillsGithubToken: v.skillsGithubToken,
    logLevel: v.logLevel,
    rateLimitPerMinute: v.rateLimitPerMinute,
    upstreamDeadlineSeconds: v.upstreamDeadlineSeconds,
    trustProxy: v.trustProxy,
    oauthLimits: {
      signInFreeAttempts: v.oauthSignInFreeAttempts,
      signInAddressFreeAttempts: v.oauthSignInAddressFreeAttempts,
      signInFirstDelaySeconds: v.oauthSignInFirstDelaySeconds,
      signInMaxDelaySeconds: v.oauthSignInMaxDelaySeconds,
      signInWindowSeconds: v.oauthSignInWindowSeconds,
      requestsPerMinute: v.oauthRateLimitPerMinute,
      registrationsPerHourPerAddress: v.oauthRegistrationsPerHourPerAddress,
      registrationsPerHour: v.oauthRegistrationsPerHour,
      maxClients: v.oauthMaxClients,
      unusedClientHours: v.oauthUnusedClientHours
    },
    serviceJwt: {
      issuer: v.serviceJwtIssuer,
      audience: Option.getOrElse(v.serviceJwtAudience, () => publicBaseUrl),
      jwksUrl: v.serviceJwtJwksUrl,
      publicKeys: v.serviceJwtPublicKeys,
      algorithms: v.serviceJwtAlgorithms
    },
    renderBackendUrl: v.renderBackendUrl,
    pdfLinkTtlSeconds: v.pdfLinkTtlSeconds,
    pdfStoreMaxBytes: v.pdfStoreMaxBytes,
    creditHoldSeconds: v.creditHoldSeconds,
    enterprisePlan: {
      name: v.enterprisePlanName,
      purchaseUrl: Option.getOrElse(v.enterprisePurchaseUrl, () => `${publicBaseUrl}/docs`),
      contact: v.enterpriseContact
    }
  }
})

/** Variables whose values are never printed, even in a start-up error. */
const secretVariables = new Set([
  "DATA_GOV_API_KEY",
  "SKILLS_GITHUB_TOKEN",
  "SERVICE_JWT_PUBLIC_KEYS",
  "DATABASE_URL",
  "REDIS_URL",
  "ECDS_API_KEY"
])

/**
 * One line per configuration problem: the variable, its value (hidden for secrets) and what to set,
 * e.g. `LOG_LEVEL="verbose": must be one of … (unset: info)`.
 */
export const describeError = (
  error: ConfigError.ConfigError,
  env: Readonly<Record<string, string | undefined>>
): ReadonlyArray<string> =>
  ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    orCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    invalidDataCase: (_, path, message) => {
      const name = path.join("_")
      const value = env[name]
      const shown = value === undefined ? "" : secretVariables.has(name) ? "=(hidden)" : `=${JSON.stringify(value)}`
      return [`${name}${shown}: ${message}`]
    },
    missingDataCase: (_, path, message) => [`${path.join("_")} ${message}`],
    sourceUnavailableCase: (_, path, message) => [`${path.join("_")}: ${message}`],
    unsupportedCase: (_, path, message) => [`${path.join("_")}: ${message}`]
  })

/** Reads the configuration from the active ConfigProvider (the environment by default). */
export const layer: Layer.Layer<AppConfig, ConfigError.ConfigError> = Layer.effect(AppConfig, read)

/** A configuration for tests: defaults with the given overrides, never reading the environment. */
export const layerWith = (overrides: Partial<AppConfigShape>): Layer.Layer<AppConfig> =>
  Layer.effect(
    AppConfig,
    read.pipe(
      Effect.map((defaults) => ({ ...defaults, ...overrides })),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map())),
      Effect.orDie
    )
  )
