import { ConfigError, ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import type { AppConfigShape } from "./config/Shape.ts"
import { type Variables, variables } from "./config/Variables.ts"

export { describeError } from "./config/Problems.ts"
export type {
  AppConfigShape,
  DatabaseConfig,
  DatabaseSsl,
  Deployment,
  EnforcementCollectionConfig,
  OAuthLimitsConfig,
  ServiceJwtConfig,
  TrustProxy
} from "./config/Shape.ts"
export { ServiceJwtAlgorithms } from "./config/Shape.ts"
export { LogLevelNames, renderBackendSecret } from "./config/Variables.ts"

/*
 * Operator configuration, read once at start-up in two stages: every variable on its own
 * (`config/Variables.ts`, so that all mistakes are reported together), then the rules that join
 * several of them and the shape the services read (`config/Shape.ts`).
 */

export class AppConfig extends Context.Tag("app/AppConfig")<AppConfig, AppConfigShape>() {}

/** The enclave verifies every guarded request: it cannot start without an issuer and its keys. */
const enclaveProblems = (v: Variables): ReadonlyArray<ConfigError.ConfigError> =>
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

/** A rendering backend without `RENDER_BACKEND_SECRET` may listen only here, where no other machine reaches it. */
export const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || host === "[::1]" || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(host)

/** A backend on another machine refuses unauthenticated callers, so the instance needs the secret too. */
const renderBackendProblems = (v: Variables): ReadonlyArray<ConfigError.ConfigError> =>
  Option.isSome(v.renderBackendUrl) && Option.isNone(v.renderBackendSecret) &&
    !isLoopback(new URL(v.renderBackendUrl.value).hostname)
    ? [
      ConfigError.MissingData(
        ["RENDER_BACKEND_SECRET"],
        "is required when RENDER_BACKEND_URL names another machine: set the secret its backend was started with"
      )
    ]
    : []

/** A CA file is read only to check the server's certificate: set without that, it would be silently unused. */
const databaseTlsProblems = (v: Variables): ReadonlyArray<ConfigError.ConfigError> =>
  Option.isSome(v.databaseSslCaFile) && Option.getOrUndefined(v.databaseSsl) !== "verify-full"
    ? [
      ConfigError.InvalidData(
        ["DATABASE_SSL_CA_FILE"],
        "is used only with DATABASE_SSL=verify-full (the server's certificate checked against it): set DATABASE_SSL=verify-full, or unset DATABASE_SSL_CA_FILE"
      )
    ]
    : []

/** The `DATABASE_URL` parameters `pg` reads TLS settings from; they replace its `ssl` option whole. */
const urlTlsParameters = ["ssl", "sslmode", "sslcert", "sslkey", "sslrootcert"] as const

const tlsParametersOf = (url: string): ReadonlyArray<string> => {
  try {
    const query = new URL(url).searchParams
    return urlTlsParameters.filter((name) => query.has(name))
  } catch {
    return []
  }
}

/**
 * `pg` lets the URL's TLS parameters override the `ssl` option built from `DATABASE_SSL`, so with
 * both set the URL's would silently win (`sslmode=no-verify` under `DATABASE_SSL=verify-full`).
 */
const databaseTlsSourceProblems = (v: Variables): ReadonlyArray<ConfigError.ConfigError> => {
  if (Option.isNone(v.databaseSsl) || Option.isNone(v.databaseUrl)) return []
  const inUrl = tlsParametersOf(Redacted.value(v.databaseUrl.value))
  return inUrl.length === 0 ? [] : [
    ConfigError.InvalidData(
      ["DATABASE_SSL"],
      `is set, and DATABASE_URL sets TLS too (${
        inUrl.join(", ")
      }), which would override it: keep one, DATABASE_SSL or the URL's parameters`
    )
  ]
}

export const read: Effect.Effect<AppConfigShape, ConfigError.ConfigError> = Effect.gen(function*() {
  const v = yield* variables
  const problems = [
    ...enclaveProblems(v),
    ...renderBackendProblems(v),
    ...databaseTlsProblems(v),
    ...databaseTlsSourceProblems(v)
  ]
  if (problems.length > 0) return yield* Effect.fail(problems.reduce((all, next) => ConfigError.And(all, next)))
  const urlHost = v.host.includes(":") ? `[${v.host}]` : v.host
  const publicBaseUrl = Option.getOrElse(v.publicBaseUrl, () => `http://${urlHost}:${v.port}`)
  return {
    port: v.port,
    host: v.host,
    requestTimeoutSeconds: v.requestTimeoutSeconds,
    deployment: v.deployment,
    publicBaseUrl,
    authUrl: Option.getOrElse(v.authUrl, () => publicBaseUrl),
    dataDir: v.dataDir,
    database: {
      url: v.databaseUrl,
      poolSize: v.databasePoolSize,
      statementTimeoutMillis: v.databaseStatementTimeoutMillis,
      connectTimeoutMillis: v.databaseConnectTimeoutMillis,
      preparedStatements: v.databasePreparedStatements === "on",
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
    renderBackendSecret: v.renderBackendSecret,
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
